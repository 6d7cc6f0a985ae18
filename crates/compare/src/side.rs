//! One side of the comparison: the facts of its intervals, summed or
//! averaged over the window. Every per-interval figure is read from
//! [`awrflash_facts::IntervalFacts`]; a window figure is a sum of those, or
//! [`awrflash_model::stats::window_mean`] of them, nothing else.

use awrflash_facts::{IntervalFacts, Num};
use awrflash_model::stats::window_mean;
use awrflash_model::{DbReport, DbTimeBreakdown, EvidenceSrc, HistogramRow};

/// A window figure and the rows it came from (one per interval).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fig {
    pub value: f64,
    pub src: Vec<EvidenceSrc>,
}

/// A wait event over the window.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WaitSum {
    pub waits: f64,
    pub time_s: f64,
    pub avg_ms: f64,
    /// `None` for a background event.
    pub pct_db_time: Option<f64>,
    pub waits_per_s: f64,
    pub src: Vec<EvidenceSrc>,
}

/// The facts of one side's compared intervals.
pub struct SideFacts<'a> {
    pub intervals: Vec<IntervalFacts<'a>>,
}

fn srcs<'n>(nums: impl Iterator<Item = &'n Num>) -> Vec<EvidenceSrc> {
    let mut v: Vec<EvidenceSrc> = nums.filter_map(|n| n.src.clone()).collect();
    v.dedup();
    v
}

