//! The run layer's loading with a progress bar on a terminal, and what the
//! user reads about the inputs on stderr.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use awrflash_model::{Analysis, Document};
use awrflash_run::output::RunNotes;
use awrflash_run::{Database, Databases, LoadSummary, Loaded, Progress};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::ui::Ui;

/// The run layer's progress as an indicatif bar on a terminal.
struct Bar(ProgressBar);

impl Progress for Bar {
    fn start(&self, units: usize) {
        self.0.set_length(units as u64);
        self.0.set_position(0);
    }

    fn pass(&self, what: &'static str, units: usize) {
        self.0.set_prefix(what);
        self.start(units);
    }

    fn done(&self, bytes: u64, elapsed: Duration) {
        self.0.inc(1);
        let secs = elapsed.as_secs_f64().max(1e-3);
        let mb = bytes as f64 / 1_048_576.0;
        // A pass that reads headers only has read no whole input yet.
        let rate = if bytes > 0 {
            format!("  {:.1} MB/s", mb / secs)
        } else {
            String::new()
        };
        self.0
            .set_message(format!("{:.1}/s{rate}", self.0.per_sec()));
    }

    fn finish(&self) {
        self.0.finish_and_clear();
    }
}

/// Expands, reads and parses the inputs, with a progress bar on a terminal.
pub fn load(args: &[PathBuf], ui: &Ui) -> Loaded {
    awrflash_run::load(args, &Bar(progress_bar(ui)))
}

/// [`awrflash_run::load_each`] with a progress bar on a terminal.
pub fn load_each<E>(
    args: &[PathBuf],
    ui: &Ui,
    each: &mut dyn FnMut(Document) -> Result<(), E>,
) -> Result<LoadSummary, E> {
    awrflash_run::load_each(args, &Bar(progress_bar(ui)), each)
}

fn progress_bar(ui: &Ui) -> ProgressBar {
    if ui.quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(0), ProgressDrawTarget::stderr());
    if let Ok(style) =
        ProgressStyle::with_template("{elapsed:>4} [{bar:30}] {pos}/{len} {prefix}  {msg}")
    {
        pb.set_style(style.progress_chars("=> "));
    }
    pb.set_prefix("files");
    pb.enable_steady_tick(Duration::from_millis(200));
    pb
}

/// Prints the failures, the documents' warnings (with `-v`) and the
/// ok/failed summary to stderr; returns the failures and the warnings
/// printed at the default verbosity, for the batch index.
pub fn report(loaded: &Loaded, ui: &Ui) -> RunNotes {
    report_summary(&loaded.summary(), ui)
}

/// [`report`] from what a streamed run kept of its inputs.
pub fn report_summary(loaded: &LoadSummary, ui: &Ui) -> RunNotes {
    let mut notes = RunNotes::default();
    for (name, message) in &loaded.failed {
        ui.warn(message);
        notes.failed.push((name.clone(), message.clone()));
    }
    let warnings: usize = loaded.warnings.iter().map(|(_, w)| w.len()).sum();
    // A warning that changes how the result reads (a report cut short,
    // snapshots across a shutdown, a hidden identity) is printed at the
    // default verbosity; the others with `-v`.
    for (path, ws) in &loaded.warnings {
        for w in ws.iter().filter(|w| w.is_meaning_changing()) {
            let section = if w.section.is_empty() {
                String::new()
            } else {
                format!(" [{}]", w.section)
            };
            let text = format!("{path}:{}:{section} {}", w.line, w.message);
            ui.warn(&text);
            notes.warnings.push(text);
        }
    }
    if ui.verbose > 0 {
        for (path, ws) in &loaded.warnings {
            for w in ws.iter().filter(|w| !w.is_meaning_changing()) {
                ui.note(&format!("{path}:{}: [{}] {}", w.line, w.section, w.message));
            }
        }
    }
    let mut summary = format!(
        "{} {}: {} ok, {} failed",
        loaded.total(),
        plural(loaded.total(), "input", "inputs"),
        loaded.ok,
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
        report_speed(loaded, ui);
    }
    notes
}

