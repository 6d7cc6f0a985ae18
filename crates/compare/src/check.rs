//! The advisor's projection for the change that happened, computed from the
//! before side, next to the measured result; when the two disagree, the
//! likely reasons the figures show.

use awrflash_facts::{parse_size, round};
use awrflash_model::{
    Analysis, ComponentChange, DbTimeBreakdown, Drift, FigureChange, OptionProjection,
    ProjectionCheck, StorageChange, WaitChange,
};

use awrflash_rules::util::{f1, f2};

use crate::detect::FELL_RATIO;
use crate::figures::components;
use crate::side::SideFacts;

/// Measured and projected results closer than this (percentage points) are
/// "as projected" even just outside the range: averages of an hour of
/// production load move by a few percent on their own.
pub const CLOSE_POINTS: f64 = 5.0;
/// Host CPU busy at or above this after the change: the CPU became the bound.
const CPU_BOUND_PCT: f64 = 85.0;
/// A component the option does not touch moved by more than this share of
/// the measured change: it explains part of the difference.
const OTHER_SHARE: f64 = 0.3;

fn option<'a>(a: &'a Analysis, key: &str) -> Option<&'a OptionProjection> {
    a.options.iter().find(|o| o.key == key)
}

fn wait<'w>(waits: &'w [WaitChange], name: &str) -> Option<&'w WaitChange> {
    waits.iter().find(|w| w.event.eq_ignore_ascii_case(name))
}

/// The single-block latency range the whole-database projection expects.
fn projected_latency(o: &OptionProjection, event: &str) -> Option<(f64, f64)> {
    o.projection
        .steps
        .iter()
        .find(|s| s.component.eq_ignore_ascii_case(event))
        .map(|s| (s.new_avg_ms_low, s.new_avg_ms_high))
}

/// `0.40 ms` or `0.40-0.90 ms` (without the unit).
fn range_ms(lo: f64, hi: f64) -> String {
    if f2(lo) == f2(hi) {
        f2(lo)
    } else {
        format!("{}-{}", f2(lo), f2(hi))
    }
}

/// The advisor option that projects a detected change, and why.
fn matching_option(
    c: &StorageChange,
    a: &Analysis,
    waits: &[WaitChange],
    after_fc_gb: Option<f64>,
) -> Option<(String, String)> {
    match c.kind.as_str() {
        "data-moved" => {
            let whole = option(a, "whole-db");
            let hot = option(a, "hot-segments");
            let after = wait(waits, "db file sequential read")
                .and_then(|w| w.after.as_ref())
                .map(|f| f.avg_ms);
            let range = whole.and_then(|o| projected_latency(o, "db file sequential read"));
            match (whole, hot, after, range) {
                (Some(w), _, Some(ms), Some((_, hi))) if ms <= 2.0 * hi.max(0.1) => Some((
                    w.key.clone(),
                    format!(
                        "single-block reads average {} ms after, within twice the {} ms the whole-database projection expects, so all data files are taken to have moved",
                        f2(ms),
                        f2(hi)
                    ),
                )),
                (_, Some(h), Some(ms), _) => Some((
                    h.key.clone(),
                    format!(
                        "single-block reads average {} ms after, well above a whole move to flash, so part of the data (the hottest segments) is taken to have moved",
                        f2(ms)
                    ),
                )),
                (Some(w), None, _, _) => Some((
                    w.key.clone(),
                    "the before side has no segment statistics for a hot-segment option".into(),
                )),
                _ => None,
            }
        }
        "redo-moved" => option(a, "redo").map(|o| {
            (
                o.key.clone(),
                "log file parallel write fell: the redo option".into(),
            )
        }),
        "temp-moved" => option(a, "temp").map(|o| {
            (
                o.key.clone(),
                "direct path temp waits fell: the TEMP option".into(),
            )
        }),
        "flash-cache" => {
            let fcs: Vec<&OptionProjection> = a
                .options
                .iter()
                .filter(|o| o.key.starts_with("flash-cache-"))
                .collect();
            let want = after_fc_gb
                .or_else(|| a.flash_cache.as_ref().and_then(|p| p.size_gb))
                .unwrap_or(0.0);
            let best = fcs.iter().min_by(|x, y| {
                let d = |o: &&&OptionProjection| (o.capacity_gb.unwrap_or(0.0) - want).abs();
                d(x).total_cmp(&d(y))
            })?;
            Some((
                best.key.clone(),
                match after_fc_gb {
                    Some(gb) => format!(
                        "the flash cache size projected nearest to the after side's db_flash_cache_size ({} GB)",
                        round(gb)
                    ),
                    None => "the after side does not print db_flash_cache_size: the size the advisor put forward".into(),
                },
            ))
        }
        _ => None,
    }
}

/// The after side's `db_flash_cache_size` in GB.
pub fn after_flash_cache_gb(a: &SideFacts<'_>) -> Option<f64> {
    a.first()?
        .parameter("db_flash_cache_size")
        .and_then(|p| parse_size(&p.value))
        .filter(|b| *b > 0.0)
        .map(|b| b / 1_073_741_824.0)
}

