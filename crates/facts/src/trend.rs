//! The trend over the report intervals of one database: per metric the
//! whole-window figure, the plain mean, the p95 and the peak with its
//! interval, all from [`awrflash_model::stats`] over the interval facts.

use awrflash_model::{TrendMetric, stats};

use crate::interval::IntervalFacts;
use crate::num::{Num, round};

type Getter = fn(&IntervalFacts) -> Option<f64>;

fn v(n: &Option<Num>) -> Option<f64> {
    n.as_ref().map(|n| n.value)
}

fn sum(a: Option<f64>, b: Option<f64>) -> Option<f64> {
    match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0.0) + b.unwrap_or(0.0)),
    }
}

/// The metrics the trend covers: name (a `snapshots` table column), unit and
/// how it is read from an interval's facts.
/// The events whose average wait the trend follows (foreground, else
/// background): the single-block read, the commit and the redo write.
pub const TREND_EVENTS: [&str; 3] = [
    "db file sequential read",
    "log file sync",
    "log file parallel write",
];

/// The activity statistic whose rate the trend follows: the flash cache's
/// read hits.
pub const TREND_STATS: [&str; 1] = ["physical read flash cache hits"];

pub const TREND_METRICS: &[(&str, &str, Getter)] = &[
    ("db_time_per_s", "s/s", |f| {
        f.per_second(f.db_time_s.as_ref())
    }),
    ("db_cpu_per_s", "s/s", |f| f.per_second(f.db_cpu_s.as_ref())),
    ("read_iops", "req/s", |f| v(&f.read_iops)),
    ("write_iops", "req/s", |f| v(&f.write_iops)),
    ("total_iops", "req/s", |f| {
        sum(v(&f.read_iops), v(&f.write_iops))
    }),
    ("read_mb_s", "MB/s", |f| v(&f.read_mb_s)),
    ("write_mb_s", "MB/s", |f| v(&f.write_mb_s)),
    ("total_mb_s", "MB/s", |f| {
        sum(v(&f.read_mb_s), v(&f.write_mb_s))
    }),
    ("redo_mb_s", "MB/s", |f| f.redo_mb_s().map(|n| n.value)),
    ("db_file_sequential_read_ms", "ms", |f| {
        f.event_avg_ms(TREND_EVENTS[0]).map(|n| n.value)
    }),
    ("log_file_sync_ms", "ms", |f| {
        f.event_avg_ms(TREND_EVENTS[1]).map(|n| n.value)
    }),
    ("log_file_parallel_write_ms", "ms", |f| {
        f.event_avg_ms(TREND_EVENTS[2]).map(|n| n.value)
    }),
    ("flash_cache_hits_s", "hits/s", |f| {
        f.stat_rate(TREND_STATS[0]).map(|n| n.value)
    }),
];

/// The peak interval: highest DB time per second, the first on ties.
pub fn peak_interval(all: &[IntervalFacts]) -> Option<usize> {
    stats::peak_index(all.iter().map(|f| f.per_second(f.db_time_s.as_ref())))
}

/// Whole window, mean, p95 and peak of every trend metric over the
/// intervals in the order given. Figures are rounded as every output
/// prints them ([`round`]), so the JSON and the tables agree.
pub fn trend(all: &[IntervalFacts]) -> Vec<TrendMetric> {
    TREND_METRICS
        .iter()
        .map(|(name, unit, get)| {
            let values: Vec<Option<f64>> = all.iter().map(get).collect();
            let present = || values.iter().flatten().copied();
            TrendMetric {
                metric: (*name).to_string(),
                unit: (*unit).to_string(),
                intervals: present().count(),
                whole_window: stats::window_mean(
                    values.iter().zip(all).map(|(v, f)| (*v, f.elapsed())),
                )
                .map(round),
                mean: stats::mean(present()).map(round),
                p95: stats::p95(present()).map(round),
                peak: stats::peak_index(values.iter().copied())
                    .and_then(|i| values.get(i).copied().flatten())
                    .map(round),
                peak_interval: stats::peak_index(values.iter().copied()),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::{DbReport, Header, LoadProfileRow};

    fn report(elapsed: f64, db_time_per_s: f64, read_iops: Option<f64>) -> DbReport {
        let mut lp = vec![LoadProfileRow {
            name: "DB Time(s)".into(),
            per_second: Some(db_time_per_s),
            ..Default::default()
        }];
        if let Some(r) = read_iops {
            lp.push(LoadProfileRow {
                name: "Read IO requests".into(),
                per_second: Some(r),
                ..Default::default()
            });
        }
        DbReport {
            header: Header {
                elapsed_s: Some(elapsed),
                ..Default::default()
            },
            load_profile: lp,
            ..Default::default()
        }
    }

    #[test]
    fn the_trend_weights_the_whole_window_by_elapsed_and_skips_missing_values() {
        let reports = [
            report(3600.0, 2.0, Some(100.0)),
            report(1800.0, 8.0, None),
            report(3600.0, 4.0, Some(400.0)),
        ];
        let all: Vec<IntervalFacts> = reports.iter().map(IntervalFacts::new).collect();
        let t = trend(&all);
        let get = |m: &str| {
            t.iter()
                .find(|x| x.metric == m)
                .cloned()
                .unwrap_or_default()
        };
        let aas = get("db_time_per_s");
        assert_eq!(aas.intervals, 3);
        // (2 x 3600 + 8 x 1800 + 4 x 3600) / 9000
        assert_eq!(aas.whole_window, Some(4.0));
        assert_eq!(aas.peak, Some(8.0));
        assert_eq!(aas.peak_interval, Some(1));
        assert_eq!(peak_interval(&all), Some(1));
        let reads = get("read_iops");
        assert_eq!(reads.intervals, 2);
        assert_eq!(reads.whole_window, Some(250.0));
        assert_eq!(reads.p95, Some(400.0));
        assert_eq!(reads.peak_interval, Some(2));
    }
}
