//! The same snapshot pair of the same database, as an HTML and as a text
//! AWR report, gives the same model, field by field, up to the rounding the
//! text format prints. Event and statistic names must be equal: the text
//! parser maps the names it finds cut back to Oracle's full names. Other
//! names (objects, classes, parameters) may still be cut to their column.

#![allow(clippy::indexing_slicing, clippy::panic, clippy::unwrap_used)]

#[path = "awr_text_checks.rs"]
mod checks;

use awrflash_model::{DbReport, FileIoRow, SegmentRow, WaitEvent, Warning};

const HTML: &str = "awr-html/11.2.0.4_1newstar-awr2csv_awr_11204_1.html";
const TEXT: &str = "awr-text/11.2.0.4_1newstar-awr2csv_awr_11204_1.txt";

/// Collects differences as readable lines.
#[derive(Default)]
struct Diff {
    lines: Vec<String>,
    compared: usize,
}

/// Decimals of a value as the text report printed it (`477.1` -> 1).
fn decimals(v: f64) -> i32 {
    let s = format!("{v}");
    s.split_once('.').map_or(0, |(_, d)| d.len() as i32)
}

impl Diff {
    /// Numbers agree when the HTML value rounds to the text value: within
    /// half a unit of the text's last printed decimal, or 0.5% (K/M/G
    /// suffixes keep three digits).
    fn num(&mut self, what: &str, text: Option<f64>, html: Option<f64>) {
        self.compared += 1;
        match (text, html) {
            (None, None) => {}
            (Some(t), Some(h)) => {
                let half = 0.5 * 10f64.powi(-decimals(t));
                let tol = half.max(0.005 * t.abs()) + 1e-9;
                if (t - h).abs() > tol {
                    self.lines.push(format!("{what}: text {t} vs html {h}"));
                }
            }
            // A blank text cell where the HTML prints 0 ("null is truly 0").
            (None, Some(0.0)) | (Some(0.0), None) => {}
            (t, h) => self.lines.push(format!("{what}: text {t:?} vs html {h:?}")),
        }
    }

    fn text(&mut self, what: &str, text: Option<&str>, html: Option<&str>) {
        self.compared += 1;
        let same = match (text, html) {
            (Some(t), Some(h)) => same_name(t, h),
            (None, None) => true,
            (Some(t), None) | (None, Some(t)) => t.trim().is_empty(),
        };
        if !same {
            self.lines
                .push(format!("{what}: text {text:?} vs html {html:?}"));
        }
    }
}

/// Compares the named numeric fields of two rows.
macro_rules! nums {
    ($d:expr, $w:expr, $a:expr, $b:expr; $($f:ident),+) => {
        $( $d.num(&format!("{}.{}", $w, stringify!($f)), $a.$f, $b.$f); )+
    };
}

/// Widths text reports cut names to: object types 5 (`INDEX` for `INDEX
/// PARTITION`), wait classes and subobjects 10, object names 20, events 26
/// (Statspack 28), parameters 29, top events 30, statistic names 32.
const CUTS: [usize; 8] = [5, 10, 20, 26, 28, 29, 30, 32];

/// Oracle labels a few rows differently in the two formats (11.2 text
/// `RAC GC blocks received:`, HTML `Global Cache blocks received:`).
const ALIASES: [(&str, &str); 2] = [
    ("RAC GC blocks received", "Global Cache blocks received"),
    ("RAC GC blocks served", "Global Cache blocks served"),
];

