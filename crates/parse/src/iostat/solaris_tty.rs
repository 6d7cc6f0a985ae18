//! Solaris `iostat` without `-x` (`iostat 5 12`, `iostat -T d 5 12`): the
//! tty / disk / cpu layout, three columns per disk.
//!
//! ```text
//!    tty        sd0           sd1          cpu
//!  tin tout kps tps serv  kps tps serv   us sy wt id
//!    0    1  12   1   10    0   0    0    1  1  0 98
//! ```
//!
//! `kps` is KB per second, `tps` transfers per second and `serv` the
//! average service time in ms. Each data line is one report; the first is
//! the average since boot. The headers repeat; `-T d` puts a date line
//! (`Tue Apr 19 21:16:01 2011`) and `-T u` seconds since 1970 before each
//! report.

use awrflash_model::{CpuSample, Format, IostatCapture, SharedStr, Source, SourceRef};

use super::layout::{Cell, Col, Row, cell};
use super::read::{Warnings, check_last_report, slash_order};
use super::summary::summarize;
use crate::ParseError;
use crate::stamp::{self, Stamp};

const SECTION: &str = "iostat (Solaris)";

/// The second header line: `tin tout kps tps serv ... us sy wt id`.
pub(crate) fn is_columns(line: &str) -> bool {
    // Three tokens in a row, without collecting the line's tokens.
    let mut before: [&str; 2] = ["", ""];
    line.split_whitespace().any(|t| {
        let hit = before == ["kps", "tps"] && t == "serv";
        before = [before[1], t];
        hit
    })
}

/// Whether the text holds the tty / disk / cpu layout.
pub fn matches(text: &str) -> bool {
    crate::fields::lines(text).take(400).any(is_columns)
}

/// What each value of a data line is, from the two header lines.
#[derive(Debug, Clone)]
enum Slot {
    Skip,
    Disk(usize, Col),
    Cpu(usize),
}

fn layout(names: &str, cols: &str) -> (Vec<String>, Vec<Slot>) {
    let groups: Vec<&str> = names.split_whitespace().collect();
    let cols: Vec<&str> = cols.split_whitespace().collect();
    let mut devices = Vec::new();
    let mut slots = Vec::new();
    let mut g = 0;
    let mut i = 0;
    while i < cols.len() {
        match cols.get(i..i + 3) {
            Some(["kps", "tps", "serv"]) => {
                // The disk names are the group titles other than tty/cpu.
                while groups.get(g).is_some_and(|n| *n == "tty" || *n == "cpu") {
                    g += 1;
                }
                let name = groups
                    .get(g)
                    .map_or_else(|| format!("disk{}", devices.len()), |n| (*n).to_string());
                g += 1;
                let d = devices.len();
                devices.push(name);
                slots.extend([
                    Slot::Disk(d, Col::Kb(1.0)),
                    Slot::Disk(d, Col::Tps),
                    Slot::Disk(d, Col::ServT),
                ]);
                i += 3;
            }
            _ => {
                let c = cols.get(i).copied().unwrap_or("");
                slots.push(match c {
                    "us" => Slot::Cpu(0),
                    "sy" => Slot::Cpu(1),
                    "wt" => Slot::Cpu(2),
                    "id" => Slot::Cpu(3),
                    _ => Slot::Skip,
                });
                i += 1;
            }
        }
    }
    (devices, slots)
}

