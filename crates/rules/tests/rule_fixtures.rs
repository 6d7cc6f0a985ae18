//! Every rule fires on `fixtures/rules/<ID>/fires.toml` and stays quiet on
//! `quiet.toml`; its findings on the fires fixture are snapshotted.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use awrflash_rules::{analyze, catalogue};

#[test]
fn every_rule_fires_on_its_fires_fixture_and_stays_quiet_on_its_quiet_fixture() {
    let mut failures = Vec::new();
    for rule in catalogue().unwrap() {
        let dir = awrflash_testkit::fixtures("").join("rules").join(&rule.id);
        let fires = common::load(&dir.join("fires.toml"));
        let a = analyze(&fires.docs, &fires.opts).unwrap();
        let hits: Vec<_> = a.findings.iter().filter(|f| f.id == rule.id).collect();
        if hits.is_empty() {
            failures.push(format!("{} did not fire on fires.toml", rule.id));
        } else {
            let text: String = hits.iter().map(|f| common::finding_text(f)).collect();
            insta::assert_snapshot!(format!("{}_fires", rule.id), text);
        }
        let quiet = common::load(&dir.join("quiet.toml"));
        let a = analyze(&quiet.docs, &quiet.opts).unwrap();
        if let Some(f) = a.findings.iter().find(|f| f.id == rule.id) {
            failures.push(format!("{} fired on quiet.toml: {}", rule.id, f.message));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_number_in_a_finding_is_traced_to_a_row_or_says_how_it_was_derived() {
    for rule in catalogue().unwrap() {
        let dir = awrflash_testkit::fixtures("").join("rules").join(&rule.id);
        let fx = common::load(&dir.join("fires.toml"));
        let a = analyze(&fx.docs, &fx.opts).unwrap();
        for f in &a.findings {
            for e in &f.evidence {
                assert!(
                    e.src
                        .as_ref()
                        .is_some_and(|s| !s.path.is_empty() && !s.section.is_empty())
                        || e.derived_from.is_some(),
                    "{} evidence `{}` has neither src nor derivation",
                    f.id,
                    e.label
                );
            }
        }
    }
}

#[test]
fn findings_are_sorted_by_severity_then_id_and_analysis_is_deterministic() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF010/fires.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let b = analyze(&fx.docs, &fx.opts).unwrap();
    assert_eq!(
        serde_json::to_string(&a).unwrap(),
        serde_json::to_string(&b).unwrap()
    );
    for w in a.findings.windows(2) {
        assert!(
            w[0].severity > w[1].severity || (w[0].severity == w[1].severity && w[0].id <= w[1].id),
            "{} before {}",
            w[0].id,
            w[1].id
        );
    }
}

#[test]
fn segment_sizes_rank_by_io_density_and_fill_the_flash_budget() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF030/sizes.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let segs = &a.segments_to_move;
    assert!(
        segs.iter()
            .all(|s| s.size_gb.is_some() && s.io_density.is_some())
    );
    // By projected DB time saved per GB; ranks are 1..n.
    let ranks: Vec<u32> = segs.iter().map(|s| s.rank).collect();
    assert_eq!(ranks, (1..=segs.len() as u32).collect::<Vec<_>>());
    let per_gb: Vec<f64> = segs.iter().map(|s| s.saved_s_per_gb.unwrap()).collect();
    assert!(per_gb.windows(2).all(|w| w[0] >= w[1]), "{per_gb:?}");
    for s in segs {
        let (saved, gb) = (s.saved_s.unwrap(), s.size_gb.unwrap());
        assert!((s.saved_s_per_gb.unwrap() - saved / gb).abs() < 1e-2 * (1.0 + saved / gb));
    }
    let orders = segs.iter().find(|s| s.object == "ORDERS").unwrap();
    assert_eq!(
        orders.fits_budget,
        Some(false),
        "60 GB table does not fit 20 GB"
    );
    let fitted: f64 = segs
        .iter()
        .filter(|s| s.fits_budget == Some(true))
        .filter_map(|s| s.size_gb)
        .sum();
    assert!(fitted <= 20.0 && fitted > 0.0);
    let hot = a.options.iter().find(|o| o.key == "hot-segments").unwrap();
    assert_eq!(hot.capacity_gb, Some(fitted));
    let f = a.findings.iter().find(|f| f.id == "AF030").unwrap();
    assert!(f.message.contains("per GB"), "{}", f.message);
    let sql = &f.recommendation.as_ref().unwrap().sql;
    assert!(
        sql.iter()
            .any(|q| q.starts_with("ALTER INDEX \"APP\".\"ORDERS_PK\" REBUILD TABLESPACE"))
    );
    assert!(
        !sql.iter().any(|q| q.contains("\"ORDERS\" MOVE")),
        "ORDERS is over budget"
    );
}

#[test]
fn iostat_supplies_host_cpu_and_channel_when_the_report_has_neither() {
    use awrflash_model::{ChannelLoad, CpuSample, Document, IostatCapture, Source, SourceRef};
    let mut fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF002/fires.toml"));
    if let Document::Report(r) = &mut fx.docs[0] {
        r.host_cpu = None;
        r.io_profile.clear();
        r.load_profile.clear();
    }
    let cpu = |i: u32, idle: f64| CpuSample {
        interval: i,
        idle_pct: Some(idle),
        since_boot: i == 0,
        src: SourceRef::new("avg-cpu", 10 * i + 1),
        ..CpuSample::default()
    };
    let cap = IostatCapture {
        source: Source {
            path: "iostat.txt".into(),
            ..Source::default()
        },
        cpu: vec![cpu(0, 90.0), cpu(1, 4.0), cpu(2, 6.0)],
        channel: ChannelLoad {
            devices: vec!["sdb".into()],
            mb_s_mean: 41.0,
            ..ChannelLoad::default()
        },
        ..IostatCapture::default()
    };
    fx.docs.push(Document::Iostat(Box::new(cap)));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let cpu_f = a
        .findings
        .iter()
        .find(|f| f.id == "AF001")
        .expect("CPU from iostat");
    assert!(
        (cpu_f.evidence[0].value - 95.0).abs() < 1e-9,
        "since-boot sample left out"
    );
    assert_eq!(cpu_f.evidence[0].src.as_ref().unwrap().path, "iostat.txt");
    let ch = a
        .findings
        .iter()
        .find(|f| f.id == "AF002")
        .expect("channel from iostat");
    assert!((ch.evidence[0].value - 41.0).abs() < 1e-9);
}

#[test]
fn base_interval_gets_a_verdict_ranked_options_segments_and_a_flash_cache_plan() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF070/fires.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let mut s = format!(
        "verdict [{}] {:?} {}-{}%: {}\n",
        a.verdict.bound,
        a.verdict.best_option,
        a.verdict.gain_pct_low,
        a.verdict.gain_pct_high,
        a.verdict.summary
    );
    for o in &a.options {
        let p = &o.projection;
        s.push_str(&format!(
            "option {} on {}: {} s -> {}..{} s (ratio {}..{}, bound {}, cap {:?}, capacity {:?} GB)\n",
            o.key,
            o.device,
            p.db_time_before_s,
            p.db_time_after_low_s,
            p.db_time_after_high_s,
            p.response_ratio_low,
            p.response_ratio_high,
            p.bound,
            p.throughput_cap,
            o.capacity_gb
        ));
    }
    for g in &a.segments_to_move {
        s.push_str(&format!(
            "segment {} {}.{} {} reads {:?} cum {:?}%: {}\n",
            g.rank,
            g.owner,
            g.object,
            g.object_type,
            g.read_requests,
            g.cumulative_pct,
            g.sql.as_deref().unwrap_or("")
        ));
    }
    let fc = a.flash_cache.as_ref().expect("flash cache plan");
    s.push_str(&format!(
        "flash cache: recommended {} size {:?} GB sga {:?} MB: {}\n  fit: {}\n",
        fc.recommended,
        fc.size_gb,
        fc.sga_cost_mb,
        fc.reason,
        fc.fit.as_deref().unwrap_or("")
    ));
    for p in &fc.curve {
        s.push_str(&format!(
            "  {}x = {} GB: est read factor {}, DB time {} s, SGA {} MB\n",
            p.multiple_of_buffer_cache, p.size_gb, p.est_read_factor, p.db_time_s, p.sga_cost_mb
        ));
    }
    for q in &fc.sql {
        s.push_str(&format!("  {q}\n"));
    }
    s.push_str(&format!("breakdown: {:?}\n", a.exhibits.breakdown));
    insta::assert_snapshot!("base_analysis", s);
    // The options are ranked by gain and the flash cache SGA grows with size.
    assert!(
        fc.curve
            .windows(2)
            .all(|w| w[0].sga_cost_mb < w[1].sga_cost_mb)
    );
    assert_eq!(
        a.verdict.best_option.as_deref(),
        a.options.first().map(|o| o.key.as_str())
    );
}

