//! The whole window of a multi-report input: every interval classified
//! (I/O-bound, CPU-bound, incident, idle, mixed) and projected on its own
//! with [`projection::interval_plan`] (the same steps as the detailed plan,
//! from the interval's facts only), then aggregated: DB time saved over the
//! window, per day and in percent, the distribution of per-interval gains,
//! the hours that gain most, the intervals where something else binds, the
//! sizing from the trend's p95 and peak, and the gaps between intervals.
//!
//! Invariant: the window's saving is the sum of the intervals' savings.

use awrflash_facts::{
    FLASH_CACHE_READS, IntervalFacts, MULTIBLOCK, SINGLE_BLOCK, TEMP, WRITE_WAITS, ratio, round,
};
use awrflash_model::{
    Bound, GainDistribution, HourGain, IntervalClass, SharedStr, TrendMetric, WindowAnalysis,
    WindowGap, WindowInterval, WindowSizing, stats, time::iso_seconds,
};
use serde::Deserialize;

use crate::devices::DeviceProfile;
use crate::projection::{self, Plan};
use crate::util::{f0, f1};
use crate::{Options, RulesError, catalogue};

/// The moves projected in every interval, in the order of preference on
/// equal savings (the smaller change last: the window names one move).
pub const WINDOW_MOVES: &[&str] = &[
    "whole-db",
    "redo",
    "temp",
    crate::projection::exadata::KEEP,
    crate::projection::exadata::FLASH_LOG,
    crate::projection::exadata::WRITE_BACK,
];

/// A gap shorter than this is snapshot-time rounding, not a gap (seconds).
const GAP_TOLERANCE_S: f64 = 60.0;

/// AF006's thresholds: what makes an interval an incident or CPU-bound.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Thresholds {
    pub logon_storm_ratio: f64,
    pub storm_mutex_pct_min: f64,
    pub library_cache_pct_min: f64,
    pub enqueue_pct_min: f64,
    pub cpu_pct_min: f64,
    pub host_busy_pct_min: f64,
    pub resmgr_pct_min: f64,
}

impl Thresholds {
    pub fn load() -> Result<Self, RulesError> {
        let rule = catalogue::rule("AF006")?;
        toml::Value::Table(rule.thresholds.clone())
            .try_into()
            .map_err(|e| RulesError::Config(format!("rules/AF006.toml thresholds: {e}")))
    }
}

/// The class of one interval and the signal that decided it.
#[derive(Debug, Clone, PartialEq)]
pub struct Class {
    pub class: IntervalClass,
    pub signal: String,
    /// The deciding figure (percent of DB time, percent busy, or the
    /// logon ratio) and its unit.
    pub figure: (f64, &'static str),
    /// The kind of incident (`connection storm`, `library cache
    /// contention`, `lock pile-up`), empty for other classes.
    pub incident: &'static str,
}

/// The limits the classes share with other rules: AF004's idle load and
/// AF003's I/O share.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub aas_min: f64,
    pub io_share_min: f64,
}

impl Limits {
    pub fn load() -> Result<Self, RulesError> {
        Ok(Limits {
            aas_min: catalogue::threshold("AF004", "load_aas_min")?,
            io_share_min: catalogue::threshold("AF003", "io_share_pct_max")?,
        })
    }
}

/// Logons per second: Load Profile `Logons`, else `logons cumulative`.
fn logons_per_s(w: &IntervalFacts) -> Option<f64> {
    w.report
        .load_profile_row("Logons")
        .and_then(|r| r.per_second)
        .or_else(|| w.stat_rate("logons cumulative").map(|n| n.value))
}

/// Library cache and cursor waits (mutexes, locks, pins).
fn library_cache_event(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n.starts_with("library cache") || n.starts_with("cursor:")
}

/// Enqueue (lock) waits.
fn enqueue_event(name: &str) -> bool {
    name.to_ascii_lowercase().starts_with("enq:")
}

/// Resource Manager's CPU cap.
fn resmgr_event(name: &str) -> bool {
    name.eq_ignore_ascii_case("resmgr:cpu quantum")
}

/// Whether the readers over every interval of a window (the
/// classification, the trend) read the event `name` of an interval they do
/// not plan for: the classification's library cache, cursor, enqueue and
/// Resource Manager waits and the I/O classes of the I/O share, the
/// trend's [`awrflash_facts::TREND_EVENTS`].
fn window_event(name: &str) -> bool {
    library_cache_event(name)
        || enqueue_event(name)
        || resmgr_event(name)
        || SINGLE_BLOCK
            .iter()
            .chain(MULTIBLOCK)
            .chain(TEMP)
            .chain(WRITE_WAITS)
            .chain(FLASH_CACHE_READS)
            .chain(&awrflash_facts::TREND_EVENTS)
            .any(|e| e.eq_ignore_ascii_case(name))
}

/// Percent of DB time in the events `keep` selects, and the largest of them.
fn share_of(w: &IntervalFacts, keep: fn(&str) -> bool) -> (f64, Option<String>) {
    let mut hit: Vec<_> = w.events.iter().filter(|e| keep(&e.name)).collect();
    hit.sort_by(|a, b| b.time_s.total_cmp(&a.time_s).then(a.name.cmp(&b.name)));
    let time: f64 = hit.iter().map(|e| e.time_s).sum();
    (
        ratio(time * 100.0, w.db_time()),
        hit.first().map(|e| e.name.to_string()),
    )
}

