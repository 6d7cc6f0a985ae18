//! Bounds on what one input may cost.
//!
//! Stage: parse, before and after the format parsers. Input: the bytes or
//! decoded text of one file. Output: a [`ParseError`] for an input above the
//! size limit, text whose pathological lines are cut (with a [`Warning`] per
//! cut line), and a capped warning list.
//!
//! Why: DBAs run awrflash over directories of files that mail clients,
//! browsers and editors have mangled, and over captures left running for
//! weeks. A 2 GB `iostat -x 1` capture, a report whose newlines were lost, or
//! a garbage file that yields one warning per line must cost a clear error or
//! a bounded amount of memory, never an out-of-memory kill of the whole batch.
//!
//! Line cutting applies to the line-oriented formats (AWR text, Statspack,
//! iostat, sar, sysstat spools, CSV): their parsers split lines into fields,
//! so a 100 MB line would cost a field vector of that size. AWR HTML is
//! exempt: the tokenizer does not care about lines and a report re-saved by a
//! browser or an editor may legitimately be one long line.

use std::borrow::Cow;

use awrflash_model::{Document, Warning};

use crate::ParseError;

/// Inputs above this size are refused (256 MiB). The biggest AWR HTML
/// report in the corpus is about 2.3 MB; a week of `iostat -x 60` on 50
/// devices is about 60 MB.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 256 * 1024 * 1024;

/// Lines longer than this (1 MiB) are cut in line-oriented formats. The
/// widest legitimate lines are SQL*Plus spools with `linesize 32767`.
pub const DEFAULT_MAX_LINE_BYTES: usize = 1024 * 1024;

/// At most this many warnings are kept per document; the rest are counted in
/// one closing warning so that a garbage file cannot flood the output.
pub const DEFAULT_MAX_WARNINGS: usize = 1000;

/// Warning messages longer than this (bytes) are shortened: parsers quote
/// the line they could not read, and a garbage line may be 1 MiB long.
pub const MAX_WARNING_MESSAGE_BYTES: usize = 512;

/// Section name used in warnings raised by the limits themselves.
pub const SECTION: &str = "input";

/// What one input may cost. [`Limits::default`] is what `parse_bytes` uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest input accepted, in bytes (after decompression).
    pub max_input_bytes: u64,
    /// Longest line kept whole in line-oriented formats, in bytes.
    pub max_line_bytes: usize,
    /// Most warnings kept per document.
    pub max_warnings: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
            max_line_bytes: DEFAULT_MAX_LINE_BYTES,
            max_warnings: DEFAULT_MAX_WARNINGS,
        }
    }
}

impl Limits {
    /// Refuses an input of `len` bytes above the size limit. Callers that
    /// read files (the CLI) can call this with the file's metadata length
    /// before reading it, and again with the decompressed length.
    pub fn check_len(&self, path: &str, len: u64) -> Result<(), ParseError> {
        if len <= self.max_input_bytes {
            return Ok(());
        }
        Err(ParseError::Unsupported {
            path: path.to_string(),
            what: format!("an input of {}", human_bytes(len)),
            reason: format!(
                "larger than the {} input limit; split the capture or raise the limit",
                human_bytes(self.max_input_bytes)
            ),
        })
    }
}

/// Cuts every line longer than `max_line` bytes down to its first
/// `max_line` bytes (at a char boundary), keeping the newline so that line
/// numbers stay those of the input. Returns the text unchanged (and
/// uncopied) when no line is that long, and one warning per cut line.
pub fn cap_lines(text: Cow<'_, str>, max_line: usize) -> (Cow<'_, str>, Vec<Warning>) {
    if text.len() <= max_line {
        return (text, Vec::new());
    }
    let long = long_lines(&text, max_line);
    if long.is_empty() {
        return (text, Vec::new());
    }
    let removed: usize = long
        .iter()
        .map(|l| l.end.saturating_sub(l.start).saturating_sub(max_line))
        .sum();
    let mut out = String::with_capacity(text.len().saturating_sub(removed));
    let mut warnings = Vec::with_capacity(long.len());
    let mut pos = 0;
    for l in &long {
        let mut keep = l.start.saturating_add(max_line).min(l.end);
        while keep > l.start && !text.is_char_boundary(keep) {
            keep -= 1;
        }
        out.push_str(text.get(pos..keep).unwrap_or(""));
        pos = l.end;
        warnings.push(Warning::new(
            SECTION,
            l.number,
            format!(
                "line is {} long; only its first {} were read",
                human_bytes(u64::try_from(l.end - l.start).unwrap_or(u64::MAX)),
                human_bytes(u64::try_from(max_line).unwrap_or(u64::MAX)),
            ),
        ));
    }
    out.push_str(text.get(pos..).unwrap_or(""));
    (Cow::Owned(out), warnings)
}

/// A line of the input: 1-based number and byte range without its `\n`.
struct Line {
    number: u32,
    start: usize,
    end: usize,
}

fn long_lines(text: &str, max_line: usize) -> Vec<Line> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut start = 0usize;
    let mut number = 1u32;
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' {
            if i - start > max_line {
                out.push(Line {
                    number,
                    start,
                    end: i,
                });
            }
            start = i + 1;
            number = number.saturating_add(1);
        }
    }
    if bytes.len() - start > max_line {
        out.push(Line {
            number,
            start,
            end: bytes.len(),
        });
    }
    out
}

