//! What to move: hot segments, or hot tablespaces without segment
//! statistics; TEMP, UNDO and the recovery area (002 "Database components
//! for SSD"; 000 section 8).

use awrflash_model::{FileIoRow, IoStatRow, Severity};
use serde::Deserialize;

use super::{Check, Ctx, Hit, derived, row_ev};
use crate::segments::{FLASH_TS, read_key};
use crate::util::{f0, f1, ident, lit};
use awrflash_facts::{IntervalFacts, MULTIBLOCK, SINGLE_BLOCK, TEMP, ratio};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HotSegments {
    read_share_pct_min: f64,
    listed_max: usize,
    gain_pct_min: f64,
}

/// Percent of DB time the projection saves (mid of its range).
fn saved_pct(p: &awrflash_model::Projection) -> f64 {
    (1.0 - 0.5 * (p.response_ratio_low + p.response_ratio_high)) * 100.0
}

/// The listed segments' statements, as a sentence: which statements name
/// the first few segments (a textual match on the SQL text).
fn statements_sentence(list: &[awrflash_model::SegmentToMove]) -> String {
    let mut parts = Vec::new();
    for s in list.iter().take(3) {
        let named: Vec<String> = s
            .statements
            .iter()
            .take(2)
            .map(|q| {
                let what: Vec<String> = q
                    .module
                    .iter()
                    .cloned()
                    .chain(
                        q.pct_of_reads
                            .map(|p| format!("{}% of physical reads", f1(p))),
                    )
                    .collect();
                if what.is_empty() {
                    q.sql_id.clone()
                } else {
                    format!("{} ({})", q.sql_id, what.join(", "))
                }
            })
            .collect();
        if !named.is_empty() {
            parts.push(format!("{} by {}", s.object, named.join(", ")));
        }
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(
            " Read most likely by the statements whose SQL text names them (a textual match): {}.",
            parts.join("; ")
        )
    }
}

/// Whether tablespaces stand in for the segments: the report has
/// tablespace statistics and the listed move candidates carry less of the
/// read requests than AF031's `segment_read_share_pct_max`.
fn tablespaces_stand_in(ctx: &Ctx) -> Option<f64> {
    let max = crate::catalogue::threshold("AF031", "segment_read_share_pct_max").ok()?;
    let cov = ctx.plan.ranked.read_share * 100.0;
    let has_ts = ctx.w.report.tablespace_io.iter().any(|r| r.reads.is_some());
    (has_ts && read_key(ctx.w).is_some() && cov < max).then_some(max)
}

