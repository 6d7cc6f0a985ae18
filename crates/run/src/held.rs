//! A report as a run holds it between parsing and the advisor: the whole
//! parsed report; its thinned form ([`awrflash_facts::thin`]) packed until
//! its database is analysed (the one-pass run); its facts over its reduced
//! or lean form ([`Held::reduce_for`], the survey's second pass); or its
//! head alone (the survey's first pass).
//!
//! A thinned report still holds every foreground event, the Load Profile,
//! the time model and the tablespace rows, tens of KB of small strings and
//! options; packed (MessagePack with field names, deflated) it is a few KB,
//! which is what lets a run over tens of thousands of reports stay flat.
//! Deflate's fastest level: every report but one per database is packed,
//! and the default level took three times as long (0.7-1.7 ms a report,
//! a third of its parse) for packed bytes a fifth smaller, held only until
//! the database is analysed.
//! The header and the source stay unpacked: grouping, ordering and
//! attaching read them.

use std::io::{Read, Write};

use awrflash_facts::{Detached, IntervalFacts};
use awrflash_model::{DbReport, Document, Header, Source};
use awrflash_rules::{MovesPlanner, WindowMoves};
use flate2::Compression;
use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;

use crate::RunError;

/// What [`Held::reduce_for`] holds of `report`: its facts, the report they
/// read from (lean with a planner, else reduced) and its window moves.
pub(crate) fn reduced_parts(
    report: &DbReport,
    planner: Option<&MovesPlanner>,
) -> (Detached, DbReport, Option<WindowMoves>) {
    let facts = IntervalFacts::new(report);
    match planner {
        Some(p) => {
            let (moves, facts) = p.hold(facts);
            (facts, awrflash_facts::lean(report), Some(moves))
        }
        None => (facts.detach(), awrflash_facts::reduced(report), None),
    }
}

/// One report of a database.
#[derive(Debug, Clone)]
pub enum Held {
    /// The report as parsed.
    Full(Box<DbReport>),
    /// The thinned report, packed; `header` and `source` are its own.
    Packed {
        source: Source,
        header: Box<Header>,
        bytes: Box<[u8]>,
    },
    /// The report's facts ([`awrflash_facts::Detached`]) over what the
    /// advisor still reads of an interval it does not plan for in detail:
    /// without `moves`, its reduced form ([`awrflash_facts::reduced`]),
    /// which answers every reader of the facts; with the window's moves
    /// computed from the whole report ([`awrflash_rules::MovesPlanner`]),
    /// its lean form ([`awrflash_facts::lean`]), which answers the readers
    /// over every interval of a window. No document: the events, Load
    /// Profile and time model are in the facts only.
    Reduced {
        facts: Box<Detached>,
        report: Box<DbReport>,
        moves: Option<Box<WindowMoves>>,
    },
    /// Only the report's source and header, read from the head of its
    /// input ([`crate::survey`]): where and when it was taken, for grouping,
    /// ordering and attaching. The report is parsed whole when its database
    /// is analysed.
    Head { source: Source, header: Box<Header> },
}

impl Held {
    /// The thinned form of `report`, packed.
    pub fn pack(report: &DbReport) -> Result<Held, RunError> {
        let thin = awrflash_facts::thin(report);
        let fail = |e: String| RunError::Pack {
            path: report.source.path.clone(),
            reason: e,
        };
        let named = rmp_serde::to_vec_named(&thin).map_err(|e| fail(e.to_string()))?;
        let mut z = DeflateEncoder::new(Vec::with_capacity(named.len() / 4), Compression::fast());
        z.write_all(&named).map_err(|e| fail(e.to_string()))?;
        let bytes = z.finish().map_err(|e| fail(e.to_string()))?;
        Ok(Held::Packed {
            source: thin.source,
            header: Box::new(thin.header),
            bytes: bytes.into_boxed_slice(),
        })
    }

    /// The facts of `report` over its reduced form, or with `planner` its
    /// facts with the window's events, its window moves and its lean form:
    /// a quarter to a half of the reduced form's bytes (the wait
    /// histograms, OS statistics, IOStat rows and most events go), since
    /// the moves are all the window reads of them.
    pub fn reduce_for(report: &DbReport, planner: Option<&MovesPlanner>) -> Held {
        let (facts, report, moves) = reduced_parts(report, planner);
        Held::Reduced {
            facts: Box::new(facts),
            report: Box::new(report),
            moves: moves.map(Box::new),
        }
    }

    pub fn source(&self) -> &Source {
        match self {
            Held::Full(r) | Held::Reduced { report: r, .. } => &r.source,
            Held::Packed { source, .. } | Held::Head { source, .. } => source,
        }
    }

    pub fn header(&self) -> &Header {
        match self {
            Held::Full(r) | Held::Reduced { report: r, .. } => &r.header,
            Held::Packed { header, .. } | Held::Head { header, .. } => header,
        }
    }

    /// The report's source and header only.
    pub fn head(&self) -> Held {
        Held::Head {
            source: self.source().clone(),
            header: Box::new(self.header().clone()),
        }
    }

    /// The whole parsed report; `None` for a packed one.
    pub fn full(&self) -> Option<&DbReport> {
        match self {
            Held::Full(r) => Some(r),
            Held::Packed { .. } | Held::Reduced { .. } | Held::Head { .. } => None,
        }
    }

    pub fn is_full(&self) -> bool {
        matches!(self, Held::Full(_))
    }