#[test]
fn an_idle_interval_gets_not_enough_load_and_no_advice() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF004/low_load.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    assert_eq!(a.verdict.bound, "not-enough-load", "{}", a.verdict.summary);
    assert!(a.verdict.best_option.is_none());
    assert_eq!(a.verdict.gain_pct_high, 0.0);
    let f = a.findings.iter().find(|f| f.id == "AF004").unwrap();
    assert!(f.message.starts_with("Not enough load"), "{}", f.message);
    let advising: Vec<_> = a
        .findings
        .iter()
        .filter(|f| !matches!(f.id.as_str(), "AF003" | "AF004" | "AF005"))
        .map(|f| f.id.clone())
        .collect();
    assert!(
        advising.is_empty(),
        "rules advised on an idle interval: {advising:?}"
    );
    assert!(a.flash_cache.as_ref().is_none_or(|fc| !fc.recommended));
}

#[test]
fn sub_millisecond_redo_writes_get_no_redo_storage_advice_but_an_explanation() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF050/fast_writes.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    assert!(
        !a.findings.iter().any(|f| f.id == "AF050"),
        "redo storage advice on 0.37 ms redo writes"
    );
    // A significant log file sync is always explained: AF051 names the
    // number of commits, not the device.
    let f = a.findings.iter().find(|f| f.id == "AF051").unwrap();
    assert!(
        f.message.contains("Likely cause: the number of commits")
            && f.message.contains("flash-class"),
        "{}",
        f.message
    );
    assert!(
        a.verdict.summary.contains("(AF051)"),
        "{}",
        a.verdict.summary
    );
}

