//! The RAC global report (`awrgrpt.sql`, "WORKLOAD REPOSITORY REPORT (RAC)").
//!
//! It prints no Load Profile and no single-instance header: the database
//! comes from "Database Summary", the instances from "Database Instances
//! Included In Report", and most tables carry an `I#` column whose `*`
//! (or `Sum`) rows are the cluster-wide figures and whose numbered rows
//! belong to one instance. Cluster-wide rows go to the top level of the
//! model, numbered rows to `instances`.

use awrflash_model::{
    DbReport, HostCpu, InstanceSummary, IoStatRow, LoadProfileRow, OsStat, TimeModelRow, TopEvent,
    WaitClassRow,
};

use super::header::{elapsed_seconds, iso_time};
use super::scan::{Row, Table};
use super::sections;
use super::view::{Ctx, View, count, key, same_name, string, text};
use crate::num::Suffix;

/// State kept between tables of one global report.
#[derive(Default)]
pub struct Global {
    /// "Top Timed Events" (foreground + background), used only when the
    /// report has no "Top Timed Foreground Events".
    all_top: Vec<TopEvent>,
    all_top_per_instance: Vec<(u32, TopEvent)>,
    fg_top_seen: bool,
}

/// Which instance a row is about: a number, or `None` for the cluster-wide
/// `*` / `Sum` rows. `Avg`/`Min`/`Max`/`Std Dev` rows are skipped (`Err`).
fn instance_of(row: &Row, i: Option<usize>) -> Result<Option<u32>, ()> {
    let t = text(row, i).unwrap_or("").trim();
    if t == "*" || t.eq_ignore_ascii_case("sum") || t.eq_ignore_ascii_case("total") {
        return Ok(None);
    }
    t.parse::<u32>().map(Some).map_err(|_| ())
}

fn instance(r: &mut DbReport, n: u32) -> &mut InstanceSummary {
    let pos = match r
        .instances
        .iter()
        .position(|i| i.instance_number == Some(n))
    {
        Some(p) => p,
        None => {
            r.instances.push(InstanceSummary {
                instance_number: Some(n),
                ..InstanceSummary::default()
            });
            r.instances.len() - 1
        }
    };
    // `pos` is in range: found above or just pushed.
    #[allow(clippy::indexing_slicing)]
    &mut r.instances[pos]
}

pub fn table(t: &Table, ctx: &mut Ctx, r: &mut DbReport, g: &mut Global) {
    let title = key(&t.title);
    let v = View::new(t, &t.title);
    match title.as_str() {
        "database summary" => database_summary(&v, ctx, r),
        "database instances included in report" => instance_list(&v, ctx, r),
        "os statistics by instance" => os_by_instance(&v, ctx, r),
        "time model" => time_model(&v, ctx, r),
        "foreground wait classes" => wait_classes(&v, ctx, r),
        "top timed foreground events" => {
            g.fg_top_seen = true;
            let mut per = Vec::new();
            top_events(&v, ctx, &mut r.top_events, &mut per);
            for (n, e) in per {
                instance(r, n).top_events.push(e);
            }
        }
        "top timed events" => top_events(&v, ctx, &mut g.all_top, &mut g.all_top_per_instance),
        "foreground wait events (global)" => {
            sections::wait_events(&v, ctx, &mut r.wait_events.foreground);
        }
        "background wait events (global)" => {
            sections::wait_events(&v, ctx, &mut r.wait_events.background);
        }
        "wait event histogram (global)" => sections::histogram(&v, ctx, &mut r.wait_histogram),
        "system statistics (global)" | "global messaging statistics (global)" => {
            sections::activity_stats(&v, ctx, &mut r.activity_stats);
        }
        "system statistics - per second" => system_stats(&v, ctx, r, Rate::PerSecond),
        "system statistics - per transaction" => system_stats(&v, ctx, r, Rate::PerTransaction),
        "io profile (global)" => sections::io_profile(&v, ctx, &mut r.io_profile),
        "iostat by function" => iostat(&v, ctx, true, &mut r.iostat_function),
        "iostat by file type" => iostat(&v, ctx, false, &mut r.iostat_filetype),
        "init.ora parameters" => sections::parameters(&v, &mut r.parameters),
        "cache sizes" => cache_sizes(&v, ctx, r),
        _ => {
            if let Some(k) = sections::segment_key(&title)
                && v.has_col("owner")
            {
                sections::segments(&v, ctx, r.segments.entry(k).or_default());
            }
        }
    }
}

