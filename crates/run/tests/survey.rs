//! The two-pass run (`survey`, then `Survey::analyze`) gives what the
//! one-pass run (`load_grouped`, `analyze_all`) gives: the same databases,
//! attachments, duplicates, failures, warnings and analyses, over the corpus
//! and over batches of copies of corpus reports in several databases
//! (plain, gzip and zip inputs, an iostat capture, a bad file in the middle).

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::io::Write;
use std::path::{Path, PathBuf};

use awrflash_model::Analysis;
use awrflash_run::{Analysed, Database, Databases, LoadSummary};

/// What a caller keeps of a database: its label, report paths and the
/// analysis as JSON.
fn keep(db: &Database, a: Analysis) -> (String, Vec<String>, String) {
    (
        db.key.label(),
        db.reports.iter().map(|r| r.source().path.clone()).collect(),
        serde_json::to_string_pretty(&a).unwrap(),
    )
}

type Kept = (String, Vec<String>, String);

/// The one-pass run, as `awrflash analyze` ran before the survey.
fn one_pass(args: &[PathBuf]) -> (Databases, Vec<Kept>, LoadSummary) {
    let streamed = awrflash_run::load_grouped(args, &()).unwrap();
    let dbs = awrflash_run::databases_from(streamed.grouped, None).unwrap();
    let shown = Databases {
        databases: dbs
            .databases
            .iter()
            .map(|d| Database {
                reports: d.reports.iter().map(awrflash_run::Held::head).collect(),
                ..d.clone()
            })
            .collect(),
        ..dbs.clone()
    };
    let opts = awrflash_rules::Options::default();
    let results = awrflash_run::analyze_all(dbs.databases, &opts, keep).unwrap();
    (shown, results, streamed.summary)
}

fn two_pass(args: &[PathBuf]) -> Analysed<Kept> {
    let survey = awrflash_run::survey(args, None, &()).unwrap();
    // Every report is known by its head until its database is analysed.
    assert!(
        survey
            .databases()
            .databases
            .iter()
            .flat_map(|d| &d.reports)
            .all(|r| matches!(r, awrflash_run::Held::Head { .. }))
    );
    survey
        .analyze(&awrflash_rules::Options::default(), &(), keep)
        .unwrap()
}

fn assert_same(args: &[PathBuf]) -> Analysed<Kept> {
    let (dbs, results, summary) = one_pass(args);
    let run = two_pass(args);
    assert_eq!(run.reread, None, "the heads placed every report");
    assert_eq!(run.summary.ok, summary.ok);
    assert_eq!(run.summary.failed, summary.failed);
    assert_eq!(
        format!("{:?}", run.summary.warnings),
        format!("{:?}", summary.warnings)
    );
    assert_eq!(run.databases.duplicates, dbs.duplicates);
    assert_eq!(run.databases.notes, dbs.notes);
    assert_eq!(
        format!("{:?}", run.databases.unused),
        format!("{:?}", dbs.unused)
    );
    let shown = |d: &Databases| -> Vec<String> {
        d.databases
            .iter()
            .map(|d| format!("{:?} {:?} {:?}", d.key, d.attachments, d.reports))
            .collect()
    };
    assert_eq!(shown(&run.databases), shown(&dbs));
    assert_eq!(run.results.len(), results.len());
    for (a, b) in run.results.iter().zip(&results) {
        assert_eq!(a, b, "{}", a.0);
    }
    run
}

#[test]
fn the_corpus_in_two_passes_gives_the_one_pass_runs_databases_and_analyses() {
    let Some(dir) = awrflash_testkit::corpus("") else {
        return;
    };
    let run = assert_same(std::slice::from_ref(&dir));
    assert!(run.results.len() > 10);
    // The ASH report is refused, as in one pass.
    assert!(!run.summary.failed.is_empty());
}

/// `prefix`, the snapshot ids after `Begin Snap:` and `End Snap:` replaced
/// by `begin` and `begin + 1` (as the bench's batches do), or `None` when
/// the report has no such labels.
fn renumbered(bytes: &[u8], begin: u64) -> Option<Vec<u8>> {
    fn number_after(b: &[u8], label: &[u8], from: usize) -> Option<(usize, usize)> {
        let at = from
            + b.get(from..)?
                .windows(label.len())
                .position(|w| w == label)?;
        let mut in_tag = false;
        let start = at + label.len();
        for k in start..(start + 512).min(b.len()) {
            match b[k] {
                b'<' => in_tag = true,
                b'>' => in_tag = false,
                c if c.is_ascii_digit() && !in_tag => {
                    let len = b[k..].iter().take_while(|c| c.is_ascii_digit()).count();
                    return Some((k, len));
                }
                _ => {}
            }
        }
        None
    }
    let (x, xl) = number_after(bytes, b"Begin Snap:", 0)?;
    let (y, yl) = number_after(bytes, b"End Snap:", x + xl)?;
    let mut out = bytes[..x].to_vec();
    out.extend_from_slice(begin.to_string().as_bytes());
    out.extend_from_slice(&bytes[x + xl..y]);
    out.extend_from_slice((begin + 1).to_string().as_bytes());
    out.extend_from_slice(&bytes[y + yl..]);
    Some(out)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(bytes).unwrap();
    z.finish().unwrap()
}

