//! Streaming table scanner: HTML text in, one [`Table`] at a time out.
//!
//! Oracle's AWR HTML is not well-formed: `<td>`/`<tr>` left open (Exadata
//! and RAC sections of 12.1-19c), one `<table>` more opened than closed
//! (19c `awrgrpt`), uppercase tags and unquoted attributes (reports re-saved
//! by a browser), `&nbsp;`, SQL*Plus text before `<html>`. quick-xml is run
//! with every well-formedness check off and this module repairs structure the
//! way a browser would: a new `<td>` closes the open cell, a new `<tr>` the
//! open row, a heading closes every open table. Only one table is held in
//! memory at a time (plus its parents when tables nest).

use quick_xml::Reader;
use quick_xml::events::{BytesStart, Event};

/// One table cell, text with entities resolved and whitespace collapsed.
#[derive(Debug, Clone, Default)]
pub struct Cell {
    pub text: String,
    /// `<th>` rather than `<td>`.
    pub header: bool,
    pub colspan: u16,
}

#[derive(Debug, Clone, Default)]
pub struct Row {
    /// 1-based line of the `<tr>` (or of the first cell of an implicit row).
    pub line: u32,
    pub cells: Vec<Cell>,
}

/// A table with the section title printed before it.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// The closest text before the table: a `<p />Load Profile<p />` label,
    /// an `<h3>` heading, or bare text (`Host CPU`).
    pub title: String,
    /// The latest `<h2>`/`<h3>`/`<h4>` heading before the table.
    pub heading: String,
    /// The `summary` attribute (11.2+), entities resolved.
    pub summary: String,
    /// Line of the `<table>` tag.
    pub line: u32,
    pub rows: Vec<Row>,
    /// False when the input ended before `</table>`.
    pub complete: bool,
}

/// Something the scanner repaired or could not read.
#[derive(Debug, Clone)]
pub struct ScanNote {
    pub line: u32,
    pub message: String,
}

#[derive(Default)]
struct Open {
    table: Table,
    row: Option<Row>,
    cell: Option<Cell>,
    /// False for tables the caller does not read: structure is tracked,
    /// cell text is not kept.
    collect: bool,
}

impl Open {
    fn close_cell(&mut self) {
        if !self.collect {
            self.cell = None;
            return;
        }
        if let Some(cell) = self.cell.take() {
            let mut cell = cell;
            if !is_collapsed(&cell.text) {
                cell.text = collapse(&cell.text);
            }
            match self.row.as_mut() {
                Some(row) => row.cells.push(cell),
                None => self.table.rows.push(Row {
                    line: self.table.line,
                    cells: vec![cell],
                }),
            }
        }
    }

    fn close_row(&mut self) {
        self.close_cell();
        if let Some(row) = self.row.take()
            && !row.cells.is_empty()
        {
            self.table.rows.push(row);
        }
    }
}

/// Counts lines incrementally: positions only move forward.
struct Lines<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u32,
}

impl Lines<'_> {
    fn at(&mut self, pos: usize) -> u32 {
        let pos = pos.min(self.bytes.len());
        if pos > self.pos {
            let n = self
                .bytes
                .get(self.pos..pos)
                .map_or(0, |s| s.iter().filter(|&&b| b == b'\n').count());
            self.line = self
                .line
                .saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
            self.pos = pos;
        }
        self.line
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tag {
    Table,
    Tr,
    Td,
    Th,
    Heading,
    Li,
    Block,
    Br,
    Skip,
    Title,
    Other,
}

fn tag_of(name: &str) -> Tag {
    let lower = |s: &str| name.eq_ignore_ascii_case(s);
    match name.len() {
        2 => {
            if lower("td") {
                Tag::Td
            } else if lower("th") {
                Tag::Th
            } else if lower("tr") {
                Tag::Tr
            } else if lower("h1") || lower("h2") || lower("h3") || lower("h4") {
                Tag::Heading
            } else if lower("li") {
                Tag::Li
            } else if lower("br") {
                Tag::Br
            } else if lower("ul") || lower("ol") || lower("hr") {
                Tag::Block
            } else {
                Tag::Other
            }
        }
        1 if lower("p") => Tag::Block,
        3 if lower("div") || lower("pre") => Tag::Block,
        5 if lower("table") => Tag::Table,
        5 if lower("title") => Tag::Title,
        5 if lower("style") => Tag::Skip,
        6 if lower("script") => Tag::Skip,
        _ => Tag::Other,
    }
}

/// Scanner state outside the tables.
struct Scanner<'a, F: FnMut(Table), K: Fn(&str) -> bool> {
    lines: Lines<'a>,
    /// Whether the rows of a table with this title are wanted.
    keep: K,
    open: Vec<Open>,
    /// Text of the current block outside tables.
    block: String,
    /// Last non-empty block text or heading outside tables.
    last_text: String,
    heading: String,
    in_heading: bool,
    heading_text: String,
    in_li: bool,
    skip: Option<Tag>,
    in_title: bool,
    /// `<title>` text of the document.
    doc_title: String,
    /// First `<h1>` text.
    h1: String,
    sink: F,
}

