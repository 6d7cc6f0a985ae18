//! A pre-migration batch through the binary: every corpus file copied into a
//! temp dir, with a zip and a gzip of some of them (the same intervals again)
//! and one garbage file. The expectations are computed here from the parser
//! and the grouping library, so the tests hold whatever the parsers accept;
//! what they check is that the binary reads, counts, groups and writes the same.

// Test helpers outside #[test] functions may fail loudly too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::collections::BTreeSet;
use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::sync::OnceLock;

use awrflash_model::Document;
use common::{code, run, stderr};
use polars::prelude::SerReader;

/// The batch directory and, for each input the binary will see, its name and bytes.
struct Batch {
    _tmp: tempfile::TempDir,
    dir: PathBuf,
    out: PathBuf,
    inputs: Vec<(String, Vec<u8>)>,
}

fn batch() -> Option<Batch> {
    let corpus = awrflash_testkit::corpus("")?;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("in");
    let mut inputs = Vec::new();
    let files: Vec<PathBuf> = awrflash_testkit::files_below(&corpus)
        .iter()
        .map(|f| f.strip_prefix(&corpus).unwrap().to_path_buf())
        .collect();
    for rel in &files {
        let to = dir.join("corpus").join(rel);
        fs::create_dir_all(to.parent().unwrap()).unwrap();
        fs::copy(corpus.join(rel), &to).unwrap();
        inputs.push((to.display().to_string(), fs::read(&to).unwrap()));
    }
    let pick = |sub: &str, n: usize| -> Vec<PathBuf> {
        files
            .iter()
            .filter(|f| f.starts_with(sub))
            .take(n)
            .cloned()
            .collect()
    };

    // A zip of three AWR HTML reports and a Statspack report, in a folder.
    let zip_path = dir.join("week.zip");
    let mut zw = zip::ZipWriter::new(fs::File::create(&zip_path).unwrap());
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    let mut members = Vec::new();
    for rel in pick("awr-html", 3).into_iter().chain(pick("statspack", 1)) {
        let name = format!("week/{}", rel.file_name().unwrap().to_str().unwrap());
        let bytes = fs::read(corpus.join(&rel)).unwrap();
        zw.start_file(&name, opts).unwrap();
        zw.write_all(&bytes).unwrap();
        members.push((format!("{}!{name}", zip_path.display()), bytes));
    }
    zw.finish().unwrap();
    members.sort_by(|a, b| a.0.cmp(&b.0));
    inputs.extend(members);

    // A gzip of a text report.
    if let Some(rel) = pick("awr-text", 1).first() {
        let bytes = fs::read(corpus.join(rel)).unwrap();
        let gz_path = dir.join("report.txt.gz");
        let mut gz = flate2::write::GzEncoder::new(
            fs::File::create(&gz_path).unwrap(),
            flate2::Compression::fast(),
        );
        gz.write_all(&bytes).unwrap();
        gz.finish().unwrap();
        inputs.push((gz_path.display().to_string(), bytes));
    }

    let garbage = dir.join("garbage.dat");
    let junk: Vec<u8> = (0..4096u32).map(|i| (i * 7919 % 251) as u8).collect();
    fs::write(&garbage, &junk).unwrap();
    inputs.push((garbage.display().to_string(), junk));

    let out = tmp.path().join("out");
    Some(Batch {
        _tmp: tmp,
        dir,
        out,
        inputs,
    })
}

/// What the parser makes of each input: `(documents, failed input names)`.
/// Parsed once per test binary (the batch layout is the same in every temp
/// dir): the documents keep names relative to the batch dir, which is all
/// that grouping and counting need.
fn expected(b: &Batch) -> (Vec<Document>, Vec<String>) {
    static PARSED: OnceLock<Vec<(String, Option<Document>)>> = OnceLock::new();
    let prefix = b.dir.display().to_string();
    let parsed = PARSED.get_or_init(|| {
        let inputs: Vec<(String, &[u8])> = b
            .inputs
            .iter()
            .map(|(name, bytes)| (name.replacen(&prefix, "", 1), bytes.as_slice()))
            .collect();
        // Two halves on two threads: the debug-build parser is the slow part.
        let (left, right) = inputs.split_at(inputs.len() / 2);
        let parse = |part: &[(String, &[u8])]| -> Vec<(String, Option<Document>)> {
            part.iter()
                .map(|(name, bytes)| (name.clone(), awrflash_parse::parse_bytes(name, bytes).ok()))
                .collect()
        };
        std::thread::scope(|s| {
            let l = s.spawn(|| parse(left));
            let mut all = parse(right);
            let mut first = l.join().unwrap();
            first.append(&mut all);
            first
        })
    });
    let mut docs = Vec::new();
    let mut failed = Vec::new();
    for (rel, doc) in parsed {
        match doc {
            Some(d) => docs.push(d.clone()),
            None => failed.push(format!("{prefix}{rel}")),
        }
    }
    (docs, failed)
}

