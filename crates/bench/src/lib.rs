//! awrflash-bench: helpers for the throughput benchmark.
//!
//! Stage: none (measurement only; `cargo bench -p awrflash-bench` runs
//! `benches/throughput.rs`). Input: the shared corpus beside the workspace.
//! Output: timings printed by the bench. Here (the corpus is found by
//! `awrflash-testkit`): the raw tokenizer scan the parser is compared with, making batch copies of a
//! report with distinct snapshot ids, and reading peak RSS.

use std::time::{Duration, Instant};

use awrflash_parse::words::{find1, tag_end};
use quick_xml::events::Event;

/// What a raw tokenizer pass saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scan {
    pub events: u64,
    /// Bytes of text content seen (keeps the pass from being optimised out).
    pub text_bytes: u64,
    /// Where the tokenizer gave up, if it did before the end.
    pub stopped_at: Option<u64>,
}

/// The lenient scans the HTML parser is measured against, fastest first in
/// intent. Each walks the raw bytes of a report once and counts what it saw.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Floor {
    /// `memchr` from each `<` to its `>`: tags and the text between them,
    /// no UTF-8 check, no names, no attributes. A `>` inside a quoted
    /// attribute value ends its tag here (it does not in HTML, nor for the
    /// parser).
    TagScan,
    /// [`Floor::TagScan`] that skips quoted attribute values on the way to
    /// a tag's `>`, as the parser and quick-xml do: the cheapest scan here
    /// that finds the same tags as they do in every report.
    QuotedTagScan,
    /// quick-xml 0.39's slice reader over the bytes (its events are bytes,
    /// no per-event UTF-8 check), lenient configuration.
    QuickXmlBytes,
    /// quick-xml 0.42 (the parser's tokenizer until now) over the decoded
    /// text: every event is UTF-8 checked.
    QuickXmlStr,
}

impl Floor {
    pub const ALL: [Floor; 4] = [
        Floor::TagScan,
        Floor::QuotedTagScan,
        Floor::QuickXmlBytes,
        Floor::QuickXmlStr,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Floor::TagScan => "memchr tag scan",
            Floor::QuotedTagScan => "memchr quoted tag scan",
            Floor::QuickXmlBytes => "quick-xml 0.39 bytes",
            Floor::QuickXmlStr => "quick-xml 0.42 str",
        }
    }

    /// Runs this scan over `bytes` (the 0.42 scan decodes them first, as
    /// the parser did).
    pub fn run(self, bytes: &[u8]) -> Scan {
        match self {
            Floor::TagScan => tag_scan(bytes),
            Floor::QuotedTagScan => quoted_tag_scan(bytes),
            Floor::QuickXmlBytes => quick_xml_bytes_scan(bytes),
            Floor::QuickXmlStr => raw_scan(&awrflash_parse::decode::decode(bytes)),
        }
    }
}

/// Counts tags and text runs: from each `<` to the next `>` is a tag, the
/// bytes between a `>` and the next `<` are text. The cheapest lenient
/// tokenization of HTML there is.
pub fn tag_scan(bytes: &[u8]) -> Scan {
    scan_tags(
        bytes,
        |r| memchr::memchr(b'<', r),
        |tag| memchr::memchr(b'>', tag),
    )
}

/// [`tag_scan`] with quoted attribute values skipped: from each `<`, the
/// next `>`, `"` or `'`; a quote is skipped to its match, and the first `>`
/// outside quotes ends the tag. Each search reads four 8-byte words before
/// it calls `memchr` (most spans of AWR HTML end within them), with the
/// parser's own tag end ([`awrflash_parse::words::tag_end`]): with `memchr`
/// calls alone this scan read 966 MB/s of the corpus, with the words 1,386
/// MB/s.
pub fn quoted_tag_scan(bytes: &[u8]) -> Scan {
    scan_tags(bytes, |r| find1(b'<', r), tag_end)
}

/// The loop of the tag scans: text up to the next `<` (`next_lt`), then a
/// tag up to its `>` (`gt`, on the bytes after the `<`); where a tag has
/// no `>`, the scan stops after its `<`.
#[inline(always)]
fn scan_tags(
    bytes: &[u8],
    next_lt: impl Fn(&[u8]) -> Option<usize>,
    gt: impl Fn(&[u8]) -> Option<usize>,
) -> Scan {
    let mut scan = Scan::default();
    let mut rest = bytes;
    loop {
        let Some(lt) = next_lt(rest) else {
            if !rest.is_empty() {
                scan.events += 1;
                scan.text_bytes += rest.len() as u64;
            }
            break;
        };
        if lt > 0 {
            scan.events += 1;
            scan.text_bytes += lt as u64;
        }
        let tag = rest.get(lt + 1..).unwrap_or_default();
        let Some(end) = gt(tag) else {
            scan.stopped_at = Some((bytes.len() - tag.len()) as u64);
            break;
        };
        scan.events += 1;
        rest = tag.get(end + 1..).unwrap_or_default();
    }
    scan
}

