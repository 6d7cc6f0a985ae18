//! Only the device's part of a read moves to flash: the split of
//! `db file sequential read` into the device's service time and the time
//! above it (queueing, scheduling, CPU), on model-level fixtures with
//! hand-computed numbers and on the PDB05 corpus report (12.1.0.1).
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use awrflash_facts::{DeviceView, IntervalFacts};
use awrflash_model::{Analysis, Document, OptionProjection, ProjectionStep, Severity};
use awrflash_rules::{Options, analyze};

fn run(fixture: &str) -> Analysis {
    let fx = common::load(
        &awrflash_testkit::fixtures("")
            .join("rules/AF010")
            .join(fixture),
    );
    analyze(&fx.docs, &fx.opts).unwrap()
}

fn option<'a>(a: &'a Analysis, key: &str) -> &'a OptionProjection {
    a.options.iter().find(|o| o.key == key).unwrap()
}

fn step<'a>(o: &'a OptionProjection, component: &str) -> &'a ProjectionStep {
    o.projection
        .steps
        .iter()
        .find(|s| s.component == component)
        .unwrap_or_else(|| panic!("{}: no step {component}", o.key))
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// DB time after = before - the steps' savings, at both ends.
fn steps_add_up(o: &OptionProjection) {
    let p = &o.projection;
    let lo: f64 = p.steps.iter().map(|s| s.saved_s_low).sum();
    let hi: f64 = p.steps.iter().map(|s| s.saved_s_high).sum();
    let tol = 0.001 * p.db_time_before_s + 1.0;
    assert!(
        close(p.db_time_before_s - lo, p.db_time_after_high_s, tol)
            && close(p.db_time_before_s - hi, p.db_time_after_low_s, tol),
        "{}: steps save {lo}..{hi} s of {} s, range {}..{} s",
        o.key,
        p.db_time_before_s,
        p.db_time_after_low_s,
        p.db_time_after_high_s
    );
}

#[test]
fn only_the_device_part_moves_and_the_part_above_it_costs_waits_times_gap() {
    // Base: 720,000 reads at 6 ms, no device view. Split: IOStat by
    // Filetype says 3 ms, so every wait keeps 3 ms above the device.
    let base = run("fires.toml");
    let split = run("device_split.toml");
    let b = step(option(&base, "whole-db"), "db file sequential read");
    let s = step(option(&split, "whole-db"), "db file sequential read");
    assert_eq!(b.waits, 720_000.0);
    // Same target, 3 ms more per wait after the move...
    assert!(
        close(s.new_avg_ms_low, b.new_avg_ms_low + 3.0, 1e-3),
        "{s:?}"
    );
    assert!(
        close(s.new_avg_ms_high, b.new_avg_ms_high + 3.0, 1e-3),
        "{s:?}"
    );
    // ... so 720,000 x 3 ms = 2,160 s less saved at both ends.
    assert!(
        close(b.saved_s_low - s.saved_s_low, 2160.0, 1.0),
        "{b:?} {s:?}"
    );
    assert!(
        close(b.saved_s_high - s.saved_s_high, 2160.0, 1.0),
        "{b:?} {s:?}"
    );
    assert!(
        s.method.contains("only the device's 3.00 ms moves"),
        "{}",
        s.method
    );
    // The part above the device is a listed step that saves nothing.
    let gap = step(
        option(&split, "whole-db"),
        "db file sequential read: above the device (stays)",
    );
    assert_eq!(
        (gap.current_avg_ms, gap.saved_s_low, gap.saved_s_high),
        (3.0, 0.0, 0.0)
    );
    assert_eq!(
        gap.src.as_ref().map(|x| (x.section.as_str(), x.line)),
        Some(("IOStat by Filetype summary", 520))
    );
    for o in &split.options {
        steps_add_up(o);
    }
    // The whole-database gain drops by the 2,160 s of 10,000 s DB time
    // (the CPU cap does not bind at either end in either case).
    let (bo, so) = (option(&base, "whole-db"), option(&split, "whole-db"));
    assert!(
        close(
            so.projection.db_time_after_low_s - bo.projection.db_time_after_low_s,
            2160.0,
            2.0
        ),
        "{:?} vs {:?}",
        so.projection,
        bo.projection
    );
    assert!(
        so.notes
            .iter()
            .any(|n| n.contains("3.00 ms is above the device"))
    );
    // AF010 reports the split.
    let f = split.findings.iter().find(|f| f.id == "AF010").unwrap();
    assert!(
        f.message.contains(
            "`db file sequential read` 6.00 ms, of which the device serves 3.00 ms (IOStat by Filetype); 3.00 ms is above the device"
        ),
        "{}",
        f.message
    );
    insta::assert_snapshot!("AF010_device_split", common::finding_text(f));
}

