//! Which auxiliary input goes with which database, and why.
//!
//! iostat/sar captures, `v$sysstat` spools and `dba_segments` lists carry
//! no DBID. An input is attached to a database only when what it says
//! about itself fits the database's reports:
//!
//! - **Host.** When both the capture and the reports name a host, the short
//!   names (before the first dot, case-insensitive) must be equal;
//!   `localhost` names no machine and counts as no host.
//! - **Time window.** When both print times, the capture's window (first to
//!   last sample) must overlap the window of at least one report; a
//!   capture that misses them is refused with the two windows.
//! - **Neither can be checked** (no host to compare, no timestamps): the
//!   input is attached only when the run has exactly one database, and the
//!   reason says it could not be checked.
//! - A single `v$sysstat` capture holds counters since instance startup,
//!   not the report's interval: it is never used for interval figures. A
//!   begin/end pair of files, or a spool with two captures, gives deltas.

use awrflash_model::{Attachment, Document};

use crate::group::{DbGroup, Grouped};
use crate::held::Held;
use crate::window::Window;

/// What an auxiliary input says about where and when it was taken.
#[derive(Debug, Clone, Default)]
pub(crate) struct AuxFacts {
    /// Short host name, lower case.
    pub host: Option<String>,
    pub window: Option<Window>,
    /// `capture`, `spool`, `list`: for the reasons.
    pub what: &'static str,
    /// A `v$sysstat` spool with counters since startup only (no deltas).
    pub since_startup: bool,
}

/// What a database's reports say about where and when they were taken.
#[derive(Debug, Clone, Default)]
pub(crate) struct DbFacts {
    /// Short host names, lower case, deduplicated.
    pub hosts: Vec<String>,
    /// One window per report that prints its times, in report order.
    pub windows: Vec<Window>,
}

/// Per database (in group order), the decision on every auxiliary input
/// (in `grouped.aux` order).
pub fn attach(grouped: &Grouped) -> Vec<Vec<Attachment>> {
    let aux: Vec<AuxFacts> = grouped.aux.iter().map(aux_facts).collect();
    let n = grouped.groups.len();
    grouped
        .groups
        .iter()
        .map(|g| {
            let db = db_facts(g);
            grouped
                .aux
                .iter()
                .zip(&aux)
                .map(|(doc, facts)| {
                    let (attached, reason) = decide(&db, facts, n);
                    Attachment {
                        path: doc.source().path.clone(),
                        format: doc.source().format,
                        attached,
                        reason,
                    }
                })
                .collect()
        })
        .collect()
}

/// One sentence for the whole run about an input that no database uses
/// (`decisions` as [`attach`] returns them, `i` the input's index).
pub(crate) fn unused_reason(grouped: &Grouped, decisions: &[Vec<Attachment>], i: usize) -> String {
    let reasons: Vec<&str> = decisions
        .iter()
        .filter_map(|d| d.get(i))
        .map(|a| a.reason.as_str())
        .collect();
    if let [first, rest @ ..] = reasons.as_slice()
        && rest.iter().all(|r| r == first)
    {
        return (*first).to_string();
    }
    let Some(facts) = grouped.aux.get(i).map(aux_facts) else {
        return String::new();
    };
    let dbs: Vec<DbFacts> = grouped.groups.iter().map(db_facts).collect();
    if let Some(h) = &facts.host
        && !dbs.iter().any(|d| d.hosts.contains(h))
    {
        return format!("host {h} is the host of no database of the run");
    }
    if let Some(aw) = &facts.window
        && !dbs.iter().flat_map(|d| &d.windows).any(|w| w.overlaps(aw))
    {
        return format!("its window {aw} overlaps no report of the run");
    }
    "no database of the run fits both its host and its time window".into()
}

/// `db01.example.com` -> `db01`; blank and `localhost` name no machine.
pub(crate) fn short_host(h: &str) -> Option<String> {
    let short = h
        .trim()
        .split('.')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    (!short.is_empty() && short != "localhost").then_some(short)
}