#[test]
fn segments_of_oracle_maintained_schemas_are_not_listed_to_move() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF030/oracle_schemas.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let listed: Vec<String> = a
        .segments_to_move
        .iter()
        .filter(|s| s.set_aside.is_none())
        .map(|s| format!("{}.{}", s.owner, s.object))
        .collect();
    assert_eq!(
        listed,
        ["APP.ORDERS_PK", "APP.ORDERS", "APP.LINES"],
        "{listed:?}"
    );
    // AWR's table is not moved but set aside, with the AWR fix; the
    // dictionary and SYS_TEMP segments are not listed at all.
    let aside: Vec<&awrflash_model::SegmentToMove> = a
        .segments_to_move
        .iter()
        .filter(|s| s.set_aside.is_some())
        .collect();
    assert_eq!(aside.len(), 1);
    assert_eq!(aside[0].object, "WRH$_ACTIVE_SESSION_HISTORY");
    assert!(aside[0].sql.is_none());
    assert!(
        aside[0]
            .set_aside
            .as_deref()
            .unwrap()
            .contains("AWR snapshots and purging")
    );
    let f = a.findings.iter().find(|f| f.id == "AF032").unwrap();
    assert!(
        f.message.contains("SYS.WRH$_ACTIVE_SESSION_HISTORY"),
        "{}",
        f.message
    );
    assert!(
        f.evidence.iter().any(
            |e| e.label == "SYS.WRH$_ACTIVE_SESSION_HISTORY read requests"
                && e.value == 2000000.0
                && e.src.is_some()
        ),
        "{:?}",
        f.evidence
    );
    assert!(
        f.recommendation
            .as_ref()
            .unwrap()
            .text
            .contains("DROP_SNAPSHOT_RANGE")
    );
    // move_table_partition grammar: UPDATE INDEXES, then ONLINE.
    assert_eq!(
        a.segments_to_move[2].sql.as_deref(),
        Some(
            "ALTER TABLE \"APP\".\"LINES\" MOVE PARTITION \"P2024Q1\" TABLESPACE FLASH_TS UPDATE INDEXES ONLINE;"
        )
    );
    for f in &a.findings {
        if let Some(r) = &f.recommendation {
            for sql in &r.sql {
                assert!(!sql.contains("\"SYS\""), "{}: {sql}", f.id);
            }
        }
    }
}

#[test]
fn reads_already_at_flash_latency_get_no_move_list() {
    for (id, file) in [
        ("AF030", "AF030/fast_reads.toml"),
        ("AF031", "AF031/fast_reads.toml"),
    ] {
        let fx = common::load(&awrflash_testkit::fixtures("").join("rules").join(file));
        let a = analyze(&fx.docs, &fx.opts).unwrap();
        if let Some(f) = a.findings.iter().find(|f| f.id == id) {
            panic!("{id} pushed a move list at 0.35 ms reads: {}", f.message);
        }
    }
}

