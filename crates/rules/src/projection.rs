//! The projection model (design: ADVISOR.md section 5).
//!
//! For each option (hot segments, whole database, redo, TEMP, flash cache of
//! size S) it projects DB time and DB time per transaction after the change
//! as a low-high range:
//!
//! 1. DB time is split into CPU, single-block reads, multiblock reads, temp
//!    I/O, foreground write waits, commit, flash-cache reads and other.
//! 2. Each affected wait gets a new latency from the device profile. The
//!    device's concurrency comes from Little's law: outstanding I/Os = I/O
//!    rate x average wait. The low latency is the fixed point at today's
//!    rate; the high one keeps today's outstanding count (sessions that wait
//!    less issue more I/O).
//! 3. Saved time = affected waits x (current average - new latency).
//! 4. Response-time ratio = projected / current DB time per transaction; the
//!    throughput it implies is capped by CPU and channel headroom (the
//!    bottleneck law, 000 section 5). OLTP at CPU saturation still gained
//!    ~1.3x in 000 Table 6.2 (fewer processes needed), so OLTP keeps that
//!    floor. The high end also charges CPU queueing (M/M/1 inflation of DB
//!    CPU at the utilisation the optimistic throughput implies).
//! 5. Flash cache: the Buffer Pool Advisory curve is extrapolated to the
//!    buffer plus flash size (two fits, see `fit_advisory`); reads avoided become flash
//!    reads; the SGA spent on flash buffer headers shrinks the buffer cache.

pub mod exadata;

use awrflash_model::{
    Bound, DbTimeBreakdown, EvidenceSrc, FlashCachePlan, FlashCachePoint, OptionProjection,
    Projection, ProjectionStep,
};

use crate::devices::{DeviceProfile, IoKind};
use crate::segments::Ranked;
use crate::util::{f1, f2};
use awrflash_facts::{
    Ev, FLASH_CACHE_READS, IntervalFacts, MULTIBLOCK, SINGLE_BLOCK, Split, TEMP, ratio, round,
};

/// Throughput gain OLTP kept at CPU saturation (000 Table 6.2: 33,006 vs
/// 25,027 TPS = 1.32; Table 6.5 at 96 clients: 1.30).
pub const OLTP_SATURATION_GAIN: f64 = 1.3;
/// Flash cache sizes tried, as multiples of the buffer cache (003: typical
/// sizing 2x-10x; 1x is shown as well, it is the smallest size 003 measured).
pub const FLASH_CACHE_MULTIPLES: &[f64] = &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0];
/// SGA bytes per flash cache buffer header (003 Key Points): 100, RAC 200.
pub const HEADER_BYTES: f64 = 100.0;
pub const HEADER_BYTES_RAC: f64 = 200.0;
/// Coverage target of the hot-segment list (percent of read requests).
pub const SEGMENT_COVERAGE_PCT: f64 = 80.0;

/// Bottleneck caps on throughput.
#[derive(Debug, Clone, Default)]
pub struct Caps {
    /// CPU utilisation (percent) the decisive CPU signal implies.
    pub busy_pct: Option<f64>,
    /// CPUs the queueing charge counts: those the decisive signal's
    /// utilisation is counted over (logical CPUs for host busy, the cores
    /// for a run queue or load, `cpu_count` for a limit).
    pub cpus: Option<f64>,
    pub cpu: Option<f64>,
    /// The CPU signal that decided `cpu`, in words (`CPU queue:
    /// OS_CPU_WAIT_TIME 2,900 s/h on 4 vCPUs`).
    pub cpu_signal: Option<String>,
    pub channel_util_pct: Option<f64>,
    pub channel: Option<f64>,
}

/// What the projection produced for one workload.
#[derive(Debug, Clone, Default)]
pub struct Plan {
    pub breakdown: DbTimeBreakdown,
    pub options: Vec<OptionProjection>,
    pub ranked: Ranked,
    pub flash_cache: Option<FlashCachePlan>,
    pub caps: Caps,
    pub oltp: bool,
    pub device: String,
    /// The flash cache size the plan puts forward (AF070's assessment),
    /// `None` when no flash cache is recommended.
    pub flash_cache_pick: Option<FlashCachePick>,
    /// Why single-block reads gain nothing although they are slow: the
    /// device already serves them at the target's latency (whole-database
    /// option), in words for the verdict.
    pub already_flash_class: Option<String>,
    /// Where the database runs (decides the option set).
    pub platform: crate::platform::Platform,
    /// Why no flash cache size was projected: neither fit of the Buffer
    /// Pool Advisory reaches the required R^2.
    pub fit_refused: Option<String>,
}

/// A recommended flash cache: its size, the SGA its headers take and the
/// option key of that size.
#[derive(Debug, Clone, Default)]
pub struct FlashCachePick {
    pub size_gb: f64,
    pub sga_cost_mb: f64,
    pub key: String,
}

/// How an affected wait changes.
enum Mode {
    Read(f64),
    Write(f64),
    /// DBWR-bound waits shrink with the write latency ratio.
    DbwrBound {
        dbwr_avg_ms: f64,
    },
}

struct Affected<'e> {
    ev: &'e Ev,
    share: f64,
    mode: Mode,
}

/// `fit_r2_min`: the Buffer Pool Advisory fit a flash cache projection
/// needs (AF070's `advisory_fit_r2_min`).
pub fn plan(
    w: &IntervalFacts,
    dev: &DeviceProfile,
    ranked: Ranked,
    opts: &crate::Options,
    fit_r2_min: f64,
) -> Plan {
    build(w, dev, ranked, opts, Some(fit_r2_min))
}

/// The moves of one interval of a window (whole database, redo, TEMP),
/// with the same steps as [`plan`]: it reads the interval's facts (time
/// model, wait events, histograms, OS and activity statistics, parameters)
/// and never a SQL list, segment list, advisory or file I/O, which the
/// other intervals of a window may not keep.
/// The device moves of an interval (whole database, redo, TEMP) whatever
/// the platform: the per-read saving that ranks segments comes from them.
pub fn moves_plan(w: &IntervalFacts, dev: &DeviceProfile, opts: &crate::Options) -> Plan {
    build(w, dev, Ranked::default(), opts, None)
}

