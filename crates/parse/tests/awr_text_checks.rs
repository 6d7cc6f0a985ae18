//! Consistency checks shared by the AWR text and Statspack corpus tests
//! (included with `#[path]`; compiled alone it has no tests).
#![allow(dead_code)]
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use awrflash_model::{DbReport, Document};

pub fn parse_file(path: &Path) -> DbReport {
    let bytes = std::fs::read(path).expect("read corpus file");
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    match awrflash_parse::parse_bytes(&name, &bytes) {
        Ok(Document::Report(r)) => *r,
        Ok(other) => panic!("{name}: not a report: {:?}", other.source()),
        Err(e) => panic!("{e}"),
    }
}

/// Wait-event names are cut to the column width in text reports
/// (26 characters in AWR, 28 in Statspack); top events print more.
pub fn same_event(top: &str, wait: &str) -> bool {
    top.eq_ignore_ascii_case(wait)
        || (wait.len() >= 20
            && top.len() > wait.len()
            && top
                .to_ascii_lowercase()
                .starts_with(&wait.to_ascii_lowercase()))
}

fn invalid_results(r: &DbReport) -> Option<&str> {
    r.warnings
        .iter()
        .find(|w| {
            w.message.contains("RESULTS ARE INVALID") || w.message.contains("SQL*Plus errors")
        })
        .map(|w| w.message.as_str())
}

/// Runs the per-file checks; returns the failures (empty = pass) and
/// notes on checks skipped because the report does not print the figures.
pub fn check(r: &DbReport, text: &str) -> (Vec<String>, Vec<String>) {
    let mut fail = Vec::new();
    let mut notes = Vec::new();
    let h = &r.header;
    for (what, ok) in [
        ("db_name", h.db_name.is_some()),
        ("dbid", h.dbid.is_some()),
        ("instance", h.instance.is_some()),
        ("release", h.release.is_some()),
        ("instance_number", h.instance_number.is_some()),
    ] {
        if !ok {
            fail.push(format!("header.{what} missing"));
        }
    }
    let elapsed = h.elapsed_s.filter(|e| *e > 0.0);
    match (elapsed, invalid_results(r)) {
        (Some(_), _) => {}
        (None, Some(why)) => notes.push(format!("no elapsed time ({why})")),
        (None, None) => fail.push("elapsed_s missing or not > 0".into()),
    }
    if let Some(el) = elapsed {
        // DB time vs Load Profile `DB Time(s)` per second x elapsed. The per
        // second figure is printed with one decimal: allow its rounding.
        match (h.db_time_s, r.load_profile_row("DB Time")) {
            (Some(db), Some(lp)) => match lp.per_second {
                Some(ps) => {
                    let tol = (0.02 * db).max(0.05 * el + 0.3);
                    if (ps * el - db).abs() > tol {
                        fail.push(format!(
                            "DB time {db:.1}s vs load profile {ps} x {el:.1}s = {:.1}s (tolerance {tol:.1})",
                            ps * el
                        ));
                    }
                }
                None => notes.push("load profile DB Time has no per-second value".into()),
            },
            _ => notes.push("no DB time in header or load profile".into()),
        }
        match (
            r.activity_stat("redo size"),
            r.load_profile_row("Redo size"),
        ) {
            (Some(a), Some(lp)) => match (a.total, lp.per_second) {
                (Some(t), Some(ps)) => {
                    let got = t / el;
                    let tol = (0.02 * ps).max(0.05);
                    if (got - ps).abs() > tol {
                        fail.push(format!(
                            "redo size {t} / {el:.1}s = {got:.1}/s vs load profile {ps}/s"
                        ));
                    }
                }
                _ => fail.push("redo size total or per-second value missing".into()),
            },
            _ => notes.push("no redo size in activity stats or load profile".into()),
        }
    }
    if r.load_profile.is_empty() {
        fail.push("no load profile".into());
    }
    if r.top_events.is_empty() {
        fail.push("no top events".into());
    }
    let pct: f64 = r.top_events.iter().filter_map(|e| e.pct_db_time).sum();
    // With a DB time of seconds, Oracle's own rounding of each event's time
    // can push the printed sum past 100 (11.2.0.4 RAC sample: 1.9 s, 106.7%).
    if pct > 100.5 {
        if h.db_time_s.is_some_and(|d| d < 60.0) {
            notes.push(format!(
                "top events sum to {pct:.1}% of a DB time under a minute"
            ));
        } else {
            fail.push(format!("top events % DB time sums to {pct:.1}"));
        }
    }
    for e in &r.top_events {
        let cpu = e.name.eq_ignore_ascii_case("DB CPU") || e.name.eq_ignore_ascii_case("CPU time");
        let Some(w) = e.waits else {
            if !cpu {
                fail.push(format!("top event {:?} has no waits", e.name));
            }
            continue;
        };
        let lists = [&r.wait_events.foreground, &r.wait_events.all];
        let found = lists
            .iter()
            .flat_map(|l| l.iter())
            .any(|x| same_event(&e.name, &x.name) && x.waits == Some(w));
        if !found {
            fail.push(format!(
                "top event {:?} ({w} waits) not in wait events with the same waits",
                e.name
            ));
        }
    }
    let has_seg_sections = text.lines().any(|l| {
        l.starts_with("Segments by ") && !text.contains("No data exists for this section")
            || (l.starts_with("Segments by ") && l.contains("DB/Inst"))
    });
    if has_seg_sections && r.segments.is_empty() {
        fail.push("the report has Segments by ... sections but no segment list was read".into());
    }
    (fail, notes)
}

