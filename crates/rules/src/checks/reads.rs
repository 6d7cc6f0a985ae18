//! Random single-block reads, reads per execution, multiblock scans (000
//! 2.1, 5, 6.3 and Tables 5.1, 6.2-6.4; 002).

use awrflash_model::{OptionProjection, Severity};
use serde::Deserialize;

use super::{Check, Ctx, Hit, derived};
use crate::devices::IoKind;
use crate::util::{f0, f1, f2};
use awrflash_facts::{MULTIBLOCK, SINGLE_BLOCK, ratio};

fn option<'a>(ctx: &'a Ctx, keys: &[&str]) -> Option<&'a OptionProjection> {
    keys.iter()
        .find_map(|k| ctx.plan.options.iter().find(|o| o.key == *k))
}

/// (waits, time s, % of DB time, average ms) of a group of events.
fn totals(evs: &[&awrflash_facts::Ev], db_time: f64) -> Option<(f64, f64, f64, f64)> {
    let waits: f64 = evs.iter().map(|e| e.waits).sum();
    let time: f64 = evs.iter().map(|e| e.time_s).sum();
    (waits > 0.0 && db_time > 0.0)
        .then(|| (waits, time, time * 100.0 / db_time, time * 1000.0 / waits))
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SingleBlockReads {
    share_pct_min: f64,
    avg_ms_min: f64,
    share_pct_critical: f64,
}

impl Check for SingleBlockReads {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let evs = w.events_in(SINGLE_BLOCK);
        let Some((waits, _, share, avg)) = totals(&evs, w.db_time()) else {
            return Vec::new();
        };
        if share < self.share_pct_min || avg < self.avg_ms_min {
            return Vec::new();
        }
        let flash_ms = ctx
            .flash
            .service_ms(IoKind::Read, w.block_size / 1024.0, 1.0);
        let opt = option(ctx, &["hot-segments", "whole-db"]);
        // Where the device's own time is known, the wait is split: the
        // device part is what flash shortens (the projection's split).
        let split = awrflash_facts::SPLIT_EVENTS
            .iter()
            .find_map(|n| w.device_split(n));
        let flash_class = ctx.plan.already_flash_class.as_ref();
        let mut h = match (&split, flash_class) {
            (Some(_), Some(why)) => Hit::new(format!(
                "Single-block reads take {}% of DB time ({} reads at {} ms on average), but the storage is not what makes them slow: {why}. Moving them to flash would not shorten them.",
                f1(share),
                f0(waits),
                f2(avg),
            ))
            .severity(Severity::Info),
            (Some(s), None) => Hit::new(format!(
                "Single-block reads take {}% of DB time ({} reads at {} ms on average). {}; flash ({}) serves such a read in about {} ms at low load, so the device's part is what a move shortens.",
                f1(share),
                f0(waits),
                f2(avg),
                s.words(),
                ctx.flash.name,
                f2(flash_ms),
            )),
            (None, _) => Hit::new(format!(
                "Single-block reads take {}% of DB time ({} reads at {} ms on average): disk-like latency on small random reads, the strongest case for flash, where such a read takes about {} ms ({} at low load).",
                f1(share),
                f0(waits),
                f2(avg),
                f2(flash_ms),
                ctx.flash.name
            )),
        };
        for e in &evs {
            h = h
                .ev(e.time_num().evidence(&format!("{} time", e.name), "s"))
                .ev(e.avg_num().evidence(&format!("{} avg wait", e.name), "ms"))
                .ev(e
                    .waits_num()
                    .evidence(&format!("{} waits", e.name), "waits"));
        }
        h = h.ev(derived(
            "single-block read share of DB time",
            share,
            "%",
            "sum of single-block read events / DB time",
        ));
        if let Some(s) = &split {
            for v in w.device.read.iter() {
                h = h.ev(v.ms.evidence(
                    &format!("device small-read time ({})", v.view.label()),
                    "ms",
                ));
            }
            h = h.ev(derived(
                &format!("{} time above the device", s.event),
                s.gap_used_ms(),
                "ms",
                &format!(
                    "{} average - device small-read time ({})",
                    s.event,
                    s.used.view.label()
                ),
            ));
        }
        if flash_class.is_some() && split.is_some() {
            h = h.fix(
                "Look above the device before buying storage: the OS and HBA queue depth, multipathing, the array's front end, and the CPU run queue of the host.",
                Vec::new(),
            );
            return vec![h];
        }
        if let Some(o) = opt {
            h = h
                .projection(Some(o.projection.clone()))
                .fix(
                    format!(
                        "Put the segments that carry these reads on flash first (see the segments to move), or the whole database; projected DB time {}-{} s from {} s ({}).",
                        f0(o.projection.db_time_after_low_s),
                        f0(o.projection.db_time_after_high_s),
                        f0(o.projection.db_time_before_s),
                        o.title
                    ),
                    ctx.plan
                        .ranked
                        .list
                        .iter()
                        .filter_map(|s| s.sql.clone())
                        .take(5)
                        .collect(),
                );
        }
        if share >= self.share_pct_critical {
            h = h.severity(Severity::Critical);
        }
        vec![h]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReadsPerExecution {
    reads_per_exec_min: f64,
    pct_total_min: f64,
    read_share_pct_min: f64,
}

impl Check for ReadsPerExecution {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let mut reads: Vec<&str> = SINGLE_BLOCK.to_vec();
        reads.extend(MULTIBLOCK);
        if w.share_pct(&reads) < self.read_share_pct_min {
            return Vec::new();
        }
        let Some(rows) = ["unoptimized_reads", "physical_reads"]
            .iter()
            .find_map(|k| w.report.sql.get(*k).filter(|r| !r.is_empty()))
        else {
            return Vec::new();
        };
        // Maintenance work (AF032) and full scans repeated by one statement
        // (AF012's reads per execution) are not the gain this rule means.
        let works = crate::sqlwork::works().unwrap_or_default();
        let scan_min =
            crate::catalogue::threshold("AF012", "reads_per_exec_min").unwrap_or(f64::INFINITY);
        let mut left_out = 0usize;
        let mut heavy: Vec<_> = rows
            .iter()
            .filter_map(|r| {
                let per = crate::sqlwork::per_exec(r)?;
                if per < self.reads_per_exec_min {
                    return None;
                }
                if per >= scan_min || crate::sqlwork::statement_work(works, r).is_some() {
                    left_out += 1;
                    return None;
                }
                Some((r, per))
            })
            .collect();
        let pct: f64 = heavy.iter().filter_map(|(r, _)| r.pct_total).sum();
        if heavy.is_empty() || pct < self.pct_total_min {
            return Vec::new();
        }
        heavy.sort_by(|a, b| {
            b.0.pct_total
                .unwrap_or(0.0)
                .total_cmp(&a.0.pct_total.unwrap_or(0.0))
                .then(a.0.sql_id.cmp(&b.0.sql_id))
        });
        let ids: Vec<String> = heavy
            .iter()
            .take(3)
            .map(|(r, p)| format!("{} ({} reads/exec)", r.sql_id, f1(*p)))
            .collect();
        let mut h = Hit::new(format!(
            "Statements doing {} or more physical reads per execution carry {}% of the physical reads ({}). The more physical reads per execution, the larger the flash gain: 1, 2 and 4 reads per transaction gave 2.97x, 3.54x and 4.26x throughput at 32 users in the seed.",
            f0(self.reads_per_exec_min),
            f1(pct),
            ids.join(", ")
        ))
        .severity(Severity::Info);
        if left_out > 0 {
            h.message.push_str(&format!(
                " {left_out} statement(s) left out: Oracle maintenance work (AF032) or {} or more reads per execution, full scans that gain least (AF012).",
                f0(scan_min)
            ));
        }
        for (r, per) in heavy.iter().take(3) {
            let src = Some(w.src(&r.src));
            h = h.ev(awrflash_model::Evidence {
                label: format!("{} physical reads per execution", r.sql_id),
                value: awrflash_facts::round(*per),
                unit: "reads/exec".into(),
                src: src.clone(),
                derived_from: None,
            });
            if let Some(p) = r.pct_total {
                h = h.ev(awrflash_model::Evidence {
                    label: format!("{} % of physical reads", r.sql_id),
                    value: awrflash_facts::round(p),
                    unit: "%".into(),
                    src,
                    derived_from: None,
                });
            }
        }
        h = h.fix(
            "These statements gain most from flash; check their access paths first (a missing index turns into many reads) and put the segments they read on flash.",
            Vec::new(),
        );
        vec![h]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultiblockScans {
    share_pct_min: f64,
    avg_ms_min: f64,
}

impl Check for MultiblockScans {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let evs: Vec<_> = w
            .events_in(MULTIBLOCK)
            .into_iter()
            .filter(|e| !e.name.starts_with("cell smart"))
            .collect();
        let Some((_, time, share, avg)) = totals(&evs, w.db_time()) else {
            return Vec::new();
        };
        if share < self.share_pct_min || avg < self.avg_ms_min {
            return Vec::new();
        }
        let size = w.multiblock_read_kb();
        let flash_ms = ctx.flash.service_ms(IoKind::Read, size.value, 1.0);
        let speed = ratio(avg, flash_ms).max(1.0);
        let mut msg = format!(
            "Multiblock and direct-path reads take {}% of DB time at {} ms per {} KB read; on {} such a read takes about {} ms at low load ({}x faster; large reads gained about 3x in the seed).",
            f1(share),
            f2(avg),
            f0(size.value),
            ctx.flash.name,
            f2(flash_ms),
            f1(speed)
        );
        let mut h = Hit::new(String::new());
        for e in &evs {
            h = h
                .ev(e.time_num().evidence(&format!("{} time", e.name), "s"))
                .ev(e.avg_num().evidence(&format!("{} avg wait", e.name), "ms"));
        }
        h = h.ev(size.evidence("average multiblock read size", "KB"));
        if let Some(io) = &w.io_mb_s {
            h = h.ev(io.evidence("I/O throughput", "MB/s"));
            let scan_mb = io.value * ratio(time, w.db_time()).min(1.0);
            let wanted = io.value + scan_mb * (speed - 1.0);
            match ctx.opts.channel_mbps {
                Some(ch) if ch > 0.0 => {
                    if wanted > ch {
                        msg.push_str(&format!(
                            " Scanning that much faster would need about {} MB/s; the {} MB/s channel caps it (the R7 case).",
                            f0(wanted),
                            f0(ch)
                        ));
                        h = h.severity(Severity::Warning);
                    } else {
                        msg.push_str(&format!(
                            " At flash speed the scans would need about {} MB/s, within the {} MB/s channel.",
                            f0(wanted),
                            f0(ch)
                        ));
                    }
                }
                _ => msg.push_str(&format!(
                    " At flash speed the scans would need about {} MB/s: check that against the channel with --channel-mbps.",
                    f0(wanted)
                )),
            }
        }
        h.message = msg;
        if let Some(o) = option(ctx, &["whole-db"]) {
            h = h.projection(Some(o.projection.clone()));
        }
        h = h.fix(
            "Put the scanned tables (Segments by Direct Physical Reads / Table Scans) on flash, keeping the channel bandwidth in view; parallel scans gain most when CPU and channel have headroom.",
            Vec::new(),
        );
        vec![h]
    }
}