fn fig<'f>(figs: &'f [FigureChange], key: &str) -> Option<&'f FigureChange> {
    figs.iter().find(|f| f.key == key)
}

/// The measured cut (percent) of the per-unit DB time, and which unit.
fn measured(figs: &[FigureChange]) -> Option<(f64, &'static str)> {
    [
        ("db_time_per_txn_ms", "DB time per transaction"),
        ("db_time_per_exec_ms", "DB time per execution"),
        ("aas", "average active sessions"),
    ]
    .iter()
    .find_map(|(k, what)| {
        let f = fig(figs, k)?;
        let (b, a) = (f.before?, f.after?);
        (b > 0.0).then(|| ((1.0 - a / b) * 100.0, *what))
    })
}

/// Components an option's projection changes.
fn touched(o: &OptionProjection) -> Vec<&'static str> {
    components(&o.before)
        .iter()
        .zip(components(&o.after))
        .filter(|(b, a)| (b.1 - a.1).abs() > 1e-9)
        .map(|(b, _)| b.0)
        .collect()
}

/// Fills the projected column of the per-transaction breakdown: each
/// component scaled by the option's after/before ratio for it.
fn project_breakdown(bd: &mut [ComponentChange], o: &OptionProjection) {
    let ratio = |name: &str, b: &DbTimeBreakdown, a: &DbTimeBreakdown| {
        let bc = components(b);
        let ac = components(a);
        let vb = bc.iter().find(|c| c.0 == name).map_or(0.0, |c| c.1);
        let va = ac.iter().find(|c| c.0 == name).map_or(0.0, |c| c.1);
        if vb > 0.0 { va / vb } else { 1.0 }
    };
    for c in bd {
        c.projected_ms_per_txn = Some(round(
            c.before_ms_per_txn * ratio(&c.component, &o.before, &o.after),
        ));
    }
}

#[allow(clippy::too_many_arguments)]
fn reasons(
    o: &OptionProjection,
    gain: f64,
    lo: f64,
    figs: &[FigureChange],
    waits: &[WaitChange],
    bd: &[ComponentChange],
    drift: &Drift,
    changes: &[StorageChange],
    chosen: &StorageChange,
) -> Vec<String> {
    let mut r = Vec::new();
    if drift.confounded {
        r.push(format!("the workload changed: {}", drift.message));
    }
    if let Some(h) = fig(figs, "host_cpu_busy_pct")
        && let (Some(b), Some(a)) = (h.before, h.after)
        && a >= CPU_BOUND_PCT
        && b < CPU_BOUND_PCT
    {
        r.push(format!(
            "the bound moved to the CPU: host CPU busy {}% before, {}% after",
            f1(b),
            f1(a)
        ));
    }
    if let Some(c) = fig(figs, "db_cpu_per_txn_ms")
        && let Some(p) = c.change_pct
        && p >= 15.0
    {
        r.push(format!(
            "DB CPU per transaction rose {}% ({} -> {} ms), which no storage change explains",
            f1(p),
            f2(c.before.unwrap_or(0.0)),
            f2(c.after.unwrap_or(0.0))
        ));
    }
    // The option's waits: those that did not get faster did not move;
    // those that did are set against the device profile.
    let mut stayed = Vec::new();
    for s in &o.projection.steps {
        let Some(w) = wait(waits, &s.component) else {
            continue;
        };
        let (Some(b), Some(a)) = (w.before.as_ref(), w.after.as_ref()) else {
            continue;
        };
        if a.avg_ms > b.avg_ms * FELL_RATIO {
            stayed.push(format!(
                "{} ({} -> {} ms)",
                s.component,
                f2(b.avg_ms),
                f2(a.avg_ms)
            ));
        } else if a.avg_ms > s.new_avg_ms_high * 1.25 && a.avg_ms > s.new_avg_ms_high + 0.1 {
            r.push(format!(
                "{} averages {} ms after; the {} profile projected {} ms: the new storage (or the path to it) is slower than the profile",
                s.component, f2(a.avg_ms), o.device, range_ms(s.new_avg_ms_low, s.new_avg_ms_high)
            ));
        } else if a.avg_ms < s.new_avg_ms_low * 0.8 {
            r.push(format!(
                "{} averages {} ms after; the {} profile projected {} ms: the new storage is faster than the profile",
                s.component, f2(a.avg_ms), o.device, range_ms(s.new_avg_ms_low, s.new_avg_ms_high)
            ));
        }
    }
    if !stayed.is_empty() {
        r.push(format!(
            "waits the option moves did not get faster, so their files did not move (or are served from elsewhere): {}",
            stayed.join(", ")
        ));
    }
    // The component whose measured value is furthest from its projection.
    let single_off = bd
        .iter()
        .find(|c| c.component == "single_block_read")
        .and_then(|c| Some(c.after_ms_per_txn - c.projected_ms_per_txn?))
        .unwrap_or(0.0);
    if gain < lo
        && chosen.kind == "data-moved"
        && single_off
            > 0.1
                * bd.iter()
                    .find(|c| c.component == "single_block_read")
                    .map_or(0.0, |c| c.before_ms_per_txn)
        && let Some(h) = wait(waits, "db file sequential read").and_then(|w| w.histogram.as_ref())
        && let Some(fast) = h.le_1ms_before_pct
        && fast >= 20.0
    {
        r.push(format!(
            "part of the single-block waits were already cache-served: {}% took at most 1 ms before the move and could not get faster",
            f1(fast)
        ));
    }
    let total: f64 = bd
        .iter()
        .filter_map(|c| Some(c.after_ms_per_txn - c.projected_ms_per_txn?))
        .map(f64::abs)
        .sum();
    let t = touched(o);
    let mut off: Vec<(&ComponentChange, f64, f64)> = bd
        .iter()
        .filter_map(|c| {
            let p = c.projected_ms_per_txn?;
            Some((c, p, c.after_ms_per_txn - p))
        })
        .filter(|(_, _, d)| total > 0.0 && d.abs() >= OTHER_SHARE * total)
        .collect();
    off.sort_by(|x, y| y.2.abs().total_cmp(&x.2.abs()));
    if let Some((c, p, d)) = off.first() {
        let name = c.component.replace('_', " ");
        let what = if !t.contains(&c.component.as_str()) {
            "a part of DB time the option does not touch moved"
        } else if *d > 0.0 {
            "the option's waits did not fall as projected (part of them did not move, or the new storage serves them slower)"
        } else {
            "the option's waits fell more than projected"
        };
        r.push(format!(
            "{what}: {name} {} ms per transaction before, {} projected, {} measured",
            f2(c.before_ms_per_txn),
            f2(*p),
            f2(c.after_ms_per_txn)
        ));
    }
    let more: Vec<&str> = changes
        .iter()
        .filter(|c| c.kind != chosen.kind)
        .map(|c| c.title.as_str())
        .collect();
    if !more.is_empty() {
        r.push(format!(
            "more changed than this option covers: {}",
            more.join("; ")
        ));
    }
    if r.is_empty() {
        r.push("no single cause stands out in the figures".into());
    }
    r
}

