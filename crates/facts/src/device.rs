//! The storage device's own service time, beside the wait the sessions see.
//!
//! A `db file sequential read` average is the device's service time plus
//! everything above it: queueing in the OS and the array's front end,
//! process scheduling, CPU. Flash shortens only the device's part. The
//! device's part comes from, in order of preference:
//!
//! 1. an iostat or nmon capture attached to the interval (device `r_await`
//!    and `w_await`, read-weighted over the devices that carry the I/O, and
//!    their utilisation);
//! 2. IOStat by Filetype, `Data File` small read average (11.2.0.3 and
//!    later print the `Small Read` column);
//! 3. Tablespace IO Stats, the one-block read average (`Av 1-bk Rd(ms)`,
//!    12c and later), weighted by each tablespace's one-block reads.
//!
//! Every view present is kept: the first is the one used, the others give
//! the spread when the views disagree.

use awrflash_model::{EvidenceSrc, IostatCapture, SourceRef};

use crate::interval::IntervalFacts;
use crate::num::{Num, ratio};

/// Single-block read events whose average is split into the device's part
/// and the part above it. `db file parallel read` is a batch of reads
/// (its wait covers several device reads), multiblock reads have their own
/// size, and Exadata cell reads are served by the cells: none of them is
/// one device read.
pub const SPLIT_EVENTS: &[&str] = &["db file sequential read"];

/// Where a device service time was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum DeviceView {
    Iostat,
    Filetype,
    Tablespace,
}

impl DeviceView {
    /// The view in words, as the projection steps and findings name it.
    pub fn label(self) -> &'static str {
        match self {
            DeviceView::Iostat => "attached iostat capture",
            DeviceView::Filetype => "IOStat by Filetype",
            DeviceView::Tablespace => "Tablespace IO Stats",
        }
    }
}

/// One view's service time (ms).
#[derive(Debug, Clone, PartialEq)]
pub struct ServiceTime {
    pub view: DeviceView,
    pub ms: Num,
}

/// The device's service times of one interval, each view present in order
/// of preference.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct DeviceTimes {
    /// Small (single-block) reads.
    pub read: Vec<ServiceTime>,
    /// Writes (an attached capture's `w_await`; the report's views print
    /// no datafile write time).
    pub write: Vec<ServiceTime>,
    /// Utilisation of the devices the capture's reads went to (%).
    pub util_pct: Option<Num>,
}

impl DeviceTimes {
    /// The preferred small-read view.
    pub fn read_used(&self) -> Option<&ServiceTime> {
        self.read.first()
    }

    /// Lowest and highest small-read time over the views present.
    pub fn read_spread(&self) -> Option<(f64, f64)> {
        spread(&self.read)
    }
}

fn spread(v: &[ServiceTime]) -> Option<(f64, f64)> {
    let lo = v.iter().map(|s| s.ms.value).reduce(f64::min)?;
    let hi = v.iter().map(|s| s.ms.value).reduce(f64::max)?;
    Some((lo, hi))
}

/// One wait split into the device's part and the part above it (ms per
/// wait). `device_ms` and `gap_ms` are (low, high): the views' spread,
/// each capped at the wait's average; the low device part goes with the
/// high gap.
#[derive(Debug, Clone, PartialEq)]
pub struct Split {
    pub event: String,
    pub avg_ms: f64,
    /// The view used (the preferred one) and its figure.
    pub used: ServiceTime,
    /// The used view's device part, capped at the average.
    pub device_used_ms: f64,
    pub device_ms: (f64, f64),
    pub gap_ms: (f64, f64),
    /// Views present besides the used one, for the words.
    pub others: Vec<ServiceTime>,
    /// Views left out: more than [`VIEW_MAX_RATIO`] times the wait's
    /// average, so they measure something else (a unit or column error in
    /// the report, or other I/O).
    pub left_out: Vec<ServiceTime>,
}

/// A device view above this multiple of the wait's average is left out of
/// the split: the device's part of a wait cannot exceed the wait, and a
/// view twice as slow as it is not timing the same reads.
pub const VIEW_MAX_RATIO: f64 = 2.0;

impl Split {
    /// The part above the device by the used view.
    pub fn gap_used_ms(&self) -> f64 {
        (self.avg_ms - self.device_used_ms).max(0.0)
    }

