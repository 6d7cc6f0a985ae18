//! Sections of AWR text and Statspack reports mapped into the model.
//!
//! Both reports print the same essentials under nearly the same titles and
//! headings; columns are found by their heading words, not by position, so
//! that 9i-19c layouts (extra `1-bk` columns, `Avg wait` with unit suffixes,
//! `Timeouts` counts vs `%Time-outs`) land in the same fields.
//!
//! What the text formats do not carry (rules degrade or match by prefix):
//!
//! - names are cut to their column: events at 26 characters in 80-column
//!   AWR (28 in Statspack), statistic names at 32, init.ora names at 29 and
//!   values at 33 (wrapped values are joined back), object names at 20,
//!   subobjects keep their last 10 characters, object types their first 5
//!   (`INDEX` for `INDEX PARTITION`), IOStat functions at 15, wait classes
//!   in top events at 10;
//! - fewer decimals than HTML (per-second figures at 1, wait times in whole
//!   seconds, averages in whole ms before 12c);
//! - AWR 10g/11.1 event tables print no wait class (taken from the top
//!   events where listed), 10g prints no `DB Time(s)` load profile row;
//! - Statspack has no wait class table, IO profile, IOStat by filetype,
//!   1-block read columns, `Segments by Physical Read Requests` /
//!   `UnOptimized` / `Optimized` / `Direct ...` or `SQL ordered by Physical
//!   Reads (UnOptimized)`; its SQL id is the hash value; from 11g its top
//!   events count background waits too (they match `wait_events.all`);
//!   `instance_cpu.pct_total_cpu` is not printed; 8i/9i print no platform,
//!   CPUs, memory, OS statistics, time model or histograms.

use std::collections::BTreeMap;

use awrflash_model::{
    ActivityStat, Buckets, BufferPoolAdvisoryRow, CacheSizes, DbReport, FileIoRow, Header,
    HistogramBucket, HistogramRow, HostCpu, InstanceCpu, IoProfileRow, IoStatRow, LoadProfileRow,
    OsStat, Parameter, SegmentRow, SharedStr, SourceRef, SqlRow, TimeModelRow, TopEvent,
    WaitClassRow, WaitEvent,
};

use super::{Ctx, Doc, Line, Row, Rule, cells, cells_from, iso_time, label, label_values, tokens};
use crate::Part;
use crate::num::{Num, Suffix, parse_num};
use crate::registry::{self, Slot};

fn cell<'a>(c: &[&'a str], i: Option<usize>) -> &'a str {
    i.and_then(|i| c.get(i).copied()).unwrap_or("")
}

fn src(section: &str, line: u32) -> SourceRef {
    // Rows of a section are mapped one after another: they share its name.
    SourceRef {
        section: SharedStr::shared(section),
        line,
    }
}

/// First token looks like a number (a data line, not a name line).
fn starts_numeric(text: &str) -> bool {
    let Some((s, e)) = tokens(text).next() else {
        return false;
    };
    let t = text.get(s..e).unwrap_or("");
    matches!(parse_num(t, Suffix::Decimal), Num::Value(_) | Num::Overflow) || t == "N/A"
}

/// A data row whose first column (the name) is filled, with its cells.
struct Named<'s, 'a> {
    row: Row<'s, 'a>,
    cells: Vec<&'a str>,
}

impl Named<'_, '_> {
    fn name(&self) -> &str {
        cell(&self.cells, Some(0))
    }
    fn title(&self) -> &str {
        self.row.section.title
    }
    fn no(&self) -> u32 {
        self.row.line.no
    }
    fn at(&self, pred: impl Fn(&str) -> bool) -> &str {
        cell(&self.cells, self.row.rule.col(pred))
    }
}

/// Rows of the section the report prints for `slot`, skipping blank
/// lines, notes and lines without a name.
fn named_rows<'s, 'a>(doc: &'s Doc<'a>, slot: Slot) -> Vec<Named<'s, 'a>> {
    let Some(title) = doc.title(slot) else {
        return Vec::new();
    };
    doc.rows(title)
        .into_iter()
        .filter(|r| !r.line.is_blank() && !r.line.is_note())
        .map(|row| {
            let cells = cells(row.line.text, &row.rule.spans);
            Named { row, cells }
        })
        .filter(|n| !n.name().is_empty())
        .collect()
}

/// Fills every section both report kinds share (of a head, only what its
/// header may need).
pub(crate) fn fill(doc: &Doc<'_>, ctx: &mut Ctx, r: &mut DbReport, part: Part) {
    if part == Part::Header {
        // What a header may need ([`crate::parse_head`]): the OS
        // statistics, where a release that prints no CPU count in its
        // header has it.
        r.os_stats = os_stats(doc, ctx);
        return;
    }
    r.cache_sizes = cache_sizes(doc, ctx);
    r.load_profile = load_profile(doc, ctx);
    r.top_events = top_events(doc, ctx);
    r.wait_events.foreground = wait_events(doc, ctx, Slot::ForegroundWaits);
    r.wait_events.background = wait_events(doc, ctx, Slot::BackgroundWaits);
    r.wait_events.all = wait_events(doc, ctx, Slot::AllWaits);
    r.wait_classes = wait_classes(doc, ctx);
    r.wait_histogram = histograms(doc, ctx);
    r.time_model = time_model(doc, ctx);
    r.os_stats = os_stats(doc, ctx);
    r.host_cpu = host_cpu(doc, ctx);
    r.instance_cpu = instance_cpu(doc, ctx);
    r.io_profile = io_profile(doc, ctx);
    r.activity_stats = activity_stats(doc, ctx);
    r.iostat_function = iostat(doc, ctx, Slot::IostatFunction, Kind::Function);
    r.iostat_filetype = iostat(doc, ctx, Slot::IostatFiletype, Kind::Filetype);
    r.iostat_function_filetype = iostat(
        doc,
        ctx,
        Slot::IostatFunctionFiletype,
        Kind::FunctionFiletype,
    );
    r.tablespace_io = file_io(doc, ctx, Slot::TablespaceIo);
    r.file_io = file_io(doc, ctx, Slot::FileIo);
    r.buffer_pool_advisory = buffer_pool_advisory(doc, ctx);
    r.segments = segments(doc, ctx);
    r.sql = sql(doc, ctx);
    r.parameters = parameters(doc);
}

