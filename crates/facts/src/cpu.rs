//! CPU headroom from every signal a report carries: host busy, the run
//! queue (`OS_CPU_WAIT_TIME`), load against the cores, DB time spent neither
//! on CPU nor in a wait, Resource Manager throttling (`resmgr:cpu quantum`)
//! and the instance or PDB CPU limit (`cpu_count`).
//!
//! Each signal is turned into the CPU utilisation it implies, through one
//! queueing model (an M/M/c server, Sakasegawa's approximation, the one the
//! projection charges CPU queueing with): a run queue of `q` processes on
//! `c` cores is what an M/M/c shows at utilisation `u` where `Lq(u, c) = q`.
//! The highest implied utilisation decides the CPU bound, and the signal
//! that gave it is named wherever the bound is printed.

use awrflash_model::{EvidenceSrc, ReportKind};

use crate::interval::IntervalFacts;
use crate::num::{Num, ratio};

/// What a CPU signal measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CpuSignalKind {
    /// Host CPU busy (Host CPU %Idle or BUSY_TIME / (BUSY_TIME + IDLE_TIME)).
    HostBusy,
    /// `OS_CPU_WAIT_TIME`: processes waiting in the run queue.
    RunQueue,
    /// OS `LOAD` against the cores (not on Linux, whose load counts
    /// processes in uninterruptible I/O sleep).
    Load,
    /// DB time not covered by DB CPU and the non-idle waits, counted as a
    /// CPU queue only when the run queue or the load shows one.
    Unaccounted,
    /// `resmgr:cpu quantum`: sessions held back by Resource Manager.
    ResourceManager,
    /// DB CPU against an instance or PDB `cpu_count` limit.
    CpuLimit,
}

/// One signal and the utilisation it implies.
#[derive(Debug, Clone, PartialEq)]
pub struct CpuSignal {
    pub kind: CpuSignalKind,
    /// Utilisation of the CPUs this signal implies, 0-1.
    pub util: f64,
    /// The CPUs that utilisation is counted over (logical CPUs for host
    /// busy, the cores for a queue or the load, `cpu_count` for a limit):
    /// the servers of the queueing charge.
    pub servers: f64,
    /// The figure as read (or derived), with its row.
    pub figure: Num,
    /// The signal in words, e.g. `CPU queue: OS_CPU_WAIT_TIME 2,900 s/h on
    /// 4 vCPUs`.
    pub label: String,
}

/// Every CPU signal of one interval.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CpuHeadroom {
    /// Logical CPUs (NUM_CPUS, header or Host CPU).
    pub logical: Option<f64>,
    /// Cores the CPU queue is measured against: `NUM_VCPUS` (virtual
    /// processors of a shared LPAR) or `NUM_CPU_CORES`, with its name.
    pub cores: Option<(f64, &'static str)>,
    /// Hardware threads per core (logical / cores) when above 1.
    pub smt: Option<f64>,
    /// Host busy time as a share of the cores' time (BUSY_TIME / (elapsed
    /// x cores)) when SMT counts several logical CPUs per core: the busy
    /// share of logical CPUs understates how loaded the cores are.
    pub core_busy_pct: Option<Num>,
    /// Paging: VM_IN_BYTES + VM_OUT_BYTES per second, in MB.
    pub paging_mb_s: Option<Num>,
    /// DB time not covered by DB CPU and the non-idle waits (seconds).
    pub unaccounted_s: Option<Num>,
    /// The run queue or the load shows processes waiting for a CPU.
    pub queue_shown: bool,
    pub signals: Vec<CpuSignal>,
}

/// A run queue below this many waiting processes per core is noise, not a
/// CPU queue (judgment: 0.05 per core is a process waiting 5% of the time
/// per core; an M/M/c at 50-60% busy shows about that much).
pub const QUEUE_PER_CORE_MIN: f64 = 0.05;
/// `resmgr:cpu quantum` below this share of DB time (percent) is a
/// scheduler's rounding, not a limit (judgment: the 2% AF050 and AF051
/// use for a top-5 wait too small to act on).
pub const RESMGR_SHARE_PCT_MIN: f64 = 2.0;

