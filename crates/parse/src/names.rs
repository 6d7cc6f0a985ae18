//! Oracle's full wait event and statistic names, to undo the cuts of text
//! reports.
//!
//! AWR text reports print event names in 26 characters (Statspack: 28) and
//! statistic names in 32, so `SQL*Net message from client` reads `SQL*Net
//! message from clien`; HTML reports print them whole. The names Oracle
//! documents in V$EVENT_NAME and V$STATNAME, across releases, are shipped
//! as data (`data/wait_events.txt`, `data/statistics.txt`); a cut name that
//! begins exactly one of them becomes that name. Blank runs inside names
//! (`enq: IV -  contention`) are collapsed to one blank in every format.

use std::borrow::Cow;
use std::sync::OnceLock;

const EVENTS: &str = include_str!("../data/wait_events.txt");
const STATISTICS: &str = include_str!("../data/statistics.txt");

/// Which list a name belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum List {
    Events,
    Statistics,
}

impl List {
    /// Shortest printed name that may have been cut: names below it fit
    /// every column width Oracle uses for the list.
    fn min_cut(self) -> usize {
        match self {
            List::Events => 20,
            List::Statistics => 24,
        }
    }

    fn names(self) -> &'static [String] {
        static EV: OnceLock<Vec<String>> = OnceLock::new();
        static ST: OnceLock<Vec<String>> = OnceLock::new();
        let (cell, text) = match self {
            List::Events => (&EV, EVENTS),
            List::Statistics => (&ST, STATISTICS),
        };
        cell.get_or_init(|| load(text))
    }
}

fn load(text: &str) -> Vec<String> {
    let mut v: Vec<String> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| collapse(l).into_owned())
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// Runs of blanks inside a name become one blank; ends are trimmed.
pub fn collapse(name: &str) -> Cow<'_, str> {
    // Ends of printable ASCII (every name but a few): nothing to trim.
    let t = match (name.as_bytes().first(), name.as_bytes().last()) {
        (Some(a), Some(z)) if a.is_ascii_graphic() && z.is_ascii_graphic() => name,
        _ => name.trim(),
    };
    if t.len() == name.len() && single_blanks(t) {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(t.len());
    for w in t.split_ascii_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    Cow::Owned(out)
}

/// No tab, newline or carriage return and no two ASCII blanks in a row:
/// nothing for [`collapse`] to change inside the name.
fn single_blanks(t: &str) -> bool {
    use crate::words::{HI, LO, single_spaces};
    let mut blank_before = false;
    let mut words = t.as_bytes().chunks_exact(8);
    for chunk in words.by_ref() {
        let w = chunk
            .first_chunk::<8>()
            .map_or(0, |w| u64::from_le_bytes(*w));
        // No byte at or below a space (exact once none is 0x80 or more;
        // one of those is above a space anyway): 8 bytes in one step.
        if w.wrapping_sub(LO * 0x21) & !w & HI == 0 {
            blank_before = false;
            continue;
        }
        // Spaces but no other byte below 0x21 (most names are words): the
        // spaces alone, in one step. A byte below a space (a tab, a line
        // end, a form feed) or one of 0x80 or more, which this test may
        // take for one, goes a byte at a time.
        if w.wrapping_sub(LO * 0x20) & !w & HI == 0 {
            if !single_spaces(w, &mut blank_before) {
                return false;
            }
            continue;
        }
        if !blanks_single(chunk, &mut blank_before) {
            return false;
        }
    }
    blanks_single(words.remainder(), &mut blank_before)
}

/// [`single_blanks`] over `bytes`, the byte before them a blank when
/// `blank_before`, which is left set for the byte after them.
fn blanks_single(bytes: &[u8], blank_before: &mut bool) -> bool {
    for &b in bytes {
        // Every ASCII blank is at most a space: one compare for the rest.
        if b > b' ' {
            *blank_before = false;
            continue;
        }
        match b {
            b'\t' | b'\n' | b'\r' => return false,
            b' ' | 0x0c => {
                if *blank_before {
                    return false;
                }
                *blank_before = true;
            }
            _ => *blank_before = false,
        }
    }
    true
}

