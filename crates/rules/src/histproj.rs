//! Histogram projection: one wait event's time after its I/O moves to a
//! device whose service time is a range (low, high), bucket by bucket where
//! the report has a wait histogram (ADVISOR.md section 5, step 4), from the
//! average where it has none.
//!
//! Waits at or below the device's service time stay as they are (they are
//! served by an array cache or flash already); the rest move to the device's
//! service time. Each bucket's waits take the bucket's midpoint; the open
//! last bucket (`>=2s`, `>1s`) takes what the report's average leaves for it,
//! so the buckets add up to the event's total wait time. The device's low
//! service time gives the high saving, its high service time the low one.

use awrflash_facts::Distribution;

use crate::util::{f1, f2};

/// One event's projected saving.
#[derive(Debug, Clone, PartialEq)]
pub struct HistProjection {
    /// Wait time saved (s) at the device's high and low service time.
    pub saved_s_low: f64,
    pub saved_s_high: f64,
    /// Share of the event's waits (%) slower than the device's high service
    /// time: the part of the wait flash can shorten.
    pub shortenable_pct: f64,
    /// Wait time (s) above the device's low service time: the most flash
    /// can remove.
    pub shortenable_s: f64,
    /// Average wait (ms) after the move, at the device's low and high time.
    pub new_avg_ms_low: f64,
    pub new_avg_ms_high: f64,
    /// The histogram was used (false: the average).
    pub used_histogram: bool,
    /// What was done, in words, for the projection's steps.
    pub step: String,
}

/// Projects one event: `waits` waits averaging `avg_ms`, moved to a device
/// serving them in `device_ms` = (low, high) ms; `dist` is the event's merged
/// histogram when the report has one.
pub fn project(
    event: &str,
    dist: Option<&Distribution>,
    waits: f64,
    avg_ms: f64,
    device_ms: (f64, f64),
) -> HistProjection {
    project_above_device(event, dist, waits, avg_ms, device_ms, (0.0, 0.0))
}

