//! Segments to move: ranked by projected DB time saved (their share of the
//! read and write waits times the plan's saving), per GB and filled into
//! the flash budget when a `dba_segments` list gives sizes, indexes first
//! only on ties, with cumulative coverage; segments read mainly by Oracle
//! maintenance work set aside (002 "Database components for SSD"; 000
//! section 8).

use std::collections::BTreeMap;

use awrflash_model::{OptionProjection, SegmentRow, SegmentSizes, SegmentToMove};

use crate::util::ident;
use awrflash_facts::{IntervalFacts, MULTIBLOCK, SINGLE_BLOCK, ratio};

/// The tablespace the generated SQL moves segments into.
pub const FLASH_TS: &str = "FLASH_TS";

/// Which "Segments by ..." list ranks reads: unoptimized read requests
/// (11.2.0.2+, excludes reads already served by Exadata flash), else read
/// requests, else blocks read.
pub const READ_KEYS: &[&str] = &[
    "unoptimized_reads",
    "physical_read_requests",
    "physical_reads",
];
pub const WRITE_KEYS: &[&str] = &["physical_write_requests", "physical_writes"];

#[derive(Default)]
struct Acc {
    owner: String,
    object: String,
    subobject: Option<String>,
    object_type: String,
    tablespace: String,
    reads: Option<f64>,
    read_pct: Option<f64>,
    writes: Option<f64>,
    write_pct: Option<f64>,
    src: Option<awrflash_model::EvidenceSrc>,
}

/// Which list the read ranking came from.
pub fn read_key(w: &IntervalFacts) -> Option<&'static str> {
    READ_KEYS.iter().copied().find(|k| {
        w.report
            .segments
            .get(*k)
            .is_some_and(|rows| !rows.is_empty())
    })
}

/// The plan's projected saving over all the database's read waits and all
/// its write waits (seconds, middle of each step's range), taken from the
/// steps of the whole-database option: a segment with x% of the reads
/// saves x% of `read_s` (the per-read saving is the projection's, never
/// derived again here).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct UnitSaving {
    pub read_s: f64,
    pub write_s: f64,
}

impl UnitSaving {
    /// Seconds saved by moving what carries `read_pct`% of the read
    /// requests and `write_pct`% of the writes.
    pub fn saved(&self, read_pct: f64, write_pct: f64) -> f64 {
        (read_pct.max(0.0) * self.read_s + write_pct.max(0.0) * self.write_s) / 100.0
    }
}

/// The saving per unit share from an option that moves everything (its
/// steps at share 1): read steps are the single-block and multiblock read
/// events, write steps the foreground write waits; TEMP, commit and the
/// throughput caps are not a segment's.
pub fn unit_saving(whole: &OptionProjection) -> UnitSaving {
    let mut u = UnitSaving::default();
    for s in &whole.projection.steps {
        let name = s.component.to_ascii_lowercase();
        let mid = 0.5 * (s.saved_s_low + s.saved_s_high);
        if !mid.is_finite() || mid <= 0.0 || s.share_affected <= 0.0 {
            continue;
        }
        // Back to share 1 should the option not move everything.
        let full = mid / s.share_affected.min(1.0);
        if SINGLE_BLOCK.contains(&name.as_str()) || MULTIBLOCK.contains(&name.as_str()) {
            u.read_s += full;
        } else if awrflash_facts::WRITE_WAITS.contains(&name.as_str()) {
            u.write_s += full;
        }
    }
    u
}

