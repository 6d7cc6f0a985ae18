//! A report cut down to what one interval's figures read, so a run over
//! thousands of reports holds a few tens of KB per interval instead of the
//! whole parsed report (the run keeps one full report per database: its
//! busiest interval).
//!
//! [`thin`] keeps every section [`IntervalFacts::new`], the trend, the
//! series and a per-interval projection read, and of the big sections only
//! the rows they look up by name. Invariant (tested over the corpus and the
//! fixtures): `IntervalFacts::new(&thin(r))` equals `IntervalFacts::new(r)`
//! in every figure, and the trend and series over thinned reports equal
//! those over the full ones.
//!
//! [`IntervalFacts::new`]: crate::IntervalFacts::new

use awrflash_model::{DbReport, WaitEvents};

use crate::classes::{FLASH_CACHE_READS, MULTIBLOCK, SINGLE_BLOCK, TEMP, WRITE_WAITS};
use crate::interval::KEY_HISTOGRAMS;
use crate::trend::{TREND_EVENTS, TREND_STATS};

/// Instance activity statistics read by name from an interval: the I/O,
/// redo and execution rates of the facts and the trend, the flash cache
/// and redo totals the projection reads, and the logons the window's
/// classification falls back on. A statistic not listed here
/// is gone from a thinned report.
pub const INTERVAL_STATS: &[&str] = &[
    "physical read total IO requests",
    "physical write total IO requests",
    "physical read total bytes",
    "physical write total bytes",
    "physical read requests optimized",
    "physical read flash cache hits",
    "cell flash cache read hits",
    "flash cache inserts",
    "redo size",
    "redo writes",
    "redo wastage",
    "execute count",
    "user commits",
    "redo synch writes",
    "redo synch time overhead (usec)",
    "logons cumulative",
];

/// Initialization parameters read by name from an interval: the buffer
/// cache size where the report prints none, the redo members in the fast
/// recovery area, and the CPU limit of a PDB or a caged instance. A
/// parameter not listed here is gone from a thinned report: the rules that
/// read others (flash cache, DBWR, Data Guard, the recovery area's size)
/// read the analysed report, which the run keeps whole.
pub const INTERVAL_PARAMETERS: &[&str] = &[
    "db_cache_size",
    "db_recovery_file_dest",
    "db_create_online_log_dest_1",
    "db_create_online_log_dest_2",
    "db_create_online_log_dest_3",
    "db_create_online_log_dest_4",
    "db_create_online_log_dest_5",
    "cpu_count",
    "resource_manager_plan",
];

/// Events besides the DB time classes whose background row or wait
/// histogram an interval's figures read.
const OTHER_EVENTS: &[&str] = &[
    "log file sync",
    "log file parallel write",
    "db file parallel write",
];

/// Whether `name` is an event a thinned report keeps in its background
/// events, all-session events and wait histograms: every event of the DB
/// time classes, the key histograms and the redo and DBWR events.
pub fn interval_event(name: &str) -> bool {
    let name = name.trim();
    SINGLE_BLOCK
        .iter()
        .chain(MULTIBLOCK)
        .chain(TEMP)
        .chain(WRITE_WAITS)
        .chain(FLASH_CACHE_READS)
        .chain(KEY_HISTOGRAMS)
        .chain(OTHER_EVENTS)
        .any(|e| e.eq_ignore_ascii_case(name))
}

/// `report` without what no interval figure reads: segments, SQL, file
/// I/O, the buffer pool advisory, wait classes, the IOStat
/// function-by-filetype table and the detail warnings go; activity
/// statistics keep [`INTERVAL_STATS`], parameters [`INTERVAL_PARAMETERS`],
/// background events, all-session events and wait histograms keep
/// [`interval_event`]s. Foreground and top events, the Load Profile, time
/// model, OS statistics, Host and Instance CPU, IO Profile, IOStat by
/// function and by filetype, tablespace I/O, cache sizes, instances, the
/// header, the source and the warnings that change the meaning of the
/// result are kept whole.
pub fn thin(report: &DbReport) -> DbReport {
    let r = report;
    let mut kept = read_later(r);
    kept.wait_events.foreground = r.wait_events.foreground.clone();
    kept.wait_events.all = keep(&r.wait_events.all, |e| interval_event(&e.name));
    DbReport {
        cache_sizes: r.cache_sizes.clone(),
        load_profile: r.load_profile.clone(),
        top_events: r.top_events.clone(),
        time_model: r.time_model.clone(),
        instance_cpu: r.instance_cpu.clone(),
        io_profile: r.io_profile.clone(),
        instances: r.instances.clone(),
        ..kept
    }
}

