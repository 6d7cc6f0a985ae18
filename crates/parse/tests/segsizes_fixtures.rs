//! `dba_segments` CSV exports and SQL*Plus spools written for awrflash, and the join helper
//! that AWR segment rows use.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use awrflash_model::{Document, Format, SegmentSizes};

fn sizes(name: &str) -> SegmentSizes {
    let p = awrflash_testkit::fixtures("segsizes").join(name);
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

#[test]
fn a_sqlplus_spool_with_prompts_and_page_headings_reads_every_row() {
    let s = sizes("sqlplus_spool.lst");
    assert_eq!(s.source.format, Format::SegmentSizes);
    let names: Vec<(&str, Option<&str>, u64)> = s
        .segments
        .iter()
        .map(|g| {
            (
                g.segment_name.as_str(),
                g.partition_name.as_deref(),
                g.bytes,
            )
        })
        .collect();
    assert_eq!(
        names,
        [
            ("ORDERS", Some("ORDERS_2026_11"), 2_147_483_648),
            ("ORDERS", Some("ORDERS_2026_10"), 1_073_741_824),
            ("ORDER_LINES", None, 805_306_368),
            ("ORDERS_PK", None, 268_435_456),
            ("CUSTOMERS", None, 67_108_864),
        ]
    );
    assert_eq!(
        s.segments[0].segment_type.as_deref(),
        Some("TABLE PARTITION")
    );
    assert_eq!(s.segments[3].tablespace_name.as_deref(), Some("SALES_IDX"));
    // Rows point at their spool lines.
    assert_eq!(s.segments[3].src.line, 13);
    assert_eq!(s.bytes_of("SALES", "ORDERS", None), Some(3_221_225_472));
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
}

#[test]
fn a_narrow_spool_reads_its_widths_and_warns_on_overflowed_sizes() {
    let s = sizes("sqlplus_spool_narrow.lst");
    assert_eq!(s.segments.len(), 2);
    assert_eq!(s.segments[1].bytes, 5_242_880);
    assert_eq!(s.warnings.len(), 1);
    assert_eq!(s.warnings[0].line, 5);
    assert!(s.warnings[0].message.contains("BIG_LOG"));
}

#[test]
fn spools_cut_anywhere_never_panic_and_name_the_file() {
    for name in ["sqlplus_spool.lst", "sqlplus_spool_narrow.lst"] {
        let p = awrflash_testkit::fixtures("segsizes").join(name);
        let b = std::fs::read(&p).unwrap();
        for end in 0..b.len() {
            let n = format!("{name}#{end}");
            if let Err(e) = awrflash_parse::parse_bytes(&n, &b[..end]) {
                assert!(e.to_string().contains(&n), "{n}: {e}");
            }
        }
    }
}
