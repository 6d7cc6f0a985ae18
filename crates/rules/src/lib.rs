//! awrflash-rules: the advisor (rule catalogue, device profiles, projection).
//!
//! Stage: rules. Input: parsed documents of one database
//! ([`awrflash_model::Document`]): one or many AWR/Statspack reports, plus
//! any iostat captures, `v$sysstat` spools and `dba_segments` lists.
//! Output: an [`awrflash_model::Analysis`]: verdict, findings with traced
//! evidence and seed citations, projected options, segments to move, the
//! flash cache plan, exhibits, the series across report intervals and
//! their trend.
//!
//! The figures come from the facts layer ([`awrflash_facts`]); the advisor
//! runs in phases, one module each, data flowing one way: gates (`gates`:
//! idle or not enough data) -> plan (`plan`, `projection`, `segments`: every
//! projection and the flash cache decision) -> checks (`checks`: read the
//! facts and the plan, write nothing back) -> verdict (`verdict`) ->
//! exhibits (`exhibits`).
//!
//! The rules live in `catalogue/*.toml` (the top-level `rules/` links
//! there; compiled in and parsed once) and `src/checks/` (one check per
//! rule, one registry); device profiles in `catalogue/devices.toml`.

pub mod catalogue;
pub mod checks;
pub mod dataguard;
pub mod devices;
mod exhibits;
mod gates;
pub mod histproj;
mod intervals;
mod plan;
pub mod platform;
pub mod projection;
pub mod redoproj;
pub mod segments;
mod series;
mod sqlwork;
pub mod util;
mod verdict;
pub mod window;

use awrflash_model::{Analysis, DbIdentity, Document, IostatCapture, SegmentSizes, SysstatSpool};
use serde::Serialize;

use awrflash_facts::IntervalFacts;

pub use intervals::Intervals;
pub use window::{MovesPlanner, WindowMoves};

/// Schema version of the JSON `Analysis` this crate produces. 2: the
/// source formats `sar-solaris` and `sar-hpux`, and `--format json` on
/// stdout as JSON Lines (one document per database) instead of an array.
pub const SCHEMA_VERSION: u32 = 2;

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

