//! The whole window on real reports: the two RECEIPT reports of the corpus
//! (09:30-10:30 ordinary, 11:30-12:31 library cache contention) plus copies
//! of the first made at test time in a temporary folder, with rewritten
//! snapshot ids and times, one of them with its waits scaled. Skips with a
//! reason when the corpus is absent.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use awrflash_model::{DbReport, Document, IntervalClass};
use awrflash_rules::{Options, analyze};

const ORDINARY: &str = "awr-html/12.1.0.2_sarthi2020-AWR-reports_awr_rpt_2.html";
const INCIDENT: &str = "awr-html/12.1.0.2_sarthi2020-AWR-reports_awr_rpt_3.html";

fn parse(path: &std::path::Path) -> Document {
    let bytes = std::fs::read(path).unwrap();
    let name = path.to_string_lossy().into_owned();
    awrflash_parse::parse_bytes(&name, &bytes).unwrap()
}

/// A copy of `text` with its snapshot ids and times rewritten, written to
/// `dir/name`.
fn copy(
    dir: &std::path::Path,
    name: &str,
    text: &str,
    swaps: &[(&str, &str)],
) -> std::path::PathBuf {
    let mut t = text.to_string();
    for (from, to) in swaps {
        assert!(t.contains(from), "{from} not in the report");
        t = t.replace(from, to);
    }
    let p = dir.join(name);
    std::fs::write(&p, t).unwrap();
    p
}

/// Every foreground wait that counts in DB time (not the idle ones) `k` times as many (same average), the extra wait
/// time added to DB time: a busier copy of the same hour.
fn scale_waits(doc: &mut Document, k: f64) {
    let Document::Report(r) = doc else {
        panic!("not a report")
    };
    let r: &mut DbReport = r;
    let mut extra = 0.0;
    for e in r
        .wait_events
        .foreground
        .iter_mut()
        .filter(|e| e.pct_db_time.is_some())
    {
        if let Some(t) = e.time_s.as_mut() {
            extra += *t * (k - 1.0);
            *t *= k;
        }
        if let Some(w) = e.waits.as_mut() {
            *w *= k;
        }
    }
    let el = r.header.elapsed_s.unwrap();
    if let Some(d) = r.header.db_time_s.as_mut() {
        *d += extra;
    }
    for t in r.time_model.iter_mut().filter(|t| t.name == "DB time") {
        if let Some(s) = t.time_s.as_mut() {
            *s += extra;
        }
    }
    let db = r.header.db_time_s.unwrap();
    for e in r.wait_events.foreground.iter_mut() {
        if let (Some(p), Some(t)) = (e.pct_db_time.as_mut(), e.time_s) {
            *p = t * 100.0 / db;
        }
    }
    for l in r
        .load_profile
        .iter_mut()
        .filter(|l| l.name.starts_with("DB Time"))
    {
        if let Some(p) = l.per_second.as_mut() {
            *p += extra / el;
        }
    }
    // The histogram rows keep their shares; the top events would disagree.
    r.top_events.clear();
}

