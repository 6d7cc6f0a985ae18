//! Row mappers for the sections of an instance (or PDB) report.
//!
//! Columns are found by header name, never by position, so the same mapper
//! reads 10g to 23ai: 11.2.0.4 added `Per Exec`/`Per Call` to Load Profile,
//! 12.1 `1-bk Rds/s` to the IO stats, 12.2 `% Opt Reads` and `PDB Name`,
//! 19c prints wait averages with units (`1.13ms`, `487.39us`).

use awrflash_model::{
    ActivityStat, Buckets, BufferPoolAdvisoryRow, FileIoRow, HistogramBucket, HistogramRow,
    HostCpu, InstanceCpu, IoProfileRow, IoStatRow, LoadProfileRow, OsStat, Parameter, SegmentRow,
    SharedStr, SqlRow, TimeModelRow, TopEvent, WaitClassRow, WaitEvent,
};

use super::view::{Ctx, View, contains_name, count, key, shared, string, text};
use crate::num::Suffix;

pub fn load_profile(v: &View<'_>, ctx: &mut Ctx, out: &mut Vec<LoadProfileRow>) {
    out.reserve(v.data.len());
    let ps = v.col(&["per second"]);
    let pt = v.col(&["per transaction"]);
    let pe = v.col(&["per exec"]);
    let pc = v.col(&["per call"]);
    for row in &v.data {
        let Some(name) = string(row, Some(0)) else {
            continue;
        };
        out.push(LoadProfileRow {
            name: name.trim_end_matches(':').trim().to_string(),
            per_second: ctx.num(v, row, ps),
            per_transaction: ctx.num(v, row, pt),
            per_exec: ctx.num(v, row, pe),
            per_call: ctx.num(v, row, pc),
            src: v.src(row),
        });
    }
}

/// Unit of a bare average-wait cell, from the column header.
fn bare_ms(v: &View<'_>, i: Option<usize>) -> f64 {
    let name = i.and_then(|i| v.cols.get(i)).copied().unwrap_or("");
    if contains_name(name, "(s)") || contains_name(name, "(sec)") {
        1000.0
    } else {
        1.0
    }
}

pub fn top_events(v: &View<'_>, ctx: &mut Ctx, out: &mut Vec<TopEvent>) {
    out.reserve(v.data.len());
    let ev = v.col(&["event"]);
    let waits = v.col(&["waits"]);
    let time = v.col(&["total wait time", "time(s)", "time (s)", "total(s)", "time"]);
    let avg = v.col(&["avg wait", "wait avg", "avg wait(ms)", "avg wait (ms)"]);
    let pct = v
        .col_containing("db time")
        .or_else(|| v.col_containing("call time"));
    let class = v.col(&["wait class"]);
    let unit = bare_ms(v, avg);
    for row in &v.data {
        let Some(name) = string(row, ev) else {
            continue;
        };
        out.push(TopEvent {
            name,
            waits: ctx.num(v, row, waits),
            time_s: ctx.num(v, row, time),
            avg_ms: ctx.ms(v, row, avg, unit),
            pct_db_time: ctx.num(v, row, pct),
            wait_class: string(row, class),
            src: v.src(row),
        });
    }
}

pub fn wait_events(v: &View<'_>, ctx: &mut Ctx, out: &mut Vec<WaitEvent>) {
    out.reserve(v.data.len());
    let ev = v.col(&["event"]);
    let class = v.col(&["wait class", "class"]);
    let waits = v.col(&["waits"]);
    let tmo = v.col(&["%time -outs", "%time-outs", "%timeouts", "%time outs"]);
    let time = v.col(&["total wait time", "time (s)", "time(s)", "total(s)"]);
    let avg = v.col(&["avg wait", "avg wait (ms)"]);
    let per_txn = v.col(&["waits /txn", "waits/txn"]);
    let pct = v
        .col_containing("db time")
        .or_else(|| v.col_containing("bg time"));
    let unit = bare_ms(v, avg);
    for row in &v.data {
        let Some(name) = shared(row, ev) else {
            continue;
        };
        out.push(WaitEvent {
            name,
            wait_class: shared(row, class),
            waits: ctx.num(v, row, waits),
            timeouts_pct: ctx.num(v, row, tmo),
            time_s: ctx.num(v, row, time),
            avg_ms: ctx.ms(v, row, avg, unit),
            waits_per_txn: ctx.num(v, row, per_txn),
            pct_db_time: ctx.num(v, row, pct),
            src: v.src(row),
        });
    }
}