/// The warnings that change how the result reads, of inputs given as
/// (path, warnings) in input order, each once.
pub fn caveats<'w>(
    inputs: impl IntoIterator<Item = (&'w str, &'w [awrflash_model::Warning])>,
) -> Vec<awrflash_model::Caveat> {
    let mut out: Vec<awrflash_model::Caveat> = Vec::new();
    for (path, warnings) in inputs {
        for w in warnings.iter().filter(|w| w.is_meaning_changing()) {
            let c = awrflash_model::Caveat {
                path: path.to_string(),
                section: w.section.clone(),
                line: w.line,
                message: w.message.clone(),
            };
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    out
}

/// Analyses the documents of one database (one or many reports, plus any
/// iostat, sysstat and segment-size inputs).
pub fn analyze(docs: &[Document], opts: &Options) -> Result<Analysis, RulesError> {
    let facts = docs
        .iter()
        .filter_map(|d| match d {
            Document::Report(r) => Some(IntervalFacts::new(r)),
            _ => None,
        })
        .collect();
    let given = Given {
        inputs: docs.iter().map(|d| d.source().clone()).collect(),
        caveats: caveats(
            docs.iter()
                .map(|d| (d.source().path.as_str(), d.warnings())),
        ),
        aux: docs,
    };
    analyze_intervals(Intervals::new(facts)?, &given, opts)
}

/// What [`analyze_intervals`] reads besides the intervals: every input in
/// the order given, their caveats ([`caveats`]) and the documents among
/// which the auxiliary inputs are (reports among them are skipped).
pub struct Given<'d> {
    pub inputs: Vec<awrflash_model::Source>,
    pub caveats: Vec<awrflash_model::Caveat>,
    pub aux: &'d [Document],
}

/// [`analyze`] over intervals ordered and classified already: a run that
/// computes each interval's facts as it unpacks the report, and gives the
/// analysed interval its whole report ([`Intervals::replace_analysed`]),
/// comes in here.
pub fn analyze_intervals(
    iv: Intervals,
    given: &Given,
    opts: &Options,
) -> Result<Analysis, RulesError> {
    let rules = catalogue::rules()?;
    let devs = devices::load(opts.devices_toml.as_deref())?;

    let mut sysstat: Vec<&SysstatSpool> = Vec::new();
    let mut iostat: Vec<&IostatCapture> = Vec::new();
    let mut segsizes: Option<&SegmentSizes> = None;
    for d in given.aux {
        match d {
            Document::Report(_) => {}
            Document::Sysstat(s) => sysstat.push(s),
            Document::Iostat(c) => iostat.push(c),
            Document::SegmentSizes(s) => {
                if segsizes.is_none() {
                    segsizes = Some(s);
                }
            }
        }
    }
    let Intervals {
        mut all,
        moves,
        classes,
        peak,
        primary,
        ..
    } = iv;
    if let Some(w) = all.get_mut(primary) {
        w.fill_from_iostat(&iostat);
    }
    let Some(w) = all.get(primary) else {
        return Err(RulesError::Config("no workload".into()));
    };
    // On Exadata the flash is the cells' own: its profile unless the user
    // names another.
    let flash = devices::find(
        &devs,
        devices::planned(opts.device.as_deref(), checks::on_exadata(w)),
    )?;
    // An interval held without the sections the window's plan reads must
    // come with its moves for this device (a planner made with these
    // options computes them for every device this can pick).
    if moves.iter().flatten().any(|m| !m.has(&flash.name)) {
        return Err(RulesError::Config(format!(
            "an interval's window moves were computed without device `{}`",
            flash.name
        )));
    }
    // Gates: an idle interval gets no advice.
    let idle = gates::idle(w)?;
    // Plan: every projection, the flash cache decision included.
    let aux = plan::Aux {
        sysstat: &sysstat,
        iostat: &iostat,
        segsizes,
    };
    let plan = plan::build(w, &all, flash, opts, &aux, idle)?;
    // Checks: read the facts and the plan, write nothing back.
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
    let mut findings = checks::run(rules, &ctx)?;
    // Advice the platform rules out (device moves on Exadata or a managed
    // service; device-class advice on a cloud VM) is not given.
    findings.retain(|f| !platform::withheld(&plan.platform, &f.id));
    if idle.is_some() {
        // An idle interval: only the rules that say why there is no advice
        // (`on_idle` in their catalogue entry).
        findings.retain(|f| rules.iter().any(|r| r.id == f.id && r.on_idle));
    }
    let mut plan = plan;
    let mut verdict = verdict::verdict(w, &plan, idle, opts.flash_capacity_gb)?;
    let trend = if all.len() > 1 {
        awrflash_facts::trend(&all)
    } else {
        Vec::new()
    };
    let window = window::window(
        &all,
        &moves,
        &classes,
        primary,
        &window::Context {
            flash,
            opts,
            trend: &trend,
            analysed_options: &plan.options,
        },
    );
    if let Some(wa) = &window {
        verdict::for_window(&mut verdict, wa, &classes, &plan, primary != peak);
    }
    if verdict::no_advice(&verdict) {
        // No advice, no statements to run: the projections stay for the
        // record, every SQL line goes.
        withdraw_sql(&mut plan, &mut findings, verdict.bound.as_str());
    }
    let analysis = Analysis {
        schema_version: SCHEMA_VERSION,
        database: identity(w, &all),
        inputs: given.inputs.clone(),
        verdict,
        findings,
        options: plan.options.clone(),
        segments_to_move: plan
            .ranked
            .list
            .iter()
            .chain(&plan.ranked.set_aside)
            .cloned()
            .collect(),
        flash_cache: plan.flash_cache.clone(),
        series: series::points(&all),
        peak_interval: (all.len() > 1).then_some(peak),
        trend,
        exhibits: exhibits::exhibits(w, &plan, flash, &iostat),
        // Which auxiliary inputs fit the database is the run layer's call.
        attachments: Vec::new(),
        caveats: {
            let mut c = given.caveats.clone();
            c.extend(window::long_interval_caveat(&all));
            c
        },
        window,
    };
    Ok(analysis)
}

/// The index in `docs` of the report [`analyze`] makes its detailed plan
/// for: the busiest interval that is not an incident (the only report, or
/// `None` without reports), as [`Intervals::new`] picks it.
pub fn analysed_report(docs: &[Document]) -> Result<Option<usize>, RulesError> {
    let (index, facts): (Vec<usize>, Vec<IntervalFacts>) = docs
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match d {
            Document::Report(r) => Some((i, IntervalFacts::new(r))),
            _ => None,
        })
        .unzip();
    let iv = Intervals::new(facts)?;
    Ok(iv.analysed_input().and_then(|i| index.get(i).copied()))
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

/// The rule catalogue, sorted by id.
pub fn catalogue() -> Result<Vec<RuleSpec>, RulesError> {
    let rules = catalogue::rules()?.to_vec();
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

/// Removes every generated statement when the verdict gives no advice.
fn withdraw_sql(
    plan: &mut projection::Plan,
    findings: &mut [awrflash_model::Finding],
    bound: &str,
) {
    for s in plan.ranked.list.iter_mut() {
        s.sql = None;
    }
    if let Some(fc) = plan.flash_cache.as_mut() {
        if fc.recommended {
            fc.recommended = false;
            fc.reason = format!("not recommended: no advice for this interval ({bound})");
            fc.size_gb = None;
            fc.sga_cost_mb = None;
        }
        fc.sql.clear();
    }
    plan.flash_cache_pick = None;
    for f in findings.iter_mut() {
        if let Some(r) = f.recommendation.as_mut() {
            r.sql.clear();
        }
    }
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
