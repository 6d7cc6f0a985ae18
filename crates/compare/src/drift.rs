//! Did the workload itself change between the windows? Then a whole-window
//! figure (DB time, AAS) mixes the storage change with the load change, and
//! only the per-transaction and per-execution figures compare.

use std::collections::BTreeMap;

use awrflash_facts::round;
use awrflash_model::{Drift, FigureChange};

use crate::side::SideFacts;

/// A rate that moved by more than this (percent) is a changed workload.
pub const RATE_DRIFT_PCT: f64 = 25.0;
/// Less than this share of the before side's top SQL (by physical reads)
/// still on the after side's list: a changed SQL mix.
pub const SQL_OVERLAP_MIN_PCT: f64 = 50.0;

/// Top SQL by physical reads of a side: SQL id -> share of the total.
fn top_sql(s: &SideFacts<'_>) -> BTreeMap<String, f64> {
    let mut m = BTreeMap::new();
    for w in &s.intervals {
        let rows = w
            .report
            .sql
            .get("physical_reads")
            .or_else(|| w.report.sql.get("unoptimized_reads"));
        for r in rows.into_iter().flatten() {
            *m.entry(r.sql_id.clone()).or_insert(0.0) += r.pct_total.unwrap_or(0.0).max(0.0);
        }
    }
    m
}

/// Share (percent, weighted by the before side's shares) of the before
/// side's top SQL that the after side still lists.
fn sql_overlap(b: &SideFacts<'_>, a: &SideFacts<'_>) -> Option<f64> {
    let (tb, ta) = (top_sql(b), top_sql(a));
    if tb.is_empty() || ta.is_empty() {
        return None;
    }
    let total: f64 = tb.values().sum();
    if total <= 0.0 {
        let kept = tb.keys().filter(|k| ta.contains_key(*k)).count();
        return Some(round(kept as f64 * 100.0 / tb.len() as f64));
    }
    let kept: f64 = tb
        .iter()
        .filter(|(k, _)| ta.contains_key(*k))
        .map(|(_, v)| v)
        .sum();
    Some(round(kept * 100.0 / total))
}

fn change(figs: &[FigureChange], key: &str) -> Option<f64> {
    figs.iter()
        .find(|f| f.key == key)
        .and_then(|f| f.change_pct)
}

pub fn drift(figs: &[FigureChange], b: &SideFacts<'_>, a: &SideFacts<'_>) -> Drift {
    let txn = change(figs, "txn_per_s");
    let exec = change(figs, "exec_per_s");
    let sql = sql_overlap(b, a);
    let mut why = Vec::new();
    let fmt = |p: f64| format!("{}{}%", if p >= 0.0 { "+" } else { "" }, p);
    if let Some(t) = txn.filter(|p| p.abs() > RATE_DRIFT_PCT) {
        why.push(format!("transactions per second {}", fmt(t)));
    }
    if let Some(e) = exec.filter(|p| p.abs() > RATE_DRIFT_PCT) {
        why.push(format!("executions per second {}", fmt(e)));
    }
    if let Some(o) = sql.filter(|o| *o < SQL_OVERLAP_MIN_PCT) {
        why.push(format!(
            "only {o}% of the before side's top SQL by physical reads is still on the after side's list"
        ));
    }
    let confounded = !why.is_empty();
    let message = if confounded {
        format!(
            "The workload changed between the windows ({}): DB time and average active sessions mix the storage change with the load change, so compare per transaction and per execution.",
            why.join("; ")
        )
    } else {
        let mut parts = Vec::new();
        if let Some(t) = txn {
            parts.push(format!("transactions per second {}", fmt(t)));
        }
        if let Some(e) = exec {
            parts.push(format!("executions per second {}", fmt(e)));
        }
        if let Some(o) = sql {
            parts.push(format!("{o}% of the top SQL in common"));
        }
        if parts.is_empty() {
            "The inputs print no transaction or execution rate: workload drift cannot be judged."
                .to_string()
        } else {
            format!("The workload is comparable ({}).", parts.join(", "))
        }
    };
    Drift {
        confounded,
        txn_change_pct: txn,
        exec_change_pct: exec,
        sql_overlap_pct: sql,
        message,
    }
}
