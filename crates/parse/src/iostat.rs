//! iostat captures: Linux sysstat `iostat -x`/`-d` and Solaris `iostat -x`/`-xn`.
//!
//! Stage: parse. Input: the text of one capture. Output: an
//! [`IostatCapture`] with device samples in common units (KB/s, ms, %), CPU
//! samples, per-device summaries and the total (channel) load.
//!
//! The column header drives everything, so every sysstat layout reads the
//! same way: the old `rsec/s wsec/s avgrq-sz avgqu-sz await svctm` (sysstat
//! up to 9.0), `r_await w_await` (9.1-11.4), `aqu-sz rareq-sz wareq-sz`
//! (11.5+), sysstat 12's `d/s dkB/s f/s f_await` without `svctm`, the `-k`,
//! `-m` and sector units, `--pretty` (device name last), `-p` partitions,
//! with or without the `avg-cpu` block and `-t` timestamps in any locale
//! (12-hour AM/PM, German `dd.mm.yyyy` with decimal commas, Japanese
//! `yyyy年mm月dd日`). Solaris prints `extended device statistics` above
//! `r/s w/s kr/s kw/s wait actv wsvc_t asvc_t %w %b device` (`-xn`) or
//! `device r/s w/s kr/s kw/s wait actv svc_t %w %b` (`-x`), with `-T d`/`-T u`
//! stamps.
//!
//! The first report of each run is the average since boot: it is kept,
//! flagged `since_boot`, and left out of the summaries.

use std::collections::{BTreeMap, HashMap, HashSet};

use awrflash_model::{
    ChannelLoad, ChannelPoint, CpuSample, DeviceSample, DeviceSummary, Format, IostatCapture,
    RoleSummary, Source, SourceRef, Warning,
};

use crate::ParseError;
use crate::stamp::{self, Clock, SlashOrder};

/// At most this many warnings of one kind are kept; the rest are counted.
const WARN_CAP: usize = 20;

/// What one column of a device table holds, and its unit factor to KB.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Col {
    Device,
    Rs,
    Ws,
    Tps,
    Rkb(f64),
    Wkb(f64),
    Kb(f64),
    Await,
    RAwait,
    WAwait,
    /// Solaris `wsvc_t`, sar `avwait`: time queued before service.
    WaitT,
    /// Solaris `asvc_t`/`svc_t`, sar `avserv`: time in service.
    ServT,
    AvgRq(f64),
    Queue,
    /// Solaris `wait`: requests queued.
    WaitQ,
    /// Solaris `actv`: requests in service.
    Actv,
    Util,
    Ignore,
}

/// Maps a header cell to a column.
pub(crate) fn column(name: &str) -> Col {
    let n = name.trim_end_matches(':').to_ascii_lowercase();
    match n.as_str() {
        "device" | "dev" => Col::Device,
        "r/s" => Col::Rs,
        "w/s" => Col::Ws,
        "tps" | "r+w/s" => Col::Tps,
        "rkb/s" | "kb_read/s" | "kr/s" => Col::Rkb(1.0),
        "rmb/s" | "mb_read/s" | "mr/s" => Col::Rkb(1024.0),
        "rsec/s" | "rd_sec/s" | "blk_read/s" => Col::Rkb(0.5),
        "wkb/s" | "kb_wrtn/s" | "kw/s" => Col::Wkb(1.0),
        "wmb/s" | "mb_wrtn/s" | "mw/s" => Col::Wkb(1024.0),
        "wsec/s" | "wr_sec/s" | "blk_wrtn/s" => Col::Wkb(0.5),
        "blks/s" => Col::Kb(0.5),
        "kbs/s" => Col::Kb(1.0),
        "await" => Col::Await,
        "r_await" => Col::RAwait,
        "w_await" => Col::WAwait,
        "wsvc_t" | "avwait" => Col::WaitT,
        "asvc_t" | "svc_t" | "avserv" => Col::ServT,
        "avgrq-sz" => Col::AvgRq(0.5),
        "areq-sz" => Col::AvgRq(1.0),
        "avgqu-sz" | "aqu-sz" | "avque" => Col::Queue,
        "wait" => Col::WaitQ,
        "actv" => Col::Actv,
        "%util" | "%b" | "%busy" => Col::Util,
        _ => Col::Ignore,
    }
}

