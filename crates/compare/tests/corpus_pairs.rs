//! Before/after pairs built at test time from a real corpus report: the
//! report and a copy whose event rows and histograms were rewritten to a
//! known lower latency (single-block reads; redo writes), and a copy whose
//! transaction rate was doubled. The expected figures are computed here by
//! hand from the parsed rows, not through the facts layer.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use awrflash_compare::{Options, Side, compare};
use awrflash_model::{Comparison, DbReport, Document, HistogramBucket};

/// 12.1.0.2 single instance (RECEIPT): disk-like single-block reads
/// (2.07 ms), Load Profile transactions and executions, ms histograms.
const REPORT: &str = "awr-html/12.1.0.2_sarthi2020-AWR-reports_awr_rpt_2.html";

fn load(rel: &str) -> Option<DbReport> {
    let path = awrflash_testkit::corpus("")?.join(rel);
    let bytes = std::fs::read(&path).unwrap();
    match awrflash_parse::parse_bytes(rel, &bytes).unwrap() {
        Document::Report(r) => Some(*r),
        _ => panic!("{rel}: not a report"),
    }
}

/// The report without its CPU queue (`OS_CPU_WAIT_TIME`, `LOAD`): this AIX
/// LPAR's run queue caps every option at about 1.2x (the CPU bound), and
/// the tests that take it out check the wait arithmetic of the projection
/// against a rewritten after-report, which the cap would hide.
fn without_cpu_queue(mut r: DbReport) -> DbReport {
    r.os_stats
        .retain(|s| s.name != "OS_CPU_WAIT_TIME" && s.name != "LOAD");
    r
}

/// Compares the pair and prints what a reader of the test log needs: the
/// summary, the detected changes and the projection check.
fn run(before: &DbReport, after: &DbReport) -> Comparison {
    let c = compare_pair(before, after);
    println!("summary: {}", c.summary);
    for s in &c.storage_changes {
        println!(
            "change: {} ({}): {}",
            s.kind,
            s.option_key.as_deref().unwrap_or("-"),
            s.because
        );
    }
    if let Some(p) = &c.projection_check {
        println!(
            "projection {}: projected {}-{}%, measured {}%, error {} points; reasons: {:?}",
            p.option_key,
            p.projected_gain_pct_low,
            p.projected_gain_pct_high,
            p.measured_gain_pct,
            p.error_pct_points,
            p.reasons
        );
    }
    c
}

fn compare_pair(before: &DbReport, after: &DbReport) -> Comparison {
    compare(
        &Side {
            reports: vec![before],
            aux: Vec::new(),
        },
        &Side {
            reports: vec![after],
            aux: Vec::new(),
        },
        &Options::default(),
    )
    .unwrap()
}

fn lp(r: &DbReport, name: &str) -> f64 {
    r.load_profile
        .iter()
        .find(|l| l.name.to_ascii_lowercase().starts_with(name))
        .and_then(|l| l.per_second)
        .unwrap_or_else(|| panic!("no Load Profile row {name}"))
}

/// Rewrites a foreground event (event table and top events) to `avg_ms`;
/// returns the seconds it saved.
fn rewrite_event(r: &mut DbReport, name: &str, avg_ms: f64) -> f64 {
    let mut saved = 0.0;
    for e in &mut r.wait_events.foreground {
        if e.name == name {
            let waits = e.waits.unwrap();
            let new = waits * avg_ms / 1000.0;
            saved = e.time_s.unwrap() - new;
            e.time_s = Some(new);
            e.avg_ms = Some(avg_ms);
            e.pct_db_time = None;
        }
    }
    for e in &mut r.top_events {
        if e.name == name {
            e.time_s = Some(e.waits.unwrap() * avg_ms / 1000.0);
            e.avg_ms = Some(avg_ms);
            e.pct_db_time = None;
        }
    }
    saved
}

fn rewrite_background(r: &mut DbReport, name: &str, avg_ms: f64) {
    for e in &mut r.wait_events.background {
        if e.name == name {
            e.time_s = Some(e.waits.unwrap() * avg_ms / 1000.0);
            e.avg_ms = Some(avg_ms);
        }
    }
}

/// Every wait of the event's histogram rows in the `<= 1 ms` bucket.
fn rewrite_histogram_fast(r: &mut DbReport, name: &str) {
    for h in &mut r.wait_histogram {
        if h.event == name {
            h.buckets = vec![
                HistogramBucket {
                    le_ms: 1.0,
                    pct: 100.0,
                },
                HistogramBucket {
                    le_ms: 2.0,
                    pct: 0.0,
                },
            ]
            .into();
        }
    }
}

fn set_db_time(r: &mut DbReport, db_time: f64) {
    r.header.db_time_s = Some(db_time);
    for t in &mut r.time_model {
        if t.name == "DB time" {
            t.time_s = Some(db_time);
        }
    }
}

