//! The comparison as one self-contained HTML page (askama, escaping on;
//! only the charts of [`super::charts`] go in unescaped).

use askama::Template;
use awrflash_model::Comparison;

use super::charts::paired_bars;
use super::view::{self, CompareView, component_name};
use crate::svg::{self, StackedBar};

struct Chart {
    caption: String,
    svg: String,
}

#[derive(Template)]
#[template(path = "compare.html", config = "askama.toml")]
struct ComparePage<'a> {
    v: &'a CompareView,
    breakdown: Option<String>,
    latency: Option<String>,
    histograms: Vec<Chart>,
}

pub fn render(c: &Comparison) -> String {
    let v = view::build(c);
    let breakdown = (!c.breakdown.is_empty()).then(|| {
        let part = |f: fn(&awrflash_model::ComponentChange) -> f64| {
            c.breakdown
                .iter()
                .map(|b| (component_name(&b.component), f(b)))
                .collect::<Vec<_>>()
        };
        let mut bars = vec![
            StackedBar {
                label: "Before",
                parts: part(|b| b.before_ms_per_txn),
            },
            StackedBar {
                label: "After",
                parts: part(|b| b.after_ms_per_txn),
            },
        ];
        if c.breakdown.iter().any(|b| b.projected_ms_per_txn.is_some()) {
            bars.push(StackedBar {
                label: "Projected",
                parts: part(|b| b.projected_ms_per_txn.unwrap_or(0.0)),
            });
        }
        // The stacked chart prints seconds; per transaction they are ms.
        svg::stacked_bars(
            &bars,
            "DB time per transaction (ms) by component: before, after and projected",
        )
        .replace(" s (", " ms (")
        .replace(" s<", " ms<")
    });
    let with_avg: Vec<&awrflash_model::WaitChange> = c
        .waits
        .iter()
        .filter(|w| w.before.is_some() && w.after.is_some())
        .take(8)
        .collect();
    let latency = (!with_avg.is_empty()).then(|| {
        let labels: Vec<String> = with_avg.iter().map(|w| w.event.clone()).collect();
        let avg = |f: &Option<awrflash_model::WaitFigures>| f.as_ref().map_or(0.0, |f| f.avg_ms);
        paired_bars(
            &labels,
            &with_avg.iter().map(|w| avg(&w.before)).collect::<Vec<_>>(),
            &with_avg.iter().map(|w| avg(&w.after)).collect::<Vec<_>>(),
            "ms",
            "Average wait, before and after",
            760.0,
        )
    });
    let histograms = v
        .histograms
        .iter()
        .map(|h| Chart {
            caption: format!("{}: {}", h.event, h.le_1ms),
            svg: paired_bars(
                &h.labels,
                &h.before,
                &h.after,
                "%",
                &format!("{}: % of waits by latency, before and after", h.event),
                420.0,
            ),
        })
        .collect();
    let page = ComparePage {
        v: &v,
        breakdown,
        latency,
        histograms,
    };
    page.render().unwrap_or_else(|e| {
        format!(
            "<!doctype html><title>awrflash</title><p>comparison template error: {}</p>",
            svg::esc(&e.to_string())
        )
    })
}
