//! The advisor's results: verdict, findings with traced evidence, projected
//! options, segments to move and the flash cache plan. Produced by
//! `awrflash-rules`, rendered by `awrflash-report`.

use serde::{Deserialize, Serialize};

use crate::SharedStr;

/// Severity of a finding; ordered, so `--fail-on warning` means `>= Warning`.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    #[default]
    Info,
    Warning,
    Critical,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Critical => "critical",
        }
    }
}

/// What limits a projected gain (serialised as `cpu`, `channel`,
/// `io-share`, `none`, `not-enough-data`, `not-enough-load`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Bound {
    /// No saturated resource: the projection's gain stands.
    #[default]
    None,
    /// Host CPU headroom caps the throughput.
    Cpu,
    /// I/O channel bandwidth caps the throughput.
    Channel,
    /// I/O waits are too small a share of DB time for flash to matter.
    IoShare,
    /// The inputs lack what a projection needs.
    NotEnoughData,
    /// An idle interval: no advice.
    NotEnoughLoad,
}

impl Bound {
    pub fn as_str(self) -> &'static str {
        match self {
            Bound::None => "none",
            Bound::Cpu => "cpu",
            Bound::Channel => "channel",
            Bound::IoShare => "io-share",
            Bound::NotEnoughData => "not-enough-data",
            Bound::NotEnoughLoad => "not-enough-load",
        }
    }
}

impl std::fmt::Display for Bound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<&str> for Bound {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

/// Where a cited number came from: file, section, line. The file and the
/// section are shared strings: every figure of an interval cites the same
/// file and a few section names, and a run holds the figures of thousands
/// of intervals.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(default)]
pub struct EvidenceSrc {
    pub path: SharedStr,
    pub section: SharedStr,
    pub line: u32,
}

/// One number a finding rests on.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Evidence {
    /// What the number is (`log file sync avg wait`).
    pub label: String,
    pub value: f64,
    /// `ms`, `%`, `MB/s`, `waits/s`, `s`, ...
    pub unit: String,
    /// `None` only for derived numbers; `derived_from` then says how.
    pub src: Option<EvidenceSrc>,
    pub derived_from: Option<String>,
}

/// A seed document passage a rule rests on.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Citation {
    /// Seed file name, e.g. `000_7b4ff65e62db67e2.txt`.
    pub seed: String,
    /// Section, table or passage, e.g. `6.2, Table 6.1`.
    pub section: String,
    /// Short title of the document.
    pub title: Option<String>,
}