/// Idle events that some layouts print without their wait class.
const IDLE_EVENTS: &[&str] = &[
    "SQL*Net message from client",
    "jobq slave wait",
    "rdbms ipc message",
    "PL/SQL lock timer",
    "pipe get",
    "Streams AQ: waiting for messages in the queue",
    "wait for unread message on broadcast channel",
    "PX Deq: Execution Msg",
    "PX Deq: Table Q Normal",
    "PX Idle Wait",
    "class slave wait",
    "Space Manager: slave idle wait",
];

/// An idle wait: its class says so, its name is a known idle event, or the
/// table prints % DB time for other rows and none for it
/// (`no_pct_column`: the table has no such column, so a missing share
/// says nothing).
fn is_idle(name: &str, class: Option<&str>, pct: Option<f64>, no_pct_column: bool) -> bool {
    class.is_some_and(|c| c.eq_ignore_ascii_case("idle"))
        || IDLE_EVENTS
            .iter()
            .any(|i| i.eq_ignore_ascii_case(name.trim()))
        || (pct.is_none() && !no_pct_column)
}

/// Mean number of requests waiting in an M/M/c queue at utilisation `u`
/// (Sakasegawa's approximation): `u^sqrt(2(c+1)) / (1 - u)`.
pub fn mmc_queue_len(u: f64, c: f64) -> f64 {
    let u = u.clamp(0.0, 0.9999);
    let c = c.max(1.0);
    u.powf((2.0 * (c + 1.0)).sqrt()) / (1.0 - u)
}

/// Waiting time over service time in an M/M/c queue at utilisation `u`
/// (Sakasegawa): `Lq / (c u)`.
pub fn mmc_wait_factor(u: f64, c: f64) -> f64 {
    let c = c.max(1.0);
    let u = u.clamp(0.0, 0.9999);
    if u <= 0.0 {
        return 0.0;
    }
    mmc_queue_len(u, c) / (c * u)
}

