//! Reading iostat reports: banners, headers, device and CPU rows.

use super::layout::{Cell, Col, Mark, Row, cell, column, is_stat_column};
use super::summary::summarize;
use std::collections::{BTreeMap, HashMap, HashSet};

use awrflash_model::{
    CpuSample, DeviceSample, Format, IostatCapture, SharedStr, Source, SourceRef, Warning,
};

use crate::ParseError;
use crate::stamp::{self, Clock, SlashOrder};

/// At most this many warnings of one kind are kept; the rest are counted.
const WARN_CAP: usize = 20;

/// Warnings with a cap per kind, so a broken 500 KB file does not produce
/// 5000 lines of them.
#[derive(Debug, Default)]
pub(crate) struct Warnings {
    pub list: Vec<Warning>,
    counts: HashMap<&'static str, usize>,
}

impl Warnings {
    pub(crate) fn push(&mut self, kind: &'static str, section: &str, line: u32, msg: String) {
        let n = self.counts.entry(kind).or_insert(0);
        *n += 1;
        if *n <= WARN_CAP {
            self.list.push(Warning::new(section, line, msg));
        }
    }

    pub(crate) fn finish(mut self, section: &str) -> Vec<Warning> {
        let mut over: Vec<_> = self
            .counts
            .iter()
            .filter(|(_, n)| **n > WARN_CAP)
            .map(|(k, n)| (*k, *n))
            .collect();
        over.sort_unstable();
        for (kind, n) in over {
            self.list.push(Warning::new(
                section,
                0,
                format!("{} more warnings like \"{kind}\" not listed", n - WARN_CAP),
            ));
        }
        self.list
    }
}

/// The `Linux 4.18.0 (host) 09/26/21 _x86_64_ (1 CPU)` line: host and date.
pub(crate) fn banner(
    line: &str,
    order: SlashOrder,
) -> Option<(Option<String>, Option<stamp::Date>)> {
    let t = line.trim_start();
    let os = t.split_whitespace().next()?;
    if !matches!(os, "Linux" | "SunOS" | "HP-UX" | "AIX") {
        return None;
    }
    let host = match (t.find('('), t.find(')')) {
        (Some(a), Some(b)) if b > a => t.get(a + 1..b).map(str::to_string),
        _ => t.split_whitespace().nth(1).map(str::to_string),
    };
    // The date follows the host: the kernel release before it (`3.10.0`)
    // would read as a dotted date.
    let after = t.find(')').and_then(|i| t.get(i + 1..)).unwrap_or(t);
    let date = after
        .split_whitespace()
        .find_map(|tok| stamp::parse_date(tok, order));
    Some((host, date))
}

/// `dd/mm` when any slash date in the text has a first field above 12.
pub(crate) fn slash_order(text: &str) -> SlashOrder {
    let day_first = crate::fields::lines(text)
        .take(5000)
        // Only a line with a slash can hold a slashed date.
        .filter(|l| l.as_bytes().contains(&b'/'))
        .flat_map(str::split_whitespace)
        .any(|t| t.contains('/') && t.len() <= 10 && stamp::slash_day_first(t));
    if day_first {
        SlashOrder::DayFirst
    } else {
        SlashOrder::MonthFirst
    }
}

/// Decimal marks seen in value cells, for the mixed-locale warning.
#[derive(Debug, Default)]
struct Marks {
    dots: usize,
    commas: usize,
    first_dot: u32,
    first_comma: u32,
}

impl Marks {
    fn note(&mut self, dots: usize, commas: usize, line: u32) {
        if dots > 0 && self.first_dot == 0 {
            self.first_dot = line;
        }
        if commas > 0 && self.first_comma == 0 {
            self.first_comma = line;
        }
        self.dots += dots;
        self.commas += commas;
    }
}

/// Where a table's device name is and what the other columns hold.
#[derive(Debug, Clone)]
struct Table {
    cols: Vec<Col>,
    device_at: usize,
    line: u32,
}

/// Parser state for the reports.
struct State<'t> {
    interval: u32,
    run_start: u32,
    has_dev: bool,
    has_cpu: bool,
    /// Devices of the current report, borrowed from the text.
    seen: HashSet<&'t str>,
    time: Option<String>,
    instants: Vec<i64>,
}

impl State<'_> {
    fn next_interval(&mut self) {
        if self.has_dev || self.has_cpu {
            self.interval += 1;
        }
        self.has_dev = false;
        self.has_cpu = false;
        self.seen.clear();
        self.time = None;
    }
}

