//! Reads and parses every input in parallel. A bad input becomes a failure
//! with its reason; the run goes on. Progress is reported through
//! [`Progress`], so this library never prints.
//!
//! [`load`] keeps every document; [`load_grouped`] groups them by database
//! as they are parsed and keeps one whole report per database, so its
//! memory stays flat however many reports a run reads.

use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use awrflash_model::{DbReport, Document, Source, Warning};
use rayon::prelude::*;

use crate::RunError;
use crate::group::{Grouped, Grouper};
use crate::inputs::{self, Unit};
use crate::outcomes::Outcomes;

/// Told about the parsing as it goes (the command line draws a progress
/// bar). Called from several threads at once.
pub trait Progress: Sync {
    /// Parsing starts with this many units (files and zip members).
    fn start(&self, units: usize) {
        let _ = units;
    }
    /// A pass over the inputs starts that will count this many units:
    /// `what` it reads of them (`headers` in the first pass of a two-pass
    /// run, `reports` in the second).
    fn pass(&self, what: &'static str, units: usize) {
        let _ = what;
        self.start(units);
    }
    /// One more unit is done; `bytes` read so far over all units.
    fn done(&self, bytes: u64, elapsed: Duration) {
        let _ = (bytes, elapsed);
    }
    /// Every unit is done.
    fn finish(&self) {}
}

/// No progress to show.
impl Progress for () {}

/// What came out of the inputs, in input order.
#[derive(Debug, Default)]
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

    /// What the user reads about the inputs, without the documents.
    pub fn summary(&self) -> LoadSummary {
        LoadSummary {
            ok: self.docs.len(),
            failed: self.failed.clone(),
            warnings: self
                .docs
                .iter()
                .filter(|d| !d.warnings().is_empty())
                .map(|d| (d.source().path.clone(), d.warnings().to_vec()))
                .collect(),
            bytes: self.bytes,
            elapsed: self.elapsed,
        }
    }
}

/// What the user reads about a run's inputs: counts, failures and every
/// document's parse warnings, in input order.
#[derive(Debug, Default)]
pub struct LoadSummary {
    /// Inputs parsed into a document.
    pub ok: usize,
    /// `(input name, message naming the input)`.
    pub failed: Vec<(String, String)>,
    /// `(document path, its warnings)` for documents with warnings.
    pub warnings: Vec<(String, Vec<Warning>)>,
    pub bytes: u64,
    pub elapsed: Duration,
}

impl LoadSummary {
    pub fn total(&self) -> usize {
        self.ok + self.failed.len()
    }
}

/// A run's inputs grouped by database as they were parsed.
#[derive(Debug)]
pub struct Streamed {
    pub grouped: Grouped,
    pub summary: LoadSummary,
    /// The most whole reports one database held at any time (1 when the
    /// thinning works as it should).
    pub most_full_reports_per_database: usize,
}

/// Expands, reads and parses the inputs in parallel and groups them by
/// database as they come ([`Grouper::thinning`]): a parsed report is held
/// whole only while it is its database's busiest interval, so memory holds
/// the few documents being parsed, one whole report per database and a
/// few packed KB per other report.
pub fn load_grouped(args: &[PathBuf], progress: &dyn Progress) -> Result<Streamed, RunError> {
    let start = Instant::now();
    let units = inputs::expand(args);
    progress.start(units.len());
    let bytes = AtomicU64::new(0);
    let grouper = Mutex::new(Grouper::thinning());
    let outcomes = Mutex::new(Outcomes::default());
    let all: Vec<usize> = (0..units.len()).collect();
    let parsed = parse_into(&units, &all, &grouper, &outcomes, &bytes, progress, start);
    progress.finish();
    parsed?;
    let grouper = grouper.into_inner().unwrap_or_else(|e| e.into_inner());
    let most_full_reports_per_database = grouper.most_full_reports_per_database();
    let grouped = grouper.finish(&reread)?;
    let summary = outcomes
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .summary(&units, bytes.into_inner(), start.elapsed());
    Ok(Streamed {
        grouped,
        summary,
        most_full_reports_per_database,
    })
}