    /// "5.45 ms, of which the device serves 2.83 ms (IOStat by Filetype);
    /// 2.62 ms is above the device", with the other views' figures.
    pub fn words(&self) -> String {
        let others: Vec<String> = self
            .others
            .iter()
            .map(|s| format!("{} {} ms", s.view.label(), fmt2(s.ms.value)))
            .collect();
        let left_out: Vec<String> = self
            .left_out
            .iter()
            .map(|s| format!("{} {} ms", s.view.label(), fmt2(s.ms.value)))
            .collect();
        format!(
            "`{}` {} ms, of which the device serves {} ms ({}{}{}); {} ms is above the device (queueing, scheduling, CPU): flash does not remove it",
            self.event,
            fmt2(self.avg_ms),
            fmt2(self.device_used_ms),
            self.used.view.label(),
            if others.is_empty() {
                String::new()
            } else {
                format!("; {}", others.join(", "))
            },
            if left_out.is_empty() {
                String::new()
            } else {
                format!(
                    "; left out, over {VIEW_MAX_RATIO}x the wait: {}",
                    left_out.join(", ")
                )
            },
            fmt2(self.gap_used_ms())
        )
    }
}

fn fmt2(v: f64) -> String {
    format!("{v:.2}")
}

impl IntervalFacts<'_> {
    /// The split of one event's average wait, when the event is one
    /// device read ([`SPLIT_EVENTS`]), a device view fits it (at most
    /// [`VIEW_MAX_RATIO`] times its average) and some view leaves time
    /// above the device; `None` otherwise (the whole wait is the device's).
    pub fn device_split(&self, event: &str) -> Option<Split> {
        if !SPLIT_EVENTS.iter().any(|n| n.eq_ignore_ascii_case(event)) {
            return None;
        }
        let ev = self.event(event)?;
        let avg = ev.avg_ms;
        if !(avg.is_finite() && avg > 0.0) {
            return None;
        }
        let (usable, left_out): (Vec<ServiceTime>, Vec<ServiceTime>) = self
            .device
            .read
            .iter()
            .cloned()
            .partition(|s| s.ms.value <= VIEW_MAX_RATIO * avg);
        let (lo, hi) = spread(&usable)?;
        let used = usable.first()?.clone();
        let (d_lo, d_hi) = (lo.min(avg), hi.min(avg));
        if d_lo >= avg {
            return None;
        }
        Some(Split {
            event: ev.name.to_string(),
            avg_ms: avg,
            device_used_ms: used.ms.value.min(avg),
            others: usable.iter().skip(1).cloned().collect(),
            used,
            device_ms: (d_lo, d_hi),
            gap_ms: (avg - d_hi, avg - d_lo),
            left_out,
        })
    }

    /// The report's own device views (IOStat by Filetype, Tablespace IO
    /// Stats), in order of preference.
    pub(crate) fn fill_device(&mut self) {
        let r = self.report;
        let mut read = Vec::new();
        if let Some(row) = r.iostat_filetype.iter().find(|x| {
            x.filetype
                .as_deref()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("Data File"))
        }) && let Some(ms) = row.avg_wait_ms.filter(|v| v.is_finite() && *v > 0.0)
            && row.read_reqs_per_s.is_some_and(|v| v > 0.0)
        {
            read.push(ServiceTime {
                view: DeviceView::Filetype,
                ms: Num {
                    value: ms,
                    src: Some(self.src(&row.src)),
                    derived: Some("IOStat by Filetype: Data File small read average".into()),
                },
            });
        }
        let mut n = 0.0;
        let mut t = 0.0;
        let mut first: Option<&SourceRef> = None;
        for row in &r.tablespace_io {
            // A row with more one-block reads per second than reads per
            // second has its columns shifted (seen on an 11.2.0.4 report
            // of the corpus), and 0 ms is no timing: neither is a one-block
            // read time.
            if let (Some(rate), Some(ms)) = (row.one_block_reads_per_s, row.avg_one_block_read_ms)
                && rate > 0.0
                && row.reads_per_s.is_none_or(|all| rate <= all + 1.0)
                && ms.is_finite()
                && ms > 0.0
            {
                n += rate;
                t += rate * ms;
                first.get_or_insert(&row.src);
            }
        }
        if n > 0.0
            && let Some(src) = first
        {
            read.push(ServiceTime {
                view: DeviceView::Tablespace,
                ms: Num {
                    value: t / n,
                    src: Some(self.src(src)),
                    derived: Some(
                        "Tablespace IO Stats: one-block read average weighted by each tablespace's one-block reads per second".into(),
                    ),
                },
            });
        }
        self.device.read = read;
    }

    /// An attached capture's device times, ahead of the report's views:
    /// `r_await` and `w_await` weighted by each device's reads and writes
    /// per second, over the devices the capture's channel total counts
    /// (partitions, device-mapper volumes and paths left out).
    pub(crate) fn fill_device_from_iostat(&mut self, c: &IostatCapture) {
        let devs: Vec<_> = c
            .summary
            .iter()
            .filter(|d| !d.layered && c.channel.devices.contains(&d.device))
            .collect();
        let first = c
            .samples
            .iter()
            .find(|s| !s.since_boot && devs.iter().any(|d| d.device == s.device));
        let Some(first) = first else {
            return;
        };
        let src = EvidenceSrc {
            path: awrflash_model::SharedStr::new(&c.source.path),
            section: first.src.section.clone(),
            line: first.src.line,
        };
        let weighted = |pick: &dyn Fn(&awrflash_model::DeviceSummary) -> Option<(f64, f64)>| {
            let mut n = 0.0;
            let mut t = 0.0;
            for d in &devs {
                if let Some((rate, v)) = pick(d)
                    && rate > 0.0
                    && v.is_finite()
                    && v >= 0.0
                {
                    n += rate;
                    t += rate * v;
                }
            }
            (n > 0.0).then(|| ratio(t, n))
        };
        let count = devs.len();
        let num = |value: f64, what: &str| Num {
            value,
            src: Some(src.clone()),
            derived: Some(format!(
                "iostat: {what} over the capture, weighted by each device's {} per second ({count} device{})",
                if what.contains("w_await") {
                    "writes"
                } else {
                    "reads"
                },
                if count == 1 { "" } else { "s" }
            )),
        };
        if let Some(v) = weighted(&|d| Some((d.r_s_mean?, d.r_await_ms_mean?))) {
            self.device.read.insert(
                0,
                ServiceTime {
                    view: DeviceView::Iostat,
                    ms: num(v, "mean r_await (reads of every size)"),
                },
            );
        }
        if let Some(v) = weighted(&|d| Some((d.w_s_mean?, d.w_await_ms_mean?))) {
            self.device.write.insert(
                0,
                ServiceTime {
                    view: DeviceView::Iostat,
                    ms: num(v, "mean w_await"),
                },
            );
        }
        if let Some(v) = weighted(&|d| Some((d.r_s_mean?, d.util_pct_mean?))) {
            self.device.util_pct = Some(num(v, "mean %util"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::{
        DbReport, FileIoRow, Header, IoStatRow, SourceRef, WaitEvent, WaitEvents,
    };

    fn report() -> DbReport {
        DbReport {
            header: Header {
                elapsed_s: Some(3600.0),
                db_time_s: Some(10_000.0),
                ..Default::default()
            },
            wait_events: WaitEvents {
                foreground: vec![WaitEvent {
                    name: "db file sequential read".into(),
                    waits: Some(1_000_000.0),
                    time_s: Some(5_450.0),
                    src: SourceRef::new("Foreground Wait Events", 10),
                    ..Default::default()
                }],
                ..Default::default()
            },
            iostat_filetype: vec![IoStatRow {
                filetype: Some("Data File".into()),
                read_reqs_per_s: Some(1692.0),
                avg_wait_ms: Some(2.83),
                src: SourceRef::new("IOStat by Filetype summary", 20),
                ..Default::default()
            }],
            tablespace_io: vec![
                FileIoRow {
                    tablespace: "A".into(),
                    one_block_reads_per_s: Some(300.0),
                    avg_one_block_read_ms: Some(3.0),
                    src: SourceRef::new("Tablespace IO Stats", 30),
                    ..Default::default()
                },
                FileIoRow {
                    tablespace: "B".into(),
                    one_block_reads_per_s: Some(100.0),
                    avg_one_block_read_ms: Some(4.2),
                    src: SourceRef::new("Tablespace IO Stats", 31),
                    ..Default::default()
                },
            ],
            ..Default::default()
        }
    }

    #[test]
    fn the_filetype_view_is_used_and_the_tablespaces_give_the_spread() {
        let r = report();
        let f = IntervalFacts::new(&r);
        // Tablespaces: (300 x 3.0 + 100 x 4.2) / 400 = 3.3 ms.
        let views: Vec<_> = f.device.read.iter().map(|s| s.view).collect();
        assert_eq!(views, [DeviceView::Filetype, DeviceView::Tablespace]);
        assert!((f.device.read[1].ms.value - 3.3).abs() < 1e-9);
        let s = f.device_split("db file sequential read").unwrap();
        assert!((s.avg_ms - 5.45).abs() < 1e-9);
        assert!((s.device_used_ms - 2.83).abs() < 1e-9);
        assert!((s.gap_used_ms() - 2.62).abs() < 1e-9);
        assert!((s.device_ms.0 - 2.83).abs() < 1e-9 && (s.device_ms.1 - 3.3).abs() < 1e-9);
        assert!((s.gap_ms.0 - 2.15).abs() < 1e-9 && (s.gap_ms.1 - 2.62).abs() < 1e-9);
        let words = s.words();
        assert!(
            words.contains("5.45 ms, of which the device serves 2.83 ms (IOStat by Filetype; Tablespace IO Stats 3.30 ms)")
                && words.contains("2.62 ms is above the device"),
            "{words}"
        );
        // Only one-device-read events are split.
        assert!(f.device_split("db file parallel read").is_none());
    }

    #[test]
    fn an_attached_capture_comes_first_weighted_by_each_devices_reads() {
        use awrflash_model::{ChannelLoad, DeviceSample, DeviceSummary, IostatCapture};
        let dev =
            |name: &str, r_s: f64, r_await: f64, w_s: f64, w_await: f64, util: f64| DeviceSummary {
                device: name.into(),
                r_s_mean: Some(r_s),
                r_await_ms_mean: Some(r_await),
                w_s_mean: Some(w_s),
                w_await_ms_mean: Some(w_await),
                util_pct_mean: Some(util),
                ..Default::default()
            };
        let mut part = dev("sdb1", 1000.0, 9.0, 0.0, 0.0, 99.0);
        part.layered = true;
        let c = IostatCapture {
            samples: vec![
                DeviceSample {
                    device: "sdb".into(),
                    since_boot: true,
                    src: SourceRef::new("iostat", 3),
                    ..Default::default()
                },
                DeviceSample {
                    device: "sdb".into(),
                    src: SourceRef::new("iostat", 9),
                    ..Default::default()
                },
            ],
            summary: vec![
                dev("sdb", 300.0, 2.0, 100.0, 1.0, 60.0),
                dev("sdc", 100.0, 4.0, 300.0, 0.6, 20.0),
                part,
            ],
            channel: ChannelLoad {
                devices: vec!["sdb".into(), "sdc".into()],
                ..Default::default()
            },
            ..Default::default()
        };
        let r = report();
        let mut f = IntervalFacts::new(&r);
        f.fill_from_iostat(&[&c]);
        let views: Vec<_> = f.device.read.iter().map(|s| s.view).collect();
        assert_eq!(
            views,
            [
                DeviceView::Iostat,
                DeviceView::Filetype,
                DeviceView::Tablespace
            ]
        );
        // Reads: (300 x 2 + 100 x 4) / 400 = 2.5 ms; the partition is left
        // out. Writes: (100 x 1 + 300 x 0.6) / 400 = 0.7 ms. Utilisation
        // weighted by reads: (300 x 60 + 100 x 20) / 400 = 50%.
        assert!((f.device.read[0].ms.value - 2.5).abs() < 1e-9);
        assert_eq!(f.device.read[0].ms.src.as_ref().map(|s| s.line), Some(9));
        assert!((f.device.write[0].ms.value - 0.7).abs() < 1e-9);
        assert!(
            f.device
                .util_pct
                .as_ref()
                .is_some_and(|u| (u.value - 50.0).abs() < 1e-9)
        );
        let s = f.device_split("db file sequential read").unwrap();
        assert_eq!(s.used.view, DeviceView::Iostat);
        // Spread over the three views: 2.5, 2.83, 3.3 ms.
        assert!((s.device_ms.0 - 2.5).abs() < 1e-9 && (s.device_ms.1 - 3.3).abs() < 1e-9);
        // A second capture does not replace the first.
        f.fill_from_iostat(&[&c]);
        assert_eq!(f.device.read.len(), 3);
    }

    #[test]
    fn a_device_view_slower_than_the_wait_leaves_no_gap_and_no_view_no_split() {
        let mut r = report();
        if let Some(row) = r.iostat_filetype.first_mut() {
            row.avg_wait_ms = Some(7.0);
        }
        // A shifted row (more one-block reads than reads) is no view.
        for t in &mut r.tablespace_io {
            t.reads_per_s = Some(50.0);
        }
        let f = IntervalFacts::new(&r);
        assert_eq!(f.device.read.len(), 1);
        // 7 ms against a 5.45 ms wait: the device is the whole wait.
        assert!(f.device_split("db file sequential read").is_none());
        // Over twice the wait: left out, and the next view is used.
        let mut r2 = report();
        if let Some(row) = r2.iostat_filetype.first_mut() {
            row.avg_wait_ms = Some(33_210.77);
        }
        let f = IntervalFacts::new(&r2);
        let s = f.device_split("db file sequential read").unwrap();
        assert_eq!(s.used.view, DeviceView::Tablespace);
        assert!(s.others.is_empty() && s.left_out.len() == 1);
        assert!(
            s.words().contains(
                "(Tablespace IO Stats; left out, over 2x the wait: IOStat by Filetype 33210.77 ms)"
            ),
            "{}",
            s.words()
        );
        r.tablespace_io.clear();
        r.iostat_filetype.clear();
        let f = IntervalFacts::new(&r);
        assert!(f.device.read.is_empty());
        assert!(f.device_split("db file sequential read").is_none());
    }
}