#[test]
fn reads_the_device_already_serves_at_flash_latency_gain_nothing_and_the_verdict_says_why() {
    // IOStat by Filetype 0.2 ms, tablespaces (120 x 0.25 + 80 x 0.2) / 200
    // = 0.23 ms: both within the flash class's range.
    let a = run("flash_class.toml");
    let o = option(&a, "whole-db");
    let s = step(o, "db file sequential read");
    assert_eq!((s.saved_s_low, s.saved_s_high), (0.0, 0.0), "{s:?}");
    assert!(s.method.contains("already flash-class"), "{}", s.method);
    let gap = step(o, "db file sequential read: above the device (stays)");
    assert!(close(gap.current_avg_ms, 5.8, 1e-9), "{gap:?}");
    assert!(
        gap.method.contains(
            "of which the device serves 0.20 ms (IOStat by Filetype; Tablespace IO Stats 0.23 ms)"
        ),
        "{}",
        gap.method
    );
    steps_add_up(o);
    assert!(
        a.verdict
            .summary
            .contains("Single-block reads gain nothing")
            && a.verdict.summary.contains("already flash-class"),
        "{}",
        a.verdict.summary
    );
    let f = a.findings.iter().find(|f| f.id == "AF010").unwrap();
    assert_eq!(f.severity, Severity::Info);
    assert!(
        f.message.contains("not what makes them slow"),
        "{}",
        f.message
    );
    insta::assert_snapshot!("AF010_flash_class", common::finding_text(f));
}

#[test]
fn pdb05_single_block_reads_split_at_the_filetype_view_and_the_whole_database_gain_drops() {
    let Some(root) = awrflash_testkit::corpus("") else {
        return;
    };
    let path = root.join("awr-html/12.1.0.1_michaelcunningham-oracledba_PDB05_10096_10097.html");
    let Ok(bytes) = std::fs::read(&path) else {
        eprintln!("skipped: {} is absent", path.display());
        return;
    };
    let doc = awrflash_parse::parse_bytes("PDB05_10096_10097.html", &bytes).unwrap();
    let Document::Report(r) = &doc else {
        panic!("PDB05 is a report");
    };
    // The split, as a DBA reads it off the report: 18,047 s over
    // 3,310,558 waits = 5.45 ms; IOStat by Filetype, Data File small read
    // 2.83 ms; Tablespace IO Stats one-block reads 3.1-3.6 ms on the busy
    // tablespaces, 3.24 ms weighted by one-block reads per second.
    let f = IntervalFacts::new(r);
    let s = f.device_split("db file sequential read").unwrap();
    assert!(close(s.avg_ms, 18_047.0 * 1000.0 / 3_310_558.0, 1e-9));
    assert_eq!(s.used.view, DeviceView::Filetype);
    assert!(close(s.device_used_ms, 2.83, 1e-9));
    assert!(close(s.gap_used_ms(), 2.62, 0.005), "{s:?}");
    assert_eq!(s.others.len(), 1);
    assert!(close(s.device_ms.1, 3.24, 0.01), "{s:?}");

    // The same report with its device views removed: the whole wait moves.
    let mut bare = (**r).clone();
    bare.iostat_filetype.clear();
    for t in &mut bare.tablespace_io {
        t.avg_one_block_read_ms = None;
    }
    let with = analyze(std::slice::from_ref(&doc), &Options::default()).unwrap();
    let without = analyze(&[Document::Report(Box::new(bare))], &Options::default()).unwrap();
    let (w, wo) = (option(&with, "whole-db"), option(&without, "whole-db"));
    let (sw, swo) = (
        step(w, "db file sequential read"),
        step(wo, "db file sequential read"),
    );
    // At most the device time the views measure is saved (3,310,558 x
    // 3.24 ms), at least the device part less the target's high end (at
    // most 0.6 ms) per wait; without the split, nearly the whole wait.
    assert!(
        sw.saved_s_high <= sw.waits * s.device_ms.1 / 1000.0,
        "{sw:?}"
    );
    assert!(
        sw.saved_s_low >= sw.waits * (s.device_ms.0 - 0.6) / 1000.0 - 1.0,
        "{sw:?}"
    );
    assert!(
        sw.method.contains("capped at the device time"),
        "{}",
        sw.method
    );
    assert!(swo.saved_s_high > 0.9 * 18_047.0, "{swo:?}");
    assert!(
        sw.saved_s_high < 0.6 * swo.saved_s_high && sw.saved_s_low < 0.6 * swo.saved_s_low,
        "{sw:?} vs {swo:?}"
    );
    steps_add_up(w);
    // Whole-database gain: 71-74% without the split (CPU-capped), about
    // 40-49% with it.
    let gain = |o: &OptionProjection| {
        (
            1.0 - o.projection.response_ratio_high,
            1.0 - o.projection.response_ratio_low,
        )
    };
    let (gw, gwo) = (gain(w), gain(wo));
    assert!(gwo.0 > 0.65, "{gwo:?}");
    assert!(gw.0 > 0.3 && gw.1 < 0.55, "{gw:?}");
    assert!(
        gwo.0 - gw.0 > 0.15,
        "the whole-database gain drops: {gw:?} vs {gwo:?}"
    );
    // AF010 names the split with both views.
    let af010 = with.findings.iter().find(|f| f.id == "AF010").unwrap();
    assert!(
        af010
            .message
            .contains("5.45 ms, of which the device serves 2.83 ms (IOStat by Filetype; Tablespace IO Stats 3.24 ms); 2.62 ms is above the device"),
        "{}",
        af010.message
    );
}

