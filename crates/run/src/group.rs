//! Groups parsed documents by database and orders each database's reports
//! by snapshot time; the same interval given twice (a file and its copy in
//! an archive) is kept once.
//!
//! [`Grouper`] takes the documents one at a time, in any order, so a run
//! can group while it parses. A thinning grouper keeps per database only
//! the report of its busiest interval whole (the one the advisor analyses:
//! highest DB time per second, as [`awrflash_facts::peak_interval`]
//! decides, the first in the advisor's order on ties) and every other
//! report thinned and packed ([`Held::pack`]); when a busier interval
//! arrives, the previous one is packed.

use std::collections::BTreeMap;
use std::sync::Arc;

use awrflash_facts::IntervalFacts;
use awrflash_model::{DbKey, DbReport, Document, Header, Source};
use awrflash_rules::MovesPlanner;

use crate::RunError;
use crate::held::Held;

/// The reports of one database, in snapshot-time order.
#[derive(Debug, Clone)]
pub struct DbGroup {
    pub key: DbKey,
    pub reports: Vec<Held>,
}

/// A run's documents sorted out.
#[derive(Debug, Clone, Default)]
pub struct Grouped {
    /// Databases, sorted by key.
    pub groups: Vec<DbGroup>,
    /// iostat, sysstat and segment-size inputs, sorted by path: they carry
    /// no DBID; [`crate::attach`] decides which database gets which.
    pub aux: Vec<Document>,
    /// `(skipped path, kept path)` for intervals given more than once.
    pub duplicates: Vec<(String, String)>,
}

impl Grouped {
    /// All documents: each database's reports in order (packed ones
    /// unpacked), then the others.
    pub fn all_documents(&self) -> Result<Vec<Document>, RunError> {
        self.groups
            .iter()
            .flat_map(|g| g.reports.iter().map(Held::document))
            .chain(self.aux.iter().cloned().map(Ok))
            .collect()
    }
}

type IntervalId = (Option<u64>, Option<u64>, Option<String>, Option<String>);

fn interval(h: &Header) -> Option<IntervalId> {
    if h.begin_snap.is_none() && h.begin_time.is_none() {
        return None;
    }
    Some((
        h.begin_snap,
        h.end_snap,
        h.begin_time.clone(),
        h.end_time.clone(),
    ))
}

type OrderKey = (Option<String>, Option<u64>, Option<u64>, String);

/// The advisor's order of a database's reports: begin time, begin and end
/// snapshot, path.
type Order<'a> = (Option<&'a str>, Option<u64>, Option<u64>, &'a str);

fn order_of(held: &Held) -> Order<'_> {
    let h = held.header();
    (
        h.begin_time.as_deref(),
        h.begin_snap,
        h.end_snap,
        held.source().path.as_str(),
    )
}

fn owned(o: Order<'_>) -> OrderKey {
    (o.0.map(str::to_string), o.1, o.2, o.3.to_string())
}

/// One report of a database. Its order is read from its header and source
/// when needed, not copied: a run over a fleet holds one entry per report.
struct Entry {
    /// DB time per second (finite values only): what decides which
    /// interval the advisor analyses.
    load: Option<f64>,
    held: Held,
}

/// DB time per second, finite values only.
fn load_of(r: &DbReport) -> Option<f64> {
    let f = IntervalFacts::new(r);
    f.per_second(f.db_time_s.as_ref()).filter(|v| v.is_finite())
}

impl Entry {
    fn order(&self) -> Order<'_> {
        order_of(&self.held)
    }

    /// Whether the advisor would take `self` as the peak over `other`: the
    /// higher load, the earlier interval (begin time, begin snapshot, path)
    /// on a tie; with no load on either, the earlier (the advisor falls
    /// back to its first interval).
    fn beats(&self, other: &Entry) -> bool {
        let (a, b) = (self.order(), other.order());
        let earlier = (a.0, a.1, a.3) < (b.0, b.1, b.3);
        match (self.load, other.load) {
            (Some(x), Some(y)) => x > y || (x == y && earlier),
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => earlier,
        }
    }
}

#[derive(Default)]
struct Slot {
    /// Kept reports, in arrival order.
    entries: Vec<Entry>,
    by_interval: BTreeMap<IntervalId, usize>,
    /// Reports given again for a kept interval: their order (path last)
    /// and the interval.
    skipped: Vec<(OrderKey, IntervalId)>,
    /// The entry held whole (thinning grouper only).
    peak: Option<usize>,
}

/// What a grouper does with a report that is not its database's busiest.
#[derive(Clone, Copy, PartialEq)]
enum Cut {
    /// Nothing: every report stays whole.
    Keep,
    /// Thinned and packed ([`Held::pack`]): a run that holds every
    /// database at once.
    Pack,
    /// Its facts and its reduced report ([`Held::reduce_for`]): a run that
    /// holds one database and analyses it next.
    Reduce,
}