#[test]
fn a_directory_batch_with_archives_and_garbage_gives_one_report_per_database() {
    let Some(b) = batch() else {
        return;
    };
    let (docs, failed) = expected(&b);
    let out_dir = format!("{}/", b.out.display());
    let o = run(&[
        "analyze",
        b.dir.to_str().unwrap(),
        "-o",
        &out_dir,
        "-j",
        "2",
    ]);
    let err = stderr(&o);

    let total = b.inputs.len();
    assert!(failed.iter().any(|f| f.ends_with("garbage.dat")));
    // Every report and iostat capture of the corpus is usable; only the
    // unsupported extras (ASH report, ...) and the garbage may fail.
    for f in &failed {
        let name = f.replace('\\', "/");
        assert!(
            name.ends_with("garbage.dat") || name.contains("/corpus/other/"),
            "a corpus report failed: {f}"
        );
    }
    assert!(
        err.contains(&format!(
            "{total} inputs: {} ok, {} failed",
            docs.len(),
            failed.len()
        )),
        "{err}"
    );
    for f in &failed {
        assert!(
            err.contains(&format!("warning: {f}: ")),
            "no warning for {f}:\n{err}"
        );
    }
    if docs.is_empty() {
        assert_eq!(code(&o), 2, "{err}");
        return;
    }
    assert_eq!(code(&o), 0, "{err}");

    let ok = docs.len();
    let grouped = awrflash_run::group(docs);
    eprintln!(
        "batch: {total} inputs, {ok} ok, {} failed, {} databases, {} intervals given twice",
        failed.len(),
        grouped.groups.len(),
        grouped.duplicates.len()
    );
    let mut stems: Vec<String> = grouped.groups.iter().map(|g| g.key.file_stem()).collect();
    if stems.is_empty() {
        stems.push("unknown_nodbid_unknown".into());
    }
    // Each report with its summary (the index is rebuilt from those).
    let mut want: BTreeSet<String> = stems
        .iter()
        .flat_map(|s| [format!("{s}.html"), format!("{s}.summary.json")])
        .collect();
    want.insert("index.html".into());
    let got: BTreeSet<String> = fs::read_dir(&b.out)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(got, want, "{err}");
    let index = fs::read_to_string(b.out.join("index.html")).unwrap();
    for name in want
        .iter()
        .filter(|n| *n != "index.html" && n.ends_with(".html"))
    {
        assert!(
            index.contains(&format!("href=\"{name}\"")),
            "index.html does not link {name}"
        );
    }
    // The copies in the zip and the gzip are the same intervals as the files.
    if !grouped.duplicates.is_empty() {
        assert!(err.contains("given more than once"), "{err}");
    }
}

#[test]
fn extract_writes_the_documented_parquet_tables_with_every_row() {
    let Some(b) = batch() else {
        return;
    };
    let (docs, _) = expected(&b);
    let o = run(&[
        "-q",
        "extract",
        b.dir.to_str().unwrap(),
        "--out",
        b.out.to_str().unwrap(),
        "--to",
        "parquet",
    ]);
    if docs.is_empty() {
        assert_eq!(code(&o), 2);
        return;
    }
    assert_eq!(code(&o), 0, "{}", stderr(&o));

    let grouped = awrflash_run::group(docs);
    let docs = grouped.all_documents().unwrap();
    let reports: Vec<_> = docs
        .iter()
        .filter_map(|d| match d {
            Document::Report(r) => Some(r),
            _ => None,
        })
        .collect();
    let sum = |f: &dyn Fn(&awrflash_model::DbReport) -> usize| -> usize {
        reports.iter().map(|r| f(r)).sum()
    };
    let want_rows = |table: &str| -> usize {
        match table {
            "snapshots" => reports.len(),
            "load_profile" => sum(&|r| r.load_profile.len()),
            "wait_events" => sum(&|r| {
                r.top_events.len() + r.wait_events.foreground.len() + r.wait_events.background.len()
            }),
            "activity_stats" => sum(&|r| r.activity_stats.len()),
            "segments" => sum(&|r| r.segments.values().map(Vec::len).sum()),
            "tablespace_io" => sum(&|r| r.tablespace_io.len()),
            "file_io" => sum(&|r| r.file_io.len()),
            "iostat_samples" => docs
                .iter()
                .map(|d| match d {
                    Document::Iostat(c) => c.samples.len(),
                    _ => 0,
                })
                .sum(),
            "trend_summary" => grouped.groups.len() * awrflash_extract::TREND_METRICS.len(),
            other => panic!("undocumented table {other}"),
        }
    };

    let schema = common::documented_schema();
    let names: Vec<&str> = schema.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(names, awrflash_extract::TABLE_NAMES, "README tables");
    for (table, columns) in &schema {
        let path = b.out.join(format!("{table}.parquet"));
        let df = polars::prelude::ParquetReader::new(fs::File::open(&path).unwrap())
            .finish()
            .unwrap();
        let got: Vec<String> = df
            .get_column_names()
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(&got, columns, "columns of {table}");
        assert_eq!(df.height(), want_rows(table), "rows of {table}");
    }
}

