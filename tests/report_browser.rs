//! The HTML report end to end: corpus reports through the binary, opened in
//! headless Chromium (no script error, no network request, every section,
//! a screenshot under `target/browser/`); markup planted in a copy of a
//! corpus report stays inert text in every format; and no report the corpus
//! yields references a resource over the network.

// Test helpers outside #[test] functions may fail loudly too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use awrflash_report::testing::{BrowserRun, open_in_chromium};
use common::{code, root, run, stderr};

const SCRIPT: &str = "<script>alert(1)</script>";
const IMG: &str = "\"><img src=x onerror=alert(1)>";

fn browser_dir() -> PathBuf {
    root().join("target/browser")
}

/// `awrflash analyze INPUT -o OUT` (quiet); panics with stderr on failure.
fn analyze(input: &Path, out: &Path) {
    let o = run(&[
        "analyze",
        "-q",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "analyze {}: {}", input.display(), stderr(&o));
}

/// The inner text of `<section id="ID" ...>...</section>` in a DOM dump.
fn section<'a>(dom: &'a str, id: &str) -> &'a str {
    let start = dom
        .find(&format!("<section id=\"{id}\""))
        .unwrap_or_else(|| panic!("no section #{id}"));
    let rest = &dom[start..];
    &rest[..rest.find("</section>").unwrap_or(rest.len())]
}

/// Text of an HTML fragment: tags removed, whitespace collapsed.
fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => {
                in_tag = false;
                out.push(' ');
            }
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn open(html: &str, name: &str, height: u32) -> BrowserRun {
    open_in_chromium(html, &browser_dir(), name, 1280, height).unwrap_or_else(|e| panic!("{e}"))
}

// ---------------------------------------------------------------------------
// 1. Corpus reports in a real browser

fn browse(rel: &str, name: &str) {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    let input = corpus.join(rel);
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("x.html");
    analyze(&input, &out);
    let json_out = tmp.path().join("x.json");
    analyze(&input, &json_out);
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json_out).unwrap()).unwrap();
    let db_name = json["database"]["db_name"]
        .as_str()
        .unwrap_or_else(|| panic!("{rel}: no database.db_name in the JSON output"))
        .to_string();
    assert!(!db_name.is_empty(), "{rel}: empty db_name");

    let html = fs::read_to_string(&out).unwrap();
    let run = open(&html, name, 4000);
    println!("{rel}: screenshot {}", run.screenshot.display());
    let problems = run.report_problems();
    assert!(problems.is_empty(), "{rel}:\n{}", problems.join("\n"));
    assert!(run.screenshot.starts_with(browser_dir()));
    assert!(run.screenshot.is_file(), "{rel}: no screenshot file");
    assert_eq!(run.screenshot_size, (1280, 4000), "{rel}: screenshot size");
    assert!(
        run.screenshot_bytes > 60_000,
        "{rel}: screenshot {} is only {} bytes: the page did not render",
        run.screenshot.display(),
        run.screenshot_bytes
    );

    // The page is this report's: its database name in the identity block.
    let database = text_of(section(&run.dom, "database"));
    assert!(
        database.contains(&db_name),
        "{rel}: #database does not name {db_name}: {database}"
    );
    // The verdict is a sentence, the options and findings sections have rows
    // of this report's own figures (the JSON's option names and rule ids).
    let verdict = text_of(section(&run.dom, "verdict"));
    assert!(verdict.len() > 40, "{rel}: thin verdict: {verdict}");
    let options = text_of(section(&run.dom, "options"));
    let findings = text_of(section(&run.dom, "findings"));
    let opts = json["options"].as_array().cloned().unwrap_or_default();
    assert!(!opts.is_empty(), "{rel}: the JSON has no options");
    for o in &opts {
        let key = o["key"].as_str().unwrap_or("");
        assert!(
            !key.is_empty() && options.contains(key),
            "{rel}: option {key:?} not in #options: {options}"
        );
    }
    let found = json["findings"].as_array().cloned().unwrap_or_default();
    assert!(!found.is_empty(), "{rel}: the JSON has no findings");
    for f in found {
        let id = f["id"].as_str().unwrap_or("");
        assert!(
            !id.is_empty() && findings.contains(id),
            "{rel}: finding {id:?} not in #findings"
        );
    }
    assert!(findings.len() > 20, "{rel}: #findings is empty: {findings}");
}