/// Sorts documents into databases as they come; input order does not
/// matter.
pub struct Grouper {
    cut: Cut,
    /// With [`Grouper::reducing`]: the window's moves of each reduced
    /// report are computed while it is whole, and it is held lean.
    planner: Option<Arc<MovesPlanner>>,
    slots: BTreeMap<DbKey, Slot>,
    aux: Vec<Document>,
    most_full: usize,
}

impl Grouper {
    /// A grouper that keeps every report whole (`awrflash compare` and
    /// `extract` read every section of every report).
    pub fn keeping_all() -> Grouper {
        Grouper {
            cut: Cut::Keep,
            planner: None,
            slots: BTreeMap::new(),
            aux: Vec::new(),
            most_full: 0,
        }
    }

    /// A grouper that keeps one whole report per database, the busiest
    /// interval's, and packs the others (`awrflash analyze`).
    pub fn thinning() -> Grouper {
        Grouper {
            cut: Cut::Pack,
            ..Grouper::keeping_all()
        }
    }

    /// A grouper that keeps one whole report per database, the busiest
    /// interval's, and of the others their facts over their reduced
    /// reports (`awrflash analyze`, one database at a time: the advisor
    /// needs no more of them, and would otherwise unpack them all at once).
    /// With `planner` (made with the analysis's options) each is held with
    /// its window moves over its lean report ([`Held::reduce_for`]).
    pub fn reducing(planner: Option<Arc<MovesPlanner>>) -> Grouper {
        Grouper {
            cut: Cut::Reduce,
            planner,
            ..Grouper::keeping_all()
        }
    }

    /// The most whole reports one database held at any time so far.
    pub fn most_full_reports_per_database(&self) -> usize {
        self.most_full
    }

    pub fn push(&mut self, doc: Document) -> Result<(), RunError> {
        match doc {
            Document::Report(r) => self.push_report(r),
            other => {
                self.aux.push(other);
                Ok(())
            }
        }
    }

    fn push_report(&mut self, report: Box<DbReport>) -> Result<(), RunError> {
        let key = DbKey::of(&report);
        let entry = Entry {
            load: load_of(&report),
            held: Held::Full(report),
        };
        self.place(key, entry)
    }

    /// A report known by its source and header only ([`Held::Head`], read
    /// from the head of its input): grouped, ordered and deduplicated as
    /// its whole report would be. Its database's key comes back.
    pub fn push_head(&mut self, source: Source, header: Header) -> Result<DbKey, RunError> {
        let r = DbReport {
            source,
            header,
            ..DbReport::default()
        };
        let key = DbKey::of(&r);
        let entry = Entry {
            load: load_of(&r),
            held: Held::Head {
                source: r.source,
                header: Box::new(r.header),
            },
        };
        self.place(key.clone(), entry)?;
        Ok(key)
    }

    fn place(&mut self, key: DbKey, entry: Entry) -> Result<(), RunError> {
        let cut = self.cut;
        let slot = self.slots.entry(key).or_default();
        let id = interval(entry.held.header());
        let at = match id {
            Some(id) => match slot.by_interval.get(&id).copied() {
                Some(i) => {
                    let Some(kept) = slot.entries.get_mut(i) else {
                        return Ok(());
                    };
                    if entry.order() >= kept.order() {
                        slot.skipped.push((owned(entry.order()), id));
                        return Ok(());
                    }
                    // The same interval from a path that sorts first: it
                    // replaces the kept one, as if it had come first.
                    let old = std::mem::replace(kept, entry);
                    slot.skipped.push((owned(old.order()), id));
                    if slot.peak == Some(i) {
                        slot.peak = None;
                    }
                    i
                }
                None => {
                    slot.by_interval.insert(id, slot.entries.len());
                    slot.entries.push(entry);
                    slot.entries.len() - 1
                }
            },
            None => {
                slot.entries.push(entry);
                slot.entries.len() - 1
            }
        };
        if cut != Cut::Keep {
            settle(slot, at, cut, self.planner.as_deref())?;
        }
        let full = slot.entries.iter().filter(|e| e.held.is_full()).count();
        self.most_full = self.most_full.max(full);
        Ok(())
    }

