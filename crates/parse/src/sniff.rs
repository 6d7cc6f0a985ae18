//! Format detection by content.
//!
//! Only the first part of the file is looked at (reports put their title in
//! the first lines; SQL*Plus prompt text may come before `<html>`).

/// What the content looks like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Sniffed {
    AwrHtml,
    AwrText,
    Statspack,
    /// Linux sysstat or Solaris `iostat -x`.
    Iostat,
    /// `sar` output with a device section (Linux sysstat, Solaris, HP-UX).
    Sar,
    /// nmon spreadsheet output (AIX and Linux).
    Nmon,
    /// A `v$sysstat` spool or a `name,value` CSV.
    Sysstat,
    /// A `dba_segments` CSV export.
    SegmentSizes,
    Unsupported {
        what: &'static str,
        reason: &'static str,
    },
    Unknown {
        reason: String,
    },
}

/// How much of the file the sniffer reads.
pub const HEAD: usize = 64 * 1024;

/// `needle` in the lowercased head, by the SIMD substring search (the
/// head is 64 KiB and most needles are absent, so the whole head is read).
fn has(lower: &[u8], needle: &str) -> bool {
    memchr::memmem::find(lower, needle.as_bytes()).is_some()
}

pub fn sniff(text: &str) -> Sniffed {
    sniff_head(text).finish(text)
}

/// What the head of a text tells of its format: most formats are known
/// from the head alone, but a `sar -A` capture may put its device section
/// past it, so the last outcomes hold unless the whole text is `sar`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Head {
    Known(Sniffed),
    UnlessSar(Sniffed),
}

impl Head {
    /// The format of `text`, whose head this is.
    pub(crate) fn finish(self, text: &str) -> Sniffed {
        match self {
            Head::Known(s) => s,
            Head::UnlessSar(_) if sar_device_header(text) => Sniffed::Sar,
            Head::UnlessSar(s) => s,
        }
    }
}

/// The first [`HEAD`] bytes of `text` sniffed: what [`sniff`] decides
/// before it looks further. Only those bytes are read, so a longer `text`
/// that starts with them gets the same [`Head`].
pub(crate) fn sniff_head(text: &str) -> Head {
    let mut end = text.len().min(HEAD);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = text.get(..end).unwrap_or("");
    if head.trim().is_empty() {
        return Head::Known(Sniffed::Unknown {
            reason: "the file is empty".into(),
        });
    }
    let binary = head
        .bytes()
        .take(4096)
        .filter(|&b| b == 0 || (b < 0x09))
        .count();
    if binary > 8 {
        return Head::Known(Sniffed::Unknown {
            reason: "binary content".into(),
        });
    }
    // The head is copied and lowercased in one pass, as bytes (the
    // searches are byte searches), into this thread's buffer, kept from the
    // last input: a 64 KiB allocation, copy and free per input were a
    // third of the sniffer's instructions.
    let mut lower = LOWER.with(std::cell::Cell::take);
    lower.clear();
    lower.extend(head.bytes().map(|b| b.to_ascii_lowercase()));
    let sniffed = classify(head, &lower);
    LOWER.with(|b| b.set(lower));
    sniffed
}

/// A `sar` device header anywhere in `text` (`sar -A` may put its device
/// section past the first 400 lines, past the head).
fn sar_device_header(text: &str) -> bool {
    text.contains("DEV       tps")
        || crate::fields::lines(text).any(|l| {
            let mut f = l.split_whitespace();
            f.next().is_some_and(is_clock)
                && l.split_whitespace().any(|w| w == "DEV")
                && l.split_whitespace().any(|w| w == "tps")
        })
}

thread_local! {
    /// [`sniff`]'s buffer for the lowercased head.
    static LOWER: std::cell::Cell<Vec<u8>> = const { std::cell::Cell::new(Vec::new()) };
}

/// [`sniff_head`] once the head is read and lowercased.
fn classify(head: &str, lower: &[u8]) -> Head {
    let html = has(lower, "<html") || has(lower, "<table") || has(lower, "<body");
    match classify_known(head, lower, html) {
        Some(s) => Head::Known(s),
        None => Head::UnlessSar(classify_rest(head, lower, html)),
    }
}

/// The formats the head decides whatever follows it; `None` when a `sar`
/// device header further on would still make the text `sar`.
fn classify_known(head: &str, lower: &[u8], html: bool) -> Option<Sniffed> {
    let awr_title = has(lower, "workload repository")
        || has(lower, "awr rac report")
        || has(lower, "awr report for")
        || has(lower, "awr pdb report");
    // Both ASH titles hold "ash report": one search of the head rules out
    // both on every other input.
    if has(lower, "ash report") && (has(lower, "ash report for") || has(lower, "<title>ash report"))
    {
        return Some(Sniffed::Unsupported {
            what: "an ASH report",
            reason: "awrflash reads AWR and Statspack reports; ASH samples carry no load profile or wait totals",
        });
    }
    if !awr_title && has(lower, "addm report for task") {
        return Some(Sniffed::Unsupported {
            what: "an ADDM report",
            reason: "awrflash reads AWR and Statspack reports",
        });
    }
    if html && awr_title {
        return Some(Sniffed::AwrHtml);
    }
    if has(lower, "statspack report for") {
        return Some(Sniffed::Statspack);
    }
    if awr_title {
        return Some(Sniffed::AwrText);
    }
    if crate::nmon::looks_like_nmon(head) {
        return Some(Sniffed::Nmon);
    }
    if has(lower, "extended device statistics") {
        return Some(Sniffed::Iostat);
    }
    // HP-UX `device bps sps msps`; Solaris without `-x`: `kps tps serv`.
    if crate::fields::lines(head)
        .take(400)
        .any(|l| crate::iostat::is_hpux_header(l) || crate::iostat::is_solaris_tty_columns(l))
        || crate::iostat::is_aix_extended(head)
    {
        return Some(Sniffed::Iostat);
    }
    let has_device_header = crate::fields::lines(head).take(400).any(|l| {
        let t = l.trim();
        // `iostat --pretty` and Solaris `-xn` print the device name last.
        (t.starts_with("Device") || t.starts_with("device") || t.ends_with(" Device"))
            && (t.contains("r/s") || t.contains("tps") || t.contains("rkB/s"))
    });
    if has_device_header {
        return Some(Sniffed::Iostat);
    }
    let sar_like = crate::fields::lines(head).take(400).any(|l| {
        let mut f = l.split_whitespace();
        f.next().is_some_and(is_clock)
            && l.contains("DEV")
            && (l.contains("tps") || l.contains("rd_sec/s") || l.contains("rkB/s"))
    }) || (crate::fields::lines(head)
        .take(400)
        .any(|l| l.contains("%busy") && l.contains("avque")));
    sar_like.then_some(Sniffed::Sar)
}