/// quick-xml 0.39's slice reader over the raw bytes, lenient, events counted.
pub fn quick_xml_bytes_scan(bytes: &[u8]) -> Scan {
    use quick_xml_bytes::events::Event as E;
    let mut reader = quick_xml_bytes::Reader::from_reader(bytes);
    let config = reader.config_mut();
    config.check_end_names = false;
    config.check_comments = false;
    config.allow_unmatched_ends = true;
    config.allow_dangling_amp = true;
    let mut scan = Scan::default();
    loop {
        match reader.read_event() {
            Ok(E::Eof) => break,
            Ok(E::Text(t)) => {
                scan.events += 1;
                scan.text_bytes += t.len() as u64;
            }
            Ok(_) => scan.events += 1,
            Err(_) => {
                scan.stopped_at = Some(reader.buffer_position());
                break;
            }
        }
    }
    scan
}

/// quick-xml 0.42's event loop over the decoded text in the parser's
/// lenient configuration, doing nothing with the events.
pub fn raw_scan(text: &str) -> Scan {
    let mut reader = quick_xml::Reader::from_str(text);
    let config = reader.config_mut();
    config.check_end_names = false;
    config.check_comments = false;
    config.allow_unmatched_ends = true;
    config.allow_dangling_amp = true;
    let mut scan = Scan::default();
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => break,
            Ok(Event::Text(t)) => {
                scan.events += 1;
                scan.text_bytes += t.len() as u64;
            }
            Ok(_) => scan.events += 1,
            Err(_) => {
                scan.stopped_at = Some(reader.buffer_position());
                break;
            }
        }
    }
    scan
}

/// Replaces the snapshot ids after the `Begin Snap:` and `End Snap:` labels
/// (instance AWR HTML/text and Statspack headers) so that copies of one
/// report read as distinct intervals. `None` when the labels are missing
/// (RAC global reports, 9i Statspack).
pub fn with_snap_ids(bytes: &[u8], begin: u64, end: u64) -> Option<Vec<u8>> {
    let [prefix, mid, suffix] = snap_id_parts(bytes)?;
    let mut out = Vec::with_capacity(bytes.len() + 16);
    out.extend_from_slice(prefix);
    out.extend_from_slice(begin.to_string().as_bytes());
    out.extend_from_slice(mid);
    out.extend_from_slice(end.to_string().as_bytes());
    out.extend_from_slice(suffix);
    Some(out)
}

/// The report around its two snapshot ids: what comes before the begin
/// id, between the ids, and after the end id.
pub fn snap_id_parts(bytes: &[u8]) -> Option<[&[u8]; 3]> {
    let (b_at, b_len) = number_after(bytes, b"Begin Snap:", 0)?;
    let (e_at, e_len) = number_after(bytes, b"End Snap:", b_at + b_len)?;
    Some([
        bytes.get(..b_at)?,
        bytes.get(b_at + b_len..e_at)?,
        bytes.get(e_at + e_len..)?,
    ])
}

/// The corpus reports a batch copies: instance AWR (HTML and text) and
/// Statspack reports with `Begin Snap:` / `End Snap:` labels, by file name.
pub fn copy_sources(corpus: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    awrflash_testkit::files_below(corpus)
        .into_iter()
        .filter(|p| {
            let s = p.to_string_lossy();
            s.contains("/awr-html/") || s.contains("/awr-text/") || s.contains("/statspack/")
        })
        .filter_map(|p| {
            let bytes = std::fs::read(&p).ok()?;
            with_snap_ids(&bytes, 1, 2)?;
            Some((p.file_name()?.to_string_lossy().to_string(), bytes))
        })
        .collect()
}

/// The header of the report `bytes`, read from its head as a run's first
/// pass reads it.
pub fn header_of(bytes: &[u8]) -> Option<awrflash_model::Header> {
    let head = bytes.get(..bytes.len().min(awrflash_parse::HEAD_BYTES))?;
    Some(awrflash_parse::parse_head("copy", head)?.1)
}