/// Adds the limits' own warnings to a parsed document (first, since they
/// explain gaps the parser may report later) and caps the warning count.
pub fn finish(mut doc: Document, mut extra: Vec<Warning>, limits: &Limits) -> Document {
    let warnings = match &mut doc {
        Document::Report(r) => &mut r.warnings,
        Document::Iostat(c) => &mut c.warnings,
        Document::Sysstat(s) => &mut s.warnings,
        Document::SegmentSizes(s) => &mut s.warnings,
    };
    if !extra.is_empty() {
        extra.append(warnings);
        *warnings = extra;
    }
    cap_warnings(warnings, limits.max_warnings);
    for w in warnings.iter_mut() {
        shorten(&mut w.message, MAX_WARNING_MESSAGE_BYTES);
    }
    doc
}

/// Cuts `text` to at most `max` bytes (at a char boundary), saying how much
/// was left out.
pub fn shorten(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let mut keep = max;
    while keep > 0 && !text.is_char_boundary(keep) {
        keep -= 1;
    }
    let dropped = text.len() - keep;
    text.truncate(keep);
    text.push_str(&format!("... ({dropped} more bytes)"));
}

/// Keeps the first `max` warnings and replaces the rest by one warning that
/// says how many were left out.
pub fn cap_warnings(warnings: &mut Vec<Warning>, max: usize) {
    if warnings.len() <= max {
        return;
    }
    let dropped = warnings.len() - max;
    let line = warnings.get(max).map_or(0, |w| w.line);
    warnings.truncate(max);
    warnings.push(Warning::new(
        SECTION,
        line,
        format!("{dropped} more warnings from here on were left out"),
    ));
}

/// `1.5 MiB`-style size for messages.
pub fn human_bytes(n: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    if n < 1024 {
        return format!("{n} bytes");
    }
    // Precision loss above 2^53 bytes does not matter for a message.
    #[allow(clippy::cast_precision_loss)]
    let mut v = n as f64 / 1024.0;
    let mut unit = "KiB";
    for u in UNITS.iter().skip(1) {
        if v < 1024.0 {
            break;
        }
        v /= 1024.0;
        unit = u;
    }
    if v.fract() == 0.0 {
        format!("{v:.0} {unit}")
    } else {
        format!("{v:.1} {unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_is_returned_without_a_copy() {
        let text = Cow::Borrowed("a\nb\nc");
        let (out, w) = cap_lines(text, 4);
        assert!(matches!(out, Cow::Borrowed("a\nb\nc")));
        assert!(w.is_empty());
    }

    #[test]
    fn long_lines_are_cut_and_line_numbers_kept() {
        let text = format!("first\n{}\nthird\n{}", "x".repeat(50), "y".repeat(20));
        let (out, w) = cap_lines(Cow::Owned(text), 10);
        assert_eq!(
            out,
            format!("first\n{}\nthird\n{}", "x".repeat(10), "y".repeat(10))
        );
        assert_eq!(w.len(), 2);
        assert_eq!(w.first().map(|w| w.line), Some(2));
        assert_eq!(w.get(1).map(|w| w.line), Some(4));
        assert!(w.iter().all(|w| w.section == SECTION));
        assert!(w.first().is_some_and(|w| w.message.contains("50 bytes")));
    }

    #[test]
    fn a_cut_never_splits_a_character() {
        // 'é' is two bytes: a cut at an odd byte would fall inside one.
        let text = format!("{}\nok", "é".repeat(20));
        let (out, w) = cap_lines(Cow::Owned(text), 11);
        assert_eq!(out, format!("{}\nok", "é".repeat(5)));
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn crlf_lines_are_measured_with_their_carriage_return() {
        let text = "abcd\r\nefgh\r\n";
        let (out, w) = cap_lines(Cow::Borrowed(text), 5);
        assert_eq!(out, text);
        assert!(w.is_empty());
    }

    #[test]
    fn inputs_above_the_size_limit_are_refused_with_the_path() {
        let limits = Limits {
            max_input_bytes: 1000,
            ..Limits::default()
        };
        assert!(limits.check_len("a.html", 1000).is_ok());
        let err = limits.check_len("a.html", 300 * 1024 * 1024);
        let msg = err.map_err(|e| e.to_string()).err().unwrap_or_default();
        assert!(msg.starts_with("a.html: "), "{msg}");
        assert!(msg.contains("300 MiB"), "{msg}");
        assert!(msg.contains("1000 bytes input limit"), "{msg}");
    }

    #[test]
    fn warnings_are_capped_with_a_count_of_the_rest() {
        let mut w: Vec<Warning> = (1..=10).map(|i| Warning::new("s", i, "m")).collect();
        cap_warnings(&mut w, 4);
        assert_eq!(w.len(), 5);
        assert_eq!(w.last().map(|w| w.line), Some(5));
        assert!(w.last().is_some_and(|w| w.message.starts_with("6 more")));
    }

    #[test]
    fn long_warning_messages_are_shortened_at_a_char_boundary() {
        let mut m = format!("bad line: {}", "é".repeat(400));
        shorten(&mut m, 15);
        assert_eq!(m, "bad line: éé... (796 more bytes)");
        let mut short = String::from("fine");
        shorten(&mut short, 15);
        assert_eq!(short, "fine");
    }

    #[test]
    fn human_sizes_read_well() {
        assert_eq!(human_bytes(512), "512 bytes");
        assert_eq!(human_bytes(1536), "1.5 KiB");
        assert_eq!(human_bytes(256 * 1024 * 1024), "256 MiB");
        assert_eq!(human_bytes(3 * 1024 * 1024 * 1024), "3 GiB");
    }
}