pub use crate::normalize::to_u32;

fn bytes(v: Option<f64>) -> Option<u64> {
    v.filter(|v| *v >= 0.0 && v.is_finite())
        .map(|v| v.round() as u64)
}

fn cache_sizes(doc: &Doc<'_>, ctx: &mut Ctx) -> CacheSizes {
    let mut c = CacheSizes::default();
    let Some(s) = doc.title(Slot::CacheSizes).and_then(|t| doc.first(t)) else {
        return c;
    };
    c.src = Some(src(s.title, s.line));
    for l in s.lines.iter().skip(1) {
        if l.is_blank() && c.buffer_cache_bytes.is_some() {
            break;
        }
        for (name, vals) in label_values(l.text) {
            let n = name.to_ascii_lowercase();
            let v0 = vals
                .first()
                .and_then(|v| ctx.num_with(v, Suffix::Binary, s.title, l.no));
            let v1 = vals
                .get(1)
                .and_then(|v| ctx.num_with(v, Suffix::Binary, s.title, l.no));
            if n.starts_with("buffer cache") {
                c.buffer_cache_bytes = bytes(v0);
                c.buffer_cache_bytes_end = bytes(v1);
            } else if n.starts_with("shared pool") {
                c.shared_pool_bytes = bytes(v0);
                c.shared_pool_bytes_end = bytes(v1);
            } else if n.starts_with("std block size") {
                c.std_block_size = bytes(v0);
            } else if n.starts_with("log buffer") {
                c.log_buffer_bytes = bytes(v0);
            }
        }
    }
    c
}

fn load_profile(doc: &Doc<'_>, ctx: &mut Ctx) -> Vec<LoadProfileRow> {
    let mut out = Vec::new();
    let mut cols = PerRule::new();
    for (row, name, off) in doc.slot_labelled_rows(Slot::LoadProfile) {
        let l = row.line;
        let c = cells_from(l.text, &row.rule.spans, off);
        let [second, transaction, exec, call] = cols.of(row.rule, |rule| {
            ["second", "transaction", "exec", "call"].map(|p| rule.col(|n| n.contains(p)))
        });
        let t = row.section.title;
        out.push(LoadProfileRow {
            name: name.to_string(),
            per_second: ctx.num(cell(&c, second), t, l.no),
            per_transaction: ctx.num(cell(&c, transaction), t, l.no),
            per_exec: ctx.num(cell(&c, exec), t, l.no),
            per_call: ctx.num(cell(&c, call), t, l.no),
            src: src(t, l.no),
        });
    }
    out
}

/// Column indexes of a wait-event style table.
#[derive(Clone, Copy)]
struct WaitCols {
    waits: Option<usize>,
    timeouts: Option<usize>,
    timeouts_are_pct: bool,
    time: Option<usize>,
    avg: Option<usize>,
    avg_unit_ms: f64,
    per_txn: Option<usize>,
    pct: Option<usize>,
    class: Option<usize>,
}

fn wait_cols(rule: &Rule) -> WaitCols {
    let timeouts_pct = rule.data_col(|n| n.contains("out") && n.contains('%'));
    let timeouts_cnt = rule.data_col(|n| n == "timeouts");
    let avg = rule.data_col(|n| n.contains("avg"));
    let avg_name = avg
        .and_then(|i| rule.names.get(i))
        .map(String::as_str)
        .unwrap_or("");
    WaitCols {
        waits: rule.data_col(|n| n == "waits" || n == "total waits" || n == "total wts"),
        timeouts: timeouts_pct.or(timeouts_cnt),
        timeouts_are_pct: timeouts_pct.is_some(),
        time: rule.data_col(|n| {
            n.contains("time")
                && !n.contains('%')
                && !n.contains("avg")
                && !n.contains("class")
                && !n.contains("out")
        }),
        avg,
        avg_unit_ms: if avg_name.contains("(s)") {
            1000.0
        } else {
            1.0
        },
        per_txn: rule.data_col(|n| n.contains("/txn")),
        pct: rule.data_col(|n| n.starts_with('%') && !n.contains("out") && !n.contains("cpu")),
        class: rule.data_col(|n| n.contains("class")),
    }
}

/// The figures every wait-event style row carries.
struct Figures {
    waits: Option<f64>,
    timeouts_pct: Option<f64>,
    time_s: Option<f64>,
    avg_ms: Option<f64>,
    per_txn: Option<f64>,
    pct: Option<f64>,
    class: Option<String>,
}

/// What was read of the last rule asked for (its column indexes): the rows
/// of a table share their rule, so its headings are read once a table, not
/// once a row.
struct PerRule<'s, T> {
    last: Option<(&'s Rule, T)>,
}

impl<'s, T: Copy> PerRule<'s, T> {
    fn new() -> Self {
        PerRule { last: None }
    }

    fn of(&mut self, rule: &'s Rule, read: impl FnOnce(&Rule) -> T) -> T {
        match self.last {
            Some((r, v)) if std::ptr::eq(r, rule) => v,
            _ => {
                let v = read(rule);
                self.last = Some((rule, v));
                v
            }
        }
    }
}

fn figures(n: &Named<'_, '_>, w: &WaitCols, ctx: &mut Ctx) -> Figures {
    let (t, no) = (n.title(), n.no());
    let c = &n.cells;
    let waits = ctx.num(cell(c, w.waits), t, no);
    let timeouts = ctx.num(cell(c, w.timeouts), t, no);
    // 8i/9i Statspack prints a count of timeouts, later releases a percentage.
    let timeouts_pct = if w.timeouts_are_pct {
        timeouts
    } else {
        match (timeouts, waits) {
            (Some(x), Some(all)) if all > 0.0 => Some(100.0 * x / all),
            _ => None,
        }
    };
    Figures {
        waits,
        timeouts_pct,
        time_s: ctx.num(cell(c, w.time), t, no),
        avg_ms: ctx.ms(cell(c, w.avg), w.avg_unit_ms, t, no),
        per_txn: ctx.num(cell(c, w.per_txn), t, no),
        pct: ctx.num(cell(c, w.pct), t, no),
        class: Some(cell(c, w.class))
            .filter(|s| !s.is_empty())
            .map(str::to_string),
    }
}