fn report_speed(loaded: &LoadSummary, ui: &Ui) {
    let secs = loaded.elapsed.as_secs_f64().max(1e-3);
    ui.note(&format!(
        "read {:.1} MB in {:.2} s ({:.1} files/s, {:.1} MB/s)",
        loaded.bytes as f64 / 1_048_576.0,
        secs,
        loaded.total() as f64 / secs,
        loaded.bytes as f64 / 1_048_576.0 / secs
    ));
}

/// Loads the inputs and reports them; an error when nothing could be used.
pub fn load_usable(args: &[PathBuf], ui: &Ui) -> anyhow::Result<Vec<Document>> {
    load_noted(args, ui).map(|(docs, _)| docs)
}

/// [`load_usable`] with the run's failures and warnings kept.
fn load_noted(args: &[PathBuf], ui: &Ui) -> anyhow::Result<(Vec<Document>, RunNotes)> {
    let loaded = load(args, ui);
    let notes = report(&loaded, ui);
    if loaded.docs.is_empty() {
        anyhow::bail!(
            "no usable input: none of the {} inputs could be read",
            loaded.total()
        );
    }
    Ok((loaded.docs, notes))
}

/// Loads the inputs, reports them, and sorts the documents into databases
/// with the auxiliary inputs that fit them.
pub fn load_databases(
    args: &[PathBuf],
    roles: Option<&Path>,
    ui: &Ui,
) -> anyhow::Result<Databases> {
    load_databases_noted(args, roles, ui).map(|(dbs, _)| dbs)
}

/// [`load_databases`] with the run's failed inputs and warnings (the
/// identity notes among them) kept for the batch index.
pub fn load_databases_noted(
    args: &[PathBuf],
    roles: Option<&Path>,
    ui: &Ui,
) -> anyhow::Result<(Databases, RunNotes)> {
    let (docs, mut notes) = load_noted(args, ui)?;
    let dbs = awrflash_run::databases(docs, roles)?;
    report_duplicates(&dbs.duplicates, ui);
    for n in &dbs.notes {
        ui.note(n);
        notes.warnings.push(n.clone());
    }
    Ok((dbs, notes))
}

/// `analyze`'s run in two passes ([`awrflash_run::survey`], then
/// [`awrflash_run::Survey::analyze`]): the heads of the inputs place every
/// report, `check` sees the databases before any report is parsed whole,
/// then each database is parsed, analysed and dropped in turn, so memory
/// follows the largest database. Reports the inputs and the databases as
/// [`load_databases_noted`] does, once every database is done.
pub fn analyze_streamed<T, F>(
    args: &[PathBuf],
    roles: Option<&Path>,
    opts: &awrflash_rules::Options,
    ui: &Ui,
    check: impl FnOnce(&Databases) -> anyhow::Result<()>,
    keep: F,
) -> anyhow::Result<(Databases, Vec<T>, RunNotes)>
where
    T: Send,
    F: Fn(&Database, Analysis) -> T + Sync,
{
    let bar = Bar(progress_bar(ui));
    let survey = awrflash_run::survey(args, roles, &bar)?;
    if !survey.databases().databases.is_empty()
        && let Err(e) = check(survey.databases())
    {
        bar.finish();
        return Err(e);
    }
    let run = survey.analyze(opts, &bar, keep)?;
    if let Some(why) = &run.reread {
        ui.note(&format!(
            "every report was read again in one pass, holding more memory: {why}"
        ));
    }
    let mut notes = report_summary(&run.summary, ui);
    if run.summary.ok == 0 {
        anyhow::bail!(
            "no usable input: none of the {} inputs could be read",
            run.summary.total()
        );
    }
    report_duplicates(&run.databases.duplicates, ui);
    for n in &run.databases.notes {
        ui.note(n);
        notes.warnings.push(n.clone());
    }
    Ok((run.databases, run.results, notes))
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
