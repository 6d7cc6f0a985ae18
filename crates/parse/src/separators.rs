//! Decimal and thousands separators of text reports.
//!
//! SQL*Plus prints numbers with the session's `NLS_NUMERIC_CHARACTERS`: a
//! report spooled with `',.'` reads `1.234,56` where the usual one reads
//! `1,234.56`. The separators are detected per report from the cells that
//! can only be read one way (`0,47` and `1.234.567` only with a decimal
//! comma; `477.1` and `1,234,567` only with a decimal point); a report with
//! a decimal comma is rewritten cell by cell to the usual form before it is
//! read, byte for byte in place, so lines and columns stay where they were.
//! Cells that could be read either way (`1,234`) decide nothing; when the
//! cells disagree, the majority wins and a warning says so.

use std::borrow::Cow;

use awrflash_model::Warning;

/// The separators of one report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decimal {
    /// `1,234.56`, Oracle's default.
    Point,
    /// `1.234,56`.
    Comma,
}

/// Votes of the unambiguous cells, with the first line of each.
#[derive(Debug, Default, Clone, Copy)]
struct Votes {
    point: usize,
    comma: usize,
    first_point: u32,
    first_comma: u32,
}

/// The number part of a token: sign and unit suffix (`K`, `M`, `ms`, `%`)
/// left out; `None` when the token is not a number.
fn core(tok: &str) -> Option<(usize, &str)> {
    let start = usize::from(tok.starts_with(['-', '+']));
    let body = tok.get(start..)?;
    let end = body
        .trim_end_matches(|c: char| c.is_ascii_alphabetic() || c == '%')
        .len();
    let c = body.get(..end)?;
    // `1000,` in prose (`K is 1000, M is ...`): punctuation, not a cell.
    let ok = !c.is_empty()
        && !c.ends_with(['.', ','])
        && c.bytes()
            .all(|b| b.is_ascii_digit() || b == b'.' || b == b',')
        && c.bytes().any(|b| b.is_ascii_digit())
        && c.bytes()
            .next()
            .is_some_and(|b| b.is_ascii_digit() || b == b'.' || b == b',');
    ok.then_some((start, c))
}

/// Digits between separators are groups of three after the first.
fn grouped(c: &str, sep: char) -> bool {
    let mut parts = c.split(sep);
    let first = parts.next().unwrap_or("");
    (1..=3).contains(&first.len()) && parts.all(|p| p.len() == 3)
}

/// What a token says about the decimal mark: [`core`] then [`vote`] (the
/// test `token_vote_is_core_then_vote` holds them equal), in one pass over
/// its bytes, for the tens of thousands of tokens of a report.
fn token_vote(tok: &[u8]) -> Option<Decimal> {
    let body = match tok {
        [b'-' | b'+', rest @ ..] => rest,
        _ => tok,
    };
    // The unit suffix: ASCII letters and `%` (a non-ASCII byte ends it, as
    // it ends `trim_end_matches` over characters).
    let end = body
        .iter()
        .rposition(|&b| !(b.is_ascii_alphabetic() || b == b'%'))
        .map_or(0, |p| p + 1);
    let c = body.get(..end)?;
    if matches!(c.last(), None | Some(b'.' | b',')) {
        return None;
    }
    let (mut dots, mut commas, mut digits) = (0usize, 0usize, 0usize);
    let (mut last_dot, mut last_comma) = (None, None);
    // Digits before the first separator, and whether every run after one
    // is three digits long (the groups of `grouped`).
    let (mut first_run, mut run, mut groups_of_three) = (None, 0usize, true);
    for (i, &b) in c.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                digits += 1;
                run += 1;
                continue;
            }
            b'.' => {
                dots += 1;
                last_dot = Some(i);
            }
            b',' => {
                commas += 1;
                last_comma = Some(i);
            }
            _ => return None,
        }
        if first_run.is_none() {
            first_run = Some(run);
        } else if run != 3 {
            groups_of_three = false;
        }
        run = 0;
    }
    if digits == 0 {
        return None;
    }
    // The last run (after the last separator; `c` ends with a digit).
    let grouped = || groups_of_three && run == 3 && first_run.is_some_and(|r| (1..=3).contains(&r));
    let leading_sep = matches!(c.first(), Some(b'.' | b','));
    match (dots, commas) {
        (0, 0) => None,
        (d, cm) if d > 0 && cm > 0 => Some(if last_comma > last_dot {
            Decimal::Comma
        } else {
            Decimal::Point
        }),
        (0, 1) => (matches!(run, 1 | 2) || leading_sep).then_some(Decimal::Comma),
        (0, _) => grouped().then_some(Decimal::Point),
        (1, 0) => (run != 3 || leading_sep).then_some(Decimal::Point),
        (_, 0) => grouped().then_some(Decimal::Comma),
        _ => None,
    }
}

