//! Reduced AWR text reports written for releases the corpus lacks (10g,
//! 11.1, 19c in 80 and 132 columns): each parses, passes the corpus
//! consistency checks, and its full model is snapshotted.

#![allow(clippy::unwrap_used, clippy::panic)]

#[path = "awr_text_checks.rs"]
mod checks;

use std::path::PathBuf;

use awrflash_model::DbReport;

fn fixture(name: &str) -> (DbReport, String) {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures")
        .join(name);
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
    // 10g "Wait Events" covers all sessions: it is not the foreground list.
    assert!(r.wait_events.foreground.is_empty());
    assert_eq!(r.wait_events.all.len(), 6, "the page break keeps every row");
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
