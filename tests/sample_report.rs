//! The sample report README links (`docs/sample-report.html`) is what the
//! binary writes today for the shipped sample, so it never goes stale.

// Test helpers outside #[test] functions may fail loudly too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::{awrflash, code, root, stderr};

const SAMPLE: &str = "fixtures/sample/awr_19c_sample.html";
const COMMITTED: &str = "docs/sample-report.html";
const REFRESH: &str =
    "cargo run --release -- analyze fixtures/sample/awr_19c_sample.html -o docs/sample-report.html";

#[test]
fn committed_sample_report_matches_the_binary_output() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("sample-report.html");
    // Same relative input path as the README command: the report names its inputs.
    let o = awrflash()
        .current_dir(root())
        .args(["analyze", "-q", SAMPLE, "-o", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let fresh = std::fs::read_to_string(&out).unwrap();
    let committed = std::fs::read_to_string(root().join(COMMITTED))
        .unwrap_or_else(|e| panic!("{COMMITTED}: {e}; write it with `{REFRESH}`"));
    if fresh != committed {
        let line = fresh
            .lines()
            .zip(committed.lines())
            .position(|(a, b)| a != b)
            .map_or_else(
                || "one is a prefix of the other".to_string(),
                |i| format!("first difference at line {}", i + 1),
            );
        panic!(
            "{COMMITTED} is stale ({line}): refresh it with\n    {REFRESH}\n\
             and look at it (and docs/screenshot.png) before committing"
        );
    }
    // The page README shows is a real report of the sample.
    assert!(committed.contains("<section id=\"verdict\""));
    assert!(committed.contains(SAMPLE));
}