#[test]
fn the_window_adds_up_the_intervals_flags_the_gaps_and_plans_for_the_busiest_interval_that_is_not_an_incident()
 {
    let Some(root) = awrflash_testkit::corpus("") else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("awrflash-window-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let text = String::from_utf8_lossy(&std::fs::read(root.join(ORDINARY)).unwrap()).into_owned();
    // Right after the incident interval (no gap), then after a gap.
    let after = copy(
        &dir,
        "awrrpt_1_173500_173502.html",
        &text,
        &[
            ("173494", "173500"),
            ("173496", "173502"),
            ("11-Jan-18 09:30:36", "11-Jan-18 12:31:35"),
            ("11-Jan-18 10:30:50", "11-Jan-18 13:31:49"),
        ],
    );
    let later = copy(
        &dir,
        "awrrpt_1_173510_173512.html",
        &text,
        &[
            ("173494", "173510"),
            ("173496", "173512"),
            ("11-Jan-18 09:30:36", "11-Jan-18 15:00:00"),
            ("11-Jan-18 10:30:50", "11-Jan-18 16:00:14"),
        ],
    );
    let mut busier = parse(&later);
    scale_waits(&mut busier, 2.0);
    let docs = vec![
        parse(&root.join(ORDINARY)),
        parse(&root.join(INCIDENT)),
        parse(&after),
        busier,
    ];
    std::fs::remove_dir_all(&dir).unwrap();
    let a = analyze(&docs, &Options::default()).unwrap();
    // The run layer can ask which report keeps its heavy sections.
    assert_eq!(awrflash_rules::analysed_report(&docs).unwrap(), Some(3));
    let w = a.window.as_ref().expect("a window with four intervals");
    assert_eq!(w.intervals.len(), 4);
    assert_eq!(w.begin_time.as_deref(), Some("2018-01-11T09:30:36"));
    assert_eq!(w.end_time.as_deref(), Some("2018-01-11T16:00:14"));

    // Per-interval savings add up to the window's.
    let lo: f64 = w.intervals.iter().map(|i| i.saved_s_low).sum();
    let hi: f64 = w.intervals.iter().map(|i| i.saved_s_high).sum();
    assert!(
        (lo - w.saved_s_low).abs() <= 0.001 * lo,
        "{lo} vs {}",
        w.saved_s_low
    );
    assert!(
        (hi - w.saved_s_high).abs() <= 0.001 * hi,
        "{hi} vs {}",
        w.saved_s_high
    );
    let db: f64 = w.intervals.iter().map(|i| i.db_time_s).sum();
    assert!((w.saved_pct_high - hi * 100.0 / db).abs() < 0.01);
    let covered: f64 = w.intervals.iter().map(|i| i.elapsed_s).sum();
    assert!(
        (w.saved_s_per_day_high - hi * 86_400.0 / covered).abs() <= 0.001 * hi * 86_400.0 / covered
    );

    // The gaps: 10:30:50-11:30:05 and 13:31:49-15:00:00; none between the
    // incident and the copy that starts where it ends.
    let gaps: Vec<(usize, f64)> = w
        .gaps
        .iter()
        .map(|g| (g.before_interval, g.length_s))
        .collect();
    assert_eq!(gaps, vec![(1, 3555.0), (3, 5291.0)]);

    // The incident is the peak; the plan is for the busiest other interval
    // (the copy with twice the waits), and the verdict names the incident.
    assert_eq!(w.intervals[1].class, IntervalClass::Incident);
    assert_eq!(a.peak_interval, Some(1));
    assert_eq!(w.analysed_interval, 3);
    assert!(
        a.verdict
            .summary
            .contains("is an incident (library cache contention"),
        "{}",
        a.verdict.summary
    );
    assert_eq!(
        (a.verdict.gain_pct_low, a.verdict.gain_pct_high),
        (w.saved_pct_low, w.saved_pct_high)
    );
    assert_eq!(
        a.database.begin_time.as_deref(),
        Some("2018-01-11T15:00:00")
    );

    // One derivation: the analysed interval's entry is its detailed plan's
    // option, and an identical copy projects what the original does.
    let o = a.options.iter().find(|o| o.key == w.move_key).unwrap();
    let iv = &w.intervals[3];
    assert_eq!(
        iv.saved_s_low,
        awrflash_facts::round(o.projection.db_time_before_s - o.projection.db_time_after_high_s)
    );
    assert_eq!(
        iv.saved_s_high,
        awrflash_facts::round(o.projection.db_time_before_s - o.projection.db_time_after_low_s)
    );
    assert_eq!(w.intervals[0].saved_s_low, w.intervals[2].saved_s_low);
    // Twice the waits save more than the original hour, and the incident
    // saves a small share of its DB time.
    assert!(w.intervals[3].saved_s_low > w.intervals[0].saved_s_low);
    assert!(w.intervals[1].saved_pct_high < 5.0);
    // The RECEIPT hour is a real gain, capped by its AIX LPAR's CPU queue
    // (OS_CPU_WAIT_TIME 11,700 s/h on 3 vCPUs: throughput at most 1.2x).
    assert!(
        w.intervals[0].saved_pct_low > 15.0 && w.intervals[0].bound == awrflash_model::Bound::Cpu,
        "{:?}",
        w.intervals[0]
    );
    assert!(w.bound_elsewhere.contains(&1));
    // The sizing comes from the trend's p95 and peak.
    let iops = a.trend.iter().find(|t| t.metric == "total_iops").unwrap();
    assert_eq!(w.sizing.iops_p95, iops.p95);
    assert_eq!(w.sizing.iops_peak, iops.peak);
}

#[test]
fn the_projection_of_an_interval_needs_no_sql_segment_advisory_or_file_io_section() {
    let Some(root) = awrflash_testkit::corpus("") else {
        return;
    };
    let full = parse(&root.join(ORDINARY));
    let mut thin = full.clone();
    let Document::Report(r) = &mut thin else {
        panic!("not a report")
    };
    // What the run layer drops from every interval but the analysed one.
    r.sql.clear();
    r.segments.clear();
    r.buffer_pool_advisory.clear();
    r.file_io.clear();
    let docs = vec![parse(&root.join(INCIDENT)), full];
    let thin_docs = vec![parse(&root.join(INCIDENT)), thin];
    let a = analyze(&docs, &Options::default()).unwrap();
    let b = analyze(&thin_docs, &Options::default()).unwrap();
    let (wa, wb) = (a.window.unwrap(), b.window.unwrap());
    assert_eq!(wa.intervals, wb.intervals);
    assert_eq!(wa.saved_s_low, wb.saved_s_low);
    assert_eq!(wa.saved_s_high, wb.saved_s_high);
}
