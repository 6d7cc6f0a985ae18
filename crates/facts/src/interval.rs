//! The facts of one report interval, each with the file, section and line
//! it came from or the derivation in words.

use std::sync::{LazyLock, Mutex};

use awrflash_model::{
    DbReport, DbTimeBreakdown, EvidenceSrc, FileIoRow, HistogramRow, IostatCapture, SharedStr,
    SourceRef, TopEvent, WaitEvent,
};

use crate::MB;
use crate::classes::{FLASH_CACHE_READS, MULTIBLOCK, SINGLE_BLOCK, TEMP, WRITE_WAITS};
use crate::num::{Num, ratio};

/// A wait event with its numbers filled in where the report left them out.
#[derive(Debug, Clone, PartialEq)]
pub struct Ev {
    /// Shared with the report's row (and every interval's row of this
    /// event, once the run has unpacked them).
    pub name: SharedStr,
    pub waits: f64,
    pub time_s: f64,
    pub avg_ms: f64,
    pub pct_db_time: f64,
    /// The report's file, shared by every event of the interval.
    pub path: SharedStr,
    /// The event's row (its section name is shared with the report's).
    pub at: SourceRef,
}

impl Ev {
    /// Where the event's numbers came from. Built when cited, not held per
    /// event: an interval holds every foreground event (a RAC report about
    /// 250), each of which would otherwise carry its own copy of the file
    /// name and section title for as long as the run holds the interval.
    pub fn src(&self) -> EvidenceSrc {
        EvidenceSrc {
            path: self.path.clone(),
            section: self.at.section.clone(),
            line: self.at.line,
        }
    }

    fn num(&self, value: f64) -> Num {
        Num {
            value,
            src: Some(self.src()),
            derived: None,
        }
    }
    pub fn time_num(&self) -> Num {
        self.num(self.time_s)
    }
    pub fn avg_num(&self) -> Num {
        self.num(self.avg_ms)
    }
    pub fn pct_num(&self) -> Num {
        self.num(self.pct_db_time)
    }
    pub fn waits_num(&self) -> Num {
        self.num(self.waits)
    }
}

/// Events whose wait histogram the report shows.
pub const KEY_HISTOGRAMS: &[&str] = &[
    "db file sequential read",
    "db file scattered read",
    "db file parallel read",
    "direct path read",
    "cell single block physical read",
    "log file sync",
    "log file parallel write",
    "db file parallel write",
    "free buffer waits",
    "db flash cache single block physical read",
];

/// An interval's facts apart from any report: computed from a report,
/// held while that report is cut down to what the facts' readers still
/// read ([`crate::reduced`]), then put back over the cut-down report with
/// [`Detached::bind`]. Nothing can be read from it before: a run computes
/// each interval's facts as it unpacks the report and keeps only the
/// reduced report, but the reduced reports need a place that outlives the
/// facts before the facts can borrow them.
#[derive(Debug, Clone)]
pub struct Detached(IntervalFacts<'static>);

/// What detached facts point to until they are bound: no reader runs on it.
static UNBOUND: LazyLock<DbReport> = LazyLock::new(DbReport::default);

impl Detached {
    /// The facts over `report`: the report they were computed from, or its
    /// [`crate::reduced`] form, which answers every reader alike.
    pub fn bind(self, report: &DbReport) -> IntervalFacts<'_> {
        debug_assert_eq!(self.0.path, report.source.path);
        self.0.over(report)
    }

    /// Drops the events `keep` refuses (the vector shrunk to fit): for
    /// facts held over a lean report, read only by the readers over every
    /// interval of a window, which look at a few events by name or prefix.
    pub fn retain_events(&mut self, keep: impl Fn(&str) -> bool) {
        self.0.events.retain(|e| keep(&e.name));
        self.0.events.shrink_to_fit();
    }
}