impl Check for HotSegments {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let list = &ctx.plan.ranked.list;
        if list.is_empty() || tablespaces_stand_in(ctx).is_some() {
            return Vec::new();
        }
        let mut names: Vec<&str> = SINGLE_BLOCK.to_vec();
        names.extend(MULTIBLOCK);
        let read_share = w.share_pct(&names);
        if read_share < self.read_share_pct_min {
            return Vec::new();
        }
        let cov = ctx.plan.ranked.read_share * 100.0;
        let sized = list.iter().any(|s| s.saved_s_per_gb.is_some());
        let basis = read_key(w).unwrap_or("physical_writes").replace('_', " ");
        let saved: f64 = list
            .iter()
            .filter(|s| s.fits_budget != Some(false))
            .filter_map(|s| s.saved_s)
            .sum();
        let mut msg = format!(
            "{} segments carry {}% of the database's read requests ({}) and would save about {} s of DB time on flash ({}% of it): ranked by projected time saved{}, indexes first only on ties. Reads are {}% of DB time.",
            list.len(),
            f1(cov),
            basis,
            f0(saved),
            f1(ratio(saved, w.db_time()) * 100.0),
            if sized { " per GB" } else { "" },
            f1(read_share)
        );
        msg.push_str(&statements_sentence(list));
        let set_aside = &ctx.plan.ranked.set_aside;
        if !set_aside.is_empty() {
            let names: Vec<String> = set_aside
                .iter()
                .map(|s| format!("{}.{}", s.owner, s.object))
                .collect();
            msg.push_str(&format!(
                " Set aside, not moved: {} (read mainly by Oracle maintenance or monitoring work, see AF032).",
                names.join(", ")
            ));
        }
        if sized {
            let total: f64 = list
                .iter()
                .filter(|s| s.fits_budget != Some(false))
                .filter_map(|s| s.size_gb)
                .sum();
            msg.push_str(&format!(
                " Sizes from the segment list: {} GB chosen{}.",
                f1(total),
                ctx.opts
                    .flash_capacity_gb
                    .map(|b| format!(" within the {} GB flash budget", f0(b)))
                    .unwrap_or_default()
            ));
        }
        let mut h = Hit::new(msg);
        for s in list.iter().take(self.listed_max) {
            // A segment pulled in from the write list shows its writes.
            let (v, what) = match (s.read_requests, s.physical_writes) {
                (Some(v), _) => (v, "read requests"),
                (None, Some(v)) => (v, "physical writes"),
                (None, None) => continue,
            };
            h = h.ev(awrflash_model::Evidence {
                label: format!("{}.{} {what}", s.owner, s.object),
                value: awrflash_facts::round(v),
                unit: what.split(' ').next_back().unwrap_or(what).into(),
                src: s.src.clone(),
                derived_from: None,
            });
        }
        h = h
            .ev(derived(
                "read requests covered by the listed segments",
                cov,
                "%",
                "sum of the segments' % of total",
            ))
            .ev(derived(
                "DB time the listed segments would save",
                saved,
                "s",
                "each segment's % of read requests x the projected saving of all read waits, plus its % of physical writes x that of all write waits (the whole-database option's steps)",
            ));
        let mut sql = vec![format!(
            "CREATE TABLESPACE {FLASH_TS} DATAFILE '+FLASH' SIZE 10G AUTOEXTEND ON; -- on the flash device"
        )];
        sql.extend(
            list.iter()
                .filter(|s| s.fits_budget != Some(false))
                .filter_map(|s| s.sql.clone()),
        );
        let p = ctx.projection_of(&["hot-segments"]);
        if p.as_ref().is_some_and(|p| saved_pct(p) < self.gain_pct_min) {
            return Vec::new();
        }
        if let Some(p) = &p
            && ratio(p.db_time_after_high_s, p.db_time_before_s) < 0.7
        {
            h = h.severity(Severity::Critical);
        }
        h = h
            .projection(p)
            .fix(
                "Create a tablespace on flash and move these segments there, in the order listed (online rebuild/move where the release allows).",
                sql,
            );
        vec![h]
    }
}

