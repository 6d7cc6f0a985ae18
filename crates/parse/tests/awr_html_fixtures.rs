//! The fixtures awrflash writes itself: the README sample, reduced reports
//! of older and newer releases, and broken inputs.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod awr_html_common;

use std::path::PathBuf;

use awr_html_common::{check_report, summary_line};
use awrflash_model::{DbReport, Document, ReportKind};

fn fixture(rel: &str) -> (String, Vec<u8>) {
    let mut p = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    p.pop();
    p.pop();
    let p = p.join("fixtures").join(rel);
    let bytes = std::fs::read(&p).expect("fixture is readable");
    (rel.to_string(), bytes)
}

fn report(rel: &str) -> DbReport {
    let (name, bytes) = fixture(rel);
    match awrflash_parse::parse_bytes(&name, &bytes).unwrap() {
        Document::Report(r) => *r,
        _ => unreachable!("{rel} is not a report"),
    }
}

#[test]
fn readme_sample_parses_fully_and_adds_up() {
    let r = report("sample/awr_19c_sample.html");
    let problems = check_report(&r, true);
    assert!(problems.is_empty(), "{problems:#?}");
    assert!(r.warnings.is_empty(), "{:#?}", r.warnings);
    assert_eq!(r.source.kind, Some(ReportKind::Instance));
    // I/O dominates: db file sequential read is the top event at ~8 ms.
    let top = r.top_events.first().unwrap();
    assert_eq!(top.name, "db file sequential read");
    assert!((top.avg_ms.unwrap() - 8.0).abs() < 0.01);
    assert!((top.pct_db_time.unwrap() - 45.0).abs() < 0.1);
    assert!(r.top_event("log file sync").is_some());
    let busy = r.os_stat("BUSY_TIME").unwrap().value.unwrap();
    let idle = r.os_stat("IDLE_TIME").unwrap().value.unwrap();
    assert!((busy / (busy + idle) - 0.5).abs() < 0.01);
    for key in [
        "physical_reads",
        "physical_read_requests",
        "unoptimized_reads",
        "physical_writes",
        "buffer_busy_waits",
    ] {
        assert_eq!(r.segments.get(key).map(Vec::len), Some(5), "{key}");
    }
    let types: Vec<&str> = r.segments["physical_reads"]
        .iter()
        .map(|s| s.object_type.as_str())
        .collect();
    assert!(types.contains(&"TABLE") && types.contains(&"INDEX"));
    assert!(r.file_io.iter().any(|f| f.tablespace == "TEMP"));
    assert!(r.file_io.iter().any(|f| f.tablespace == "UNDOTBS1"));
    let factors: Vec<f64> = r
        .buffer_pool_advisory
        .iter()
        .filter_map(|b| b.size_factor)
        .collect();
    assert_eq!(factors.first(), Some(&0.1));
    assert_eq!(factors.last(), Some(&2.0));
    assert_eq!(r.buffer_pool_advisory[0].block_size, Some(8192));
    assert_eq!(r.parameter("db_block_size").unwrap().value, "8192");
    assert_eq!(r.cache_sizes.buffer_cache_bytes, Some(24576 * 1024 * 1024));
    assert_eq!(r.sql["physical_reads"].len(), 5);
    let hist: Vec<&str> = r.wait_histogram.iter().map(|h| h.event.as_str()).collect();
    assert_eq!(
        hist,
        [
            "db file sequential read",
            "log file parallel write",
            "log file sync"
        ]
    );
    assert!(r.activity_stat("redo writes").is_some());
    assert!(r.activity_stat("physical read total IO requests").is_some());
    insta::assert_snapshot!("sample_summary", summary_line("awr_19c_sample.html", &r));
}

#[test]
fn every_row_of_the_sample_points_at_its_line() {
    let (_, bytes) = fixture("sample/awr_19c_sample.html");
    let text = String::from_utf8(bytes).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let r = report("sample/awr_19c_sample.html");
    for e in &r.top_events {
        let line = lines[e.src.line as usize - 1];
        assert!(
            line.contains(&e.name),
            "{} not on line {}",
            e.name,
            e.src.line
        );
        assert_eq!(e.src.section, "Top 10 Foreground Events by Total Wait Time");
    }
    for s in &r.activity_stats {
        assert!(lines[s.src.line as usize - 1].contains(&s.name));
    }
}
