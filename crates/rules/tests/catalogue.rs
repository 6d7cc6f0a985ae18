//! Catalogue invariants: ids unique and matching file names, every rule
//! has a TOML, a check, documented thresholds that load, citations whose
//! seed file exists and whose section (and quote) is found in it, and a
//! fires and a quiet fixture.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::collections::BTreeSet;

use awrflash_rules::{catalogue, catalogue::load, checks};

fn normalize(s: &str) -> String {
    s.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

#[test]
fn rule_ids_are_unique_and_match_their_files() {
    let rules = load().unwrap();
    let ids: BTreeSet<_> = rules.iter().map(|r| r.id.clone()).collect();
    assert_eq!(ids.len(), rules.len(), "duplicate rule ids");
    let slugs: BTreeSet<_> = rules.iter().map(|r| r.slug.clone()).collect();
    assert_eq!(slugs.len(), rules.len(), "duplicate slugs");
    // Every rules/AF*.toml on disk is compiled in, and the other way round.
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("catalogue");
    let on_disk: BTreeSet<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| {
            n.ends_with(".toml")
                && n != "devices.toml"
                && n != "seeds.toml"
                && n != "maintenance.toml"
        })
        .map(|n| n.trim_end_matches(".toml").to_string())
        .collect();
    assert_eq!(on_disk, ids, "rules/*.toml and the compiled-in list differ");
    for id in &ids {
        assert!(
            id.len() == 5 && id.starts_with("AF") && id[2..].chars().all(|c| c.is_ascii_digit()),
            "bad id {id}"
        );
    }
}

#[test]
fn every_rule_has_a_check_and_its_thresholds_load_into_it() {
    let rules = load().unwrap();
    let ids: BTreeSet<&str> = rules.iter().map(|r| r.id.as_str()).collect();
    let checks: BTreeSet<&str> = checks::CHECK_IDS.iter().copied().collect();
    assert_eq!(
        ids, checks,
        "rules without a check or checks without a rule"
    );
    for r in &rules {
        checks::build(r).unwrap_or_else(|e| panic!("{}: {e}", r.id));
    }
}

#[test]
fn every_threshold_says_how_it_was_derived() {
    for r in load().unwrap() {
        let t: BTreeSet<&String> = r.thresholds.keys().collect();
        let d: BTreeSet<&String> = r.derivation.keys().collect();
        assert_eq!(t, d, "{}: thresholds and derivations differ", r.id);
        for (k, v) in &r.derivation {
            assert!(v.len() > 30, "{}: derivation of {k} is too short", r.id);
        }
        for field in [
            &r.doc.summary,
            &r.doc.why,
            &r.doc.evidence,
            &r.doc.fix,
            &r.title,
        ] {
            assert!(!field.trim().is_empty(), "{}: empty doc field", r.id);
        }
    }
}

#[test]
fn every_citation_names_a_seed_file_and_text_found_in_it() {
    let Some(seeds) = common::seeds() else {
        eprintln!("skipped: ../shared/seeds is absent");
        return;
    };
    for r in load().unwrap() {
        assert!(!r.citations.is_empty(), "{} has no citation", r.id);
        for c in &r.citations {
            let path = seeds.join(&c.file);
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: seed {} unreadable: {e}", r.id, c.file));
            let text = normalize(&text);
            assert!(
                text.contains(&normalize(&c.section)),
                "{}: section `{}` not found in {}",
                r.id,
                c.section,
                c.file
            );
            if let Some(q) = &c.quote {
                assert!(
                    text.contains(&normalize(q)),
                    "{}: quote `{q}` not found in {}",
                    r.id,
                    c.file
                );
            }
        }
    }
}

#[test]
fn every_cited_document_has_a_title_and_the_seed_list_agrees() {
    let seeds = awrflash_rules::catalogue::seeds().unwrap();
    for r in load().unwrap() {
        for c in r.citations() {
            let title = c
                .title
                .unwrap_or_else(|| panic!("{}: no title for {}", r.id, c.seed));
            assert!(!title.trim().is_empty(), "{}: empty title", r.id);
        }
    }
    // The titles are those of the seed list, when it is present.
    if let Some(dir) = common::seeds() {
        let readme = std::fs::read_to_string(dir.join("README.md")).unwrap();
        for s in seeds {
            let row = readme
                .lines()
                .find(|l| l.contains(&format!("`{}`", s.file)))
                .unwrap_or_else(|| panic!("{} is not in the seed list", s.file));
            for part in s.title.split("; ") {
                assert!(
                    row.to_lowercase().contains(&part.to_lowercase()),
                    "{}: title `{part}` not in {row}",
                    s.file
                );
            }
        }
    }
}

#[test]
fn every_rule_has_a_fires_and_a_quiet_fixture() {
    for r in load().unwrap() {
        let dir = awrflash_testkit::fixtures("").join("rules").join(&r.id);
        for f in ["fires.toml", "quiet.toml"] {
            assert!(
                dir.join(f).is_file(),
                "{}: missing fixtures/rules/{}/{f}",
                r.id,
                r.id
            );
        }
    }
}

#[test]
fn catalogue_lists_every_rule_with_doc_and_citations() {
    let cat = catalogue().unwrap();
    let text: String = cat
        .iter()
        .map(|r| {
            format!(
                "{} {} [{}] {} ({} thresholds, {} citations)\n",
                r.id,
                r.slug,
                r.severity,
                r.title,
                r.thresholds.len(),
                r.citations.len()
            )
        })
        .collect();
    insta::assert_snapshot!("catalogue", text);
}

#[test]
fn device_profiles_include_the_seed_devices_and_an_editable_nvme_assumption() {
    let devs = awrflash_rules::devices(&awrflash_rules::Options::default()).unwrap();
    let names: Vec<&str> = devs.iter().map(|d| d.name.as_str()).collect();
    for n in [
        "sas-15k",
        "f5100-fmod",
        "fusionio-iodrive-160",
        "emc-stec-zeus-san",
        "intel-x25e",
        "nvme-modern",
    ] {
        assert!(names.contains(&n), "missing device {n}");
    }
    let nvme = devs.iter().find(|d| d.name == "nvme-modern").unwrap();
    assert!(nvme.assumption && nvme.description.contains("ASSUMPTION"));
    let f5100 = devs.iter().find(|d| d.name == "f5100-fmod").unwrap();
    assert!(!f5100.assumption && (f5100.read_8k_ms_qd1 - 0.37).abs() < 1e-9);
}
