//! `v$sysstat` counters outside AWR: a SQL*Plus spool or a `name,value` CSV.
//!
//! Stage: parse. Input: the text of one spool or CSV. Output: a
//! [`SysstatSpool`] with one capture per snapshot of the counters found in
//! the file and, where there are two (or more), the deltas last - first.
//!
//! The spool is read by its column underline (`----- -----`), so any column
//! width, extra columns (`STATISTIC#`, `CLASS`), `colsep` characters and
//! repeated page headers work; without an underline the last number on a
//! line is the value. A statistic name met again, an `N rows selected.`
//! line or a timestamp line starts a new capture. Statistic names are kept
//! exactly as printed (`flash cache insert skip: DBWR overloaded`,
//! `physical read flash cache hits`). A value printed as `#####` is empty,
//! with a warning, never a zero. A spool whose value column is named
//! `DELTA` already holds deltas.

use std::collections::HashMap;

use awrflash_model::{
    Format, SharedStr, Source, SourceRef, SysstatCapture, SysstatSpool, SysstatValue, Warning,
};

use crate::ParseError;
use crate::iostat::Warnings;
use crate::num::{Num, Suffix, parse_num};
use crate::segsizes::split_csv;
use crate::stamp::{self, Clock, SlashOrder, Stamp};

const SECTION: &str = "v$sysstat";

/// Column names that hold the statistic's name, and its value.
const NAME_COLS: &[&str] = &["name", "stat_name", "statistic", "statistic_name"];
const VALUE_COLS: &[&str] = &["value", "delta", "value_delta", "diff", "total"];
const TIME_COLS: &[&str] = &[
    "time",
    "sample_time",
    "snap_time",
    "capture",
    "snap_id",
    "sysdate",
    "timestamp",
];

/// Parses a spool or CSV of `v$sysstat` counters.
pub fn parse(path: &str, text: &str) -> Result<SysstatSpool, ParseError> {
    let first = crate::fields::lines(text)
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let delim = [',', ';', '\t', '|']
        .into_iter()
        .max_by_key(|d| first.matches(*d).count())
        .filter(|d| first.contains(*d));
    let header: Vec<String> = match delim {
        Some(d) => split_csv(first, d)
            .into_iter()
            .map(|c| c.to_ascii_lowercase())
            .collect(),
        None => Vec::new(),
    };
    let csv_header = header.iter().any(|h| NAME_COLS.contains(&h.as_str()))
        && header.iter().any(|h| VALUE_COLS.contains(&h.as_str()))
        && !crate::fields::lines(text).take(50).any(is_underline);
    let mut b = Builder::new(path);
    if let (true, Some(d)) = (csv_header, delim) {
        read_csv(text, d, &header, &mut b);
    } else {
        read_spool(text, &mut b);
    }
    b.finish()
}

/// Builds captures row by row.
struct Builder {
    spool: SysstatSpool,
    warn: Warnings,
    current: SysstatCapture,
    names: HashMap<String, usize>,
    pending_time: Option<String>,
    delta_values: bool,
    path: String,
    /// Built once: every row's `src` shares it.
    section: SharedStr,
}

impl Builder {
    fn new(path: &str) -> Self {
        Self {
            spool: SysstatSpool {
                source: Source {
                    path: path.to_string(),
                    format: Format::Sysstat,
                    kind: None,
                },
                ..SysstatSpool::default()
            },
            warn: Warnings::default(),
            current: SysstatCapture::default(),
            names: HashMap::new(),
            pending_time: None,
            delta_values: false,
            path: path.to_string(),
            section: SharedStr::new(SECTION),
        }
    }

    fn close(&mut self) {
        if !self.current.values.is_empty() {
            self.spool.captures.push(std::mem::take(&mut self.current));
        }
        self.names.clear();
    }

    fn time(&mut self, iso: String) {
        self.close();
        self.pending_time = Some(iso);
    }

