//! awrflash-compare: did the storage change deliver what was projected?
//!
//! Stage: comparison (beside the advisor). Input: the reports of one
//! database from a before and an after window (already grouped by database
//! the way `analyze` groups them: [`pair`] matches the groups of the two
//! sides by their key), plus the before side's auxiliary inputs. Output: an
//! [`awrflash_model::Comparison`]: like-with-like intervals with the choice
//! stated, the measured changes (per transaction and per execution, rates,
//! CPU, I/O share, each key wait and its histogram shift, redo) each with
//! its source rows on both sides, the storage change detected from the
//! figures, the advisor's projection for it computed from the before side
//! next to the measured result, and workload drift.
//!
//! Every per-interval figure comes from [`awrflash_facts`]; a window figure
//! is a sum of those or [`awrflash_model::stats::window_mean`] of them.

mod check;
mod detect;
mod drift;
mod figures;
mod side;
mod window;

use awrflash_facts::round;
use awrflash_model::{Comparison, DbIdentity, DbReport, Document, WindowSide};
use awrflash_rules::util::f2;

pub use window::WindowChoice;

use crate::side::SideFacts;

/// Schema version of the JSON `Comparison` this crate produces.
pub const SCHEMA_VERSION: u32 = 1;

/// One side of a comparison: one database's reports (in snapshot order)
/// and the auxiliary inputs that go with them.
#[derive(Debug, Clone, Default)]
pub struct Side<'a> {
    pub reports: Vec<&'a DbReport>,
    pub aux: Vec<&'a Document>,
}

/// How to compare.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The advisor's options for the projection of the before side.
    pub advisor: awrflash_rules::Options,
    pub window: WindowChoice,
}