/// Blanks collapsed and case folded: the HTML model collapses the double
/// blank Oracle prints in `enq: IV -  contention`.
fn norm(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

/// Event and statistic names: equal, or the text's is cut to a prefix that
/// begins several of Oracle's names and the text model says so.
fn full_name(warned: &[Warning], text: &str, html: &str) -> bool {
    text == html
        || (html.starts_with(text)
            && warned.iter().any(|w| {
                w.message.contains(&format!("{text:?}")) && w.message.contains("kept as printed")
            }))
}

/// Same name, or the text's is the HTML's cut to a column width (trailing
/// blank of the cut dropped; subobject names keep their last characters).
fn same_name(text: &str, html: &str) -> bool {
    let t = norm(text);
    let h = norm(html);
    if t == h || ALIASES.iter().any(|(a, b)| norm(a) == t && norm(b) == h) {
        return true;
    }
    CUTS.iter().any(|&w| {
        h.len() > w
            && (h.get(..w).is_some_and(|p| p.trim_end() == t)
                || h.get(h.len() - w..).is_some_and(|p| p.trim_start() == t))
    })
}

fn header(d: &mut Diff, t: &DbReport, h: &DbReport) {
    let (a, b) = (&t.header, &h.header);
    d.text("header.db_name", a.db_name.as_deref(), b.db_name.as_deref());
    d.num(
        "header.dbid",
        a.dbid.map(|v| v as f64),
        b.dbid.map(|v| v as f64),
    );
    d.text(
        "header.instance",
        a.instance.as_deref(),
        b.instance.as_deref(),
    );
    d.num(
        "header.instance_number",
        a.instance_number.map(f64::from),
        b.instance_number.map(f64::from),
    );
    d.text("header.release", a.release.as_deref(), b.release.as_deref());
    if a.rac != b.rac {
        d.lines
            .push(format!("header.rac: text {} vs html {}", a.rac, b.rac));
    }
    d.text("header.host", a.host.as_deref(), b.host.as_deref());
    d.text(
        "header.platform",
        a.platform.as_deref(),
        b.platform.as_deref(),
    );
    d.num("header.cpus", a.cpus.map(f64::from), b.cpus.map(f64::from));
    d.num(
        "header.cores",
        a.cores.map(f64::from),
        b.cores.map(f64::from),
    );
    d.num(
        "header.sockets",
        a.sockets.map(f64::from),
        b.sockets.map(f64::from),
    );
    d.num("header.memory_gb", a.memory_gb, b.memory_gb);
    d.num(
        "header.begin_snap",
        a.begin_snap.map(|v| v as f64),
        b.begin_snap.map(|v| v as f64),
    );
    d.num(
        "header.end_snap",
        a.end_snap.map(|v| v as f64),
        b.end_snap.map(|v| v as f64),
    );
    d.text(
        "header.begin_time",
        a.begin_time.as_deref(),
        b.begin_time.as_deref(),
    );
    d.text(
        "header.end_time",
        a.end_time.as_deref(),
        b.end_time.as_deref(),
    );
    d.num("header.elapsed_s", a.elapsed_s, b.elapsed_s);
    d.num("header.db_time_s", a.db_time_s, b.db_time_s);
}

fn load_profile(d: &mut Diff, t: &DbReport, h: &DbReport) {
    for r in &t.load_profile {
        let Some(o) = h
            .load_profile
            .iter()
            .find(|o| same_name(r.name.trim_end_matches(':'), o.name.trim_end_matches(':')))
        else {
            d.lines
                .push(format!("load_profile {:?}: not in the html model", r.name));
            continue;
        };
        let w = format!("load_profile {:?}", r.name);
        nums!(d, w, r, o; per_second, per_transaction, per_exec, per_call);
    }
    if t.load_profile.len() != h.load_profile.len() {
        d.lines.push(format!(
            "load_profile rows: text {} vs html {}",
            t.load_profile.len(),
            h.load_profile.len()
        ));
    }
}

fn top_events(d: &mut Diff, t: &DbReport, h: &DbReport) {
    if t.top_events.len() != h.top_events.len() {
        d.lines.push(format!(
            "top_events rows: text {} vs html {}",
            t.top_events.len(),
            h.top_events.len()
        ));
    }
    for (i, (a, b)) in t.top_events.iter().zip(&h.top_events).enumerate() {
        let w = format!("top_events[{i}] {:?}", a.name);
        if a.name != b.name {
            d.lines
                .push(format!("{w}.name: text {:?} vs html {:?}", a.name, b.name));
        }
        nums!(d, w, a, b; waits, time_s, avg_ms, pct_db_time);
        d.text(
            &format!("{w}.wait_class"),
            a.wait_class.as_deref(),
            b.wait_class.as_deref(),
        );
    }
}

fn wait_list(d: &mut Diff, warned: &[Warning], what: &str, t: &[WaitEvent], h: &[WaitEvent]) {
    if t.len() != h.len() {
        d.lines
            .push(format!("{what} rows: text {} vs html {}", t.len(), h.len()));
    }
    let mut used = vec![false; h.len()];
    for a in t {
        let found = h
            .iter()
            .enumerate()
            .find(|(i, b)| !used[*i] && full_name(warned, &a.name, &b.name));
        let Some((i, b)) = found else {
            d.lines
                .push(format!("{what} {:?}: not in the html model", a.name));
            continue;
        };
        used[i] = true;
        let w = format!("{what} {:?}", a.name);
        nums!(d, w, a, b; waits, timeouts_pct, time_s, avg_ms, waits_per_txn, pct_db_time);
    }
    for (i, b) in h.iter().enumerate() {
        if !used[i] {
            d.lines
                .push(format!("{what} {:?}: not in the text model", b.name));
        }
    }
}

fn activity(d: &mut Diff, t: &DbReport, h: &DbReport) {
    let mut used = vec![false; h.activity_stats.len()];
    for a in &t.activity_stats {
        let found = h.activity_stats.iter().enumerate().find(|(i, b)| {
            !used[*i]
                && full_name(&t.warnings, &a.name, &b.name)
                && a.total.is_some() == b.total.is_some()
                && a.begin.is_some() == b.begin.is_some()
        });
        let Some((i, b)) = found else {
            d.lines.push(format!(
                "activity_stats {:?} ({}): not in the html model",
                a.name, a.src.section
            ));
            continue;
        };
        used[i] = true;
        let w = format!("activity_stats {:?}", a.name);
        nums!(d, w, a, b; total, per_second, per_transaction, begin, end);
    }
    for (i, b) in h.activity_stats.iter().enumerate() {
        if !used[i] {
            d.lines.push(format!(
                "activity_stats {:?} ({}): not in the text model",
                b.name, b.src.section
            ));
        }
    }
}

fn file_rows(d: &mut Diff, what: &str, t: &[FileIoRow], h: &[FileIoRow]) {
    if t.len() != h.len() {
        d.lines
            .push(format!("{what} rows: text {} vs html {}", t.len(), h.len()));
    }
    for a in t {
        let Some(b) = h
            .iter()
            .find(|b| b.tablespace == a.tablespace && (a.file.is_none() || b.file == a.file))
        else {
            d.lines.push(format!(
                "{what} {} {:?}: not in the html model",
                a.tablespace, a.file
            ));
            continue;
        };
        let w = format!(
            "{what} {}{}",
            a.tablespace,
            a.file.as_deref().map_or(String::new(), |f| format!(" {f}"))
        );
        d.text(&format!("{w}.file"), a.file.as_deref(), b.file.as_deref());
        nums!(d, w, a, b; reads, reads_per_s, avg_read_ms, blocks_per_read, one_block_reads_per_s, avg_one_block_read_ms, writes, writes_per_s, buffer_waits, avg_buffer_wait_ms);
    }
}

fn segment_list(d: &mut Diff, key: &str, t: &[SegmentRow], h: &[SegmentRow]) {
    if t.len() != h.len() {
        d.lines.push(format!(
            "segments.{key} rows: text {} vs html {}",
            t.len(),
            h.len()
        ));
    }
    for (i, (a, b)) in t.iter().zip(h).enumerate() {
        let w = format!("segments.{key}[{i}] {}", a.object);
        d.text(&format!("{w}.owner"), Some(&a.owner), Some(&b.owner));
        d.text(
            &format!("{w}.tablespace"),
            Some(&a.tablespace),
            Some(&b.tablespace),
        );
        d.text(&format!("{w}.object"), Some(&a.object), Some(&b.object));
        d.text(
            &format!("{w}.subobject"),
            a.subobject.as_deref(),
            b.subobject.as_deref(),
        );
        d.text(
            &format!("{w}.object_type"),
            Some(&a.object_type),
            Some(&b.object_type),
        );
        nums!(d, w, a, b; value, pct_total);
    }
}

fn compare(t: &DbReport, h: &DbReport) -> Diff {
    let mut d = Diff::default();
    header(&mut d, t, h);
    load_profile(&mut d, t, h);
    top_events(&mut d, t, h);
    wait_list(
        &mut d,
        &t.warnings,
        "wait_events.foreground",
        &t.wait_events.foreground,
        &h.wait_events.foreground,
    );
    wait_list(
        &mut d,
        &t.warnings,
        "wait_events.background",
        &t.wait_events.background,
        &h.wait_events.background,
    );
    activity(&mut d, t, h);
    file_rows(&mut d, "tablespace_io", &t.tablespace_io, &h.tablespace_io);
    file_rows(&mut d, "file_io", &t.file_io, &h.file_io);
    let keys: std::collections::BTreeSet<&String> =
        t.segments.keys().chain(h.segments.keys()).collect();
    for k in keys {
        let empty = Vec::new();
        segment_list(
            &mut d,
            k,
            t.segments.get(k).unwrap_or(&empty),
            h.segments.get(k).unwrap_or(&empty),
        );
    }
    d
}

#[test]
fn html_and_text_twins_agree_field_by_field() {
    let Some(root) = awrflash_testkit::corpus("") else {
        return;
    };
    let html_path = root.join(HTML);
    let text_path = root.join(TEXT);
    let text = checks::parse_file(&text_path);
    let bytes = std::fs::read(&html_path).unwrap();
    let html = match awrflash_parse::parse_bytes(HTML, &bytes) {
        Ok(awrflash_model::Document::Report(r)) => *r,
        other => panic!("{HTML}: {other:?}"),
    };
    let d = compare(&text, &html);
    println!(
        "{} fields compared, {} differences",
        d.compared,
        d.lines.len()
    );
    for l in &d.lines {
        println!("  {l}");
    }
    // Guard against a vacuous pass: both models have the sections compared.
    assert!(!text.load_profile.is_empty() && !text.activity_stats.is_empty());
    assert!(d.compared > 1000, "only {} fields compared", d.compared);
    assert!(
        d.lines.is_empty(),
        "{} differences between the html and text models:\n{}",
        d.lines.len(),
        d.lines.join("\n")
    );
}

#[test]
fn name_matching_accepts_only_column_cuts() {
    assert!(same_name(
        "control file sequential re",
        "control file sequential read"
    ));
    assert!(same_name(
        "80142923_0",
        "WRH$_LATCH_MISSES_SUMMARY_1380142923_0"
    ));
    assert!(!same_name("log file sync", "log file sync wait"));
    assert!(!same_name("db file", "db file sequential read"));
}