/// Parses the units at `indices` in parallel, hands each document to
/// `grouper` and records each outcome; the first error of the grouper.
pub(crate) fn parse_into(
    units: &[Unit],
    indices: &[usize],
    grouper: &Mutex<Grouper>,
    outcomes: &Mutex<Outcomes>,
    bytes: &AtomicU64,
    progress: &dyn Progress,
    start: Instant,
) -> Result<(), RunError> {
    let first_error: Mutex<Option<RunError>> = Mutex::new(None);
    indices.par_iter().for_each(|&i| {
        let Some(unit) = units.get(i) else {
            return;
        };
        let r = parse_unit(unit, bytes);
        progress.done(bytes.load(Ordering::Relaxed), start.elapsed());
        let mut outcomes = outcomes.lock().unwrap_or_else(|e| e.into_inner());
        match r {
            Ok(doc) => {
                outcomes.parsed(i, &doc);
                drop(outcomes);
                let pushed = grouper.lock().unwrap_or_else(|e| e.into_inner()).push(doc);
                if let Err(e) = pushed {
                    first_error
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .get_or_insert(e);
                }
            }
            Err(reason) => outcomes.failed(i, &reason),
        }
    });
    match first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

/// Expands, reads and parses the inputs.
pub fn load(args: &[PathBuf], progress: &dyn Progress) -> Loaded {
    let start = Instant::now();
    let units = inputs::expand(args);
    progress.start(units.len());
    let bytes = AtomicU64::new(0);
    let results: Vec<Result<Document, String>> = units
        .par_iter()
        .map(|unit| {
            let r = parse_unit(unit, &bytes);
            progress.done(bytes.load(Ordering::Relaxed), start.elapsed());
            r
        })
        .collect();
    progress.finish();
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

/// Expands, reads and parses the inputs in parallel a chunk at a time and
/// hands each document to `each` in input order, so memory holds one chunk
/// of documents however many inputs there are (`awrflash parse` writes
/// each one as it comes). Stops at the first error of `each`.
pub fn load_each<E>(
    args: &[PathBuf],
    progress: &dyn Progress,
    each: &mut dyn FnMut(Document) -> Result<(), E>,
) -> Result<LoadSummary, E> {
    let start = Instant::now();
    let units = inputs::expand(args);
    progress.start(units.len());
    let bytes = AtomicU64::new(0);
    let chunk = 8 * rayon::current_num_threads().max(1);
    let mut outcomes = Outcomes::default();
    for (c, part) in units.chunks(chunk).enumerate() {
        let results: Vec<Result<Document, String>> = part
            .par_iter()
            .map(|unit| {
                let r = parse_unit(unit, &bytes);
                progress.done(bytes.load(Ordering::Relaxed), start.elapsed());
                r
            })
            .collect();
        for (k, r) in results.into_iter().enumerate() {
            let i = c * chunk + k;
            match r {
                Ok(doc) => {
                    outcomes.parsed(i, &doc);
                    each(doc)?;
                }
                Err(reason) => outcomes.failed(i, &reason),
            }
        }
    }
    progress.finish();
    Ok(outcomes.summary(&units, bytes.into_inner(), start.elapsed()))
}

/// A report read and parsed again from its input (a file, or a member of
/// a zip archive named `archive.zip!member`): the run holds it packed and
/// the advisor needs it whole. Standard input cannot be read again.
pub fn reread(source: &Source) -> Result<Box<DbReport>, RunError> {
    let name = source.path.as_str();
    let path = std::path::Path::new(name);
    let arg = if path.exists() {
        Some(path.to_path_buf())
    } else {
        name.split_once('!')
            .map(|(archive, _)| PathBuf::from(archive))
            .filter(|p| p.is_file())
    };
    let again = arg.and_then(|arg| {
        inputs::expand(std::slice::from_ref(&arg))
            .into_iter()
            .find(|u| u.name() == name)
    });
    let Some(unit) = again else {
        return Err(RunError::Usage(format!(
            "{name}: the report could not be read again (the advisor needs it whole)"
        )));
    };
    match parse_unit(&unit, &AtomicU64::new(0)) {
        Ok(Document::Report(r)) => Ok(r),
        Ok(_) => Err(RunError::Usage(format!(
            "{name}: read again, it is no longer a report"
        ))),
        Err(reason) => Err(RunError::Usage(reason)),
    }
}

/// The document, or why not as `name: reason` (a parse error already reads
/// `name:line: [section] message`).
pub(crate) fn parse_unit(unit: &Unit, bytes: &AtomicU64) -> Result<Document, String> {
    let data = unit
        .read()
        .map_err(|reason| format!("{}: {reason}", unit.name()))?;
    bytes.fetch_add(data.len() as u64, Ordering::Relaxed);
    awrflash_parse::parse_bytes(unit.name(), &data).map_err(|e| e.to_string())
}
