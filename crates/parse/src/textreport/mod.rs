//! Fixed-width text reports (AWR text and Statspack): lines, sections,
//! tables and cells.
//!
//! Oracle prints both reports through SQL*Plus, so they share a layout:
//!
//! - a section starts at a title line, either a page header that names the
//!   database (`Foreground Wait Events   DB/Inst: ORCL/orcl1  Snaps: 2-3`,
//!   9i Statspack: `Wait Events for DB: X  Instance: x  Snaps: 3 -4`) or a
//!   line underlined with `~~~~` (`Load Profile`, `Top 5 Timed Events`);
//! - a long section repeats its page header (title, `->` notes, column
//!   headers) after a form feed (AWR) or without one (Statspack 10g+): every
//!   repetition is a [`Section`] of its own, and [`rows`] walks them as one;
//! - a table's columns are given by the rule of hyphens under its headers;
//!   a table may have several rules (one per line of a multi-line record:
//!   tablespace on one line, numbers on the next);
//! - a section ends with a long indented rule (54 hyphens in AWR, 61 in
//!   Statspack; other widths in 132-column reports).
//!
//! Everything here works on `&str` slices of the decoded input: no copies of
//! the text, no regular expressions.

pub mod sections;

use std::cell::OnceCell;

use awrflash_model::Warning;

use crate::num::{Num, Suffix, parse_num};
use crate::registry::{self, Slot};

/// One input line: 1-based number, text without the line end, form feeds
/// and trailing blanks.
#[derive(Debug, Clone, Copy)]
pub struct Line<'a> {
    pub no: u32,
    pub text: &'a str,
}

impl<'a> Line<'a> {
    pub fn is_blank(&self) -> bool {
        self.text.trim().is_empty()
    }

    /// A `->` note under a section title.
    pub fn is_note(&self) -> bool {
        self.text.trim_start().starts_with("->")
    }
}

/// Splits the text into lines (LF, CRLF or lone CR), dropping form feeds.
/// Line numbers count the LFs: the lines a lone CR cuts share one. A CR
/// that ends a line (before its LF or the end of the text) is dropped.
pub fn split_lines(text: &str) -> Vec<Line<'_>> {
    split_marking(text, &[]).0
}

/// [`split_lines`], and the indices of the lines where one of the byte
/// offsets `at` (ascending) falls.
fn split_marking<'a>(text: &'a str, at: &[usize]) -> (Vec<Line<'a>>, Vec<usize>) {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(text.len() / 60 + 1);
    let mut marked = Vec::new();
    let mut at = at.iter().copied().peekable();
    // Pushes the line of `text[start..end]`, marked when an offset of `at`
    // falls in it.
    let mut push = |out: &mut Vec<Line<'a>>, no: u32, start: usize, end: usize| {
        let mut hit = false;
        while let Some(a) = at.next_if(|&a| a < end) {
            hit |= a >= start;
        }
        if hit {
            marked.push(out.len());
        }
        // Every break is an ASCII byte: its offset is a char boundary.
        out.push(Line {
            no,
            text: clean(text.get(start..end).unwrap_or_default()),
        });
    };
    let mut no: u32 = 1;
    let mut start = 0;
    // The breaks found in one pass: LF, and CR (before an LF, or alone).
    let mut breaks = memchr::memchr2_iter(b'\n', b'\r', bytes).peekable();
    while let Some(i) = breaks.next() {
        push(&mut out, no, start, i);
        start = i + 1;
        if bytes.get(i) == Some(&b'\r') {
            match bytes.get(i + 1) {
                // CRLF: one break, the LF's.
                Some(b'\n') => {
                    breaks.next();
                    start = i + 2;
                }
                Some(_) => continue,
                // A CR at the very end ends the last line.
                None => return (out, marked),
            }
        }
        no = no.saturating_add(1);
    }
    push(&mut out, no, start, bytes.len());
    (out, marked)
}

fn clean(s: &str) -> &str {
    s.trim_start_matches('\u{c}').trim_end()
}

/// A run of a section: from its title line to the next title line.
#[derive(Debug, Clone)]
pub struct Section<'a> {
    /// Title as printed (page-header suffix removed).
    pub title: &'a str,
    /// Line of the title.
    pub line: u32,
    /// The lines after the title. For `~~~`-underlined titles the title line
    /// and the underline are included, since they carry column headings
    /// (`Load Profile      Per Second   Per Transaction`).
    pub lines: Vec<Line<'a>>,
    /// For an underlined title: the bytes of the title line that are the
    /// title, not headings.
    pub title_end: usize,
}

/// Byte offset of `needle` in `text`, found from the positions of its
/// `pivot` byte (rare in report lines: `/` or `:`), which is far cheaper per
/// line than a general substring search.
fn find_at(text: &str, needle: &str, pivot: usize) -> Option<usize> {
    let n = needle.as_bytes();
    let p = char::from(*n.get(pivot)?);
    // `match_indices` with a char pattern runs on memchr.
    text.match_indices(p).find_map(|(i, _)| {
        let start = i.checked_sub(pivot)?;
        (text.as_bytes().get(start..start + n.len()) == Some(n)).then_some(start)
    })
}

