//! What changed in the storage, read from the figures: a wait that got much
//! faster says which files moved; flash cache or Exadata statistics that
//! appear say which cache came in.

use awrflash_facts::round;
use awrflash_model::{StorageChange, WaitChange};
use awrflash_rules::util::{f1, f2};

use crate::side::SideFacts;

/// A latency counts as fallen when the after average is at most this share
/// of the before one. Hour-to-hour noise of a disk-backed average is well
/// within +-30%; a move to flash takes a disk's 4-8 ms to under 1 ms.
pub const FELL_RATIO: f64 = 0.7;
/// ...and fell by at least this much (ms), so a 0.2 -> 0.1 ms cache-served
/// average is not read as a move.
const FELL_MS_DATA: f64 = 0.5;
const FELL_MS_REDO: f64 = 0.2;

fn wait<'w>(waits: &'w [WaitChange], name: &str) -> Option<&'w WaitChange> {
    waits.iter().find(|w| w.event.eq_ignore_ascii_case(name))
}

/// The event's averages when it fell enough: `(before, after)` ms.
fn fell(waits: &[WaitChange], name: &str, min_ms: f64) -> Option<(f64, f64)> {
    let w = wait(waits, name)?;
    let (b, a) = (w.before.as_ref()?, w.after.as_ref()?);
    (b.waits > 0.0
        && a.waits > 0.0
        && a.avg_ms <= b.avg_ms * FELL_RATIO
        && b.avg_ms - a.avg_ms >= min_ms)
        .then_some((b.avg_ms, a.avg_ms))
}

fn fell_text(waits: &[WaitChange], name: &str, (b, a): (f64, f64)) -> String {
    let mut s = format!(
        "{name} averaged {} ms before and {} ms after ({}%)",
        f2(b),
        f2(a),
        f1((a - b) * 100.0 / b)
    );
    if let Some(h) = wait(waits, name).and_then(|w| w.histogram.as_ref())
        && let (Some(hb), Some(ha)) = (h.le_1ms_before_pct, h.le_1ms_after_pct)
    {
        s.push_str(&format!(
            "; waits at or below 1 ms: {}% before, {}% after",
            f1(hb),
            f1(ha)
        ));
    }
    s
}

/// Waits of an event on one side (0 when absent).
fn waits_of(waits: &[WaitChange], name: &str, after: bool) -> f64 {
    wait(waits, name)
        .and_then(|w| {
            if after {
                w.after.as_ref()
            } else {
                w.before.as_ref()
            }
        })
        .map_or(0.0, |f| f.waits)
}

/// A statistic's total on a side (0 when absent).
fn stat(s: &SideFacts<'_>, names: &[&str]) -> f64 {
    names
        .iter()
        .filter_map(|n| s.stat_total(n))
        .map(|f| f.value)
        .fold(0.0, f64::max)
}

/// The storage changes the figures show, in a fixed order (data, redo,
/// TEMP, flash cache, Exadata). `option_key` is filled by the caller.
pub fn detect(waits: &[WaitChange], b: &SideFacts<'_>, a: &SideFacts<'_>) -> Vec<StorageChange> {
    let mut out = Vec::new();
    let single = ["db file sequential read", "db file parallel read"];
    if let Some((name, f)) = single
        .iter()
        .find_map(|n| fell(waits, n, FELL_MS_DATA).map(|f| (*n, f)))
    {
        out.push(StorageChange {
            kind: "data-moved".into(),
            title: "Data files moved to faster storage".into(),
            because: fell_text(waits, name, f),
            option_key: None,
        });
    }
    if let Some(f) = fell(waits, "log file parallel write", FELL_MS_REDO) {
        out.push(StorageChange {
            kind: "redo-moved".into(),
            title: "Online redo logs moved to faster storage".into(),
            because: fell_text(waits, "log file parallel write", f),
            option_key: None,
        });
    }
    if let Some((name, f)) = ["direct path read temp", "direct path write temp"]
        .iter()
        .find_map(|n| fell(waits, n, FELL_MS_DATA).map(|f| (*n, f)))
    {
        out.push(StorageChange {
            kind: "temp-moved".into(),
            title: "The temporary tablespace moved to faster storage".into(),
            because: fell_text(waits, name, f),
            option_key: None,
        });
    }
    let fc_event = "db flash cache single block physical read";
    let fc_stats = ["physical read flash cache hits", "flash cache read hits"];
    let (fcw_b, fcw_a) = (
        waits_of(waits, fc_event, false),
        waits_of(waits, fc_event, true),
    );
    let (fcs_b, fcs_a) = (stat(b, &fc_stats), stat(a, &fc_stats));
    if (fcw_a > 0.0 && fcw_b <= 0.0) || (fcs_a > 0.0 && fcs_b <= 0.0) {
        out.push(StorageChange {
            kind: "flash-cache".into(),
            title: "A Database Smart Flash Cache came in".into(),
            because: if fcw_a > 0.0 && fcw_b <= 0.0 {
                format!("{fc_event}: none before, {} waits after", round(fcw_a))
            } else {
                format!("flash cache read hits: none before, {} after", round(fcs_a))
            },
            option_key: None,
        });
    }
    let cell_event = "cell single block physical read";
    let (cw_b, cw_a) = (
        waits_of(waits, cell_event, false),
        waits_of(waits, cell_event, true),
    );
    let cell_stats = ["cell flash cache read hits"];
    let (cs_b, cs_a) = (stat(b, &cell_stats), stat(a, &cell_stats));
    let opt = ["physical read requests optimized"];
    let (os_b, os_a) = (stat(b, &opt), stat(a, &opt));
    let exadata_because = if cw_a > 0.0 && cw_b <= 0.0 {
        Some(format!(
            "{cell_event}: none before, {} waits after",
            round(cw_a)
        ))
    } else if cs_a > 0.0 && cs_b <= 0.0 {
        Some(format!(
            "cell flash cache read hits: none before, {} after",
            round(cs_a)
        ))
    } else if os_a > 0.0 && os_b <= 0.0 && fcs_a <= 0.0 {
        // Optimized reads without flash cache hits: storage-cell flash.
        Some(format!(
            "physical read requests optimized: none before, {} after, with no flash cache hits",
            round(os_a)
        ))
    } else {
        None
    };
    if let Some(because) = exadata_because {
        out.push(StorageChange {
            kind: "exadata".into(),
            title: "The database moved to Exadata storage (cell flash)".into(),
            because,
            option_key: None,
        });
    }
    out
}
