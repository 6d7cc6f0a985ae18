//! The option set follows the platform: on Exadata only what the cell
//! flash does not yet cover (no device move, no Smart Flash Cache size), on
//! a managed service only the service's storage tier (no host access), on a
//! cloud VM no device-class advice. Each case has a fixture where the
//! platform advice applies and one (the plain host) where it does not.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use awrflash_model::{Analysis, Document};
use awrflash_rules::{Options, analyze};

const EXADATA_KEYS: &[&str] = &[
    "cell-flash-keep",
    "smart-flash-log",
    "write-back-flash-cache",
];

fn run(file: &str) -> Analysis {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules").join(file));
    analyze(&fx.docs, &fx.opts).unwrap()
}

fn keys(a: &Analysis) -> Vec<&str> {
    a.options.iter().map(|o| o.key.as_str()).collect()
}

fn ids(a: &Analysis) -> Vec<&str> {
    a.findings.iter().map(|f| f.id.as_str()).collect()
}

/// No statement moves a file or sizes a Smart Flash Cache.
fn assert_no_device_move(label: &str, a: &Analysis) {
    for sql in common::all_sql(a) {
        let u = sql.to_ascii_uppercase();
        assert!(
            !u.contains("TABLESPACE FLASH_TS")
                && !u.contains("DB_FLASH_CACHE")
                && !u.contains("DATAFILE")
                && !u.contains("FIO-"),
            "{label}: {sql}"
        );
    }
}

#[test]
fn exadata_advises_only_what_the_cell_flash_does_not_cover() {
    let a = run("AF080/redo_writes.toml");
    let k = keys(&a);
    assert!(
        k.iter().all(|k| EXADATA_KEYS.contains(k)),
        "device moves offered on Exadata: {k:?}"
    );
    for key in EXADATA_KEYS {
        assert!(k.contains(key), "{key} missing: {k:?}");
    }
    assert!(
        a.options.iter().all(|o| o.device == "exadata-cell-flash"),
        "the cells' own flash is the target"
    );
    let f = a.findings.iter().find(|f| f.id == "AF080").unwrap();
    assert!(
        f.message
            .starts_with("Exadata: cell flash already serves 80.0% of read requests"),
        "{}",
        f.message
    );
    assert!(f.message.contains("(2) redo: log file sync takes 22.0%"));
    assert!(f.message.contains("(3) writes"));
    let fix = &f.recommendation.as_ref().unwrap().text;
    assert!(fix.contains("Smart Flash Log") && fix.contains("WriteBack"));
    assert!(fix.contains("No seed covers I/O Resource Management"));
    // The device-move rules yield to AF080.
    for id in ["AF030", "AF050", "AF060", "AF090"] {
        assert!(!ids(&a).contains(&id), "{id} on Exadata: {:?}", ids(&a));
    }
    assert!(
        a.verdict
            .summary
            .starts_with("Exadata: cell flash already serves 80.0% of read requests;"),
        "{}",
        a.verdict.summary
    );
    assert!(
        !a.segments_to_move.is_empty()
            && a.segments_to_move.iter().all(|s| s
                .sql
                .as_deref()
                .is_some_and(|q| q.contains("CELL_FLASH_CACHE KEEP"))),
        "{:?}",
        a.segments_to_move
            .iter()
            .map(|s| s.sql.clone())
            .collect::<Vec<_>>()
    );
    assert_eq!(
        a.segments_to_move[0].sql.as_deref(),
        Some("ALTER INDEX \"APP\".\"ORDERS_PK\" STORAGE (CELL_FLASH_CACHE KEEP);")
    );
    assert_no_device_move("redo_writes", &a);
    let fc = a.flash_cache.as_ref().unwrap();
    assert!(
        fc.curve.is_empty() && fc.fit.is_none(),
        "no Smart Flash Cache sizes on Exadata"
    );
    // Quiet: on a Linux host the curve keeps every size.
    let a = run("AF080/quiet.toml");
    assert_eq!(a.flash_cache.as_ref().unwrap().curve.len(), 8);
}

