//! Bytes to text, never failing.
//!
//! Oracle writes reports in the database character set: SQL text in a
//! GBK/GB18030 database is not UTF-8 even though the markup is ASCII. The
//! whole file is decoded lossily (invalid sequences become U+FFFD) so the
//! tokenizers never stop early and never drop the rest of a file. UTF-16
//! files (re-saved by Windows editors) are transcoded by their BOM. An AWR
//! HTML report is the exception: its bytes go to the parser undecoded
//! ([`crate::awr_html::parse_bytes`]), which checks only the text it keeps
//! and decodes the whole file here only when some of that is not UTF-8.

use std::borrow::Cow;

pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    if let Some(body) = utf8_body(bytes) {
        return utf8(body);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return Cow::Owned(utf16(rest, u16::from_le_bytes));
    }
    // `utf8_body` returns `None` only after one of the two UTF-16 byte
    // order marks, and FF FE is taken above: these bytes start with FE FF.
    Cow::Owned(utf16(
        bytes.get(2..).unwrap_or_default(),
        u16::from_be_bytes,
    ))
}

/// The bytes [`decode`] reads as UTF-8: after a UTF-8 byte order mark, or
/// all of them; `None` for UTF-16 (either byte order mark), transcoded.
pub fn utf8_body(bytes: &[u8]) -> Option<&[u8]> {
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return Some(rest);
    }
    if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
        return None;
    }
    Some(bytes)
}

/// Valid UTF-8 (most reports) is checked by a SIMD validator (`simdutf8`,
/// whose `compat` errors carry the same positions and lengths as the
/// standard library's) and borrowed; a file with invalid sequences is
/// copied with each sequence replaced by U+FFFD, exactly as
/// `String::from_utf8_lossy` does, but the valid runs between them go
/// through the same validator instead of the byte-by-byte loop of the
/// lossy decoder (a GBK report has a few dozen invalid sequences in
/// megabytes of valid text).
pub(crate) fn utf8(bytes: &[u8]) -> Cow<'_, str> {
    use simdutf8::compat::from_utf8;
    let first = match from_utf8(bytes) {
        Ok(text) => return Cow::Borrowed(text),
        Err(e) => e,
    };
    let mut out = String::with_capacity(bytes.len() + 16);
    let mut rest = bytes;
    let mut error = Some(first);
    while let Some(e) = error {
        let (valid, after) = rest
            .split_at_checked(e.valid_up_to())
            .unwrap_or((rest, &[]));
        out.push_str(from_utf8(valid).unwrap_or_default());
        out.push(char::REPLACEMENT_CHARACTER);
        // No length: the input ends inside a sequence, one U+FFFD for it.
        let Some(bad) = e.error_len() else {
            return Cow::Owned(out);
        };
        rest = after.get(bad..).unwrap_or_default();
        error = from_utf8(rest).err();
    }
    out.push_str(from_utf8(rest).unwrap_or_default());
    Cow::Owned(out)
}

fn utf16(bytes: &[u8], f: fn([u8; 2]) -> u16) -> String {
    let units = bytes.chunks_exact(2).map(|c| match c {
        [a, b] => f([*a, *b]),
        _ => 0xFFFD,
    });
    char::decode_utf16(units)
        .map(|r| r.unwrap_or(char::REPLACEMENT_CHARACTER))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gbk_bytes_decode_lossily_and_keep_the_rest() {
        let bytes = b"<td>\xd6\xd0\xce\xc4</td><td>after</td>";
        let text = decode(bytes);
        assert!(text.ends_with("<td>after</td>"));
    }

    #[test]
    fn invalid_sequences_are_replaced_as_from_utf8_lossy_replaces_them() {
        let mut cases: Vec<Vec<u8>> = vec![
            b"".to_vec(),
            b"plain".to_vec(),
            b"\xd6\xd0\xce\xc4 tail".to_vec(),
            b"end inside \xe4\xb8".to_vec(),
            b"\xf0\x9f\x98".to_vec(),
            b"\xed\xa0\x80 surrogate, \xc0\x80 overlong, \xf4\x90\x80\x80 too big".to_vec(),
            "caf\u{e9} \u{4e2d}\u{6587} \u{1f600}".as_bytes().to_vec(),
        ];
        // Generated: valid text with random bytes dropped in.
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        let base = "Wait \u{4e2d}\u{6587} caf\u{e9} \u{1f600} <td>1,234</td>".as_bytes();
        for _ in 0..2_000 {
            let mut b = base.to_vec();
            for _ in 0..3 {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let at = usize::try_from(state % 64).unwrap_or(0).min(b.len());
                b.insert(at, state.to_le_bytes()[3]);
            }
            cases.push(b);
        }
        for b in &cases {
            assert_eq!(utf8(b), String::from_utf8_lossy(b), "{b:?}");
        }
    }

    #[test]
    fn utf16_with_bom_is_transcoded() {
        let mut bytes = vec![0xFF, 0xFE];
        for u in "WORKLOAD".encode_utf16() {
            bytes.extend_from_slice(&u.to_le_bytes());
        }
        assert_eq!(decode(&bytes), "WORKLOAD");
    }
}
