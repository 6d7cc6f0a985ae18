//! Lines and whitespace-separated fields of the OS captures, as
//! `str::lines` and `str::split_whitespace` cut them, for less.
//!
//! The OS capture parsers (`iostat`, `sar`, `nmon`) read every line and cut
//! most into fields. `str::lines` looks for each line's end with a call of
//! its own (tens of thousands of lines in an nmon capture); [`lines`] takes
//! them from one `memchr` pass. Collecting each line's fields into a new
//! `Vec` cost an allocation and its growth a line, and `split_whitespace`
//! decodes every character; [`split_into`] fills one buffer, byte by byte
//! when the line is ASCII (almost always).

/// The lines of `text`, as `text.lines()` yields them: split at `\n`, a
/// `\r` before it dropped, no empty line after a final `\n`.
pub fn lines(text: &str) -> impl Iterator<Item = &str> + '_ {
    let mut ends = memchr::memchr_iter(b'\n', text.as_bytes());
    let mut start = 0;
    std::iter::from_fn(move || match ends.next() {
        Some(end) => {
            // `\n` is ASCII: both ends are char boundaries.
            let line = text.get(start..end).unwrap_or_default();
            start = end + 1;
            Some(line.strip_suffix('\r').unwrap_or(line))
        }
        None => {
            let last = text.get(start..).filter(|l| !l.is_empty());
            start = text.len();
            last
        }
    })
}

/// Whitespace among ASCII bytes, as `char::is_whitespace` reads it
/// (`u8::is_ascii_whitespace` leaves out the vertical tab).
pub(crate) fn is_white(b: u8) -> bool {
    matches!(b, b' ' | b'\t'..=b'\r')
}

/// Fills `out` with the fields of `line` (what `line.split_whitespace()`
/// yields), after emptying it.
pub fn split_into<'a>(line: &'a str, out: &mut Vec<&'a str>) {
    out.clear();
    if !line.is_ascii() {
        out.extend(line.split_whitespace());
        return;
    }
    let mut rest = line;
    // Every offset of ASCII text is a char boundary.
    while let Some(start) = rest.bytes().position(|b| !is_white(b)) {
        let tail = rest.get(start..).unwrap_or_default();
        let end = tail.bytes().position(is_white).unwrap_or(tail.len());
        out.push(tail.get(..end).unwrap_or_default());
        rest = tail.get(end..).unwrap_or_default();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every text of up to seven bytes of `a`, `\r` and `\n`: the lines
    /// are those of `str::lines`.
    #[test]
    fn lines_are_those_of_str_lines() {
        let mut texts = awrflash_testkit::every_text(&["a", "\r", "\n"], 7);
        texts.push("é\r\nü\n\n".into());
        for t in &texts {
            let want: Vec<&str> = t.lines().collect();
            assert_eq!(lines(t).collect::<Vec<_>>(), want, "{t:?}");
        }
    }

    #[test]
    fn the_blank_bytes_are_those_of_char_is_whitespace() {
        for b in 0..=0x7fu8 {
            assert_eq!(is_white(b), char::from(b).is_whitespace(), "{b:#x}");
        }
    }

    /// Every line of up to six characters from a letter, each ASCII
    /// blank, a no-break space and an ideographic space, and the corpus's
    /// OS captures: the fields are those of `split_whitespace`.
    #[test]
    fn fields_are_those_of_split_whitespace() {
        let alphabet = [
            "a", " ", "\t", "\n", "\u{b}", "\u{c}", "\r", "\u{1f}", "\u{a0}", "\u{3000}",
        ];
        let mut lines = awrflash_testkit::every_text(&alphabet, 5);
        if let Some(dir) = awrflash_testkit::corpus("") {
            for p in awrflash_testkit::files_below(&dir) {
                if let Ok(t) = std::fs::read_to_string(&p) {
                    lines.extend(t.lines().take(2000).map(str::to_string));
                }
            }
        }
        let mut out = vec!["left over"];
        for l in &lines {
            split_into(l, &mut out);
            let want: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(out, want, "{l:?}");
        }
    }
}
