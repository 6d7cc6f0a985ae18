//! Auxiliary inputs over the whole corpus through the binary: a capture is
//! used only by a database whose host and time window it fits, and every
//! refusal says why. Host names and windows are read back from
//! `awrflash parse`, so the test holds whatever the parsers accept.

// Test helpers outside #[test] functions may fail loudly too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::collections::BTreeMap;

use common::{code, run, stderr, stdout};
use serde_json::Value;

fn short(h: &str) -> String {
    h.split('.').next().unwrap_or_default().to_ascii_lowercase()
}

/// Short host name of each input by path (`None` where it names none).
type Hosts = BTreeMap<String, Option<String>>;

/// `(analyses, host of each input by path)`, or `None` without the corpus.
fn corpus_run() -> Option<(Vec<Value>, Hosts)> {
    let corpus = awrflash_testkit::corpus("")?;
    let dir = corpus.to_str().unwrap();
    let parsed = run(&["parse", dir, "-q"]);
    let mut hosts = BTreeMap::new();
    for line in stdout(&parsed).lines() {
        let doc: Value = serde_json::from_str(line).unwrap();
        let host = doc
            .get("header")
            .map_or(&doc["host"], |h| &h["host"])
            .as_str()
            .map(short);
        hosts.insert(doc["source"]["path"].as_str().unwrap().to_string(), host);
    }
    let o = run(&["analyze", dir, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    // JSON Lines: one document per database.
    let analyses: Vec<Value> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    Some((analyses, hosts))
}

#[test]
fn no_capture_of_another_host_is_used_and_a_capture_of_another_time_is_refused_with_both_windows() {
    let Some((analyses, hosts)) = corpus_run() else {
        return;
    };
    let mut aix = 0;
    for a in &analyses {
        let label = a["database"]["db_name"].to_string();
        let db_host = a["database"]["host"].as_str().map(short);
        let attachments = a["attachments"].as_array().unwrap();
        for x in attachments {
            let path = x["path"].as_str().unwrap();
            let reason = x["reason"].as_str().unwrap();
            assert!(!reason.is_empty(), "{label}: {path} has no reason");
            let their = hosts.get(path).cloned().flatten();
            if x["attached"] == true {
                if let (Some(db), Some(cap)) = (&db_host, &their) {
                    assert!(
                        cap == db || cap == "localhost",
                        "{label} ({db}) uses {path} of host {cap}: {reason}"
                    );
                }
            }
        }
        let platform = a["database"]["platform"].as_str().unwrap_or_default();
        if platform.contains("AIX") {
            aix += 1;
            let used: Vec<&Value> = attachments
                .iter()
                .filter(|x| x["attached"] == true)
                .collect();
            assert!(used.is_empty(), "{label} (AIX) uses {used:?}");
            assert_eq!(
                a["exhibits"]["devices"].as_array().map(Vec::len),
                Some(0),
                "{label} (AIX) shows devices of other hosts"
            );
        }
    }
    eprintln!("{} databases, {aix} on AIX", analyses.len());
    assert!(aix > 0, "the corpus holds AIX reports; none was analysed");

    // A capture whose time window misses every report (2021, no host to
    // match by) is refused everywhere, each time with the two windows.
    let late = "iostat/linux_t2y-iostat-tool_sample_iostat_11.7.3.output";
    let mut seen = 0;
    for a in &analyses {
        for x in a["attachments"].as_array().unwrap() {
            if !x["path"].as_str().unwrap().ends_with(late) {
                continue;
            }
            seen += 1;
            let reason = x["reason"].as_str().unwrap();
            assert_eq!(x["attached"], false, "{reason}");
            if a["database"]["begin_time"].is_null() {
                // A report with no times (a 9i Statspack): nothing to compare.
                assert!(reason.contains("the reports print no times"), "{reason}");
            } else {
                assert!(
                    reason.contains("its window 2021-09-26 03:35:19 to 2021-09-26 03:36:40 does not overlap the report window 20"),
                    "{reason}"
                );
            }
        }
    }
    if hosts.keys().any(|p| p.ends_with(late)) {
        assert_eq!(seen, analyses.len(), "every database decides on {late}");
    }
}