/// On Exadata the interval's moves are the cell flash options, as in the
/// detailed plan; on a managed service only the storage tier.
pub fn interval_plan(w: &IntervalFacts, dev: &DeviceProfile, opts: &crate::Options) -> Plan {
    let mut p = moves_plan(w, dev, opts);
    p.platform = crate::platform::detect(w);
    match p.platform {
        crate::platform::Platform::Exadata => p.options = exadata::options(w, dev, &p),
        crate::platform::Platform::Service(_) => p.options.retain(|o| o.key == "whole-db"),
        _ => {}
    }
    p
}

/// `advisories`: project the flash cache sizes from the Buffer Pool
/// Advisory, with fits of at least this R^2.
fn build(
    w: &IntervalFacts,
    dev: &DeviceProfile,
    ranked: Ranked,
    opts: &crate::Options,
    advisories: Option<f64>,
) -> Plan {
    let breakdown = w.breakdown();
    let caps = caps(w, opts);
    let oltp = breakdown.single_block_read_s >= breakdown.multiblock_read_s
        && w.txn_per_s.as_ref().is_some_and(|t| t.value >= 1.0);
    let mut p = Plan {
        breakdown,
        options: Vec::new(),
        ranked,
        flash_cache: None,
        caps,
        oltp,
        device: dev.name.clone(),
        flash_cache_pick: None,
        already_flash_class: None,
        platform: crate::platform::Platform::Host,
        fit_refused: None,
    };
    if w.db_time() <= 0.0 || w.events.is_empty() {
        return p;
    }
    let mb_kb = w.multiblock_read_kb().value;
    let bs_kb = w.block_size / 1024.0;
    let dbwr = w
        .background("db file parallel write")
        .map(|e| e.avg_ms)
        .filter(|v| *v > 0.0);
    let reads = |share: f64| -> Vec<Affected> {
        let mut v = Vec::new();
        for e in w.events_in(SINGLE_BLOCK) {
            v.push(Affected {
                ev: e,
                share,
                mode: Mode::Read(bs_kb),
            });
        }
        for e in w.events_in(MULTIBLOCK) {
            if e.name.starts_with("cell smart") {
                continue;
            }
            v.push(Affected {
                ev: e,
                share,
                mode: Mode::Read(mb_kb),
            });
        }
        v
    };
    let writes = |share: f64| -> Vec<Affected> {
        let mut v = Vec::new();
        for name in ["free buffer waits", "write complete waits"] {
            if let (Some(e), Some(d)) = (w.event(name), dbwr) {
                v.push(Affected {
                    ev: e,
                    share,
                    mode: Mode::DbwrBound { dbwr_avg_ms: d },
                });
            }
        }
        if let Some(e) = w.event("direct path write") {
            v.push(Affected {
                ev: e,
                share,
                mode: Mode::Write(mb_kb),
            });
        }
        v
    };
    let temp = || -> Vec<Affected> {
        w.events_in(TEMP)
            .into_iter()
            .map(|e| Affected {
                ev: e,
                share: 1.0,
                mode: if e.name.contains("write") {
                    Mode::Write(mb_kb)
                } else {
                    Mode::Read(mb_kb)
                },
            })
            .collect()
    };

    // Hot segments.
    if !p.ranked.list.is_empty() {
        let (in_budget, rshare) = p.ranked.in_budget();
        let wshare = p.ranked.write_share;
        let mut aff = reads(rshare);
        aff.extend(writes(wshare));
        let cap_gb: Option<f64> = {
            let known: Vec<f64> = in_budget.iter().filter_map(|s| s.size_gb).collect();
            (known.len() == in_budget.len() && !known.is_empty()).then(|| known.iter().sum())
        };
        let mut o = option(
            w,
            dev,
            &p,
            "hot-segments",
            &format!(
                "Move the {} hottest segments to flash ({}% of read requests)",
                in_budget.len(),
                f1(rshare * 100.0)
            ),
            aff,
        );
        o.capacity_gb = cap_gb.map(round);
        o.notes.push(format!(
            "share of read waits affected = the listed segments' share of read requests ({}%); of write waits, their share of physical writes ({}%)",
            f1(rshare * 100.0),
            f1(wshare * 100.0)
        ));
        p.options.push(o);
    }
    // Whole database (redo stays where it is, as in 000).
    {
        let mut aff = reads(1.0);
        aff.extend(writes(1.0));
        aff.extend(temp());
        let o = option(
            w,
            dev,
            &p,
            "whole-db",
            "Move every datafile and tempfile to flash (redo unchanged)",
            aff,
        );
        p.already_flash_class = o.notes.iter().find(|n| n.contains(FLASH_CLASS)).cloned();
        p.options.push(o);
    }
    // Redo: the commit model (`redoproj`).
    if let Some(o) = crate::redoproj::redo_option(w, dev, &p) {
        p.options.push(o);
    }
    // TEMP.
    let t = temp();
    if !t.is_empty() {
        let o = option(
            w,
            dev,
            &p,
            "temp",
            "Move the temporary tablespace to flash",
            t,
        );
        p.options.push(o);
    }
    // Flash cache.
    if let Some(fit_r2_min) = advisories {
        let (fc, fc_opts) = flash_cache(w, dev, &p, fit_r2_min);
        if let Some(f) = fc.as_ref().filter(|f| f.curve.is_empty()) {
            p.fit_refused = Some(f.reason.clone());
        }
        p.flash_cache = fc;
        p.options.extend(fc_opts);
    }
    rank_options(&mut p.options);
    p
}

/// Ranks options: best mid gain first (to 0.1%), then the simpler change
/// first.
pub fn rank_options(options: &mut [OptionProjection]) {
    options.sort_by(|a, b| {
        let ga = (mid_gain(a) * 1000.0).round();
        let gb = (mid_gain(b) * 1000.0).round();
        gb.total_cmp(&ga)
            .then(preference(&a.key).cmp(&preference(&b.key)))
            .then(a.key.cmp(&b.key))
    });
}

