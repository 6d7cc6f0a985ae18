//! Reads that are not the workload's to move: full scans repeated by one
//! statement (a SQL finding, 000 6.3 and section 5) and Oracle's own
//! maintenance or monitoring work (`catalogue/maintenance.toml`).

use awrflash_model::SqlRow;
use serde::Deserialize;

use super::{Check, Ctx, Hit, derived, row_ev};
use crate::sqlwork;
use crate::util::{f0, f1};
use awrflash_facts::{IntervalFacts, MULTIBLOCK, SINGLE_BLOCK, ratio};

/// Reads are at least `min`% of DB time.
fn reads_matter(w: &IntervalFacts, min: f64) -> bool {
    let mut reads: Vec<&str> = SINGLE_BLOCK.to_vec();
    reads.extend(MULTIBLOCK);
    w.share_pct(&reads) >= min
}

/// Multiblock and direct-path reads' share (%) of the read wait time.
fn multiblock_share(w: &IntervalFacts) -> f64 {
    let t = |names: &[&str]| -> f64 { w.events_in(names).iter().map(|e| e.time_s).sum() };
    let (multi, single) = (t(MULTIBLOCK), t(SINGLE_BLOCK));
    ratio(multi, multi + single) * 100.0
}

/// The statements whose physical reads per execution reach `min` and that
/// are not maintenance work, from SQL ordered by Reads (blocks per
/// execution is the scan measure), else by UnOptimized Read Requests.
pub fn repeated_scans<'a>(w: &IntervalFacts<'a>, min: f64) -> Vec<(&'a SqlRow, f64)> {
    let works = sqlwork::works().unwrap_or_default();
    let Some(rows) = ["physical_reads", "unoptimized_reads"]
        .iter()
        .find_map(|k| w.report.sql.get(*k).filter(|r| !r.is_empty()))
    else {
        return Vec::new();
    };
    let mut out: Vec<(&SqlRow, f64)> = Vec::new();
    for r in rows {
        // A statement listed again (per container or instance) counts once.
        if out.iter().any(|(o, _)| o.sql_id == r.sql_id)
            || sqlwork::statement_work(works, r).is_some()
        {
            continue;
        }
        if let Some(p) = sqlwork::per_exec(r).filter(|p| *p >= min) {
            out.push((r, p));
        }
    }
    out
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RepeatedScans {
    reads_per_exec_min: f64,
    pct_total_min: f64,
    multiblock_share_pct_min: f64,
    read_share_pct_min: f64,
}

impl Check for RepeatedScans {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        if !reads_matter(w, self.read_share_pct_min) {
            return Vec::new();
        }
        let multi = multiblock_share(w);
        if multi < self.multiblock_share_pct_min {
            return Vec::new();
        }
        let scans = repeated_scans(w, self.reads_per_exec_min);
        let pct: f64 = scans.iter().filter_map(|(r, _)| r.pct_total).sum();
        if scans.is_empty() || pct < self.pct_total_min {
            return Vec::new();
        }
        let parts: Vec<String> = scans
            .iter()
            .take(3)
            .map(|(r, p)| {
                format!(
                    "{} ({} reads per execution over {} executions{})",
                    r.sql_id,
                    f0(*p),
                    f0(r.executions.unwrap_or(0.0)),
                    r.module
                        .as_deref()
                        .map(|m| format!(", module {m}"))
                        .unwrap_or_default()
                )
            })
            .collect();
        let mut h = Hit::new(format!(
            "{} {} {}% of the physical reads while multiblock and direct-path reads are {}% of the read wait time: full scans repeated by one statement. This is a SQL finding, not a move: with this many reads per statement the channel or the CPU limits what flash gives (000 6.3: DSS scans gained least).",
            parts.join(", "),
            if scans.len() == 1 { "does" } else { "do" },
            f1(pct),
            f1(multi)
        ));
        for (r, p) in scans.iter().take(3) {
            h = h.ev(row_ev(
                format!("{} physical reads per execution", r.sql_id),
                *p,
                "reads/exec",
                w.src(&r.src),
            ));
            if let Some(v) = r.pct_total {
                h = h.ev(row_ev(
                    format!("{} % of physical reads", r.sql_id),
                    v,
                    "%",
                    w.src(&r.src),
                ));
            }
        }
        h = h.ev(derived(
            "multiblock and direct-path share of read wait time",
            multi,
            "%",
            "multiblock and direct-path read events' time / all read events' time",
        ));
        h = h.fix(
            "Tune these statements before moving their tables: an index or partition pruning instead of the full scan, partitioning on the filter column, or the result cache / a materialized view when the same scan repeats.",
            Vec::new(),
        );
        vec![h]
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaintenanceReads {
    pct_total_min: f64,
    read_share_pct_min: f64,
    /// Read by `segments::rank` (which segments are listed as set aside).
    #[allow(dead_code)]
    segment_share_pct_min: f64,
}

impl Check for MaintenanceReads {
    fn check(&self, ctx: &Ctx) -> Vec<Hit> {
        let w = ctx.w;
        if !reads_matter(w, self.read_share_pct_min) {
            return Vec::new();
        }
        let works = sqlwork::works().unwrap_or_default();
        let stmts: Vec<(&SqlRow, &sqlwork::Work)> = sqlwork::sql_rows(w)
            .unwrap_or_default()
            .iter()
            .filter_map(|r| sqlwork::statement_work(works, r).map(|k| (r, k)))
            .collect();
        // The largest statement's share: a job's call counts the statements
        // it runs, so the shares nest and are not added.
        let pct = stmts
            .iter()
            .filter_map(|(r, _)| r.pct_total)
            .fold(0.0, f64::max);
        let set_aside = &ctx.plan.ranked.set_aside;
        if pct < self.pct_total_min && set_aside.is_empty() {
            return Vec::new();
        }
        let mut msg = String::new();
        // The statements are named when maintenance is among the top
        // readers; a set-aside segment alone does not make them news.
        if pct >= self.pct_total_min {
            let parts: Vec<String> = stmts
                .iter()
                .take(5)
                .map(|(r, k)| {
                    format!(
                        "{} ({}{}{})",
                        r.sql_id,
                        k.kind,
                        r.module
                            .as_deref()
                            .map(|m| format!(", module {m}"))
                            .unwrap_or_default(),
                        r.pct_total
                            .map(|p| format!(", {}%", f1(p)))
                            .unwrap_or_default()
                    )
                })
                .collect();
            msg.push_str(&format!(
                "Oracle maintenance and monitoring work is among the statements that read most: {} (each its share of the physical reads; a job's call includes the statements it runs).",
                parts.join(", ")
            ));
        }
        if !set_aside.is_empty() {
            let parts: Vec<String> = set_aside
                .iter()
                .map(|s| {
                    let mut what: Vec<String> = s
                        .pct_of_reads
                        .map(|p| format!("{}% of read requests", f1(p)))
                        .into_iter()
                        .collect();
                    what.extend(work_of(works, s).map(|k| k.kind.clone()));
                    format!("{}.{} ({})", s.owner, s.object, what.join("; "))
                })
                .collect();
            if !msg.is_empty() {
                msg.push(' ');
            }
            msg.push_str(&format!(
                "Set aside, not a move candidate: {} (read mainly by that work, matched on the SQL text, or part of a monitoring repository or AWR); moving it would speed up the maintenance, not the application.",
                parts.join(", ")
            ));
        }
        let mut h = Hit::new(msg);
        for (r, k) in stmts.iter().take(5).filter(|_| pct >= self.pct_total_min) {
            if let Some(v) = r.pct_total {
                h = h.ev(row_ev(
                    format!("{} ({}) % of physical reads", r.sql_id, k.kind),
                    v,
                    "%",
                    w.src(&r.src),
                ));
            }
        }
        for s in set_aside {
            if let (Some(v), Some(src)) = (s.read_requests.or(s.physical_writes), &s.src) {
                h = h.ev(row_ev(
                    format!(
                        "{}.{} {}",
                        s.owner,
                        s.object,
                        if s.read_requests.is_some() {
                            "read requests"
                        } else {
                            "physical writes"
                        }
                    ),
                    v,
                    if s.read_requests.is_some() {
                        "requests"
                    } else {
                        "writes"
                    },
                    src.clone(),
                ));
            }
        }
        // Each kind of work once, in the order met: its fix.
        let mut kinds: Vec<&sqlwork::Work> = Vec::new();
        let from_segments = set_aside.iter().filter_map(|s| work_of(works, s));
        let from_statements = stmts
            .iter()
            .filter(|_| pct >= self.pct_total_min)
            .map(|(_, k)| *k);
        for k in from_statements.chain(from_segments) {
            if !kinds.iter().any(|x| x.kind == k.kind) {
                kinds.push(k);
            }
        }
        let fixes: Vec<String> = kinds
            .iter()
            .map(|k| format!("{}: {}", k.kind, k.fix))
            .collect();
        h = h.fix(fixes.join(" "), Vec::new());
        vec![h]
    }
}

/// The kind of work a set-aside segment was set aside for (its reason
/// names it).
fn work_of<'a>(
    works: &'a [sqlwork::Work],
    s: &awrflash_model::SegmentToMove,
) -> Option<&'a sqlwork::Work> {
    let why = s.set_aside.as_deref()?;
    works.iter().find(|k| why.contains(&k.kind))
}
