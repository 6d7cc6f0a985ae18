//! Generated SQL is safe to run: every size it sets is at least the current
//! value of that parameter in the report, no redo layout is assumed (no
//! LOGFILE statements: the report does not show today's groups and members),
//! and device-brand commands appear only when that device is the target.
//! Runs over every rule fixture and every corpus report (skipped with a
//! reason when the corpus is absent).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use awrflash_facts::parse_size;
use awrflash_model::{DbReport, Document};
use awrflash_rules::{Options, analyze};

/// `(parameter, value)` of an `ALTER SYSTEM SET p = v ...` statement.
fn set_param(sql: &str) -> Option<(String, String)> {
    let upper = sql.to_ascii_uppercase();
    let at = upper.find("ALTER SYSTEM SET ")? + "ALTER SYSTEM SET ".len();
    let rest = sql.get(at..)?;
    let (name, value) = rest.split_once('=')?;
    let value = value.trim().split([' ', ';']).next()?.to_string();
    Some((name.trim().to_ascii_lowercase(), value))
}

/// The larger of the begin and end value of a size parameter, in bytes.
fn current_bytes(r: &DbReport, name: &str) -> Option<f64> {
    let p = r.parameter(name)?;
    let a = parse_size(&p.value);
    let b = p.end_value.as_deref().and_then(parse_size);
    a.into_iter().chain(b).reduce(f64::max)
}

fn problems(label: &str, docs: &[Document], opts: &Options) -> Vec<String> {
    let a = analyze(docs, opts).unwrap_or_else(|e| panic!("{label}: {e}"));
    let Some(Document::Report(r)) = docs.first() else {
        return Vec::new();
    };
    let fusionio = opts
        .device
        .as_deref()
        .is_some_and(|d| d.starts_with("fusionio"));
    let mut bad = Vec::new();
    for sql in common::all_sql(&a) {
        let upper = sql.to_ascii_uppercase();
        if upper.contains("LOGFILE GROUP")
            || upper.contains("DROP LOGFILE")
            || upper.contains("ADD LOGFILE")
            || upper.contains("ADD STANDBY LOGFILE")
        {
            bad.push(format!("{label}: assumes a redo layout: {sql}"));
        }
        if !fusionio && upper.contains("FIO-") {
            bad.push(format!("{label}: device-brand command: {sql}"));
        }
        let Some((name, value)) = set_param(&sql) else {
            continue;
        };
        let (Some(new), Some(cur)) = (parse_size(&value), current_bytes(r, &name)) else {
            continue;
        };
        if new < cur {
            bad.push(format!(
                "{label}: {name} set to {value} ({new} bytes), below the current {cur} bytes"
            ));
        }
    }
    bad
}

#[test]
fn recovery_area_size_comes_from_the_report_and_never_shrinks() {
    let dir = awrflash_testkit::fixtures("").join("rules/AF042");
    let fx = common::load(&dir.join("fires.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let f = a.findings.iter().find(|f| f.id == "AF042").unwrap();
    let sql = &f.recommendation.as_ref().unwrap().sql;
    // 3298534883328 bytes = 3072 GB.
    assert!(
        sql.iter()
            .any(|s| s.contains("db_recovery_file_dest_size = 3072G")),
        "{sql:?}"
    );

    let fx = common::load(&dir.join("no_size.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let f = a.findings.iter().find(|f| f.id == "AF042").unwrap();
    let r = f.recommendation.as_ref().unwrap();
    assert!(
        !r.sql
            .iter()
            .any(|s| s.contains("db_recovery_file_dest_size")),
        "{:?}",
        r.sql
    );
    assert!(r.text.contains("does not show db_recovery_file_dest_size"));
}

#[test]
fn generated_sql_over_every_rule_fixture_is_safe() {
    let mut bad = Vec::new();
    let mut n = 0;
    for p in awrflash_testkit::files_below(&awrflash_testkit::fixtures("rules")) {
        let in_base = p
            .parent()
            .and_then(|d| d.file_name())
            .is_some_and(|f| f == "_base");
        if in_base || p.extension().is_none_or(|x| x != "toml") {
            continue;
        }
        let fx = common::load(&p);
        bad.extend(problems(&p.display().to_string(), &fx.docs, &fx.opts));
        n += 1;
    }
    assert!(n > 20, "only {n} fixtures");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn generated_sql_over_the_corpus_is_safe() {
    let Some(root) = awrflash_testkit::corpus("") else {
        return;
    };
    let mut bad = Vec::new();
    let mut n = 0;
    for dir in ["awr-html", "awr-text", "statspack"] {
        for path in awrflash_testkit::files_in(&root.join(dir)) {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let Ok(doc) = awrflash_parse::parse_bytes(&name, &std::fs::read(&path).unwrap()) else {
                continue;
            };
            if !matches!(doc, Document::Report(_)) {
                continue;
            }
            bad.extend(problems(
                &name,
                std::slice::from_ref(&doc),
                &Options::default(),
            ));
            n += 1;
        }
    }
    assert!(n > 0, "no corpus report parsed");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn a_data_guard_primary_gets_layout_queries_and_no_redo_change_statement() {
    let dir = awrflash_testkit::fixtures("").join("rules/AF055");
    for file in ["fires.toml", "sync.toml"] {
        let fx = common::load(&dir.join(file));
        let a = analyze(&fx.docs, &fx.opts).unwrap();
        let f = a.findings.iter().find(|f| f.id == "AF055").unwrap();
        let sql = &f.recommendation.as_ref().unwrap().sql;
        assert!(!sql.is_empty());
        assert!(
            sql.iter().all(|s| s.starts_with("SELECT ")),
            "{file}: only read-only queries of the layout: {sql:?}"
        );
        assert!(sql.iter().any(|s| s.contains("v$standby_log")), "{sql:?}");
        assert!(
            f.message.contains("never a single unmultiplexed group"),
            "{}",
            f.message
        );
        let redo = a.options.iter().find(|o| o.key == "redo").unwrap();
        assert!(
            redo.notes
                .iter()
                .any(|n| n.starts_with("Data Guard primary")),
            "{file}: {:?}",
            redo.notes
        );
        assert!(problems(file, &fx.docs, &fx.opts).is_empty());
    }
}
