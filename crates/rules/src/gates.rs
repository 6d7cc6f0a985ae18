//! Phase 1, gates: is there enough load for advice at all? An idle
//! interval (average active sessions below AF004's `load_aas_min`) gets no
//! advice: the plan recommends nothing and only the `on_idle` rules report.
//! (No DB time or no wait events is the verdict's "not enough data".)

use awrflash_facts::IntervalFacts;

use crate::RulesError;
use crate::catalogue;

/// The average active sessions of an idle interval, `None` when the load
/// is enough for advice.
pub fn idle(w: &IntervalFacts) -> Result<Option<f64>, RulesError> {
    Ok(crate::checks::low_load(
        w,
        catalogue::threshold("AF004", "load_aas_min")?,
    ))
}
