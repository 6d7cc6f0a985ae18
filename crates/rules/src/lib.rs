//! awrflash-rules: the advisor (rule catalogue, device profiles, projection).
//!
//! Stage: rules. Input: parsed documents of one database
//! ([`awrflash_model::Document`]): one or many AWR/Statspack reports, plus
//! any iostat captures, `v$sysstat` spools and `dba_segments` lists.
//! Output: an [`awrflash_model::Analysis`]: verdict, findings with traced
//! evidence and seed citations, projected options, segments to move, the
//! flash cache plan, exhibits and the series across report intervals.
//!
//! The rules live in `rules/*.toml` (compiled in) and `src/checks/` (one
//! check per rule, one registry); the projection model in `projection.rs`;
//! device profiles in `rules/devices.toml`.

pub mod catalogue;
pub mod checks;
pub mod devices;
pub mod histproj;
pub mod projection;
pub mod segments;
mod series;
pub mod util;

use awrflash_model::{
    Analysis, DbIdentity, DbReport, Document, EvidenceSrc, Exhibits, IostatCapture, SegmentSizes,
    SysstatSpool, Verdict,
};
use serde::Serialize;

use crate::util::{f0, f1};
use awrflash_facts::IntervalFacts;

/// Schema version of the JSON `Analysis` this crate produces.
pub const SCHEMA_VERSION: u32 = 1;

/// User-given facts the inputs do not carry.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// I/O channel capacity (HBA/network) in MB/s (`--channel-mbps`).
    pub channel_mbps: Option<f64>,
    /// Flash capacity budget in GB (`--flash-capacity-gb`).
    pub flash_capacity_gb: Option<f64>,
    /// Device profile name (`--device`), default chosen by the advisor.
    pub device: Option<String>,
    /// Extra device profiles from a user TOML file (its text).
    pub devices_toml: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum RulesError {
    #[error("{0}")]
    Config(String),
}

/// One rule's catalogue entry (what `awrflash rules` prints).
#[derive(Debug, Clone, Serialize)]
pub struct RuleSpec {
    pub id: String,
    pub slug: String,
    pub severity: String,
    pub title: String,
    pub summary: String,
    pub why: String,
    pub evidence: String,
    pub fix: String,
    pub citations: Vec<awrflash_model::Citation>,
    /// Each threshold with its value and how it was derived.
    pub thresholds: Vec<ThresholdDoc>,
}

/// A threshold of a rule as documented in its TOML.
#[derive(Debug, Clone, Serialize)]
pub struct ThresholdDoc {
    pub name: String,
    pub value: String,
    pub derivation: String,
}

/// A device profile (what `awrflash devices` prints).
#[derive(Debug, Clone, Serialize)]
pub struct DeviceSpec {
    pub name: String,
    pub description: String,
    pub source: String,
    /// `flash` or `disk`.
    pub class: String,
    /// Not measured in the seeds: an editable assumption.
    pub assumption: bool,
    /// Devices a deployment spreads the I/O over.
    pub units: f64,
    /// 8 KB random read and write service time at one outstanding I/O (ms).
    pub read_8k_ms_qd1: f64,
    pub write_8k_ms_qd1: f64,
    /// The class's 8 KB read and write service time range (low, high ms).
    pub read_range_ms: (f64, f64),
    pub write_range_ms: (f64, f64),
    /// How assumed figures were derived from the source.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub derivation: String,
    /// The device a projection uses unless `--device` names another.
    pub default: bool,
}

