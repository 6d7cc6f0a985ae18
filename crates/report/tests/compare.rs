//! The comparison renderers on a hand-built comparison: the JSON validates
//! against `schema/comparison.schema.json` and reaches every definition;
//! markup planted in every text that comes from the inputs stays inert in
//! HTML, Markdown and text; the HTML is self-contained.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use std::collections::BTreeSet;

use awrflash_model::{
    BucketShift, Comparison, ComponentChange, DbIdentity, Drift, EvidenceSrc, FigureChange,
    HistogramShift, ProjectionCheck, StorageChange, WaitChange, WaitFigures, WindowMatch,
    WindowSide,
};
use awrflash_report::compare;
use serde_json::{Value, json};
use support::schema_check::{unknown_keywords, validate_against};
use support::{IMG, SCRIPT, workspace_root};

fn schema() -> Value {
    let path = workspace_root().join("schema/comparison.schema.json");
    serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap()
}

fn src(path: &str, line: u32) -> Vec<EvidenceSrc> {
    vec![EvidenceSrc {
        path: path.into(),
        section: "Foreground Wait Events".into(),
        line,
    }]
}

/// A comparison with every part filled; `bad` is planted in every text
/// that comes from an input.
fn comparison(bad: &str) -> Comparison {
    let side = |p: &str| WindowSide {
        intervals: 2,
        intervals_used: 1,
        begin_time: Some("2026-01-05T10:00:00".into()),
        end_time: Some("2026-01-05T11:00:00".into()),
        elapsed_s: 3600.0,
        host: Some(format!("db01{bad}")),
        release: Some("19.0.0.0.0".into()),
        inputs: vec![format!("{p}{bad}.html")],
    };
    let wf = |avg: f64, p: &str| WaitFigures {
        waits: 1000.0,
        waits_per_s: 0.28,
        avg_ms: avg,
        time_s: avg,
        pct_db_time: Some(12.5),
        src: src(&format!("{p}{bad}.html"), 400),
    };
    Comparison {
        schema_version: 1,
        database: DbIdentity {
            db_name: Some(format!("PROD{bad}")),
            dbid: Some(42),
            instances: vec![format!("prod1{bad}")],
            ..Default::default()
        },
        summary: "Data files moved to faster storage.".into(),
        window: WindowMatch {
            choice: "same-hours".into(),
            reason: "the same hours of day (10:00)".into(),
            hours: vec![10],
        },
        before: side("before"),
        after: side("after"),
        figures: vec![FigureChange {
            key: "db_time_per_txn_ms".into(),
            label: "DB time per transaction".into(),
            unit: "ms".into(),
            before: Some(20.0),
            after: Some(12.0),
            change_pct: Some(-40.0),
            before_src: src(&format!("before{bad}.html"), 90),
            after_src: src("after.html", 91),
            derived: Some("DB time / (Transactions per second x elapsed)".into()),
        }],
        waits: vec![WaitChange {
            event: format!("db file sequential read{bad}"),
            before: Some(wf(6.0, "before")),
            after: Some(wf(0.4, "after")),
            avg_change_pct: Some(-93.3),
            histogram: Some(HistogramShift {
                buckets: vec![
                    BucketShift {
                        label: "<=1ms".into(),
                        le_ms: Some(1.0),
                        before_pct: Some(10.0),
                        after_pct: Some(95.0),
                    },
                    BucketShift {
                        label: ">1ms".into(),
                        le_ms: None,
                        before_pct: Some(90.0),
                        after_pct: Some(5.0),
                    },
                ],
                le_1ms_before_pct: Some(10.0),
                le_1ms_after_pct: Some(95.0),
                before_src: src("before.html", 500),
                after_src: src("after.html", 501),
            }),
        }],
        breakdown: vec![ComponentChange {
            component: "single_block_read".into(),
            before_ms_per_txn: 8.0,
            after_ms_per_txn: 0.6,
            projected_ms_per_txn: Some(0.5),
        }],
        storage_changes: vec![StorageChange {
            kind: "data-moved".into(),
            title: "Data files moved to faster storage".into(),
            because: format!("db file sequential read{bad} averaged 6 ms before"),
            option_key: Some("whole-db".into()),
        }],
        projection_check: Some(ProjectionCheck {
            option_key: "whole-db".into(),
            option_title: "Move every datafile and tempfile to flash".into(),
            device: "nvme-modern".into(),
            chosen_because: "single-block reads average 0.4 ms after".into(),
            projected_gain_pct_low: 30.0,
            projected_gain_pct_high: 35.0,
            measured_gain_pct: 40.0,
            error_pct_points: 5.0,
            within_range: false,
            projected_bound: awrflash_model::Bound::None,
            verdict: "Measured: DB time per transaction fell 40%.".into(),
            reasons: vec![format!(
                "db file sequential read{bad} is faster than the profile"
            )],
        }),
        drift: Drift {
            confounded: true,
            txn_change_pct: Some(100.0),
            exec_change_pct: Some(90.0),
            sql_overlap_pct: Some(80.0),
            message: "The workload changed between the windows.".into(),
        },
        notes: vec![format!("note{bad}")],
    }
}