/// Whether a header row names device statistics.
fn is_stat_column(c: Col) -> bool {
    !matches!(c, Col::Device | Col::Ignore)
}

/// A value cell: `.` or `,` as the decimal mark (iostat never prints
/// thousands separators), `#####` as overflow.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Cell {
    Value(f64),
    Overflow,
    Invalid,
}

/// Decimal mark seen in a cell, for the mixed-locale warning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Mark {
    None,
    Dot,
    Comma,
}

pub(crate) fn cell(tok: &str) -> (Cell, Mark) {
    if !tok.is_empty() && tok.bytes().all(|b| b == b'#') {
        return (Cell::Overflow, Mark::None);
    }
    let mut mark = Mark::None;
    let mut s = String::with_capacity(tok.len());
    for (i, c) in tok.char_indices() {
        match c {
            '0'..='9' => s.push(c),
            '.' if mark == Mark::None => {
                mark = Mark::Dot;
                s.push('.');
            }
            ',' if mark == Mark::None => {
                mark = Mark::Comma;
                s.push('.');
            }
            '-' | '+' if i == 0 => s.push(c),
            _ => return (Cell::Invalid, Mark::None),
        }
    }
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() => (Cell::Value(v), mark),
        _ => (Cell::Invalid, Mark::None),
    }
}

/// Values of one device row, before deriving the common fields.
#[derive(Debug, Default)]
pub(crate) struct Row {
    pub r_s: Option<f64>,
    pub w_s: Option<f64>,
    pub tps: Option<f64>,
    pub rkb: Option<f64>,
    pub wkb: Option<f64>,
    pub kb: Option<f64>,
    pub await_: Option<f64>,
    pub r_await: Option<f64>,
    pub w_await: Option<f64>,
    pub wait_t: Option<f64>,
    pub serv_t: Option<f64>,
    pub avg_rq: Option<f64>,
    pub queue: Option<f64>,
    pub wait_q: Option<f64>,
    pub actv: Option<f64>,
    pub util: Option<f64>,
}

impl Row {
    pub(crate) fn set(&mut self, col: Col, v: f64) {
        match col {
            Col::Rs => self.r_s = Some(v),
            Col::Ws => self.w_s = Some(v),
            Col::Tps => self.tps = Some(v),
            Col::Rkb(f) => self.rkb = Some(v * f),
            Col::Wkb(f) => self.wkb = Some(v * f),
            Col::Kb(f) => self.kb = Some(v * f),
            Col::Await => self.await_ = Some(v),
            Col::RAwait => self.r_await = Some(v),
            Col::WAwait => self.w_await = Some(v),
            Col::WaitT => self.wait_t = Some(v),
            Col::ServT => self.serv_t = Some(v),
            Col::AvgRq(f) => self.avg_rq = Some(v * f),
            Col::Queue => self.queue = Some(v),
            Col::WaitQ => self.wait_q = Some(v),
            Col::Actv => self.actv = Some(v),
            Col::Util => self.util = Some(v),
            Col::Device | Col::Ignore => {}
        }
    }

