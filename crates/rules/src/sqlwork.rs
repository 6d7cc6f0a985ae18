//! Who reads a segment: the statements of "SQL ordered by Reads" and
//! "SQL ordered by Physical Reads (UnOptimized)" whose text names it (a
//! textual match), and whether a statement or segment is Oracle's own
//! maintenance or monitoring work (`catalogue/maintenance.toml`).

use awrflash_facts::IntervalFacts;
use awrflash_model::{SegmentStatement, SqlRow};
use serde::Deserialize;

use crate::RulesError;

const MAINTENANCE_TOML: &str = include_str!("../catalogue/maintenance.toml");

/// SQL lists read for the join, in order of preference: unoptimized read
/// requests (11.2.0.2+), then physical reads.
pub const SQL_KEYS: &[&str] = &["unoptimized_reads", "physical_reads"];

/// One kind of maintenance or monitoring work.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Work {
    pub kind: String,
    pub why: String,
    pub fix: String,
    text: Vec<String>,
    module: Vec<String>,
    scheduler_text: Vec<String>,
    objects: Vec<String>,
    owners: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WorkFile {
    work: Vec<Work>,
}

/// Every kind of maintenance work, parsed once.
pub fn works() -> Result<&'static [Work], RulesError> {
    static WORKS: std::sync::OnceLock<Result<Vec<Work>, String>> = std::sync::OnceLock::new();
    match WORKS.get_or_init(|| {
        toml::from_str::<WorkFile>(MAINTENANCE_TOML)
            .map(|f| f.work)
            .map_err(|e| format!("catalogue/maintenance.toml: {e}"))
    }) {
        Ok(v) => Ok(v.as_slice()),
        Err(e) => Err(RulesError::Config(e.clone())),
    }
}

fn contains_any(hay: &str, needles: &[String]) -> bool {
    let hay = hay.to_ascii_lowercase();
    needles
        .iter()
        .any(|n| !n.is_empty() && hay.contains(&n.to_ascii_lowercase()))
}

/// The maintenance work a statement belongs to, by its text and module.
pub fn statement_work<'a>(works: &'a [Work], r: &SqlRow) -> Option<&'a Work> {
    let text = r.sql_text.as_deref().unwrap_or("");
    let module = r.module.as_deref().unwrap_or("");
    let scheduler = module.trim().eq_ignore_ascii_case("DBMS_SCHEDULER");
    let lead = text.trim_start().to_ascii_lowercase();
    works.iter().find(|w| {
        contains_any(text, &w.text)
            || contains_any(module, &w.module)
            || (scheduler
                && w.scheduler_text
                    .iter()
                    .any(|p| !p.is_empty() && lead.starts_with(&p.to_ascii_lowercase())))
    })
}

/// The monitoring repository or Oracle-maintained object a segment is, by
/// its owner and name.
pub fn segment_work<'a>(works: &'a [Work], owner: &str, object: &str) -> Option<&'a Work> {
    let owner = owner.trim();
    let object = object.trim().to_ascii_uppercase();
    works.iter().find(|w| {
        w.owners.iter().any(|o| o.eq_ignore_ascii_case(owner))
            || w.objects
                .iter()
                .any(|p| !p.is_empty() && object.starts_with(&p.to_ascii_uppercase()))
    })
}

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '#')
}

/// Whether `text` names `object` as a whole identifier (quoted or not,
/// any case). Names under three characters are never matched: too many
/// false hits.
pub fn names_object(text: &str, object: &str) -> bool {
    let obj = object.trim().to_ascii_uppercase();
    if obj.chars().count() < 3 || !obj.chars().all(ident_char) {
        return false;
    }
    let hay = text.to_ascii_uppercase();
    let mut from = 0;
    while let Some(at) = hay.get(from..).and_then(|h| h.find(&obj)) {
        let start = from + at;
        let end = start + obj.len();
        let before = hay.get(..start).and_then(|h| h.chars().next_back());
        let after = hay.get(end..).and_then(|h| h.chars().next());
        if !before.is_some_and(ident_char) && !after.is_some_and(ident_char) {
            return true;
        }
        from = end;
    }
    false
}

/// The statements of the report's SQL lists whose text names `object`,
/// each once (the first list that has it gives its share), by share.
pub fn statements_for(w: &IntervalFacts, works: &[Work], object: &str) -> Vec<SegmentStatement> {
    let mut out: Vec<SegmentStatement> = Vec::new();
    for key in SQL_KEYS {
        let Some(rows) = w.report.sql.get(*key) else {
            continue;
        };
        for r in rows {
            let Some(text) = r.sql_text.as_deref() else {
                continue;
            };
            if !names_object(text, object) || out.iter().any(|s| s.sql_id == r.sql_id) {
                continue;
            }
            out.push(SegmentStatement {
                sql_id: r.sql_id.clone(),
                module: r.module.clone(),
                text: Some(text.to_string()),
                pct_of_reads: r.pct_total,
                maintenance: statement_work(works, r).map(|k| k.kind.clone()),
                src: Some(w.src(&r.src)),
            });
        }
    }
    out.sort_by(|a, b| {
        b.pct_of_reads
            .unwrap_or(0.0)
            .total_cmp(&a.pct_of_reads.unwrap_or(0.0))
            .then(a.sql_id.cmp(&b.sql_id))
    });
    out
}

