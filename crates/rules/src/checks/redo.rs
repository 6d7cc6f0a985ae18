//! Redo: is the redo storage the bottleneck, and does flash or a caching
//! RAID array suit the load (000 6.2, Tables 6.1 and 6.6, 7.4, section 8;
//! 004).

use awrflash_model::Severity;
use serde::Deserialize;

use super::{Check, Ctx, Hit, derived};
use crate::util::{f0, f1, f2};
use awrflash_facts::{Ev, IntervalFacts, ratio};

/// What to do with the redo logs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedoAdvice {
    /// Heavy redo load: flash redo with a 4 KB block size.
    Flash,
    /// Light to moderate load: a RAID array with a write-back cache.
    CachingRaid,
    /// log file sync is high but the writes are fast: not storage.
    NotStorage,
}

impl RedoAdvice {
    pub fn as_str(self) -> &'static str {
        match self {
            RedoAdvice::Flash => "flash",
            RedoAdvice::CachingRaid => "caching-raid",
            RedoAdvice::NotStorage => "not-storage",
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RedoStorage {
    lfs_share_pct_min: f64,
    lfs_top_n: usize,
    lfs_top_n_share_pct_min: f64,
    lfpw_avg_ms_min: f64,
    redo_mb_s_heavy: f64,
    avg_write_kb_heavy: f64,
    large_write_mb_s_min: f64,
    cpu_busy_pct_heavy: f64,
    lfs_share_pct_critical: f64,
}

/// The thresholds AF050/AF051 use, for callers outside the registry
/// (calibration); read from `rules/AF050.toml`.
pub fn redo_advice(w: &IntervalFacts) -> Option<RedoAdvice> {
    let rule = crate::catalogue::rule("AF050").ok()?;
    let t: RedoStorage = super::thresholds(rule).ok()?;
    t.assess(w).map(|a| a.advice)
}

struct Assessment<'a> {
    lfs: &'a Ev,
    lfpw: Option<Ev>,
    advice: RedoAdvice,
    heavy_because: Vec<String>,
    top_rank: Option<usize>,
}

impl RedoStorage {
    fn lfs_rank(w: &IntervalFacts) -> Option<usize> {
        let mut evs: Vec<(&str, f64)> = w
            .events
            .iter()
            .filter(|e| {
                !e.name.eq_ignore_ascii_case("SQL*Net message from client")
                    && !e.name.to_ascii_lowercase().contains("idle")
            })
            .map(|e| (e.name.as_str(), e.time_s))
            .collect();
        if let Some(c) = &w.db_cpu_s {
            evs.push(("DB CPU", c.value));
        }
        evs.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
        evs.iter()
            .position(|(n, _)| n.eq_ignore_ascii_case("log file sync"))
            .map(|i| i + 1)
    }

    fn assess<'a>(&self, w: &'a IntervalFacts) -> Option<Assessment<'a>> {
        let lfs = w.event("log file sync")?;
        let rank = Self::lfs_rank(w);
        let significant = lfs.pct_db_time >= self.lfs_share_pct_min
            || (rank.is_some_and(|r| r <= self.lfs_top_n)
                && lfs.pct_db_time >= self.lfs_top_n_share_pct_min);
        if !significant {
            return None;
        }
        let lfpw = w.background("log file parallel write");
        let write_ms = lfpw.as_ref().map_or(lfs.avg_ms, |e| e.avg_ms);
        if write_ms < self.lfpw_avg_ms_min {
            // The device writes redo in under lfpw_avg_ms_min: it is not
            // the bottleneck. Either the posting is slow (log file sync
            // more than twice the write) or commits are simply fast.
            if ratio(write_ms, lfs.avg_ms) >= 0.5 {
                return None;
            }
            return Some(Assessment {
                lfs,
                lfpw,
                advice: RedoAdvice::NotStorage,
                heavy_because: Vec::new(),
                top_rank: rank,
            });
        }
        let mut why = Vec::new();
        let redo_mb_s = w.redo_mb_s().map_or(0.0, |n| n.value);
        if w.redo_mb_s().is_some() && redo_mb_s >= self.redo_mb_s_heavy {
            why.push(format!("{} MB/s of redo", f1(redo_mb_s)));
        }
        if let Some(k) = &w.avg_redo_write_kb
            && k.value >= self.avg_write_kb_heavy
            && redo_mb_s >= self.large_write_mb_s_min
        {
            why.push(format!("{} KB average redo write", f1(k.value)));
        }
        if let Some(c) = &w.host_busy_pct
            && c.value >= self.cpu_busy_pct_heavy
        {
            why.push(format!("CPU {}% busy", f0(c.value)));
        }
        let advice = if why.is_empty() {
            RedoAdvice::CachingRaid
        } else {
            RedoAdvice::Flash
        };
        Some(Assessment {
            lfs,
            lfpw,
            advice,
            heavy_because: why,
            top_rank: rank,
        })
    }
}