    fn push(&mut self, name: &str, cell: &str, line: u32) {
        let name = name.trim();
        if name.is_empty() || !name.chars().any(char::is_alphabetic) {
            return;
        }
        if self.names.contains_key(name) {
            self.close();
        }
        if self.current.values.is_empty() {
            self.current.time = self.pending_time.take();
        }
        let value = match parse_num(cell, Suffix::Decimal) {
            Num::Value(v) => {
                if cell.contains(['E', 'e']) {
                    self.warn.push(
                        "exponent",
                        SECTION,
                        line,
                        format!("{name}: \"{}\" is rounded by the E notation", cell.trim()),
                    );
                }
                Some(v)
            }
            Num::Overflow => {
                self.warn.push(
                    "overflow",
                    SECTION,
                    line,
                    format!(
                        "{name}: value printed as \"{}\" (column too narrow); left empty",
                        cell.trim()
                    ),
                );
                None
            }
            Num::Empty => None,
            Num::Invalid => {
                self.warn.push(
                    "not a number",
                    SECTION,
                    line,
                    format!("{name}: \"{}\" is not a number; row ignored", cell.trim()),
                );
                return;
            }
        };
        self.names
            .insert(name.to_string(), self.current.values.len());
        self.current.values.push(SysstatValue {
            name: name.to_string(),
            value,
            src: SourceRef::new(&self.section, line),
        });
    }

    fn finish(mut self) -> Result<SysstatSpool, ParseError> {
        self.close();
        if self.spool.captures.is_empty() {
            return Err(ParseError::Malformed {
                path: self.path,
                line: 1,
                section: SECTION.into(),
                message: "no statistic name/value rows".into(),
            });
        }
        let mut warnings = self.warn.finish(SECTION);
        let caps = &self.spool.captures;
        self.spool.deltas = match (caps.first(), caps.last()) {
            (Some(a), Some(b)) if caps.len() >= 2 => deltas(a, b, &mut warnings),
            (Some(a), _) if self.delta_values => a.values.clone(),
            _ => Vec::new(),
        };
        self.spool.warnings = warnings;
        Ok(self.spool)
    }
}

/// `end - begin` per statistic in `end`. A counter that went backwards
/// (instance restart between the captures) has no delta.
fn deltas(
    begin: &SysstatCapture,
    end: &SysstatCapture,
    warn: &mut Vec<Warning>,
) -> Vec<SysstatValue> {
    let before: HashMap<&str, Option<f64>> = begin
        .values
        .iter()
        .map(|v| (v.name.as_str(), v.value))
        .collect();
    let mut out = Vec::new();
    let mut missing = 0usize;
    for v in &end.values {
        let Some(b) = before.get(v.name.as_str()) else {
            missing += 1;
            continue;
        };
        let value = match (b, v.value) {
            (Some(b), Some(e)) if e >= *b => Some(e - b),
            (Some(b), Some(e)) => {
                warn.push(Warning::new(
                    SECTION,
                    v.src.line,
                    format!(
                        "{}: the counter went backwards ({b} -> {e}): instance restarted between the captures?; no delta",
                        v.name
                    ),
                ));
                None
            }
            _ => None,
        };
        out.push(SysstatValue {
            name: v.name.clone(),
            value,
            src: v.src.clone(),
        });
    }
    if missing > 0 {
        warn.push(Warning::new(
            SECTION,
            0,
            format!(
                "{missing} statistics of the last capture are not in the first; no delta for them"
            ),
        ));
    }
    out
}