fn top_events(doc: &Doc<'_>, ctx: &mut Ctx) -> Vec<TopEvent> {
    let mut out = Vec::new();
    let mut cols = PerRule::new();
    for n in named_rows(doc, Slot::TopEvents) {
        let f = figures(&n, &cols.of(n.row.rule, wait_cols), ctx);
        let cpu =
            n.name().eq_ignore_ascii_case("DB CPU") || n.name().eq_ignore_ascii_case("CPU time");
        out.push(TopEvent {
            name: n.name().to_string(),
            waits: if cpu { None } else { f.waits },
            time_s: f.time_s,
            avg_ms: f.avg_ms,
            pct_db_time: f.pct,
            wait_class: f.class,
            src: src(n.title(), n.no()),
        });
    }
    out
}

fn wait_events(doc: &Doc<'_>, ctx: &mut Ctx, slot: Slot) -> Vec<WaitEvent> {
    let mut out = Vec::new();
    let mut cols = PerRule::new();
    for n in named_rows(doc, slot) {
        let w = cols.of(n.row.rule, wait_cols);
        if w.waits.is_none() {
            continue;
        }
        let f = figures(&n, &w, ctx);
        out.push(WaitEvent {
            name: SharedStr::new(n.name()),
            wait_class: f.class.map(|c| SharedStr::shared(&c)),
            waits: f.waits,
            timeouts_pct: f.timeouts_pct,
            time_s: f.time_s,
            avg_ms: f.avg_ms,
            waits_per_txn: f.per_txn,
            pct_db_time: f.pct,
            src: src(n.title(), n.no()),
        });
    }
    out
}

fn wait_classes(doc: &Doc<'_>, ctx: &mut Ctx) -> Vec<WaitClassRow> {
    // The foreground table first, as the HTML parser does; the 11.2.0.4+
    // summary table (all sessions) only when there is no other.
    let mut rows = named_rows(doc, Slot::WaitClasses);
    if rows.is_empty() {
        rows = named_rows(doc, Slot::SummaryWaitClasses);
    }
    let mut out = Vec::new();
    let mut cols = PerRule::new();
    for n in rows {
        let f = figures(&n, &cols.of(n.row.rule, wait_cols), ctx);
        out.push(WaitClassRow {
            wait_class: n.name().to_string(),
            waits: f.waits,
            timeouts_pct: f.timeouts_pct,
            time_s: f.time_s,
            avg_ms: f.avg_ms,
            waits_per_txn: f.per_txn,
            pct_db_time: f.pct,
            src: src(n.title(), n.no()),
        });
    }
    out
}

/// Upper bound in ms of a histogram bucket heading (`<1ms`, `<=1s`,
/// `<128u`, `<1/8s`, `< 1m`); `None` for the open last bucket (`>1s`).
/// Oracle's `s` is 1024 ms and `m` 64 x 1024 ms (the reports say so).
fn bucket_ms(head: &str, last_unit: &mut f64) -> Option<f64> {
    // The bucket label starts at its `<` or `>`; words before it belong to
    // a group heading (`% of Waits`).
    let head = head.find(['<', '>']).and_then(|i| head.get(i..))?;
    let h: String = head.chars().filter(|c| !c.is_whitespace()).collect();
    if h.starts_with('>') {
        return None;
    }
    let h = h.trim_start_matches(['<', '=']);
    let (num, unit) = if let Some(n) = h.strip_suffix("us") {
        (n, 0.001)
    } else if let Some(n) = h.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = h.strip_suffix('u') {
        (n, 0.001)
    } else if let Some(n) = h.strip_suffix('s') {
        (n, 1024.0)
    } else if let Some(n) = h.strip_suffix('m') {
        (n, 65536.0)
    } else {
        (h, *last_unit)
    };
    *last_unit = unit;
    let v = if let Some((a, b)) = num.split_once('/') {
        a.parse::<f64>().ok()? / b.parse::<f64>().ok()?
    } else {
        num.parse::<f64>().ok()?
    };
    Some(v * unit)
}

fn histograms(doc: &Doc<'_>, ctx: &mut Ctx) -> Vec<HistogramRow> {
    let mut out = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    for s in &doc.sections {
        if !s
            .title
            .to_ascii_lowercase()
            .starts_with("wait event histogram")
            || seen.iter().any(|t| super::same_title(t, s.title))
        {
            continue;
        }
        seen.push(s.title);
        for row in doc.rows(s.title) {
            let l = row.line;
            if l.is_blank() || l.is_note() {
                continue;
            }
            let c = cells(l.text, &row.rule.spans);
            let name = cell(&c, Some(0));
            if name.is_empty() {
                continue;
            }
            let t = row.section.title;
            let mut last_unit = 1.0;
            let mut buckets = Buckets::new();
            for (i, head) in row.rule.names.iter().enumerate().skip(2) {
                let le = bucket_ms(head, &mut last_unit).unwrap_or(f64::MAX);
                // A blank cell is "truly 0": left out, as the HTML parser does.
                if let Some(pct) = ctx.num(cell(&c, Some(i)), t, l.no) {
                    buckets.push(HistogramBucket { le_ms: le, pct });
                }
            }
            // Detail tables (`Waits 64ms to 2s`) count only their range.
            let waits = ctx.num(cell(&c, Some(1)), t, l.no);
            let is_total = row
                .rule
                .names
                .get(1)
                .is_some_and(|n| n.starts_with("total"));
            out.push(HistogramRow {
                event: SharedStr::shared(name),
                total_waits: if is_total { waits } else { None },
                range_waits: if is_total { None } else { waits },
                buckets,
                src: src(t, l.no),
            });
        }
    }
    out
}

fn time_model(doc: &Doc<'_>, ctx: &mut Ctx) -> Vec<TimeModelRow> {
    named_rows(doc, Slot::TimeModel)
        .iter()
        .map(|n| TimeModelRow {
            name: n.name().to_string(),
            time_s: ctx.num(n.at(|h| h.contains("time (s)")), n.title(), n.no()),
            pct_db_time: ctx.num(
                n.at(|h| h.contains("db time") && h.contains('%')),
                n.title(),
                n.no(),
            ),
            src: src(n.title(), n.no()),
        })
        .collect()
}

