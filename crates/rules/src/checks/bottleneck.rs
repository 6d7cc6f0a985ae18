//! Bottlenecks and the verdict's limits (000 sections 5 and 8; 003 Key
//! Points): CPU, I/O channel, I/O share of DB time; missing data; the peak
//! interval of a series.

use awrflash_model::Severity;
use serde::Deserialize;

use super::{Check, Ctx, Hit, derived};
use crate::util::{f0, f1};
use awrflash_facts::{CpuSignalKind, MULTIBLOCK};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CpuSaturated {
    busy_pct_warning: f64,
    busy_pct_critical: f64,
    paging_mb_s_note: f64,
}

/// A CPU signal's evidence label and unit, and how its figure becomes a
/// utilisation.
fn signal_unit(k: CpuSignalKind) -> (&'static str, &'static str, &'static str) {
    match k {
        CpuSignalKind::HostBusy => ("host CPU busy", "%", "host busy as read"),
        CpuSignalKind::RunQueue => (
            "processes waiting for a CPU (OS_CPU_WAIT_TIME per second)",
            "processes",
            "the M/M/c utilisation (Sakasegawa) whose mean queue is this many processes on the cores",
        ),
        CpuSignalKind::Load => (
            "OS load",
            "processes",
            "the M/M/c utilisation (Sakasegawa) whose processes in service plus waiting add up to the load on the cores",
        ),
        CpuSignalKind::Unaccounted => (
            "DB time on neither CPU nor a wait",
            "s",
            "the M/M/c utilisation (Sakasegawa) whose mean queue is this time per second of elapsed on the cores",
        ),
        CpuSignalKind::ResourceManager => (
            "resmgr:cpu quantum % DB time",
            "%",
            "the M/M/c utilisation (Sakasegawa) whose mean queue is resmgr:cpu quantum time per second of elapsed on cpu_count (else the cores)",
        ),
        CpuSignalKind::CpuLimit => (
            "cpu_count limit",
            "CPUs",
            "(DB CPU + background cpu time) / elapsed / cpu_count",
        ),
    }
}

