//! Streaming table scanner: HTML text in, one [`Table`] at a time out.
//!
//! Oracle's AWR HTML is not well-formed: `<td>`/`<tr>` left open (Exadata
//! and RAC sections of 12.1-19c), one `<table>` more opened than closed
//! (19c `awrgrpt`), uppercase tags and unquoted attributes (reports re-saved
//! by a browser), `&nbsp;`, SQL*Plus text before `<html>`. The markup is read
//! by a lenient byte-level tokenizer ([`tokens`], the rules of quick-xml with
//! every well-formedness check off) and this module repairs structure the way
//! a browser would: a new `<td>` closes the open cell, a new `<tr>` the open
//! row, a heading closes every open table. Only one table is held in memory
//! at a time (plus its parents when tables nest). Text is only looked at
//! where it is kept (cells of wanted tables, headings, the labels before
//! tables): elsewhere the tokenizer jumps from tag to tag.

use std::borrow::Cow;
use std::rc::Rc;

use crate::fields::is_white;
use crate::words::{HI, LO, single_spaces};
use tokens::{Token, Tokenizer};

/// One table cell, text with entities resolved and whitespace collapsed.
#[derive(Debug, Clone, Default)]
pub struct Cell<'a> {
    /// Borrowed from the input unless entities or whitespace had to be
    /// rewritten.
    pub text: Cow<'a, str>,
    /// `<th>` rather than `<td>`.
    pub header: bool,
    pub colspan: u16,
}

/// One row of a [`Table`], whose cells the table holds.
#[derive(Debug, Clone, Copy, Default)]
pub struct Row<'t> {
    /// 1-based line of the `<tr>` (or of the first cell of an implicit row).
    pub line: u32,
    pub cells: &'t [Cell<'t>],
}

/// Where a row's cells are in its table's [`Table::cells`], and its line.
#[derive(Debug, Clone, Copy, Default)]
struct RowSpan {
    line: u32,
    start: usize,
    end: usize,
}

/// A table with the section title printed before it.
#[derive(Debug, Clone, Default)]
pub struct Table<'a> {
    /// The closest text before the table: a `<p />Load Profile<p />` label,
    /// an `<h3>` heading, or bare text (`Host CPU`).
    pub title: Rc<str>,
    /// The latest `<h2>`/`<h3>`/`<h4>` heading before the table, one
    /// string for every table under it.
    pub heading: Rc<str>,
    /// The attributes of the `<table>` tag, as written; [`Table::summary`]
    /// reads them (no mapper does).
    attrs: &'a str,
    /// Line of the `<table>` tag.
    pub line: u32,
    /// The cells of every row, one row after another: one buffer a table
    /// (reused from table to table), read in order when the table is
    /// mapped, rather than one buffer a row.
    cells: Vec<Cell<'a>>,
    /// The rows, each a run of `cells`.
    spans: Vec<RowSpan>,
    /// False when the input ended before `</table>`.
    pub complete: bool,
    /// The caller's `keep` said yes to its title: its cells' text was
    /// read (a table not kept has no rows).
    pub kept: bool,
}

impl Table<'_> {
    /// The `summary` attribute (11.2+), entities resolved, whitespace
    /// collapsed.
    pub fn summary(&self) -> String {
        let summary = attr(self.attrs, b"summary")
            .map(unescape)
            .unwrap_or_default();
        if is_collapsed(&summary) {
            summary.into_owned()
        } else {
            collapse(&summary)
        }
    }

    /// The rows in document order.
    pub fn rows(&self) -> impl DoubleEndedIterator<Item = Row<'_>> + ExactSizeIterator {
        self.spans.iter().map(|s| self.row_of(*s))
    }

    /// Row `i` (0-based), if the table has as many.
    pub fn row(&self, i: usize) -> Option<Row<'_>> {
        self.spans.get(i).map(|s| self.row_of(*s))
    }

    fn row_of(&self, s: RowSpan) -> Row<'_> {
        Row {
            line: s.line,
            cells: self.cells.get(s.start..s.end).unwrap_or_default(),
        }
    }
}

/// Something the scanner repaired or could not read.
#[derive(Debug, Clone)]
pub struct ScanNote {
    pub line: u32,
    pub message: String,
}

/// Text of the open cell: borrowed from the input while it comes in one
/// piece (most cells), copied once it needs joining.
#[derive(Default)]
struct CellText<'a> {
    first: &'a str,
    joined: Option<String>,
    /// A space (a `&nbsp;`) after `first`, not joined yet: dropped if
    /// nothing follows, since the text is collapsed in the end.
    space: bool,
}

impl<'a> CellText<'a> {
    #[inline(always)]
    fn push(&mut self, s: &'a str) {
        match self.joined.as_mut() {
            Some(j) => j.push_str(s),
            None if self.first.is_empty() => self.first = s,
            None => {
                let mut j = String::with_capacity(self.first.len() + s.len() + 8);
                j.push_str(self.first);
                if std::mem::take(&mut self.space) {
                    j.push(' ');
                }
                j.push_str(s);
                self.joined = Some(j);
            }
        }
    }

    fn push_char(&mut self, c: char) {
        if c == ' ' && self.joined.is_none() {
            // Before any text a space is dropped by the collapsing, and
            // after the first piece it is only joined if more text follows
            // (`<td>&nbsp;</td>`, `12&#160;`): no copy for either.
            self.space = !self.first.is_empty();
            return;
        }
        let mut j = self.joined.take().unwrap_or_else(|| {
            let mut j = String::from(self.first);
            if std::mem::take(&mut self.space) {
                j.push(' ');
            }
            j
        });
        j.push(c);
        self.joined = Some(j);
    }

    /// The cell's text, entities resolved, whitespace collapsed: still
    /// borrowed when it came in one piece with nothing to rewrite but
    /// spaces around it.
    fn finish(self) -> Cow<'a, str> {
        match self.joined {
            Some(j) if is_collapsed(&j) => Cow::Owned(j),
            Some(j) => Cow::Owned(collapse(&j)),
            None if is_collapsed(self.first) => Cow::Borrowed(self.first),
            None => {
                // Spaces around the text only: a shorter slice is the same
                // as the collapsed copy.
                let trimmed = self.first.trim_ascii();
                if is_collapsed(trimmed) {
                    Cow::Borrowed(trimmed)
                } else {
                    Cow::Owned(collapse(self.first))
                }
            }
        }
    }
}

struct OpenCell<'a> {
    text: CellText<'a>,
    header: bool,
    colspan: u16,
}

impl OpenCell<'_> {
    /// A cell of a table whose text is not kept: only its being open counts.
    fn unkept() -> Self {
        OpenCell {
            text: CellText::default(),
            header: false,
            colspan: 1,
        }
    }
}

struct Open<'a> {
    table: Table<'a>,
    /// The open row: its line and where its cells start in the table's.
    row: Option<RowStart>,
    cell: Option<OpenCell<'a>>,
    /// False for tables the caller does not read: structure is tracked,
    /// cell text is not kept.
    collect: bool,
}

#[derive(Clone, Copy)]
struct RowStart {
    line: u32,
    start: usize,
}

impl<'a> Open<'a> {
    /// Closes the open cell, if any, into the open row. Most cells come in
    /// one piece with nothing to rewrite (numbers, names), borrowed as they
    /// are; the rest go through [`CellText::finish`].
    #[inline(always)]
    fn close_cell(&mut self) {
        if let (true, Some(open), true) = (self.collect, self.cell.as_ref(), self.row.is_some())
            && open.text.joined.is_none()
            && is_collapsed(open.text.first)
        {
            self.table.cells.push(Cell {
                text: Cow::Borrowed(open.text.first),
                header: open.header,
                colspan: open.colspan,
            });
            self.cell = None;
            return;
        }
        self.close_any_cell();
    }

    #[inline(never)]
    fn close_any_cell(&mut self) {
        if !self.collect {
            self.cell = None;
            return;
        }
        if let Some(open) = self.cell.take() {
            let cell = Cell {
                text: open.text.finish(),
                header: open.header,
                colspan: open.colspan,
            };
            let start = self.table.cells.len();
            self.table.cells.push(cell);
            // A cell outside any row is a row of its own.
            if self.row.is_none() {
                self.table.spans.push(RowSpan {
                    line: self.table.line,
                    start,
                    end: start + 1,
                });
            }
        }
    }

    fn close_row(&mut self) {
        self.close_cell();
        if let Some(row) = self.row.take() {
            let end = self.table.cells.len();
            if end > row.start {
                self.table.spans.push(RowSpan {
                    line: row.line,
                    start: row.start,
                    end,
                });
            }
        }
    }

    /// A new row on `line`: its cells go after those of the rows before.
    fn new_row(&self, line: u32) -> RowStart {
        RowStart {
            line,
            start: self.table.cells.len(),
        }
    }

    /// Cells in the open row, if one is open.
    fn row_len(&self) -> Option<usize> {
        self.row.map(|r| self.table.cells.len() - r.start)
    }
}

/// The innermost open table when it keeps its cells' text, with what
/// [`Tokenizer::read_cells`] needs to build its rows.
struct Kept<'s, 'a> {
    open: &'s mut Open<'a>,
    lines: &'s mut Lines<'a>,
}

/// The 1-based line of byte offsets of a text, counted from the last
/// offset asked for: offsets only move forward (a scan's rows, a report's
/// first votes), so the text is counted once.
pub(crate) struct Lines<'a> {
    bytes: &'a [u8],
    pos: usize,
    line: u32,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Lines {
            bytes,
            pos: 0,
            line: 1,
        }
    }

    /// The line of offset `pos`; an offset before the last one asked for
    /// gets that one's line.
    pub(crate) fn at(&mut self, pos: usize) -> u32 {
        let pos = pos.min(self.bytes.len());
        if pos > self.pos {
            let n = self
                .bytes
                .get(self.pos..pos)
                .map_or(0, |s| bytecount::count(s, b'\n'));
            self.line = self
                .line
                .saturating_add(u32::try_from(n).unwrap_or(u32::MAX));
            self.pos = pos;
        }
        self.line
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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

fn tag_of(name: &[u8]) -> Tag {
    let is = |s: &[u8]| name.eq_ignore_ascii_case(s);
    match name {
        [a, b] => match (a.to_ascii_lowercase(), b.to_ascii_lowercase()) {
            (b't', b'd') => Tag::Td,
            (b't', b'h') => Tag::Th,
            (b't', b'r') => Tag::Tr,
            (b'h', b'1'..=b'4') => Tag::Heading,
            (b'l', b'i') => Tag::Li,
            (b'b', b'r') => Tag::Br,
            (b'u' | b'o', b'l') | (b'h', b'r') => Tag::Block,
            _ => Tag::Other,
        },
        [p] if p.eq_ignore_ascii_case(&b'p') => Tag::Block,
        _ => match name.len() {
            3 if is(b"div") || is(b"pre") => Tag::Block,
            5 if is(b"table") => Tag::Table,
            5 if is(b"title") => Tag::Title,
            5 if is(b"style") => Tag::Skip,
            6 if is(b"script") => Tag::Skip,
            _ => Tag::Other,
        },
    }
}

/// Which text [`Tokenizer::next`] hands out.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Keep {
    /// None: text and entity references are jumped over.
    None,
    /// Text but runs of ASCII whitespace alone between markup.
    NotBlank,
    All,
}

/// Scanner state outside the tables.
struct Scanner<'a, F: FnMut(&Table<'a>), K: Fn(&str) -> bool> {
    lines: Lines<'a>,
    /// Whether the rows of a table with this title are wanted.
    keep: K,
    open: Vec<Open<'a>>,
    /// Text of the current block outside tables.
    block: String,
    /// Last non-empty block text or heading outside tables, collapsed
    /// unless `last_pending`: the title of the tables after it, one string
    /// for all of them.
    last_text: Rc<str>,
    /// Buffer of the text being collapsed (titles, headings).
    collapsing: String,
    /// Last non-empty block text, not collapsed yet.
    last_block: String,
    /// `last_block` is newer than `last_text`.
    last_pending: bool,
    heading: Rc<str>,
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
    /// Buffers of the rows and cells of tables already handed over,
    /// emptied, for the next tables: a report's thousands of rows reuse
    /// the buffers of the few tables open at once.
    spare_rows: Vec<Vec<RowSpan>>,
    spare_cells: Vec<Vec<Cell<'a>>>,
}