/// Order among options of equal gain: the smaller change first.
fn preference(key: &str) -> u8 {
    match key {
        "hot-segments" | exadata::KEEP => 0,
        "redo" | exadata::FLASH_LOG => 1,
        "temp" => 2,
        "whole-db" | exadata::WRITE_BACK => 3,
        _ => 4,
    }
}

/// Mid-range response-time gain (1 - ratio).
pub fn mid_gain(o: &OptionProjection) -> f64 {
    1.0 - 0.5 * (o.projection.response_ratio_low + o.projection.response_ratio_high)
}

/// The bottleneck caps of one interval: a function of its facts and the
/// user's options only. The CPU cap is 1 / the utilisation the decisive CPU
/// signal implies (host busy, run queue, load, DB time outside CPU and
/// waits, Resource Manager, the `cpu_count` limit: see
/// `awrflash_facts::cpu`), and names that signal.
pub fn caps(w: &IntervalFacts, opts: &crate::Options) -> Caps {
    let h = w.cpu_headroom();
    let mut c = Caps {
        cpus: w.cpus(),
        ..Caps::default()
    };
    if let Some(s) = h.decisive() {
        let pct = s.util * 100.0;
        c.busy_pct = Some(pct);
        c.cpus = Some(s.servers).filter(|n| *n > 0.0).or(c.cpus);
        c.cpu = Some(100.0 / pct);
        c.cpu_signal = Some(s.label.clone());
    }
    if let (Some(ch), Some(io)) = (opts.channel_mbps, &w.io_mb_s)
        && ch > 0.0
        && io.value > 0.0
    {
        c.channel_util_pct = Some(io.value * 100.0 / ch);
        c.channel = Some(ch / io.value);
    }
    c
}

/// The device's service time (low, high) for an affected wait, before
/// capping at today's average: the profile's table at today's rate (low)
/// and at today's outstanding I/Os (high), widened to the class's latency
/// range where the profile gives one (a seed device has none: its table
/// alone).
fn target_latency(w: &IntervalFacts, dev: &DeviceProfile, a: &Affected) -> (f64, f64) {
    let el = w.elapsed();
    let cur = a.ev.avg_ms;
    let rate = if el > 0.0 {
        a.ev.waits * a.share / el
    } else {
        0.0
    };
    let l_old = rate * cur / 1000.0;
    let at = |kind: IoKind, size: f64| -> (f64, f64) {
        let (lo, _) = dev.at_rate(kind, size, rate);
        let hi = dev.service_ms(kind, size, (l_old / dev.units).max(1.0));
        let (f_lo, f_hi) = range_factors(dev, kind);
        let (lo, hi) = (lo.min(hi) * f_lo, hi.max(lo) * f_hi);
        (lo.min(hi), hi.max(lo))
    };
    match a.mode {
        Mode::Read(s) => at(IoKind::Read, s),
        Mode::Write(s) => at(IoKind::Write, s),
        Mode::DbwrBound { dbwr_avg_ms } => {
            let (l, h) = at(IoKind::Write, w.block_size / 1024.0);
            (
                cur * (l / dbwr_avg_ms).min(1.0),
                cur * (h / dbwr_avg_ms).min(1.0),
            )
        }
    }
}

/// The share (%) of a read event's waits slower than the device's service
/// time at the pessimistic end, and that time (ms): what flash can shorten,
/// by the same histogram projection the whole-database option uses. `None`
/// for an event that is not a projected read or has no histogram.
pub fn shortenable_pct(w: &IntervalFacts, dev: &DeviceProfile, event: &str) -> Option<(f64, f64)> {
    let ev = w.event(event)?;
    let n = ev.name.to_ascii_lowercase();
    let size_kb = if SINGLE_BLOCK.contains(&n.as_str()) {
        w.block_size / 1024.0
    } else if MULTIBLOCK.contains(&n.as_str()) && !n.starts_with("cell smart") {
        w.multiblock_read_kb().value
    } else {
        return None;
    };
    let a = Affected {
        ev,
        share: 1.0,
        mode: Mode::Read(size_kb),
    };
    let (t_lo, t_hi) = target_latency(w, dev, &a);
    let d = w.distribution(&ev.name)?;
    let hp = crate::histproj::project(&ev.name, Some(&d), ev.waits, ev.avg_ms, (t_lo, t_hi));
    hp.used_histogram
        .then_some((hp.shortenable_pct, t_lo.max(t_hi)))
}

/// The class's latency range relative to the profile's table (8 KB at one
/// outstanding I/O): (1, 1) for a profile without a range.
pub(crate) fn range_factors(dev: &DeviceProfile, kind: IoKind) -> (f64, f64) {
    let qd1 = dev.service_ms(kind, 8.0, 1.0);
    let (lo, hi) = dev.range_ms(kind);
    if qd1 > 0.0 && lo > 0.0 && hi >= lo {
        (lo / qd1, hi / qd1)
    } else {
        (1.0, 1.0)
    }
}

/// Words that mark a wait the device already serves at the target's
/// latency (in the step, the option's notes and the verdict).
pub const FLASH_CLASS: &str = "already flash-class";

/// One affected wait after the move: its new latency (low, high), the
/// seconds saved (low, high), how they were reached, and, when only the
/// device's part moved, the listed step of the part above the device (it
/// stays) and the split in words for the option's notes.
pub struct Projected {
    pub new_ms: (f64, f64),
    pub saved_s: (f64, f64),
    pub method: String,
    pub above_device: Option<ProjectionStep>,
    pub note: Option<String>,
}

impl Projected {
    fn plain(new_ms: (f64, f64), saved_s: (f64, f64), method: String) -> Self {
        Projected {
            new_ms,
            saved_s,
            method,
            above_device: None,
            note: None,
        }
    }
}

