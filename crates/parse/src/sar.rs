//! `sar` text output: the device section (`sar -d`, `-dp`, or inside `sar -A`).
//!
//! Stage: parse. Input: the text of one `sar` report. Output: an
//! [`IostatCapture`] with the same device samples as iostat gives
//! (`source.format` = `sar-linux`, `sar-solaris`, `sar-hpux` or `sar-aix`), CPU samples
//! from the CPU section where there is one, and the same summaries.
//!
//! Layouts: Linux sysstat `DEV tps rd_sec/s wr_sec/s avgrq-sz avgqu-sz await
//! svctm %util` (up to 11.4) and `DEV tps rkB/s wkB/s [dkB/s] areq-sz aqu-sz
//! await [svctm] %util` (11.5+, 12), 24-hour or 12-hour (`AM`/`PM`) clocks;
//! Solaris and HP-UX `device %busy avque r+w/s blks/s avwait avserv` and AIX
//! `device %busy avque r+w/s Kbs/s avwait avserv`, whose
//! rows after the first of an interval carry no time. `sar` reports are
//! interval averages: no sample is since boot. `Average` blocks are skipped.
//! Each section starts again at midnight, so the date is taken from the
//! banner line and moves on only within a section.

use awrflash_model::{CpuSample, Format, IostatCapture, SharedStr, Source, SourceRef};

use crate::ParseError;
use crate::iostat::{self, Cell, Col, Warnings, cell, column};
use crate::stamp::{self, Clock, Stamp};

/// What the current section holds.
#[derive(Debug, Clone)]
enum Section {
    None,
    Device { cols: Vec<Col>, device_at: usize },
    Cpu { cols: Vec<String> },
}