/// Classifies every interval of the window, in the order given.
pub fn classify(all: &[IntervalFacts], t: &Thresholds, lim: Limits) -> Vec<Class> {
    let median_logons =
        stats::percentile(all.iter().filter_map(logons_per_s), 50.0).filter(|m| *m > 0.0);
    all.iter()
        .map(|w| classify_one(w, t, lim, median_logons))
        .collect()
}

fn class(class: IntervalClass, signal: String, figure: (f64, &'static str)) -> Class {
    Class {
        class,
        signal,
        figure,
        incident: "",
    }
}

fn incident(kind: &'static str, signal: String, figure: (f64, &'static str)) -> Class {
    Class {
        class: IntervalClass::Incident,
        signal,
        figure,
        incident: kind,
    }
}

fn classify_one(
    w: &IntervalFacts,
    t: &Thresholds,
    lim: Limits,
    median_logons: Option<f64>,
) -> Class {
    if w.db_time() <= 0.0 || w.elapsed() <= 0.0 {
        return class(
            IntervalClass::Idle,
            "no DB time or elapsed time in the report".into(),
            (0.0, "sessions"),
        );
    }
    if let Some(aas) = crate::checks::low_load(w, lim.aas_min) {
        return class(
            IntervalClass::Idle,
            format!(
                "{} average active sessions (below {})",
                f1(aas),
                lim.aas_min
            ),
            (aas, "sessions"),
        );
    }
    let (lc_pct, lc_top) = share_of(w, library_cache_event);
    if let (Some(l), Some(m)) = (logons_per_s(w), median_logons)
        && l >= t.logon_storm_ratio * m
        && lc_pct >= t.storm_mutex_pct_min
    {
        return incident(
            "connection storm",
            format!(
                "{} logons/s, {}x the window's median {}/s, with library cache and cursor waits at {}% of DB time",
                f1(l),
                f1(l / m),
                f1(m),
                f1(lc_pct)
            ),
            (l / m, "x median logons/s"),
        );
    }
    if lc_pct >= t.library_cache_pct_min {
        return incident(
            "library cache contention",
            format!(
                "library cache and cursor waits take {}% of DB time (largest: {})",
                f1(lc_pct),
                lc_top.unwrap_or_default()
            ),
            (lc_pct, "% of DB time"),
        );
    }
    let (enq_pct, enq_top) = share_of(w, enqueue_event);
    if enq_pct >= t.enqueue_pct_min {
        return incident(
            "lock pile-up",
            format!(
                "enqueue waits take {}% of DB time (largest: {})",
                f1(enq_pct),
                enq_top.unwrap_or_default()
            ),
            (enq_pct, "% of DB time"),
        );
    }
    let cpu_pct = w
        .db_cpu_s
        .as_ref()
        .map_or(0.0, |c| ratio(c.value * 100.0, w.db_time()));
    let (resmgr_pct, _) = share_of(w, resmgr_event);
    if resmgr_pct >= t.resmgr_pct_min {
        return class(
            IntervalClass::CpuBound,
            format!(
                "resmgr:cpu quantum takes {}% of DB time: Resource Manager caps the CPU",
                f1(resmgr_pct)
            ),
            (resmgr_pct, "% of DB time"),
        );
    }
    if let Some(b) = w
        .host_busy_pct
        .as_ref()
        .filter(|b| b.value >= t.host_busy_pct_min)
    {
        return class(
            IntervalClass::CpuBound,
            format!("host CPU {}% busy", f1(b.value)),
            (b.value, "% busy"),
        );
    }
    if cpu_pct >= t.cpu_pct_min {
        return class(
            IntervalClass::CpuBound,
            format!("DB CPU is {}% of DB time", f1(cpu_pct)),
            (cpu_pct, "% of DB time"),
        );
    }
    let io = w.io_share_pct().map_or(0.0, |n| n.value);
    if io >= lim.io_share_min {
        return class(
            IntervalClass::IoBound,
            format!("I/O waits are {}% of DB time", f1(io)),
            (io, "% of DB time"),
        );
    }
    class(
        IntervalClass::Mixed,
        format!(
            "I/O waits {}%, DB CPU {}% of DB time: no resource dominates",
            f1(io),
            f1(cpu_pct)
        ),
        (io, "% of DB time"),
    )
}

/// The interval the detailed plan is for: the busiest (DB time per second)
/// that is not an incident; the peak when every interval is one.
pub fn analysed_interval(all: &[IntervalFacts], classes: &[Class]) -> Option<usize> {
    let load = |w: &IntervalFacts| w.per_second(w.db_time_s.as_ref());
    stats::peak_index(
        all.iter()
            .zip(classes)
            .map(|(w, c)| load(w).filter(|_| c.class != IntervalClass::Incident)),
    )
    .or_else(|| awrflash_facts::peak_interval(all))
}

/// One interval's saving under a move: (low, high) seconds and the bound,
/// from the interval's own plan.
fn saving(plan: &Plan, key: &str) -> (f64, f64, Bound) {
    match plan.options.iter().find(|o| o.key == key) {
        Some(o) => {
            let p = &o.projection;
            (
                (p.db_time_before_s - p.db_time_after_high_s).max(0.0),
                (p.db_time_before_s - p.db_time_after_low_s).max(0.0),
                p.bound,
            )
        }
        None if plan.options.is_empty() => (0.0, 0.0, Bound::NotEnoughData),
        None => (0.0, 0.0, Bound::None),
    }
}