/// The projection check for the first detected change that has a matching
/// option; the changes get their `option_key`.
#[allow(clippy::too_many_arguments)]
pub fn check(
    analysis: &Analysis,
    changes: &mut [StorageChange],
    figs: &[FigureChange],
    waits: &[WaitChange],
    bd: &mut [ComponentChange],
    drift: &Drift,
    after_fc_gb: Option<f64>,
) -> Option<ProjectionCheck> {
    let mut first: Option<(usize, String)> = None;
    for (i, c) in changes.iter_mut().enumerate() {
        if let Some((key, why)) = matching_option(c, analysis, waits, after_fc_gb) {
            c.option_key = Some(key.clone());
            if first.is_none() {
                first = Some((i, why));
            }
        }
    }
    let (i, why) = first?;
    let chosen = changes.get(i)?.clone();
    let o = option(analysis, chosen.option_key.as_deref()?)?;
    let (gain, unit) = measured(figs)?;
    let p = &o.projection;
    let lo = round((1.0 - p.response_ratio_high) * 100.0);
    let hi = round((1.0 - p.response_ratio_low) * 100.0);
    let gain = round(gain);
    let error = if gain < lo {
        round(gain - lo)
    } else if gain > hi {
        round(gain - hi)
    } else {
        0.0
    };
    project_breakdown(bd, o);
    let within = error == 0.0;
    let how = if within {
        "within the projected range".to_string()
    } else if error.abs() <= CLOSE_POINTS {
        format!(
            "{} points {} the projected range: about as projected",
            f1(error.abs()),
            if error < 0.0 { "below" } else { "above" }
        )
    } else {
        format!(
            "{} points {} the projected range",
            f1(error.abs()),
            if error < 0.0 { "below" } else { "above" }
        )
    };
    let range = if f1(lo) == f1(hi) {
        format!("{}%", f1(lo))
    } else {
        format!("{}-{}%", f1(lo), f1(hi))
    };
    let verdict = format!(
        "Measured: {} {}% ({}); projected from the before side: {} {range} ({}).",
        unit,
        if gain >= 0.0 {
            format!("fell {}", f1(gain))
        } else {
            format!("rose {}", f1(-gain))
        },
        how,
        o.title,
        o.device
    );
    let reasons = if error.abs() > CLOSE_POINTS {
        reasons(o, gain, lo, figs, waits, bd, drift, changes, &chosen)
    } else {
        Vec::new()
    };
    Some(ProjectionCheck {
        option_key: o.key.clone(),
        option_title: o.title.clone(),
        device: o.device.clone(),
        chosen_because: why,
        projected_gain_pct_low: lo,
        projected_gain_pct_high: hi,
        measured_gain_pct: gain,
        error_pct_points: error,
        within_range: within,
        projected_bound: p.bound,
        verdict,
        reasons,
    })
}