fn io_total(r: &FileIoRow) -> f64 {
    r.reads.unwrap_or(0.0) + r.writes.unwrap_or(0.0)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HotTablespaces {
    read_share_pct_min: f64,
    listed_max: usize,
    gain_pct_min: f64,
    segment_read_share_pct_max: f64,
    flat_ratio_max: f64,
}

impl Check for HotTablespaces {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        // Without segment statistics, or when the listed move candidates
        // carry little of the reads, the tablespaces stand in.
        let no_segments = read_key(w).is_none();
        let seg_cov = ctx.plan.ranked.read_share * 100.0;
        if w.report.tablespace_io.is_empty()
            || !(no_segments || seg_cov < self.segment_read_share_pct_max)
        {
            return Vec::new();
        }
        let mut names: Vec<&str> = SINGLE_BLOCK.to_vec();
        names.extend(MULTIBLOCK);
        let read_share = w.share_pct(&names);
        if read_share < self.read_share_pct_min {
            return Vec::new();
        }
        let total: f64 = w.report.tablespace_io.iter().filter_map(|r| r.reads).sum();
        if total <= 0.0 {
            return Vec::new();
        }
        let whole = ctx.projection_of(&["whole-db"]);
        if whole
            .as_ref()
            .is_some_and(|p| saved_pct(p) < self.gain_pct_min)
        {
            return Vec::new();
        }
        // Tempfiles are AF040's and cannot be moved as datafiles.
        let mut rows: Vec<&FileIoRow> = w
            .report
            .tablespace_io
            .iter()
            .filter(|r| r.reads.is_some_and(|v| v > 0.0))
            .filter(|r| !r.tablespace.to_ascii_uppercase().contains("TEMP"))
            .collect();
        rows.sort_by(|a, b| {
            b.reads
                .unwrap_or(0.0)
                .total_cmp(&a.reads.unwrap_or(0.0))
                .then(a.tablespace.cmp(&b.tablespace))
        });
        // The busiest tablespaces up to the coverage the segments aim at.
        let mut top: Vec<&FileIoRow> = Vec::new();
        let mut cum = 0.0;
        for r in rows {
            if top.len() >= self.listed_max
                || (cum >= crate::projection::SEGMENT_COVERAGE_PCT && !top.is_empty())
            {
                break;
            }
            cum += r.reads.unwrap_or(0.0) * 100.0 / total;
            top.push(r);
        }
        if top.is_empty() {
            return Vec::new();
        }
        let cov = cum;
        let unit = &ctx.plan.ranked.unit;
        let el = w.elapsed();
        let rate = |r: &FileIoRow| {
            r.reads_per_s
                .or_else(|| r.reads.filter(|_| el > 0.0).map(|v| v / el))
        };
        let parts: Vec<String> = top
            .iter()
            .map(|r| {
                let pct = r.reads.unwrap_or(0.0) * 100.0 / total;
                format!(
                    "{} ({}{}% of reads, about {} s saved)",
                    r.tablespace,
                    rate(r)
                        .map(|v| format!("{} reads/s, ", f0(v)))
                        .unwrap_or_default(),
                    f1(pct),
                    f0(unit.saved(pct, 0.0))
                )
            })
            .collect();
        let saved = unit.saved(cov, 0.0);
        let rates: Vec<f64> = top.iter().filter_map(|r| rate(r)).collect();
        let lo = rates.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = rates.iter().copied().fold(0.0, f64::max);
        let flat = rates.len() >= 3 && lo > 0.0 && hi / lo <= self.flat_ratio_max;
        let why = if no_segments {
            "The report has no segment statistics (Statspack below level 7, or the sections are missing), so tablespaces and their files stand in".to_string()
        } else {
            format!(
                "The listed segments carry only {}% of the read requests (under the {}% at which moving single segments pays){}, so tablespaces and their files stand in",
                f1(seg_cov),
                f0(self.segment_read_share_pct_max),
                if flat {
                    format!(
                        " and the load is flat: the busiest tablespaces read {}-{} reads/s each",
                        f0(lo),
                        f0(hi)
                    )
                } else {
                    String::new()
                }
            )
        };
        let mut h = Hit::new(format!(
            "{why}: {} carry {}% of the reads and would save about {} s of DB time on flash. Reads are {}% of DB time.",
            parts.join(", "),
            f1(cov),
            f0(saved),
            f1(read_share)
        ));
        for r in &top {
            if let Some(v) = r.reads {
                h = h.ev(row_ev(
                    format!("{} reads", r.tablespace),
                    v,
                    "reads",
                    w.src(&r.src),
                ));
            }
            if let Some(v) = r.avg_read_ms {
                h = h.ev(row_ev(
                    format!("{} avg read", r.tablespace),
                    v,
                    "ms",
                    w.src(&r.src),
                ));
            }
        }
        h = h.ev(derived(
            "DB time the listed tablespaces would save",
            saved,
            "s",
            "the tablespaces' % of read requests x the projected saving of all read waits (the whole-database option's steps)",
        ));
        let names_list: Vec<String> = top.iter().map(|r| r.tablespace.to_string()).collect();
        let sql = datafile_moves(w, &names_list);
        h = h
            .projection(whole)
            .fix(
                "Move the datafiles of these tablespaces to flash (online datafile move from 12.1, keeping each file's size; RMAN backup as copy and switch before), or, without segment statistics, take a level 7 snapshot/AWR with segment statistics to move single segments instead.",
                sql,
            );
        vec![h]
    }
}

/// The move of one datafile: online from 12.1 (the file keeps its size),
/// else the RMAN copy-and-switch steps. `+FLASH` stands for the flash disk
/// group or directory.
fn datafile_move(w: &IntervalFacts, file: &str) -> String {
    // ALTER DATABASE MOVE DATAFILE is 12.1 and later.
    if crate::segments::release_at_least(w, 12, 1) {
        format!(
            "ALTER DATABASE MOVE DATAFILE {} TO '+FLASH'; -- +FLASH: the flash disk group or directory",
            lit(file)
        )
    } else {
        let f = lit(file);
        format!(
            "-- before 12.1, in RMAN: BACKUP AS COPY DATAFILE {f} FORMAT '+FLASH'; SQL {}; SWITCH DATAFILE {f} TO COPY; RECOVER DATAFILE {f}; SQL {};",
            lit(&format!("ALTER DATABASE DATAFILE {f} OFFLINE")),
            lit(&format!("ALTER DATABASE DATAFILE {f} ONLINE"))
        )
    }
}