impl<F: FnMut(Table), K: Fn(&str) -> bool> Scanner<'_, F, K> {
    fn push_text(&mut self, s: &str) {
        if self.skip.is_some() {
            return;
        }
        if self.in_title {
            self.doc_title.push_str(s);
            return;
        }
        if let Some(open) = self.open.last_mut() {
            if let Some(cell) = open.cell.as_mut().filter(|_| open.collect) {
                cell.text.push_str(s);
            }
            return;
        }
        if self.in_heading {
            self.heading_text.push_str(s);
        } else if !self.in_li {
            self.block.push_str(s);
        }
    }

    fn flush_block(&mut self) {
        if !self.block.is_empty() {
            let t = collapse(&self.block);
            if !t.is_empty() {
                self.last_text = t;
            }
            self.block.clear();
        }
    }

    fn close_all_tables(&mut self) {
        while let Some(mut open) = self.open.pop() {
            open.close_row();
            open.table.complete = true;
            (self.sink)(open.table);
        }
    }

    fn start(&mut self, e: &BytesStart<'_>, pos: usize, empty: bool) {
        let name = e.name();
        let tag = tag_of(name.as_ref());
        if self.skip.is_some() {
            return;
        }
        match tag {
            Tag::Skip => {
                if !empty {
                    self.skip = Some(tag);
                }
            }
            // Only the document's own `<title>`: Exadata sections carry more.
            Tag::Title => self.in_title = !empty && self.doc_title.is_empty(),
            Tag::Table => {
                self.flush_block();
                let in_cell = self.open.last().is_some_and(|o| o.cell.is_some());
                if !in_cell {
                    // A table opened outside any cell of the open one: the
                    // open one was never closed (19c awrgrpt).
                    self.close_all_tables();
                }
                let line = self.lines.at(pos);
                let summary = attr(e, "summary").unwrap_or_default();
                let title = match self.open.last() {
                    Some(parent) => parent.table.title.clone(),
                    None => self.last_text.clone(),
                };
                let table = Table {
                    title,
                    heading: self.heading.clone(),
                    summary: collapse(&summary),
                    line,
                    rows: Vec::new(),
                    complete: false,
                };
                if empty {
                    (self.sink)(table);
                } else {
                    let collect = (self.keep)(&table.title);
                    self.open.push(Open {
                        table,
                        row: None,
                        cell: None,
                        collect,
                    });
                }
            }
            Tag::Tr => {
                if let Some(open) = self.open.last_mut() {
                    open.close_row();
                    if !empty && open.collect {
                        open.row = Some(Row {
                            line: self.lines.at(pos),
                            cells: Vec::new(),
                        });
                    }
                }
            }
            Tag::Td | Tag::Th => {
                if let Some(open) = self.open.last_mut() {
                    open.close_cell();
                    if open.row.is_none() && open.collect {
                        open.row = Some(Row {
                            line: self.lines.at(pos),
                            cells: Vec::new(),
                        });
                    }
                    // Most cells have no colspan: skip the attribute parser
                    // unless the raw tag mentions one (any case: browsers
                    // re-save it as `colSpan`).
                    let raw = e.attributes_raw();
                    let colspan =
                        if raw.contains("span") || raw.contains("SPAN") || raw.contains("Span") {
                            attr(e, "colspan")
                                .and_then(|v| v.trim().parse::<u16>().ok())
                                .unwrap_or(1)
                                .clamp(1, 64)
                        } else {
                            1
                        };
                    let cell = Cell {
                        text: String::new(),
                        header: tag == Tag::Th,
                        colspan,
                    };
                    if empty {
                        open.cell = Some(cell);
                        open.close_cell();
                    } else {
                        open.cell = Some(cell);
                    }
                }
            }
            Tag::Heading => {
                self.flush_block();
                // Headings never sit inside AWR tables: any table still open
                // was left unclosed.
                self.close_all_tables();
                if !empty {
                    self.in_heading = true;
                    self.heading_text.clear();
                }
            }
            Tag::Li => {
                self.flush_block();
                self.in_li = !empty;
            }
            Tag::Br => self.push_text(" "),
            Tag::Block => {
                if self.open.is_empty() {
                    self.flush_block();
                    if self.in_li && !empty {
                        self.in_li = false;
                    }
                } else {
                    self.push_text(" ");
                }
            }
            Tag::Other => {}
        }
    }

    fn end(&mut self, name: &str) {
        let tag = tag_of(name);
        if let Some(skip) = self.skip {
            if skip == tag {
                self.skip = None;
            }
            return;
        }
        match tag {
            Tag::Title => self.in_title = false,
            Tag::Table => {
                if let Some(mut open) = self.open.pop() {
                    open.close_row();
                    open.table.complete = true;
                    (self.sink)(open.table);
                }
            }
            Tag::Tr => {
                if let Some(open) = self.open.last_mut() {
                    open.close_row();
                }
            }
            Tag::Td | Tag::Th => {
                if let Some(open) = self.open.last_mut() {
                    open.close_cell();
                }
            }
            Tag::Heading if self.in_heading => {
                self.in_heading = false;
                let t = collapse(&self.heading_text);
                if self.h1.is_empty() && name.eq_ignore_ascii_case("h1") {
                    self.h1 = t.clone();
                }
                if !t.is_empty() {
                    self.heading = t.clone();
                    self.last_text = t;
                }
            }
            Tag::Li => {
                self.in_li = false;
                self.block.clear();
            }
            Tag::Block => {
                if self.open.is_empty() {
                    self.flush_block();
                } else {
                    self.push_text(" ");
                }
            }
            _ => {}
        }
    }
}

