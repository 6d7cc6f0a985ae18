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

/// Instance activity statistics read by name from an interval: the I/O,
/// redo and execution rates of the facts and the trend, and the flash
/// cache and redo totals the projection reads. A statistic not listed here
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
    DbReport {
        source: r.source.clone(),
        header: r.header.clone(),
        cache_sizes: r.cache_sizes.clone(),
        load_profile: r.load_profile.clone(),
        top_events: r.top_events.clone(),
        wait_events: WaitEvents {
            foreground: r.wait_events.foreground.clone(),
            background: keep(&r.wait_events.background, |e| interval_event(&e.name)),
            all: keep(&r.wait_events.all, |e| interval_event(&e.name)),
        },
        wait_classes: Vec::new(),
        wait_histogram: keep(&r.wait_histogram, |h| interval_event(&h.event)),
        time_model: r.time_model.clone(),
        os_stats: r.os_stats.clone(),
        host_cpu: r.host_cpu.clone(),
        instance_cpu: r.instance_cpu.clone(),
        io_profile: r.io_profile.clone(),
        activity_stats: keep(&r.activity_stats, |s| {
            INTERVAL_STATS
                .iter()
                .any(|n| n.eq_ignore_ascii_case(&s.name))
        }),
        iostat_function: r.iostat_function.clone(),
        iostat_filetype: r.iostat_filetype.clone(),
        iostat_function_filetype: Vec::new(),
        tablespace_io: r.tablespace_io.clone(),
        file_io: Vec::new(),
        buffer_pool_advisory: Vec::new(),
        segments: Default::default(),
        sql: Default::default(),
        parameters: keep(&r.parameters, |p| {
            INTERVAL_PARAMETERS
                .iter()
                .any(|n| n.eq_ignore_ascii_case(&p.name))
        }),
        instances: r.instances.clone(),
        warnings: keep(&r.warnings, |w| w.is_meaning_changing()),
    }
}

fn keep<T: Clone>(rows: &[T], want: impl Fn(&T) -> bool) -> Vec<T> {
    rows.iter().filter(|x| want(x)).cloned().collect()
}
