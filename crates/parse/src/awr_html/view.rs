//! Column lookup by header name and cell readers that record warnings.

use awrflash_model::{SharedStr, SourceRef, Warning};

use super::scan::{Cell, Row, Table};
use crate::num::{Num, Suffix, parse_num};

/// A table split into header names and data rows.
pub struct View<'a> {
    pub table: &'a Table<'a>,
    /// Leaf column names as printed, one per column (colspans expanded),
    /// borrowed from the header cells: a table's columns cost one
    /// allocation, not one each. Compare them with [`View::col`] and
    /// [`same_name`], which ignore ASCII case.
    pub cols: Vec<&'a str>,
    /// Parent header (row above the leaf row) as printed, per column.
    pub parents: Vec<&'a str>,
    pub data: Vec<Row<'a>>,
    /// Section name used in `src` and warnings, built once per table and
    /// shared by its rows.
    pub section: SharedStr,
}

fn is_header_row(row: &Row) -> bool {
    // `all` first: a data row fails it at its first cell.
    row.cells.iter().all(|c| c.header || c.text.is_empty()) && row.cells.iter().any(|c| c.header)
}

fn expand<'a>(row: Row<'a>) -> Vec<&'a str> {
    let mut out = Vec::with_capacity(row.cells.len());
    for c in row.cells {
        let name: &'a str = c.text.as_ref();
        for _ in 0..c.colspan.max(1) {
            out.push(name);
        }
    }
    out
}

/// Whether a printed column name is `name`, a lowercase name (AWR prints
/// `Event`, `Total Wait Time (s)`; the mappers ask for `event`).
pub fn same_name(printed: &str, name: &str) -> bool {
    printed.eq_ignore_ascii_case(name)
}

/// Whether a printed column name starts with `part`, a lowercase text.
fn starts_with_name(printed: &str, part: &str) -> bool {
    printed
        .as_bytes()
        .get(..part.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(part.as_bytes()))
}

/// Whether a printed column name contains `part`, a lowercase text.
pub fn contains_name(printed: &str, part: &str) -> bool {
    let part = part.as_bytes();
    part.is_empty()
        || printed
            .as_bytes()
            .windows(part.len())
            .any(|w| w.eq_ignore_ascii_case(part))
}

impl<'a> View<'a> {
    pub fn new(table: &'a Table<'a>, section: &str) -> Self {
        // The last two header rows: leaf names and their parents.
        let (mut leaf, mut parent): (Option<Row>, Option<Row>) = (None, None);
        let rows = table.rows();
        let mut data = Vec::with_capacity(rows.len());
        for r in rows {
            if is_header_row(&r) {
                parent = leaf.replace(r);
            } else {
                data.push(r);
            }
        }
        let cols = leaf.map(expand).unwrap_or_default();
        let parents = parent.map(expand).unwrap_or_default();
        View {
            table,
            cols,
            parents,
            data,
            section: SharedStr::shared(section),
        }
    }

    /// First column whose name equals one of `names` (lowercase; ASCII case
    /// ignored), else the first whose name starts with one of them.
    pub fn col(&self, names: &[&str]) -> Option<usize> {
        for n in names {
            if let Some(i) = self.cols.iter().position(|c| same_name(c, n)) {
                return Some(i);
            }
        }
        for n in names {
            if let Some(i) = self.cols.iter().position(|c| starts_with_name(c, n)) {
                return Some(i);
            }
        }
        None
    }

    /// First column whose name contains `part` (lowercase; case ignored).
    pub fn col_containing(&self, part: &str) -> Option<usize> {
        self.cols.iter().position(|c| contains_name(c, part))
    }

    /// The column names, lowercased, joined for a warning.
    pub fn col_list(&self) -> String {
        self.cols.join(" | ").to_ascii_lowercase()
    }

    pub fn has_col(&self, name: &str) -> bool {
        self.col(&[name]).is_some()
    }

    pub fn src(&self, row: &Row) -> SourceRef {
        SourceRef {
            section: self.section.clone(),
            line: row.line,
        }
    }
}

/// Cell text of column `i` in `row` (data rows have no colspans in AWR).
pub fn text<'r>(row: &'r Row<'_>, i: Option<usize>) -> Option<&'r str> {
    let c: &Cell = row.cells.get(i?)?;
    Some(c.text.as_ref())
}

/// Non-empty cell text, trimmed.
pub fn trimmed<'r>(row: &'r Row<'_>, i: Option<usize>) -> Option<&'r str> {
    text(row, i).map(str::trim).filter(|s| !s.is_empty())
}

/// Non-empty cell text as an owned string.
pub fn string(row: &Row, i: Option<usize>) -> Option<String> {
    trimmed(row, i).map(str::to_string)
}

