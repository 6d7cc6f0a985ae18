//! Every format, snapshotted for the two analysis fixtures (`fixtures/analysis/`).
//! Output must be deterministic: rendering twice gives the same bytes.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use support::{FIXTURES, fixture};

fn snapshot(format: &str, name: &str, out: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path("snapshots");
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(format!("{name}.{format}"), out));
}

#[test]
fn html_snapshots() {
    for name in FIXTURES {
        let a = fixture(name);
        let out = awrflash_report::html(&a);
        assert_eq!(
            out,
            awrflash_report::html(&a),
            "{name}: HTML is not deterministic"
        );
        snapshot("html", name, &without_style(&out));
    }
}

#[test]
fn markdown_snapshots() {
    for name in FIXTURES {
        let a = fixture(name);
        let out = awrflash_report::markdown(&a);
        assert_eq!(out, awrflash_report::markdown(&a));
        snapshot("md", name, &out);
    }
}

#[test]
fn text_snapshots_plain_and_coloured() {
    for name in FIXTURES {
        let a = fixture(name);
        let plain = awrflash_report::text(&a, false);
        assert!(!plain.contains('\x1b'), "{name}: plain text has ANSI codes");
        for l in plain.lines() {
            assert!(
                l.chars().count() <= 100,
                "{name}: line over 100 columns: {l}"
            );
        }
        snapshot("txt", name, &plain);
        let colour = awrflash_report::text(&a, true);
        assert!(
            colour.contains("\x1b["),
            "{name}: coloured text has no ANSI codes"
        );
        // Colour only adds escape codes: stripped, it is the plain text.
        assert_eq!(strip_ansi(&colour), plain, "{name}");
    }
}

#[test]
fn text_snapshots_at_80_and_160_columns_fit_their_width() {
    for name in FIXTURES {
        let a = fixture(name);
        for width in [80, 160] {
            let out = awrflash_report::text_width(&a, false, width);
            for l in out.lines() {
                assert!(
                    l.chars().count() <= width,
                    "{name}: line over {width} columns: {l}"
                );
            }
            snapshot("txt", &format!("{name}.{width}"), &out);
        }
        assert_eq!(
            awrflash_report::text_width(&a, false, 100),
            awrflash_report::text(&a, false),
            "{name}: 100 columns is the default"
        );
    }
}

#[test]
fn brief_markdown_snapshots_and_stays_short() {
    for name in FIXTURES {
        let a = fixture(name);
        let out = awrflash_report::markdown_brief(&a);
        assert!(out.len() < 10_000, "{name}: brief is {} bytes", out.len());
        assert!(out.contains("## Verdict"), "{name}");
        assert!(!out.contains("[^"), "{name}: footnote syntax");
        snapshot("brief.md", name, &out);
    }
}

/// Every `path` of the analysis moved under a local directory.
fn under_a_directory(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                match x {
                    serde_json::Value::String(s) if k == "path" && !s.is_empty() => {
                        *s = format!("/home/dba/awr/{s}");
                    }
                    _ => under_a_directory(x),
                }
            }
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(under_a_directory),
        _ => {}
    }
}

#[test]
fn markdown_names_files_without_their_directories_and_numbers_its_notes() {
    for name in FIXTURES {
        let mut v = serde_json::to_value(fixture(name)).unwrap();
        under_a_directory(&mut v);
        let a: awrflash_model::Analysis = serde_json::from_value(v).unwrap();
        assert!(
            awrflash_report::text(&a, false).contains("/home/dba/awr/"),
            "{name}: the fixture has no path to shorten"
        );
        let out = awrflash_report::markdown(&a);
        assert!(!out.contains("[^"), "{name}: footnote syntax");
        let leak: Vec<&str> = out.lines().filter(|l| l.contains("/home/dba")).collect();
        assert!(leak.is_empty(), "{name}: a local directory: {leak:?}");
        if out.contains(" \\[1\\]") {
            assert!(out.contains("\n1. "), "{name}: note 1 is not listed");
        }
    }
}

#[test]
fn coloured_text_marks_severities() {
    let colour = awrflash_report::text(&fixture("rich"), true);
    assert!(colour.contains("\x1b[1;31m[CRITICAL]\x1b[0m"));
    assert!(colour.contains("\x1b[1;33m[WARNING]\x1b[0m"));
    assert!(colour.contains("\x1b[1;36m[INFO]\x1b[0m"));
}

#[test]
fn json_snapshots_and_round_trips() {
    for name in FIXTURES {
        let a = fixture(name);
        let out = awrflash_report::json(&a);
        let back: awrflash_model::Analysis = serde_json::from_str(&out).unwrap();
        assert_eq!(back, a, "{name}: JSON does not round-trip");
        snapshot("json", name, &out);
    }
}

#[test]
fn index_page_lists_each_database_sorted() {
    let rich = fixture("rich");
    let sparse = fixture("sparse");
    let out = awrflash_report::index_html(&[
        (&sparse, "TESTDB/report.html".to_string()),
        (&rich, "PRODOLTP/report.html".to_string()),
    ]);
    let p = out
        .find("href=\"PRODOLTP/report.html\"")
        .expect("link to PRODOLTP");
    let t = out
        .find("href=\"TESTDB/report.html\"")
        .expect("link to TESTDB");
    assert!(p < t, "index not sorted by database name");
    snapshot("html", "index", &without_style(&out));
}

/// The page without its style sheet (`templates/report.css`, the same for
/// every report), so that the snapshot shows the content.
fn without_style(html: &str) -> String {
    match (html.find("<style>"), html.find("</style>")) {
        (Some(a), Some(b)) if a < b => {
            format!("{}<style>/* report.css */{}", &html[..a], &html[b..])
        }
        _ => html.to_string(),
    }
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for d in chars.by_ref() {
                if d == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn a_long_input_list_folds_into_a_details_element() {
    let mut a = fixture("rich");
    let one = a.inputs[0].clone();
    a.inputs = (0..168)
        .map(|i| awrflash_model::Source {
            path: format!("awrrpt_{i}.html"),
            ..one.clone()
        })
        .collect();
    let html = awrflash_report::html(&a);
    assert!(html.contains("<details><summary>168 files (show the list)</summary>"));
    assert!(html.contains("awrrpt_167.html"));
    let few = awrflash_report::html(&fixture("rich"));
    assert!(!few.contains("<details>"), "10 inputs are listed openly");
}
