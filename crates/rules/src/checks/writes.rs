//! Writes: DBWR falling behind (free buffer / write complete waits), flash
//! cache write-complete waits, and the device class a write-heavy workload
//! needs (001; 000 2.1; 002).

use awrflash_model::{Evidence, Severity};
use serde::Deserialize;

use super::{Check, Ctx, Hit, derived, row_ev};
use crate::util::{f0, f1, f2, ident};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DbwrWriteBound {
    share_pct_min: f64,
    share_pct_critical: f64,
    listed_max: usize,
}

impl Check for DbwrWriteBound {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let names = ["free buffer waits", "write complete waits"];
        let share = w.share_pct(&names);
        if share < self.share_pct_min {
            return Vec::new();
        }
        let mut h = Hit::new(format!(
            "free buffer waits and write complete waits take {}% of DB time: DBWR cannot write dirty buffers out fast enough, so sessions wait for free buffers. The database is write-bound at the datafiles; a Smart Flash Cache will not help (a busy DBWR skips flash cache inserts, and the flash cache run had the most free buffer waits in the seed).",
            f1(share)
        ));
        for e in w.events_in(&names) {
            h = h
                .ev(e.time_num().evidence(&format!("{} time", e.name), "s"))
                .ev(e.pct_num().evidence(&format!("{} % DB time", e.name), "%"));
        }
        if let Some(b) = w.background("db file parallel write") {
            h = h.ev(b
                .avg_num()
                .evidence("db file parallel write avg wait (DBWR)", "ms"));
        }
        let written = ["physical_writes", "physical_write_requests"]
            .iter()
            .find_map(|k| w.report.segments.get(*k).filter(|r| !r.is_empty()));
        let mut sql = Vec::new();
        if let Some(rows) = written {
            for r in rows.iter().take(self.listed_max) {
                h = h.ev(row_ev(
                    format!("{}.{} physical writes", r.owner, r.object),
                    r.value.unwrap_or(0.0),
                    "writes",
                    w.src(&r.src),
                ));
                let obj = format!("{}.{}", ident(&r.owner), ident(&r.object));
                sql.push(if crate::segments::is_index(&r.object_type) {
                    format!(
                        "ALTER INDEX {obj} REBUILD TABLESPACE {} ONLINE;",
                        crate::segments::FLASH_TS
                    )
                } else {
                    format!(
                        "ALTER TABLE {obj} MOVE TABLESPACE {}; -- then rebuild its indexes",
                        crate::segments::FLASH_TS
                    )
                });
            }
        }
        if let Some(p) = w.report.parameter("db_writer_processes") {
            h = h.ev(Evidence {
                label: "db_writer_processes".into(),
                value: p.value.trim().parse::<f64>().unwrap_or(0.0),
                unit: "processes".into(),
                src: Some(w.src(&p.src)),
                derived_from: None,
            });
        }
        sql.push("-- and, if the host has CPU to spare: ALTER SYSTEM SET db_writer_processes = <n> SCOPE = SPFILE;".into());
        if share >= self.share_pct_critical {
            h = h.severity(Severity::Critical);
        }
        h = h
            .projection(
                ctx.projection_of(&["hot-segments", "whole-db"]),
            )
            .fix(
                "Move the most-written segments (or their datafiles) to flash with good write latency (SLC/enterprise class); do not count on the Smart Flash Cache here.",
                sql,
            );
        vec![h]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlashCacheWriteComplete {
    share_pct_min: f64,
}

impl Check for FlashCacheWriteComplete {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let Some(e) = w.event("write complete waits: flash cache") else {
            return Vec::new();
        };
        if e.pct_db_time < self.share_pct_min {
            return Vec::new();
        }
        vec![
            Hit::new(format!(
                "'write complete waits: flash cache' takes {}% of DB time ({} ms average): sessions modify hot blocks while DBWR is writing them to the flash cache. Blocks changed at a very high rate do not belong in the flash cache.",
                f1(e.pct_db_time),
                f2(e.avg_ms)
            ))
            .ev(e.pct_num().evidence("write complete waits: flash cache % DB time", "%"))
            .ev(e.avg_num().evidence("write complete waits: flash cache avg wait", "ms"))
            .fix(
                "Keep the hottest updated segments out of the flash cache (put them on flash storage directly, or keep them in the buffer cache), e.g. with the segment-level FLASH_CACHE storage attribute.",
                vec!["ALTER TABLE <owner>.<hot_table> STORAGE (FLASH_CACHE NONE);".into()],
            ),
        ]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WriteHeavyDevice {
    write_share_pct_min: f64,
    write_latency_ms_high: f64,
    write_iops_min: f64,
}

impl Check for WriteHeavyDevice {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let (Some(r), Some(wr)) = (&w.read_iops, &w.write_iops) else {
            return Vec::new();
        };
        let total = r.value + wr.value;
        if total <= 0.0 {
            return Vec::new();
        }
        let share = wr.value * 100.0 / total;
        if share < self.write_share_pct_min || wr.value < self.write_iops_min {
            return Vec::new();
        }
        let dbwr = w.background("db file parallel write");
        let slow = dbwr
            .as_ref()
            .is_some_and(|e| e.avg_ms >= self.write_latency_ms_high);
        let mut msg = format!(
            "Writes are {}% of the I/O requests ({} of {} per second). Flash is not to be avoided for writes, but a write-heavy workload needs enterprise (SLC-class) devices with TRIM and wear levelling, and a larger reserve (over-provisioned) area for sustained random writes; consumer-grade drives fill the buffer cache with dirty blocks (free buffer waits).",
            f1(share),
            f0(wr.value),
            f0(total)
        );
        if slow {
            msg.push_str(&format!(
                " DBWR's writes average {} ms today.",
                f2(dbwr.as_ref().map_or(0.0, |e| e.avg_ms))
            ));
        }
        let mut h = Hit::new(msg)
            .ev(r.evidence("read requests per second", "IOPS"))
            .ev(wr.evidence("write requests per second", "IOPS"))
            .ev(derived(
                "write share of I/O requests",
                share,
                "%",
                "write IOPS / (read + write IOPS)",
            ));
        if let Some(d) = &dbwr {
            h = h.ev(d
                .avg_num()
                .evidence("db file parallel write avg wait", "ms"));
        }
        if slow {
            h = h.severity(Severity::Warning);
        }
        // Device-specific commands only when that device is the chosen target.
        let sql = if ctx.flash.name.starts_with("fusionio") {
            vec!["# FusionIO: fio-detach /dev/fct0; fio-format -s <usable size> /dev/fct0; fio-attach /dev/fct0".into()]
        } else {
            Vec::new()
        };
        vec![h.fix(
            "Choose enterprise flash rated for the write rate; on configurable devices enlarge the reserve area (format to less usable capacity) and size for $/IOPS, not $/GB.",
            sql,
        )]
    }
}
