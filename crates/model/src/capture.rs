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
    /// Seconds between reports, from the timestamps (median gap), if printed.
    pub interval_s: Option<f64>,
    /// Total load over the devices that are not layered on others.
    pub channel: ChannelLoad,
    /// Summaries grouped by the user's device-to-role mapping, if one was given.
    pub roles: Vec<RoleSummary>,
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
    /// Transfers per second where reads and writes are not split (`tps`,
    /// `r+w/s`); `r_s + w_s` otherwise.
    pub tps: Option<f64>,
    /// KB/s where reads and writes are not split (`blks/s`); `rkb_s + wkb_s` otherwise.
    pub kb_s: Option<f64>,
    /// Average time per request (queue + service): the printed `await`,
    /// Solaris `wsvc_t + asvc_t`, sar `avwait + avserv`, or the IOPS-weighted
    /// mean of `r_await` and `w_await`.
    pub await_ms: Option<f64>,
}

impl DeviceSample {
    /// Reads plus writes per second, whichever way the capture prints them.
    pub fn iops(&self) -> Option<f64> {
        match (self.r_s, self.w_s) {
            (Some(r), Some(w)) => Some(r + w),
            _ => self.tps,
        }
    }

    /// Read plus write throughput in MB/s (1 MB = 1024 KB).
    pub fn mb_s(&self) -> Option<f64> {
        match (self.rkb_s, self.wkb_s) {
            (Some(r), Some(w)) => Some((r + w) / 1024.0),
            _ => self.kb_s.map(|k| k / 1024.0),
        }
    }
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
///
/// p95 is the nearest-rank percentile over the intervals. `await_ms_mean` is
/// weighted by IOPS and its p95/max are taken over intervals with I/O, so
/// idle intervals (printed as `0.00`) do not hide a slow device; MB is
/// 1024 KB.
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
    /// Means of the read/write split where the capture prints it.
    pub r_s_mean: Option<f64>,
    pub w_s_mean: Option<f64>,
    pub read_mb_s_mean: Option<f64>,
    pub write_mb_s_mean: Option<f64>,
    pub r_await_ms_mean: Option<f64>,
    pub w_await_ms_mean: Option<f64>,
    pub avg_rq_kb_mean: Option<f64>,
    pub queue_mean: Option<f64>,
    /// A partition, device-mapper volume or path of another device in the
    /// capture: left out of the channel total so nothing is counted twice.
    pub layered: bool,
}

/// Total I/O over time across the devices that carry it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChannelLoad {
    /// Devices summed (partitions, device-mapper volumes and paths left out).
    pub devices: Vec<String>,
    pub points: Vec<ChannelPoint>,
    pub mb_s_mean: f64,
    pub mb_s_p95: f64,
    pub mb_s_max: f64,
    pub iops_mean: f64,
    pub iops_p95: f64,
    pub iops_max: f64,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ChannelPoint {
    pub interval: u32,
    pub time: Option<String>,
    pub iops: f64,
    pub mb_s: f64,
    pub since_boot: bool,
}

/// Devices grouped by the role the user gave them (`redo`, `data`, `temp`,
/// an ASM disk group): per interval the members' IOPS and MB/s are summed,
/// await is IOPS-weighted and %util is the busiest member's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RoleSummary {
    pub role: String,
    pub devices: Vec<String>,
    pub samples: u32,
    pub iops_mean: f64,
    pub iops_p95: f64,
    pub iops_max: f64,
    pub mb_s_mean: f64,
    pub mb_s_p95: f64,
    pub mb_s_max: f64,
    pub read_mb_s_mean: Option<f64>,
    pub write_mb_s_mean: Option<f64>,
    pub await_ms_mean: Option<f64>,
    pub await_ms_p95: Option<f64>,
    pub await_ms_max: Option<f64>,
    pub w_await_ms_mean: Option<f64>,
    pub util_pct_mean: Option<f64>,
    pub util_pct_p95: Option<f64>,
    pub util_pct_max: Option<f64>,
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
    /// The file this capture came from when two files were paired.
    pub file: Option<String>,
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

impl SysstatSpool {
    /// The delta of a statistic by its printed name (case-insensitive).
    pub fn delta(&self, name: &str) -> Option<f64> {
        self.deltas
            .iter()
            .find(|v| v.name.eq_ignore_ascii_case(name))
            .and_then(|v| v.value)
    }
}

impl SegmentSizes {
    /// Bytes of a segment for joining to AWR segment rows (owner, object
    /// name, subobject name). Names compare case-insensitively. Without a
    /// subobject, every partition of the object is summed; with one, only
    /// that partition counts. `None` when nothing matches.
    pub fn bytes_of(&self, owner: &str, object: &str, subobject: Option<&str>) -> Option<u64> {
        let sub = subobject.map(str::trim).filter(|s| !s.is_empty());
        let mut total: Option<u64> = None;
        for s in &self.segments {
            if !s.owner.eq_ignore_ascii_case(owner.trim())
                || !s.segment_name.eq_ignore_ascii_case(object.trim())
            {
                continue;
            }
            if let Some(sub) = sub {
                let part = s.partition_name.as_deref().unwrap_or("");
                if !part.eq_ignore_ascii_case(sub) {
                    continue;
                }
            }
            total = Some(total.unwrap_or(0).saturating_add(s.bytes));
        }
        total
    }
}
