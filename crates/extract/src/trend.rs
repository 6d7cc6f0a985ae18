//! Trend statistics over the report intervals of one database: the peak
//! (and which interval it was), the 95th percentile, the plain mean and the
//! whole-window figure (elapsed-weighted mean, i.e. what one report over the
//! whole window would print).

use polars::prelude::*;

use crate::metrics::SnapshotMetrics;

/// One metric's figures over a series of report intervals.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricSummary {
    /// Column name in the `snapshots` table, e.g. `read_iops`.
    pub metric: &'static str,
    pub unit: &'static str,
    /// Intervals that have a value for this metric.
    pub snapshots: usize,
    /// Elapsed-weighted mean over the whole window.
    pub whole_window: Option<f64>,
    pub mean: Option<f64>,
    /// 95th percentile across intervals (linear interpolation).
    pub p95: Option<f64>,
    pub peak: Option<f64>,
    /// Index (in the given order) of the interval with the peak.
    pub peak_index: Option<usize>,
}

type Getter = fn(&SnapshotMetrics) -> Option<f64>;

/// The metrics the trend covers, with their units.
pub const TREND_METRICS: &[(&str, &str, Getter)] = &[
    ("db_time_per_s", "s/s", SnapshotMetrics::db_time_per_s),
    ("db_cpu_per_s", "s/s", SnapshotMetrics::db_cpu_per_s),
    ("read_iops", "req/s", |m| m.read_iops),
    ("write_iops", "req/s", |m| m.write_iops),
    ("total_iops", "req/s", SnapshotMetrics::total_iops),
    ("read_mb_s", "MB/s", |m| m.read_mb_s),
    ("write_mb_s", "MB/s", |m| m.write_mb_s),
    ("total_mb_s", "MB/s", SnapshotMetrics::total_mb_s),
    ("redo_mb_s", "MB/s", |m| m.redo_mb_s),
    ("db_file_sequential_read_ms", "ms", |m| {
        m.db_file_sequential_read_ms
    }),
    ("log_file_sync_ms", "ms", |m| m.log_file_sync_ms),
    ("log_file_parallel_write_ms", "ms", |m| {
        m.log_file_parallel_write_ms
    }),
    ("flash_cache_hits_s", "hits/s", |m| m.flash_cache_hits_s),
];

/// A DataFrame of the trend metrics, one row per interval, plus `elapsed_s`.
pub fn trend_frame(points: &[SnapshotMetrics]) -> PolarsResult<DataFrame> {
    let mut cols = vec![Column::new(
        "elapsed_s".into(),
        points.iter().map(|p| p.elapsed_s).collect::<Vec<_>>(),
    )];
    for (name, _, get) in TREND_METRICS {
        cols.push(Column::new(
            (*name).into(),
            points.iter().map(get).collect::<Vec<_>>(),
        ));
    }
    DataFrame::new(points.len(), cols)
}

/// Peak, p95, mean and whole-window figures of every trend metric.
pub fn summarize(points: &[SnapshotMetrics]) -> PolarsResult<Vec<MetricSummary>> {
    let df = trend_frame(points)?;
    let elapsed = df.column("elapsed_s")?.f64()?.clone();
    let mut out = Vec::with_capacity(TREND_METRICS.len());
    for (name, unit, _) in TREND_METRICS {
        let ca = df.column(name)?.f64()?;
        out.push(summarize_one(name, unit, ca, &elapsed)?);
    }
    Ok(out)
}

fn summarize_one(
    metric: &'static str,
    unit: &'static str,
    ca: &Float64Chunked,
    elapsed: &Float64Chunked,
) -> PolarsResult<MetricSummary> {
    let peak = ca.max();
    let peak_index = peak.and_then(|p| ca.iter().position(|v| v == Some(p)));
    // Weight only the intervals that have both the value and an elapsed time.
    let weighted: Float64Chunked = ca * elapsed;
    let weight_sum: f64 = ca
        .iter()
        .zip(elapsed.iter())
        .filter_map(|(v, e)| v.and(e))
        .sum();
    let whole_window = match weighted.sum() {
        Some(w) if weight_sum > 0.0 && weighted.null_count() < weighted.len() => {
            Some(w / weight_sum)
        }
        _ => None,
    };
    Ok(MetricSummary {
        metric,
        unit,
        snapshots: ca.len() - ca.null_count(),
        whole_window,
        mean: ca.mean(),
        p95: ca.quantile(0.95, QuantileMethod::Linear)?,
        peak,
        peak_index,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(elapsed: f64, read_iops: Option<f64>) -> SnapshotMetrics {
        SnapshotMetrics {
            elapsed_s: Some(elapsed),
            read_iops,
            ..Default::default()
        }
    }

    fn by_name<'a>(s: &'a [MetricSummary], name: &str) -> &'a MetricSummary {
        s.iter().find(|m| m.metric == name).unwrap()
    }

    #[test]
    fn summary_names_the_peak_interval_and_weights_the_window_by_elapsed_time() {
        // 1..=20 IOPS in one-hour intervals, with one two-hour interval at 100.
        let mut points: Vec<_> = (1..=20)
            .map(|i| point(3600.0, Some(f64::from(i))))
            .collect();
        points.insert(5, point(7200.0, Some(100.0)));
        let s = summarize(&points).unwrap();
        let r = by_name(&s, "read_iops");
        assert_eq!(r.snapshots, 21);
        assert_eq!(r.peak, Some(100.0));
        assert_eq!(r.peak_index, Some(5));
        let plain_mean = (210.0 + 100.0) / 21.0;
        assert!((r.mean.unwrap() - plain_mean).abs() < 1e-9);
        let weighted = (210.0 * 3600.0 + 100.0 * 7200.0) / (20.0 * 3600.0 + 7200.0);
        assert!((r.whole_window.unwrap() - weighted).abs() < 1e-9);
        // Linear p95 of 21 values: position 0.95 * 20 = 19 -> the 20th smallest (20).
        assert!((r.p95.unwrap() - 20.0).abs() < 1e-9);
    }

    #[test]
    fn missing_values_are_left_out_not_counted_as_zero() {
        let points = vec![point(3600.0, Some(10.0)), point(3600.0, None)];
        let s = summarize(&points).unwrap();
        let r = by_name(&s, "read_iops");
        assert_eq!(r.snapshots, 1);
        assert_eq!(r.mean, Some(10.0));
        assert_eq!(r.whole_window, Some(10.0));
        let w = by_name(&s, "write_iops");
        assert_eq!(w.snapshots, 0);
        assert_eq!(w.peak, None);
        assert_eq!(w.whole_window, None);
    }

    #[test]
    fn an_empty_series_has_no_figures() {
        let s = summarize(&[]).unwrap();
        assert_eq!(s.len(), TREND_METRICS.len());
        assert!(s.iter().all(|m| m.peak.is_none() && m.snapshots == 0));
    }
}