/// What the window reads of one interval's plan: for each window move, its
/// title when the plan offers it and its [`saving`]. The plan itself (every
/// option with its steps and evidence) is dropped as soon as it is made, so
/// a window of thousands of intervals holds a few numbers per interval, not
/// a plan.
#[derive(Debug, Clone)]
struct IntervalMoves {
    /// Every key of [`WINDOW_MOVES`], in order.
    moves: Vec<Move>,
}

#[derive(Debug, Clone)]
struct Move {
    key: &'static str,
    /// The option's title, when the plan offers the move: shared with the
    /// other intervals' equal titles (a run holds these for every interval).
    title: Option<SharedStr>,
    saving: (f64, f64, Bound),
}

impl IntervalMoves {
    fn of(plan: &Plan) -> IntervalMoves {
        IntervalMoves {
            moves: WINDOW_MOVES
                .iter()
                .map(|k| Move {
                    key: k,
                    title: plan
                        .options
                        .iter()
                        .find(|o| o.key == *k)
                        .map(|o| SharedStr::shared(&o.title)),
                    saving: saving(plan, k),
                })
                .collect(),
        }
    }

    fn find(&self, key: &str) -> Option<&Move> {
        self.moves.iter().find(|m| m.key == key)
    }

    /// The plan's title of the move, when it offers it.
    fn title(&self, key: &str) -> Option<&str> {
        self.find(key).and_then(|m| m.title.as_deref())
    }

    /// [`saving`] of the plan this was made from. Every key the window asks
    /// for is one of [`WINDOW_MOVES`]; another reads as not offered.
    fn saving(&self, key: &str) -> (f64, f64, Bound) {
        self.find(key).map_or((0.0, 0.0, Bound::None), |m| m.saving)
    }
}

/// What the window reads of one interval, computed while the interval's
/// report is whole ([`MovesPlanner::moves`]): its [`IntervalMoves`] for
/// each device the analysis may plan for. With these, the window reads
/// nothing of the interval's report that [`awrflash_facts::lean`] drops.
#[derive(Debug, Clone)]
pub struct WindowMoves {
    /// The device's name is the planner's, shared by every interval.
    by_device: Vec<(SharedStr, IntervalMoves)>,
}

impl WindowMoves {
    fn of(&self, device: &str) -> Option<&IntervalMoves> {
        self.by_device
            .iter()
            .find(|(d, _)| d.as_str() == device)
            .map(|(_, m)| m)
    }

    /// Whether the moves for the device profile named `device` are here.
    pub fn has(&self, device: &str) -> bool {
        self.of(device).is_some()
    }
}

/// Computes [`WindowMoves`] for the devices an analysis with these options
/// may plan for: the one `--device` names, else the default flash profile
/// and the Exadata cells' (the analysed interval picks between them).
pub struct MovesPlanner {
    devices: Vec<(SharedStr, DeviceProfile)>,
    opts: Options,
}

impl MovesPlanner {
    pub fn new(opts: &Options) -> Result<MovesPlanner, RulesError> {
        let all = crate::devices::load(opts.devices_toml.as_deref())?;
        // A device name the profiles lack is the analysis's error to give
        // (the same as without a planner): nothing is planned for it here.
        let devices = candidate_devices(opts)
            .iter()
            .filter_map(|n| crate::devices::find(&all, n).ok())
            .map(|d| (SharedStr::new(&d.name), d.clone()))
            .collect();
        Ok(MovesPlanner {
            devices,
            opts: opts.clone(),
        })
    }

    /// What a run holds of an interval it will not plan for in detail,
    /// over the interval's lean report ([`awrflash_facts::lean`]): its
    /// window moves, computed now from `facts` (over the whole report),
    /// and the facts with only the events the readers over every interval
    /// read. Invariant (tested over the corpus and the fixtures): an
    /// analysis over intervals held this way, the analysed one given its
    /// whole report back, is the analysis of the whole reports.
    pub fn hold(&self, facts: IntervalFacts) -> (WindowMoves, awrflash_facts::Detached) {
        let moves = self.moves(&facts);
        let mut d = facts.detach();
        d.retain_events(window_event);
        (moves, d)
    }

    pub fn moves(&self, w: &IntervalFacts) -> WindowMoves {
        WindowMoves {
            by_device: self
                .devices
                .iter()
                .map(|(name, d)| {
                    (
                        name.clone(),
                        IntervalMoves::of(&projection::interval_plan(w, d, &self.opts)),
                    )
                })
                .collect(),
        }
    }
}

/// The device profiles [`crate::analyze_intervals`] may pick for the
/// window ([`crate::devices::planned`] whether the analysed interval turns
/// out to be on Exadata or not), each once.
fn candidate_devices(opts: &Options) -> Vec<&str> {
    let named = opts.device.as_deref();
    let mut names = vec![
        crate::devices::planned(named, false),
        crate::devices::planned(named, true),
    ];
    names.dedup();
    names
}

/// The hour of day (0-23) of an ISO time.
fn hour_of(t: &str) -> Option<u32> {
    iso_seconds(t).and_then(|s| u32::try_from(s.rem_euclid(86_400) / 3600).ok())
}