impl Citation {
    /// What a human format prints: the document's title (its file name when
    /// the title is unknown) and the section.
    pub fn label(&self) -> String {
        let doc = self.title.as_deref().unwrap_or(&self.seed);
        if self.section.is_empty() {
            doc.to_string()
        } else {
            format!("{doc}, {}", self.section)
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Recommendation {
    pub text: String,
    /// Copyable SQL (`ALTER INDEX ... REBUILD TABLESPACE ...`, `ALTER SYSTEM SET ...`).
    pub sql: Vec<String>,
}

/// Projected effect of one option on DB time.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Projection {
    pub db_time_before_s: f64,
    pub db_time_after_low_s: f64,
    pub db_time_after_high_s: f64,
    /// Projected / current DB time per transaction (low-high).
    pub response_ratio_low: f64,
    pub response_ratio_high: f64,
    /// Throughput gain cap from the bottleneck law (e.g. 1.3 = +30%), if any.
    pub throughput_cap: Option<f64>,
    pub bound: Bound,
    /// The arithmetic, one line per affected wait.
    pub steps: Vec<ProjectionStep>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ProjectionStep {
    pub component: String,
    pub waits: f64,
    pub share_affected: f64,
    pub current_avg_ms: f64,
    pub new_avg_ms_low: f64,
    pub new_avg_ms_high: f64,
    pub saved_s_low: f64,
    pub saved_s_high: f64,
    pub src: Option<EvidenceSrc>,
    /// How the new latency was reached: bucket by bucket from the wait
    /// histogram, or from the average where the report has none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub method: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Finding {
    pub id: String,
    pub slug: String,
    pub severity: Severity,
    pub title: String,
    /// One or two sentences with the numbers filled in.
    pub message: String,
    pub evidence: Vec<Evidence>,
    pub recommendation: Option<Recommendation>,
    pub projection: Option<Projection>,
    pub citations: Vec<Citation>,
}

/// DB time split into the components of the projection model (seconds).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DbTimeBreakdown {
    pub cpu_s: f64,
    pub single_block_read_s: f64,
    pub multiblock_read_s: f64,
    pub temp_io_s: f64,
    pub write_wait_s: f64,
    pub commit_s: f64,
    pub flash_cache_read_s: f64,
    pub other_s: f64,
    /// The part of `other_s` that is sessions waiting for a CPU: DB time on
    /// neither CPU nor a wait, when the run queue (`OS_CPU_WAIT_TIME`), the
    /// load or Resource Manager shows a CPU queue. Included in `other_s`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub cpu_queue_s: f64,
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

/// One projected option (hot segments, whole DB, redo, TEMP, flash cache of size S).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OptionProjection {
    /// Stable key: `hot-segments`, `whole-db`, `redo`, `temp`, `flash-cache-4x`, ...
    pub key: String,
    pub title: String,
    pub device: String,
    pub projection: Projection,
    pub before: DbTimeBreakdown,
    pub after: DbTimeBreakdown,
    /// Capacity this option needs on flash, where known.
    pub capacity_gb: Option<f64>,
    pub notes: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SegmentToMove {
    pub rank: u32,
    pub owner: String,
    pub object: String,
    pub subobject: Option<String>,
    pub object_type: String,
    pub tablespace: String,
    pub read_requests: Option<f64>,
    pub physical_writes: Option<f64>,
    pub pct_of_reads: Option<f64>,
    pub cumulative_pct: Option<f64>,
    pub size_gb: Option<f64>,
    /// Requests per second per GB, where the size is known.
    pub io_density: Option<f64>,
    pub fits_budget: Option<bool>,
    pub sql: Option<String>,
    pub src: Option<EvidenceSrc>,
    /// Projected DB time saved over the interval (s, middle of the range):
    /// the segment's share of the affected reads and writes times the
    /// plan's saving per read and per write.
    pub saved_s: Option<f64>,
    /// `saved_s` per GB of the segment, where its size is known.
    pub saved_s_per_gb: Option<f64>,
    /// Statements that most likely read the segment: their SQL text names
    /// it (a textual match, not an execution plan).
    pub statements: Vec<SegmentStatement>,
    /// Why the segment is not a move candidate (read mainly by Oracle
    /// maintenance or monitoring work), with the fix to make instead.
    pub set_aside: Option<String>,
}

/// A statement whose SQL text names a segment (textual match).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SegmentStatement {
    pub sql_id: String,
    pub module: Option<String>,
    /// The SQL text as the report prints it (often cut).
    pub text: Option<String>,
    /// The statement's % of the physical reads of its SQL list.
    pub pct_of_reads: Option<f64>,
    /// The Oracle maintenance or monitoring work it belongs to, if any.
    pub maintenance: Option<String>,
    pub src: Option<EvidenceSrc>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FlashCachePoint {
    pub size_gb: f64,
    pub multiple_of_buffer_cache: f64,
    /// Physical reads at this size as a factor of the reads at today's
    /// size (the Buffer Pool Advisory counts since instance startup, so
    /// only the ratio is comparable with one interval).
    pub est_read_factor: f64,
    /// The same as a change in percent (negative: fewer reads).
    pub est_read_change_pct: f64,
    /// The projected response-time ratio range at this size (as an
    /// option's), kept for every size tried.
    pub response_ratio_low: f64,
    pub response_ratio_high: f64,
    pub db_time_s: f64,
    pub sga_cost_mb: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FlashCachePlan {
    pub recommended: bool,
    pub size_gb: Option<f64>,
    pub sga_cost_mb: Option<f64>,
    pub reason: String,
    /// Which fit of the Buffer Pool Advisory curve was used and why.
    pub fit: Option<String>,
    pub curve: Vec<FlashCachePoint>,
    pub sql: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Verdict {
    pub summary: String,
    /// Expected DB time reduction, percent, low-high.
    pub gain_pct_low: f64,
    pub gain_pct_high: f64,
    /// What limits the gain.
    pub bound: Bound,
    pub best_option: Option<String>,
}

/// A verdict nobody made: not enough data.
impl Default for Verdict {
    fn default() -> Self {
        Verdict {
            summary: String::new(),
            gain_pct_low: 0.0,
            gain_pct_high: 0.0,
            bound: Bound::NotEnoughData,
            best_option: None,
        }
    }
}

/// Identity of the database an analysis is about.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DbIdentity {
    pub db_name: Option<String>,
    pub dbid: Option<u64>,
    pub instances: Vec<String>,
    pub release: Option<String>,
    pub rac: bool,
    pub host: Option<String>,
    pub platform: Option<String>,
    pub begin_time: Option<String>,
    pub end_time: Option<String>,
    pub begin_snap: Option<u64>,
    pub end_snap: Option<u64>,
    pub elapsed_s: Option<f64>,
    pub db_time_s: Option<f64>,
}

/// The advisor's answer for one database.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Analysis {
    pub schema_version: u32,
    pub database: DbIdentity,
    pub inputs: Vec<crate::Source>,
    pub verdict: Verdict,
    pub findings: Vec<Finding>,
    pub options: Vec<OptionProjection>,
    pub segments_to_move: Vec<SegmentToMove>,
    pub flash_cache: Option<FlashCachePlan>,
    /// Time series across snapshots when several reports were analysed.
    pub series: Vec<SnapshotPoint>,
    /// Index in `series` of the peak interval (highest DB time per second);
    /// `None` with one report. The verdict and the findings describe
    /// `window.analysed_interval`, which is the peak interval unless the
    /// peak is an incident.
    pub peak_interval: Option<usize>,
    /// Per metric: whole window, p95 and peak over `series` (empty with one
    /// report).
    pub trend: Vec<TrendMetric>,
    /// Tables and chart data the report shows beside the findings.
    pub exhibits: Exhibits,
    /// Every auxiliary input of the run (iostat/sar capture, `v$sysstat`
    /// spool, `dba_segments` list) and whether it was used for this
    /// database, with the reason either way.
    pub attachments: Vec<Attachment>,
    /// Input warnings that change how the result reads (a report cut short,
    /// snapshots spanning a shutdown, a hidden identity, sections the
    /// verdict needs missing): shown beside the verdict in every format.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub caveats: Vec<Caveat>,
    /// The whole window when several report intervals were analysed: each
    /// interval projected and classified, the saving over the window, the
    /// sizing from p95 and peak demand, and the gaps (absent with one
    /// report).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window: Option<WindowAnalysis>,
}

/// An input warning that changes the meaning of the result, with where it
/// was raised.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Caveat {
    pub path: String,
    pub section: String,
    pub line: u32,
    pub message: String,
}

/// Whether an auxiliary input was used for a database, and why: the host
/// and time window it names against the database's reports.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Attachment {
    pub path: String,
    pub format: crate::Format,
    pub attached: bool,
    /// One sentence, e.g. `host db02 is not this database's host (db01)`.
    pub reason: String,
}

/// One metric over the report intervals of a database, summarised by
/// [`crate::stats`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TrendMetric {
    /// Column name in the `snapshots` table, e.g. `read_iops`.
    pub metric: String,
    pub unit: String,
    /// Intervals that have a value for this metric.
    pub intervals: usize,
    /// Elapsed-weighted mean: what one report over the whole window would print.
    pub whole_window: Option<f64>,
    /// Plain mean of the interval values.
    pub mean: Option<f64>,
    /// Nearest-rank 95th percentile of the interval values.
    pub p95: Option<f64>,
    pub peak: Option<f64>,
    /// Index in `Analysis.series` of the interval with the peak.
    pub peak_interval: Option<usize>,
}