fn datafile_moves(w: &IntervalFacts, tablespaces: &[String]) -> Vec<String> {
    let files: Vec<&FileIoRow> = w
        .report
        .file_io
        .iter()
        .filter(|f| {
            tablespaces
                .iter()
                .any(|t| t.eq_ignore_ascii_case(&f.tablespace))
        })
        .filter(|f| f.file.is_some())
        .collect();
    if files.is_empty() {
        return tablespaces
            .iter()
            .map(|t| {
                format!(
                    "-- tablespace {t}: move each of its datafiles (SELECT file_name FROM dba_data_files WHERE tablespace_name = {}), e.g. ALTER DATABASE MOVE DATAFILE '<file>' TO '+FLASH';",
                    lit(t)
                )
            })
            .collect();
    }
    let mut seen = std::collections::BTreeSet::new();
    files
        .iter()
        .filter_map(|f| f.file.as_deref())
        .filter(|f| seen.insert(f.to_string()))
        .map(|f| datafile_move(w, f))
        .collect()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TempIo {
    share_pct_min: f64,
    tablespace_share_pct_min: f64,
}

fn ts_share<'a>(
    w: &IntervalFacts<'a>,
    pred: impl Fn(&str) -> bool,
) -> Option<(f64, Vec<&'a FileIoRow>)> {
    let total: f64 = w.report.tablespace_io.iter().map(io_total).sum();
    if total <= 0.0 {
        return None;
    }
    let rows: Vec<&FileIoRow> = w
        .report
        .tablespace_io
        .iter()
        .filter(|r| pred(&r.tablespace.to_ascii_uppercase()))
        .collect();
    let s: f64 = rows.iter().map(|r| io_total(r)).sum();
    Some((s * 100.0 / total, rows))
}