fn os_stats(doc: &Doc<'_>, ctx: &mut Ctx) -> Vec<OsStat> {
    named_rows(doc, Slot::OsStats)
        .iter()
        .map(|n| OsStat {
            name: n.name().to_string(),
            value: ctx.num(n.at(|h| h == "value" || h == "total"), n.title(), n.no()),
            end_value: ctx.num(n.at(|h| h.contains("end")), n.title(), n.no()),
            src: src(n.title(), n.no()),
        })
        .collect()
}

fn host_cpu(doc: &Doc<'_>, ctx: &mut Ctx) -> Option<HostCpu> {
    let s = doc.first(doc.title(Slot::HostCpu)?)?;
    let row = doc
        .rows(s.title)
        .into_iter()
        .find(|r| !r.line.is_blank() && !r.line.is_note())?;
    let l = row.line;
    let c = cells(l.text, &row.rule.spans);
    let col = |p: &str| {
        row.rule
            .col(|n| n.split_whitespace().any(|w| w.trim_start_matches('%') == p))
    };
    let t = s.title;
    let mut h = HostCpu {
        cpus: ctx.num(cell(&c, col("cpus")), t, l.no).and_then(to_u32),
        cores: ctx.num(cell(&c, col("cores")), t, l.no).and_then(to_u32),
        sockets: ctx.num(cell(&c, col("sockets")), t, l.no).and_then(to_u32),
        load_begin: ctx.num(cell(&c, col("begin")), t, l.no),
        load_end: ctx.num(cell(&c, col("end")), t, l.no),
        pct_user: ctx.num(cell(&c, col("user")), t, l.no),
        pct_system: ctx.num(cell(&c, col("system")), t, l.no),
        pct_wio: ctx.num(cell(&c, col("wio")), t, l.no),
        pct_idle: ctx.num(cell(&c, col("idle")), t, l.no),
        src: src(t, l.no),
    };
    // Statspack: `Host CPU  (CPUs: 12  Cores: 6  Sockets: 1)` in the title line.
    if let Some(title_line) = s.lines.first() {
        for (k, v) in label_values(title_line.text) {
            let v = v
                .first()
                .and_then(|v| crate::num::num(v.trim_end_matches(')')))
                .and_then(to_u32);
            match k.rsplit('(').next().unwrap_or("") {
                "CPUs" => h.cpus = h.cpus.or(v),
                "Cores" => h.cores = h.cores.or(v),
                "Sockets" => h.sockets = h.sockets.or(v),
                _ => {}
            }
        }
    }
    Some(h)
}

fn instance_cpu(doc: &Doc<'_>, ctx: &mut Ctx) -> Option<InstanceCpu> {
    let s = doc.first(doc.title(Slot::InstanceCpu)?)?;
    let mut ic = InstanceCpu {
        src: src(s.title, s.line),
        ..InstanceCpu::default()
    };
    for l in &s.lines {
        let Some(i) = l.text.rfind(':') else { continue };
        let name = l.text.get(..i).unwrap_or("").to_ascii_lowercase();
        let val = l.text.get(i + 1..).unwrap_or("").split_whitespace().next();
        let Some(val) = val else { continue };
        let v = ctx.num(val, s.title, l.no);
        if name.contains("% of total cpu for instance") {
            ic.pct_total_cpu = v;
        } else if name.contains("of busy") && name.contains("cpu") {
            ic.pct_busy_cpu = v;
        } else if name.contains("waiting for cpu") {
            ic.pct_db_time_waiting_cpu = v;
        }
    }
    Some(ic)
}

fn io_profile(doc: &Doc<'_>, ctx: &mut Ctx) -> Vec<IoProfileRow> {
    let mut out = Vec::new();
    for (row, name, off) in doc.slot_labelled_rows(Slot::IoProfile) {
        let l = row.line;
        let c = cells_from(l.text, &row.rule.spans, off);
        let t = row.section.title;
        out.push(IoProfileRow {
            name: name.to_string(),
            read_write_per_s: ctx.num(
                cell(&c, row.rule.col(|n| n.contains("read+write"))),
                t,
                l.no,
            ),
            read_per_s: ctx.num(cell(&c, row.rule.col(|n| n.starts_with("read/"))), t, l.no),
            write_per_s: ctx.num(cell(&c, row.rule.col(|n| n.starts_with("write/"))), t, l.no),
            src: src(t, l.no),
        });
    }
    out
}

fn activity_stats(doc: &Doc<'_>, ctx: &mut Ctx) -> Vec<ActivityStat> {
    let mut out = Vec::new();
    for (i, s) in doc.sections.iter().enumerate() {
        let title = s.title.to_ascii_lowercase();
        if !title.contains("instance activity stats") {
            continue;
        }
        for t in doc.tables(i) {
            let Some(rule) = t.rule() else { continue };
            let total = rule.col(|n| n == "total");
            let per_s = rule.col(|n| n.contains("per second"));
            let per_t = rule.col(|n| n.contains("per trans"));
            let begin = rule.col(|n| n.contains("begin"));
            let end = rule.col(|n| n.contains("end"));
            if total.is_none() && begin.is_none() {
                continue;
            }
            for l in &t.rows {
                if l.is_blank() || l.is_note() {
                    continue;
                }
                let c = cells(l.text, &rule.spans);
                let name = cell(&c, Some(0));
                if name.is_empty() {
                    continue;
                }
                out.push(ActivityStat {
                    name: SharedStr::shared(name),
                    total: ctx.num(cell(&c, total), s.title, l.no),
                    per_second: ctx.num(cell(&c, per_s), s.title, l.no),
                    per_transaction: ctx.num(cell(&c, per_t), s.title, l.no),
                    begin: ctx.num(cell(&c, begin), s.title, l.no),
                    end: ctx.num(cell(&c, end), s.title, l.no),
                    src: src(s.title, l.no),
                });
            }
        }
    }
    out
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Function,
    Filetype,
    FunctionFiletype,
}

