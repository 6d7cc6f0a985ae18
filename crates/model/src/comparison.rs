//! A before/after comparison of one database: did a storage change deliver
//! what the advisor projected? Produced by `awrflash-compare`, rendered by
//! `awrflash-report` (`schema/comparison.schema.json` documents the JSON).

use serde::{Deserialize, Serialize};

use crate::{Bound, DbIdentity, EvidenceSrc};

/// The comparison of a before and an after window of one database.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Comparison {
    pub schema_version: u32,
    /// The database (DBID and instance match on both sides).
    pub database: DbIdentity,
    /// One sentence: what changed and whether the projection held.
    pub summary: String,
    /// Which intervals were compared and why.
    pub window: WindowMatch,
    pub before: WindowSide,
    pub after: WindowSide,
    /// Measured figures, before and after (DB time per transaction and per
    /// execution, average active sessions, rates, CPU, I/O share, redo).
    pub figures: Vec<FigureChange>,
    /// Each key wait: average latency, waits per second, share of DB time,
    /// and the histogram shift.
    pub waits: Vec<WaitChange>,
    /// DB time per transaction by component, before and after (ms).
    pub breakdown: Vec<ComponentChange>,
    /// What changed in the storage, detected from the figures.
    pub storage_changes: Vec<StorageChange>,
    /// The projection of the matching option next to the measured result.
    pub projection_check: Option<ProjectionCheck>,
    pub drift: Drift,
    /// Anything else a reader must know (missing figures, unmatched hours).
    pub notes: Vec<String>,
}

/// How the intervals of the two sides were matched.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowMatch {
    /// `whole-windows` or `same-hours`.
    pub choice: String,
    /// Why, in words, with the interval counts.
    pub reason: String,
    /// Hours of day (0-23, interval start) compared, for `same-hours`.
    pub hours: Vec<u32>,
}

/// One side (before or after) of the comparison.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowSide {
    /// Report intervals the inputs hold for this database.
    pub intervals: u32,
    /// Intervals compared (all, or those in the matched hours).
    pub intervals_used: u32,
    pub begin_time: Option<String>,
    pub end_time: Option<String>,
    /// Elapsed seconds of the compared intervals.
    pub elapsed_s: f64,
    pub host: Option<String>,
    pub release: Option<String>,
    /// Input files of the compared intervals.
    pub inputs: Vec<String>,
}

/// One measured figure on both sides.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FigureChange {
    /// Stable key: `db_time_per_txn_ms`, `aas`, `txn_per_s`, ...
    pub key: String,
    pub label: String,
    pub unit: String,
    pub before: Option<f64>,
    pub after: Option<f64>,
    /// (after - before) / before, percent.
    pub change_pct: Option<f64>,
    /// Where each side's value came from (one row per interval used).
    pub before_src: Vec<EvidenceSrc>,
    pub after_src: Vec<EvidenceSrc>,
    /// How the figure is computed from the rows, for derived figures.
    pub derived: Option<String>,
}

/// One wait event on both sides.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WaitChange {
    pub event: String,
    pub before: Option<WaitFigures>,
    pub after: Option<WaitFigures>,
    /// Change of the average latency, percent.
    pub avg_change_pct: Option<f64>,
    pub histogram: Option<HistogramShift>,
}

/// A wait event's figures on one side.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WaitFigures {
    pub waits: f64,
    pub waits_per_s: f64,
    pub avg_ms: f64,
    pub time_s: f64,
    /// Share of DB time; `null` for a background event (not DB time).
    pub pct_db_time: Option<f64>,
    pub src: Vec<EvidenceSrc>,
}

/// A wait histogram before and after, bucket by bucket.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HistogramShift {
    pub buckets: Vec<BucketShift>,
    /// Share of waits at or below 1 ms (flash-like), percent.
    pub le_1ms_before_pct: Option<f64>,
    pub le_1ms_after_pct: Option<f64>,
    pub before_src: Vec<EvidenceSrc>,
    pub after_src: Vec<EvidenceSrc>,
}

/// One latency bucket: percent of waits on each side.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BucketShift {
    /// `<=1ms`, `<=8ms`, `>1s`, ...
    pub label: String,
    /// Upper bound in ms; `null` for the open-ended last bucket.
    pub le_ms: Option<f64>,
    pub before_pct: Option<f64>,
    pub after_pct: Option<f64>,
}

/// A component of DB time per transaction, before, after and as projected.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ComponentChange {
    /// `cpu`, `single_block_read`, `multiblock_read`, `temp_io`,
    /// `write_wait`, `commit`, `flash_cache_read`, `other`.
    pub component: String,
    pub before_ms_per_txn: f64,
    pub after_ms_per_txn: f64,
    /// The matching option's projected value (mid of its range), if any.
    pub projected_ms_per_txn: Option<f64>,
}

/// A storage change detected from the figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StorageChange {
    /// `data-moved`, `redo-moved`, `temp-moved`, `flash-cache`, `exadata`.
    pub kind: String,
    pub title: String,
    /// The figures that show it, in words.
    pub because: String,
    /// Key of the advisor option that projects this change, if any.
    pub option_key: Option<String>,
}

/// The advisor's projection from the before side next to what was measured.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProjectionCheck {
    pub option_key: String,
    pub option_title: String,
    pub device: String,
    /// Why this option was taken as the one that happened.
    pub chosen_because: String,
    /// Projected cut of DB time per transaction, percent (low-high).
    pub projected_gain_pct_low: f64,
    pub projected_gain_pct_high: f64,
    /// Measured cut of DB time per transaction, percent (negative: slower).
    pub measured_gain_pct: f64,
    /// Measured minus the nearest end of the projected range, in percentage
    /// points (0 inside the range).
    pub error_pct_points: f64,
    pub within_range: bool,
    /// The bound the projection named (`cpu`, `channel`, `none`, ...).
    pub projected_bound: Bound,
    pub verdict: String,
    /// Likely reasons when the measured result is off the projection.
    pub reasons: Vec<String>,
}

/// Whether the workload itself changed between the windows.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Drift {
    /// The comparison is confounded: read it per transaction and per
    /// execution.
    pub confounded: bool,
    pub txn_change_pct: Option<f64>,
    pub exec_change_pct: Option<f64>,
    /// Share of the before side's top SQL (by physical reads) that is still
    /// in the after side's list, percent.
    pub sql_overlap_pct: Option<f64>,
    pub message: String,
}
