//! One figure, one value: every figure that appears in more than one place
//! (the I/O share of DB time, DB time, CPU, the peak interval, the p95 of
//! each trend metric, redo MB/s, the best option's DB time after) reads the
//! same in the verdict, the findings, the tables, the charts and the JSON,
//! in every format, over the shipped sample and corpus reports (an instance
//! report, a RAC global report, an AWR text report, a Statspack report and
//! a two-interval batch).

// Test helpers outside #[test] functions may fail loudly too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::path::PathBuf;

use awrflash_model::{Analysis, DbTimeBreakdown};
use common::{code, root, run, stderr, stdout};

/// The four outputs of one `analyze` run.
struct Outputs {
    name: String,
    json: Analysis,
    html: String,
    md: String,
    text: String,
}

fn analyze(name: &str, inputs: &[PathBuf]) -> Outputs {
    let get = |format: &str| {
        let mut args = vec![
            "analyze".to_string(),
            "-q".into(),
            "--format".into(),
            format.into(),
        ];
        args.extend(inputs.iter().map(|p| p.to_string_lossy().into_owned()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = run(&args);
        assert!(
            code(&o) == 0 || code(&o) == 1,
            "{name}: analyze --format {format}: {}",
            stderr(&o)
        );
        stdout(&o)
    };
    let json: Analysis = serde_json::from_str(&get("json"))
        .unwrap_or_else(|e| panic!("{name}: the JSON does not read back: {e}"));
    Outputs {
        name: name.into(),
        json,
        html: get("html"),
        md: get("md"),
        text: get("text"),
    }
}

/// Whitespace collapsed to single spaces (text output wraps paragraphs).
fn flat(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A printed number: `44,000 s` -> 44000, `8.94` -> 8.94, `55.7%` -> 55.7.
fn number(s: &str) -> Option<f64> {
    let t: String = s
        .trim()
        .trim_end_matches(['s', '%', ' '])
        .chars()
        .filter(|c| *c != ',')
        .collect();
    t.trim().parse().ok()
}

fn close(a: f64, b: f64, rel: f64, abs: f64) -> bool {
    (a - b).abs() <= abs.max(rel * a.abs().max(b.abs()))
}

fn total(b: &DbTimeBreakdown) -> f64 {
    b.cpu_s
        + b.single_block_read_s
        + b.multiblock_read_s
        + b.temp_io_s
        + b.write_wait_s
        + b.commit_s
        + b.flash_cache_read_s
        + b.other_s
}

fn io_share(b: &DbTimeBreakdown, db_time: f64) -> f64 {
    (b.single_block_read_s
        + b.multiblock_read_s
        + b.temp_io_s
        + b.write_wait_s
        + b.flash_cache_read_s)
        * 100.0
        / db_time
}

/// The number right after `prefix` in `s` (e.g. `I/O waits are ` -> 55.7).
fn number_after(s: &str, prefix: &str) -> Option<f64> {
    let at = s.find(prefix)? + prefix.len();
    let rest = s.get(at..)?;
    let end = rest
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .unwrap_or(rest.len());
    // A number that ends a sentence keeps its digits, not the full stop.
    number(rest.get(..end)?.trim_end_matches('.'))
}

/// Sum of the chart segments `<title>NAME: V s (P% of BAR)</title>` of one
/// bar of the HTML breakdown chart.
fn chart_total(html: &str, bar: &str) -> Option<f64> {
    let tail = format!("% of {bar})</title>");
    let mut sum = 0.0;
    let mut found = false;
    for part in html.split("<title>").skip(1) {
        let Some(end) = part.find("</title>") else {
            continue;
        };
        let t = &part[..end + "</title>".len()];
        if !t.ends_with(&tail) {
            continue;
        }
        let body = &t[..t.len() - tail.len()];
        let v = body.rsplit_once(": ")?.1.rsplit_once(" (")?.0;
        sum += number(v)?;
        found = true;
    }
    found.then_some(sum)
}

fn check_db_time_and_cpu(o: &Outputs) {
    let a = &o.json;
    let b = &a.exhibits.breakdown;
    let Some(db) = a.database.db_time_s.filter(|d| *d > 0.0) else {
        return;
    };
    if b.other_s > 0.0 {
        assert!(
            close(total(b), db, 0.001, 1.0),
            "{}: breakdown sums to {} s, DB time is {db} s",
            o.name,
            total(b)
        );
    }
    if let Some(best) = a.options.first() {
        assert!(
            close(best.projection.db_time_before_s, db, 0.0005, 0.5),
            "{}: options table DB time now {} vs {db}",
            o.name,
            best.projection.db_time_before_s
        );
        assert_eq!(
            &best.before, b,
            "{}: chart 'Now' bar is not the breakdown",
            o.name
        );
    }
    // The identity table in text and Markdown prints the same DB time.
    let printed = o
        .text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("DB time "))
        .find_map(|rest| number(rest.trim().split(" s").next()?))
        .expect("DB time in the text identity");
    assert!(
        close(printed, db, 0.005, 0.5),
        "{}: text DB time {printed} vs JSON {db}",
        o.name
    );
    // The HTML chart's 'Now' bar adds up to DB time, its CPU segment is DB CPU.
    if !a.options.is_empty() {
        let now = chart_total(&o.html, "Now").expect("the Now bar");
        assert!(
            close(now, total(b), 0.005, 1.0),
            "{}: chart Now {now} vs breakdown {}",
            o.name,
            total(b)
        );
        if b.cpu_s > 0.0 {
            let cpu = number_after(&o.html, "<title>CPU: ").expect("CPU segment");
            assert!(
                close(cpu, b.cpu_s, 0.005, 0.5),
                "{}: chart CPU {cpu} vs breakdown {}",
                o.name,
                b.cpu_s
            );
        }
    }
}

fn check_io_share(o: &Outputs) {
    let a = &o.json;
    let Some(db) = a.database.db_time_s.filter(|d| *d > 0.0) else {
        return;
    };
    let want = io_share(&a.exhibits.breakdown, db);
    let summary = flat(&a.verdict.summary);
    for prefix in ["I/O waits are only ", "I/O waits are "] {
        if let Some(v) = number_after(&summary, prefix) {
            assert!(
                close(v, want, 0.0, 0.06),
                "{}: verdict says I/O waits are {v}% of DB time, the breakdown {want:.2}%",
                o.name
            );
            let phrase = format!("{prefix}{v:.1}% of DB time");
            for (fmt, out) in [("html", &o.html), ("md", &o.md), ("text", &o.text)] {
                assert!(
                    flat(out).contains(&phrase),
                    "{}: {fmt} lacks the verdict's {phrase:?}",
                    o.name
                );
            }
            break;
        }
    }
    for f in &a.findings {
        for e in f
            .evidence
            .iter()
            .filter(|e| e.label == "I/O wait share of DB time")
        {
            assert!(
                close(e.value, want, 0.0, 0.06),
                "{}: {} cites an I/O share of {}%, the breakdown {want:.2}%",
                o.name,
                f.id,
                e.value
            );
        }
    }
}

fn check_best_option_after(o: &Outputs) {
    let a = &o.json;
    let Some(best) = a.options.first() else {
        return;
    };
    let p = &best.projection;
    let mid = 0.5 * (p.db_time_after_low_s + p.db_time_after_high_s);
    let after = total(&best.after);
    assert!(
        close(after, mid, 0.002, 1.0),
        "{}: best option's breakdown after sums to {after} s, the options table says {}-{} s",
        o.name,
        p.db_time_after_low_s,
        p.db_time_after_high_s
    );
    // Every term the projection applies is a listed step: before - the
    // steps' savings is the after range.
    let lo: f64 = p.steps.iter().map(|s| s.saved_s_low).sum();
    let hi: f64 = p.steps.iter().map(|s| s.saved_s_high).sum();
    assert!(
        close(p.db_time_before_s - lo, p.db_time_after_high_s, 0.001, 1.0)
            && close(p.db_time_before_s - hi, p.db_time_after_low_s, 0.001, 1.0),
        "{}: steps save {lo}..{hi} s of {} s, yet the range is {}-{} s",
        o.name,
        p.db_time_before_s,
        p.db_time_after_low_s,
        p.db_time_after_high_s
    );
    let chart = chart_total(&o.html, "After best option").expect("the After bar");
    assert!(
        close(chart, after, 0.005, 1.0),
        "{}: chart After {chart} vs JSON {after}",
        o.name
    );
}

fn check_redo(o: &Outputs) {
    let a = &o.json;
    let mut values: Vec<(String, f64)> = a
        .exhibits
        .redo
        .iter()
        .filter(|e| e.label == "redo MB/s")
        .map(|e| ("exhibits".to_string(), e.value))
        .collect();
    for f in &a.findings {
        for e in f.evidence.iter().filter(|e| e.label == "redo MB/s") {
            values.push((f.id.clone(), e.value));
        }
    }
    // The exhibits and findings describe the analysed interval (the peak
    // unless the peak is an incident).
    let analysed = a
        .window
        .as_ref()
        .map(|w| w.analysed_interval)
        .or(a.peak_interval);
    if let (Some(i), false) = (analysed, a.series.is_empty()) {
        values.push(("series analysed interval".into(), a.series[i].redo_mb_s));
    }
    if let Some((_, first)) = values.first().cloned() {
        for (at, v) in &values {
            assert!(
                close(*v, first, 0.001, 0.001),
                "{}: redo MB/s is {v} in {at}, {first} elsewhere ({values:?})",
                o.name
            );
        }
    }
}

/// Cells of the Markdown table row whose first cell is `first`.
fn md_row(md: &str, first: &str) -> Option<Vec<String>> {
    md.lines().find_map(|l| {
        let cells: Vec<String> = l
            .trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect();
        (cells.first().map(String::as_str) == Some(first)).then_some(cells)
    })
}

/// The last 20 characters of a path.
fn tail(p: &str) -> &str {
    let cut = p.char_indices().rev().nth(19).map_or(0, |(i, _)| i);
    &p[cut..]
}

fn check_series_and_trend(o: &Outputs) {
    let a = &o.json;
    if a.series.len() < 2 {
        assert!(
            a.trend.is_empty() && a.peak_interval.is_none(),
            "{}",
            o.name
        );
        return;
    }
    // The peak interval: highest DB time per second, first on ties.
    let aas: Vec<f64> = a.series.iter().map(|p| p.db_time_s / p.elapsed_s).collect();
    let want = awrflash_model::stats::peak_index(aas.iter().map(|x| Some(*x)));
    assert_eq!(a.peak_interval, want, "{}: peak interval", o.name);
    let peak = &a.series[want.unwrap()];
    let aas_trend = a
        .trend
        .iter()
        .find(|m| m.metric == "db_time_per_s")
        .expect("db_time_per_s trend");
    assert_eq!(aas_trend.peak_interval, want, "{}: trend peak", o.name);
    // Each format marks that interval, and AF005 names it.
    let html_peak = o
        .html
        .split("<tr class=\"peak\">")
        .nth(1)
        .and_then(|r| r.split("</tr>").next())
        .expect("a peak row in HTML");
    assert!(html_peak.contains(&peak.path), "{}: HTML peak row", o.name);
    let md_peak =
        o.md.lines()
            .find(|l| l.contains("(peak)"))
            .expect("a peak row in Markdown");
    // Markdown escapes the underscores of file names, and names the file
    // without its directories (a report pasted into a ticket).
    let file_name = peak.path.rsplit('/').next().unwrap_or(&peak.path);
    assert!(
        md_peak.replace("\\_", "_").contains(file_name),
        "{}: Markdown peak row {md_peak}",
        o.name
    );
    let text_peak = o
        .text
        .lines()
        // Text cuts long paths from the left: the end of the name is kept.
        .find(|l| l.contains(" * ") && l.contains(tail(&peak.path)));
    assert!(text_peak.is_some(), "{}: text peak row", o.name);
    if let Some(f) = a.findings.iter().find(|f| f.id == "AF005") {
        assert!(
            f.message.contains(&peak.path),
            "{}: AF005 names another interval",
            o.name
        );
        let p95 = number_after(&f.message, "the p95 is ").expect("AF005 p95");
        assert!(
            close(p95, aas_trend.p95.unwrap(), 0.0, 0.051),
            "{}: AF005 p95 {p95} vs trend {:?}",
            o.name,
            aas_trend.p95
        );
    }
    // p95 of every metric the series carries: nearest rank over the series,
    // and the same printed figure in text, Markdown and HTML.
    type Get = fn(&awrflash_model::SnapshotPoint) -> f64;
    let from_series: [(&str, Get); 7] = [
        ("db_time_per_s", |p| p.db_time_s / p.elapsed_s),
        ("read_iops", |p| p.read_iops),
        ("write_iops", |p| p.write_iops),
        ("read_mb_s", |p| p.read_mb_s),
        ("write_mb_s", |p| p.write_mb_s),
        ("redo_mb_s", |p| p.redo_mb_s),
        ("total_iops", |p| p.read_iops + p.write_iops),
    ];
    for m in a.trend.iter().filter(|m| m.intervals > 0) {
        if m.intervals == a.series.len()
            && let Some((_, get)) = from_series.iter().find(|(n, _)| *n == m.metric)
        {
            let want = awrflash_model::stats::p95(a.series.iter().map(get)).unwrap();
            assert!(
                close(m.p95.unwrap(), want, 0.002, 0.002),
                "{}: {} p95 {:?}, nearest rank over the series {want}",
                o.name,
                m.metric,
                m.p95
            );
        }
        let md = md_row(&o.md, &m.metric.replace('_', "\\_")).expect("trend row in Markdown");
        let text_row: Vec<String> = o
            .text
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{} ", m.metric)))
            .expect("trend row in text")
            .split("  ")
            .map(|c| c.trim().to_string())
            .filter(|c| !c.is_empty())
            .collect();
        let html_row = o
            .html
            .split(&format!("<tr><td>{}</td>", m.metric))
            .nth(1)
            .and_then(|r| r.split("</tr>").next())
            .expect("trend row in HTML");
        let html_cells: Vec<&str> = html_row
            .split("</td>")
            .map(|c| c.rsplit('>').next().unwrap_or(""))
            .collect();
        // Metric, unit, whole window, p95, peak, peak interval.
        assert_eq!(
            md.get(3),
            text_row.get(3),
            "{}: {} p95 differs between Markdown and text",
            o.name,
            m.metric
        );
        assert_eq!(
            md.get(3).map(String::as_str),
            html_cells.get(2).copied(),
            "{}: {} p95 differs between Markdown and HTML",
            o.name,
            m.metric
        );
    }
}

fn check_all(o: &Outputs) {
    check_db_time_and_cpu(o);
    check_io_share(o);
    check_best_option_after(o);
    check_redo(o);
    check_series_and_trend(o);
}

#[test]
fn the_sample_prints_one_value_per_figure_in_every_format() {
    let o = analyze(
        "sample",
        &[root().join("fixtures/sample/awr_19c_sample.html")],
    );
    // The sample has I/O in the verdict and a best option: the checks bite.
    assert!(o.json.verdict.summary.contains("I/O waits are"));
    assert!(!o.json.options.is_empty());
    check_all(&o);
}

#[test]
fn corpus_reports_print_one_value_per_figure_in_every_format() {
    let Some(c) = awrflash_testkit::corpus("") else {
        return;
    };
    let cases: &[(&str, &[&str])] = &[
        (
            "instance",
            &["awr-html/12.1.0.1_michaelcunningham-oracledba_PDB05_10096_10097.html"],
        ),
        (
            "rac-global",
            &["awr-html/19c_Azure-Oracle-Workloads-for-Azure_AWR_DBV.html"],
        ),
        (
            "awr-text",
            &["awr-text/12.2.0.1_ora600pl-jas-min_awrrpt_1_2668_2669.txt"],
        ),
        (
            "statspack",
            &["statspack/11.2.0.4_TheYanVictor-Statspack_scan.py_statspack_example.txt"],
        ),
        (
            "two-interval batch",
            &[
                "awr-html/12.1.0.2_sarthi2020-AWR-reports_awr_rpt_2.html",
                "awr-html/12.1.0.2_sarthi2020-AWR-reports_awr_rpt_3.html",
            ],
        ),
    ];
    let mut batch_checked = false;
    for (name, files) in cases {
        let paths: Vec<PathBuf> = files.iter().map(|f| c.join(f)).collect();
        if let Some(p) = paths.iter().find(|p| !p.is_file()) {
            eprintln!("skipping {name}: {} is not in the corpus", p.display());
            continue;
        }
        let o = analyze(name, &paths);
        if *name == "two-interval batch" {
            assert_eq!(
                o.json.series.len(),
                2,
                "the batch is one database, two intervals"
            );
            assert!(!o.json.trend.is_empty());
            batch_checked = true;
        }
        check_all(&o);
    }
    assert!(batch_checked, "the multi-interval case did not run");
}

#[test]
fn the_number_reader_reads_what_the_renderers_print() {
    assert_eq!(number("44,000 s"), Some(44000.0));
    assert_eq!(number("55.7%"), Some(55.7));
    assert_eq!(
        number_after("I/O waits are 55.7% of DB time", "I/O waits are "),
        Some(55.7)
    );
    assert_eq!(
        number_after("the p95 is 81.4. The", "the p95 is "),
        Some(81.4)
    );
    let html = "<title>CPU: 14,080 s (32.0% of Now)</title><title>other: 3,690 s (8.4% of Now)</title><title>CPU: 1 s (1% of After best option)</title>";
    assert_eq!(chart_total(html, "Now"), Some(17770.0));
    assert_eq!(chart_total(html, "After best option"), Some(1.0));
}