#[test]
fn corpus_19c_instance_report_renders_in_chromium() {
    browse(
        "awr-html/19c_Lucky29011-reports_awr.html",
        "e2e-19c-instance",
    );
}

#[test]
fn corpus_rac_global_report_renders_in_chromium() {
    browse(
        "awr-html/19c_Azure-Oracle-Workloads-for-Azure_AWR_DBV.html",
        "e2e-19c-rac-global",
    );
}

#[test]
fn corpus_awr_text_report_renders_in_chromium() {
    browse(
        "awr-text/12.2.0.1_ora600pl-jas-min_awrrpt_1_2668_2669.txt",
        "e2e-awr-text",
    );
}

#[test]
fn corpus_statspack_report_renders_in_chromium() {
    browse(
        "statspack/11.2.0.4_TheYanVictor-Statspack_scan.py_statspack_example.txt",
        "e2e-statspack",
    );
}

// ---------------------------------------------------------------------------
// 2. Injection

fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The object names (the `scope="row"` cells) of the first table whose
/// summary mentions `summary_part`.
fn row_names(html: &str, summary_part: &str) -> Vec<String> {
    let start = html
        .find(summary_part)
        .unwrap_or_else(|| panic!("no table with summary {summary_part:?}"));
    let table = &html[start..];
    let table = &table[..table.find("</table>").unwrap_or(table.len())];
    table
        .split("<td scope=\"row\" class=")
        .skip(1)
        .filter_map(|cell| {
            let text = cell.split_once('>')?.1.split('<').next()?;
            (!text.trim().is_empty() && text != "&#160;").then(|| text.to_string())
        })
        .collect()
}

/// A copy of a corpus AWR HTML report with the payloads planted, escaped
/// as Oracle prints cell text, in segment object names, SQL text and module cells.
fn planted_html(corpus: &Path, dir: &Path) -> PathBuf {
    // A report with enough I/O load that its hottest segments are advised
    // to move, so their names reach every output.
    let src = corpus.join("awr-html/12.1.0.1_michaelcunningham-oracledba_PDB05_10096_10097.html");
    let mut html = fs::read_to_string(&src).unwrap();
    let names = row_names(
        &html,
        "summary=\"This table displays top segments by physical read requests",
    );
    assert!(names.len() >= 2, "segment rows: {names:?}");
    // Oracle-maintained segments (`WRH$_...` in SYSAUX) are never advised
    // to move, so the payloads go into application segments.
    let app_names = names.iter().filter(|n| !n.contains('$'));
    for (name, payload) in app_names.take(2).zip([SCRIPT, IMG]) {
        let before = html.len();
        html = html.replace(&format!(">{name}<"), &format!(">{}<", html_escape(payload)));
        assert_ne!(html.len(), before, "{name} was not replaced");
    }
    // SQL text cells start with a keyword; module cells name the client program.
    let sql = html.matches(">select ").count();
    assert!(sql > 0, "no SQL text cell to plant into");
    html = html.replace(">select ", &format!(">{} select ", html_escape(SCRIPT)));
    // Module cells, where the report prints a client program.
    html = html.replace("sqlplus@", &format!("{}sqlplus@", html_escape(IMG)));
    let to = dir.join("planted.html");
    fs::write(&to, html).unwrap();
    to
}