/// The new latency (low, high) and seconds saved (low, high) of one
/// affected wait, with how they were reached: bucket by bucket from the
/// event's merged wait histogram for reads and commits where the report has
/// one (waits at or below the device's time stay), else from the average.
/// Where the device's own service time is known ([`IntervalFacts::device_split`]),
/// only the device's part of a read moves ([`project_device_part`]).
fn project_wait(w: &IntervalFacts, dev: &DeviceProfile, a: &Affected, n: f64) -> Projected {
    let cur = a.ev.avg_ms;
    let (t_lo, t_hi) = target_latency(w, dev, a);
    let dist = match a.mode {
        Mode::Read(_) => w.distribution(&a.ev.name),
        _ => None,
    };
    if matches!(a.mode, Mode::Read(_))
        && let Some(split) = w.device_split(&a.ev.name)
    {
        return project_device_part(&split, dist.as_ref(), n, (t_lo, t_hi), dev);
    }
    if let Some(d) = &dist {
        let hp = crate::histproj::project(&a.ev.name, Some(d), n, cur, (t_lo, t_hi));
        if hp.used_histogram {
            return Projected::plain(
                (hp.new_avg_ms_low, hp.new_avg_ms_high),
                (hp.saved_s_low, hp.saved_s_high),
                hp.step,
            );
        }
    }
    let has_range = match a.mode {
        Mode::Read(_) => dev.read_range_ms.is_some(),
        Mode::Write(_) => dev.write_range_ms.is_some(),
        _ => false,
    };
    if has_range && cur <= t_hi {
        return Projected::plain(
            (cur, cur),
            (0.0, 0.0),
            format!(
                "`{}`: the average ({} ms) is already within the device class's {}-{} ms: flash-class already, no gain counted",
                a.ev.name,
                f2(cur),
                f2(t_lo),
                f2(t_hi)
            ),
        );
    }
    let (lo, hi) = (t_lo.min(cur), t_hi.min(cur));
    let method = if matches!(a.mode, Mode::Read(_)) {
        format!(
            "`{}`: no wait histogram, so the average ({} ms) is replaced by the device's {}-{} ms",
            a.ev.name,
            f2(cur),
            f2(lo),
            f2(hi)
        )
    } else {
        format!(
            "`{}`: the average ({} ms) is replaced by the device's {}-{} ms",
            a.ev.name,
            f2(cur),
            f2(lo),
            f2(hi)
        )
    };
    Projected::plain(
        (lo, hi),
        (n * (cur - hi) / 1000.0, n * (cur - lo) / 1000.0),
        method,
    )
}

/// A read whose device service time is known: only the device's part
/// moves to the target (`target_ms`, low-high); the part above the device
/// (queueing, scheduling, CPU) stays. With a histogram, waits at or below
/// (target + gap) stay and the rest move to it; without one, the average.
/// The range spans the target's range and the device views' spread (the
/// low device part goes with the high gap). When every view puts the
/// device part within the target's range, the reads are flash-class: no
/// gain is counted (and, when the average alone is slower than the target,
/// the option's notes say why).
pub fn project_device_part(
    split: &Split,
    dist: Option<&awrflash_facts::Distribution>,
    n: f64,
    target_ms: (f64, f64),
    dev: &DeviceProfile,
) -> Projected {
    let cur = split.avg_ms;
    let (t_lo, t_hi) = (
        target_ms.0.min(target_ms.1).max(0.0),
        target_ms.0.max(target_ms.1).max(0.0),
    );
    let (g_lo, g_hi) = split.gap_ms;
    let src = split.used.ms.src.clone();
    let above = |method: String| ProjectionStep {
        component: format!("{}: above the device (stays)", split.event),
        waits: round(n),
        share_affected: 0.0,
        current_avg_ms: round(split.gap_used_ms()),
        new_avg_ms_low: round(g_lo),
        new_avg_ms_high: round(g_hi),
        saved_s_low: 0.0,
        saved_s_high: 0.0,
        src: src.clone(),
        method,
    };
    let words = split.words();
    if split.device_ms.1 <= t_hi {
        let why = format!(
            "{words}. The device part is within {}'s {}-{} ms: {FLASH_CLASS}, no gain counted",
            dev.name,
            f2(t_lo),
            f2(t_hi)
        );
        return Projected {
            new_ms: (cur, cur),
            saved_s: (0.0, 0.0),
            method: format!("`{}`: {FLASH_CLASS} (see the step below)", split.event),
            above_device: Some(above(why.clone())),
            note: (cur > t_hi).then_some(why),
        };
    }
    let hp = crate::histproj::project_above_device(
        &split.event,
        dist,
        n,
        cur,
        (t_lo, t_hi),
        (g_lo, g_hi),
    );
    // The views measure the device's average time over every small read:
    // flash removes at most that, less the target's time for the waits
    // that move (waits that stay keep theirs), whatever the histogram's
    // shape. A constant gap makes the fast waits (array cache hits) look
    // as if they had no device time and credits the slow tail with it.
    let moved = (hp.shortenable_pct / 100.0).clamp(0.0, 1.0);
    let cap_lo = n * (split.device_ms.0 - moved * t_hi).max(0.0) / 1000.0;
    let cap_hi = n * (split.device_ms.1 - moved * t_lo).max(0.0) / 1000.0;
    let (saved_lo, saved_hi) = (hp.saved_s_low.min(cap_lo), hp.saved_s_high.min(cap_hi));
    let capped = if saved_lo < hp.saved_s_low || saved_hi < hp.saved_s_high {
        format!(
            "; capped at the device time the views measure: {} waits x ({} ms device - {}% moved x {} ms target) = {} s to {} waits x ({} ms - {}% x {} ms) = {} s",
            round(n),
            f2(split.device_ms.0),
            f1(moved * 100.0),
            f2(t_hi),
            f2(cap_lo),
            round(n),
            f2(split.device_ms.1),
            f1(moved * 100.0),
            f2(t_lo),
            f2(cap_hi)
        )
    } else {
        String::new()
    };
    let view_range = if split.others.is_empty() {
        String::new()
    } else {
        format!(
            "; the device part spans {}-{} ms over the views, the gap {}-{} ms",
            f2(split.device_ms.0),
            f2(split.device_ms.1),
            f2(g_lo),
            f2(g_hi)
        )
    };
    let per_wait = |saved: f64| if n > 0.0 { saved * 1000.0 / n } else { 0.0 };
    Projected {
        new_ms: (cur - per_wait(saved_hi), cur - per_wait(saved_lo)),
        saved_s: (saved_lo, saved_hi),
        method: format!(
            "{} (only the device's {} ms moves to {}-{} ms, {}{view_range}{capped})",
            hp.step,
            f2(split.device_used_ms),
            f2(t_lo),
            f2(t_hi),
            split.used.view.label()
        ),
        above_device: Some(above(format!(
            "{words}; it stays in every wait after the move"
        ))),
        note: Some(words),
    }
}

