//! Phase 4, verdict: one paragraph from the peak interval's facts and the
//! plan: the best option, its gain, what bounds it, and the smaller change.

use awrflash_facts::{IntervalFacts, round};
use awrflash_model::{Bound, Verdict, WindowAnalysis};

use crate::projection::{Plan, mid_gain};
use crate::util::{f0, f1};
use crate::{RulesError, catalogue};

/// The verdict of the peak interval `w` and its plan; `idle`: the gate's
/// average active sessions when the interval is idle.
/// `budget`: `--flash-capacity-gb`; only an option that fits it can be best.
pub fn verdict(
    w: &IntervalFacts,
    plan: &Plan,
    idle: Option<f64>,
    budget: Option<f64>,
) -> Result<Verdict, RulesError> {
    if let Some(aas) = idle {
        return Ok(Verdict {
            summary: format!(
                "Not enough load: {} s of DB time over {} s elapsed ({} average active sessions), so no flash advice is given for this interval.",
                f1(w.db_time()),
                f0(w.elapsed()),
                round(aas)
            ),
            gain_pct_low: 0.0,
            gain_pct_high: 0.0,
            bound: Bound::NotEnoughLoad,
            best_option: None,
        });
    }
    // AF003's threshold: below it the I/O share bounds the gain.
    let io_min = catalogue::threshold("AF003", "io_share_pct_max")?;
    // AF010's: from it single-block reads are worth a word in the verdict.
    let reads_min = catalogue::threshold("AF010", "share_pct_min")?;
    Ok(verdict_with(w, plan, (io_min, reads_min), budget))
}

fn verdict_with(
    w: &IntervalFacts,
    plan: &Plan,
    (io_min, reads_min): (f64, f64),
    budget: Option<f64>,
) -> Verdict {
    if w.db_time() <= 0.0 || w.events.is_empty() {
        return Verdict {
            summary: "Not enough data: the input has no DB time or no wait events, so no projection was made.".into(),
            gain_pct_low: 0.0,
            gain_pct_high: 0.0,
            bound: Bound::NotEnoughData,
            best_option: None,
        };
    }
    let io_share = w.io_share_pct().map_or(0.0, |n| n.value);
    let Some(best) = plan
        .options
        .iter()
        .find(|o| crate::plan::candidate(o, plan, budget))
    else {
        if let (Some(b), true) = (
            budget,
            plan.options
                .iter()
                .any(|o| !crate::plan::fits_budget(o, budget)),
        ) {
            return Verdict {
                summary: format!(
                    "No flash option fits the {} GB flash budget: every projected option needs more capacity.",
                    f0(b)
                ),
                gain_pct_low: 0.0,
                gain_pct_high: 0.0,
                // Nothing saturates: the budget, said in the summary, rules
                // every option out.
                bound: Bound::None,
                best_option: None,
            };
        }
        return Verdict {
            summary: "No flash option applies: the report shows no I/O waits a device change would shorten.".into(),
            gain_pct_low: 0.0,
            gain_pct_high: 0.0,
            bound: Bound::IoShare,
            best_option: None,
        };
    };
    let p = &best.projection;
    let lo = round((1.0 - p.response_ratio_high) * 100.0);
    let hi = round((1.0 - p.response_ratio_low) * 100.0);
    let bound = if io_share < io_min {
        Bound::IoShare
    } else {
        p.bound
    };
    let limit = match bound {
        Bound::Cpu => format!(
            " The CPUs cap it ({}throughput at most {}x).",
            plan.caps
                .cpu_signal
                .as_ref()
                .map(|s| format!("{s}; "))
                .unwrap_or_default(),
            f1(p.throughput_cap.unwrap_or(1.0))
        ),
        Bound::Channel => format!(
            " The I/O channel caps it (throughput at most {}x).",
            f1(p.throughput_cap.unwrap_or(1.0))
        ),
        Bound::IoShare => format!(
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
    } else if bound == Bound::IoShare {
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
    // A significant log file sync is always named, with its explanation
    // (AF050 or AF051: the same assessment and figures).
    if let Some(s) = crate::checks::redo_verdict_sentence(w) {
        summary.push_str(&s);
    }
    if best.key != "hot-segments"
        && let Some(h) = plan.options.iter().find(|o| o.key == "hot-segments")
    {
        let hg = mid_gain(h) * 100.0;
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
    // Slow reads the device already serves at flash latency: say why they
    // count for nothing.
    if let Some(why) = &plan.already_flash_class
        && w.share_pct(awrflash_facts::SINGLE_BLOCK) >= reads_min
    {
        summary.push_str(&format!(" Single-block reads gain nothing: {why}."));
    }
    // On Exadata the verdict leads with what the cell flash already does
    // (the figure AF080 derives, from the same function).
    if plan.platform == crate::platform::Platform::Exadata
        && let Some(cf) = crate::platform::cell_flash_share(w)
    {
        summary = format!(
            "{EXADATA_LEAD}{}% of read requests{EXADATA_LEAD_END}{}",
            f1(cf.pct),
            lower_first(&summary)
        );
    }
    Verdict {
        summary,
        gain_pct_low: lo.max(0.0),
        gain_pct_high: hi.max(0.0),
        bound,
        best_option: Some(best.key.clone()),
    }
}

/// With several intervals the verdict speaks for the window: its saving
/// (the gain range becomes the window's), the incident intervals, then the
/// analysed interval's verdict. `not_peak`: the analysed interval is not
/// the peak (the peak is an incident). No advice stays no advice.
pub fn for_window(
    v: &mut Verdict,
    wa: &WindowAnalysis,
    classes: &[crate::window::Class],
    plan: &Plan,
    not_peak: bool,
) {
    if no_advice(v) {
        return;
    }
    let analysed = wa
        .intervals
        .get(wa.analysed_interval)
        .map(awrflash_model::WindowInterval::label)
        .unwrap_or_default();
    let which = if not_peak {
        "the busiest interval that is not an incident"
    } else {
        "the busiest interval"
    };
    // On Exadata the verdict still leads with what the cell flash serves.
    let (lead, rest) = match v.summary.split_once(EXADATA_LEAD_END) {
        Some((l, r)) if l.starts_with(EXADATA_LEAD) => (format!("{l}. "), r.to_string()),
        _ => (String::new(), v.summary.clone()),
    };
    v.summary = format!(
        "{lead}{} The detailed plan is for {analysed}, {which}: {rest}",
        crate::window::summary(wa, &plan.device, classes),
    );
    v.gain_pct_low = wa.saved_pct_low;
    v.gain_pct_high = wa.saved_pct_high;
    if plan.options.iter().any(|o| o.key == wa.move_key) {
        v.best_option = Some(wa.move_key.clone());
    }
}

/// The Exadata lead of a verdict and where it ends.
const EXADATA_LEAD: &str = "Exadata: cell flash already serves ";
const EXADATA_LEAD_END: &str = "; what is left: ";

/// The verdict gives no flash advice at all: not enough load or data.
pub fn no_advice(v: &Verdict) -> bool {
    matches!(v.bound, Bound::NotEnoughLoad | Bound::NotEnoughData)
}

/// A title inside a sentence: its first letter in lower case, the rest
/// (`KB`, segment names) as written; a title that starts with an acronym
/// (`TEMP`, `UNDO`) keeps it.
pub(crate) fn lower_first(title: &str) -> String {
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