/// As [`project`], when only the device's part of each wait moves: every
/// wait keeps the `gap_ms` (low, high) it spends above the device
/// (queueing, scheduling, CPU), so waits at or below (device + gap) stay
/// and the rest move to (device + gap). The low device time goes with the
/// low gap (the optimistic end), the high with the high.
pub fn project_above_device(
    event: &str,
    dist: Option<&Distribution>,
    waits: f64,
    avg_ms: f64,
    device_ms: (f64, f64),
    gap_ms: (f64, f64),
) -> HistProjection {
    let (d_lo, d_hi) = (
        device_ms.0.min(device_ms.1).max(0.0),
        device_ms.0.max(device_ms.1).max(0.0),
    );
    let (g_lo, g_hi) = (
        gap_ms.0.min(gap_ms.1).max(0.0),
        gap_ms.0.max(gap_ms.1).max(0.0),
    );
    let (t_lo, t_hi) = (d_lo + g_lo, d_hi + g_hi);
    let target = if g_hi > 0.0 {
        format!(
            "the device's {}-{} ms plus the {}-{} ms each wait spends above the device",
            f2(d_lo),
            f2(d_hi),
            f2(g_lo),
            f2(g_hi)
        )
    } else {
        format!("the device's {}-{} ms", f2(t_lo), f2(t_hi))
    };
    if !(waits.is_finite() && avg_ms.is_finite() && waits > 0.0 && avg_ms > 0.0) {
        return HistProjection {
            saved_s_low: 0.0,
            saved_s_high: 0.0,
            shortenable_pct: 0.0,
            shortenable_s: 0.0,
            new_avg_ms_low: avg_ms.max(0.0),
            new_avg_ms_high: avg_ms.max(0.0),
            used_histogram: false,
            step: format!("`{event}`: no waits to project"),
        };
    }
    let buckets = dist.map(bucket_latencies).unwrap_or_default();
    let total_ms = waits * avg_ms;
    let finish =
        |saved_lo_ms: f64, saved_hi_ms: f64, pct: f64, used: bool, step: String| HistProjection {
            saved_s_low: saved_lo_ms / 1000.0,
            saved_s_high: saved_hi_ms / 1000.0,
            shortenable_pct: pct,
            shortenable_s: saved_hi_ms / 1000.0,
            new_avg_ms_low: (total_ms - saved_hi_ms) / waits,
            new_avg_ms_high: (total_ms - saved_lo_ms) / waits,
            used_histogram: used,
            step,
        };
    let Some(fitted) = fit(&buckets, avg_ms) else {
        let saved = |t: f64| waits * (avg_ms - t).max(0.0);
        let pct = if avg_ms > t_hi { 100.0 } else { 0.0 };
        return finish(
            saved(t_hi),
            saved(t_lo),
            pct,
            false,
            format!(
                "`{event}`: no wait histogram, so the average ({} ms) is replaced by {target}",
                f2(avg_ms),
            ),
        );
    };
    let saved = |t: f64| -> f64 {
        fitted
            .latencies
            .iter()
            .map(|(share, m)| waits * share * (m - t).max(0.0))
            .sum()
    };
    let pct: f64 = fitted
        .latencies
        .iter()
        .filter(|(_, m)| *m > t_hi)
        .map(|(share, _)| share * 100.0)
        .sum();
    let (lo, hi) = (saved(t_hi), saved(t_lo));
    let rows = dist.map_or(0, |d| d.rows.len());
    let slower = if g_hi > 0.0 {
        format!("{} ms ({target})", f2(t_hi))
    } else {
        format!("the device's {} ms", f2(t_hi))
    };
    let step = format!(
        "`{event}`: wait histogram ({rows} table row{} merged): {}% of waits are slower than {slower} and move to {}-{} ms; waits at or below it stay; bucket latencies {} (so the buckets add up to the {} ms average); saves {}-{} s of {} s",
        if rows == 1 { "" } else { "s" },
        f1(pct),
        f2(t_lo),
        f2(t_hi),
        fitted.how,
        f2(avg_ms),
        f2(lo / 1000.0),
        f2(hi / 1000.0),
        f2(total_ms / 1000.0),
    );
    finish(lo, hi, pct, true, step)
}

/// A bucket: share of waits (0-1), lower bound, upper bound (`None`: open).
type Bucket = (f64, f64, Option<f64>);

fn bucket_latencies(d: &Distribution) -> Vec<Bucket> {
    let total: f64 = d
        .buckets
        .iter()
        .map(|b| b.pct)
        .filter(|p| p.is_finite() && *p > 0.0)
        .sum();
    if total <= 0.0 {
        return Vec::new();
    }
    d.ranges()
        .into_iter()
        .filter(|(_, _, p)| p.is_finite() && *p > 0.0)
        .map(|(lo, hi, p)| (p / total, lo, hi))
        .collect()
}

struct Fitted {
    /// (share of waits, latency ms) per bucket.
    latencies: Vec<(f64, f64)>,
    how: &'static str,
}