/// IOStat tables. Columns are positional after the name: reads data,
/// read reqs/s, read data/s, writes data, write reqs/s, write data/s, then
/// waits count and average time (by function) or small/large read times
/// (by filetype, not kept).
fn iostat(doc: &Doc<'_>, ctx: &mut Ctx, slot: Slot, kind: Kind) -> Vec<IoStatRow> {
    let Some(title) = doc.title(slot) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut pending: Option<(String, Option<String>)> = None;
    for row in doc.rows(title) {
        let l = row.line;
        if l.is_blank() || l.is_note() {
            continue;
        }
        let t = row.section.title;
        let c = cells(l.text, &row.rule.spans);
        // By Function/Filetype: a name line, then the numbers under the rule.
        let (function, filetype, first) = if kind == Kind::FunctionFiletype {
            if !starts_numeric(l.text) {
                let name = l.text.trim();
                pending = Some(match name.split_once(" (") {
                    Some((f, ft)) => (f.to_string(), Some(ft.trim_end_matches(')').to_string())),
                    None => (name.to_string(), None),
                });
                continue;
            }
            match pending.take() {
                Some((f, ft)) => (Some(f), ft, 0),
                None => continue,
            }
        } else {
            let name = cell(&c, Some(0));
            if name.is_empty() {
                continue;
            }
            match kind {
                Kind::Filetype => (None, Some(name.to_string()), 1),
                _ => (Some(name.to_string()), None, 1),
            }
        };
        let at = |k: usize| cell(&c, Some(first + k));
        let mut r = IoStatRow {
            function,
            filetype,
            reads_mb: ctx.mb(at(0), t, l.no),
            read_reqs_per_s: ctx.num(at(1), t, l.no),
            read_mb_per_s: ctx.mb(at(2), t, l.no),
            writes_mb: ctx.mb(at(3), t, l.no),
            write_reqs_per_s: ctx.num(at(4), t, l.no),
            write_mb_per_s: ctx.mb(at(5), t, l.no),
            waits: None,
            avg_wait_ms: None,
            src: src(t, l.no),
        };
        if kind != Kind::Filetype {
            r.waits = ctx.num(at(6), t, l.no);
            r.avg_wait_ms = ctx.ms(at(7), 1.0, t, l.no);
        }
        out.push(r);
    }
    out
}

/// Column indexes of a file or tablespace I/O table.
#[derive(Clone, Copy)]
struct FileIoCols {
    reads: Option<usize>,
    reads_per_s: Option<usize>,
    avg_read_ms: Option<usize>,
    blocks_per_read: Option<usize>,
    one_block_reads_per_s: Option<usize>,
    avg_one_block_read_ms: Option<usize>,
    writes: Option<usize>,
    writes_per_s: Option<usize>,
    buffer_waits: Option<usize>,
    avg_buffer_wait_ms: Option<usize>,
}

fn file_io_cols(rule: &Rule) -> FileIoCols {
    FileIoCols {
        reads: rule.col(|n| n == "reads"),
        reads_per_s: rule
            .col(|n| (n.contains("rds/s") || n.contains("reads/s")) && !n.contains("1-bk")),
        avg_read_ms: rule.col(|n| {
            n.contains("rd") && n.contains("ms") && !n.contains("1-bk") && !n.contains("mx")
        }),
        blocks_per_read: rule.col(|n| n.contains("blks/rd")),
        one_block_reads_per_s: rule.col(|n| n.contains("1-bk") && n.contains("/s")),
        avg_one_block_read_ms: rule.col(|n| n.contains("1-bk") && n.contains("ms")),
        writes: rule.col(|n| n == "writes"),
        writes_per_s: rule.col(|n| n.contains("writes") && n.contains("/s")),
        buffer_waits: rule.col(|n| n.contains("buffer waits")),
        avg_buffer_wait_ms: rule.col(|n| n.contains("buf") && n.contains("wt")),
    }
}

fn file_io(doc: &Doc<'_>, ctx: &mut Ctx, slot: Slot) -> Vec<FileIoRow> {
    let Some(title) = doc.title(slot) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // Name line: tablespace (and file); numbers on the next line.
    let mut ts = SharedStr::default();
    let mut file: Option<String> = None;
    let mut have_name = false;
    let mut cols = PerRule::new();
    for row in doc.rows(title) {
        let l = row.line;
        if l.is_blank() || l.is_note() {
            continue;
        }
        let t = row.section.title;
        if !starts_numeric(l.text) || !l.text.starts_with(' ') {
            let name_rule = row.rules.first().unwrap_or(row.rule);
            let c = cells(l.text, &name_rule.spans);
            let first = cell(&c, Some(0));
            if !first.is_empty() && l.text.starts_with(|ch: char| !ch.is_whitespace()) {
                ts = SharedStr::shared(first);
                file = c.get(1).filter(|f| !f.is_empty()).map(|f| f.to_string());
            } else {
                // A further file of the same tablespace (name column blank).
                file = Some(l.text.trim().to_string());
            }
            have_name = true;
            continue;
        }
        if !have_name {
            continue;
        }
        have_name = false;
        let rule = row.rule;
        let k = cols.of(rule, file_io_cols);
        let c = cells(l.text, &rule.spans);
        let mut num = |i: Option<usize>| ctx.num(cell(&c, i), t, l.no);
        out.push(FileIoRow {
            tablespace: ts.clone(),
            file: file.clone(),
            reads: num(k.reads),
            reads_per_s: num(k.reads_per_s),
            avg_read_ms: num(k.avg_read_ms),
            blocks_per_read: num(k.blocks_per_read),
            one_block_reads_per_s: num(k.one_block_reads_per_s),
            avg_one_block_read_ms: num(k.avg_one_block_read_ms),
            writes: num(k.writes),
            writes_per_s: num(k.writes_per_s),
            buffer_waits: num(k.buffer_waits),
            avg_buffer_wait_ms: num(k.avg_buffer_wait_ms),
            src: src(t, l.no),
        });
    }
    out
}

