//! Calibration against the seeds: each `fixtures/calibration/*.toml`
//! describes, at model level, a workload a seed measured, the published
//! figure and a tolerance. The test fails when the model misses a
//! reproducible figure by more than the tolerance; figures the seed does not
//! give enough AWR-visible data for are marked `reproducible = false` with
//! the reason, shown in `docs/calibration.md` and not asserted.
//! `docs/calibration.md` is generated here; set `AWRFLASH_BLESS=1` to
//! rewrite it, otherwise the test checks it is current.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use awrflash_facts::IntervalFacts;
use awrflash_model::Document;
use awrflash_rules::{analyze, checks::redo_advice};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Calib {
    id: String,
    seed: String,
    source: String,
    /// `response_ratio`, `throughput_ratio` (of `option`) or `redo_advice`.
    metric: String,
    #[serde(default)]
    option: Option<String>,
    #[serde(default)]
    published: Option<f64>,
    #[serde(default)]
    published_text: Option<String>,
    published_note: String,
    #[serde(default = "twenty")]
    tolerance_pct: f64,
    #[serde(default)]
    expect_bound: Option<String>,
    reproducible: bool,
    note: String,
}

fn twenty() -> f64 {
    20.0
}

struct Row {
    c: Calib,
    predicted: String,
    range: String,
    error: String,
    ok: bool,
}

fn evaluate(path: &std::path::Path) -> Row {
    let fx = common::load(path);
    let c: Calib = fx
        .table
        .get("calibration")
        .cloned()
        .expect("[calibration] table")
        .try_into()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    match c.metric.as_str() {
        "redo_advice" => {
            let Document::Report(r) = &fx.docs[0] else {
                panic!("report expected")
            };
            let w = IntervalFacts::new(r);
            let got = redo_advice(&w).map_or("none", |a| a.as_str()).to_string();
            let want = c.published_text.clone().unwrap_or_default();
            let ok = got == want;
            Row {
                predicted: got,
                range: String::new(),
                error: if ok { "match".into() } else { "differs".into() },
                ok,
                c,
            }
        }
        m @ ("response_ratio" | "throughput_ratio") => {
            let key = c.option.clone().expect("option");
            let p =
                ratios(&a, &key).unwrap_or_else(|| panic!("{}: option {key} not projected", c.id));
            let mid = 0.5 * (p.response_ratio_low + p.response_ratio_high);
            let (pred, range) = if m == "response_ratio" {
                (
                    mid,
                    format!("{:.3}-{:.3}", p.response_ratio_low, p.response_ratio_high),
                )
            } else {
                (
                    1.0 / mid,
                    format!(
                        "{:.2}-{:.2}",
                        1.0 / p.response_ratio_high,
                        1.0 / p.response_ratio_low
                    ),
                )
            };
            let published = c.published.expect("published");
            let err = (pred / published - 1.0) * 100.0;
            let bound_ok = c
                .expect_bound
                .as_ref()
                .is_none_or(|b| p.bound == b.as_str());
            let ok = err.abs() <= c.tolerance_pct && bound_ok;
            Row {
                predicted: format!(
                    "{pred:.3}{}",
                    if c.expect_bound.is_some() {
                        format!(" (bound {})", p.bound)
                    } else {
                        String::new()
                    }
                ),
                range,
                error: format!("{err:+.1}%"),
                ok,
                c,
            }
        }
        other => panic!("{}: unknown metric {other}", c.id),
    }
}

/// The response ratios and bound of option `key`: an option row, or for a
/// flash cache size the options do not list (they keep one size), its
/// point on the flash cache curve.
fn ratios(a: &awrflash_model::Analysis, key: &str) -> Option<awrflash_model::Projection> {
    if let Some(o) = a.options.iter().find(|o| o.key == key) {
        return Some(o.projection.clone());
    }
    let m: f64 = key
        .strip_prefix("flash-cache-")?
        .strip_suffix('x')?
        .parse()
        .ok()?;
    let pt = a
        .flash_cache
        .as_ref()?
        .curve
        .iter()
        .find(|p| p.multiple_of_buffer_cache == m)?;
    Some(awrflash_model::Projection {
        response_ratio_low: pt.response_ratio_low,
        response_ratio_high: pt.response_ratio_high,
        ..awrflash_model::Projection::default()
    })
}

fn rows() -> Vec<Row> {
    awrflash_testkit::files_in(&awrflash_testkit::fixtures("calibration"))
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .map(|p| evaluate(p))
        .collect()
}

fn markdown(rows: &[Row]) -> String {
    let mut s = String::from(
        "# Calibration: the projection model against the seeds\n\n\
Generated by `cargo test -p awrflash-rules --test calibration` (set `AWRFLASH_BLESS=1` to rewrite) \
from `fixtures/calibration/*.toml`. Each fixture describes, at model level, the workload a seed \
measured (what its AWR report would show), the published figure and a tolerance.\n\n\
Ratios are response time after / before (or throughput after / before) for the option named; \
the predicted value is the middle of the projected low-high range, and the error is predicted / \
published - 1. A figure the seed does not give enough AWR-visible data for is marked \
*out of reach* with the reason; it is shown, not asserted.\n\n\
| fixture | seed, source | metric | published | predicted | range | error | status |\n\
|---|---|---|---|---|---|---|---|\n",
    );
    for r in rows {
        let published =
            r.c.published
                .map(|p| format!("{p:.3}"))
                .or_else(|| r.c.published_text.clone())
                .unwrap_or_default();
        let status = match (r.c.reproducible, r.ok) {
            (true, true) => "pass",
            (true, false) => "FAIL",
            (false, true) => "out of reach (within tolerance anyway)",
            (false, false) => "out of reach",
        };
        s.push_str(&format!(
            "| {} | {} {}: {} | {}{} | {} | {} | {} | {} | {} |\n",
            r.c.id,
            &r.c.seed[..3],
            r.c.source,
            r.c.published_note,
            r.c.metric,
            r.c.option
                .as_ref()
                .map(|o| format!(" ({o})"))
                .unwrap_or_default(),
            published,
            r.predicted,
            r.range,
            r.error,
            status
        ));
    }
    s.push_str("\n## Notes per fixture\n\n");
    for r in rows {
        s.push_str(&format!("- **{}**: {}\n", r.c.id, r.c.note.trim()));
    }
    s
}

#[test]
fn projection_lands_near_the_seeds_published_figures() {
    let rows = rows();
    assert!(rows.len() >= 10, "calibration fixtures missing");
    let failed: Vec<String> = rows
        .iter()
        .filter(|r| r.c.reproducible && !r.ok)
        .map(|r| {
            format!(
                "{}: published {:?}{:?}, predicted {} ({})",
                r.c.id, r.c.published, r.c.published_text, r.predicted, r.error
            )
        })
        .collect();
    assert!(failed.is_empty(), "calibration off:\n{}", failed.join("\n"));
    for r in &rows {
        if !r.c.reproducible {
            assert!(
                r.c.note.len() > 80,
                "{}: an out-of-reach figure must say why",
                r.c.id
            );
        }
    }
}

#[test]
fn calibration_table_in_docs_is_current() {
    let md = markdown(&rows());
    let path = awrflash_testkit::workspace_root()
        .join("docs")
        .join("calibration.md");
    if std::env::var_os("AWRFLASH_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &md).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert_eq!(
        on_disk, md,
        "docs/calibration.md is stale: rerun with AWRFLASH_BLESS=1"
    );
}