    /// The databases sorted by key, each database's reports in snapshot
    /// order, the other inputs by path. A database whose peak report was
    /// packed when a copy of it from another path replaced it (the same
    /// interval twice with different figures) gets it back whole from
    /// `reread`.
    pub fn finish(
        self,
        reread: &dyn Fn(&Source) -> Result<Box<DbReport>, RunError>,
    ) -> Result<Grouped, RunError> {
        let mut aux = self.aux;
        aux.sort_by(|a, b| a.source().path.cmp(&b.source().path));
        let mut duplicates = Vec::new();
        let mut groups = Vec::new();
        for (key, mut slot) in self.slots {
            if let Some(p) = slot.peak
                && let Some(e) = slot.entries.get_mut(p)
                && !e.held.is_full()
            {
                e.held = Held::Full(reread(e.held.source())?);
            }
            let mut skipped = std::mem::take(&mut slot.skipped);
            skipped.sort();
            for ((.., path), id) in skipped {
                let kept = slot
                    .by_interval
                    .get(&id)
                    .and_then(|i| slot.entries.get(*i))
                    .map(|e| e.held.source().path.clone())
                    .unwrap_or_default();
                duplicates.push((path, kept));
            }
            let mut entries = slot.entries;
            entries.sort_by(|a, b| a.order().cmp(&b.order()));
            groups.push(DbGroup {
                key,
                reports: entries.into_iter().map(|e| e.held).collect(),
            });
        }
        Ok(Grouped {
            groups,
            aux,
            duplicates,
        })
    }
}

/// Entry `at` has just come in whole: it becomes the database's peak and
/// the previous peak is cut (`cut`), or it is cut itself.
fn settle(
    slot: &mut Slot,
    at: usize,
    cut: Cut,
    planner: Option<&MovesPlanner>,
) -> Result<(), RunError> {
    let peak = match slot.peak {
        Some(p) => p,
        // The first report, or the peak was replaced by a copy: the best
        // of all that are kept.
        None => (0..slot.entries.len())
            .reduce(
                |best, i| match (slot.entries.get(i), slot.entries.get(best)) {
                    (Some(a), Some(b)) if a.beats(b) => i,
                    _ => best,
                },
            )
            .unwrap_or(at),
    };
    let new_wins = peak == at
        || match (slot.entries.get(at), slot.entries.get(peak)) {
            (Some(a), Some(b)) => a.beats(b),
            _ => false,
        };
    let (keep, pack) = if new_wins { (at, peak) } else { (peak, at) };
    slot.peak = Some(keep);
    if pack != keep
        && let Some(e) = slot.entries.get_mut(pack)
        && let Held::Full(r) = &e.held
    {
        e.held = match cut {
            Cut::Reduce => Held::reduce_for(r, planner),
            Cut::Pack | Cut::Keep => Held::pack(r)?,
        };
    }
    Ok(())
}

/// Sorts documents into databases keeping every report whole; input order
/// does not matter.
pub fn group(docs: Vec<Document>) -> Grouped {
    let mut g = Grouper::keeping_all();
    for d in docs {
        // A grouper that keeps every report whole packs nothing: no error.
        let _ = g.push(d);
    }
    g.finish(&|s| {
        Err(RunError::Usage(format!(
            "{}: the report is not held whole",
            s.path
        )))
    })
    .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::{Header, Source};

    fn report(path: &str, inst: u32, begin: u64, time: &str) -> Document {
        Document::Report(Box::new(DbReport {
            source: Source {
                path: path.into(),
                ..Default::default()
            },
            header: Header {
                db_name: Some("PROD".into()),
                dbid: Some(7),
                instance_number: Some(inst),
                begin_snap: Some(begin),
                end_snap: Some(begin + 1),
                begin_time: Some(time.into()),
                ..Default::default()
            },
            ..Default::default()
        }))
    }

    #[test]
    fn reports_group_by_instance_and_sort_by_snapshot_time() {
        let docs = vec![
            report("c", 1, 12, "2024-01-01T12:00:00"),
            report("x", 2, 10, "2024-01-01T10:00:00"),
            report("a", 1, 10, "2024-01-01T10:00:00"),
            Document::Iostat(Box::default()),
            report("b", 1, 11, "2024-01-01T11:00:00"),
        ];
        let g = group(docs);
        assert_eq!(g.groups.len(), 2);
        let paths: Vec<_> = g.groups[0]
            .reports
            .iter()
            .map(|d| d.source().path.clone())
            .collect();
        assert_eq!(paths, ["a", "b", "c"]);
        assert_eq!(g.groups[1].key.file_stem(), "PROD_7_2");
        assert_eq!(g.aux.len(), 1);
        assert_eq!(g.all_documents().unwrap().len(), 5);
    }

    #[test]
    fn the_same_interval_twice_is_kept_once() {
        let docs = vec![
            report("week.zip!a.html", 1, 10, "2024-01-01T10:00:00"),
            report("a.html", 1, 10, "2024-01-01T10:00:00"),
        ];
        let g = group(docs);
        assert_eq!(g.groups[0].reports.len(), 1);
        assert_eq!(
            g.duplicates,
            [("week.zip!a.html".to_string(), "a.html".to_string())]
        );
    }
}