    /// The sample in common units.
    pub(crate) fn into_sample(self, device: &str, src: SourceRef) -> DeviceSample {
        let iops = match (self.r_s, self.w_s) {
            (Some(r), Some(w)) => Some(r + w),
            _ => self.tps,
        };
        let kb = match (self.rkb, self.wkb) {
            (Some(r), Some(w)) => Some(r + w),
            _ => self.kb,
        };
        let await_ms = self
            .await_
            .or(match (self.wait_t, self.serv_t) {
                (Some(w), Some(s)) => Some(w + s),
                (None, Some(s)) => Some(s),
                _ => None,
            })
            .or(match (self.r_s, self.w_s, self.r_await, self.w_await) {
                (Some(r), Some(w), Some(ra), Some(wa)) if r + w > 0.0 => {
                    Some(round((r * ra + w * wa) / (r + w)))
                }
                (Some(_), Some(_), Some(_), Some(_)) => Some(0.0),
                _ => None,
            });
        let avg_rq_kb = self.avg_rq.or(match (iops, kb) {
            (Some(n), Some(k)) if n > 0.0 => Some(round(k / n)),
            (Some(_), Some(_)) => Some(0.0),
            _ => None,
        });
        let queue = self.queue.or(match (self.wait_q, self.actv) {
            (Some(w), Some(a)) => Some(w + a),
            _ => None,
        });
        DeviceSample {
            time: None,
            interval: 0,
            device: device.to_string(),
            r_s: self.r_s,
            w_s: self.w_s,
            rkb_s: self.rkb,
            wkb_s: self.wkb,
            r_await_ms: self.r_await,
            w_await_ms: self.w_await,
            avg_rq_kb,
            queue,
            util_pct: self.util,
            since_boot: false,
            src,
            tps: self.tps.or(iops),
            kb_s: self.kb.or(kb),
            await_ms,
        }
    }
}

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
    let day_first = text
        .lines()
        .take(5000)
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
struct State {
    interval: u32,
    run_start: u32,
    has_dev: bool,
    has_cpu: bool,
    seen: HashSet<String>,
    time: Option<String>,
    instants: Vec<i64>,
}

impl State {
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
    let order = slash_order(text);
    let solaris = text.contains("extended device statistics");
    let section = if solaris {
        "iostat -x (Solaris)"
    } else {
        "iostat -x"
    };
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
    let lines: Vec<&str> = text.lines().collect();
    let last_line = lines
        .iter()
        .rposition(|l| !l.trim().is_empty())
        .unwrap_or(0);

