//! The streamed run (`load_grouped`, `Grouper::thinning`) holds one whole
//! report per database and still gives the analyses of the run that keeps
//! every document.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::collections::BTreeMap;

use awrflash_model::{DbReport, Document, Source};
use awrflash_run::{Databases, Grouper, RunError, databases, databases_from};

/// Every database's analysis as JSON, in database order.
fn analyses(dbs: &Databases) -> Vec<String> {
    let opts = awrflash_rules::Options::default();
    dbs.databases
        .iter()
        .map(|db| {
            let a = awrflash_run::analyze(db, &opts).unwrap();
            serde_json::to_string_pretty(&a).unwrap()
        })
        .collect()
}

fn no_reread(s: &Source) -> Result<Box<DbReport>, RunError> {
    panic!("{} read again", s.path)
}

#[test]
fn the_streamed_corpus_run_gives_the_analyses_of_the_run_that_keeps_every_document() {
    let Some(dir) = awrflash_testkit::corpus("") else {
        return;
    };
    let kept = awrflash_run::load(std::slice::from_ref(&dir), &());
    let streamed = awrflash_run::load_grouped(std::slice::from_ref(&dir), &()).unwrap();
    assert_eq!(streamed.most_full_reports_per_database, 1);
    assert_eq!(streamed.summary.ok, kept.docs.len());
    assert_eq!(streamed.summary.failed, kept.failed);
    assert_eq!(
        format!("{:?}", streamed.summary.warnings),
        format!("{:?}", kept.summary().warnings)
    );
    let full = databases(kept.docs, None).unwrap();
    let thin = databases_from(streamed.grouped, None).unwrap();
    assert_eq!(full.duplicates, thin.duplicates);
    assert_eq!(full.notes, thin.notes);
    assert_eq!(full.databases.len(), thin.databases.len());
    assert!(full.databases.len() > 10);
    assert_eq!(analyses(&full), analyses(&thin));
    // A database given up to the advisor gives the same analysis and comes
    // back with its reports as heads.
    let opts = awrflash_rules::Options::default();
    for (db, want) in thin.databases.into_iter().zip(analyses(&full)) {
        let (db, a) = awrflash_run::analyze_owned(db, &opts).unwrap();
        assert_eq!(serde_json::to_string_pretty(&a).unwrap(), want);
        assert!(
            db.reports
                .iter()
                .all(|r| matches!(r, awrflash_run::Held::Head { .. }))
        );
    }
}

/// `n` intervals of one database made from a corpus report: snapshot ids
/// and times moved on by one hour each, DB time scaled so that the busiest
/// interval is `peak`.
fn intervals(base: &DbReport, n: usize, peak: usize) -> Vec<DbReport> {
    (0..n)
        .map(|i| {
            let mut r = base.clone();
            let h = &mut r.header;
            h.begin_snap = Some(1000 + i as u64);
            h.end_snap = Some(1001 + i as u64);
            h.begin_time = Some(format!("2024-01-{:02}T{:02}:00:00", 1 + i / 24, i % 24));
            h.end_time = Some(format!("2024-01-{:02}T{:02}:59:59", 1 + i / 24, i % 24));
            // 0.5x to 1.5x, highest at `peak`, two intervals at 0.5x.
            let f = if i == peak {
                1.5
            } else {
                0.5 + (i % 7) as f64 / 7.0
            };
            h.db_time_s = h.db_time_s.map(|v| v * f);
            for t in r.time_model.iter_mut().filter(|t| t.name == "DB time") {
                t.time_s = t.time_s.map(|v| v * f);
            }
            r.source.path = format!("batch/{i:03}_{}", base.source.path);
            r
        })
        .collect()
}

