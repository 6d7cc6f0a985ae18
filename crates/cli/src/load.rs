//! The run layer's loading with a progress bar on a terminal, and what the
//! user reads about the inputs on stderr.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use awrflash_model::Document;
use awrflash_run::{Databases, Loaded, Progress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::ui::Ui;

/// The run layer's progress as an indicatif bar on a terminal.
struct Bar(ProgressBar);

impl Progress for Bar {
    fn start(&self, units: usize) {
        self.0.set_length(units as u64);
    }

    fn done(&self, bytes: u64, elapsed: Duration) {
        self.0.inc(1);
        let secs = elapsed.as_secs_f64().max(1e-3);
        let mb = bytes as f64 / 1_048_576.0;
        self.0.set_message(format!(
            "{:.1} files/s  {:.1} MB/s",
            self.0.position() as f64 / secs,
            mb / secs
        ));
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// Expands, reads and parses the inputs, with a progress bar on a terminal.
pub fn load(args: &[PathBuf], ui: &Ui) -> Loaded {
    awrflash_run::load(args, &Bar(progress_bar(ui)))
}

fn progress_bar(ui: &Ui) -> ProgressBar {
    if ui.quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed:>4} [{bar:30}] {pos}/{len} files  {msg}")
    {
        pb.set_style(style.progress_chars("=> "));
    }
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}

/// Prints the failures, the documents' warnings (with `-v`) and the
/// ok/failed summary to stderr.
pub fn report(loaded: &Loaded, ui: &Ui) {
    for (_, message) in &loaded.failed {
        ui.warn(message);
    }
    let warnings: usize = loaded.docs.iter().map(|d| d.warnings().len()).sum();
    // A warning that changes how the result reads (a report cut short,
    // snapshots across a shutdown, a hidden identity) is printed at the
    // default verbosity; the others with `-v`.
    for d in &loaded.docs {
        for w in d.warnings().iter().filter(|w| w.is_meaning_changing()) {
            let section = if w.section.is_empty() {
                String::new()
            } else {
                format!(" [{}]", w.section)
            };
            ui.warn(&format!(
                "{}:{}:{section} {}",
                d.source().path,
                w.line,
                w.message
            ));
        }
    }
    if ui.verbose > 0 {
        for d in &loaded.docs {
            for w in d.warnings().iter().filter(|w| !w.is_meaning_changing()) {
                ui.note(&format!(
                    "{}:{}: [{}] {}",
                    d.source().path,
                    w.line,
                    w.section,
                    w.message
                ));
            }
        }
    }
    let mut summary = format!(
        "{} {}: {} ok, {} failed",
        loaded.total(),
        plural(loaded.total(), "input", "inputs"),
        loaded.docs.len(),
        loaded.failed.len()
    );
    if warnings > 0 {
        summary.push_str(&format!(
            "; {warnings} parse {}{}",
            plural(warnings, "warning", "warnings"),
            if ui.verbose > 0 {
                ""
            } else {
                " (-v shows them)"
            }
        ));
    }
    ui.note(&summary);
    if ui.verbose > 0 {
        let secs = loaded.elapsed.as_secs_f64().max(1e-3);
        ui.note(&format!(
            "read {:.1} MB in {:.2} s ({:.1} files/s, {:.1} MB/s)",
            loaded.bytes as f64 / 1_048_576.0,
            secs,
            loaded.total() as f64 / secs,
            loaded.bytes as f64 / 1_048_576.0 / secs
        ));
    }
}

/// Loads the inputs and reports them; an error when nothing could be used.
pub fn load_usable(args: &[PathBuf], ui: &Ui) -> anyhow::Result<Vec<Document>> {
    let loaded = load(args, ui);
    report(&loaded, ui);
    if loaded.docs.is_empty() {
        anyhow::bail!(
            "no usable input: none of the {} inputs could be read",
            loaded.total()
        );
    }
    Ok(loaded.docs)
}

/// Loads the inputs, reports them, and sorts the documents into databases
/// with the auxiliary inputs that fit them.
pub fn load_databases(
    args: &[PathBuf],
    roles: Option<&Path>,
    ui: &Ui,
) -> anyhow::Result<Databases> {
    let dbs = awrflash_run::databases(load_usable(args, ui)?, roles)?;
    report_duplicates(&dbs.duplicates, ui);
    for n in &dbs.notes {
        ui.note(n);
    }
    Ok(dbs)
}

pub fn report_duplicates(duplicates: &[(String, String)], ui: &Ui) {
    if duplicates.is_empty() {
        return;
    }
    ui.note(&format!(
        "{} report {} given more than once; each is analysed once{}",
        duplicates.len(),
        plural(duplicates.len(), "interval", "intervals"),
        if ui.verbose > 0 {
            ":"
        } else {
            " (-v lists them)"
        }
    ));
    if ui.verbose > 0 {
        for (skipped, kept) in duplicates {
            ui.note(&format!("  {skipped} is the same interval as {kept}"));
        }
    }
}

pub fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