/// Parses an iostat capture.
pub fn parse(path: &str, text: &str) -> Result<IostatCapture, ParseError> {
    if super::aix::matches(text) {
        return super::aix::parse(path, text);
    }
    if super::hpux::matches(text) {
        return super::hpux::parse(path, text);
    }
    if !text.contains("extended device statistics") && super::solaris_tty::matches(text) {
        return super::solaris_tty::parse(path, text);
    }
    let order = slash_order(text);
    let solaris = text.contains("extended device statistics");
    let section = if solaris {
        "iostat -x (Solaris)"
    } else {
        "iostat -x"
    };
    // Built once: every row's `src` shares it.
    let (src_name, src_cpu) = (SharedStr::new(section), SharedStr::new("avg-cpu"));
    let mut cap = IostatCapture {
        source: Source {
            path: path.to_string(),
            format: if solaris {
                Format::IostatSolaris
            } else {
                Format::IostatLinux
            },
            kind: None,
        },
        ..IostatCapture::default()
    };
    let mut warn = Warnings::default();
    let mut st = State {
        interval: 0,
        run_start: 0,
        has_dev: false,
        has_cpu: false,
        seen: HashSet::new(),
        time: None,
        instants: Vec::new(),
    };
    let mut clock = Clock::default();
    let mut table: Option<Table> = None;
    let mut cpu_cols: Option<Vec<String>> = None;
    let mut marks = Marks::default();
    let mut layout: Option<String> = None;
    let mut saw_avg_cpu = false;
    let mut saw_stamp = false;
    let mut human = false;

    let mut long_name: Option<&str> = None;
    let lines: Vec<&str> = crate::fields::lines(text).collect();
    let last_line = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .unwrap_or(0);

    // The fields of the line, in one buffer for every line.
    let mut toks: Vec<&str> = Vec::new();
    for (idx, raw) in lines.iter().enumerate() {
        let line_no = idx as u32 + 1;
        let line = raw.trim_end_matches('\r');
        let trimmed = line.trim();
        if trimmed.is_empty() {
            cpu_cols = None;
            continue;
        }
        crate::fields::split_into(trimmed, &mut toks);
        let first = toks.first().copied().unwrap_or("");

        if let Some((host, date)) = banner(line, order) {
            if cap.host.is_none() {
                cap.host = host;
            }
            clock.reset(date);
            st.next_interval();
            st.run_start = st.interval;
            continue;
        }
        if first == "avg-cpu:" {
            saw_avg_cpu = true;
            if st.has_cpu || st.has_dev {
                st.next_interval();
            }
            cpu_cols = Some(toks.iter().skip(1).map(|s| s.to_string()).collect());
            continue;
        }
        if let Some(cols) = cpu_cols.take() {
            let vals: Vec<Option<f64>> = toks
                .iter()
                .map(|t| match cell(t).0 {
                    Cell::Value(v) => Some(v),
                    _ => None,
                })
                .collect();
            if vals.len() != cols.len() || vals.iter().any(Option::is_none) {
                warn.push(
                    "avg-cpu row",
                    section,
                    line_no,
                    format!("avg-cpu values do not match the header: \"{trimmed}\""),
                );
                continue;
            }
            let get = |names: &[&str]| {
                cols.iter()
                    .position(|c| names.contains(&c.as_str()))
                    .and_then(|i| vals.get(i).copied().flatten())
            };
            cap.cpu.push(CpuSample {
                time: st.time.clone(),
                interval: st.interval,
                user_pct: get(&["%user", "%usr"]),
                system_pct: get(&["%system", "%sys"]),
                iowait_pct: get(&["%iowait", "%wio"]),
                idle_pct: get(&["%idle"]),
                since_boot: st.interval == st.run_start,
                src: SourceRef::new(&src_cpu, line_no),
            });
            st.has_cpu = true;
            continue;
        }
        if trimmed.contains("extended device statistics") {
            if st.has_dev {
                st.next_interval();
            }
            continue;
        }
        // A device table header: `Device` (or `Device:`/`device`) somewhere
        // in the row, the rest statistics.
        let device_at = toks
            .iter()
            .position(|t| t.trim_end_matches(':').eq_ignore_ascii_case("device"));
        if let Some(device_at) = device_at {
            let cols: Vec<Col> = toks.iter().map(|t| column(t)).collect();
            if cols.iter().any(|c| is_stat_column(*c)) {
                if st.has_dev {
                    st.next_interval();
                }
                if layout.is_none() {
                    layout = Some(describe(&toks, device_at, solaris));
                }
                table = Some(Table {
                    cols,
                    device_at,
                    line: line_no,
                });
                continue;
            }
        }
        if let Some(s) = stamp::parse_stamp_line(trimmed, order) {
            st.next_interval();
            let (iso, epoch) = clock.place(s);
            st.time = Some(iso);
            if let Some(e) = epoch {
                st.instants.push(e);
            }
            saw_stamp = true;
            continue;
        }
        let Some(tab) = &table else {
            warn.push(
                "unknown line",
                section,
                line_no,
                format!(
                    "line before any device header ignored: \"{}\"",
                    clip(trimmed)
                ),
            );
            continue;
        };
        // sysstat prints a device name longer than its column on a line of
        // its own and the values on the next (`mapper/vg_data-lv_ora01`).
        if toks.len() == 1 && tab.device_at == 0 && tab.cols.len() > 1 && idx != last_line {
            long_name = Some(first);
            continue;
        }
        if let Some(name) = long_name.take()
            && toks.len() + 1 == tab.cols.len()
            && line.starts_with([' ', '\t'])
        {
            toks.insert(0, name);
        }
        // Solaris `iostat -xc` prints its cpu columns (`us sy wt id`) on the
        // first device row only: rows may stop before trailing unused columns.
        let only_unused_missing = toks.len() < tab.cols.len()
            && tab.device_at < toks.len()
            && tab
                .cols
                .get(toks.len()..)
                .is_some_and(|rest| rest.iter().all(|c| matches!(c, Col::Ignore)));
        if toks.len() != tab.cols.len() && !only_unused_missing {
            let msg = if idx == last_line && toks.len() < tab.cols.len() {
                format!(
                    "last row is cut short ({} of {} fields): the capture was truncated; row dropped",
                    toks.len(),
                    tab.cols.len()
                )
            } else {
                format!(
                    "row has {} fields, the header on line {} has {}; row ignored: \"{}\"",
                    toks.len(),
                    tab.line,
                    tab.cols.len(),
                    clip(trimmed)
                )
            };
            warn.push("field count", section, line_no, msg);
            continue;
        }
        let Some(device) = toks.get(tab.device_at).copied() else {
            continue;
        };
        let row = match read_row(&tab.cols, &toks, device, section, line_no, &mut warn) {
            Ok((row, dots, commas)) => {
                marks.note(dots, commas, line_no);
                row
            }
            Err(tok) => {
                human |= tok.ends_with(['k', 'K', 'M', 'G', 'T', 'B']);
                continue;
            }
        };
        if st.seen.contains(device) {
            // Same device twice without a header between: a new report.
            st.next_interval();
        }
        st.seen.insert(device);
        let mut sample = row.into_sample(device, SourceRef::new(&src_name, line_no));
        sample.time = st.time.clone();
        sample.interval = st.interval;
        sample.since_boot = st.interval == st.run_start;
        cap.samples.push(sample);
        st.has_dev = true;
    }

    if human {
        warn.push(
            "human",
            section,
            0,
            "values with unit suffixes (iostat -h / --human) are not read; capture without -h"
                .into(),
        );
    }
    if marks.dots > 0 && marks.commas > 0 {
        warn.push(
            "mixed locale",
            section,
            marks.first_comma.max(marks.first_dot),
            format!(
                "mixed decimal marks: {} values with '.' (first on line {}) and {} with ',' (first on line {}); both read as decimal points",
                marks.dots, marks.first_dot, marks.commas, marks.first_comma
            ),
        );
    }
    if cap.samples.is_empty() {
        return Err(ParseError::Malformed {
            path: path.to_string(),
            line: 1,
            section: section.to_string(),
            message: "no device rows under a device header".into(),
        });
    }
    check_last_report(&cap.samples, section, &mut warn);
    let mut layout = layout.unwrap_or_default();
    let mut extras = Vec::new();
    if saw_avg_cpu {
        extras.push("avg-cpu");
    }
    if saw_stamp {
        extras.push("timestamps");
    }
    if marks.commas > 0 {
        extras.push("decimal comma");
    }
    if !extras.is_empty() {
        layout = format!("{layout}; {}", extras.join(", "));
    }
    cap.layout = Some(layout);
    cap.interval_s = stamp::median_gap(&st.instants);
    if cap.samples.iter().all(|s| s.since_boot) {
        warn.push(
            "boot only",
            section,
            0,
            "only the since-boot report: the summaries are empty (give iostat an interval and a count, e.g. `iostat -xmt 5 720`)".into(),
        );
    }
    cap.warnings = warn.finish(section);
    summarize(&mut cap);
    Ok(cap)
}