#[test]
fn comparison_json_validates_and_reaches_every_schema_definition() {
    let root = schema();
    let v: Value = serde_json::from_str(&compare::json(&comparison(""))).unwrap();
    let (errors, used) = validate_against(&root, &v);
    assert!(errors.is_empty(), "{}", errors.join("\n"));
    let all: BTreeSet<String> = root["$defs"].as_object().unwrap().keys().cloned().collect();
    let unused: Vec<&String> = all.difference(&used).collect();
    assert!(
        unused.is_empty(),
        "definitions no value reaches: {unused:?}"
    );
    let empty: Value = serde_json::from_str(&compare::json(&Comparison::default())).unwrap();
    let (errors, _) = validate_against(&root, &empty);
    // An empty comparison has an empty window choice, which is no choice.
    assert_eq!(errors.len(), 1, "{errors:?}");
}

#[test]
fn the_comparison_schema_uses_only_keywords_the_validator_knows() {
    let bad = unknown_keywords(&schema());
    assert!(bad.is_empty(), "unsupported keywords: {bad:?}");
}

#[test]
fn the_comparison_schema_rejects_wrong_documents() {
    let good: Value = serde_json::from_str(&compare::json(&comparison(""))).unwrap();
    type Mutation = Box<dyn Fn(&mut Value)>;
    let cases: Vec<(&str, Mutation)> = vec![
        (
            "extra field",
            Box::new(|v| v["drift"]["colour"] = json!("red")),
        ),
        (
            "bad kind",
            Box::new(|v| v["storage_changes"][0]["kind"] = json!("moved")),
        ),
        (
            "missing field",
            Box::new(|v| {
                v["projection_check"]
                    .as_object_mut()
                    .unwrap()
                    .remove("error_pct_points");
            }),
        ),
        (
            "wrong type",
            Box::new(|v| v["figures"][0]["before"] = json!("20")),
        ),
    ];
    for (what, mutate) in cases {
        let mut bad = good.clone();
        mutate(&mut bad);
        let (errors, _) = validate_against(&schema(), &bad);
        assert!(!errors.is_empty(), "{what}: accepted");
    }
}

#[test]
fn markup_from_the_inputs_stays_inert_in_every_format() {
    let c = comparison(&format!("{SCRIPT}{IMG}\x1b[2J"));
    let html = compare::html(&c);
    assert!(
        !html.contains(SCRIPT) && !html.contains("<img"),
        "raw markup in HTML"
    );
    assert!(html.contains("&lt;script&gt;"));
    let md = compare::markdown(&c);
    assert!(
        !md.contains("<script>") && !md.contains("<img"),
        "raw markup in Markdown"
    );
    let text = compare::text(&c, false);
    assert!(!text.contains('\x1b'), "escape sequence in text");
    for out in [&md, &text] {
        assert!(out.contains("whole-db") && out.contains("-40.0%"));
    }
}

#[test]
fn the_comparison_page_is_self_contained_and_shows_every_section() {
    let html = compare::html(&comparison(""));
    for banned in ["http://", "https://", "<script", "<link", "src="] {
        assert!(!html.contains(banned), "{banned} in the page");
    }
    for id in [
        "summary",
        "changes",
        "projection",
        "workload",
        "figures",
        "breakdown",
        "waits",
        "histograms",
        "sources",
    ] {
        assert!(html.contains(&format!("<section id=\"{id}\"")), "no #{id}");
    }
    // Before/after charts: the breakdown, the averages and one histogram.
    assert_eq!(html.matches("<svg").count(), 3);
    // Each figure's rows are footnoted on both sides.
    assert!(html.contains("before.html:90 [Foreground Wait Events]"));
    assert!(html.contains("after.html:91 [Foreground Wait Events]"));
}
