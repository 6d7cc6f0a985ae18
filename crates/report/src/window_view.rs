//! The whole window of a multi-report analysis, formatted once for every
//! renderer: the window's facts (saving, per day, gains, hours, sizing,
//! gaps) and one row per interval.

use awrflash_model::{Analysis, WindowAnalysis};

use crate::fmt;

/// One interval of the window.
#[derive(Debug, Clone)]
pub struct WindowIntervalView {
    pub label: String,
    pub elapsed: String,
    pub db_time: String,
    pub saved: String,
    pub saved_pct: String,
    pub class: String,
    pub signal: String,
    pub bound: String,
    /// The interval the detailed plan is for.
    pub analysed: bool,
}

/// The window's facts and intervals.
#[derive(Debug, Clone)]
pub struct WindowView {
    /// `(what, value)` lines, in reading order.
    pub facts: Vec<(String, String)>,
    pub intervals: Vec<WindowIntervalView>,
}

fn span(w: &WindowAnalysis) -> String {
    match (&w.begin_time, &w.end_time) {
        (Some(b), Some(e)) => format!("{b} to {e}"),
        _ => fmt::NA.into(),
    }
}

fn gaps(w: &WindowAnalysis) -> String {
    if w.gaps.is_empty() {
        return "none (each interval begins where the one before it ends)".into();
    }
    w.gaps
        .iter()
        .map(|g| format!("{} to {}: {}", g.from, g.to, fmt::duration(g.length_s)))
        .collect::<Vec<_>>()
        .join("; ")
}

fn labels(w: &WindowAnalysis, idx: &[usize]) -> String {
    let v: Vec<String> = idx
        .iter()
        .filter_map(|i| w.intervals.get(*i))
        .map(|i| format!("{} ({}, bound: {})", i.label(), i.class, i.bound))
        .collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join("; ")
    }
}

fn p95_peak(p95: Option<f64>, peak: Option<f64>, unit: &str) -> String {
    match (p95, peak) {
        (None, None) => fmt::NA.into(),
        (p, k) => format!(
            "{} {unit} p95, {} {unit} peak",
            fmt::opt(p, fmt::num),
            fmt::opt(k, fmt::num)
        ),
    }
}

/// The identity rows of a window: the whole window, the analysed interval
/// (`analysed`: its snapshots and times as the identity prints them) and
/// the gaps. `None` with one report.
pub fn identity_rows(a: &Analysis, analysed: &str) -> Option<Vec<(String, String)>> {
    let w = a.window.as_ref()?;
    let why = if a.peak_interval == Some(w.analysed_interval) {
        "the busiest interval"
    } else {
        "the busiest interval that is not an incident"
    };
    let snaps = match (
        a.series.first().and_then(|p| p.begin_snap),
        a.series.last().and_then(|p| p.end_snap),
    ) {
        (Some(b), Some(e)) => format!("snapshots {b} to {e}, "),
        _ => String::new(),
    };
    Some(vec![
        (
            "Snapshot window".into(),
            format!("{snaps}{}, {} report intervals", span(w), w.intervals.len()),
        ),
        (
            "Analysed".into(),
            format!(
                "{}, {why}: the detailed plan, the findings and the figures below are for it",
                if analysed.is_empty() {
                    fmt::NA
                } else {
                    analysed
                }
            ),
        ),
        ("Gaps".into(), gaps(w)),
    ])
}

/// The window as the renderers show it; `None` with one report.
pub fn window(a: &Analysis) -> Option<WindowView> {
    let w = a.window.as_ref()?;
    let s = &w.sizing;
    let g = &w.gains;
    let hours = if w.top_hours.is_empty() {
        fmt::NA.to_string()
    } else {
        w.top_hours
            .iter()
            .map(|h| {
                format!(
                    "{:02}:00 ({} saved, {} interval{})",
                    h.hour,
                    fmt::secs(h.saved_s),
                    h.intervals,
                    if h.intervals == 1 { "" } else { "s" }
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut facts = vec![
        (
            "Window".into(),
            format!(
                "{}, {} report intervals covering {}",
                span(w),
                w.intervals.len(),
                fmt::duration(w.covered_s)
            ),
        ),
        (
            "Move projected in every interval".into(),
            w.move_title.clone(),
        ),
        (
            "DB time saved over the window".into(),
            format!(
                "{} of {} ({})",
                fmt::secs_range(w.saved_s_low, w.saved_s_high),
                fmt::secs(w.db_time_s),
                fmt::pct_range(w.saved_pct_low, w.saved_pct_high)
            ),
        ),
        (
            "Per day (at the window's rate)".into(),
            fmt::secs_range(w.saved_s_per_day_low, w.saved_s_per_day_high),
        ),
    ];
    if let (Some(lo), Some(hi)) = (
        w.saved_pct_outside_incidents_low,
        w.saved_pct_outside_incidents_high,
    ) {
        facts.push((
            "Outside the incident intervals".into(),
            format!("{} of their DB time", fmt::pct_range(lo, hi)),
        ));
    }
    facts.extend([
        (
            "Gain per interval (min / median / p95 / max)".into(),
            format!(
                "{} / {} / {} / {}",
                fmt::pct(g.min_pct),
                fmt::pct(g.median_pct),
                fmt::pct(g.p95_pct),
                fmt::pct(g.max_pct)
            ),
        ),
        ("Hours that gain most".into(), hours),
        (
            "Class that gives most of the saving".into(),
            w.driving_class.to_string(),
        ),
        (
            "Where something else binds".into(),
            labels(w, &w.bound_elsewhere),
        ),
        (
            "Sizing: IOPS".into(),
            p95_peak(s.iops_p95, s.iops_peak, "req/s"),
        ),
        (
            "Sizing: throughput".into(),
            p95_peak(s.mb_s_p95, s.mb_s_peak, "MB/s"),
        ),
        (
            "Sizing: redo".into(),
            p95_peak(s.redo_mb_s_p95, s.redo_mb_s_peak, "MB/s"),
        ),
        (
            "Sizing: capacity".into(),
            s.capacity_gb.map_or_else(
                || "not in the inputs".to_string(),
                |c| format!("{} GB", fmt::num(c)),
            ),
        ),
        ("Gaps".into(), gaps(w)),
    ]);
    let intervals = w
        .intervals
        .iter()
        .map(|i| WindowIntervalView {
            label: i.label(),
            elapsed: fmt::secs(i.elapsed_s),
            db_time: fmt::secs(i.db_time_s),
            saved: fmt::secs_range(i.saved_s_low, i.saved_s_high),
            saved_pct: fmt::pct_range(i.saved_pct_low, i.saved_pct_high),
            class: i.class.to_string(),
            signal: i.signal.clone(),
            bound: i.bound.to_string(),
            analysed: i.index == w.analysed_interval,
        })
        .collect();
    Some(WindowView { facts, intervals })
}
