//! The options left on Exadata, where the storage cells' flash already
//! serves most reads: keeping the hot segments' unoptimized reads in the
//! cell flash (`CELL_FLASH_CACHE KEEP`), Smart Flash Log for the redo
//! writes and the write-back flash cache for DBWR's and direct-path writes.
//! None of them moves a file to another device. No seed measures Exadata
//! cell flash: the projection is the seeds' device-replacement model (000
//! section 2.1) applied to the waits the cells still serve from disk, with
//! the editable `exadata-cell-flash` profile.

use awrflash_model::{OptionProjection, SegmentToMove};

use super::{Affected, Mode, Plan, option};
use crate::devices::DeviceProfile;
use crate::platform::cell_flash_share;
use crate::util::{f1, ident};
use awrflash_facts::{IntervalFacts, SINGLE_BLOCK};

/// Option keys.
pub const KEEP: &str = "cell-flash-keep";
pub const FLASH_LOG: &str = "smart-flash-log";
pub const WRITE_BACK: &str = "write-back-flash-cache";

/// The Exadata option set of the workload `w` (replaces the device moves).
pub fn options(w: &IntervalFacts, dev: &DeviceProfile, p: &Plan) -> Vec<OptionProjection> {
    let mut out = Vec::new();
    if w.db_time() <= 0.0 || w.events.is_empty() {
        return out;
    }
    let bs_kb = w.block_size / 1024.0;
    // Unoptimized single-block reads: the hot segments' share of them.
    let singles = w.events_in(SINGLE_BLOCK);
    if !singles.is_empty() {
        let (in_budget, seg_share) = p.ranked.in_budget();
        let unopt = cell_flash_share(w).map(|c| 1.0 - c.pct / 100.0);
        // Which "Segments by ..." list ranked them.
        let of = if in_budget.iter().any(|s| {
            s.src
                .as_ref()
                .is_some_and(|x| x.section.to_ascii_lowercase().contains("unoptimized"))
        }) {
            "unoptimized read requests"
        } else {
            "read requests"
        };
        let (share, title, how) = if in_budget.is_empty() || seg_share <= 0.0 {
            let s = unopt.unwrap_or(1.0);
            (
                s,
                "Serve the unoptimized single-block reads from cell flash (CELL_FLASH_CACHE KEEP for the segments that take them)".to_string(),
                format!(
                    "share of single-block read waits affected = the unoptimized share of read requests ({}%)",
                    f1(s * 100.0)
                ),
            )
        } else {
            (
                seg_share,
                format!(
                    "Keep the {} hottest segments in cell flash (CELL_FLASH_CACHE KEEP; {}% of {of})",
                    in_budget.len(),
                    f1(seg_share * 100.0)
                ),
                format!(
                    "share of single-block read waits affected = the listed segments' share of {of} ({}%)",
                    f1(seg_share * 100.0)
                ),
            )
        };
        let aff = singles
            .iter()
            .map(|e| Affected {
                ev: e,
                share,
                mode: Mode::Read(bs_kb),
            })
            .collect();
        let mut o = option(w, dev, p, KEEP, &title, aff);
        o.notes.push(how);
        o.notes.push("reads the wait histogram shows at or below the cell flash latency are already optimized and stay as they are; the rest move to the profile's cell flash read time".into());
        out.push(o);
    }
    // Redo: Smart Flash Log acknowledges the redo write from the first of
    // flash or disk to finish.
    // The commit model of the redo option, with the cell flash's write
    // time: only the redo write changes, the queue behind it follows, the
    // posting and scheduling time stay.
    if let Some(mut o) = crate::redoproj::redo_option(w, dev, p) {
        o.key = FLASH_LOG.into();
        o.title = "Redo writes acknowledged from cell flash (Smart Flash Log)".into();
        o.notes.push("Smart Flash Log is on by default from Exadata storage software 11.2.2.4: if it is, a slow log file parallel write points at the cells' flash log or the disk groups, not at a missing feature (check with CellCLI LIST FLASHLOG)".into());
        out.push(o);
    }
    // Writes: the write-back flash cache absorbs DBWR's and direct-path
    // writes.
    let dbwr = w
        .background("db file parallel write")
        .map(|e| e.avg_ms)
        .filter(|v| *v > 0.0);
    let mut aff = Vec::new();
    for name in ["free buffer waits", "write complete waits"] {
        if let (Some(e), Some(d)) = (w.event(name), dbwr) {
            aff.push(Affected {
                ev: e,
                share: 1.0,
                mode: Mode::DbwrBound { dbwr_avg_ms: d },
            });
        }
    }
    if let Some(e) = w.event("direct path write") {
        aff.push(Affected {
            ev: e,
            share: 1.0,
            mode: Mode::Write(w.multiblock_read_kb().value),
        });
    }
    if aff.iter().any(|a| a.ev.waits > 0.0) {
        let mut o = option(
            w,
            dev,
            p,
            WRITE_BACK,
            "Write-back cell flash cache (DBWR and direct-path writes absorbed by cell flash)",
            aff,
        );
        o.notes.push("write-back mode is set per cell (CellCLI ALTER CELL flashCacheMode = WriteBack); if the cells already run it, these waits are not the disks' and the projection does not apply".into());
        out.push(o);
    }
    super::rank_options(&mut out);
    out
}

