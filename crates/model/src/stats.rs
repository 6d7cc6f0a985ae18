//! The one place a series of figures is summarised: one p95, one peak, one
//! whole-window mean. Every crate that prints or reasons about "the p95" or
//! "the peak interval" calls these, so the same figure reads the same in the
//! verdict, the findings, the trend table, the extract and the charts.
//!
//! Missing values (`None`, NaN, infinities) are left out, never counted as
//! zero.

/// The 95th percentile by the nearest-rank method: the smallest observed
/// value with at least 95% of the values at or below it (rank
/// `ceil(0.95 * n)`). It is always a value that was measured, which a DBA can
/// find in one of the inputs; with fewer than 20 values it is the maximum.
pub fn p95(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    percentile(values, 95.0)
}

/// The nearest-rank percentile `pct` (0-100] of the finite values.
pub fn percentile(values: impl IntoIterator<Item = f64>, pct: f64) -> Option<f64> {
    let mut v: Vec<f64> = values.into_iter().filter(|x| x.is_finite()).collect();
    if v.is_empty() || !(pct > 0.0 && pct <= 100.0) {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let rank = ((pct / 100.0) * v.len() as f64).ceil() as usize;
    v.get(rank.clamp(1, v.len()) - 1).copied()
}

/// Index of the largest finite value; the first on ties. `None` when no
/// value is finite.
pub fn peak_index(values: impl IntoIterator<Item = Option<f64>>) -> Option<usize> {
    let mut best: Option<(usize, f64)> = None;
    for (i, v) in values.into_iter().enumerate() {
        let Some(v) = v.filter(|x| x.is_finite()) else {
            continue;
        };
        if best.is_none_or(|(_, b)| v > b) {
            best = Some((i, v));
        }
    }
    best.map(|(i, _)| i)
}

/// The plain mean of the finite values.
pub fn mean(values: impl IntoIterator<Item = f64>) -> Option<f64> {
    let (n, s) = values
        .into_iter()
        .filter(|x| x.is_finite())
        .fold((0usize, 0.0), |(n, s), x| (n + 1, s + x));
    (n > 0).then(|| s / n as f64)
}

/// The whole-window figure: the mean of per-interval rates weighted by each
/// interval's length, i.e. what one report over the whole window would print.
/// Pairs are `(value, weight)`; a pair with a missing value or a weight that
/// is not positive is left out.
pub fn window_mean(pairs: impl IntoIterator<Item = (Option<f64>, f64)>) -> Option<f64> {
    let (w, s) = pairs
        .into_iter()
        .filter_map(|(v, w)| {
            v.filter(|x| x.is_finite())
                .filter(|_| w.is_finite() && w > 0.0)
                .map(|v| (v, w))
        })
        .fold((0.0, 0.0), |(ws, s), (v, w)| (ws + w, s + v * w));
    (w > 0.0).then(|| s / w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p95_is_a_measured_value_by_nearest_rank() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        // ceil(0.95 * 20) = 19th smallest.
        assert_eq!(p95(v.clone()), Some(19.0));
        let v21: Vec<f64> = (1..=21).map(f64::from).collect();
        // ceil(0.95 * 21) = 20th smallest.
        assert_eq!(p95(v21), Some(20.0));
        // Fewer than 20 values: the maximum.
        assert_eq!(p95([3.0, 1.0, 2.0]), Some(3.0));
        assert_eq!(p95([]), None);
        assert_eq!(p95([f64::NAN]), None);
    }

    #[test]
    fn peak_is_the_first_largest_value_and_skips_gaps() {
        assert_eq!(peak_index([Some(1.0), None, Some(5.0), Some(5.0)]), Some(2));
        assert_eq!(peak_index([None, Some(f64::NAN)]), None);
    }

    #[test]
    fn window_mean_weights_by_interval_length_and_skips_missing_values() {
        let m = window_mean([(Some(10.0), 3600.0), (Some(100.0), 7200.0), (None, 3600.0)]);
        let want = (10.0 * 3600.0 + 100.0 * 7200.0) / 10800.0;
        assert!((m.unwrap_or(0.0) - want).abs() < 1e-9);
        assert_eq!(window_mean([(Some(1.0), 0.0)]), None);
        assert_eq!(mean([1.0, 2.0, f64::INFINITY]), Some(1.5));
    }
}
