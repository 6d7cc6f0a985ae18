//! The JSON contract: every document `analyze --format json` writes for the
//! corpus validates against `schema/analysis.schema.json`, so that the
//! schema covers every value the code can emit.

// Test helpers outside #[test] functions may fail loudly too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;
#[path = "../crates/report/tests/support/schema_check.rs"]
mod schema_check;

use common::{code, root, run, stderr};

#[test]
fn the_json_of_every_corpus_input_validates_against_the_schema() {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("schema/analysis.schema.json")).unwrap(),
    )
    .unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = format!("{}/", out.path().display());
    let o = run(&[
        "-q",
        "analyze",
        corpus.to_str().unwrap(),
        "-o",
        &dir,
        "--format",
        "json",
    ]);
    assert!(code(&o) < 2, "{}", stderr(&o));
    let mut documents = 0;
    let mut failures = Vec::new();
    for path in awrflash_testkit::files_below(out.path()) {
        let f = path.strip_prefix(out.path()).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        documents += 1;
        let errors = schema_check::errors(&schema, &v);
        if !errors.is_empty() {
            failures.push(format!(
                "{}: {}",
                f.display(),
                errors
                    .iter()
                    .take(5)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("; ")
            ));
        }
    }
    assert!(documents > 1, "the corpus gave {documents} documents");
    assert!(
        failures.is_empty(),
        "{} of {documents} documents fail the schema:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