fn buffer_pool_advisory(doc: &Doc<'_>, ctx: &mut Ctx) -> Vec<BufferPoolAdvisoryRow> {
    let mut out = Vec::new();
    for row in doc.slot_rows(Slot::BufferPoolAdvisory) {
        let l = row.line;
        if l.is_blank() || l.is_note() {
            continue;
        }
        let rule = row.rule;
        let c = cells(l.text, &rule.spans);
        let pool = cell(&c, Some(0));
        if pool.is_empty() || !starts_numeric(cell(&c, Some(1))) {
            continue;
        }
        let t = row.section.title;
        // `(thousands)` columns are scaled to plain counts.
        let scaled = |ctx: &mut Ctx, p: &dyn Fn(&str) -> bool| {
            let i = rule.col(p);
            let k = i
                .and_then(|i| rule.names.get(i))
                .is_some_and(|n| n.contains("thousands"));
            ctx.num(cell(&c, i), t, l.no)
                .map(|v| if k { v * 1000.0 } else { v })
        };
        out.push(BufferPoolAdvisoryRow {
            pool: pool.to_string(),
            block_size: None,
            size_factor: scaled(ctx, &|n| n.contains("size") && n.contains("fact")),
            size_mb: scaled(ctx, &|n| n.contains("size for")),
            buffers: scaled(ctx, &|n| n.contains("buffers")),
            est_phys_read_factor: scaled(ctx, &|n| n.contains("read") && n.contains("fact")),
            est_phys_reads: scaled(ctx, &|n| {
                n.contains("reads") && !n.contains("fact") && !n.contains("time")
            }),
            est_phys_read_time_s: scaled(ctx, &|n| n.contains("read time")),
            est_pct_db_time: scaled(ctx, &|n| n.contains("dbtime") || n.contains("db time")),
            src: src(t, l.no),
        });
    }
    out
}

/// `Segments by DB Blocks Changes` -> `db_block_changes`, others snake case.
pub fn segment_key(what: &str) -> String {
    let w = what.trim();
    if w.eq_ignore_ascii_case("DB Blocks Changes") || w.eq_ignore_ascii_case("DB Block Changes") {
        return "db_block_changes".into();
    }
    let mut k = String::with_capacity(w.len());
    for ch in w.chars() {
        if ch.is_ascii_alphanumeric() {
            k.push(ch.to_ascii_lowercase());
        } else if !k.ends_with('_') {
            k.push('_');
        }
    }
    k.trim_matches('_').to_string()
}

fn segments(doc: &Doc<'_>, ctx: &mut Ctx) -> BTreeMap<String, Vec<SegmentRow>> {
    let mut out: BTreeMap<String, Vec<SegmentRow>> = BTreeMap::new();
    let mut seen: Vec<&str> = Vec::new();
    for s in &doc.sections {
        let Some(what) = (registry::slot_of(s.title) == Some(Slot::Segments))
            .then(|| s.title.get(12..))
            .flatten()
        else {
            continue;
        };
        if seen.iter().any(|t| super::same_title(t, s.title)) {
            continue;
        }
        seen.push(s.title);
        let key = segment_key(what);
        let mut rows = Vec::new();
        // 12.2+: owner and tablespace on one line, the rest on the next.
        let mut owner_ts: Option<(SharedStr, SharedStr)> = None;
        let mut cols = PerRule::new();
        for row in doc.rows(s.title) {
            let l = row.line;
            if l.is_blank() || l.is_note() {
                continue;
            }
            let t = row.section.title;
            let two_line = row.rules.len() >= 2
                && row
                    .rules
                    .first()
                    .is_some_and(|r| r.col(|n| n == "owner").is_some())
                && row.rule.col(|n| n == "owner").is_none();
            let rule = row.rule;
            if two_line
                && row.line.text.starts_with(|c: char| !c.is_whitespace())
                && let Some(first) = row.rules.first()
            {
                // A name line ends within the first rule's columns.
                let c = cells(l.text, &first.spans);
                let end = first.spans.last().map_or(0, |sp| sp.end);
                if l.text.len() <= end + 2 && !starts_numeric(cell(&c, Some(1))) {
                    let own = SharedStr::shared(cell(&c, first.col(|n| n == "owner")));
                    let ts = SharedStr::shared(cell(&c, first.col(|n| n.contains("tablespace"))));
                    owner_ts = Some((own, ts));
                    continue;
                }
            }
            let c = cells(l.text, &rule.spans);
            let k = cols.of(rule, segment_cols);
            let value = k.pct.and_then(|p| p.checked_sub(1));
            let object = cell(&c, k.object);
            if object.is_empty() || value.is_none() {
                continue;
            }
            let (owner, tablespace) = if two_line {
                owner_ts.take().unwrap_or_default()
            } else {
                (
                    SharedStr::shared(cell(&c, k.owner)),
                    SharedStr::shared(cell(&c, k.tablespace)),
                )
            };
            let sub = cell(&c, k.subobject);
            let container = cell(&c, k.container);
            rows.push(SegmentRow {
                owner,
                tablespace,
                object: object.to_string(),
                subobject: Some(sub).filter(|x| !x.is_empty()).map(str::to_string),
                object_type: SharedStr::shared(cell(&c, k.object_type)),
                value: ctx.num(cell(&c, value), t, l.no),
                pct_total: ctx.num(cell(&c, k.pct), t, l.no),
                container: Some(container)
                    .filter(|x| !x.is_empty())
                    .map(str::to_string),
                src: src(t, l.no),
            });
        }
        if !rows.is_empty() {
            out.insert(key, rows);
        }
    }
    out
}

/// Columns of a segment table, read once a rule ([`PerRule`]).
#[derive(Clone, Copy)]
struct SegmentCols {
    pct: Option<usize>,
    object: Option<usize>,
    owner: Option<usize>,
    tablespace: Option<usize>,
    subobject: Option<usize>,
    container: Option<usize>,
    object_type: Option<usize>,
}

fn segment_cols(rule: &Rule) -> SegmentCols {
    SegmentCols {
        pct: rule.col(|n| {
            (n.contains("total") || n.contains("capture"))
                && (n.starts_with('%') || n.starts_with("pct"))
        }),
        object: rule.col(|n| n.starts_with("object")),
        owner: rule.col(|n| n == "owner"),
        tablespace: rule.col(|n| n.contains("tablespace")),
        subobject: rule.col(|n| n.contains("subobject")),
        container: rule.col(|n| n.contains("container")),
        object_type: rule.col(|n| n.contains("type")),
    }
}

fn looks_like_sql_id(s: &str) -> bool {
    (s.len() == 13 && s.bytes().all(|b| b.is_ascii_alphanumeric()))
        || (!s.is_empty() && s.len() <= 10 && s.bytes().all(|b| b.is_ascii_digit()))
}

