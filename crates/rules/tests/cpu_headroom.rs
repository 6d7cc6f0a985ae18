//! CPU headroom from every signal: one fires and one quiet fixture per
//! signal (`fixtures/rules/AF001/<signal>.toml`, `<signal>_quiet.toml`).
//! On a fires fixture AF001 names the signal that decided, and the
//! projection's CPU cap follows from it; on a quiet one AF001 stays quiet.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use awrflash_model::Document;
use awrflash_rules::analyze;

/// (fixture stem, the words AF001 must name).
const SIGNALS: &[(&str, &str)] = &[
    (
        "run_queue",
        "CPU queue: OS_CPU_WAIT_TIME 10,800 s/h on 4 vCPUs",
    ),
    ("load", "load 6 on 4 vCPUs"),
    (
        "resmgr",
        "Resource Manager: resmgr:cpu quantum 40% of DB time (cpu_count 2)",
    ),
    ("cpu_limit", "CPU limit: 0.8 CPUs used of cpu_count 1"),
    (
        "unaccounted",
        "CPU queue: 56.1% of DB time on neither CPU nor a wait (11,212 s/h) on 4 vCPUs",
    ),
];

#[test]
fn each_cpu_signal_decides_the_bound_when_it_shows_saturation_and_stays_quiet_otherwise() {
    let dir = awrflash_testkit::fixtures("").join("rules/AF001");
    let mut failures = Vec::new();
    for (stem, words) in SIGNALS {
        let fx = common::load(&dir.join(format!("{stem}.toml")));
        let a = analyze(&fx.docs, &fx.opts).unwrap();
        match a.findings.iter().find(|f| f.id == "AF001") {
            None => failures.push(format!("{stem}: AF001 did not fire")),
            Some(f) if !f.message.contains(words) => failures.push(format!(
                "{stem}: AF001 does not name `{words}`: {}",
                f.message
            )),
            Some(_) => {}
        }
        // The cap follows from the signal: 1.3x at most (the OLTP floor)
        // where the signal implies 77% or more.
        let cap = a.options[0].projection.throughput_cap.unwrap();
        if cap > 1.3 {
            failures.push(format!(
                "{stem}: throughput cap {cap}, expected at most 1.3"
            ));
        }
        let quiet = format!("{stem}_quiet");
        let path = dir.join(format!("{quiet}.toml"));
        if path.exists() {
            let fx = common::load(&path);
            let a = analyze(&fx.docs, &fx.opts).unwrap();
            if let Some(f) = a.findings.iter().find(|f| f.id == "AF001") {
                failures.push(format!("{quiet}: AF001 fired: {}", f.message));
            }
        }
    }
    let quiet_for_load = dir.join("load_linux_quiet.toml");
    let fx = common::load(&quiet_for_load);
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    if let Some(f) = a.findings.iter().find(|f| f.id == "AF001") {
        failures.push(format!("load_linux_quiet: AF001 fired: {}", f.message));
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_cpu_queue_names_its_signal_in_the_cap_step_and_the_verdict() {
    let fx = common::load(&awrflash_testkit::fixtures("").join("rules/AF001/run_queue.toml"));
    let a = analyze(&fx.docs, &fx.opts).unwrap();
    let best = a
        .options
        .iter()
        .find(|o| o.projection.bound == awrflash_model::Bound::Cpu)
        .unwrap();
    let step = best
        .projection
        .steps
        .iter()
        .find(|s| {
            s.component
                .starts_with(awrflash_rules::projection::CPU_BOUND)
        })
        .unwrap();
    assert!(
        step.component
            .contains("OS_CPU_WAIT_TIME 10,800 s/h on 4 vCPUs"),
        "{}",
        step.component
    );
    assert!(
        a.verdict
            .summary
            .contains("The CPUs cap it (CPU queue: OS_CPU_WAIT_TIME"),
        "{}",
        a.verdict.summary
    );
}

#[test]
fn time_on_neither_cpu_nor_a_wait_is_a_cpu_queue_only_when_a_queue_shows() {
    let dir = awrflash_testkit::fixtures("").join("rules/AF001");
    let breakdown = |stem: &str| {
        let fx = common::load(&dir.join(format!("{stem}.toml")));
        let Document::Report(r) = &fx.docs[0] else {
            panic!("report expected")
        };
        awrflash_facts::IntervalFacts::new(r).breakdown()
    };
    let with_queue = breakdown("unaccounted");
    let without = breakdown("unaccounted_quiet");
    // 20,000 s of DB time: 3,000 s CPU, 5,788 s of non-idle waits (the
    // base interval's foreground events), 11,212 s on neither.
    assert!(
        (with_queue.cpu_queue_s - 11_212.0).abs() < 1.0,
        "{with_queue:?}"
    );
    assert!(with_queue.cpu_queue_s <= with_queue.other_s);
    assert_eq!(without.cpu_queue_s, 0.0);
    assert_eq!(with_queue.other_s, without.other_s);
}