impl<'a, F: FnMut(&Table<'a>), K: Fn(&str) -> bool> Scanner<'a, F, K> {
    /// Whether text at this point of the document is kept anywhere: the
    /// tokenizer skips it (entities and all) when not. Blank text that
    /// would start a block is not kept either: a block is trimmed when it
    /// becomes a title, and dropped when blank ([`Scanner::flush_block`]).
    fn wants_text(&self) -> Keep {
        if self.skip.is_some() {
            return Keep::None;
        }
        if self.in_title {
            return Keep::All;
        }
        match self.open.last() {
            Some(open) if open.collect && open.cell.is_some() => Keep::All,
            Some(_) => Keep::None,
            None if self.in_heading => Keep::All,
            None if self.in_li => Keep::None,
            None if self.block.is_empty() => Keep::NotBlank,
            None => Keep::All,
        }
    }

    /// The innermost open table when it keeps no text and nothing else
    /// reads text here: the tokenizer may jump to the next tag that matters
    /// ([`Tokenizer::skip_unkept`]).
    fn unkept_table(&mut self) -> Option<&mut Open<'a>> {
        if self.skip.is_some() || self.in_title || self.in_heading {
            return None;
        }
        self.open.last_mut().filter(|o| !o.collect)
    }

    /// The innermost open table when it keeps its cells' text and nothing
    /// else reads text here: the tokenizer may build its cells and rows
    /// itself ([`Tokenizer::read_cells`]) and the lines they start on.
    fn kept_table(&mut self) -> Option<Kept<'_, 'a>> {
        if self.skip.is_some() || self.in_title || self.in_heading {
            return None;
        }
        let open = self.open.last_mut().filter(|o| o.collect)?;
        Some(Kept {
            open,
            lines: &mut self.lines,
        })
    }

    /// Hands `table` to the sink, then keeps its buffers for the next ones.
    fn emit(&mut self, table: Table<'a>) {
        (self.sink)(&table);
        let Table {
            mut cells,
            mut spans,
            ..
        } = table;
        cells.clear();
        spans.clear();
        self.spare_cells.push(cells);
        self.spare_rows.push(spans);
    }

    fn push_text(&mut self, s: &'a str) {
        if self.skip.is_some() {
            return;
        }
        if self.in_title {
            self.doc_title.push_str(s);
            return;
        }
        if let Some(open) = self.open.last_mut() {
            if let Some(cell) = open.cell.as_mut().filter(|_| open.collect) {
                cell.text.push(s);
            }
            return;
        }
        if self.in_heading {
            self.heading_text.push_str(s);
        } else if !self.in_li {
            self.block.push_str(s);
        }
    }

    /// A character from an entity reference.
    fn push_char(&mut self, c: char) {
        let plain = self.skip.is_none() && !self.in_title;
        if let Some(cell) = self
            .open
            .last_mut()
            .filter(|o| plain && o.collect)
            .and_then(|o| o.cell.as_mut())
        {
            cell.text.push_char(c);
            return;
        }
        let mut buf = [0u8; 4];
        let s: &str = c.encode_utf8(&mut buf);
        self.push_owned(s);
    }

    /// Text that is not a slice of the input (an unknown entity kept as
    /// written); rare, so it goes through a copy.
    fn push_owned(&mut self, s: &str) {
        if self.skip.is_some() {
            return;
        }
        if self.in_title {
            self.doc_title.push_str(s);
            return;
        }
        if let Some(open) = self.open.last_mut() {
            if let Some(cell) = open.cell.as_mut().filter(|_| open.collect) {
                for c in s.chars() {
                    cell.text.push_char(c);
                }
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
            // Collapsed only if a table takes it as its title: most blocks
            // (list notes, links, SQL text) are followed by another.
            if !is_blank(&self.block) {
                std::mem::swap(&mut self.block, &mut self.last_block);
                self.last_pending = true;
            }
            self.block.clear();
        }
    }

    /// The last non-empty block text or heading outside tables, collapsed.
    fn last_text(&mut self) -> Rc<str> {
        if self.last_pending {
            collapse_into(&mut self.collapsing, &self.last_block);
            self.last_text = Rc::from(self.collapsing.as_str());
            self.last_pending = false;
        }
        Rc::clone(&self.last_text)
    }

    fn close_all_tables(&mut self) {
        while let Some(mut open) = self.open.pop() {
            open.close_row();
            open.table.complete = true;
            self.emit(open.table);
        }
    }

    fn start(&mut self, tag: Tag, attrs: &'a str, colspan: u16, pos: usize, empty: bool) {
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
                let title = match self.open.last() {
                    Some(parent) => Rc::clone(&parent.table.title),
                    None => self.last_text(),
                };
                let collect = (self.keep)(&title);
                let table = Table {
                    title,
                    heading: Rc::clone(&self.heading),
                    attrs,
                    line,
                    // Buffers go back to the spares when a table is emitted:
                    // sized once for a large kept table (the segment and
                    // wait tables run to a few thousand cells), they are not
                    // grown again table after table.
                    cells: self
                        .spare_cells
                        .pop()
                        .unwrap_or_else(|| Vec::with_capacity(2048)),
                    spans: self
                        .spare_rows
                        .pop()
                        .unwrap_or_else(|| Vec::with_capacity(512)),
                    complete: false,
                    kept: collect,
                };
                if empty {
                    self.emit(table);
                } else {
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
                        open.row = Some(open.new_row(self.lines.at(pos)));
                    }
                }
            }
            Tag::Td | Tag::Th => {
                if let Some(open) = self.open.last_mut() {
                    open.close_cell();
                    if open.row.is_none() && open.collect {
                        open.row = Some(open.new_row(self.lines.at(pos)));
                    }
                    let colspan = if open.collect { colspan } else { 1 };
                    open.cell = Some(OpenCell {
                        text: CellText::default(),
                        header: tag == Tag::Th,
                        colspan,
                    });
                    if empty {
                        open.close_cell();
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

    fn end(&mut self, name: &[u8], tag: Tag) {
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
                    self.emit(open.table);
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
                collapse_into(&mut self.collapsing, &self.heading_text);
                let t = self.collapsing.as_str();
                if self.h1.is_empty() && name.eq_ignore_ascii_case(b"h1") {
                    self.h1 = t.to_string();
                }
                if !t.is_empty() {
                    let t: Rc<str> = Rc::from(t);
                    self.heading = Rc::clone(&t);
                    self.last_text = t;
                    self.last_pending = false;
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
pub fn scan<'a>(
    text: &'a str,
    keep: impl Fn(&str) -> bool,
    sink: impl FnMut(&Table<'a>),
) -> ScanSummary {
    // Text is UTF-8 throughout: the scan never stops at a check.
    scan_with(text.as_bytes(), Tokenizer::new(text), keep, sink).unwrap_or_default()
}

/// [`scan`] of the raw bytes of an input, checked as UTF-8 only where the
/// scan keeps text (cells of kept tables, titles, headings, attributes of
/// the tags it reads). `None` when some of that is not UTF-8: the caller
/// then decodes the input ([`crate::decode`]) and scans the text; what
/// was handed to `sink` before is to be dropped.
pub fn scan_bytes<'a>(
    bytes: &'a [u8],
    keep: impl Fn(&str) -> bool,
    sink: impl FnMut(&Table<'a>),
) -> Option<ScanSummary> {
    scan_with(bytes, Tokenizer::from_bytes(bytes), keep, sink)
}

/// [`scan`] with the tokenizer given (tests compare its fast paths with
/// the plain reading); `None` when the tokens ended at bytes that are not
/// UTF-8.
fn scan_with<'a>(
    bytes: &'a [u8],
    mut tokens: Tokenizer<'a>,
    keep: impl Fn(&str) -> bool,
    sink: impl FnMut(&Table<'a>),
) -> Option<ScanSummary> {
    let mut s = Scanner {
        lines: Lines::new(bytes),
        keep,
        open: Vec::new(),
        block: String::new(),
        last_text: Rc::default(),
        collapsing: String::new(),
        last_block: String::new(),
        last_pending: false,
        heading: Rc::default(),
        in_heading: false,
        heading_text: String::new(),
        in_li: false,
        skip: None,
        in_title: false,
        doc_title: String::new(),
        h1: String::new(),
        sink,
        spare_rows: Vec::new(),
        spare_cells: Vec::new(),
    };
    let mut notes = Vec::new();
    loop {
        if let Some(open) = s.unkept_table() {
            let mut cell_open = open.cell.is_some();
            tokens.skip_unkept(&mut cell_open);
            open.cell = cell_open.then(OpenCell::unkept);
        } else if let Some(kept) = s.kept_table() {
            tokens.read_cells(kept);
        }
        match tokens.next(s.wants_text()) {
            Token::Start {
                at,
                tag,
                attrs,
                colspan,
                empty,
            } => s.start(tag, attrs, colspan, at, empty),
            Token::End(name, tag) => s.end(name, tag),
            Token::Text(t) => s.push_text(t),
            Token::Ref(name) => match resolve_entity(name) {
                Some(c) => s.push_char(c),
                None => s.push_owned(&format!("&{name};")),
            },
            Token::Other => {}
            Token::Eof => break,
            Token::Error { message, fatal } => {
                let line = s.lines.at(tokens.position());
                if notes.len() < 20 {
                    notes.push(ScanNote {
                        line,
                        message: format!("unreadable markup skipped: {message}"),
                    });
                }
                if fatal {
                    break;
                }
            }
        }
    }
    if tokens.not_utf8() {
        return None;
    }
    // Tables still open at the end: the report was cut short.
    while let Some(mut open) = s.open.pop() {
        open.close_row();
        open.table.complete = false;
        s.emit(open.table);
    }
    let total = s.lines.at(bytes.len());
    Some(ScanSummary {
        doc_title: collapse(&s.doc_title),
        h1: s.h1,
        notes,
        lines: total,
    })
}

/// The `colspan` of a cell tag with these attributes, 1 to 64. The bytes
/// are not checked as UTF-8 before: invalid sequences read as U+FFFD, as
/// in a decoded input.
fn colspan_of(attrs: &[u8]) -> u16 {
    // Most cells have no colspan: skip the attribute parser unless the raw
    // tag mentions one (any case: browsers re-save it as `colSpan`).
    if mentions_span(attrs) {
        attr(&String::from_utf8_lossy(attrs), b"colspan")
            .and_then(|v| unescape(v).trim().parse::<u16>().ok())
            .unwrap_or(1)
            .clamp(1, 64)
    } else {
        1
    }
}

/// Whether `span`, `SPAN` or `Span` occurs in the attribute text of a tag.
fn mentions_span(attrs: &[u8]) -> bool {
    // By its `p`: rarer than `s` in AWR's attributes (`class`, `headers`).
    memchr::memchr2_iter(b'p', b'P', attrs).any(|i| {
        i.checked_sub(1)
            .and_then(|s| attrs.get(s..s + 4))
            .is_some_and(|w| w == b"span" || w == b"SPAN" || w == b"Span")
    })
}

/// The raw value of the first attribute named `key` (any case) in the
/// attribute part of a tag, the way an HTML reader splits it: `key="v"`,
/// `key='v'`, `key=v` (up to whitespace) or a bare `key` (empty value).
fn attr<'a>(attrs: &'a str, key: &[u8]) -> Option<&'a str> {
    let b = attrs.as_bytes();
    let ws = |c: &u8| matches!(c, b' ' | b'\r' | b'\n' | b'\t');
    let skip_ws = |mut i: usize| {
        while b.get(i).is_some_and(ws) {
            i += 1;
        }
        i
    };
    let mut i = 0;
    loop {
        let start = skip_ws(i);
        if start >= b.len() {
            return None;
        }
        // The first byte belongs to the key even when it is `=`.
        let mut end = start + 1;
        while b.get(end).is_some_and(|c| *c != b'=' && !ws(c)) {
            end += 1;
        }
        let name = b.get(start..end).unwrap_or_default();
        let eq = if b.get(end) == Some(&b'=') {
            end
        } else {
            let next = skip_ws(end);
            if b.get(next) != Some(&b'=') {
                // A key without a value.
                if name.eq_ignore_ascii_case(key) {
                    return Some("");
                }
                if next >= b.len() {
                    return None;
                }
                i = next;
                continue;
            }
            next
        };
        let v = skip_ws(eq + 1);
        let (value, after) = match b.get(v) {
            None => return None,
            Some(&q @ (b'"' | b'\'')) => {
                let close = memchr::memchr(q, b.get(v + 1..).unwrap_or_default())?;
                (attrs.get(v + 1..v + 1 + close), v + 2 + close)
            }
            Some(_) => {
                let mut e = v;
                while b.get(e).is_some_and(|c| !ws(c)) {
                    e += 1;
                }
                (attrs.get(v..e), e)
            }
        };
        if name.eq_ignore_ascii_case(key) {
            return value.map(|v| v.trim().trim_matches('"').trim_matches('\''));
        }
        i = after;
    }
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

/// An attribute value with its character references resolved; borrowed
/// when it has none (a `colspan="2"`).
fn unescape(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('&') {
        return std::borrow::Cow::Borrowed(s);
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
    std::borrow::Cow::Owned(out)
}

/// Whether `s` is whitespace only (`str::trim` would leave nothing),
/// looking no further than its first other ASCII byte (most text).
fn is_blank(s: &str) -> bool {
    match s.bytes().find(|&b| !is_white(b)) {
        None => true,
        Some(b) if b.is_ascii() => false,
        // Unicode whitespace (a no-break space) or not: `trim` decides.
        Some(_) => s.trim().is_empty(),
    }
}

/// True when [`collapse`] would return the text unchanged: at once for
/// visible ASCII (most cells), else word by word.
#[inline(always)]
fn is_collapsed(s: &str) -> bool {
    all_visible_ascii(s.as_bytes()) || is_collapsed_words(s.as_bytes())
}

/// [`is_collapsed`] of text that is not visible ASCII alone (names with
/// spaces, padded numbers, non-ASCII text).
#[inline(never)]
fn is_collapsed_words(b: &[u8]) -> bool {
    if b.first().is_some_and(|&c| is_white(c)) || b.last().is_some_and(|&c| is_white(c)) {
        return false;
    }
    // 8 bytes at a time: no byte >= 0x80 (a no-break space may hide
    // there), none below 0x20 but the space (whitespace to rewrite), no two
    // spaces in a row (within a word or across two).
    let mut words = b.chunks_exact(8);
    let mut space_before = false;
    for w in words.by_ref() {
        let w = w.first_chunk::<8>().map_or(HI, |w| u64::from_le_bytes(*w));
        if w & HI != 0 {
            return false;
        }
        // A byte below 0x20 (exact once none is >= 0x80): whitespace or a
        // control character, which the byte loop tells apart.
        if w.wrapping_sub(LO * 0x20) & !w & HI != 0 {
            return is_collapsed_bytes(b, false);
        }
        if !single_spaces(w, &mut space_before) {
            return false;
        }
    }
    is_collapsed_bytes(words.remainder(), space_before)
}

/// [`is_collapsed`] past its first and last bytes, a byte at a time; the
/// byte before `b` a space when `prev_space`.
fn is_collapsed_bytes(b: &[u8], mut prev_space: bool) -> bool {
    for &c in b {
        // Non-ASCII may be a no-break space: take the slow path.
        if c >= 0x80 || (is_white(c) && (c != b' ' || prev_space)) {
            return false;
        }
        prev_space = c == b' ';
    }
    true
}

/// Whether every byte is printable ASCII other than space (most cells:
/// numbers, names), 8 bytes at a time.
fn all_visible_ascii(b: &[u8]) -> bool {
    // A byte >= 0x80, or one below 0x21 (exact once none is >= 0x80, and
    // whichever bytes are flagged, some is when one is below).
    let visible = |w: u64| w & HI == 0 && w.wrapping_sub(LO * 0x21) & !w & HI == 0;
    if let Some(last) = b.last_chunk::<8>() {
        let mut words = b.chunks_exact(8);
        for w in words.by_ref() {
            if !w
                .first_chunk::<8>()
                .is_some_and(|w| visible(u64::from_le_bytes(*w)))
            {
                return false;
            }
        }
        // The bytes past the last whole word, within an overlapping word.
        return words.remainder().is_empty() || visible(u64::from_le_bytes(*last));
    }
    // 4 to 7 bytes (most numbers): the first 4 and the last 4, overlapping.
    if let (Some(first), Some(last)) = (b.first_chunk::<4>(), b.last_chunk::<4>()) {
        let w = u64::from(u32::from_le_bytes(*first)) | u64::from(u32::from_le_bytes(*last)) << 32;
        return visible(w);
    }
    b.iter().all(|&c| (0x21..0x80).contains(&c))
}

/// Trims and collapses runs of whitespace (incl. no-break space) to one space.
pub fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    collapse_into(&mut out, s);
    out
}

/// [`collapse`] into `out`, replacing what it held (a buffer reused from
/// title to title).
fn collapse_into(out: &mut String, s: &str) {
    out.clear();
    if s.is_ascii() {
        // Titles and headings: words found a byte at a time, split where
        // `char::is_whitespace` splits (`is_white`).
        let mut rest = s;
        while let Some(start) = rest.bytes().position(|b| !is_white(b)) {
            let word = rest.get(start..).unwrap_or_default();
            let len = word.bytes().position(is_white).unwrap_or(word.len());
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word.get(..len).unwrap_or_default());
            rest = word.get(len..).unwrap_or_default();
        }
        return;
    }
    for w in s.split(|c: char| c.is_whitespace() || c == '\u{a0}') {
        if w.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
}

/// The lenient HTML tokenizer under [`scan`]: the rules of quick-xml 0.42
/// as this module configured it (no end-name, comment or entity checks,
/// unmatched end tags and lone `&` allowed, empty elements not expanded,
/// text untrimmed), on bytes, with two additions: text the scanner does not
/// keep is jumped over without looking at it, and tags of no kind it reads
/// ([`Tag::Other`]) are read and passed over. Positions are byte offsets
/// after a leading byte order mark, as quick-xml counted them.
mod tokens {
    use super::{Keep, Kept, OpenCell, Tag, colspan_of, is_white, tag_of};
    use crate::words::{find, find1, flags, tag_end};

    pub enum Token<'a> {
        /// `<name attrs>` or `<name attrs/>`; `at` is the offset of `<`.
        Start {
            at: usize,
            tag: Tag,
            /// Of a `<table>` (checked as text); empty for other tags.
            attrs: &'a str,
            /// Of a `<td>`/`<th>`; 1 for other tags.
            colspan: u16,
            empty: bool,
        },
        /// `</name>`, trailing whitespace of the name dropped.
        End(&'a [u8], Tag),
        /// Text between markup (or a lone `&` and what follows it).
        Text(&'a str),
        /// `&name;`: the name between `&` and `;`.
        Ref(&'a str),
        /// Comment, DOCTYPE, processing instruction: nothing to keep.
        Other,
        /// Markup that could not be read. A fatal error ends the input.
        Error {
            message: &'static str,
            fatal: bool,
        },
        Eof,
    }

    #[derive(Clone, Copy, PartialEq, Eq)]
    enum State {
        Text,
        Ref,
        Markup,
        Done,
    }

    pub struct Tokenizer<'a> {
        input: Checked<'a>,
        pos: usize,
        state: State,
        memo: Memo,
        chunks: Chunks,
    }

    /// The input's bytes and the span of them last found to be UTF-8: text
    /// is handed out from a checked span only, so the bytes of a report
    /// are checked where text is kept and nowhere else (the SQL text and
    /// other tables no section reads are never decoded).
    struct Checked<'a> {
        bytes: &'a [u8],
        /// Offset of `text` in `bytes`.
        at: usize,
        text: &'a str,
        /// The whole input came as text: nothing is left to check.
        whole: bool,
        /// How far past the text asked for the next check reaches; doubled
        /// while text is asked for close behind the span checked (a kept
        /// table), back to the least after a jump.
        reach: usize,
        /// Some text asked for is not UTF-8.
        failed: bool,
    }

    /// The least and the most a check reaches past the text asked for: a
    /// kept table's cells are checked a few spans at a time, the isolated
    /// tags and headings between skipped tables one short span each.
    const REACH_MIN: usize = 256;
    const REACH_MAX: usize = 16 * 1024;

    impl<'a> Checked<'a> {
        fn text(text: &'a str) -> Self {
            Checked {
                bytes: text.as_bytes(),
                at: 0,
                text,
                whole: true,
                reach: REACH_MIN,
                failed: false,
            }
        }

        fn bytes(bytes: &'a [u8]) -> Self {
            Checked {
                bytes,
                at: 0,
                text: "",
                whole: false,
                reach: REACH_MIN,
                failed: false,
            }
        }

        /// `bytes[from..to]` as text, `None` when it is not UTF-8. Offsets
        /// off a character boundary (never asked for: every offset sits on
        /// an ASCII byte) read as nothing, as before the lazy check.
        #[inline(always)]
        fn get(&mut self, from: usize, to: usize) -> Option<&'a str> {
            if let Some(f) = from.checked_sub(self.at)
                && let Some(t) = self.text.get(f..to.saturating_sub(self.at))
            {
                return Some(t);
            }
            self.check(from, to)
        }

        /// [`Checked::get`] outside the span checked: checks from `from`
        /// to `reach` past `to` (on to the next ASCII byte, where a
        /// character starts).
        #[inline(never)]
        fn check(&mut self, from: usize, to: usize) -> Option<&'a str> {
            if self.whole || to <= from {
                return Some("");
            }
            let len = self.bytes.len();
            let end_checked = self.at + self.text.len();
            self.reach = if from >= self.at && from <= end_checked + REACH_MIN {
                (self.reach * 2).min(REACH_MAX)
            } else {
                REACH_MIN
            };
            let want = to.saturating_add(self.reach).min(len);
            let end = self
                .bytes
                .get(want..)
                .and_then(|r| r.iter().position(|&b| b < 0x80))
                .map_or(len, |i| want + i);
            let span = self.bytes.get(from..end)?;
            let text = match simdutf8::compat::from_utf8(span) {
                Ok(text) => text,
                Err(e) if from + e.valid_up_to() >= to => {
                    std::str::from_utf8(span.get(..e.valid_up_to())?).ok()?
                }
                Err(_) => {
                    self.failed = true;
                    return None;
                }
            };
            self.at = from;
            self.text = text;
            let got = text.get(..to - from);
            if got.is_none() {
                self.failed = true;
            }
            got
        }
    }

    /// A kept table's markup from the `<` that ends one cell's text to the
    /// `>` of the next cell's start tag (`</td><td class='awrc'>`,
    /// `</td></tr>\n<tr><td class='awrnc'>`), as read once tag by tag:
    /// bytes equal to those read before, from the same state (a cell and
    /// its row open), close and open the same cells and rows, so they are
    /// compared instead of read again.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Chunk {
        /// Offset of the `<` where the bytes were first read.
        start: u32,
        len: u32,
        /// Offset in the chunk of the tag that opened a new row, if one
        /// did (the row before is closed then).
        row_at: Option<u32>,
        header: bool,
        colspan: u16,
    }

    /// Chunks by the column of the cell they close (of up to
    /// [`CHUNK_COLS`]), the last two read at each: AWR stripes rows with
    /// two cell classes, so a column's chunk alternates between two.
    struct Chunks {
        by_col: Ways<Chunk>,
        /// The same in tables whose text is not kept, where a chunk only
        /// opens a cell: what it reads past does not matter, but for the
        /// tags that end the skipping, which a chunk has none of.
        unkept: Ways<Skip>,
        /// Cells opened in the current row of an unkept table (the key
        /// of [`Chunks::unkept`]).
        unkept_col: usize,
        /// Off in tests that compare reading with and without them.
        on: bool,
    }

    const CHUNK_COLS: usize = 64;

    /// Bytes first read at an offset, `len` long.
    trait Span: Copy {
        fn span(&self) -> (u32, u32);
    }

    impl Span for Chunk {
        fn span(&self) -> (u32, u32) {
            (self.start, self.len)
        }
    }

    impl Span for Skip {
        fn span(&self) -> (u32, u32) {
            (self.start, self.len)
        }
    }

    /// The last two chunks read at each column, newer first.
    struct Ways<T>([[Option<T>; 2]; CHUNK_COLS]);

    impl<T: Span> Ways<T> {
        fn new() -> Self {
            Ways([[None; 2]; CHUNK_COLS])
        }

        /// The chunk of column `col` whose bytes `rest` starts with.
        #[inline(always)]
        fn find(&self, bytes: &[u8], col: usize, rest: &[u8]) -> Option<T> {
            let ways = self.0.get(col)?;
            ways.iter().flatten().copied().find(|c| {
                let (start, len) = c.span();
                same_chunk(bytes, start, len, rest)
            })
        }

        fn insert(&mut self, col: usize, chunk: T) {
            if let Some([a, b]) = self.0.get_mut(col) {
                *b = *a;
                *a = Some(chunk);
            }
        }
    }

    impl Chunks {
        /// The kept table's chunk of column `col` that `rest` starts with.
        #[inline(always)]
        fn find(&self, bytes: &[u8], col: usize, rest: &[u8]) -> Option<Chunk> {
            self.by_col.find(bytes, col, rest).filter(|_| self.on)
        }

        /// The unkept table's chunk of the current column that `rest`
        /// starts with.
        #[inline(always)]
        fn find_unkept(&self, bytes: &[u8], rest: &[u8]) -> Option<Skip> {
            let found = self.unkept.find(bytes, self.unkept_col, rest);
            found.filter(|_| self.on)
        }
    }

    /// Whether `rest` starts with the `len` bytes first read at `start`.
    #[inline(always)]
    fn same_chunk(bytes: &[u8], start: u32, len: u32, rest: &[u8]) -> bool {
        let (start, len) = (start as usize, len as usize);
        let (Some(new), Some(old)) = (rest.get(..len), bytes.get(start..start + len)) else {
            return false;
        };
        // The last 8 bytes first: a striped table's two chunks of a
        // column differ in their cell class, at the end.
        let last = |s: &[u8]| s.last_chunk::<8>().copied();
        last(new) == last(old) && new == old
    }

    /// A chunk of an unkept table: from the `<` after a cell's text (or
    /// any text) to the `>` of the next cell's start tag, with no tag in
    /// between that ends the skipping and no empty cell.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct Skip {
        start: u32,
        len: u32,
        /// A row tag among them: the cell opened is the row's first.
        row: bool,
    }

    /// A chunk being read tag by tag: where it started, the column of the
    /// cell it closes, where a new row opened.
    #[derive(Clone, Copy)]
    struct Reading {
        start: usize,
        col: usize,
        row_at: Option<usize>,
    }

    /// A tag as read from `<` to `>`: offsets relative to the `<`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq)]
    struct TagInfo {
        /// Offset of the `>`.
        gt: u32,
        /// `</...>`.
        close: bool,
        /// Length of the name (after `<` or `</`).
        name_len: u32,
        /// Where the content of a start tag ends (before `>` or `/>`).
        end: u32,
        empty: bool,
        tag: Tag,
        /// Of a `<td>`/`<th>` start tag (the attribute parser runs once per
        /// distinct tag); 1 for other tags.
        colspan: u16,
    }

    const MEMO_SETS: usize = 32;
    const MEMO_WAYS: usize = 4;

    /// Tags already read, by the 4 bytes after their `<`: AWR repeats the
    /// same few tags (`<td align="right" class='awrc'>`) hundreds of
    /// thousands of times, and a tag whose bytes equal those of one read
    /// before reads the same (a tag's end, name and kind depend on its
    /// bytes up to its `>` only), so it is compared instead of scanned.
    struct Memo {
        /// Offset of the earlier `<` and what was read there.
        sets: [[Option<(u32, TagInfo)>; MEMO_WAYS]; MEMO_SETS],
        /// The tag that came after a tag last time (bare cell and row tags
        /// aside), in the slot of where that tag was first read
        /// ([`Memo::slot_of`]): a table's cells follow
        /// each other in the same order on every row, so this is the next
        /// tag more often than not, even where a row has more distinct
        /// cell tags than a set holds (19c: `<td align="right"
        /// headers="Event Waits" class='awrnc'>`, a dozen to a row).
        next: [Option<(u32, TagInfo)>; NEXT_SLOTS],
        /// Slot of the last tag read through the memo.
        last: usize,
    }

    /// 1,024 slots: with 256, the forty-odd distinct cell tags of a 19c
    /// histogram table's two row classes collided in `next` often enough
    /// to break the chain, and each break cost a tag read byte by byte
    /// (callgrind over one pass of the bench's `profile-html`, the 21 AWR
    /// HTML files of the corpus: 325.6 M instructions with 256 slots,
    /// 318.8 M with 1,024, 320.7 M with 4,096).
    const NEXT_BITS: u32 = 10;
    const NEXT_SLOTS: usize = 1 << NEXT_BITS;

    /// The bare cell and row tags (`</td>`, `<tr>`, ... in either case,
    /// two thirds of AWR's tags) from the 4 bytes after their `<`.
    fn short_tag(after: &[u8]) -> Option<TagInfo> {
        let w = u32::from_le_bytes(*after.first_chunk::<4>()?);
        let word = |s: &[u8; 4]| u32::from_le_bytes(*s);
        let three = |s: &[u8; 3]| u32::from_le_bytes([s[0], s[1], s[2], 0]);
        let end = |tag| TagInfo {
            gt: 4,
            close: true,
            name_len: 2,
            end: 0,
            empty: false,
            tag,
            colspan: 1,
        };
        let start = |tag| TagInfo {
            gt: 3,
            close: false,
            name_len: 2,
            end: 3,
            empty: false,
            tag,
            colspan: 1,
        };
        // The name's letters in lowercase: `x | 0x20` is `t` only for `t`
        // and `T` (`d`, `h`, `r` alike), so either case of each letter
        // matches, as `tag_of` reads names.
        let end_word = w | 0x0020_2000;
        if end_word == word(b"/td>") {
            return Some(end(Tag::Td));
        }
        if end_word == word(b"/tr>") {
            return Some(end(Tag::Tr));
        }
        if end_word == word(b"/th>") {
            return Some(end(Tag::Th));
        }
        let start_word = (w | 0x0000_2020) & 0x00FF_FFFF;
        if start_word == three(b"tr>") {
            return Some(start(Tag::Tr));
        }
        if start_word == three(b"td>") {
            return Some(start(Tag::Td));
        }
        None
    }

    impl Memo {
        fn set_of(rest: &[u8]) -> Option<usize> {
            let key = rest.get(1..5)?;
            let word =
                u32::from_le_bytes([*key.first()?, *key.get(1)?, *key.get(2)?, *key.get(3)?]);
            Some((word.wrapping_mul(0x9E37_79B1) >> 27) as usize % MEMO_SETS)
        }

        /// What was read before at a tag with the same bytes as `rest`'s
        /// first tag: the tag that followed the last one last time, or one
        /// of the set.
        #[inline(always)]
        fn find(&mut self, bytes: &[u8], rest: &[u8]) -> Option<TagInfo> {
            if let Some((start, info)) = self
                .next
                .get(self.last)
                .copied()
                .flatten()
                .filter(|&(start, info)| same(bytes, start, info, rest))
            {
                self.last = Self::slot_of(start);
                return Some(info);
            }
            let set = self.sets.get(Self::set_of(rest)?)?;
            let (start, info) = set
                .iter()
                .flatten()
                .copied()
                .find(|&(start, info)| same(bytes, start, info, rest))?;
            self.follow(start, info);
            Some(info)
        }

        /// The slot in `next` of the tag first read at `start`: every
        /// answer from the memo gives the offset where its bytes were first
        /// read, one offset per distinct tag (while it stays remembered).
        fn slot_of(start: u32) -> usize {
            (start.wrapping_mul(0x9E37_79B1) >> (32 - NEXT_BITS)) as usize
        }

        /// Records that the tag first read at `start` (as `info`) followed
        /// the last one, and makes it the last.
        fn follow(&mut self, start: u32, info: TagInfo) {
            if let Some(slot) = self.next.get_mut(self.last) {
                *slot = Some((start, info));
            }
            self.last = Self::slot_of(start);
        }

        fn insert(&mut self, at: usize, rest: &[u8], info: TagInfo) {
            let Ok(at) = u32::try_from(at) else {
                return;
            };
            self.follow(at, info);
            let Some(set) = Self::set_of(rest) else {
                return;
            };
            if let Some(set) = self.sets.get_mut(set) {
                let [a, b, c, _] = *set;
                *set = [Some((at, info)), a, b, c];
            }
        }
    }

    /// Whether `rest` starts with an anchor's start tag (`<a ` in either
    /// case): AWR links each SQL id and section (`href="#..."`, `name=`),
    /// so anchors are mostly unique and a memo of them is evicted unread.
    #[inline(always)]
    fn is_anchor(rest: &[u8]) -> bool {
        matches!(rest.get(1), Some(b'a' | b'A')) && rest.get(2).is_some_and(|&b| is_ws(b))
    }

    /// An anchor's start tag (`rest` starts with one, [`is_anchor`]) as
    /// [`Tokenizer::scan_tag`] reads it: only its end is looked for, since
    /// its name is `a` and it is of no kind the scanner reads.
    fn anchor(rest: &[u8]) -> Option<TagInfo> {
        let gt = tag_end(rest)?;
        let (_, end, empty) = start_name(rest, gt);
        Some(TagInfo {
            gt: u32::try_from(gt).ok()?,
            close: false,
            name_len: 1,
            end: u32::try_from(end).ok()?,
            empty,
            tag: Tag::Other,
            colspan: 1,
        })
    }

    /// Whether the tag `rest` starts with has the bytes of the tag read as
    /// `info` at `start`.
    #[inline(always)]
    fn same(bytes: &[u8], start: u32, info: TagInfo, rest: &[u8]) -> bool {
        let len = info.gt as usize + 1;
        let start = start as usize;
        rest.get(len - 1) == Some(&b'>') && bytes.get(start..start + len) == rest.get(..len)
    }

    const UNCLOSED_TAG: &str = "syntax error: tag not closed: `>` not found before end of input";
    const UNCLOSED_SINGLE: &str =
        "syntax error: attribute value not closed: `'` not found before end of input";
    const UNCLOSED_DOUBLE: &str =
        "syntax error: attribute value not closed: `\"` not found before end of input";
    const BAD_BANG: &str = "syntax error: unknown or missed symbol in markup";
    const UNCLOSED_COMMENT: &str =
        "syntax error: comment not closed: `-->` not found before end of input";
    const UNCLOSED_CDATA: &str =
        "syntax error: CDATA not closed: `]]>` not found before end of input";
    const UNCLOSED_DOCTYPE: &str =
        "syntax error: DOCTYPE not closed: `>` not found before end of input";
    const NO_DOCTYPE_NAME: &str =
        "ill-formed document: `<!DOCTYPE>` declaration does not contain a name of a document type";
    const UNCLOSED_PI: &str =
        "syntax error: processing instruction not closed: `?>` not found before end of input";
    const UNCLOSED_DECL: &str =
        "syntax error: XML declaration not closed: `?>` not found before end of input";

    fn is_ws(b: u8) -> bool {
        matches!(b, b' ' | b'\r' | b'\n' | b'\t')
    }

    impl<'a> Tokenizer<'a> {
        /// Reads `text`, a leading byte order mark left out.
        pub fn new(text: &'a str) -> Self {
            Self::with(Checked::text(text.strip_prefix('\u{feff}').unwrap_or(text)))
        }

        /// Reads `bytes` as UTF-8 (a leading byte order mark left out),
        /// checked only where text is handed out: where some is not
        /// UTF-8, the tokens end ([`Token::Eof`]) and
        /// [`Tokenizer::not_utf8`] tells.
        pub fn from_bytes(bytes: &'a [u8]) -> Self {
            let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
            Self::with(Checked::bytes(bytes))
        }

        fn with(input: Checked<'a>) -> Self {
            Tokenizer {
                input,
                pos: 0,
                state: State::Text,
                memo: Memo {
                    sets: [[None; MEMO_WAYS]; MEMO_SETS],
                    next: [None; NEXT_SLOTS],
                    last: 0,
                },
                chunks: Chunks {
                    by_col: Ways::new(),
                    unkept: Ways::new(),
                    unkept_col: 0,
                    on: true,
                },
            }
        }

        /// Whether the tokens ended at text that is not UTF-8.
        pub fn not_utf8(&self) -> bool {
            self.input.failed
        }

        /// Reads every chunk tag by tag (tests compare the two readings).
        #[cfg(test)]
        pub fn without_chunks(mut self) -> Self {
            self.chunks.on = false;
            self
        }

        /// The tag at `at`, or `None` at markup that is not a tag (`<!`,
        /// `<?`), at a `<` that ends the input, or when the tag's `>` is
        /// missing. The bare cell and row tags, two thirds of the tags, are
        /// tried before the markup is told apart; anchors are read to their
        /// end ([`anchor`]); the others come from the memo, else are read
        /// byte by byte.
        #[inline(always)]
        fn read_tag(&mut self, at: usize) -> Option<TagInfo> {
            let bytes = self.bytes();
            let rest = bytes.get(at..)?;
            if let Some(info) = rest.get(1..5).and_then(short_tag) {
                return Some(info);
            }
            if matches!(rest.get(1), Some(b'!' | b'?') | None) {
                return None;
            }
            if is_anchor(rest) {
                return anchor(rest);
            }
            if let Some(info) = self.memo.find(bytes, rest) {
                return Some(info);
            }
            self.read_new_tag(at)
        }

        /// [`Tokenizer::read_tag`] of a tag not in the memo: read byte by
        /// byte and remembered (out of line, so that the rest inlines).
        #[inline(never)]
        fn read_new_tag(&mut self, at: usize) -> Option<TagInfo> {
            let rest = self.bytes().get(at..)?;
            let info = Self::scan_tag(self.bytes(), at)?;
            // Anchors, each with its own `href` or `name`, are read by
            // `read_tag` and kept out of the memo.
            self.memo.insert(at, rest, info);
            Some(info)
        }

        /// The tag at `at` of `text` read byte by byte (the memo's misses).
        fn scan_tag(bytes: &[u8], at: usize) -> Option<TagInfo> {
            let rest = bytes.get(at..)?;
            let gt = tag_end(rest)?;
            let info = if rest.get(1) == Some(&b'/') {
                let name = end_name(rest, gt);
                TagInfo {
                    gt: u32::try_from(gt).ok()?,
                    close: true,
                    name_len: u32::try_from(name.len()).ok()?,
                    end: 0,
                    empty: false,
                    tag: tag_of(name),
                    colspan: 1,
                }
            } else {
                let (name, end, empty) = start_name(rest, gt);
                let tag = tag_of(name);
                let colspan = match tag {
                    Tag::Td | Tag::Th => {
                        colspan_of(bytes.get(at + 1 + name.len()..at + end).unwrap_or_default())
                    }
                    _ => 1,
                };
                TagInfo {
                    gt: u32::try_from(gt).ok()?,
                    close: false,
                    name_len: u32::try_from(name.len()).ok()?,
                    end: u32::try_from(end).ok()?,
                    empty,
                    tag,
                    colspan,
                }
            };
            Some(info)
        }

        /// Offset of the next unread byte.
        pub fn position(&self) -> usize {
            self.pos
        }

        fn bytes(&self) -> &'a [u8] {
            self.input.bytes
        }

        /// `bytes[from..to]` as text; every offset used here sits on an
        /// ASCII byte, so on a character boundary. `None`, and no more
        /// tokens, when it is not UTF-8.
        #[inline(always)]
        fn slice(&mut self, from: usize, to: usize) -> Option<&'a str> {
            let text = self.input.get(from, to);
            if text.is_none() {
                self.pos = self.bytes().len();
                self.state = State::Done;
            }
            text
        }

        /// A text token of `bytes[from..to]`, or the end of the tokens.
        fn text(&mut self, from: usize, to: usize) -> Token<'a> {
            self.slice(from, to).map_or(Token::Eof, Token::Text)
        }

        fn fatal(&mut self, message: &'static str, pos: usize) -> Token<'a> {
            self.pos = pos;
            self.state = State::Done;
            Token::Error {
                message,
                fatal: true,
            }
        }

        /// The next token. With `keep` [`Keep::None`], text and entity
        /// references are skipped up to the next markup; with
        /// [`Keep::NotBlank`], text of ASCII whitespace alone. Tags the
        /// scanner does nothing with ([`Tag::Other`]: anchors, fonts,
        /// spans) are read and passed over.
        pub fn next(&mut self, keep: Keep) -> Token<'a> {
            let bytes = self.bytes();
            loop {
                match self.state {
                    State::Done => return Token::Eof,
                    State::Markup => {
                        if let Some(token) = self.markup() {
                            return token;
                        }
                    }
                    State::Text | State::Ref if keep == Keep::None => {
                        let rest = bytes.get(self.pos..).unwrap_or_default();
                        match find1(b'<', rest) {
                            Some(i) => {
                                self.pos += i;
                                self.state = State::Markup;
                            }
                            None => {
                                self.pos = bytes.len();
                                self.state = State::Done;
                            }
                        }
                    }
                    State::Text => {
                        let start = self.pos;
                        let rest = bytes.get(start..).unwrap_or_default();
                        match find(
                            rest,
                            |w| flags(w, b'<') | flags(w, b'&'),
                            |r| memchr::memchr2(b'<', b'&', r),
                        ) {
                            None => {
                                self.pos = bytes.len();
                                self.state = State::Done;
                                if start < bytes.len() {
                                    return self.text(start, bytes.len());
                                }
                                return Token::Eof;
                            }
                            Some(i) => {
                                self.state = if rest.get(i) == Some(&b'<') {
                                    State::Markup
                                } else {
                                    State::Ref
                                };
                                if i > 0 {
                                    self.pos = start + i;
                                    let blank = || {
                                        rest.get(..i)
                                            .is_some_and(|t| t.iter().all(|&b| is_white(b)))
                                    };
                                    if keep == Keep::NotBlank && blank() {
                                        continue;
                                    }
                                    return self.text(start, start + i);
                                }
                            }
                        }
                    }
                    State::Ref => {
                        // At `&`.
                        let start = self.pos;
                        let after = bytes.get(start + 1..).unwrap_or_default();
                        return match memchr::memchr3(b';', b'&', b'<', after) {
                            Some(i) => match after.get(i) {
                                Some(b';') => {
                                    self.pos = start + i + 2;
                                    self.state = State::Text;
                                    self.slice(start + 1, start + 1 + i)
                                        .map_or(Token::Eof, Token::Ref)
                                }
                                next => {
                                    // A lone `&`: text up to the next `&`
                                    // (still a reference) or markup.
                                    self.pos = start + i + 1;
                                    if next == Some(&b'<') {
                                        self.state = State::Markup;
                                    }
                                    self.text(start, start + i + 1)
                                }
                            },
                            None => {
                                self.pos = bytes.len();
                                self.state = State::Done;
                                self.text(start, bytes.len())
                            }
                        };
                    }
                }
            }
        }

        /// At `<`: one tag, comment, CDATA section, DOCTYPE or processing
        /// instruction; `None` after a tag of [`Tag::Other`], which the
        /// scanner has nothing to do with.
        fn markup(&mut self) -> Option<Token<'a>> {
            self.state = State::Text;
            let bytes = self.bytes();
            let start = self.pos;
            let rest = bytes.get(start..).unwrap_or_default();
            Some(match rest.get(1) {
                None => self.fatal(UNCLOSED_TAG, start),
                Some(b'!') => self.bang(rest),
                Some(b'?') => self.pi(rest),
                Some(_) => {
                    let Some(info) = self.read_tag(start) else {
                        let message = match quote_state(rest) {
                            b'\'' => UNCLOSED_SINGLE,
                            b'"' => UNCLOSED_DOUBLE,
                            _ => UNCLOSED_TAG,
                        };
                        return Some(self.fatal(message, bytes.len()));
                    };
                    self.pos = start + info.gt as usize + 1;
                    if info.tag == Tag::Other {
                        return None;
                    }
                    let name_len = info.name_len as usize;
                    if info.close {
                        return Some(Token::End(
                            rest.get(2..2 + name_len).unwrap_or_default(),
                            info.tag,
                        ));
                    }
                    // Only a table's attributes are read (its `summary`):
                    // the bytes of the others are not checked as text.
                    let attrs = if info.tag == Tag::Table {
                        let Some(attrs) =
                            self.slice(start + 1 + name_len, start + info.end as usize)
                        else {
                            return Some(Token::Eof);
                        };
                        attrs
                    } else {
                        ""
                    };
                    Token::Start {
                        at: start,
                        tag: info.tag,
                        attrs,
                        colspan: info.colspan,
                        empty: info.empty,
                    }
                }
            })
        }

        /// Reads the cells and rows of `open`, a table whose text is kept,
        /// the way [`super::Scanner`] does from [`Tokenizer::next`]'s
        /// tokens, without the tokens: text of the open cell, `<td>`/`<th>`
        /// and `<tr>` start and end tags. Stops, with nothing read of it,
        /// at anything else (an entity, another tag, a comment, markup
        /// that cannot be read, the end of the input) for `next` to read.
        pub fn read_cells(&mut self, kept: Kept<'_, 'a>) {
            let Kept { open, lines } = kept;
            let bytes = self.bytes();
            // Position and state kept in locals until the loop ends.
            let mut pos = self.pos;
            let mut at_markup = match self.state {
                State::Text => false,
                State::Markup => true,
                State::Ref | State::Done => return,
            };
            let mut reading: Option<Reading> = None;
            loop {
                if !at_markup {
                    let rest = bytes.get(pos..).unwrap_or_default();
                    if let Some(cell) = open.cell.as_mut() {
                        let Some(i) = find(
                            rest,
                            |w| flags(w, b'<') | flags(w, b'&'),
                            |r| memchr::memchr2(b'<', b'&', r),
                        ) else {
                            break;
                        };
                        if i > 0 {
                            let Some(text) = self.slice(pos, pos + i) else {
                                return;
                            };
                            cell.text.push(text);
                            pos += i;
                        }
                        if rest.get(i) != Some(&b'<') {
                            // An entity the scanner knows (`&nbsp;`,
                            // `&#160;`, `&amp;`) is read here as `next`
                            // and the scanner would read it; anything
                            // else is left to them.
                            if let Some((c, len)) = entity_at(rest.get(i..).unwrap_or_default()) {
                                cell.text.push_char(c);
                                pos += len;
                                continue;
                            }
                            self.pos = pos;
                            self.state = State::Ref;
                            return;
                        }
                        // The cell's text ends at a `<`: markup read before
                        // is replayed, else read tag by tag and remembered.
                        if let Some(col) = open.row_len() {
                            let at = rest.get(i..).unwrap_or_default();
                            if let Some(c) = self.chunks.find(bytes, col, at) {
                                open.close_cell();
                                if let Some(off) = c.row_at {
                                    open.close_row();
                                    open.row = Some(open.new_row(lines.at(pos + off as usize)));
                                }
                                open.cell = Some(OpenCell {
                                    text: super::CellText::default(),
                                    header: c.header,
                                    colspan: c.colspan,
                                });
                                pos += c.len as usize;
                                continue;
                            }
                            reading = Some(Reading {
                                start: pos,
                                col,
                                row_at: None,
                            });
                        }
                    } else {
                        // Text between cells is not kept.
                        let Some(i) = find1(b'<', rest) else {
                            break;
                        };
                        pos += i;
                    }
                    at_markup = true;
                }
                let Some(info) = self.read_tag(pos) else {
                    break;
                };
                match (info.tag, info.close) {
                    (Tag::Td | Tag::Th, false) => {
                        // Most cells were closed by their `</td>`.
                        if open.cell.is_some() {
                            open.close_cell();
                        }
                        if open.row.is_none() {
                            open.row = Some(open.new_row(lines.at(pos)));
                            if let Some(r) = reading.as_mut() {
                                r.row_at = Some(pos);
                            }
                        }
                        open.cell = Some(OpenCell {
                            text: super::CellText::default(),
                            header: info.tag == Tag::Th,
                            colspan: info.colspan,
                        });
                        if info.empty {
                            open.close_cell();
                            // An empty cell in between: not a chunk.
                            reading = None;
                        } else if let Some(r) = reading.take() {
                            self.remember(r, pos + info.gt as usize + 1, info);
                        }
                    }
                    (Tag::Td | Tag::Th, true) => open.close_cell(),
                    (Tag::Tr, false) => {
                        open.close_row();
                        if !info.empty {
                            open.row = Some(open.new_row(lines.at(pos)));
                            if let Some(r) = reading.as_mut() {
                                r.row_at = Some(pos);
                            }
                        }
                    }
                    (Tag::Tr, true) => open.close_row(),
                    _ => break,
                }
                pos += info.gt as usize + 1;
                at_markup = false;
            }
            self.pos = pos;
            self.state = if at_markup {
                State::Markup
            } else {
                State::Text
            };
        }

        /// Keeps the chunk `r` read, which ends at `end` with the start tag
        /// `info` of the cell it opened.
        fn remember(&mut self, r: Reading, end: usize, info: TagInfo) {
            let offset = |p: usize| u32::try_from(p - r.start).ok();
            let (Ok(start), Some(len)) = (u32::try_from(r.start), offset(end)) else {
                return;
            };
            let row_at = match r.row_at {
                Some(p) => match offset(p) {
                    Some(o) => Some(o),
                    None => return,
                },
                None => None,
            };
            self.chunks.by_col.insert(
                r.col,
                Chunk {
                    start,
                    len,
                    row_at,
                    header: info.tag == Tag::Th,
                    colspan: info.colspan,
                },
            );
        }

        /// Jumps over what cannot change the scan while the innermost open
        /// table keeps no text: text, and every tag but those of cells and
        /// rows, which only open or close the table's cell (`cell_open`).
        /// Stops with the position on the `<` of anything else (a table,
        /// heading, list item, title, style or script tag, a comment, CDATA,
        /// DOCTYPE or processing instruction, markup that cannot be read),
        /// for [`Tokenizer::next`] to read; or at the end of the input.
        pub fn skip_unkept(&mut self, cell_open: &mut bool) {
            if self.state == State::Done {
                return;
            }
            let bytes = self.bytes();
            let mut pos = self.pos;
            // A chunk being read tag by tag: where it started, the column,
            // whether a row tag came.
            let mut reading: Option<(usize, usize, bool)> = None;
            loop {
                let Some(lt) = bytes.get(pos..).and_then(|r| find1(b'<', r)) else {
                    self.pos = bytes.len();
                    self.state = State::Done;
                    return;
                };
                let at = pos + lt;
                if reading.is_none() {
                    let rest = bytes.get(at..).unwrap_or_default();
                    if let Some(c) = self.chunks.find_unkept(bytes, rest) {
                        *cell_open = true;
                        let col = &mut self.chunks.unkept_col;
                        *col = if c.row { 1 } else { *col + 1 };
                        pos = at + c.len as usize;
                        continue;
                    }
                    reading = Some((at, self.chunks.unkept_col, false));
                }
                let Some(info) = self.read_tag(at) else {
                    self.pos = at;
                    self.state = State::Markup;
                    return;
                };
                let stop = match info.tag {
                    Tag::Td | Tag::Th => {
                        *cell_open = !info.close && !info.empty;
                        if info.empty {
                            reading = None;
                        } else if !info.close {
                            self.chunks.unkept_col += 1;
                            if let Some((start, col, row)) = reading.take() {
                                let end = at + info.gt as usize + 1;
                                if let (Ok(start), Ok(len)) =
                                    (u32::try_from(start), u32::try_from(end - start))
                                {
                                    let chunk = Skip { start, len, row };
                                    self.chunks.unkept.insert(col, chunk);
                                }
                            }
                        }
                        false
                    }
                    Tag::Tr => {
                        *cell_open = false;
                        self.chunks.unkept_col = 0;
                        if let Some(r) = reading.as_mut() {
                            r.2 = true;
                        }
                        false
                    }
                    Tag::Table | Tag::Li => true,
                    Tag::Heading | Tag::Title | Tag::Skip => !info.close,
                    Tag::Br | Tag::Block | Tag::Other => false,
                };
                if stop {
                    self.pos = at;
                    self.state = State::Markup;
                    return;
                }
                pos = at + info.gt as usize + 1;
            }
        }

        /// `<!--...-->`, `<![CDATA[...]]>`, `<!DOCTYPE ...>`.
        fn bang(&mut self, rest: &'a [u8]) -> Token<'a> {
            let start = self.pos;
            let len = self.bytes().len();
            let found = match rest.get(2) {
                Some(b'-') => memchr::memchr_iter(b'>', rest)
                    .find(|&i| i > 5 && rest.get(..i).is_some_and(|s| s.ends_with(b"--")))
                    .map(|i| (i, UNCLOSED_COMMENT)),
                Some(b'[') => memchr::memchr_iter(b'>', rest)
                    .find(|&i| rest.get(..i).is_some_and(|s| s.ends_with(b"]]")))
                    .map(|i| (i, UNCLOSED_CDATA)),
                Some(b'D' | b'd') => doctype_end(rest).map(|i| (i, UNCLOSED_DOCTYPE)),
                _ => return self.fatal(BAD_BANG, start),
            };
            let Some((gt, unclosed)) = found else {
                let message = match rest.get(2) {
                    Some(b'-') => UNCLOSED_COMMENT,
                    Some(b'[') => UNCLOSED_CDATA,
                    _ => UNCLOSED_DOCTYPE,
                };
                return self.fatal(message, len);
            };
            let end = start + gt + 1;
            self.pos = end;
            let buf = rest.get(..=gt).unwrap_or_default();
            match rest.get(2) {
                Some(b'-') if buf.starts_with(b"<!--") => Token::Other,
                Some(b'[') if buf.starts_with(b"<![CDATA[") => {
                    self.text(start + 9, end.saturating_sub(3).max(start + 9))
                }
                Some(b'D' | b'd')
                    if buf.len() >= 9
                        && buf
                            .get(..9)
                            .is_some_and(|h| h.eq_ignore_ascii_case(b"<!DOCTYPE")) =>
                {
                    let name = buf.get(9..gt).unwrap_or_default();
                    if name.iter().all(|&b| is_ws(b)) {
                        Token::Error {
                            message: NO_DOCTYPE_NAME,
                            fatal: false,
                        }
                    } else {
                        Token::Other
                    }
                }
                _ => self.fatal(unclosed, end),
            }
        }

        /// `<?...?>`.
        fn pi(&mut self, rest: &'a [u8]) -> Token<'a> {
            let start = self.pos;
            let is_decl =
                rest.starts_with(b"<?xml") && rest.get(5).is_none_or(|&b| is_ws(b) || b == b'?');
            let unclosed = if is_decl { UNCLOSED_DECL } else { UNCLOSED_PI };
            let found =
                memchr::memchr_iter(b'>', rest).find(|&i| i > 0 && rest.get(i - 1) == Some(&b'?'));
            match found {
                None => self.fatal(unclosed, self.bytes().len()),
                Some(gt) if gt + 1 > 3 => {
                    self.pos = start + gt + 1;
                    Token::Other
                }
                Some(gt) => self.fatal(unclosed, start + gt + 1),
            }
        }
    }

    /// The references AWR writes in cells (after the `&`, with the `;`) and
    /// what [`super::resolve_entity`] gives for each: [`entity_at`] reads
    /// them without the UTF-8 check and the lookup.
    pub(super) const COMMON_REFS: &[(&[u8], char)] = &[
        (b"#160;", ' '),
        (b"nbsp;", ' '),
        (b"lt;", '<'),
        (b"gt;", '>'),
        (b"quot;", '"'),
        (b"amp;", '&'),
    ];

    /// The character of the entity reference `rest` starts with (at its
    /// `&`) and the reference's length, when it is one
    /// [`super::resolve_entity`] knows: what [`Tokenizer::next`] reads as
    /// a `Token::Ref` and the scanner turns into a character.
    fn entity_at(rest: &[u8]) -> Option<(char, usize)> {
        let after = rest.get(1..)?;
        for &(name, c) in COMMON_REFS {
            if after.starts_with(name) {
                return Some((c, name.len() + 1));
            }
        }
        let i = find(
            after,
            |w| flags(w, b';') | flags(w, b'&') | flags(w, b'<'),
            |r| memchr::memchr3(b';', b'&', b'<', r),
        )?;
        if after.get(i) != Some(&b';') {
            return None;
        }
        let name = std::str::from_utf8(after.get(..i)?).ok()?;
        Some((super::resolve_entity(name)?, i + 2))
    }

    /// The name of the end tag `rest` starts with (`>` at `gt`): between
    /// `</` and `>`, trailing whitespace dropped.
    fn end_name(rest: &[u8], gt: usize) -> &[u8] {
        let content = rest.get(2..gt).unwrap_or_default();
        let len = content
            .iter()
            .rposition(|&b| !is_ws(b))
            .map_or(content.len(), |p| p + 1);
        content.get(..len).unwrap_or_default()
    }

    /// The start tag `rest` starts with (`>` at `gt`): its name (up to the
    /// first whitespace), the offset where its content ends (before `>` or
    /// `/>`) and whether it is empty (`/>`).
    fn start_name(rest: &[u8], gt: usize) -> (&[u8], usize, bool) {
        let (end, empty) = if gt >= 2 && rest.get(gt - 1) == Some(&b'/') {
            (gt - 1, true)
        } else {
            (gt, false)
        };
        let content = rest.get(1..end).unwrap_or_default();
        let name_len = content
            .iter()
            .position(|&b| is_ws(b))
            .unwrap_or(content.len());
        (content.get(..name_len).unwrap_or_default(), end, empty)
    }

    /// The quote left open at the end of an unclosed tag, or 0.
    fn quote_state(rest: &[u8]) -> u8 {
        let mut quote = 0u8;
        for &b in rest {
            match (quote, b) {
                (0, b'\'' | b'"') => quote = b,
                (q, b) if q == b => quote = 0,
                _ => {}
            }
        }
        quote
    }

    /// Offset of the `>` that ends a DOCTYPE: quoted strings skipped, an
    /// internal subset `[...]` skipped to its `]`.
    fn doctype_end(rest: &[u8]) -> Option<usize> {
        let mut quote = 0u8;
        let mut i = 0;
        while let Some(&b) = rest.get(i) {
            match (quote, b) {
                (0, b'\'' | b'"') => quote = b,
                (0, b'[') => {
                    let close = memchr::memchr(b']', rest.get(i + 1..)?)?;
                    let after = i + 2 + close;
                    return memchr::memchr(b'>', rest.get(after..)?).map(|j| after + j);
                }
                (0, b'>') => return Some(i),
                (q, b) if q == b => quote = 0,
                _ => {}
            }
            i += 1;
        }
        None
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn bare_cell_and_row_tags_read_as_the_byte_reader_reads_them() {
            for tag in [
                "</td>", "</TD>", "</tr>", "</TR>", "</th>", "</TH>", "<tr>", "<TR>", "<td>",
                "<TD>",
            ] {
                for after in ["", "x", "\n<td>", "</td>"] {
                    let text = format!("{tag}{after}");
                    // Fewer than 4 bytes after `<`: left to the byte reader.
                    let quick = text.as_bytes().get(1..5).and_then(short_tag);
                    let want = Some(&text).filter(|t| t.len() >= 5);
                    assert_eq!(
                        quick,
                        want.and_then(|t| Tokenizer::scan_tag(t.as_bytes(), 0)),
                        "{text:?}"
                    );
                }
            }
            // Every ASCII byte in every place of a bare tag, in each case:
            // what the quick check answers is what the byte reader reads,
            // and the check answers for every mix of cases.
            for tag in ["</td>", "</tr>", "</th>", "<tr>", "<td>"] {
                let upper = tag.to_ascii_uppercase();
                let mixed: String = tag
                    .chars()
                    .enumerate()
                    .map(|(i, c)| {
                        if i % 2 == 0 {
                            c.to_ascii_uppercase()
                        } else {
                            c
                        }
                    })
                    .collect();
                for base in [tag.to_string(), upper, mixed] {
                    let text = format!("{base}x");
                    assert!(
                        text.as_bytes().get(1..5).and_then(short_tag).is_some(),
                        "{text}"
                    );
                    for at in 1..base.len() {
                        for b in 0..0x80u8 {
                            let mut bytes = text.clone().into_bytes();
                            if let Some(x) = bytes.get_mut(at) {
                                *x = b;
                            }
                            let Ok(t) = String::from_utf8(bytes) else {
                                continue;
                            };
                            if let Some(quick) = t.as_bytes().get(1..5).and_then(short_tag) {
                                assert_eq!(
                                    Some(quick),
                                    Tokenizer::scan_tag(t.as_bytes(), 0),
                                    "{t:?}"
                                );
                            }
                        }
                    }
                }
            }
            // Not bare: left to the byte reader.
            for text in ["<td >", "</td >", "<tda>", "<trx>", "</tdx>", "<th>"] {
                assert!(
                    text.as_bytes().get(1..5).and_then(short_tag).is_none(),
                    "{text}"
                );
            }
        }

        /// Tags that start alike and differ after (in a quoted value, in
        /// where the quote closes, in case, in length): each is read as if
        /// it were the first of its kind.
        #[test]
        fn the_tag_memo_answers_only_for_the_same_bytes() {
            let tags = [
                "<td align=\"right\" class='awrc'>",
                "<td align=\"right\" class='awrnc'>",
                "<td align=\"right\" class='awrc>'>",
                "<td align=\"right\" class=\"awrc'>",
                "<td align=\"right\" colspan=\"2\" class='awrc'>",
                "<td align=\"right\" colspan=\"3\" class='awrc'>",
                "<td align=\"right\" class='awrc'/>",
                "<TD align=\"right\" class='awrc'>",
                "<td align=right>",
                "<td align=right >",
                "</td >",
                "</td\n>",
                "<table summary=\"a > b\">",
                // More alike than a set holds: the tag that came next last
                // time answers, or nothing does.
                "<td align=\"right\" headers=\"Event Waits\" class='awrnc'>",
                "<td align=\"right\" headers=\"Event Waits\" class='awrc'>",
                "<td align=\"right\" headers=\"Event Time\" class='awrnc'>",
                "<td align=\"right\" headers=\"Event Tim>\" class='awrnc'>",
                "<td align=\"right\" headers=\"Event Tim>\" class='awrnc'/>",
                "<td align=\"right\" headers=\"Event Time\" colspan=2>",
                "<td headers=\"Wait Class\" class='awrnc'>",
                "<td headers=\"Wait Class\" class='awrnclb'>",
                // Anchors are read byte by byte, never from the memo, and
                // leave nothing in it: repeated, with a quoted `>`, empty,
                // and tags that only start like one.
                "<a class=\"awr\" href=\"#top\">",
                "<a class=\"awr\" href=\"#a>b\">",
                "<A\nname=\"x\"/>",
                "<a />",
                "<a  href=\"#1\" / >",
                "<a>",
                "<abbr title=\"a\">",
                "<a\thref='#top'>",
            ];
            let mut text = String::new();
            for round in 0..3 {
                for (i, t) in tags.iter().enumerate() {
                    if (i + round) % 2 == 0 {
                        text.push_str(t);
                        text.push_str("1\"2'3");
                    }
                    text.push_str(t);
                    text.push('x');
                }
            }
            let mut tok = Tokenizer::new(&text);
            let mut at = 0;
            let mut read = 0;
            while let Some(lt) = text.get(at..).and_then(|r| r.find('<')) {
                let pos = at + lt;
                let want = Tokenizer::scan_tag(text.as_bytes(), pos);
                assert_eq!(tok.read_tag(pos), want, "at {pos}: {:?}", text.get(pos..));
                read += 1;
                at = pos + want.map_or(1, |i| i.gt as usize + 1);
            }
            assert!(read > tags.len() * 3, "{read}");
            let remembered = tok.memo.sets.iter().flatten().flatten();
            let remembered = remembered.chain(tok.memo.next.iter().flatten());
            for &(start, _) in remembered {
                let rest = text.as_bytes().get(start as usize..).unwrap_or_default();
                assert!(!is_anchor(rest), "an anchor in the memo at {start}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tables(html: &str) -> Vec<Table<'_>> {
        let mut out = Vec::new();
        scan(html, |_| true, |t| out.push(t.clone()));
        out
    }

    /// Every table of `html` as the scan reads it: rows by line, cells by
    /// text, kind and span, and whether the table ended.
    type Read = Vec<(u32, Vec<(u32, Vec<(String, bool, u16)>)>, bool)>;

    /// With `chunks`, the way the parser reads an input: raw bytes checked
    /// as UTF-8 where text is kept, markup replayed from chunks. Without,
    /// the plainest reading: decoded text, every tag read.
    fn read(html: &str, chunks: bool, keep: bool) -> Read {
        let tokens = if chunks {
            Tokenizer::from_bytes(html.as_bytes())
        } else {
            Tokenizer::new(html).without_chunks()
        };
        let mut out = Vec::new();
        let summary = scan_with(
            html.as_bytes(),
            tokens,
            |_| keep,
            |t| {
                let rows = t
                    .rows()
                    .map(|r| {
                        let cells = r.cells.iter();
                        let cells = cells.map(|c| (c.text.to_string(), c.header, c.colspan));
                        (r.line, cells.collect())
                    })
                    .collect();
                out.push((t.line, rows, t.complete));
            },
        );
        assert!(summary.is_some(), "text is UTF-8");
        out
    }

    /// Markup between cells replayed from a chunk read before gives the
    /// rows, cells and lines that reading it tag by tag gives, and in
    /// tables whose text is not kept, the same tables (whether a table
    /// after it opens inside a cell): every arrangement of up to four
    /// pieces (cell and row tags in both cases, with and without
    /// attributes, empty ones, text, newlines, an entity, other tags, a
    /// heading, which ends the skipping), three times over in one table so
    /// that the later copies meet the chunks the first one left, in tables
    /// of one and of several columns.
    #[test]
    fn replayed_chunks_read_as_the_tags_read_one_by_one() {
        let pieces = [
            "<tr>",
            "</tr>",
            "<td>",
            "</td>",
            "<TD class='a'>",
            "<td class='b'>",
            "<th colspan=2>",
            "</th>",
            "<td/>",
            "<tr/>",
            "x",
            "\n",
            "&nbsp;",
            "<b>",
            "<h3>",
        ];
        let n = pieces.len();
        let mut docs = 0;
        for len in 1..=4u32 {
            for mut k in 0..n.pow(len) {
                let mut seq = String::new();
                for _ in 0..len {
                    seq.push_str(pieces.get(k % n).copied().unwrap_or_default());
                    k /= n;
                }
                for (head, keep) in [
                    ("<table><tr><td>1", true),
                    ("<table><tr><td>1</td><td>2</td><td>3", true),
                    ("<table><tr><td>1</td><td>2</td><td>3", false),
                ] {
                    let html = format!(
                        "{head}{seq}{seq}y{seq}z<table><tr><td>n</table></td></tr></table>\
                         <table><tr><td>k</table>"
                    );
                    let (replayed, plain) = (read(&html, true, keep), read(&html, false, keep));
                    assert_eq!(replayed, plain, "{html:?}");
                    docs += 1;
                }
            }
        }
        assert!(docs > 150_000, "{docs}");
    }

    /// Text checked as UTF-8 span by span (the spans growing along a kept
    /// table, a character at every place a span may end) reads as the
    /// decoded text does; bytes that are not UTF-8 stop the scan where
    /// text is kept, and nowhere else.
    #[test]
    fn bytes_checked_where_text_is_kept_read_as_the_decoded_text() {
        let mut html = String::from("<h3>Wait \u{4e2d}\u{6587}</h3><table>");
        for i in 0..3_000 {
            let pad = "x".repeat(i % 17);
            html.push_str(&format!(
                "<tr><td class='a'>caf\u{e9}{pad}</td><td>{i} \u{1f600}</td><td>\u{4e2d}&nbsp;\u{6587}{pad}</td></tr>\n"
            ));
        }
        html.push_str("</table><p>\u{e9}t\u{e9}</p><table><tr><td>\u{4e2d}</td></tr></table>");
        for keep in [true, false] {
            assert_eq!(read(&html, true, keep), read(&html, false, keep));
        }
        let gbk = |cell: &[u8]| {
            let mut b =
                b"<h3>Kept</h3><table><tr><td>a</td></tr></table><h3>Skipped</h3><table><tr><td>"
                    .to_vec();
            b.extend_from_slice(cell);
            b.extend_from_slice(b"</td></tr></table>");
            b
        };
        let bad = gbk(b"\xd6\xd0\xce\xc4");
        let keep = |title: &str| title == "Kept";
        let mut read = Vec::new();
        assert!(scan_bytes(&bad, keep, |t| read.push(t.rows().count())).is_some());
        assert_eq!(read, [1, 0], "both tables, the rows of the kept one");
        assert!(scan_bytes(&bad, |_| true, |_| {}).is_none());
        assert!(scan_bytes(&gbk(b"ok"), |_| true, |_| {}).is_some());
    }

    #[test]
    fn unclosed_cells_and_rows_are_closed_like_a_browser_does() {
        let t = tables("<p>Load Profile<p><TABLE><TR><TD>a<TD>b<TR><TD>c</TABLE>");
        assert_eq!(t.len(), 1);
        assert_eq!(&*t[0].title, "Load Profile");
        let rows: Vec<Vec<&str>> = t[0]
            .rows()
            .map(|r| r.cells.iter().map(|c| c.text.as_ref()).collect())
            .collect();
        assert_eq!(rows, [vec!["a", "b"], vec!["c"]]);
    }

    #[test]
    fn rows_carry_their_line_and_titles_skip_list_items() {
        let html = "<h3>Top Events</h3>\n<ul><li>note</li></ul>\n<table summary=\"s &amp; t\">\n<tr><th>A</th></tr>\n<tr><td>x&nbsp;&#160; y</td></tr>\n</table>";
        let t = tables(html);
        assert_eq!(&*t[0].title, "Top Events");
        assert_eq!(t[0].summary(), "s & t");
        assert_eq!(t[0].row(1).unwrap().line, 5);
        assert_eq!(t[0].row(1).unwrap().cells[0].text, "x y");
    }

    /// Anchors and other tags the scanner has no use for are passed over
    /// inside the tokenizer, and blank text before a block's first words
    /// is not handed out: titles read as before, with the space a tag or
    /// a blank run leaves between two words, and a blank block still does
    /// not hide the text before it.
    #[test]
    fn titles_read_through_anchors_and_blank_text() {
        let html = "<p />\n  <a class=\"awr\" name=\"7400\"></a>\n Load <b>Profile</b>\n<table><tr><td>1</td></tr></table>\
                    <p>Wait<a href=\"#x\">\n</a>Classes<br/>by\ttime<p/><table></table>\
                    <p>Kept</p>\n \t<p>\n</p><a name=\"y\"></a> <table></table>";
        let titles: Vec<String> = tables(html).iter().map(|t| t.title.to_string()).collect();
        assert_eq!(titles, ["Load Profile", "Wait Classes by time", "Kept"]);
    }

    #[test]
    fn a_heading_closes_a_table_left_open() {
        let t = tables(
            "<p>One<table><tr><td>1</td></tr><h3>Two</h3><table><tr><td>2</td></tr></table>",
        );
        let titles: Vec<&str> = t.iter().map(|t| &*t.title).collect();
        assert_eq!(titles, ["One", "Two"]);
        assert!(t.iter().all(|t| t.complete));
    }

    #[test]
    fn the_common_references_read_as_resolve_entity_reads_them() {
        for &(name, c) in tokens::COMMON_REFS {
            let name = std::str::from_utf8(name).unwrap();
            let bare = name.strip_suffix(';').unwrap();
            assert_eq!(resolve_entity(bare), Some(c), "{name}");
        }
    }

    /// Entities read inside the cell loop, and the space of a `&nbsp;`
    /// held back until text follows, give the text the collapsing of the
    /// whole cell gives.
    #[test]
    fn entities_in_cells_read_as_the_collapsed_text() {
        let cells = [
            "&nbsp;",
            "&#160;",
            "&nbsp;&nbsp;",
            "12&nbsp;",
            "12&#160;&#160;",
            "&nbsp;12",
            "12&nbsp;34",
            "12 &nbsp; 34",
            "12&nbsp;&amp;&nbsp;34",
            "a&lt;b&gt;c",
            "&amp;",
            " \n &nbsp;12 ",
            "12&unknown;34",
            "12 & 34",
            "12 &amp 34",
            "&#x41;&#66;",
            "&#9;12&#9;",
            "\u{3000}&nbsp;x",
            "x&nbsp;\u{b}",
            "db\u{c}file \t\r\n sequential  read",
        ];
        for c in cells {
            let html = format!("<table><tr><td>{c}</td><td>{c}<td>z</table>");
            let t = tables(&html);
            let naive = c
                .replace("&nbsp;", " ")
                .replace("&#160;", " ")
                .replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&#x41;", "A")
                .replace("&#66;", "B")
                .replace("&#9;", "\t");
            let want = collapse(&naive);
            let row = t.first().and_then(|t| t.row(0)).map(|r| r.cells);
            let got: Vec<&str> = row.into_iter().flatten().map(|c| c.text.as_ref()).collect();
            assert_eq!(got, [want.as_str(), want.as_str(), "z"], "cell {c:?}");
            // What `normalize` counts on to leave an HTML report's event
            // and statistic names as they are.
            for g in got {
                assert!(
                    matches!(crate::names::collapse(g), Cow::Borrowed(_)),
                    "cell {c:?}"
                );
            }
        }
    }

    /// The line of every offset of a text of mixed lines, asked in
    /// increasing order, with repeats and an offset past the end.
    #[test]
    fn lines_count_the_newlines_before_an_offset() {
        let mut text = Vec::new();
        for i in 0..300 {
            text.extend(std::iter::repeat_n(b'x', i % 70));
            text.push(if i % 7 == 0 { b'\r' } else { b'\n' });
        }
        let mut lines = Lines::new(&text);
        for pos in (0..text.len() + 5).step_by(3) {
            let want = 1 + text.iter().take(pos).filter(|&&b| b == b'\n').count();
            assert_eq!(lines.at(pos) as usize, want, "at {pos}");
            assert_eq!(lines.at(pos) as usize, want, "again at {pos}");
            assert_eq!(
                lines.at(pos.saturating_sub(2)) as usize,
                want,
                "before {pos}"
            );
        }
    }

    #[test]
    fn unwanted_tables_keep_structure_but_no_text() {
        let html = "<p>Skip me<table><tr><td>a &amp; b</td><td><table><tr><td>in</td></tr></table></td></tr></table>\
<p>Keep<table><tr><td>x&#32;&lt;y&gt;&bogus;</td></tr></table>";
        let mut out = Vec::new();
        scan(html, |t| t != "Skip me", |t| out.push(t.clone()));
        let summary: Vec<(&str, usize)> = out.iter().map(|t| (&*t.title, t.rows().len())).collect();
        assert_eq!(summary, [("Skip me", 0), ("Skip me", 0), ("Keep", 1)]);
        let kept: Vec<bool> = out.iter().map(|t| t.kept).collect();
        assert_eq!(kept, [false, false, true]);
        assert_eq!(out[2].row(0).unwrap().cells[0].text, "x <y>&bogus;");
    }

    #[test]
    fn markup_inside_quotes_comments_and_cdata_is_not_a_tag() {
        let html = "<!DOCTYPE html><!-- <table> --><p>T<table summary='a > b'><tr>\
<td><![CDATA[<td>]]></td><td title=\"</td>\">2</td></tr></table><?pi <td> ?>";
        let t = tables(html);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].summary(), "a > b");
        let cells: Vec<&str> = t[0]
            .row(0)
            .unwrap()
            .cells
            .iter()
            .map(|c| c.text.as_ref())
            .collect();
        assert_eq!(cells, ["<td>", "2"]);
    }

    #[test]
    fn a_report_cut_inside_a_tag_ends_with_a_note_on_its_last_line() {
        let mut out = Vec::new();
        let s = scan(
            "<p>T<table><tr><td>1</td>\n<td cl",
            |_| true,
            |t| out.push(t.clone()),
        );
        assert_eq!(s.lines, 2);
        assert_eq!(s.notes.len(), 1);
        assert_eq!(s.notes[0].line, 2);
        assert!(
            s.notes[0].message.contains("tag not closed"),
            "{:?}",
            s.notes
        );
        assert!(!out[0].complete);
        assert_eq!(out[0].row(0).unwrap().cells.len(), 1);
    }

    #[test]
    fn a_quoted_gt_past_the_first_bytes_of_a_long_tag_does_not_end_it() {
        // The quote opens inside the bytes read one by one and closes after.
        let pad = "x".repeat(40);
        for keep in [true, false] {
            let html = format!(
                "<p>T<table><tr><td title=\"{pad} > <td>\">1</td><td>2</td></tr></table><p>U<table><tr><td>3</td></tr></table>"
            );
            let mut out = Vec::new();
            scan(&html, |t| keep || t == "U", |t| out.push(t.clone()));
            let cells: Vec<usize> = out
                .iter()
                .map(|t| t.rows().map(|r| r.cells.len()).sum())
                .collect();
            assert_eq!(cells, if keep { [2, 1] } else { [0, 1] });
        }
    }

    #[test]
    fn a_heading_inside_an_unkept_table_still_closes_it() {
        let mut out = Vec::new();
        scan(
            "<p>Skip<table><tr><td><b>x</b><h3>Keep</h3><table><tr><td>1</td></tr></table>",
            |t| t == "Keep",
            |t| out.push(t.clone()),
        );
        let got: Vec<(&str, usize, bool)> = out
            .iter()
            .map(|t| (&*t.title, t.rows().len(), t.complete))
            .collect();
        assert_eq!(got, [("Skip", 0, true), ("Keep", 1, true)]);
    }

    #[test]
    fn is_blank_is_trim_leaving_nothing() {
        for s in [
            "",
            " ",
            "\n\t ",
            "\u{a0}",
            " \u{a0}\n",
            "\u{2003}",
            "\x0b",
            "\x0c",
            " x",
            "\n\u{a0}x",
            "é",
            " \u{85}",
            "\u{200b}",
            "\x1f",
            "\0",
        ] {
            assert_eq!(is_blank(s), s.trim().is_empty(), "{s:?}");
        }
    }

    /// `collapse` reads ASCII text by bytes: it splits where the reading
    /// by characters splits, for every ASCII byte.
    #[test]
    fn collapse_of_ascii_text_splits_where_characters_split() {
        let by_chars = |s: &str| {
            s.split(|c: char| c.is_whitespace() || c == '\u{a0}')
                .filter(|w| !w.is_empty())
                .collect::<Vec<_>>()
                .join(" ")
        };
        for b in 0..128u8 {
            let c = char::from(b);
            for s in [
                format!("a{c}b"),
                format!("{c}{c}ab{c}"),
                format!("x {c} y{c}{c}z"),
                c.to_string(),
            ] {
                assert_eq!(collapse(&s), by_chars(&s), "{s:?}");
            }
        }
        let mut buf = String::from("left over");
        collapse_into(&mut buf, "\n Load  Profile\r\n");
        assert_eq!(buf, "Load Profile");
    }

    #[test]
    fn is_collapsed_says_whether_collapse_would_change_the_text() {
        let samples = [
            "",
            "1,234.5",
            "a b",
            "a  b",
            " a",
            "a ",
            "a\tb",
            "a\u{a0}b",
            "\u{a0}",
            "abcdefgh",
            "abcdefghi",
            "abcdefgh ",
            "abcdefg\nijk",
            "db file sequential read",
            "12345678901234567890",
            "1234567890123456789\u{7f}",
            // A vertical tab is whitespace to `collapse`, not to
            // `u8::is_ascii_whitespace`.
            "a \u{b}",
            "a\u{b}b",
            "\u{b}a",
            "a\u{c}",
        ];
        for s in samples {
            assert_eq!(is_collapsed(s), collapse(s) == s, "{s:?}");
        }
        // Two marks in every pair of places of names up to 20 bytes (the
        // words checked 8 bytes at a time and the bytes after them).
        for len in 0..=20 {
            for i in 0..len {
                for j in i..len {
                    for (a, b) in [
                        (b' ', b' '),
                        (b' ', b'\t'),
                        (b' ', 0x01),
                        (b' ', 0x0b),
                        (0x1f, b' '),
                        (b' ', 0x7f),
                        (b'\n', b'x'),
                    ] {
                        let mut bytes = vec![b'a'; len];
                        if let Some(x) = bytes.get_mut(i) {
                            *x = a;
                        }
                        if let Some(x) = bytes.get_mut(j) {
                            *x = b;
                        }
                        let s = String::from_utf8(bytes).unwrap_or_default();
                        assert_eq!(is_collapsed(&s), collapse(&s) == s, "{s:?}");
                    }
                }
            }
        }
    }

    /// Every byte value in every place of runs up to 20 bytes long (the
    /// short runs read as two overlapping halves, the long ones a word at a
    /// time with an overlapping last word).
    #[test]
    fn all_visible_ascii_is_the_bytes_from_0x21_to_0x7f() {
        let plain = |b: &[u8]| b.iter().all(|&c| (0x21..0x80).contains(&c));
        for len in 0..=20 {
            let base = vec![b'a'; len];
            assert!(all_visible_ascii(&base));
            for at in 0..len {
                for v in 0..=255u8 {
                    let mut b = base.clone();
                    if let Some(x) = b.get_mut(at) {
                        *x = v;
                    }
                    assert_eq!(all_visible_ascii(&b), plain(&b), "{b:?}");
                }
            }
        }
    }

    #[test]
    fn colspan_is_read_from_unquoted_attributes() {
        let t = tables("<table><tr><TH colSpan=3>P</TH></tr></table>");
        assert_eq!(t[0].row(0).unwrap().cells[0].colspan, 3);
    }
}
