//! The flash cache plan: one option row (the recommended size, or the
//! rejected one), the curve keeps every size tried, advisory reads shown as
//! a factor of today's, and no size projected from a fit below AF070's R^2.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use awrflash_model::Analysis;
use awrflash_rules::{analyze, catalogue};

fn run(file: &str) -> Analysis {
    let fx = common::load(
        &awrflash_testkit::fixtures("")
            .join("rules/AF070")
            .join(file),
    );
    analyze(&fx.docs, &fx.opts).unwrap()
}

fn fc_keys(a: &Analysis) -> Vec<&str> {
    a.options
        .iter()
        .map(|o| o.key.as_str())
        .filter(|k| k.starts_with("flash-cache-"))
        .collect()
}

#[test]
fn the_recommended_flash_cache_is_one_option_row_and_the_curve_keeps_every_size() {
    let a = run("fires.toml");
    let fc = a.flash_cache.as_ref().unwrap();
    assert!(fc.recommended, "{}", fc.reason);
    assert_eq!(fc.curve.len(), 8);
    let keys = fc_keys(&a);
    assert_eq!(keys.len(), 1, "{keys:?}");
    let row = a.options.iter().find(|o| o.key == keys[0]).unwrap();
    assert_eq!(
        row.capacity_gb, fc.size_gb,
        "the row is the recommended size"
    );
    assert!(row.notes.iter().any(|n| n.contains("one of 8 sizes tried")));
    // Read factors relative to today's size: below 1, falling with size.
    assert!(
        fc.curve
            .iter()
            .all(|p| p.est_read_factor > 0.0 && p.est_read_factor <= 1.0)
    );
    assert!(
        fc.curve
            .windows(2)
            .all(|w| w[1].est_read_factor <= w[0].est_read_factor)
    );
    let json = serde_json::to_string(&a).unwrap();
    assert!(
        !json.contains("est_phys_reads"),
        "the advisory's since-startup reads are not printed beside one interval's DB time"
    );
}

#[test]
fn a_rejected_flash_cache_is_one_row_after_the_ranked_options() {
    let a = run("rejected_cpu.toml");
    let keys = fc_keys(&a);
    assert_eq!(keys.len(), 1, "{keys:?}");
    let last = a.options.last().unwrap();
    assert_eq!(last.key, keys[0]);
    assert!(last.notes.iter().any(|n| n.starts_with("rejected:")));
    assert_eq!(a.flash_cache.as_ref().unwrap().curve.len(), 8);
}

#[test]
fn an_advisory_no_curve_fits_gets_no_flash_cache_size() {
    let a = run("low_r2.toml");
    assert!(fc_keys(&a).is_empty(), "{:?}", fc_keys(&a));
    let fc = a.flash_cache.as_ref().unwrap();
    assert!(!fc.recommended && fc.size_gb.is_none() && fc.curve.is_empty());
    assert!(
        fc.reason
            .contains("fits no miss curve well enough to extrapolate (power law R2 0.10, exponential R2 0.20, required 0.80)"),
        "{}",
        fc.reason
    );
    assert!(!a.findings.iter().any(|f| f.id == "AF070"));
    // The threshold is the catalogue's.
    let rule = catalogue()
        .unwrap()
        .into_iter()
        .find(|r| r.id == "AF070")
        .unwrap();
    assert!(
        rule.thresholds
            .iter()
            .any(|t| t.name == "advisory_fit_r2_min" && t.value == "0.8")
    );
}
