//! The pinned API on edge inputs: nothing, an unknown device, a user device
//! file, RAC header cost.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use awrflash_model::Document;
use awrflash_rules::{Options, analyze, devices};

#[test]
fn no_documents_give_a_not_enough_data_verdict_not_an_error() {
    let a = analyze(&[], &Options::default()).unwrap();
    assert_eq!(a.verdict.bound, "not-enough-data");
    assert!(a.findings.iter().any(|f| f.id == "AF004"));
    assert!(a.options.is_empty());
}

#[test]
fn an_unknown_device_is_a_config_error_naming_the_known_ones() {
    let opts = Options {
        device: Some("floppy".into()),
        ..Options::default()
    };
    let e = analyze(&[], &opts).unwrap_err().to_string();
    assert!(e.contains("floppy") && e.contains("f5100-fmod"), "{e}");
}

#[test]
fn a_user_device_file_adds_a_profile_the_projection_uses() {
    let toml = r#"
[[device]]
name = "my-array"
class = "flash"
description = "our all-flash array"
source = "vendor datasheet"
concurrency = [1, 32]
read_8k_ms = [0.2, 0.4]
write_8k_ms = [0.1, 0.3]
read_1m_ms = [2.0, 30.0]
write_1m_ms = [3.0, 40.0]
"#;
    let opts = Options {
        device: Some("my-array".into()),
        devices_toml: Some(toml.into()),
        ..Options::default()
    };
    assert!(devices(&opts).unwrap().iter().any(|d| d.name == "my-array"));
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF010/fires.toml"));
    let a = analyze(&fx.docs, &opts).unwrap();
    let o = a.options.iter().find(|o| o.key == "whole-db").unwrap();
    assert_eq!(o.device, "my-array");
    let step = &o.projection.steps[0];
    assert!((step.new_avg_ms_low - 0.2).abs() < 0.05, "{step:?}");
    let bad = Options {
        devices_toml: Some("[[device]]\nname = 1".into()),
        ..Options::default()
    };
    assert!(devices(&bad).is_err());
}

#[test]
fn rac_doubles_the_flash_cache_header_cost() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF070/fires.toml"));
    let single = analyze(&fx.docs, &fx.opts).unwrap();
    let mut docs = fx.docs.clone();
    if let Document::Report(r) = &mut docs[0] {
        r.header.rac = true;
    }
    let rac = analyze(&docs, &fx.opts).unwrap();
    let s = &single.flash_cache.as_ref().unwrap().curve[0];
    let r = &rac.flash_cache.as_ref().unwrap().curve[0];
    assert!((r.sga_cost_mb - 2.0 * s.sga_cost_mb).abs() < 1e-6);
    // 8 GB / 8 KB blocks x 100 bytes = 100 MB.
    assert!((s.sga_cost_mb - 100.0).abs() < 1e-6);
}

#[test]
fn several_reports_give_one_series_point_each_sorted_by_time() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF005/fires.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    assert_eq!(a.series.len(), 3);
    let times: Vec<_> = a.series.iter().map(|p| p.begin_time.clone()).collect();
    let mut sorted = times.clone();
    sorted.sort();
    assert_eq!(times, sorted);
    // Findings are about the peak interval.
    assert_eq!(a.database.db_time_s, Some(14400.0));
}

/// Every term a projection applies is a listed step (DB time after =
/// before - the steps' savings, at both ends); on the flash cache curve a
/// bigger cache leaves no more reads, and the one flash cache option row is
/// the curve's point at its size.
#[test]
fn projections_list_every_term_and_the_flash_cache_row_is_a_point_of_the_curve() {
    let path = awrflash_testkit::workspace_root().join("fixtures/sample/awr_19c_sample.html");
    let bytes = std::fs::read(&path).unwrap();
    let doc = awrflash_parse::parse_bytes("awr_19c_sample.html", &bytes).unwrap();
    let a = analyze(&[doc], &Options::default()).unwrap();
    assert!(!a.options.is_empty());
    for o in &a.options {
        let p = &o.projection;
        let lo: f64 = p.steps.iter().map(|s| s.saved_s_low).sum();
        let hi: f64 = p.steps.iter().map(|s| s.saved_s_high).sum();
        let tol = 0.001 * p.db_time_before_s + 1.0;
        assert!(
            (p.db_time_before_s - lo - p.db_time_after_high_s).abs() <= tol
                && (p.db_time_before_s - hi - p.db_time_after_low_s).abs() <= tol,
            "{}: steps save {lo}..{hi} s, range {}..{} s of {} s",
            o.key,
            p.db_time_after_low_s,
            p.db_time_after_high_s,
            p.db_time_before_s
        );
    }
    let plan = a
        .flash_cache
        .as_ref()
        .expect("the sample projects a flash cache curve");
    assert!(
        plan.curve.len() > 2,
        "the sample projects a flash cache curve"
    );
    for pair in plan.curve.windows(2) {
        assert!(
            pair[1].est_read_factor <= pair[0].est_read_factor + 1e-9,
            "{} GB leaves more reads than {} GB",
            pair[1].size_gb,
            pair[0].size_gb
        );
    }
    let fc: Vec<_> = a
        .options
        .iter()
        .filter(|o| o.key.starts_with("flash-cache-"))
        .collect();
    assert_eq!(fc.len(), 1, "one flash cache row among the options");
    let row = fc[0];
    let point = plan
        .curve
        .iter()
        .find(|p| Some(p.size_gb) == row.capacity_gb)
        .expect("the row's size is on the curve");
    let mid = 0.5 * (row.projection.db_time_after_low_s + row.projection.db_time_after_high_s);
    assert!(
        (point.db_time_s - mid).abs() <= 0.1,
        "{}: curve {} s, row {} s",
        row.key,
        point.db_time_s,
        mid
    );
}
