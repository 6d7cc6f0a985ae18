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
    /// Time order.
    pub(crate) all: Vec<IntervalFacts<'a>>,
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
        let mut indexed: Vec<(usize, IntervalFacts<'a>)> = facts.into_iter().enumerate().collect();
        indexed.sort_by(|a, b| time_order(&a.1, &b.1));
        let (given, mut all): (Vec<usize>, Vec<IntervalFacts<'a>>) = indexed.into_iter().unzip();
        if all.is_empty() {
            all.push(IntervalFacts::new(&NO_REPORT));
        }
        let mut iv = Intervals {
            all,
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

/// The order of report intervals: begin time, begin snapshot, path.
pub(crate) fn time_order(a: &IntervalFacts, b: &IntervalFacts) -> std::cmp::Ordering {
    let (ha, hb) = (&a.report.header, &b.report.header);
    ha.begin_time
        .cmp(&hb.begin_time)
        .then(ha.begin_snap.cmp(&hb.begin_snap))
        .then(a.path.cmp(&b.path))
}