/// Analyses the documents of one database (one or many reports, plus any
/// iostat, sysstat and segment-size inputs).
pub fn analyze(docs: &[Document], opts: &Options) -> Result<Analysis, RulesError> {
    let rules = catalogue::load()?;
    let devs = devices::load(opts.devices_toml.as_deref())?;
    let flash = devices::find(
        &devs,
        opts.device.as_deref().unwrap_or(devices::DEFAULT_FLASH),
    )?;

    let empty = DbReport::default();
    let mut reports: Vec<&DbReport> = Vec::new();
    let mut sysstat: Vec<&SysstatSpool> = Vec::new();
    let mut iostat: Vec<&IostatCapture> = Vec::new();
    let mut segsizes: Option<&SegmentSizes> = None;
    for d in docs {
        match d {
            Document::Report(r) => reports.push(r),
            Document::Sysstat(s) => sysstat.push(s),
            Document::Iostat(c) => iostat.push(c),
            Document::SegmentSizes(s) => {
                if segsizes.is_none() {
                    segsizes = Some(s);
                }
            }
        }
    }
    let mut all: Vec<IntervalFacts> = if reports.is_empty() {
        vec![IntervalFacts::new(&empty)]
    } else {
        reports.iter().map(|r| IntervalFacts::new(r)).collect()
    };
    let primary = peak_index(&all);
    if let Some(w) = all.get_mut(primary) {
        w.fill_from_iostat(&iostat);
    }
    let Some(w) = all.get(primary) else {
        return Err(RulesError::Config("no workload".into()));
    };
    let ranked = segments::rank(
        w,
        segsizes,
        opts.flash_capacity_gb,
        projection::SEGMENT_COVERAGE_PCT,
        25,
    );
    let mut plan = projection::plan(w, flash, ranked, opts);
    let ctx = checks::Ctx {
        w,
        all: &all,
        opts,
        flash,
        plan: &plan,
        sysstat: sysstat.clone(),
        segsizes,
        iostat: iostat.clone(),
    };
    let mut findings = checks::run(&rules, &ctx)?;
    let low_load =
        threshold(&rules, "AF004", "load_aas_min").and_then(|min| checks::low_load(w, min));
    if low_load.is_some() {
        // An idle interval: only the rules that say why there is no advice.
        findings.retain(|f| matches!(f.id.as_str(), "AF003" | "AF004" | "AF005"));
    }
    let fc_decision = if low_load.is_some() {
        Err("not enough load for advice (AF004)".to_string())
    } else {
        flash_cache_decision(&rules, &ctx)
    };
    if let Some(fc) = plan.flash_cache.as_mut() {
        match fc_decision {
            Ok((size, sga)) => {
                fc.recommended = true;
                fc.reason = format!(
                    "recommended: {} GB, {} MB of SGA for headers",
                    f0(size),
                    f0(sga)
                );
                fc.sql = checks::flash_cache_sql(w, size, sga);
            }
            Err(why) => {
                fc.recommended = false;
                fc.reason = format!("not recommended: {why}");
                // The curve keeps every size tried; no size is put forward.
                fc.size_gb = None;
                fc.sga_cost_mb = None;
            }
        }
    }
    let verdict = match low_load {
        Some(aas) => Verdict {
            summary: format!(
                "Not enough load: {} s of DB time over {} s elapsed ({} average active sessions), so no flash advice is given for this interval.",
                f1(w.db_time()),
                f0(w.elapsed()),
                awrflash_facts::round(aas)
            ),
            gain_pct_low: 0.0,
            gain_pct_high: 0.0,
            bound: "not-enough-load".into(),
            best_option: None,
        },
        None => verdict(w, &plan, &rules),
    };
    let analysis = Analysis {
        schema_version: SCHEMA_VERSION,
        database: identity(w, &all),
        inputs: docs.iter().map(|d| d.source().clone()).collect(),
        verdict,
        findings,
        options: plan.options.clone(),
        segments_to_move: plan.ranked.list.clone(),
        flash_cache: plan.flash_cache.clone(),
        series: series::points(&all),
        exhibits: exhibits(w, &plan, &iostat),
    };
    Ok(analysis)
}

/// The report interval with the highest load (DB time per second); the
/// first on ties.
fn peak_index(all: &[IntervalFacts]) -> usize {
    awrflash_model::stats::peak_index(all.iter().map(|w| w.per_second(w.db_time_s.as_ref())))
        .unwrap_or(0)
}