/// What one number cell says about the decimal mark.
#[cfg(test)]
fn vote(c: &str) -> Option<Decimal> {
    let dots = c.matches('.').count();
    let commas = c.matches(',').count();
    match (dots, commas) {
        (0, 0) => None,
        (d, cm) if d > 0 && cm > 0 => {
            let last_dot = c.rfind('.');
            let last_comma = c.rfind(',');
            if last_comma > last_dot {
                Some(Decimal::Comma)
            } else {
                Some(Decimal::Point)
            }
        }
        // `1,234,567`: groups; `0,47`: a decimal comma; `1,234`: either;
        // `4118,57511` is a `Sid, Serial#` pair, which NLS leaves alone.
        (0, 1) => {
            let after = c.split(',').nth(1).unwrap_or("");
            (matches!(after.len(), 1 | 2) || c.starts_with(',')).then_some(Decimal::Comma)
        }
        (0, _) => grouped(c, ',').then_some(Decimal::Point),
        (1, 0) => {
            let after = c.split('.').nth(1).unwrap_or("");
            (after.len() != 3 || c.starts_with('.')).then_some(Decimal::Point)
        }
        (_, 0) => grouped(c, '.').then_some(Decimal::Comma),
        _ => None,
    }
}

/// The votes of every token of `text` (maximal runs of bytes that are not
/// ASCII whitespace, as `split_ascii_whitespace` cuts each line). Only a
/// token holding a `.` or `,` can vote, so the tokens are found from those
/// bytes (`memchr`), each read once; lines are counted only for the first
/// vote of each kind.
fn count(text: &str) -> Votes {
    let bytes = text.as_bytes();
    let mut v = Votes::default();
    // Tokens end at or before `done` once read.
    let mut done = 0;
    let mut lines = crate::awr_html::scan::Lines::new(bytes);
    for sep in memchr::memchr2_iter(b'.', b',', bytes) {
        if sep < done {
            continue;
        }
        let before = bytes.get(..sep).unwrap_or_default();
        let start = before
            .iter()
            .rposition(u8::is_ascii_whitespace)
            .map_or(0, |p| p + 1);
        let after = bytes.get(sep..).unwrap_or_default();
        let end = after
            .iter()
            .position(u8::is_ascii_whitespace)
            .map_or(bytes.len(), |p| sep + p);
        done = end;
        // Both ends sit next to ASCII bytes (or the text's ends): char
        // boundaries.
        let Some(tok) = text.get(start..end) else {
            continue;
        };
        match token_vote(tok.as_bytes()) {
            Some(Decimal::Point) => {
                if v.point == 0 {
                    v.first_point = lines.at(start);
                }
                v.point += 1;
            }
            Some(Decimal::Comma) => {
                if v.comma == 0 {
                    v.first_comma = lines.at(start);
                }
                v.comma += 1;
            }
            None => {}
        }
    }
    v
}

/// Detects the separators of a text report; a warning when the cells
/// disagree.
pub fn detect(text: &str) -> (Decimal, Option<Warning>) {
    let v = count(text);
    match (v.point, v.comma) {
        (_, 0) => (Decimal::Point, None),
        (0, _) => (Decimal::Comma, None),
        (p, c) => {
            let (choice, line, other) = if c > p {
                (Decimal::Comma, v.first_point, "a decimal point")
            } else {
                (Decimal::Point, v.first_comma, "a decimal comma")
            };
            let read = match choice {
                Decimal::Comma => "decimal comma (1.234,56)",
                Decimal::Point => "decimal point (1,234.56)",
            };
            (
                choice,
                Some(Warning::changes_meaning(
                    "",
                    line,
                    format!(
                        "number separators are uncertain: {p} cells read only with a decimal point, {c} only with a decimal comma; read with a {read}, so cells like the one on this line (written with {other}) may be wrong"
                    ),
                )),
            )
        }
    }
}

