//! A text report spooled with `NLS_NUMERIC_CHARACTERS=',.'` (`1.234,56`)
//! gives the same model as the one spooled with Oracle's default: every
//! corpus and fixture text report is rewritten with decimal commas at test
//! time and both are parsed.

#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

#[path = "awr_text_checks.rs"]
mod checks;

use std::path::Path;

use awrflash_model::{DbReport, Document};

/// A number cell as Oracle prints it by default: digits, commas between
/// groups of three, one decimal point; a sign and a unit suffix allowed.
fn is_default_number(tok: &str) -> Option<(usize, usize)> {
    let start = usize::from(tok.starts_with('-'));
    let body = &tok[start..];
    let end = body
        .trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == '%')
        .len();
    let c = &body[..end];
    if c.is_empty() || c.ends_with(['.', ',']) || !c.bytes().any(|b| b.is_ascii_digit()) {
        return None;
    }
    if !c
        .bytes()
        .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
    {
        return None;
    }
    let (int, _frac) = match c.split_once('.') {
        Some((i, f)) if !f.contains(['.', ',']) => (i, f),
        Some(_) => return None,
        None => (c, ""),
    };
    if int.contains(',') {
        let mut g = int.split(',');
        let first = g.next().unwrap();
        if first.is_empty() || first.len() > 3 || !g.all(|p| p.len() == 3) {
            return None;
        }
    }
    Some((start, start + end))
}

/// The report with `.` and `,` swapped in every number cell.
fn with_decimal_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let ws = rest.len() - rest.trim_start().len();
        out.push_str(&rest[..ws]);
        rest = &rest[ws..];
        let n = rest
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let tok = &rest[..n];
        match is_default_number(tok) {
            Some((a, b)) => {
                out.push_str(&tok[..a]);
                out.extend(tok[a..b].chars().map(|c| match c {
                    '.' => ',',
                    ',' => '.',
                    c => c,
                }));
                out.push_str(&tok[b..]);
            }
            None => out.push_str(tok),
        }
        rest = &rest[n..];
    }
    out
}

fn report(name: &str, text: &str) -> DbReport {
    match awrflash_parse::parse_bytes(name, text.as_bytes()) {
        Ok(Document::Report(r)) => *r,
        other => panic!("{name}: {other:?}"),
    }
}

fn check(path: &Path) {
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    let commas = with_decimal_commas(&text);
    assert_ne!(text, commas, "{name}: no number cell was rewritten");
    let a = report(&name, &text);
    let b = report(&name, &commas);
    assert!(
        !a.load_profile.is_empty() || !a.activity_stats.is_empty(),
        "{name}: vacuous"
    );
    if a != b {
        let x = serde_json::to_string_pretty(&a).unwrap();
        let y = serde_json::to_string_pretty(&b).unwrap();
        let diff: Vec<String> = x
            .lines()
            .zip(y.lines())
            .enumerate()
            .filter(|(_, (p, q))| p != q)
            .take(8)
            .map(|(i, (p, q))| format!("line {i}: {p} | {q}"))
            .collect();
        panic!(
            "{name}: the decimal-comma copy parses differently:\n{}",
            diff.join("\n")
        );
    }
}

#[test]
fn fixture_text_reports_read_the_same_with_decimal_commas() {
    for sub in ["awr-text", "statspack"] {
        let files = awrflash_testkit::files_in(&awrflash_testkit::fixtures(sub));
        assert!(!files.is_empty(), "fixtures/{sub} holds no files");
        for p in files {
            check(&p);
        }
    }
}

#[test]
fn corpus_text_reports_read_the_same_with_decimal_commas() {
    for sub in ["awr-text", "statspack"] {
        let Some(dir) = awrflash_testkit::corpus(sub) else {
            continue;
        };
        for p in awrflash_testkit::files_in(&dir) {
            check(&p);
        }
    }
}

#[test]
fn a_mixed_report_warns_that_its_separators_are_uncertain() {
    let root = awrflash_testkit::fixtures("");
    let path = root.join("awr-text/19.0.0.0_awrrpt_1_880_881_80col.txt");
    let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
    // Half the report with decimal commas, half without.
    let cut = text.len() / 2;
    let cut = (cut..text.len())
        .find(|&i| text.is_char_boundary(i) && text[..i].ends_with('\n'))
        .unwrap();
    let mixed = format!("{}{}", &text[..cut], with_decimal_commas(&text[cut..]));
    let r = report("mixed.txt", &mixed);
    assert!(
        r.warnings
            .iter()
            .any(|w| w.is_meaning_changing() && w.message.contains("separators are uncertain")),
        "{:#?}",
        r.warnings
    );
}