/// Non-empty cell text as a name many rows share ([`SharedStr::shared`]):
/// an event or statistic name that the report's other tables, or the
/// database's other reports, print again costs no allocation.
pub fn shared(row: &Row, i: Option<usize>) -> Option<SharedStr> {
    trimmed(row, i).map(SharedStr::shared)
}

/// Collects warnings while cells are read.
#[derive(Default)]
pub struct Ctx {
    pub warnings: Vec<Warning>,
}

impl Ctx {
    pub fn warn(&mut self, section: &str, line: u32, message: impl Into<String>) {
        self.warnings.push(Warning::new(section, line, message));
    }

    /// A number with K/M/G as powers of 1000 (counts, per-second rates).
    #[inline]
    pub fn num(&mut self, v: &View<'_>, row: &Row, i: Option<usize>) -> Option<f64> {
        self.num_with(v, row, i, Suffix::Decimal)
    }

    #[inline]
    pub fn num_with(
        &mut self,
        v: &View<'_>,
        row: &Row,
        i: Option<usize>,
        suffix: Suffix,
    ) -> Option<f64> {
        let cell = text(row, i)?;
        // The common cases without a call: plain digits, an empty cell.
        if let Some(x) = crate::num::plain(cell) {
            return Some(x);
        }
        if cell.is_empty() {
            return None;
        }
        self.cell_num(&v.section, row.line, cell, suffix)
    }

    pub fn cell_num(
        &mut self,
        section: &str,
        line: u32,
        cell: &str,
        suffix: Suffix,
    ) -> Option<f64> {
        // Most cells are plain digits: read them before looking for brackets.
        if let Some(x) = crate::num::plain(cell) {
            return Some(x);
        }
        if cell.is_empty() {
            return None;
        }
        // RAC global histograms print tiny shares as `0.0(6)` (the count of
        // waits in brackets): the percentage is the part before the bracket.
        let cell = match cell.find('(') {
            Some(p) if cell.ends_with(')') => cell.get(..p).unwrap_or(cell),
            _ => cell,
        };
        match parse_num(cell, suffix) {
            Num::Value(x) => Some(x),
            Num::Empty => None,
            Num::Overflow => {
                self.warn(
                    section,
                    line,
                    format!(
                        "value \"{}\" overflowed its column; read as null",
                        cell.trim()
                    ),
                );
                None
            }
            Num::Invalid => {
                self.warn(
                    section,
                    line,
                    format!("expected a number, got \"{}\"", cell.trim()),
                );
                None
            }
        }
    }

    /// A duration in milliseconds: `1.13ms`, `487.39us`, `2.1s`, `850ns`, or
    /// a bare number taken in `bare_unit_ms` milliseconds (1.0 for `(ms)`
    /// columns, 1000.0 for seconds).
    pub fn ms(
        &mut self,
        v: &View<'_>,
        row: &Row,
        i: Option<usize>,
        bare_unit_ms: f64,
    ) -> Option<f64> {
        let cell = text(row, i)?.trim();
        let (body, scale) = if let Some(b) = cell.strip_suffix("ms") {
            (b, 1.0)
        } else if let Some(b) = cell.strip_suffix("us") {
            (b, 0.001)
        } else if let Some(b) = cell.strip_suffix("ns") {
            (b, 0.000_001)
        } else if let Some(b) = cell.strip_suffix('s') {
            (b, 1000.0)
        } else {
            (cell, bare_unit_ms)
        };
        self.cell_num(&v.section, row.line, body, Suffix::Decimal)
            .map(|x| x * scale)
    }

    /// A byte size such as `51,200M` or `16K` (powers of 1024); a bare
    /// number is taken in `bare_unit` bytes.
    pub fn bytes(&mut self, section: &str, line: u32, cell: &str, bare_unit: f64) -> Option<u64> {
        let t = cell.trim();
        let has_suffix = t
            .chars()
            .last()
            .is_some_and(|c| matches!(c, 'K' | 'k' | 'M' | 'G' | 'T' | 'P'));
        let x = self.cell_num(section, line, t, Suffix::Binary)?;
        let x = if has_suffix { x } else { x * bare_unit };
        if x.is_finite() && x >= 0.0 {
            // Sizes are far below 2^53: the conversion is exact.
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Some(x.round() as u64)
        } else {
            None
        }
    }
}

/// Lowercased title with a trailing colon and doubled spaces removed.
pub fn key(s: &str) -> String {
    s.trim().trim_end_matches(':').trim().to_ascii_lowercase()
}

/// A count (CPUs, cores) read as a number, when it fits.
pub fn count(x: Option<f64>) -> Option<u32> {
    let x = x?;
    if (0.0..4.0e9).contains(&x) {
        // Checked range: the rounded value fits in u32.
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        Some(x.round() as u32)
    } else {
        None
    }
}