/// `report` cut down to what an interval's readers still read once its
/// [`IntervalFacts`] are computed: [`IntervalFacts::new`] has read the
/// foreground, all-session and top events, the Load Profile, the time
/// model, the IO Profile, the cache sizes and the instances into figures
/// of its own, so of those only the rows a reader looks up later stay (the
/// Load Profile's `Logons`, the time model's `background cpu time`). What
/// the lazy readers read stays as [`thin`] keeps it: the header, the
/// source, the OS statistics, Host CPU, the listed activity statistics and
/// parameters, IOStat by function and by filetype, tablespace I/O, the
/// background events and wait histograms of [`interval_event`]s, and the
/// warnings that change the meaning of the result. Invariant (tested over
/// the corpus and the fixtures): the facts of `r`, detached and bound to
/// `reduced(r)`, answer every reader as they do over `r`'s thinned form.
///
/// [`IntervalFacts`]: crate::IntervalFacts
/// [`IntervalFacts::new`]: crate::IntervalFacts::new
pub fn reduced(report: &DbReport) -> DbReport {
    with_rows_read_later(read_later(report), report)
}

/// `report` cut down to what the readers over every interval of a window
/// read once the window's moves of the interval are computed
/// (`awrflash_rules::MovesPlanner`), the plan's readers being the rest:
/// the header and source (order, gaps, identity), the background rows of
/// [`TREND_EVENTS`] and the activity statistics of [`LEAN_STATS`] (the
/// trend's redo and I/O latencies where the foreground table lacks them,
/// its flash cache hits, the classification's logons), the Load Profile's
/// `Logons`, the time model's `background cpu time` and the warnings that
/// change the meaning of the result. Invariant (tested over the corpus and
/// the fixtures): an analysis whose intervals but the analysed one are held
/// as their facts over `lean(r)`, with their moves
/// (`awrflash_rules::MovesPlanner::hold`), is the analysis of the whole
/// reports.
pub fn lean(report: &DbReport) -> DbReport {
    let r = report;
    let named =
        |list: &[&str], name: &str| list.iter().any(|n| n.eq_ignore_ascii_case(name.trim()));
    with_rows_read_later(
        DbReport {
            wait_events: WaitEvents {
                background: keep(&r.wait_events.background, |e| named(&TREND_EVENTS, &e.name)),
                ..Default::default()
            },
            activity_stats: keep(&r.activity_stats, |s| named(LEAN_STATS, &s.name)),
            ..every_form(r)
        },
        r,
    )
}

/// The activity statistics a lean report keeps: the trend's
/// ([`TREND_STATS`]) and the logons the window's classification falls back
/// on where the Load Profile prints none.
pub const LEAN_STATS: &[&str] = &[TREND_STATS[0], "logons cumulative"];

/// `base` with the rows of `r` a reader looks up after
/// [`crate::IntervalFacts::new`]: the Load Profile's `Logons` and the time
/// model's `background cpu time`.
fn with_rows_read_later(base: DbReport, r: &DbReport) -> DbReport {
    DbReport {
        load_profile: r.load_profile_row("Logons").into_iter().cloned().collect(),
        time_model: r
            .time_model_row("background cpu time")
            .into_iter()
            .cloned()
            .collect(),
        ..base
    }
}

/// What every cut form keeps: the source and header and the warnings that
/// change the meaning.
fn every_form(r: &DbReport) -> DbReport {
    DbReport {
        source: r.source.clone(),
        header: r.header.clone(),
        warnings: keep(&r.warnings, |w| w.is_meaning_changing()),
        ..Default::default()
    }
}

/// What [`thin`] and [`reduced`] both keep: the sections the lazy readers
/// of [`crate::IntervalFacts`] read.
fn read_later(r: &DbReport) -> DbReport {
    DbReport {
        wait_events: WaitEvents {
            background: keep(&r.wait_events.background, |e| interval_event(&e.name)),
            ..Default::default()
        },
        wait_histogram: keep(&r.wait_histogram, |h| interval_event(&h.event)),
        os_stats: r.os_stats.clone(),
        host_cpu: r.host_cpu.clone(),
        activity_stats: keep(&r.activity_stats, |s| {
            INTERVAL_STATS
                .iter()
                .any(|n| n.eq_ignore_ascii_case(&s.name))
        }),
        iostat_function: r.iostat_function.clone(),
        iostat_filetype: r.iostat_filetype.clone(),
        tablespace_io: r.tablespace_io.clone(),
        parameters: keep(&r.parameters, |p| {
            INTERVAL_PARAMETERS
                .iter()
                .any(|n| n.eq_ignore_ascii_case(&p.name))
        }),
        ..every_form(r)
    }
}

/// The rows `want` keeps, in a vector of their number: a run holds these
/// for every interval, and a collected filter leaves up to as much room
/// again unused.
fn keep<T: Clone>(rows: &[T], want: impl Fn(&T) -> bool) -> Vec<T> {
    let mut kept: Vec<T> = rows.iter().filter(|x| want(x)).cloned().collect();
    kept.shrink_to_fit();
    kept
}
