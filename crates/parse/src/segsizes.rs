//! Segment sizes: a CSV exported from `dba_segments`, or a SQL*Plus column
//! spool of it.
//!
//! Stage: parse. Input: the text of one CSV. Output: [`SegmentSizes`], one
//! row per segment, for joining to AWR segment rows with
//! [`SegmentSizes::bytes_of`].
//!
//! Header names are matched case-insensitively (`OWNER`, `SEGMENT_NAME`,
//! `PARTITION_NAME`, `SEGMENT_TYPE`, `TABLESPACE_NAME`, `BYTES`); other
//! columns are ignored. The delimiter is whichever of `,` `;` tab `|` splits
//! the header most (SQL Developer, Excel in a German locale, `set colsep`).
//! Sizes in `MB`/`GB` columns are accepted when there is no `BYTES` column.
//!
//! A SQL*Plus spool (`select owner, segment_name, segment_type, bytes from
//! dba_segments`) is read by the dash underline under its column headings,
//! so any column width and `linesize` works; `SQL>` prompts, the statement's
//! numbered continuation lines, repeated page headings and the `N rows
//! selected.` trailer are skipped. Rows wrapped by a too small `linesize`
//! are not rejoined.

use awrflash_model::{Format, SectionName, SegmentSize, SegmentSizes, Source, SourceRef};

use crate::ParseError;
use crate::iostat::Warnings;
use crate::num::{Num, Suffix, parse_num};
use crate::sysstat::spans;

const SECTION: &str = "dba_segments";

/// Splits one CSV line, honouring double quotes (`"a,b"`, `""` inside).
pub(crate) fn split_csv(line: &str, delim: char) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut chars = line.trim_end_matches(['\r', '\n']).chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                cur.push('"');
                chars.next();
            }
            '"' => quoted = !quoted,
            c if c == delim && !quoted => out.push(std::mem::take(&mut cur).trim().to_string()),
            c => cur.push(c),
        }
    }
    out.push(cur.trim().to_string());
    out
}

/// A line of dashes under SQL*Plus column headings.
fn is_underline(line: &str) -> bool {
    let t = line.trim();
    t.starts_with("--") && t.bytes().all(|b| b == b'-' || b == b' ' || b == b'|')
}

/// The heading line and its underline of a SQL*Plus spool of
/// `dba_segments`, if the text is one.
fn spool_header(text: &str) -> Option<usize> {
    let lines: Vec<&str> = text.lines().take(400).collect();
    lines.windows(2).position(|w| {
        let (Some(h), Some(u)) = (w.first(), w.get(1)) else {
            return false;
        };
        let words: Vec<String> = h.split_whitespace().map(str::to_ascii_lowercase).collect();
        let has = |n: &str| words.iter().any(|w| w == n);
        is_underline(u)
            && has("owner")
            && has("segment_name")
            && (has("bytes") || has("mb") || has("gb"))
    })
}

/// Whether the text is a SQL*Plus spool of `dba_segments`.
pub fn looks_like_spool(text: &str) -> bool {
    spool_header(text).is_some()
}

/// Cells of a spooled line: from each column's start to the next one's.
fn spool_cells(line: &str, spans: &[(usize, usize)]) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    spans
        .iter()
        .enumerate()
        .map(|(k, &(a, _))| {
            let b = spans.get(k + 1).map_or(chars.len(), |n| n.0);
            chars
                .get(a.min(chars.len())..b.min(chars.len()))
                .map(|c| c.iter().collect::<String>().trim().to_string())
                .unwrap_or_default()
        })
        .collect()
}

/// Rewrites a spool as tab-separated lines (heading first), with the line
/// number of each row, so the CSV reader does the rest.
fn spool_rows(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut cols: Option<Vec<(usize, usize)>> = None;
    let mut in_rows = false;
    for (i, line) in lines.iter().enumerate() {
        let next_is_underline = lines.get(i + 1).is_some_and(|n| is_underline(n));
        if next_is_underline && line.to_ascii_lowercase().contains("segment_name") {
            let s = lines.get(i + 1).map(|u| spans(u)).unwrap_or_default();
            if out.is_empty() {
                out.push((i, spool_cells(line, &s).join("\t")));
            }
            cols = Some(s);
            in_rows = false;
            continue;
        }
        if is_underline(line) {
            in_rows = cols.is_some();
            continue;
        }
        let t = line.trim();
        if t.is_empty() || t.starts_with("SQL>") || t.ends_with("rows selected.") {
            in_rows = false;
            continue;
        }
        if let (true, Some(s)) = (in_rows, cols.as_ref()) {
            out.push((i, spool_cells(line, s).join("\t")));
        }
    }
    out
}

