//! Tidy tables from parsed documents: one row per observation, one column
//! per variable, the same columns whatever the input release (absent
//! figures are null). The schema is documented in README.md (a test reads
//! it back and compares).

use std::collections::BTreeMap;

use awrflash_model::{DbKey, DbReport, Document, FileIoRow, SourceRef};
use polars::prelude::*;

use crate::metrics::{SnapshotMetrics, snapshot_metrics};
use awrflash_facts::IntervalFacts;

/// Table names, in the order they are written.
pub const TABLE_NAMES: &[&str] = &[
    "snapshots",
    "load_profile",
    "wait_events",
    "activity_stats",
    "segments",
    "tablespace_io",
    "file_io",
    "iostat_samples",
    "trend_summary",
];

/// One named table.
#[derive(Debug, Clone)]
pub struct Table {
    pub name: &'static str,
    pub frame: DataFrame,
}

/// Builds every table from the documents (reports in the order given).
pub fn build_tables(docs: &[Document]) -> PolarsResult<Vec<Table>> {
    let reports: Vec<&DbReport> = docs
        .iter()
        .filter_map(|d| match d {
            Document::Report(r) => Some(r.as_ref()),
            _ => None,
        })
        .collect();
    let metrics: Vec<SnapshotMetrics> = reports.iter().map(|r| snapshot_metrics(r)).collect();
    Ok(vec![
        Table {
            name: "snapshots",
            frame: snapshots(&metrics)?,
        },
        Table {
            name: "load_profile",
            frame: load_profile(&reports)?,
        },
        Table {
            name: "wait_events",
            frame: wait_events(&reports)?,
        },
        Table {
            name: "activity_stats",
            frame: activity_stats(&reports)?,
        },
        Table {
            name: "segments",
            frame: segments(&reports)?,
        },
        Table {
            name: "tablespace_io",
            frame: file_io_table(&reports, |r| &r.tablespace_io)?,
        },
        Table {
            name: "file_io",
            frame: file_io_table(&reports, |r| &r.file_io)?,
        },
        Table {
            name: "iostat_samples",
            frame: iostat_samples(docs)?,
        },
        Table {
            name: "trend_summary",
            frame: trend_summary(&reports, &metrics)?,
        },
    ])
}

// Column helpers: one closure per column over borrowed rows.

fn f64c<'a, R>(rows: &'a [R], name: &str, f: impl Fn(&'a R) -> Option<f64>) -> Column {
    Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
}

fn u64c<'a, R>(rows: &'a [R], name: &str, f: impl Fn(&'a R) -> Option<u64>) -> Column {
    Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
}

fn u32c<'a, R>(rows: &'a [R], name: &str, f: impl Fn(&'a R) -> Option<u32>) -> Column {
    Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
}

fn boolc<'a, R>(rows: &'a [R], name: &str, f: impl Fn(&'a R) -> bool) -> Column {
    Column::new(name.into(), rows.iter().map(f).collect::<Vec<_>>())
}

fn strc<'a, R: 'a>(rows: &'a [R], name: &str, f: impl Fn(&'a R) -> Option<&'a str>) -> Column {
    Column::new(
        name.into(),
        rows.iter().map(f).collect::<Vec<Option<&str>>>(),
    )
}

fn frame(height: usize, cols: Vec<Column>) -> PolarsResult<DataFrame> {
    DataFrame::new(height, cols)
}