/// Pairs a begin file and an end file: the first capture of `begin` and
/// the last of `end`, each marked with its file, and their deltas.
pub fn pair(begin: &SysstatSpool, end: &SysstatSpool) -> SysstatSpool {
    let mut warnings: Vec<Warning> = Vec::new();
    for (s, w) in [(begin, &begin.warnings), (end, &end.warnings)] {
        warnings.extend(w.iter().map(|w| Warning {
            message: format!("{}: {}", s.source.path, w.message),
            ..w.clone()
        }));
    }
    let mut captures = Vec::new();
    if let Some(c) = begin.captures.first() {
        captures.push(SysstatCapture {
            file: Some(begin.source.path.clone()),
            ..c.clone()
        });
    }
    if let Some(c) = end.captures.last() {
        captures.push(SysstatCapture {
            file: Some(end.source.path.clone()),
            ..c.clone()
        });
    }
    let deltas = match captures.as_slice() {
        [a, b] => deltas(a, b, &mut warnings),
        _ => Vec::new(),
    };
    SysstatSpool {
        source: Source {
            path: format!("{} + {}", begin.source.path, end.source.path),
            format: Format::Sysstat,
            kind: None,
        },
        captures,
        deltas,
        warnings,
    }
}

fn read_csv(text: &str, delim: char, header: &[String], b: &mut Builder) {
    let find = |names: &[&str]| header.iter().position(|h| names.contains(&h.as_str()));
    let (Some(ni), Some(vi)) = (find(NAME_COLS), find(VALUE_COLS)) else {
        return;
    };
    b.delta_values = header.get(vi).is_some_and(|h| h != "value" && h != "total");
    let ti = find(TIME_COLS);
    let mut last_key: Option<String> = None;
    let mut header_seen = false;
    for (idx, line) in crate::fields::lines(text).enumerate() {
        let line_no = idx as u32 + 1;
        if line.trim().is_empty() {
            continue;
        }
        if !header_seen {
            header_seen = true;
            continue;
        }
        let cells = split_csv(line, delim);
        if let Some(key) = ti.and_then(|i| cells.get(i))
            && last_key.as_deref() != Some(key.as_str())
        {
            if last_key.is_some() {
                b.close();
            }
            b.pending_time = Some(oracle_time(key).unwrap_or_else(|| key.clone()));
            last_key = Some(key.clone());
        }
        match (cells.get(ni), cells.get(vi)) {
            (Some(n), Some(v)) => b.push(n, v, line_no),
            _ => b.warn.push(
                "field count",
                SECTION,
                line_no,
                format!("expected {} fields: \"{line}\"", header.len()),
            ),
        }
    }
}

/// A line of dashes (and column separators) under a SQL*Plus header.
fn is_underline(line: &str) -> bool {
    let t = line.trim();
    t.len() >= 2
        && t.contains("--")
        && t.chars()
            .all(|c| matches!(c, '-' | ' ' | '|' | ',' | ';' | '\t'))
}

/// Character spans of the dash runs of an underline (SQL*Plus column
/// widths), shared by the `v$sysstat` and `dba_segments` spool readers.
pub(crate) fn spans(line: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line.chars().enumerate() {
        match (c == '-', start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, line.chars().count()));
    }
    out
}

/// The text of a line between two character positions.
fn slice(line: &str, (a, b): (usize, usize)) -> String {
    line.chars().skip(a).take(b.saturating_sub(a)).collect()
}

/// Where the name and value sit in a spooled table.
struct Layout {
    name: (usize, usize),
    value: (usize, usize),
}

fn layout(header: &str, under: &str) -> Option<(Layout, bool)> {
    let sp = spans(under);
    let names: Vec<String> = sp
        .iter()
        .map(|s| slice(header, *s).trim().to_ascii_lowercase())
        .collect();
    let ni = names
        .iter()
        .position(|n| NAME_COLS.contains(&n.as_str()))
        .or_else(|| (sp.len() == 2).then_some(0))?;
    let vi = names
        .iter()
        .position(|n| VALUE_COLS.contains(&n.as_str()))
        .or_else(|| (sp.len() == 2).then_some(1))?;
    let delta = names
        .get(vi)
        .is_some_and(|n| n != "value" && n != "total" && !n.is_empty());
    // A right-aligned value may start left of its dashes when the column
    // is wider than the header: take the whole gap after the name column.
    let name = *sp.get(ni)?;
    let value = *sp.get(vi)?;
    let value = if vi == ni + 1 {
        (name.1, value.1)
    } else {
        value
    };
    Some((Layout { name, value }, delta))
}

