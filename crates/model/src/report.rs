//! The model of one AWR or Statspack report (any release, HTML or text).
//!
//! Sections the report does not print stay empty (`[]`, `null`): a rule
//! that needs them says "not enough data". Names of statistics, events and
//! parameters are kept exactly as Oracle prints them.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::{SharedStr, Source, SourceRef, Warning};

/// One AWR or Statspack report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DbReport {
    pub source: Source,
    pub header: Header,
    pub cache_sizes: CacheSizes,
    pub load_profile: Vec<LoadProfileRow>,
    pub top_events: Vec<TopEvent>,
    pub wait_events: WaitEvents,
    pub wait_classes: Vec<WaitClassRow>,
    pub wait_histogram: Vec<HistogramRow>,
    pub time_model: Vec<TimeModelRow>,
    pub os_stats: Vec<OsStat>,
    pub host_cpu: Option<HostCpu>,
    pub instance_cpu: Option<InstanceCpu>,
    pub io_profile: Vec<IoProfileRow>,
    pub activity_stats: Vec<ActivityStat>,
    pub iostat_function: Vec<IoStatRow>,
    pub iostat_filetype: Vec<IoStatRow>,
    pub iostat_function_filetype: Vec<IoStatRow>,
    pub tablespace_io: Vec<FileIoRow>,
    pub file_io: Vec<FileIoRow>,
    pub buffer_pool_advisory: Vec<BufferPoolAdvisoryRow>,
    /// One list per "Segments by ..." table, keyed by snake-case name:
    /// `physical_reads`, `physical_read_requests`, `unoptimized_reads`,
    /// `optimized_reads`, `direct_physical_reads`, `physical_writes`,
    /// `physical_write_requests`, `direct_physical_writes`, `logical_reads`,
    /// `buffer_busy_waits`, `db_block_changes`, `table_scans`, ...
    pub segments: BTreeMap<String, Vec<SegmentRow>>,
    /// One list per SQL table: `physical_reads` ("SQL ordered by Reads") and
    /// `unoptimized_reads` ("SQL ordered by Physical Reads (UnOptimized)").
    pub sql: BTreeMap<String, Vec<SqlRow>>,
    pub parameters: Vec<Parameter>,
    /// RAC global report (`awrgrpt`): one entry per instance.
    pub instances: Vec<InstanceSummary>,
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Header {
    pub db_name: Option<String>,
    pub dbid: Option<u64>,
    pub instance: Option<String>,
    pub instance_number: Option<u32>,
    /// As printed, e.g. `19.0.0.0.0`, `11.2.0.4.0`.
    pub release: Option<String>,
    pub rac: bool,
    /// `true` for a container database, `null` where the release does not say.
    pub cdb: Option<bool>,
    /// Container name for a PDB report.
    pub container: Option<String>,
    pub host: Option<String>,
    pub platform: Option<String>,
    pub cpus: Option<u32>,
    pub cores: Option<u32>,
    pub sockets: Option<u32>,
    pub memory_gb: Option<f64>,
    pub begin_snap: Option<u64>,
    pub end_snap: Option<u64>,
    /// ISO 8601 without zone (reports print local time), e.g. `2023-10-02T10:00:05`.
    pub begin_time: Option<String>,
    pub end_time: Option<String>,
    pub elapsed_s: Option<f64>,
    pub db_time_s: Option<f64>,
    pub src: Option<SourceRef>,
    /// The report says `System Data Visible: NO` (a PDB on a service that
    /// hides system data, such as Autonomous Database): database name,
    /// DBID, release and CPU cells are blank.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub system_data_hidden: bool,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CacheSizes {
    pub buffer_cache_bytes: Option<u64>,
    pub buffer_cache_bytes_end: Option<u64>,
    pub shared_pool_bytes: Option<u64>,
    pub shared_pool_bytes_end: Option<u64>,
    pub std_block_size: Option<u64>,
    pub log_buffer_bytes: Option<u64>,
    pub src: Option<SourceRef>,
}