/// The columns every per-report table starts with, so that tables join on
/// `path` (or on `dbid, instance_number, begin_snap, end_snap`).
fn key_cols<'a, R: 'a>(
    rows: &'a [R],
    report: impl Fn(&'a R) -> &'a DbReport + Copy,
) -> Vec<Column> {
    vec![
        strc(rows, "path", move |r| Some(report(r).source.path.as_str())),
        strc(rows, "db_name", move |r| {
            report(r).header.db_name.as_deref()
        }),
        u64c(rows, "dbid", move |r| report(r).header.dbid),
        u32c(rows, "instance_number", move |r| {
            report(r).header.instance_number
        }),
        u64c(rows, "begin_snap", move |r| report(r).header.begin_snap),
        u64c(rows, "end_snap", move |r| report(r).header.end_snap),
    ]
}

fn src_cols<'a, R: 'a>(rows: &'a [R], src: impl Fn(&'a R) -> &'a SourceRef + Copy) -> Vec<Column> {
    vec![
        strc(rows, "section", move |r| Some(src(r).section.as_str())),
        u32c(rows, "line", move |r| Some(src(r).line)),
    ]
}

fn snapshots(m: &[SnapshotMetrics]) -> PolarsResult<DataFrame> {
    let cols = vec![
        strc(m, "path", |p| Some(p.path.as_str())),
        strc(m, "format", |p| Some(p.format.as_str())),
        strc(m, "kind", |p| p.kind.as_deref()),
        strc(m, "db_name", |p| p.db_name.as_deref()),
        u64c(m, "dbid", |p| p.dbid),
        strc(m, "instance", |p| p.instance.as_deref()),
        u32c(m, "instance_number", |p| p.instance_number),
        strc(m, "host", |p| p.host.as_deref()),
        strc(m, "release", |p| p.release.as_deref()),
        u64c(m, "begin_snap", |p| p.begin_snap),
        u64c(m, "end_snap", |p| p.end_snap),
        strc(m, "begin_time", |p| p.begin_time.as_deref()),
        strc(m, "end_time", |p| p.end_time.as_deref()),
        f64c(m, "elapsed_s", |p| p.elapsed_s),
        f64c(m, "db_time_s", |p| p.db_time_s),
        f64c(m, "db_cpu_s", |p| p.db_cpu_s),
        f64c(m, "db_time_per_s", SnapshotMetrics::db_time_per_s),
        f64c(m, "read_iops", |p| p.read_iops),
        f64c(m, "write_iops", |p| p.write_iops),
        f64c(m, "read_mb_s", |p| p.read_mb_s),
        f64c(m, "write_mb_s", |p| p.write_mb_s),
        f64c(m, "redo_mb_s", |p| p.redo_mb_s),
        f64c(m, "transactions_s", |p| p.transactions_s),
        f64c(m, "db_file_sequential_read_ms", |p| {
            p.db_file_sequential_read_ms
        }),
        f64c(m, "db_file_scattered_read_ms", |p| {
            p.db_file_scattered_read_ms
        }),
        f64c(m, "direct_path_read_ms", |p| p.direct_path_read_ms),
        f64c(m, "log_file_sync_ms", |p| p.log_file_sync_ms),
        f64c(m, "log_file_parallel_write_ms", |p| {
            p.log_file_parallel_write_ms
        }),
        f64c(m, "flash_cache_hits_s", |p| p.flash_cache_hits_s),
        f64c(m, "cell_flash_cache_read_hits_s", |p| {
            p.cell_flash_cache_read_hits_s
        }),
        f64c(m, "optimized_read_requests_s", |p| {
            p.optimized_read_requests_s
        }),
    ];
    frame(m.len(), cols)
}

fn load_profile(reports: &[&DbReport]) -> PolarsResult<DataFrame> {
    let rows: Vec<_> = reports
        .iter()
        .flat_map(|r| r.load_profile.iter().map(move |row| (*r, row)))
        .collect();
    let mut cols = key_cols(&rows, |r| r.0);
    cols.extend([
        strc(&rows, "name", |r| Some(r.1.name.as_str())),
        f64c(&rows, "per_second", |r| r.1.per_second),
        f64c(&rows, "per_transaction", |r| r.1.per_transaction),
        f64c(&rows, "per_exec", |r| r.1.per_exec),
        f64c(&rows, "per_call", |r| r.1.per_call),
    ]);
    cols.extend(src_cols(&rows, |r| &r.1.src));
    frame(rows.len(), cols)
}

