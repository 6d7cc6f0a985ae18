//! awrflash-rules: the advisor (rule catalogue, device profiles, projection).
//!
//! Stage: rules. Input: parsed documents of one database
//! ([`awrflash_model::Document`]). Output: an [`awrflash_model::Analysis`].
//!
//! API placeholder: the signatures are the contract the CLI builds on; the
//! advisor work fills them in.

use awrflash_model::{Analysis, Document};
use serde::Serialize;

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
}

/// A device profile (what `awrflash devices` prints).
#[derive(Debug, Clone, Serialize)]
pub struct DeviceSpec {
    pub name: String,
    pub description: String,
    pub source: String,
}

/// Analyses the documents of one database (one or many reports, plus any
/// iostat, sysstat and segment-size inputs).
pub fn analyze(_docs: &[Document], _opts: &Options) -> Result<Analysis, RulesError> {
    Ok(Analysis::default())
}

/// The rule catalogue, sorted by id.
pub fn catalogue() -> Result<Vec<RuleSpec>, RulesError> {
    Ok(Vec::new())
}

/// Built-in device profiles plus any from `opts.devices_toml`.
pub fn devices(_opts: &Options) -> Result<Vec<DeviceSpec>, RulesError> {
    Ok(Vec::new())
}