/// The report in the usual form: with a decimal comma, `.` and `,` are
/// swapped inside number cells (same bytes, same columns).
pub fn normalise(text: &str, decimal: Decimal) -> Cow<'_, str> {
    if decimal == Decimal::Point {
        return Cow::Borrowed(text);
    }
    let mut out = text.as_bytes().to_vec();
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
            continue;
        }
        let s = i;
        while bytes.get(i).is_some_and(|b| !b.is_ascii_whitespace()) {
            i += 1;
        }
        let Some(tok) = text.get(s..i) else { continue };
        if let Some((off, c)) = core(tok)
            && c.matches(',').count() <= 1
            && (!c.contains('.') || grouped(c.split(',').next().unwrap_or(""), '.'))
        {
            for (k, b) in c.bytes().enumerate() {
                if let Some(slot) = out.get_mut(s + off + k) {
                    *slot = match b {
                        b'.' => b',',
                        b',' => b'.',
                        other => other,
                    };
                }
            }
        }
    }
    // Only ASCII bytes were swapped for ASCII bytes.
    String::from_utf8(out).map_or(Cow::Borrowed(text), Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unambiguous_cells_vote() {
        assert_eq!(vote("0,47"), Some(Decimal::Comma));
        assert_eq!(vote("1.234,5"), Some(Decimal::Comma));
        assert_eq!(vote("1.234.567"), Some(Decimal::Comma));
        assert_eq!(vote("477.1"), Some(Decimal::Point));
        assert_eq!(vote("1,234,567"), Some(Decimal::Point));
        assert_eq!(vote("1,234"), None);
        assert_eq!(vote("1.234"), None);
        assert_eq!(vote("42"), None);
        assert_eq!(core("1000,"), None);
        assert_eq!(vote("4118,57511"), None);
    }

    /// Every arrangement of up to six pieces (digits, runs of three,
    /// both separators, signs, unit letters, `%`, a non-ASCII letter):
    /// the one-pass vote is `core` then `vote`.
    #[test]
    fn token_vote_is_core_then_vote() {
        let alphabet = ["1", "123", ".", ",", "-", "+", "%", "K", "\u{e9}", " "];
        for t in awrflash_testkit::every_text(&alphabet, 6) {
            assert_eq!(
                token_vote(t.as_bytes()),
                core(&t).and_then(|(_, c)| vote(c)),
                "{t:?}"
            );
        }
    }

    #[test]
    fn decimal_comma_reports_are_rewritten_in_place() {
        let text = "  Redo size (bytes):     1.234.567,8       12,5\n  DB Time(s):   0,5  11.2.0.4.0  10-Jul-14 04:00:45\n";
        let (d, w) = detect(text);
        assert_eq!(d, Decimal::Comma);
        assert!(w.is_none());
        let n = normalise(text, d);
        assert_eq!(
            n,
            "  Redo size (bytes):     1,234,567.8       12.5\n  DB Time(s):   0.5  11.2.0.4.0  10-Jul-14 04:00:45\n"
        );
    }

    /// `count` as it read every token of every line.
    fn count_plainly(text: &str) -> Votes {
        let mut v = Votes::default();
        for (i, line) in text.lines().enumerate() {
            let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
            for tok in line.split_ascii_whitespace() {
                match core(tok).and_then(|(_, c)| vote(c)) {
                    Some(Decimal::Point) => {
                        if v.point == 0 {
                            v.first_point = no;
                        }
                        v.point += 1;
                    }
                    Some(Decimal::Comma) => {
                        if v.comma == 0 {
                            v.first_comma = no;
                        }
                        v.comma += 1;
                    }
                    None => {}
                }
            }
        }
        v
    }

    /// Tokens cut by every kind of blank and line end, at the text's ends,
    /// with several separators, with non-ASCII bytes and runs of dots: the
    /// votes and the lines of the first ones are those of every token read.
    #[test]
    fn votes_are_those_of_every_token() {
        let pieces = [
            "0,47",
            "1.234,5",
            "477.1",
            "1,234,567",
            "1,234",
            "...",
            "x.y",
            "-3.5%",
            "1000,",
            "é1.5",
            "12,5ms",
            ",",
            ".",
            "ab",
            "4118,57511",
            "1.234.567",
        ];
        let blanks = [" ", "\t", "\n", "\r\n", "\r", "\u{c}", "\u{b}", "  \n\n"];
        let mut texts = Vec::new();
        for (i, a) in pieces.iter().enumerate() {
            for (j, b) in pieces.iter().enumerate() {
                let blank = blanks[(i + j) % blanks.len()];
                let other = blanks[(i * 3 + j) % blanks.len()];
                texts.push(format!("{a}{blank}{b}"));
                texts.push(format!("{other}{a}{blank}{b}{other}{a}"));
            }
        }
        for t in &texts {
            let (x, y) = (count(t), count_plainly(t));
            assert_eq!(
                (x.point, x.comma, x.first_point, x.first_comma),
                (y.point, y.comma, y.first_point, y.first_comma),
                "{t:?}"
            );
        }
        // The corpus's text reports.
        if let Some(dir) = awrflash_testkit::corpus("") {
            for p in awrflash_testkit::files_below(&dir) {
                let Ok(t) = std::fs::read_to_string(&p) else {
                    continue;
                };
                let (x, y) = (count(&t), count_plainly(&t));
                assert_eq!(
                    (x.point, x.comma, x.first_point, x.first_comma),
                    (y.point, y.comma, y.first_point, y.first_comma),
                    "{}",
                    p.display()
                );
            }
        }
    }

    #[test]
    fn disagreeing_cells_warn() {
        let (d, w) = detect("0,5 0,7 1,25 3.5\n");
        assert_eq!(d, Decimal::Comma);
        assert!(w.is_some_and(|w| w.is_meaning_changing() && w.line == 1));
        let (d, w) = detect("1,234 7.5\n");
        assert_eq!(d, Decimal::Point);
        assert!(w.is_none());
    }
}