impl<'a> SideFacts<'a> {
    pub fn new(reports: &[&'a DbReport]) -> Self {
        SideFacts {
            intervals: reports.iter().map(|r| IntervalFacts::new(r)).collect(),
        }
    }

    pub fn elapsed(&self) -> f64 {
        self.intervals.iter().map(IntervalFacts::elapsed).sum()
    }

    /// The sum of a figure over the intervals that have it.
    pub fn total(&self, f: impl Fn(&IntervalFacts<'a>) -> Option<Num>) -> Option<Fig> {
        let nums: Vec<Num> = self.intervals.iter().filter_map(&f).collect();
        if nums.is_empty() {
            return None;
        }
        Some(Fig {
            value: nums.iter().map(|n| n.value).sum(),
            src: srcs(nums.iter()),
        })
    }

    /// A per-second rate over the window: the interval rates weighted by
    /// elapsed time (what one report over the whole window would print).
    pub fn rate(&self, f: impl Fn(&IntervalFacts<'a>) -> Option<Num>) -> Option<Fig> {
        self.weighted(f, |w| w.elapsed())
    }

    /// A figure averaged over the intervals with the given weights.
    pub fn weighted(
        &self,
        f: impl Fn(&IntervalFacts<'a>) -> Option<Num>,
        weight: impl Fn(&IntervalFacts<'a>) -> f64,
    ) -> Option<Fig> {
        let pairs: Vec<(Num, f64)> = self
            .intervals
            .iter()
            .filter_map(|w| f(w).map(|n| (n, weight(w))))
            .collect();
        let value = window_mean(pairs.iter().map(|(n, w)| (Some(n.value), *w)))?;
        Some(Fig {
            value,
            src: srcs(pairs.iter().map(|p| &p.0)),
        })
    }

    /// A total over the window's transactions (or executions): the sum of
    /// `num` over the sum of `count`, from the intervals that have both.
    pub fn per_count(
        &self,
        num: impl Fn(&IntervalFacts<'a>) -> Option<Num>,
        count: impl Fn(&IntervalFacts<'a>) -> Option<(f64, Option<EvidenceSrc>)>,
    ) -> Option<Fig> {
        let mut top = 0.0;
        let mut bottom = 0.0;
        let mut src = Vec::new();
        for w in &self.intervals {
            if let (Some(n), Some((c, csrc))) = (num(w), count(w)) {
                top += n.value;
                bottom += c;
                src.extend(n.src);
                src.extend(csrc);
            }
        }
        src.dedup();
        (bottom > 0.0).then(|| Fig {
            value: top / bottom,
            src,
        })
    }

    /// A wait event (foreground, else background) over the window.
    pub fn wait(&self, name: &str) -> Option<WaitSum> {
        let mut background = false;
        let evs: Vec<(awrflash_facts::Ev, f64, f64)> = self
            .intervals
            .iter()
            .filter_map(|w| {
                w.event(name)
                    .cloned()
                    .or_else(|| {
                        background = true;
                        w.background(name)
                    })
                    .map(|e| (e, w.db_time(), w.elapsed()))
            })
            .collect();
        let waits: f64 = evs.iter().map(|e| e.0.waits).sum();
        let time_s: f64 = evs.iter().map(|e| e.0.time_s).sum();
        if evs.is_empty() || (waits <= 0.0 && time_s <= 0.0) {
            return None;
        }
        let elapsed: f64 = evs.iter().map(|e| e.2).sum();
        Some(WaitSum {
            waits,
            time_s,
            // The facts' averages weighted by waits: total time over total
            // waits when every interval counts its waits.
            avg_ms: window_mean(evs.iter().map(|e| (Some(e.0.avg_ms), e.0.waits)))
                .unwrap_or(evs.first().map_or(0.0, |e| e.0.avg_ms)),
            // A background event's percentage is of background time.
            pct_db_time: if background {
                None
            } else {
                window_mean(evs.iter().map(|e| (Some(e.0.pct_db_time), e.1)))
            },
            waits_per_s: if elapsed > 0.0 { waits / elapsed } else { 0.0 },
            src: {
                let mut v: Vec<EvidenceSrc> = evs.iter().map(|e| e.0.src()).collect();
                v.dedup();
                v
            },
        })
    }

    /// The event's wait histogram rows, one per interval, with the waits
    /// each row stands for.
    pub fn histograms(&self, event: &str) -> Vec<(HistogramRow, f64, EvidenceSrc)> {
        self.intervals
            .iter()
            .filter_map(|w| {
                let h = w
                    .key_histograms()
                    .into_iter()
                    .find(|h| h.event.eq_ignore_ascii_case(event))?;
                let waits = h
                    .total_waits
                    .or(h.range_waits)
                    .or_else(|| w.event(event).map(|e| e.waits))
                    .unwrap_or(0.0);
                let src = w.src(&h.src);
                Some((h, waits, src))
            })
            .collect()
    }

    /// The DB time breakdown summed over the intervals.
    pub fn breakdown(&self) -> DbTimeBreakdown {
        let mut t = DbTimeBreakdown::default();
        for w in &self.intervals {
            let b = w.breakdown();
            t.cpu_s += b.cpu_s;
            t.single_block_read_s += b.single_block_read_s;
            t.multiblock_read_s += b.multiblock_read_s;
            t.temp_io_s += b.temp_io_s;
            t.write_wait_s += b.write_wait_s;
            t.commit_s += b.commit_s;
            t.flash_cache_read_s += b.flash_cache_read_s;
            t.other_s += b.other_s;
            t.cpu_queue_s += b.cpu_queue_s;
        }
        t
    }

    /// Transactions over the window, with the row they were read from.
    pub fn txn(w: &IntervalFacts<'_>) -> Option<(f64, Option<EvidenceSrc>)> {
        w.transactions()
            .map(|c| (c, w.txn_per_s.as_ref().and_then(|n| n.src.clone())))
    }

    /// Executions over the window, with the row they were read from.
    pub fn exec(w: &IntervalFacts<'_>) -> Option<(f64, Option<EvidenceSrc>)> {
        w.executions()
            .map(|c| (c, w.exec_per_s.as_ref().and_then(|n| n.src.clone())))
    }

    /// A statistic's total over the window (activity statistics).
    pub fn stat_total(&self, name: &str) -> Option<Fig> {
        self.total(|w| w.stat_total(name))
    }

    /// The first report of the side.
    pub fn first(&self) -> Option<&'a DbReport> {
        self.intervals.first().map(|w| w.report)
    }
}