/// A copy of the report `bytes` that reads as another database: the
/// header's DBID (its first digits after the first `DB Id` label) with the
/// last four digits replaced by `variant` (0 to 9,999). The length stays the
/// same, so the columns of a text header stay aligned. `None` when the
/// header shows no DBID of five digits or more, or the copy does not read
/// back with the new DBID.
pub fn with_dbid(bytes: &[u8], variant: u32) -> Option<Vec<u8>> {
    let dbid_of = |b: &[u8]| header_of(b)?.dbid;
    let digits = dbid_of(bytes)?.to_string();
    if digits.len() < 5 || variant > 9_999 {
        return None;
    }
    let new = format!("{}{variant:04}", digits.get(..digits.len() - 4)?);
    let label = memchr::memmem::find(bytes, b"DB Id")?;
    let at = memchr::memmem::find(bytes.get(label..)?, digits.as_bytes())? + label;
    let mut out = bytes.to_vec();
    out.get_mut(at..at + new.len())?
        .copy_from_slice(new.as_bytes());
    (dbid_of(&out)?.to_string() == new).then_some(out)
}

/// Gzip copies of one report with rewritten snapshot ids, cheap to make by
/// the hundred thousand: the text before the begin id and after the end id
/// is compressed once, and each copy is three gzip members (before, the
/// ids with what lies between them, after), which a multi-member gzip
/// reader (awrflash's) reads as the one rewritten report.
pub struct GzipCopies {
    head: Vec<u8>,
    mid: Vec<u8>,
    tail: Vec<u8>,
}

impl GzipCopies {
    pub fn new(bytes: &[u8]) -> Option<GzipCopies> {
        let [prefix, mid, suffix] = snap_id_parts(bytes)?;
        Some(GzipCopies {
            head: gzip(prefix).ok()?,
            mid: mid.to_vec(),
            tail: gzip(suffix).ok()?,
        })
    }

    /// The copy with snapshot ids `begin` and `end`.
    pub fn copy(&self, begin: u64, end: u64) -> std::io::Result<Vec<u8>> {
        let mut ids = begin.to_string().into_bytes();
        ids.extend_from_slice(&self.mid);
        ids.extend_from_slice(end.to_string().as_bytes());
        let mut out = self.head.clone();
        out.extend(gzip(&ids)?);
        out.extend_from_slice(&self.tail);
        Ok(out)
    }
}

fn gzip(bytes: &[u8]) -> std::io::Result<Vec<u8>> {
    use std::io::Write;
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    z.write_all(bytes)?;
    z.finish()
}

/// The 1-minute load average (`/proc/loadavg`), `?` where unreadable.
pub fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

/// The first run of digits after `label` (from `from`), outside any tag.
fn number_after(bytes: &[u8], label: &[u8], from: usize) -> Option<(usize, usize)> {
    let rest = bytes.get(from..)?;
    let at = rest.windows(label.len()).position(|w| w == label)? + from + label.len();
    let mut in_tag = false;
    let tail = bytes.get(at..)?;
    for (i, &b) in tail.iter().enumerate().take(512) {
        match b {
            b'<' => in_tag = true,
            b'>' => in_tag = false,
            b'0'..=b'9' if !in_tag => {
                let len = tail
                    .get(i..)?
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                return Some((at + i, len));
            }
            _ => {}
        }
    }
    None
}

/// Runs `f` until at least `min` has passed (and at least `min_runs`
/// times) and returns the fastest run: the figure least disturbed by other
/// work on a shared machine.
pub fn best_of(min: Duration, min_runs: u32, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut runs = 0;
    while runs < min_runs || start.elapsed() < min {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
        runs += 1;
    }
    best
}

/// MB/s (10^6 bytes per second).
pub fn mb_per_s(bytes: u64, d: Duration) -> f64 {
    let secs = d.as_secs_f64();
    if secs <= 0.0 {
        return 0.0;
    }
    // Corpus sizes are far below 2^53 bytes.
    #[allow(clippy::cast_precision_loss)]
    let mb = bytes as f64 / 1e6;
    mb / secs
}

