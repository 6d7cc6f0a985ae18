//! Honest redo advice: a significant `log file sync` is always explained,
//! by AF050 (redo storage, heavy load) or AF051 (everything else, with the
//! likely cause), never both, and named in the verdict; the finding and
//! the redo option print the same commit model.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use awrflash_model::Analysis;
use awrflash_rules::analyze;

fn run(rel: &str) -> Analysis {
    let fx = common::load(&awrflash_testkit::fixtures("").join(rel));
    analyze(&fx.docs, &fx.opts).unwrap()
}

fn ids(a: &Analysis) -> Vec<&str> {
    a.findings
        .iter()
        .map(|f| f.id.as_str())
        .filter(|i| *i == "AF050" || *i == "AF051")
        .collect()
}

#[test]
fn a_significant_log_file_sync_gets_exactly_one_explanation_named_in_the_verdict() {
    for (rel, want) in [
        ("rules/AF050/fires.toml", "AF050"),
        ("rules/AF050/large_writes_light.toml", "AF051"),
        ("rules/AF050/fast_writes.toml", "AF051"),
        ("rules/AF051/fires.toml", "AF051"),
        ("rules/AF051/busy_cpu_light_redo.toml", "AF051"),
        ("rules/AF051/recovery_area.toml", "AF051"),
    ] {
        let a = run(rel);
        assert_eq!(ids(&a), vec![want], "{rel}");
        assert!(
            a.verdict.summary.contains(&format!("({want})"))
                && a.verdict.summary.contains("log file sync takes"),
            "{rel}: {}",
            a.verdict.summary
        );
    }
    // The base interval's log file sync (1% of DB time) is not significant.
    let a = run("rules/AF051/quiet.toml");
    assert!(ids(&a).is_empty());
    assert!(
        !a.verdict.summary.contains("log file sync"),
        "{}",
        a.verdict.summary
    );
}

#[test]
fn a_slow_write_that_is_a_minority_of_the_sync_on_a_busy_host_is_a_cpu_queue_not_storage() {
    let a = run("rules/AF051/busy_cpu_light_redo.toml");
    let f = a.findings.iter().find(|f| f.id == "AF051").unwrap();
    assert!(
        f.message.contains("the redo write is 4.40 ms of it (37%)"),
        "{}",
        f.message
    );
    assert!(
        f.message.contains("Likely cause: a CPU queue"),
        "{}",
        f.message
    );
    assert!(
        a.verdict
            .summary
            .contains("likely cause a CPU queue (AF051)"),
        "{}",
        a.verdict.summary
    );
}

#[test]
fn a_redo_member_in_the_recovery_area_and_multiplexing_are_named() {
    let a = run("rules/AF051/recovery_area.toml");
    let f = a.findings.iter().find(|f| f.id == "AF051").unwrap();
    assert!(
        f.message.contains("2.0x (multiplexed), one member in the recovery area (db_create_online_log_dest_2 = +FRA = db_recovery_file_dest)"),
        "{}",
        f.message
    );
    assert!(f.message.contains("LGWR 59% busy"), "{}", f.message);
}

#[test]
fn the_redo_finding_and_the_redo_option_print_the_same_commit_model() {
    for rel in [
        "rules/AF050/fires.toml",
        "rules/AF051/busy_cpu_light_redo.toml",
    ] {
        let a = run(rel);
        let f = a
            .findings
            .iter()
            .find(|f| f.id == "AF050" || f.id == "AF051")
            .unwrap();
        let o = a.options.iter().find(|o| o.key == "redo").unwrap();
        assert_eq!(f.projection.as_ref(), Some(&o.projection), "{rel}");
        let terms = o
            .notes
            .iter()
            .find(|n| n.starts_with("log file sync "))
            .unwrap();
        assert!(
            f.message.contains(terms.as_str()),
            "{rel}: {terms} not in {}",
            f.message
        );
        // Every term is non-negative: no negative "non-write part".
        assert!(!terms.contains("+ -"), "{terms}");
    }
}
