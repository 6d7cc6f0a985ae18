//! A thinned report (`awrflash_facts::thin`) gives the same interval facts
//! as the full one, for every corpus report and every fixture, and an
//! analysis whose non-peak reports are thinned is the analysis of the full
//! reports.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use awrflash_facts::{
    FLASH_CACHE_READS, INTERVAL_STATS, IntervalFacts, KEY_HISTOGRAMS, MULTIBLOCK, SINGLE_BLOCK,
    TEMP, WRITE_WAITS, lean, reduced, thin,
};
use awrflash_model::{DbReport, Document};

/// Every report of the corpus (when present) and of the fixtures: report
/// files parsed, rule fixtures loaded as the rule tests load them.
fn reports() -> Vec<DbReport> {
    let mut files = Vec::new();
    // Without the corpus (a skip line says so), the fixtures only.
    if let Some(dir) = awrflash_testkit::corpus("") {
        files.extend(awrflash_testkit::files_below(&dir));
    }
    for sub in ["awr-html", "awr-text", "statspack", "sample", "calibration"] {
        files.extend(awrflash_testkit::files_below(&awrflash_testkit::fixtures(
            sub,
        )));
    }
    files.sort();
    let mut out = Vec::new();
    for f in &files {
        let Ok(bytes) = std::fs::read(f) else {
            continue;
        };
        if let Ok(Document::Report(r)) =
            awrflash_parse::parse_bytes(&f.display().to_string(), &bytes)
        {
            out.push(*r);
        }
    }
    let rule_files = awrflash_testkit::files_below(&awrflash_testkit::fixtures("rules"));
    for f in rule_files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "toml"))
        .filter(|f| !f.components().any(|c| c.as_os_str() == "_base"))
    {
        for d in common::load(f).docs {
            if let Document::Report(r) = d {
                out.push(*r);
            }
        }
    }
    out
}

/// Every figure of an interval and of its derived methods, as text: the
/// fields are destructured without `..`, so a new figure cannot be left out.
fn figures(f: &IntervalFacts) -> String {
    let IntervalFacts {
        report: _,
        memo: _,
        path,
        elapsed_s,
        db_time_s,
        db_cpu_s,
        events,
        host_busy_pct,
        io_mb_s,
        read_iops,
        write_iops,
        read_mb_s,
        write_mb_s,
        redo_bytes_s,
        redo_writes_s,
        avg_redo_write_kb,
        txn_per_s,
        exec_per_s,
        block_size,
        buffer_cache_bytes,
        rac,
        device,
        unaccounted_s,
    } = f;
    let mut s = format!(
        "{path:?}\n{elapsed_s:?}\n{db_time_s:?}\n{db_cpu_s:?}\n{events:?}\n{host_busy_pct:?}\n\
         {io_mb_s:?}\n{read_iops:?}\n{write_iops:?}\n{read_mb_s:?}\n{write_mb_s:?}\n\
         {redo_bytes_s:?}\n{redo_writes_s:?}\n{avg_redo_write_kb:?}\n{txn_per_s:?}\n\
         {exec_per_s:?}\n{block_size:?}\n{buffer_cache_bytes:?}\n{rac:?}\n{device:?}\n\
         {unaccounted_s:?}\n"
    );
    s += &format!("{:?}\n{:?}\n", f.cpu_headroom(), f.commit());
    s += &format!(
        "{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n",
        f.breakdown(),
        f.io_share_pct(),
        f.read_share_pct(),
        f.multiblock_read_kb(),
        f.key_histograms(),
        f.cpus(),
        f.redo_mb_s(),
        f.transactions(),
        f.executions(),
    );
    // What the window's classification, the platform and a per-interval
    // projection read besides the figures.
    s += &format!(
        "{:?}\n{:?}\n{:?}\n",
        f.report.load_profile_row("Logons"),
        awrflash_rules::platform::detect(f),
        awrflash_rules::checks::on_exadata(f),
    );
    let devs = awrflash_rules::devices::load(None).unwrap();
    let opts = awrflash_rules::Options::default();
    for dev in &devs {
        s += &format!(
            "{}: {:?}\n",
            dev.name,
            awrflash_rules::projection::interval_plan(f, dev, &opts)
        );
    }
    for n in INTERVAL_STATS {
        s += &format!("{n}: {:?} {:?}\n", f.stat_rate(n), f.stat_total(n));
    }
    let events = SINGLE_BLOCK
        .iter()
        .chain(MULTIBLOCK)
        .chain(TEMP)
        .chain(WRITE_WAITS)
        .chain(FLASH_CACHE_READS)
        .chain(KEY_HISTOGRAMS)
        .chain(&["log file sync", "log file parallel write"]);
    for e in events {
        s += &format!(
            "{e}: {:?} {:?} {:?} {:?}\n",
            f.event_avg_ms(e),
            f.background(e),
            f.distribution(e),
            f.device_split(e)
        );
    }
    s
}