/// What the list says about a printed name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lookup {
    /// Listed as printed, or too short to have been cut, or in no list.
    AsPrinted,
    /// Cut: the one listed name it begins.
    Full(&'static str),
    /// Cut, and it begins several listed names (the first few given).
    Ambiguous(Vec<&'static str>),
}

/// Looks a printed (already collapsed) name up in `list`.
pub fn lookup(list: List, printed: &str) -> Lookup {
    if printed.chars().count() < list.min_cut() {
        return Lookup::AsPrinted;
    }
    let names = list.names();
    let start = names.partition_point(|n| n.as_str() < printed);
    let mut matches = names
        .get(start..)
        .unwrap_or(&[])
        .iter()
        .take_while(|n| n.starts_with(printed));
    match (matches.next(), matches.next()) {
        (Some(one), _) if one == printed => Lookup::AsPrinted,
        (Some(one), None) => Lookup::Full(one.as_str()),
        (Some(a), Some(b)) => {
            let mut v = vec![a.as_str(), b.as_str()];
            v.extend(matches.take(2).map(String::as_str));
            Lookup::Ambiguous(v)
        }
        (None, _) => Lookup::AsPrinted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `collapse` as it reads a name byte by byte, without the shortcuts.
    fn collapse_plainly(name: &str) -> Cow<'_, str> {
        let t = name.trim();
        if t.len() == name.len() && blanks_single(t.as_bytes(), &mut false) {
            return Cow::Borrowed(name);
        }
        Cow::Owned(t.split_ascii_whitespace().collect::<Vec<_>>().join(" "))
    }

    /// Every name of letters and spaces up to 17 bytes (a blank at every
    /// place of two 8-byte words and after them), and each place taken by
    /// another kind of byte.
    #[test]
    fn collapse_reads_every_place_of_a_word_as_the_byte_loop_does() {
        for len in 0..=17u32 {
            for bits in 0..(1u32 << len) {
                let s: String = (0..len)
                    .map(|i| if bits >> i & 1 == 1 { ' ' } else { 'a' })
                    .collect();
                assert_eq!(collapse(&s), collapse_plainly(&s), "{s:?}");
            }
        }
        let base = "db file sequential read";
        for other in [
            "\t", "\n", "\r", "\u{c}", "\u{1}", "\u{a0}", "\u{3000}", "é", "  ", " ",
        ] {
            for at in 0..=base.len() {
                let mut s = base.to_string();
                s.insert_str(at, other);
                assert_eq!(collapse(&s), collapse_plainly(&s), "{s:?}");
            }
        }
    }

    #[test]
    fn collapse_changes_only_blank_runs_and_ends() {
        for (name, want) in [
            ("db file sequential read", "db file sequential read"),
            ("enq: IV -  contention", "enq: IV - contention"),
            (" latch free ", "latch free"),
            ("a\tb", "a b"),
            ("a\x0c b", "a b"),
            ("a \x0cb", "a b"),
            ("a\x0cb", "a\x0cb"),
            ("a\x01 b", "a\x01 b"),
            ("a\r\nb", "a b"),
            ("", ""),
        ] {
            assert_eq!(collapse(name), want, "{name:?}");
            assert_eq!(
                matches!(collapse(name), Cow::Borrowed(_)),
                name == want,
                "{name:?}"
            );
        }
    }

    #[test]
    fn cut_names_become_the_one_full_name_they_begin() {
        assert_eq!(
            lookup(List::Events, "SQL*Net message from clien"),
            Lookup::Full("SQL*Net message from client")
        );
        assert_eq!(
            lookup(List::Statistics, "physical read total multi block"),
            Lookup::Full("physical read total multi block requests")
        );
        assert_eq!(
            lookup(List::Events, "db file sequential read"),
            Lookup::AsPrinted
        );
        // Too short to have been cut.
        assert_eq!(lookup(List::Events, "log file"), Lookup::AsPrinted);
    }

    #[test]
    fn ambiguous_prefixes_stay_as_printed() {
        match lookup(List::Events, "cell single block physical") {
            Lookup::Ambiguous(v) => assert!(v.len() >= 2, "{v:?}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn blank_runs_collapse() {
        assert_eq!(collapse("enq: IV -  contention"), "enq: IV - contention");
        assert!(matches!(collapse("log file sync"), Cow::Borrowed(_)));
    }

    #[test]
    fn the_lists_are_sorted_and_clean() {
        for list in [List::Events, List::Statistics] {
            let n = list.names();
            assert!(n.len() > 500, "{}", n.len());
            assert!(n.iter().all(|x| !x.contains("  ") && x.trim() == x));
        }
    }
}
