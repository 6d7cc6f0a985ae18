//! What became of each input of a run, held in a few growing buffers.
//!
//! The second pass of a two-pass run ([`crate::survey`]) records an outcome
//! per report while that database's documents are live. Held as a string and
//! a vector of warnings per report, those small allocations stayed behind
//! in every database's freed memory and kept the allocator from reusing it
//! whole: a 10,000-report fleet peaked at 210 MB with them and at 71-85 MB
//! with the outcomes kept here. Every pass that reads inputs (`load_grouped`,
//! the survey, `load_each`) records them here.
//! Here a failure's reason, a warned document's path and its warnings'
//! sections and messages are appended to one `text` buffer, and the rest are
//! fixed-size rows; [`Outcomes::summary`] builds the [`LoadSummary`] once, at
//! the end, in input order.

use std::ops::Range;
use std::time::Duration;

use awrflash_model::{Document, Warning, WarningKind};

use crate::inputs::Unit;
use crate::load::LoadSummary;

/// The outcomes of a run's inputs so far, by input index.
#[derive(Debug, Default)]
pub(crate) struct Outcomes {
    /// Inputs parsed into a document.
    ok: usize,
    /// Reasons, paths, section names and messages, end to end.
    text: String,
    /// `(input index, reason in text)`.
    failed: Vec<(usize, Range<usize>)>,
    /// Per document with warnings: its input index, its path in `text` and
    /// its warnings in `rows`.
    warned: Vec<(usize, Range<usize>, Range<usize>)>,
    rows: Vec<Row>,
}

/// One warning, its strings in [`Outcomes::text`].
#[derive(Debug)]
struct Row {
    section: Range<usize>,
    message: Range<usize>,
    line: u32,
    kind: WarningKind,
}

impl Outcomes {
    /// Input `i` was parsed into `doc`.
    pub(crate) fn parsed(&mut self, i: usize, doc: &Document) {
        self.ok += 1;
        let warnings = doc.warnings();
        if warnings.is_empty() {
            return;
        }
        let path = self.put(&doc.source().path);
        let start = self.rows.len();
        for w in warnings {
            let row = Row {
                section: self.put(&w.section),
                message: self.put(&w.message),
                line: w.line,
                kind: w.kind,
            };
            self.rows.push(row);
        }
        self.warned.push((i, path, start..self.rows.len()));
    }

    /// Input `i` could not be read or parsed, for `reason`.
    pub(crate) fn failed(&mut self, i: usize, reason: &str) {
        let reason = self.put(reason);
        self.failed.push((i, reason));
    }

    fn put(&mut self, s: &str) -> Range<usize> {
        let start = self.text.len();
        self.text.push_str(s);
        start..self.text.len()
    }

    fn get(&self, r: &Range<usize>) -> String {
        self.text.get(r.clone()).unwrap_or_default().to_string()
    }

    /// What the user reads about the inputs, in input order (a failure is
    /// named by its input).
    pub(crate) fn summary(mut self, units: &[Unit], bytes: u64, elapsed: Duration) -> LoadSummary {
        self.failed.sort_by_key(|(i, _)| *i);
        self.warned.sort_by_key(|(i, _, _)| *i);
        let failed = self
            .failed
            .iter()
            .map(|(i, reason)| {
                let name = units.get(*i).map(|u| u.name().to_string());
                (name.unwrap_or_default(), self.get(reason))
            })
            .collect();
        let warnings = self
            .warned
            .iter()
            .map(|(_, path, rows)| {
                let ws = self.rows.get(rows.clone()).unwrap_or_default();
                let ws = ws.iter().map(|r| Warning {
                    section: self.get(&r.section),
                    line: r.line,
                    message: self.get(&r.message),
                    kind: r.kind,
                });
                (self.get(path), ws.collect())
            })
            .collect();
        LoadSummary {
            ok: self.ok,
            failed,
            warnings,
            bytes,
            elapsed,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::{DbReport, Format, Source};

    fn report(path: &str, warnings: Vec<Warning>) -> Document {
        Document::Report(Box::new(DbReport {
            source: Source {
                path: path.into(),
                format: Format::AwrHtml,
                kind: None,
            },
            warnings,
            ..DbReport::default()
        }))
    }

    #[test]
    fn the_summary_gives_back_every_warning_and_failure_in_input_order() {
        let w = |section: &str, line, message: &str, kind| Warning {
            section: section.into(),
            line,
            message: message.into(),
            kind,
        };
        let first = vec![
            w(
                "Cache Sizes",
                172,
                "expected a number, got \"K\"",
                WarningKind::Detail,
            ),
            w(
                "",
                0,
                "the report is cut short",
                WarningKind::ChangesMeaning,
            ),
        ];
        let third = vec![w("Load Profile", 9, "é ünïcode", WarningKind::Detail)];
        let units: Vec<Unit> = ["a", "b", "c", "d", "e"]
            .iter()
            .map(|n| Unit::Failed {
                name: format!("{n}.html"),
                reason: String::new(),
            })
            .collect();
        let mut o = Outcomes::default();
        // Recorded out of input order, as parallel parsing does.
        o.parsed(2, &report("c.html", third.clone()));
        o.failed(4, "e.html: not a report");
        o.parsed(1, &report("b.html", Vec::new()));
        o.failed(3, "d.html: unreadable");
        o.parsed(0, &report("a.html", first.clone()));
        let s = o.summary(&units, 7, Duration::from_secs(1));
        assert_eq!((s.ok, s.bytes), (3, 7));
        assert_eq!(
            s.failed,
            vec![
                ("d.html".to_string(), "d.html: unreadable".to_string()),
                ("e.html".to_string(), "e.html: not a report".to_string()),
            ]
        );
        assert_eq!(
            s.warnings,
            vec![("a.html".to_string(), first), ("c.html".to_string(), third)]
        );
    }
}