/// Reads the value cells of a device row into a [`Row`], with the count of
/// `.` and `,` decimal marks seen. An overflowed cell (`#####`) is left
/// empty with a warning; a cell that is not a number drops the row (the
/// token is returned after the warning is recorded).
pub(crate) fn read_row<'a>(
    cols: &[Col],
    toks: &[&'a str],
    device: &str,
    section: &str,
    line_no: u32,
    warn: &mut Warnings,
) -> Result<(Row, usize, usize), &'a str> {
    let mut row = Row::default();
    let (mut dots, mut commas) = (0, 0);
    for (col, tok) in cols.iter().zip(toks) {
        if matches!(col, Col::Device) {
            continue;
        }
        let (c, mark) = cell(tok);
        match mark {
            Mark::Dot => dots += 1,
            Mark::Comma => commas += 1,
            Mark::None => {}
        }
        match c {
            Cell::Value(v) => row.set(*col, v),
            Cell::Overflow => warn.push(
                "overflow",
                section,
                line_no,
                format!("{device}: a value printed as \"{tok}\" (overflow) is left empty"),
            ),
            Cell::Invalid => {
                warn.push(
                    "not a number",
                    section,
                    line_no,
                    format!("{device}: \"{tok}\" is not a number; row ignored"),
                );
                return Err(tok);
            }
        }
    }
    Ok((row, dots, commas))
}

