//! The HTML report in a real browser: headless Chromium renders it without a
//! script error or a blocked load, requests nothing from the network, and the
//! screenshot and DOM show every section. The pages and screenshots stay in
//! `target/browser/` for review.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use awrflash_report::testing::open_in_chromium;

fn check(name: &str, charts: usize) {
    let a = support::fixture(name);
    let html = awrflash_report::html(&a);
    let run = open_in_chromium(
        &html,
        &support::browser_dir(),
        &format!("report-{name}"),
        1280,
        4000,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    println!("screenshot: {}", run.screenshot.display());
    let problems = run.report_problems();
    assert!(problems.is_empty(), "{name}:\n{}", problems.join("\n"));
    let svgs = run.dom.matches("<svg").count();
    assert_eq!(svgs, charts, "{name}: charts in the rendered DOM");
    assert_eq!(run.screenshot_size, (1280, 4000), "screenshot size");
    // A blank 1280x4000 PNG compresses to a few kB; a rendered page is far larger.
    assert!(
        run.screenshot_bytes > 60_000,
        "screenshot {} is only {} bytes: the page did not render",
        run.screenshot.display(),
        run.screenshot_bytes
    );
}

#[test]
fn rich_report_renders_in_chromium_with_every_section_and_chart() {
    // breakdown + 4 histograms + flash curve + pareto + 4 time series
    check("rich", 11);
}

#[test]
fn sparse_report_renders_in_chromium_without_charts() {
    check("sparse", 0);
}

#[test]
fn injected_markup_stays_text_in_the_browser_dom() {
    let html = awrflash_report::html(&support::injected());
    let run = open_in_chromium(
        &html,
        &support::browser_dir(),
        "report-injected",
        1280,
        2000,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        run.page_errors().is_empty(),
        "{}",
        run.page_errors().join("\n")
    );
    assert!(
        run.network_requests.is_empty(),
        "{:?}",
        run.network_requests
    );
    let dom = run.dom.to_ascii_lowercase();
    assert!(!dom.contains("<img"), "an <img> element was created");
    assert!(!dom.contains("<script"), "a <script> element was created");
    assert!(dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
}

/// The checks above can fail: a page with a script error, a blocked load and
/// a remote image is caught.
#[test]
fn the_browser_check_catches_script_errors_and_network_loads() {
    let bad = "<!doctype html><html><head><meta charset=utf-8><title>bad</title></head><body>\
        <img src=\"http://127.0.0.1:9/x.png\"><script>undefinedFunction();</script></body></html>";
    let run = open_in_chromium(bad, &support::browser_dir(), "negative", 800, 600)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        run.page_errors().iter().any(|l| l.contains("Uncaught")),
        "script error not seen in:\n{}",
        run.log
    );
    assert_eq!(run.network_requests, vec!["http://127.0.0.1:9/x.png"]);
    let problems = run.report_problems();
    assert!(problems.iter().any(|p| p.starts_with("page error:")));
    assert!(problems.iter().any(|p| p.starts_with("network request:")));
    assert!(
        problems
            .iter()
            .any(|p| p == "section #verdict missing from the DOM")
    );
}

#[test]
fn index_page_renders_in_chromium_with_a_row_per_database() {
    let rich = support::fixture("rich");
    let sparse = support::fixture("sparse");
    let html = awrflash_report::index_html(&[
        (&rich, "report-rich.html".to_string()),
        (&sparse, "report-sparse.html".to_string()),
    ]);
    let run = open_in_chromium(&html, &support::browser_dir(), "index", 1280, 800)
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        run.page_errors().is_empty(),
        "{}",
        run.page_errors().join("\n")
    );
    assert!(
        run.network_requests.is_empty(),
        "{:?}",
        run.network_requests
    );
    assert!(run.dom.contains("<section id=\"databases\""));
    assert_eq!(
        run.dom.matches("<tr><td><a href=").count(),
        2,
        "one row per database"
    );
}