#[test]
fn a_thinned_report_gives_the_same_interval_facts_as_the_full_one() {
    let reports = reports();
    assert!(reports.len() >= 20, "only {} reports", reports.len());
    let thinned: Vec<DbReport> = reports.iter().map(thin).collect();
    let (mut corpus, mut full_bytes, mut thin_bytes) = (0, 0, 0);
    for (full, thin) in reports.iter().zip(&thinned) {
        let (a, b) = (IntervalFacts::new(full), IntervalFacts::new(thin));
        assert_eq!(figures(&a), figures(&b), "{}", full.source.path);
        let size = |r: &DbReport| serde_json::to_string(r).unwrap().len();
        assert!(size(thin) <= size(full), "{}", full.source.path);
        if full.source.path.contains("/corpus/") {
            corpus += 1;
            full_bytes += size(full);
            thin_bytes += size(thin);
        }
    }
    // The cut is worth having: real reports lose most of their rows.
    eprintln!("{corpus} corpus reports: {full_bytes} bytes of JSON, thinned {thin_bytes}");
    assert!(thin_bytes * 3 < full_bytes || corpus == 0);
    let full: Vec<IntervalFacts> = reports.iter().map(IntervalFacts::new).collect();
    let thin: Vec<IntervalFacts> = thinned.iter().map(IntervalFacts::new).collect();
    assert_eq!(awrflash_facts::trend(&full), awrflash_facts::trend(&thin));
    assert_eq!(
        awrflash_facts::peak_interval(&full),
        awrflash_facts::peak_interval(&thin)
    );
}

/// A reduced report (`awrflash_facts::reduced`) under the facts computed
/// from its thinned form answers every reader as the thinned one does, and
/// holds a fraction of it.
#[test]
fn facts_bound_to_a_reduced_report_read_as_over_the_thinned_one() {
    let reports = reports();
    let (mut thin_bytes, mut reduced_bytes) = (0, 0);
    for r in &reports {
        let thinned = thin(r);
        let cut = reduced(&thinned);
        assert_eq!(
            format!("{cut:?}"),
            format!("{:?}", reduced(r)),
            "{}",
            r.source.path
        );
        let a = IntervalFacts::new(&thinned);
        let b = IntervalFacts::new(&thinned).detach();
        let b = b.bind(&cut);
        assert_eq!(figures(&a), figures(&b), "{}", r.source.path);
        if r.source.path.contains("/corpus/") {
            let size = |r: &DbReport| serde_json::to_string(r).unwrap().len();
            thin_bytes += size(&thinned);
            reduced_bytes += size(&cut);
        }
    }
    eprintln!("corpus reports: thinned {thin_bytes} bytes of JSON, reduced {reduced_bytes}");
    assert!(reduced_bytes * 2 < thin_bytes || thin_bytes == 0);
}

/// The analysis a run makes (every interval's facts over its reduced
/// report, the analysed one given its whole report afterwards) is the
/// analysis of the whole reports.
#[test]
fn an_analysis_over_reduced_intervals_is_the_full_analysis() {
    let reports = reports();
    let full: Vec<Document> = reports
        .iter()
        .map(|r| Document::Report(Box::new(r.clone())))
        .collect();
    let cut: Vec<DbReport> = reports.iter().map(|r| reduced(&thin(r))).collect();
    let facts: Vec<IntervalFacts> = reports
        .iter()
        .zip(&cut)
        .map(|(r, c)| IntervalFacts::new(&thin(r)).detach().bind(c))
        .collect();
    let mut iv = awrflash_rules::Intervals::new(facts).unwrap();
    let i = iv.analysed_input().unwrap();
    assert_eq!(
        Some(i),
        awrflash_rules::analysed_report(&full).unwrap(),
        "the same interval is chosen over reduced reports"
    );
    iv.replace_analysed(IntervalFacts::new(&reports[i]))
        .unwrap();
    let given = given(&reports);
    let opts = awrflash_rules::Options::default();
    let a = awrflash_rules::analyze(&full, &opts).unwrap();
    let b = awrflash_rules::analyze_intervals(iv, &given, &opts).unwrap();
    assert!(a.series.len() > 20);
    assert_eq!(
        serde_json::to_string_pretty(&a).unwrap(),
        serde_json::to_string_pretty(&b).unwrap()
    );
}

/// What the run gives the advisor besides the intervals, for `reports`.
fn given(reports: &[DbReport]) -> awrflash_rules::Given<'static> {
    awrflash_rules::Given {
        inputs: reports.iter().map(|r| r.source.clone()).collect(),
        caveats: awrflash_rules::caveats(
            reports
                .iter()
                .map(|r| (r.source.path.as_str(), r.warnings.as_slice())),
        ),
        aux: &[],
    }
}