/// What every page-header line holds (the first for AWR, the second for
/// Statspack 8i/9i): [`page_title`] reads no line without one.
const PAGE_NEEDLES: [&str; 2] = ["DB/Inst:", " for DB: "];

/// Title of a page-header line, if the line is one.
fn page_title(text: &str) -> Option<&str> {
    if let Some(i) = find_at(text, "DB/Inst:", 2) {
        let rest = text.get(i..).unwrap_or("");
        if rest.contains("Snap") {
            return text.get(..i).map(str::trim);
        }
    }
    // Statspack 8i/9i: `Wait Events for DB: ORAKIC  Instance: orakic  Snaps: 3 -4`.
    if let Some(i) = find_at(text, " for DB: ", 7) {
        let rest = text.get(i..).unwrap_or("");
        if rest.contains("Instance:") && rest.contains("Snap") {
            return text.get(..i).map(str::trim);
        }
    }
    None
}

/// False for most lines, which cannot start with `~` once trimmed: the
/// first byte past the ASCII blanks is neither a tilde nor the start of a
/// character that may be Unicode whitespace.
fn may_be_underline(line: &str) -> bool {
    match line.bytes().find(|b| !matches!(b, b'\t'..=b'\r' | b' ')) {
        Some(b'~') => true,
        Some(c) => c >= 0x80,
        None => false,
    }
}

/// Title of a line underlined by `~~~`: the part above the tildes.
fn tilde_title<'a>(text: &'a str, next: &str) -> Option<(&'a str, usize)> {
    if !may_be_underline(next) {
        return None;
    }
    let body = next.trim_start();
    let lead = next.len() - body.len();
    if !body.starts_with("~~~") {
        return None;
    }
    let run = body.bytes().take_while(|&b| b == b'~').count();
    let mut end = (lead + run).min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let title = text.get(..end).unwrap_or(text).trim();
    if title.is_empty() {
        None
    } else {
        Some((title, end))
    }
}

/// Splits the lines into sections. Lines before the first title (the
/// report header) are returned as a section titled `""`. Page headers are
/// looked for only on the lines `may_be_page_header` lets through (asked
/// in order; [`Doc::new`] lets through those holding a [`PAGE_NEEDLES`]).
pub fn sections<'a>(
    lines: &[Line<'a>],
    mut may_be_page_header: impl FnMut(usize) -> bool,
) -> Vec<Section<'a>> {
    let mut out = Vec::new();
    let mut cur = Section {
        title: "",
        line: 1,
        lines: Vec::new(),
        title_end: 0,
    };
    let mut i = 0;
    while let Some(l) = lines.get(i) {
        if let Some(t) = may_be_page_header(i).then(|| page_title(l.text)).flatten() {
            out.push(std::mem::replace(
                &mut cur,
                Section {
                    title: t,
                    line: l.no,
                    lines: Vec::new(),
                    title_end: 0,
                },
            ));
        } else if let Some((t, end)) = lines.get(i + 1).and_then(|n| tilde_title(l.text, n.text)) {
            out.push(std::mem::replace(
                &mut cur,
                Section {
                    title: t,
                    line: l.no,
                    lines: vec![*l],
                    title_end: end,
                },
            ));
        } else {
            cur.lines.push(*l);
        }
        i += 1;
    }
    out.push(cur);
    out
}

/// Title comparison: case, repeated blanks and a trailing colon ignored.
pub fn same_title(a: &str, b: &str) -> bool {
    // Titles that differ in their first byte (most of the pairs compared)
    // differ as words: a first word equal to the other's once colons are
    // cut from its end starts with the same byte, in either case.
    let first = |s: &str| {
        s.trim_start()
            .bytes()
            .next()
            .map(|b| b.to_ascii_lowercase())
    };
    if first(a) != first(b) {
        return false;
    }
    let mut x = a.split_whitespace();
    let mut y = b.split_whitespace();
    loop {
        match (x.next(), y.next()) {
            (None, None) => return true,
            (Some(p), Some(q)) => {
                if !p
                    .trim_end_matches(':')
                    .eq_ignore_ascii_case(q.trim_end_matches(':'))
                {
                    return false;
                }
            }
            _ => return false,
        }
    }
}

/// A column: byte range of its hyphen run in the rule line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// A rule line of hyphens (and `~` for underlined titles).
pub fn is_rule(text: &str) -> bool {
    let t = text.trim();
    // Most lines fail on their first byte, before the search for `--`.
    matches!(t.as_bytes().first(), Some(b'-' | b'~'))
        && t.contains("--")
        && t.bytes().all(|b| matches!(b, b'-' | b'~' | b' '))
}

/// The indented rule closing a section: one long run of hyphens.
fn is_end_rule_shape(text: &str) -> bool {
    let t = text.trim_start();
    let indent = text.len() - t.len();
    indent >= 8 && t.len() >= 40 && t.bytes().all(|b| b == b'-')
}

