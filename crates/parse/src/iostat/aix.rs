//! AIX `iostat -D` (extended drive report, one block per disk) and
//! `iostat -Dl` (the same figures, one line per disk).
//!
//! ```text
//! hdisk1          xfer:  %tm_act      bps      tps      bread      bwrtn
//!                          71.5     50.4M   6000.0      48.0M       2.4M
//!                 read:      rps  avgserv  minserv  maxserv   timeouts      fails
//!                        5600.0      6.2      0.2     80.1           0          0
//!                 write:     wps  avgserv  minserv  maxserv   timeouts      fails
//!                         400.0      1.1      0.3     20.0           0          0
//!                 queue:  avgtime  mintime  maxtime  avgwqsz    avgsqsz     sqfull
//!                           3.1      0.0     40.2      0.3        0.5         0
//! ```
//!
//! `bps`, `bread` and `bwrtn` are bytes per second with K/M/G/T suffixes
//! (powers of 1024); service and queue times are in ms (an `S` suffix
//! means seconds). A request's time is its service time plus its time in
//! the wait queue, so `r_await`/`w_await` are `avgserv + avgtime`, as
//! iostat's await on Linux. The first report is the average since boot.
//! `-T` adds the time of day at the end of the `xfer` (or `-Dl`) line.

use awrflash_model::{DeviceSample, Format, IostatCapture, SharedStr, Source, SourceRef};

use super::layout::{Col, Row};
use super::read::{Warnings, check_last_report};
use super::summary::summarize;
use crate::ParseError;
use crate::num::{Num, Suffix, parse_num};
use crate::stamp;

const SECTION: &str = "iostat -D (AIX)";

/// Whether the text holds an AIX extended drive report.
pub fn matches(text: &str) -> bool {
    crate::fields::lines(text).take(400).any(|l| {
        let t = l.trim_start();
        t.starts_with("xfer:") && l.contains("%tm_act")
            || l.split_whitespace().nth(1) == Some("xfer:")
            || (t.starts_with("%tm") && l.contains("bread") && l.contains("bwrtn"))
    })
}

/// One value: a number with an optional K/M/G/T (1024) suffix, or a time
/// with an `S` (seconds) suffix when `ms`.
fn value(tok: &str, ms: bool) -> Option<f64> {
    if ms && let Some(s) = tok.strip_suffix('S') {
        return value(s, false).map(|v| v * 1000.0);
    }
    match parse_num(tok, Suffix::Binary) {
        Num::Value(v) => Some(v),
        _ => None,
    }
}

/// Figures (in `-Dl` order) that are times in ms: read and write
/// avg/min/max service, queue avg/min/max time.
fn is_time(k: usize) -> bool {
    matches!(k, 6..=8 | 12..=14 | 17..=19)
}

/// A `hh:mm:ss` token at the end of a line (`-T`).
fn time_of(tok: Option<&&str>) -> Option<u32> {
    let t = tok?;
    (t.len() == 8 && t.as_bytes().get(2) == Some(&b':')).then_some(())?;
    stamp::parse_time(t, None)
}

/// Fills a row from the 23 figures of one disk, in `-Dl` order.
fn fill(vals: &[f64]) -> Row {
    let v = |i: usize| vals.get(i).copied();
    let mut row = Row::default();
    let q = v(17).unwrap_or(0.0);
    let sets = [
        (Col::Util, v(0)),
        (Col::Rkb(1.0 / 1024.0), v(3)),
        (Col::Wkb(1.0 / 1024.0), v(4)),
        (Col::Rs, v(5)),
        (Col::RAwait, v(6).map(|s| s + q)),
        (Col::Ws, v(11)),
        (Col::WAwait, v(12).map(|s| s + q)),
        (
            Col::Queue,
            match (v(20), v(21)) {
                (Some(a), Some(b)) => Some(a + b),
                _ => None,
            },
        ),
    ];
    for (col, x) in sets {
        if let Some(x) = x {
            row.set(col, x);
        }
    }
    row
}