#[test]
fn exadata_with_most_reads_unoptimized_gets_keep_statements() {
    let a = run("AF080/fires.toml");
    let f = a.findings.iter().find(|f| f.id == "AF080").unwrap();
    assert_eq!(f.severity.as_str(), "warning");
    assert!(f.message.contains("already serves 30.0%"), "{}", f.message);
    let sql = &f.recommendation.as_ref().unwrap().sql;
    assert_eq!(
        sql,
        &[
            "ALTER INDEX \"APP\".\"ORDERS_PK\" STORAGE (CELL_FLASH_CACHE KEEP);",
            "ALTER TABLE \"APP\".\"ORDERS\" STORAGE (CELL_FLASH_CACHE KEEP);",
            "ALTER INDEX \"APP\".\"LINES_IX1\" STORAGE (CELL_FLASH_CACHE KEEP);",
            "ALTER TABLE \"APP\".\"CUSTOMERS\" STORAGE (CELL_FLASH_CACHE KEEP);",
        ]
    );
    assert!(keys(&a).iter().all(|k| EXADATA_KEYS.contains(k)));
    assert_no_device_move("AF080 fires", &a);
}

#[test]
fn a_plain_linux_host_keeps_the_device_options() {
    let a = run("AF080/quiet.toml");
    let k = keys(&a);
    assert!(
        k.contains(&"whole-db") && k.contains(&"hot-segments"),
        "{k:?}"
    );
    assert!(!k.iter().any(|k| EXADATA_KEYS.contains(k)), "{k:?}");
    assert!(!a.verdict.summary.starts_with("Exadata"));
    assert!(ids(&a).contains(&"AF030"));
}

#[test]
fn a_pdb_service_without_os_statistics_gets_only_the_storage_tier() {
    let a = run("AF030/service_pdb.toml");
    assert_eq!(keys(&a), ["whole-db"], "{:?}", keys(&a));
    let o = &a.options[0];
    assert!(
        o.title.contains("service's faster storage tier"),
        "{}",
        o.title
    );
    assert!(
        o.notes.iter().any(|n| n.contains("no host access")
            && n.contains("pluggable database SALESPDB")
            && n.contains("nothing of the host")),
        "{:?}",
        o.notes
    );
    assert!(!ids(&a).contains(&"AF030"), "{:?}", ids(&a));
    let fc = a.flash_cache.as_ref().unwrap();
    assert!(
        !fc.recommended && fc.reason.contains("managed service"),
        "{}",
        fc.reason
    );
    assert!(a.segments_to_move.iter().all(|s| s.sql.is_none()));
    assert_no_device_move("service_pdb", &a);
    assert!(common::all_sql(&a).is_empty(), "{:?}", common::all_sql(&a));
    // Quiet: a PDB report that names its host and CPUs is not a service.
    let a = run("AF030/pdb_on_host.toml");
    let k = keys(&a);
    assert!(
        k.contains(&"whole-db") && k.contains(&"hot-segments"),
        "{k:?}"
    );
    assert!(ids(&a).contains(&"AF030"));
}

#[test]
fn a_cloud_vm_gets_no_device_class_advice_and_names_the_disk_tier() {
    let a = run("AF090/cloud_vm.toml");
    assert!(!ids(&a).contains(&"AF090"), "{:?}", ids(&a));
    let whole = a.options.iter().find(|o| o.key == "whole-db").unwrap();
    assert!(
        whole
            .notes
            .iter()
            .any(|n| n.contains("on Microsoft Azure, flash is the provider's disk tier")),
        "{:?}",
        whole.notes
    );
    // Quiet: the same interval on a plain host gets AF090.
    let a = run("AF090/fires.toml");
    assert!(ids(&a).contains(&"AF090"));
}

#[test]
fn corpus_exadata_reports_get_only_cell_flash_options_and_lead_with_the_served_share() {
    let Some(root) = awrflash_testkit::corpus("") else {
        return;
    };
    let mut n = 0;
    for path in awrflash_testkit::files_in(&root.join("awr-html")) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let Ok(doc) = awrflash_parse::parse_bytes(&name, &std::fs::read(&path).unwrap()) else {
            continue;
        };
        let Document::Report(r) = &doc else {
            continue;
        };
        if !r
            .wait_events
            .foreground
            .iter()
            .any(|e| e.name.starts_with("cell "))
        {
            continue;
        }
        n += 1;
        let a = analyze(std::slice::from_ref(&doc), &Options::default()).unwrap();
        let k = keys(&a);
        assert!(k.iter().all(|k| EXADATA_KEYS.contains(k)), "{name}: {k:?}");
        assert!(
            a.verdict
                .summary
                .starts_with("Exadata: cell flash already serves"),
            "{name}: {}",
            a.verdict.summary
        );
        assert_no_device_move(&name, &a);
    }
    eprintln!("checked {n} Exadata reports");
    assert!(n > 0, "the corpus has Exadata reports");
}