fn aux_facts(d: &Document) -> AuxFacts {
    match d {
        Document::Iostat(c) => AuxFacts {
            host: c.host.as_deref().and_then(short_host),
            window: Window::spanning(
                c.samples
                    .iter()
                    .filter_map(|s| s.time.as_deref())
                    .chain(c.cpu.iter().filter_map(|s| s.time.as_deref())),
            ),
            what: "capture",
            since_startup: false,
        },
        Document::Sysstat(s) => AuxFacts {
            host: None,
            window: Window::spanning(s.captures.iter().filter_map(|c| c.time.as_deref())),
            what: "spool",
            since_startup: s.deltas.is_empty(),
        },
        Document::SegmentSizes(_) => AuxFacts {
            what: "list",
            ..AuxFacts::default()
        },
        Document::Report(_) => AuxFacts::default(),
    }
}

fn db_facts(g: &DbGroup) -> DbFacts {
    let mut facts = DbFacts::default();
    for r in &g.reports {
        if let Some(h) = r.header().host.as_deref().and_then(short_host)
            && !facts.hosts.contains(&h)
        {
            facts.hosts.push(h);
        }
        if let Some(w) = report_window(r) {
            facts.windows.push(w);
        }
    }
    facts
}

fn report_window(r: &Held) -> Option<Window> {
    let h = r.header();
    Window::spanning(h.begin_time.iter().chain(&h.end_time).map(String::as_str))
}