/// A Load Profile row, e.g. `DB Time(s)`, `Redo size (bytes)`, `Physical read (blocks)`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LoadProfileRow {
    /// Name as printed, trailing colon removed (`Redo size (bytes)`, `Redo size`).
    pub name: String,
    pub per_second: Option<f64>,
    pub per_transaction: Option<f64>,
    pub per_exec: Option<f64>,
    pub per_call: Option<f64>,
    pub src: SourceRef,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TopEvent {
    pub name: String,
    /// `null` for DB CPU / CPU time.
    pub waits: Option<f64>,
    pub time_s: Option<f64>,
    pub avg_ms: Option<f64>,
    pub pct_db_time: Option<f64>,
    pub wait_class: Option<String>,
    pub src: SourceRef,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WaitEvents {
    pub foreground: Vec<WaitEvent>,
    pub background: Vec<WaitEvent>,
    /// Statspack 11g+ "Wait Events (fg and bg)": events of all sessions.
    /// (The "Wait Events" table of AWR 10g/11.1 and Statspack 8i-10g also
    /// counts background sessions but is the release's main event list, so
    /// both parsers put it in `foreground`.)
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub all: Vec<WaitEvent>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WaitEvent {
    /// Shared: every interval of a database names the same events.
    pub name: SharedStr,
    pub wait_class: Option<SharedStr>,
    pub waits: Option<f64>,
    pub timeouts_pct: Option<f64>,
    pub time_s: Option<f64>,
    pub avg_ms: Option<f64>,
    pub waits_per_txn: Option<f64>,
    pub pct_db_time: Option<f64>,
    pub src: SourceRef,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WaitClassRow {
    pub wait_class: String,
    pub waits: Option<f64>,
    pub timeouts_pct: Option<f64>,
    pub time_s: Option<f64>,
    pub avg_ms: Option<f64>,
    pub waits_per_txn: Option<f64>,
    pub pct_db_time: Option<f64>,
    pub src: SourceRef,
}

/// One event's row in a Wait Event Histogram table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HistogramRow {
    /// Shared: the histogram tables of a report and every interval of a
    /// database name the same events.
    pub event: SharedStr,
    pub total_waits: Option<f64>,
    /// Waits inside the range of a detail table (11.2+ `Wait Event Histogram
    /// Detail (64 msec to 2 sec)`, 12.2+ `(up to 32 ms)`), which prints no total.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range_waits: Option<f64>,
    pub buckets: Buckets,
    pub src: SourceRef,
}

/// A histogram row's buckets, ascending bounds. Inline up to 12 (the widest
/// histogram table of the releases read, 19c's microsecond one, has 11), so
/// a row costs no allocation of its own; serialised as a plain list.
pub type Buckets = smallvec::SmallVec<[HistogramBucket; 12]>;

/// Percentage of waits that took at most `le_ms` (and more than the previous bucket).
/// The open-ended last bucket (`>1s`, `>=32ms`) has `le_ms` = `f64::MAX`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HistogramBucket {
    pub le_ms: f64,
    pub pct: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct TimeModelRow {
    pub name: String,
    pub time_s: Option<f64>,
    pub pct_db_time: Option<f64>,
    pub src: SourceRef,
}

/// An Operating System Statistics row (`NUM_CPUS`, `BUSY_TIME`, `IDLE_TIME`, `IOWAIT_TIME`, `LOAD`, ...).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct OsStat {
    pub name: String,
    pub value: Option<f64>,
    /// End value where the report prints begin and end (12c+ `End Value`).
    pub end_value: Option<f64>,
    pub src: SourceRef,
}

/// "Host CPU" percentages (% of host CPU).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HostCpu {
    pub cpus: Option<u32>,
    pub cores: Option<u32>,
    pub sockets: Option<u32>,
    pub load_begin: Option<f64>,
    pub load_end: Option<f64>,
    pub pct_user: Option<f64>,
    pub pct_system: Option<f64>,
    pub pct_wio: Option<f64>,
    pub pct_idle: Option<f64>,
    pub src: SourceRef,
}

/// "Instance CPU" percentages.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InstanceCpu {
    pub pct_total_cpu: Option<f64>,
    pub pct_busy_cpu: Option<f64>,
    pub pct_db_time_waiting_cpu: Option<f64>,
    pub src: SourceRef,
}

/// A row of the 12c+ "IO Profile" (`Total Requests`, `Database Requests`, `Total (MB)`, ...).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct IoProfileRow {
    pub name: String,
    pub read_write_per_s: Option<f64>,
    pub read_per_s: Option<f64>,
    pub write_per_s: Option<f64>,
    pub src: SourceRef,
}

/// A row of any Instance Activity Stats table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ActivityStat {
    /// Statistic name exactly as printed (`redo size`, `physical read flash cache hits`).
    /// Shared: every interval of a database names the same statistics.
    pub name: SharedStr,
    pub total: Option<f64>,
    pub per_second: Option<f64>,
    pub per_transaction: Option<f64>,
    /// Absolute Values table: value at the begin and end snapshot.
    pub begin: Option<f64>,
    pub end: Option<f64>,
    pub src: SourceRef,
}

/// A row of IOStat by Function / Filetype / Function-Filetype summary.
/// Data volumes are in MB whatever suffix the report printed (K/M/G/T).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct IoStatRow {
    pub function: Option<String>,
    pub filetype: Option<String>,
    pub reads_mb: Option<f64>,
    pub read_reqs_per_s: Option<f64>,
    pub read_mb_per_s: Option<f64>,
    pub writes_mb: Option<f64>,
    pub write_reqs_per_s: Option<f64>,
    pub write_mb_per_s: Option<f64>,
    pub waits: Option<f64>,
    pub avg_wait_ms: Option<f64>,
    pub src: SourceRef,
}

