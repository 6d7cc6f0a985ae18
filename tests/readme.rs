//! The README's two commands for a fresh machine stay true: the first runs
//! the shipped sample through `analyze` into an HTML report, the second is
//! the command `.ci/run` runs.

// Test helpers outside #[test] functions may fail loudly too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::{awrflash, code, root, stderr};

/// The shell lines of the README's "Get going" block, comments removed.
fn get_going() -> Vec<String> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme.split("## Get going").nth(1).unwrap();
    let block = section
        .split("```sh\n")
        .nth(1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    block
        .lines()
        .map(|l| l.split('#').next().unwrap().trim().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn the_readme_sample_command_writes_an_html_report() {
    let lines = get_going();
    let run_line = lines.first().unwrap();
    let args: Vec<&str> = run_line
        .strip_prefix("cargo run --release -- ")
        .expect("the first command builds and runs awrflash")
        .split_whitespace()
        .collect();
    assert_eq!(args.first(), Some(&"analyze"));
    let out_pos = args.iter().position(|a| *a == "-o").unwrap() + 1;
    assert_eq!(args[out_pos], "report.html");
    let tmp = tempfile::tempdir().unwrap();
    let report = tmp.path().join("report.html");
    let mut args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    args[out_pos] = report.display().to_string();
    let o = awrflash().args(&args).current_dir(root()).output().unwrap();
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(
        html.contains("<html") && html.contains("</html>"),
        "not an HTML page"
    );
    assert!(
        stderr(&o).contains("1 input: 1 ok, 0 failed"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn ci_runs_the_readme_test_command() {
    let lines = get_going();
    let test_line = lines.get(1).expect("a second command runs the tests");
    assert_eq!(test_line, "cargo test --workspace --locked");
    let ci = std::fs::read_to_string(root().join(".ci/run")).unwrap();
    assert!(
        ci.lines().any(|l| l.trim() == test_line),
        ".ci/run does not run `{test_line}`"
    );
}
