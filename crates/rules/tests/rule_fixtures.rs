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
        let dir = common::fixtures().join("rules").join(&rule.id);
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
        let dir = common::fixtures().join("rules").join(&rule.id);
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
    let fx = common::load(&common::fixtures().join("rules/AF010/fires.toml"));
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
