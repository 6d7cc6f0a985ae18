//! Byte searches 8 bytes at a time, in a `u64`.
//!
//! The AWR HTML tokenizer looks for the next of a few bytes (`<` between
//! tags, `>` and quotes inside one: [`tag_end`]) over spans that mostly end within a few
//! dozen bytes, where a `memchr` call costs more than reading the words
//! inline. Public for the bench, whose quote-aware floor must search the
//! way the parser does.

/// `0x01` in every byte.
pub const LO: u64 = 0x0101_0101_0101_0101;
/// `0x80` in every byte.
pub const HI: u64 = 0x8080_8080_8080_8080;

/// High bit set in the bytes of `w` equal to `c`. Bytes above a match
/// may be flagged wrongly (a borrow); the lowest flag is always exact.
#[inline]
pub fn flags(w: u64, c: u8) -> u64 {
    let x = w ^ (LO * u64::from(c));
    x.wrapping_sub(LO) & !x & HI
}

/// Whether the spaces (`0x20`) of the 8-byte word `w` stand alone: no two
/// in a row, within the word or across from the byte before it (a space
/// when `space_before`, which is left set when the word's last byte is
/// one). Exact for any bytes; other blanks are the caller's to rule out.
#[inline]
pub fn single_spaces(w: u64, space_before: &mut bool) -> bool {
    let x = w ^ (LO * u64::from(b' '));
    // Exact per byte (no borrow): the high bit set on each space.
    let spaces = !((x & !HI).wrapping_add(!HI) | x) & HI;
    if spaces & (spaces << 8) != 0 || (*space_before && spaces & 0x80 != 0) {
        return false;
    }
    *space_before = spaces >> 63 != 0;
    true
}

/// How many words [`find`] looks at before it hands over to `memchr`:
/// most spans in AWR HTML (a tag, a cell's text) end within them, and
/// a call costs more than the words.
const WORDS: usize = 4;

/// Offset of the first byte of `s` flagged by `mask` (see [`flags`]),
/// read 8 bytes at a time for the first [`WORDS`] words, then by
/// `slow` (the equivalent `memchr` call) on what is left.
#[inline(always)]
pub fn find(
    s: &[u8],
    mask: impl Fn(u64) -> u64,
    slow: impl Fn(&[u8]) -> Option<usize>,
) -> Option<usize> {
    let mut i = 0;
    for _ in 0..WORDS {
        let Some(w) = s.get(i..).and_then(|r| r.first_chunk::<8>()) else {
            break;
        };
        let m = mask(u64::from_le_bytes(*w));
        if m != 0 {
            return Some(i + (m.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    slow(s.get(i..)?).map(|j| i + j)
}

/// `memchr::memchr(c, s)`, quicker on short spans.
#[inline]
pub fn find1(c: u8, s: &[u8]) -> Option<usize> {
    find(s, |w| flags(w, c), |r| memchr::memchr(c, r))
}

/// Offset of the `>` that closes the tag `s` starts in (`>` inside quoted
/// attribute values does not count): where the AWR HTML tokenizer ends a
/// tag, and where the bench's quote-aware floor does.
#[inline]
pub fn tag_end(s: &[u8]) -> Option<usize> {
    let mut i = 0;
    loop {
        let at = i + find(
            s.get(i..)?,
            |w| flags(w, b'>') | flags(w, b'"') | flags(w, b'\''),
            |r| memchr::memchr3(b'>', b'"', b'\'', r),
        )?;
        let quote = *s.get(at)?;
        if quote == b'>' {
            return Some(at);
        }
        i = at + 2 + find1(quote, s.get(at + 1..)?)?;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every arrangement of spaces in a word, after a space or not, with
    /// letters or bytes of `0x80` and more between: as a byte loop reads it.
    #[test]
    fn single_spaces_reads_every_word_as_the_byte_loop_does() {
        for other in [b'a', 0xa0, 0xff] {
            for mask in 0..256u32 {
                let word: [u8; 8] =
                    std::array::from_fn(|i| if mask >> i & 1 == 1 { b' ' } else { other });
                for before in [false, true] {
                    let mut prev = before;
                    let mut want = true;
                    for &b in &word {
                        want &= !(prev && b == b' ');
                        prev = b == b' ';
                    }
                    let mut got_before = before;
                    let got = single_spaces(u64::from_le_bytes(word), &mut got_before);
                    assert_eq!(got, want, "{word:?} after a space: {before}");
                    if got {
                        assert_eq!(got_before, prev, "{word:?}");
                    }
                }
            }
        }
    }

    /// Spans of every length with the byte looked for at every offset
    /// (or absent), shorter and longer than the words read inline.
    #[test]
    fn find_agrees_with_memchr_at_every_offset_and_length() {
        for len in 0..80 {
            for at in 0..=len {
                let mut s = vec![b'x'; len];
                if let Some(b) = s.get_mut(at) {
                    *b = if at % 2 == 0 { b'<' } else { b'&' };
                }
                // A second candidate further on must not win.
                if let Some(b) = s.get_mut(at + 3) {
                    *b = b'<';
                }
                let want = memchr::memchr2(b'<', b'&', &s);
                let got = find(
                    &s,
                    |w| flags(w, b'<') | flags(w, b'&'),
                    |r| memchr::memchr2(b'<', b'&', r),
                );
                assert_eq!(got, want, "len {len}, at {at}");
                assert_eq!(
                    find1(b'<', &s),
                    memchr::memchr(b'<', &s),
                    "len {len}, at {at}"
                );
            }
        }
    }
}