/// The analysis over `reports` with every interval held as its facts over
/// its lean report and its window moves from `planner` (the analysed one
/// given its whole report back, as the run does).
fn lean_analysis(
    reports: &[DbReport],
    planner: &awrflash_rules::MovesPlanner,
    opts: &awrflash_rules::Options,
) -> Result<awrflash_model::Analysis, awrflash_rules::RulesError> {
    let mut detached = Vec::new();
    let mut moves = Vec::new();
    for r in reports {
        let (m, d) = planner.hold(IntervalFacts::new(r));
        moves.push(Some(m));
        detached.push(d);
    }
    let cut: Vec<DbReport> = reports.iter().map(lean).collect();
    let facts: Vec<IntervalFacts> = detached
        .into_iter()
        .zip(&cut)
        .map(|(d, c)| d.bind(c))
        .collect();
    let mut iv = awrflash_rules::Intervals::with_moves(facts, moves).unwrap();
    let i = iv.analysed_input().unwrap();
    iv.replace_analysed(IntervalFacts::new(&reports[i]))
        .unwrap();
    let given = given(reports);
    awrflash_rules::analyze_intervals(iv, &given, opts)
}

#[test]
fn an_analysis_over_lean_intervals_with_their_moves_is_the_full_analysis() {
    let reports = reports();
    let full: Vec<Document> = reports
        .iter()
        .map(|r| Document::Report(Box::new(r.clone())))
        .collect();
    for device in [None, Some("exadata-cell-flash"), Some("nvme-modern")] {
        let opts = awrflash_rules::Options {
            device: device.map(str::to_string),
            ..Default::default()
        };
        let planner = awrflash_rules::MovesPlanner::new(&opts).unwrap();
        let a = awrflash_rules::analyze(&full, &opts).unwrap();
        let b = lean_analysis(&reports, &planner, &opts).unwrap();
        assert!(a.series.len() > 20);
        assert!(
            a.window.is_some(),
            "the window is planned over every interval"
        );
        assert_eq!(
            serde_json::to_string_pretty(&a).unwrap(),
            serde_json::to_string_pretty(&b).unwrap(),
            "device {device:?}"
        );
    }
}

#[test]
fn moves_computed_for_other_devices_are_an_error_not_a_guess() {
    let reports = reports();
    // Moves for the default devices; the analysis asked for another one.
    let planner = awrflash_rules::MovesPlanner::new(&awrflash_rules::Options::default()).unwrap();
    let opts = awrflash_rules::Options {
        device: Some("nvme-modern".into()),
        ..Default::default()
    };
    let err = lean_analysis(&reports, &planner, &opts).unwrap_err();
    assert!(err.to_string().contains("nvme-modern"), "{err}");
}

