//! A run in two passes, so that memory follows the largest database and
//! not the number of reports.
//!
//! 1. [`survey`] reads the head of every input ([`awrflash_parse::parse_head`]):
//!    a report is known by its source and header only ([`Held::Head`]), which
//!    is all that grouping, ordering, duplicate detection and attaching read;
//!    auxiliary inputs (iostat, sar, nmon, sysstat, segment sizes) are small
//!    and parsed whole; an input whose head says nothing (another format, a
//!    header the head does not reach, a read error) is parsed whole too, so
//!    a failure reads as it always did.
//! 2. [`Survey::analyze`] takes the databases in order: each one's reports are
//!    parsed whole in parallel and grouped as [`crate::load_grouped`] groups
//!    them (the busiest interval whole, the others thinned and packed), the
//!    advisor runs, `keep` takes what the caller wants of the analysis, and
//!    the reports are dropped before the next database.
//!
//! Every report's whole parse is checked against its head: the same path in
//! the same place, the same identity, snapshots, times and host. Should any
//! differ (a header the head reads otherwise than the whole report), the
//! run starts again the one-pass way ([`crate::load_grouped`]), whose
//! grouping reads whole reports, and says so ([`Analysed::reread`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use awrflash_model::{Analysis, DbKey, Document, Header, SharedStr, Source};
use rayon::prelude::*;

use crate::group::Grouper;
use crate::held::Held;
use crate::inputs::{self, Unit};
use crate::load::{LoadSummary, Progress, parse_into, parse_unit, reread};
use crate::memory;
use crate::outcomes::Outcomes;
use crate::{Database, Databases, RunError, analyze_owned, databases_from};

/// Inputs whose heads the first pass reads before it copies them into the
/// run's memory: enough to keep both cores busy, a few MB of buffers.
const HEADS_AT_ONCE: usize = 1024;

/// What the first pass made of one input.
enum Seen {
    /// A report known by its head (or by a whole parse, dropped).
    Head(Box<(Source, Header)>),
    /// An auxiliary input, parsed whole.
    Aux(Document),
    Failed(String),
}

/// The first pass over a run's inputs: every database with its reports
/// known by their heads, the auxiliary inputs attached.
pub struct Survey {
    args: Vec<PathBuf>,
    roles: Option<PathBuf>,
    units: Vec<Unit>,
    /// Input indices of each database's reports (duplicates included), in
    /// input order.
    members: BTreeMap<DbKey, Vec<usize>>,
    databases: Databases,
    outcomes: Outcomes,
    bytes: u64,
    start: Instant,
}

/// What [`Survey::analyze`] gives back.
#[derive(Debug)]
pub struct Analysed<T> {
    /// The databases with their attachments, duplicates and notes; each
    /// report held as its head ([`Held::Head`]).
    pub databases: Databases,
    /// What `keep` made of each database and its analysis, in database order.
    pub results: Vec<T>,
    pub summary: LoadSummary,
    /// Why the run read every report again the one-pass way, if it did.
    pub reread: Option<String>,
}

/// The first pass: the head of every input, the databases and their
/// attachments. `progress` hears of every input as the pass reads it (a
/// `headers` pass); [`Survey::analyze`] tells it of the reports again as
/// they are parsed whole (a `reports` pass).
pub fn survey(
    args: &[PathBuf],
    roles: Option<&Path>,
    progress: &dyn Progress,
) -> Result<Survey, RunError> {
    let start = Instant::now();
    let units = inputs::expand(args);
    progress.pass("headers", units.len());
    let bytes = AtomicU64::new(0);
    let mut grouper = Grouper::keeping_all();
    let mut members: BTreeMap<DbKey, Vec<usize>> = BTreeMap::new();
    let mut outcomes = Outcomes::default();
    // The heads are read in parallel a chunk at a time and copied on this
    // thread, so that what the run keeps of every input sits together in
    // this thread's heap; the workers' copies are freed by the workers. A
    // block freed here would go to this thread's cache of free blocks and
    // come back as the next head's copy: every report would then keep a
    // few bytes in a worker's heap, between that worker's read buffers,
    // and its heap could never shrink (the first pass over 144,000 reports
    // peaked at 321-1,377 MB that way; 183-198 MB now, `docs/performance.md`,
    // round 7).
    for (c, part) in units.chunks(HEADS_AT_ONCE).enumerate() {
        let seen: Vec<Seen> = part
            .par_iter()
            .map(|unit| {
                let s = look(unit, &bytes);
                progress.done(bytes.load(Ordering::Relaxed), start.elapsed());
                s
            })
            .collect();
        let mut spent = Vec::with_capacity(seen.len());
        for (k, s) in seen.into_iter().enumerate() {
            let i = c * HEADS_AT_ONCE + k;
            match s {
                Seen::Head(head) => {
                    let (source, header) = settled(&head.0, &head.1);
                    spent.push(Seen::Head(head));
                    let key = grouper.push_head(source, header)?;
                    members.entry(key).or_default().push(i);
                }
                Seen::Aux(doc) => {
                    outcomes.parsed(i, &doc);
                    grouper.push(doc)?;
                }
                Seen::Failed(reason) => {
                    outcomes.failed(i, &reason);
                    spent.push(Seen::Failed(reason));
                }
            }
        }
        spent.into_par_iter().for_each(drop);
        memory::give_back();
    }
    let grouped = grouper.finish(&reread)?;
    let databases = databases_from(grouped, roles)?;
    Ok(Survey {
        args: args.to_vec(),
        roles: roles.map(Path::to_path_buf),
        units,
        members,
        databases,
        outcomes,
        bytes: bytes.into_inner(),
        start,
    })
}