fn redo_evidence(mut h: Hit, w: &IntervalFacts, a: &Assessment) -> Hit {
    h = h
        .ev(a.lfs.pct_num().evidence("log file sync % DB time", "%"))
        .ev(a.lfs.avg_num().evidence("log file sync avg wait", "ms"));
    if let Some(p) = &a.lfpw {
        h = h.ev(p
            .avg_num()
            .evidence("log file parallel write avg wait", "ms"));
    }
    if let Some(n) = w.redo_mb_s() {
        h = h.ev(n.evidence("redo MB/s", "MB/s"));
    }
    if let Some(k) = &w.avg_redo_write_kb {
        h = h.ev(k.evidence("average redo write", "KB"));
    }
    if let Some(c) = &w.host_busy_pct {
        h = h.ev(c.evidence("host CPU busy", "%"));
    }
    if let Some(r) = a.top_rank {
        h = h.ev(derived(
            "log file sync rank among timed events",
            r as f64,
            "rank",
            "events and DB CPU ordered by time",
        ));
    }
    h
}

impl Check for RedoStorage {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let Some(a) = self.assess(w) else {
            return Vec::new();
        };
        let write_ms = a.lfpw.as_ref().map_or(a.lfs.avg_ms, |e| e.avg_ms);
        let proj = ctx.projection_of(&["redo"]);
        let size_gb = w
            .redo_bytes_s
            .as_ref()
            // About 20 minutes of peak redo per log, 1-32 GB.
            .map(|b| (b.value * 1200.0 / 1_073_741_824.0).ceil().clamp(1.0, 32.0))
            .unwrap_or(2.0);
        let mut h = match a.advice {
            RedoAdvice::NotStorage => return Vec::new(),
            RedoAdvice::Flash => Hit::new(format!(
                "log file sync takes {}% of DB time ({} ms) and the redo writes themselves take {} ms: the redo storage is a bottleneck, under heavy redo load ({}). Flash redo wins under heavy load; use a 4 KB redo block size (512-byte redo writes are misaligned on flash) and do not multiplex onto disk (a 49% slowdown in the TPC-C test). Flash redo also cut crash recovery time about 6x.",
                f1(a.lfs.pct_db_time),
                f2(a.lfs.avg_ms),
                f2(write_ms),
                a.heavy_because.join(", ")
            ))
            .fix(
                format!(
                    "Recreate the redo logs on flash with a 4 KB block size (BLOCKSIZE 4096), about {} GB per log: as many groups as today, each with as many members as today (the report does not show the current layout: read it from v$log and v$logfile and keep the multiplexing, all members on flash-class storage). Switch to the new groups and drop an old group only once it is INACTIVE in v$log.",
                    f0(size_gb)
                ),
                Vec::new(),
            ),
            RedoAdvice::CachingRaid => Hit::new(format!(
                "log file sync takes {}% of DB time ({} ms) and the redo writes take {} ms, but the redo load is light to moderate (no heavy-load sign: redo MB/s, redo write size and CPU all below the thresholds). Under such load a RAID array with a write-back cache beat flash for redo in the seed, where small 512-byte-aligned redo writes pay a misalignment penalty.",
                f1(a.lfs.pct_db_time),
                f2(a.lfs.avg_ms),
                f2(write_ms)
            ))
            .fix(
                format!(
                    "Put the redo logs on storage with a battery-backed write-back cache, about {} GB per log, keeping today's groups and members (the report does not show the current layout: read it from v$log and v$logfile and keep the multiplexing); if flash is used anyway, create the groups with BLOCKSIZE 4096.",
                    f0(size_gb)
                ),
                Vec::new(),
            ),
        };
        // Say so when the chosen device would not write this redo faster.
        if let Some(p) = &proj
            && a.advice == RedoAdvice::Flash
            && p.response_ratio_low > 0.995
        {
            let size = w.avg_redo_write_kb.as_ref().map_or(4.0, |k| k.value);
            let t = ctx
                .flash
                .service_ms(crate::devices::IoKind::Write, size, 1.0);
            h.message.push_str(&format!(
                " But on {} a {} KB write takes about {} ms, no faster than today's {} ms: pick a device with fast large writes (a power-loss-protected write cache) for the redo logs.",
                ctx.flash.name,
                f0(size),
                f2(t),
                f2(write_ms)
            ));
        }
        h = redo_evidence(h, w, &a).projection(proj);
        if a.lfs.pct_db_time >= self.lfs_share_pct_critical {
            h = h.severity(Severity::Critical);
        }
        vec![h]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommitNotStorage {}

impl Check for CommitNotStorage {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        // AF051 is the other answer of AF050's assessment: the same
        // thresholds, from the catalogue parsed once.
        let Ok(rule) = crate::catalogue::rule("AF050") else {
            return Vec::new();
        };
        let Ok(t) = super::thresholds::<RedoStorage>(rule) else {
            return Vec::new();
        };
        let Some(a) = t.assess(w) else {
            return Vec::new();
        };
        if a.advice != RedoAdvice::NotStorage {
            return Vec::new();
        }
        let write_ms = a.lfpw.as_ref().map_or(0.0, |e| e.avg_ms);
        let h = Hit::new(format!(
            "log file sync takes {}% of DB time at {} ms, but log file parallel write takes only {} ms: the time goes to posting and scheduling LGWR and the committing sessions (CPU load, commit rate), not to the redo device. Flash redo will not help.",
            f1(a.lfs.pct_db_time),
            f2(a.lfs.avg_ms),
            f2(write_ms)
        ));
        vec![redo_evidence(h, w, &a).fix(
            "Reduce commits per transaction (batch commits), check CPU saturation and LGWR priority, and look at 'log file sync' vs 'log file parallel write' histograms for outliers.",
            Vec::new(),
        )]
    }
}
