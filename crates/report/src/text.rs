//! Terminal text at a given width (the CLI passes the terminal's, or
//! `COLUMNS`, or [`WIDTH`]), with ANSI colours on request.
//!
//! Text from the inputs loses its control characters ([`clean`]), so a name
//! holding an escape sequence cannot drive the terminal. Colour codes are
//! added after padding, so they never count toward the width. A table cell
//! too wide for its column wraps onto more lines (at `.`, `_`, `/` and
//! spaces first), so a segment name is never cut short and two names that
//! share a prefix stay apart; a source reference (`[12]`, `file:513`) is
//! never split.

use std::fmt::Write as _;

use awrflash_model::{Analysis, Severity};

use crate::tables::{self, Cell, Table};
use crate::view::{self, SrcView, View};

/// The page width when the caller has none (not a terminal, no `COLUMNS`).
pub const WIDTH: usize = 100;
/// The narrowest and widest pages rendered; a width outside is clamped.
pub const MIN_WIDTH: usize = 60;
pub const MAX_WIDTH: usize = 240;
const INDENT: &str = "  ";

pub(crate) struct Style {
    pub(crate) color: bool,
    /// Page width in columns.
    pub(crate) width: usize,
}

impl Style {
    pub(crate) fn paint(&self, code: &str, s: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }

    fn heading(&self, s: &str) -> String {
        self.paint("1", &s.to_uppercase())
    }

    fn severity(&self, s: Severity) -> String {
        let tag = format!("[{}]", s.as_str().to_uppercase());
        match s {
            Severity::Critical => self.paint("1;31", &tag),
            Severity::Warning => self.paint("1;33", &tag),
            Severity::Info => self.paint("1;36", &tag),
        }
    }
}