/// Column spans of a rule line (runs of `-`, and of `~` when wanted).
pub fn rule_spans(text: &str, with_tilde: bool) -> Vec<Span> {
    let mut spans = Vec::new();
    let mut start: Option<(usize, u8)> = None;
    for (i, b) in text.bytes().enumerate() {
        let col = b == b'-' || (with_tilde && b == b'~');
        match start {
            Some((s, c)) if !col || b != c => {
                spans.push(Span { start: s, end: i });
                start = if col { Some((i, b)) } else { None };
            }
            None if col => start = Some((i, b)),
            _ => {}
        }
    }
    if let Some((s, _)) = start {
        spans.push(Span {
            start: s,
            end: text.len(),
        });
    }
    spans
}

/// Whitespace-separated tokens with their byte ranges.
pub fn tokens(text: &str) -> impl Iterator<Item = (usize, usize)> + '_ {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let s = i;
        while bytes.get(i).is_some_and(|b| !b.is_ascii_whitespace()) {
            i += 1;
        }
        Some((s, i))
    })
}

/// How well a token at `[s, e)` fits a span: its overlap, else its
/// distance as a negative score.
fn fit(sp: Span, s: usize, e: usize) -> i64 {
    let overlap = e.min(sp.end) as i64 - s.max(sp.start) as i64;
    if overlap > 0 {
        overlap * 1000
    } else {
        -(s.max(sp.start) as i64 - e.min(sp.end) as i64)
    }
}

/// Which span a token at `[s, e)` belongs to: the one it overlaps most,
/// else the nearest (numbers overflowing a narrow column, right-aligned
/// labels ending past their rule); the first of equals.
#[cfg(test)]
fn span_of(spans: &[Span], s: usize, e: usize) -> Option<usize> {
    let mut best: Option<(usize, i64)> = None;
    for (k, sp) in spans.iter().enumerate() {
        let score = fit(*sp, s, e);
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((k, score));
        }
    }
    best.map(|(k, _)| k)
}

/// [`span_of`] for the tokens of one line in order, over the spans of a
/// rule (in order, none overlapping: [`rule_spans`]). `next` is the first
/// span ending after the last token's start (0 for a line's first token):
/// a span before the one just before it lies further from the token, and
/// so does a span after the first one starting at or past the token's
/// end, so only the spans in between are scored.
fn span_near(spans: &[Span], s: usize, e: usize, next: &mut usize) -> Option<usize> {
    while spans.get(*next).is_some_and(|sp| sp.end <= s) {
        *next += 1;
    }
    let mut best: Option<(usize, i64)> = None;
    let mut k = next.saturating_sub(1);
    while let Some(&sp) = spans.get(k) {
        let score = fit(sp, s, e);
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((k, score));
        }
        if sp.start >= e {
            break;
        }
        k += 1;
    }
    best.map(|(k, _)| k)
}

/// The cells of a data line under `spans`: the text from the first to the
/// last token assigned to each column (inner blanks kept: `enq: IV -  contention`).
/// Tokens before byte `from` are ignored (a label already read).
pub fn cells_from<'a>(text: &'a str, spans: &[Span], from: usize) -> Vec<&'a str> {
    // Each column's first and last token, on the stack for the widths
    // reports print.
    let mut stack = [None; 24];
    let mut heap;
    let first: &mut [Option<(usize, usize)>] = match stack.get_mut(..spans.len()) {
        Some(f) => f,
        None => {
            heap = vec![None; spans.len()];
            &mut heap
        }
    };
    let mut next = 0;
    for (s, e) in tokens(text) {
        if s < from {
            continue;
        }
        if let Some(k) = span_near(spans, s, e, &mut next)
            && let Some(slot) = first.get_mut(k)
        {
            *slot = Some(match *slot {
                Some((a, _)) => (a, e),
                None => (s, e),
            });
        }
    }
    first
        .iter()
        .map(|r| r.and_then(|(a, b)| text.get(a..b)).unwrap_or(""))
        .collect()
}

pub fn cells<'a>(text: &'a str, spans: &[Span]) -> Vec<&'a str> {
    cells_from(text, spans, 0)
}

/// One rule of a table header, with the column headings above it.
#[derive(Debug, Clone)]
pub struct Rule {
    pub line: u32,
    pub spans: Vec<Span>,
    /// Lowercase heading words per column, lines joined by a space
    /// (`total wait time (s)`, `%time -outs`).
    pub names: Vec<String>,
}

impl Rule {
    /// First column whose heading satisfies `pred`.
    pub fn col(&self, pred: impl Fn(&str) -> bool) -> Option<usize> {
        self.names.iter().position(|n| pred(n))
    }

    /// Like [`Rule::col`] but never column 0 (the row name, whose heading
    /// may hold the words of an underlined section title).
    pub fn data_col(&self, pred: impl Fn(&str) -> bool) -> Option<usize> {
        self.names
            .iter()
            .skip(1)
            .position(|n| pred(n))
            .map(|i| i + 1)
    }
}

