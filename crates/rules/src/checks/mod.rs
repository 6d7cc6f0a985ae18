//! One small check per rule, listed once in the registry below. The rule's
//! TOML (`rules/<ID>.toml`) holds its thresholds, which deserialise into the
//! check's struct (`deny_unknown_fields`), its doc and its citations.

mod bottleneck;
mod dataguard;
mod flashcache;
mod objects;
mod reads;
mod redo;
mod segments;
mod writes;

pub use bottleneck::low_load;
pub use flashcache::{FlashCacheCandidate, flash_cache_sql, flash_cache_unavailable, on_exadata};
pub use redo::{RedoAdvice, redo_advice, verdict_sentence as redo_verdict_sentence};

use awrflash_model::{
    Evidence, Finding, IostatCapture, Projection, Recommendation, SegmentSizes, Severity,
    SysstatSpool,
};
use serde::de::DeserializeOwned;

use crate::catalogue::RuleFile;
use crate::devices::DeviceProfile;
use crate::projection::Plan;
use crate::{Options, RulesError};
use awrflash_facts::IntervalFacts;

/// What a check sees.
pub struct Ctx<'a> {
    /// The workload the findings are about (the peak interval).
    pub w: &'a IntervalFacts<'a>,
    /// Every report interval, in time order (the order of `Analysis.series`).
    pub all: &'a [IntervalFacts<'a>],
    pub opts: &'a Options,
    pub flash: &'a DeviceProfile,
    pub plan: &'a Plan,
    pub sysstat: Vec<&'a SysstatSpool>,
    pub segsizes: Option<&'a SegmentSizes>,
    pub iostat: Vec<&'a IostatCapture>,
}

impl Ctx<'_> {
    /// The projection of the first of `keys` the plan has.
    pub fn projection_of(&self, keys: &[&str]) -> Option<Projection> {
        keys.iter().find_map(|k| {
            self.plan
                .options
                .iter()
                .find(|o| o.key == *k)
                .map(|o| o.projection.clone())
        })
    }
}

/// One firing of a rule; the runner adds id, slug, title and citations.
#[derive(Debug, Clone, Default)]
pub struct Hit {
    /// Overrides the rule's default severity.
    pub severity: Option<Severity>,
    pub message: String,
    pub evidence: Vec<Evidence>,
    pub recommendation: Option<Recommendation>,
    pub projection: Option<Projection>,
}

impl Hit {
    pub fn new(message: impl Into<String>) -> Self {
        Hit {
            message: message.into(),
            ..Hit::default()
        }
    }
    pub fn severity(mut self, s: Severity) -> Self {
        self.severity = Some(s);
        self
    }
    pub fn ev(mut self, e: Evidence) -> Self {
        self.evidence.push(e);
        self
    }
    pub fn ev_opt(mut self, e: Option<Evidence>) -> Self {
        if let Some(e) = e {
            self.evidence.push(e);
        }
        self
    }
    pub fn fix(mut self, text: impl Into<String>, sql: Vec<String>) -> Self {
        self.recommendation = Some(Recommendation {
            text: text.into(),
            sql,
        });
        self
    }
    pub fn projection(mut self, p: Option<Projection>) -> Self {
        self.projection = p;
        self
    }
}

/// A rule's logic.
pub trait Check {
    fn check(&self, ctx: &Ctx) -> Vec<Hit>;
}

fn thresholds<T: DeserializeOwned>(rule: &RuleFile) -> Result<T, RulesError> {
    toml::Value::Table(rule.thresholds.clone())
        .try_into()
        .map_err(|e| RulesError::Config(format!("rules/{}.toml thresholds: {e}", rule.id)))
}

macro_rules! registry {
    ($($id:literal => $ty:ty),* $(,)?) => {
        /// Ids that have a check.
        pub const CHECK_IDS: &[&str] = &[$($id),*];

        /// The check of a rule, its struct filled from the rule's thresholds.
        pub fn build(rule: &RuleFile) -> Result<Box<dyn Check>, RulesError> {
            match rule.id.as_str() {
                $($id => Ok(Box::new(thresholds::<$ty>(rule)?)),)*
                other => Err(RulesError::Config(format!("rule {other} has no check"))),
            }
        }
    };
}

registry! {
    "AF001" => bottleneck::CpuSaturated,
    "AF002" => bottleneck::ChannelSaturated,
    "AF003" => bottleneck::IoShareSmall,
    "AF004" => bottleneck::NotEnoughData,
    "AF005" => bottleneck::PeakInterval,
    "AF006" => crate::window::Thresholds,
    "AF010" => reads::SingleBlockReads,
    "AF011" => reads::ReadsPerExecution,
    "AF012" => objects::RepeatedScans,
    "AF020" => reads::MultiblockScans,
    "AF030" => segments::HotSegments,
    "AF031" => segments::HotTablespaces,
    "AF032" => objects::MaintenanceReads,
    "AF040" => segments::TempIo,
    "AF041" => segments::UndoIo,
    "AF042" => segments::RecoveryAreaIo,
    "AF050" => redo::RedoStorage,
    "AF051" => redo::CommitNotStorage,
    "AF055" => dataguard::DataGuardPrimary,
    "AF060" => writes::DbwrWriteBound,
    "AF061" => writes::FlashCacheWriteComplete,
    "AF070" => flashcache::FlashCacheCandidate,
    "AF071" => flashcache::FlashCacheJudged,
    "AF080" => flashcache::ExadataOptimized,
    "AF090" => writes::WriteHeavyDevice,
}

/// Runs every rule and returns the findings, sorted by severity (highest
/// first), then id, then title and message.
pub fn run(rules: &[RuleFile], ctx: &Ctx) -> Result<Vec<Finding>, RulesError> {
    let mut out = Vec::new();
    for rule in rules {
        let check = build(rule)?;
        for hit in check.check(ctx) {
            out.push(Finding {
                id: rule.id.clone(),
                slug: rule.slug.clone(),
                severity: hit.severity.unwrap_or(rule.severity),
                title: rule.title.clone(),
                message: hit.message,
                evidence: hit.evidence,
                recommendation: hit.recommendation,
                projection: hit.projection,
                citations: rule.citations(),
            });
        }
    }
    out.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then(a.id.cmp(&b.id))
            .then(a.message.cmp(&b.message))
    });
    Ok(out)
}

/// Evidence of a derived number with no single source row.
pub fn derived(label: &str, value: f64, unit: &str, how: &str) -> Evidence {
    Evidence {
        label: label.to_string(),
        value: awrflash_facts::round(value),
        unit: unit.to_string(),
        src: None,
        derived_from: Some(how.to_string()),
    }
}

/// Evidence of a number read from a report row.
pub fn row_ev(label: String, value: f64, unit: &str, src: awrflash_model::EvidenceSrc) -> Evidence {
    Evidence {
        label,
        value: awrflash_facts::round(value),
        unit: unit.to_string(),
        src: Some(src),
        derived_from: None,
    }
}