pub fn finish(r: &mut DbReport, _ctx: &mut Ctx, g: Global) {
    r.header.rac = true;
    if !g.fg_top_seen {
        r.top_events = g.all_top;
        for (n, e) in g.all_top_per_instance {
            instance(r, n).top_events.push(e);
        }
    }
    if r.header.cpus.is_none() {
        let cpus: u32 = r.instances.iter().filter_map(|i| i.cpus).sum();
        if cpus > 0 {
            r.header.cpus = Some(cpus);
        }
    }
    r.instances.sort_by_key(|i| i.instance_number);
}

fn database_summary(v: &View<'_>, ctx: &mut Ctx, r: &mut DbReport) {
    let Some(row) = v.data.first() else {
        return;
    };
    let h = &mut r.header;
    h.dbid = text(row, v.col(&["id"])).and_then(|s| s.trim().parse().ok());
    h.db_name = string(row, v.col(&["name"]));
    h.rac = true;
    if let Some(c) = string(row, v.col(&["cdb"])) {
        h.cdb = Some(c.eq_ignore_ascii_case("yes"));
    }
    h.begin_snap = text(row, v.col(&["begin"])).and_then(|s| s.trim().parse().ok());
    h.end_snap = text(row, v.col(&["end"])).and_then(|s| s.trim().parse().ok());
    h.db_time_s = ctx.num(v, row, v.col(&["db time"])).map(|m| m * 60.0);
    h.elapsed_s = ctx.num(v, row, v.col(&["elapsed time"])).map(|m| m * 60.0);
    h.src = Some(v.src(row));
    let bs =
        text(row, v.col(&["block size"])).and_then(|c| ctx.bytes(&v.section, row.line, c, 1.0));
    r.cache_sizes.std_block_size = bs;
}

fn instance_list(v: &View<'_>, ctx: &mut Ctx, r: &mut DbReport) {
    let inum = v.col(&["i#"]);
    let begin = v.col(&["begin snap time"]);
    let end = v.col(&["end snap time"]);
    for (k, row) in v.data.iter().enumerate() {
        let Ok(Some(n)) = instance_of(row, inum) else {
            continue;
        };
        let b = text(row, begin).and_then(iso_time);
        let e = text(row, end).and_then(iso_time);
        let ela_min = ctx.num(v, row, v.col(&["elapsed time(min)", "elapsed time (min)"]));
        let db_min = ctx.num(v, row, v.col(&["db time(min)", "db time (min)"]));
        if k == 0 {
            r.header.release = string(row, v.col(&["release"]));
            r.header.platform = string(row, v.col(&["platform"]));
            r.header.begin_time.clone_from(&b);
            r.header.end_time.clone_from(&e);
            if let (Some(ela), Some(m)) = (
                elapsed_seconds(b.as_deref(), e.as_deref(), ela_min),
                r.header.elapsed_s,
            ) {
                // Prefer the exact snapshot interval when it agrees.
                if (ela - m).abs() <= 60.0 {
                    r.header.elapsed_s = Some(ela);
                }
            }
        }
        let src = v.src(row);
        let inst = instance(r, n);
        inst.instance = string(row, v.col(&["instance"]));
        inst.host = string(row, v.col(&["host"]));
        inst.elapsed_s = elapsed_seconds(b.as_deref(), e.as_deref(), ela_min);
        inst.db_time_s = db_min.map(|m| m * 60.0);
        inst.src = src;
    }
}