/// A table: its header rules (in order) and the lines under the last one.
/// Rows keep blank lines: they separate records in some sections.
#[derive(Debug, Clone)]
pub struct Table<'a> {
    pub rules: Vec<Rule>,
    pub rows: Vec<Line<'a>>,
}

impl Table<'_> {
    /// The rule the data lines follow (the last of the header).
    pub fn rule(&self) -> Option<&Rule> {
        self.rules.last()
    }
}

/// Title words to leave out of the headings: (line, end byte).
type TitleCut = Option<(u32, usize)>;

fn make_rule(rule: &Line<'_>, header: &[Line<'_>], cut: TitleCut) -> Rule {
    let spans = rule_spans(rule.text, true);
    let mut names = vec![String::new(); spans.len()];
    for h in header {
        let mut next = 0;
        for (s, e) in tokens(h.text) {
            if cut.is_some_and(|(no, end)| no == h.no && e <= end) {
                continue;
            }
            let Some(word) = h.text.get(s..e) else {
                continue;
            };
            if word.bytes().all(|b| b == b'~' || b == b'-') {
                continue;
            }
            if let Some(k) = span_near(&spans, s, e, &mut next)
                && let Some(n) = names.get_mut(k)
            {
                if !n.is_empty() {
                    n.push(' ');
                }
                n.push_str(&word.to_ascii_lowercase());
            }
        }
    }
    Rule {
        line: rule.no,
        spans,
        names,
    }
}

/// Splits a section's lines into tables.
pub fn tables<'a>(lines: &[Line<'a>], cut: TitleCut) -> Vec<Table<'a>> {
    let mut out: Vec<Table<'a>> = Vec::new();
    let mut cur: Option<Table<'a>> = None;
    // Lines seen since the last rule or blank, outside any table (header candidates).
    let mut loose: Vec<Line<'a>> = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let next_blank = lines.get(i + 1).is_none_or(|n| n.is_blank());
        if is_end_rule_shape(l.text) && next_blank {
            if let Some(t) = cur.take() {
                out.push(t);
            }
            loose.clear();
            continue;
        }
        if is_rule(l.text) {
            match cur.as_mut() {
                // Header lines since the table's last rule, no blank between:
                // one more rule of a multi-line header.
                Some(t)
                    if t.rows.len() <= 4
                        && t.rows.iter().all(|r| !r.is_blank() && !r.is_note()) =>
                {
                    let header = std::mem::take(&mut t.rows);
                    t.rules.push(make_rule(l, &header, cut));
                }
                _ => {
                    // The header is the run of non-blank lines just above.
                    let mut header: Vec<Line<'a>> = Vec::new();
                    if let Some(mut t) = cur.take() {
                        while t.rows.last().is_some_and(|r| !r.is_blank() && !r.is_note()) {
                            if let Some(r) = t.rows.pop() {
                                header.insert(0, r);
                            }
                        }
                        out.push(t);
                    } else {
                        header = std::mem::take(&mut loose);
                    }
                    cur = Some(Table {
                        rules: vec![make_rule(l, &header, cut)],
                        rows: Vec::new(),
                    });
                }
            }
            loose.clear();
            continue;
        }
        match cur.as_mut() {
            Some(t) => t.rows.push(*l),
            None => {
                if l.is_blank() || l.is_note() {
                    loose.clear();
                } else {
                    loose.push(*l);
                }
            }
        }
    }
    if let Some(t) = cur {
        out.push(t);
    }
    out
}

/// Where rows come from: section title, rule and line.
pub struct Row<'s, 'a> {
    pub section: &'s Section<'a>,
    pub rule: &'s Rule,
    /// All rules of the row's table (multi-line records use the earlier ones).
    pub rules: &'s [Rule],
    pub line: Line<'a>,
}

/// A report cut into sections; a section's tables are split on first use,
/// so sections no mapping reads (SQL text, latches) cost one pass of title
/// detection only.
pub struct Doc<'a> {
    pub sections: Vec<Section<'a>>,
    tables: Vec<OnceCell<Vec<Table<'a>>>>,
    /// Each section's title with its [`registry::key`].
    keyed: Vec<(&'a str, String)>,
    /// Each section's [`title_words`].
    words: Vec<String>,
}

/// A title's words, colons cut from their ends, in lowercase, each
/// followed by a space: equal for two titles exactly when [`same_title`]
/// holds (the words hold no blank, so cutting at the spaces gives them
/// back, a word left empty by its colons included).
fn title_words(title: &str) -> String {
    let mut out = String::with_capacity(title.len() + 1);
    for w in title.split_whitespace() {
        out.push_str(w.trim_end_matches(':'));
        out.push(' ');
    }
    out.make_ascii_lowercase();
    out
}