/// A wait-event row from any of the three tables, with the table it came from.
struct EventRow<'a> {
    report: &'a DbReport,
    class: &'static str,
    name: &'a str,
    wait_class: Option<&'a str>,
    waits: Option<f64>,
    timeouts_pct: Option<f64>,
    time_s: Option<f64>,
    avg_ms: Option<f64>,
    waits_per_txn: Option<f64>,
    pct_db_time: Option<f64>,
    src: &'a SourceRef,
}

fn wait_events(reports: &[&DbReport]) -> PolarsResult<DataFrame> {
    let mut rows = Vec::new();
    for r in reports {
        for e in &r.top_events {
            rows.push(EventRow {
                report: r,
                class: "top",
                name: &e.name,
                wait_class: e.wait_class.as_deref(),
                waits: e.waits,
                timeouts_pct: None,
                time_s: e.time_s,
                avg_ms: e.avg_ms,
                waits_per_txn: None,
                pct_db_time: e.pct_db_time,
                src: &e.src,
            });
        }
        for (class, list) in [
            ("foreground", &r.wait_events.foreground),
            ("background", &r.wait_events.background),
        ] {
            for e in list {
                rows.push(EventRow {
                    report: r,
                    class,
                    name: &e.name,
                    wait_class: e.wait_class.as_deref(),
                    waits: e.waits,
                    timeouts_pct: e.timeouts_pct,
                    time_s: e.time_s,
                    avg_ms: e.avg_ms,
                    waits_per_txn: e.waits_per_txn,
                    pct_db_time: e.pct_db_time,
                    src: &e.src,
                });
            }
        }
    }
    let mut cols = key_cols(&rows, |r| r.report);
    cols.extend([
        strc(&rows, "table", |r| Some(r.class)),
        strc(&rows, "event", |r| Some(r.name)),
        strc(&rows, "wait_class", |r| r.wait_class),
        f64c(&rows, "waits", |r| r.waits),
        f64c(&rows, "timeouts_pct", |r| r.timeouts_pct),
        f64c(&rows, "time_s", |r| r.time_s),
        f64c(&rows, "avg_ms", |r| r.avg_ms),
        f64c(&rows, "waits_per_txn", |r| r.waits_per_txn),
        f64c(&rows, "pct_db_time", |r| r.pct_db_time),
    ]);
    cols.extend(src_cols(&rows, |r| r.src));
    frame(rows.len(), cols)
}

fn activity_stats(reports: &[&DbReport]) -> PolarsResult<DataFrame> {
    let rows: Vec<_> = reports
        .iter()
        .flat_map(|r| r.activity_stats.iter().map(move |s| (*r, s)))
        .collect();
    let mut cols = key_cols(&rows, |r| r.0);
    cols.extend([
        strc(&rows, "name", |r| Some(r.1.name.as_str())),
        f64c(&rows, "total", |r| r.1.total),
        f64c(&rows, "per_second", |r| r.1.per_second),
        f64c(&rows, "per_transaction", |r| r.1.per_transaction),
        f64c(&rows, "begin_value", |r| r.1.begin),
        f64c(&rows, "end_value", |r| r.1.end),
    ]);
    cols.extend(src_cols(&rows, |r| &r.1.src));
    frame(rows.len(), cols)
}

fn segments(reports: &[&DbReport]) -> PolarsResult<DataFrame> {
    let rows: Vec<_> = reports
        .iter()
        .flat_map(|r| {
            r.segments
                .iter()
                .flat_map(move |(stat, list)| list.iter().map(move |s| (*r, stat.as_str(), s)))
        })
        .collect();
    let mut cols = key_cols(&rows, |r| r.0);
    cols.extend([
        strc(&rows, "statistic", |r| Some(r.1)),
        strc(&rows, "owner", |r| Some(r.2.owner.as_str())),
        strc(&rows, "tablespace", |r| Some(r.2.tablespace.as_str())),
        strc(&rows, "object", |r| Some(r.2.object.as_str())),
        strc(&rows, "subobject", |r| r.2.subobject.as_deref()),
        strc(&rows, "object_type", |r| Some(r.2.object_type.as_str())),
        f64c(&rows, "value", |r| r.2.value),
        f64c(&rows, "pct_total", |r| r.2.pct_total),
        strc(&rows, "container", |r| r.2.container.as_deref()),
    ]);
    cols.extend(src_cols(&rows, |r| &r.2.src));
    frame(rows.len(), cols)
}

