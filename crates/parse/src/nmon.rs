//! nmon captures (`nmon -f`/`-F`, AIX and Linux): the disk and CPU
//! sections of the spreadsheet format.
//!
//! Stage: parse. Input: the text of one `.nmon` file. Output: an
//! [`IostatCapture`] in the units iostat gives (KB/s, ms, %), so the
//! advisor reads it like iostat.
//!
//! The file is comma-separated, one record per line, first field the
//! section: `AAA` (run facts: `host`, `date`, `interval`), `ZZZZ,T0001,
//! 11:38:24,02-FEB-2020` (the time of snapshot `T0001`), and per section a
//! header line naming the columns (`DISKREAD,Disk Read KB/s host,sda,sdb`)
//! then one line per snapshot (`DISKREAD,T0001,12.0,0.0`). With more disks
//! than `disks_per_line` the sections repeat as `DISKREAD1`, `DISKREAD2`...
//! Disk sections read: DISKREAD and DISKWRITE (KB/s), DISKXFER (transfers/s),
//! DISKBUSY (%), DISKSERV and DISKWAIT (ms per transfer in service and in
//! the queue, AIX); CPU_ALL gives the CPU samples. nmon's first snapshot
//! already covers an interval (no since-boot average). Records may come in
//! any order (nmon's notes suggest sorting the file), so snapshots are
//! keyed by their `T` number.

use std::collections::BTreeMap;

use awrflash_model::{CpuSample, Format, IostatCapture, SharedStr, Source, SourceRef};

use crate::ParseError;
use crate::iostat::{Col, Warnings, check_last_report, summarize};
use crate::stamp::{self, SlashOrder};

const SECTION: &str = "nmon";

/// The disk sections read and the column each fills.
fn disk_col(tag: &str) -> Option<Col> {
    let base = tag.trim_end_matches(|c: char| c.is_ascii_digit());
    Some(match base {
        "DISKREAD" => Col::Rkb(1.0),
        "DISKWRITE" => Col::Wkb(1.0),
        "DISKXFER" => Col::Tps,
        "DISKBUSY" => Col::Util,
        "DISKSERV" => Col::ServT,
        "DISKWAIT" => Col::WaitT,
        _ => return None,
    })
}

/// `T0001` -> 1.
fn snapshot(tok: &str) -> Option<u32> {
    let n = tok.strip_prefix('T')?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    n.parse().ok()
}

/// Whether the text is nmon output: an `AAA,progname,nmon`-like run
/// record, or the `AAA` records with a `ZZZZ` snapshot line.
pub fn looks_like_nmon(head: &str) -> bool {
    let mut aaa = false;
    for l in crate::fields::lines(head).take(200) {
        let l = l.trim_start();
        if l.starts_with("AAA,progname,") || l.starts_with("AAA,AIX,") {
            return true;
        }
        aaa |= l.starts_with("AAA,");
        if aaa && l.starts_with("ZZZZ,T") {
            return true;
        }
    }
    false
}

#[derive(Default)]
struct Snap {
    time: Option<String>,
    instant: Option<i64>,
    line: u32,
    /// Device -> (column, value, line).
    disks: BTreeMap<String, Vec<(Col, f64)>>,
}