/// What the report shows besides findings: taken from the inputs, traced.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Exhibits {
    /// Wait Event Histogram rows of the key events (db file sequential read,
    /// log file parallel write, log file sync, ...).
    pub histograms: Vec<crate::HistogramRow>,
    pub tablespaces: Vec<crate::FileIoRow>,
    /// Redo figures (redo MB/s, average redo write, log file sync/parallel write).
    pub redo: Vec<Evidence>,
    /// Flash cache and Exadata cell flash statistics.
    pub flash_cache_stats: Vec<Evidence>,
    /// iostat device summaries.
    pub devices: Vec<crate::DeviceSummary>,
    /// DB time breakdown of the current workload (before any option).
    pub breakdown: DbTimeBreakdown,
    /// For each key read event with a wait histogram: the share of its
    /// waits slower than the target device's service time, the part flash
    /// can shorten (the histogram projection's figure).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub shortenable: Vec<ShortenableWaits>,
}

/// The part of one event's waits a device can shorten.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ShortenableWaits {
    pub event: String,
    /// Share of the event's waits (%) slower than `device_ms`.
    pub pct: f64,
    /// The device profile's name.
    pub device: String,
    /// The device's (pessimistic) service time for these waits, ms.
    pub device_ms: f64,
}

/// One report interval in a multi-report analysis.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SnapshotPoint {
    pub begin_time: Option<String>,
    pub end_time: Option<String>,
    pub begin_snap: Option<u64>,
    pub end_snap: Option<u64>,
    pub elapsed_s: f64,
    pub db_time_s: f64,
    pub db_cpu_s: f64,
    pub read_iops: f64,
    pub write_iops: f64,
    pub read_mb_s: f64,
    pub write_mb_s: f64,
    pub redo_mb_s: f64,
    pub path: String,
}

/// What kind of interval a report interval is, by the signal that decided
/// it (serialised as `io-bound`, `cpu-bound`, `incident`, `idle`, `mixed`).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum IntervalClass {
    /// I/O waits are a large share of DB time: flash shortens them.
    IoBound,
    /// CPU (DB CPU, host busy or Resource Manager) dominates.
    CpuBound,
    /// Something a DBA treats as an incident (connection storm, library
    /// cache contention, lock pile-up): not what storage is sized for.
    Incident,
    /// Too little load for advice.
    Idle,
    /// No single resource dominates.
    #[default]
    Mixed,
}

