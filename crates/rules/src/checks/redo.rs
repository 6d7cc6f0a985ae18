//! Redo: is the redo storage the bottleneck, and does flash or a caching
//! RAID array suit the load (000 6.2, Tables 6.1 and 6.6, 7.4, section 8;
//! 004).

use awrflash_model::Severity;
use serde::Deserialize;

use super::{Check, Ctx, Hit, derived};
use crate::redoproj::commit_terms_note;
use crate::util::{f0, f1, f2};
use awrflash_facts::{CommitFacts, CommitSplit, Ev, IntervalFacts, ratio};

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
    write_share_pct_min: f64,
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
    commit: Option<CommitFacts>,
    split: Option<CommitSplit>,
    /// The write's share of log file sync, percent.
    write_share_pct: f64,
    advice: RedoAdvice,
    heavy_because: Vec<String>,
    top_rank: Option<usize>,
}

/// Events and DB CPU ordered by time: log file sync's rank (1-based).
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

/// A significant log file sync: at least `share_min` % of DB time, or in
/// the top `top_n` timed events with at least `top_share_min` %.
fn significant(
    lfs: &Ev,
    rank: Option<usize>,
    share_min: f64,
    top_n: usize,
    top_share_min: f64,
) -> bool {
    lfs.pct_db_time >= share_min
        || (rank.is_some_and(|r| r <= top_n) && lfs.pct_db_time >= top_share_min)
}