/// Parses an nmon capture.
pub fn parse(path: &str, text: &str) -> Result<IostatCapture, ParseError> {
    // Built once: every row's `src` shares it.
    let (src_name, src_cpu) = (SharedStr::new(SECTION), SharedStr::new("CPU_ALL"));
    let mut warn = Warnings::default();
    let mut host: Option<String> = None;
    let mut headers: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut cpu_cols: Vec<String> = Vec::new();
    let mut snaps: BTreeMap<u32, Snap> = BTreeMap::new();
    let mut cpus: BTreeMap<u32, CpuSample> = BTreeMap::new();
    let mut sections: Vec<&str> = Vec::new();
    // The fields of the line, in one buffer for every line.
    let mut f: Vec<&str> = Vec::new();
    for (i, line) in crate::fields::lines(text).enumerate() {
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let line = line.trim_end_matches('\r');
        // Most lines belong to sections not read (processes, memory,
        // network): told by their tag, before the line is split.
        let tag = line.split(',').next().unwrap_or_default();
        if !matches!(tag, "AAA" | "ZZZZ" | "CPU_ALL") && disk_col(tag).is_none() {
            continue;
        }
        f.clear();
        f.extend(line.split(','));
        let (Some(&tag), Some(&second)) = (f.first(), f.get(1)) else {
            continue;
        };
        match tag {
            "AAA" => {
                if second == "host" {
                    host = f
                        .get(2)
                        .map(|h| h.trim().to_string())
                        .filter(|h| !h.is_empty());
                }
            }
            "ZZZZ" => {
                let Some(t) = snapshot(second) else { continue };
                let secs = f.get(2).and_then(|s| stamp::parse_time(s, None));
                let date = f
                    .get(3)
                    .and_then(|d| stamp::parse_date(d, SlashOrder::DayFirst))
                    .filter(|d| d.valid());
                let s = snaps.entry(t).or_default();
                s.line = no;
                if let Some(secs) = secs {
                    s.time = Some(stamp::iso(date, secs));
                    s.instant = date.map(|d| d.days() * 86_400 + i64::from(secs));
                } else {
                    warn.push(
                        "bad time",
                        SECTION,
                        no,
                        format!(
                            "snapshot {second}: time {:?} not understood",
                            f.get(2).unwrap_or(&"")
                        ),
                    );
                }
            }
            "CPU_ALL" => {
                let Some(t) = snapshot(second) else {
                    cpu_cols = f
                        .iter()
                        .skip(2)
                        .map(|c| c.trim().to_ascii_lowercase())
                        .collect();
                    continue;
                };
                let mut c = CpuSample {
                    interval: t.saturating_sub(1),
                    src: SourceRef::new(&src_cpu, no),
                    ..CpuSample::default()
                };
                for (name, cell) in cpu_cols.iter().zip(f.iter().skip(2)) {
                    let v = cell.trim().parse::<f64>().ok().filter(|v| v.is_finite());
                    match name.as_str() {
                        "user%" => c.user_pct = v,
                        "sys%" => c.system_pct = v,
                        "wait%" => c.iowait_pct = v,
                        "idle%" => c.idle_pct = v,
                        _ => {}
                    }
                }
                cpus.insert(t, c);
            }
            _ => {
                let Some(col) = disk_col(tag) else { continue };
                let Some(t) = snapshot(second) else {
                    if !sections.contains(&tag) {
                        sections.push(tag);
                    }
                    headers.insert(
                        tag.to_string(),
                        f.iter().skip(2).map(|d| d.trim().to_string()).collect(),
                    );
                    continue;
                };
                let Some(devs) = headers.get(tag) else {
                    warn.push(
                        "no header",
                        tag,
                        no,
                        format!("{tag} values before the {tag} header line; skipped"),
                    );
                    continue;
                };
                let cells = f.get(2..).unwrap_or_default();
                if cells.len() < devs.len() {
                    warn.push(
                        "short row",
                        tag,
                        no,
                        format!(
                            "{tag} {second}: {} of {} values (the capture was cut short?); the missing devices are left out",
                            cells.len(),
                            devs.len()
                        ),
                    );
                }
                let snap = snaps.entry(t).or_default();
                for (dev, cell) in devs.iter().zip(cells) {
                    let cell = cell.trim();
                    if cell.is_empty() || dev.is_empty() {
                        continue;
                    }
                    match cell.parse::<f64>() {
                        Ok(v) if v.is_finite() => {
                            // The device's name is copied once a snapshot.
                            match snap.disks.get_mut(dev.as_str()) {
                                Some(values) => values.push((col, v)),
                                None => {
                                    snap.disks.insert(dev.clone(), vec![(col, v)]);
                                }
                            }
                        }
                        _ => warn.push(
                            "bad value",
                            tag,
                            no,
                            format!(
                                "{tag} {second} {dev}: expected a number, got {cell:?}; left empty"
                            ),
                        ),
                    }
                }
            }
        }
    }
    let mut cap = IostatCapture {
        source: Source {
            path: path.to_string(),
            format: Format::Nmon,
            kind: None,
        },
        host,
        ..IostatCapture::default()
    };
    let mut instants = Vec::new();
    let mut last: Option<(u32, i64)> = None;
    for (t, s) in &snaps {
        if let Some(i) = s.instant {
            if let Some((lt, li)) = last
                && i < li
            {
                warn.push(
                    "time backwards",
                    "ZZZZ",
                    s.line,
                    format!("snapshot T{t:04} is stamped before T{lt:04}: the file mixes runs or its clock moved; times kept as printed"),
                );
            }
            last = Some((*t, i));
            instants.push(i);
        } else if !s.disks.is_empty() && s.time.is_none() {
            warn.push(
                "no time",
                "ZZZZ",
                0,
                format!("snapshot T{t:04} has no ZZZZ time line: its samples carry no time"),
            );
        }
        for (dev, vals) in &s.disks {
            let mut row = crate::iostat::Row::default();
            for (col, v) in vals {
                row.set(*col, *v);
            }
            let mut sample = row.into_sample(dev, SourceRef::new(&src_name, s.line));
            sample.time.clone_from(&s.time);
            sample.interval = t.saturating_sub(1);
            cap.samples.push(sample);
        }
    }
    for (t, mut c) in cpus {
        c.time = snaps.get(&t).and_then(|s| s.time.clone());
        cap.cpu.push(c);
    }
    if cap.samples.is_empty() {
        return Err(ParseError::Malformed {
            path: path.to_string(),
            line: 1,
            section: SECTION.into(),
            message: "no disk values (DISKREAD, DISKWRITE, DISKXFER or DISKBUSY lines under their header)".into(),
        });
    }
    check_last_report(&cap.samples, SECTION, &mut warn);
    let bases: Vec<&str> = {
        let mut b: Vec<&str> = sections
            .iter()
            .map(|s| s.trim_end_matches(|c: char| c.is_ascii_digit()))
            .collect();
        b.dedup();
        b
    };
    cap.layout = Some(format!(
        "nmon ({}{})",
        bases.join(" "),
        if cap.cpu.is_empty() { "" } else { " CPU_ALL" }
    ));
    cap.interval_s = stamp::median_gap(&instants);
    cap.warnings = warn.finish(SECTION);
    summarize(&mut cap);
    Ok(cap)
}
