//! Per-report interval metrics.
//!
//! One [`SnapshotMetrics`] per report interval: the figures a trend needs
//! (DB time, CPU, IOPS, MB/s, redo, key wait averages, flash cache hits),
//! read from the facts layer ([`awrflash_facts`]), which owns the order in
//! which report sections are tried.

use awrflash_facts::{IntervalFacts, Num};
use awrflash_model::{DbReport, ReportKind};

/// The figures of one report interval. Rates are per second of elapsed
/// time; `None` where the report does not print what they come from.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SnapshotMetrics {
    pub path: String,
    pub format: String,
    pub kind: Option<String>,
    pub db_name: Option<String>,
    pub dbid: Option<u64>,
    pub instance: Option<String>,
    pub instance_number: Option<u32>,
    pub host: Option<String>,
    pub release: Option<String>,
    pub begin_snap: Option<u64>,
    pub end_snap: Option<u64>,
    pub begin_time: Option<String>,
    pub end_time: Option<String>,
    pub elapsed_s: Option<f64>,
    pub db_time_s: Option<f64>,
    pub db_cpu_s: Option<f64>,
    pub read_iops: Option<f64>,
    pub write_iops: Option<f64>,
    pub read_mb_s: Option<f64>,
    pub write_mb_s: Option<f64>,
    pub redo_mb_s: Option<f64>,
    pub transactions_s: Option<f64>,
    pub db_file_sequential_read_ms: Option<f64>,
    pub db_file_scattered_read_ms: Option<f64>,
    pub direct_path_read_ms: Option<f64>,
    pub log_file_sync_ms: Option<f64>,
    pub log_file_parallel_write_ms: Option<f64>,
    pub flash_cache_hits_s: Option<f64>,
    pub cell_flash_cache_read_hits_s: Option<f64>,
    pub optimized_read_requests_s: Option<f64>,
}

impl SnapshotMetrics {
    /// Average active sessions: DB time per second of elapsed time.
    pub fn db_time_per_s(&self) -> Option<f64> {
        per_elapsed(self.db_time_s, self.elapsed_s)
    }

    pub fn db_cpu_per_s(&self) -> Option<f64> {
        per_elapsed(self.db_cpu_s, self.elapsed_s)
    }

    pub fn total_iops(&self) -> Option<f64> {
        sum_some(self.read_iops, self.write_iops)
    }

    pub fn total_mb_s(&self) -> Option<f64> {
        sum_some(self.read_mb_s, self.write_mb_s)
    }
}

fn per_elapsed(v: Option<f64>, elapsed: Option<f64>) -> Option<f64> {
    match (v, elapsed) {
        (Some(v), Some(e)) if e > 0.0 => Some(v / e),
        _ => None,
    }
}

fn sum_some(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
    }
}

/// Extracts the interval metrics of one report: the advisor's facts
/// ([`IntervalFacts`]), read as plain numbers, so the trend, the tables and
/// the advisor's series print one derivation of each figure.
pub fn snapshot_metrics(r: &DbReport) -> SnapshotMetrics {
    from_facts(&IntervalFacts::new(r))
}

