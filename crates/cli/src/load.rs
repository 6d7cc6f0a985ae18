//! Reads and parses every input in parallel, with a progress bar on a
//! terminal. A bad input becomes a failure with its reason; the run goes on.

use std::io::IsTerminal;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use awrflash_extract::Grouped;
use awrflash_model::Document;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

use crate::inputs::{self, Unit};
use crate::ui::Ui;

/// What came out of the inputs, in input order.
pub struct Loaded {
    pub docs: Vec<Document>,
    /// `(input name, message naming the input)` in input order.
    pub failed: Vec<(String, String)>,
    pub bytes: u64,
    pub elapsed: Duration,
}

impl Loaded {
    pub fn total(&self) -> usize {
        self.docs.len() + self.failed.len()
    }
}

/// Expands, reads and parses the inputs.
pub fn load(args: &[std::path::PathBuf], ui: &Ui) -> Loaded {
    let start = Instant::now();
    let units = inputs::expand(args);
    let progress = progress_bar(units.len(), ui);
    let bytes = AtomicU64::new(0);
    let results: Vec<Result<Document, String>> = units
        .par_iter()
        .map(|unit| {
            let r = parse_unit(unit, &bytes);
            progress.inc(1);
            let secs = start.elapsed().as_secs_f64().max(1e-3);
            let mb = bytes.load(Ordering::Relaxed) as f64 / 1_048_576.0;
            progress.set_message(format!(
                "{:.1} files/s  {:.1} MB/s",
                progress.position() as f64 / secs,
                mb / secs
            ));
            r
        })
        .collect();
    progress.finish_and_clear();
    let mut docs = Vec::new();
    let mut failed = Vec::new();
    for (unit, r) in units.iter().zip(results) {
        match r {
            Ok(d) => docs.push(d),
            Err(reason) => failed.push((unit.name().to_string(), reason)),
        }
    }
    Loaded {
        docs,
        failed,
        bytes: bytes.into_inner(),
        elapsed: start.elapsed(),
    }
}

/// The document, or why not as `name: reason` (a parse error already reads
/// `name:line: [section] message`).
fn parse_unit(unit: &Unit, bytes: &AtomicU64) -> Result<Document, String> {
    let data = unit
        .read()
        .map_err(|reason| format!("{}: {reason}", unit.name()))?;
    bytes.fetch_add(data.len() as u64, Ordering::Relaxed);
    awrflash_parse::parse_bytes(unit.name(), &data).map_err(|e| e.to_string())
}

fn progress_bar(len: usize, ui: &Ui) -> ProgressBar {
    if ui.quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
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
    if ui.verbose > 0 {
        for d in &loaded.docs {
            for w in d.warnings() {
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

/// Loads the inputs, reports them, and sorts the documents into databases
/// (by snapshot time, each interval once). An error when nothing could be used.
pub fn load_grouped(args: &[std::path::PathBuf], ui: &Ui) -> anyhow::Result<Grouped> {
    let mut loaded = load(args, ui);
    report(&loaded, ui);
    if loaded.docs.is_empty() {
        anyhow::bail!(
            "no usable input: none of the {} inputs could be read",
            loaded.total()
        );
    }
    let grouped = awrflash_extract::group(std::mem::take(&mut loaded.docs));
    report_duplicates(&grouped, ui);
    Ok(grouped)
}

fn report_duplicates(g: &Grouped, ui: &Ui) {
    if g.duplicates.is_empty() {
        return;
    }
    ui.note(&format!(
        "{} report {} given more than once; each is analysed once{}",
        g.duplicates.len(),
        plural(g.duplicates.len(), "interval", "intervals"),
        if ui.verbose > 0 {
            ":"
        } else {
            " (-v lists them)"
        }
    ));
    if ui.verbose > 0 {
        for (skipped, kept) in &g.duplicates {
            ui.note(&format!("  {skipped} is the same interval as {kept}"));
        }
    }
}

pub fn plural<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