/// Ranks the report's segments by projected DB time saved (per GB where
/// the size is known), indexes first only on ties. `coverage_pct`: stop
/// once the ranked segments cover this share of the database's reads.
/// Segments read mainly by Oracle maintenance or monitoring work go to
/// `set_aside`, with the fix to make instead.
pub fn rank(
    w: &IntervalFacts,
    sizes: Option<&SegmentSizes>,
    budget_gb: Option<f64>,
    coverage_pct: f64,
    max_rows: usize,
    unit: &UnitSaving,
) -> Ranked {
    let mut acc: BTreeMap<(String, String, String), Acc> = BTreeMap::new();
    let works = crate::sqlwork::works().unwrap_or_default();
    // Oracle-maintained segments are never moved; those of AWR or a
    // monitoring repository are kept to be set aside with the fix instead.
    let mut add = |rows: &[SegmentRow], is_read: bool| {
        for r in rows.iter().filter(|r| {
            movable(r) || crate::sqlwork::segment_work(works, &r.owner, &r.object).is_some()
        }) {
            let key = (
                r.owner.to_ascii_uppercase(),
                r.object.to_ascii_uppercase(),
                r.subobject.clone().unwrap_or_default().to_ascii_uppercase(),
            );
            let a = acc.entry(key).or_insert_with(|| Acc {
                owner: r.owner.to_string(),
                object: r.object.clone(),
                subobject: r.subobject.clone().filter(|s| !s.trim().is_empty()),
                object_type: r.object_type.to_string(),
                tablespace: r.tablespace.to_string(),
                src: Some(w.src(&r.src)),
                ..Acc::default()
            });
            if is_read {
                a.reads = r.value;
                a.read_pct = r.pct_total;
            } else {
                a.writes = r.value;
                a.write_pct = r.pct_total;
            }
        }
    };
    if let Some(k) = read_key(w)
        && let Some(rows) = w.report.segments.get(k)
    {
        add(rows, true);
    }
    if let Some(rows) = WRITE_KEYS
        .iter()
        .find_map(|k| w.report.segments.get(*k).filter(|r| !r.is_empty()))
    {
        add(rows, false);
    }
    let elapsed = w.elapsed();
    let mut list: Vec<(SegmentToMove, f64)> = acc
        .into_values()
        .map(|a| {
            let size_gb = sizes.and_then(|s| size_of(s, &a));
            let reqs = a.reads.unwrap_or(0.0) + a.writes.unwrap_or(0.0);
            let io_density = size_gb
                .filter(|g| *g > 0.0 && elapsed > 0.0)
                .map(|g| reqs / elapsed / g);
            let write_pct = a.write_pct.unwrap_or(0.0);
            let saved = unit.saved(a.read_pct.unwrap_or(0.0), write_pct);
            let statements = crate::sqlwork::statements_for(w, works, &a.object);
            let set_aside = set_aside_reason(works, &a, &statements);
            let seg = SegmentToMove {
                rank: 0,
                sql: Some(move_sql(&a, w)),
                owner: a.owner,
                object: a.object,
                subobject: a.subobject,
                object_type: a.object_type,
                tablespace: a.tablespace,
                read_requests: a.reads,
                physical_writes: a.writes,
                pct_of_reads: a.read_pct,
                cumulative_pct: None,
                size_gb,
                io_density,
                fits_budget: None,
                src: a.src,
                saved_s: Some(saved),
                saved_s_per_gb: size_gb.filter(|g| *g > 0.0).map(|g| saved / g),
                statements,
                set_aside,
            };
            (seg, write_pct)
        })
        .collect();
    // Projected seconds saved (per GB with sizes); with no saving projected
    // at all (no read or write waits), the combined share of the reads and
    // writes stands in. Ties (to 0.01) go to indexes: random single-block
    // access gains most (000 section 8).
    let by_sizes = list.iter().any(|s| s.0.saved_s_per_gb.is_some());
    let no_saving = unit.read_s <= 0.0 && unit.write_s <= 0.0;
    let key = |s: &(SegmentToMove, f64)| -> f64 {
        let v = if no_saving {
            s.0.pct_of_reads.unwrap_or(0.0) + s.1
        } else if by_sizes {
            s.0.saved_s_per_gb.unwrap_or(0.0)
        } else {
            s.0.saved_s.unwrap_or(0.0)
        };
        (v * 100.0).round()
    };
    list.sort_by(|a, b| {
        key(b)
            .total_cmp(&key(a))
            .then(is_index(&b.0.object_type).cmp(&is_index(&a.0.object_type)))
            .then(
                b.0.read_requests
                    .unwrap_or(0.0)
                    .total_cmp(&a.0.read_requests.unwrap_or(0.0)),
            )
            .then(a.0.owner.cmp(&b.0.owner))
            .then(a.0.object.cmp(&b.0.object))
            .then(a.0.subobject.cmp(&b.0.subobject))
    });
    // Keep the head that reaches the coverage target of the reads, and of
    // the writes when writes save time too; set aside the maintenance-read
    // segments met on the way.
    let mut kept = Vec::new();
    let mut set_aside = Vec::new();
    let (mut cum, mut cum_w) = (0.0, 0.0);
    let writes_count = unit.write_s > 0.0;
    let set_aside_min =
        crate::catalogue::threshold("AF032", "segment_share_pct_min").unwrap_or(0.0);
    for s in list {
        let covered = cum >= coverage_pct && (!writes_count || cum_w >= coverage_pct);
        if kept.len() >= max_rows || (covered && !kept.is_empty()) {
            break;
        }
        if s.0.set_aside.is_some() {
            // Listed only when it carries a share worth the note (AF032).
            if s.0.pct_of_reads.unwrap_or(0.0) + s.1 >= set_aside_min {
                set_aside.push(s.0);
            }
            continue;
        }
        cum += s.0.pct_of_reads.unwrap_or(0.0);
        cum_w += s.1;
        kept.push(s);
    }
    // The one cumulative column: the running share of the database's read
    // requests (a segment that is only in the writes list adds none). The
    // renderers only format it.
    let any_share = kept.iter().any(|s| s.0.pct_of_reads.is_some());
    let mut cum = 0.0;
    let mut used_gb = 0.0;
    let mut write_cov = 0.0;
    let mut out = Vec::with_capacity(kept.len());
    for (i, (mut s, wpct)) in kept.into_iter().enumerate() {
        s.rank = u32::try_from(i + 1).unwrap_or(u32::MAX);
        cum += s.pct_of_reads.unwrap_or(0.0);
        write_cov += wpct;
        s.cumulative_pct = any_share.then(|| awrflash_facts::round(cum));
        if let (Some(b), Some(g)) = (budget_gb, s.size_gb) {
            let fits = used_gb + g <= b;
            if fits {
                used_gb += g;
            }
            s.fits_budget = Some(fits);
        }
        out.push(rounded(s));
    }
    let set_aside = set_aside
        .into_iter()
        .map(|mut s| {
            // Not a candidate: no move statement, no saving claimed.
            s.sql = None;
            s.saved_s = None;
            s.saved_s_per_gb = None;
            rounded(s)
        })
        .collect();
    Ranked {
        list: out,
        set_aside,
        read_share: ratio(cum, 100.0).clamp(0.0, 1.0),
        write_share: ratio(write_cov, 100.0).clamp(0.0, 1.0),
        unit: *unit,
    }
}