/// 000 Table 6.1: small writes not on a 4 KB boundary cost up to the
/// profile's penalty; the penalty fades with size and is gone by 1 MB.
pub fn misalignment_penalty(dev: &DeviceProfile, size_kb: f64) -> f64 {
    let p = dev.misaligned_write_penalty.unwrap_or(1.0);
    let s = size_kb.clamp(16.0, 1024.0);
    let f = ((1024.0f64).ln() - s.ln()) / ((1024.0f64).ln() - (16.0f64).ln());
    1.0 + (p - 1.0) * f
}

fn component_of(name: &str) -> &'static str {
    let n = name.to_ascii_lowercase();
    if SINGLE_BLOCK.contains(&n.as_str()) {
        "single_block_read"
    } else if MULTIBLOCK.contains(&n.as_str()) {
        "multiblock_read"
    } else if TEMP.contains(&n.as_str()) {
        "temp_io"
    } else if n == "log file sync" {
        "commit"
    } else if FLASH_CACHE_READS.contains(&n.as_str()) {
        "flash_cache_read"
    } else {
        "write_wait"
    }
}

fn sub(b: &mut DbTimeBreakdown, comp: &str, s: f64) {
    let f = match comp {
        "single_block_read" => &mut b.single_block_read_s,
        "multiblock_read" => &mut b.multiblock_read_s,
        "temp_io" => &mut b.temp_io_s,
        "commit" => &mut b.commit_s,
        "flash_cache_read" => &mut b.flash_cache_read_s,
        _ => &mut b.write_wait_s,
    };
    *f = (*f - s).max(0.0);
}

fn option(
    w: &IntervalFacts,
    dev: &DeviceProfile,
    p: &Plan,
    key: &str,
    title: &str,
    affected: Vec<Affected>,
) -> OptionProjection {
    let mut steps = Vec::new();
    let mut notes = Vec::new();
    let mut after = p.breakdown.clone();
    for a in &affected {
        if a.share <= 0.0 || a.ev.waits <= 0.0 {
            continue;
        }
        let n = a.ev.waits * a.share;
        let Projected {
            new_ms: (lo, hi),
            saved_s: (saved_lo, saved_hi),
            method,
            above_device,
            note,
        } = project_wait(w, dev, a, n);
        sub(
            &mut after,
            component_of(&a.ev.name),
            0.5 * (saved_lo + saved_hi),
        );
        steps.push(ProjectionStep {
            component: a.ev.name.clone(),
            waits: round(n),
            share_affected: round(a.share),
            current_avg_ms: round(a.ev.avg_ms),
            new_avg_ms_low: round(lo),
            new_avg_ms_high: round(hi),
            saved_s_low: round(saved_lo),
            saved_s_high: round(saved_hi),
            src: Some(a.ev.src()),
            method,
        });
        steps.extend(above_device);
        if let Some(n) = note
            && !notes.contains(&n)
        {
            notes.push(n);
        }
    }
    let saved_lo: f64 = steps.iter().map(|s| s.saved_s_low).sum();
    let saved_hi: f64 = steps.iter().map(|s| s.saved_s_high).sum();
    let projection = finish(w, p, saved_lo, saved_hi, steps);
    let after = rounded(&with_charges(after, &projection.steps));
    OptionProjection {
        key: key.to_string(),
        title: title.to_string(),
        device: dev.name.clone(),
        projection,
        before: rounded(&p.breakdown),
        after,
        capacity_gb: None,
        notes,
    }
}

/// Component names of the steps that add time back (negative savings).
pub const CPU_QUEUEING: &str = "CPU queueing at the projected throughput";
pub const CPU_BOUND: &str = "throughput cap: CPU bound";
pub const CHANNEL_BOUND: &str = "throughput cap: I/O channel bound";

/// A step that adds time back: `extra_high` to the pessimistic end (after
/// high), `extra_low` to the optimistic end (after low).
fn charge(component: String, extra_low: f64, extra_high: f64) -> ProjectionStep {
    ProjectionStep {
        component,
        saved_s_low: round(-extra_high),
        saved_s_high: round(-extra_low),
        ..ProjectionStep::default()
    }
}

