//! The commit model: `log file sync` as LGWR queueing.
//!
//! A committing session waits for the redo write that carries its commit.
//! When LGWR is idle that is one write (`log file parallel write`); when
//! LGWR is busy writing (probability = its utilisation, redo writes per
//! second x write time), the session first waits for the write in progress
//! to end (half a write on average) and then for the next one, which group
//! commit fills with every commit that arrived meanwhile. On top comes the
//! posting overhead (`redo synch time overhead (usec)` per `redo synch
//! writes`, 12c+). What the model does not explain of today's average is
//! scheduling: the committing session and LGWR waiting for a CPU, which a
//! faster redo device does not remove. Multiplexing (IOStat by Function
//! LGWR bytes against the redo generated) and a member in the recovery area
//! (`db_create_online_log_dest_n` = `db_recovery_file_dest`) are read
//! beside it.

use awrflash_model::EvidenceSrc;

use crate::interval::{Ev, IntervalFacts};
use crate::num::{Num, ratio};

/// The commit figures of one interval, each with its row.
#[derive(Debug, Clone, PartialEq)]
pub struct CommitFacts {
    /// `log file sync` (foreground).
    pub lfs: Ev,
    /// `log file parallel write` (background), when the report has it.
    pub lfpw: Option<Ev>,
    /// LGWR's redo writes per second (`redo writes`, else `log file
    /// parallel write` waits / elapsed).
    pub writes_s: Option<Num>,
    /// Commits per second (`user commits`, else Load Profile transactions).
    pub commits_s: Option<Num>,
    /// Average redo write (KB): redo size / redo writes.
    pub avg_write_kb: Option<Num>,
    /// Posting overhead per commit (ms): `redo synch time overhead (usec)`
    /// / `redo synch writes` / 1000.
    pub post_ms: Option<Num>,
    /// Redo bytes LGWR writes per byte of redo generated: IOStat by
    /// Function LGWR write MB / redo size (2 = two members).
    pub multiplex: Option<Num>,
    /// A redo member's destination that is also the recovery area, with
    /// the parameter row that says so.
    pub shares_recovery_area: Option<(String, EvidenceSrc)>,
}

/// `log file sync` split into the model's terms (ms per commit).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct CommitSplit {
    /// Today's `log file sync` average.
    pub sync_ms: f64,
    /// The redo write (`log file parallel write`).
    pub write_ms: f64,
    /// LGWR utilisation, 0-1.
    pub lgwr_util: f64,
    /// Waiting for LGWR's write in progress: utilisation x write / 2.
    pub queue_ms: f64,
    /// Posting overhead.
    pub post_ms: f64,
    /// Scheduling: today's average less the modelled terms (0 or more).
    pub rest_ms: f64,
    /// Factor applied to the modelled terms when they add up to more than
    /// today's average (1 otherwise), so the split adds up to it.
    pub scale: f64,
}

impl CommitSplit {
    /// `log file sync` (ms) with the redo write at `write_ms` and LGWR
    /// writing `writes_s` times a second: the write, the wait behind the
    /// write in progress and the posting overhead scaled as today, plus
    /// today's scheduling time.
    pub fn sync_at(&self, write_ms: f64, writes_s: f64) -> f64 {
        let u = (writes_s * write_ms / 1000.0).clamp(0.0, 0.99);
        // `post_ms` is already scaled.
        self.scale * (write_ms + u * write_ms / 2.0) + self.post_ms + self.rest_ms
    }
}

impl CommitFacts {
    /// The split of today's `log file sync` into write, LGWR queue,
    /// posting and scheduling; `None` without `log file parallel write`.
    pub fn split(&self) -> Option<CommitSplit> {
        let lfpw = self.lfpw.as_ref()?;
        let sync = self.lfs.avg_ms;
        let write = lfpw.avg_ms;
        if sync <= 0.0 || write <= 0.0 {
            return None;
        }
        let writes_s = self.writes_s.as_ref().map_or(0.0, |n| n.value);
        let u = (writes_s * write / 1000.0).clamp(0.0, 0.99);
        let post = self.post_ms.as_ref().map_or(0.0, |n| n.value);
        let queue = u * write / 2.0;
        let modelled = write + queue + post;
        let (rest, scale) = if modelled <= sync {
            (sync - modelled, 1.0)
        } else {
            (0.0, sync / modelled)
        };
        Some(CommitSplit {
            sync_ms: sync,
            write_ms: write * scale,
            lgwr_util: u,
            queue_ms: queue * scale,
            post_ms: post * scale,
            rest_ms: rest,
            scale,
        })
    }

    /// The write's share of `log file sync` (0-1).
    pub fn write_share(&self) -> Option<f64> {
        self.split().map(|s| ratio(s.write_ms, s.sync_ms))
    }
}