#[derive(Debug, thiserror::Error)]
pub enum CompareError {
    #[error("the {0} side holds no report of this database")]
    Empty(&'static str),
    #[error("the advisor failed on the before side: {0}")]
    Advisor(#[from] awrflash_rules::RulesError),
}

/// The groups of the two sides matched by key.
#[derive(Debug)]
pub struct Pairing<K, T> {
    /// `(key, before, after)` in key order.
    pub pairs: Vec<(K, T, T)>,
    pub only_before: Vec<K>,
    pub only_after: Vec<K>,
}

/// Matches the before and after groups whose keys are equal (the database
/// key `analyze` groups by: DBID and instance). Order of the inputs does not
/// matter; the pairs come out in key order.
pub fn pair<K: Ord, T>(before: Vec<(K, T)>, after: Vec<(K, T)>) -> Pairing<K, T> {
    let mut after: Vec<Option<(K, T)>> = after.into_iter().map(Some).collect();
    let mut pairs = Vec::new();
    let mut only_before = Vec::new();
    for (k, b) in before {
        let hit = after
            .iter_mut()
            .find(|x| x.as_ref().is_some_and(|(ka, _)| *ka == k))
            .and_then(Option::take);
        match hit {
            Some((_, a)) => pairs.push((k, b, a)),
            None => only_before.push(k),
        }
    }
    pairs.sort_by(|x, y| x.0.cmp(&y.0));
    let mut only_after: Vec<K> = after.into_iter().flatten().map(|(k, _)| k).collect();
    only_after.sort();
    only_before.sort();
    Pairing {
        pairs,
        only_before,
        only_after,
    }
}

fn window_side(all: usize, s: &SideFacts<'_>) -> WindowSide {
    let first = s.first();
    WindowSide {
        intervals: u32::try_from(all).unwrap_or(u32::MAX),
        intervals_used: u32::try_from(s.intervals.len()).unwrap_or(u32::MAX),
        begin_time: first.and_then(|r| r.header.begin_time.clone()),
        end_time: s
            .intervals
            .last()
            .and_then(|w| w.report.header.end_time.clone()),
        elapsed_s: round(s.elapsed()),
        host: first.and_then(|r| r.header.host.clone()),
        release: first.and_then(|r| r.header.release.clone()),
        inputs: s.intervals.iter().map(|w| w.path.to_string()).collect(),
    }
}

fn identity(s: &SideFacts<'_>) -> DbIdentity {
    let Some(r) = s.first() else {
        return DbIdentity::default();
    };
    let h = &r.header;
    let mut instances: Vec<String> = s
        .intervals
        .iter()
        .filter_map(|w| w.report.header.instance.clone())
        .collect();
    instances.sort();
    instances.dedup();
    DbIdentity {
        db_name: h.db_name.clone(),
        dbid: h.dbid,
        instances,
        release: h.release.clone(),
        rac: h.rac || r.instances.len() > 1,
        host: h.host.clone(),
        platform: h.platform.clone(),
        begin_time: h.begin_time.clone(),
        end_time: s
            .intervals
            .last()
            .and_then(|w| w.report.header.end_time.clone()),
        begin_snap: h.begin_snap,
        end_snap: s.intervals.last().and_then(|w| w.report.header.end_snap),
        elapsed_s: Some(round(s.elapsed())),
        db_time_s: s.total(|w| w.db_time_s.clone()).map(|f| round(f.value)),
    }
}

fn summary(c: &Comparison) -> String {
    let per_txn = c
        .figures
        .iter()
        .find(|f| f.key == "db_time_per_txn_ms")
        .and_then(|f| Some((f.before?, f.after?)));
    let what = if c.storage_changes.is_empty() {
        "No storage change shows in the figures".to_string()
    } else {
        c.storage_changes
            .iter()
            .enumerate()
            .map(|(i, s)| {
                // Later titles continue the sentence.
                let mut t = s.title.clone();
                if i > 0
                    && let Some(first) = t.get(..1)
                {
                    t = format!("{}{}", first.to_lowercase(), t.get(1..).unwrap_or(""));
                }
                t
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let mut s = what;
    if let Some((b, a)) = per_txn {
        s.push_str(&format!(
            "; DB time per transaction went from {} ms to {} ms",
            f2(b),
            f2(a)
        ));
    }
    s.push('.');
    if let Some(p) = &c.projection_check {
        s.push(' ');
        s.push_str(&p.verdict);
    }
    if c.drift.confounded {
        s.push_str(" The workload changed: read the per-transaction and per-execution figures.");
    }
    s
}

/// Compares the before and the after side of one database.
pub fn compare(
    before: &Side<'_>,
    after: &Side<'_>,
    opts: &Options,
) -> Result<Comparison, CompareError> {
    if before.reports.is_empty() {
        return Err(CompareError::Empty("before"));
    }
    if after.reports.is_empty() {
        return Err(CompareError::Empty("after"));
    }
    let (rb, ra, window) = window::select(&before.reports, &after.reports, opts.window);
    let (b, a) = (SideFacts::new(&rb), SideFacts::new(&ra));
    let figures = figures::figures(&b, &a);
    let waits = figures::waits(&b, &a);
    let mut breakdown = figures::breakdown(&b, &a);
    let drift = drift::drift(&figures, &b, &a);
    let mut storage_changes = detect::detect(&waits, &b, &a);
    // The advisor on the compared before intervals, as `analyze` runs it.
    let docs: Vec<Document> = rb
        .iter()
        .map(|r| Document::Report(Box::new((*r).clone())))
        .chain(before.aux.iter().map(|d| (*d).clone()))
        .collect();
    let analysis = awrflash_rules::analyze(&docs, &opts.advisor)?;
    let projection_check = check::check(
        &analysis,
        &mut storage_changes,
        &figures,
        &waits,
        &mut breakdown,
        &drift,
        check::after_flash_cache_gb(&a),
    );
    let mut notes = Vec::new();
    if rb.len() > 1 {
        notes.push("The advisor projects on the before side's busiest interval, as `analyze` does; the projected ratios are set against the whole compared window.".to_string());
    }
    if breakdown.is_empty() {
        notes.push("A side prints no transaction rate: no per-transaction breakdown.".into());
    }
    if let Some(c) = storage_changes.iter().find(|c| c.kind == "exadata") {
        notes.push(format!(
            "{}: the advisor has no Exadata device profile, so no projection is checked for it.",
            c.title
        ));
    }
    let mut c = Comparison {
        schema_version: SCHEMA_VERSION,
        database: identity(&b),
        summary: String::new(),
        window,
        before: window_side(before.reports.len(), &b),
        after: window_side(after.reports.len(), &a),
        figures,
        waits,
        breakdown,
        storage_changes,
        projection_check,
        drift,
        notes,
    };
    c.summary = summary(&c);
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_pair_by_key_whatever_their_order() {
        let p = pair(
            vec![(2, "b2"), (1, "b1"), (3, "b3")],
            vec![(1, "a1"), (4, "a4"), (2, "a2")],
        );
        assert_eq!(p.pairs, [(1, "b1", "a1"), (2, "b2", "a2")]);
        assert_eq!(p.only_before, [3]);
        assert_eq!(p.only_after, [4]);
    }
}