impl<'a> Doc<'a> {
    pub fn new(text: &'a str) -> (Vec<Line<'a>>, Self) {
        // The page headers' needles found in one pass over the text, not
        // looked for line by line.
        let mut hits: Vec<usize> = PAGE_NEEDLES
            .iter()
            .flat_map(|n| memchr::memmem::find_iter(text.as_bytes(), n.as_bytes()))
            .collect();
        hits.sort_unstable();
        let (lines, marked) = split_marking(text, &hits);
        let mut marked = marked.into_iter().peekable();
        let sections = sections(&lines, |i| {
            while marked.next_if(|&m| m < i).is_some() {}
            marked.next_if_eq(&i).is_some()
        });
        let tables = sections.iter().map(|_| OnceCell::new()).collect();
        let keyed = sections
            .iter()
            .map(|s| (s.title, registry::key(s.title)))
            .collect();
        let words = sections.iter().map(|s| title_words(s.title)).collect();
        (
            lines,
            Doc {
                sections,
                tables,
                keyed,
                words,
            },
        )
    }

    /// The tables of section `i` (split on first use).
    pub fn tables(&self, i: usize) -> &[Table<'a>] {
        match (self.sections.get(i), self.tables.get(i)) {
            (Some(s), Some(cell)) => cell.get_or_init(|| {
                let cut = (s.title_end > 0).then_some((s.line, s.title_end));
                tables(&s.lines, cut)
            }),
            _ => &[],
        }
    }

    /// The title under which the report prints the section of `slot`
    /// (see [`crate::registry`]).
    pub fn title(&self, slot: Slot) -> Option<&'a str> {
        registry::pick(slot, &self.keyed)
    }

    /// [`Doc::rows`] of the section of `slot`; none when it is not printed.
    pub fn slot_rows<'s>(&'s self, slot: Slot) -> Vec<Row<'s, 'a>> {
        self.title(slot).map(|t| self.rows(t)).unwrap_or_default()
    }

    /// [`Doc::labelled_rows`] of the section of `slot`.
    pub fn slot_labelled_rows<'s>(&'s self, slot: Slot) -> Vec<(Row<'s, 'a>, &'a str, usize)> {
        self.title(slot)
            .map(|t| self.labelled_rows(t))
            .unwrap_or_default()
    }

    /// First section titled exactly `title` (see [`same_title`]).
    pub fn first(&self, title: &str) -> Option<&Section<'a>> {
        let words = title_words(title);
        self.sections
            .iter()
            .zip(&self.words)
            .find_map(|(s, w)| (*w == words).then_some(s))
    }

    /// Every table row (blank lines included) of the sections titled
    /// `title`: the first run of such sections and its page-header repeats.
    /// Rows of a `Label:   value value` table (Load Profile, IO Profile):
    /// each with its label and the offset where its values start, up to the
    /// first blank line after a labelled row.
    pub fn labelled_rows<'s>(&'s self, title: &str) -> Vec<(Row<'s, 'a>, &'a str, usize)> {
        let mut out = Vec::new();
        for row in self.rows(title) {
            if row.line.is_blank() {
                if out.is_empty() {
                    continue;
                }
                break;
            }
            if let Some((name, off)) = label(row.line.text) {
                out.push((row, name, off));
            }
        }
        out
    }

    pub fn rows<'s>(&'s self, title: &str) -> Vec<Row<'s, 'a>> {
        let mut out = Vec::new();
        let mut started = false;
        let words = title_words(title);
        for (i, (s, w)) in self.sections.iter().zip(&self.words).enumerate() {
            if *w == words {
                started = true;
                for t in self.tables(i) {
                    if let Some(rule) = t.rule() {
                        for l in &t.rows {
                            out.push(Row {
                                section: s,
                                rule,
                                rules: &t.rules,
                                line: *l,
                            });
                        }
                    }
                }
            } else if started && !s.title.is_empty() {
                break;
            }
        }
        out
    }
}

/// Reads numbers and collects warnings for cells that cannot be read.
#[derive(Debug, Default)]
pub struct Ctx {
    pub warnings: Vec<Warning>,
}

impl Ctx {
    /// A number cell; `######` and text become `None` with a warning.
    pub fn num(&mut self, cell: &str, section: &str, line: u32) -> Option<f64> {
        self.num_with(cell, Suffix::Decimal, section, line)
    }

    pub fn num_with(
        &mut self,
        cell: &str,
        suffix: Suffix,
        section: &str,
        line: u32,
    ) -> Option<f64> {
        match parse_num(cell, suffix) {
            Num::Value(v) => Some(v),
            Num::Empty => None,
            Num::Overflow => {
                self.warnings.push(Warning::new(
                    section,
                    line,
                    format!("value {cell:?} overflowed its column; read as null"),
                ));
                None
            }
            Num::Invalid => {
                self.warnings.push(Warning::new(
                    section,
                    line,
                    format!("expected a number, got {cell:?}"),
                ));
                None
            }
        }
    }