/// Columns of a SQL table, read once a rule ([`PerRule`]).
#[derive(Clone, Copy)]
struct SqlCols {
    id: Option<usize>,
    executions: Option<usize>,
    per_exec: Option<usize>,
    pct_total: Option<usize>,
    elapsed: Option<usize>,
}

fn sql_cols(rule: &Rule) -> SqlCols {
    SqlCols {
        id: rule.col(|n| n.contains("sql id") || n.contains("hash value")),
        executions: rule.col(|n| n == "executions"),
        per_exec: rule.col(|n| n.contains("per exe")),
        pct_total: rule.col(|n| n.contains("%total")),
        elapsed: rule.col(|n| n.contains("elap")),
    }
}

fn sql(doc: &Doc<'_>, ctx: &mut Ctx) -> BTreeMap<String, Vec<SqlRow>> {
    let mut out = BTreeMap::new();
    for (slot, key) in [
        (Slot::SqlReads, "physical_reads"),
        (Slot::SqlUnoptimizedReads, "unoptimized_reads"),
    ] {
        let mut rows: Vec<SqlRow> = Vec::new();
        let mut in_record = false;
        let mut cols = PerRule::new();
        for row in doc.slot_rows(slot) {
            let l = row.line;
            if l.is_note() {
                continue;
            }
            if l.is_blank() {
                in_record = false;
                continue;
            }
            let rule = row.rule;
            let c = cells(l.text, &rule.spans);
            let k = cols.of(rule, sql_cols);
            let id = cell(&c, k.id);
            let t = row.section.title;
            if looks_like_sql_id(id)
                && starts_numeric(l.text)
                && matches!(
                    parse_num(cell(&c, k.executions), Suffix::Decimal),
                    Num::Value(_)
                )
            {
                rows.push(SqlRow {
                    sql_id: id.to_string(),
                    value: ctx.num(cell(&c, Some(0)), t, l.no),
                    executions: ctx.num(cell(&c, k.executions), t, l.no),
                    per_exec: ctx.num(cell(&c, k.per_exec), t, l.no),
                    pct_total: ctx.num(cell(&c, k.pct_total), t, l.no),
                    elapsed_s: ctx.num(cell(&c, k.elapsed), t, l.no),
                    module: None,
                    sql_text: None,
                    src: src(t, l.no),
                });
                in_record = true;
                continue;
            }
            if !in_record {
                continue;
            }
            let Some(last) = rows.last_mut() else {
                continue;
            };
            if let Some(m) = l.text.trim().strip_prefix("Module: ") {
                if last.module.is_none() && last.sql_text.is_none() {
                    last.module = Some(m.trim().to_string());
                }
            } else if last.sql_text.is_none() {
                last.sql_text = Some(l.text.trim().to_string());
            }
        }
        if !rows.is_empty() {
            out.insert(key.to_string(), rows);
        }
    }
    out
}

fn parameters(doc: &Doc<'_>) -> Vec<Parameter> {
    let mut out: Vec<Parameter> = Vec::new();
    for row in doc.slot_rows(Slot::Parameters) {
        let l = row.line;
        if l.is_blank() || l.is_note() {
            continue;
        }
        let rule = row.rule;
        let c = cells(l.text, &rule.spans);
        let begin = rule.col(|n| n.contains("begin"));
        let end = rule.col(|n| n.contains("end"));
        let name = cell(&c, Some(0));
        if name.is_empty() || l.text.starts_with(' ') {
            // A value wrapped onto the next line.
            if let Some(p) = out.last_mut() {
                p.value.push_str(cell(&c, begin));
                if let Some(e) = p.end_value.as_mut() {
                    e.push_str(cell(&c, end));
                }
            }
            continue;
        }
        out.push(Parameter {
            name: name.to_string(),
            value: cell(&c, begin).to_string(),
            end_value: Some(cell(&c, end))
                .filter(|x| !x.is_empty())
                .map(str::to_string),
            src: src(row.section.title, l.no),
        });
    }
    out
}