fn file_io_table(
    reports: &[&DbReport],
    pick: impl Fn(&DbReport) -> &Vec<FileIoRow>,
) -> PolarsResult<DataFrame> {
    let rows: Vec<(&DbReport, &FileIoRow)> = reports
        .iter()
        .flat_map(|r| pick(r).iter().map(move |f| (*r, f)))
        .collect();
    let mut cols = key_cols(&rows, |r| r.0);
    cols.extend([
        strc(&rows, "tablespace", |r| Some(r.1.tablespace.as_str())),
        strc(&rows, "file", |r| r.1.file.as_deref()),
        f64c(&rows, "reads", |r| r.1.reads),
        f64c(&rows, "reads_per_s", |r| r.1.reads_per_s),
        f64c(&rows, "avg_read_ms", |r| r.1.avg_read_ms),
        f64c(&rows, "blocks_per_read", |r| r.1.blocks_per_read),
        f64c(&rows, "one_block_reads_per_s", |r| {
            r.1.one_block_reads_per_s
        }),
        f64c(&rows, "avg_one_block_read_ms", |r| {
            r.1.avg_one_block_read_ms
        }),
        f64c(&rows, "writes", |r| r.1.writes),
        f64c(&rows, "writes_per_s", |r| r.1.writes_per_s),
        f64c(&rows, "buffer_waits", |r| r.1.buffer_waits),
        f64c(&rows, "avg_buffer_wait_ms", |r| r.1.avg_buffer_wait_ms),
    ]);
    cols.extend(src_cols(&rows, |r| &r.1.src));
    frame(rows.len(), cols)
}

fn iostat_samples(docs: &[Document]) -> PolarsResult<DataFrame> {
    let rows: Vec<_> = docs
        .iter()
        .filter_map(|d| match d {
            Document::Iostat(c) => Some(c.as_ref()),
            _ => None,
        })
        .flat_map(|c| c.samples.iter().map(move |s| (c, s)))
        .collect();
    let mut cols = vec![
        strc(&rows, "path", |r| Some(r.0.source.path.as_str())),
        strc(&rows, "format", |r| Some(r.0.source.format.as_str())),
        strc(&rows, "host", |r| r.0.host.as_deref()),
        strc(&rows, "time", |r| r.1.time.as_deref()),
        u32c(&rows, "interval", |r| Some(r.1.interval)),
        strc(&rows, "device", |r| Some(r.1.device.as_str())),
        f64c(&rows, "r_s", |r| r.1.r_s),
        f64c(&rows, "w_s", |r| r.1.w_s),
        f64c(&rows, "rkb_s", |r| r.1.rkb_s),
        f64c(&rows, "wkb_s", |r| r.1.wkb_s),
        f64c(&rows, "r_await_ms", |r| r.1.r_await_ms),
        f64c(&rows, "w_await_ms", |r| r.1.w_await_ms),
        f64c(&rows, "avg_rq_kb", |r| r.1.avg_rq_kb),
        f64c(&rows, "queue", |r| r.1.queue),
        f64c(&rows, "util_pct", |r| r.1.util_pct),
        boolc(&rows, "since_boot", |r| r.1.since_boot),
    ];
    cols.extend(src_cols(&rows, |r| &r.1.src));
    frame(rows.len(), cols)
}

/// One row per database series and trend metric.
struct SummaryRow<'a> {
    key: &'a DbKey,
    first: &'a SnapshotMetrics,
    s: awrflash_model::TrendMetric,
    peak: Option<&'a SnapshotMetrics>,
}

