//! Who and when a report is, read from the head of its input only.
//!
//! Stage: parse. Input: the first bytes of one input (already decompressed;
//! [`HEAD_BYTES`] are enough for every report of the corpus). Output: the
//! report's [`Source`] and [`Header`] when the head is an AWR or Statspack
//! report whose header it holds, `None` otherwise (another format, or a
//! header the head does not reach): the caller then parses the whole input.
//!
//! A run groups, orders, deduplicates and attaches by these fields before it
//! parses any report whole, so it can hold one database's reports at a time.
//! The head goes through the same parser as the whole input, cut at its last
//! line break, reading only the sections a header draws on (the header
//! tables, the OS statistics): the identity, snapshot and host fields come
//! out as the whole parse gives them (tested over every report of the
//! corpus), for a little over half the instructions of reading every
//! section of the head. Fields that the normalisation pass fills from later
//! sections when the header lacks them (CPUs and cores from the OS
//! statistics) may be missing from a head that ends before them.

use awrflash_model::{Header, Source};

use crate::sniff::{self, Sniffed};

/// How much of an input [`parse_head`] wants. The header of an AWR or
/// Statspack report sits in its first KB, except on a RAC global report,
/// whose sockets and memory come from a table past the first 16 KiB in the
/// corpus; 64 KiB gives every corpus report's whole header.
pub const HEAD_BYTES: usize = 64 * 1024;

/// A report's source and header read from `head`, the first bytes of the
/// input named `path`. `None` when the head is not a report, or its header
/// cannot be read from the head alone.
pub fn parse_head(path: &str, head: &[u8]) -> Option<(Source, Header)> {
    let text = crate::decode::decode(head);
    // The last line of a head is cut anywhere: leave it out.
    let end = text.rfind('\n')?;
    let text = text.get(..=end)?;
    // The same parsers as for the whole input, reading only the sections
    // a header draws on.
    let r = match sniff::sniff(text) {
        Sniffed::AwrHtml => crate::awr_html::parse_header(path, text),
        Sniffed::AwrText => crate::awr_text::parse_header(path, text),
        Sniffed::Statspack => crate::statspack::parse_header(path, text),
        _ => return None,
    }
    .ok()?;
    // A head with no snapshot or time has not reached the end of the
    // header: the whole input decides.
    let h = &r.header;
    if h.begin_snap.is_none() && h.begin_time.is_none() {
        return None;
    }
    Some((r.source, r.header))
}
