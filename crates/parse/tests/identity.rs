//! Who a report is about: identity cells never hold markup, a hidden
//! identity is said out loud, a spreadsheet export with doubled attribute
//! quotes parses like the clean file, and warnings that change the meaning
//! of the result are marked as such.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

#[path = "awr_text_checks.rs"]
mod checks;

use std::path::PathBuf;

use awrflash_model::{DbReport, Document, Warning, WarningKind};

fn fixture(rel: &str) -> Vec<u8> {
    let p = awrflash_testkit::fixtures(rel);
    std::fs::read(&p).expect("fixture is readable")
}

fn report_of(name: &str, bytes: &[u8]) -> DbReport {
    match awrflash_parse::parse_bytes(name, bytes) {
        Ok(Document::Report(r)) => *r,
        other => panic!("{name}: {other:?}"),
    }
}

fn meaning(r: &DbReport) -> Vec<&Warning> {
    r.warnings
        .iter()
        .filter(|w| w.is_meaning_changing())
        .collect()
}

#[test]
fn hidden_identity_leaves_fields_empty_and_says_what_is_missing() {
    let name = "awr-html/pdb_hidden_identity_reduced.html";
    let r = report_of(name, &fixture(name));
    let h = &r.header;
    assert!(h.system_data_hidden);
    assert_eq!(h.db_name, None);
    assert_eq!(h.dbid, None);
    assert_eq!(h.release, None);
    assert_eq!(h.host, None);
    assert_eq!(h.cpus, None);
    // The container cell held `/td>`: markup, not a name.
    assert_eq!(h.container, None);
    assert_eq!(h.begin_snap, Some(900));
    let m = meaning(&r);
    assert!(
        m.iter()
            .any(|w| w.message.contains("container") && w.message.contains("/td>")),
        "{m:#?}"
    );
    let id = m
        .iter()
        .find(|w| w.message.starts_with("identity not shown"))
        .expect("an identity warning");
    assert!(
        id.message.contains("DB name, DBID, release"),
        "{}",
        id.message
    );
    assert!(
        id.message.contains("System Data Visible: NO"),
        "{}",
        id.message
    );
    // The figures are still read.
    assert!(!r.load_profile.is_empty() && !r.top_events.is_empty());
}

#[test]
fn a_clean_report_has_no_meaning_changing_warning() {
    let name = "sample/awr_19c_sample.html";
    let r = report_of(name, &fixture(name));
    assert!(meaning(&r).is_empty(), "{:#?}", r.warnings);
    assert!(!r.header.system_data_hidden);
}

#[test]
fn a_cut_report_carries_a_meaning_changing_warning() {
    let bytes = fixture("sample/awr_19c_sample.html");
    let cut = &bytes[..bytes.len() / 10];
    let r = report_of("sample#cut", cut);
    assert!(
        meaning(&r).iter().any(|w| w.message.contains("cut short")),
        "{:#?}",
        r.warnings
    );
}

#[test]
fn warning_kind_is_serialised_only_when_it_changes_the_meaning() {
    let detail = serde_json::to_string(&Warning::new("s", 1, "m")).unwrap();
    assert!(!detail.contains("kind"), "{detail}");
    let w = Warning::changes_meaning("s", 1, "m");
    let json = serde_json::to_string(&w).unwrap();
    assert!(json.contains(r#""kind":"changes-meaning""#), "{json}");
    let back: Warning = serde_json::from_str(&json).unwrap();
    assert_eq!(back.kind, WarningKind::ChangesMeaning);
    let old: Warning = serde_json::from_str(r#"{"section":"s","line":1,"message":"m"}"#).unwrap();
    assert_eq!(old.kind, WarningKind::Detail);
}

#[test]
fn statspack_results_are_invalid_changes_the_meaning() {
    let Some(dir) = awrflash_testkit::corpus("statspack") else {
        return;
    };
    let name = "9.2.0.1_nabeelkhan-Oracle-DBA-Life_sp_result.lst";
    let r = report_of(name, &std::fs::read(dir.join(name)).unwrap());
    assert!(
        meaning(&r)
            .iter()
            .any(|w| w.message.contains("RESULTS ARE INVALID")),
        "{:#?}",
        r.warnings
    );
}

/// A spreadsheet or CSV export doubles every attribute quote:
/// `class=""awrbg""`.
fn double_quotes(text: &str) -> String {
    text.replace('"', "\"\"")
}

#[test]
fn doubled_attribute_quotes_parse_exactly_like_the_clean_file() {
    let Some(dir) = awrflash_testkit::corpus("awr-html") else {
        return;
    };
    let files = awrflash_testkit::files_in(&dir);
    // Three reports of different releases and kinds keep the test quick.
    let picked: Vec<&PathBuf> = files
        .iter()
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.starts_with("11.2.0.4_pcambell")
                || n.starts_with("12.2.0.1_pcambell")
                || n.starts_with("19c_Azure-Oracle-Workloads-for-Azure_AWR_DBV")
        })
        .collect();
    assert!(
        !picked.is_empty(),
        "none of the chosen reports in {}",
        dir.display()
    );
    for path in picked {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        let doubled = double_quotes(&text);
        assert!(
            doubled.contains(r#"class=""awrbg"""#),
            "{name}: nothing was doubled"
        );
        let clean = report_of(&name, text.as_bytes());
        let export = report_of(&name, doubled.as_bytes());
        assert!(!clean.load_profile.is_empty(), "{name}: vacuous");
        if clean != export {
            let a = serde_json::to_string_pretty(&clean).unwrap();
            let b = serde_json::to_string_pretty(&export).unwrap();
            let diff: Vec<String> = a
                .lines()
                .zip(b.lines())
                .enumerate()
                .filter(|(_, (x, y))| x != y)
                .take(10)
                .map(|(i, (x, y))| format!("line {i}: {x} | {y}"))
                .collect();
            panic!(
                "{name}: the doubled-quote copy parses differently:\n{}",
                diff.join("\n")
            );
        }
    }
}