    for (idx, raw) in lines.iter().enumerate() {
        let line_no = idx as u32 + 1;
        let line = raw.trim_end_matches('\r');
        let trimmed = line.trim();
        if trimmed.is_empty() {
            cpu_cols = None;
            continue;
        }
        let toks: Vec<&str> = trimmed.split_whitespace().collect();
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
                src: SourceRef::new("avg-cpu", line_no),
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
        let mut toks = toks;
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
        st.seen.insert(device.to_string());
        let mut sample = row.into_sample(device, SourceRef::new(section, line_no));
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

// ---------------------------------------------------------------- summaries

/// Mean, p95 (nearest rank) and max; zeros for an empty series.
pub(crate) fn stats(v: &[f64]) -> (f64, f64, f64) {
    if v.is_empty() {
        return (0.0, 0.0, 0.0);
    }
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    let rank = ((0.95 * s.len() as f64).ceil() as usize).clamp(1, s.len());
    let p95 = s.get(rank - 1).copied().unwrap_or(0.0);
    let max = s.last().copied().unwrap_or(0.0);
    (round(mean), round(p95), round(max))
}

fn opt_stats(v: &[f64]) -> (Option<f64>, Option<f64>, Option<f64>) {
    if v.is_empty() {
        (None, None, None)
    } else {
        let (a, b, c) = stats(v);
        (Some(a), Some(b), Some(c))
    }
}

/// Three decimals: summaries are read by people and snapshotted.
pub(crate) fn round(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

fn mean_opt(v: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let vals: Vec<f64> = v.flatten().collect();
    (!vals.is_empty()).then(|| round(vals.iter().sum::<f64>() / vals.len() as f64))
}

/// A weighted mean `sum(x*w)/sum(w)`; `None` without weight.
fn weighted(pairs: impl Iterator<Item = (f64, f64)>) -> Option<f64> {
    let (mut num, mut den) = (0.0, 0.0);
    for (x, w) in pairs {
        num += x * w;
        den += w;
    }
    (den > 0.0).then(|| round(num / den))
}

/// Storage drivers whose `sar -d` rows are controller totals (Solaris).
const CONTROLLERS: &[&str] = &[
    "mpt_sas",
    "mpt",
    "iscsi",
    "scsi_vhc",
    "scsi_vhci",
    "xhci",
    "ehci",
    "ohci",
    "uhci",
    "ahci",
    "fp",
    "fcp",
    "qlc",
    "emlxs",
    "pmcs",
    "nv_sata",
    "si3124",
    "mr_sas",
    "lsimega",
    "sata",
];

/// Whether a device is layered on another one listed in the same capture
/// (a partition, a path, a controller total, or a device-mapper/md volume
/// over whole disks), so the channel total does not count it twice.
pub(crate) fn layered(name: &str, all: &HashSet<&str>) -> bool {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let base = name.split([',', '.']).next().unwrap_or(name);
    if CONTROLLERS.contains(&stem)
        || CONTROLLERS.contains(&base.trim_end_matches(|c: char| c.is_ascii_digit()))
    {
        return true;
    }
    // Solaris `sd4,a` (slice) and `sd4.t2.mpt_sas2` (path).
    if let Some((base, _)) = name.split_once([',', '.'])
        && all.contains(base)
    {
        return true;
    }
    // Solaris `iostat -C` controller totals: `c2` over `c2t0d0`...
    if let Some(num) = name.strip_prefix('c')
        && !num.is_empty()
        && num.bytes().all(|b| b.is_ascii_digit())
        && all.iter().any(|d| {
            d.len() > name.len() + 1
                && d.starts_with(name)
                && d.get(name.len()..name.len() + 1) == Some("t")
        })
    {
        return true;
    }
    // nvme0n1p1, mmcblk0p2.
    if stem.len() < name.len() && stem.ends_with('p') {
        let parent = stem.trim_end_matches('p');
        if parent.ends_with(|c: char| c.is_ascii_digit()) && all.contains(parent) {
            return true;
        }
    }
    // sda1, xvdb2, vda10.
    if stem.len() < name.len() && stem.chars().all(|c| c.is_ascii_lowercase()) && all.contains(stem)
    {
        return true;
    }
    // Solaris c0t0d0s0.
    if let Some(pos) = stem.rfind('s')
        && stem.len() == pos + 1
        && stem.len() < name.len()
    {
        let parent = stem.get(..pos).unwrap_or("");
        if all.contains(parent) {
            return true;
        }
    }
    false
}

/// Device-mapper, md and VxVM volumes, and multipath maps as `-N`/`-p`
/// name them (`mpatha`): they sit on disks the capture usually lists too.
fn is_volume(name: &str) -> bool {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
    (stem.len() < name.len() && matches!(stem, "dm-" | "md" | "VxVM" | "vx" | "vxvm"))
        || name.starts_with("mpath")
        || name.starts_with("mapper/")
}

/// Fills `summary` and `channel` from the samples (since-boot samples left out).
pub fn summarize(cap: &mut IostatCapture) {
    summarize_with(cap, false);
}

/// [`summarize`], optionally counting the since-boot reports too (for a
/// capture taken with `iostat -y`, whose first report is a real interval).
pub fn summarize_with(cap: &mut IostatCapture, include_since_boot: bool) {
    let mut order: Vec<&str> = Vec::new();
    let mut by_dev: HashMap<&str, Vec<&DeviceSample>> = HashMap::new();
    for s in &cap.samples {
        let e = by_dev.entry(s.device.as_str()).or_default();
        if e.is_empty() && !order.contains(&s.device.as_str()) {
            order.push(s.device.as_str());
        }
        if include_since_boot || !s.since_boot {
            e.push(s);
        }
    }
    let all: HashSet<&str> = order.iter().copied().collect();
    let mut is_layered: HashSet<&str> =
        order.iter().copied().filter(|d| layered(d, &all)).collect();
    // Volumes sit on disks the capture lists too, unless the disks carry
    // less than the busiest volume (then its disks are not listed and the
    // volumes are the better total). Volumes may stack (LVM on dm-crypt),
    // so they are not summed for this test.
    let traffic = |d: &str| -> f64 {
        by_dev
            .get(d)
            .into_iter()
            .flatten()
            .filter_map(|s| s.mb_s())
            .sum()
    };
    let disk_mb: f64 = order
        .iter()
        .filter(|d| !is_layered.contains(*d) && !is_volume(d))
        .map(|d| traffic(d))
        .sum();
    let volume_mb = order
        .iter()
        .filter(|d| !is_layered.contains(*d) && is_volume(d))
        .map(|d| traffic(d))
        .fold(0.0, f64::max);
    let has_disks = order
        .iter()
        .any(|d| !is_layered.contains(d) && !is_volume(d));
    if has_disks && disk_mb >= 0.9 * volume_mb {
        for d in &order {
            if is_volume(d) {
                is_layered.insert(d);
            }
        }
    }

    let mut summary = Vec::new();
    for dev in &order {
        let rows = by_dev.get(dev).map(Vec::as_slice).unwrap_or(&[]);
        summary.push(device_summary(dev, rows, is_layered.contains(dev)));
    }
    callouts(&mut summary);

    let channel_devs: Vec<String> = order
        .iter()
        .filter(|d| !is_layered.contains(*d))
        .map(|d| d.to_string())
        .collect();
    let chan: HashSet<&str> = channel_devs.iter().map(String::as_str).collect();
    let mut points: BTreeMap<u32, ChannelPoint> = BTreeMap::new();
    for s in &cap.samples {
        if !chan.contains(s.device.as_str()) {
            continue;
        }
        let p = points.entry(s.interval).or_insert_with(|| ChannelPoint {
            interval: s.interval,
            time: s.time.clone(),
            since_boot: s.since_boot,
            ..ChannelPoint::default()
        });
        p.iops += s.iops().unwrap_or(0.0);
        p.mb_s += s.mb_s().unwrap_or(0.0);
    }
    let points: Vec<ChannelPoint> = points
        .into_values()
        .map(|mut p| {
            p.iops = round(p.iops);
            p.mb_s = round(p.mb_s);
            p
        })
        .collect();
    let live: Vec<&ChannelPoint> = points
        .iter()
        .filter(|p| include_since_boot || !p.since_boot)
        .collect();
    let (mb_s_mean, mb_s_p95, mb_s_max) = stats(&live.iter().map(|p| p.mb_s).collect::<Vec<_>>());
    let (iops_mean, iops_p95, iops_max) = stats(&live.iter().map(|p| p.iops).collect::<Vec<_>>());
    cap.channel = ChannelLoad {
        devices: channel_devs,
        points,
        mb_s_mean,
        mb_s_p95,
        mb_s_max,
        iops_mean,
        iops_p95,
        iops_max,
    };
    cap.summary = summary;
}

fn device_summary(dev: &str, rows: &[&DeviceSample], layered: bool) -> DeviceSummary {
    let iops: Vec<f64> = rows.iter().filter_map(|s| s.iops()).collect();
    let mbs: Vec<f64> = rows.iter().filter_map(|s| s.mb_s()).collect();
    // Latency is read where there was I/O: idle intervals print 0.00 and
    // would pull the mean towards zero.
    let busy: Vec<&&DeviceSample> = rows
        .iter()
        .filter(|s| s.iops().is_some_and(|n| n > 0.0))
        .collect();
    let awaits: Vec<f64> = busy.iter().filter_map(|s| s.await_ms).collect();
    let utils: Vec<f64> = rows.iter().filter_map(|s| s.util_pct).collect();
    let (iops_mean, iops_p95, iops_max) = stats(&iops);
    let (mb_s_mean, mb_s_p95, mb_s_max) = stats(&mbs);
    let (_, await_p95, await_max) = opt_stats(&awaits);
    let await_mean = weighted(busy.iter().filter_map(|s| Some((s.await_ms?, s.iops()?))));
    let (util_mean, util_p95, util_max) = opt_stats(&utils);
    let total_kb: f64 = rows.iter().filter_map(|s| s.mb_s()).sum::<f64>() * 1024.0;
    let total_io: f64 = iops.iter().sum();
    DeviceSummary {
        device: dev.to_string(),
        role: None,
        samples: rows.len() as u32,
        iops_mean,
        iops_p95,
        iops_max,
        mb_s_mean,
        mb_s_p95,
        mb_s_max,
        await_ms_mean: await_mean,
        await_ms_p95: await_p95,
        await_ms_max: await_max,
        util_pct_mean: util_mean,
        util_pct_p95: util_p95,
        util_pct_max: util_max,
        callouts: Vec::new(),
        r_s_mean: mean_opt(rows.iter().map(|s| s.r_s)),
        w_s_mean: mean_opt(rows.iter().map(|s| s.w_s)),
        read_mb_s_mean: mean_opt(rows.iter().map(|s| s.rkb_s.map(|k| k / 1024.0))),
        write_mb_s_mean: mean_opt(rows.iter().map(|s| s.wkb_s.map(|k| k / 1024.0))),
        r_await_ms_mean: weighted(rows.iter().filter_map(|s| Some((s.r_await_ms?, s.r_s?)))),
        w_await_ms_mean: weighted(rows.iter().filter_map(|s| Some((s.w_await_ms?, s.w_s?)))),
        avg_rq_kb_mean: (total_io > 0.0).then(|| round(total_kb / total_io)),
        queue_mean: mean_opt(rows.iter().map(|s| s.queue)),
        layered,
    }
}

/// Devices with at least this many IOPS on average take part in the peer
/// comparison of await.
const PEER_MIN_IOPS: f64 = 1.0;
/// An await this many times the median device's is called out...
const PEER_FACTOR: f64 = 5.0;
/// ...when it is also at least this many milliseconds.
const PEER_MIN_MS: f64 = 5.0;
const UTIL_HOT: f64 = 90.0;

fn callouts(summary: &mut [DeviceSummary]) {
    let mut peers: Vec<f64> = summary
        .iter()
        .filter(|d| d.iops_mean >= PEER_MIN_IOPS && !d.layered)
        .filter_map(|d| d.await_ms_mean)
        .collect();
    peers.sort_by(f64::total_cmp);
    let median = if peers.len() >= 3 {
        peers.get(peers.len() / 2).copied()
    } else {
        None
    };
    for d in summary.iter_mut() {
        if let Some(p95) = d.util_pct_p95.filter(|v| *v >= UTIL_HOT) {
            d.callouts
                .push(format!("%util p95 {p95:.1} >= {UTIL_HOT:.0}: saturated"));
        } else if let Some(max) = d.util_pct_max.filter(|v| *v >= UTIL_HOT) {
            d.callouts
                .push(format!("%util reached {max:.1} (>= {UTIL_HOT:.0}) at peak"));
        }
        if let (Some(m), Some(a)) = (median, d.await_ms_mean)
            && d.iops_mean >= PEER_MIN_IOPS
            && a >= PEER_MIN_MS
            && m > 0.0
            && a >= PEER_FACTOR * m
        {
            d.callouts.push(format!(
                "await {a:.1} ms is {:.1}x the median device ({m:.1} ms)",
                a / m
            ));
        }
    }
}

// -------------------------------------------------------------------- roles

/// Reads a device-to-role mapping the user wrote and groups the summaries
/// by role.
///
/// TOML: `sdb = "redo"` pairs (top level or under `[devices]`), or
/// `redo = ["sdb", "sdc"]` lists (top level or under `[roles]`). CSV:
/// `device,role` lines, an optional header, `#` comments. A name ending in
/// `*` matches by prefix (`sdd*`). Devices the capture does not list are
/// warnings, not errors.
pub fn apply_roles(cap: &mut IostatCapture, path: &str, mapping: &str) -> Result<(), ParseError> {
    let pairs = read_mapping(path, mapping)?;
    let mut roles: Vec<String> = Vec::new();
    for (_, r) in &pairs {
        if !roles.contains(r) {
            roles.push(r.clone());
        }
    }
    let role_of = |dev: &str| -> Option<&String> {
        pairs
            .iter()
            .find(|(p, _)| p == dev)
            .or_else(|| {
                pairs
                    .iter()
                    .find(|(p, _)| p.strip_suffix('*').is_some_and(|pre| dev.starts_with(pre)))
            })
            .map(|(_, r)| r)
    };
    for d in &mut cap.summary {
        d.role = role_of(&d.device).cloned();
    }
    for (p, r) in &pairs {
        let found = match p.strip_suffix('*') {
            Some(pre) => cap.summary.iter().any(|d| d.device.starts_with(pre)),
            None => cap.summary.iter().any(|d| &d.device == p),
        };
        if !found {
            cap.warnings.push(Warning::new(
                "roles",
                0,
                format!("{path}: device \"{p}\" (role {r}) is not in the capture"),
            ));
        }
    }
    let mut out = Vec::new();
    for role in roles {
        let devices: Vec<String> = cap
            .summary
            .iter()
            .filter(|d| d.role.as_deref() == Some(role.as_str()))
            .map(|d| d.device.clone())
            .collect();
        if devices.is_empty() {
            continue;
        }
        out.push(role_summary(&role, devices, &cap.samples));
    }
    cap.roles = out;
    Ok(())
}

fn role_summary(role: &str, devices: Vec<String>, samples: &[DeviceSample]) -> RoleSummary {
    #[derive(Default)]
    struct Acc {
        iops: f64,
        mb: f64,
        rmb: Option<f64>,
        wmb: Option<f64>,
        aw: (f64, f64),
        waw: (f64, f64),
        util: Option<f64>,
    }
    let set: HashSet<&str> = devices.iter().map(String::as_str).collect();
    let mut per: BTreeMap<u32, Acc> = BTreeMap::new();
    for s in samples {
        if s.since_boot || !set.contains(s.device.as_str()) {
            continue;
        }
        let a = per.entry(s.interval).or_default();
        let n = s.iops().unwrap_or(0.0);
        a.iops += n;
        a.mb += s.mb_s().unwrap_or(0.0);
        if let Some(r) = s.rkb_s {
            a.rmb = Some(a.rmb.unwrap_or(0.0) + r / 1024.0);
        }
        if let Some(w) = s.wkb_s {
            a.wmb = Some(a.wmb.unwrap_or(0.0) + w / 1024.0);
        }
        if let Some(aw) = s.await_ms {
            a.aw.0 += aw * n;
            a.aw.1 += n;
        }
        if let (Some(wa), Some(w)) = (s.w_await_ms, s.w_s) {
            a.waw.0 += wa * w;
            a.waw.1 += w;
        }
        if let Some(u) = s.util_pct {
            a.util = Some(a.util.map_or(u, |m: f64| m.max(u)));
        }
    }
    let accs: Vec<&Acc> = per.values().collect();
    let (iops_mean, iops_p95, iops_max) = stats(&accs.iter().map(|a| a.iops).collect::<Vec<_>>());
    let (mb_s_mean, mb_s_p95, mb_s_max) = stats(&accs.iter().map(|a| a.mb).collect::<Vec<_>>());
    let awaits: Vec<f64> = accs
        .iter()
        .filter(|a| a.aw.1 > 0.0)
        .map(|a| a.aw.0 / a.aw.1)
        .collect();
    let (_, await_p95, await_max) = opt_stats(&awaits);
    let utils: Vec<f64> = accs.iter().filter_map(|a| a.util).collect();
    let (util_mean, util_p95, util_max) = opt_stats(&utils);
    let mut callouts = Vec::new();
    if let Some(p95) = util_p95.filter(|v| *v >= UTIL_HOT) {
        callouts.push(format!(
            "busiest member's %util p95 {p95:.1} >= {UTIL_HOT:.0}: saturated"
        ));
    }
    RoleSummary {
        role: role.to_string(),
        devices,
        samples: accs.len() as u32,
        iops_mean,
        iops_p95,
        iops_max,
        mb_s_mean,
        mb_s_p95,
        mb_s_max,
        read_mb_s_mean: mean_opt(accs.iter().map(|a| a.rmb)),
        write_mb_s_mean: mean_opt(accs.iter().map(|a| a.wmb)),
        await_ms_mean: weighted(
            accs.iter()
                .map(|a| (a.aw.0 / a.aw.1.max(f64::MIN_POSITIVE), a.aw.1)),
        ),
        await_ms_p95: await_p95,
        await_ms_max: await_max,
        w_await_ms_mean: weighted(
            accs.iter()
                .map(|a| (a.waw.0 / a.waw.1.max(f64::MIN_POSITIVE), a.waw.1)),
        ),
        util_pct_mean: util_mean,
        util_pct_p95: util_p95,
        util_pct_max: util_max,
        callouts,
    }
}

/// `(device pattern, role)` pairs in the order written.
fn read_mapping(path: &str, text: &str) -> Result<Vec<(String, String)>, ParseError> {
    let bad = |line: u32, message: String| ParseError::Malformed {
        path: path.to_string(),
        line,
        section: "roles".into(),
        message,
    };
    let looks_toml = text.lines().any(|l| {
        let t = l.trim();
        t.starts_with('[') || (t.contains('=') && !t.starts_with('#'))
    });
    let mut pairs = Vec::new();
    if looks_toml {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| bad(0, format!("not valid TOML: {}", e.message())))?;
        collect_toml(&table, &mut pairs, path)?;
    } else {
        for (i, l) in text.lines().enumerate() {
            let t = l.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let mut f = t
                .split([',', ';', '\t'])
                .map(|c| c.trim().trim_matches('"').trim());
            let (Some(dev), Some(role)) = (f.next(), f.next()) else {
                return Err(bad(i as u32 + 1, format!("expected device,role: \"{t}\"")));
            };
            if i == 0 && dev.eq_ignore_ascii_case("device") {
                continue;
            }
            if dev.is_empty() || role.is_empty() {
                return Err(bad(i as u32 + 1, format!("empty device or role: \"{t}\"")));
            }
            pairs.push((dev.to_string(), role.to_string()));
        }
    }
    if pairs.is_empty() {
        return Err(bad(0, "no device -> role pairs".into()));
    }
    Ok(pairs)
}

fn collect_toml(
    table: &toml::Table,
    pairs: &mut Vec<(String, String)>,
    path: &str,
) -> Result<(), ParseError> {
    for (k, v) in table {
        match v {
            toml::Value::String(role) => pairs.push((k.clone(), role.clone())),
            toml::Value::Array(devs) => {
                for d in devs {
                    match d {
                        toml::Value::String(d) => pairs.push((d.clone(), k.clone())),
                        other => {
                            return Err(ParseError::Malformed {
                                path: path.to_string(),
                                line: 0,
                                section: "roles".into(),
                                message: format!("role {k}: expected device names, got {other}"),
                            });
                        }
                    }
                }
            }
            toml::Value::Table(t) => collect_toml(t, pairs, path)?,
            other => {
                return Err(ParseError::Malformed {
                    path: path.to_string(),
                    line: 0,
                    section: "roles".into(),
                    message: format!("{k}: expected a role name or a list of devices, got {other}"),
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_read_both_decimal_marks_and_overflow() {
        assert_eq!(cell("0,47").0, Cell::Value(0.47));
        assert_eq!(cell("12.5").0, Cell::Value(12.5));
        assert_eq!(cell("#####").0, Cell::Overflow);
        assert_eq!(cell("1.2k").0, Cell::Invalid);
    }

    #[test]
    fn partitions_paths_and_controllers_are_layered() {
        let all: HashSet<&str> = [
            "sda",
            "sda1",
            "nvme0n1",
            "nvme0n1p2",
            "sd4",
            "sd4,a",
            "c0t0d0",
            "c0t0d0s0",
            "mpt_sas3",
        ]
        .into_iter()
        .collect();
        let mut all = all;
        all.insert("c0");
        for d in ["sda1", "nvme0n1p2", "sd4,a", "c0t0d0s0", "mpt_sas3", "c0"] {
            assert!(layered(d, &all), "{d}");
        }
        for d in ["sda", "nvme0n1", "sd4", "c0t0d0", "dm-0", "md0"] {
            assert!(!layered(d, &all), "{d}");
        }
    }

    #[test]
    fn p95_is_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(stats(&v), (50.5, 95.0, 100.0));
        assert_eq!(stats(&[]), (0.0, 0.0, 0.0));
    }
}
