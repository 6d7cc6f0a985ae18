//! The rule catalogue: one TOML per rule under `catalogue/` in this crate
//! (the top-level `rules/` links there), compiled into the binary with
//! `include_str!` so that it is self-contained, and parsed once per process
//! ([`rules`]).

use std::collections::BTreeMap;

use awrflash_model::{Citation, Severity};
use serde::Deserialize;

use crate::RulesError;

/// Every rule file, by id. The registry in `checks` pairs each with its check.
pub(crate) const RULE_FILES: &[(&str, &str)] = &[
    ("AF001", include_str!("../catalogue/AF001.toml")),
    ("AF002", include_str!("../catalogue/AF002.toml")),
    ("AF003", include_str!("../catalogue/AF003.toml")),
    ("AF004", include_str!("../catalogue/AF004.toml")),
    ("AF005", include_str!("../catalogue/AF005.toml")),
    ("AF006", include_str!("../catalogue/AF006.toml")),
    ("AF010", include_str!("../catalogue/AF010.toml")),
    ("AF011", include_str!("../catalogue/AF011.toml")),
    ("AF012", include_str!("../catalogue/AF012.toml")),
    ("AF020", include_str!("../catalogue/AF020.toml")),
    ("AF030", include_str!("../catalogue/AF030.toml")),
    ("AF031", include_str!("../catalogue/AF031.toml")),
    ("AF032", include_str!("../catalogue/AF032.toml")),
    ("AF040", include_str!("../catalogue/AF040.toml")),
    ("AF041", include_str!("../catalogue/AF041.toml")),
    ("AF042", include_str!("../catalogue/AF042.toml")),
    ("AF050", include_str!("../catalogue/AF050.toml")),
    ("AF051", include_str!("../catalogue/AF051.toml")),
    ("AF055", include_str!("../catalogue/AF055.toml")),
    ("AF060", include_str!("../catalogue/AF060.toml")),
    ("AF061", include_str!("../catalogue/AF061.toml")),
    ("AF070", include_str!("../catalogue/AF070.toml")),
    ("AF071", include_str!("../catalogue/AF071.toml")),
    ("AF080", include_str!("../catalogue/AF080.toml")),
    ("AF090", include_str!("../catalogue/AF090.toml")),
];

/// The documents the rules cite (`catalogue/seeds.toml`).
const SEEDS_TOML: &str = include_str!("../catalogue/seeds.toml");

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SeedFile {
    seed: Vec<Seed>,
}

/// A cited document: its file name and how a reader finds it.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Seed {
    pub file: String,
    pub title: String,
    pub kind: String,
}

impl Seed {
    /// `Title (kind)`: what a human format prints for the document.
    pub fn display_title(&self) -> String {
        format!("{} ({})", self.title, self.kind)
    }
}

/// Every cited document, parsed once.
pub fn seeds() -> Result<&'static [Seed], RulesError> {
    static SEEDS: std::sync::OnceLock<Result<Vec<Seed>, String>> = std::sync::OnceLock::new();
    match SEEDS.get_or_init(|| {
        toml::from_str::<SeedFile>(SEEDS_TOML)
            .map(|f| f.seed)
            .map_err(|e| format!("catalogue/seeds.toml: {e}"))
    }) {
        Ok(v) => Ok(v.as_slice()),
        Err(e) => Err(RulesError::Config(e.clone())),
    }
}

/// One rule file as written.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleFile {
    pub id: String,
    pub slug: String,
    pub severity: Severity,
    pub title: String,
    /// Numbers the check reads (deserialised into the check's own struct).
    #[serde(default)]
    pub thresholds: toml::Table,
    /// How each threshold was derived (one entry per threshold key).
    #[serde(default)]
    pub derivation: BTreeMap<String, String>,
    pub doc: RuleDoc,
    pub citations: Vec<RuleCitation>,
    /// Reports on an idle interval too (the rules that say why there is no
    /// advice); the others are left out when the load gate closes.
    #[serde(default)]
    pub on_idle: bool,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleDoc {
    pub summary: String,
    pub why: String,
    pub evidence: String,
    pub fix: String,
}

/// A citation: the seed file and a section heading or table name that
/// appears verbatim in it, plus an optional short quote that also does.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RuleCitation {
    pub file: String,
    pub section: String,
    #[serde(default)]
    pub quote: Option<String>,
}

impl RuleCitation {
    pub fn to_model(&self) -> Citation {
        Citation {
            seed: self.file.clone(),
            section: self.section.clone(),
            title: seeds()
                .ok()
                .and_then(|all| all.iter().find(|s| s.file == self.file))
                .map(Seed::display_title),
        }
    }
}

impl RuleFile {
    pub fn citations(&self) -> Vec<Citation> {
        self.citations.iter().map(RuleCitation::to_model).collect()
    }
}

/// The catalogue, parsed once per process.
pub fn rules() -> Result<&'static [RuleFile], RulesError> {
    static RULES: std::sync::OnceLock<Result<Vec<RuleFile>, String>> = std::sync::OnceLock::new();
    RULES
        .get_or_init(|| load().map_err(|e| e.to_string()))
        .as_deref()
        .map_err(|e| RulesError::Config(e.clone()))
}

/// A rule of the catalogue by id.
pub fn rule(id: &str) -> Result<&'static RuleFile, RulesError> {
    rules()?
        .iter()
        .find(|r| r.id == id)
        .ok_or_else(|| RulesError::Config(format!("rule {id} is not in the catalogue")))
}

/// A numeric threshold of a rule; an error when the rule or the threshold
/// is missing (no default stands in for the catalogue).
pub fn threshold(id: &str, name: &str) -> Result<f64, RulesError> {
    rule(id)?
        .thresholds
        .get(name)
        .and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
        .ok_or_else(|| RulesError::Config(format!("rules/{id}.toml has no threshold {name}")))
}

/// Parses every rule file; ids must match the file names.
pub fn load() -> Result<Vec<RuleFile>, RulesError> {
    let mut out = Vec::with_capacity(RULE_FILES.len());
    for (id, text) in RULE_FILES {
        let rule: RuleFile = toml::from_str(text)
            .map_err(|e| RulesError::Config(format!("rules/{id}.toml: {e}")))?;
        if rule.id != *id {
            return Err(RulesError::Config(format!(
                "rules/{id}.toml declares id {}",
                rule.id
            )));
        }
        out.push(rule);
    }
    out.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(out)
}