/// A copy of a corpus AWR text report with the payloads as the object names
/// of the second and third segments of Segments by Physical Read Requests,
/// renamed in every segment line (plain text, as a text report prints
/// them). The first is a monitoring tool's repository table with 0.4% of the
/// reads: set aside and, under AF032's share, not listed at all.
fn planted_text(corpus: &Path, dir: &Path) -> PathBuf {
    let src = corpus.join("awr-text/12.2.0.1_ora600pl-jas-min_awrrpt_1_2668_2669.txt");
    let text = String::from_utf8_lossy(&fs::read(&src).unwrap()).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.starts_with("Segments by Physical Read Requests"))
        .expect("a Segments by Physical Read Requests table");
    let rule = head
        + lines[head..]
            .iter()
            .position(|l| l.starts_with("Object Name"))
            .unwrap()
        + 1;
    assert!(lines[rule].starts_with("----------"), "{}", lines[rule]);
    // Segment lines come in pairs: `OWNER TABLESPACE`, then `OBJECT ... TYPE numbers`.
    let names: Vec<String> = [rule + 4, rule + 6]
        .iter()
        .map(|&i| lines[i].split(' ').next().unwrap().to_string())
        .collect();
    assert!(names.iter().all(|n| !n.is_empty()), "{names:?}");
    let mut out = String::new();
    for line in &lines {
        let mut line = (*line).to_string();
        for (name, payload) in names.iter().zip([SCRIPT, IMG]) {
            if let Some(rest) = line.strip_prefix(&format!("{name} ")) {
                line = format!("{payload} {rest}");
            }
        }
        out.push_str(&line);
        out.push('\n');
    }
    assert!(out.contains(SCRIPT) && out.contains(IMG));
    let to = dir.join("planted.txt");
    fs::write(&to, out).unwrap();
    to
}

/// The HTML output carries the payloads only as escaped text.
fn assert_inert_html(html: &str, what: &str) {
    let lower = html.to_ascii_lowercase();
    assert!(
        !lower.contains("<script>alert"),
        "{what}: raw <script>alert in the HTML"
    );
    assert!(!lower.contains("<img"), "{what}: an <img> tag in the HTML");
    assert!(
        !lower.contains("<script"),
        "{what}: a <script> tag in the HTML"
    );
    let escaped_script = [
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "&#60;script&#62;alert(1)&#60;/script&#62;",
    ];
    assert!(
        escaped_script.iter().any(|e| html.contains(e)),
        "{what}: the planted object name is not in the report (escaped)"
    );
    let escaped_img = ["&lt;img src=x", "&#60;img src=x"];
    assert!(
        escaped_img.iter().any(|e| html.contains(e)),
        "{what}: the planted img payload is not in the report (escaped)"
    );
}

/// Chromium's DOM of the page has the payloads as text, no element from them.
fn assert_inert_dom(html: &str, name: &str) {
    let run = open(html, name, 2000);
    assert!(
        run.page_errors().is_empty(),
        "{name}: {}",
        run.page_errors().join("\n")
    );
    assert!(
        run.network_requests.is_empty(),
        "{name}: {:?}",
        run.network_requests
    );
    let dom = run.dom.to_ascii_lowercase();
    assert!(
        !dom.contains("<img"),
        "{name}: an <img> element was created"
    );
    assert!(
        !dom.contains("onerror=\""),
        "{name}: an onerror attribute exists"
    );
    assert_eq!(
        dom.matches("<script").count(),
        html.to_ascii_lowercase().matches("<script").count(),
        "{name}: a script element was added"
    );
    assert!(
        dom.contains("&lt;script&gt;alert(1)&lt;/script&gt;"),
        "{name}: the payload is not shown as text"
    );
}

/// Markdown: a raw payload only inside a code block or a code span.
fn assert_inert_md(md: &str, what: &str) {
    assert!(
        md.contains("alert(1)"),
        "{what}: payload not in the Markdown"
    );
    let mut fenced = false;
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        // Drop code spans, then no raw tag may remain.
        let outside: String = line
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 0)
            .map(|(_, s)| s)
            .collect();
        let lower = outside.to_ascii_lowercase();
        assert!(
            !lower.contains("<script") && !lower.contains("<img"),
            "{what}: raw markup outside code: {line}"
        );
    }
}