    /// A data volume in MB (`140M`, `2.8G`, `.039M`, `512K`; no suffix = MB).
    pub fn mb(&mut self, cell: &str, section: &str, line: u32) -> Option<f64> {
        self.num_with(cell, Suffix::Binary, section, line).map(|v| {
            if has_unit_suffix(cell) {
                v / (1024.0 * 1024.0)
            } else {
                v
            }
        })
    }

    /// A duration in ms: `109.72us`, `15.94ms`, `1.02s`, `3.1ns`, or a bare
    /// number in `default_ms` units (1.0 for a column headed `(ms)`).
    pub fn ms(&mut self, cell: &str, default_ms: f64, section: &str, line: u32) -> Option<f64> {
        let c = cell.trim();
        let (body, scale) = if let Some(b) = c.strip_suffix("us") {
            (b, 0.001)
        } else if let Some(b) = c.strip_suffix("ns") {
            (b, 0.000_001)
        } else if let Some(b) = c.strip_suffix("ms") {
            (b, 1.0)
        } else if let Some(b) = c.strip_suffix('s') {
            (b, 1000.0)
        } else if let Some(b) = c.strip_suffix('m') {
            (b, 60_000.0)
        } else {
            (c, default_ms)
        };
        // Round away the binary noise of the unit scaling (113.87us).
        self.num(body, section, line)
            .map(|v| ((v * scale) * 1e9).round() / 1e9)
    }
}

fn has_unit_suffix(cell: &str) -> bool {
    matches!(
        cell.trim().as_bytes().last(),
        Some(b'K' | b'k' | b'M' | b'G' | b'T' | b'P')
    )
}

/// Splits `label: value ...` at the first colon that ends a word; returns
/// the label (trimmed) and the byte offset after the colon.
pub fn label(text: &str) -> Option<(&str, usize)> {
    let b = text.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b':' && b.get(i + 1).is_none_or(|n| *n == b' ') {
            let l = text.get(..i)?.trim();
            if l.is_empty() {
                return None;
            }
            return Some((l, i + 1));
        }
    }
    None
}

/// `label: v1 v2  Other label: v3` pairs on one line (Cache Sizes, Instance CPU).
pub fn label_values(text: &str) -> Vec<(String, Vec<&str>)> {
    let mut out: Vec<(String, Vec<&str>)> = Vec::new();
    let mut words: Vec<&str> = Vec::new();
    let mut in_values = false;
    for (s, e) in tokens(text) {
        let Some(tok) = text.get(s..e) else { continue };
        let numeric = tok
            .bytes()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == b'.' || c == b'-' || c == b'#');
        if in_values && numeric {
            if let Some(last) = out.last_mut() {
                last.1.push(tok);
            }
            continue;
        }
        if in_values {
            in_values = false;
            words.clear();
        }
        if let Some(w) = tok.strip_suffix(':') {
            words.push(w);
            out.push((words.join(" "), Vec::new()));
            words.clear();
            in_values = true;
        } else {
            words.push(tok);
        }
    }
    out
}

/// `10-Jul-14` + `04:00:45` (or `31-Jan-16 00:00:03`) as ISO 8601.
pub fn iso_time(date: &str, time: &str) -> Option<String> {
    let mut p = date.split('-');
    let d: u32 = p.next()?.trim().parse().ok()?;
    let mon = month(p.next()?)?;
    let y: u32 = p.next()?.trim().parse().ok()?;
    let y = match y {
        0..=69 => 2000 + y,
        70..=99 => 1900 + y,
        _ => y,
    };
    let mut t = time.split(':');
    let h: u32 = t.next()?.parse().ok()?;
    let mi: u32 = t.next()?.parse().ok()?;
    let s: u32 = t.next().map_or(Some(0), |x| x.parse().ok())?;
    if d == 0 || d > 31 || h > 23 || mi > 59 || s > 60 {
        return None;
    }
    Some(format!("{y:04}-{mon:02}-{d:02}T{h:02}:{mi:02}:{s:02}"))
}

