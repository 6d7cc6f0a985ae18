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
    if let Some(html) = awr_html_bytes(bytes) {
        let doc = awr_html::parse_bytes(path, html).map(|r| Document::Report(Box::new(r)));
        return doc.map(|doc| limits::finish(doc, Vec::new(), limits));
    }
    let text = decode::decode(bytes);
    let sniffed = sniff::sniff(&text);
    let (text, cut) = match sniffed {
        // HTML may legitimately be one long line; refusals read no further.
        Sniffed::AwrHtml | Sniffed::Unknown { .. } | Sniffed::Unsupported { .. } => {
            (text, Vec::new())
        }
        _ => limits::cap_lines(text, limits.max_line_bytes),
    };
    dispatch(path, text, sniffed).map(|doc| limits::finish(doc, cut, limits))
}

/// The bytes of an AWR HTML report after its UTF-8 byte order mark, when
/// `bytes` are one: sniffed from the decoded head, as [`sniff::sniff`]
/// tells an AWR HTML report from its head alone. The rest is left to
/// [`awr_html::parse_bytes`], which checks as UTF-8 only what it keeps.
/// `None` for any other input, and for UTF-16 (transcoded whole).
fn awr_html_bytes(bytes: &[u8]) -> Option<&[u8]> {
    let body = decode::utf8_body(bytes)?;
    // The sniffer reads this much of the decoded text: decoding never
    // shortens, so these bytes decode to at least that much.
    let head = body.get(..body.len().min(sniff::HEAD)).unwrap_or(body);
    (sniff::sniff(&decode::utf8(head)) == Sniffed::AwrHtml).then_some(body)
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