/// Oracle or ISO date/time text, as ISO.
fn oracle_time(text: &str) -> Option<String> {
    let t = text.trim();
    if let Some(s) = stamp::parse_stamp_line(t, SlashOrder::MonthFirst) {
        return match s {
            Stamp::DateTime(..) => Some(Clock::default().place(s).0),
            Stamp::Time(_) => None,
        };
    }
    let d = stamp::parse_date(t, SlashOrder::MonthFirst)?;
    Some(format!("{:04}-{:02}-{:02}", d.y, d.m, d.d))
}

fn read_spool(text: &str, b: &mut Builder) {
    let lines: Vec<&str> = crate::fields::lines(text)
        .map(|l| l.trim_end_matches('\r'))
        .collect();
    let mut table: Option<Layout> = None;
    let mut prev_nonempty: Option<&str> = None;
    let mut last_row_line: Option<usize> = None;
    for (idx, raw) in lines.iter().enumerate() {
        let line_no = idx as u32 + 1;
        let line = raw.trim_start_matches('\u{c}');
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if is_underline(line) {
            if let Some(h) = prev_nonempty {
                match layout(h, line) {
                    Some((l, delta)) => {
                        table = Some(l);
                        b.delta_values |= delta;
                    }
                    None => table = None,
                }
            }
            prev_nonempty = Some(line);
            continue;
        }
        // The header above an underline: look one line ahead.
        if lines
            .get(idx + 1)
            .is_some_and(|n| is_underline(n.trim_start_matches('\u{c}')))
        {
            prev_nonempty = Some(line);
            continue;
        }
        prev_nonempty = Some(line);
        let lower = t.to_ascii_lowercase();
        if lower.ends_with("rows selected.")
            || lower.ends_with("row selected.")
            || lower.starts_with("no rows selected")
        {
            b.close();
            continue;
        }
        if lower.starts_with("sql>") || lower.starts_with("prompt ") || lower.starts_with("rem ") {
            continue;
        }
        if let Some(iso) = oracle_time(t) {
            b.time(iso);
            continue;
        }
        match &table {
            Some(l) => {
                let name = slice(line, l.name);
                let value = slice(line, l.value);
                if value.trim().is_empty() && !name.trim().is_empty() {
                    // A name wrapped onto a second line (`column name format a30`).
                    if last_row_line == Some(idx.saturating_sub(1))
                        && let Some(v) = b.current.values.last_mut()
                    {
                        v.name = format!("{} {}", v.name, name.trim());
                        b.names.insert(v.name.clone(), b.current.values.len() - 1);
                    }
                    continue;
                }
                b.push(&name, &value, line_no);
                last_row_line = Some(idx);
            }
            None => {
                // `set heading off`: the value is the last token.
                if let Some((name, value)) = t.rsplit_once(char::is_whitespace)
                    && matches!(
                        parse_num(value, Suffix::Decimal),
                        Num::Value(_) | Num::Overflow
                    )
                {
                    b.push(name, value, line_no);
                    last_row_line = Some(idx);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_follow_the_dash_runs() {
        assert_eq!(spans("---- --"), vec![(0, 4), (5, 7)]);
        assert!(is_underline("------ ----------"));
        assert!(!is_underline("flash cache inserts 12"));
    }

    #[test]
    fn two_captures_in_one_spool_give_deltas() {
        let head =
            "NAME                            VALUE\n------------------------------- ----------\n";
        let text = format!(
            "{head}flash cache inserts                     10\nphysical read flash cache hits           5\n\n{head}flash cache inserts                     25\nphysical read flash cache hits          45\n"
        );
        let s = parse("x", &text).unwrap();
        assert_eq!(s.captures.len(), 2);
        assert_eq!(s.delta("flash cache inserts"), Some(15.0));
        assert_eq!(s.delta("physical read flash cache hits"), Some(40.0));
    }
}