fn clip(s: &str) -> String {
    s.chars().take(80).collect()
}

/// Warns when the last report lists fewer devices than the one before it.
pub(crate) fn check_last_report(samples: &[DeviceSample], section: &str, warn: &mut Warnings) {
    let mut per: BTreeMap<u32, usize> = BTreeMap::new();
    for s in samples {
        *per.entry(s.interval).or_insert(0) += 1;
    }
    // Only where every earlier report lists the same devices (`sar` and
    // `iostat -z` leave idle devices out, so their counts vary anyway).
    let mut it = per.iter().rev();
    let (Some((&last, &n_last)), Some((_, &n_prev))) = (it.next(), it.next()) else {
        return;
    };
    if it.all(|(_, n)| *n == n_prev) && n_last < n_prev {
        let line = samples
            .iter()
            .rev()
            .find(|s| s.interval == last)
            .map_or(0, |s| s.src.line);
        warn.push(
            "short report",
            section,
            line,
            format!(
                "the last report lists {n_last} of {n_prev} devices: the capture was cut short"
            ),
        );
    }
}

/// Names the layout from the header columns.
fn describe(toks: &[&str], device_at: usize, solaris: bool) -> String {
    let has = |n: &str| toks.iter().any(|t| t.eq_ignore_ascii_case(n));
    let units = if has("rsec/s") || has("blk_read/s") {
        "sectors"
    } else if has("rMB/s") || has("MB_read/s") || has("Mr/s") {
        "MB"
    } else {
        "kB"
    };
    let mut s = if solaris {
        if has("wsvc_t") {
            "solaris iostat -xn (r/s w/s kr/s kw/s wait actv wsvc_t asvc_t %w %b)".to_string()
        } else {
            "solaris iostat -x (r/s w/s kr/s kw/s wait actv svc_t %w %b)".to_string()
        }
    } else if has("d/s") || has("f/s") {
        "sysstat 12 (r_await w_await aqu-sz rareq-sz d/s dkB/s f/s, no svctm)".to_string()
    } else if has("aqu-sz") {
        "sysstat 11.5+ (r_await w_await aqu-sz rareq-sz wareq-sz svctm)".to_string()
    } else if has("r_await") {
        "sysstat 9.1-11.4 (avgrq-sz avgqu-sz await r_await w_await svctm)".to_string()
    } else if has("await") {
        "sysstat <= 9.0 (avgrq-sz avgqu-sz await svctm)".to_string()
    } else {
        "iostat -d (tps read/s write/s)".to_string()
    };
    s.push_str(&format!(", {units}"));
    if device_at + 1 == toks.len() && toks.len() > 1 && !solaris {
        s.push_str(", --pretty (device last)");
    }
    s
}