/// Turns saved seconds into DB time and response ratios, applying the
/// CPU queueing charge and the bottleneck caps, each as a listed step, so
/// that DB time after = DB time before - the sum of the steps' savings.
pub(crate) fn finish(
    w: &IntervalFacts,
    p: &Plan,
    saved_lo: f64,
    saved_hi: f64,
    mut steps: Vec<ProjectionStep>,
) -> Projection {
    let before = w.db_time();
    let after_low = (before - saved_hi).max(0.0);
    let after_high_saved = (before - saved_lo).max(after_low);
    let mut after_high = after_high_saved;
    let r_low = ratio(after_low, before);
    // CPU at the throughput the optimistic end implies: below 90% projected
    // utilisation charge the queueing of an M/M/c server (Sakasegawa's
    // approximation, c = the host's CPUs, c = 1 when unknown); at or above
    // it the CPUs bound the response at today's utilisation (closed
    // system: R_new = R_old x U_old).
    if let Some(busy) = p.caps.busy_pct {
        let u = (busy / 100.0).clamp(0.0, 0.99);
        if r_low > 0.0 && u > 0.0 {
            let u_new = u / r_low;
            let how = if u_new < 0.9 {
                let c = p.caps.cpus.unwrap_or(1.0).max(1.0);
                let q = |x: f64| awrflash_facts::cpu::mmc_wait_factor(x, c);
                let extra = p.breakdown.cpu_s * (q(u_new) - q(u)).max(0.0);
                after_high = (after_high + extra).min(before.max(after_high));
                format!(
                    "{CPU_QUEUEING} (M/M/c, c = {}: {}% busy now, {}% after; pessimistic end)",
                    f1(c),
                    f1(u * 100.0),
                    f1(u_new * 100.0)
                )
            } else {
                after_high = after_high.max(before * u);
                format!(
                    "{CPU_QUEUEING} ({}% busy after: response bound at today's utilisation; pessimistic end)",
                    f1(u_new.min(9.99) * 100.0)
                )
            };
            if after_high > after_high_saved {
                steps.push(charge(how, 0.0, after_high - after_high_saved));
            }
        }
    }
    let r_high = ratio(after_high, before);
    // Bottleneck law.
    let mut cap: Option<f64> = None;
    let mut bound = Bound::None;
    if let Some(c) = p.caps.cpu {
        let c = if p.oltp {
            c.max(OLTP_SATURATION_GAIN)
        } else {
            c
        };
        cap = Some(c);
        bound = Bound::Cpu;
    }
    if let Some(c) = p.caps.channel
        && cap.is_none_or(|x| c < x)
    {
        cap = Some(c);
        bound = Bound::Channel;
    }
    let floor = cap.map_or(0.0, |c| 1.0 / c.max(1.0));
    let binds = r_low < floor;
    if !binds {
        bound = Bound::None;
    }
    let capped_low = after_low.max(before * floor);
    let capped_high = after_high.max(before * floor);
    if binds {
        let name = if bound == Bound::Cpu {
            CPU_BOUND
        } else {
            CHANNEL_BOUND
        };
        let signal = match (&p.caps.cpu_signal, bound) {
            (Some(s), Bound::Cpu) => format!("{s}; "),
            _ => String::new(),
        };
        steps.push(charge(
            format!(
                "{name} ({signal}throughput at most {}x: DB time per transaction at least {}% of today's)",
                f2(cap.unwrap_or(1.0)),
                f1(floor * 100.0)
            ),
            capped_low - after_low,
            capped_high - after_high,
        ));
    }
    Projection {
        db_time_before_s: round(before),
        db_time_after_low_s: round(capped_low),
        db_time_after_high_s: round(capped_high),
        response_ratio_low: round(r_low.max(floor)),
        response_ratio_high: round(r_high.max(floor)),
        throughput_cap: cap.map(round),
        bound,
        steps,
    }
}

/// The option's breakdown after the change: the savings of the wait steps
/// (`after`, already applied) plus the time the charge and cap steps add
/// back, at the middle of the range, so the breakdown chart adds up to the
/// middle of the options table's range. CPU queueing and the CPU cap land
/// on CPU; the channel cap on the I/O components it slows down.
pub(crate) fn with_charges(
    mut after: DbTimeBreakdown,
    steps: &[ProjectionStep],
) -> DbTimeBreakdown {
    for s in steps {
        let extra = -0.5 * (s.saved_s_low + s.saved_s_high);
        if extra <= 0.0 {
            continue;
        }
        if s.component.starts_with(CPU_QUEUEING) || s.component.starts_with(CPU_BOUND) {
            after.cpu_s += extra;
        } else if s.component.starts_with(CHANNEL_BOUND) {
            let io = [
                &mut after.single_block_read_s,
                &mut after.multiblock_read_s,
                &mut after.temp_io_s,
                &mut after.write_wait_s,
                &mut after.flash_cache_read_s,
            ];
            let total: f64 = io.iter().map(|x| **x).sum();
            if total > 0.0 {
                for x in io {
                    *x += extra * *x / total;
                }
            } else {
                after.other_s += extra;
            }
        }
    }
    after
}

pub(crate) fn rounded(b: &DbTimeBreakdown) -> DbTimeBreakdown {
    DbTimeBreakdown {
        cpu_s: round(b.cpu_s),
        single_block_read_s: round(b.single_block_read_s),
        multiblock_read_s: round(b.multiblock_read_s),
        temp_io_s: round(b.temp_io_s),
        write_wait_s: round(b.write_wait_s),
        commit_s: round(b.commit_s),
        flash_cache_read_s: round(b.flash_cache_read_s),
        other_s: round(b.other_s),
        cpu_queue_s: round(b.cpu_queue_s),
    }
}

/// A fitted miss curve: physical reads as a function of cache size (MB).
#[derive(Debug, Clone, Copy)]
pub enum Fit {
    /// reads = a x size^b (heavy-tailed access; never reaches zero).
    Power { a: f64, b: f64 },
    /// reads = a x exp(b x size) (a bounded working set; falls fast).
    Exp { a: f64, b: f64 },
}

impl Fit {
    pub fn eval(&self, size_mb: f64) -> f64 {
        match *self {
            Fit::Power { a, b } => a * size_mb.max(1.0).powf(b),
            Fit::Exp { a, b } => a * (b * size_mb).exp(),
        }
    }
}