#[test]
fn fail_on_exits_1_exactly_when_a_finding_reaches_the_level() {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    let dir = corpus.join("awr-html");
    let Some(report) = awrflash_testkit::files_below(&dir)
        .into_iter()
        .find(|f| awrflash_parse::parse_bytes("r", &fs::read(f).unwrap()).is_ok())
    else {
        eprintln!("skipping: no corpus AWR HTML report parses yet");
        return;
    };
    let report = report.to_str().unwrap();
    let o = run(&["-q", "analyze", report, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let analysis: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let rank = |s: &str| ["info", "warning", "critical"].iter().position(|x| *x == s);
    let worst = analysis["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| rank(f["severity"].as_str()?))
        .max();
    for level in ["info", "warning", "critical"] {
        let o = run(&[
            "-q",
            "analyze",
            report,
            "--format",
            "json",
            "--fail-on",
            level,
        ]);
        let want = i32::from(worst.is_some_and(|w| Some(w) >= rank(level)));
        assert_eq!(code(&o), want, "--fail-on {level}, worst {worst:?}");
    }
}

#[test]
fn several_databases_need_a_directory_for_html_and_give_json_lines_on_stdout() {
    let Some(b) = batch() else {
        return;
    };
    let (docs, _) = expected(&b);
    let groups = awrflash_run::group(docs).groups.len();
    if groups < 2 {
        eprintln!("skipping: fewer than two databases parse yet ({groups})");
        return;
    }
    let dir = b.dir.to_str().unwrap();
    let one = b.out.join("one.html");
    let o = run(&["-q", "analyze", dir, "-o", one.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains(&format!("the inputs hold {groups} databases")),
        "{}",
        stderr(&o)
    );
    assert!(!one.exists());

    let o = run(&["-q", "analyze", dir, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // JSON Lines: one document per database, each on its own line.
    let text = String::from_utf8(o.stdout).unwrap();
    let docs: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(docs.len(), groups);
    assert!(docs.iter().all(|d| d["verdict"].is_object()));
}

#[test]
fn the_extracted_snapshots_agree_with_the_advisor_series() {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    // Two consecutive hourly reports of one database.
    let dir = corpus.join("awr-html");
    let pair: Vec<String> = awrflash_testkit::files_below(&dir)
        .into_iter()
        .filter(|f| {
            f.to_string_lossy()
                .contains("sarthi2020-AWR-reports_awr_rpt_")
        })
        .map(|f| f.display().to_string())
        .collect();
    if pair.len() != 2
        || pair
            .iter()
            .any(|f| awrflash_parse::parse_bytes(f, &fs::read(f).unwrap()).is_err())
    {
        eprintln!("skipping: the two sarthi2020 reports are not in the corpus or do not parse");
        return;
    }
    let mut args = vec!["-q", "analyze", "--format", "json"];
    args.extend(pair.iter().map(String::as_str));
    let o = run(&args);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let analysis: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let series = analysis["series"].as_array().unwrap();
    assert_eq!(series.len(), 2);

    let tmp = tempfile::tempdir().unwrap();
    let mut args = vec!["-q", "extract", "--out", tmp.path().to_str().unwrap()];
    args.extend(pair.iter().map(String::as_str));
    assert_eq!(code(&run(&args)), 0);
    let df = polars::prelude::ParquetReader::new(
        fs::File::open(tmp.path().join("snapshots.parquet")).unwrap(),
    )
    .finish()
    .unwrap();
    assert_eq!(df.height(), 2);
    for col in [
        "db_time_s",
        "db_cpu_s",
        "read_iops",
        "write_iops",
        "read_mb_s",
        "write_mb_s",
        "redo_mb_s",
    ] {
        let ours = df.column(col).unwrap().f64().unwrap();
        for (i, point) in series.iter().enumerate() {
            let theirs = point[col].as_f64().unwrap();
            let mine = ours.get(i).unwrap();
            // The advisor rounds its series for display.
            let tol = 0.01 * theirs.abs().max(mine.abs()) + 0.01;
            assert!(
                (mine - theirs).abs() <= tol,
                "{col}[{i}]: extract {mine}, advisor {theirs}"
            );
        }
    }
    // And the trend in the text report names the busier interval as the peak.
    let mut args = vec!["-q", "analyze", "--format", "text"];
    args.extend(pair.iter().map(String::as_str));
    let text = common::stdout(&run(&args));
    assert!(text.contains("Trend: whole window"), "{text}");
    let aas =
        |p: &serde_json::Value| p["db_time_s"].as_f64().unwrap() / p["elapsed_s"].as_f64().unwrap();
    let busier = series
        .iter()
        .max_by(|a, b| aas(a).total_cmp(&aas(b)))
        .unwrap();
    let line = text
        .lines()
        .find(|l| l.trim_start().starts_with("db_time_per_s"))
        .unwrap();
    assert!(
        line.ends_with(busier["end_time"].as_str().unwrap()),
        "{line}"
    );
}