fn check_outputs(input: &Path, tmp: &Path, name: &str) {
    let html_out = tmp.join(format!("{name}.html"));
    analyze(input, &html_out);
    let html = fs::read_to_string(&html_out).unwrap();
    assert_inert_html(&html, name);
    assert_inert_dom(&html, &format!("e2e-injected-{name}"));

    let md_out = tmp.join(format!("{name}.md"));
    analyze(input, &md_out);
    assert_inert_md(&fs::read_to_string(&md_out).unwrap(), name);

    // Terminal text is plain: the payload is printed as it is, no colour codes
    // or control bytes come from it.
    let txt_out = tmp.join(format!("{name}.txt"));
    analyze(input, &txt_out);
    let txt = fs::read_to_string(&txt_out).unwrap();
    assert!(
        txt.contains(SCRIPT),
        "{name}: payload not in the text report"
    );
    assert!(
        !txt.contains('\u{1b}'),
        "{name}: escape codes in the text file"
    );
}

#[test]
fn markup_planted_in_an_awr_html_report_stays_inert() {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let input = planted_html(&corpus, tmp.path());
    check_outputs(&input, tmp.path(), "awr-html");
}

#[test]
fn markup_planted_in_an_awr_text_report_stays_inert() {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let input = planted_text(&corpus, tmp.path());
    check_outputs(&input, tmp.path(), "awr-text");
}

// ---------------------------------------------------------------------------
// 3. No network resource in any corpus report's HTML

/// `src=`, `href=`, `url(`, `@import` followed by an http(s) URL.
fn remote_refs(html: &str) -> Vec<String> {
    let lower = html.to_ascii_lowercase();
    let mut found = Vec::new();
    for key in ["src=", "href=", "url(", "@import", "action=", "srcset="] {
        for (at, _) in lower.match_indices(key) {
            let after = lower[at + key.len()..]
                .trim_start()
                .trim_start_matches(['"', '\'', '(']);
            if after.starts_with("http://")
                || after.starts_with("https://")
                || after.starts_with("//")
            {
                let end = (at + 80).min(html.len());
                found.push(html.get(at..end).unwrap_or(key).to_string());
            }
        }
    }
    found
}

#[test]
fn no_corpus_report_references_a_network_resource() {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let inputs: Vec<String> = ["awr-html", "awr-text", "statspack"]
        .iter()
        .map(|d| corpus.join(d).display().to_string())
        .collect();
    let mut args = vec!["analyze", "-q"];
    args.extend(inputs.iter().map(String::as_str));
    let out_arg = format!("{}/", out.display());
    args.extend(["-o", &out_arg]);
    let o = run(&args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));

    let pages: Vec<PathBuf> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .collect();
    // One page per database of the corpus (at least one per report file
    // family) plus index.html.
    assert!(pages.len() >= 10, "only {} pages", pages.len());
    assert!(out.join("index.html").is_file());
    for page in &pages {
        let html = fs::read_to_string(page).unwrap();
        let refs = remote_refs(&html);
        assert!(
            refs.is_empty(),
            "{}: network references:\n{}",
            page.display(),
            refs.join("\n")
        );
    }
}

#[test]
fn the_remote_reference_check_catches_each_form() {
    for bad in [
        "<img src=\"http://x/y.png\">",
        "<link href='https://cdn/x.css'>",
        "<style>body{background:url(https://x/y)}</style>",
        "<style>@import \"http://x/y.css\";</style>",
        "<script src=//cdn/x.js></script>",
    ] {
        assert_eq!(remote_refs(bad).len(), 1, "{bad}");
    }
    assert!(remote_refs("<a href=\"#AF001\">AF001</a> see https://docs in text").is_empty());
}