/// A copy of a head made on this thread, sharing nothing with the worker
/// that read it (its section name included: a string the worker made and
/// the copy shared would keep one of the worker's pages for every report).
fn settled(source: &Source, header: &Header) -> (Source, Header) {
    let mut header = header.clone();
    if let Some(src) = header.src.as_mut() {
        src.section = SharedStr::shared(src.section.as_str());
    }
    (source.clone(), header)
}

/// One input of the first pass: a report's head, or the whole input.
fn look(unit: &Unit, bytes: &AtomicU64) -> Seen {
    if let Ok((head, false)) = unit.read_head(awrflash_parse::HEAD_BYTES)
        && let Some(h) = awrflash_parse::parse_head(unit.name(), &head)
    {
        return Seen::Head(Box::new(h));
    }
    // A small input, or one the head does not place: parsed whole. A
    // report's bytes are counted when it is parsed for its database.
    let read = AtomicU64::new(0);
    let seen = match parse_unit(unit, &read) {
        Ok(Document::Report(r)) => {
            let r = *r;
            return Seen::Head(Box::new((r.source, r.header)));
        }
        Ok(doc) => Seen::Aux(doc),
        Err(reason) => Seen::Failed(reason),
    };
    bytes.fetch_add(read.into_inner(), Ordering::Relaxed);
    seen
}

impl Survey {
    /// The databases as the first pass sees them (for checking the output
    /// target before the long part of the run).
    pub fn databases(&self) -> &Databases {
        &self.databases
    }

    /// The second pass: each database in turn parsed, analysed, handed to
    /// `keep` (its reports as heads by then: [`crate::analyze_owned`]) and
    /// dropped.
    pub fn analyze<T, F>(
        self,
        opts: &awrflash_rules::Options,
        progress: &dyn Progress,
        keep: F,
    ) -> Result<Analysed<T>, RunError>
    where
        T: Send,
        F: Fn(&Database, Analysis) -> T + Sync,
    {
        let bytes = AtomicU64::new(self.bytes);
        progress.pass("reports", self.members.values().map(Vec::len).sum());
        let outcomes = Mutex::new(self.outcomes);
        let mut results = Vec::with_capacity(self.databases.databases.len());
        let mut duplicates = Vec::new();
        let mut mismatch = None;
        // The window's moves of each report computed while it is whole, so
        // that it is held lean. Without a planner (a device file that does
        // not read: the analysis says why) reports are held reduced.
        let planner = awrflash_rules::MovesPlanner::new(opts).ok().map(Arc::new);
        let whole = |db: &Database| {
            let members = self.members.get(&db.key).map_or(&[][..], Vec::as_slice);
            let parsed = parse_database(
                &self.units,
                members,
                planner.clone(),
                &bytes,
                &outcomes,
                progress,
                self.start,
            )?;
            Ok::<_, RunError>(whole_database(db, parsed))
        };
        // The advisor runs on one database while the next one is parsed:
        // at most two databases' reports are held at once.
        let mut ready: Option<Database> = None;
        let mut next = self.databases.databases.iter();
        loop {
            let db = next.next();
            if db.is_none() && ready.is_none() {
                break;
            }
            let analysing = ready.take();
            let (parsed, analysed) = rayon::join(
                || db.map(&whole).transpose(),
                || {
                    analysing
                        .map(|full| analyze_owned(full, opts).map(|(db, a)| keep(&db, a)))
                        .transpose()
                },
            );
            if let Some(t) = analysed? {
                results.push(t);
                // One database's reports are gone: its pages go back.
                memory::give_back();
            }
            match parsed? {
                None => {}
                Some(Ok((full, dups))) => {
                    duplicates.extend(dups);
                    ready = Some(full);
                }
                Some(Err(why)) => {
                    mismatch = Some(why);
                    break;
                }
            }
        }
        if mismatch.is_none() && duplicates != self.databases.duplicates {
            mismatch = Some("the intervals given twice differ from the heads'".into());
        }
        if let Some(why) = mismatch {
            return one_pass(&self.args, self.roles.as_deref(), opts, progress, keep, why);
        }
        progress.finish();
        let summary = outcomes
            .into_inner()
            .unwrap_or_else(|e| e.into_inner())
            .summary(&self.units, bytes.into_inner(), self.start.elapsed());
        Ok(Analysed {
            databases: self.databases,
            results,
            summary,
            reread: None,
        })
    }
}