/// The gaps between consecutive intervals (in time order).
pub fn gaps(all: &[IntervalFacts]) -> Vec<WindowGap> {
    let mut out = Vec::new();
    for (i, pair) in all.windows(2).enumerate() {
        let [a, b] = pair else { continue };
        let (Some(end), Some(begin)) = (
            a.report.header.end_time.as_deref(),
            b.report.header.begin_time.as_deref(),
        ) else {
            continue;
        };
        let (Some(e), Some(s)) = (iso_seconds(end), iso_seconds(begin)) else {
            continue;
        };
        let len = (s - e) as f64;
        if len > GAP_TOLERANCE_S {
            out.push(WindowGap {
                before_interval: i + 1,
                from: end.to_string(),
                to: begin.to_string(),
                length_s: len,
            });
        }
    }
    out
}

/// The sizing a flash target must carry, read from the trend.
fn sizing(trend: &[TrendMetric], capacity_gb: Option<f64>) -> WindowSizing {
    let get = |m: &str| trend.iter().find(|t| t.metric == m);
    let p95 = |m: &str| get(m).and_then(|t| t.p95);
    let peak = |m: &str| get(m).and_then(|t| t.peak);
    WindowSizing {
        iops_p95: p95("total_iops"),
        iops_peak: peak("total_iops"),
        mb_s_p95: p95("total_mb_s"),
        mb_s_peak: peak("total_mb_s"),
        redo_mb_s_p95: p95("redo_mb_s"),
        redo_mb_s_peak: peak("redo_mb_s"),
        capacity_gb,
    }
}

/// What the window needs from the analysis of the analysed interval.
pub struct Context<'a> {
    pub flash: &'a DeviceProfile,
    pub opts: &'a Options,
    pub trend: &'a [TrendMetric],
    /// The analysed interval's options (for the move's title and capacity).
    pub analysed_options: &'a [awrflash_model::OptionProjection],
}

/// Projects each interval with [`projection::interval_plan`] and
/// aggregates. `None` with fewer than two intervals.
///
/// `moves` (one per interval, or empty) holds what was computed for an
/// interval while its report was whole; an interval without them is planned
/// here from its facts, which must then read over its whole (or reduced)
/// report.
pub fn window(
    all: &[IntervalFacts],
    moves: &[Option<WindowMoves>],
    classes: &[Class],
    analysed: usize,
    cx: &Context,
) -> Option<WindowAnalysis> {
    if all.len() < 2 {
        return None;
    }
    let plans: Vec<IntervalMoves> = all
        .iter()
        .enumerate()
        .map(|(i, w)| {
            match moves
                .get(i)
                .and_then(Option::as_ref)
                .and_then(|m| m.of(&cx.flash.name))
            {
                Some(m) => m.clone(),
                None => IntervalMoves::of(&projection::interval_plan(w, cx.flash, cx.opts)),
            }
        })
        .collect();
    // The move that saves most over the window (mid of the ranges).
    let total = |key: &str| -> f64 {
        plans
            .iter()
            .map(|p| {
                let (lo, hi, _) = p.saving(key);
                lo + hi
            })
            .sum()
    };
    let mut best: Option<(&str, f64)> = None;
    // Only the moves the platform offers (the Exadata options or the
    // device moves).
    for k in WINDOW_MOVES
        .iter()
        .filter(|k| plans.iter().any(|p| p.title(k).is_some()))
    {
        let t = total(k);
        if best.is_none_or(|(_, b)| t > b) {
            best = Some((k, t));
        }
    }
    let move_key = best.map_or("whole-db", |(k, _)| k);
    let intervals: Vec<WindowInterval> = all
        .iter()
        .zip(&plans)
        .zip(classes)
        .enumerate()
        .map(|(i, ((w, p), c))| {
            let (lo, hi, bound) = p.saving(move_key);
            let db = w.db_time();
            WindowInterval {
                index: i,
                begin_time: w.report.header.begin_time.clone(),
                end_time: w.report.header.end_time.clone(),
                elapsed_s: round(w.elapsed()),
                db_time_s: round(db),
                saved_s_low: round(lo),
                saved_s_high: round(hi),
                saved_pct_low: round(ratio(lo * 100.0, db)),
                saved_pct_high: round(ratio(hi * 100.0, db)),
                class: c.class,
                signal: c.signal.clone(),
                bound,
            }
        })
        .collect();
    let analysed_option = cx.analysed_options.iter().find(|o| o.key == move_key);
    let move_title = analysed_option
        .map(|o| o.title.clone())
        .or_else(|| {
            plans
                .iter()
                .find_map(|p| p.title(move_key))
                .map(str::to_string)
        })
        .unwrap_or_else(|| move_key.to_string());
    let mut wa = aggregate(
        intervals,
        sizing(cx.trend, analysed_option.and_then(|o| o.capacity_gb)),
    );
    wa.move_key = move_key.to_string();
    wa.move_title = move_title;
    wa.analysed_interval = analysed;
    wa.gaps = gaps(all);
    Some(wa)
}

