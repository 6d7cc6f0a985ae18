//! Phase 2, plan: every projection (the options, the hot segments, the
//! flash cache curve) and the flash cache decision, made once here before
//! any check runs. The checks read the plan and never change it.

use awrflash_facts::IntervalFacts;
use awrflash_model::{IostatCapture, OptionProjection, SegmentSizes, SysstatSpool};

use crate::checks::{self, Ctx, FlashCacheCandidate};
use crate::devices::DeviceProfile;
use crate::platform::{self, Platform};
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
    let unit = projection::moves_plan(w, flash, opts)
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
    let rule = catalogue::rule("AF070")?;
    let t: FlashCacheCandidate = toml::Value::Table(rule.thresholds.clone())
        .try_into()
        .map_err(|e| RulesError::Config(format!("rules/AF070.toml thresholds: {e}")))?;
    let mut plan = projection::plan(w, flash, ranked, opts, t.fit_r2_min());
    plan.platform = platform::detect(w);
    platform_options(w, flash, &mut plan);
    if let Some(dg) = crate::dataguard::primary(w) {
        // Redo options on a Data Guard primary (AF055 says it in full).
        for o in plan
            .options
            .iter_mut()
            .filter(|o| o.key == "redo" || o.key == projection::exadata::FLASH_LOG)
        {
            o.notes.push(format!(
                "Data Guard primary ({}): a new redo layout needs standby redo logs of the same size (one more group per thread) here and on every standby, and keeps each group multiplexed{}",
                dg.describe(),
                if dg.sync() {
                    "; with SYNC transport the standby's round trip stays in log file sync"
                } else {
                    ""
                }
            ));
        }
    }
    let unavailable = checks::flash_cache_unavailable(w);
    if unavailable.is_some() {
        // No flash cache size is ranked, or drawn, where the feature
        // cannot run: the plan keeps only the one line saying why.
        plan.options.retain(|o| !o.key.starts_with("flash-cache-"));
        if let Some(fc) = plan.flash_cache.as_mut() {
            fc.curve.clear();
            fc.fit = None;
        }
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
    collapse_flash_cache(&mut plan, decision.as_ref().ok());
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

/// The option set the platform allows (see `platform`): on Exadata the
/// cell flash options replace the device moves and the hot segments get
/// `CELL_FLASH_CACHE KEEP` instead of a move; on a managed service only the
/// service's storage tier is left; on a cloud VM each option says that
/// flash there is the provider's disk tier.
fn platform_options(w: &IntervalFacts, flash: &DeviceProfile, plan: &mut Plan) {
    match plan.platform.clone() {
        Platform::Exadata => {
            plan.options = projection::exadata::options(w, flash, plan);
            for s in plan.ranked.list.iter_mut() {
                s.sql = Some(projection::exadata::keep_sql(s));
            }
        }
        Platform::Service(why) => {
            plan.options.retain(|o| o.key == "whole-db");
            for o in plan.options.iter_mut() {
                o.title = "Move the database to the service's faster storage tier".into();
                o.notes.push(format!(
                    "no host access ({why}): no file, device or disk group can be moved; the storage tier is the service's setting, projected here with the {} profile",
                    o.device
                ));
            }
            for s in plan.ranked.list.iter_mut() {
                s.sql = None;
            }
        }
        Platform::CloudVm(provider) => {
            for o in plan
                .options
                .iter_mut()
                .filter(|o| !o.key.starts_with("flash-cache-"))
            {
                o.notes.push(format!(
                    "on {provider}, flash is the provider's disk tier, not a device to buy: the projection uses the {} profile; pick the tier's profile with --device (built-in: aws-io2-bx, azure-premium-ssd-v2, azure-ultra-disk, gcp-hyperdisk-extreme)",
                    o.device
                ));
            }
        }
        Platform::Host => {}
    }
}

/// One flash cache row among the options: the recommended size, or when
/// none is recommended the size the curve picked, shown as rejected. The
/// flash cache curve keeps every size tried.
fn collapse_flash_cache(plan: &mut Plan, pick: Option<&projection::FlashCachePick>) {
    let curve_pick = plan.flash_cache.as_ref().and_then(|fc| {
        fc.curve
            .iter()
            .find(|c| Some(c.size_gb) == fc.size_gb)
            .map(|c| format!("flash-cache-{}x", c.multiple_of_buffer_cache))
    });
    let tried = plan
        .options
        .iter()
        .filter(|o| o.key.starts_with("flash-cache-"))
        .count();
    let keep = pick.map(|p| p.key.clone()).or(curve_pick);
    plan.options
        .retain(|o| !o.key.starts_with("flash-cache-") || Some(&o.key) == keep.as_ref());
    for o in plan
        .options
        .iter_mut()
        .filter(|o| o.key.starts_with("flash-cache-"))
    {
        o.notes.push(format!(
            "one of {tried} sizes tried (the smallest within 5% of the best projected DB time); the flash cache curve shows them all"
        ));
    }
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