fn flash_cache_decision(
    rules: &[catalogue::RuleFile],
    ctx: &checks::Ctx,
) -> Result<(f64, f64), String> {
    let rule = rules
        .iter()
        .find(|r| r.id == "AF070")
        .ok_or_else(|| "rule AF070 missing".to_string())?;
    let t: checks::FlashCacheCandidate = toml::Value::Table(rule.thresholds.clone())
        .try_into()
        .map_err(|e| format!("rules/AF070.toml: {e}"))?;
    t.assess(ctx).map(|c| (c.size_gb, c.sga_cost_mb))
}

/// A numeric threshold of a rule.
fn threshold(rules: &[catalogue::RuleFile], id: &str, name: &str) -> Option<f64> {
    rules
        .iter()
        .find(|r| r.id == id)
        .and_then(|r| r.thresholds.get(name))
        .and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
}

fn verdict(w: &IntervalFacts, plan: &projection::Plan, rules: &[catalogue::RuleFile]) -> Verdict {
    if w.db_time() <= 0.0 || w.events.is_empty() {
        return Verdict {
            summary: "Not enough data: the input has no DB time or no wait events, so no projection was made.".into(),
            gain_pct_low: 0.0,
            gain_pct_high: 0.0,
            bound: "not-enough-data".into(),
            best_option: None,
        };
    }
    let io_min = rules
        .iter()
        .find(|r| r.id == "AF003")
        .and_then(|r| r.thresholds.get("io_share_pct_max"))
        .and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
        .unwrap_or(20.0);
    let io_share = w.io_share_pct().map_or(0.0, |n| n.value);
    let Some(best) = plan.options.first() else {
        return Verdict {
            summary: "No flash option applies: the report shows no I/O waits a device change would shorten.".into(),
            gain_pct_low: 0.0,
            gain_pct_high: 0.0,
            bound: "io-share".into(),
            best_option: None,
        };
    };
    let p = &best.projection;
    let lo = awrflash_facts::round((1.0 - p.response_ratio_high) * 100.0);
    let hi = awrflash_facts::round((1.0 - p.response_ratio_low) * 100.0);
    let bound = if io_share < io_min {
        "io-share".to_string()
    } else {
        p.bound.clone()
    };
    let limit = match bound.as_str() {
        "cpu" => format!(
            " The CPUs cap it (throughput at most {}x).",
            f1(p.throughput_cap.unwrap_or(1.0))
        ),
        "channel" => format!(
            " The I/O channel caps it (throughput at most {}x).",
            f1(p.throughput_cap.unwrap_or(1.0))
        ),
        "io-share" => format!(
            " I/O waits are only {}% of DB time, so flash cannot do much here.",
            f1(io_share)
        ),
        _ => String::new(),
    };
    let range = if f0(lo) == f0(hi) {
        format!("about {}%", f0(hi))
    } else {
        format!("{}-{}%", f0(lo), f0(hi))
    };
    let summary = if hi < 5.0 {
        format!(
            "Flash would change little: the best option ({}) cuts DB time per transaction by {} on {}.{}",
            lower_first(&best.title),
            range,
            best.device,
            limit
        )
    } else if bound == "io-share" {
        // A real but bounded gain: say the bound once, without "cannot do
        // much" next to a gain worth having.
        format!(
            "{} on {} would cut DB time per transaction by {}; I/O waits are only {}% of DB time, so that is about all flash can do here.",
            best.title,
            best.device,
            range,
            f1(io_share)
        )
    } else {
        format!(
            "{} on {} would cut DB time per transaction by {} (I/O waits are {}% of DB time).{}",
            best.title,
            best.device,
            range,
            f1(io_share),
            limit
        )
    };
    // The smaller change, when it is not the best one.
    let mut summary = summary;
    if best.key != "hot-segments"
        && let Some(h) = plan.options.iter().find(|o| o.key == "hot-segments")
    {
        let hg = projection::mid_gain(h) * 100.0;
        if hg >= 5.0 {
            summary.push_str(&format!(
                " Moving only the {} hottest segments{} gives about {}%.",
                plan.ranked
                    .list
                    .iter()
                    .filter(|s| s.fits_budget != Some(false))
                    .count(),
                h.capacity_gb
                    .map(|c| format!(" ({} GB)", f1(c)))
                    .unwrap_or_default(),
                f0(hg)
            ));
        }
    }
    Verdict {
        summary,
        gain_pct_low: lo.max(0.0),
        gain_pct_high: hi.max(0.0),
        bound,
        best_option: Some(best.key.clone()),
    }
}