    /// The report as a document for the advisor: the full report, or the
    /// thinned one unpacked; a head alone is no document.
    pub fn document(&self) -> Result<Document, RunError> {
        match self {
            Held::Full(r) => Ok(Document::Report(r.clone())),
            Held::Head { source, .. } => Err(RunError::Pack {
                path: source.path.clone(),
                reason: "only its header was read".into(),
            }),
            Held::Reduced { report, .. } => Err(RunError::Pack {
                path: report.source.path.clone(),
                reason: "only its facts were kept".into(),
            }),
            Held::Packed { source, bytes, .. } => {
                let fail = |e: String| RunError::Pack {
                    path: source.path.clone(),
                    reason: e,
                };
                let mut named = Vec::with_capacity(bytes.len() * 6);
                DeflateDecoder::new(bytes.as_ref())
                    .read_to_end(&mut named)
                    .map_err(|e| fail(e.to_string()))?;
                let r: DbReport = rmp_serde::from_slice(&named).map_err(|e| fail(e.to_string()))?;
                Ok(Document::Report(Box::new(r)))
            }
        }
    }

    /// [`Held::document`], giving the report up: a whole one moves out
    /// instead of being copied.
    pub fn into_document(self) -> Result<Document, RunError> {
        match self {
            Held::Full(r) => Ok(Document::Report(r)),
            held => held.document(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::{
        ActivityStat, HistogramBucket, HistogramRow, SharedStr, SourceRef, TimeModelRow, WaitEvent,
        WaitEvents, Warning,
    };

    #[test]
    fn a_packed_report_unpacks_to_its_thinned_form_bit_for_bit() {
        let r = DbReport {
            source: Source {
                path: "a.html".into(),
                ..Default::default()
            },
            activity_stats: vec![
                ActivityStat {
                    name: "redo size".into(),
                    total: Some(0.1 + 0.2),
                    per_second: Some(f64::NAN),
                    src: SourceRef::new("Instance Activity Stats", 9),
                    ..Default::default()
                },
                ActivityStat {
                    name: "user calls".into(),
                    total: Some(1.0),
                    ..Default::default()
                },
            ],
            wait_histogram: vec![HistogramRow {
                event: "log file sync".into(),
                buckets: vec![HistogramBucket {
                    le_ms: f64::MAX,
                    pct: 1e-300,
                }]
                .into(),
                ..Default::default()
            }],
            warnings: vec![
                Warning::changes_meaning("Report Summary", 3, "cut short"),
                Warning::new("SQL", 4, "detail"),
            ],
            ..Default::default()
        };
        let held = Held::pack(&r).unwrap();
        assert!(!held.is_full());
        assert_eq!(held.source().path, "a.html");
        let Document::Report(back) = held.document().unwrap() else {
            panic!("not a report");
        };
        let thin = awrflash_facts::thin(&r);
        // NaN is not equal to itself: compare the bits through Debug.
        assert_eq!(format!("{back:?}"), format!("{thin:?}"));
        assert_eq!(back.activity_stats.len(), 1);
        assert_eq!(back.activity_stats[0].total, Some(0.1 + 0.2));
        assert_eq!(back.warnings.len(), 1);
    }

    #[test]
    fn a_reduced_report_keeps_its_facts_and_gives_no_document() {
        let r = DbReport {
            source: Source {
                path: "r.html".into(),
                ..Default::default()
            },
            header: Header {
                db_name: Some("PROD".into()),
                elapsed_s: Some(3600.0),
                db_time_s: Some(7200.0),
                ..Default::default()
            },
            wait_events: WaitEvents {
                foreground: vec![WaitEvent {
                    name: "db file sequential read".into(),
                    waits: Some(1000.0),
                    time_s: Some(5.0),
                    src: SourceRef::new("Foreground Wait Events", 7),
                    ..Default::default()
                }],
                ..Default::default()
            },
            ..Default::default()
        };
        let held = Held::reduce_for(&r, None);
        assert!(!held.is_full());
        assert_eq!(held.source().path, "r.html");
        assert_eq!(held.header().db_name.as_deref(), Some("PROD"));
        assert!(held.document().is_err());
        let Held::Reduced { facts, report, .. } = held else {
            panic!("not reduced");
        };
        // The event rows went with the reduction; the facts keep them.
        assert!(report.wait_events.foreground.is_empty());
        let f = facts.bind(&report);
        assert_eq!(
            f.event("db file sequential read").map(|e| e.avg_ms),
            Some(5.0)
        );
        assert_eq!(f.db_time(), 7200.0);
    }

    #[test]
    fn rows_of_one_section_share_its_name_after_a_pack_and_unpack() {
        let section = SharedStr::new("Foreground Wait Events");
        let event = |name: &str, line: u32| WaitEvent {
            name: name.into(),
            src: SourceRef::new(&section, line),
            ..Default::default()
        };
        let r = DbReport {
            wait_events: WaitEvents {
                foreground: vec![
                    event("db file sequential read", 10),
                    event("log file sync", 11),
                ],
                ..Default::default()
            },
            time_model: vec![TimeModelRow {
                name: "DB time".into(),
                src: SourceRef::new("Time Model Statistics", 20),
                ..Default::default()
            }],
            ..Default::default()
        };
        assert!(r.wait_events.foreground[0].src.section.shares(&section));
        let Document::Report(back) = Held::pack(&r).unwrap().document().unwrap() else {
            panic!("not a report");
        };
        let [a, b] = &back.wait_events.foreground[..] else {
            panic!("two events expected");
        };
        assert_eq!(a.src, SourceRef::new("Foreground Wait Events", 10));
        assert_eq!(b.src, SourceRef::new("Foreground Wait Events", 11));
        assert!(a.src.section.shares(&b.src.section));
        // Unpacked, not the parser's string; another section, another string.
        assert!(!a.src.section.shares(&section));
        assert_eq!(back.time_model[0].src.section, "Time Model Statistics");
        assert!(!back.time_model[0].src.section.shares(&a.src.section));
    }
}