/// Attach or not, and the sentence that says why.
pub(crate) fn decide(db: &DbFacts, aux: &AuxFacts, databases: usize) -> (bool, String) {
    if aux.since_startup {
        return (
            false,
            "a single v$sysstat capture holds counters since instance startup, not the report interval: not used (give a begin and an end capture)".into(),
        );
    }
    let hosts = db.hosts.join(", ");
    let host_fits = match (&aux.host, db.hosts.is_empty()) {
        (Some(h), false) if db.hosts.contains(h) => Some(format!("same host {h}")),
        (Some(h), false) => {
            return (
                false,
                format!("host {h} is not this database's host ({hosts})"),
            );
        }
        _ => None,
    };
    let report_span = Window::spanning(
        db.windows
            .iter()
            .flat_map(|w| [w.begin_text.as_str(), w.end_text.as_str()]),
    );
    match (&aux.window, report_span) {
        (Some(aw), Some(rw)) => {
            let overlaps = db.windows.iter().any(|w| w.overlaps(aw));
            let window = if overlaps {
                format!("its window {aw} overlaps the report window {rw}")
            } else {
                format!("its window {aw} does not overlap the report window {rw}")
            };
            let reason = match (host_fits, overlaps) {
                (Some(h), true) => format!("{h}; {window}"),
                (Some(h), false) => format!("{h}, but {window}"),
                (None, _) => window,
            };
            (overlaps, reason)
        }
        (aw, rw) => {
            let missing = match (aw, rw) {
                (None, _) => format!("the {} prints no timestamps", aux.what),
                _ => "the reports print no times".to_string(),
            };
            if let Some(h) = host_fits {
                return (true, format!("{h}; time window not checked ({missing})"));
            }
            let no_host = if aux.host.is_none() {
                format!("the {} names no host", aux.what)
            } else {
                "the reports name no host".to_string()
            };
            if databases == 1 {
                (
                    true,
                    format!(
                        "the only database of the run; host and time window could not be checked: {no_host}, {missing}"
                    ),
                )
            } else {
                (
                    false,
                    format!(
                        "cannot tell which of the {databases} databases of the run it belongs to: {no_host}, {missing}"
                    ),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::group::group;
    use awrflash_model::{
        DbReport, DeviceSample, Header, IostatCapture, SegmentSizes, Source, SysstatCapture,
        SysstatSpool,
    };

    fn report(db: &str, host: &str, begin: &str, end: &str) -> Document {
        Document::Report(Box::new(DbReport {
            source: Source {
                path: format!("{db}.html"),
                ..Default::default()
            },
            header: Header {
                db_name: Some(db.into()),
                dbid: Some(db.len() as u64),
                instance_number: Some(1),
                host: Some(host.into()),
                begin_time: Some(begin.into()),
                end_time: Some(end.into()),
                ..Default::default()
            },
            ..Default::default()
        }))
    }

    fn capture(path: &str, host: Option<&str>, times: &[&str]) -> Document {
        Document::Iostat(Box::new(IostatCapture {
            source: Source {
                path: path.into(),
                ..Default::default()
            },
            host: host.map(str::to_string),
            samples: times
                .iter()
                .map(|t| DeviceSample {
                    time: Some((*t).to_string()),
                    device: "sda".into(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }))
    }

    fn spool(path: &str, times: &[Option<&str>]) -> Document {
        let captures: Vec<SysstatCapture> = times
            .iter()
            .map(|t| SysstatCapture {
                time: t.map(str::to_string),
                ..Default::default()
            })
            .collect();
        let deltas = if captures.len() == 2 {
            vec![awrflash_model::SysstatValue::default()]
        } else {
            Vec::new()
        };
        Document::Sysstat(Box::new(SysstatSpool {
            source: Source {
                path: path.into(),
                ..Default::default()
            },
            captures,
            deltas,
            ..Default::default()
        }))
    }

    /// `(database label, path, attached, reason)` for every decision.
    fn decisions(docs: Vec<Document>) -> Vec<(String, String, bool, String)> {
        let g = group(docs);
        attach(&g)
            .into_iter()
            .zip(&g.groups)
            .flat_map(|(list, grp)| {
                list.into_iter()
                    .map(|a| {
                        (
                            grp.key.db_name.clone().unwrap_or_default(),
                            a.path,
                            a.attached,
                            a.reason,
                        )
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    fn find<'a>(
        d: &'a [(String, String, bool, String)],
        db: &str,
        path: &str,
    ) -> &'a (String, String, bool, String) {
        d.iter()
            .find(|x| x.0 == db && x.1 == path)
            .unwrap_or_else(|| panic!("no decision for {db} / {path}: {d:?}"))
    }

    #[test]
    fn a_capture_attaches_only_to_the_database_on_its_host() {
        let d = decisions(vec![
            report(
                "AIXDB",
                "RMUBBPORA0005",
                "2023-10-02T07:30:20",
                "2023-10-02T08:00:21",
            ),
            report(
                "LNX",
                "db01.example.com",
                "2023-10-02T07:00:00",
                "2023-10-02T09:00:00",
            ),
            capture(
                "aix.txt",
                Some("rmubbpora0005.corp"),
                &["2023-10-02T07:45:00", "2023-10-02T07:50:00"],
            ),
            capture("lnx.txt", Some("DB01"), &["2023-10-02T07:45:00"]),
        ]);
        let aix = find(&d, "AIXDB", "aix.txt");
        assert!(aix.2, "{aix:?}");
        assert!(aix.3.starts_with("same host rmubbpora0005; its window 2023-10-02 07:45:00 to 2023-10-02 07:50:00 overlaps"), "{}", aix.3);
        let other = find(&d, "AIXDB", "lnx.txt");
        assert!(!other.2);
        assert_eq!(
            other.3,
            "host db01 is not this database's host (rmubbpora0005)"
        );
        assert!(find(&d, "LNX", "lnx.txt").2);
        assert!(!find(&d, "LNX", "aix.txt").2);
    }

    #[test]
    fn a_capture_of_the_right_host_but_another_year_is_refused_with_both_windows() {
        let d = decisions(vec![
            report("PROD", "db01", "2023-10-02T07:30:20", "2023-10-02T08:00:21"),
            capture(
                "old.txt",
                Some("db01"),
                &["2018-06-13T14:10:50", "2018-06-13T14:16:07"],
            ),
        ]);
        let (_, _, attached, reason) = find(&d, "PROD", "old.txt");
        assert!(!attached);
        assert_eq!(
            reason,
            "same host db01, but its window 2018-06-13 14:10:50 to 2018-06-13 14:16:07 does not overlap the report window 2023-10-02 07:30:20 to 2023-10-02 08:00:21"
        );
    }

    #[test]
    fn a_capture_with_no_host_attaches_by_its_window() {
        let d = decisions(vec![
            report("A", "h1", "2024-01-01T10:00:00", "2024-01-01T11:00:00"),
            report("B", "h2", "2024-01-02T10:00:00", "2024-01-02T11:00:00"),
            capture(
                "anon.txt",
                None,
                &["2024-01-02T10:30:00", "2024-01-02T12:00:00"],
            ),
            capture(
                "local.txt",
                Some("localhost.localdomain"),
                &["2024-01-01T10:30:00"],
            ),
        ]);
        assert!(!find(&d, "A", "anon.txt").2);
        assert!(find(&d, "B", "anon.txt").2);
        // `localhost` names no machine: judged by its window alone.
        assert!(find(&d, "A", "local.txt").2);
        assert!(!find(&d, "B", "local.txt").2);
    }

    #[test]
    fn with_nothing_to_check_an_input_attaches_only_to_the_one_database_of_a_run() {
        let segs = Document::SegmentSizes(Box::new(SegmentSizes {
            source: Source {
                path: "segs.csv".into(),
                ..Default::default()
            },
            ..Default::default()
        }));
        let one = decisions(vec![
            report("A", "h1", "2024-01-01T10:00:00", "2024-01-01T11:00:00"),
            segs.clone(),
            capture("bare.txt", None, &[]),
        ]);
        let (_, _, attached, reason) = find(&one, "A", "segs.csv");
        assert!(attached);
        assert!(reason.contains("could not be checked"), "{reason}");
        assert!(find(&one, "A", "bare.txt").2);

        let two = decisions(vec![
            report("A", "h1", "2024-01-01T10:00:00", "2024-01-01T11:00:00"),
            report("B", "h2", "2024-01-01T10:00:00", "2024-01-01T11:00:00"),
            segs,
        ]);
        for db in ["A", "B"] {
            let (_, _, attached, reason) = find(&two, db, "segs.csv");
            assert!(!attached);
            assert!(
                reason.starts_with("cannot tell which of the 2 databases"),
                "{reason}"
            );
        }
    }

    #[test]
    fn a_capture_of_the_right_host_without_timestamps_attaches_and_says_the_window_was_not_checked()
    {
        let d = decisions(vec![
            report("A", "h1", "2024-01-01T10:00:00", "2024-01-01T11:00:00"),
            report("B", "h2", "2024-01-01T10:00:00", "2024-01-01T11:00:00"),
            capture("h1.txt", Some("H1"), &[]),
        ]);
        let (_, _, attached, reason) = find(&d, "A", "h1.txt");
        assert!(attached);
        assert_eq!(
            reason,
            "same host h1; time window not checked (the capture prints no timestamps)"
        );
        assert!(!find(&d, "B", "h1.txt").2);
    }

    #[test]
    fn a_single_sysstat_capture_is_never_used_but_two_captures_are() {
        let d = decisions(vec![
            report("A", "h1", "2024-01-01T10:00:00", "2024-01-01T11:00:00"),
            spool("once.lst", &[Some("2024-01-01T10:30:00")]),
            spool(
                "twice.lst",
                &[Some("2024-01-01T09:59:00"), Some("2024-01-01T11:01:00")],
            ),
            spool(
                "other_day.lst",
                &[Some("2024-01-03T10:00:00"), Some("2024-01-03T11:00:00")],
            ),
        ]);
        let (_, _, attached, reason) = find(&d, "A", "once.lst");
        assert!(!attached);
        assert!(
            reason.contains("counters since instance startup"),
            "{reason}"
        );
        assert!(find(&d, "A", "twice.lst").2);
        let (_, _, attached, reason) = find(&d, "A", "other_day.lst");
        assert!(!attached);
        assert!(reason.contains("does not overlap"), "{reason}");
    }
}
