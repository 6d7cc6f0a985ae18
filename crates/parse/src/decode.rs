//! Bytes to text, never failing.
//!
//! Oracle writes reports in the database character set: SQL text in a
//! GBK/GB18030 database is not UTF-8 even though the markup is ASCII. The
//! whole file is decoded lossily (invalid sequences become U+FFFD) so the
//! tokenizers never stop early and never drop the rest of a file. UTF-16
//! files (re-saved by Windows editors) are transcoded by their BOM.

use std::borrow::Cow;

pub fn decode(bytes: &[u8]) -> Cow<'_, str> {
    if let Some(rest) = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]) {
        return String::from_utf8_lossy(rest);
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFF, 0xFE]) {
        return Cow::Owned(utf16(rest, u16::from_le_bytes));
    }
    if let Some(rest) = bytes.strip_prefix(&[0xFE, 0xFF]) {
        return Cow::Owned(utf16(rest, u16::from_be_bytes));
    }
    // Valid UTF-8 (most reports) is checked by the fast validator; only a
    // file with invalid sequences pays for the lossy pass.
    match std::str::from_utf8(bytes) {
        Ok(text) => Cow::Borrowed(text),
        Err(_) => String::from_utf8_lossy(bytes),
    }
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
    fn utf16_with_bom_is_transcoded() {
        let mut bytes = vec![0xFF, 0xFE];
        for u in "WORKLOAD".encode_utf16() {
            bytes.extend_from_slice(&u.to_le_bytes());
        }
        assert_eq!(decode(&bytes), "WORKLOAD");
    }
}