/// Why a segment is not a move candidate: it is a monitoring repository or
/// AWR object, or the statements that name it are mainly maintenance work.
fn set_aside_reason(
    works: &[crate::sqlwork::Work],
    a: &Acc,
    statements: &[awrflash_model::SegmentStatement],
) -> Option<String> {
    if let Some(k) = crate::sqlwork::segment_work(works, &a.owner, &a.object) {
        return Some(format!("part of the {}: {} {}", k.kind, k.why, k.fix));
    }
    crate::sqlwork::read_mainly_by(works, statements).map(|k| {
        format!(
            "read mainly by {} (statements that name it, a textual match): {} {}",
            k.kind, k.why, k.fix
        )
    })
}

fn rounded(mut s: SegmentToMove) -> SegmentToMove {
    s.io_density = s.io_density.map(awrflash_facts::round);
    s.size_gb = s.size_gb.map(awrflash_facts::round);
    s.saved_s = s.saved_s.map(awrflash_facts::round);
    s.saved_s_per_gb = s.saved_s_per_gb.map(awrflash_facts::round);
    s
}

/// Ranked segments and the share (0..1) of the database's read requests
/// and writes they carry; `set_aside`: segments read mainly by Oracle
/// maintenance or monitoring work (not ranked, not moved).
#[derive(Debug, Clone, Default)]
pub struct Ranked {
    pub list: Vec<SegmentToMove>,
    pub set_aside: Vec<SegmentToMove>,
    pub read_share: f64,
    pub write_share: f64,
    /// The saving the ranking used, for anything else ranked the same way
    /// (tablespaces standing in for segments).
    pub unit: UnitSaving,
}

impl Ranked {
    /// The ranked segments that fit the flash budget (all when no budget is
    /// set), and their share of the read requests (0-1): what a hot-segment
    /// option moves or keeps.
    pub fn in_budget(&self) -> (Vec<&SegmentToMove>, f64) {
        let in_budget: Vec<&SegmentToMove> = self
            .list
            .iter()
            .filter(|s| s.fits_budget != Some(false))
            .collect();
        let share = ratio(
            in_budget.iter().filter_map(|s| s.pct_of_reads).sum::<f64>(),
            100.0,
        )
        .clamp(0.0, 1.0);
        (in_budget, share)
    }
}

/// Schemas Oracle maintains itself: their segments (the data dictionary,
/// AWR's WRH$ tables, optimizer statistics history) are not moved with
/// ALTER TABLE / ALTER INDEX.
const ORACLE_SCHEMAS: &[&str] = &[
    "SYS",
    "SYSTEM",
    "AUDSYS",
    "SYSMAN",
    "DBSNMP",
    "OUTLN",
    "XDB",
    "MDSYS",
    "CTXSYS",
    "ORDSYS",
    "ORDDATA",
    "WMSYS",
    "LBACSYS",
    "DVSYS",
    "OLAPSYS",
    "OJVMSYS",
    "GSMADMIN_INTERNAL",
    "APPQOSSYS",
];