/// The utilisation at which an M/M/c queue holds `q` waiting requests on
/// average (bisection; 0 for no queue, close to 1 for a long one).
pub fn util_for_queue(q: f64, c: f64) -> f64 {
    if !q.is_finite() || q <= 0.0 {
        return 0.0;
    }
    let (mut lo, mut hi) = (0.0f64, 0.9999f64);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if mmc_queue_len(mid, c) < q {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The utilisation at which an M/M/c system holds `l` requests in all
/// (in service plus waiting), as the OS load counts them.
pub fn util_for_load(l: f64, c: f64) -> f64 {
    if !l.is_finite() || l <= 0.0 {
        return 0.0;
    }
    let c = c.max(1.0);
    let (mut lo, mut hi) = (0.0f64, 0.9999f64);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if c * mid + mmc_queue_len(mid, c) < l {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// Thousands separators for a whole number (`2,900`).
pub fn grouped(v: f64) -> String {
    let n = v.round();
    let neg = n < 0.0;
    let digits = format!("{:.0}", n.abs());
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    if neg { format!("-{out}") } else { out }
}

fn trim_num(v: f64) -> String {
    let s = format!("{v:.1}");
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

impl IntervalFacts<'_> {
    fn os_value(&self, name: &str) -> Option<(f64, EvidenceSrc)> {
        let s = self.report.os_stat(name)?;
        let v = s.value.filter(|v| v.is_finite() && *v >= 0.0)?;
        Some((v, self.src(&s.src)))
    }

    fn linux(&self) -> bool {
        self.report
            .header
            .platform
            .as_deref()
            .is_some_and(|p| p.to_ascii_lowercase().contains("linux"))
    }

    /// DB time not covered by DB CPU and the non-idle foreground waits
    /// (seconds, 0 or more); `None` without DB time, DB CPU or waits. Read
    /// once, by [`IntervalFacts::new`], into
    /// [`IntervalFacts::unaccounted_s`]: the event rows it sums are not
    /// kept by a reduced interval ([`crate::reduced`]).
    pub(crate) fn unaccounted_from_rows(&self) -> Option<Num> {
        let db = self.db_time_s.as_ref()?;
        let cpu = self.db_cpu_s.as_ref()?;
        let r = self.report;
        let fg = if r.wait_events.foreground.is_empty() {
            &r.wait_events.all
        } else {
            &r.wait_events.foreground
        };
        let waits: f64 = if fg.is_empty() {
            r.top_events
                .iter()
                .filter(|e| e.waits.is_some())
                .filter(|e| !is_idle(&e.name, e.wait_class.as_deref(), e.pct_db_time, true))
                .filter_map(|e| e.time_s)
                .sum()
        } else {
            // AWR prints no % DB time for idle events: where the table has
            // the column, a row without it is idle.
            let has_pct = fg.iter().any(|e| e.pct_db_time.is_some());
            fg.iter()
                .filter(|e| !is_idle(&e.name, e.wait_class.as_deref(), e.pct_db_time, !has_pct))
                .filter_map(|e| e.time_s)
                .sum()
        };
        if waits <= 0.0 {
            return None;
        }
        Some(Num {
            value: (db.value - cpu.value - waits).max(0.0),
            src: db.src.clone(),
            derived: Some("DB time - DB CPU - non-idle foreground wait time".into()),
        })
    }

    /// Every CPU signal of the interval (see the module doc).
    pub fn cpu_headroom(&self) -> CpuHeadroom {
        let mut h = CpuHeadroom {
            logical: self.cpus(),
            ..CpuHeadroom::default()
        };
        let el = self.elapsed();
        let vcpus = self.os_value("NUM_VCPUS").filter(|(v, _)| *v > 0.0);
        let cores = self
            .os_value("NUM_CPU_CORES")
            .filter(|(v, _)| *v > 0.0)
            .or_else(|| {
                let hc = self.report.host_cpu.as_ref()?;
                let c = f64::from(hc.cores?);
                (c > 0.0).then(|| (c, self.src(&hc.src)))
            });
        h.cores = match (&vcpus, &cores) {
            (Some((v, _)), _) => Some((*v, "vCPUs")),
            (None, Some((c, _))) => Some((*c, "cores")),
            _ => h.logical.map(|l| (l, "CPUs")),
        };
        if let (Some(l), Some((c, _))) = (h.logical, h.cores)
            && l > c * 1.01
        {
            h.smt = Some(l / c);
            if let Some((busy, src)) = self.os_value("BUSY_TIME")
                && el > 0.0
            {
                h.core_busy_pct = Some(Num {
                    value: busy / 100.0 / (el * c) * 100.0,
                    src: Some(src),
                    derived: Some(
                        "BUSY_TIME (centiseconds) / (elapsed x cores), as a share of core time"
                            .into(),
                    ),
                });
            }
        }
        let (c, cname) = h.cores.unwrap_or((1.0, "CPUs"));
        if let Some(b) = &self.host_busy_pct {
            h.signals.push(CpuSignal {
                kind: CpuSignalKind::HostBusy,
                util: (b.value / 100.0).clamp(0.0, 1.0),
                servers: h.logical.unwrap_or(c),
                figure: b.clone(),
                label: format!(
                    "host CPU {}% busy{}",
                    trim_num(b.value),
                    h.logical
                        .map(|l| format!(" of {} logical CPUs", trim_num(l)))
                        .unwrap_or_default()
                ),
            });
        }
        // Paging: a memory shortage the CPUs pay for; shown beside the
        // CPU signals, it implies no utilisation by itself.
        let vm_in = self.os_value("VM_IN_BYTES");
        let vm_out = self.os_value("VM_OUT_BYTES");
        if el > 0.0 && (vm_in.is_some() || vm_out.is_some()) {
            let bytes = vm_in.as_ref().map_or(0.0, |v| v.0) + vm_out.as_ref().map_or(0.0, |v| v.0);
            h.paging_mb_s = Some(Num {
                value: bytes / el / crate::MB,
                src: vm_in.or(vm_out).map(|v| v.1),
                derived: Some("(VM_IN_BYTES + VM_OUT_BYTES) / elapsed / 1048576".into()),
            });
        }
        if let Some((cs, src)) = self.os_value("OS_CPU_WAIT_TIME")
            && el > 0.0
        {
            // OS statistics times are in centiseconds.
            let q = cs / 100.0 / el;
            if q >= QUEUE_PER_CORE_MIN * c {
                h.queue_shown = true;
            }
            h.signals.push(CpuSignal {
                kind: CpuSignalKind::RunQueue,
                servers: c,
                util: util_for_queue(q, c),
                figure: Num {
                    value: q,
                    src: Some(src),
                    derived: Some(
                        "OS_CPU_WAIT_TIME (centiseconds) / 100 / elapsed: processes waiting for a CPU"
                            .into(),
                    ),
                },
                label: format!(
                    "CPU queue: OS_CPU_WAIT_TIME {} s/h on {} {cname}",
                    grouped(q * 3600.0),
                    trim_num(c)
                ),
            });
        }
        if !self.linux()
            && let Some(s) = self.report.os_stat("LOAD")
        {
            let vals: Vec<f64> = [s.value, s.end_value]
                .into_iter()
                .flatten()
                .filter(|v| v.is_finite() && *v >= 0.0)
                .collect();
            if !vals.is_empty() {
                let load = vals.iter().sum::<f64>() / vals.len() as f64;
                if load > c {
                    h.queue_shown = true;
                }
                h.signals.push(CpuSignal {
                    kind: CpuSignalKind::Load,
                    servers: c,
                    util: util_for_load(load, c),
                    figure: Num {
                        value: load,
                        src: Some(self.src(&s.src)),
                        derived: Some("mean of the LOAD values at the two snapshots".into()),
                    },
                    label: format!("load {} on {} {cname}", trim_num(load), trim_num(c)),
                });
            }
        }
        h.unaccounted_s = self.unaccounted_s.clone();
        if h.queue_shown
            && el > 0.0
            && let Some(u) = &h.unaccounted_s
            && u.value > 0.0
        {
            let q = u.value / el;
            h.signals.push(CpuSignal {
                kind: CpuSignalKind::Unaccounted,
                servers: c,
                util: util_for_queue(q, c),
                figure: u.clone(),
                label: format!(
                    "CPU queue: {}% of DB time on neither CPU nor a wait ({} s/h) on {} {cname}",
                    trim_num(ratio(u.value * 100.0, self.db_time())),
                    grouped(q * 3600.0),
                    trim_num(c)
                ),
            });
        }
        let limit = self.cpu_limit(h.logical);
        if let Some(rm) = self.event("resmgr:cpu quantum")
            && rm.pct_db_time >= RESMGR_SHARE_PCT_MIN
            && el > 0.0
        {
            // Throttled sessions wanted the CPU they waited for: with a
            // known limit, the demand over it (CPU used plus the throttled
            // time, per second, over cpu_count); without one, the queue
            // on the cores.
            let q = rm.time_s / el;
            let util = match (&limit, &self.db_cpu_s) {
                (Some(l), Some(cpu)) if l.value > 0.0 => {
                    ((cpu.value + self.background_cpu_s()) / el + q) / l.value
                }
                _ => util_for_queue(q, c),
            };
            h.signals.push(CpuSignal {
                kind: CpuSignalKind::ResourceManager,
                servers: limit.as_ref().map_or(c, |l| l.value),
                util: util.clamp(0.0, 1.0),
                figure: rm.pct_num(),
                label: format!(
                    "Resource Manager: resmgr:cpu quantum {}% of DB time{}",
                    trim_num(rm.pct_db_time),
                    limit
                        .as_ref()
                        .map(|l| format!(" (cpu_count {})", trim_num(l.value)))
                        .unwrap_or_default()
                ),
            });
        }
        if let Some(l) = limit
            && let Some(cpu) = &self.db_cpu_s
            && el > 0.0
            && l.value > 0.0
        {
            let used = (cpu.value + self.background_cpu_s()) / el;
            h.signals.push(CpuSignal {
                kind: CpuSignalKind::CpuLimit,
                servers: l.value,
                util: (used / l.value).clamp(0.0, 1.0),
                figure: l.clone(),
                label: format!(
                    "CPU limit: {} CPUs used of cpu_count {}",
                    trim_num(used),
                    trim_num(l.value)
                ),
            });
        }
        h
    }

    /// Time model `background cpu time` (seconds), 0 when absent.
    fn background_cpu_s(&self) -> f64 {
        self.report
            .time_model_row("background cpu time")
            .and_then(|t| t.time_s)
            .unwrap_or(0.0)
    }

    /// The `cpu_count` that limits this database: a PDB's own parameter,
    /// or an instance's when Resource Manager enforces it (instance caging
    /// needs `resource_manager_plan`) and it is below the host's CPUs.
    fn cpu_limit(&self, host_cpus: Option<f64>) -> Option<Num> {
        let r = self.report;
        let p = r.parameter("cpu_count")?;
        let v = p
            .end_value
            .as_deref()
            .unwrap_or(&p.value)
            .trim()
            .replace(',', "")
            .parse::<f64>()
            .ok()
            .filter(|v| *v > 0.0)?;
        let pdb = r.source.kind == Some(ReportKind::Pdb);
        let plan = r
            .parameter("resource_manager_plan")
            .is_some_and(|p| !p.value.trim().is_empty());
        let below_host = host_cpus.is_none_or(|h| v < h);
        (pdb || (plan && below_host)).then(|| Num {
            value: v,
            src: Some(self.src(&p.src)),
            derived: None,
        })
    }
}

impl CpuHeadroom {
    /// The signal implying the highest utilisation: it decides the bound.
    pub fn decisive(&self) -> Option<&CpuSignal> {
        self.signals
            .iter()
            .filter(|s| s.util > 0.0)
            .max_by(|a, b| a.util.total_cmp(&b.util))
    }

    /// The part of the breakdown's other time that is a CPU queue: the DB
    /// time on neither CPU nor a wait, when the run queue, the load or
    /// Resource Manager shows sessions waiting for a CPU.
    pub fn queue_s(&self) -> f64 {
        if !self.queue_shown {
            return 0.0;
        }
        self.unaccounted_s.as_ref().map_or(0.0, |n| n.value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queue_inversion_returns_the_utilisation_that_holds_the_queue() {
        for c in [1.0, 3.0, 8.0] {
            for u in [0.3, 0.6, 0.85, 0.95] {
                let q = mmc_queue_len(u, c);
                assert!((util_for_queue(q, c) - u).abs() < 1e-6, "c {c} u {u}");
                let l = c * u + q;
                assert!((util_for_load(l, c) - u).abs() < 1e-6, "c {c} u {u}");
            }
        }
        assert_eq!(util_for_queue(0.0, 4.0), 0.0);
    }

    #[test]
    fn idle_waits_printed_without_a_class_do_not_count_against_db_time() {
        use awrflash_model::{DbReport, Header, SourceRef, TimeModelRow, WaitEvent};
        let ev = |name: &str, class: Option<&str>, time_s: f64, pct: Option<f64>| WaitEvent {
            name: name.into(),
            wait_class: class.map(Into::into),
            time_s: Some(time_s),
            pct_db_time: pct,
            src: SourceRef::new("Foreground Wait Events", 1),
            ..Default::default()
        };
        let mut r = DbReport {
            header: Header {
                elapsed_s: Some(3600.0),
                db_time_s: Some(10_000.0),
                ..Default::default()
            },
            time_model: vec![TimeModelRow {
                name: "DB CPU".into(),
                time_s: Some(3000.0),
                ..Default::default()
            }],
            ..Default::default()
        };
        r.wait_events.foreground = vec![
            ev(
                "db file sequential read",
                Some("User I/O"),
                4000.0,
                Some(40.0),
            ),
            // 12c layouts print later rows without their class.
            ev("latch free", None, 1000.0, Some(10.0)),
            ev("SQL*Net message from client", None, 900_000.0, None),
            ev("some idle wait", None, 50_000.0, None),
        ];
        let f = IntervalFacts::new(&r);
        // 10,000 - 3,000 - (4,000 + 1,000) = 2,000 s on neither.
        assert_eq!(f.unaccounted_s.map(|n| n.value), Some(2000.0));
    }

    #[test]
    fn grouped_numbers_carry_thousands_separators() {
        assert_eq!(grouped(2900.4), "2,900");
        assert_eq!(grouped(11746.0), "11,746");
        assert_eq!(grouped(999.0), "999");
        assert_eq!(grouped(1_234_567.0), "1,234,567");
    }
}