/// The head's format when it is none of those of [`classify_known`].
fn classify_rest(head: &str, lower: &[u8], html: bool) -> Sniffed {
    // The last checks read lines: the lowercased head as text (the
    // lowercase of valid UTF-8 is valid UTF-8, so nothing is lost).
    let lower = std::str::from_utf8(lower).unwrap_or_default();
    if looks_like_segment_csv(lower) || crate::segsizes::looks_like_spool(head) {
        return Sniffed::SegmentSizes;
    }
    if looks_like_sysstat(lower) {
        return Sniffed::Sysstat;
    }
    if html {
        return Sniffed::Unknown {
            reason:
                "HTML without an AWR report title (WORKLOAD REPOSITORY report / AWR RAC report)"
                    .into(),
        };
    }
    Sniffed::Unknown {
        reason:
            "no AWR, Statspack, iostat, sar, nmon, sysstat or dba_segments signature in the first 64 KiB"
                .into(),
    }
}

fn is_clock(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 8 && b.get(2) == Some(&b':') && b.get(5) == Some(&b':')
}

fn looks_like_segment_csv(lower: &str) -> bool {
    let first = crate::fields::lines(lower)
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    first.contains("segment_name")
        && first.contains("owner")
        && (first.contains("bytes") || first.contains("mb") || first.contains("gb"))
}

fn looks_like_sysstat(lower: &str) -> bool {
    let first = crate::fields::lines(lower)
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let csv_header = first.replace([' ', '"'], "");
    if csv_header.starts_with("name,value") || csv_header.starts_with("statistic,value") {
        return true;
    }
    // `snap_time,name,value` and other column orders.
    let fields: Vec<&str> = csv_header.split([',', ';', '\t']).collect();
    if fields.len() >= 2
        && fields
            .iter()
            .any(|f| matches!(*f, "name" | "stat_name" | "statistic"))
        && fields.iter().any(|f| matches!(*f, "value" | "delta"))
    {
        return true;
    }
    // SQL*Plus spool of `select name, value from v$sysstat`: a NAME/VALUE
    // header, and statistic names awrflash knows.
    let header = crate::fields::lines(lower).take(200).any(|l| {
        let mut w = l.split_whitespace();
        matches!(w.next(), Some("name")) && matches!(w.next(), Some("value"))
    }) || crate::fields::lines(lower).take(200).any(|l| {
        // `STATISTIC# NAME CLASS VALUE` and other column lists, `colsep` too.
        let l = l.replace(['|', ','], " ");
        let w: Vec<&str> = l.split_whitespace().collect();
        w.len() <= 8 && w.contains(&"name") && (w.contains(&"value") || w.contains(&"delta"))
    });
    let lower = lower.as_bytes();
    header
        && (has(lower, "physical read")
            || has(lower, "flash cache")
            || has(lower, "redo size")
            || has(lower, "session logical reads"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_and_binary_inputs_are_unknown() {
        assert!(matches!(sniff(""), Sniffed::Unknown { .. }));
        assert!(matches!(
            sniff("\0\0\0\0\x01\x02\x03\x04\x05\x06\x07\x08\0\0"),
            Sniffed::Unknown { .. }
        ));
    }

    /// The lowercased head is kept in a buffer from one input to the next:
    /// what a long input left in it must not reach a shorter one.
    #[test]
    fn an_input_is_sniffed_alone_after_a_longer_one() {
        let long = format!(
            "<html><title>AWR Report</title><h1>WORKLOAD REPOSITORY report for</h1>{}",
            " ".repeat(70_000)
        );
        assert_eq!(sniff(&long), Sniffed::AwrHtml);
        assert_eq!(sniff("STATSPACK report for\n"), Sniffed::Statspack);
        assert_eq!(
            sniff("owner,segment_name,bytes\nA,B,1\n"),
            Sniffed::SegmentSizes
        );
        assert!(matches!(sniff("hello"), Sniffed::Unknown { .. }));
    }

    #[test]
    fn report_titles_pick_the_format() {
        assert_eq!(
            sniff(
                "<html><title>AWR Report for DB: X</title><h1>WORKLOAD REPOSITORY report for</h1>"
            ),
            Sniffed::AwrHtml
        );
        assert_eq!(
            sniff("\nWORKLOAD REPOSITORY report for\n\nDB Name"),
            Sniffed::AwrText
        );
        assert_eq!(sniff("STATSPACK report for\n"), Sniffed::Statspack);
        assert_eq!(
            sniff("owner,segment_name,bytes\nA,B,1\n"),
            Sniffed::SegmentSizes
        );
        assert_eq!(sniff("name,value\nredo size,1\n"), Sniffed::Sysstat);
    }
}