#[test]
fn an_attached_iostat_capture_is_the_preferred_device_view() {
    use awrflash_model::{ChannelLoad, DeviceSample, DeviceSummary, IostatCapture, SourceRef};
    // The base interval (720,000 reads at 6 ms, IOStat by Filetype 3 ms)
    // with a capture whose data disks serve reads in (300 x 1.0 + 100 x
    // 2.2) / 400 = 1.3 ms.
    let mut fx =
        common::load(&awrflash_testkit::fixtures("").join("rules/AF010/device_split.toml"));
    let disk = |name: &str, r_s: f64, r_await: f64| DeviceSummary {
        device: name.into(),
        r_s_mean: Some(r_s),
        r_await_ms_mean: Some(r_await),
        ..Default::default()
    };
    let mut capture = IostatCapture {
        samples: vec![DeviceSample {
            device: "sdb".into(),
            src: SourceRef::new("iostat -x", 12),
            ..Default::default()
        }],
        summary: vec![disk("sdb", 300.0, 1.0), disk("sdc", 100.0, 2.2)],
        channel: ChannelLoad {
            devices: vec!["sdb".into(), "sdc".into()],
            ..Default::default()
        },
        ..Default::default()
    };
    capture.source.path = "iostat_dbhost01.txt".into();
    fx.docs.push(Document::Iostat(Box::new(capture)));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let o = option(&a, "whole-db");
    let gap = step(o, "db file sequential read: above the device (stays)");
    // 6 - 1.3 = 4.7 ms above the device; the Filetype's 3 ms is the other
    // end of the range (gap 3-4.7 ms).
    assert!(close(gap.current_avg_ms, 4.7, 1e-9), "{gap:?}");
    assert!(close(gap.new_avg_ms_low, 3.0, 1e-9) && close(gap.new_avg_ms_high, 4.7, 1e-9));
    assert_eq!(
        gap.src.as_ref().map(|s| (s.path.as_str(), s.line)),
        Some(("iostat_dbhost01.txt", 12))
    );
    let f = a.findings.iter().find(|f| f.id == "AF010").unwrap();
    assert!(
        f.message.contains(
            "6.00 ms, of which the device serves 1.30 ms (attached iostat capture; IOStat by Filetype 3.00 ms)"
        ),
        "{}",
        f.message
    );
    steps_add_up(o);
}