/// Parses a `dba_segments` CSV or SQL*Plus spool.
pub fn parse(path: &str, text: &str) -> Result<SegmentSizes, ParseError> {
    if looks_like_spool(text) {
        let rows = spool_rows(text);
        return parse_rows(path, rows.iter().map(|(i, l)| (*i, l.as_str())), Some('\t'));
    }
    let rows = text.lines().enumerate();
    parse_rows(path, rows, None)
}

fn parse_rows<'a>(
    path: &str,
    rows: impl Iterator<Item = (usize, &'a str)>,
    delim: Option<char>,
) -> Result<SegmentSizes, ParseError> {
    // Built once: every row's `src` shares it.
    let src_name = SectionName::new(SECTION);
    let malformed = |line: u32, message: String| ParseError::Malformed {
        path: path.to_string(),
        line,
        section: SECTION.into(),
        message,
    };
    let mut lines = rows.filter(|(_, l)| !l.trim().is_empty());
    let Some((hidx, first)) = lines.next() else {
        return Err(malformed(1, "empty file".into()));
    };
    let first = first.trim_start_matches('\u{feff}');
    let delim = delim.unwrap_or_else(|| {
        [',', ';', '\t', '|']
            .into_iter()
            .max_by_key(|d| first.matches(*d).count())
            .unwrap_or(',')
    });
    let header: Vec<String> = split_csv(first, delim)
        .into_iter()
        .map(|h| h.to_ascii_lowercase())
        .collect();
    let col = |names: &[&str]| header.iter().position(|h| names.contains(&h.as_str()));
    let owner = col(&["owner", "segment_owner"]);
    let name = col(&["segment_name", "object_name"]);
    let part = col(&["partition_name", "subobject_name"]);
    let stype = col(&["segment_type", "object_type"]);
    let ts = col(&["tablespace_name", "tablespace"]);
    let size = col(&["bytes", "size_bytes"])
        .map(|i| (i, 1.0))
        .or_else(|| col(&["mb", "size_mb", "megabytes"]).map(|i| (i, 1024.0 * 1024.0)))
        .or_else(|| col(&["gb", "size_gb", "gigabytes"]).map(|i| (i, 1024.0 * 1024.0 * 1024.0)));
    let (Some(owner), Some(name), Some((size, scale))) = (owner, name, size) else {
        return Err(malformed(
            hidx as u32 + 1,
            format!(
                "the header needs OWNER, SEGMENT_NAME and BYTES (or MB/GB) columns, got \"{first}\""
            ),
        ));
    };
    let mut out = SegmentSizes {
        source: Source {
            path: path.to_string(),
            format: Format::SegmentSizes,
            kind: None,
        },
        ..SegmentSizes::default()
    };
    let mut warn = Warnings::default();
    let opt = |cells: &[String], i: Option<usize>| {
        i.and_then(|i| cells.get(i))
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
    };
    for (idx, line) in lines {
        let line_no = idx as u32 + 1;
        let cells = split_csv(line, delim);
        let (Some(o), Some(n), Some(b)) = (cells.get(owner), cells.get(name), cells.get(size))
        else {
            warn.push(
                "field count",
                SECTION,
                line_no,
                format!(
                    "row has {} fields, the header has {}; row ignored",
                    cells.len(),
                    header.len()
                ),
            );
            continue;
        };
        // SQL*Plus `rows selected` trailers and repeated headers.
        if o.eq_ignore_ascii_case("owner") || n.is_empty() {
            continue;
        }
        let bytes = match parse_num(b, Suffix::Binary) {
            Num::Value(v) if v >= 0.0 => (v * scale).round() as u64,
            Num::Overflow => {
                warn.push(
                    "overflow",
                    SECTION,
                    line_no,
                    format!("{o}.{n}: size printed as \"{b}\"; row ignored"),
                );
                continue;
            }
            _ => {
                warn.push(
                    "not a number",
                    SECTION,
                    line_no,
                    format!("{o}.{n}: size \"{b}\" is not a number; row ignored"),
                );
                continue;
            }
        };
        out.segments.push(SegmentSize {
            owner: o.clone(),
            segment_name: n.clone(),
            partition_name: opt(&cells, part),
            segment_type: opt(&cells, stype),
            tablespace_name: opt(&cells, ts),
            bytes,
            src: SourceRef::new(&src_name, line_no),
        });
    }
    if out.segments.is_empty() {
        return Err(malformed(
            hidx as u32 + 1,
            "no segment rows under the header".into(),
        ));
    }
    out.warnings = warn.finish(SECTION);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_quotes_and_delimiters_split_as_written() {
        assert_eq!(split_csv("a,\"b,c\",d", ','), ["a", "b,c", "d"]);
        assert_eq!(split_csv("\"x\"\"y\";2", ';'), ["x\"y", "2"]);
    }
}
