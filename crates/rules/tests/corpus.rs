//! Runs the advisor on every real report in `../shared/corpus` (AWR HTML,
//! AWR text, Statspack): no error, findings present, every evidence number
//! traced. Skips with a reason when the corpus is absent.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use awrflash_model::Document;
use awrflash_rules::{Options, analyze};

fn corpus_files() -> Option<Vec<std::path::PathBuf>> {
    let root = awrflash_testkit::corpus("")?;
    let mut files: Vec<_> = ["awr-html", "awr-text", "statspack"]
        .iter()
        .flat_map(|dir| awrflash_testkit::files_in(&root.join(dir)))
        .collect();
    files.sort();
    Some(files)
}

#[test]
fn every_corpus_report_analyses_without_error_and_gives_findings() {
    let Some(files) = corpus_files() else {
        return;
    };
    assert!(!files.is_empty(), "corpus has no reports");
    let mut summary = Vec::new();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let doc = match awrflash_parse::parse_bytes(&name, &bytes) {
            Ok(d) => d,
            Err(e) => {
                // A parse error is the parser's business; the advisor only
                // sees what parses. Report it so the run shows it.
                eprintln!("{name}: not parsed: {e}");
                continue;
            }
        };
        if !matches!(doc, Document::Report(_)) {
            continue;
        }
        let a = analyze(std::slice::from_ref(&doc), &Options::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!a.findings.is_empty(), "{name}: no findings");
        assert!(!a.verdict.summary.is_empty(), "{name}: empty verdict");
        // A verdict does not promise a gain and deny it in one breath.
        assert!(
            !(a.verdict.summary.contains("would cut DB time")
                && a.verdict.summary.contains("cannot do much")),
            "{name}: {}",
            a.verdict.summary
        );
        // An interval with almost no DB time gets no advice.
        let db = a.database.db_time_s.unwrap_or(0.0);
        let el = a.database.elapsed_s.unwrap_or(0.0);
        if db > 0.0 && el > 0.0 && db / el < 0.01 {
            assert_eq!(
                a.verdict.bound, "not-enough-load",
                "{name}: {}",
                a.verdict.summary
            );
        }
        for f in &a.findings {
            for e in &f.evidence {
                assert!(
                    e.value.is_finite(),
                    "{name}: {} evidence `{}` is not finite",
                    f.id,
                    e.label
                );
                assert!(
                    e.src.is_some() || e.derived_from.is_some(),
                    "{name}: {} evidence `{}` untraced",
                    f.id,
                    e.label
                );
            }
        }
        for o in &a.options {
            let p = &o.projection;
            assert!(
                p.db_time_after_low_s <= p.db_time_after_high_s + 1e-6
                    && p.db_time_after_high_s <= p.db_time_before_s + 1e-6,
                "{name}: option {} range out of order: {} {} {}",
                o.key,
                p.db_time_after_low_s,
                p.db_time_after_high_s,
                p.db_time_before_s
            );
        }
        // Segments set aside (AWR, monitoring repositories, maintenance
        // reads) may be Oracle's own: they are listed, never moved.
        for s in a.segments_to_move.iter().filter(|s| s.set_aside.is_none()) {
            assert!(
                !matches!(s.owner.to_ascii_uppercase().as_str(), "SYS" | "SYSTEM")
                    && !matches!(
                        s.tablespace.to_ascii_uppercase().as_str(),
                        "SYSTEM" | "SYSAUX"
                    ),
                "{name}: Oracle-maintained segment listed to move: {}.{}",
                s.owner,
                s.object
            );
            // Text reports cut names: their move SQL says so.
            let text = !name.ends_with(".html") && !name.ends_with(".htm");
            // No advice, no statements.
            let no_advice = a.verdict.bound.as_str().starts_with("not-enough");
            assert!(!(no_advice && s.sql.is_some()), "{name}: {:?}", s.sql);
            // A segment set aside (maintenance work) gets no move at all.
            if text
                && !no_advice
                && s.set_aside.is_none()
                && (s.subobject.is_some() || s.object.len() >= 20 || s.owner.len() >= 10)
            {
                let sql = s.sql.as_deref().unwrap_or("");
                assert!(sql.contains("may have cut"), "{name}: {sql}");
            }
        }
        let ids: Vec<&str> = a.findings.iter().map(|f| f.id.as_str()).collect();
        summary.push(format!(
            "{name}: bound {} gain {}-{}% best {:?}; {}",
            a.verdict.bound,
            a.verdict.gain_pct_low,
            a.verdict.gain_pct_high,
            a.verdict.best_option,
            ids.join(",")
        ));
    }
    eprintln!("{}", summary.join("\n"));
    assert!(summary.len() >= 10, "too few corpus reports analysed");
}