fn os_by_instance(v: &View<'_>, ctx: &mut Ctx, r: &mut DbReport) {
    let inum = v.col(&["i#"]);
    // Leaf names repeat (`#CPUs` under CPU and under End Values): first wins.
    let cpus = v.col(&["#cpus"]);
    let cores = v.col(&["#cores"]);
    let sockets = v.col(&["#sckts"]);
    let load_b = v.col(&["begin"]);
    let load_e = v.col(&["end"]);
    let busy = v.col(&["busy"]);
    let idle = v.col(&["idle"]);
    let mem = v.col(&["mb"]);
    let (mut sum_cores, mut sum_sockets, mut sum_mem) = (0u32, 0u32, 0.0f64);
    for row in &v.data {
        let src = v.src(row);
        let mut stats = Vec::new();
        let mut push = |name: &str, value: Option<f64>| {
            if value.is_some() {
                stats.push(OsStat {
                    name: name.into(),
                    value,
                    end_value: None,
                    src: src.clone(),
                });
            }
        };
        let ncpu = ctx.num(v, row, cpus);
        let ncores = ctx.num(v, row, cores);
        let nsock = ctx.num(v, row, sockets);
        let mb = ctx.num(v, row, mem);
        push("NUM_CPUS", ncpu);
        push("NUM_CPU_CORES", ncores);
        push("NUM_CPU_SOCKETS", nsock);
        let load_end = ctx.num(v, row, load_e);
        // Seconds here; v$osstat (and the instance report) count centiseconds.
        push("BUSY_TIME", ctx.num(v, row, busy).map(|s| s * 100.0));
        push("IDLE_TIME", ctx.num(v, row, idle).map(|s| s * 100.0));
        push("PHYSICAL_MEMORY_BYTES", mb.map(|m| m * 1024.0 * 1024.0));
        let load = ctx.num(v, row, load_b);
        if load.is_some() || load_end.is_some() {
            stats.push(OsStat {
                name: "LOAD".into(),
                value: load,
                end_value: load_end,
                src: v.src(row),
            });
        }
        match instance_of(row, inum) {
            Ok(Some(n)) => {
                sum_cores += count(ncores).unwrap_or(0);
                sum_sockets += count(nsock).unwrap_or(0);
                sum_mem += mb.unwrap_or(0.0);
                let inst = instance(r, n);
                inst.cpus = count(ncpu);
                inst.os_stats = stats;
            }
            Ok(None) => {
                r.os_stats = stats;
                let total = ctx.num(v, row, v.col(&["total"]));
                let b = ctx.num(v, row, busy);
                if let (Some(b), Some(t)) = (b, total)
                    && t > 0.0
                {
                    r.host_cpu = Some(HostCpu {
                        pct_idle: Some((t - b) / t * 100.0),
                        src: v.src(row),
                        ..HostCpu::default()
                    });
                }
            }
            Err(()) => {}
        }
    }
    let cpus_total: u32 = r.instances.iter().filter_map(|i| i.cpus).sum();
    if cpus_total > 0 {
        r.header.cpus = Some(cpus_total);
        if !r.os_stats.iter().any(|s| s.name == "NUM_CPUS") {
            r.os_stats.push(OsStat {
                name: "NUM_CPUS".into(),
                value: Some(f64::from(cpus_total)),
                end_value: None,
                src: v.src(v.data.first().unwrap_or(&Row::default())),
            });
        }
    }
    if sum_cores > 0 {
        r.header.cores = Some(sum_cores);
    }
    if sum_sockets > 0 {
        r.header.sockets = Some(sum_sockets);
    }
    if sum_mem > 0.0 {
        r.header.memory_gb = Some(sum_mem / 1024.0);
    }
    if let Some(h) = r.host_cpu.as_mut() {
        h.cpus = r.header.cpus;
        h.cores = r.header.cores;
        h.sockets = r.header.sockets;
    }
}

/// Time Model columns and the v$sys_time_model names they stand for.
const TIME_MODEL: [(&str, &str); 9] = [
    ("db time (s)", "DB time"),
    ("db cpu (s)", "DB CPU"),
    ("sql exec ela (s)", "sql execute elapsed time"),
    ("parse ela (s)", "parse time elapsed"),
    ("hard parse ela (s)", "hard parse elapsed time"),
    ("pl/sql ela (s)", "PL/SQL execution elapsed time"),
    ("java ela (s)", "Java execution elapsed time"),
    ("bg time (s)", "background elapsed time"),
    ("bg cpu (s)", "background cpu time"),
];

fn time_model(v: &View<'_>, ctx: &mut Ctx, r: &mut DbReport) {
    let inum = v.col(&["i#"]);
    let dbt = v.col(&["db time (s)"]);
    for row in &v.data {
        match instance_of(row, inum) {
            Ok(Some(n)) => {
                let t = ctx.num(v, row, dbt);
                let inst = instance(r, n);
                if inst.db_time_s.is_none() {
                    inst.db_time_s = t;
                }
            }
            Ok(None) => {
                let db_time = ctx.num(v, row, dbt);
                for (col, name) in TIME_MODEL {
                    let time_s = ctx.num(v, row, v.col(&[col]));
                    if time_s.is_none() {
                        continue;
                    }
                    let pct = match (time_s, db_time) {
                        (Some(t), Some(d)) if d > 0.0 && !name.starts_with("background") => {
                            Some(t / d * 100.0)
                        }
                        _ => None,
                    };
                    r.time_model.push(TimeModelRow {
                        name: name.into(),
                        time_s,
                        pct_db_time: pct,
                        src: v.src(row),
                    });
                }
            }
            Err(()) => {}
        }
    }
}