/// Splits a leading `HH:MM:SS [AM|PM]` off a row.
fn leading_time<'a>(toks: &'a [&'a str]) -> Option<(u32, &'a [&'a str])> {
    let first = toks.first()?;
    if let Some(ap) = toks.get(1)
        && matches!(ap.to_ascii_uppercase().as_str(), "AM" | "PM")
        && let Some(t) = stamp::parse_time(first, Some(ap))
    {
        return Some((t, toks.get(2..).unwrap_or(&[])));
    }
    if first.len() >= 5
        && first.contains(':')
        && let Some(t) = stamp::parse_time(first, None)
    {
        return Some((t, toks.get(1..).unwrap_or(&[])));
    }
    None
}

fn is_number(t: &str) -> bool {
    matches!(cell(t).0, Cell::Value(_) | Cell::Overflow)
}

/// Parses a sar report's device (and CPU) sections.
pub fn parse(path: &str, text: &str) -> Result<IostatCapture, ParseError> {
    let order = iostat::slash_order(text);
    let os = crate::fields::lines(text)
        .find(|l| !l.trim().is_empty())
        .and_then(|l| l.split_whitespace().next())
        .unwrap_or("");
    let (format, section_name) = match os {
        // Solaris's columns with `Kbs/s` for `blks/s`.
        "AIX" => (Format::SarAix, "sar -d (AIX)"),
        "SunOS" => (Format::SarSolaris, "sar -d (Solaris)"),
        "HP-UX" => (Format::SarHpux, "sar -d (HP-UX)"),
        _ => (Format::SarLinux, "sar -d"),
    };
    // Built once: every row's `src` shares it.
    let (src_name, src_cpu) = (SharedStr::new(section_name), SharedStr::new("sar -u"));
    let mut cap = IostatCapture {
        source: Source {
            path: path.to_string(),
            format,
            kind: None,
        },
        ..IostatCapture::default()
    };
    let mut warn = Warnings::default();
    let mut banner_date = None;
    let mut clock = Clock::new(None);
    let mut section = Section::None;
    let mut in_average = false;
    let mut row_time: Option<(String, Option<i64>)> = None;
    let mut interval: u32 = 0;
    let mut last_dev_time: Option<String> = None;
    let mut any_dev = false;
    let mut instants = Vec::new();
    let mut layout = None;

    // The fields of the line, in one buffer for every line.
    let mut toks: Vec<&str> = Vec::new();
    for (idx, raw) in crate::fields::lines(text).enumerate() {
        let line_no = idx as u32 + 1;
        let line = raw.trim_end_matches('\r');
        let trimmed = line.trim();
        if trimmed.is_empty() {
            in_average = false;
            continue;
        }
        if let Some((host, date)) = iostat::banner(line, order) {
            if cap.host.is_none() {
                cap.host = host;
            }
            banner_date = date;
            clock.reset(date);
            section = Section::None;
            continue;
        }
        crate::fields::split_into(trimmed, &mut toks);
        let indented = line.starts_with([' ', '\t']);
        let (rest, time) = match leading_time(&toks) {
            Some((secs, rest)) => (rest, Some(secs)),
            None if indented && !in_average => (toks.as_slice(), None),
            None => {
                // `Average:`, `Durchschn.:`, `Summary` and the like.
                in_average = true;
                continue;
            }
        };
        if rest
            .first()
            .is_some_and(|t| t.eq_ignore_ascii_case("LINUX"))
        {
            continue;
        }
        if let Some(secs) = time {
            in_average = false;
            if !rest.is_empty() && rest.iter().all(|t| !is_number(t)) {
                // A section header: the clock starts again with the day.
                clock.reset(banner_date);
                section = header(rest);
                if let Section::Device { .. } = &section
                    && layout.is_none()
                {
                    layout = Some(describe(rest));
                }
                continue;
            }
            row_time = Some(clock.place(Stamp::Time(secs)));
        }
        let Some((iso, epoch)) = row_time.clone() else {
            continue;
        };
        match &section {
            Section::None => {}
            Section::Cpu { cols } => {
                if time.is_none() {
                    continue;
                }
                let cpu_at = cols.iter().position(|c| c == "CPU");
                if let Some(i) = cpu_at
                    && rest.get(i).is_none_or(|c| !c.eq_ignore_ascii_case("all"))
                {
                    continue;
                }
                if rest.len() != cols.len() {
                    continue;
                }
                let get = |names: &[&str]| {
                    cols.iter()
                        .position(|c| names.contains(&c.as_str()))
                        .and_then(|i| rest.get(i))
                        .and_then(|t| match cell(t).0 {
                            Cell::Value(v) => Some(v),
                            _ => None,
                        })
                };
                cap.cpu.push(CpuSample {
                    time: Some(iso),
                    interval: cap.cpu.len() as u32,
                    user_pct: get(&["%user", "%usr"]),
                    system_pct: get(&["%system", "%sys"]),
                    iowait_pct: get(&["%iowait", "%wio"]),
                    idle_pct: get(&["%idle"]),
                    since_boot: false,
                    src: SourceRef::new(&src_cpu, line_no),
                });
            }
            Section::Device { cols, device_at } => {
                if rest.len() != cols.len() {
                    warn.push(
                        "field count",
                        section_name,
                        line_no,
                        format!(
                            "row has {} fields, the device header has {}; row ignored",
                            rest.len(),
                            cols.len()
                        ),
                    );
                    continue;
                }
                let Some(device) = rest.get(*device_at).copied() else {
                    continue;
                };
                let Ok((row, _, _)) =
                    iostat::read_row(cols, rest, device, section_name, line_no, &mut warn)
                else {
                    continue;
                };
                if last_dev_time.as_deref() != Some(iso.as_str()) {
                    if any_dev {
                        interval += 1;
                    }
                    last_dev_time = Some(iso.clone());
                    if let Some(e) = epoch {
                        instants.push(e);
                    }
                }
                any_dev = true;
                let mut s = row.into_sample(device, SourceRef::new(&src_name, line_no));
                s.time = Some(iso);
                s.interval = interval;
                cap.samples.push(s);
            }
        }
    }
    if cap.samples.is_empty() {
        return Err(ParseError::Malformed {
            path: path.to_string(),
            line: 1,
            section: section_name.to_string(),
            message: "no device section (sar -d) in the report".into(),
        });
    }
    iostat::check_last_report(&cap.samples, section_name, &mut warn);
    cap.layout = layout;
    cap.interval_s = stamp::median_gap(&instants);
    cap.warnings = warn.finish(section_name);
    iostat::summarize(&mut cap);
    Ok(cap)
}

fn header(rest: &[&str]) -> Section {
    let cols: Vec<Col> = rest.iter().map(|t| column(t)).collect();
    if let Some(device_at) = cols.iter().position(|c| matches!(c, Col::Device))
        && cols.iter().any(|c| !matches!(c, Col::Device | Col::Ignore))
    {
        return Section::Device { cols, device_at };
    }
    if rest.contains(&"%idle") {
        return Section::Cpu {
            cols: rest.iter().map(|s| s.to_string()).collect(),
        };
    }
    Section::None
}

fn describe(rest: &[&str]) -> String {
    let has = |n: &str| rest.iter().any(|t| t.eq_ignore_ascii_case(n));
    if has("%busy") {
        "sar -d (device %busy avque r+w/s blks/s avwait avserv)".into()
    } else if has("rd_sec/s") {
        "sar -d sysstat <= 11.4 (DEV tps rd_sec/s wr_sec/s avgrq-sz avgqu-sz await svctm %util), sectors".into()
    } else if has("dkB/s") {
        "sar -d sysstat 12 (DEV tps rkB/s wkB/s dkB/s areq-sz aqu-sz await %util), kB".into()
    } else {
        "sar -d sysstat 11.5+ (DEV tps rkB/s wkB/s areq-sz aqu-sz await %util), kB".into()
    }
}