/// Compact per-file summary (for the printed line and the snapshot).
pub fn summary(r: &DbReport) -> String {
    let h = &r.header;
    let lp = |n: &str| {
        r.load_profile_row(n)
            .and_then(|x| x.per_second)
            .map_or("-".to_string(), |v| format!("{v}"))
    };
    let segs: Vec<String> = r
        .segments
        .iter()
        .map(|(k, v)| format!("{k}={}", v.len()))
        .collect();
    let sql: Vec<String> = r
        .sql
        .iter()
        .map(|(k, v)| format!("{k}={}", v.len()))
        .collect();
    let top: Vec<String> = r
        .top_events
        .iter()
        .map(|e| {
            format!(
                "{}:{}",
                e.name,
                e.pct_db_time.map_or("-".into(), |p| p.to_string())
            )
        })
        .collect();
    format!(
        "format={} db={} dbid={} inst={} release={} rac={} cdb={:?} host={} platform={} cpus={:?} snaps={:?}-{:?} begin={} elapsed_s={:?} db_time_s={:?}\n\
         cache: buffer_cache={:?} shared_pool={:?} block={:?} log_buffer={:?}\n\
         load_profile={} (db_time/s={} redo/s={} phys_reads/s={}) top_events={} [{}]\n\
         wait_events fg={} bg={} all={} wait_classes={} histogram={} time_model={} os_stats={} io_profile={}\n\
         activity_stats={} (redo size={:?}) iostat fn={} ft={} fnft={} tablespace_io={} file_io={} bpa={}\n\
         segments [{}] sql [{}] parameters={} (db_block_size={:?}) warnings={}",
        r.source.format.as_str(),
        h.db_name.as_deref().unwrap_or("-"),
        h.dbid.unwrap_or(0),
        h.instance.as_deref().unwrap_or("-"),
        h.release.as_deref().unwrap_or("-"),
        h.rac,
        h.cdb,
        h.host.as_deref().unwrap_or("-"),
        h.platform.as_deref().unwrap_or("-"),
        h.cpus,
        h.begin_snap,
        h.end_snap,
        h.begin_time.as_deref().unwrap_or("-"),
        h.elapsed_s,
        h.db_time_s,
        r.cache_sizes.buffer_cache_bytes,
        r.cache_sizes.shared_pool_bytes,
        r.cache_sizes.std_block_size,
        r.cache_sizes.log_buffer_bytes,
        r.load_profile.len(),
        lp("DB Time"),
        lp("Redo size"),
        if r.load_profile_row("Physical read").is_some() {
            lp("Physical read")
        } else {
            lp("Physical reads")
        },
        r.top_events.len(),
        top.join(", "),
        r.wait_events.foreground.len(),
        r.wait_events.background.len(),
        r.wait_events.all.len(),
        r.wait_classes.len(),
        r.wait_histogram.len(),
        r.time_model.len(),
        r.os_stats.len(),
        r.io_profile.len(),
        r.activity_stats.len(),
        r.activity_stat("redo size").and_then(|a| a.total),
        r.iostat_function.len(),
        r.iostat_filetype.len(),
        r.iostat_function_filetype.len(),
        r.tablespace_io.len(),
        r.file_io.len(),
        r.buffer_pool_advisory.len(),
        segs.join(" "),
        sql.join(" "),
        r.parameters.len(),
        r.parameter("db_block_size").map(|p| p.value.as_str()),
        r.warnings.len(),
    )
}

/// Parses every file of a corpus folder, checks it, prints one summary line
/// per file and snapshots the summaries. Skips when the folder is absent.
pub fn run_corpus(sub: &str, snapshot_prefix: &str) {
    let Some(dir) = awrflash_testkit::corpus(sub) else {
        return;
    };
    let files = awrflash_testkit::files_in(&dir);
    assert!(!files.is_empty(), "{} holds no files", dir.display());
    let mut failures = Vec::new();
    for f in &files {
        let r = parse_file(f);
        let text = String::from_utf8_lossy(&std::fs::read(f).unwrap()).to_string();
        let (fail, notes) = check(&r, &text);
        let name = f.file_name().unwrap().to_string_lossy().to_string();
        let s = summary(&r);
        println!(
            "{name}: {} | {}{}",
            if fail.is_empty() { "ok" } else { "FAIL" },
            s.replace('\n', " | "),
            if notes.is_empty() {
                String::new()
            } else {
                format!(" | skipped checks: {}", notes.join("; "))
            }
        );
        for x in &fail {
            println!("  FAIL {x}");
            failures.push(format!("{name}: {x}"));
        }
        let stem = name
            .trim_end_matches(".txt")
            .trim_end_matches(".lst")
            .replace('.', "_");
        insta::assert_snapshot!(format!("{snapshot_prefix}_{stem}"), s);
    }
    assert!(
        failures.is_empty(),
        "corpus checks failed:\n{}",
        failures.join("\n")
    );
}