pub fn parse(path: &str, text: &str) -> Result<IostatCapture, ParseError> {
    // Built once: every row's `src` shares it.
    let src_name = SharedStr::new(SECTION);
    let mut warn = Warnings::default();
    let mut cap = IostatCapture {
        source: Source {
            path: path.to_string(),
            format: Format::IostatAix,
            kind: None,
        },
        ..IostatCapture::default()
    };
    let mut long = false;
    let mut interval: u32 = 0;
    let mut seen: Vec<String> = Vec::new();
    // `-D` block being read: device, figures so far, line, time.
    let mut block: Option<(String, Vec<f64>, u32, Option<u32>)> = None;
    let mut expect_values = false;
    let push = |cap: &mut IostatCapture,
                seen: &mut Vec<String>,
                interval: &mut u32,
                dev: &str,
                vals: &[f64],
                line: u32,
                time: Option<u32>| {
        if seen.iter().any(|d| d == dev) {
            *interval += 1;
            seen.clear();
        }
        seen.push(dev.to_string());
        let mut s: DeviceSample = fill(vals).into_sample(dev, SourceRef::new(&src_name, line));
        s.interval = *interval;
        s.since_boot = *interval == 0;
        s.time = time.map(|t| stamp::iso(None, t));
        cap.samples.push(s);
    };
    for (i, line) in crate::fields::lines(text).enumerate() {
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let toks: Vec<&str> = line.split_whitespace().collect();
        let Some(&first) = toks.first() else { continue };
        if first.starts_with("Disks:") || first == "%tm" || first == "act" {
            long = true;
            continue;
        }
        if first.starts_with("---") {
            continue;
        }
        // -Dl: a device then 23 figures (and a time with -T).
        if long && toks.len() >= 24 && !first.starts_with(|c: char| c.is_ascii_digit()) {
            let vals: Option<Vec<f64>> = toks
                .get(1..24)
                .unwrap_or(&[])
                .iter()
                .enumerate()
                .map(|(k, t)| value(t, is_time(k)))
                .collect();
            match vals {
                Some(vals) => push(
                    &mut cap,
                    &mut seen,
                    &mut interval,
                    first,
                    &vals,
                    no,
                    time_of(toks.get(24)),
                ),
                None => warn.push(
                    "bad value",
                    SECTION,
                    no,
                    format!("{first}: a figure is not a number; row dropped"),
                ),
            }
            continue;
        }
        // -D: `hdisk0 xfer: %tm_act ...` opens a block; each label line
        // (`read:`, `write:`, `queue:`) is followed by its figures.
        if toks.get(1) == Some(&"xfer:") {
            if let Some((dev, vals, l, t)) = block.take() {
                if vals.len() == 23 {
                    push(&mut cap, &mut seen, &mut interval, &dev, &vals, l, t);
                } else {
                    warn.push(
                        "short block",
                        SECTION,
                        l,
                        format!("{dev}: block with {} of 23 figures; dropped", vals.len()),
                    );
                }
            }
            block = Some((first.to_string(), Vec::new(), no, None));
            expect_values = true;
            continue;
        }
        if matches!(first, "read:" | "write:" | "queue:") {
            expect_values = true;
            continue;
        }
        if expect_values && let Some((dev, vals, _, t)) = block.as_mut() {
            expect_values = false;
            let want = if vals.is_empty() { 5 } else { 6 };
            let at = vals.len();
            let got: Option<Vec<f64>> = toks
                .iter()
                .take(want)
                .enumerate()
                .map(|(k, tok)| value(tok, is_time(at + k)))
                .collect();
            match got {
                Some(g) if g.len() == want => {
                    if vals.is_empty() {
                        *t = time_of(toks.get(5));
                    }
                    vals.extend(g);
                }
                _ => {
                    warn.push(
                        "bad value",
                        SECTION,
                        no,
                        format!("{dev}: figures not understood: {:?}", line.trim()),
                    );
                    block = None;
                }
            }
        }
    }
    if let Some((dev, vals, l, t)) = block.take() {
        if vals.len() == 23 {
            push(&mut cap, &mut seen, &mut interval, &dev, &vals, l, t);
        } else {
            warn.push(
                "short block",
                SECTION,
                l,
                format!("{dev}: the last block was cut short; dropped"),
            );
        }
    }
    if cap.samples.is_empty() {
        return Err(ParseError::Malformed {
            path: path.to_string(),
            line: 1,
            section: SECTION.into(),
            message: "no disk figures under an `xfer:` or `%tm act` header".into(),
        });
    }
    cap.layout = Some(if long {
        "aix iostat -Dl (one line per disk)".into()
    } else {
        "aix iostat -D (xfer/read/write/queue blocks)".into()
    });
    cap.host = crate::fields::lines(text)
        .take(20)
        .find_map(|l| {
            l.trim()
                .strip_prefix("AIX ")
                .and_then(|r| r.split_whitespace().next())
        })
        .map(str::to_string);
    if cap.samples.iter().all(|s| s.since_boot) {
        warn.push(
            "boot only",
            SECTION,
            0,
            "only the since-boot report: the summaries are empty (give iostat an interval and a count, e.g. `iostat -DlT 60 60`)".into(),
        );
    }
    check_last_report(&cap.samples, SECTION, &mut warn);
    cap.warnings = warn.finish(SECTION);
    summarize(&mut cap);
    Ok(cap)
}