/// The window's figures from its intervals: sums, per day, percent, the
/// distribution of gains, the hours that gain most, where something else
/// binds and which class drives the saving.
pub fn aggregate(intervals: Vec<WindowInterval>, sizing: WindowSizing) -> WindowAnalysis {
    let db: f64 = intervals.iter().map(|i| i.db_time_s).sum();
    let covered: f64 = intervals.iter().map(|i| i.elapsed_s).sum();
    let lo: f64 = intervals.iter().map(|i| i.saved_s_low).sum();
    let hi: f64 = intervals.iter().map(|i| i.saved_s_high).sum();
    let per_day = |s: f64| ratio(s * 86_400.0, covered);
    let mids: Vec<f64> = intervals
        .iter()
        .map(|i| 0.5 * (i.saved_pct_low + i.saved_pct_high))
        .collect();
    let pct = |p: f64| stats::percentile(mids.iter().copied(), p).map_or(0.0, round);
    let gains = GainDistribution {
        min_pct: mids
            .iter()
            .copied()
            .min_by(f64::total_cmp)
            .map_or(0.0, round),
        median_pct: pct(50.0),
        p95_pct: stats::p95(mids.iter().copied()).map_or(0.0, round),
        max_pct: pct(100.0),
    };
    let mut hours: Vec<HourGain> = Vec::new();
    for i in &intervals {
        let Some(h) = i.begin_time.as_deref().and_then(hour_of) else {
            continue;
        };
        let mid = 0.5 * (i.saved_s_low + i.saved_s_high);
        match hours.iter_mut().find(|x| x.hour == h) {
            Some(x) => {
                x.intervals += 1;
                x.saved_s += mid;
            }
            None => hours.push(HourGain {
                hour: h,
                intervals: 1,
                saved_s: mid,
            }),
        }
    }
    hours.sort_by(|a, b| b.saved_s.total_cmp(&a.saved_s).then(a.hour.cmp(&b.hour)));
    hours.truncate(3);
    for h in hours.iter_mut() {
        h.saved_s = round(h.saved_s);
    }
    let bound_elsewhere = intervals
        .iter()
        .filter(|i| {
            matches!(i.bound, Bound::Cpu | Bound::Channel)
                || matches!(i.class, IntervalClass::Incident | IntervalClass::CpuBound)
        })
        .map(|i| i.index)
        .collect();
    // The class whose intervals save most (mid), the first class on ties.
    let mut by_class: Vec<(IntervalClass, f64)> = Vec::new();
    for i in &intervals {
        let mid = 0.5 * (i.saved_s_low + i.saved_s_high);
        match by_class.iter_mut().find(|(c, _)| *c == i.class) {
            Some((_, s)) => *s += mid,
            None => by_class.push((i.class, mid)),
        }
    }
    by_class.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let calm: Vec<&WindowInterval> = intervals
        .iter()
        .filter(|i| i.class != IntervalClass::Incident)
        .collect();
    let outside = |f: fn(&WindowInterval) -> f64| {
        (calm.len() < intervals.len()).then(|| {
            round(ratio(
                calm.iter().map(|i| f(i)).sum::<f64>() * 100.0,
                calm.iter().map(|i| i.db_time_s).sum(),
            ))
        })
    };
    WindowAnalysis {
        begin_time: intervals.first().and_then(|i| i.begin_time.clone()),
        end_time: intervals.last().and_then(|i| i.end_time.clone()),
        covered_s: round(covered),
        db_time_s: round(db),
        saved_s_low: round(lo),
        saved_s_high: round(hi),
        saved_s_per_day_low: round(per_day(lo)),
        saved_s_per_day_high: round(per_day(hi)),
        saved_pct_low: round(ratio(lo * 100.0, db)),
        saved_pct_high: round(ratio(hi * 100.0, db)),
        saved_pct_outside_incidents_low: outside(|i| i.saved_s_low),
        saved_pct_outside_incidents_high: outside(|i| i.saved_s_high),
        gains,
        top_hours: hours,
        bound_elsewhere,
        driving_class: by_class.first().map_or(IntervalClass::Mixed, |c| c.0),
        sizing,
        intervals,
        ..WindowAnalysis::default()
    }
}

/// The window's sentence for the verdict: the saving over the window, the
/// per-interval range, the driving class and the incident intervals.
pub fn summary(wa: &WindowAnalysis, device: &str, classes: &[Class]) -> String {
    let range = |lo: f64, hi: f64| {
        if f0(lo) == f0(hi) {
            format!("about {}%", f0(hi))
        } else {
            format!("{}-{}%", f0(lo), f0(hi))
        }
    };
    let mut s = format!(
        "Over the whole window ({} report intervals, {} h of reports), {} on {} would save {} of DB time ({}-{} s, {}-{} s per day at this rate); per interval the gain runs from {}% to {}% (median {}%), and the {} intervals give most of it.",
        wa.intervals.len(),
        f1(wa.covered_s / 3600.0),
        crate::verdict::lower_first(&wa.move_title),
        device,
        range(wa.saved_pct_low, wa.saved_pct_high),
        f0(wa.saved_s_low),
        f0(wa.saved_s_high),
        f0(wa.saved_s_per_day_low),
        f0(wa.saved_s_per_day_high),
        f1(wa.gains.min_pct),
        f1(wa.gains.max_pct),
        f1(wa.gains.median_pct),
        wa.driving_class
    );
    if let (Some(lo), Some(hi)) = (
        wa.saved_pct_outside_incidents_low,
        wa.saved_pct_outside_incidents_high,
    ) {
        s.push_str(&format!(
            " Outside the incident intervals it saves {} of their DB time.",
            range(lo, hi)
        ));
    }
    for (i, c) in wa.intervals.iter().zip(classes) {
        if c.class == IntervalClass::Incident {
            s.push_str(&format!(
                " {} is an incident ({}: {}), where flash saves {}.",
                capital(&i.label()),
                c.incident,
                c.signal,
                range(i.saved_pct_low, i.saved_pct_high)
            ));
        }
    }
    s
}

