//! Text from the inputs (SQL, object, module and host names) is inert in
//! every format: escaped in HTML and Markdown, stripped of control characters
//! in terminal text.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use support::{IMG, SCRIPT, injected};

#[test]
fn html_shows_planted_markup_only_escaped() {
    let html = awrflash_report::html(&injected());
    assert!(!html.contains(SCRIPT), "raw <script> payload in the HTML");
    assert!(!html.contains(IMG), "raw <img> payload in the HTML");
    assert!(
        !html.to_ascii_lowercase().contains("<script"),
        "a <script> tag in the HTML"
    );
    assert!(
        !html.to_ascii_lowercase().contains("<img"),
        "an <img> tag in the HTML"
    );
    // The payloads are there, as text.
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(
        html.contains("&#34;&gt;&lt;img src=x onerror=alert(1)&gt;")
            || html.contains("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"),
        "escaped <img> payload missing"
    );
    // Many fields carry the payload: it must show up escaped many times.
    assert!(html.matches("&lt;script&gt;").count() > 50);
}

/// Every attribute the templates and the SVG builder write.
const ALLOWED_ATTRIBUTES: [&str; 35] = [
    "lang",
    "charset",
    "name",
    "content",
    "http-equiv",
    "id",
    "class",
    "href",
    "title",
    "style",
    "scope",
    "value",
    "aria-label",
    "role",
    "viewBox",
    "font-family",
    "x",
    "y",
    "width",
    "height",
    "fill",
    "x1",
    "y1",
    "x2",
    "y2",
    "stroke",
    "stroke-width",
    "stroke-dasharray",
    "points",
    "cx",
    "cy",
    "r",
    "text-anchor",
    "font-size",
    "transform",
];

#[test]
fn html_attributes_cannot_be_broken_out_of() {
    let html = awrflash_report::html(&injected());
    // A `"` from the input would end an attribute (title=, id=, href=); every
    // one must be escaped, so no tag may carry an `onerror` attribute.
    for tag in support::tags(&html) {
        for (name, _) in &tag.attributes {
            assert!(
                ALLOWED_ATTRIBUTES.contains(&name.as_str()),
                "attribute {name:?} in <{}>",
                tag.text
            );
        }
    }
    // Anchors built from input keys keep to [A-Za-z0-9_-].
    for id in html.split(" id=\"").skip(1) {
        let id = id.split('"').next().unwrap();
        assert!(
            id.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "id {id:?}"
        );
    }
}

#[test]
fn index_page_escapes_names_and_keeps_links_relative() {
    let a = injected();
    let html = awrflash_report::index_html(&[(&a, "javascript:alert(1)".to_string())]);
    assert!(!html.contains(SCRIPT));
    assert!(!html.to_ascii_lowercase().contains("<img"));
    assert!(!html.contains("href=\"javascript:"));
}

#[test]
fn markdown_shows_planted_markup_only_escaped() {
    let md = awrflash_report::markdown(&injected());
    // Outside fenced SQL blocks, no raw `<` from the input survives.
    let mut in_fence = false;
    for line in md.lines() {
        if line.starts_with("```") {
            in_fence = !in_fence;
            continue;
        }
        if !in_fence {
            assert!(!line.contains("<script"), "raw markup in: {line}");
            assert!(!line.contains("<img"), "raw markup in: {line}");
            assert!(!line.contains('\x1b'), "escape character in: {line}");
        }
    }
    assert!(!in_fence, "unbalanced code fence");
    assert!(md.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    // Table rows keep their column count: pipes from the input are escaped.
    for line in md
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains("&lt;script"))
    {
        let cells = line.replace("\\|", "").matches('|').count();
        assert!(cells >= 3, "{line}");
    }
}

#[test]
fn terminal_text_drops_control_characters_from_the_input() {
    let a = injected();
    let plain = awrflash_report::text(&a, false);
    assert!(
        !plain.contains('\x1b'),
        "escape sequence from the input reached the terminal"
    );
    let colour = awrflash_report::text(&a, true);
    assert!(
        !colour.contains("\x1b[2J"),
        "escape sequence from the input reached the terminal"
    );
    for l in plain.lines() {
        assert!(l.chars().count() <= 100, "over 100 columns: {l}");
    }
}

#[test]
fn json_keeps_the_text_as_data() {
    let a = injected();
    let out = awrflash_report::json(&a);
    let back: awrflash_model::Analysis = serde_json::from_str(&out).unwrap();
    assert_eq!(back, a);
}
