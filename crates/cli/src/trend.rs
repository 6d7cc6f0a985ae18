//! The trend block of a multi-report analysis in the text and Markdown
//! outputs: per metric, the whole-window figure, p95 and the peak with the
//! interval it happened in.

use std::fmt::Write as _;

use anyhow::Result;
use awrflash_extract::{MetricSummary, SnapshotMetrics, summarize};

fn fmt_num(v: Option<f64>) -> String {
    match v {
        None => "-".into(),
        Some(v) if v.abs() >= 100.0 => format!("{v:.0}"),
        Some(v) if v.abs() >= 10.0 => format!("{v:.1}"),
        Some(v) => format!("{v:.2}"),
    }
}

fn peak_at(s: &MetricSummary, points: &[SnapshotMetrics]) -> String {
    let Some(p) = s.peak_index.and_then(|i| points.get(i)) else {
        return "-".into();
    };
    match (&p.begin_time, p.begin_snap, p.end_snap) {
        (Some(t), _, _) => t.clone(),
        (None, Some(b), Some(e)) => format!("snap {b}-{e}"),
        _ => p.path.clone(),
    }
}

fn window(points: &[SnapshotMetrics]) -> String {
    let first = points.first().and_then(|p| p.begin_time.clone());
    let last = points.last().and_then(|p| p.end_time.clone());
    match (first, last) {
        (Some(a), Some(b)) => format!(", {a} to {b}"),
        _ => String::new(),
    }
}

/// Metrics that have a value in at least one interval.
fn rows(points: &[SnapshotMetrics]) -> Result<Vec<MetricSummary>> {
    Ok(summarize(points)?
        .into_iter()
        .filter(|s| s.snapshots > 0)
        .collect())
}

pub fn text(points: &[SnapshotMetrics]) -> Result<String> {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\nTrend over {} report intervals{}",
        points.len(),
        window(points)
    );
    let _ = writeln!(
        s,
        "  {:<28} {:>7} {:>12} {:>10} {:>10}  peak interval",
        "metric", "unit", "whole window", "p95", "peak"
    );
    for m in rows(points)? {
        let _ = writeln!(
            s,
            "  {:<28} {:>7} {:>12} {:>10} {:>10}  {}",
            m.metric,
            m.unit,
            fmt_num(m.whole_window),
            fmt_num(m.p95),
            fmt_num(m.peak),
            peak_at(&m, points)
        );
    }
    Ok(s)
}

pub fn markdown(points: &[SnapshotMetrics]) -> Result<String> {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "\n## Trend over {} report intervals{}\n",
        points.len(),
        window(points)
    );
    let _ = writeln!(
        s,
        "| metric | unit | whole window | p95 | peak | peak interval |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---|");
    for m in rows(points)? {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            m.metric,
            m.unit,
            fmt_num(m.whole_window),
            fmt_num(m.p95),
            fmt_num(m.peak),
            peak_at(&m, points).replace('|', "\\|")
        );
    }
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn point(t: &str, iops: f64) -> SnapshotMetrics {
        SnapshotMetrics {
            begin_time: Some(t.into()),
            end_time: Some(format!("{t}+1h")),
            elapsed_s: Some(3600.0),
            read_iops: Some(iops),
            ..Default::default()
        }
    }

    #[test]
    fn the_trend_names_the_peak_interval_and_skips_empty_metrics() {
        let pts = [
            point("2024-01-01T10:00", 100.0),
            point("2024-01-01T11:00", 900.0),
        ];
        let t = text(&pts).unwrap();
        assert!(
            t.contains("Trend over 2 report intervals, 2024-01-01T10:00 to 2024-01-01T11:00+1h")
        );
        let line = t
            .lines()
            .find(|l| l.trim_start().starts_with("read_iops"))
            .unwrap();
        assert!(line.contains("500"), "{line}");
        assert!(line.ends_with("2024-01-01T11:00"), "{line}");
        assert!(!t.contains("write_iops"));
        let md = markdown(&pts).unwrap();
        assert!(md.contains("| read_iops | req/s | 500 |"), "{md}");
    }
}
