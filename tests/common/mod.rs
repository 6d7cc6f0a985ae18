//! Helpers shared by the end-to-end tests: run the binary, read the README's
//! extract schema (the workspace, fixtures and corpus come from
//! `awrflash-testkit`).

#![allow(dead_code)]

use std::process::{Command, Output};

pub use awrflash_testkit::workspace_root as root;

pub fn awrflash() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_awrflash"));
    // Fixed help width and no colour, whatever the test runner's terminal.
    c.env("COLUMNS", "100").env("NO_COLOR", "1");
    c
}

pub fn run(args: &[&str]) -> Output {
    awrflash().args(args).output().unwrap()
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

/// The README's extract schema: `(table, [columns])` from the `### \`table\``
/// headings under `## Extract schema` and the first column of their tables.
pub fn documented_schema() -> Vec<(String, Vec<String>)> {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme
        .split("## Extract schema")
        .nth(1)
        .expect("README has an Extract schema section");
    let section = section.split("\n## ").next().unwrap();
    let mut tables: Vec<(String, Vec<String>)> = Vec::new();
    for line in section.lines() {
        if let Some(name) = line.strip_prefix("### `") {
            tables.push((name.trim_end_matches('`').to_string(), Vec::new()));
        } else if let Some(rest) = line.strip_prefix("| `") {
            let col = rest.split('`').next().unwrap().to_string();
            tables
                .last_mut()
                .expect("a column row under a table heading")
                .1
                .push(col);
        }
    }
    tables
}
