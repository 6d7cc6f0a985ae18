//! awrflash-parse: from input bytes to the model.
//!
//! Stage: parse. Input: the bytes of one file (already decompressed) and the
//! path to name it by. Output: an [`awrflash_model::Document`] with warnings
//! for anything recognised but not understood, or a [`ParseError`] when the
//! input is not usable at all. Formats are detected by content, never by the
//! file name.

pub mod awr_html;
pub mod awr_text;
pub mod decode;
pub mod error;
pub mod fields;
pub mod head;
pub mod iostat;
pub mod limits;
pub mod names;
pub mod nmon;
pub mod normalize;
pub mod num;
pub mod registry;
pub mod sar;
pub mod segsizes;
pub mod separators;
pub mod sniff;
mod stamp;
pub mod statspack;
pub mod sysstat;
pub mod textreport;
pub mod words;

pub use error::ParseError;
pub use head::{HEAD_BYTES, parse_head};
pub use limits::Limits;
pub use sniff::Sniffed;

use std::borrow::Cow;

use awrflash_model::Document;

/// Parses one input whose format is detected from its content, within the
/// default [`Limits`].
pub fn parse_bytes(path: &str, bytes: &[u8]) -> Result<Document, ParseError> {
    parse_bytes_with(path, bytes, &Limits::default())
}

/// [`parse_bytes`] with explicit limits: an input above the size limit is an
/// error; over-long lines of line-oriented formats are cut with a warning
/// (see [`limits`]).
pub fn parse_bytes_with(path: &str, bytes: &[u8], limits: &Limits) -> Result<Document, ParseError> {
    limits.check_len(path, u64::try_from(bytes.len()).unwrap_or(u64::MAX))?;
    let head = utf8_head(bytes);
    if let Some((body, sniff::Head::Known(Sniffed::AwrHtml))) = &head {
        // An AWR HTML report's bytes go to the parser as they are: it
        // checks as UTF-8 only what it keeps.
        let doc = awr_html::parse_bytes(path, body).map(|r| Document::Report(Box::new(r)));
        return doc.map(|doc| limits::finish(doc, Vec::new(), limits));
    }
    let text = decode::decode(bytes);
    let sniffed = match head {
        Some((_, head)) => head.finish(&text),
        None => sniff::sniff(&text),
    };
    let (text, cut) = match sniffed {
        // HTML may legitimately be one long line; refusals read no further.
        Sniffed::AwrHtml | Sniffed::Unknown { .. } | Sniffed::Unsupported { .. } => {
            (text, Vec::new())
        }
        _ => limits::cap_lines(text, limits.max_line_bytes),
    };
    dispatch(path, text, sniffed).map(|doc| limits::finish(doc, cut, limits))
}

/// The bytes [`decode::decode`] reads as UTF-8 and their sniffed head, decoded
/// from a prefix of them alone: the same [`sniff::Head`] as the decoded
/// whole's, so the sniff is not run again on it. `None` for UTF-16
/// (transcoded whole first).
///
/// The prefix decodes to the decoded whole's first bytes and to more than
/// the [`sniff::HEAD`] the sniffer reads (it tells where that cut falls on
/// a character boundary by the byte after it): [`sniff::HEAD`] + 8 bytes,
/// less a trailing character the cut may split. The lossy decoder never
/// reads past the start of the next character, so the bytes before one
/// decode alike whatever follows, and decoding never shortens.
fn utf8_head(bytes: &[u8]) -> Option<(&[u8], sniff::Head)> {
    let body = decode::utf8_body(bytes)?;
    Some((body, sniff::sniff_head(&decode::utf8(head_bytes(body)))))
}

/// The format [`parse_bytes`] sniffs in `bytes` from their head alone
/// ([`utf8_head`]), for the fuzz target that compares it with
/// [`sniff::sniff`] of the decoded whole; `None` for UTF-16.
#[doc(hidden)]
pub fn sniff_bytes(bytes: &[u8]) -> Option<Sniffed> {
    let (_, head) = utf8_head(bytes)?;
    Some(head.finish(&decode::decode(bytes)))
}

/// The prefix of `body` that [`utf8_head`] decodes.
fn head_bytes(body: &[u8]) -> &[u8] {
    match body.get(..sniff::HEAD + 8) {
        Some(prefix) if prefix.len() < body.len() => {
            // The last byte that starts a character (or is ASCII) in the
            // last four: a character the cut splits starts there.
            let start = (sniff::HEAD + 4..sniff::HEAD + 8)
                .rev()
                .find(|&i| prefix.get(i).is_some_and(|&b| b & 0xC0 != 0x80));
            start.map_or(prefix, |i| prefix.get(..i).unwrap_or(prefix))
        }
        _ => body,
    }
}

