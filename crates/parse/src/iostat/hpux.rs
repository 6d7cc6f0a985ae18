//! HP-UX `iostat` (`iostat 5 12`): `device bps sps msps` blocks, one per
//! report, separated by blank lines.
//!
//! `bps` is kilobytes per second and `sps` transfers ("seeks") per second;
//! `msps` (milliseconds per seek) is printed as a constant 1.0 on HP-UX 11
//! and carries no service time, so it is not read. The first report is the
//! average since boot. Lines of `-t` (tty and cpu) are left out.

use awrflash_model::{Format, IostatCapture, SharedStr, Source, SourceRef};

use super::layout::{Cell, Col, Row, cell};
use super::read::{Warnings, check_last_report};
use super::summary::summarize;
use crate::ParseError;

const SECTION: &str = "iostat (HP-UX)";

/// The column line of HP-UX `iostat`: `device bps sps msps`.
pub(crate) fn is_header(line: &str) -> bool {
    line.split_whitespace().eq(["device", "bps", "sps", "msps"])
}

/// Whether the text holds an HP-UX `iostat` header.
pub fn matches(text: &str) -> bool {
    crate::fields::lines(text).take(400).any(is_header)
}

pub fn parse(path: &str, text: &str) -> Result<IostatCapture, ParseError> {
    // Built once: every row's `src` shares it.
    let src_name = SharedStr::new(SECTION);
    let mut warn = Warnings::default();
    let mut cap = IostatCapture {
        source: Source {
            path: path.to_string(),
            format: Format::IostatHpux,
            kind: None,
        },
        layout: Some("hp-ux iostat (device bps sps msps)".into()),
        ..IostatCapture::default()
    };
    let mut interval: u32 = 0;
    let mut rows_in_report = 0usize;
    let mut seen_header = false;
    for (i, line) in crate::fields::lines(text).enumerate() {
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if is_header(line) {
            seen_header = true;
            continue;
        }
        let toks: Vec<&str> = line.split_whitespace().collect();
        if toks.is_empty() {
            if rows_in_report > 0 {
                interval += 1;
                rows_in_report = 0;
            }
            continue;
        }
        let [dev, bps, sps, msps] = toks.as_slice() else {
            continue;
        };
        if !seen_header || dev.bytes().next().is_some_and(|b| b.is_ascii_digit()) {
            continue;
        }
        let mut row = Row::default();
        let mut ok = true;
        for (col, tok) in [(Col::Kb(1.0), bps), (Col::Tps, sps), (Col::Ignore, msps)] {
            match cell(tok).0 {
                Cell::Value(v) => row.set(col, v),
                Cell::Overflow => warn.push(
                    "overflow",
                    SECTION,
                    no,
                    format!("{dev}: value {tok:?} overflowed its column; left empty"),
                ),
                Cell::Invalid => {
                    warn.push(
                        "bad value",
                        SECTION,
                        no,
                        format!("{dev}: expected a number, got {tok:?}; row dropped"),
                    );
                    ok = false;
                }
            }
        }
        if !ok {
            continue;
        }
        let mut s = row.into_sample(dev, SourceRef::new(&src_name, no));
        s.interval = interval;
        s.since_boot = interval == 0;
        cap.samples.push(s);
        rows_in_report += 1;
    }
    if cap.samples.is_empty() {
        return Err(ParseError::Malformed {
            path: path.to_string(),
            line: 1,
            section: SECTION.into(),
            message: "no device rows under a `device bps sps msps` header".into(),
        });
    }
    if cap.samples.iter().all(|s| s.since_boot) {
        warn.push(
            "boot only",
            SECTION,
            0,
            "only the since-boot report: the summaries are empty (give iostat an interval and a count, e.g. `iostat 5 720`)".into(),
        );
    }
    check_last_report(&cap.samples, SECTION, &mut warn);
    cap.warnings = warn.finish(SECTION);
    summarize(&mut cap);
    Ok(cap)
}