/// A report whose trend figures all come from the rows a lean report must
/// keep: the redo and I/O latencies from background events only, the
/// flash cache hits and the logons from activity statistics only.
fn window_rows_only() -> DbReport {
    use awrflash_model::{ActivityStat, Header, LoadProfileRow, Source, WaitEvent, WaitEvents};
    DbReport {
        source: Source {
            path: "window-rows.html".into(),
            ..Default::default()
        },
        header: Header {
            elapsed_s: Some(3600.0),
            ..Default::default()
        },
        load_profile: vec![LoadProfileRow {
            name: "DB Time(s)".into(),
            per_second: Some(2.0),
            ..Default::default()
        }],
        wait_events: WaitEvents {
            background: awrflash_facts::TREND_EVENTS
                .iter()
                .map(|n| WaitEvent {
                    name: (*n).into(),
                    waits: Some(1000.0),
                    time_s: Some(3.0),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        },
        activity_stats: ["physical read flash cache hits", "logons cumulative"]
            .iter()
            .map(|n| ActivityStat {
                name: (*n).into(),
                total: Some(7200.0),
                per_second: Some(2.0),
                ..Default::default()
            })
            .collect(),
        ..Default::default()
    }
}

#[test]
fn a_lean_report_keeps_what_the_readers_over_every_interval_read() {
    for r in reports().into_iter().chain([window_rows_only()]) {
        let l = lean(&r);
        let f = IntervalFacts::new(&r);
        let g = IntervalFacts::new(&r).detach().bind(&l);
        let path = r.source.path.clone();
        // The trend (every figure it follows), the classification's logons
        // and I/O share.
        assert_eq!(
            format!("{:?}", awrflash_facts::trend(std::slice::from_ref(&f))),
            format!("{:?}", awrflash_facts::trend(std::slice::from_ref(&g))),
            "{path}"
        );
        assert_eq!(
            format!("{:?}", f.stat_rate("logons cumulative")),
            format!("{:?}", g.stat_rate("logons cumulative")),
            "{path}"
        );
        assert_eq!(
            r.load_profile_row("Logons"),
            l.load_profile_row("Logons"),
            "{path}"
        );
        assert_eq!(
            format!("{:?}", f.io_share_pct()),
            format!("{:?}", g.io_share_pct()),
            "{path}"
        );
        assert_eq!(r.header, l.header, "{path}");
        assert!(
            l.wait_histogram.is_empty() && l.os_stats.is_empty() && l.iostat_function.is_empty()
        );
    }
    // The rows the lean report keeps are the only source of these figures
    // here: the comparison above is not between two absent values.
    let r = window_rows_only();
    let t = awrflash_facts::trend(&[IntervalFacts::new(&r)]);
    for m in [
        "flash_cache_hits_s",
        "db_file_sequential_read_ms",
        "log_file_sync_ms",
        "log_file_parallel_write_ms",
    ] {
        assert!(
            t.iter().any(|x| x.metric == m && x.intervals == 1),
            "{m}: {t:?}"
        );
    }
    assert!(
        IntervalFacts::new(&r)
            .stat_rate("logons cumulative")
            .is_some()
    );
}

#[test]
fn an_analysis_with_every_report_but_the_analysed_one_thinned_is_the_full_analysis() {
    let mut reports = reports();
    // The advisor's order (time, snapshot, path), so the peak found here is
    // the advisor's peak, ties included.
    reports.sort_by(|a, b| {
        (&a.header.begin_time, a.header.begin_snap, &a.source.path).cmp(&(
            &b.header.begin_time,
            b.header.begin_snap,
            &b.source.path,
        ))
    });
    let full: Vec<Document> = reports
        .iter()
        .map(|r| Document::Report(Box::new(r.clone())))
        .collect();
    // The report the advisor plans for in detail stays whole.
    let peak = awrflash_rules::analysed_report(&full).unwrap().unwrap();
    let mixed: Vec<Document> = reports
        .iter()
        .enumerate()
        .map(|(i, r)| Document::Report(Box::new(if i == peak { r.clone() } else { thin(r) })))
        .collect();
    let opts = awrflash_rules::Options::default();
    let a = awrflash_rules::analyze(&full, &opts).unwrap();
    let b = awrflash_rules::analyze(&mixed, &opts).unwrap();
    assert!(a.series.len() > 20);
    assert_eq!(
        serde_json::to_string_pretty(&a).unwrap(),
        serde_json::to_string_pretty(&b).unwrap()
    );
}

/// The parameters an interval's figures read survive the thinning (and the
/// reduction), and those they do not read go: every report again, with a recovery area that
/// holds one redo member, a buffer cache known only from `db_cache_size`
/// and a caged CPU count.
#[test]
fn a_thinned_report_keeps_the_parameters_its_figures_read() {
    use awrflash_model::{Parameter, SourceRef};
    let param = |name: &str, value: &str| Parameter {
        name: name.into(),
        value: value.into(),
        end_value: None,
        src: SourceRef::new("init.ora Parameters", 1),
    };
    let (mut in_fra, mut cache_from_param) = (0, 0);
    for mut r in reports() {
        r.cache_sizes.buffer_cache_bytes = None;
        r.parameters = vec![
            param("db_block_checksum", "TYPICAL"),
            param("db_cache_size", "4G"),
            param("db_recovery_file_dest", "+FRA"),
            param("db_create_online_log_dest_1", "+DATA"),
            param("DB_CREATE_ONLINE_LOG_DEST_2", "+FRA"),
            param("db_create_online_log_dest_6", "+FRA"),
            param("cpu_count", "2"),
            param("resource_manager_plan", "DEFAULT_PLAN"),
            param("log_archive_dest_2", "SERVICE=standby ASYNC"),
        ];
        let thinned = thin(&r);
        assert_eq!(thinned.parameters.len(), 6, "{}", r.source.path);
        let (a, b) = (IntervalFacts::new(&r), IntervalFacts::new(&thinned));
        assert_eq!(figures(&a), figures(&b), "{}", r.source.path);
        // And a reduced report, whose time model keeps the background CPU
        // the caged CPU count is weighed with.
        let cut = reduced(&thinned);
        let c = IntervalFacts::new(&thinned).detach().bind(&cut);
        assert_eq!(figures(&a), figures(&c), "{}", r.source.path);
        in_fra += usize::from(a.commit().is_some_and(|c| c.shares_recovery_area.is_some()));
        cache_from_param += usize::from(a.buffer_cache_bytes.is_some());
    }
    // The figures did read them.
    assert!(
        in_fra > 0 && cache_from_param > 0,
        "{in_fra} {cache_from_param}"
    );
}
