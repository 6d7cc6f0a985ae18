//! Phase 2, plan: every projection (the options, the hot segments, the
//! flash cache curve) and the flash cache decision, made once here before
//! any check runs. The checks read the plan and never change it.

use awrflash_facts::IntervalFacts;
use awrflash_model::{IostatCapture, OptionProjection, SegmentSizes, SysstatSpool};

use crate::checks::{self, Ctx, FlashCacheCandidate};
use crate::devices::DeviceProfile;
use crate::projection::{self, Plan};
use crate::util::f0;
use crate::{Options, RulesError, catalogue, segments};

/// The auxiliary inputs of the database.
pub struct Aux<'a> {
    pub sysstat: &'a [&'a SysstatSpool],
    pub iostat: &'a [&'a IostatCapture],
    pub segsizes: Option<&'a SegmentSizes>,
}

/// The plan of the peak interval `w`; `idle`: the gate's verdict.
pub fn build(
    w: &IntervalFacts,
    all: &[IntervalFacts],
    flash: &DeviceProfile,
    opts: &Options,
    aux: &Aux,
    idle: Option<f64>,
) -> Result<Plan, RulesError> {
    // The per-read and per-write saving that ranks the segments comes from
    // the projection's own steps (the whole-database option, which moves
    // every read and write wait).
    let unit = projection::interval_plan(w, flash, opts)
        .options
        .iter()
        .find(|o| o.key == "whole-db")
        .map(segments::unit_saving)
        .unwrap_or_default();
    let ranked = segments::rank(
        w,
        aux.segsizes,
        opts.flash_capacity_gb,
        projection::SEGMENT_COVERAGE_PCT,
        25,
        &unit,
    );
    let mut plan = projection::plan(w, flash, ranked, opts);
    let unavailable = checks::flash_cache_unavailable(w);
    if unavailable.is_some() {
        // No flash cache size is ranked where the feature cannot run.
        plan.options.retain(|o| !o.key.starts_with("flash-cache-"));
    } else if w.report.header.platform.is_none() {
        for o in plan
            .options
            .iter_mut()
            .filter(|o| o.key.starts_with("flash-cache-"))
        {
            o.notes.push("Database Smart Flash Cache runs only on Oracle Linux and Oracle Solaris; the report does not show the platform.".into());
        }
    }
    let decision = if let Some(why) = unavailable {
        Err(why)
    } else if idle.is_some() {
        Err("not enough load for advice (AF004)".to_string())
    } else {
        let rule = catalogue::rule("AF070")?;
        let t: FlashCacheCandidate = toml::Value::Table(rule.thresholds.clone())
            .try_into()
            .map_err(|e| RulesError::Config(format!("rules/AF070.toml thresholds: {e}")))?;
        let ctx = Ctx {
            w,
            all,
            opts,
            flash,
            plan: &plan,
            sysstat: aux.sysstat.to_vec(),
            segsizes: aux.segsizes,
            iostat: aux.iostat.to_vec(),
        };
        t.assess(&ctx)
    };
    if let Some(fc) = plan.flash_cache.as_mut() {
        match &decision {
            Ok(c) => {
                fc.recommended = true;
                fc.reason = format!(
                    "recommended: {} GB, {} MB of SGA for headers",
                    f0(c.size_gb),
                    f0(c.sga_cost_mb)
                );
                fc.sql = checks::flash_cache_sql(w, c.size_gb, c.sga_cost_mb);
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
    if let Err(why) = &decision {
        // A rejected flash cache is shown as rejected, after the ranked
        // options, never ranked among them.
        for o in plan
            .options
            .iter_mut()
            .filter(|o| o.key.starts_with("flash-cache-"))
        {
            o.notes.push(format!("rejected: {why}"));
        }
        let (keep, rejected): (Vec<_>, Vec<_>) = std::mem::take(&mut plan.options)
            .into_iter()
            .partition(|o| !o.key.starts_with("flash-cache-"));
        plan.options = keep.into_iter().chain(rejected).collect();
    }
    plan.flash_cache_pick = decision.ok();
    if let Some(budget) = opts.flash_capacity_gb {
        apply_budget(&mut plan, budget);
    }
    Ok(plan)
}

/// Whether an option can be the best one: it fits the budget and is not a
/// flash cache size the plan rejected.
pub fn candidate(o: &OptionProjection, plan: &Plan, budget: Option<f64>) -> bool {
    fits_budget(o, budget)
        && !(o.key.starts_with("flash-cache-") && plan.flash_cache_pick.is_none())
}

/// Whether an option fits the flash budget: an option whose capacity is
/// unknown is not ruled out (its note says the capacity is unchecked).
pub fn fits_budget(o: &OptionProjection, budget: Option<f64>) -> bool {
    match (o.capacity_gb, budget) {
        (Some(c), Some(b)) => c <= b + 1e-9,
        _ => true,
    }
}

/// With `--flash-capacity-gb`: the options that do not fit go after the
/// ones that do (each group keeps its order), marked in their notes; a
/// recommended flash cache larger than the budget is withdrawn.
fn apply_budget(plan: &mut Plan, budget: f64) {
    for o in plan.options.iter_mut() {
        match o.capacity_gb {
            Some(c) if !fits_budget(o, Some(budget)) => o.notes.push(format!(
                "does not fit the {} GB flash budget (needs {} GB): ranked after the options that fit, never the best",
                f0(budget),
                f0(c)
            )),
            Some(_) => {}
            None => o.notes.push(format!(
                "capacity not known from the report: check it against the {} GB flash budget",
                f0(budget)
            )),
        }
    }
    let (fit, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut plan.options)
        .into_iter()
        .partition(|o| fits_budget(o, Some(budget)));
    plan.options = fit.into_iter().chain(rest).collect();
    if let Some(pick) = &plan.flash_cache_pick
        && pick.size_gb > budget + 1e-9
    {
        let why = format!(
            "not recommended: the {} GB it would take does not fit the {} GB flash budget",
            f0(pick.size_gb),
            f0(budget)
        );
        plan.flash_cache_pick = None;
        if let Some(fc) = plan.flash_cache.as_mut() {
            fc.recommended = false;
            fc.reason = why;
            fc.sql.clear();
            fc.size_gb = None;
            fc.sga_cost_mb = None;
        }
    }
}