/// A segment a DBA can move: not owned by an Oracle-maintained schema, not
/// in SYSTEM or SYSAUX, not a transient SYS_TEMP segment.
pub fn movable(r: &SegmentRow) -> bool {
    let owner = r.owner.trim().to_ascii_uppercase();
    let ts = r.tablespace.trim().to_ascii_uppercase();
    !ORACLE_SCHEMAS.contains(&owner.as_str())
        && ts != "SYSTEM"
        && ts != "SYSAUX"
        && !r
            .object
            .trim()
            .to_ascii_uppercase()
            .starts_with("SYS_TEMP_")
}

pub fn is_index(t: &str) -> bool {
    t.to_ascii_uppercase().contains("INDEX")
}

fn size_of(sizes: &SegmentSizes, a: &Acc) -> Option<f64> {
    let bytes: u64 = sizes
        .segments
        .iter()
        .filter(|s| {
            s.owner.eq_ignore_ascii_case(&a.owner)
                && s.segment_name.eq_ignore_ascii_case(&a.object)
                && match &a.subobject {
                    Some(p) => s
                        .partition_name
                        .as_deref()
                        .is_some_and(|q| q.eq_ignore_ascii_case(p)),
                    None => true,
                }
        })
        .map(|s| s.bytes)
        .sum();
    (bytes > 0).then(|| bytes as f64 / 1_073_741_824.0)
}

/// Release at least `major.minor` (a release without its minor number
/// counts only when its major is above)?
pub fn release_at_least(w: &IntervalFacts, major: u32, minor: u32) -> bool {
    let rel = w.report.header.release.as_deref().unwrap_or("");
    let mut parts = rel.split('.').filter_map(|p| p.trim().parse::<u32>().ok());
    match (parts.next(), parts.next()) {
        (Some(a), Some(b)) => a > major || (a == major && b >= minor),
        (Some(a), None) => a > major,
        _ => false,
    }
}

/// Release at least 12.2 (online table move)?
fn online_move(w: &IntervalFacts) -> bool {
    release_at_least(w, 12, 2)
}

fn move_sql(a: &Acc, w: &IntervalFacts) -> String {
    let sql = move_sql_for(a, w);
    // The AWR text report and Statspack cut Owner to 10 characters, Object
    // Name to 20, Subobject Name to 10-12 (AWR text keeps its tail) and
    // Obj. Type to 5 ("INDEX" for INDEX PARTITION).
    let cut =
        a.owner.chars().count() >= 10 || a.object.chars().count() >= 20 || a.subobject.is_some();
    let text = matches!(
        w.report.source.format,
        awrflash_model::Format::AwrText | awrflash_model::Format::Statspack
    );
    if text && cut {
        format!("{sql} -- the text report may have cut this name: check it in dba_segments first")
    } else {
        sql
    }
}

/// Partition moves follow the move_table_partition grammar: the update
/// index clause, then ONLINE (12.2+) last.
fn move_sql_for(a: &Acc, w: &IntervalFacts) -> String {
    let obj = format!("{}.{}", ident(&a.owner), ident(&a.object));
    let t = a.object_type.to_ascii_uppercase();
    let ts = FLASH_TS;
    let online = if online_move(w) { " ONLINE" } else { "" };
    let part = a.subobject.as_deref().map(ident);
    if t.contains("INDEX") {
        match (t.contains("SUBPARTITION"), part) {
            (true, Some(p)) => {
                format!("ALTER INDEX {obj} REBUILD SUBPARTITION {p} TABLESPACE {ts} ONLINE;")
            }
            (false, Some(p)) => {
                format!("ALTER INDEX {obj} REBUILD PARTITION {p} TABLESPACE {ts} ONLINE;")
            }
            _ => format!("ALTER INDEX {obj} REBUILD TABLESPACE {ts} ONLINE;"),
        }
    } else if t.contains("LOB") {
        format!(
            "-- LOB segment {obj}: ALTER TABLE <owning table> MOVE LOB (<column>) STORE AS (TABLESPACE {ts});"
        )
    } else {
        match (t.contains("SUBPARTITION"), part) {
            (true, Some(p)) => format!(
                "ALTER TABLE {obj} MOVE SUBPARTITION {p} TABLESPACE {ts} UPDATE INDEXES{online};"
            ),
            (false, Some(p)) => {
                format!(
                    "ALTER TABLE {obj} MOVE PARTITION {p} TABLESPACE {ts} UPDATE INDEXES{online};"
                )
            }
            _ if online.is_empty() => format!(
                "ALTER TABLE {obj} MOVE TABLESPACE {ts}; -- then rebuild its indexes (they become UNUSABLE)"
            ),
            _ => format!("ALTER TABLE {obj} MOVE ONLINE TABLESPACE {ts};"),
        }
    }
}