impl Check for TempIo {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let share = w.share_pct(TEMP);
        let ts = ts_share(w, |t| t.contains("TEMP"));
        let ts_pct = ts.as_ref().map_or(0.0, |x| x.0);
        if share < self.share_pct_min && ts_pct < self.tablespace_share_pct_min {
            return Vec::new();
        }
        let mut h = Hit::new(format!(
            "Temporary I/O (sorts, hash joins spilling to disk) takes {}% of DB time and {}% of the tablespace I/O: TEMP is a flash candidate of its own.",
            f1(share),
            f1(ts_pct)
        ));
        for e in w.events_in(TEMP) {
            h = h
                .ev(e.time_num().evidence(&format!("{} time", e.name), "s"))
                .ev(e.avg_num().evidence(&format!("{} avg wait", e.name), "ms"));
        }
        if let Some((_, rows)) = &ts {
            for r in rows {
                h = h.ev(row_ev(
                    format!("{} reads + writes", r.tablespace),
                    io_total(r),
                    "I/Os",
                    w.src(&r.src),
                ));
            }
        }
        h = h
            .projection(
                ctx.projection_of(&["temp"]),
            )
            .fix(
                "Create a temporary tablespace on flash and make it the default (check first whether a larger PGA removes the spills).",
                vec![
                    "CREATE TEMPORARY TABLESPACE TEMP_FLASH TEMPFILE '+FLASH' SIZE 32G AUTOEXTEND ON;".into(),
                    "ALTER DATABASE DEFAULT TEMPORARY TABLESPACE TEMP_FLASH;".into(),
                ],
            );
        vec![h]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UndoIo {
    tablespace_share_pct_min: f64,
}

impl Check for UndoIo {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let Some((pct, rows)) = ts_share(w, |t| t.contains("UNDO")) else {
            return Vec::new();
        };
        if pct < self.tablespace_share_pct_min || rows.is_empty() {
            return Vec::new();
        }
        let mut h = Hit::new(format!(
            "The undo tablespace carries {}% of the tablespace I/O: UNDO is a flash candidate of its own (in the seed, TEMP and UNDO on SSD made index creation 20% faster).",
            f1(pct)
        ));
        for r in &rows {
            h = h.ev(row_ev(
                format!("{} reads + writes", r.tablespace),
                io_total(r),
                "I/Os",
                w.src(&r.src),
            ));
        }
        h = h.ev(derived(
            "undo share of tablespace I/O",
            pct,
            "%",
            "undo reads + writes / all tablespace reads + writes",
        ));
        let name = rows
            .first()
            .map(|r| r.tablespace.clone())
            .unwrap_or_default();
        h = h.fix(
            format!("Create an undo tablespace on flash and switch to it (the old one, {name}, can be dropped once its undo has expired)."),
            vec![
                "CREATE UNDO TABLESPACE UNDO_FLASH DATAFILE '+FLASH' SIZE 16G AUTOEXTEND ON;".into(),
                "ALTER SYSTEM SET undo_tablespace = 'UNDO_FLASH' SCOPE = BOTH;".into(),
                format!("-- later: DROP TABLESPACE {} INCLUDING CONTENTS AND DATAFILES;", ident(&name)),
            ],
        );
        vec![h]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecoveryAreaIo {
    share_pct_min: f64,
}

fn mb(r: &IoStatRow) -> f64 {
    r.reads_mb.unwrap_or(0.0) + r.writes_mb.unwrap_or(0.0)
}

fn is_total(s: Option<&String>) -> bool {
    s.is_some_and(|x| x.trim().to_ascii_uppercase().starts_with("TOTAL"))
}

impl Check for RecoveryAreaIo {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        let (rows, by_function): (&[IoStatRow], bool) = if !w.report.iostat_function.is_empty() {
            (&w.report.iostat_function, true)
        } else {
            (&w.report.iostat_filetype, false)
        };
        let total: f64 = rows
            .iter()
            .filter(|r| !is_total(r.function.as_ref()) && !is_total(r.filetype.as_ref()))
            .map(mb)
            .sum();
        if total <= 0.0 {
            return Vec::new();
        }
        let hit = |r: &&IoStatRow| {
            let name = if by_function {
                r.function.clone()
            } else {
                r.filetype.clone()
            }
            .unwrap_or_default()
            .to_ascii_uppercase();
            name == "ARCH"
                || name == "RMAN"
                || name.contains("ARCHIVE")
                || name.contains("BACKUP")
                || name.contains("FLASHBACK")
                || name.contains("COPY")
        };
        let sel: Vec<&IoStatRow> = rows.iter().filter(hit).collect();
        let s: f64 = sel.iter().map(|r| mb(r)).sum();
        let pct = s * 100.0 / total;
        if pct < self.share_pct_min {
            return Vec::new();
        }
        let mut h = Hit::new(format!(
            "Archiving, backup and flashback I/O is {}% of the database's I/O volume ({} MB): the recovery area is a flash candidate (in the seed, RMAN backup ran in 30 instead of 60 minutes on flash).",
            f1(pct),
            f0(s)
        ))
        .severity(Severity::Info);
        for r in &sel {
            let name = r
                .function
                .clone()
                .or_else(|| r.filetype.clone())
                .unwrap_or_default();
            h = h.ev(row_ev(
                format!("{name} MB read + written"),
                mb(r),
                "MB",
                w.src(&r.src),
            ));
        }
        vec![recovery_area_fix(h, w)]
    }
}

/// The recovery-area move, sized from the report's own
/// `db_recovery_file_dest_size` (the larger of its begin and end values):
/// the flash area is never proposed smaller than today's, and with no
/// current value in the report no size is emitted at all.
fn recovery_area_fix(h: Hit, w: &IntervalFacts) -> Hit {
    let dest = "ALTER SYSTEM SET db_recovery_file_dest = '+FLASH' SCOPE = BOTH; -- +FLASH: the flash disk group or directory".to_string();
    match current_recovery_area_gb(w) {
        Some(gb) => h.fix(
            format!(
                "Put the fast recovery area (archived logs, backups, flashback logs) on flash, or at least off the devices the datafiles use, with at least its current size ({} GB, db_recovery_file_dest_size in the report's parameters).",
                f0(gb)
            ),
            vec![
                format!("ALTER SYSTEM SET db_recovery_file_dest_size = {}G SCOPE = BOTH;", f0(gb)),
                dest,
            ],
        ),
        None => h.fix(
            "Put the fast recovery area (archived logs, backups, flashback logs) on flash, or at least off the devices the datafiles use. The report does not show db_recovery_file_dest_size, so no size is proposed: give the flash area at least the current size (SHOW PARAMETER db_recovery_file_dest_size).",
            vec![dest],
        ),
    }
}

/// The current recovery-area size in whole GB, rounded up so it never
/// shrinks; `None` when the report has no parseable positive value.
fn current_recovery_area_gb(w: &IntervalFacts) -> Option<f64> {
    let p = w.report.parameter("db_recovery_file_dest_size")?;
    let begin = awrflash_facts::parse_size(&p.value);
    let end = p.end_value.as_deref().and_then(awrflash_facts::parse_size);
    let bytes = match (begin, end) {
        (Some(a), Some(b)) => a.max(b),
        (a, b) => a.or(b)?,
    };
    (bytes > 0.0).then(|| (bytes / 1_073_741_824.0).ceil())
}
