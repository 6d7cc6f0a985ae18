//! The fixtures awrflash writes itself: the README sample, reduced reports
//! of older and newer releases, and broken inputs.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod awr_html_common;

use awr_html_common::{check_report, misplaced_rows, summary_line};
use awrflash_model::{DbReport, Document, ReportKind};
use awrflash_parse::ParseError;

fn fixture(rel: &str) -> (String, Vec<u8>) {
    let p = awrflash_testkit::fixtures(rel);
    let bytes = std::fs::read(&p).expect("fixture is readable");
    (rel.to_string(), bytes)
}

fn report(rel: &str) -> DbReport {
    let (name, bytes) = fixture(rel);
    report_of(&name, &bytes)
}

fn report_of(name: &str, bytes: &[u8]) -> DbReport {
    match awrflash_parse::parse_bytes(name, bytes).unwrap() {
        Document::Report(r) => *r,
        _ => unreachable!("{name} is not a report"),
    }
}

/// The README sample cut after its first `lines` lines, as a transfer that
/// stopped early leaves it.
fn sample_cut(lines: usize) -> (String, Vec<u8>) {
    let (_, bytes) = fixture("sample/awr_19c_sample.html");
    let end = bytes
        .iter()
        .enumerate()
        .filter(|(_, b)| **b == b'\n')
        .nth(lines - 1)
        .map_or(bytes.len(), |(i, _)| i + 1);
    (
        format!("sample/awr_19c_sample.html#cut-{lines}"),
        bytes[..end].to_vec(),
    )
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
    for h in &r.wait_histogram {
        let sum: f64 = h.buckets.iter().map(|b| b.pct).sum();
        assert!((sum - 100.0).abs() < 0.2, "{}: {sum}", h.event);
    }
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
        assert!(lines[s.src.line as usize - 1].contains(s.name.as_str()));
    }
    assert_eq!(misplaced_rows(&r, &text), Vec::<String>::new());
}

/// An event printed in the foreground and the background tables is read
/// once: both rows hold one string (`SharedStr::shared`), not two copies.
#[test]
fn an_event_in_several_tables_is_held_once() {
    let r = report("sample/awr_19c_sample.html");
    let mut pairs = 0;
    for b in &r.wait_events.background {
        for f in r.wait_events.foreground.iter().filter(|f| f.name == b.name) {
            assert!(f.name.shares(&b.name), "{} is held twice", b.name);
            pairs += 1;
        }
    }
    assert!(pairs > 0, "the sample prints events in both tables");
}

#[test]
fn reduced_reports_of_older_and_newer_releases_add_up() {
    for (rel, release) in [
        ("awr-html/awr_10g_reduced.html", "10.2.0.4.0"),
        ("awr-html/awr_11g1_reduced.html", "11.1.0.7.0"),
        ("awr-html/awr_23ai_reduced.html", "23.0.0.0.0"),
    ] {
        let r = report(rel);
        assert_eq!(r.header.release.as_deref(), Some(release), "{rel}");
        let problems = check_report(&r, true);
        assert!(problems.is_empty(), "{rel}: {problems:#?}");
        assert!(r.warnings.is_empty(), "{rel}: {:#?}", r.warnings);
    }
}

#[test]
fn ten_g_top_five_keeps_cpu_time_as_a_row_without_waits() {
    let r = report("awr-html/awr_10g_reduced.html");
    let cpu = r.top_event("CPU time").unwrap();
    assert_eq!(cpu.waits, None);
    assert_eq!(cpu.time_s, Some(1352.0));
    assert_eq!(
        r.header.cpus,
        Some(4),
        "from NUM_CPUS: 10g has no host table"
    );
    assert_eq!(
        r.load_profile_row("Redo size").unwrap().per_second,
        Some(100_000.0)
    );
}

#[test]
fn twenty_three_ai_cdb_keeps_pdb_names_and_unit_suffixed_averages() {
    let r = report("awr-html/awr_23ai_reduced.html");
    assert_eq!(r.header.cdb, Some(true));
    let seg = &r.segments["physical_read_requests"][0];
    assert_eq!(seg.container.as_deref(), Some("SALESPDB"));
    assert_eq!(seg.value, Some(702_000.0));
    let e = r.top_event("db file sequential read").unwrap();
    assert!((e.avg_ms.unwrap() - 0.5).abs() < 1e-9);
    let h = &r.wait_histogram[0];
    assert_eq!(h.total_waits, None);
    assert_eq!(h.range_waits, Some(31_500.0));
    assert_eq!(h.buckets.first().map(|b| b.le_ms), Some(0.512));
    let ff = &r.iostat_function_filetype[1];
    assert_eq!(ff.function.as_deref(), Some("Buffer Cache Reads"));
    assert_eq!(ff.filetype.as_deref(), Some("Data File"));
}

#[test]
fn reduced_report_models_match_their_snapshots() {
    for name in ["awr_10g_reduced", "awr_11g1_reduced", "awr_23ai_reduced"] {
        let r = report(&format!("awr-html/{name}.html"));
        insta::assert_json_snapshot!(name, r);
    }
}

fn parse_error(rel: &str) -> ParseError {
    let (name, bytes) = fixture(rel);
    match awrflash_parse::parse_bytes(&name, &bytes) {
        Err(e) => e,
        Ok(d) => panic!("{rel} parsed: {:?}", d.source()),
    }
}

#[test]
fn empty_file_is_a_clear_error() {
    let e = parse_error("awr-html/broken/empty.html");
    assert!(matches!(e, ParseError::UnknownFormat { .. }), "{e}");
    assert!(e.to_string().contains("empty.html") && e.to_string().contains("empty"));
}

