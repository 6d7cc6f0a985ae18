//! The HTML pages reference nothing outside themselves: no URL, no external
//! script, style, font or image, so they work on an air-gapped host and as a
//! ticket attachment.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use support::{FIXTURES, fixture, injected, tags};

/// Tags a report page may contain: none of them loads anything.
const ALLOWED_TAGS: [&str; 47] = [
    "html",
    "head",
    "meta",
    "title",
    "style",
    "body",
    "header",
    "nav",
    "main",
    "section",
    "footer",
    "h1",
    "h2",
    "h3",
    "p",
    "a",
    "span",
    "strong",
    "em",
    "sup",
    "code",
    "pre",
    "cite",
    "br",
    "dl",
    "dt",
    "dd",
    "div",
    "ol",
    "ul",
    "li",
    "table",
    "thead",
    "tbody",
    "tr",
    "th",
    "td",
    "article",
    "figure",
    "details",
    "summary",
    "figcaption",
    "svg",
    "rect",
    "line",
    "polyline",
    "circle",
];
const SVG_TAGS: [&str; 2] = ["text", "title"];

fn pages() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = FIXTURES
        .iter()
        .map(|n| (n.to_string(), awrflash_report::html(&fixture(n))))
        .collect();
    v.push(("injected".into(), awrflash_report::html(&injected())));
    let rich = fixture("rich");
    let sparse = fixture("sparse");
    v.push((
        "index".into(),
        awrflash_report::index_html(&[
            (&rich, "PRODOLTP/report.html".into()),
            (&sparse, "TESTDB/report.html".into()),
        ]),
    ));
    v
}

#[test]
fn pages_built_from_the_fixtures_contain_no_url_at_all() {
    for (name, html) in pages().iter().filter(|(n, _)| n != "injected") {
        assert!(!html.contains("http://"), "{name}: contains http://");
        assert!(!html.contains("https://"), "{name}: contains https://");
        assert!(
            !html.contains("//"),
            "{name}: contains a protocol-relative //"
        );
    }
}

#[test]
fn pages_load_no_resource() {
    for (name, html) in pages() {
        // The index's one inline script (allowed by its hash, see the CSP
        // test) loads nothing: no src, no fetch, no navigation.
        let html = if name == "index" {
            let (before, rest) = html.split_once("<script>").expect("index: no sort script");
            let (script, after) = rest.split_once("</script>").expect("index: open script");
            for bad in [
                "src",
                "fetch",
                "XMLHttpRequest",
                "location",
                "import",
                "eval",
            ] {
                assert!(!script.contains(bad), "index script uses {bad}");
            }
            assert!(!after.contains("<script"), "index: a second script");
            format!("{before}{after}")
        } else {
            html
        };
        // The style sheet loads nothing (no url(), @import or web font).
        let style = html
            .split("<style>")
            .nth(1)
            .and_then(|s| s.split("</style>").next())
            .unwrap_or("")
            .to_ascii_lowercase();
        for bad in ["url(", "@import", "@font-face"] {
            assert!(!style.contains(bad), "{name}: style sheet has {bad}");
        }
        if name != "injected" {
            // Without planted text, not even the words appear.
            let lower = html.to_ascii_lowercase();
            for bad in [
                "url(", "@import", "src=", "<link", "<script", "<base", "<img",
            ] {
                assert!(!lower.contains(bad), "{name}: {bad} appears");
            }
        }
        for tag in tags(&html) {
            assert!(
                ALLOWED_TAGS.contains(&tag.name.as_str()) || SVG_TAGS.contains(&tag.name.as_str()),
                "{name}: tag <{}> may load something",
                tag.name
            );
            for (attr, value) in &tag.attributes {
                if attr == "href" {
                    let relative_file = name == "index" && !value.contains(':');
                    assert!(
                        value.starts_with('#') || relative_file,
                        "{name}: link to {value:?} leaves the page"
                    );
                }
                if attr == "style" {
                    assert!(!value.contains("url"), "{name}: style {value:?}");
                }
            }
        }
    }
}

#[test]
fn a_content_security_policy_blocks_any_load_the_page_might_attempt() {
    for (name, html) in pages() {
        if name == "index" {
            // The same policy plus its sort script, by hash only.
            let script = html
                .split_once("<script>")
                .and_then(|(_, r)| r.split_once("</script>"))
                .map(|(s, _)| s)
                .expect("index: no sort script");
            let csp = format!(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src {}\">",
                awrflash_report::testing::script_hash(script)
            );
            assert!(
                html.contains(&csp),
                "index: no CSP allowing its script by hash"
            );
            continue;
        }
        assert!(
            html.contains(
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">"
            ),
            "{name}: no CSP"
        );
    }
}

#[test]
fn sections_absent_from_the_analysis_say_so() {
    let html = awrflash_report::html(&fixture("sparse"));
    for what in [
        "Segment statistics: not in the inputs.",
        "Flash cache sizing: not in the inputs.",
        "Wait Event Histogram: not in the inputs.",
        "Tablespace IO Stats: not in the inputs.",
        "iostat capture: not in the inputs.",
        "Time series: not in the inputs",
        "DB time breakdown: not in the inputs.",
    ] {
        assert!(html.contains(what), "sparse report lacks {what:?}");
    }
    // An analysis with nothing at all still renders a page.
    let empty = awrflash_report::html(&awrflash_model::Analysis::default());
    assert!(empty.contains("unknown database"));
    assert!(empty.contains("</html>"));
}