fn capital(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// A report longer than this averages the peaks away (about two hours,
/// with five minutes for snapshot jitter).
pub const LONG_INTERVAL_S: f64 = 2.0 * 3600.0 + 300.0;

/// A caveat when the single report, or every interval of the window, is
/// longer than about two hours: averages over so long an interval hide the
/// peaks flash is sized for.
pub fn long_interval_caveat(all: &[IntervalFacts]) -> Option<awrflash_model::Caveat> {
    let first = all.first()?;
    if !all.iter().all(|w| w.elapsed() > LONG_INTERVAL_S) {
        return None;
    }
    let longest = all.iter().map(IntervalFacts::elapsed).fold(0.0, f64::max);
    let what = if all.len() > 1 {
        format!(
            "every one of the {} report intervals is longer than two hours (up to {} h)",
            all.len(),
            f1(longest / 3600.0)
        )
    } else {
        format!("the report covers {} h", f1(longest / 3600.0))
    };
    let src = first.report.header.src.clone().unwrap_or_default();
    Some(awrflash_model::Caveat {
        path: first.path.to_string(),
        section: src.section.to_string(),
        line: src.line,
        message: format!(
            "{what}: averages over so long an interval hide the peaks flash is sized for; take hourly reports of the busy hours"
        ),
    })
}

impl crate::checks::Check for Thresholds {
    /// AF006: one finding per incident interval of the window.
    fn check(&self, ctx: &crate::checks::Ctx) -> Vec<crate::checks::Hit> {
        if ctx.all.len() < 2 {
            return Vec::new();
        }
        let Ok(lim) = Limits::load() else {
            return Vec::new();
        };
        let classes = classify(ctx.all, self, lim);
        let when =
            |w: &IntervalFacts| match (&w.report.header.begin_time, &w.report.header.end_time) {
                (Some(b), Some(e)) => format!("{b} to {e}"),
                _ => w.path.to_string(),
            };
        ctx.all
            .iter()
            .zip(&classes)
            .filter(|(_, c)| c.class == IntervalClass::Incident)
            .map(|(w, c)| {
                crate::checks::Hit::new(format!(
                    "{} ({}) is an incident ({}): {}. Storage is not sized for it; the detailed plan is for {} ({}).",
                    when(w),
                    w.path,
                    c.incident,
                    c.signal,
                    when(ctx.w),
                    ctx.w.path
                ))
                .ev(crate::checks::derived(
                    c.incident,
                    c.figure.0,
                    c.figure.1,
                    "the interval's wait events, time model and load profile (see the message)",
                ))
                .ev_opt(w.db_time_s.as_ref().map(|d| d.evidence("DB time of the incident interval", "s")))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;
    use awrflash_model::{DbReport, Header, HostCpu, LoadProfileRow, TimeModelRow, WaitEvent};

    /// One hour with `db` s of DB time, `cpu` s of DB CPU, the events
    /// `(name, seconds)` and `logons` per second.
    fn report(
        begin: &str,
        end: &str,
        db: f64,
        cpu: f64,
        events: &[(&str, f64)],
        logons: f64,
    ) -> DbReport {
        let mut r = DbReport {
            header: Header {
                begin_time: Some(begin.into()),
                end_time: Some(end.into()),
                elapsed_s: Some(3600.0),
                db_time_s: Some(db),
                ..Header::default()
            },
            load_profile: vec![LoadProfileRow {
                name: "Logons".into(),
                per_second: Some(logons),
                ..LoadProfileRow::default()
            }],
            time_model: vec![
                TimeModelRow {
                    name: "DB time".into(),
                    time_s: Some(db),
                    ..TimeModelRow::default()
                },
                TimeModelRow {
                    name: "DB CPU".into(),
                    time_s: Some(cpu),
                    ..TimeModelRow::default()
                },
            ],
            host_cpu: Some(HostCpu {
                cpus: Some(16),
                pct_idle: Some(60.0),
                ..HostCpu::default()
            }),
            ..DbReport::default()
        };
        r.wait_events.foreground = events
            .iter()
            .map(|(n, t)| WaitEvent {
                name: (*n).into(),
                waits: Some(t * 200.0),
                time_s: Some(*t),
                avg_ms: Some(5.0),
                pct_db_time: Some(t * 100.0 / db),
                ..WaitEvent::default()
            })
            .collect();
        r
    }

    fn limits() -> Limits {
        Limits::load().unwrap()
    }

    fn classes_of(reports: &[DbReport]) -> Vec<Class> {
        let all: Vec<IntervalFacts> = reports.iter().map(IntervalFacts::new).collect();
        classify(&all, &Thresholds::load().unwrap(), limits())
    }

    const IO: &[(&str, f64)] = &[
        ("db file sequential read", 4000.0),
        ("log file sync", 200.0),
    ];

    fn io_hour(h: u32, logons: f64) -> DbReport {
        report(
            &format!("2024-03-04T{h:02}:00:00"),
            &format!("2024-03-04T{:02}:00:00", h + 1),
            10_000.0,
            3000.0,
            IO,
            logons,
        )
    }

    #[test]
    fn an_interval_with_a_large_io_share_is_io_bound_and_a_small_load_is_idle() {
        let idle = report(
            "2024-03-04T12:00:00",
            "2024-03-04T13:00:00",
            10.0,
            5.0,
            IO,
            1.0,
        );
        let c = classes_of(&[io_hour(10, 1.0), io_hour(11, 1.0), idle]);
        assert_eq!(c[0].class, IntervalClass::IoBound, "{}", c[0].signal);
        assert!(
            c[0].signal.contains("I/O waits are 40.0%"),
            "{}",
            c[0].signal
        );
        assert_eq!(c[2].class, IntervalClass::Idle, "{}", c[2].signal);
    }

    #[test]
    fn a_logon_storm_with_mutex_waits_is_a_connection_storm_and_without_them_is_not() {
        let storm_events = [
            ("db file sequential read", 1000.0),
            ("library cache: mutex X", 1500.0),
        ];
        let storm = report(
            "2024-03-04T12:00:00",
            "2024-03-04T13:00:00",
            10_000.0,
            3000.0,
            &storm_events,
            40.0,
        );
        let c = classes_of(&[io_hour(10, 5.0), io_hour(11, 6.0), storm]);
        assert_eq!(c[2].class, IntervalClass::Incident);
        assert_eq!(c[2].incident, "connection storm", "{}", c[2].signal);
        assert!(c[2].signal.contains("40.0 logons/s"), "{}", c[2].signal);
        // The same logons without library cache waits: an I/O-bound hour.
        let busy = report(
            "2024-03-04T12:00:00",
            "2024-03-04T13:00:00",
            10_000.0,
            3000.0,
            IO,
            40.0,
        );
        let c = classes_of(&[io_hour(10, 5.0), io_hour(11, 6.0), busy]);
        assert_eq!(c[2].class, IntervalClass::IoBound, "{}", c[2].signal);
    }

    #[test]
    fn library_cache_contention_and_a_lock_pile_up_are_incidents_below_their_threshold_they_are_not()
     {
        let lc = report(
            "2024-03-04T12:00:00",
            "2024-03-04T13:00:00",
            10_000.0,
            1000.0,
            &[
                ("cursor: pin S wait on X", 3000.0),
                ("db file sequential read", 500.0),
            ],
            5.0,
        );
        let lock = report(
            "2024-03-04T13:00:00",
            "2024-03-04T14:00:00",
            10_000.0,
            1000.0,
            &[
                ("enq: TX - row lock contention", 6000.0),
                ("db file sequential read", 500.0),
            ],
            5.0,
        );
        let c = classes_of(&[io_hour(10, 5.0), lc, lock]);
        assert_eq!(c[1].incident, "library cache contention", "{}", c[1].signal);
        assert_eq!(c[2].incident, "lock pile-up", "{}", c[2].signal);
        assert!(c[2].signal.contains("enq: TX - row lock contention"));
        // 4% in enqueues and 10% in cursor waits: not incidents.
        let calm = report(
            "2024-03-04T12:00:00",
            "2024-03-04T13:00:00",
            10_000.0,
            3000.0,
            &[
                ("enq: TX - row lock contention", 400.0),
                ("cursor: pin S wait on X", 1000.0),
                ("db file sequential read", 4000.0),
            ],
            5.0,
        );
        let c = classes_of(&[io_hour(10, 5.0), calm]);
        assert_eq!(c[1].class, IntervalClass::IoBound, "{}", c[1].signal);
    }

    #[test]
    fn db_cpu_over_its_threshold_is_cpu_bound_below_it_is_not() {
        let cpu = report(
            "2024-03-04T12:00:00",
            "2024-03-04T13:00:00",
            10_000.0,
            7000.0,
            &[("db file sequential read", 1000.0)],
            5.0,
        );
        let c = classes_of(&[io_hour(10, 5.0), cpu]);
        assert_eq!(c[1].class, IntervalClass::CpuBound, "{}", c[1].signal);
        assert!(c[1].signal.contains("DB CPU is 70.0%"));
        assert_eq!(c[0].class, IntervalClass::IoBound);
        let rm = report(
            "2024-03-04T12:00:00",
            "2024-03-04T13:00:00",
            10_000.0,
            2000.0,
            &[
                ("resmgr:cpu quantum", 3000.0),
                ("db file sequential read", 2500.0),
            ],
            5.0,
        );
        let c = classes_of(&[io_hour(10, 5.0), rm]);
        assert_eq!(c[1].class, IntervalClass::CpuBound, "{}", c[1].signal);
        assert!(c[1].signal.contains("resmgr:cpu quantum"));
    }

    #[test]
    fn the_analysed_interval_is_the_busiest_that_is_not_an_incident() {
        let storm = report(
            "2024-03-04T12:00:00",
            "2024-03-04T13:00:00",
            90_000.0,
            3000.0,
            &[
                ("library cache: mutex X", 60_000.0),
                ("db file sequential read", 1000.0),
            ],
            5.0,
        );
        let mut second = io_hour(11, 5.0);
        second.header.db_time_s = Some(12_000.0);
        second.time_model[0].time_s = Some(12_000.0);
        let reports = [io_hour(10, 5.0), second, storm];
        let all: Vec<IntervalFacts> = reports.iter().map(IntervalFacts::new).collect();
        let c = classify(&all, &Thresholds::load().unwrap(), limits());
        assert_eq!(awrflash_facts::peak_interval(&all), Some(2));
        assert_eq!(analysed_interval(&all, &c), Some(1));
    }

    fn iv(
        i: usize,
        begin: &str,
        db: f64,
        lo: f64,
        hi: f64,
        class: IntervalClass,
        bound: Bound,
    ) -> WindowInterval {
        WindowInterval {
            index: i,
            begin_time: Some(begin.into()),
            end_time: None,
            elapsed_s: 3600.0,
            db_time_s: db,
            saved_s_low: lo,
            saved_s_high: hi,
            saved_pct_low: lo * 100.0 / db,
            saved_pct_high: hi * 100.0 / db,
            class,
            signal: String::new(),
            bound,
        }
    }

    #[test]
    fn the_window_sums_the_intervals_and_scales_to_a_day_of_covered_time() {
        use IntervalClass::*;
        let v = vec![
            iv(
                0,
                "2024-03-04T09:00:00",
                10_000.0,
                3000.0,
                3500.0,
                IoBound,
                Bound::None,
            ),
            iv(
                1,
                "2024-03-04T10:00:00",
                10_000.0,
                1000.0,
                1500.0,
                IoBound,
                Bound::Cpu,
            ),
            iv(
                2,
                "2024-03-04T11:00:00",
                80_000.0,
                1600.0,
                2000.0,
                Incident,
                Bound::None,
            ),
            iv(
                3,
                "2024-03-05T09:00:00",
                20_000.0,
                0.0,
                0.0,
                Idle,
                Bound::None,
            ),
        ];
        let w = aggregate(v, WindowSizing::default());
        assert_eq!(w.saved_s_low, 5600.0);
        assert_eq!(w.saved_s_high, 7000.0);
        assert_eq!(w.db_time_s, 120_000.0);
        // 4 hours covered: a day is 6 times the window.
        assert_eq!(w.saved_s_per_day_low, 33_600.0);
        assert_eq!(w.saved_s_per_day_high, 42_000.0);
        assert!((w.saved_pct_high - 7000.0 * 100.0 / 120_000.0).abs() < 0.01);
        // Outside the incident: (3000 + 1000 + 0) / 40,000.
        assert_eq!(w.saved_pct_outside_incidents_low, Some(10.0));
        // Mid gains 32.5, 12.5, 2.25, 0: the nearest-rank median is 2.25.
        assert_eq!(w.gains.min_pct, 0.0);
        assert_eq!(w.gains.median_pct, 2.25);
        assert_eq!(w.gains.p95_pct, 32.5);
        assert_eq!(w.gains.max_pct, 32.5);
        // 09:00 twice (3250 + 0), 11:00 1800, 10:00 1250.
        let hours: Vec<(u32, usize, f64)> = w
            .top_hours
            .iter()
            .map(|h| (h.hour, h.intervals, h.saved_s))
            .collect();
        assert_eq!(
            hours,
            vec![(9, 2, 3250.0), (11, 1, 1800.0), (10, 1, 1250.0)]
        );
        assert_eq!(w.bound_elsewhere, vec![1, 2]);
        assert_eq!(w.driving_class, IoBound);
    }

    #[test]
    fn a_gap_is_flagged_where_an_interval_does_not_begin_at_the_previous_end() {
        let mut late = io_hour(12, 5.0);
        late.header.begin_time = Some("2024-03-04T12:30:00".into());
        // 11:00-12:00 follows 10:00-11:00 to the second; 12:30 leaves 30 min.
        let reports = [io_hour(10, 5.0), io_hour(11, 5.0), late];
        let all: Vec<IntervalFacts> = reports.iter().map(IntervalFacts::new).collect();
        let g = gaps(&all);
        assert_eq!(g.len(), 1);
        assert_eq!(g[0].before_interval, 2);
        assert_eq!(g[0].length_s, 1800.0);
        assert_eq!(g[0].from, "2024-03-04T12:00:00");
    }

    #[test]
    fn a_report_over_two_hours_gets_the_averages_caveat_an_hourly_one_does_not() {
        let mut long = io_hour(10, 5.0);
        long.header.end_time = Some("2024-03-05T10:00:00".into());
        long.header.elapsed_s = Some(86_400.0);
        let all = vec![IntervalFacts::new(&long)];
        let c = long_interval_caveat(&all).expect("a caveat");
        assert!(
            c.message.contains("the report covers 24.0 h"),
            "{}",
            c.message
        );
        let hourly = io_hour(10, 5.0);
        assert!(long_interval_caveat(&[IntervalFacts::new(&hourly)]).is_none());
        // A window warns only when every interval is long.
        let mixed = vec![IntervalFacts::new(&long), IntervalFacts::new(&hourly)];
        assert!(long_interval_caveat(&mixed).is_none());
        let both = vec![IntervalFacts::new(&long), IntervalFacts::new(&long)];
        let c = long_interval_caveat(&both).expect("a caveat");
        assert!(
            c.message.contains("every one of the 2 report intervals"),
            "{}",
            c.message
        );
    }
}
