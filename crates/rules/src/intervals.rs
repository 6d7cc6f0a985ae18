//! The report intervals of one database as the advisor reads them: in time
//! order, each classified, with the peak and the interval planned in detail.
//!
//! The choice of that interval reads only what every interval's facts hold
//! (the facts' own figures, the foreground events, the Load Profile's
//! `Logons`), so a run can make it over facts bound to reduced reports
//! ([`awrflash_facts::reduced`]) and give the chosen interval its whole
//! report afterwards ([`Intervals::replace_analysed`]).

use std::sync::LazyLock;

use awrflash_facts::IntervalFacts;
use awrflash_model::DbReport;

use crate::{RulesError, window};

/// The interval of an analysis without reports (auxiliary inputs only).
static NO_REPORT: LazyLock<DbReport> = LazyLock::new(DbReport::default);

/// One database's intervals, ready for [`crate::analyze_intervals`].
pub struct Intervals<'a> {
    /// Time order, so an index into `all` is an index into
    /// `Analysis.series`.
    pub(crate) all: Vec<IntervalFacts<'a>>,
    /// Each interval's window moves when they were computed while its
    /// report was whole ([`Intervals::with_moves`]), in the order of `all`.
    pub(crate) moves: Vec<Option<window::WindowMoves>>,
    /// Each interval's index in the order the facts were given.
    given: Vec<usize>,
    /// One class per interval with two intervals or more; none with one.
    pub(crate) classes: Vec<window::Class>,
    /// The busiest interval (DB time per second).
    pub(crate) peak: usize,
    /// The interval planned in detail: the busiest that is not an incident.
    pub(crate) primary: usize,
}

impl<'a> Intervals<'a> {
    /// Orders and classifies `facts`, one per report of the database, and
    /// picks the interval to plan for.
    pub fn new(facts: Vec<IntervalFacts<'a>>) -> Result<Self, RulesError> {
        let none = facts.iter().map(|_| None).collect();
        Self::with_moves(facts, none)
    }

    /// [`Intervals::new`] with each interval's [`window::WindowMoves`]
    /// (`moves[i]` for `facts[i]`), computed by a
    /// [`window::MovesPlanner`] while its report was whole: an interval
    /// that has them may be held over its lean report
    /// ([`awrflash_facts::lean`]), since nothing else reads the sections
    /// that form drops.
    pub fn with_moves(
        facts: Vec<IntervalFacts<'a>>,
        mut moves: Vec<Option<window::WindowMoves>>,
    ) -> Result<Self, RulesError> {
        moves.resize_with(facts.len(), || None);
        // Sorted in place: a run holds thousands of facts, a copy of them
        // beside the given ones would be most of its peak.
        let mut given: Vec<usize> = (0..facts.len()).collect();
        given.sort_by(|&a, &b| match (facts.get(a), facts.get(b)) {
            (Some(x), Some(y)) => time_order(x, y),
            _ => std::cmp::Ordering::Equal,
        });
        let mut all = facts;
        permute(&mut all, &given);
        permute(&mut moves, &given);
        if all.is_empty() {
            all.push(IntervalFacts::new(&NO_REPORT));
            moves.push(None);
        }
        let mut iv = Intervals {
            all,
            moves,
            given,
            classes: Vec::new(),
            peak: 0,
            primary: 0,
        };
        iv.classify()?;
        iv.primary = window::analysed_interval(&iv.all, &iv.classes)
            .filter(|_| iv.all.len() > 1)
            .unwrap_or(iv.peak);
        Ok(iv)
    }

    fn classify(&mut self) -> Result<(), RulesError> {
        self.peak = awrflash_facts::peak_interval(&self.all).unwrap_or(0);
        self.classes = if self.all.len() > 1 {
            window::classify(
                &self.all,
                &window::Thresholds::load()?,
                window::Limits::load()?,
            )
        } else {
            Vec::new()
        };
        Ok(())
    }

    /// Where the interval planned in detail was in the order the facts were
    /// given; `None` without reports.
    pub fn analysed_input(&self) -> Option<usize> {
        self.given.get(self.primary).copied()
    }

    /// The facts of the interval planned in detail.
    pub fn analysed(&self) -> Option<&IntervalFacts<'a>> {
        self.all.get(self.primary)
    }

    /// Puts `facts`, computed from the analysed interval's whole report, in
    /// the place of the facts it was chosen by (computed from a thinned or
    /// reduced form of it). The classes and the peak are computed again, so
    /// what they print is the whole report's; the choice stays.
    pub fn replace_analysed(&mut self, facts: IntervalFacts<'a>) -> Result<(), RulesError> {
        if let Some(slot) = self.all.get_mut(self.primary) {
            *slot = facts;
        }
        // Planned from the whole report in the window, like an interval
        // held whole.
        if let Some(slot) = self.moves.get_mut(self.primary) {
            *slot = None;
        }
        self.classify()
    }

    /// The intervals in the order their facts were given.
    pub fn given_order(&self) -> impl Iterator<Item = &IntervalFacts<'a>> {
        let mut order: Vec<(usize, &IntervalFacts<'a>)> =
            self.given.iter().copied().zip(&self.all).collect();
        order.sort_by_key(|(g, _)| *g);
        order.into_iter().map(|(_, f)| f)
    }
}

/// Moves `v[order[k]]` to `k` for every `k`, in place (`order` is a
/// permutation of `v`'s indices), one cycle of the permutation at a time.
fn permute<T>(v: &mut [T], order: &[usize]) {
    let mut done = vec![false; v.len()];
    for start in 0..v.len() {
        let mut k = start;
        while let Some(d) = done.get_mut(k).filter(|d| !**d) {
            *d = true;
            let Some(&from) = order.get(k) else { break };
            if from == start || from >= v.len() {
                break;
            }
            v.swap(k, from);
            k = from;
        }
    }
}

/// The order of report intervals: begin time, begin snapshot, path.
pub(crate) fn time_order(a: &IntervalFacts, b: &IntervalFacts) -> std::cmp::Ordering {
    let (ha, hb) = (&a.report.header, &b.report.header);
    ha.begin_time
        .cmp(&hb.begin_time)
        .then(ha.begin_snap.cmp(&hb.begin_snap))
        .then(a.path.cmp(&b.path))
}

#[cfg(test)]
mod tests {
    use super::permute;

    #[test]
    fn a_permutation_is_applied_in_place_cycle_by_cycle() {
        // Two cycles (0 2 4) and (1 3), and a fixed point.
        let order = [2, 3, 4, 1, 0, 5];
        let mut v: Vec<char> = "abcdef".chars().collect();
        permute(&mut v, &order);
        assert_eq!(v.iter().collect::<String>(), "cdebaf");
        let mut same: Vec<u8> = vec![7, 8, 9];
        permute(&mut same, &[0, 1, 2]);
        assert_eq!(same, [7, 8, 9]);
        // Every permutation of four.
        let mut perms = vec![vec![0usize, 1, 2, 3]];
        for _ in 0..23 {
            let mut p = perms.last().unwrap().clone();
            // next lexicographic permutation
            let i = (0..3).rev().find(|&i| p[i] < p[i + 1]).unwrap();
            let j = (i + 1..4).rev().find(|&j| p[j] > p[i]).unwrap();
            p.swap(i, j);
            p[i + 1..].reverse();
            perms.push(p);
        }
        for p in perms {
            let mut v: Vec<usize> = vec![10, 11, 12, 13];
            permute(&mut v, &p);
            let want: Vec<usize> = p.iter().map(|&k| 10 + k).collect();
            assert_eq!(v, want, "{p:?}");
        }
    }
}
