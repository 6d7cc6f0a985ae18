//! `awrflash_report::json` output validates against `schema/analysis.schema.json`.
//!
//! The validator (`support/schema_check.rs`) covers the subset of JSON Schema (2020-12) the schema
//! file uses: `$ref` to `#/$defs/...`, `anyOf`, `type` (one or a list),
//! `enum`, `properties`, `required`, `additionalProperties: false`, `items`,
//! `minimum`; a test checks that the schema uses nothing else. (The
//! `jsonschema` crate would pull in dozens of crates for this.)

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::collections::BTreeSet;

use serde_json::{Value, json};
use support::schema_check::{unknown_keywords, validate_against};
use support::{FIXTURES, fixture, workspace_root};

fn schema() -> Value {
    let path = workspace_root().join("schema/analysis.schema.json");
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn validate(v: &Value) -> (Vec<String>, BTreeSet<String>) {
    validate_against(&schema(), v)
}

#[test]
fn json_output_of_both_fixtures_validates_against_the_schema() {
    for name in FIXTURES {
        let out = awrflash_report::json(&fixture(name));
        let v: Value = serde_json::from_str(&out).unwrap();
        let (errors, _) = validate(&v);
        assert!(errors.is_empty(), "{name}:\n{}", errors.join("\n"));
    }
}

#[test]
fn an_empty_analysis_validates() {
    let out = awrflash_report::json(&awrflash_model::Analysis::default());
    let (errors, _) = validate(&serde_json::from_str(&out).unwrap());
    assert!(errors.is_empty(), "{}", errors.join("\n"));
}

#[test]
fn the_rich_fixture_exercises_every_schema_definition() {
    let out = awrflash_report::json(&fixture("rich"));
    let (_, used) = validate(&serde_json::from_str(&out).unwrap());
    let root = schema();
    let all: BTreeSet<String> = root["$defs"].as_object().unwrap().keys().cloned().collect();
    let unused: Vec<&String> = all.difference(&used).collect();
    assert!(
        unused.is_empty(),
        "definitions no fixture value reaches: {unused:?}"
    );
}

#[test]
fn the_validator_rejects_wrong_documents() {
    let good: Value = serde_json::from_str(&awrflash_report::json(&fixture("rich"))).unwrap();
    type Mutation = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Mutation)> = vec![
        (
            "extra field",
            Box::new(|v| v["verdict"]["colour"] = json!("red")),
        ),
        (
            "wrong type",
            Box::new(|v| v["verdict"]["gain_pct_low"] = json!("31")),
        ),
        (
            "missing field",
            Box::new(|v| {
                v["database"].as_object_mut().unwrap().remove("rac");
            }),
        ),
        (
            "bad enum",
            Box::new(|v| v["findings"][0]["severity"] = json!("fatal")),
        ),
        (
            "negative line",
            Box::new(|v| v["findings"][0]["evidence"][0]["src"]["line"] = json!(-1)),
        ),
        (
            "not integer",
            Box::new(|v| v["segments_to_move"][0]["rank"] = json!(1.5)),
        ),
    ];
    for (what, mutate) in cases {
        let mut bad = good.clone();
        mutate(&mut bad);
        let (errors, _) = validate(&bad);
        assert!(!errors.is_empty(), "{what}: accepted");
    }
}

#[test]
fn the_schema_uses_only_keywords_the_validator_knows() {
    let bad = unknown_keywords(&schema());
    assert!(bad.is_empty(), "unsupported keywords: {bad:?}");
}