pub fn wait_classes(v: &View<'_>, ctx: &mut Ctx, out: &mut Vec<WaitClassRow>) {
    out.reserve(v.data.len());
    let class = v.col(&["wait class"]);
    let waits = v.col(&["waits"]);
    let tmo = v.col(&["%time -outs", "%time-outs"]);
    let time = v.col(&["total wait time", "time (s)", "time(s)"]);
    let avg = v.col(&["avg wait", "avg wait time", "avg wait (ms)"]);
    let pct = v.col_containing("db time");
    let unit = bare_ms(v, avg);
    for row in &v.data {
        let Some(name) = string(row, class) else {
            continue;
        };
        out.push(WaitClassRow {
            wait_class: name,
            waits: ctx.num(v, row, waits),
            timeouts_pct: ctx.num(v, row, tmo),
            time_s: ctx.num(v, row, time),
            avg_ms: ctx.ms(v, row, avg, unit),
            waits_per_txn: None,
            pct_db_time: ctx.num(v, row, pct),
            src: v.src(row),
        });
    }
}

/// Upper bound in ms of a histogram column: `<8us`, `<1ms`, `<=1s`,
/// `<1/8s`, `<2 min`; an open-ended `>1s` / `>=32ms` is `f64::MAX`.
/// The buckets are powers of two, and the report's own legend says so:
/// `s` is 1024 ms, `m` is 64*1024 ms and `hr` is 32*64*1024 ms.
const SECOND_MS: f64 = 1024.0;
const MINUTE_MS: f64 = 64.0 * 1024.0;
const HOUR_MS: f64 = 32.0 * 64.0 * 1024.0;

pub fn bucket_bound(label: &str) -> Option<f64> {
    // Most columns (`Event`, `Total Waits`) are no bucket: no copy for them.
    if !matches!(label.trim_start().as_bytes().first(), Some(b'<' | b'>')) {
        return None;
    }
    let mut l = label.trim().replace(' ', "");
    l.make_ascii_lowercase();
    if l.starts_with('>') {
        return Some(f64::MAX);
    }
    let body = l.strip_prefix("<=").or_else(|| l.strip_prefix('<'))?;
    let (num, scale) = if let Some(n) = body.strip_suffix("us") {
        (n, 0.001)
    } else if let Some(n) = body.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = body.strip_suffix("min") {
        (n, MINUTE_MS)
    } else if let Some(n) = body.strip_suffix('m') {
        (n, MINUTE_MS)
    } else if let Some(n) = body.strip_suffix("hr") {
        (n, HOUR_MS)
    } else if let Some(n) = body.strip_suffix('h') {
        (n, HOUR_MS)
    } else if let Some(n) = body.strip_suffix('s') {
        (n, SECOND_MS)
    } else {
        return None;
    };
    let value = match num.split_once('/') {
        Some((a, b)) => a.parse::<f64>().ok()? / b.parse::<f64>().ok()?,
        None => num.parse::<f64>().ok()?,
    };
    Some(value * scale)
}