#[test]
fn binary_file_is_a_clear_error() {
    let e = parse_error("awr-html/broken/binary.html");
    assert!(e.to_string().contains("binary"), "{e}");
}

#[test]
fn ash_report_is_refused_by_name() {
    let e = parse_error("awr-html/broken/ash_report.html");
    assert!(matches!(e, ParseError::Unsupported { .. }), "{e}");
    assert!(e.to_string().contains("ASH report"), "{e}");
}

#[test]
fn report_cut_before_its_header_is_an_error_naming_the_file() {
    // Line 14 is the last line before the DB Name table.
    let (name, bytes) = sample_cut(14);
    let e = match awrflash_parse::parse_bytes(&name, &bytes) {
        Err(e) => e,
        Ok(d) => panic!("{name} parsed: {:?}", d.source()),
    };
    assert!(matches!(e, ParseError::Malformed { .. }), "{e}");
    assert!(e.to_string().starts_with(&format!("{name}:")), "{e}");
}

#[test]
fn report_cut_in_the_middle_of_a_table_keeps_what_it_read_and_warns() {
    // Line 183 is a row inside Foreground Wait Events.
    let (name, bytes) = sample_cut(183);
    let r = report_of(&name, &bytes);
    assert_eq!(r.header.db_name.as_deref(), Some("SAMPLEDB"));
    assert_eq!(r.top_events.len(), 10);
    assert!(!r.wait_events.foreground.is_empty());
    assert!(r.wait_events.background.is_empty());
    let w = r
        .warnings
        .iter()
        .find(|w| w.message.contains("ends inside"))
        .unwrap();
    assert_eq!(w.section, "Foreground Wait Events");
}

#[test]
fn overflowed_cell_is_null_with_a_warning_never_zero() {
    let r = report("awr-html/broken/overflow_cell.html");
    let lr = r.load_profile_row("Logical reads").unwrap();
    assert_eq!(lr.per_second, None);
    assert_eq!(lr.per_transaction, Some(1500.0));
    let e = r.top_event("db file sequential read").unwrap();
    assert_eq!(e.time_s, None);
    assert_eq!(e.waits, Some(600_000.0));
    let lines: Vec<u32> = r
        .warnings
        .iter()
        .filter(|w| w.message.contains("overflowed"))
        .map(|w| w.line)
        .collect();
    assert_eq!(lines, [lr.src.line, e.src.line]);
}

#[test]
fn recognised_section_with_unexpected_columns_is_a_warning() {
    let (_, bytes) = fixture("awr-html/awr_11g1_reduced.html");
    let text = String::from_utf8(bytes)
        .unwrap()
        .replace(">Owner<", ">Schema<");
    let Document::Report(r) = awrflash_parse::parse_bytes("renamed.html", text.as_bytes()).unwrap()
    else {
        unreachable!()
    };
    assert!(r.segments.is_empty());
    let w = r
        .warnings
        .iter()
        .find(|w| w.section == "Segments by Physical Reads")
        .unwrap();
    assert!(w.message.contains("no Owner column"), "{}", w.message);
}

#[test]
fn a_report_cut_anywhere_never_panics_and_keeps_its_header_once_read() {
    let (_, bytes) = fixture("sample/awr_19c_sample.html");
    let header_end = String::from_utf8_lossy(&bytes).find("DB Time:").unwrap();
    for k in 1..=60 {
        let cut = bytes.len() * k / 61;
        match awrflash_parse::parse_bytes("cut.html", &bytes[..cut]) {
            Ok(Document::Report(r)) => {
                assert_eq!(
                    r.header.db_name.as_deref(),
                    Some("SAMPLEDB"),
                    "cut at {cut}"
                );
            }
            Ok(_) => unreachable!(),
            Err(e) => assert!(cut < header_end + 200, "cut at {cut}: {e}"),
        }
    }
}

#[test]
fn malformed_markup_is_survived() {
    let head = "<html><title>AWR Report for DB: X</title><body>\
        <h1>WORKLOAD REPOSITORY report for</h1>\
        <table summary=\"This table displays database instance information\">\
        <tr><th>DB Name<th>DB Id<th>Release<tr><td>X<td>1<td>19.0.0.0.0</table>\
        <table><tr><th></th><th>Snap Id</th><th>Snap Time</th></tr>\
        <tr><td>Begin Snap:</td><td>1</td><td>01-Jan-25 00:00:00</td></tr>\
        <tr><td>End Snap:</td><td>2</td><td>01-Jan-25 01:00:00</td></tr>\
        <tr><td>Elapsed:</td><td></td><td>60.00 (mins)</td></tr></table>";
    for tail in [
        "<!-- never closed",
        "<p>Load Profile<p><table><tr><th><th>Per Second<tr><td>DB Time(s):<td><table><tr><td>nested",
        "<table><tr><td>a</td></tr></table></table></table></tr></td>",
        "<p>Top 10 Foreground Events by Total Wait Time<table><tr><th>Event<th>Waits<tr><td>x<td>&bogus;&#xZZ;&",
        "<td><tr><th><<<>>> </ >",
        "<script>if (a < b && c > d) { x = '</table>'; }</script>",
    ] {
        let html = format!("{head}{tail}");
        let r = awrflash_parse::parse_bytes("m.html", html.as_bytes());
        let Ok(Document::Report(r)) = r else {
            panic!("{tail}: {r:?}")
        };
        assert_eq!(r.header.db_name.as_deref(), Some("X"), "{tail}");
        assert_eq!(r.header.elapsed_s, Some(3600.0), "{tail}");
    }
}
