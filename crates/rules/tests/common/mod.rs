//! Shared helpers of the rules tests: fixture loading (model-level TOML
//! fragments merged onto a base), paths, compact finding text.
#![allow(
    dead_code,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::{Path, PathBuf};

use awrflash_model::{DbReport, Document, Finding, SegmentSizes, SysstatSpool};
use awrflash_rules::Options;

/// `../shared/seeds` next to the workspace, if present.
pub fn seeds() -> Option<PathBuf> {
    let p = awrflash_testkit::workspace_root().join("../shared/seeds");
    p.is_dir().then_some(p)
}

/// Keys that identify an element of an array of tables: such arrays merge
/// element by element; other arrays are replaced.
const KEYS: &[&str] = &[
    "name",
    "tablespace",
    "function",
    "filetype",
    "event",
    "wait_class",
    "sql_id",
    "object",
];

fn key_of(v: &toml::Value) -> Option<(String, String)> {
    let t = v.as_table()?;
    KEYS.iter().find_map(|k| {
        t.get(*k)
            .and_then(|x| x.as_str())
            .map(|s| (k.to_string(), s.to_string()))
    })
}

pub fn merge(base: &mut toml::Value, over: toml::Value) {
    match (base, over) {
        (toml::Value::Table(b), toml::Value::Table(o)) => {
            for (k, v) in o {
                // `[report.host_cpu] remove = true` (or `host = { remove =
                // true }`) drops a section or a value.
                let drop_section = v.as_table().is_some_and(|t| {
                    t.len() == 1 && t.get("remove").and_then(|r| r.as_bool()) == Some(true)
                });
                if drop_section {
                    b.remove(&k);
                    continue;
                }
                match b.get_mut(&k) {
                    Some(bv) => merge(bv, v),
                    None => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (toml::Value::Array(b), toml::Value::Array(o)) => {
            let keyed = !o.is_empty() && o.iter().all(|v| key_of(v).is_some());
            if !keyed {
                *b = o;
                return;
            }
            for v in o {
                let k = key_of(&v);
                let drop = v
                    .as_table()
                    .and_then(|t| t.get("remove"))
                    .and_then(|r| r.as_bool())
                    .unwrap_or(false);
                match b.iter().position(|x| key_of(x) == k) {
                    Some(i) if drop => {
                        b.remove(i);
                    }
                    Some(i) => merge(&mut b[i], v),
                    None if drop => {}
                    None => b.push(v),
                }
            }
        }
        (b, o) => *b = o,
    }
}

pub struct Fixture {
    pub docs: Vec<Document>,
    pub opts: Options,
    pub table: toml::Table,
}

fn read_toml(path: &Path) -> toml::Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn report_from(base: Option<&toml::Value>, over: Option<toml::Value>) -> DbReport {
    let mut v = base
        .cloned()
        .unwrap_or(toml::Value::Table(toml::Table::new()));
    if let Some(o) = over {
        merge(&mut v, o);
    }
    v.try_into().expect("report fragment")
}

/// Loads a fixture: `base` (a file under fixtures/rules/_base), `[report]`
/// merged onto it, `[[extra_reports]]` each merged onto it too, optional
/// `[sysstat]`, `[segment_sizes]`, `[options]`.
pub fn load(path: &Path) -> Fixture {
    let v = read_toml(path);
    let t = v.as_table().cloned().unwrap_or_default();
    let base = t.get("base").and_then(|b| b.as_str()).map(|name| {
        read_toml(&awrflash_testkit::fixtures("rules/_base").join(format!("{name}.toml")))
    });
    let mut docs = Vec::new();
    let mut r = report_from(base.as_ref(), t.get("report").cloned());
    if r.source.path.is_empty() {
        r.source.path = path.file_name().unwrap().to_string_lossy().into_owned();
    }
    docs.push(Document::Report(Box::new(r)));
    if let Some(extra) = t.get("extra_reports").and_then(|x| x.as_array()) {
        for e in extra {
            docs.push(Document::Report(Box::new(report_from(
                base.as_ref(),
                Some(e.clone()),
            ))));
        }
    }
    if let Some(s) = t.get("sysstat") {
        let s: SysstatSpool = s.clone().try_into().expect("sysstat fragment");
        docs.push(Document::Sysstat(Box::new(s)));
    }
    if let Some(s) = t.get("segment_sizes") {
        let s: SegmentSizes = s.clone().try_into().expect("segment sizes fragment");
        docs.push(Document::SegmentSizes(Box::new(s)));
    }
    let mut opts = Options::default();
    if let Some(o) = t.get("options").and_then(|o| o.as_table()) {
        let f = |k: &str| {
            o.get(k)
                .and_then(|v| v.as_float().or_else(|| v.as_integer().map(|i| i as f64)))
        };
        opts.channel_mbps = f("channel_mbps");
        opts.flash_capacity_gb = f("flash_capacity_gb");
        opts.device = o.get("device").and_then(|v| v.as_str()).map(str::to_string);
    }
    Fixture {
        docs,
        opts,
        table: t,
    }
}

/// A finding as compact, stable text for snapshots.
pub fn finding_text(f: &Finding) -> String {
    let mut s = format!(
        "{} {} [{}] {}\n  {}\n",
        f.id,
        f.slug,
        f.severity.as_str(),
        f.title,
        f.message
    );
    for e in &f.evidence {
        let src = match (&e.src, &e.derived_from) {
            (Some(s), _) => format!("{}:{} [{}]", s.path, s.line, s.section),
            (None, Some(d)) => format!("derived: {d}"),
            (None, None) => "?".into(),
        };
        s.push_str(&format!(
            "  - {} = {} {} ({})\n",
            e.label, e.value, e.unit, src
        ));
    }
    if let Some(r) = &f.recommendation {
        s.push_str(&format!("  fix: {}\n", r.text));
        for q in &r.sql {
            s.push_str(&format!("    {q}\n"));
        }
    }
    if let Some(p) = &f.projection {
        s.push_str(&format!(
            "  projection: DB time {} s -> {}..{} s, response ratio {}..{}, bound {}, cap {:?}\n",
            p.db_time_before_s,
            p.db_time_after_low_s,
            p.db_time_after_high_s,
            p.response_ratio_low,
            p.response_ratio_high,
            p.bound,
            p.throughput_cap
        ));
        for st in &p.steps {
            s.push_str(&format!(
                "    {}: {} waits x {} affected, {} ms -> {}..{} ms, saved {}..{} s\n",
                st.component,
                st.waits,
                st.share_affected,
                st.current_avg_ms,
                st.new_avg_ms_low,
                st.new_avg_ms_high,
                st.saved_s_low,
                st.saved_s_high
            ));
        }
    }
    for c in &f.citations {
        s.push_str(&format!("  cite: {} / {}\n", c.seed, c.section));
    }
    s
}

/// Every generated statement of an analysis: findings, segments to move,
/// the flash cache plan.
pub fn all_sql(a: &awrflash_model::Analysis) -> Vec<String> {
    let mut out: Vec<String> = a
        .findings
        .iter()
        .filter_map(|f| f.recommendation.as_ref())
        .flat_map(|r| r.sql.iter().cloned())
        .collect();
    out.extend(a.segments_to_move.iter().filter_map(|s| s.sql.clone()));
    if let Some(fc) = &a.flash_cache {
        out.extend(fc.sql.iter().cloned());
    }
    out
}