pub fn histogram(v: &View<'_>, ctx: &mut Ctx, out: &mut Vec<HistogramRow>) {
    out.reserve(v.data.len());
    let ev = v.col(&["event"]);
    let total = v.col(&["total waits"]);
    // 11.2+ "Detail"/"(up to ...)" tables count only the waits of their range.
    let range = v.col_containing("waits ");
    let waits_any = v.col(&["waits"]);
    let buckets: Vec<(usize, f64)> = v
        .cols
        .iter()
        .enumerate()
        .filter_map(|(i, c)| bucket_bound(c).map(|b| (i, b)))
        .collect();
    for row in &v.data {
        let Some(event) = shared(row, ev) else {
            continue;
        };
        let mut bs = Buckets::new();
        for &(i, le_ms) in &buckets {
            if let Some(pct) = ctx.num(v, row, Some(i)) {
                bs.push(HistogramBucket { le_ms, pct });
            }
        }
        let (total_waits, range_waits) = if total.is_some() {
            (ctx.num(v, row, total), None)
        } else if range.is_some() {
            (None, ctx.num(v, row, range))
        } else {
            (ctx.num(v, row, waits_any), None)
        };
        out.push(HistogramRow {
            event,
            total_waits,
            range_waits,
            buckets: bs,
            src: v.src(row),
        });
    }
}

pub fn time_model(v: &View<'_>, ctx: &mut Ctx, out: &mut Vec<TimeModelRow>) {
    out.reserve(v.data.len());
    let name = v.col(&["statistic name", "statistic"]).or(Some(0));
    let time = v.col(&["time (s)", "time(s)"]);
    let pct = v.col_containing("db time");
    for row in &v.data {
        let Some(n) = string(row, name) else {
            continue;
        };
        out.push(TimeModelRow {
            name: n,
            time_s: ctx.num(v, row, time),
            pct_db_time: ctx.num(v, row, pct),
            src: v.src(row),
        });
    }
}

pub fn os_stats(v: &View<'_>, ctx: &mut Ctx, out: &mut Vec<OsStat>) {
    out.reserve(v.data.len());
    let name = v.col(&["statistic"]).or(Some(0));
    let value = v.col(&["value", "total"]);
    let end = v.col(&["end value"]);
    for row in &v.data {
        let Some(n) = string(row, name) else {
            continue;
        };
        out.push(OsStat {
            name: n,
            value: ctx.num(v, row, value),
            end_value: ctx.num(v, row, end),
            src: v.src(row),
        });
    }
}

pub fn host_cpu(v: &View<'_>, ctx: &mut Ctx) -> Option<HostCpu> {
    let row = v.data.first()?;
    Some(HostCpu {
        cpus: count(ctx.num(v, row, v.col(&["cpus"]))),
        cores: count(ctx.num(v, row, v.col(&["cores"]))),
        sockets: count(ctx.num(v, row, v.col(&["sockets"]))),
        load_begin: ctx.num(v, row, v.col(&["load average begin"])),
        load_end: ctx.num(v, row, v.col(&["load average end"])),
        pct_user: ctx.num(v, row, v.col(&["%user"])),
        pct_system: ctx.num(v, row, v.col(&["%system"])),
        pct_wio: ctx.num(v, row, v.col(&["%wio"])),
        pct_idle: ctx.num(v, row, v.col(&["%idle"])),
        src: v.src(row),
    })
}

pub fn instance_cpu(v: &View<'_>, ctx: &mut Ctx) -> Option<InstanceCpu> {
    let row = v.data.first()?;
    Some(InstanceCpu {
        pct_total_cpu: ctx.num(v, row, v.col(&["%total cpu"])),
        pct_busy_cpu: ctx.num(v, row, v.col(&["%busy cpu"])),
        pct_db_time_waiting_cpu: ctx.num(v, row, v.col_containing("waiting for cpu")),
        src: v.src(row),
    })
}

pub fn io_profile(v: &View<'_>, ctx: &mut Ctx, out: &mut Vec<IoProfileRow>) {
    out.reserve(v.data.len());
    let rw = v.col(&["read+write per second", "read+write/s"]);
    let r = v.col(&["read per second", "reads/s"]);
    let w = v.col(&["write per second", "writes/s"]);
    for row in &v.data {
        let Some(n) = string(row, Some(0)) else {
            continue;
        };
        out.push(IoProfileRow {
            name: n.trim_end_matches(':').trim().to_string(),
            read_write_per_s: ctx.num(v, row, rw),
            read_per_s: ctx.num(v, row, r),
            write_per_s: ctx.num(v, row, w),
            src: v.src(row),
        });
    }
}