/// The interval metrics of facts already derived.
pub fn from_facts(f: &IntervalFacts) -> SnapshotMetrics {
    let r = f.report;
    let h = &r.header;
    let v = |n: &Option<Num>| n.as_ref().map(|n| n.value);
    let rate = |name: &str| f.stat_rate(name).map(|n| n.value);
    let avg = |name: &str| f.event_avg_ms(name).map(|n| n.value);
    SnapshotMetrics {
        path: r.source.path.clone(),
        format: r.source.format.as_str().to_string(),
        kind: r.source.kind.map(|k| {
            match k {
                ReportKind::Instance => "instance",
                ReportKind::RacGlobal => "rac-global",
                ReportKind::Pdb => "pdb",
            }
            .to_string()
        }),
        db_name: h.db_name.clone(),
        dbid: h.dbid,
        instance: h.instance.clone(),
        instance_number: h.instance_number,
        host: h.host.clone(),
        release: h.release.clone(),
        begin_snap: h.begin_snap,
        end_snap: h.end_snap,
        begin_time: h.begin_time.clone(),
        end_time: h.end_time.clone(),
        elapsed_s: h.elapsed_s,
        db_time_s: v(&f.db_time_s),
        db_cpu_s: v(&f.db_cpu_s),
        read_iops: v(&f.read_iops),
        write_iops: v(&f.write_iops),
        read_mb_s: v(&f.read_mb_s),
        write_mb_s: v(&f.write_mb_s),
        redo_mb_s: f.redo_mb_s().map(|n| n.value),
        transactions_s: v(&f.txn_per_s),
        db_file_sequential_read_ms: avg("db file sequential read"),
        db_file_scattered_read_ms: avg("db file scattered read"),
        direct_path_read_ms: avg("direct path read"),
        log_file_sync_ms: avg("log file sync"),
        log_file_parallel_write_ms: avg("log file parallel write"),
        flash_cache_hits_s: rate("physical read flash cache hits"),
        cell_flash_cache_read_hits_s: rate("cell flash cache read hits"),
        optimized_read_requests_s: rate("physical read requests optimized"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_facts::MB;
    use awrflash_model::{ActivityStat, Header, LoadProfileRow, Source, WaitEvent};

    fn lp(name: &str, per_second: f64) -> LoadProfileRow {
        LoadProfileRow {
            name: name.into(),
            per_second: Some(per_second),
            ..Default::default()
        }
    }

    fn report() -> DbReport {
        DbReport {
            source: Source {
                path: "a.html".into(),
                kind: Some(ReportKind::Instance),
                ..Default::default()
            },
            header: Header {
                db_name: Some("PROD".into()),
                dbid: Some(42),
                instance_number: Some(2),
                elapsed_s: Some(3600.0),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    #[test]
    fn metrics_come_from_the_load_profile_first() {
        let mut r = report();
        r.load_profile = vec![
            lp("DB Time(s)", 4.0),
            lp("DB CPU(s)", 1.5),
            lp("Redo size (bytes)", 2.0 * MB),
            lp("Read IO requests", 900.0),
            lp("Write IO requests", 100.0),
            lp("Read IO (MB)", 30.0),
            lp("Write IO (MB)", 5.0),
        ];
        r.activity_stats = vec![ActivityStat {
            name: "physical read total IO requests".into(),
            per_second: Some(1.0),
            ..Default::default()
        }];
        let m = snapshot_metrics(&r);
        assert_eq!(m.db_time_s, Some(4.0 * 3600.0));
        assert_eq!(m.db_time_per_s(), Some(4.0));
        assert_eq!(m.db_cpu_s, Some(1.5 * 3600.0));
        assert_eq!(m.read_iops, Some(900.0));
        assert_eq!(m.total_iops(), Some(1000.0));
        assert_eq!(m.total_mb_s(), Some(35.0));
        assert_eq!(m.redo_mb_s, Some(2.0));
    }

    #[test]
    fn metrics_fall_back_to_activity_stats_and_computed_averages() {
        let mut r = report();
        r.activity_stats = vec![
            ActivityStat {
                name: "physical read total IO requests".into(),
                total: Some(7200.0),
                ..Default::default()
            },
            ActivityStat {
                name: "redo size".into(),
                per_second: Some(MB),
                ..Default::default()
            },
        ];
        r.wait_events.background = vec![WaitEvent {
            name: "log file parallel write".into(),
            waits: Some(1000.0),
            time_s: Some(2.0),
            ..Default::default()
        }];
        let m = snapshot_metrics(&r);
        assert_eq!(m.read_iops, Some(2.0));
        assert_eq!(m.write_iops, None);
        assert_eq!(m.redo_mb_s, Some(1.0));
        assert_eq!(m.log_file_parallel_write_ms, Some(2.0));
        assert_eq!(m.db_time_s, None);
    }

    #[test]
    fn exact_totals_and_the_io_profile_come_before_rounded_load_profile_rates() {
        let mut r = report();
        r.header.db_time_s = Some(14000.0);
        r.load_profile = vec![lp("DB CPU(s)", 1.2), lp("Read IO requests", 744.9)];
        r.time_model = vec![awrflash_model::TimeModelRow {
            name: "DB CPU".into(),
            time_s: Some(4441.5),
            ..Default::default()
        }];
        r.io_profile = vec![awrflash_model::IoProfileRow {
            name: "Total Requests".into(),
            read_per_s: Some(832.6),
            write_per_s: Some(64.0),
            ..Default::default()
        }];
        let m = snapshot_metrics(&r);
        assert_eq!(m.db_time_s, Some(14000.0));
        assert_eq!(m.db_cpu_s, Some(4441.5));
        assert_eq!(m.read_iops, Some(832.6));
        assert_eq!(m.write_iops, Some(64.0));
    }
}