/// Header tables (`DB Name  DB Id ...` over a rule over one data row) and
/// the snapshot lines, from the lines before the first report section.
pub fn header(lines: &[Line<'_>], ctx: &mut Ctx) -> Header {
    let mut h = Header::default();
    let mut map: BTreeMap<String, (String, u32)> = BTreeMap::new();
    let limit = lines
        .iter()
        .position(|l| {
            let t = l.text.trim_start();
            t.starts_with("Load Profile")
                || t.starts_with("Cache Sizes")
                || t.starts_with("Top ADDM")
        })
        .unwrap_or(lines.len().min(200));
    let head = lines.get(..limit).unwrap_or(lines);
    for (i, l) in head.iter().enumerate() {
        let (Some(rule), Some(data)) = (head.get(i + 1), head.get(i + 2)) else {
            continue;
        };
        if l.is_blank()
            || !super::is_rule(rule.text)
            || data.is_blank()
            || super::is_rule(data.text)
        {
            continue;
        }
        let r = super::make_rule(rule, std::slice::from_ref(l), None);
        if r.names.iter().any(|n| n.contains("snap id")) {
            continue;
        }
        let c = cells(data.text, &r.spans);
        for (k, n) in r.names.iter().enumerate() {
            let v = cell(&c, Some(k));
            if !n.is_empty() && !v.is_empty() {
                map.entry(n.clone()).or_insert((v.to_string(), data.no));
            }
        }
        if h.src.is_none() {
            h.src = Some(src("header", data.no));
        }
    }
    let get = |k: &str| map.get(k).map(|(v, _)| v.as_str());
    h.db_name = get("db name").or(get("database")).map(str::to_string);
    h.dbid = get("db id").and_then(crate::num::num).map(|v| v as u64);
    h.instance = get("instance").map(str::to_string);
    h.instance_number = get("inst num")
        .or(get("inst num."))
        .and_then(crate::num::num)
        .and_then(to_u32);
    h.release = get("release").map(str::to_string);
    h.rac = get("rac")
        .or(get("cluster"))
        .is_some_and(|v| v.eq_ignore_ascii_case("YES"));
    h.cdb = get("cdb").map(|v| v.eq_ignore_ascii_case("YES"));
    // PDB reports (12.2+): `Container DB Id  Container Name  Open Time`.
    h.container = get("container name").map(str::to_string);
    h.host = get("host name")
        .or(get("host"))
        // Statspack 10g+: `Host Name` over a `~~~~ -----` rule splits the words.
        .or(get("name"))
        .map(str::to_string);
    h.platform = get("platform").map(str::to_string);
    h.cpus = get("cpus").and_then(crate::num::num).and_then(to_u32);
    h.cores = get("cores").and_then(crate::num::num).and_then(to_u32);
    h.sockets = get("sockets").and_then(crate::num::num).and_then(to_u32);
    h.memory_gb = get("memory(gb)")
        .or(get("memory (g)"))
        .or(get("memory (gb)"))
        .and_then(crate::num::num);

    for l in head {
        let t = l.text.trim_start();
        let lv = label_values(t);
        let Some((name, _)) = lv.first() else {
            continue;
        };
        let rest: Vec<&str> = label(t)
            .map(|(_, off)| t.get(off..).unwrap_or("").split_whitespace().collect())
            .unwrap_or_default();
        match name.to_ascii_lowercase().as_str() {
            "begin snap" | "end snap" => {
                let id = rest
                    .first()
                    .and_then(|v| crate::num::num(v))
                    .map(|v| v as u64);
                let time = match (rest.get(1), rest.get(2)) {
                    (Some(d), Some(tm)) => iso_time(d, tm),
                    _ => None,
                };
                if name.eq_ignore_ascii_case("begin snap") {
                    h.begin_snap = id;
                    h.begin_time = time;
                } else {
                    h.end_snap = id;
                    h.end_time = time;
                }
            }
            "elapsed" => h.elapsed_s = minutes(&rest, ctx, l.no),
            "db time" => h.db_time_s = minutes(&rest, ctx, l.no),
            _ => {}
        }
        // Statspack 10g: `Host  Name:   dbhost   Num CPUs:    2   Phys Memory (MB):  3,952`.
        // A value that is not a number joins the next label's words
        // (`sphost10 Num CPUs`): match labels by their end.
        for (k, v) in &lv {
            let first = v.first().copied();
            let k = if k.ends_with("Num CPUs") {
                "Num CPUs"
            } else if k.ends_with("Phys Memory (MB)") {
                "Phys Memory (MB)"
            } else {
                k.as_str()
            };
            match k {
                "Host Name" if h.host.is_none() => {
                    h.host = label(t)
                        .and_then(|(_, off)| t.get(off..))
                        .and_then(|r| r.split_whitespace().next())
                        .map(str::to_string);
                }
                "Num CPUs" => h.cpus = h.cpus.or(first.and_then(crate::num::num).and_then(to_u32)),
                "Phys Memory (MB)" => {
                    h.memory_gb = h
                        .memory_gb
                        .or(first.and_then(crate::num::num).map(|v| v / 1024.0));
                }
                _ => {}
            }
        }
    }
    h
}

/// `60.22 (mins)` (or `(secs)`) in seconds.
fn minutes(rest: &[&str], ctx: &mut Ctx, line: u32) -> Option<f64> {
    let v = ctx.num(rest.first()?, "header", line)?;
    let unit = rest.get(1).copied().unwrap_or("(mins)");
    let s = if unit.starts_with("(s") { v } else { v * 60.0 };
    // Minutes print with 2 decimals: drop the binary noise of `x 60`.
    Some((s * 1e6).round() / 1e6)
}

/// A warning when the report does not end with `End of Report` (AWR) or
/// `End of Report ( file )` (Statspack): it was cut short, and sections
/// after the cut are missing rather than empty.
pub fn check_end(lines: &[Line<'_>], ctx: &mut Ctx) {
    let ended = lines
        .iter()
        .rev()
        .take(50)
        .any(|l| l.text.trim_start().starts_with("End of Report"));
    if !ended {
        let line = lines
            .iter()
            .rev()
            .find(|l| !l.is_blank())
            .map_or(1, |l| l.no);
        ctx.warnings.push(crate::normalize::cut_short_warning(line));
    }
}

/// A report without its header table is not usable; otherwise the names
/// missing from it are taken from the page headers (`DB/Inst: ORCL/orcl1`).
pub fn require_header(
    path: &str,
    lines: &[Line<'_>],
    h: &mut Header,
) -> Result<(), crate::ParseError> {
    if h.src.is_none() {
        let line = lines
            .iter()
            .rev()
            .find(|l| !l.is_blank())
            .map_or(1, |l| l.no);
        return Err(crate::ParseError::Malformed {
            path: path.to_string(),
            line,
            section: "header".into(),
            message: "the report ends before its DB Name / DB Id header table".into(),
        });
    }
    if let Some((db, inst)) = db_inst(lines) {
        h.db_name.get_or_insert(db);
        h.instance.get_or_insert(inst);
    }
    Ok(())
}

/// `DB/Inst: ORCL/orcl1` from the first page header: (db name, instance).
fn db_inst(lines: &[Line<'_>]) -> Option<(String, String)> {
    let l = lines.iter().find(|l| l.text.contains("DB/Inst:"))?;
    let i = l.text.find("DB/Inst:")?;
    let rest = l.text.get(i + 8..)?.split_whitespace().next()?;
    let (db, inst) = rest.split_once('/')?;
    Some((db.to_string(), inst.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_bucket_headings_become_ms() {
        let mut u = 1.0;
        assert_eq!(bucket_ms("<1ms", &mut u), Some(1.0));
        assert_eq!(bucket_ms("<=1s", &mut u), Some(1024.0));
        assert_eq!(bucket_ms("<1/8s", &mut u), Some(128.0));
        assert_eq!(bucket_ms("< 1m", &mut u), Some(65536.0));
        assert_eq!(bucket_ms("<128u", &mut u), Some(0.128));
        assert_eq!(bucket_ms(">=512", &mut u), None);
    }

    #[test]
    fn segment_titles_become_keys() {
        assert_eq!(
            segment_key("Physical Read Requests"),
            "physical_read_requests"
        );
        assert_eq!(segment_key("UnOptimized Reads"), "unoptimized_reads");
        assert_eq!(segment_key("DB Blocks Changes"), "db_block_changes");
    }
}