#[test]
fn all_corpus_reports_of_one_directory_analyse_together_as_a_series() {
    let Some(files) = corpus_files() else {
        return;
    };
    let docs: Vec<Document> = files
        .iter()
        .filter(|p| p.to_string_lossy().contains("awr-html"))
        .filter_map(|p| {
            let bytes = std::fs::read(p).ok()?;
            awrflash_parse::parse_bytes(&p.file_name()?.to_string_lossy(), &bytes).ok()
        })
        .collect();
    if docs.len() < 2 {
        eprintln!("skipped: fewer than two parsable HTML reports");
        return;
    }
    let a = analyze(&docs, &Options::default()).unwrap();
    assert_eq!(a.series.len(), docs.len());
    assert!(
        a.findings.iter().any(|f| f.id == "AF005"),
        "peak interval not named"
    );
}

#[test]
fn corpus_aix_and_exadata_reports_get_no_smart_flash_cache_option() {
    let Some(files) = corpus_files() else {
        return;
    };
    let (mut aix, mut exadata) = (0, 0);
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(doc) = awrflash_parse::parse_bytes(&name, &std::fs::read(path).unwrap()) else {
            continue;
        };
        let Document::Report(r) = &doc else {
            continue;
        };
        let is_aix = r
            .header
            .platform
            .as_deref()
            .is_some_and(|p| p.to_ascii_uppercase().contains("AIX"));
        let is_cell = r
            .wait_events
            .foreground
            .iter()
            .any(|e| e.name.starts_with("cell "));
        if !is_aix && !is_cell {
            continue;
        }
        aix += usize::from(is_aix);
        exadata += usize::from(is_cell);
        let a = analyze(std::slice::from_ref(&doc), &Options::default()).unwrap();
        let keys: Vec<_> = a.options.iter().map(|o| o.key.clone()).collect();
        assert!(
            !keys.iter().any(|k| k.starts_with("flash-cache-")),
            "{name}: {keys:?}"
        );
        assert!(
            a.flash_cache.as_ref().is_none_or(|f| !f.recommended),
            "{name}"
        );
    }
    eprintln!("checked {aix} AIX and {exadata} Exadata reports");
    assert!(
        aix > 0 && exadata > 0,
        "the corpus has AIX and Exadata reports"
    );
}

/// The 19c jdmoreno 160_204 report prints `log file sync` in a microsecond
/// table (`>=512us 100.0`), an "up to 32 ms" table and an "up to 2 sec"
/// table: merged, the 4-8 ms bucket carries the 44.6% the 32 ms table
/// prints, and the exhibit and the redo option's projection use it.
#[test]
fn the_19c_log_file_sync_histograms_merge_into_one_distribution() {
    let Some(root) = awrflash_testkit::corpus("") else {
        return;
    };
    let name = "19c_jdmoreno-awr-export_awrrpt_1_160_204.html";
    let Ok(bytes) = std::fs::read(root.join("awr-html").join(name)) else {
        eprintln!("skipped: {name} is not in the corpus");
        return;
    };
    let doc = awrflash_parse::parse_bytes(name, &bytes).unwrap();
    let Document::Report(r) = &doc else {
        panic!("{name}: not a report");
    };
    let d = awrflash_facts::histogram::merge(&r.wait_histogram, "log file sync").unwrap();
    assert!(d.rows.len() >= 3, "{:?}", d.rows);
    let bucket = |lo: f64, hi: f64| {
        let ranges = d.ranges();
        ranges
            .iter()
            .find(|(l, h, _)| (*l - lo).abs() < 1e-9 && h.is_some_and(|h| (h - hi).abs() < 1e-9))
            .map(|(_, _, p)| *p)
            .unwrap_or_else(|| panic!("no {lo}-{hi} ms bucket in {ranges:?}"))
    };
    assert!((bucket(4.0, 8.0) - 44.6).abs() < 1e-9);
    assert!((bucket(1.0, 2.0) - 14.9).abs() < 1e-9);
    // Not one open `>=512us` bucket holding everything.
    assert!(d.pct_above(0.512) > 99.0 && d.buckets.len() > 10);
    assert!(d.warnings.is_empty(), "{:?}", d.warnings);

    let a = analyze(std::slice::from_ref(&doc), &Options::default()).unwrap();
    let h = a
        .exhibits
        .histograms
        .iter()
        .find(|h| h.event == "log file sync")
        .unwrap();
    assert!(
        h.buckets
            .iter()
            .any(|b| (b.le_ms - 8.0).abs() < 1e-9 && (b.pct - 44.6).abs() < 1e-9)
    );
    let redo = a.options.iter().find(|o| o.key == "redo").unwrap();
    let step = redo
        .projection
        .steps
        .iter()
        .find(|s| s.component == "log file sync")
        .unwrap();
    // The redo option projects log file sync by the commit model (the
    // write, LGWR's queue, posting and scheduling), not bucket by bucket.
    assert!(step.method.contains("commit model"), "{}", step.method);
}