/// Input text without control characters (escape sequences, tabs, newlines).
pub fn clean(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Terminal columns of a character: 2 for East Asian wide and fullwidth
/// characters (CJK object names and SQL text occur in real reports), 1 otherwise.
fn char_width(c: char) -> usize {
    let u = u32::from(c);
    let wide = matches!(u,
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F
        | 0x20000..=0x3FFFD);
    if wide { 2 } else { 1 }
}

fn width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

/// The longest prefix of `s` that takes at most `w` columns, and the rest.
fn split_at_width(s: &str, w: usize) -> (String, String) {
    let mut used = 0;
    let mut head = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.peek().copied() {
        if used + char_width(c) > w {
            break;
        }
        used += char_width(c);
        head.push(c);
        chars.next();
    }
    (head, chars.collect())
}

/// Cuts `s` to `w` characters, marking the cut with `~`.
fn fit(s: &str, w: usize) -> String {
    if width(s) <= w {
        return s.to_string();
    }
    if w == 0 {
        return String::new();
    }
    let (mut t, _) = split_at_width(s, w.saturating_sub(1));
    t.push('~');
    t
}

/// Cuts `s` to its last `w` columns, marking the cut with `~` in front.
fn fit_tail(s: &str, w: usize) -> String {
    if width(s) <= w {
        return s.to_string();
    }
    let mut kept: Vec<char> = Vec::new();
    let mut used = 1;
    for c in s.chars().rev() {
        if used + char_width(c) > w {
            break;
        }
        used += char_width(c);
        kept.push(c);
    }
    let mut t = String::from("~");
    t.extend(kept.iter().rev());
    t
}

/// Splits a word longer than `w` columns into pieces of at most `w`, each
/// ending after a `.`, `_`, `/`, `!` or `-` where it can; a piece with no such
/// place is split at `w` (only a name longer than the whole column is). A
/// trailing `:line` or `]` never starts a piece of its own.
fn break_word(word: &str, w: usize) -> Vec<String> {
    let w = w.max(1);
    let mut out = Vec::new();
    let mut rest: &str = word;
    while width(rest) > w {
        let mut used = 0;
        let mut last_break = None;
        let mut hard = rest.len();
        for (i, c) in rest.char_indices() {
            if used + char_width(c) > w {
                hard = i;
                break;
            }
            used += char_width(c);
            let end = i + c.len_utf8();
            let tail = rest.get(end..).unwrap_or("");
            let protected = tail.starts_with(':') || tail.starts_with(']') || tail.is_empty();
            if breaks_after(c, tail) && !protected {
                last_break = Some(end);
            }
        }
        // A `:line` suffix (`report.html:513`) moves to the next piece whole.
        let suffix = rest.rfind(':').filter(|p| {
            *p > 0
                && rest
                    .get(p + 1..)
                    .is_some_and(|d| d.bytes().all(|b| b.is_ascii_digit()))
        });
        let hard = match suffix {
            Some(p) if hard > p && width(rest.get(p..).unwrap_or("")) <= w => p,
            _ => hard,
        };
        let cut = last_break
            .unwrap_or(hard)
            .max(rest.chars().next().map_or(1, char::len_utf8));
        let (head, tail) = rest.split_at(cut);
        out.push(head.to_string());
        rest = tail;
    }
    if !rest.is_empty() {
        out.push(rest.to_string());
    }
    out
}

/// Word-wraps `s` to `w` columns; a word longer than `w` is broken by
/// [`break_word`], never cut short.
fn wrap(s: &str, w: usize) -> Vec<String> {
    let w = w.max(10);
    wrap_cell(s, w)
}

/// Glues a unit (`s`, `ms`, `GB`, `%`) to the number before it, so that a
/// wrap never leaves it alone on a line; [`wrap_cell`] turns the glue back
/// into a space.
const GLUE: char = '\u{a0}';

fn words(s: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for word in s.split_whitespace() {
        let unit = word.len() <= 4
            && word
                .chars()
                .all(|c| c.is_ascii_alphabetic() || matches!(c, '%' | '/' | ')' | ','))
            && word.chars().any(|c| c.is_ascii_alphabetic() || c == '%');
        match out.last_mut() {
            Some(prev) if unit && prev.ends_with(|c: char| c.is_ascii_digit()) => {
                prev.push(GLUE);
                prev.push_str(word);
            }
            _ => out.push(word.to_string()),
        }
    }
    out
}

/// [`wrap`] without the minimum: table cells can be narrow.
fn wrap_cell(s: &str, w: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in words(s) {
        let word = word.as_str();
        let mut pieces = break_word(word, w);
        let last = pieces.pop().unwrap_or_default();
        for head in pieces {
            if !cur.is_empty() {
                lines.push(std::mem::take(&mut cur));
            }
            lines.push(head);
        }
        let word = last;
        if cur.is_empty() {
            cur = word;
        } else if width(&cur) + 1 + width(&word) <= w {
            cur.push(' ');
            cur.push_str(&word);
        } else {
            lines.push(std::mem::replace(&mut cur, word));
        }
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    for l in &mut lines {
        if l.contains(GLUE) {
            *l = l.replace(GLUE, " ");
        }
    }
    lines
}

/// The widest piece a cell can be wrapped into without breaking inside a
/// name part: the column is not made narrower than this unless it must.
fn min_piece(s: &str) -> usize {
    let mut widest = 0;
    for word in words(s) {
        let mut piece = 0;
        for (i, c) in word.char_indices() {
            piece += char_width(c);
            if breaks_after(c, word.get(i + c.len_utf8()..).unwrap_or("")) {
                widest = widest.max(piece);
                piece = 0;
            }
        }
        widest = widest.max(piece);
    }
    widest
}

/// A name may wrap after `.`, `_`, `/`, `!` or `-`, but a number's decimal
/// point (`6.20`) is not such a place.
fn breaks_after(c: char, rest: &str) -> bool {
    match c {
        '.' => !rest.starts_with(|d: char| d.is_ascii_digit()),
        '_' | '/' | '!' | '-' => true,
        _ => false,
    }
}

/// Wraps SQL at spaces outside quoted literals, so that the wrapped text runs the same.
fn wrap_sql(sql: &str, w: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for line in sql.lines() {
        let line = clean(line);
        let mut cur = String::new();
        let mut quoted = false;
        let mut last_break: Option<usize> = None;
        for c in line.chars() {
            if c == '\'' {
                quoted = !quoted;
            }
            if c == ' ' && !quoted {
                last_break = Some(cur.len());
            }
            cur.push(c);
            if width(&cur) > w
                && let Some(b) = last_break
            {
                let rest = cur.split_off(b);
                lines.push(cur);
                cur = format!("    {}", rest.trim_start());
                last_break = None;
            }
        }
        lines.push(cur);
    }
    lines
}

/// A text table: widths from the content; when it does not fit in the page,
/// the widest columns narrow (not below their longest name part while any
/// other column can give) and their cells wrap onto more lines. File paths
/// keep their end (the file name) and lose their front instead.
pub(crate) fn table(o: &mut String, st: &Style, indent: &str, t: &Table) {
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|r| r.iter().map(cell).collect())
        .collect();
    let n = t.headers.len();
    let tail: Vec<bool> = t
        .headers
        .iter()
        .map(|h| matches!(*h, "File" | "Input"))
        .collect();
    // Per column: the widest cell, the widest name part of any cell, and
    // the header's longest word (a header wraps before a cell does).
    let mut content = vec![0usize; n];
    let mut floor: Vec<usize> = t.headers.iter().map(|h| min_piece(h)).collect();
    for r in &rows {
        for (i, c) in r.iter().enumerate().take(n) {
            if let Some(x) = content.get_mut(i) {
                *x = (*x).max(width(c));
            }
            if let Some(x) = floor.get_mut(i) {
                *x = (*x).max(min_piece(c));
            }
        }
    }
    for (f, is_tail) in floor.iter_mut().zip(&tail) {
        if *is_tail {
            *f = 12;
        }
    }
    let mut w: Vec<usize> = t
        .headers
        .iter()
        .zip(&content)
        .map(|(h, c)| width(h).max(*c))
        .collect();
    let header_floor: Vec<usize> = t
        .headers
        .iter()
        .zip(&content)
        .map(|(h, c)| min_piece(h).max(*c))
        .collect();
    let avail = st.width.saturating_sub(width(indent));
    let total = |w: &[usize]| w.iter().sum::<usize>() + 2 * w.len().saturating_sub(1);
    // Narrow the widest column that can give, first by wrapping headers only,
    // then down to each column's longest name part, then to 4 columns.
    let floors = [header_floor, floor, vec![4; n]];
    for f in &floors {
        while total(&w) > avail {
            let Some(i) = w
                .iter()
                .zip(f)
                .enumerate()
                .filter(|(_, (x, f))| **x > **f)
                .max_by(|a, b| a.1.0.cmp(b.1.0).then(b.0.cmp(&a.0)))
                .map(|(i, _)| i)
            else {
                break;
            };
            if let Some(x) = w.get_mut(i) {
                *x -= 1;
            }
        }
    }
    let line = |cells: &[String]| -> String {
        let mut s = String::from(indent);
        for (i, width_i) in w.iter().enumerate() {
            let c = cells.get(i).map_or("", String::as_str);
            let pad = width_i.saturating_sub(width(c));
            if i > 0 {
                s.push_str("  ");
            }
            if t.right.get(i).copied().unwrap_or(false) {
                s.push_str(&" ".repeat(pad));
                s.push_str(c);
            } else {
                s.push_str(c);
                s.push_str(&" ".repeat(pad));
            }
        }
        s.trim_end().to_string()
    };
    // One row as lines: each cell wrapped to its column (paths cut at the front).
    let row_lines = |cells: &[String]| -> Vec<String> {
        let wrapped: Vec<Vec<String>> = w
            .iter()
            .enumerate()
            .map(|(i, wi)| {
                let c = cells.get(i).map_or("", String::as_str);
                if tail.get(i).copied().unwrap_or(false) {
                    vec![fit_tail(c, *wi)]
                } else if width(c) <= *wi {
                    vec![c.to_string()]
                } else {
                    wrap_cell(c, *wi)
                }
            })
            .collect();
        let height = wrapped.iter().map(Vec::len).max().unwrap_or(1).max(1);
        (0..height)
            .map(|k| {
                let parts: Vec<String> = wrapped
                    .iter()
                    .map(|c| c.get(k).cloned().unwrap_or_default())
                    .collect();
                line(&parts)
            })
            .collect()
    };
    let hs: Vec<String> = t.headers.iter().map(|h| h.to_string()).collect();
    for l in row_lines(&hs) {
        let _ = writeln!(o, "{l}");
    }
    let rule: Vec<String> = w.iter().map(|x| "-".repeat(*x)).collect();
    let _ = writeln!(o, "{}", line(&rule));
    for r in &rows {
        for l in row_lines(r) {
            let _ = writeln!(o, "{l}");
        }
    }
}

/// A cell's text, cleaned, with its footnote number or a derived mark.
fn cell(c: &Cell) -> String {
    let text = clean(&c.text);
    match (&c.src, &c.derived) {
        (Some(s), _) => format!("{text} [{}]", s.n),
        (None, Some(_)) => format!("{text} (derived)"),
        (None, None) => text,
    }
}

fn note(src: &Option<SrcView>) -> String {
    src.as_ref()
        .map_or(String::new(), |s| format!(" [{}]", s.n))
}

pub(crate) fn para(o: &mut String, st: &Style, indent: &str, s: &str) {
    for l in wrap(&clean(s), st.width.saturating_sub(width(indent))) {
        let _ = writeln!(o, "{indent}{l}");
    }
}

/// `label: value` with the value wrapped under itself.
fn field(o: &mut String, st: &Style, indent: &str, label: &str, lw: usize, val: &str) {
    let lead = format!("{indent}{:<lw$}  ", clean(label));
    let pad = " ".repeat(width(&lead));
    for (i, l) in wrap(&clean(val), st.width.saturating_sub(width(&lead)))
        .iter()
        .enumerate()
    {
        let _ = writeln!(o, "{}{l}", if i == 0 { &lead } else { &pad });
    }
}

/// The projection steps with short headers, so that the wait names keep their width.
fn steps(s: &[view::StepView]) -> Table {
    let mut t = tables::steps(s);
    t.headers = vec!["Wait affected", "Waits", "Moved", "Now", "After", "Saved"];
    t
}

pub(crate) fn section(o: &mut String, st: &Style, title: &str) {
    let _ = writeln!(o, "\n{}", st.heading(title));
}

fn absent(o: &mut String, what: &str) {
    let _ = writeln!(o, "{INDENT}{what}: not in the inputs.");
}

fn sql(o: &mut String, st: &Style, indent: &str, q: &str) {
    for l in wrap_sql(q, st.width.saturating_sub(width(indent))) {
        let _ = writeln!(o, "{indent}{l}");
    }
}

pub fn render(a: &Analysis, color: bool, page_width: usize) -> String {
    let st = Style {
        color,
        width: page_width.clamp(MIN_WIDTH, MAX_WIDTH),
    };
    let v = view::build(a);
    let mut o = String::new();
    head(&mut o, &st, &v);
    options(&mut o, &st, &v);
    findings(&mut o, &st, &v);
    segments(&mut o, &st, &v);
    exhibits(&mut o, &st, &v);
    projections(&mut o, &st, &v);
    tail(&mut o, &st, &v);
    o
}

fn head(o: &mut String, st: &Style, v: &View) {
    let title = fit(
        &format!("awrflash report: {}", clean(&v.db_label)),
        st.width,
    );
    let _ = writeln!(o, "{}", st.paint("1", &title));
    let _ = writeln!(o, "{}", "=".repeat(width(&title)));
    section(o, st, "Verdict");
    para(o, st, INDENT, &v.summary);
    if !v.caveats.is_empty() {
        let _ = writeln!(o);
        para(o, st, INDENT, "Read with care, the inputs say:");
        for c in &v.caveats {
            para(o, st, INDENT, &format!("- {c}"));
        }
    }
    let _ = writeln!(o);
    field(o, st, INDENT, "Expected gain", 13, &v.gain);
    field(
        o,
        st,
        INDENT,
        "Limited by",
        13,
        &format!("{} ({})", v.bound, v.bound_note),
    );
    if let Some(b) = &v.best_option {
        field(o, st, INDENT, "Best option", 13, b);
    }
    // Already coloured and short: printed as is, not wrapped.
    let _ = writeln!(
        o,
        "{INDENT}{:<13}  {} {}, {} {}, {} {}",
        "Findings",
        v.counts.critical,
        st.severity(Severity::Critical),
        v.counts.warning,
        st.severity(Severity::Warning),
        v.counts.info,
        st.severity(Severity::Info)
    );

    section(o, st, "Database");
    for (k, val) in &v.identity {
        field(o, st, INDENT, k, 15, val);
    }
    if !v.inputs.is_empty() {
        let _ = writeln!(o);
        table(o, st, INDENT, &tables::inputs(v));
    }
    if !v.attachments.is_empty() {
        // A list, not a table: the reason is a sentence that must not be cut.
        let _ = writeln!(o, "\n{INDENT}Auxiliary inputs of the run");
        for a in &v.attachments {
            let used = if a.used == "yes" { "used" } else { "not used" };
            para(
                o,
                st,
                INDENT,
                &format!("{} ({}), {used}: {}", a.path, a.format, a.reason),
            );
        }
    }
}

fn options(o: &mut String, st: &Style, v: &View) {
    section(o, st, "Options, ranked by projected gain");
    if v.options.is_empty() {
        absent(o, "Projected options");
    } else {
        // #, Option, DB time now, DB time after, Gain, Bound; the best option
        // marked by a `*` after its rank, to leave the title its width.
        let mut t = tables::options(v).keep(&[0, 1, 4, 5, 6, 8]);
        t.headers = vec!["#", "Option", "Now", "After", "Gain", "Bound"];
        for (row, op) in t.rows.iter_mut().zip(&v.options) {
            if op.best {
                if let Some(c) = row.get_mut(0) {
                    c.text.push('*');
                }
                if let Some(c) = row.get_mut(1) {
                    c.text = op.title.clone();
                }
            }
        }
        table(o, st, INDENT, &t);
        let _ = writeln!(o, "{INDENT}* best option");
    }

    section(o, st, "DB time, now and after the best option");
    if v.breakdown.is_empty() {
        absent(o, "DB time breakdown");
    } else {
        if let Some(t) = &v.breakdown_after_title {
            para(o, st, INDENT, &format!("Best option: {t}"));
        }
        table(o, st, INDENT, &tables::breakdown(v));
    }
}

fn findings(o: &mut String, st: &Style, v: &View) {
    section(o, st, "Findings");
    if v.findings.is_empty() {
        let _ = writeln!(o, "{INDENT}No findings.");
    }
    for f in &v.findings {
        let _ = writeln!(o);
        let tag = st.severity(f.severity);
        let tag_w = width(&format!("[{}]", f.severity.as_str())) + 1;
        let head = format!("{} {}", f.id, f.title);
        let lines = wrap(&clean(&head), st.width - width(INDENT) - tag_w);
        for (i, l) in lines.iter().enumerate() {
            if i == 0 {
                let _ = writeln!(o, "{INDENT}{tag} {}", st.paint("1", l));
            } else {
                let _ = writeln!(o, "{INDENT}{}{l}", " ".repeat(tag_w));
            }
        }
        let ind = "    ";
        para(o, st, ind, &f.message);
        if !f.evidence.is_empty() {
            table(o, st, ind, &tables::evidence(&f.evidence, "Evidence"));
        }
        if let Some(p) = &f.projection {
            let cap = p
                .cap
                .as_deref()
                .map_or(String::new(), |c| format!("; throughput cap {c}"));
            para(
                o,
                st,
                ind,
                &format!(
                    "Projected DB time: {} now, {} after ({} less); response time ratio {}{}; bound: {}.",
                    p.before, p.after, p.gain, p.response_ratio, cap, p.bound
                ),
            );
            if !p.steps.is_empty() {
                table(o, st, ind, &steps(&p.steps));
            }
        }
        if let Some(r) = &f.recommendation {
            para(o, st, ind, &format!("Recommendation: {r}"));
        }
        for q in &f.sql {
            sql(o, st, "      ", q);
        }
        if !f.citations.is_empty() {
            para(o, st, ind, &format!("Based on: {}", f.citations.join("; ")));
        }
    }
}

fn segments(o: &mut String, st: &Style, v: &View) {
    section(o, st, "Segments to move");
    if v.segments.is_empty() {
        absent(o, "Segment statistics");
        return;
    }
    // #, Segment, Type, Read requests, % of reads, Cumulative, Size, Capacity
    // used, Fits, DB time saved; below 100 columns without % of reads,
    // Capacity used and Fits, so that the segment names keep room.
    let cols: &[usize] = if st.width < WIDTH {
        &[0, 1, 2, 4, 6, 8, 12]
    } else {
        &[0, 1, 2, 4, 5, 6, 8, 9, 11, 12]
    };
    table(o, st, INDENT, &tables::segments(v).keep(cols));
    if let Some(n) = &v.segments_cumulative_note {
        para(o, st, INDENT, &format!("Note: {n}."));
    }
    for n in &v.segment_notes {
        para(o, st, INDENT, &format!("- {n}"));
    }
    if !v.segment_sql.is_empty() {
        let _ = writeln!(o, "\n{INDENT}SQL to move them:");
        for q in &v.segment_sql {
            sql(o, st, "    ", q);
        }
    }
}

fn exhibits(o: &mut String, st: &Style, v: &View) {
    section(o, st, "Database Smart Flash Cache");
    match &v.flash_cache {
        None => absent(o, "Flash cache sizing"),
        Some(fc) => {
            para(
                o,
                st,
                INDENT,
                &format!("{}. {}", view::flash_cache_line(fc), fc.reason),
            );
            if let Some(fit) = &fc.fit {
                para(o, st, INDENT, &format!("Curve fit: {fit}"));
            }
            if !fc.points.is_empty() {
                table(o, st, INDENT, &tables::curve(fc));
            }
            for q in &fc.sql {
                sql(o, st, "    ", q);
            }
        }
    }
    if v.flash_stats.is_empty() {
        absent(o, "Flash cache statistics");
    } else {
        table(
            o,
            st,
            INDENT,
            &tables::evidence(&v.flash_stats, "Flash cache statistic"),
        );
    }

    section(o, st, "Redo");
    if v.redo.is_empty() {
        absent(o, "Redo figures");
    } else {
        table(o, st, INDENT, &tables::evidence(&v.redo, "Figure"));
    }

    section(o, st, "Wait latency histograms");
    if v.histograms.is_empty() {
        absent(o, "Wait Event Histogram");
    }
    for h in &v.histograms {
        para(
            o,
            st,
            INDENT,
            &format!("{} ({}{})", h.event, h.total_waits, note(&h.src)),
        );
        para(o, st, "    ", &h.summary);
        if !h.shortenable.is_empty() {
            para(o, st, "    ", &h.shortenable);
        }
    }
    if !v.histogram_note.is_empty() {
        para(o, st, INDENT, &v.histogram_note);
    }

    section(o, st, "Tablespace and file I/O");
    if v.tablespaces.is_empty() {
        absent(o, "Tablespace IO Stats");
    } else {
        // Tablespace, Reads, Reads/s, Avg read, Blocks/read, Writes, Writes/s, Buffer waits.
        table(
            o,
            st,
            INDENT,
            &tables::tablespaces(v).keep(&[0, 2, 3, 4, 5, 8, 9, 10]),
        );
    }

    section(o, st, "Devices (iostat: mean / p95 / max)");
    if v.devices.is_empty() {
        absent(o, "iostat capture");
    } else {
        let mut t = tables::devices(v).keep(&[0, 1, 3, 4, 5, 6]);
        t.headers = vec!["Device", "Role", "IOPS", "MB/s", "await ms", "%util"];
        table(o, st, INDENT, &t);
        for d in v.devices.iter().filter(|d| !d.callouts.is_empty()) {
            para(
                o,
                st,
                INDENT,
                &format!("{}: {}", d.device, d.callouts.join("; ")),
            );
        }
    }

    section(o, st, "Over time");
    if v.series.len() < 2 {
        let _ = writeln!(
            o,
            "{INDENT}Time series: not in the inputs (it needs two or more report intervals)."
        );
    } else {
        // Interval end, DB time, Avg active sessions, IOPS, MB/s, Redo MB/s, File.
        let mut t = tables::series(v).keep(&[0, 2, 3, 4, 5, 6, 7]);
        // A short peak mark, so that a cut label keeps it.
        for (row, p) in t.rows.iter_mut().zip(&v.series) {
            if let (Some(c), true) = (row.get_mut(0), p.peak) {
                c.text = format!("{} *", p.label);
            }
        }
        t.headers = vec![
            "Interval end",
            "DB time",
            "AAS",
            "IOPS",
            "MB/s",
            "Redo MB/s",
            "File",
        ];
        table(o, st, INDENT, &t);
        let _ = writeln!(o, "{INDENT}* peak interval (highest DB time per second)");
        if !v.trend.is_empty() {
            let _ = writeln!(o);
            para(
                o,
                st,
                INDENT,
                "Trend: whole window (elapsed-weighted), p95 (nearest rank) and peak.",
            );
            table(o, st, INDENT, &tables::trend(v));
        }
    }
    if let Some(w) = &v.window {
        section(o, st, "Whole window");
        para(
            o,
            st,
            INDENT,
            "Each interval projected on its own with the window's move; the window's saving is the sum of the intervals'.",
        );
        for (k, val) in &w.facts {
            para(o, st, INDENT, &format!("{k}: {val}"));
        }
        let _ = writeln!(o);
        // Interval, Saved, Saved %, Class, Signal (the bounds are in the
        // facts above).
        table(
            o,
            st,
            INDENT,
            &tables::window_intervals(v).keep(&[0, 3, 4, 5, 6]),
        );
    }
}

fn projections(o: &mut String, st: &Style, v: &View) {
    if v.options.is_empty() {
        return;
    }
    section(o, st, "Projection details");
    for op in &v.options {
        let mut extra = Vec::new();
        if !op.device.is_empty() {
            extra.push(format!("device {}", op.device));
        }
        if let Some(c) = &op.cap {
            extra.push(format!("throughput cap {c}"));
        }
        if let Some(c) = &op.capacity {
            extra.push(format!("flash capacity {c}"));
        }
        let _ = writeln!(o);
        para(
            o,
            st,
            INDENT,
            &format!("{}. {} ({})", op.rank, op.title, op.key),
        );
        if !extra.is_empty() {
            para(o, st, "    ", &extra.join(", "));
        }
        for n in &op.notes {
            para(o, st, "    ", n);
        }
        if !op.steps.is_empty() {
            table(o, st, "    ", &steps(&op.steps));
        }
    }
}

fn tail(o: &mut String, st: &Style, v: &View) {
    section(o, st, "Rules cited");
    if v.rules.is_empty() {
        let _ = writeln!(o, "{INDENT}No rule fired.");
    }
    for r in &v.rules {
        para(o, st, INDENT, &format!("{} {}", r.id, view::rule_line(r)));
    }
    if !v.footnotes.is_empty() {
        section(o, st, "Sources of the numbers");
        for n in &v.footnotes {
            field(o, st, INDENT, &format!("[{}]", n.n), 5, &n.text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clean_drops_escape_sequences() {
        assert_eq!(clean("a\x1b[2Jb\nc"), "a [2Jb c");
    }

    #[test]
    fn wrap_keeps_lines_within_the_width() {
        let long = "word ".repeat(60);
        for l in wrap(&long, 40) {
            assert!(width(&l) <= 40);
        }
        let giant = "x".repeat(95);
        assert_eq!(wrap(&giant, 40).len(), 3);
    }

    #[test]
    fn sql_wraps_outside_quotes_only() {
        let q = "ALTER SYSTEM SET db_flash_cache_file='/a b c d e f g h i j k' SCOPE=SPFILE;";
        let lines = wrap_sql(q, 30);
        assert!(lines.iter().any(|l| l.contains("'/a b c d e f g h i j k'")));
    }

    #[test]
    fn file_paths_keep_their_name_when_cut() {
        assert_eq!(fit_tail("/work/corpus/awr_1_2.html", 13), "~awr_1_2.html");
        assert_eq!(width(&fit_tail("/a/b/c/d/e/report.html", 10)), 10);
        assert_eq!(fit_tail("short", 10), "short");
    }

    #[test]
    fn wide_characters_count_two_columns() {
        assert_eq!(width("表空间"), 6);
        assert_eq!(fit("表空间名称", 5), "表空~");
        for l in wrap(&"订单明细表".repeat(30), 40) {
            assert!(width(&l) <= 40, "{l}");
        }
    }

    #[test]
    fn tables_fit_in_the_page() {
        let mut o = String::new();
        let t = Table {
            headers: vec!["Name", "N"],
            right: vec![false, true],
            rows: vec![vec![Cell::from("x".repeat(150).as_str()), Cell::from("1")]],
        };
        let st = Style {
            color: false,
            width: 80,
        };
        table(&mut o, &st, INDENT, &t);
        for l in o.lines() {
            assert!(width(l) <= 80, "{l}");
        }
        assert_eq!(o.matches('x').count(), 150, "nothing is cut: {o}");
    }

    #[test]
    fn names_that_share_a_prefix_stay_apart_in_a_narrow_column() {
        let mut o = String::new();
        let t = Table {
            headers: vec!["Segment", "Type", "Reads"],
            right: vec![false, false, true],
            rows: vec![
                vec![
                    Cell::from("TDS.EVENT_PK"),
                    Cell::from("INDEX"),
                    Cell::from("1"),
                ],
                vec![
                    Cell::from("TDS.EVENT"),
                    Cell::from("TABLE"),
                    Cell::from("2"),
                ],
            ],
        };
        let st = Style {
            color: false,
            width: MIN_WIDTH,
        };
        let indent = " ".repeat(38);
        table(&mut o, &st, &indent, &t);
        assert!(!o.contains('~'), "{o}");
        // The first column, read down: every name whole, in order.
        let lines: Vec<&str> = o.lines().collect();
        let rule = lines
            .iter()
            .position(|l| l.trim_start().starts_with('-'))
            .unwrap();
        let w0 = lines[rule].trim_start().split(' ').next().unwrap().len();
        assert!(w0 < "TDS.EVENT_PK".len(), "the column did not narrow: {o}");
        let col: String = lines[rule + 1..]
            .iter()
            .map(|l| {
                let cell = l.get(38..).unwrap_or("");
                cell.get(..w0).unwrap_or(cell).trim()
            })
            .collect();
        assert_eq!(col, "TDS.EVENT_PKTDS.EVENT", "{o}");
    }

    #[test]
    fn a_source_reference_is_never_split() {
        let path = "/data/awr/long/directory/awrrpt_1_72336_72337.html:513";
        for w in 10..path.len() {
            let lines = wrap_cell(path, w);
            assert!(lines.iter().any(|l| l.ends_with(":513")), "{w}: {lines:?}");
            assert_eq!(lines.concat(), path);
        }
        for w in 4..12 {
            let lines = wrap_cell("read [12]", w);
            assert!(lines.iter().any(|l| l.contains("[12]")), "{w}: {lines:?}");
        }
    }
}