/// The statement that keeps a hot segment in the cell flash cache
/// (`CELL_FLASH_CACHE KEEP` in the segment's storage clause); a comment for
/// a LOB or subpartition, whose storage is set through its table or
/// partition.
pub fn keep_sql(s: &SegmentToMove) -> String {
    let obj = format!("{}.{}", ident(&s.owner), ident(&s.object));
    let t = s.object_type.to_ascii_uppercase();
    let what = if t.contains("INDEX") {
        "INDEX"
    } else {
        "TABLE"
    };
    let keep = "STORAGE (CELL_FLASH_CACHE KEEP);";
    match s.subobject.as_deref().map(ident) {
        _ if t.contains("LOB") => format!(
            "-- LOB segment {obj}: ALTER TABLE <owning table> MODIFY LOB (<column>) (STORAGE (CELL_FLASH_CACHE KEEP));"
        ),
        Some(p) if t.contains("SUBPARTITION") => format!(
            "-- subpartition {p} of {obj}: ALTER {what} {obj} MODIFY PARTITION <its partition> {keep}"
        ),
        Some(p) => format!("ALTER {what} {obj} MODIFY PARTITION {p} {keep}"),
        None => format!("ALTER {what} {obj} {keep}"),
    }
}

#[cfg(test)]
mod tests {
    use super::keep_sql;
    use awrflash_model::SegmentToMove;

    fn seg(object_type: &str, subobject: Option<&str>) -> SegmentToMove {
        SegmentToMove {
            owner: "APP".into(),
            object: "LINES".into(),
            subobject: subobject.map(String::from),
            object_type: object_type.into(),
            ..SegmentToMove::default()
        }
    }

    #[test]
    fn keep_statements_follow_the_segment_kind() {
        assert_eq!(
            keep_sql(&seg("TABLE PARTITION", Some("P2024Q1"))),
            "ALTER TABLE \"APP\".\"LINES\" MODIFY PARTITION \"P2024Q1\" STORAGE (CELL_FLASH_CACHE KEEP);"
        );
        assert_eq!(
            keep_sql(&seg("INDEX", None)),
            "ALTER INDEX \"APP\".\"LINES\" STORAGE (CELL_FLASH_CACHE KEEP);"
        );
        assert!(keep_sql(&seg("TABLE SUBPARTITION", Some("S1"))).starts_with("-- subpartition"));
        assert!(keep_sql(&seg("LOB", None)).starts_with("-- LOB segment"));
    }
}