impl IntervalClass {
    pub fn as_str(self) -> &'static str {
        match self {
            IntervalClass::IoBound => "io-bound",
            IntervalClass::CpuBound => "cpu-bound",
            IntervalClass::Incident => "incident",
            IntervalClass::Idle => "idle",
            IntervalClass::Mixed => "mixed",
        }
    }
}

impl std::fmt::Display for IntervalClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One report interval of the window, projected on its own.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowInterval {
    /// Index in `Analysis.series`.
    pub index: usize,
    pub begin_time: Option<String>,
    pub end_time: Option<String>,
    pub elapsed_s: f64,
    pub db_time_s: f64,
    /// DB time the window's move saves in this interval (low, high).
    pub saved_s_low: f64,
    pub saved_s_high: f64,
    /// The same as a percentage of the interval's DB time.
    pub saved_pct_low: f64,
    pub saved_pct_high: f64,
    pub class: IntervalClass,
    /// The signal that decided the class, with its figures.
    pub signal: String,
    /// What caps the move's gain in this interval.
    pub bound: Bound,
}

impl WindowInterval {
    /// `begin to end`, else the interval's position: how every format and
    /// the verdict name an interval.
    pub fn label(&self) -> String {
        match (&self.begin_time, &self.end_time) {
            (Some(b), Some(e)) => format!("{b} to {e}"),
            _ => format!("interval {}", self.index + 1),
        }
    }
}

/// A stretch between two report intervals that no report covers.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowGap {
    /// Index in `Analysis.series` of the interval after the gap.
    pub before_interval: usize,
    /// End of the interval before the gap and begin of the one after it.
    pub from: String,
    pub to: String,
    pub length_s: f64,
}

/// The per-interval gains (mid of each interval's range, percent of its DB
/// time), summarised by `awrflash_model::stats`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GainDistribution {
    pub min_pct: f64,
    pub median_pct: f64,
    pub p95_pct: f64,
    pub max_pct: f64,
}

/// The DB time saved by the intervals that begin in one hour of the day.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HourGain {
    /// 0-23, local time of the reports.
    pub hour: u32,
    pub intervals: usize,
    /// Mid of the saving range, seconds.
    pub saved_s: f64,
}

/// What a flash target must carry: p95 and peak over the window's
/// intervals, read from `Analysis.trend`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowSizing {
    pub iops_p95: Option<f64>,
    pub iops_peak: Option<f64>,
    pub mb_s_p95: Option<f64>,
    pub mb_s_peak: Option<f64>,
    pub redo_mb_s_p95: Option<f64>,
    pub redo_mb_s_peak: Option<f64>,
    /// Capacity the window's move needs on flash, where the inputs give it.
    pub capacity_gb: Option<f64>,
}

/// The whole window of a multi-report analysis.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WindowAnalysis {
    /// First begin and last end of the intervals.
    pub begin_time: Option<String>,
    pub end_time: Option<String>,
    /// Seconds the reports cover (sum of the intervals' elapsed).
    pub covered_s: f64,
    /// The move projected in every interval (an option key, `whole-db` or
    /// `redo`): the one that saves most DB time over the window.
    pub move_key: String,
    pub move_title: String,
    pub intervals: Vec<WindowInterval>,
    /// Index in `Analysis.series` of the interval the detailed plan, the
    /// findings and the identity describe: the busiest that is not an
    /// incident.
    pub analysed_interval: usize,
    pub db_time_s: f64,
    /// Sum of the intervals' savings (low, high).
    pub saved_s_low: f64,
    pub saved_s_high: f64,
    /// The saving per day of covered time.
    pub saved_s_per_day_low: f64,
    pub saved_s_per_day_high: f64,
    /// The saving as a percentage of the window's DB time.
    pub saved_pct_low: f64,
    pub saved_pct_high: f64,
    /// The saving as a percentage of the DB time of the intervals that are
    /// not incidents (an incident's piled-up DB time dilutes the window's
    /// percentage); `None` when no interval is an incident.
    pub saved_pct_outside_incidents_low: Option<f64>,
    pub saved_pct_outside_incidents_high: Option<f64>,
    pub gains: GainDistribution,
    /// Hours of the day by DB time saved, most first (at most three).
    pub top_hours: Vec<HourGain>,
    /// Indices of the intervals where something other than storage binds
    /// (CPU, channel, an incident).
    pub bound_elsewhere: Vec<usize>,
    /// The class whose intervals give most of the window's saving.
    pub driving_class: IntervalClass,
    pub sizing: WindowSizing,
    pub gaps: Vec<WindowGap>,
}