#[test]
fn a_batch_of_copies_keeps_one_whole_report_per_database_and_the_same_analysis() {
    let Some(dir) = awrflash_testkit::corpus("") else {
        return;
    };
    let mut bases = Vec::new();
    for rel in [
        "awr-html/12.1.0.2_sarthi2020-AWR-reports_awr_rpt_2.html",
        "statspack/11.2.0.4_TheYanVictor-Statspack_scan.py_statspack_example.txt",
    ] {
        let bytes = std::fs::read(dir.join(rel)).unwrap();
        let Document::Report(r) = awrflash_parse::parse_bytes(rel, &bytes).unwrap() else {
            panic!("{rel}: not a report");
        };
        bases.push(*r);
    }
    let mut docs: Vec<DbReport> = Vec::new();
    for (b, peak) in bases.iter().zip([17, 0]) {
        docs.extend(intervals(b, 40, peak));
    }
    // The 5th interval again from a path that sorts first (it replaces the
    // kept one) and from one that sorts last (skipped).
    let mut again = docs[5].clone();
    again.source.path = format!("a{}", docs[5].source.path);
    docs.push(again.clone());
    again.source.path = format!("z{}", docs[5].source.path);
    docs.push(again);
    // Arrival order differs from time order: a parallel parse.
    let mut shuffled = docs.clone();
    shuffled.reverse();
    shuffled.rotate_left(13);
    let mut g = Grouper::thinning();
    for r in shuffled {
        g.push(Document::Report(Box::new(r))).unwrap();
    }
    assert_eq!(g.most_full_reports_per_database(), 1);
    let grouped = g.finish(&no_reread).unwrap();
    let whole: Vec<usize> = grouped
        .groups
        .iter()
        .map(|g| g.reports.iter().filter(|r| r.is_full()).count())
        .collect();
    assert_eq!(whole, [1, 1]);
    let thin = databases_from(grouped, None).unwrap();
    let full = databases(
        docs.into_iter()
            .map(|r| Document::Report(Box::new(r)))
            .collect(),
        None,
    )
    .unwrap();
    assert_eq!(full.duplicates, thin.duplicates);
    assert_eq!(full.duplicates.len(), 2);
    assert_eq!(thin.databases[0].reports.len(), 40);
    let (a, b) = (analyses(&full), analyses(&thin));
    assert_eq!(a, b);
    // The analyses are of many intervals with their own peak.
    let peaks: Vec<bool> = ["\"peak_interval\": 0,", "\"peak_interval\": 17,"]
        .iter()
        .map(|p| a.iter().any(|x| x.contains(p)))
        .collect();
    assert_eq!(peaks, [true, true]);
}

#[test]
fn a_peak_replaced_by_a_quieter_copy_of_its_interval_is_read_again_whole() {
    let base = DbReport {
        header: awrflash_model::Header {
            db_name: Some("PROD".into()),
            dbid: Some(1),
            elapsed_s: Some(100.0),
            ..Default::default()
        },
        ..Default::default()
    };
    let report = |path: &str, snap: u64, db_time: f64| {
        let mut r = base.clone();
        r.source.path = path.into();
        r.header.begin_snap = Some(snap);
        r.header.end_snap = Some(snap + 1);
        r.header.db_time_s = Some(db_time);
        r
    };
    let busy = report("b.html", 2, 500.0);
    let mut g = Grouper::thinning();
    for r in [
        report("b1.html", 1, 200.0),
        busy.clone(),
        report("b3.html", 3, 100.0),
        // Interval 2 again from a path that sorts first, quieter: it
        // replaces the busy copy, and interval 1 becomes the peak.
        report("a.html", 2, 50.0),
    ] {
        g.push(Document::Report(Box::new(r))).unwrap();
    }
    let mut on_disk = BTreeMap::new();
    on_disk.insert("b1.html", report("b1.html", 1, 200.0));
    let reread = |s: &Source| -> Result<Box<DbReport>, RunError> {
        Ok(Box::new(on_disk[s.path.as_str()].clone()))
    };
    let grouped = g.finish(&reread).unwrap();
    let [db] = grouped.groups.as_slice() else {
        panic!("{grouped:?}");
    };
    let held: Vec<(&str, bool)> = db
        .reports
        .iter()
        .map(|r| (r.source().path.as_str(), r.is_full()))
        .collect();
    assert_eq!(
        held,
        [("b1.html", true), ("a.html", false), ("b3.html", false)]
    );
    assert_eq!(
        grouped.duplicates,
        [("b.html".to_string(), "a.html".to_string())]
    );
}

#[test]
fn a_packed_report_is_a_small_part_of_the_parsed_one() {
    let Some(dir) = awrflash_testkit::corpus("") else {
        return;
    };
    let kept = awrflash_run::load(std::slice::from_ref(&dir), &());
    let (mut n, mut full, mut thin, mut packed) = (0, 0, 0, 0);
    for d in &kept.docs {
        let Document::Report(r) = d else {
            continue;
        };
        let awrflash_run::Held::Packed { bytes, .. } = awrflash_run::Held::pack(r).unwrap() else {
            panic!("not packed");
        };
        n += 1;
        full += serde_json::to_string(r.as_ref()).unwrap().len();
        thin += serde_json::to_string(&awrflash_facts::thin(r))
            .unwrap()
            .len();
        packed += bytes.len();
    }
    eprintln!(
        "{n} reports: {} KB of JSON each, thinned {} KB, packed {} KB",
        full / n / 1024,
        thin / n / 1024,
        packed / n / 1024
    );
    assert!(n > 20);
    assert!(packed * 20 < full, "{packed} of {full}");
}