pub fn parse(path: &str, text: &str) -> Result<IostatCapture, ParseError> {
    // Built once: every row's `src` shares it.
    let src_name = SharedStr::new(SECTION);
    let order = slash_order(text);
    let mut warn = Warnings::default();
    let mut cap = IostatCapture {
        source: Source {
            path: path.to_string(),
            format: Format::IostatSolaris,
            kind: None,
        },
        ..IostatCapture::default()
    };
    let lines: Vec<&str> = crate::fields::lines(text).collect();
    let mut current: Option<(Vec<String>, Vec<Slot>)> = None;
    let mut time: Option<String> = None;
    let mut instants = Vec::new();
    let mut interval: u32 = 0;
    let mut stamped = false;
    for (i, line) in lines.iter().enumerate() {
        let no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        if is_columns(line) {
            if let Some(names) = i.checked_sub(1).and_then(|p| lines.get(p)) {
                current = Some(layout(names, line));
            }
            continue;
        }
        if let Some(st) = stamp::parse_stamp_line(line, order) {
            if let Stamp::DateTime(d, secs) = st {
                time = Some(stamp::iso(Some(d), secs));
                instants.push(d.days() * 86_400 + i64::from(secs));
                stamped = true;
            }
            continue;
        }
        let Some((devices, slots)) = current.as_ref() else {
            continue;
        };
        let toks: Vec<&str> = line.split_whitespace().collect();
        if toks.is_empty() || lines.get(i + 1).is_some_and(|n| is_columns(n)) {
            continue;
        }
        if toks.len() != slots.len() {
            if toks.iter().all(|t| matches!(cell(t).0, Cell::Value(_))) {
                warn.push(
                    "short row",
                    SECTION,
                    no,
                    format!(
                        "{} of {} values: the line was cut short; dropped",
                        toks.len(),
                        slots.len()
                    ),
                );
            }
            continue;
        }
        let mut rows: Vec<Row> = devices.iter().map(|_| Row::default()).collect();
        let mut cpu = CpuSample {
            time: time.clone(),
            interval,
            since_boot: interval == 0,
            src: SourceRef::new(&src_name, no),
            ..CpuSample::default()
        };
        let mut bad = false;
        for (slot, tok) in slots.iter().zip(&toks) {
            let v = match cell(tok).0 {
                Cell::Value(v) => Some(v),
                Cell::Overflow => {
                    warn.push(
                        "overflow",
                        SECTION,
                        no,
                        format!("value {tok:?} overflowed its column; left empty"),
                    );
                    None
                }
                Cell::Invalid => {
                    bad = true;
                    None
                }
            };
            match (slot, v) {
                (Slot::Disk(d, col), Some(v)) => {
                    if let Some(r) = rows.get_mut(*d) {
                        r.set(*col, v);
                    }
                }
                (Slot::Cpu(k), v) => match k {
                    0 => cpu.user_pct = v,
                    1 => cpu.system_pct = v,
                    2 => cpu.iowait_pct = v,
                    _ => cpu.idle_pct = v,
                },
                _ => {}
            }
        }
        if bad {
            // A title or a line of another command: not a report.
            continue;
        }
        for (d, row) in rows.into_iter().enumerate() {
            let Some(dev) = devices.get(d) else { continue };
            let mut s = row.into_sample(dev, SourceRef::new(&src_name, no));
            s.time.clone_from(&time);
            s.interval = interval;
            s.since_boot = interval == 0;
            cap.samples.push(s);
        }
        if slots.iter().any(|s| matches!(s, Slot::Cpu(_))) {
            cap.cpu.push(cpu);
        }
        interval += 1;
    }
    if cap.samples.is_empty() {
        return Err(ParseError::Malformed {
            path: path.to_string(),
            line: 1,
            section: SECTION.into(),
            message: "no report line under a `kps tps serv` header".into(),
        });
    }
    cap.layout = Some(format!(
        "solaris iostat (tty, kps tps serv per disk, cpu){}",
        if stamped { "; timestamps" } else { "" }
    ));
    cap.interval_s = stamp::median_gap(&instants);
    if cap.samples.iter().all(|s| s.since_boot) {
        warn.push(
            "boot only",
            SECTION,
            0,
            "only the since-boot report: the summaries are empty (give iostat an interval and a count, e.g. `iostat -T d 5 720`)".into(),
        );
    }
    check_last_report(&cap.samples, SECTION, &mut warn);
    cap.warnings = warn.finish(SECTION);
    summarize(&mut cap);
    Ok(cap)
}
