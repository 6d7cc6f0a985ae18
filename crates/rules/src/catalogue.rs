//! The rule catalogue: one TOML per rule under `rules/`, compiled into the
//! binary with `include_str!` so that it is self-contained.

use std::collections::BTreeMap;

use awrflash_model::{Citation, Severity};
use serde::Deserialize;

use crate::RulesError;

/// Every rule file, by id. The registry in `checks` pairs each with its check.
pub(crate) const RULE_FILES: &[(&str, &str)] = &[
    ("AF001", include_str!("../../../rules/AF001.toml")),
    ("AF002", include_str!("../../../rules/AF002.toml")),
    ("AF003", include_str!("../../../rules/AF003.toml")),
    ("AF004", include_str!("../../../rules/AF004.toml")),
    ("AF005", include_str!("../../../rules/AF005.toml")),
    ("AF010", include_str!("../../../rules/AF010.toml")),
    ("AF011", include_str!("../../../rules/AF011.toml")),
    ("AF020", include_str!("../../../rules/AF020.toml")),
    ("AF030", include_str!("../../../rules/AF030.toml")),
    ("AF031", include_str!("../../../rules/AF031.toml")),
    ("AF040", include_str!("../../../rules/AF040.toml")),
    ("AF041", include_str!("../../../rules/AF041.toml")),
    ("AF042", include_str!("../../../rules/AF042.toml")),
    ("AF050", include_str!("../../../rules/AF050.toml")),
    ("AF051", include_str!("../../../rules/AF051.toml")),
    ("AF060", include_str!("../../../rules/AF060.toml")),
    ("AF061", include_str!("../../../rules/AF061.toml")),
    ("AF070", include_str!("../../../rules/AF070.toml")),
    ("AF071", include_str!("../../../rules/AF071.toml")),
    ("AF080", include_str!("../../../rules/AF080.toml")),
    ("AF090", include_str!("../../../rules/AF090.toml")),
];

/// The documents the rules cite (`rules/seeds.toml`).
const SEEDS_TOML: &str = include_str!("../../../rules/seeds.toml");

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
            .map_err(|e| format!("rules/seeds.toml: {e}"))
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