fn identity(w: &IntervalFacts, all: &[IntervalFacts]) -> DbIdentity {
    let h = &w.report.header;
    let mut instances: Vec<String> = all
        .iter()
        .filter_map(|x| x.report.header.instance.clone())
        .chain(w.report.instances.iter().filter_map(|i| i.instance.clone()))
        .collect();
    instances.sort();
    instances.dedup();
    DbIdentity {
        db_name: h.db_name.clone(),
        dbid: h.dbid,
        instances,
        release: h.release.clone(),
        rac: w.rac,
        host: h.host.clone(),
        platform: h.platform.clone(),
        begin_time: h.begin_time.clone(),
        end_time: h.end_time.clone(),
        begin_snap: h.begin_snap,
        end_snap: h.end_snap,
        elapsed_s: h.elapsed_s,
        db_time_s: w.db_time_s.as_ref().map(|n| n.value),
    }
}

fn exhibits(w: &IntervalFacts, plan: &projection::Plan, iostat: &[&IostatCapture]) -> Exhibits {
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
                label: s.name.clone(),
                value: awrflash_facts::round(v),
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
    }
}

/// The rule catalogue, sorted by id.
pub fn catalogue() -> Result<Vec<RuleSpec>, RulesError> {
    let rules = catalogue::load()?;
    Ok(rules
        .into_iter()
        .map(|r| RuleSpec {
            citations: r.citations(),
            thresholds: r
                .thresholds
                .iter()
                .map(|(k, v)| ThresholdDoc {
                    name: k.clone(),
                    value: v.to_string(),
                    derivation: r.derivation.get(k).cloned().unwrap_or_default(),
                })
                .collect(),
            id: r.id,
            slug: r.slug,
            severity: r.severity.as_str().to_string(),
            title: r.title,
            summary: r.doc.summary,
            why: r.doc.why,
            evidence: r.doc.evidence,
            fix: r.doc.fix,
        })
        .collect())
}

/// Built-in device profiles plus any from `opts.devices_toml`.
pub fn devices(opts: &Options) -> Result<Vec<DeviceSpec>, RulesError> {
    Ok(devices::load(opts.devices_toml.as_deref())?
        .iter()
        .map(devices::DeviceProfile::spec)
        .collect())
}

/// An editable device file (`awrflash devices --template`).
pub fn device_template() -> Result<String, RulesError> {
    devices::template()
}

/// The names of the built-in device profiles, the default first (for
/// `--device`'s help).
pub fn builtin_device_names() -> Vec<String> {
    let mut names: Vec<String> = devices::load(None)
        .map(|l| l.into_iter().map(|d| d.name).collect())
        .unwrap_or_default();
    names.sort_by_key(|n| n != devices::DEFAULT_FLASH);
    names
}

/// A title inside a sentence: its first letter in lower case, the rest
/// (`KB`, segment names) as written; a title that starts with an acronym
/// (`TEMP`, `UNDO`) keeps it.
fn lower_first(title: &str) -> String {
    let acronym = title.split_whitespace().next().is_some_and(|w| {
        w.chars().filter(|c| c.is_alphabetic()).count() > 1 && w == w.to_uppercase()
    });
    let mut chars = title.chars();
    match chars.next() {
        Some(first) if !acronym => first.to_lowercase().chain(chars).collect(),
        _ => title.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::lower_first;

    #[test]
    fn a_title_in_a_sentence_keeps_its_units_and_names() {
        assert_eq!(
            lower_first("Move the online redo logs to flash (4 KB redo block size)"),
            "move the online redo logs to flash (4 KB redo block size)"
        );
        assert_eq!(lower_first("TEMP to flash"), "TEMP to flash");
        assert_eq!(lower_first(""), "");
    }
}
