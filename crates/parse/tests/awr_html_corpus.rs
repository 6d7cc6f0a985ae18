//! Parses every AWR HTML report of the shared corpus and checks each model
//! against the report's own arithmetic (DB time, redo rate, top events).
//! Skips with a printed reason when `../shared/corpus` is absent.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod awr_html_common;

use awr_html_common::{check_report, misplaced_rows, summary_line};
use awrflash_model::Document;

#[test]
fn every_corpus_awr_html_report_parses_and_adds_up() {
    let Some(dir) = awrflash_testkit::corpus("awr-html") else {
        return;
    };
    let files = awrflash_testkit::files_in(&dir);
    assert!(!files.is_empty(), "no files in {}", dir.display());
    let mut failures = Vec::new();
    let mut lines = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let bytes = std::fs::read(path).unwrap();
        let doc = match awrflash_parse::parse_bytes(&name, &bytes) {
            Ok(d) => d,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let Document::Report(r) = doc else {
            failures.push(format!("{name}: not a report"));
            continue;
        };
        let raw = String::from_utf8_lossy(&bytes);
        let mut problems = check_report(&r, raw.contains("Segments by "));
        problems.extend(misplaced_rows(&r, &raw).into_iter().take(5));
        let line = summary_line(&name, &r);
        println!("{line}{}", if problems.is_empty() { "" } else { "  FAIL" });
        lines.push(line);
        for p in problems {
            failures.push(format!("{name}: {p}"));
        }
    }
    for f in &failures {
        println!("FAIL {f}");
    }
    insta::assert_snapshot!("corpus_summaries", lines.join("\n"));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus_ash_report_is_refused_with_a_reason() {
    let Some(dir) = awrflash_testkit::corpus("awr-html") else {
        return;
    };
    let ash = dir.join("../other/19c_Lucky29011-reports_ash.html");
    let Ok(bytes) = std::fs::read(&ash) else {
        println!("skipped: {} is absent", ash.display());
        return;
    };
    let e = awrflash_parse::parse_bytes("ash.html", &bytes).unwrap_err();
    assert!(e.to_string().contains("ASH report"), "{e}");
}
