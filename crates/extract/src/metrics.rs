//! Per-report interval metrics.
//!
//! One [`SnapshotMetrics`] per report interval: the figures a trend needs
//! (DB time, CPU, IOPS, MB/s, redo, key wait averages, flash cache hits),
//! taken from the Load Profile first and from Instance Activity Stats or
//! the Time Model where a release does not print the Load Profile row.

use awrflash_model::{DbReport, ReportKind, SnapshotPoint};

const MB: f64 = 1024.0 * 1024.0;

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

    /// The point the advisor's `Analysis.series` holds (absent figures as 0).
    pub fn to_point(&self) -> SnapshotPoint {
        SnapshotPoint {
            begin_time: self.begin_time.clone(),
            end_time: self.end_time.clone(),
            begin_snap: self.begin_snap,
            end_snap: self.end_snap,
            elapsed_s: self.elapsed_s.unwrap_or(0.0),
            db_time_s: self.db_time_s.unwrap_or(0.0),
            db_cpu_s: self.db_cpu_s.unwrap_or(0.0),
            read_iops: self.read_iops.unwrap_or(0.0),
            write_iops: self.write_iops.unwrap_or(0.0),
            read_mb_s: self.read_mb_s.unwrap_or(0.0),
            write_mb_s: self.write_mb_s.unwrap_or(0.0),
            redo_mb_s: self.redo_mb_s.unwrap_or(0.0),
            path: self.path.clone(),
        }
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

/// Extracts the interval metrics of one report. The sources are tried in
/// the advisor's order (exact totals before the Load Profile's rounded
/// per-second figures; the 12c+ IO Profile, which counts every file type,
/// before the Load Profile's database-file requests), so the trend and the
/// advisor's series agree.
pub fn snapshot_metrics(r: &DbReport) -> SnapshotMetrics {
    let h = &r.header;
    let elapsed = h.elapsed_s.filter(|e| *e > 0.0);
    let lp = |name: &str| r.load_profile_row(name).and_then(|row| row.per_second);
    let stat_s = |name: &str| {
        r.activity_stat(name).and_then(|s| {
            s.per_second
                .or_else(|| s.total.zip(elapsed).map(|(t, e)| t / e))
        })
    };
    let io_profile = |name: &str| {
        r.io_profile
            .iter()
            .find(|row| row.name.eq_ignore_ascii_case(name))
    };
    let io_mb = io_profile("Total (MB)");
    let io_req = io_profile("Total Requests");
    let block_mb = r.cache_sizes.std_block_size.map(|b| b as f64 / MB);
    let time_model = |name: &str| r.time_model_row(name).and_then(|t| t.time_s);
    let db_time_s = h
        .db_time_s
        .or_else(|| time_model("DB time"))
        .or_else(|| lp("DB Time").zip(elapsed).map(|(v, e)| v * e));
    let db_cpu_s = time_model("DB CPU")
        .or_else(|| {
            ["DB CPU", "CPU time"]
                .iter()
                .find_map(|n| r.top_event(n).and_then(|e| e.time_s))
        })
        .or_else(|| lp("DB CPU").zip(elapsed).map(|(v, e)| v * e));
    let read_iops = io_req
        .and_then(|row| row.read_per_s)
        .or_else(|| lp("Read IO requests"))
        .or_else(|| stat_s("physical read total IO requests"));
    let write_iops = io_req
        .and_then(|row| row.write_per_s)
        .or_else(|| lp("Write IO requests"))
        .or_else(|| stat_s("physical write total IO requests"));
    let read_mb_s = io_mb
        .and_then(|row| row.read_per_s)
        .or_else(|| lp("Read IO"))
        .or_else(|| {
            lp("Physical reads")
                .or_else(|| lp("Physical read"))
                .zip(block_mb)
                .map(|(v, b)| v * b)
        })
        .or_else(|| stat_s("physical read total bytes").map(|b| b / MB));
    let write_mb_s = io_mb
        .and_then(|row| row.write_per_s)
        .or_else(|| lp("Write IO"))
        .or_else(|| {
            lp("Physical writes")
                .or_else(|| lp("Physical write"))
                .zip(block_mb)
                .map(|(v, b)| v * b)
        })
        .or_else(|| stat_s("physical write total bytes").map(|b| b / MB));
    let redo_mb_s = stat_s("redo size")
        .or_else(|| lp("Redo size"))
        .map(|b| b / MB);
    let transactions_s = lp("Transactions");
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
        db_time_s,
        db_cpu_s,
        read_iops,
        write_iops,
        read_mb_s,
        write_mb_s,
        redo_mb_s,
        transactions_s,
        db_file_sequential_read_ms: event_avg_ms(r, "db file sequential read"),
        db_file_scattered_read_ms: event_avg_ms(r, "db file scattered read"),
        direct_path_read_ms: event_avg_ms(r, "direct path read"),
        log_file_sync_ms: event_avg_ms(r, "log file sync"),
        log_file_parallel_write_ms: event_avg_ms(r, "log file parallel write"),
        flash_cache_hits_s: stat_s("physical read flash cache hits"),
        cell_flash_cache_read_hits_s: stat_s("cell flash cache read hits"),
        optimized_read_requests_s: stat_s("physical read requests optimized"),
    }
}

/// Average wait of an event: foreground table, then background, then the
/// top events; computed from time and waits where the average is not printed.
fn event_avg_ms(r: &DbReport, name: &str) -> Option<f64> {
    let from = |avg: Option<f64>, time_s: Option<f64>, waits: Option<f64>| {
        avg.or_else(|| match (time_s, waits) {
            (Some(t), Some(w)) if w > 0.0 => Some(t * 1000.0 / w),
            _ => None,
        })
    };
    r.foreground_event(name)
        .and_then(|e| from(e.avg_ms, e.time_s, e.waits))
        .or_else(|| {
            r.background_event(name)
                .and_then(|e| from(e.avg_ms, e.time_s, e.waits))
        })
        .or_else(|| {
            r.top_event(name)
                .and_then(|e| from(e.avg_ms, e.time_s, e.waits))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
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