fn top_events(
    v: &View<'_>,
    ctx: &mut Ctx,
    cluster: &mut Vec<TopEvent>,
    per: &mut Vec<(u32, TopEvent)>,
) {
    let inum = v.col(&["i#"]);
    let mut rows = Vec::new();
    sections::top_events(v, ctx, &mut rows);
    // `sections::top_events` skips rows without an event name, so pair the
    // events with their rows again by line.
    for e in rows {
        let Some(row) = v.data.iter().find(|r| r.line == e.src.line) else {
            continue;
        };
        let mut e = e;
        if e.wait_class.is_none() {
            e.wait_class = string(row, v.col(&["class"]));
        }
        match instance_of(row, inum) {
            Ok(None) => cluster.push(e),
            Ok(Some(n)) => per.push((n, e)),
            Err(()) => {}
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Rate {
    PerSecond,
    PerTransaction,
}

/// Columns of "System Statistics - Per Second/Transaction" and the Load
/// Profile rows of an instance report they are the same figure as, with the
/// factor to that row's unit (`Redo Size (k)` is KiB: 1024 x the cluster's
/// `redo size` per second in the 19c corpus reports).
const SYSTEM_STATS: [(&str, &str, f64); 10] = [
    ("logical reads", "Logical read (blocks)", 1.0),
    ("physical reads", "Physical read (blocks)", 1.0),
    ("physical writes", "Physical write (blocks)", 1.0),
    ("redo size (k)", "Redo size (bytes)", 1024.0),
    ("block changes", "Block changes", 1.0),
    ("user calls", "User calls", 1.0),
    ("execs", "Executes (SQL)", 1.0),
    ("parses", "Parses (SQL)", 1.0),
    ("logons", "Logons", 1.0),
    ("txns", "Transactions", 1.0),
];

/// "System Statistics - Per Second/Transaction": one column per statistic,
/// one row per instance. Becomes Load Profile rows under the names the
/// instance report uses (so that one lookup serves both kinds of report),
/// per instance and, from the `Sum` row, for the cluster; `src` still
/// points at the global table.
fn system_stats(v: &View<'_>, ctx: &mut Ctx, r: &mut DbReport, rate: Rate) {
    let inum = v.col(&["i#"]);
    let cols: Vec<(usize, String, f64)> = v
        .table
        .rows()
        .rev()
        .find(|row| row.cells.iter().any(|c| c.header))
        .map(|row| {
            row.cells
                .iter()
                .enumerate()
                .filter(|(i, _)| Some(*i) != inum)
                .map(|(i, c)| {
                    let n = c.text.trim();
                    let n = n
                        .strip_suffix("/s")
                        .or_else(|| n.strip_suffix("/tx"))
                        .unwrap_or(n)
                        .trim();
                    match SYSTEM_STATS
                        .iter()
                        .find(|(col, _, _)| n.eq_ignore_ascii_case(col))
                    {
                        Some((_, name, factor)) => (i, (*name).to_string(), *factor),
                        None => (i, n.to_string(), 1.0),
                    }
                })
                .collect()
        })
        .unwrap_or_default();
    for row in &v.data {
        let target = match instance_of(row, inum) {
            Ok(Some(n)) => Some(n),
            Ok(None) => None,
            Err(()) => continue,
        };
        for (i, name, factor) in &cols {
            let x = ctx.num(v, row, Some(*i)).map(|x| x * factor);
            let list = match target {
                Some(n) => &mut instance(r, n).load_profile,
                None => &mut r.load_profile,
            };
            let pos = match list.iter().position(|l| l.name == *name) {
                Some(p) => p,
                None => {
                    list.push(LoadProfileRow {
                        name: name.clone(),
                        src: v.src(row),
                        ..LoadProfileRow::default()
                    });
                    list.len() - 1
                }
            };
            if let Some(lp) = list.get_mut(pos) {
                match rate {
                    Rate::PerSecond => lp.per_second = x,
                    Rate::PerTransaction => lp.per_transaction = x,
                }
            }
        }
    }
}

fn iostat(v: &View<'_>, ctx: &mut Ctx, function: bool, out: &mut Vec<IoStatRow>) {
    let inum = v.col(&["i#"]);
    let name = v.col(&["function name", "filetype name"]);
    let reads = v.col(&["reads/s"]);
    let writes = v.col(&["writes/s"]);
    let rmb = v.col(&["read mb/s"]);
    let wmb = v.col(&["write mb/s"]);
    let waits = v.col(&["waits: count"]);
    let avg = v.col(&["avg time", "small read"]);
    for row in &v.data {
        if !matches!(instance_of(row, inum), Ok(None)) {
            continue;
        }
        let Some(n) = string(row, name) else {
            continue;
        };
        out.push(IoStatRow {
            function: function.then(|| n.clone()),
            filetype: (!function).then_some(n),
            read_reqs_per_s: ctx.num(v, row, reads),
            write_reqs_per_s: ctx.num(v, row, writes),
            read_mb_per_s: ctx.num(v, row, rmb),
            write_mb_per_s: ctx.num(v, row, wmb),
            waits: ctx.num(v, row, waits),
            avg_wait_ms: ctx.ms(v, row, avg, 1.0),
            src: v.src(row),
            ..IoStatRow::default()
        });
    }
}

/// Cluster "Cache Sizes" (MB per instance): the cluster's buffer cache and
/// shared pool are the sums over instances.
fn cache_sizes(v: &View<'_>, ctx: &mut Ctx, r: &mut DbReport) {
    let inum = v.col(&["i#"]);
    let parent = |name: &str| v.parents.iter().position(|p| same_name(p, name));
    let cache = parent("db cache");
    let pool = parent("shared pool");
    let log = v.col(&["log buffer"]);
    let mb = |x: Option<f64>| x.map(|m| m * 1024.0 * 1024.0);
    let (mut bc, mut sp, mut lb) = (0.0, 0.0, 0.0);
    let mut seen = false;
    for row in &v.data {
        if !matches!(instance_of(row, inum), Ok(Some(_))) {
            continue;
        }
        seen = true;
        bc += mb(ctx.num(v, row, cache)).unwrap_or(0.0);
        sp += mb(ctx.num(v, row, pool)).unwrap_or(0.0);
        lb += mb(ctx.num_with(v, row, log, Suffix::Decimal)).unwrap_or(0.0);
        if r.cache_sizes.src.is_none() {
            r.cache_sizes.src = Some(v.src(row));
        }
    }
    if seen {
        let to_u64 = |x: f64| {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let b = x.round() as u64;
            (b > 0).then_some(b)
        };
        r.cache_sizes.buffer_cache_bytes = to_u64(bc);
        r.cache_sizes.shared_pool_bytes = to_u64(sp);
        r.cache_sizes.log_buffer_bytes = to_u64(lb);
    }
}

/// Column abbreviations of "Foreground Wait Classes" and the wait class
/// names the instance report prints.
const WAIT_CLASSES: [(&str, &str); 12] = [
    ("user i/o", "User I/O"),
    ("sys i/o", "System I/O"),
    ("other", "Other"),
    ("applic", "Application"),
    ("commit", "Commit"),
    ("network", "Network"),
    ("concurcy", "Concurrency"),
    ("config", "Configuration"),
    ("cluster", "Cluster"),
    ("admin", "Administrative"),
    ("scheduler", "Scheduler"),
    ("db cpu", "DB CPU"),
];

/// "Foreground Wait Classes": seconds per class, one row per instance;
/// the `Sum` row gives the cluster's wait classes.
fn wait_classes(v: &View<'_>, ctx: &mut Ctx, r: &mut DbReport) {
    let inum = v.col(&["i#"]);
    let db_time = v.col(&["db time"]);
    for row in &v.data {
        if !matches!(instance_of(row, inum), Ok(None)) {
            continue;
        }
        let total = ctx.num(v, row, db_time);
        for (abbr, class) in WAIT_CLASSES {
            let Some(time_s) = ctx.num(v, row, v.col(&[abbr])) else {
                continue;
            };
            r.wait_classes.push(WaitClassRow {
                wait_class: class.into(),
                time_s: Some(time_s),
                pct_db_time: total.filter(|t| *t > 0.0).map(|t| time_s / t * 100.0),
                src: v.src(row),
                ..WaitClassRow::default()
            });
        }
    }
}