pub fn activity_stats(v: &View<'_>, ctx: &mut Ctx, out: &mut Vec<ActivityStat>) {
    out.reserve(v.data.len());
    let name = v.col(&["statistic"]).or(Some(0));
    let total = v.col(&["total"]);
    let ps = v.col(&["per second"]);
    let pt = v.col(&["per trans"]);
    let begin = v.col(&["begin value"]);
    let end = v.col(&["end value"]);
    for row in &v.data {
        let Some(n) = shared(row, name) else {
            continue;
        };
        out.push(ActivityStat {
            name: n,
            total: ctx.num(v, row, total),
            per_second: ctx.num(v, row, ps),
            per_transaction: ctx.num(v, row, pt),
            begin: ctx.num(v, row, begin),
            end: ctx.num(v, row, end),
            src: v.src(row),
        });
    }
}

/// A data volume cell in MB: `46.3G`, `26.341M`, `0M` (powers of 1024,
/// as the report's legend says); a bare number is taken as MB.
fn mb(ctx: &mut Ctx, v: &View<'_>, row: &super::scan::Row, i: Option<usize>) -> Option<f64> {
    let cell = text(row, i)?.trim();
    let has_suffix = cell
        .chars()
        .last()
        .is_some_and(|c| matches!(c, 'K' | 'M' | 'G' | 'T' | 'P'));
    let x = ctx.cell_num(&v.section, row.line, cell, Suffix::Binary)?;
    Some(if has_suffix { x / (1024.0 * 1024.0) } else { x })
}