/// How much of a report a parser reads: all of it, or what its source and
/// header need ([`parse_head`]).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Part {
    Whole,
    Header,
}

/// Hands decoded text to the parser of its sniffed format.
fn dispatch(path: &str, text: Cow<'_, str>, sniffed: Sniffed) -> Result<Document, ParseError> {
    match sniffed {
        Sniffed::AwrHtml => awr_html::parse(path, &text).map(|r| Document::Report(Box::new(r))),
        Sniffed::AwrText => awr_text::parse(path, &text).map(|r| Document::Report(Box::new(r))),
        Sniffed::Statspack => statspack::parse(path, &text).map(|r| Document::Report(Box::new(r))),
        Sniffed::Iostat => iostat::parse(path, &text).map(|c| Document::Iostat(Box::new(c))),
        Sniffed::Sar => sar::parse(path, &text).map(|c| Document::Iostat(Box::new(c))),
        Sniffed::Nmon => nmon::parse(path, &text).map(|c| Document::Iostat(Box::new(c))),
        Sniffed::Sysstat => sysstat::parse(path, &text).map(|s| Document::Sysstat(Box::new(s))),
        Sniffed::SegmentSizes => {
            segsizes::parse(path, &text).map(|s| Document::SegmentSizes(Box::new(s)))
        }
        Sniffed::Unsupported { what, reason } => Err(ParseError::Unsupported {
            path: path.to_string(),
            what: what.to_string(),
            reason: reason.to_string(),
        }),
        Sniffed::Unknown { reason } => Err(ParseError::UnknownFormat {
            path: path.to_string(),
            reason,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Characters of every length, invalid and cut sequences, each at
    /// every offset around the cut of the head.
    fn bodies() -> Vec<Vec<u8>> {
        let pieces: [&[u8]; 8] = [
            b"a",
            "é".as_bytes(),
            "€".as_bytes(),
            "😀".as_bytes(),
            b"\xFF",
            b"\x80",
            b"\xE2\x82",
            b"\xF0\x9F\x98",
        ];
        let mut out = Vec::new();
        for piece in pieces {
            for at in sniff::HEAD - 8..sniff::HEAD + 12 {
                for tail in [0, 1, 3, 100] {
                    let mut b = vec![b'x'; at];
                    b.extend_from_slice(piece);
                    b.extend(std::iter::repeat_n(b'y', tail));
                    out.push(b);
                }
            }
        }
        out
    }

    /// What the sniffer is given decodes to the decoded whole's first bytes,
    /// and past the head it reads unless it is the whole.
    #[test]
    fn the_head_decodes_as_the_start_of_the_whole() {
        for body in bodies() {
            let head = head_bytes(&body);
            let (part, whole) = (decode::utf8(head), decode::utf8(&body));
            assert!(whole.starts_with(part.as_ref()), "{} bytes", body.len());
            assert!(
                head.len() == body.len() || part.len() > sniff::HEAD,
                "{} bytes: a head of {}",
                body.len(),
                part.len()
            );
        }
    }

    /// The sniffed head of the bytes is the decoded whole's: the format is
    /// the one `sniff` gives the whole, also for a `sar -A` capture whose
    /// device section comes past the head.
    #[test]
    fn the_head_of_the_bytes_sniffs_as_the_whole() {
        // A seventh of them, bare and under a report title (each input is
        // sniffed twice, 64 KiB a time).
        let mut inputs: Vec<Vec<u8>> = bodies().into_iter().step_by(7).collect();
        let title = b"\nWORKLOAD REPOSITORY report for\n\nDB Name\n".to_vec();
        for mut b in bodies().into_iter().skip(3).step_by(7) {
            b.splice(0..0, title.iter().copied());
            inputs.push(b);
        }
        let mut sar = String::from("Linux 5.4 (db01) \t01/02/2026 \t_x86_64_\t(8 CPU)\n\n");
        while sar.len() < sniff::HEAD + 1000 {
            sar.push_str("10:00:01 AM     CPU     %user     %nice   %system\n");
        }
        sar.push_str("10:00:01 AM       DEV       tps  rd_sec/s  wr_sec/s\n");
        inputs.push(sar.into_bytes());
        let mut seen_sar = false;
        for bytes in inputs {
            let whole = sniff::sniff(&decode::decode(&bytes));
            let (_, head) = utf8_head(&bytes).expect("UTF-8 input");
            seen_sar |= matches!(head, sniff::Head::UnlessSar(_)) && whole == Sniffed::Sar;
            assert_eq!(head.finish(&decode::decode(&bytes)), whole);
        }
        assert!(seen_sar, "the sar capture is known only from the whole");
    }
}
