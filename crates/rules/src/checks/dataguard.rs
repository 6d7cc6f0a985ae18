//! A Data Guard primary: redo advice keeps the standby redo logs and the
//! redo transport in mind (no seed covers Data Guard; 004 on multiplexing).

use serde::Deserialize;

use super::{Check, Ctx, Hit, row_ev};
use crate::dataguard;
use crate::util::f1;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataGuardPrimary {
    log_file_sync_share_pct_min: f64,
}

/// Read-only queries of today's redo layout (the report does not show it).
pub const LAYOUT_SQL: &[&str] = &[
    "SELECT thread#, group#, bytes/1048576 AS mb, members, status FROM v$log ORDER BY thread#, group#;",
    "SELECT group#, type, member FROM v$logfile ORDER BY group#, member;",
    "SELECT thread#, group#, bytes/1048576 AS mb, status FROM v$standby_log ORDER BY thread#, group#;",
];

impl Check for DataGuardPrimary {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let Some(p) = dataguard::primary(w) else {
            return Vec::new();
        };
        let Some(lfs) = w
            .event("log file sync")
            .filter(|e| e.pct_db_time >= self.log_file_sync_share_pct_min)
        else {
            return Vec::new();
        };
        let sync = if p.sync() {
            " With SYNC transport, log file sync also waits for the standby's network round trip and write, which no local flash shortens."
        } else {
            ""
        };
        let mut h = Hit::new(format!(
            "This database is a Data Guard primary ({}). log file sync takes {}% of DB time, so redo advice applies, and any change to the online redo logs (size, block size, device) needs standby redo logs to match: same size, one more group per thread than the online groups, on this database and on every standby; otherwise the standby falls back from real-time apply and a role switch finds no fitting standby redo logs.{sync} Keep every group multiplexed as today: never a single unmultiplexed group.",
            p.describe(),
            f1(lfs.pct_db_time)
        ))
        .ev(row_ev(
            "log file sync share of DB time".into(),
            lfs.pct_db_time,
            "%",
            lfs.src(),
        ));
        for d in &p.destinations {
            let n: f64 = d
                .param
                .name
                .rsplit('_')
                .next()
                .and_then(|k| k.parse().ok())
                .unwrap_or(0.0);
            h = h.ev(row_ev(
                format!("{} (SERVICE={})", d.param.name, d.service),
                n,
                "destination",
                w.src(&d.param.src),
            ));
        }
        for e in &p.transport {
            if let Some(ms) = e.avg_ms {
                h = h.ev(row_ev(
                    format!("{} average", e.name),
                    ms,
                    "ms",
                    w.src(&e.src),
                ));
            }
        }
        vec![h.fix(
            "Plan redo changes on the primary and every standby together: read today's layout first, add online and standby groups of the new size with as many members as today, switch logs until the old groups are inactive, then drop them.",
            LAYOUT_SQL.iter().map(|s| (*s).to_string()).collect(),
        )]
    }
}