/// IOStat by Function / Filetype / Function-Filetype summary. The column
/// groups repeat names (`Reqs per sec` under Reads and under Writes), so
/// they are taken by position after `Reads: Data` and `Writes: Data`.
pub fn iostat(v: &View<'_>, ctx: &mut Ctx, kind: IoStatKind, out: &mut Vec<IoStatRow>) {
    out.reserve(v.data.len());
    let name = Some(0);
    let rd = v.col(&["reads: data", "reads:data"]);
    let wd = v.col(&["writes: data", "writes:data"]);
    let waits = v.col(&["waits: count", "waits:count"]);
    // Filetype tables print no wait average but the average small
    // (single-block) read time, which is what a flash move changes.
    let avg = v.col(&["avg time", "avg tm(ms)", "small read"]);
    let unit = 1.0;
    for row in &v.data {
        let Some(n) = string(row, name) else {
            continue;
        };
        let (function, filetype) = match kind {
            IoStatKind::Function => (Some(n), None),
            IoStatKind::Filetype => (None, Some(n)),
            // `Others` is the function total, `Others (Log File)` one of
            // its file types.
            IoStatKind::FunctionFiletype => {
                match n.strip_suffix(')').and_then(|x| x.split_once(" (")) {
                    Some((f, t)) => (Some(f.trim().to_string()), Some(t.trim().to_string())),
                    None => (Some(n), None),
                }
            }
        };
        out.push(IoStatRow {
            function,
            filetype,
            reads_mb: mb(ctx, v, row, rd),
            read_reqs_per_s: ctx.num(v, row, rd.map(|i| i + 1)),
            read_mb_per_s: mb(ctx, v, row, rd.map(|i| i + 2)),
            writes_mb: mb(ctx, v, row, wd),
            write_reqs_per_s: ctx.num(v, row, wd.map(|i| i + 1)),
            write_mb_per_s: mb(ctx, v, row, wd.map(|i| i + 2)),
            waits: ctx.num(v, row, waits),
            avg_wait_ms: ctx.ms(v, row, avg, unit),
            src: v.src(row),
        });
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum IoStatKind {
    Function,
    Filetype,
    FunctionFiletype,
}

pub fn file_io(v: &View<'_>, ctx: &mut Ctx, with_file: bool, out: &mut Vec<FileIoRow>) {
    out.reserve(v.data.len());
    let ts = v.col(&["tablespace"]);
    let file = v.col(&["filename", "file"]);
    let reads = v.col(&["reads"]);
    let rps = v.col(&["av rds/s", "av reads/s"]);
    let rms = v.col(&["av rd(ms)", "av rd (ms)"]);
    let bpr = v.col(&["av blks/rd", "av blks/rd"]);
    let one = v.col(&["1-bk rds/s"]);
    let one_ms = v.col(&["av 1-bk rd(ms)"]);
    let writes = v.col(&["writes"]);
    let wps = v.col(&["writes avg/s", "av wrts/s", "av writes/s"]);
    let bw = v.col(&["buffer waits"]);
    let bwms = v.col(&["av buf wt(ms)", "av buf wt (ms)"]);
    let mut last_ts = SharedStr::default();
    for row in &v.data {
        // File IO Stats prints the tablespace once for its first file.
        let tablespace = match shared(row, ts) {
            Some(t) => {
                last_ts.clone_from(&t);
                t
            }
            None if with_file => last_ts.clone(),
            None => continue,
        };
        out.push(FileIoRow {
            tablespace,
            file: if with_file { string(row, file) } else { None },
            reads: ctx.num(v, row, reads),
            reads_per_s: ctx.num(v, row, rps),
            avg_read_ms: ctx.num(v, row, rms),
            blocks_per_read: ctx.num(v, row, bpr),
            one_block_reads_per_s: ctx.num(v, row, one),
            avg_one_block_read_ms: ctx.num(v, row, one_ms),
            writes: ctx.num(v, row, writes),
            writes_per_s: ctx.num(v, row, wps),
            buffer_waits: ctx.num(v, row, bw),
            avg_buffer_wait_ms: ctx.num(v, row, bwms),
            src: v.src(row),
        });
    }
}

pub fn buffer_pool_advisory(v: &View<'_>, ctx: &mut Ctx, out: &mut Vec<BufferPoolAdvisoryRow>) {
    out.reserve(v.data.len());
    let p = v.col(&["p"]).or(Some(0));
    let size = v.col(&["size for est (m)", "size for est"]);
    let factor = v.col(&["size factor", "size factr"]);
    let buffers = v.col(&["buffers (thousands)", "buffers for estimate", "buffers"]);
    let rf = v.col(&[
        "est phys read factor",
        "est phys read factr",
        "estd phys read factor",
    ]);
    let reads = v.col(&[
        "estimated phys reads",
        "estimated physical reads",
        "estd phys reads",
        "est phys reads",
    ]);
    let time = v.col(&["est phys read time", "estd phys read time"]);
    let pct = v.col(&["est %dbtime for rds", "est %db time for rds"]);
    let thousands = |i: Option<usize>| {
        i.and_then(|i| v.cols.get(i))
            .is_some_and(|c| contains_name(c, "thousands"))
    };
    let (kb, kr) = (thousands(buffers), thousands(reads));
    for row in &v.data {
        let Some(pool) = string(row, p) else {
            continue;
        };
        // Non-standard block size pools print the size (`16k`) as the pool.
        let block_size = pool
            .strip_suffix(['k', 'K'])
            .and_then(|n| n.parse::<u64>().ok())
            .map(|n| n * 1024);
        let scale = |x: Option<f64>, k: bool| x.map(|x| if k { x * 1000.0 } else { x });
        out.push(BufferPoolAdvisoryRow {
            pool,
            block_size,
            size_factor: ctx.num(v, row, factor),
            size_mb: ctx.num(v, row, size),
            buffers: scale(ctx.num(v, row, buffers), kb),
            est_phys_read_factor: ctx.num(v, row, rf),
            est_phys_reads: scale(ctx.num(v, row, reads), kr),
            est_phys_read_time_s: ctx.num(v, row, time),
            est_pct_db_time: ctx.num(v, row, pct),
            src: v.src(row),
        });
    }
}

/// `Segments by Physical Reads` -> `physical_reads`.
pub fn segment_key(title: &str) -> Option<String> {
    let t = key(title);
    let rest = t.strip_prefix("segments by ")?;
    let rest = rest.replace("db blocks changes", "db block changes");
    let mut out = String::new();
    for w in rest.split(|c: char| !c.is_ascii_alphanumeric()) {
        if w.is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('_');
        }
        out.push_str(w);
    }
    (!out.is_empty()).then_some(out)
}

pub fn segments(v: &View<'_>, ctx: &mut Ctx, out: &mut Vec<SegmentRow>) {
    out.reserve(v.data.len());
    let owner = v.col(&["owner"]);
    let ts = v.col(&["tablespace name", "tablespace"]);
    let obj = v.col(&["object name"]);
    let sub = v.col(&["subobject name"]);
    let ty = v.col(&["obj. type", "obj type", "object type"]);
    let pct = v.col(&["%total", "% total", "% of capture"]);
    // The statistic column is the one just before the percentage.
    let value = pct.and_then(|p| p.checked_sub(1));
    let container = v.col(&["pdb name", "container name"]);
    for row in &v.data {
        let Some(object) = string(row, obj) else {
            continue;
        };
        out.push(SegmentRow {
            owner: shared(row, owner).unwrap_or_default(),
            tablespace: shared(row, ts).unwrap_or_default(),
            object,
            subobject: string(row, sub),
            object_type: shared(row, ty).unwrap_or_default(),
            value: ctx.num(v, row, value),
            pct_total: ctx.num(v, row, pct),
            container: string(row, container),
            src: v.src(row),
        });
    }
}

pub fn sql(v: &View<'_>, ctx: &mut Ctx, out: &mut Vec<SqlRow>) {
    out.reserve(v.data.len());
    let value = Some(0);
    let execs = v.col(&["executions"]);
    let per_exec = v.col_containing("per exec").filter(|&i| Some(i) != value);
    let pct = v.col(&["%total", "% total"]);
    let ela = v.col(&["elapsed time (s)", "elapsed time(s)"]);
    let id = v.col(&["sql id"]);
    let module = v.col(&["sql module", "module"]);
    let text_col = v.col(&["sql text"]);
    for row in &v.data {
        let Some(sql_id) = string(row, id) else {
            continue;
        };
        out.push(SqlRow {
            sql_id,
            value: ctx.num(v, row, value),
            executions: ctx.num(v, row, execs),
            per_exec: ctx.num(v, row, per_exec),
            pct_total: ctx.num(v, row, pct),
            elapsed_s: ctx.num(v, row, ela),
            module: string(row, module),
            sql_text: string(row, text_col),
            src: v.src(row),
        });
    }
}

pub fn parameters(v: &View<'_>, out: &mut Vec<Parameter>) {
    out.reserve(v.data.len());
    let name = v.col(&["parameter name"]).or(Some(0));
    let begin = v.col(&["begin value"]);
    let end = v.col(&["end value (if different)", "end value"]);
    for row in &v.data {
        let Some(n) = string(row, name) else {
            continue;
        };
        out.push(Parameter {
            name: n,
            value: string(row, begin).unwrap_or_default(),
            end_value: string(row, end),
            src: v.src(row),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn histogram_bounds_read_every_release_label() {
        assert_eq!(bucket_bound("<1ms"), Some(1.0));
        assert_eq!(bucket_bound("<=1s"), Some(1024.0));
        assert_eq!(bucket_bound("<8us"), Some(0.008));
        assert_eq!(bucket_bound("<1/8s"), Some(128.0));
        assert_eq!(bucket_bound("<2 min"), Some(131_072.0));
        assert_eq!(bucket_bound("<1 hr"), Some(2_097_152.0));
        assert_eq!(bucket_bound(">1s"), Some(f64::MAX));
        assert_eq!(bucket_bound(">=32ms"), Some(f64::MAX));
        assert_eq!(bucket_bound("Total Waits"), None);
    }

    #[test]
    fn segment_titles_become_snake_case_keys() {
        assert_eq!(
            segment_key("Segments by Physical Reads").as_deref(),
            Some("physical_reads")
        );
        assert_eq!(
            segment_key("Segments by UnOptimized Reads").as_deref(),
            Some("unoptimized_reads")
        );
        assert_eq!(
            segment_key("Segments by DB Blocks Changes").as_deref(),
            Some("db_block_changes")
        );
        assert_eq!(segment_key("SQL ordered by Reads"), None);
    }
}
