//! `parse_head` against the whole parse: on every input of the corpus and of
//! the fixtures, the head of a report gives the whole report's source and
//! header, and the head of anything else gives nothing (the run then parses
//! it whole). Skips the corpus with a printed reason when `../shared/corpus`
//! is absent.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::PathBuf;

use awrflash_model::{Document, Header};
use awrflash_parse::{HEAD_BYTES, parse_bytes, parse_head};

/// The header without what the normalisation pass fills from later
/// sections when the header itself lacks it.
fn identity(h: &Header) -> Header {
    Header {
        cpus: None,
        cores: None,
        ..h.clone()
    }
}

/// For each file: what the whole parse and the head say, or a problem.
fn check(files: &[PathBuf], size: usize, problems: &mut Vec<String>) -> (usize, usize) {
    let (mut reports, mut others) = (0, 0);
    for path in files {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).unwrap();
        let head = &bytes[..bytes.len().min(size)];
        let got = parse_head(&name, head);
        match parse_bytes(&name, &bytes) {
            Ok(Document::Report(r)) => {
                reports += 1;
                let Some((source, header)) = got else {
                    // A report the head cannot place is parsed whole by the
                    // run; for a report with snapshots it is a miss.
                    if r.header.begin_snap.is_some() || r.header.begin_time.is_some() {
                        problems.push(format!("{name}: no header from the head"));
                    }
                    continue;
                };
                if source != r.source {
                    problems.push(format!("{name}: source {source:?} != {:?}", r.source));
                }
                if identity(&header) != identity(&r.header) {
                    problems.push(format!(
                        "{name}: header from the head\n{header:#?}\n!= whole\n{:#?}",
                        r.header
                    ));
                }
                // CPUs and cores printed in the header itself read the same.
                for (a, b, what) in [
                    (header.cpus, r.header.cpus, "cpus"),
                    (header.cores, r.header.cores, "cores"),
                ] {
                    if a.is_some() && a != b {
                        problems.push(format!("{name}: {what} {a:?} != {b:?}"));
                    }
                }
            }
            Ok(_) | Err(_) => {
                others += 1;
                if got.is_some() {
                    problems.push(format!("{name}: not a report whole, a report by its head"));
                }
            }
        }
    }
    (reports, others)
}

#[test]
fn the_head_of_every_corpus_report_gives_the_whole_reports_header() {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    let files = awrflash_testkit::files_below(&corpus);
    let mut problems = Vec::new();
    let (reports, others) = check(&files, HEAD_BYTES, &mut problems);
    println!("corpus: {reports} reports, {others} other inputs");
    assert!(reports >= 20, "{reports} reports");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_head_of_every_fixture_gives_the_whole_parses_header_or_nothing() {
    let mut files = awrflash_testkit::files_below(&awrflash_testkit::fixtures(""));
    files.retain(|p| !p.components().any(|c| c.as_os_str() == "rules"));
    let mut problems = Vec::new();
    let (reports, others) = check(&files, HEAD_BYTES, &mut problems);
    println!("fixtures: {reports} reports, {others} other inputs");
    assert!(reports >= 5, "{reports} reports");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_head_cut_before_the_snapshots_gives_nothing() {
    let path = awrflash_testkit::fixtures("sample/awr_19c_sample.html");
    let bytes = std::fs::read(&path).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    let at = text.find("Begin Snap").expect("the sample has snapshots");
    assert!(parse_head("s.html", &bytes[..at]).is_none());
    let whole = parse_head("s.html", &bytes[..bytes.len().min(HEAD_BYTES)]);
    assert!(whole.is_some_and(|(_, h)| h.begin_snap.is_some()));
    assert!(parse_head("x", b"not a report at all\n").is_none());
    assert!(parse_head("x", b"").is_none());
}

/// `parse_head` reads only the sections a header draws on; over the same
/// bytes it gives what the whole parser gives, CPU counts included, on
/// every report of the corpus and the fixtures cut at a dozen points.
#[test]
fn reading_only_the_header_sections_changes_no_header_field() {
    let mut files = awrflash_testkit::files_below(&awrflash_testkit::fixtures(""));
    // The fixtures alone give 156 heads; with the corpus, over 200.
    let mut least = 150;
    if let Some(corpus) = awrflash_testkit::corpus("") {
        files.extend(awrflash_testkit::files_below(&corpus));
        least = 200;
    }
    let (mut compared, mut problems) = (0, Vec::new());
    for path in &files {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).unwrap();
        let head = &bytes[..bytes.len().min(HEAD_BYTES)];
        for k in 1..=12 {
            let cut = &head[..head.len() * k / 12];
            let text = awrflash_parse::decode::decode(cut);
            let Some(end) = text.rfind('\n') else {
                continue;
            };
            let text = &text[..=end];
            let whole = match awrflash_parse::sniff::sniff(text) {
                awrflash_parse::Sniffed::AwrHtml => awrflash_parse::awr_html::parse(&name, text),
                awrflash_parse::Sniffed::AwrText => awrflash_parse::awr_text::parse(&name, text),
                awrflash_parse::Sniffed::Statspack => awrflash_parse::statspack::parse(&name, text),
                _ => continue,
            };
            let want = whole
                .ok()
                .filter(|r| r.header.begin_snap.is_some() || r.header.begin_time.is_some())
                .map(|r| (r.source, r.header));
            let got = parse_head(&name, cut);
            compared += 1;
            if got != want {
                problems.push(format!("{name} cut at {k}/12: {got:?}\n!= {want:?}"));
            }
        }
    }
    assert!(compared >= least, "{compared} heads compared");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