/// The trend of each database series: the advisor's trend
/// ([`awrflash_facts::trend`]) over the intervals in the order given.
fn trend_summary(reports: &[&DbReport], metrics: &[SnapshotMetrics]) -> PolarsResult<DataFrame> {
    // Series in key order; intervals in the order given (callers sort by time).
    let mut groups: BTreeMap<DbKey, Vec<(&DbReport, &SnapshotMetrics)>> = BTreeMap::new();
    for (r, m) in reports.iter().zip(metrics) {
        groups.entry(DbKey::of(r)).or_default().push((r, m));
    }
    let mut rows = Vec::new();
    for (key, points) in &groups {
        let Some((_, first)) = points.first() else {
            continue;
        };
        let facts: Vec<IntervalFacts> = points.iter().map(|(r, _)| IntervalFacts::new(r)).collect();
        for s in awrflash_facts::trend(&facts) {
            let peak = s.peak_interval.and_then(|i| points.get(i)).map(|p| p.1);
            rows.push(SummaryRow {
                key,
                first,
                s,
                peak,
            });
        }
    }
    let instance: Vec<String> = rows.iter().map(|r| r.key.instance.to_string()).collect();
    let cols = vec![
        strc(&rows, "db_name", |r| r.key.db_name.as_deref()),
        strc(&rows, "container", |r| r.key.container.as_deref()),
        u64c(&rows, "dbid", |r| r.key.dbid),
        Column::new("instance".into(), instance),
        strc(&rows, "host", |r| r.first.host.as_deref()),
        strc(&rows, "metric", |r| Some(r.s.metric.as_str())),
        strc(&rows, "unit", |r| Some(r.s.unit.as_str())),
        u32c(&rows, "snapshots", |r| u32::try_from(r.s.intervals).ok()),
        f64c(&rows, "whole_window", |r| r.s.whole_window),
        f64c(&rows, "mean", |r| r.s.mean),
        f64c(&rows, "p95", |r| r.s.p95),
        f64c(&rows, "peak", |r| r.s.peak),
        strc(&rows, "peak_begin_time", |r| {
            r.peak.and_then(|p| p.begin_time.as_deref())
        }),
        u64c(&rows, "peak_begin_snap", |r| {
            r.peak.and_then(|p| p.begin_snap)
        }),
        u64c(&rows, "peak_end_snap", |r| r.peak.and_then(|p| p.end_snap)),
        strc(&rows, "peak_path", |r| r.peak.map(|p| p.path.as_str())),
    ];
    frame(rows.len(), cols)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{TableFormat, write_tables};
    use awrflash_model::{
        ActivityStat, DeviceSample, Header, IostatCapture, LoadProfileRow, SegmentRow, Source,
        TopEvent, WaitEvent,
    };

    fn report(path: &str, begin: u64, db_time_per_s: f64) -> Document {
        let mut r = DbReport {
            source: Source {
                path: path.into(),
                ..Default::default()
            },
            header: Header {
                db_name: Some("PROD".into()),
                dbid: Some(7),
                instance_number: Some(1),
                begin_snap: Some(begin),
                end_snap: Some(begin + 1),
                begin_time: Some(format!("2024-01-01T{begin:02}:00:00")),
                elapsed_s: Some(3600.0),
                ..Default::default()
            },
            ..Default::default()
        };
        r.load_profile = vec![LoadProfileRow {
            name: "DB Time(s)".into(),
            per_second: Some(db_time_per_s),
            src: SourceRef::new("Load Profile", 40),
            ..Default::default()
        }];
        r.top_events = vec![TopEvent {
            name: "DB CPU".into(),
            time_s: Some(10.0),
            ..Default::default()
        }];
        r.wait_events.foreground = vec![WaitEvent {
            name: "db file sequential read".into(),
            avg_ms: Some(5.0),
            ..Default::default()
        }];
        r.activity_stats = vec![ActivityStat {
            name: "redo size".into(),
            total: Some(1.0e9),
            ..Default::default()
        }];
        r.segments.insert(
            "physical_reads".into(),
            vec![SegmentRow {
                owner: "APP".into(),
                object: "ORDERS_PK".into(),
                object_type: "INDEX".into(),
                value: Some(1000.0),
                ..Default::default()
            }],
        );
        Document::Report(Box::new(r))
    }

    fn docs() -> Vec<Document> {
        let iostat = IostatCapture {
            samples: vec![
                DeviceSample {
                    device: "sda".into(),
                    r_s: Some(100.0),
                    ..Default::default()
                },
                DeviceSample {
                    device: "sdb".into(),
                    interval: 1,
                    ..Default::default()
                },
            ],
            ..Default::default()
        };
        vec![
            report("a.html", 10, 2.0),
            report("b.html", 11, 6.0),
            Document::Iostat(Box::new(iostat)),
        ]
    }

    fn height(tables: &[Table], name: &str) -> usize {
        tables
            .iter()
            .find(|t| t.name == name)
            .unwrap()
            .frame
            .height()
    }

    #[test]
    fn every_table_is_built_with_one_row_per_observation() {
        let tables = build_tables(&docs()).unwrap();
        let names: Vec<_> = tables.iter().map(|t| t.name).collect();
        assert_eq!(names, TABLE_NAMES);
        assert_eq!(height(&tables, "snapshots"), 2);
        assert_eq!(height(&tables, "load_profile"), 2);
        assert_eq!(height(&tables, "wait_events"), 4);
        assert_eq!(height(&tables, "activity_stats"), 2);
        assert_eq!(height(&tables, "segments"), 2);
        assert_eq!(height(&tables, "tablespace_io"), 0);
        assert_eq!(height(&tables, "iostat_samples"), 2);
        assert_eq!(height(&tables, "trend_summary"), crate::TREND_METRICS.len());
    }

    #[test]
    fn trend_summary_points_at_the_peak_interval() {
        let tables = build_tables(&docs()).unwrap();
        let t = &tables
            .iter()
            .find(|t| t.name == "trend_summary")
            .unwrap()
            .frame;
        let metric = t.column("metric").unwrap().str().unwrap();
        let row = metric
            .iter()
            .position(|m| m == Some("db_time_per_s"))
            .unwrap();
        let peak = t.column("peak").unwrap().f64().unwrap().get(row);
        assert_eq!(peak, Some(6.0));
        let path = t.column("peak_path").unwrap().str().unwrap().get(row);
        assert_eq!(path, Some("b.html"));
        let ww = t.column("whole_window").unwrap().f64().unwrap().get(row);
        assert_eq!(ww, Some(4.0));
    }

    #[test]
    fn tables_round_trip_through_parquet_and_csv_with_their_columns() {
        let dir = tempfile::tempdir().unwrap();
        let mut tables = build_tables(&docs()).unwrap();
        for format in [TableFormat::Parquet, TableFormat::Csv] {
            let written = write_tables(&mut tables, dir.path(), format).unwrap();
            assert_eq!(written.len(), TABLE_NAMES.len());
            for (path, rows) in written {
                assert!(path.exists(), "{}", path.display());
                if format == TableFormat::Parquet {
                    let back = ParquetReader::new(std::fs::File::open(&path).unwrap())
                        .finish()
                        .unwrap();
                    assert_eq!(back.height(), rows);
                    let name = path.file_stem().unwrap().to_str().unwrap();
                    let orig = &tables.iter().find(|t| t.name == name).unwrap().frame;
                    assert_eq!(back.get_column_names(), orig.get_column_names());
                }
            }
        }
        let csv = std::fs::read_to_string(dir.path().join("snapshots.csv")).unwrap();
        assert!(csv.starts_with("path,format,kind,db_name,dbid,"));
        assert_eq!(csv.lines().count(), 3);
    }
}
