//! Inputs the fuzzers once crashed on, replayed on every test run.
//!
//! `fixtures/fuzz-regressions/<target>/` holds the crash inputs `cargo fuzz`
//! found for each target (see `fuzz/README.md`). Every file goes through
//! `parse_bytes` and `parse_head` and, for a parser's own target, straight
//! into that parser as the fuzz target did: no panic, and any error names
//! the file.

// Tests may unwrap and index: a failure here is a test failure.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::panic::{AssertUnwindSafe, catch_unwind};

use awrflash_parse::{HEAD_BYTES, ParseError, decode, parse_bytes, parse_head};

/// One parser called on (path, text), its model dropped.
type Direct = fn(&str, &str) -> Result<(), ParseError>;

/// The parser a fuzz target calls directly, by target name.
fn direct_parser(target: &str) -> Option<Direct> {
    use awrflash_parse::{awr_html, awr_text, iostat, sar, segsizes, statspack, sysstat};
    Some(match target {
        "awr_html" => |p, t| awr_html::parse(p, t).map(drop),
        "awr_text" => |p, t| awr_text::parse(p, t).map(drop),
        "statspack" => |p, t| statspack::parse(p, t).map(drop),
        "iostat" => |p, t| iostat::parse(p, t).map(drop),
        "sar" => |p, t| sar::parse(p, t).map(drop),
        "sysstat" => |p, t| sysstat::parse(p, t).map(drop),
        "segsizes" => |p, t| segsizes::parse(p, t).map(drop),
        _ => return None,
    })
}

fn check(label: &str, run: impl FnOnce() -> Result<(), ParseError>) -> Option<String> {
    match catch_unwind(AssertUnwindSafe(run)) {
        Err(_) => Some(format!("{label}: panicked")),
        Ok(Err(e)) if !e.to_string().contains("fuzz-regression") => {
            Some(format!("{label}: error does not name the file: {e}"))
        }
        Ok(_) => None,
    }
}

#[test]
fn every_input_a_fuzzer_once_crashed_on_now_parses_or_fails_cleanly() {
    let dir = awrflash_testkit::fixtures("fuzz-regressions");
    let mut failures = Vec::new();
    let mut count = 0;
    let mut targets: Vec<_> = std::fs::read_dir(&dir)
        .map(|rd| {
            rd.flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    targets.sort();
    for target_dir in targets {
        let target = target_dir
            .file_name()
            .unwrap()
            .to_string_lossy()
            .to_string();
        for file in awrflash_testkit::files_in(&target_dir) {
            let bytes = std::fs::read(&file).unwrap();
            let name = file.file_name().unwrap().to_string_lossy().to_string();
            let label = format!("fuzz-regression/{target}/{name}");
            count += 1;
            failures.extend(check(&label, || parse_bytes(&label, &bytes).map(drop)));
            // The first pass of a run reads every input's head first.
            let head = bytes.get(..HEAD_BYTES).unwrap_or(&bytes);
            failures.extend(check(&format!("{label} (head)"), || {
                parse_head(&label, head);
                Ok(())
            }));
            if let Some(parse) = direct_parser(&target) {
                let text = decode::decode(&bytes);
                failures.extend(check(&format!("{label} (direct)"), || parse(&label, &text)));
            }
        }
    }
    println!("{count} fuzz regression inputs replayed");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
