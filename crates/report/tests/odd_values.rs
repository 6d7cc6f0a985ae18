//! Values no real analysis should carry (NaN, infinities, negatives, empty
//! strings, huge series) still render in every format, without a panic and
//! without `NaN` or `inf` on the page.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod support;

use awrflash_model::{FlashCachePoint, SnapshotPoint};

fn odd() -> awrflash_model::Analysis {
    let mut a = support::fixture("rich");
    a.verdict.gain_pct_low = f64::NAN;
    a.verdict.gain_pct_high = f64::INFINITY;
    a.options[0].projection.db_time_before_s = 0.0;
    a.options[1].projection.db_time_after_low_s = f64::NEG_INFINITY;
    a.options[2].before.cpu_s = f64::NAN;
    a.exhibits.breakdown.other_s = -5.0;
    a.findings[0].evidence[0].value = f64::NAN;
    a.findings[0].evidence[1].unit = String::new();
    a.segments_to_move[0].read_requests = Some(f64::INFINITY);
    a.segments_to_move[1].size_gb = Some(f64::NAN);
    a.segments_to_move[2].rank = 0;
    a.exhibits.histograms[0].buckets[0].le_ms = f64::MAX;
    a.exhibits.histograms[0].buckets[1].pct = f64::NAN;
    a.exhibits.histograms[1].buckets.clear();
    if let Some(fc) = &mut a.flash_cache {
        fc.curve.push(FlashCachePoint {
            size_gb: f64::NAN,
            multiple_of_buffer_cache: f64::INFINITY,
            est_read_factor: -1.0,
            est_read_change_pct: f64::NAN,
            response_ratio_low: f64::NAN,
            response_ratio_high: f64::INFINITY,
            db_time_s: f64::NAN,
            sga_cost_mb: 0.0,
        });
    }
    a.series = (0..400)
        .map(|i| SnapshotPoint {
            db_time_s: if i == 7 { f64::NAN } else { f64::from(i) },
            elapsed_s: 0.0,
            ..SnapshotPoint::default()
        })
        .collect();
    a.database = Default::default();
    a
}

#[test]
fn odd_values_render_in_every_format_as_n_a() {
    let a = odd();
    let html = awrflash_report::html(&a);
    assert!(html.contains("</html>"));
    assert_no_nan_or_inf(&html);
    let md = awrflash_report::markdown(&a);
    let text = awrflash_report::text(&a, true);
    for out in [&md, &text] {
        assert_no_nan_or_inf(out);
        assert!(out.contains("n/a"));
    }
    // JSON writes NaN and infinities as null; that must not panic either.
    assert!(awrflash_report::json(&a).contains("null"));
}

#[test]
fn a_long_series_keeps_its_axis_labels_few() {
    let html = awrflash_report::html(&odd());
    let series = html.split("<section id=\"series\">").nth(1).unwrap();
    let first_chart = series.split("</svg>").next().unwrap();
    // 400 points, at most about nine x labels (plus y ticks, legend and titles).
    let labels = first_chart.matches("<text").count();
    assert!(labels < 30, "{labels} text labels on one chart");
}

/// No word `NaN`, `inf` or `infinity` (as Rust prints non-finite floats).
fn assert_no_nan_or_inf(out: &str) {
    for word in out.split(|c: char| !c.is_ascii_alphanumeric()) {
        let w = word.to_ascii_lowercase();
        assert!(
            w != "nan" && w != "inf" && w != "infinity",
            "{word} in the output"
        );
    }
}