enum Parsed {
    /// The database's reports as [`Grouper::thinning`] holds them, and its
    /// intervals given twice.
    Group((Vec<Held>, Vec<(String, String)>)),
    /// No report (a run of auxiliary inputs only, or every report failed).
    Empty,
    /// A report parsed whole belongs to another database than its head said.
    Elsewhere(String),
}

/// Parses one database's reports in parallel and groups them the way the
/// one-pass run does, each report but the busiest reduced to its facts.
fn parse_database(
    units: &[Unit],
    members: &[usize],
    planner: Option<Arc<awrflash_rules::MovesPlanner>>,
    bytes: &AtomicU64,
    outcomes: &Mutex<Outcomes>,
    progress: &dyn Progress,
    start: Instant,
) -> Result<Parsed, RunError> {
    // Reduced, not packed: the database is analysed next, and the advisor
    // reads no more of a report it does not plan for.
    let grouper = Mutex::new(Grouper::reducing(planner));
    parse_into(units, members, &grouper, outcomes, bytes, progress, start)?;
    let grouped = grouper
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .finish(&reread)?;
    if !grouped.aux.is_empty() {
        return Ok(Parsed::Elsewhere(
            "an input read as a report by its head is not a report".into(),
        ));
    }
    let mut groups = grouped.groups.into_iter();
    match (groups.next(), groups.next()) {
        (None, _) => Ok(Parsed::Empty),
        (Some(g), None) => Ok(Parsed::Group((g.reports, grouped.duplicates))),
        (Some(g), Some(_)) => Ok(Parsed::Elsewhere(format!(
            "the reports of {} belong to more than one database read whole",
            g.key.label()
        ))),
    }
}

/// The database with its reports parsed whole and its intervals given
/// twice, or why the whole reports do not stand where their heads put them.
fn whole_database(
    db: &Database,
    parsed: Parsed,
) -> Result<(Database, Vec<(String, String)>), String> {
    let (reports, dups) = match parsed {
        Parsed::Group(g) => g,
        Parsed::Empty => (Vec::new(), Vec::new()),
        Parsed::Elsewhere(why) => return Err(why),
    };
    if let Some(why) = differs(&db.reports, &reports) {
        return Err(why);
    }
    Ok((
        Database {
            key: db.key.clone(),
            reports,
            aux: db.aux.clone(),
            attachments: db.attachments.clone(),
        },
        dups,
    ))
}

/// Why the reports parsed whole do not stand where their heads put them,
/// if they do not.
fn differs(heads: &[Held], whole: &[Held]) -> Option<String> {
    if heads.len() != whole.len() {
        return Some(format!(
            "{} reports by their heads, {} parsed whole",
            heads.len(),
            whole.len()
        ));
    }
    for (a, b) in heads.iter().zip(whole) {
        let (sa, sb) = (a.source(), b.source());
        if sa != sb || !same_place(a.header(), b.header()) {
            return Some(format!(
                "{}: the header read from the head of the input differs from the whole report's",
                sb.path
            ));
        }
    }
    None
}

/// The header fields that grouping, ordering, duplicate detection and
/// attaching read.
fn same_place(a: &Header, b: &Header) -> bool {
    a.db_name == b.db_name
        && a.dbid == b.dbid
        && a.instance == b.instance
        && a.instance_number == b.instance_number
        && a.container == b.container
        && a.begin_snap == b.begin_snap
        && a.end_snap == b.end_snap
        && a.begin_time == b.begin_time
        && a.end_time == b.end_time
        && a.host == b.host
}

/// The run the one-pass way (every report parsed, grouped as it comes,
/// then every database analysed), after the heads misled the survey.
fn one_pass<T, F>(
    args: &[PathBuf],
    roles: Option<&Path>,
    opts: &awrflash_rules::Options,
    progress: &dyn Progress,
    keep: F,
    why: String,
) -> Result<Analysed<T>, RunError>
where
    T: Send,
    F: Fn(&Database, Analysis) -> T + Sync,
{
    let streamed = crate::load_grouped(args, progress)?;
    let dbs = databases_from(streamed.grouped, roles)?;
    let heads = Databases {
        databases: dbs
            .databases
            .iter()
            .map(|d| Database {
                key: d.key.clone(),
                reports: d.reports.iter().map(Held::head).collect(),
                aux: d.aux.clone(),
                attachments: d.attachments.clone(),
            })
            .collect(),
        duplicates: dbs.duplicates.clone(),
        notes: dbs.notes.clone(),
        unused: dbs.unused.clone(),
    };
    let results = crate::analyze_all(dbs.databases, opts, keep)?;
    Ok(Analysed {
        databases: heads,
        results,
        summary: streamed.summary,
        reread: Some(why),
    })
}
