//! `dba_segments` CSV exports written for awrflash, and the join helper
//! that AWR segment rows use.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::PathBuf;

use awrflash_model::{Document, Format, SegmentSizes};

fn sizes(name: &str) -> SegmentSizes {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/segsizes")
        .join(name);
    let bytes = std::fs::read(&p).unwrap();
    match awrflash_parse::parse_bytes(&format!("fixtures/segsizes/{name}"), &bytes).unwrap() {
        Document::SegmentSizes(s) => *s,
        other => panic!("{name}: parsed as {:?}", other.source().format),
    }
}

#[test]
fn a_quoted_export_with_extra_columns_parses_and_joins() {
    let s = sizes("dba_segments.csv");
    assert_eq!(s.source.format, Format::SegmentSizes);
    assert_eq!(s.segments.len(), 9);
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    // Partitioned table: one partition, or every partition summed.
    assert_eq!(
        s.bytes_of("sales", "orders", Some("ORDERS_2026Q1")),
        Some(6_442_450_944)
    );
    assert_eq!(
        s.bytes_of("SALES", "ORDERS", None),
        Some(4_294_967_296 + 6_442_450_944 + 2_147_483_648)
    );
    assert_eq!(s.bytes_of("SALES", "ORDERS", Some("NO_SUCH")), None);
    assert_eq!(
        s.bytes_of("SALES", "ORDER_LINES", Some("")),
        Some(17_179_869_184)
    );
    assert_eq!(s.bytes_of("SYS", "AUD$", None), Some(1_200_000_000));
    assert_eq!(s.bytes_of("NOBODY", "ORDERS", None), None);
    insta::assert_json_snapshot!("dba_segments", s);
}

#[test]
fn a_semicolon_export_in_megabytes_parses_and_warns_on_overflow() {
    let s = sizes("semicolon_mb.csv");
    assert_eq!(s.segments.len(), 2);
    assert_eq!(
        s.bytes_of("SALES", "ORDERS_PK", None),
        Some(768 * 1024 * 1024)
    );
    assert_eq!(s.segments[0].partition_name, None);
    assert_eq!(s.warnings.len(), 1);
    assert_eq!(s.warnings[0].line, 4);
    assert!(s.warnings[0].message.contains("BROKEN"));
}

#[test]
fn a_csv_without_the_needed_columns_is_an_error_naming_the_line() {
    let e = awrflash_parse::segsizes::parse("x.csv", "owner,segment_name,tablespace_name\nA,B,C\n")
        .unwrap_err();
    assert!(e.to_string().contains("x.csv:1"), "{e}");
    assert!(e.to_string().contains("BYTES"), "{e}");
}