#[test]
fn a_data_guard_primary_is_read_from_its_destinations_and_sync_is_named() {
    let a = run("AF055/sync.toml");
    let f = a.findings.iter().find(|f| f.id == "AF055").unwrap();
    assert!(
        f.message
            .contains("log_archive_dest_2 ships redo to SERVICE=flashdb_stby (SYNC)"),
        "{}",
        f.message
    );
    assert!(
        f.message
            .contains("redo transport waits: SYNC Remote Write")
    );
    assert!(f.message.contains("With SYNC transport"));
    let a = run("AF055/fires.toml");
    let f = a.findings.iter().find(|f| f.id == "AF055").unwrap();
    assert!(f.message.contains("SERVICE=flashdb_stby (ASYNC)"));
    assert!(f.message.contains("dg_broker_start = TRUE"));
    assert!(!f.message.contains("With SYNC transport"));
    // Quiet: the same interval with the destination deferred.
    let a = run("AF055/quiet.toml");
    assert!(!ids(&a).contains(&"AF055"));
    let redo = a.options.iter().find(|o| o.key == "redo").unwrap();
    assert!(!redo.notes.iter().any(|n| n.contains("Data Guard")));
}

#[test]
fn a_write_heavy_exadata_load_is_pointed_at_the_write_back_flash_cache() {
    let a = run("AF080/write_heavy.toml");
    let f = a.findings.iter().find(|f| f.id == "AF080").unwrap();
    assert!(
        f.message
            .contains("(3) writes: writes are 45.0% of I/O requests"),
        "{}",
        f.message
    );
    assert!(!f.message.contains("free buffer"), "{}", f.message);
    assert!(
        f.recommendation
            .as_ref()
            .unwrap()
            .text
            .contains("WriteBack")
    );
    // Quiet: the read-mostly Exadata interval has no write advice.
    let a = run("AF080/fires.toml");
    let f = a.findings.iter().find(|f| f.id == "AF080").unwrap();
    assert!(!f.message.contains("(3) writes"), "{}", f.message);
}

#[test]
fn flash_fast_redo_writes_on_exadata_get_no_smart_flash_log_advice() {
    let a = run("AF080/fast_redo.toml");
    let f = a.findings.iter().find(|f| f.id == "AF080").unwrap();
    assert!(
        f.message.contains("(2) redo: log file sync takes 22.0%")
            && f.message.contains("already flash-fast"),
        "{}",
        f.message
    );
    let fix = &f.recommendation.as_ref().unwrap().text;
    assert!(!fix.contains("LIST FLASHLOG"), "{fix}");
    // Fires: 2.4 ms redo writes get the Smart Flash Log check.
    let a = run("AF080/redo_writes.toml");
    let f = a.findings.iter().find(|f| f.id == "AF080").unwrap();
    assert!(
        f.recommendation
            .as_ref()
            .unwrap()
            .text
            .contains("LIST FLASHLOG")
    );
    assert!(!f.message.contains("already flash-fast"));
}

#[test]
fn an_exadata_window_projects_only_cell_flash_moves_and_keeps_the_lead() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF080/redo_writes.toml"));
    let mut docs = fx.docs.clone();
    let Document::Report(r) = &fx.docs[0] else {
        panic!("a report")
    };
    let mut next = (**r).clone();
    next.header.begin_time = Some("2024-03-04T11:00:00".into());
    next.header.end_time = Some("2024-03-04T12:00:00".into());
    next.header.begin_snap = Some(101);
    next.header.end_snap = Some(102);
    next.source.path = "next_hour.html".into();
    docs.push(Document::Report(Box::new(next)));
    let a = analyze(&docs, &fx.opts).unwrap();
    let wa = a.window.as_ref().expect("two intervals make a window");
    assert!(
        EXADATA_KEYS.contains(&wa.move_key.as_str()),
        "window move on Exadata: {}",
        wa.move_key
    );
    assert!(
        a.verdict
            .summary
            .starts_with("Exadata: cell flash already serves 80.0% of read requests. "),
        "{}",
        a.verdict.summary
    );
    // Quiet: a host's window moves a device.
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF080/quiet.toml"));
    let mut docs = fx.docs.clone();
    let Document::Report(r) = &fx.docs[0] else {
        panic!("a report")
    };
    let mut next = (**r).clone();
    next.header.begin_time = Some("2024-03-04T11:00:00".into());
    next.header.end_time = Some("2024-03-04T12:00:00".into());
    next.source.path = "next_hour.html".into();
    docs.push(Document::Report(Box::new(next)));
    let a = analyze(&docs, &fx.opts).unwrap();
    let wa = a.window.as_ref().unwrap();
    assert!(!EXADATA_KEYS.contains(&wa.move_key.as_str()));
}