impl Check for CpuSaturated {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let h = ctx.w.cpu_headroom();
        let Some(top) = h.decisive() else {
            return Vec::new();
        };
        let used = top.util * 100.0;
        if used < self.busy_pct_warning {
            return Vec::new();
        }
        let headroom = (100.0 - used).max(0.0);
        let others: Vec<&str> = h
            .signals
            .iter()
            .filter(|s| s.kind != top.kind && s.util * 100.0 >= self.busy_pct_warning)
            .map(|s| s.label.as_str())
            .collect();
        let mut msg = format!(
            "The CPUs are about {}% used ({}). By the bottleneck law a faster storage device can raise throughput of scans and parallel work by at most the CPU headroom ({}%); OLTP kept about 30% more throughput at CPU saturation in the seed's tests because fewer processes were needed.",
            f0(used),
            top.label,
            f1(headroom)
        );
        if !others.is_empty() {
            msg.push_str(&format!(" Also saturated: {}.", others.join("; ")));
        }
        if top.kind != CpuSignalKind::HostBusy
            && let Some(b) = &ctx.w.host_busy_pct
        {
            msg.push_str(&format!(
                " Host busy alone reads {}%{}: it does not show the queue.",
                f1(b.value),
                match (h.smt, &h.core_busy_pct) {
                    (Some(t), Some(cb)) => format!(
                        " of {} logical CPUs ({} threads per core; {}% of core time)",
                        f0(h.logical.unwrap_or(0.0)),
                        f0(t),
                        f0(cb.value)
                    ),
                    _ => String::new(),
                }
            ));
        }
        if let Some(u) = &h.unaccounted_s
            && h.queue_s() > 0.0
        {
            msg.push_str(&format!(
                " {}% of DB time is on neither CPU nor a wait: sessions queued for a CPU.",
                f1(awrflash_facts::ratio(u.value * 100.0, ctx.w.db_time()))
            ));
        }
        if let Some(pg) = &h.paging_mb_s
            && pg.value >= self.paging_mb_s_note
        {
            msg.push_str(&format!(
                " The host also pages {} MB/s (VM_IN_BYTES + VM_OUT_BYTES): a memory shortage the CPUs pay for.",
                f1(pg.value)
            ));
        }
        let mut hit = Hit::new(msg);
        for s in &h.signals {
            let (label, unit, how) = signal_unit(s.kind);
            hit = hit.ev(s.figure.evidence(label, unit));
            if s.kind != CpuSignalKind::HostBusy {
                hit = hit.ev(derived(
                    &format!("CPU utilisation implied by {label}"),
                    s.util * 100.0,
                    "%",
                    how,
                ));
            }
        }
        hit = hit
            .ev_opt(h.core_busy_pct.as_ref().map(|c| c.evidence("host busy as a share of core time", "%")))
            .ev_opt(h.paging_mb_s.as_ref().map(|p| p.evidence("paging", "MB/s")))
            .ev_opt(ctx.w.db_cpu_s.as_ref().map(|c| c.evidence("DB CPU", "s")))
            .fix(
                "Treat CPU as the first bottleneck: tune the top SQL by CPU, raise the CPU entitlement or limit (LPAR entitlement and virtual processors, cpu_count, the Resource Manager plan) or add cores before expecting a storage change to pay off; expect at most the headroom for DSS and about 1.3x throughput for OLTP.",
                Vec::new(),
            );
        if used >= self.busy_pct_critical {
            hit = hit.severity(Severity::Critical);
        }
        vec![hit]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChannelSaturated {
    util_pct_warning: f64,
    util_pct_critical: f64,
    scan_share_pct_unknown_capacity: f64,
}

impl Check for ChannelSaturated {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let Some(io) = &ctx.w.io_mb_s else {
            return Vec::new();
        };
        let Some(ch) = ctx.opts.channel_mbps.filter(|c| *c > 0.0) else {
            let scan = ctx.w.share_pct(MULTIBLOCK);
            if scan >= self.scan_share_pct_unknown_capacity {
                return vec![
                    Hit::new(format!(
                        "Not enough data: scans take {}% of DB time at {} MB/s, but the I/O channel capacity is unknown, so whether the channel caps the gain cannot be judged. Give the HBA/network capacity with --channel-mbps.",
                        f1(scan),
                        f1(io.value)
                    ))
                    .severity(Severity::Info)
                    .ev(io.evidence("I/O throughput", "MB/s"))
                    .ev(derived("multiblock read share of DB time", scan, "%", "sum of multiblock read events / DB time")),
                ];
            }
            return Vec::new();
        };
        let util = io.value * 100.0 / ch;
        if util < self.util_pct_warning {
            return Vec::new();
        }
        let mut h = Hit::new(format!(
            "The database moves {} MB/s over a {} MB/s channel ({}% used). Faster storage cannot push more than the remaining {}% through it: large scans gain little (R7 in the seed gained 2% at 1900 of 2000 MB/s).",
            f0(io.value),
            f0(ch),
            f1(util),
            f1((100.0 - util).max(0.0))
        ))
        .ev(io.evidence("I/O throughput", "MB/s"))
        .ev(derived("channel capacity (--channel-mbps)", ch, "MB/s", "user option"))
        .ev(derived("channel utilisation", util, "%", "I/O MB/s / channel capacity"))
        .fix(
            "Add channel bandwidth (more or faster HBAs, or local PCIe/NVMe flash that does not cross the SAN) before or together with flash; a SAN SSD behind the same HBA stays capped by it.",
            Vec::new(),
        );
        if util >= self.util_pct_critical {
            h = h.severity(Severity::Critical);
        }
        vec![h]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IoShareSmall {
    io_share_pct_max: f64,
    io_sessions_min: f64,
}

impl Check for IoShareSmall {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let Some(share) = ctx.w.io_share_pct() else {
            return Vec::new();
        };
        let el = ctx.w.elapsed();
        // Sessions waiting on I/O on average (Little's law on DB time).
        let io_sessions = if el > 0.0 {
            ctx.w.db_time() * share.value / 100.0 / el
        } else {
            f64::INFINITY
        };
        let small_share = share.value < self.io_share_pct_max;
        let small_demand = io_sessions < self.io_sessions_min;
        if !small_share && !small_demand {
            return Vec::new();
        }
        let msg = if small_share {
            format!(
                "I/O waits are only {}% of DB time: even an infinitely fast device could cut DB time by at most that much. Flash is not where this database's time goes.",
                f1(share.value)
            )
        } else {
            format!(
                "I/O waits are {}% of DB time, but on average only {} sessions wait on I/O: the I/O demand is too small for a storage change to matter.",
                f1(share.value),
                crate::util::f2(io_sessions)
            )
        };
        let mut h = Hit::new(msg)
            .ev(share.evidence("I/O wait share of DB time", "%"))
            .ev_opt(ctx.w.db_time_s.as_ref().map(|d| d.evidence("DB time", "s")));
        if io_sessions.is_finite() {
            h = h.ev(derived(
                "average sessions waiting on I/O",
                io_sessions,
                "sessions",
                "DB time x I/O share / elapsed",
            ));
        }
        vec![h.fix(
            "Look at the top timed events and the SQL by elapsed time instead; revisit flash when I/O waits grow.",
            Vec::new(),
        )]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NotEnoughData {
    load_aas_min: f64,
}

/// Average active sessions (DB time / elapsed) when the interval carries
/// less than `aas_min` of them: too little load for any advice.
pub fn low_load(w: &awrflash_facts::IntervalFacts, aas_min: f64) -> Option<f64> {
    let (db, el) = (w.db_time(), w.elapsed());
    (db > 0.0 && el > 0.0)
        .then(|| db / el)
        .filter(|aas| *aas < aas_min)
}

impl Check for NotEnoughData {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let r = w.report;
        let mut essential = Vec::new();
        let mut other = Vec::new();
        if let Some(aas) = low_load(w, self.load_aas_min) {
            return vec![
                Hit::new(format!(
                    "Not enough load for advice: {} s of DB time over {} s elapsed is {} average active sessions (below {}). Shares and averages from so few seconds of waits say nothing about storage; take a report of a busy interval.",
                    f1(w.db_time()),
                    f0(w.elapsed()),
                    awrflash_facts::round(aas),
                    self.load_aas_min
                ))
                .severity(Severity::Warning)
                .ev_opt(w.db_time_s.as_ref().map(|d| d.evidence("DB time", "s")))
                .ev_opt(w.elapsed_s.as_ref().map(|d| d.evidence("elapsed", "s")))
                .ev(derived(
                    "average active sessions",
                    aas,
                    "sessions",
                    "DB time / elapsed",
                )),
            ];
        }
        if w.db_time_s.is_none() {
            essential.push("DB time");
        }
        if w.elapsed_s.is_none() {
            essential.push("elapsed time");
        }
        if w.events.is_empty() {
            essential.push("wait events (Top Timed / Foreground Wait Events)");
        }
        if w.host_busy_pct.is_none() {
            other.push("host CPU (Host CPU / Operating System Statistics)");
        }
        if w.io_mb_s.is_none() {
            other.push("I/O rates (IO Profile / Load Profile)");
        }
        if r.segments.values().all(|v| v.is_empty()) {
            other.push("segment statistics (Segments by ...)");
        }
        if r.buffer_pool_advisory.is_empty() {
            other.push("Buffer Pool Advisory");
        }
        if w.redo_bytes_s.is_none() {
            other.push("redo size");
        }
        if essential.is_empty() && other.is_empty() && r.warnings.is_empty() {
            return Vec::new();
        }
        let mut msg = String::new();
        if !essential.is_empty() {
            msg.push_str(&format!(
                "Not enough data for a projection: the report has no {}. ",
                essential.join(", ")
            ));
        }
        if !other.is_empty() {
            msg.push_str(&format!(
                "Missing, so the rules that need them stay quiet: {}. ",
                other.join(", ")
            ));
        }
        if !r.warnings.is_empty() {
            msg.push_str(&format!(
                "The parser left {} warning(s) on this file.",
                r.warnings.len()
            ));
        }
        let sev = if essential.is_empty() {
            Severity::Info
        } else {
            Severity::Warning
        };
        vec![
            Hit::new(msg.trim_end().to_string())
                .severity(sev)
                .ev(derived(
                    "sections missing",
                    (essential.len() + other.len()) as f64,
                    "count",
                    &format!("sections the rules read that {} lacks", w.path),
                )),
        ]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PeakInterval {
    percentile: f64,
}

impl Check for PeakInterval {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        if ctx.all.len() < 2 {
            return Vec::new();
        }
        // The advisor's peak interval and the one p95 (nearest rank) of
        // the trend, so the finding and the trend table print one figure.
        let loads: Vec<Option<f64>> = ctx
            .all
            .iter()
            .map(|w| w.per_second(w.db_time_s.as_ref()))
            .collect();
        let Some(pi) = awrflash_facts::peak_interval(ctx.all) else {
            return Vec::new();
        };
        let (Some(pw), Some(peak)) = (ctx.all.get(pi), loads.get(pi).copied().flatten()) else {
            return Vec::new();
        };
        let p = awrflash_model::stats::percentile(loads.iter().flatten().copied(), self.percentile)
            .unwrap_or(peak);
        let when_of = |w: &awrflash_facts::IntervalFacts| match (
            &w.report.header.begin_time,
            &w.report.header.end_time,
        ) {
            (Some(b), Some(e)) => format!("{b} to {e}"),
            _ => w.path.to_string(),
        };
        let when = when_of(pw);
        // The plan is for the peak unless the peak is an incident (AF006).
        let analysed = if std::ptr::eq(pw, ctx.w) {
            "the peak interval".to_string()
        } else {
            format!(
                "{} ({}), the busiest interval that is not an incident (AF006)",
                when_of(ctx.w),
                ctx.w.path
            )
        };
        vec![
            Hit::new(format!(
                "{} report intervals: the peak load is {} average active sessions (DB time per second) in {} ({}); the p{} is {}. The findings and projections are for {analysed}.",
                ctx.all.len(),
                f1(peak),
                when,
                pw.path,
                f0(self.percentile),
                f1(p)
            ))
            .ev_opt(pw.db_time_s.as_ref().map(|d| d.evidence("DB time at the peak", "s")))
            .ev_opt(pw.elapsed_s.as_ref().map(|d| d.evidence("elapsed at the peak", "s")))
            .ev(derived("peak average active sessions", peak, "sessions", "DB time / elapsed of the peak interval"))
            .ev(derived(
                &format!("p{} average active sessions", f0(self.percentile)),
                p,
                "sessions",
                "nearest-rank percentile of DB time / elapsed over the intervals",
            )),
        ]
    }
}
