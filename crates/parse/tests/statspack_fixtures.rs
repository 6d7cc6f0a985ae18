//! Reduced Statspack reports written for releases the corpus lacks: 10g at
//! level 7, 19c at levels 5 (no segment sections) and 7. Each parses,
//! passes the corpus consistency checks, and its full model is snapshotted.

#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

#[path = "awr_text_checks.rs"]
mod checks;

use awrflash_model::DbReport;

fn fixture(name: &str) -> DbReport {
    let p = awrflash_testkit::fixtures(name);
    let text = std::fs::read_to_string(&p).unwrap();
    let r = checks::parse_file(&p);
    let (fail, notes) = checks::check(&r, &text);
    println!("{name}: {}", checks::summary(&r).replace('\n', " | "));
    if !notes.is_empty() {
        println!("  skipped checks: {}", notes.join("; "));
    }
    assert!(fail.is_empty(), "{name}: {}", fail.join("\n"));
    assert_eq!(r.source.format.as_str(), "statspack");
    r
}

#[test]
fn statspack_10g_level_7_maps_into_the_model() {
    let r = fixture("statspack/10.2.0.5_spreport_11_12_level7.lst");
    let h = &r.header;
    assert_eq!(h.db_name.as_deref(), Some("SP10"));
    assert_eq!(h.host.as_deref(), Some("sphost10"));
    assert_eq!(h.cpus, Some(4));
    assert_eq!(h.memory_gb, Some(8.0));
    assert_eq!(h.elapsed_s, Some(3600.0));
    // 10g Statspack "Wait Events" is the release's main list: foreground.
    assert_eq!(r.wait_events.foreground.len(), 6);
    assert!(r.wait_events.all.is_empty());
    assert_eq!(r.wait_events.background.len(), 3);
    assert_eq!(r.segments["physical_reads"].len(), 2);
    assert_eq!(r.segments["buffer_busy_waits"][0].value, Some(880.0));
    // A second file of a tablespace has a blank tablespace column.
    assert_eq!(r.file_io.len(), 3);
    assert_eq!(r.file_io[1].tablespace, "ORDERS_DATA");
    assert_eq!(
        r.parameter("control_files").unwrap().value,
        "/u01/app/oradata/sp10/control01.ctl, /u02/app/oradata/sp10/control02.ctl"
    );
    insta::assert_json_snapshot!("statspack_10_2_0_5_level7", r);
}

#[test]
fn statspack_19c_level_5_has_no_segment_lists() {
    let r = fixture("statspack/19.0.0.0_spreport_11_12_level5.lst");
    assert_eq!(r.header.host.as_deref(), Some("sphost19"));
    assert_eq!(
        (r.header.cpus, r.header.cores, r.header.sockets),
        (Some(4 * 2), Some(4), Some(1))
    );
    assert_eq!(r.header.db_time_s, Some(5400.0));
    assert_eq!(r.wait_events.foreground.len(), 4);
    assert_eq!(r.wait_events.all.len(), 6);
    assert!(r.segments.is_empty());
    assert_eq!(r.buffer_pool_advisory[1].est_phys_reads, Some(4_320_000.0));
    insta::assert_json_snapshot!("statspack_19c_level5", r);
}

#[test]
fn statspack_19c_level_7_adds_the_segment_lists() {
    let r5 = fixture("statspack/19.0.0.0_spreport_11_12_level5.lst");
    let r7 = fixture("statspack/19.0.0.0_spreport_11_12_level7.lst");
    let keys: Vec<&str> = r7.segments.keys().map(String::as_str).collect();
    assert_eq!(
        keys,
        ["buffer_busy_waits", "logical_reads", "physical_reads"]
    );
    let top = &r7.segments["physical_reads"][0];
    assert_eq!(
        (
            top.owner.as_str(),
            top.tablespace.as_str(),
            top.object.as_str()
        ),
        ("ORD", "ORDERS_DAT", "ORDERS")
    );
    assert_eq!(top.pct_total, Some(60.0));
    // Everything else is the same report.
    assert_eq!(r5.wait_events, r7.wait_events);
    assert_eq!(r5.activity_stats, r7.activity_stats);
    insta::assert_json_snapshot!("statspack_19c_level7_segments", r7.segments);
}
