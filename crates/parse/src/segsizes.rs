//! Segment sizes: a CSV exported from `dba_segments`.
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

use awrflash_model::{Format, SegmentSize, SegmentSizes, Source, SourceRef};

use crate::ParseError;
use crate::iostat::Warnings;
use crate::num::{Num, Suffix, parse_num};

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

/// Parses a `dba_segments` CSV.
pub fn parse(path: &str, text: &str) -> Result<SegmentSizes, ParseError> {
    let malformed = |line: u32, message: String| ParseError::Malformed {
        path: path.to_string(),
        line,
        section: SECTION.into(),
        message,
    };
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((hidx, first)) = lines.next() else {
        return Err(malformed(1, "empty file".into()));
    };
    let first = first.trim_start_matches('\u{feff}');
    let delim = [',', ';', '\t', '|']
        .into_iter()
        .max_by_key(|d| first.matches(*d).count())
        .unwrap_or(',');
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
            src: SourceRef::new(SECTION, line_no),
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