/// One report interval's facts.
#[derive(Debug, Clone)]
pub struct IntervalFacts<'a> {
    pub report: &'a DbReport,
    /// The report's file, shared by the sources of its figures.
    pub path: SharedStr,
    pub elapsed_s: Option<Num>,
    pub db_time_s: Option<Num>,
    pub db_cpu_s: Option<Num>,
    pub events: Vec<Ev>,
    pub host_busy_pct: Option<Num>,
    pub io_mb_s: Option<Num>,
    pub read_iops: Option<Num>,
    pub write_iops: Option<Num>,
    pub read_mb_s: Option<Num>,
    pub write_mb_s: Option<Num>,
    pub redo_bytes_s: Option<Num>,
    pub redo_writes_s: Option<Num>,
    pub avg_redo_write_kb: Option<Num>,
    pub txn_per_s: Option<Num>,
    /// SQL executions per second (Load Profile `Executes`, else the
    /// `execute count` activity statistic).
    pub exec_per_s: Option<Num>,
    pub block_size: f64,
    pub buffer_cache_bytes: Option<Num>,
    pub rac: bool,
    /// The storage device's own service times (`device.rs`).
    pub device: crate::device::DeviceTimes,
    /// DB time not covered by DB CPU and the non-idle foreground waits
    /// (seconds, 0 or more); `None` without DB time, DB CPU or waits.
    pub unaccounted_s: Option<Num>,
    /// The merged distributions asked for so far ([`IntervalFacts::distribution`]).
    pub memo: DistributionMemo,
}

/// The distributions [`IntervalFacts::distribution`] merged, by event as
/// asked: an interval's plan asks for the same few events once per option
/// and device, and a merge reads every histogram row of the report. Empty
/// again when the facts move to another report ([`IntervalFacts::detach`]).
#[derive(Default)]
pub struct DistributionMemo(Mutex<Vec<(String, Option<crate::Distribution>)>>);

impl DistributionMemo {
    fn get(&self, event: &str) -> Option<Option<crate::Distribution>> {
        let memo = self.0.lock().ok()?;
        memo.iter()
            .find(|(e, _)| e == event)
            .map(|(_, d)| d.clone())
    }

    fn put(&self, event: &str, d: &Option<crate::Distribution>) {
        if let Ok(mut memo) = self.0.lock() {
            memo.push((event.to_string(), d.clone()));
        }
    }
}

impl Clone for DistributionMemo {
    fn clone(&self) -> Self {
        let held = self.0.lock().map(|m| m.clone()).unwrap_or_default();
        DistributionMemo(Mutex::new(held))
    }
}

impl std::fmt::Debug for DistributionMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let n = self.0.lock().map_or(0, |m| m.len());
        write!(f, "DistributionMemo({n} events)")
    }
}

impl<'a> IntervalFacts<'a> {
    pub fn new(report: &'a DbReport) -> Self {
        let path = SharedStr::new(&report.source.path);
        let mut w = IntervalFacts {
            report,
            path,
            elapsed_s: None,
            db_time_s: None,
            db_cpu_s: None,
            events: Vec::new(),
            host_busy_pct: None,
            io_mb_s: None,
            read_iops: None,
            write_iops: None,
            read_mb_s: None,
            write_mb_s: None,
            redo_bytes_s: None,
            redo_writes_s: None,
            avg_redo_write_kb: None,
            txn_per_s: None,
            exec_per_s: None,
            block_size: report
                .cache_sizes
                .std_block_size
                .map(|b| b as f64)
                .filter(|b| *b > 0.0)
                .unwrap_or(8192.0),
            buffer_cache_bytes: None,
            rac: report.header.rac || report.instances.len() > 1,
            device: crate::device::DeviceTimes::default(),
            unaccounted_s: None,
            memo: DistributionMemo::default(),
        };
        w.fill();
        w
    }

    /// These facts apart from their report ([`Detached`]).
    pub fn detach(self) -> Detached {
        Detached(self.over(&UNBOUND))
    }

