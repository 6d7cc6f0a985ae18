//! `v$sysstat` spools and CSVs written for awrflash: flash cache statistics
//! in two captures, a begin/end file pair, and a spool with `#####`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use awrflash_model::{Document, Format, SysstatSpool};

fn fixture(name: &str) -> (String, Vec<u8>) {
    let p = awrflash_testkit::fixtures("sysstat").join(name);
    (
        format!("fixtures/sysstat/{name}"),
        std::fs::read(&p).unwrap(),
    )
}

fn spool(name: &str) -> SysstatSpool {
    let (path, bytes) = fixture(name);
    match awrflash_parse::parse_bytes(&path, &bytes).unwrap() {
        Document::Sysstat(s) => *s,
        other => panic!("{name}: parsed as {:?}", other.source().format),
    }
}

#[test]
fn a_spool_with_two_captures_gives_flash_cache_deltas() {
    let s = spool("flash_cache_two_captures.lst");
    assert_eq!(s.source.format, Format::Sysstat);
    assert_eq!(s.captures.len(), 2);
    assert_eq!(
        s.captures[0].values.len(),
        13,
        "a page header inside a capture"
    );
    assert_eq!(s.captures[0].time.as_deref(), Some("2026-11-23T14:00:02"));
    assert_eq!(s.captures[1].time.as_deref(), Some("2026-11-23T15:00:04"));
    assert_eq!(
        s.delta("flash cache insert skip: DBWR overloaded"),
        Some(33691.0)
    );
    assert_eq!(s.delta("physical read flash cache hits"), Some(1958338.0));
    assert_eq!(s.delta("flash cache eviction: aged out"), Some(326.0));
    // Names stay exactly as printed.
    assert!(
        s.deltas
            .iter()
            .any(|v| v.name == "flash cache insert skip: not useful")
    );
    assert!(s.warnings.is_empty(), "{:?}", s.warnings);
    insta::assert_json_snapshot!("flash_cache_two_captures", s);
}

#[test]
fn begin_and_end_files_pair_into_deltas() {
    let b = spool("begin.csv");
    let e = spool("end.csv");
    assert_eq!(b.captures.len(), 1);
    assert!(b.deltas.is_empty(), "one capture of counters has no delta");
    let p = awrflash_parse::sysstat::pair(&b, &e);
    assert_eq!(p.captures.len(), 2);
    assert_eq!(
        p.captures[0].file.as_deref(),
        Some("fixtures/sysstat/begin.csv")
    );
    assert_eq!(p.delta("flash cache inserts"), Some(407868.0));
    // The same numbers as the one-file spool.
    let one = spool("flash_cache_two_captures.lst");
    let a: Vec<_> = one.deltas.iter().map(|v| (&v.name, v.value)).collect();
    let b: Vec<_> = p.deltas.iter().map(|v| (&v.name, v.value)).collect();
    assert_eq!(a, b);
}

#[test]
fn overflowed_values_are_empty_with_a_warning_never_zero() {
    let s = spool("overflow.lst");
    let v = s.captures[0]
        .values
        .iter()
        .find(|v| v.name == "physical reads")
        .unwrap();
    assert_eq!(v.value, None);
    assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
    assert!(s.warnings[0].message.contains("physical reads"));
    assert_eq!(s.warnings[0].line, v.src.line);
    let hits = s.captures[0]
        .values
        .iter()
        .find(|v| v.name == "physical read flash cache hits")
        .unwrap();
    assert_eq!(hits.value, Some(7980112.0));
}

#[test]
fn a_restart_between_captures_gives_no_delta() {
    let text = "name,value\nflash cache inserts,500\nflash cache inserts,20\n";
    let s = awrflash_parse::sysstat::parse("restart.csv", text).unwrap();
    assert_eq!(s.captures.len(), 2);
    assert_eq!(s.delta("flash cache inserts"), None);
    assert!(s.warnings.iter().any(|w| w.message.contains("backwards")));
}

#[test]
fn a_colsep_spool_with_extra_columns_and_wrapped_names_reads_by_header() {
    let s = spool("wide_colsep.lst");
    assert_eq!(s.captures.len(), 1);
    let names: Vec<&str> = s.captures[0]
        .values
        .iter()
        .map(|v| v.name.as_str())
        .collect();
    assert_eq!(
        names,
        [
            "flash cache inserts",
            "flash cache insert skip: DBWR overloaded",
            "flash cache insert skip: exists",
            "physical read flash cache hits",
            "flash cache eviction: aged out",
        ]
    );
    let v: Vec<Option<f64>> = s.captures[0].values.iter().map(|v| v.value).collect();
    assert_eq!(
        v,
        [
            Some(408211.0),
            Some(33691.0),
            Some(12066.0),
            Some(1958338.0),
            Some(1.2346e10)
        ]
    );
    // One capture of counters: no deltas, and the E notation is flagged.
    assert!(s.deltas.is_empty());
    assert_eq!(s.warnings.len(), 1, "{:?}", s.warnings);
    assert!(s.warnings[0].message.contains("E notation"));
}