// ---------------------------------------------------------------------------
// 4. The batch index in a real browser

/// The `data-v` sort keys of the fleet table's per-day column, in DOM order.
fn per_day_keys(dom: &str) -> Vec<f64> {
    let body = &dom[dom.find("<tbody>").expect("no fleet table")..];
    let body = &body[..body.find("</tbody>").unwrap_or(body.len())];
    body.split("<tr>")
        .skip(1)
        .map(|row| {
            let at = row.find("data-v=\"").expect("row without a sort key") + 8;
            let v = &row[at..];
            v[..v.find('"').unwrap()].parse::<f64>().unwrap_or(f64::NAN)
        })
        .collect()
}

/// The database links of the fleet table, in DOM order.
fn index_links(dom: &str) -> Vec<String> {
    dom.split("<tr><td><a href=\"")
        .skip(1)
        .map(|r| r[..r.find('"').unwrap()].to_string())
        .collect()
}

#[test]
fn the_batch_index_ranks_by_saving_and_sorts_in_chromium() {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("out");
    let mut args = vec!["analyze".to_string(), "-q".to_string()];
    for rel in [
        "awr-html/11.2.0.4_pcambell-awrrptanalyzor_awrrpt_1_36006_36007.html",
        "awr-html/11.2.0.4_tanjie07065040-oracle_awr_awrrpt_1_5382_5535.html",
    ] {
        args.push(corpus.join(rel).to_str().unwrap().to_string());
    }
    args.push("-o".into());
    args.push(format!("{}/", out.display()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let o = run(&refs);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let html = fs::read_to_string(out.join("index.html")).unwrap();
    assert!(!html.contains("unsafe-inline'; img-src data:; script-src 'unsafe-inline"));
    assert!(remote_refs(&html).is_empty(), "{:?}", remote_refs(&html));

    // As written: no script error, no request, rows by saving, largest first.
    let page = open(&html, "index", 1200);
    assert!(
        page.page_errors().is_empty(),
        "index.html: {:?}",
        page.page_errors()
    );
    assert!(
        page.network_requests.is_empty(),
        "{:?}",
        page.network_requests
    );
    assert!(page.screenshot_bytes > 20_000, "index.html did not render");
    let keys = per_day_keys(&page.dom);
    assert_eq!(keys.len(), 2, "{}", page.dom);
    assert!(
        keys.windows(2).all(|w| w[0] >= w[1]),
        "not by saving: {keys:?}"
    );
    let as_written = index_links(&page.dom);

    // A click on the Database header (a test script allowed by its hash
    // beside the page's own) sorts by name; a second click reverses it.
    for (clicks, reversed) in [(1, false), (2, true)] {
        let click = "document.querySelector('#fleet thead th').click();".repeat(clicks);
        let csp_end = html.find("script-src ").unwrap() + "script-src ".len();
        let mut clicked = html.clone();
        clicked.insert_str(
            csp_end,
            &format!("{} ", awrflash_report::testing::script_hash(&click)),
        );
        let clicked = clicked.replace("</body>", &format!("<script>{click}</script></body>"));
        let page = open(&clicked, &format!("index-click{clicks}"), 1200);
        assert!(
            page.page_errors().is_empty(),
            "clicked: {:?}",
            page.page_errors()
        );
        assert!(
            page.network_requests.is_empty(),
            "{:?}",
            page.network_requests
        );
        let links = index_links(&page.dom);
        let mut by_name = as_written.clone();
        by_name.sort();
        if reversed {
            by_name.reverse();
        }
        assert_eq!(links, by_name, "{clicks} click(s) on Database");
        assert!(
            page.dom.contains(if reversed {
                "aria-sort=\"descending\""
            } else {
                "aria-sort=\"ascending\""
            }),
            "the clicked header does not show its order"
        );
    }
}