/// Peak resident set size of this process in KiB (`VmHWM`), Linux only.
pub fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The CPU model name, for the report's machine line.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snap_ids_are_replaced_in_html_headers() {
        let html =
            b"<td>Begin Snap:</td><td align=\"right\" class='awrnc'>5</td><td>20-Oct-24</td>\
<td>End Snap:</td><td class='awrc'>7</td>";
        let out = with_snap_ids(html, 1001, 1002).unwrap_or_default();
        let out = String::from_utf8_lossy(&out);
        assert!(out.contains("'awrnc'>1001</td><td>20-Oct-24"), "{out}");
        assert!(out.contains("'awrc'>1002</td>"), "{out}");
    }

    #[test]
    fn snap_ids_are_replaced_in_text_headers() {
        let text = b"Begin Snap:      2668 04-Feb-23 19:00:39\n  End Snap:      2669 04-Feb-23\n";
        let out = with_snap_ids(text, 7, 8).unwrap_or_default();
        assert_eq!(
            String::from_utf8_lossy(&out),
            "Begin Snap:      7 04-Feb-23 19:00:39\n  End Snap:      8 04-Feb-23\n"
        );
    }

    #[test]
    fn gzip_copies_read_back_as_the_rewritten_report() {
        use std::io::Read;
        let text = b"Begin Snap:      2668 04-Feb-23 19:00:39\n  End Snap:      2669 04-Feb-23\n";
        let copies = GzipCopies::new(text).unwrap();
        let gz = copies.copy(7, 8).unwrap();
        let mut back = Vec::new();
        flate2::read::MultiGzDecoder::new(gz.as_slice())
            .read_to_end(&mut back)
            .unwrap();
        assert_eq!(back, with_snap_ids(text, 7, 8).unwrap());
    }

    #[test]
    fn a_dbid_copy_reads_as_another_database_of_the_same_report() {
        let Some(dir) = awrflash_testkit::corpus("") else {
            return;
        };
        let mut rewritten = 0;
        for (name, bytes) in copy_sources(&dir) {
            let Some(copy) = with_dbid(&bytes, 42) else {
                continue;
            };
            rewritten += 1;
            let (a, b) = (
                awrflash_parse::parse_bytes(&name, &bytes).unwrap(),
                awrflash_parse::parse_bytes(&name, &copy).unwrap(),
            );
            let (awrflash_model::Document::Report(a), awrflash_model::Document::Report(b)) = (a, b)
            else {
                panic!("{name}: not a report");
            };
            let dbid = b.header.dbid.unwrap().to_string();
            assert!(dbid.ends_with("0042"), "{name}: {dbid}");
            assert_ne!(a.header.dbid, b.header.dbid, "{name}");
            // Only the DBID differs: same length, same figures.
            assert_eq!(copy.len(), bytes.len());
            let mut same = b.clone();
            same.header.dbid = a.header.dbid;
            assert!(same == a, "{name}: more than the DBID differs");
        }
        assert!(rewritten >= 20, "{rewritten} corpus reports rewritten");
    }

    #[test]
    fn reports_without_snap_labels_are_left_alone() {
        assert_eq!(with_snap_ids(b"Begin snapshot 1", 1, 2), None);
    }

    #[test]
    fn every_floor_reads_unbalanced_html_to_the_end() {
        let html = b"<html><table><tr><td>1<td>2</tr></table></body></html>";
        for floor in Floor::ALL {
            let scan = floor.run(html);
            assert_eq!(scan.stopped_at, None, "{}", floor.name());
            assert_eq!(scan.text_bytes, 2, "{}", floor.name());
            assert!(scan.events >= 10, "{}: {scan:?}", floor.name());
        }
    }

    #[test]
    fn tag_scan_stops_at_an_unclosed_tag() {
        let scan = tag_scan(b"ab<td>c<tr");
        assert_eq!(scan.stopped_at, Some(8));
        assert_eq!(scan.text_bytes, 3);
        assert_eq!(scan.events, 3);
    }

    #[test]
    fn only_the_quoted_tag_scan_reads_a_quoted_gt_as_a_tag_reads_it() {
        let html = b"<td headers=\"a >=1\" c='>'>x</td><p a=\"1";
        // The plain scan ends the tag at the first `>` and reads the rest
        // of the attributes as text; the quoted scan reads the cell's text.
        assert_eq!(tag_scan(html).text_bytes, 11);
        let quoted = quoted_tag_scan(html);
        assert_eq!(quoted.text_bytes, 1);
        assert_eq!(quoted.events, 3);
        // An unclosed quote leaves the last tag open.
        assert_eq!(quoted.stopped_at, Some(33));
        assert_eq!(quick_xml_bytes_scan(html).text_bytes, 1);
    }

    #[test]
    fn raw_scan_counts_events_of_unbalanced_html() {
        let scan = raw_scan("<html><table><tr><td>1<td>2</tr></table></body></html>");
        assert_eq!(scan.stopped_at, None);
        assert_eq!(scan.text_bytes, 2);
        assert!(scan.events >= 10, "{scan:?}");
    }
}