/// The maintenance work that reads a segment mainly: its matched
/// maintenance statements carry more of the reads than its other matched
/// statements.
pub fn read_mainly_by<'a>(works: &'a [Work], stmts: &[SegmentStatement]) -> Option<&'a Work> {
    // The largest share on each side: a job's call counts the statements it
    // runs, so shares nest and do not add up.
    let share = |m: bool| -> f64 {
        stmts
            .iter()
            .filter(|s| s.maintenance.is_some() == m)
            .filter_map(|s| s.pct_of_reads)
            .fold(0.0, f64::max)
    };
    let (maint, other) = (share(true), share(false));
    if maint <= 0.0 || maint <= other {
        return None;
    }
    let top = stmts
        .iter()
        .filter(|s| s.maintenance.is_some())
        .max_by(|a, b| {
            a.pct_of_reads
                .unwrap_or(0.0)
                .total_cmp(&b.pct_of_reads.unwrap_or(0.0))
        })?;
    let kind = top.maintenance.as_deref()?;
    works.iter().find(|w| w.kind == kind)
}

/// The statements of the first non-empty SQL list, with their physical
/// reads per execution where the report gives or implies it.
pub fn sql_rows<'a>(w: &IntervalFacts<'a>) -> Option<&'a [SqlRow]> {
    SQL_KEYS
        .iter()
        .find_map(|k| w.report.sql.get(*k).filter(|r| !r.is_empty()))
        .map(Vec::as_slice)
}

/// Physical reads per execution of a statement, from its own column or
/// its reads over its executions; `None` with no execution.
pub fn per_exec(r: &SqlRow) -> Option<f64> {
    let execs = r.executions.filter(|e| *e > 0.0)?;
    r.per_exec
        .or_else(|| r.value.map(|v| awrflash_facts::ratio(v, execs)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(text: &str, module: &str) -> SqlRow {
        SqlRow {
            sql_id: "x".into(),
            sql_text: Some(text.into()),
            module: Some(module.into()),
            ..SqlRow::default()
        }
    }

    #[test]
    fn maintenance_list_loads_and_names_each_kind_once() {
        let w = works().unwrap_or_default();
        assert!(w.len() >= 5);
        let mut kinds: Vec<&str> = w.iter().map(|k| k.kind.as_str()).collect();
        kinds.sort_unstable();
        kinds.dedup();
        assert_eq!(kinds.len(), w.len());
    }

    #[test]
    fn statements_are_recognised_by_text_and_scheduler_ddl() {
        let w = works().unwrap_or_default();
        let kind = |t: &str, m: &str| statement_work(w, &row(t, m)).map(|k| k.kind.clone());
        assert_eq!(
            kind("call dbms_stats.gather_databas...", "DBMS_SCHEDULER").as_deref(),
            Some("optimizer statistics gathering")
        );
        assert_eq!(
            kind("ALTER INDEX \"TDS\".\"EVENT_PK\" C...", "DBMS_SCHEDULER").as_deref(),
            Some("deferred global index maintenance")
        );
        // The same DDL from an application session is not maintenance.
        assert_eq!(
            kind("ALTER INDEX \"TDS\".\"EVENT_PK\" C...", "SQL*Plus"),
            None
        );
        assert_eq!(kind("select * from orders where id = :1", "JDBC"), None);
    }

    #[test]
    fn object_names_match_whole_identifiers_only() {
        assert!(names_object(
            "ALTER INDEX \"TDS\".\"EVENT_PK\" C...",
            "EVENT_PK"
        ));
        assert!(names_object("Insert into EVENT(EVENT_GLOBAL...", "event"));
        assert!(!names_object("select EVENT_PK_OLD from t", "EVENT_PK"));
        assert!(!names_object("select * from tab", "AB"));
    }

    #[test]
    fn monitoring_repositories_are_recognised_by_owner_and_name() {
        let w = works().unwrap_or_default();
        assert!(segment_work(w, "dbsnmp", "BSLN_X").is_some());
        assert!(segment_work(w, "APP", "WRH$_SQLSTAT").is_some());
        assert!(segment_work(w, "APP", "ORDERS").is_none());
    }
}