/// A row of Tablespace IO Stats (`file` empty) or File IO Stats.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FileIoRow {
    /// Shared: a tablespace's name repeats for each of its files.
    pub tablespace: SharedStr,
    pub file: Option<String>,
    pub reads: Option<f64>,
    pub reads_per_s: Option<f64>,
    pub avg_read_ms: Option<f64>,
    pub blocks_per_read: Option<f64>,
    /// 12c+: single-block reads per second and their average latency.
    pub one_block_reads_per_s: Option<f64>,
    pub avg_one_block_read_ms: Option<f64>,
    pub writes: Option<f64>,
    pub writes_per_s: Option<f64>,
    pub buffer_waits: Option<f64>,
    pub avg_buffer_wait_ms: Option<f64>,
    pub src: SourceRef,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BufferPoolAdvisoryRow {
    /// `D` (default), `K` (keep), `R` (recycle), or as printed.
    pub pool: String,
    pub block_size: Option<u64>,
    pub size_factor: Option<f64>,
    pub size_mb: Option<f64>,
    pub buffers: Option<f64>,
    pub est_phys_read_factor: Option<f64>,
    pub est_phys_reads: Option<f64>,
    pub est_phys_read_time_s: Option<f64>,
    pub est_pct_db_time: Option<f64>,
    pub src: SourceRef,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SegmentRow {
    /// Shared, as the tablespace and the type: the segment tables of a
    /// report print a few owners, tablespaces and types over and over.
    pub owner: SharedStr,
    pub tablespace: SharedStr,
    pub object: String,
    pub subobject: Option<String>,
    /// `TABLE`, `INDEX`, `TABLE PARTITION`, `LOB`, ...
    pub object_type: SharedStr,
    pub value: Option<f64>,
    pub pct_total: Option<f64>,
    pub container: Option<String>,
    pub src: SourceRef,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SqlRow {
    pub sql_id: String,
    pub value: Option<f64>,
    pub executions: Option<f64>,
    pub per_exec: Option<f64>,
    pub pct_total: Option<f64>,
    pub elapsed_s: Option<f64>,
    pub module: Option<String>,
    /// First part of the SQL text as printed (may be cut by the report).
    pub sql_text: Option<String>,
    pub src: SourceRef,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Parameter {
    pub name: String,
    pub value: String,
    /// End value, only when it differs from the begin value.
    pub end_value: Option<String>,
    pub src: SourceRef,
}

/// Per-instance figures of a RAC global report.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InstanceSummary {
    pub instance_number: Option<u32>,
    pub instance: Option<String>,
    pub host: Option<String>,
    pub elapsed_s: Option<f64>,
    pub db_time_s: Option<f64>,
    pub cpus: Option<u32>,
    pub load_profile: Vec<LoadProfileRow>,
    pub top_events: Vec<TopEvent>,
    pub os_stats: Vec<OsStat>,
    pub src: SourceRef,
}

impl DbReport {
    /// Load Profile row by name, ignoring case and a trailing `:` or unit suffix
    /// (`Redo size` matches `Redo size (bytes)` and `Redo size:`).
    pub fn load_profile_row(&self, name: &str) -> Option<&LoadProfileRow> {
        let want = normalize_lp(name);
        self.load_profile
            .iter()
            .find(|r| normalize_lp(&r.name) == want)
    }

    /// Activity statistic by exact Oracle name (first table that has it).
    pub fn activity_stat(&self, name: &str) -> Option<&ActivityStat> {
        self.activity_stats
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name) && s.total.is_some())
            .or_else(|| {
                self.activity_stats
                    .iter()
                    .find(|s| s.name.eq_ignore_ascii_case(name))
            })
    }

    /// Foreground wait event by name; falls back to the top events.
    /// A foreground event by name; for reports without a foreground split
    /// (Statspack, AWR 10g text) the all-sessions table stands in.
    pub fn foreground_event(&self, name: &str) -> Option<&WaitEvent> {
        let events = if self.wait_events.foreground.is_empty() {
            &self.wait_events.all
        } else {
            &self.wait_events.foreground
        };
        events.iter().find(|e| e.name.eq_ignore_ascii_case(name))
    }

    pub fn background_event(&self, name: &str) -> Option<&WaitEvent> {
        self.wait_events
            .background
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
    }

    pub fn top_event(&self, name: &str) -> Option<&TopEvent> {
        self.top_events
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
    }

    pub fn os_stat(&self, name: &str) -> Option<&OsStat> {
        self.os_stats
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    pub fn time_model_row(&self, name: &str) -> Option<&TimeModelRow> {
        self.time_model
            .iter()
            .find(|s| s.name.eq_ignore_ascii_case(name))
    }

    pub fn parameter(&self, name: &str) -> Option<&Parameter> {
        self.parameters
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
    }
}

fn normalize_lp(name: &str) -> String {
    let n = name.trim().trim_end_matches(':').trim();
    let n = match n.find('(') {
        Some(i) => n.get(..i).unwrap_or(n),
        None => n,
    };
    n.trim().to_ascii_lowercase()
}