fn month(m: &str) -> Option<u32> {
    const M: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    let m = m.trim().to_ascii_lowercase();
    M.iter()
        .position(|x| m.starts_with(x))
        .and_then(|i| u32::try_from(i + 1).ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every line of up to five pieces (tildes, letters, ASCII and
    /// Unicode blanks, a control character that is not whitespace): none
    /// turned away starts with a tilde once trimmed.
    #[test]
    fn lines_turned_away_as_underlines_start_with_no_tilde() {
        let alphabet = [
            "~", "a", " ", "\t", "\u{b}", "\r", "\u{1c}", "\u{a0}", "\u{3000}", "\u{e9}",
        ];
        for t in awrflash_testkit::every_text(&alphabet, 5) {
            if !may_be_underline(&t) {
                assert!(!t.trim_start().starts_with('~'), "{t:?}");
            }
        }
        assert!(may_be_underline("  ~~~~~~~~~~~~"));
        assert!(!may_be_underline("  Load Profile  Per Second"));
        assert!(!may_be_underline(" \t "));
    }

    #[test]
    fn find_at_locates_needles_by_their_pivot_byte() {
        assert_eq!(find_at("Top  DB/Inst: A/a", "DB/Inst:", 2), Some(5));
        assert_eq!(find_at("x for DB: Y", " for DB: ", 7), Some(1));
        assert_eq!(find_at("no/title", "DB/Inst:", 2), None);
        assert_eq!(find_at("DB/Ins", "DB/Inst:", 2), None);
    }

    #[test]
    fn rule_spans_mark_columns_and_tilde_runs() {
        let s = rule_spans("~~~~ ------ --", true);
        assert_eq!(
            s,
            vec![
                Span { start: 0, end: 4 },
                Span { start: 5, end: 11 },
                Span { start: 12, end: 14 }
            ]
        );
        assert_eq!(rule_spans("~~~~ ------", false).len(), 1);
    }

    /// Every rule of up to six hyphens, tildes and blanks (with and
    /// without tilde runs), and every line of up to six letters, letter
    /// pairs and blanks under it: each token goes to the span `span_of`
    /// gives it when it scores every span.
    #[test]
    fn span_near_picks_the_span_of_span_of() {
        let rules = awrflash_testkit::every_text(&["-", "~", " "], 6);
        let lines = awrflash_testkit::every_text(&["a", " ", "aa"], 6);
        for rule in &rules {
            for tilde in [true, false] {
                let spans = rule_spans(rule, tilde);
                for line in &lines {
                    let mut next = 0;
                    for (s, e) in tokens(line) {
                        assert_eq!(
                            span_near(&spans, s, e, &mut next),
                            span_of(&spans, s, e),
                            "{rule:?} {line:?} {s}..{e}"
                        );
                    }
                }
            }
        }
    }

    /// Tables wider than the columns kept on the stack read the same.
    #[test]
    fn wide_tables_read_every_column() {
        for width in [1, 23, 24, 25, 40] {
            let rule = vec!["---"; width].join(" ");
            let line: Vec<String> = (0..width).map(|i| format!("{i:>3}")).collect();
            let line = line.join(" ");
            let c = cells(&line, &rule_spans(&rule, false));
            let want: Vec<String> = (0..width).map(|i| i.to_string()).collect();
            assert_eq!(c, want, "{width}");
        }
    }

    #[test]
    fn cells_keep_inner_blanks_and_follow_right_aligned_numbers() {
        let spans = rule_spans("-------------------------- ------------ -----", false);
        let c = cells("enq: IV -  contention                31     3", &spans);
        assert_eq!(c, vec!["enq: IV -  contention", "31", "3"]);
        let c = cells("x                                          ", &spans);
        assert_eq!(c, vec!["x", "", ""]);
    }

    /// `split_lines` as it cut the text at every LF, then at every CR left
    /// once the CR before the LF was stripped.
    fn split_lines_plainly(text: &str) -> Vec<(u32, &str)> {
        let mut out = Vec::new();
        for (i, raw) in text.split('\n').enumerate() {
            let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
            let raw = raw.strip_suffix('\r').unwrap_or(raw);
            for part in raw.split('\r') {
                out.push((no, clean(part)));
            }
        }
        out
    }

    /// Every text of up to six bytes from LF, CR, a form feed, a blank and
    /// a letter, and the corpus's text reports: the lines and their numbers
    /// are those of the split at every LF, then every CR.
    #[test]
    fn lines_are_those_of_the_split_at_lf_then_cr() {
        let mut texts = awrflash_testkit::every_text(&["\n", "\r", "\u{c}", " ", "a"], 6);
        if let Some(dir) = awrflash_testkit::corpus("") {
            for p in awrflash_testkit::files_below(&dir) {
                if let Ok(t) = std::fs::read_to_string(&p) {
                    texts.push(t);
                }
            }
        }
        for t in &texts {
            let got: Vec<(u32, &str)> = split_lines(t).iter().map(|l| (l.no, l.text)).collect();
            assert_eq!(got, split_lines_plainly(t), "{t:?}");
        }
    }

    /// The sections of [`Doc::new`], which looks for page headers only on
    /// the lines holding a needle, are those of looking on every line: the
    /// corpus's text reports, and page headers at the text's ends, cut by
    /// each kind of line end, with the needle at a line's end.
    #[test]
    fn page_headers_are_found_on_the_lines_holding_a_needle() {
        let header = "Wait Events  DB/Inst: A/a  Snaps: 1-2";
        let old = "Wait Events for DB: X  Instance: x  Snaps: 3 -4";
        let mut texts = vec![
            header.to_string(),
            format!("x\n{header}"),
            format!("{header}\r\nrow\r{old}\n\u{c}{old}\r"),
            "a for DB: \nInstance: Snaps\nrow DB/Inst:\nSnap".to_string(),
            format!("{header}{header}\n\n{old} DB/Inst: Snap\n"),
        ];
        if let Some(dir) = awrflash_testkit::corpus("") {
            for p in awrflash_testkit::files_below(&dir) {
                if let Ok(t) = std::fs::read_to_string(&p) {
                    texts.push(t);
                }
            }
        }
        let shape = |s: &[Section<'_>]| -> Vec<(String, u32, usize, usize)> {
            s.iter()
                .map(|s| (s.title.to_string(), s.line, s.lines.len(), s.title_end))
                .collect()
        };
        let mut titled = 0;
        for t in &texts {
            let (_, doc) = Doc::new(t);
            let every = sections(&split_lines(t), |_| true);
            assert_eq!(shape(&doc.sections), shape(&every), "{t:?}");
            titled += every.len();
        }
        assert!(titled > texts.len(), "no page header was found at all");
    }

    /// `same_title` word by word, without the first byte's shortcut.
    fn same_title_plainly(a: &str, b: &str) -> bool {
        let words = |s: &str| -> Vec<String> {
            s.split_whitespace()
                .map(|w| w.trim_end_matches(':').to_ascii_lowercase())
                .collect()
        };
        words(a) == words(b)
    }

    /// Every pair of the corpus's section titles and of variants of them
    /// (case, colons, blanks, colon-only words, non-ASCII first letters).
    #[test]
    fn same_title_compares_words() {
        let mut titles: Vec<String> = vec![
            ":".into(),
            ":: Load Profile".into(),
            ": Load Profile".into(),
            "\u{a0}Load Profile".into(),
            "Élan".into(),
            "élan".into(),
            "".into(),
        ];
        if let Some(dir) = awrflash_testkit::corpus("") {
            for p in awrflash_testkit::files_below(&dir) {
                if let Ok(t) = std::fs::read_to_string(&p) {
                    let (_, doc) = Doc::new(&t);
                    titles.extend(doc.sections.iter().map(|s| s.title.to_string()));
                }
            }
        }
        titles.sort();
        titles.dedup();
        let variants: Vec<String> = titles
            .iter()
            .flat_map(|t| {
                [
                    t.clone(),
                    t.to_uppercase(),
                    format!("  {t}:"),
                    t.replace(' ', "   "),
                    format!("{t} :"),
                ]
            })
            .collect();
        let mut equal = 0;
        for a in &variants {
            for b in &titles {
                let want = same_title_plainly(a, b);
                assert_eq!(same_title(a, b), want, "{a:?} {b:?}");
                assert_eq!(title_words(a) == title_words(b), want, "{a:?} {b:?}");
                equal += usize::from(want);
            }
        }
        assert!(
            equal >= titles.len() * 3,
            "the variants did not read as their titles"
        );
    }

    #[test]
    fn crlf_form_feeds_and_lone_cr_are_line_breaks() {
        let l = split_lines("a\r\n\u{c}b  \r\nc\rd");
        let t: Vec<&str> = l.iter().map(|l| l.text).collect();
        assert_eq!(t, vec!["a", "b", "c", "d"]);
        assert_eq!(l.get(3).map(|l| l.no), Some(3));
    }

    #[test]
    fn titles_come_from_page_headers_and_tilde_underlines() {
        let text = "Load Profile     Per Second\n~~~~~~~~~~~~     ----------\n  DB Time(s):     1.0\n\n\u{c}Wait Events for DB: X  Instance: x  Snaps: 3 -4\nrow\nTime Model Statistics    DB/Inst: A/a  Snaps: 1-2\n";
        let lines = split_lines(text);
        let s = sections(&lines, |_| true);
        let titles: Vec<&str> = s.iter().map(|s| s.title).collect();
        assert_eq!(
            titles,
            vec!["", "Load Profile", "Wait Events", "Time Model Statistics"]
        );
    }

    #[test]
    fn multi_rule_headers_stay_one_table() {
        let text = "Tablespace\n----------\n  Reads  Writes\n------- -------\nSYSTEM\n     31       5\n                          ------------------------------------------------------\n\n";
        let lines = split_lines(text);
        let t = tables(&lines, None);
        assert_eq!(t.len(), 1);
        let t = t.first().map(|t| (t.rules.len(), t.rows.len()));
        assert_eq!(t, Some((2, 2)));
    }

    #[test]
    fn durations_with_units_become_ms() {
        let mut c = Ctx::default();
        assert_eq!(c.ms("109.72us", 1.0, "s", 1), Some(0.10972));
        assert_eq!(c.ms("15.94ms", 1.0, "s", 1), Some(15.94));
        assert_eq!(c.ms("2", 1.0, "s", 1), Some(2.0));
        assert_eq!(c.ms("######", 1.0, "s", 1), None);
        assert_eq!(c.warnings.len(), 1);
    }

    #[test]
    fn iso_times_and_label_values() {
        assert_eq!(
            iso_time("10-Jul-14", "04:00:45").as_deref(),
            Some("2014-07-10T04:00:45")
        );
        let lv = label_values("  Buffer Cache:       292M       292M  Std Block Size:         8K");
        assert_eq!(
            lv,
            vec![
                ("Buffer Cache".to_string(), vec!["292M", "292M"]),
                ("Std Block Size".to_string(), vec!["8K"])
            ]
        );
    }
}
