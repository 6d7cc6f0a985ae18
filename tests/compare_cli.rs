//! `awrflash compare` through the binary on corpus reports: a pair of
//! different databases is refused (exit 2), a report against itself shows
//! no change and its JSON validates against `schema/comparison.schema.json`,
//! and the HTML page opens in headless Chromium.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;
#[path = "../crates/report/tests/support/schema_check.rs"]
mod schema_check;

use std::fs;

use awrflash_report::testing::open_in_chromium;
use common::{code, root, run, stderr, stdout};

const RECEIPT: &str = "awr-html/12.1.0.2_sarthi2020-AWR-reports_awr_rpt_2.html";
const RMGTIBP: &str = "awr-html/19c_jdmoreno-awr-export_awrrpt_1_72336_72337.html";

fn input(rel: &str) -> Option<String> {
    Some(
        awrflash_testkit::corpus("")?
            .join(rel)
            .to_str()
            .unwrap()
            .to_string(),
    )
}

#[test]
fn a_pair_of_different_databases_is_refused_with_both_names() {
    let (Some(b), Some(a)) = (input(RECEIPT), input(RMGTIBP)) else {
        return;
    };
    let o = run(&["compare", "--before", &b, "--after", &a]);
    assert_eq!(code(&o), 2, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("different databases"), "{err}");
    assert!(
        err.contains("RECEIPT (DBID 1431238624") && err.contains("RMGTIBP (DBID 2447957804"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());
}

#[test]
fn a_report_against_itself_shows_no_change_and_its_json_validates() {
    let Some(b) = input(RECEIPT) else {
        return;
    };
    let o = run(&[
        "compare", "-q", "--before", &b, "--after", &b, "--format", "json",
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let schema: serde_json::Value = serde_json::from_str(
        &fs::read_to_string(root().join("schema/comparison.schema.json")).unwrap(),
    )
    .unwrap();
    let (errors, _) = schema_check::validate_against(&schema, &v);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    assert_eq!(v["database"]["db_name"], "RECEIPT");
    assert_eq!(v["storage_changes"].as_array().unwrap().len(), 0);
    assert_eq!(v["window"]["choice"], "whole-windows");
    assert!(v["projection_check"].is_null());
    let per_txn = v["figures"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["key"] == "db_time_per_txn_ms")
        .unwrap();
    assert_eq!(per_txn["before"], per_txn["after"]);
    assert_eq!(per_txn["change_pct"], 0.0);
}

#[test]
fn the_comparison_page_opens_in_chromium() {
    let Some(b) = input(RECEIPT) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("c.html");
    let o = run(&[
        "compare",
        "-q",
        "--before",
        &b,
        "--after",
        &b,
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let html = fs::read_to_string(&out).unwrap();
    let page = open_in_chromium(
        &html,
        &root().join("target/browser"),
        "e2e-compare",
        1280,
        3000,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    println!("screenshot {}", page.screenshot.display());
    assert!(page.page_errors().is_empty(), "{:?}", page.page_errors());
    assert!(
        page.network_requests.is_empty(),
        "{:?}",
        page.network_requests
    );
    assert!(page.screenshot_bytes > 40_000, "nothing rendered");
    for id in [
        "summary",
        "changes",
        "projection",
        "figures",
        "breakdown",
        "waits",
        "histograms",
    ] {
        assert!(
            page.dom.contains(&format!("<section id=\"{id}\"")),
            "no #{id}"
        );
    }
    assert!(page.dom.contains("RECEIPT") && page.dom.contains("<svg"));
}