/// What the scan saw besides the tables.
#[derive(Debug, Clone, Default)]
pub struct ScanSummary {
    pub doc_title: String,
    pub h1: String,
    pub notes: Vec<ScanNote>,
    /// Number of lines in the input.
    pub lines: u32,
}

/// Scans `text`, calling `sink` with every table in document order. Tables
/// whose title `keep` refuses are handed over without rows.
pub fn scan(text: &str, keep: impl Fn(&str) -> bool, sink: impl FnMut(Table)) -> ScanSummary {
    let mut reader = Reader::from_str(text);
    {
        let cfg = reader.config_mut();
        cfg.check_end_names = false;
        cfg.allow_unmatched_ends = true;
        cfg.check_comments = false;
        cfg.allow_dangling_amp = true;
        cfg.expand_empty_elements = false;
        cfg.trim_text_start = false;
        cfg.trim_text_end = false;
    }
    let mut s = Scanner {
        lines: Lines {
            bytes: text.as_bytes(),
            pos: 0,
            line: 1,
        },
        keep,
        open: Vec::new(),
        block: String::new(),
        last_text: String::new(),
        heading: String::new(),
        in_heading: false,
        heading_text: String::new(),
        in_li: false,
        skip: None,
        in_title: false,
        doc_title: String::new(),
        h1: String::new(),
        sink,
    };
    let mut notes = Vec::new();
    let mut last_err_pos = u64::MAX;
    loop {
        let before = usize::try_from(reader.buffer_position()).unwrap_or(usize::MAX);
        match reader.read_event() {
            Ok(Event::Start(e)) => s.start(&e, before, false),
            Ok(Event::Empty(e)) => s.start(&e, before, true),
            Ok(Event::End(e)) => s.end(e.name().as_ref()),
            Ok(Event::Text(t)) => {
                let c = t.into_inner();
                s.push_text(&c);
            }
            Ok(Event::CData(t)) => {
                let c = t.into_inner();
                s.push_text(&c);
            }
            Ok(Event::GeneralRef(r)) => {
                let name = r.into_inner();
                let mut buf = [0u8; 4];
                let rep: &str = match resolve_entity(&name) {
                    Some(ch) => ch.encode_utf8(&mut buf),
                    None => "",
                };
                if rep.is_empty() {
                    let raw = format!("&{name};");
                    s.push_text(&raw);
                } else {
                    s.push_text(rep);
                }
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(err) => {
                let pos = reader.buffer_position();
                let line = s.lines.at(usize::try_from(pos).unwrap_or(usize::MAX));
                if notes.len() < 20 {
                    notes.push(ScanNote {
                        line,
                        message: format!("unreadable markup skipped: {err}"),
                    });
                }
                if pos == last_err_pos {
                    // No progress: give up on the rest rather than loop.
                    notes.push(ScanNote {
                        line,
                        message: "markup could not be read past this point".into(),
                    });
                    break;
                }
                last_err_pos = pos;
            }
        }
    }
    // Tables still open at the end: the report was cut short.
    while let Some(mut open) = s.open.pop() {
        open.close_row();
        open.table.complete = false;
        (s.sink)(open.table);
    }
    let total = s.lines.at(text.len());
    ScanSummary {
        doc_title: collapse(&s.doc_title),
        h1: s.h1,
        notes,
        lines: total,
    }
}

fn attr(e: &BytesStart<'_>, key: &str) -> Option<String> {
    let mut attrs = e.html_attributes();
    attrs.with_checks(false);
    for a in attrs.flatten() {
        if a.key.as_ref().eq_ignore_ascii_case(key) {
            let v = a.value.trim().trim_matches('"').trim_matches('\'');
            return Some(unescape(v));
        }
    }
    None
}

/// Resolves the entities AWR reports use (`&#160;`, `&nbsp;`, `&amp;`, ...).
fn resolve_entity(name: &str) -> Option<char> {
    if let Some(num) = name.strip_prefix('#') {
        let code = match num.strip_prefix(['x', 'X']) {
            Some(hex) => u32::from_str_radix(hex, 16).ok(),
            None => num.parse::<u32>().ok(),
        }?;
        return match code {
            160 => Some(' '),
            c => char::from_u32(c),
        };
    }
    Some(match name {
        "nbsp" | "NBSP" => ' ',
        "amp" | "AMP" => '&',
        "lt" | "LT" => '<',
        "gt" | "GT" => '>',
        "quot" | "QUOT" => '"',
        "apos" => '\'',
        _ => return None,
    })
}

fn unescape(s: &str) -> String {
    if !s.contains('&') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find('&') {
        out.push_str(rest.get(..i).unwrap_or(""));
        let after = rest.get(i + 1..).unwrap_or("");
        match after.find(';') {
            Some(j) if j <= 8 => {
                let name = after.get(..j).unwrap_or("");
                match resolve_entity(name) {
                    Some(c) => out.push(c),
                    None => {
                        out.push('&');
                        out.push_str(name);
                        out.push(';');
                    }
                }
                rest = after.get(j + 1..).unwrap_or("");
            }
            _ => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// True when [`collapse`] would return the text unchanged.
fn is_collapsed(s: &str) -> bool {
    let b = s.as_bytes();
    if b.first().is_some_and(u8::is_ascii_whitespace)
        || b.last().is_some_and(u8::is_ascii_whitespace)
    {
        return false;
    }
    let mut prev_space = false;
    for &c in b {
        // Non-ASCII may be a no-break space: take the slow path.
        if c >= 0x80 || (c.is_ascii_whitespace() && (c != b' ' || prev_space)) {
            return false;
        }
        prev_space = c == b' ';
    }
    true
}

/// Trims and collapses runs of whitespace (incl. no-break space) to one space.
pub fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split(|c: char| c.is_whitespace() || c == '\u{a0}') {
        if w.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables(html: &str) -> Vec<Table> {
        let mut out = Vec::new();
        scan(html, |_| true, |t| out.push(t));
        out
    }

    #[test]
    fn unclosed_cells_and_rows_are_closed_like_a_browser_does() {
        let t = tables("<p>Load Profile<p><TABLE><TR><TD>a<TD>b<TR><TD>c</TABLE>");
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].title, "Load Profile");
        let rows: Vec<Vec<&str>> = t[0]
            .rows
            .iter()
            .map(|r| r.cells.iter().map(|c| c.text.as_str()).collect())
            .collect();
        assert_eq!(rows, [vec!["a", "b"], vec!["c"]]);
    }

    #[test]
    fn rows_carry_their_line_and_titles_skip_list_items() {
        let html = "<h3>Top Events</h3>\n<ul><li>note</li></ul>\n<table summary=\"s &amp; t\">\n<tr><th>A</th></tr>\n<tr><td>x&nbsp;&#160; y</td></tr>\n</table>";
        let t = tables(html);
        assert_eq!(t[0].title, "Top Events");
        assert_eq!(t[0].summary, "s & t");
        assert_eq!(t[0].rows[1].line, 5);
        assert_eq!(t[0].rows[1].cells[0].text, "x y");
    }

    #[test]
    fn a_heading_closes_a_table_left_open() {
        let t = tables(
            "<p>One<table><tr><td>1</td></tr><h3>Two</h3><table><tr><td>2</td></tr></table>",
        );
        let titles: Vec<&str> = t.iter().map(|t| t.title.as_str()).collect();
        assert_eq!(titles, ["One", "Two"]);
        assert!(t.iter().all(|t| t.complete));
    }

    #[test]
    fn colspan_is_read_from_unquoted_attributes() {
        let t = tables("<table><tr><TH colSpan=3>P</TH></tr></table>");
        assert_eq!(t[0].rows[0].cells[0].colspan, 3);
    }
}
