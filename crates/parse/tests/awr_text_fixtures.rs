//! Reduced AWR text reports written for releases the corpus lacks (10g,
//! 11.1, 19c in 80 and 132 columns): each parses, passes the corpus
//! consistency checks, and its full model is snapshotted.

#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

#[path = "awr_text_checks.rs"]
mod checks;

use awrflash_model::DbReport;

fn fixture(name: &str) -> (DbReport, String) {
    let p = awrflash_testkit::fixtures(name);
    let text = std::fs::read_to_string(&p).unwrap();
    let r = checks::parse_file(&p);
    let (fail, notes) = checks::check(&r, &text);
    println!("{name}: {}", checks::summary(&r).replace('\n', " | "));
    if !notes.is_empty() {
        println!("  skipped checks: {}", notes.join("; "));
    }
    assert!(fail.is_empty(), "{name}: {}", fail.join("\n"));
    (r, text)
}

#[test]
fn awr_10g_text_report_maps_into_the_model() {
    let (r, _) = fixture("awr-text/10.2.0.4_awrrpt_1_101_102.txt");
    assert_eq!(r.source.format.as_str(), "awr-text");
    assert_eq!(r.header.release.as_deref(), Some("10.2.0.4.0"));
    assert_eq!(r.header.host.as_deref(), Some("dbhost10"));
    // 10g "Wait Events" is the release's main list: foreground, as in HTML.
    assert_eq!(
        r.wait_events.foreground.len(),
        6,
        "the page break keeps every row"
    );
    assert!(r.wait_events.all.is_empty());
    // Wait classes come from the top events where 10g events print none.
    assert_eq!(
        r.foreground_event("db file sequential read")
            .and_then(|e| e.wait_class.as_deref()),
        Some("User I/O")
    );
    assert_eq!(r.buffer_pool_advisory[0].block_size, Some(8192));
    assert_eq!(
        r.load_profile_row("Redo size").and_then(|x| x.per_second),
        Some(10_000.0)
    );
    assert_eq!(r.header.cpus, Some(8), "NUM_CPUS fills the header");
    assert_eq!(r.segments.get("physical_reads").map(Vec::len), Some(3));
    assert_eq!(r.file_io.len(), 4);
    assert_eq!(r.buffer_pool_advisory.len(), 3);
    insta::assert_json_snapshot!("awr_text_10_2_0_4", r);
}

#[test]
fn awr_11_1_text_report_with_crlf_histogram_and_overflow_maps_into_the_model() {
    let (r, text) = fixture("awr-text/11.1.0.7_awrrpt_1_5400_5401.txt");
    assert!(
        text.contains("\r\n"),
        "the fixture keeps its CRLF line ends"
    );
    assert_eq!(
        r.header.platform.as_deref(),
        Some("Solaris[tm] OE (64-bit)")
    );
    assert_eq!(
        (r.header.cpus, r.header.cores, r.header.sockets),
        (Some(16), Some(8), Some(2))
    );
    assert_eq!(r.header.memory_gb, Some(63.75));
    let h = r.host_cpu.as_ref().unwrap();
    assert_eq!(
        (h.cpus, h.pct_wio, h.pct_idle),
        (Some(16), Some(6.0), Some(88.5))
    );
    // `######` is a null with a warning, never a zero.
    let net = r
        .wait_events
        .foreground
        .iter()
        .find(|e| e.name == "SQL*Net message from client")
        .unwrap();
    assert_eq!(net.avg_ms, None);
    assert!(r.warnings.iter().any(|w| w.message.contains("######")));
    // Histogram: <=1s is 1024 ms in Oracle's own units.
    let seq = &r.wait_histogram[0];
    assert_eq!(seq.total_waits, Some(21_600_000.0));
    assert_eq!(seq.buckets[6].le_ms, 1024.0);
    assert_eq!(seq.buckets[6].pct, 0.1);
    let uga = r.activity_stat("session uga memory max").unwrap();
    assert_eq!(uga.end, Some(1.664383122e11));
    assert_eq!(
        r.parameter("shared_pool_size")
            .unwrap()
            .end_value
            .as_deref(),
        Some("2214592512")
    );
    insta::assert_json_snapshot!("awr_text_11_1_0_7", r);
}

fn awr_19c(name: &str) -> DbReport {
    let (r, _) = fixture(name);
    assert_eq!(r.header.cdb, Some(true));
    assert_eq!(r.header.instance.as_deref(), Some("sales19"));
    assert_eq!(r.header.elapsed_s, Some(3601.2));
    // `270.00us` and `3.00ms` averages in the 12c+ layout become ms.
    let seq = r.foreground_event("db file sequential read").unwrap();
    assert_eq!(seq.avg_ms, Some(0.27));
    assert_eq!(r.top_event("log file sync").unwrap().avg_ms, Some(3.0));
    // Data volumes in MB, `K` counts in thousands.
    let bc = &r.iostat_function[0];
    assert_eq!(bc.reads_mb, Some(549.5 * 1024.0));
    assert_eq!(bc.read_reqs_per_s, Some(11_100.0));
    assert_eq!(bc.waits, Some(40_000_000.0));
    // Two-line segment records: owner and tablespace from the first line.
    let seg = &r.segments["physical_reads"][0];
    assert_eq!(
        (
            seg.owner.as_str(),
            seg.tablespace.as_str(),
            seg.subobject.as_deref()
        ),
        ("SALES", "SALES_DATA", Some("P2024_03"))
    );
    assert_eq!(r.segments["unoptimized_reads"].len(), 1);
    assert_eq!(r.tablespace_io[0].one_block_reads_per_s, Some(10_000.0));
    assert_eq!(r.buffer_pool_advisory[1].est_phys_reads, Some(72_030_000.0));
    r
}

#[test]
fn awr_19c_80_column_text_report_maps_into_the_model() {
    let r = awr_19c("awr-text/19.0.0.0_awrrpt_1_880_881_80col.txt");
    // 80 columns cut event and statistic names to 26 and 32 characters;
    // the parser maps them back to Oracle's full names.
    assert!(r.foreground_event("enq: TX - index contention").is_some());
    assert!(
        r.foreground_event("enq: TX - index contention (partitioned)")
            .is_none()
    );
    assert!(
        r.activity_stat("flash cache insert skip: DBWR overloaded")
            .is_some(),
        "32-character statistic name mapped to its full name"
    );
    insta::assert_json_snapshot!("awr_text_19c_80col", r);
}

#[test]
fn awr_19c_132_column_text_report_keeps_full_names() {
    let r = awr_19c("awr-text/19.0.0.0_awrrpt_1_880_881_132col.txt");
    assert!(
        r.foreground_event("enq: TX - index contention (partitioned)")
            .is_some()
    );
    assert!(
        r.activity_stat("flash cache insert skip: DBWR overloaded")
            .is_some()
    );
    assert_eq!(
        r.segments["physical_reads"][1].object,
        "ORDER_ITEMS_CUSTOMER_IX"
    );
    insta::assert_json_snapshot!("awr_text_19c_132col", r);
}