impl RedoStorage {
    fn assess<'a>(&self, w: &'a IntervalFacts) -> Option<Assessment<'a>> {
        let lfs = w.event("log file sync")?;
        let rank = lfs_rank(w);
        if !significant(
            lfs,
            rank,
            self.lfs_share_pct_min,
            self.lfs_top_n,
            self.lfs_top_n_share_pct_min,
        ) {
            return None;
        }
        let lfpw = w.background("log file parallel write");
        let write_ms = lfpw.as_ref().map_or(lfs.avg_ms, |e| e.avg_ms);
        let write_share_pct = ratio(write_ms * 100.0, lfs.avg_ms).min(100.0);
        let commit = w.commit();
        let split = commit.as_ref().and_then(CommitFacts::split);
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
        // Storage only when the write is slow AND most of the sync; flash
        // only when, besides, the load is heavy by the seeds' measures.
        let storage =
            write_ms >= self.lfpw_avg_ms_min && write_share_pct >= self.write_share_pct_min;
        let advice = match (storage, why.is_empty()) {
            (true, false) => RedoAdvice::Flash,
            (true, true) => RedoAdvice::CachingRaid,
            (false, _) => RedoAdvice::NotStorage,
        };
        Some(Assessment {
            lfs,
            lfpw,
            commit,
            split,
            write_share_pct,
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
    h = h.ev(derived(
        "redo write share of log file sync",
        a.write_share_pct,
        "%",
        "log file parallel write avg / log file sync avg",
    ));
    if let Some(n) = w.redo_mb_s() {
        h = h.ev(n.evidence("redo MB/s", "MB/s"));
    }
    if let Some(k) = &w.avg_redo_write_kb {
        h = h.ev(k.evidence("average redo write", "KB"));
    }
    if let Some(c) = &a.commit {
        h = h
            .ev_opt(
                c.commits_s
                    .as_ref()
                    .map(|n| n.evidence("commits per second", "/s")),
            )
            .ev_opt(
                c.writes_s
                    .as_ref()
                    .map(|n| n.evidence("redo writes per second", "/s")),
            )
            .ev_opt(
                c.post_ms
                    .as_ref()
                    .map(|n| n.evidence("posting overhead per commit", "ms")),
            )
            .ev_opt(
                c.multiplex
                    .as_ref()
                    .map(|n| n.evidence("redo bytes written per redo byte (multiplexing)", "x")),
            );
        if let Some((what, src)) = &c.shares_recovery_area {
            h = h.ev(super::row_ev(
                format!("redo member in the recovery area ({what})"),
                1.0,
                "flag",
                src.clone(),
            ));
        }
    }
    if let Some(s) = &a.split {
        h = h.ev(derived(
            "LGWR utilisation",
            s.lgwr_util * 100.0,
            "%",
            "redo writes per second x log file parallel write avg",
        ));
        h = h.ev(derived(
            "log file sync: wait behind LGWR's write in progress",
            s.queue_ms,
            "ms",
            "LGWR utilisation x write / 2 (commit model)",
        ));
        h = h.ev(derived(
            "log file sync: scheduling (not explained by write, queue or posting)",
            s.rest_ms,
            "ms",
            "log file sync - write - LGWR queue - posting (commit model)",
        ));
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

/// The commit model's terms in one sentence (same split as the redo
/// option's note).
fn model_sentence(a: &Assessment) -> String {
    match (&a.commit, &a.split) {
        (Some(c), Some(s)) => format!(" By the commit model: {}.", commit_terms_note(c, s)),
        _ => String::new(),
    }
}

impl Check for RedoStorage {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let Some(a) = self.assess(w) else {
            return Vec::new();
        };
        if a.advice != RedoAdvice::Flash {
            return Vec::new();
        }
        let write_ms = a.lfpw.as_ref().map_or(a.lfs.avg_ms, |e| e.avg_ms);
        let proj = ctx.projection_of(&["redo"]);
        let size_gb = w
            .redo_bytes_s
            .as_ref()
            // About 20 minutes of peak redo per log, 1-32 GB.
            .map(|b| (b.value * 1200.0 / 1_073_741_824.0).ceil().clamp(1.0, 32.0))
            .unwrap_or(2.0);
        let mut h = Hit::new(format!(
            "log file sync takes {}% of DB time ({} ms) and the redo write is {} ms of it ({}%, at least {}% counts as most): the redo storage is the bottleneck, under heavy redo load ({}). Flash redo wins under heavy load; use a 4 KB redo block size (512-byte redo writes are misaligned on flash) and do not multiplex onto disk (a 49% slowdown in the TPC-C test). Flash redo also cut crash recovery time about 6x.{}",
            f1(a.lfs.pct_db_time),
            f2(a.lfs.avg_ms),
            f2(write_ms),
            f0(a.write_share_pct),
            f0(self.write_share_pct_min),
            a.heavy_because.join(", "),
            model_sentence(&a)
        ))
        .fix(
            format!(
                "Recreate the redo logs on flash with a 4 KB block size (BLOCKSIZE 4096), about {} GB per log: as many groups as today, each with as many members as today (the report does not show the current layout: read it from v$log and v$logfile and keep the multiplexing, all members on flash-class storage). Switch to the new groups and drop an old group only once it is INACTIVE in v$log.",
                f0(size_gb)
            ),
            Vec::new(),
        );
        // Say so when the chosen device would not write this redo faster.
        if let Some(p) = &proj
            && p.response_ratio_low > 0.995
            && let Some(c) = &a.commit
        {
            let size = w.avg_redo_write_kb.as_ref().map_or(4.0, |k| k.value);
            let (t, _) = crate::redoproj::device_write_ms(w, ctx.flash, c);
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
pub struct CommitNotStorage {
    lfs_share_pct_min: f64,
    lfs_top_n: usize,
    lfs_top_n_share_pct_min: f64,
    multiplex_ratio_min: f64,
    cpu_util_pct_queue: f64,
    lgwr_util_pct_busy: f64,
}

/// What AF051 names as the likely cause of a log file sync that is not a
/// storage bottleneck: the largest term of the commit model, in words.
fn likely_cause(
    t: &CommitNotStorage,
    w: &IntervalFacts,
    a: &Assessment,
    fast_write_ms: f64,
) -> String {
    let cpu = w.cpu_headroom();
    let cpu_queue = cpu.queue_shown
        || cpu
            .decisive()
            .is_some_and(|s| s.util * 100.0 >= t.cpu_util_pct_queue);
    let cpu_label = cpu.decisive().map(|s| s.label.clone()).unwrap_or_default();
    let multiplexed = a
        .commit
        .as_ref()
        .and_then(|c| c.multiplex.as_ref())
        .is_some_and(|m| m.value >= t.multiplex_ratio_min);
    let in_fra = a
        .commit
        .as_ref()
        .and_then(|c| c.shares_recovery_area.as_ref())
        .map(|(what, _)| what.clone());
    let Some(s) = &a.split else {
        return "no log file parallel write in the report, so the write and the rest cannot be told apart".into();
    };
    let commits = a
        .commit
        .as_ref()
        .and_then(|c| c.commits_s.as_ref())
        .map(|n| n.value);
    let terms = [
        ("write", s.write_ms),
        ("queue", s.queue_ms),
        ("post", s.post_ms),
        ("rest", s.rest_ms),
    ];
    let top = terms
        .iter()
        .max_by(|x, y| x.1.total_cmp(&y.1))
        .map_or("rest", |x| x.0);
    let fast_write = a.advice == RedoAdvice::NotStorage && s.write_ms < fast_write_ms;
    let describe = |term: &str| -> String {
        match term {
            "rest" if cpu_queue => format!(
                "a CPU queue: {} ms of each commit is neither the write, LGWR's queue nor posting, and the CPUs show a queue ({cpu_label}), so LGWR and the committing sessions wait to be scheduled",
                f2(s.rest_ms)
            ),
            "rest" => format!(
                "scheduling: {} ms of each commit is neither the write, LGWR's queue nor posting (process wake-up and dispatch; no CPU queue shows in the report)",
                f2(s.rest_ms)
            ),
            "queue" => format!(
                "the commit rate: LGWR is {}% busy{}, so a commit waits {} ms behind the write in progress",
                f0(s.lgwr_util * 100.0),
                commits
                    .map(|c| format!(" at {} commits/s", f0(c)))
                    .unwrap_or_default(),
                f2(s.queue_ms)
            ),
            "post" => format!(
                "posting: {} ms per commit of redo synch time overhead",
                f2(s.post_ms)
            ),
            _ if fast_write => format!(
                "the number of commits: each is already fast ({} ms, the write {} ms is flash-class){}, so faster redo storage has little to take",
                f2(s.sync_ms),
                f2(s.write_ms),
                commits
                    .map(|c| format!(", and {} a second add up", f0(c)))
                    .unwrap_or_default()
            ),
            _ if multiplexed || in_fra.is_some() => format!(
                "the redo write ({} ms) on storage shared with other traffic{}",
                f2(s.write_ms),
                in_fra
                    .as_ref()
                    .map(|f| format!(": a member lives in the recovery area ({f}), with archive, backup and flashback writes"))
                    .unwrap_or_else(|| " (multiplexed members)".into())
            ),
            _ => format!(
                "the redo write ({} ms) at light to moderate redo load: a RAID array with a write-back cache served such load as well as flash or better in the seed, where small 512-byte-aligned redo writes pay a misalignment penalty",
                f2(s.write_ms)
            ),
        }
    };
    let mut cause = describe(top);
    // Other terms that take a quarter of the sync or more are named too,
    // and LGWR's queue whenever LGWR is busy.
    let also: Vec<String> = terms
        .iter()
        .filter(|(n, v)| {
            *n != top
                && *n != "write"
                && (*v >= 0.25 * s.sync_ms
                    || (*n == "queue" && s.lgwr_util * 100.0 >= t.lgwr_util_pct_busy))
        })
        .map(|(n, _)| describe(n))
        .collect();
    if !also.is_empty() {
        cause.push_str(&format!("; also {}", also.join("; ")));
    }
    if top != "write" && (multiplexed || in_fra.is_some()) {
        cause.push_str(&format!(
            "; the redo is also written {}{}",
            a.commit
                .as_ref()
                .and_then(|c| c.multiplex.as_ref())
                .map(|m| format!("{}x (multiplexed)", f1(m.value)))
                .unwrap_or_else(|| "to more than one place".into()),
            in_fra
                .map(|f| format!(", one member in the recovery area ({f})"))
                .unwrap_or_default()
        ));
    }
    cause
}

impl CommitNotStorage {
    fn explain<'a>(&self, w: &'a IntervalFacts) -> Option<(Assessment<'a>, String)> {
        // The storage decision is AF050's (the complement), read from the
        // catalogue parsed once; significance is AF051's own.
        let rule = crate::catalogue::rule("AF050").ok()?;
        let t = super::thresholds::<RedoStorage>(rule).ok()?;
        let a = t.assess_all(w)?;
        if a.advice == RedoAdvice::Flash
            || !significant(
                a.lfs,
                a.top_rank,
                self.lfs_share_pct_min,
                self.lfs_top_n,
                self.lfs_top_n_share_pct_min,
            )
        {
            return None;
        }
        let cause = likely_cause(self, w, &a, t.lfpw_avg_ms_min);
        Some((a, cause))
    }
}

impl RedoStorage {
    /// The assessment whatever the significance (AF051 applies its own).
    fn assess_all<'a>(&self, w: &'a IntervalFacts) -> Option<Assessment<'a>> {
        let t = RedoStorage {
            lfs_share_pct_min: 0.0,
            lfs_top_n: usize::MAX,
            lfs_top_n_share_pct_min: 0.0,
            ..*self
        };
        t.assess(w)
    }
}

impl Check for CommitNotStorage {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let Some((a, cause)) = self.explain(w) else {
            return Vec::new();
        };
        let write_ms = a.lfpw.as_ref().map_or(a.lfs.avg_ms, |e| e.avg_ms);
        let c = a.commit.as_ref();
        let h = Hit::new(format!(
            "log file sync takes {}% of DB time at {} ms per commit{}; the redo write is {} ms of it ({}%){}{}. Likely cause: {}. Faster redo storage shortens only the write.{}",
            f1(a.lfs.pct_db_time),
            f2(a.lfs.avg_ms),
            c.and_then(|c| c.commits_s.as_ref())
                .map(|n| format!(" ({} commits/s)", f0(n.value)))
                .unwrap_or_default(),
            f2(write_ms),
            f0(a.write_share_pct),
            w.avg_redo_write_kb
                .as_ref()
                .map(|k| format!(", {} KB per redo write", f1(k.value)))
                .unwrap_or_default(),
            a.split
                .as_ref()
                .map(|s| format!(", LGWR {}% busy", f0(s.lgwr_util * 100.0)))
                .unwrap_or_default(),
            cause,
            model_sentence(&a)
        ));
        vec![redo_evidence(h, w, &a)
            .projection(ctx.projection_of(&["redo"]))
            .fix(
                "Act on the cause: CPU headroom for LGWR and the committing sessions (a CPU queue delays both), fewer commits per transaction (batch commits), redo members off storage shared with the recovery area, and a look at the 'log file sync' and 'log file parallel write' histograms for outliers. Where the write itself is slow at light load, a write-back cached array suits redo as well as flash.",
                Vec::new(),
            )]
    }
}

/// The verdict's sentence on a significant log file sync: which of AF050
/// and AF051 explains it, with the figures they print.
pub fn verdict_sentence(w: &IntervalFacts) -> Option<String> {
    let r50 = crate::catalogue::rule("AF050").ok()?;
    let t50 = super::thresholds::<RedoStorage>(r50).ok()?;
    if let Some(a) = t50.assess(w)
        && a.advice == RedoAdvice::Flash
    {
        return Some(format!(
            " log file sync takes {}% of DB time and the redo write is {}% of it, under heavy redo load: redo storage limits commits (AF050).",
            f1(a.lfs.pct_db_time),
            f0(a.write_share_pct)
        ));
    }
    let r51 = crate::catalogue::rule("AF051").ok()?;
    let t51 = super::thresholds::<CommitNotStorage>(r51).ok()?;
    let (a, cause) = t51.explain(w)?;
    Some(format!(
        " log file sync takes {}% of DB time, the redo write {}% of it: likely cause {} (AF051).",
        f1(a.lfs.pct_db_time),
        f0(a.write_share_pct),
        cause.split(':').next().unwrap_or(&cause)
    ))
}