/// Least squares of ln(reads) on ln(size) (power) and on size (exp), over
/// the advisory rows at or above 0.5x the current cache (the tail the
/// extrapolation continues). Returns (power, exp, r2 power, r2 exp).
pub fn fit_advisory(points: &[(f64, f64)]) -> Option<(Fit, Fit, f64, f64)> {
    let pts: Vec<(f64, f64)> = points
        .iter()
        .copied()
        .filter(|(s, r)| *s > 0.0 && *r > 0.0)
        .collect();
    if pts.len() < 3 {
        return None;
    }
    let ly: Vec<f64> = pts.iter().map(|(_, r)| r.ln()).collect();
    let lx: Vec<f64> = pts.iter().map(|(s, _)| s.ln()).collect();
    let x: Vec<f64> = pts.iter().map(|(s, _)| *s).collect();
    let (pa, pb, pr2) = linfit(&lx, &ly)?;
    let (ea, eb, er2) = linfit(&x, &ly)?;
    Some((
        Fit::Power {
            a: pa.exp(),
            b: pb.min(0.0),
        },
        Fit::Exp {
            a: ea.exp(),
            b: eb.min(0.0),
        },
        pr2,
        er2,
    ))
}

fn linfit(x: &[f64], y: &[f64]) -> Option<(f64, f64, f64)> {
    let n = x.len() as f64;
    let mx = x.iter().sum::<f64>() / n;
    let my = y.iter().sum::<f64>() / n;
    let sxx: f64 = x.iter().map(|v| (v - mx) * (v - mx)).sum();
    let sxy: f64 = x.iter().zip(y).map(|(a, b)| (a - mx) * (b - my)).sum();
    let syy: f64 = y.iter().map(|v| (v - my) * (v - my)).sum();
    if sxx <= 0.0 {
        return None;
    }
    let b = sxy / sxx;
    let a = my - b * mx;
    let r2 = if syy > 0.0 {
        (sxy * sxy) / (sxx * syy)
    } else {
        1.0
    };
    Some((a, b, r2))
}

