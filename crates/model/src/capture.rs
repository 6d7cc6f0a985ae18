//! OS-side and auxiliary inputs: iostat/sar captures, `v$sysstat` spools,
//! and `dba_segments` size lists.

use serde::{Deserialize, Serialize};

use crate::{Source, SourceRef, Warning};

/// An iostat (Linux sysstat or Solaris) or `sar -d` capture.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct IostatCapture {
    pub source: Source,
    pub host: Option<String>,
    /// Column layout recognised, e.g. `sysstat-12 (r_await w_await aqu-sz rareq-sz)`.
    pub layout: Option<String>,
    pub samples: Vec<DeviceSample>,
    pub cpu: Vec<CpuSample>,
    pub summary: Vec<DeviceSummary>,
    pub warnings: Vec<Warning>,
}

/// One device in one interval, in common units (KB, ms, %).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeviceSample {
    /// ISO 8601 where the capture has timestamps, else `null`.
    pub time: Option<String>,
    /// 0-based interval index.
    pub interval: u32,
    pub device: String,
    pub r_s: Option<f64>,
    pub w_s: Option<f64>,
    pub rkb_s: Option<f64>,
    pub wkb_s: Option<f64>,
    pub r_await_ms: Option<f64>,
    pub w_await_ms: Option<f64>,
    pub avg_rq_kb: Option<f64>,
    pub queue: Option<f64>,
    pub util_pct: Option<f64>,
    /// The first report of an iostat run is the average since boot.
    pub since_boot: bool,
    pub src: SourceRef,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CpuSample {
    pub time: Option<String>,
    pub interval: u32,
    pub user_pct: Option<f64>,
    pub system_pct: Option<f64>,
    pub iowait_pct: Option<f64>,
    pub idle_pct: Option<f64>,
    pub since_boot: bool,
    pub src: SourceRef,
}

/// Per-device statistics over the capture (since-boot sample excluded).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct DeviceSummary {
    pub device: String,
    pub role: Option<String>,
    pub samples: u32,
    pub iops_mean: f64,
    pub iops_p95: f64,
    pub iops_max: f64,
    pub mb_s_mean: f64,
    pub mb_s_p95: f64,
    pub mb_s_max: f64,
    pub await_ms_mean: Option<f64>,
    pub await_ms_p95: Option<f64>,
    pub await_ms_max: Option<f64>,
    pub util_pct_mean: Option<f64>,
    pub util_pct_p95: Option<f64>,
    pub util_pct_max: Option<f64>,
    /// Why the device stands out (`%util >= 90`, `await 5x the median device`).
    pub callouts: Vec<String>,
}

/// Name/value counters from a `v$sysstat` spool or a `name,value` CSV.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SysstatSpool {
    pub source: Source,
    /// One entry per capture in the file (a delta needs two).
    pub captures: Vec<SysstatCapture>,
    /// `end - begin` where two captures (or a begin/end file pair) exist.
    pub deltas: Vec<SysstatValue>,
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SysstatCapture {
    pub time: Option<String>,
    pub values: Vec<SysstatValue>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SysstatValue {
    /// Statistic name exactly as printed (`flash cache insert skip: DBWR overloaded`).
    pub name: String,
    pub value: Option<f64>,
    pub src: SourceRef,
}

/// A `dba_segments` export.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SegmentSizes {
    pub source: Source,
    pub segments: Vec<SegmentSize>,
    pub warnings: Vec<Warning>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SegmentSize {
    pub owner: String,
    pub segment_name: String,
    pub partition_name: Option<String>,
    pub segment_type: Option<String>,
    pub tablespace_name: Option<String>,
    pub bytes: u64,
    pub src: SourceRef,
}
