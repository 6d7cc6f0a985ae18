//! Reads and parses every input in parallel. A bad input becomes a failure
//! with its reason; the run goes on. Progress is reported through
//! [`Progress`], so this library never prints.

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use awrflash_model::Document;
use rayon::prelude::*;

use crate::inputs::{self, Unit};

/// Told about the parsing as it goes (the command line draws a progress
/// bar). Called from several threads at once.
pub trait Progress: Sync {
    /// Parsing starts with this many units (files and zip members).
    fn start(&self, units: usize) {
        let _ = units;
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

/// The document, or why not as `name: reason` (a parse error already reads
/// `name:line: [section] message`).
fn parse_unit(unit: &Unit, bytes: &AtomicU64) -> Result<Document, String> {
    let data = unit
        .read()
        .map_err(|reason| format!("{}: {reason}", unit.name()))?;
    bytes.fetch_add(data.len() as u64, Ordering::Relaxed);
    awrflash_parse::parse_bytes(unit.name(), &data).map_err(|e| e.to_string())
}