/// Each closed bucket's waits at its midpoint; the open bucket at what the
/// average leaves for it (at least 1.5 x its lower bound). When the
/// midpoints alone exceed the average, every latency is scaled down to it.
fn fit(buckets: &[Bucket], avg_ms: f64) -> Option<Fitted> {
    if buckets.is_empty() {
        return None;
    }
    let closed: f64 = buckets
        .iter()
        .filter_map(|(s, lo, hi)| hi.map(|h| s * 0.5 * (lo + h)))
        .sum();
    let open_share: f64 = buckets
        .iter()
        .filter(|(_, _, hi)| hi.is_none())
        .map(|(s, _, _)| *s)
        .sum();
    let mut how = "at the bucket midpoints";
    let mut latencies: Vec<(f64, f64)> = buckets
        .iter()
        .map(|(s, lo, hi)| match hi {
            Some(h) => (*s, 0.5 * (lo + h)),
            None => {
                // The open bucket: what the average leaves for it, at least
                // 1.5 x its lower bound.
                let rest = (avg_ms - closed) / open_share.max(f64::MIN_POSITIVE);
                if rest >= 1.5 * lo {
                    how = "at the bucket midpoints, the open last bucket at what the average leaves for it";
                    (*s, rest)
                } else {
                    (*s, 1.5 * lo)
                }
            }
        })
        .collect();
    let implied: f64 = latencies.iter().map(|(s, m)| s * m).sum();
    if implied <= 0.0 {
        return None;
    }
    let k = avg_ms / implied;
    if (k - 1.0).abs() > 1e-9 {
        how = if k < 1.0 {
            "at the bucket midpoints scaled down"
        } else {
            "at the bucket midpoints scaled up"
        };
        for (_, m) in &mut latencies {
            *m *= k;
        }
    }
    Some(Fitted { latencies, how })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use awrflash_model::{HistogramBucket, SourceRef};

    fn dist(b: &[(f64, f64)]) -> Distribution {
        Distribution {
            event: "db file sequential read".into(),
            total_waits: None,
            buckets: b
                .iter()
                .map(|&(le_ms, pct)| HistogramBucket { le_ms, pct })
                .collect(),
            rows: vec![SourceRef::new("Wait Event Histogram", 1)],
            warnings: Vec::new(),
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn waits_at_or_below_the_device_time_stay_and_the_rest_move_to_it() {
        // 1,000 waits: 50% in (0,1] ms, 30% in (1,2], 20% in (2,4]; the
        // midpoints 0.5, 1.5, 3 ms give 1,300 ms = the 1.3 ms average.
        let d = dist(&[(1.0, 50.0), (2.0, 30.0), (4.0, 20.0), (f64::MAX, 0.0)]);
        let p = project("db file sequential read", Some(&d), 1000.0, 1.3, (0.2, 1.0));
        assert!(p.used_histogram);
        // Device at 1.0 ms: the (0,1] bucket stays; 300 x 0.5 + 200 x 2.0 =
        // 550 ms saved.
        assert!(close(p.saved_s_low, 0.55), "{p:?}");
        // Device at 0.2 ms: 500 x 0.3 + 300 x 1.3 + 200 x 2.8 = 1,100 ms.
        assert!(close(p.saved_s_high, 1.1), "{p:?}");
        assert!(close(p.shortenable_pct, 50.0));
        assert!(close(p.new_avg_ms_high, 0.75) && close(p.new_avg_ms_low, 0.2));
        assert!(
            p.step.contains("50.0% of waits") && p.step.contains("0.20-1.00 ms"),
            "{}",
            p.step
        );
        // The average alone would replace every wait: 1,000 x 0.3 ms = 0.3 s
        // at 1.0 ms, so the histogram here credits the slow tail more.
        let avg = project("db file sequential read", None, 1000.0, 1.3, (0.2, 1.0));
        assert!(!avg.used_histogram && close(avg.saved_s_low, 0.3) && close(avg.saved_s_high, 1.1));
        assert!(avg.step.contains("no wait histogram"), "{}", avg.step);
    }

    #[test]
    fn with_a_gap_above_the_device_waits_at_or_below_device_plus_gap_stay() {
        // The same 1,000 waits (midpoints 0.5, 1.5, 3 ms; average 1.3 ms);
        // the device serves 0.2-0.4 ms and each wait spends 0.5-0.6 ms
        // above it, so waits move to 0.7-1.0 ms.
        let d = dist(&[(1.0, 50.0), (2.0, 30.0), (4.0, 20.0), (f64::MAX, 0.0)]);
        let p = project_above_device(
            "db file sequential read",
            Some(&d),
            1000.0,
            1.3,
            (0.2, 0.4),
            (0.5, 0.6),
        );
        assert!(p.used_histogram);
        // At 0.4 + 0.6 = 1.0 ms: 300 x 0.5 + 200 x 2.0 = 550 ms saved.
        assert!(close(p.saved_s_low, 0.55), "{p:?}");
        // At 0.2 + 0.5 = 0.7 ms: the 0.5 ms bucket stays; 300 x 0.8 +
        // 200 x 2.3 = 700 ms.
        assert!(close(p.saved_s_high, 0.7), "{p:?}");
        assert!(close(p.new_avg_ms_low, 0.6) && close(p.new_avg_ms_high, 0.75));
        assert!(
            p.step
                .contains("slower than 1.00 ms (the device's 0.20-0.40 ms plus the 0.50-0.60 ms")
                && p.step.contains("move to 0.70-1.00 ms"),
            "{}",
            p.step
        );
        // Without the gap the same device saves 0.9-1.1 s: the gap costs
        // 0.35-0.4 s here.
        let whole = project("db file sequential read", Some(&d), 1000.0, 1.3, (0.2, 0.4));
        assert!(close(whole.saved_s_low, 0.9) && close(whole.saved_s_high, 1.1));
        // Without a histogram: the average 1.3 ms goes to 0.7-1.0 ms.
        let avg = project_above_device("x", None, 1000.0, 1.3, (0.2, 0.4), (0.5, 0.6));
        assert!(
            close(avg.saved_s_low, 0.3) && close(avg.saved_s_high, 0.6),
            "{avg:?}"
        );
        assert!(
            avg.step
                .contains("plus the 0.50-0.60 ms each wait spends above the device")
        );
    }

    #[test]
    fn the_open_bucket_takes_what_the_average_leaves() {
        // 100 waits, average 1 ms = 100 ms: 90 in (0,1] at 0.5 ms = 45 ms;
        // the 10 above 1 ms carry the other 55 ms: 5.5 ms each.
        let d = dist(&[(1.0, 90.0), (f64::MAX, 10.0)]);
        let p = project("x", Some(&d), 100.0, 1.0, (0.2, 0.5));
        // At 0.5 ms: 10 x 5.0 = 50 ms; at 0.2 ms: 90 x 0.3 + 10 x 5.3 = 80 ms.
        assert!(close(p.saved_s_low, 0.05), "{p:?}");
        assert!(close(p.saved_s_high, 0.08), "{p:?}");
        assert!(close(p.shortenable_pct, 10.0));
        assert!(p.step.contains("what the average leaves"), "{}", p.step);
    }

    #[test]
    fn midpoints_above_the_average_are_scaled_to_it() {
        // Midpoints 0.5 and 1.5 ms, half each: 1.0 ms, but the report says
        // 0.5 ms: scaled by 0.5 to 0.25 and 0.75 ms.
        let d = dist(&[(1.0, 50.0), (2.0, 50.0)]);
        let p = project("x", Some(&d), 1000.0, 0.5, (0.3, 0.3));
        // Only the 0.75 ms bucket gains: 500 x 0.45 = 225 ms.
        assert!(
            close(p.saved_s_low, 0.225) && close(p.saved_s_high, 0.225),
            "{p:?}"
        );
        assert!(p.step.contains("scaled down"), "{}", p.step);
    }

    #[test]
    fn a_device_slower_than_every_wait_saves_nothing_and_no_waits_is_not_an_error() {
        let d = dist(&[(0.5, 100.0)]);
        let p = project("x", Some(&d), 1000.0, 0.25, (0.4, 0.6));
        assert!(close(p.saved_s_low, 0.0) && close(p.saved_s_high, 0.0));
        assert!(close(p.new_avg_ms_low, 0.25));
        let none = project("x", Some(&d), 0.0, 0.0, (0.4, 0.6));
        assert!(close(none.saved_s_high, 0.0) && none.step.contains("no waits"));
        let nan = project("x", None, f64::NAN, 1.0, (0.4, 0.6));
        assert!(close(nan.saved_s_high, 0.0));
    }
}