/// The flash cache curve and one option per size multiple.
fn flash_cache(
    w: &IntervalFacts,
    dev: &DeviceProfile,
    p: &Plan,
    r2_min: f64,
) -> (Option<FlashCachePlan>, Vec<OptionProjection>) {
    let Some(buf) = w.buffer_cache_bytes.as_ref().map(|n| n.value) else {
        return (None, Vec::new());
    };
    let bs = w.block_size;
    let rows: Vec<&awrflash_model::BufferPoolAdvisoryRow> = w
        .report
        .buffer_pool_advisory
        .iter()
        .filter(|r| {
            (r.pool.is_empty() || r.pool.eq_ignore_ascii_case("D"))
                && r.block_size.is_none_or(|b| b as f64 == bs)
        })
        .collect();
    let pts: Vec<(f64, f64)> = rows
        .iter()
        .filter(|r| r.size_factor.is_some_and(|f| f >= 0.5))
        .filter_map(|r| Some((r.size_mb?, r.est_phys_reads?)))
        .collect();
    let Some((pow, exp, r2p, r2e)) = fit_advisory(&pts) else {
        return (None, Vec::new());
    };
    let buf_mb = buf / 1_048_576.0;
    // Reads at the current size, from the advisory row nearest factor 1.0.
    let base_reads = rows
        .iter()
        .filter_map(|r| Some(((r.size_factor? - 1.0).abs(), r.est_phys_reads?)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|x| x.1)
        .filter(|v| *v > 0.0)
        .unwrap_or_else(|| pow.eval(buf_mb));
    let header = if w.rac {
        HEADER_BYTES_RAC
    } else {
        HEADER_BYTES
    };
    let singles: Vec<&Ev> = w.events_in(SINGLE_BLOCK);
    let waits: f64 = singles.iter().map(|e| e.waits).sum();
    let time: f64 = singles.iter().map(|e| e.time_s).sum();
    if waits <= 0.0 {
        return (None, Vec::new());
    }
    let cur_ms = time * 1000.0 / waits;
    // A hit skips the device, not what each wait spends above it: where
    // the device's own time is known, that part (averaged over the
    // single-block reads, low and high from the views' spread) stays.
    let (gap_lo, gap_hi, gap_words) = flash_cache_gap(w, &singles, waits);
    // A fit below the required R^2 is not used; with neither, no size is
    // projected (an advisory that no curve describes cannot be extrapolated
    // to 2x-10x the cache).
    let fits = format!(
        "power law R2 {}, exponential R2 {}, required {}",
        f2(r2p),
        f2(r2e),
        f2(r2_min)
    );
    let (exp, pow, used) = match (r2e >= r2_min, r2p >= r2_min) {
        (true, true) => (exp, pow, None),
        (true, false) => (
            exp,
            exp,
            Some(
                "the power law fit is below the required R2 and is not used: both ends use the exponential",
            ),
        ),
        (false, true) => (
            pow,
            pow,
            Some(
                "the exponential fit is below the required R2 and is not used: both ends use the power law",
            ),
        ),
        (false, false) => {
            let plan = FlashCachePlan {
                recommended: false,
                size_gb: None,
                sga_cost_mb: None,
                reason: format!(
                    "not recommended: the Buffer Pool Advisory fits no miss curve well enough to extrapolate ({fits}), so no flash cache size is projected"
                ),
                fit: Some(format!("refused: {fits}")),
                curve: Vec::new(),
                sql: Vec::new(),
            };
            return (Some(plan), Vec::new());
        }
    };
    let el = w.elapsed();
    let mut fit_note = format!(
        "Buffer Pool Advisory rows at >= 0.5x the cache fitted two ways ({fits}); the exponential (bounded working set) gives the optimistic end, the power law (heavy-tailed access) the pessimistic end, since the advisory stops near 2x and the shape beyond it is not in the report; reads are shown as a factor of the advisory's reads at today's size (the advisory counts since instance startup, not this interval)"
    );
    if let Some(u) = used {
        fit_note.push_str("; ");
        fit_note.push_str(u);
    }
    let mut curve = Vec::new();
    let mut opts_out = Vec::new();
    for m in FLASH_CACHE_MULTIPLES {
        let fc_bytes = buf * m;
        let sga = fc_bytes / bs * header;
        let eff_mb = (buf - sga).max(0.0) / 1_048_576.0 + fc_bytes / 1_048_576.0;
        let miss_e = (exp.eval(eff_mb) / base_reads).clamp(0.0, 1.0);
        let miss_p = (pow.eval(eff_mb) / base_reads).clamp(0.0, 1.0);
        let (miss_lo, miss_hi) = (miss_e.min(miss_p), miss_e.max(miss_p));
        let hit_waits_hi = waits * (1.0 - miss_lo);
        let hit_waits_lo = waits * (1.0 - miss_hi);
        let rate = if el > 0.0 { hit_waits_hi / el } else { 0.0 };
        let (flash_ms, _) = dev.at_rate(IoKind::Read, bs / 1024.0, rate);
        let flash_ms = flash_ms.min(cur_ms);
        let hit_lo_ms = (flash_ms + gap_lo).min(cur_ms);
        let hit_hi_ms = (flash_ms + gap_hi).min(cur_ms);
        let saved_hi = hit_waits_hi * (cur_ms - hit_lo_ms) / 1000.0;
        let saved_lo = hit_waits_lo * (cur_ms - hit_hi_ms) / 1000.0;
        let src = singles.first().map(|e| e.src());
        let step = ProjectionStep {
            component: "single-block reads served from the flash cache".into(),
            waits: round(waits),
            share_affected: round(1.0 - 0.5 * (miss_lo + miss_hi)),
            current_avg_ms: round(cur_ms),
            new_avg_ms_low: round(cur_ms * miss_lo + hit_lo_ms * (1.0 - miss_lo)),
            new_avg_ms_high: round(cur_ms * miss_hi + hit_hi_ms * (1.0 - miss_hi)),
            saved_s_low: round(saved_lo),
            saved_s_high: round(saved_hi),
            src: src.clone(),
            method: format!(
                "reads the extrapolated Buffer Pool Advisory says the flash cache would serve move from today's {} ms average to the device's {} ms{gap_words}",
                f2(cur_ms),
                f2(flash_ms)
            ),
        };
        let projection = finish(w, p, saved_lo, saved_hi, vec![step]);
        let mut after = p.breakdown.clone();
        // The hits leave the single-block reads at today's average and come
        // back as flash cache reads at the device's (plus the part above
        // the device): net, the step's saving at the middle of its range.
        let mid_hits = 0.5 * (hit_waits_lo + hit_waits_hi);
        after.single_block_read_s =
            (after.single_block_read_s - mid_hits * cur_ms / 1000.0).max(0.0);
        after.flash_cache_read_s +=
            (mid_hits * cur_ms / 1000.0 - 0.5 * (saved_lo + saved_hi)).max(0.0);
        let after = rounded(&with_charges(after, &projection.steps));
        curve.push(FlashCachePoint {
            size_gb: round(fc_bytes / 1_073_741_824.0),
            multiple_of_buffer_cache: *m,
            est_read_factor: round(0.5 * (miss_lo + miss_hi)),
            est_read_change_pct: round((0.5 * (miss_lo + miss_hi) - 1.0) * 100.0),
            response_ratio_low: projection.response_ratio_low,
            response_ratio_high: projection.response_ratio_high,
            db_time_s: round(
                0.5 * (projection.db_time_after_low_s + projection.db_time_after_high_s),
            ),
            sga_cost_mb: round(sga / 1_048_576.0),
        });
        opts_out.push(OptionProjection {
            key: format!("flash-cache-{}x", m),
            title: format!(
                "Database Smart Flash Cache of {} GB ({}x the buffer cache)",
                f1(fc_bytes / 1_073_741_824.0),
                m
            ),
            device: dev.name.clone(),
            projection,
            before: rounded(&p.breakdown),
            after,
            capacity_gb: Some(round(fc_bytes / 1_073_741_824.0)),
            notes: vec![
                format!(
                    "SGA for flash buffer headers: {} GB / {} KB blocks x {} bytes = {} MB taken from the buffer cache",
                    f1(fc_bytes / 1_073_741_824.0),
                    bs / 1024.0,
                    header,
                    f1(sga / 1_048_576.0)
                ),
                format!(
                    "disk reads left: {}%-{}% of today's (effective cache {} GB)",
                    f1(miss_lo * 100.0),
                    f1(miss_hi * 100.0),
                    f1(eff_mb / 1024.0)
                ),
            ],
        });
    }
    // The smallest size within 5% of the best mid DB time (past it the
    // gain flattens and the header SGA grows: 003 Key Points).
    let best = curve
        .iter()
        .map(|c| c.db_time_s)
        .fold(f64::INFINITY, f64::min);
    let threshold = best + 0.05 * (w.db_time() - best).max(0.0);
    let pick = curve.iter().find(|c| c.db_time_s <= threshold);
    let plan = FlashCachePlan {
        recommended: false,
        size_gb: pick.map(|c| c.size_gb),
        sga_cost_mb: pick.map(|c| c.sga_cost_mb),
        reason: String::new(),
        fit: Some(fit_note),
        curve,
        sql: Vec::new(),
    };
    (Some(plan), opts_out)
}

/// The part of each single-block read above the device (low, high ms,
/// averaged over every single-block read) that a flash cache hit keeps,
/// with the words for the step; zero where no device view splits a read.
fn flash_cache_gap(w: &IntervalFacts, singles: &[&Ev], waits: f64) -> (f64, f64, String) {
    let mut lo = 0.0;
    let mut hi = 0.0;
    let mut words = Vec::new();
    for e in singles {
        if let Some(s) = w.device_split(&e.name) {
            lo += e.waits * s.gap_ms.0;
            hi += e.waits * s.gap_ms.1;
            words.push(s.words());
        }
    }
    if words.is_empty() || waits <= 0.0 {
        return (0.0, 0.0, String::new());
    }
    let (lo, hi) = (lo / waits, hi / waits);
    (
        lo,
        hi,
        format!(
            " plus the {}-{} ms per read above the device, which stays ({})",
            f2(lo),
            f2(hi),
            words.join("; ")
        ),
    )
}

/// Source of the breakdown's DB time, for evidence.
pub fn db_time_src(w: &IntervalFacts) -> Option<EvidenceSrc> {
    w.db_time_s.as_ref().and_then(|n| n.src.clone())
}