impl IntervalFacts<'_> {
    /// The commit facts; `None` without a `log file sync` event.
    pub fn commit(&self) -> Option<CommitFacts> {
        let lfs = self.event("log file sync")?.clone();
        let lfpw = self.background("log file parallel write");
        let el = self.elapsed();
        let writes_s = self.redo_writes_s.clone().or_else(|| {
            let p = lfpw.as_ref()?;
            (el > 0.0 && p.waits > 0.0).then(|| Num {
                value: p.waits / el,
                src: Some(p.src()),
                derived: Some("log file parallel write waits / elapsed".into()),
            })
        });
        let commits_s = self
            .stat_rate("user commits")
            .or_else(|| self.txn_per_s.clone());
        let post_ms = match (
            self.stat_total("redo synch time overhead (usec)"),
            self.stat_total("redo synch writes"),
        ) {
            (Some(o), Some(n)) if n.value > 0.0 => Some(Num {
                value: o.value / n.value / 1000.0,
                src: o.src,
                derived: Some("redo synch time overhead (usec) / redo synch writes / 1000".into()),
            }),
            _ => None,
        };
        let multiplex = self.redo_bytes_s.as_ref().and_then(|b| {
            let row = self.report.iostat_function.iter().find(|r| {
                r.function
                    .as_deref()
                    .is_some_and(|f| f.trim().eq_ignore_ascii_case("LGWR"))
            })?;
            let written = row
                .write_mb_per_s
                .filter(|v| *v > 0.0)
                .or_else(|| row.writes_mb.filter(|_| el > 0.0).map(|m| m / el))?;
            (b.value > 0.0).then(|| Num {
                value: written * crate::MB / b.value,
                src: Some(self.src(&row.src)),
                derived: Some("IOStat by Function LGWR write MB/s / redo size per second".into()),
            })
        });
        Some(CommitFacts {
            lfs,
            lfpw,
            writes_s,
            commits_s,
            avg_write_kb: self.avg_redo_write_kb.clone(),
            post_ms,
            multiplex,
            shares_recovery_area: self.redo_in_recovery_area(),
        })
    }

    /// A `db_create_online_log_dest_n` that names the recovery area's
    /// destination (`+FRA` for both): one redo member shares its disks with
    /// archive logs, backups and flashback logs.
    fn redo_in_recovery_area(&self) -> Option<(String, EvidenceSrc)> {
        let r = self.report;
        let fra = r.parameter("db_recovery_file_dest")?;
        let dest = fra.value.trim();
        if dest.is_empty() {
            return None;
        }
        (1..=5).find_map(|n| {
            let name = format!("db_create_online_log_dest_{n}");
            let p = r.parameter(&name)?;
            p.value.trim().eq_ignore_ascii_case(dest).then(|| {
                (
                    format!("{name} = {} = db_recovery_file_dest", p.value.trim()),
                    self.src(&p.src),
                )
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(sync: f64, write: f64, writes_s: f64, post: Option<f64>) -> CommitFacts {
        let ev = |name: &str, avg_ms: f64| Ev {
            name: name.into(),
            waits: 1000.0,
            time_s: avg_ms,
            avg_ms,
            pct_db_time: 10.0,
            path: Default::default(),
            at: Default::default(),
        };
        let n = |value: f64| Num {
            value,
            src: None,
            derived: None,
        };
        CommitFacts {
            lfs: ev("log file sync", sync),
            lfpw: Some(ev("log file parallel write", write)),
            writes_s: Some(n(writes_s)),
            commits_s: None,
            avg_write_kb: None,
            post_ms: post.map(n),
            multiplex: None,
            shares_recovery_area: None,
        }
    }

    #[test]
    fn the_commit_model_splits_log_file_sync_by_hand_computed_terms() {
        // 300 writes/s of 2 ms: LGWR 60% busy; a commit waits 0.6 x 2 / 2
        // = 0.6 ms behind the write in progress, 2 ms for its own write,
        // 0.2 ms posting: 2.8 ms modelled; 6 ms measured leaves 3.2 ms of
        // scheduling.
        let s = facts(6.0, 2.0, 300.0, Some(0.2)).split().unwrap();
        assert!((s.lgwr_util - 0.6).abs() < 1e-12);
        assert!((s.queue_ms - 0.6).abs() < 1e-12);
        assert!((s.write_ms - 2.0).abs() < 1e-12);
        assert!((s.post_ms - 0.2).abs() < 1e-12);
        assert!((s.rest_ms - 3.2).abs() < 1e-12);
        assert_eq!(s.scale, 1.0);
        // A 0.5 ms write at the same rate: LGWR 15% busy, 0.0375 ms queue:
        // 0.5 + 0.0375 + 0.2 + 3.2 = 3.9375 ms.
        assert!((s.sync_at(0.5, 300.0) - 3.9375).abs() < 1e-12);
    }

    #[test]
    fn a_model_above_the_measured_sync_is_scaled_never_negative() {
        // 1 ms writes at 500/s (50% busy): 1 + 0.25 + 0.1 = 1.35 ms
        // modelled against 1.2 ms measured: no scheduling term, the terms
        // scaled by 1.2 / 1.35 so they add up to the measured average.
        let s = facts(1.2, 1.0, 500.0, Some(0.1)).split().unwrap();
        assert_eq!(s.rest_ms, 0.0);
        assert!((s.scale - 1.2 / 1.35).abs() < 1e-12);
        let total = s.write_ms + s.queue_ms + s.post_ms + s.rest_ms;
        assert!((total - 1.2).abs() < 1e-12);
        assert!((s.sync_at(1.0, 500.0) - 1.2).abs() < 1e-12);
    }
}