#[test]
fn a_write_share_at_a_few_writes_per_second_gets_no_device_class_advice() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF090/low_rate.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    if let Some(f) = a.findings.iter().find(|f| f.id == "AF090") {
        panic!("AF090 fired at 5 writes/s: {}", f.message);
    }
}

#[test]
fn large_redo_writes_at_a_low_redo_rate_are_not_heavy_load() {
    let fx =
        common::load(&awrflash_testkit::fixtures("").join("rules/AF050/large_writes_light.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    // Slow writes at light load are not AF050's storage bottleneck: AF051
    // names the write at light load and the caching array.
    assert!(!a.findings.iter().any(|f| f.id == "AF050"));
    let f = a.findings.iter().find(|f| f.id == "AF051").unwrap();
    assert!(
        f.message.contains("light to moderate redo load") && f.message.contains("write-back cache"),
        "{}",
        f.message
    );
}

#[test]
fn smart_flash_cache_is_ranked_only_on_oracle_linux_and_solaris() {
    let dir = awrflash_testkit::fixtures("").join("rules/AF070");
    // Fires: the Linux interval ranks flash cache sizes.
    let fx = common::load(&dir.join("fires.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    assert!(a.options.iter().any(|o| o.key.starts_with("flash-cache-")));
    // Quiet: on AIX and on Exadata no size is ranked, none is recommended,
    // and the plan says in one line why not.
    for (file, why) in [
        ("aix.toml", "runs only on Oracle Linux and Oracle Solaris"),
        ("exadata.toml", "not offered on Exadata"),
    ] {
        let fx = common::load(&dir.join(file));
        let a = analyze(&fx.docs, &fx.opts).unwrap();
        let keys: Vec<_> = a.options.iter().map(|o| o.key.as_str()).collect();
        assert!(
            !keys.iter().any(|k| k.starts_with("flash-cache-")),
            "{file}: {keys:?}"
        );
        assert!(!a.findings.iter().any(|f| f.id == "AF070"), "{file}");
        let fc = a.flash_cache.as_ref().unwrap();
        assert!(!fc.recommended && fc.sql.is_empty(), "{file}");
        assert!(fc.reason.contains(why), "{file}: {}", fc.reason);
        assert!(!fc.reason.contains('\n'), "{file}: {}", fc.reason);
    }
}

#[test]
fn no_advice_means_no_best_option_and_no_sql() {
    // Fires: the base interval has advice and statements to run.
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF070/fires.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    assert!(a.verdict.best_option.is_some());
    assert!(!common::all_sql(&a).is_empty());
    // Quiet: not enough load, not enough data.
    for (file, bound) in [
        ("low_load.toml", "not-enough-load"),
        ("no_data.toml", "not-enough-data"),
    ] {
        let fx = common::load(
            &awrflash_testkit::fixtures("")
                .join("rules/AF004")
                .join(file),
        );
        let a = analyze(&fx.docs, &fx.opts).unwrap();
        assert_eq!(a.verdict.bound, bound, "{file}: {}", a.verdict.summary);
        assert!(a.verdict.best_option.is_none(), "{file}");
        assert!(
            common::all_sql(&a).is_empty(),
            "{file}: {:?}",
            common::all_sql(&a)
        );
        assert!(
            a.flash_cache.as_ref().is_none_or(|fc| !fc.recommended),
            "{file}"
        );
    }
}

#[test]
fn with_a_flash_budget_only_fitting_options_can_be_best() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF070/budget.toml"));
    let budget = fx.opts.flash_capacity_gb.unwrap();
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let fits = |o: &awrflash_model::OptionProjection| o.capacity_gb.is_none_or(|c| c <= budget);
    let too_big: Vec<_> = a.options.iter().filter(|o| !fits(o)).collect();
    assert!(
        !too_big.is_empty(),
        "the fixture has options above the budget"
    );
    // The ones that do not fit come after every one that does, marked.
    let first_bad = a.options.iter().position(|o| !fits(o)).unwrap();
    assert!(a.options[first_bad..].iter().all(|o| !fits(o)));
    for o in &too_big {
        assert!(
            o.notes
                .iter()
                .any(|n| n.contains("does not fit the 2 GB flash budget")),
            "{}: {:?}",
            o.key,
            o.notes
        );
    }
    let best = a.verdict.best_option.as_deref().unwrap();
    let best = a.options.iter().find(|o| o.key == best).unwrap();
    assert!(
        fits(best),
        "{} is best but needs {:?} GB",
        best.key,
        best.capacity_gb
    );
    assert!(
        a.flash_cache
            .as_ref()
            .is_none_or(|fc| !fc.recommended || fc.size_gb.is_some_and(|s| s <= budget))
    );
    // Without the budget the same interval ranks a size above 2 GB first
    // among the flash cache sizes: the budget is what moved it.
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF070/fires.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    assert!(
        a.options
            .iter()
            .any(|o| o.capacity_gb.is_some_and(|c| c > budget))
    );
}

#[test]
fn a_rejected_flash_cache_is_shown_as_rejected_not_ranked() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF070/rejected_cpu.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    assert!(a.flash_cache.as_ref().is_some_and(|fc| !fc.recommended));
    let is_fc = |k: &str| k.starts_with("flash-cache-");
    let first = a.options.iter().position(|o| is_fc(&o.key)).unwrap();
    assert!(a.options[first..].iter().all(|o| is_fc(&o.key)));
    for o in &a.options[first..] {
        assert!(
            o.notes.iter().any(|n| n.starts_with("rejected: ")),
            "{:?}",
            o.notes
        );
    }
    assert!(a.verdict.best_option.as_deref().is_none_or(|b| !is_fc(b)));
}

#[test]
fn the_flash_cache_write_gate_counts_data_file_requests_only() {
    let dir = awrflash_testkit::fixtures("").join("rules/AF070");
    // Fires: data files are 10% writes, LGWR the rest.
    let fx = common::load(&dir.join("datafile_writes.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    assert!(
        a.findings.iter().any(|f| f.id == "AF070"),
        "{:?}",
        a.flash_cache
    );
    // Quiet: without the filetype split all writes count.
    let fx = common::load(&dir.join("total_writes.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    assert!(!a.findings.iter().any(|f| f.id == "AF070"));
    let fc = a.flash_cache.as_ref().unwrap();
    assert!(
        fc.reason.contains("writes are 33.3% of I/O requests"),
        "{}",
        fc.reason
    );
}

#[test]
fn segments_rank_by_projected_time_saved_and_indexes_go_first_only_on_ties() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF030/ranking.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let order: Vec<&str> = a
        .segments_to_move
        .iter()
        .map(|s| s.object.as_str())
        .collect();
    assert_eq!(order, ["BIG_TABLE", "TIE_IX", "TIE_TABLE", "SMALL_IX"]);
    let saved: Vec<f64> = a
        .segments_to_move
        .iter()
        .map(|s| s.saved_s.unwrap())
        .collect();
    // Saving is proportional to the share of the read requests: 35/15/15/10.
    assert!(saved[0] > 0.0);
    assert!((saved[0] / saved[3] - 3.5).abs() < 0.01, "{saved:?}");
    assert!((saved[1] - saved[2]).abs() < 1e-6);
    // The one cumulative column still runs in rank order.
    let cum: Vec<f64> = a
        .segments_to_move
        .iter()
        .map(|s| s.cumulative_pct.unwrap())
        .collect();
    assert_eq!(cum, [35.0, 50.0, 65.0, 75.0]);
    let f = a.findings.iter().find(|f| f.id == "AF030").unwrap();
    assert!(
        f.message.contains("ranked by projected time saved"),
        "{}",
        f.message
    );
}

#[test]
fn a_segment_only_in_the_write_list_shows_its_writes_in_the_finding() {
    // DBWR-bound writes (free buffer waits): writes save time too.
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF060/fires.toml"));
    let mut docs = fx.docs.clone();
    if let awrflash_model::Document::Report(r) = &mut docs[0] {
        let w = r.segments.get_mut("physical_writes").unwrap();
        w[0].object = "AUDIT_TRAIL".into();
    }
    let a = analyze(&docs, &fx.opts).unwrap();
    let seg = a
        .segments_to_move
        .iter()
        .find(|s| s.object == "AUDIT_TRAIL")
        .unwrap();
    assert_eq!(seg.read_requests, None);
    assert_eq!(seg.physical_writes, Some(300000.0));
    assert!(seg.saved_s.unwrap() > 0.0, "{:?}", seg.saved_s);
    let f = a.findings.iter().find(|f| f.id == "AF030").unwrap();
    assert!(
        f.evidence
            .iter()
            .any(|e| e.label == "APP.AUDIT_TRAIL physical writes" && e.value == 300000.0),
        "{:?}",
        f.evidence.iter().map(|e| &e.label).collect::<Vec<_>>()
    );
}

#[test]
fn maintenance_reads_set_the_segment_aside_and_give_the_maintenance_fix() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF032/fires.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let pk = a
        .segments_to_move
        .iter()
        .find(|s| s.object == "ORDERS_PK")
        .unwrap();
    let why = pk.set_aside.as_deref().unwrap();
    assert!(why.contains("deferred global index maintenance"), "{why}");
    assert!(pk.sql.is_none() && pk.saved_s.is_none() && pk.cumulative_pct.is_none());
    assert_eq!(pk.statements[0].sql_id, "db7f9rmwydc9p");
    // The candidates do not include it, and no statement moves it.
    assert!(
        a.segments_to_move
            .iter()
            .filter(|s| s.set_aside.is_none())
            .all(|s| s.object != "ORDERS_PK" && s.rank > 0)
    );
    let all_sql = common::all_sql(&a);
    assert!(
        !all_sql.iter().any(|q| q.contains("\"ORDERS_PK\"")),
        "{all_sql:?}"
    );
    // ORDERS is joined to the application statement that names it.
    let orders = a
        .segments_to_move
        .iter()
        .find(|s| s.object == "ORDERS")
        .unwrap();
    assert!(orders.set_aside.is_none());
    assert_eq!(orders.statements[0].sql_id, "fmm4b3zw7t1vx");
    assert_eq!(orders.statements[0].maintenance, None);
    let f = a.findings.iter().find(|f| f.id == "AF032").unwrap();
    let fix = &f.recommendation.as_ref().unwrap().text;
    assert!(fix.contains("PMO_DEFERRED_GIDX_MAINT_JOB"), "{fix}");
    assert!(fix.contains("INCREMENTAL"), "{fix}");
    // AF011 does not count the maintenance statements as the workload's.
    assert!(
        a.findings
            .iter()
            .filter(|f| f.id == "AF011")
            .all(|f| !f.message.contains("b6usrg82hwsa3"))
    );
}

#[test]
fn a_statement_scanning_per_execution_is_a_sql_finding_that_af011_does_not_praise() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF012/fires.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let f = a.findings.iter().find(|f| f.id == "AF012").unwrap();
    assert!(f.message.contains("4ztz048yfq32s"), "{}", f.message);
    assert!(f.message.contains("not a move"), "{}", f.message);
    assert!(
        a.findings
            .iter()
            .filter(|f| f.id == "AF011")
            .all(|f| !f.message.contains("4ztz048yfq32s (")),
        "AF011 praised a full scan"
    );
}

#[test]
fn a_flat_tablespace_load_is_advised_by_tablespace_not_by_segment() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF031/flat.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    assert!(a.findings.iter().all(|f| f.id != "AF030"));
    let f = a.findings.iter().find(|f| f.id == "AF031").unwrap();
    assert!(f.message.contains("carry only 10.0%"), "{}", f.message);
    assert!(f.message.contains("the load is flat"), "{}", f.message);
    assert!(f.message.contains("TAG_P1 (222 reads/s"), "{}", f.message);
    let sql = &f.recommendation.as_ref().unwrap().sql;
    // Every listed tablespace's file moves as it is: no size, no layout.
    assert!(
        sql.iter()
            .all(|q| q.starts_with("ALTER DATABASE MOVE DATAFILE '/u02/")
                && !q.to_ascii_uppercase().contains("SIZE")
                && !q.to_ascii_uppercase().contains("RESIZE"))
    );
    assert!(sql.len() >= 4, "{sql:?}");
    let saved = f
        .evidence
        .iter()
        .find(|e| e.label == "DB time the listed tablespaces would save")
        .unwrap();
    assert!(saved.value > 0.0);
}

#[test]
fn before_12_1_the_datafile_moves_are_rman_copy_and_switch_steps() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF031/flat.toml"));
    let mut docs = fx.docs.clone();
    if let awrflash_model::Document::Report(r) = &mut docs[0] {
        r.header.release = Some("11.2.0.4.0".into());
    }
    let a = analyze(&docs, &fx.opts).unwrap();
    let f = a.findings.iter().find(|f| f.id == "AF031").unwrap();
    let sql = &f.recommendation.as_ref().unwrap().sql;
    assert!(!sql.is_empty());
    for q in sql {
        assert!(
            q.starts_with("-- before 12.1, in RMAN: BACKUP AS COPY DATAFILE '/u02/"),
            "{q}"
        );
        assert!(
            q.contains("SWITCH DATAFILE") && !q.contains("MOVE DATAFILE"),
            "{q}"
        );
    }
}
