//! Phase 5, exhibits: the tables and chart data beside the findings (key
//! wait histograms, tablespaces, redo figures, flash cache statistics, iostat
//! devices, the breakdown), read from the facts and the plan.

use awrflash_facts::{IntervalFacts, round};
use awrflash_model::{EvidenceSrc, Exhibits, IostatCapture, ShortenableWaits};

use crate::devices::DeviceProfile;
use crate::projection::Plan;

/// Tables and chart data the report shows beside the findings.
pub fn exhibits(
    w: &IntervalFacts,
    plan: &Plan,
    dev: &DeviceProfile,
    iostat: &[&IostatCapture],
) -> Exhibits {
    let r = w.report;
    let histograms = w.key_histograms();
    let mut tablespaces = r.tablespace_io.clone();
    tablespaces.sort_by(|a, b| {
        let ia = a.reads.unwrap_or(0.0) + a.writes.unwrap_or(0.0);
        let ib = b.reads.unwrap_or(0.0) + b.writes.unwrap_or(0.0);
        ib.total_cmp(&ia).then(a.tablespace.cmp(&b.tablespace))
    });
    tablespaces.truncate(20);
    let mut redo = Vec::new();
    if let Some(n) = w.redo_mb_s() {
        redo.push(n.evidence("redo MB/s", "MB/s"));
    }
    if let Some(n) = &w.redo_writes_s {
        redo.push(n.evidence("redo writes per second", "writes/s"));
    }
    if let Some(n) = &w.avg_redo_write_kb {
        redo.push(n.evidence("average redo write", "KB"));
    }
    for name in ["log file sync", "log file parallel write"] {
        let e = w.event(name).cloned().or_else(|| w.background(name));
        if let Some(e) = e {
            redo.push(e.avg_num().evidence(&format!("{name} avg wait"), "ms"));
            redo.push(e.waits_num().evidence(&format!("{name} waits"), "waits"));
        }
    }
    if let Some(s) = w.stat_total("redo wastage") {
        redo.push(s.evidence("redo wastage", "bytes"));
    }
    let mut flash_cache_stats = Vec::new();
    for s in &r.activity_stats {
        let n = s.name.to_ascii_lowercase();
        if (n.contains("flash cache")
            || n == "physical read requests optimized"
            || n.starts_with("cell flash"))
            && let Some(v) = s.total.or(s.per_second)
        {
            flash_cache_stats.push(awrflash_model::Evidence {
                label: s.name.to_string(),
                value: round(v),
                unit: if s.total.is_some() {
                    "total"
                } else {
                    "per second"
                }
                .into(),
                src: Some(EvidenceSrc {
                    path: w.path.clone(),
                    section: s.src.section.clone(),
                    line: s.src.line,
                }),
                derived_from: None,
            });
        }
    }
    let mut devices_out = Vec::new();
    for c in iostat {
        devices_out.extend(c.summary.iter().cloned());
    }
    let shortenable = histograms_shortenable(w, dev, &histograms);
    Exhibits {
        histograms,
        tablespaces,
        redo,
        flash_cache_stats,
        devices: devices_out,
        breakdown: plan
            .options
            .first()
            .map(|o| o.before.clone())
            .unwrap_or_else(|| plan.breakdown.clone()),
        shortenable,
    }
}

/// The latency charts' "X% of waits can be shortened", from the histogram
/// projection of each read event (one figure with the options' steps).
fn histograms_shortenable(
    w: &IntervalFacts,
    dev: &DeviceProfile,
    rows: &[awrflash_model::HistogramRow],
) -> Vec<ShortenableWaits> {
    rows.iter()
        .filter_map(|h| {
            let (pct, device_ms) = crate::projection::shortenable_pct(w, dev, h.event.trim())?;
            Some(ShortenableWaits {
                event: h.event.trim().to_string(),
                pct: round(pct),
                device: dev.name.clone(),
                device_ms: round(device_ms),
            })
        })
        .collect()
}