/// A batch of copies of three corpus reports (three databases, eight
/// intervals each, one interval given twice), some gzipped, some in a zip
/// archive, an iostat capture and a file that is no report in the middle.
fn batch(corpus: &Path, dir: &Path) {
    let sources = [
        "awr-html/12.1.0.2_sarthi2020-AWR-reports_awr_rpt_2.html",
        "awr-text/12.2.0.1_ora600pl-jas-min_awrrpt_1_2668_2669.txt",
        "statspack/11.2.0.4_TheYanVictor-Statspack_scan.py_statspack_example.txt",
    ];
    let bases: Vec<Vec<u8>> = sources
        .iter()
        .map(|s| std::fs::read(corpus.join(s)).unwrap())
        .collect();
    let file = std::fs::File::create(dir.join("week.zip")).unwrap();
    let mut zip = zip::ZipWriter::new(file);
    let opts = zip::write::SimpleFileOptions::default();
    for i in 0..24u64 {
        let s = (i % 3) as usize;
        let copy = renumbered(&bases[s], 100_000 + i / 3).unwrap();
        let name = format!("{i:03}_{}", sources[s].rsplit('/').next().unwrap());
        match i % 4 {
            0 => std::fs::write(dir.join(format!("{name}.gz")), gzip(&copy)).unwrap(),
            1 if i < 12 => {
                zip.start_file(name.as_str(), opts).unwrap();
                zip.write_all(&copy).unwrap();
            }
            _ => std::fs::write(dir.join(&name), &copy).unwrap(),
        }
        if i == 7 {
            // The same interval again, from a path that sorts last.
            std::fs::write(dir.join(format!("zz_{name}")), &copy).unwrap();
        }
    }
    zip.finish().unwrap();
    std::fs::write(
        dir.join("011_broken.html"),
        b"<html><body>WORKLOAD REPOSITORY report for\n<p>cut here",
    )
    .unwrap();
    let iostat = corpus.join("iostat/linux_sysstat-sysstat_expected.iostat-x");
    std::fs::copy(iostat, dir.join("iostat.txt")).unwrap();
}

#[test]
fn a_batch_in_two_passes_gives_the_one_pass_runs_analyses_and_lists_the_bad_file() {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    batch(&corpus, tmp.path());
    let run = assert_same(&[tmp.path().to_path_buf()]);
    assert_eq!(run.results.len(), 3);
    for (label, reports, _) in &run.results {
        assert_eq!(reports.len(), 8, "{label}");
    }
    assert_eq!(run.databases.duplicates.len(), 1);
    let failed: Vec<&str> = run.summary.failed.iter().map(|f| f.0.as_str()).collect();
    assert_eq!(failed.len(), 1);
    assert!(failed[0].ends_with("011_broken.html"), "{failed:?}");
    // 24 reports, their copy, the capture: the batch went on.
    assert_eq!(run.summary.ok, 26);
}

#[test]
fn a_head_that_reads_another_header_than_the_whole_report_falls_back_to_one_pass() {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    let name = "awr-html/12.1.0.2_sarthi2020-AWR-reports_awr_rpt_2.html";
    let bytes = std::fs::read(corpus.join(name)).unwrap();
    // A comment longer than the head between the begin and the end
    // snapshot rows: the head reads a begin snapshot and no end.
    let at = bytes
        .windows(9)
        .position(|w| w == b"End Snap:")
        .expect("an End Snap row");
    let row = bytes[..at]
        .windows(3)
        .rposition(|w| w == b"<tr")
        .expect("its row");
    let mut odd = bytes[..row].to_vec();
    odd.extend_from_slice(b"<!--");
    odd.extend(std::iter::repeat_n(b'x', awrflash_parse::HEAD_BYTES + 10));
    odd.extend_from_slice(b"-->\n");
    odd.extend_from_slice(&bytes[row..]);
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("a.html"), &odd).unwrap();
    std::fs::write(tmp.path().join("b.html"), renumbered(&bytes, 7).unwrap()).unwrap();
    let args = [tmp.path().to_path_buf()];
    let (_, results, _) = one_pass(&args);
    let run = two_pass(&args);
    let why = run.reread.expect("the run read every report again");
    assert!(why.contains("a.html"), "{why}");
    assert_eq!(run.results, results);
}

/// What a run told its progress display, in order.
#[derive(Default)]
struct Heard(std::sync::Mutex<Vec<String>>);

impl awrflash_run::Progress for Heard {
    fn start(&self, units: usize) {
        self.0.lock().unwrap().push(format!("start {units}"));
    }
    fn pass(&self, what: &'static str, units: usize) {
        self.0.lock().unwrap().push(format!("{what} {units}"));
    }
    fn done(&self, _: u64, _: std::time::Duration) {
        let mut heard = self.0.lock().unwrap();
        match heard.last_mut() {
            Some(last) if last.starts_with("done ") => {
                let n: usize = last[5..].parse().unwrap();
                *last = format!("done {}", n + 1);
            }
            _ => heard.push("done 1".into()),
        }
    }
    fn finish(&self) {
        self.0.lock().unwrap().push("finish".into());
    }
}

#[test]
fn the_progress_display_counts_every_input_in_the_first_pass_and_every_report_in_the_second() {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    batch(&corpus, tmp.path());
    let heard = Heard::default();
    let survey = awrflash_run::survey(&[tmp.path().to_path_buf()], None, &heard).unwrap();
    survey
        .analyze(&awrflash_rules::Options::default(), &heard, keep)
        .unwrap();
    // 27 inputs: 6 gzip copies, 3 zip members, 16 plain copies (the
    // interval given twice among them), the broken file and the capture.
    // 25 are reports, parsed whole in the second pass.
    assert_eq!(
        heard.0.into_inner().unwrap(),
        ["headers 27", "done 27", "reports 25", "done 25", "finish"]
    );
}