fn figure(c: &Comparison, key: &str) -> (f64, f64) {
    let f = c
        .figures
        .iter()
        .find(|f| f.key == key)
        .unwrap_or_else(|| panic!("no figure {key}"));
    (f.before.unwrap(), f.after.unwrap())
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

#[test]
fn single_block_reads_rewritten_to_0_4_ms_read_as_data_moved_with_the_projection_error() {
    let Some(before) = load(REPORT).map(without_cpu_queue) else {
        return;
    };
    let mut after = before.clone();
    let saved = rewrite_event(&mut after, "db file sequential read", 0.4)
        + rewrite_event(&mut after, "db file parallel read", 0.4);
    rewrite_histogram_fast(&mut after, "db file sequential read");
    let db = before.header.db_time_s.unwrap();
    set_db_time(&mut after, db - saved);
    let c = run(&before, &after);

    // By hand: DB time / (transactions per second x elapsed).
    let el = before.header.elapsed_s.unwrap();
    let txns = lp(&before, "transactions") * el;
    let execs = lp(&before, "executes") * el;
    let (b, a) = figure(&c, "db_time_per_txn_ms");
    assert!(close(b, db * 1000.0 / txns, 0.01), "{b}");
    assert!(close(a, (db - saved) * 1000.0 / txns, 0.01), "{a}");
    let (b, a) = figure(&c, "db_time_per_exec_ms");
    assert!(close(b, db * 1000.0 / execs, 0.001), "{b}");
    assert!(close(a, (db - saved) * 1000.0 / execs, 0.001), "{a}");
    let (b, a) = figure(&c, "aas");
    assert!(close(b, db / el, 0.001) && close(a, (db - saved) / el, 0.001));

    // The rewritten wait and its histogram.
    let w = c
        .waits
        .iter()
        .find(|w| w.event == "db file sequential read")
        .unwrap();
    let (wb, wa) = (w.before.as_ref().unwrap(), w.after.as_ref().unwrap());
    let orig = before
        .wait_events
        .foreground
        .iter()
        .find(|e| e.name == "db file sequential read")
        .unwrap();
    assert!(close(
        wb.avg_ms,
        orig.time_s.unwrap() * 1000.0 / orig.waits.unwrap(),
        0.001
    ));
    assert!(close(wa.avg_ms, 0.4, 1e-9));
    assert!(!wb.src.is_empty() && !wa.src.is_empty());
    let h = w.histogram.as_ref().unwrap();
    assert_eq!(h.le_1ms_after_pct, Some(100.0));
    assert!(h.le_1ms_before_pct.unwrap() < 50.0);

    // Detected: data moved; the matching option is the whole database.
    let kinds: Vec<&str> = c.storage_changes.iter().map(|s| s.kind.as_str()).collect();
    assert_eq!(kinds, ["data-moved"]);
    let p = c.projection_check.as_ref().expect("a projection check");
    assert_eq!(p.option_key, "whole-db");
    // The measured cut is the saved time over DB time.
    let gain = saved * 100.0 / db;
    assert!(
        close(p.measured_gain_pct, gain, 0.01),
        "{}",
        p.measured_gain_pct
    );
    // The whole-database option also speeds scans, which did not move
    // here: the measured cut is below the projection by that much.
    assert!(p.projected_gain_pct_low > gain + 5.0);
    assert!(close(
        p.error_pct_points,
        p.measured_gain_pct - p.projected_gain_pct_low,
        1e-6
    ));
    assert!(!p.within_range);
    assert!(
        p.reasons.iter().any(|r| r.contains("multiblock read")),
        "{:?}",
        p.reasons
    );
    assert!(!c.drift.confounded, "{}", c.drift.message);
    assert!(c.summary.contains("Data files moved"), "{}", c.summary);
}

#[test]
fn every_projected_wait_rewritten_to_its_projected_latency_lands_in_the_range() {
    let Some(before) = load(REPORT).map(without_cpu_queue) else {
        return;
    };
    let a = awrflash_rules::analyze(
        &[Document::Report(Box::new(before.clone()))],
        &awrflash_rules::Options::default(),
    )
    .unwrap();
    let whole = a.options.iter().find(|o| o.key == "whole-db").unwrap();
    let mut after = before.clone();
    let mut saved = 0.0;
    for s in &whole.projection.steps {
        saved += rewrite_event(&mut after, &s.component, s.new_avg_ms_low);
    }
    rewrite_histogram_fast(&mut after, "db file sequential read");
    let db = before.header.db_time_s.unwrap();
    set_db_time(&mut after, db - saved);
    let c = run(&before, &after);
    let p = c.projection_check.as_ref().unwrap();
    assert_eq!(p.option_key, "whole-db");
    assert!(close(p.measured_gain_pct, saved * 100.0 / db, 0.01));
    assert!(
        p.error_pct_points.abs() <= 0.2,
        "{} vs {}-{}",
        p.measured_gain_pct,
        p.projected_gain_pct_low,
        p.projected_gain_pct_high
    );
    assert!(p.reasons.is_empty(), "{:?}", p.reasons);
}

#[test]
fn redo_writes_rewritten_to_0_5_ms_read_as_redo_moved() {
    let Some(before) = load(REPORT) else {
        return;
    };
    let mut after = before.clone();
    rewrite_background(&mut after, "log file parallel write", 0.5);
    let saved = rewrite_event(&mut after, "log file sync", 0.7);
    rewrite_histogram_fast(&mut after, "log file parallel write");
    let db = before.header.db_time_s.unwrap();
    set_db_time(&mut after, db - saved);
    let c = run(&before, &after);
    let kinds: Vec<&str> = c.storage_changes.iter().map(|s| s.kind.as_str()).collect();
    assert_eq!(kinds, ["redo-moved"]);
    let p = c.projection_check.as_ref().unwrap();
    assert_eq!(p.option_key, "redo");
    assert!(close(p.measured_gain_pct, saved * 100.0 / db, 0.01));
    let lfpw = c
        .waits
        .iter()
        .find(|w| w.event == "log file parallel write")
        .unwrap();
    assert!(close(lfpw.after.as_ref().unwrap().avg_ms, 0.5, 1e-9));
    assert!(lfpw.avg_change_pct.unwrap() < -70.0);
}

#[test]
fn a_doubled_transaction_rate_is_drift_and_halves_db_time_per_transaction() {
    let Some(before) = load(REPORT) else {
        return;
    };
    let mut after = before.clone();
    for l in &mut after.load_profile {
        if l.name.to_ascii_lowercase().starts_with("transactions") {
            l.per_second = l.per_second.map(|v| v * 2.0);
        }
    }
    let c = run(&before, &after);
    let (b, a) = figure(&c, "db_time_per_txn_ms");
    assert!(close(a, b / 2.0, 0.01), "{b} -> {a}");
    assert_eq!(figure(&c, "txn_per_s").1, figure(&c, "txn_per_s").0 * 2.0);
    assert!(c.drift.confounded);
    assert_eq!(c.drift.txn_change_pct, Some(100.0));
    assert!(
        c.drift.message.contains("per transaction"),
        "{}",
        c.drift.message
    );
    assert!(c.storage_changes.is_empty());
    assert!(c.projection_check.is_none());
}

#[test]
fn the_same_report_on_both_sides_shows_no_change() {
    let Some(before) = load(REPORT) else {
        return;
    };
    let c = run(&before, &before);
    assert!(c.storage_changes.is_empty());
    assert!(c.figures.iter().all(|f| f.change_pct.unwrap_or(0.0) == 0.0));
    assert_eq!(c.window.choice, "whole-windows");
    assert_eq!((c.before.intervals, c.after.intervals), (1, 1));
    assert!(c.summary.starts_with("No storage change"), "{}", c.summary);
}

/// 12.1.0.1 on Linux: the advisor offers Smart Flash Cache sizes there.
const LINUX: &str = "awr-html/12.1.0.1_michaelcunningham-oracledba_PDB05_10096_10097.html";

fn with_event(r: &DbReport, name: &str, waits: f64, avg_ms: f64) -> DbReport {
    let mut after = r.clone();
    after
        .wait_events
        .foreground
        .push(awrflash_model::WaitEvent {
            name: name.into(),
            waits: Some(waits),
            time_s: Some(waits * avg_ms / 1000.0),
            avg_ms: Some(avg_ms),
            ..Default::default()
        });
    after
}

#[test]
fn flash_cache_reads_that_appear_read_as_a_flash_cache_checked_against_a_cache_size() {
    let Some(before) = load(LINUX) else {
        return;
    };
    let after = with_event(
        &before,
        "db flash cache single block physical read",
        50_000.0,
        0.3,
    );
    let c = run(&before, &after);
    let fc = c
        .storage_changes
        .iter()
        .find(|s| s.kind == "flash-cache")
        .expect("a flash cache change");
    assert!(
        fc.because.contains("none before, 50000 waits after"),
        "{}",
        fc.because
    );
    let p = c.projection_check.as_ref().expect("a projection check");
    assert!(p.option_key.starts_with("flash-cache-"), "{}", p.option_key);
    assert_eq!(fc.option_key.as_deref(), Some(p.option_key.as_str()));
}

#[test]
fn cell_reads_that_appear_read_as_exadata_with_no_projection_to_check() {
    let Some(before) = load(REPORT) else {
        return;
    };
    let after = with_event(&before, "cell single block physical read", 80_000.0, 0.5);
    let c = run(&before, &after);
    let kinds: Vec<&str> = c.storage_changes.iter().map(|s| s.kind.as_str()).collect();
    assert_eq!(kinds, ["exadata"]);
    assert!(c.projection_check.is_none());
    assert!(
        c.notes
            .iter()
            .any(|n| n.contains("no Exadata device profile"))
    );
}