    /// The same figures over another report.
    fn over(self, report: &DbReport) -> IntervalFacts<'_> {
        // Every field but the report moves over; the list is written once,
        // and a field left out of it fails to compile.
        macro_rules! moved {
            ($($f:ident),* $(,)?) => {{
                let IntervalFacts { report: _, memo: _, $($f),* } = self;
                IntervalFacts { report, memo: DistributionMemo::default(), $($f),* }
            }};
        }
        moved!(
            path,
            elapsed_s,
            db_time_s,
            db_cpu_s,
            events,
            host_busy_pct,
            io_mb_s,
            read_iops,
            write_iops,
            read_mb_s,
            write_mb_s,
            redo_bytes_s,
            redo_writes_s,
            avg_redo_write_kb,
            txn_per_s,
            exec_per_s,
            block_size,
            buffer_cache_bytes,
            rac,
            device,
            unaccounted_s,
        )
    }

    pub fn src(&self, r: &SourceRef) -> EvidenceSrc {
        EvidenceSrc {
            path: self.path.clone(),
            section: r.section.clone(),
            line: r.line,
        }
    }

    fn num(&self, value: f64, r: &SourceRef) -> Num {
        Num {
            value,
            src: Some(self.src(r)),
            derived: None,
        }
    }

    fn fill(&mut self) {
        let r = self.report;
        let hdr_src = r.header.src.clone().unwrap_or_default();
        self.elapsed_s = r
            .header
            .elapsed_s
            .filter(|v| *v > 0.0)
            .map(|v| self.num(v, &hdr_src));
        self.db_time_s = r
            .header
            .db_time_s
            .map(|v| self.num(v, &hdr_src))
            .or_else(|| {
                r.time_model_row("DB time")
                    .and_then(|t| t.time_s.map(|v| self.num(v, &t.src)))
            });
        self.db_cpu_s = r
            .time_model_row("DB CPU")
            .and_then(|t| t.time_s.map(|v| self.num(v, &t.src)))
            .or_else(|| {
                ["DB CPU", "CPU time"].iter().find_map(|n| {
                    r.top_event(n)
                        .and_then(|e| e.time_s.map(|v| self.num(v, &e.src)))
                })
            });
        if self.db_cpu_s.is_none() {
            self.db_cpu_s = self.load_profile_total("DB CPU");
        }
        if self.db_time_s.is_none() {
            self.db_time_s = self.load_profile_total("DB Time");
        }
        self.fill_events();
        self.unaccounted_s = self.unaccounted_from_rows();
        self.fill_cpu();
        self.fill_io();
        self.fill_redo();
        self.fill_device();
        self.txn_per_s = r
            .load_profile_row("Transactions")
            .and_then(|l| l.per_second.map(|v| self.num(v, &l.src)));
        // `Executes (SQL)` from 12c, `Executes` before: the Load Profile
        // lookup ignores the unit suffix.
        self.exec_per_s = r
            .load_profile_row("Executes")
            .and_then(|l| l.per_second.map(|v| self.num(v, &l.src)))
            .or_else(|| self.stat_rate("execute count"));
        self.buffer_cache_bytes = r
            .cache_sizes
            .buffer_cache_bytes
            .map(|b| {
                let s = r.cache_sizes.src.clone().unwrap_or_default();
                self.num(b as f64, &s)
            })
            .or_else(|| {
                r.parameter("db_cache_size").and_then(|p| {
                    crate::size::parse_size(&p.value)
                        .filter(|b| *b > 0.0)
                        .map(|b| self.num(b, &p.src))
                })
            });
    }

    /// A Load Profile rate (`DB CPU`, `DB Time`) turned into the interval's
    /// total: per second x elapsed.
    fn load_profile_total(&self, name: &str) -> Option<Num> {
        let lp = self.report.load_profile_row(name)?;
        let ps = lp.per_second?;
        let el = self.elapsed_s.as_ref()?;
        Some(Num {
            value: ps * el.value,
            src: Some(self.src(&lp.src)),
            derived: Some(format!("Load Profile {name} per second x elapsed")),
        })
    }

    fn fill_events(&mut self) {
        let db_time = self.db_time_s.as_ref().map(|n| n.value);
        let mut evs: Vec<Ev> = Vec::new();
        for e in &self.report.wait_events.foreground {
            if let Some(ev) = self.ev_from_wait(e, db_time) {
                evs.push(ev);
            }
        }
        for t in &self.report.top_events {
            if evs.iter().any(|e| e.name.eq_ignore_ascii_case(&t.name)) {
                continue;
            }
            if let Some(ev) = self.ev_from_top(t, db_time) {
                evs.push(ev);
            }
        }
        // Held for every interval of a run: no room left unused.
        evs.shrink_to_fit();
        self.events = evs;
    }

    fn ev_from_wait(&self, e: &WaitEvent, db_time: Option<f64>) -> Option<Ev> {
        self.make_ev(
            e.name.clone(),
            e.waits,
            e.time_s,
            e.avg_ms,
            e.pct_db_time,
            &e.src,
            db_time,
        )
    }

    fn ev_from_top(&self, e: &TopEvent, db_time: Option<f64>) -> Option<Ev> {
        // DB CPU / CPU time rows have no waits: not a wait event.
        e.waits?;
        self.make_ev(
            SharedStr::new(&e.name),
            e.waits,
            e.time_s,
            e.avg_ms,
            e.pct_db_time,
            &e.src,
            db_time,
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn make_ev(
        &self,
        name: SharedStr,
        waits: Option<f64>,
        time_s: Option<f64>,
        avg_ms: Option<f64>,
        pct: Option<f64>,
        src: &SourceRef,
        db_time: Option<f64>,
    ) -> Option<Ev> {
        let time_s = time_s?;
        let waits = waits.unwrap_or(0.0);
        Some(Ev {
            name,
            waits,
            time_s,
            // Time / waits is more precise than the printed average, which
            // older releases round to whole milliseconds (0 for fast waits).
            avg_ms: if waits > 0.0 && time_s > 0.0 {
                time_s * 1000.0 / waits
            } else {
                avg_ms.unwrap_or(0.0)
            },
            pct_db_time: pct
                .unwrap_or_else(|| db_time.map(|d| ratio(time_s * 100.0, d)).unwrap_or(0.0)),
            path: self.path.clone(),
            at: src.clone(),
        })
    }

    fn fill_cpu(&mut self) {
        let r = self.report;
        if let Some(h) = &r.host_cpu
            && let Some(idle) = h.pct_idle
        {
            self.host_busy_pct = Some(Num {
                value: (100.0 - idle).clamp(0.0, 100.0),
                src: Some(self.src(&h.src)),
                derived: Some("100 - Host CPU %Idle".into()),
            });
            return;
        }
        if let (Some(b), Some(i)) = (r.os_stat("BUSY_TIME"), r.os_stat("IDLE_TIME"))
            && let (Some(bv), Some(iv)) = (b.value, i.value)
            && bv + iv > 0.0
        {
            self.host_busy_pct = Some(Num {
                value: bv * 100.0 / (bv + iv),
                src: Some(self.src(&b.src)),
                derived: Some("BUSY_TIME / (BUSY_TIME + IDLE_TIME)".into()),
            });
        }
    }

    fn fill_io(&mut self) {
        let r = self.report;
        let io = |name: &str| {
            r.io_profile
                .iter()
                .find(|row| row.name.eq_ignore_ascii_case(name))
        };
        if let Some(row) = io("Total (MB)") {
            if let Some(v) = row.read_write_per_s {
                self.io_mb_s = Some(self.num(v, &row.src));
            }
            self.read_mb_s = row.read_per_s.map(|v| self.num(v, &row.src));
            self.write_mb_s = row.write_per_s.map(|v| self.num(v, &row.src));
        }
        if let Some(row) = io("Total Requests") {
            self.read_iops = row.read_per_s.map(|v| self.num(v, &row.src));
            self.write_iops = row.write_per_s.map(|v| self.num(v, &row.src));
        }
        let lp = |n: &str| {
            r.load_profile_row(n)
                .and_then(|l| l.per_second.map(|v| (v, l.src.clone())))
        };
        if self.read_mb_s.is_none() {
            self.read_mb_s = lp("Read IO (MB)").map(|(v, s)| self.num(v, &s));
        }
        if self.write_mb_s.is_none() {
            self.write_mb_s = lp("Write IO (MB)").map(|(v, s)| self.num(v, &s));
        }
        if self.read_iops.is_none() {
            self.read_iops = lp("Read IO requests").map(|(v, s)| self.num(v, &s));
        }
        if self.write_iops.is_none() {
            self.write_iops = lp("Write IO requests").map(|(v, s)| self.num(v, &s));
        }
        let bs = self.block_size;
        if self.read_mb_s.is_none() {
            self.read_mb_s = lp("Physical reads")
                .or_else(|| lp("Physical read"))
                .map(|(v, s)| Num {
                    value: v * bs / 1_048_576.0,
                    src: Some(self.src(&s)),
                    derived: Some("Load Profile physical read blocks/s x block size".into()),
                });
        }
        if self.write_mb_s.is_none() {
            self.write_mb_s =
                lp("Physical writes")
                    .or_else(|| lp("Physical write"))
                    .map(|(v, s)| Num {
                        value: v * bs / 1_048_576.0,
                        src: Some(self.src(&s)),
                        derived: Some("Load Profile physical write blocks/s x block size".into()),
                    });
        }
        if self.read_mb_s.is_none() {
            self.read_mb_s = self.stat_mb_s("physical read total bytes");
        }
        if self.write_mb_s.is_none() {
            self.write_mb_s = self.stat_mb_s("physical write total bytes");
        }
        if self.io_mb_s.is_none()
            && let (Some(rm), Some(wm)) = (&self.read_mb_s, &self.write_mb_s)
        {
            self.io_mb_s = Some(Num {
                value: rm.value + wm.value,
                src: rm.src.clone(),
                derived: Some("read MB/s + write MB/s".into()),
            });
        }
        // Activity stats as a last resort for request rates.
        if self.read_iops.is_none() {
            self.read_iops = self.stat_rate("physical read total IO requests");
        }
        if self.write_iops.is_none() {
            self.write_iops = self.stat_rate("physical write total IO requests");
        }
    }

    /// Per-second value of an activity statistic (printed or total / elapsed).
    pub fn stat_rate(&self, name: &str) -> Option<Num> {
        let s = self.report.activity_stat(name)?;
        if let Some(ps) = s.per_second {
            return Some(self.num(ps, &s.src));
        }
        let total = s.total?;
        let el = self.elapsed_s.as_ref()?.value;
        Some(Num {
            value: total / el,
            src: Some(self.src(&s.src)),
            derived: Some(format!("{name} total / elapsed")),
        })
    }

    /// MB per second from a byte-count activity statistic.
    fn stat_mb_s(&self, name: &str) -> Option<Num> {
        self.stat_rate(name).map(|n| Num {
            value: n.value / MB,
            src: n.src,
            derived: Some(format!("{name} per second / 1048576")),
        })
    }

    /// Total of an activity statistic.
    pub fn stat_total(&self, name: &str) -> Option<Num> {
        let s = self.report.activity_stat(name)?;
        if let Some(t) = s.total {
            return Some(self.num(t, &s.src));
        }
        let ps = s.per_second?;
        let el = self.elapsed_s.as_ref()?.value;
        Some(Num {
            value: ps * el,
            src: Some(self.src(&s.src)),
            derived: Some(format!("{name} per second x elapsed")),
        })
    }

    fn fill_redo(&mut self) {
        let r = self.report;
        self.redo_bytes_s = self.stat_rate("redo size").or_else(|| {
            r.load_profile_row("Redo size")
                .and_then(|l| l.per_second.map(|v| self.num(v, &l.src)))
        });
        self.redo_writes_s = self.stat_rate("redo writes");
        if let (Some(b), Some(wr)) = (&self.redo_bytes_s, &self.redo_writes_s)
            && wr.value > 0.0
        {
            self.avg_redo_write_kb = Some(Num {
                value: b.value / wr.value / 1024.0,
                src: b.src.clone(),
                derived: Some("redo size / redo writes".into()),
            });
        }
    }

    pub fn event(&self, name: &str) -> Option<&Ev> {
        self.events
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
    }

    pub fn background(&self, name: &str) -> Option<Ev> {
        let e = self.report.background_event(name)?;
        self.ev_from_wait(e, self.db_time_s.as_ref().map(|n| n.value))
    }

    /// Events of a class present in the report.
    pub fn events_in(&self, names: &[&str]) -> Vec<&Ev> {
        let mut v: Vec<&Ev> = self
            .events
            .iter()
            .filter(|e| names.iter().any(|n| e.name.eq_ignore_ascii_case(n)))
            .collect();
        v.sort_by(|a, b| b.time_s.total_cmp(&a.time_s).then(a.name.cmp(&b.name)));
        v
    }

    pub fn sum_time(&self, names: &[&str]) -> f64 {
        self.events_in(names).iter().map(|e| e.time_s).sum()
    }

    pub fn sum_waits(&self, names: &[&str]) -> f64 {
        self.events_in(names).iter().map(|e| e.waits).sum()
    }

    /// CPUs of the host: header, Host CPU, or OS statistic NUM_CPUS.
    pub fn cpus(&self) -> Option<f64> {
        let r = self.report;
        r.header
            .cpus
            .or(r.host_cpu.as_ref().and_then(|h| h.cpus))
            .map(f64::from)
            .or_else(|| r.os_stat("NUM_CPUS").and_then(|s| s.value))
            .filter(|c| *c > 0.0)
    }

    pub fn db_time(&self) -> f64 {
        self.db_time_s.as_ref().map(|n| n.value).unwrap_or(0.0)
    }

    pub fn elapsed(&self) -> f64 {
        self.elapsed_s.as_ref().map(|n| n.value).unwrap_or(0.0)
    }

    /// Share of DB time (percent) spent in the named events.
    pub fn share_pct(&self, names: &[&str]) -> f64 {
        ratio(self.sum_time(names) * 100.0, self.db_time())
    }

    /// THE I/O share of DB time: the I/O components of the breakdown
    /// (single-block, multiblock, temp, write waits and flash cache reads)
    /// over DB time, so the verdict, the findings and the breakdown chart
    /// print one figure. `None` without DB time or wait events.
    pub fn io_share_pct(&self) -> Option<Num> {
        let db = self.db_time();
        if db <= 0.0 || self.events.is_empty() {
            return None;
        }
        let b = self.breakdown();
        let io = b.single_block_read_s
            + b.multiblock_read_s
            + b.temp_io_s
            + b.write_wait_s
            + b.flash_cache_read_s;
        let io_events: Vec<&str> = SINGLE_BLOCK
            .iter()
            .chain(MULTIBLOCK)
            .chain(TEMP)
            .chain(WRITE_WAITS)
            .chain(FLASH_CACHE_READS)
            .copied()
            .collect();
        // The largest I/O event is the row a reader checks first.
        let src = self.events_in(&io_events).first().map(|e| e.src());
        Some(Num {
            value: io * 100.0 / db,
            src,
            derived: Some(
                "(single-block + multiblock + temp + write waits + flash cache reads) / DB time"
                    .into(),
            ),
        })
    }

    /// Share of DB time (percent) in single-block and multiblock reads.
    pub fn read_share_pct(&self) -> f64 {
        let b = self.breakdown();
        ratio(
            (b.single_block_read_s + b.multiblock_read_s) * 100.0,
            self.db_time(),
        )
    }

    /// DB time split into the projection model's components; they add up
    /// to DB time (scaled down when the sections they come from add up to
    /// more).
    pub fn breakdown(&self) -> DbTimeBreakdown {
        let mut b = DbTimeBreakdown {
            cpu_s: self.db_cpu_s.as_ref().map(|n| n.value).unwrap_or(0.0),
            single_block_read_s: self.sum_time(SINGLE_BLOCK),
            multiblock_read_s: self.sum_time(MULTIBLOCK),
            temp_io_s: self.sum_time(TEMP),
            write_wait_s: self.sum_time(WRITE_WAITS),
            commit_s: self.sum_time(&["log file sync"]),
            flash_cache_read_s: self.sum_time(FLASH_CACHE_READS),
            other_s: 0.0,
            cpu_queue_s: 0.0,
        };
        let known = b.cpu_s
            + b.single_block_read_s
            + b.multiblock_read_s
            + b.temp_io_s
            + b.write_wait_s
            + b.commit_s
            + b.flash_cache_read_s;
        let db = self.db_time();
        if known > db && db > 0.0 {
            // CPU and waits read from different sections can add up to more
            // than DB time (a PDB report's wait events are the container's,
            // rounding in old releases). The breakdown is a split of DB time,
            // so every component keeps its share and the whole is DB time:
            // the chart, the options table and the I/O share then agree.
            let f = db / known;
            for x in [
                &mut b.cpu_s,
                &mut b.single_block_read_s,
                &mut b.multiblock_read_s,
                &mut b.temp_io_s,
                &mut b.write_wait_s,
                &mut b.commit_s,
                &mut b.flash_cache_read_s,
            ] {
                *x *= f;
            }
        }
        b.other_s = (db - known).max(0.0);
        b.cpu_queue_s = self.cpu_headroom().queue_s().min(b.other_s);
        b
    }

    /// Average wait (ms) of an event: foreground (or top) events first,
    /// then background.
    pub fn event_avg_ms(&self, name: &str) -> Option<Num> {
        self.event(name)
            .cloned()
            .or_else(|| self.background(name))
            .map(|e| e.avg_num())
    }

    /// Redo generated per second in MB.
    pub fn redo_mb_s(&self) -> Option<Num> {
        self.redo_bytes_s.as_ref().map(|b| Num {
            value: b.value / MB,
            src: b.src.clone(),
            derived: Some("redo size per second / 1048576".into()),
        })
    }

    /// A rate per second of elapsed time (DB time per second: average
    /// active sessions).
    pub fn per_second(&self, n: Option<&Num>) -> Option<f64> {
        let el = self.elapsed_s.as_ref()?.value;
        n.map(|n| n.value / el)
    }

    /// Transactions in the interval: Load Profile transactions per second x
    /// elapsed. The count DB time per transaction divides by.
    pub fn transactions(&self) -> Option<f64> {
        self.per_second_count(self.txn_per_s.as_ref())
    }

    /// SQL executions in the interval: executions per second x elapsed.
    pub fn executions(&self) -> Option<f64> {
        self.per_second_count(self.exec_per_s.as_ref())
    }

    fn per_second_count(&self, rate: Option<&Num>) -> Option<f64> {
        let el = self.elapsed_s.as_ref()?.value;
        rate.map(|r| r.value * el).filter(|c| *c > 0.0)
    }

    /// One event's latency distribution, merged from every Wait Event
    /// Histogram table the report prints for it.
    pub fn distribution(&self, event: &str) -> Option<crate::Distribution> {
        if let Some(d) = self.memo.get(event) {
            return d;
        }
        let d = crate::histogram::merge(&self.report.wait_histogram, event);
        self.memo.put(event, &d);
        d
    }

    /// The wait histograms of the key I/O and redo events, one per event
    /// (every table the report prints for it merged into one distribution),
    /// sorted by event name.
    pub fn key_histograms(&self) -> Vec<HistogramRow> {
        let mut names: Vec<&str> = self
            .report
            .wait_histogram
            .iter()
            .map(|h| h.event.trim())
            .filter(|e| KEY_HISTOGRAMS.iter().any(|k| e.eq_ignore_ascii_case(k)))
            .collect();
        names.sort_unstable();
        names.dedup_by(|a, b| a.eq_ignore_ascii_case(b));
        names
            .into_iter()
            .filter_map(|e| self.distribution(e))
            .map(|d| d.to_row())
            .collect()
    }

    /// Host CPU and channel MB/s from iostat captures where the report has
    /// none (a Statspack report has no IO Profile; some reports lack Host
    /// CPU); the first capture with device read times gives the device's
    /// service time ahead of the report's own views.
    pub fn fill_from_iostat(&mut self, iostat: &[&IostatCapture]) {
        for c in iostat {
            if !self
                .device
                .read
                .iter()
                .any(|s| s.view == crate::device::DeviceView::Iostat)
            {
                self.fill_device_from_iostat(c);
            }
            let path = SharedStr::new(&c.source.path);
            let at = |r: &SourceRef| EvidenceSrc {
                path: path.clone(),
                section: r.section.clone(),
                line: r.line,
            };
            if self.host_busy_pct.is_none() {
                let live: Vec<_> = c
                    .cpu
                    .iter()
                    .filter(|s| !s.since_boot)
                    .filter_map(|s| s.idle_pct.map(|i| (100.0 - i, &s.src)))
                    .collect();
                if let (Some((_, src)), Some(mean)) = (
                    live.first(),
                    awrflash_model::stats::mean(live.iter().map(|x| x.0)),
                ) {
                    self.host_busy_pct = Some(Num {
                        value: mean.clamp(0.0, 100.0),
                        src: Some(at(src)),
                        derived: Some(
                            "iostat avg-cpu: mean of 100 - %idle over the intervals".into(),
                        ),
                    });
                }
            }
            if self.io_mb_s.is_none() && c.channel.mb_s_mean > 0.0 {
                let first = c
                    .samples
                    .iter()
                    .find(|s| c.channel.devices.contains(&s.device) && !s.since_boot);
                self.io_mb_s = Some(Num {
                    value: c.channel.mb_s_mean,
                    src: first.map(|s| at(&s.src)),
                    derived: Some(format!(
                        "iostat: mean MB/s summed over {} devices (volumes and partitions left out)",
                        c.channel.devices.len()
                    )),
                });
            }
        }
    }

    /// Average size (KB) of a multiblock read: total read bytes less the
    /// single-block reads, over the multiblock requests.
    pub fn multiblock_read_kb(&self) -> Num {
        let waits = self.sum_waits(MULTIBLOCK);
        let single = self.sum_waits(SINGLE_BLOCK);
        if let (Some(bytes), Some(reqs)) = (
            self.stat_total("physical read total bytes"),
            self.stat_total("physical read total IO requests"),
        ) {
            let multi_reqs = reqs.value - single;
            let multi_bytes = bytes.value - single * self.block_size;
            if multi_reqs > 0.0 && multi_bytes > 0.0 {
                return Num {
                    value: (multi_bytes / multi_reqs / 1024.0).clamp(8.0, 1024.0),
                    src: bytes.src,
                    derived: Some(
                        "(physical read total bytes - single-block reads x block size) / (physical read total IO requests - single-block reads)"
                            .into(),
                    ),
                };
            }
        }
        if let Some((t, _)) = weighted_blocks_per_read(&self.report.tablespace_io)
            && t > 1.0
            && waits > 0.0
        {
            return Num {
                value: (t * self.block_size / 1024.0).clamp(8.0, 1024.0),
                src: None,
                derived: Some("Tablespace IO Stats average blocks per read".into()),
            };
        }
        Num {
            value: 1024.0,
            src: None,
            derived: Some("assumed 1 MB (no read size in the report)".into()),
        }
    }
}

fn weighted_blocks_per_read(rows: &[FileIoRow]) -> Option<(f64, f64)> {
    let mut n = 0.0;
    let mut s = 0.0;
    for r in rows {
        if let (Some(reads), Some(b)) = (r.reads, r.blocks_per_read) {
            n += reads;
            s += reads * b;
        }
    }
    (n > 0.0).then(|| (s / n, n))
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::{Header, LoadProfileRow};

    #[test]
    fn executions_and_transactions_come_from_the_load_profile_rates() {
        let lp = |name: &str, ps: f64| LoadProfileRow {
            name: name.into(),
            per_second: Some(ps),
            src: SourceRef::new("Load Profile", 7),
            ..Default::default()
        };
        let r = DbReport {
            header: Header {
                elapsed_s: Some(600.0),
                ..Default::default()
            },
            load_profile: vec![lp("Executes (SQL):", 250.0), lp("Transactions:", 12.5)],
            ..Default::default()
        };
        let f = IntervalFacts::new(&r);
        assert_eq!(f.exec_per_s.as_ref().map(|n| n.value), Some(250.0));
        assert_eq!(f.executions(), Some(150_000.0));
        assert_eq!(f.transactions(), Some(7_500.0));
        assert_eq!(f.exec_per_s.and_then(|n| n.src).map(|s| s.line), Some(7));
    }

    #[test]
    fn a_distribution_asked_again_is_the_merge_and_is_forgotten_with_the_report() {
        use awrflash_model::HistogramBucket;
        let row = |event: &str, line: u32| HistogramRow {
            event: event.into(),
            total_waits: Some(1000.0),
            range_waits: None,
            buckets: [(1.0, 60.0), (2.0, 30.0), (f64::MAX, 10.0)]
                .iter()
                .map(|&(le_ms, pct)| HistogramBucket { le_ms, pct })
                .collect(),
            src: SourceRef::new("Wait Event Histogram", line),
        };
        let r = DbReport {
            wait_histogram: vec![
                row("db file sequential read", 9),
                row(" log file sync ", 10),
            ],
            ..Default::default()
        };
        let f = IntervalFacts::new(&r);
        for event in [
            "db file sequential read",
            "log file sync",
            "direct path read",
        ] {
            let merged = crate::histogram::merge(&r.wait_histogram, event);
            assert_eq!(f.distribution(event), merged, "{event}, first");
            assert_eq!(f.distribution(event), merged, "{event}, from the memo");
        }
        assert!(f.distribution("log file sync").is_some());
        // Over a report without the histograms (a lean one), nothing is
        // answered from the report the facts were computed from.
        let lean = DbReport::default();
        let bound = f.detach().bind(&lean);
        assert_eq!(bound.distribution("db file sequential read"), None);
        assert_eq!(bound.distribution("log file sync"), None);
    }
}
