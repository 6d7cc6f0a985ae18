//! The measured figures of both sides, each with its rows on both sides.

use awrflash_facts::{
    FLASH_CACHE_READS, IntervalFacts, MULTIBLOCK, Num, SINGLE_BLOCK, TEMP, WRITE_WAITS, round,
};
use awrflash_model::{
    BucketShift, ComponentChange, DbTimeBreakdown, FigureChange, HistogramShift, WaitChange,
    WaitFigures,
};

use crate::side::{Fig, SideFacts, WaitSum};

/// `(after - before) / before` in percent.
pub fn change_pct(before: Option<f64>, after: Option<f64>) -> Option<f64> {
    match (before, after) {
        (Some(b), Some(a)) if b.abs() > 0.0 && b.is_finite() && a.is_finite() => {
            Some(round((a - b) * 100.0 / b))
        }
        _ => None,
    }
}

type Getter<'a> = &'a dyn Fn(&SideFacts<'_>) -> Option<Fig>;

fn figure(
    key: &str,
    label: &str,
    unit: &str,
    derived: Option<&str>,
    b: &SideFacts<'_>,
    a: &SideFacts<'_>,
    get: Getter<'_>,
) -> FigureChange {
    let (fb, fa) = (get(b), get(a));
    let before = fb.as_ref().map(|f| round(f.value));
    let after = fa.as_ref().map(|f| round(f.value));
    FigureChange {
        key: key.into(),
        label: label.into(),
        unit: unit.into(),
        before,
        after,
        change_pct: change_pct(fb.as_ref().map(|f| f.value), fa.as_ref().map(|f| f.value)),
        before_src: fb.map(|f| f.src).unwrap_or_default(),
        after_src: fa.map(|f| f.src).unwrap_or_default(),
        derived: derived.map(str::to_string),
    }
}

fn db_time(w: &IntervalFacts<'_>) -> Option<Num> {
    w.db_time_s.clone()
}

fn db_cpu(w: &IntervalFacts<'_>) -> Option<Num> {
    w.db_cpu_s.clone()
}

fn ms(f: Option<Fig>) -> Option<Fig> {
    f.map(|f| Fig {
        value: f.value * 1000.0,
        src: f.src,
    })
}

/// DB time per transaction (ms) over the window.
pub fn db_time_per_txn_ms(s: &SideFacts<'_>) -> Option<Fig> {
    ms(s.per_count(db_time, SideFacts::txn))
}

/// DB time per execution (ms) over the window.
pub fn db_time_per_exec_ms(s: &SideFacts<'_>) -> Option<Fig> {
    ms(s.per_count(db_time, SideFacts::exec))
}

/// Average active sessions: DB time over elapsed time.
pub fn aas(s: &SideFacts<'_>) -> Option<Fig> {
    s.per_count(db_time, |w| {
        (w.elapsed() > 0.0).then(|| {
            (
                w.elapsed(),
                w.elapsed_s.as_ref().and_then(|n| n.src.clone()),
            )
        })
    })
}

/// The measured figures, in the order a reader checks them.
pub fn figures(b: &SideFacts<'_>, a: &SideFacts<'_>) -> Vec<FigureChange> {
    let mut v = vec![
        figure(
            "db_time_per_txn_ms",
            "DB time per transaction",
            "ms",
            Some("DB time / (Transactions per second x elapsed)"),
            b,
            a,
            &db_time_per_txn_ms,
        ),
        figure(
            "db_time_per_exec_ms",
            "DB time per execution",
            "ms",
            Some("DB time / (Executes per second x elapsed)"),
            b,
            a,
            &db_time_per_exec_ms,
        ),
        figure(
            "aas",
            "Average active sessions",
            "",
            Some("DB time / elapsed"),
            b,
            a,
            &aas,
        ),
        figure("db_time_s", "DB time", "s", None, b, a, &|s| {
            s.total(db_time)
        }),
        figure(
            "txn_per_s",
            "Transactions per second",
            "/s",
            None,
            b,
            a,
            &|s| s.rate(|w| w.txn_per_s.clone()),
        ),
        figure(
            "exec_per_s",
            "Executions per second",
            "/s",
            None,
            b,
            a,
            &|s| s.rate(|w| w.exec_per_s.clone()),
        ),
        figure(
            "db_cpu_per_txn_ms",
            "DB CPU per transaction",
            "ms",
            Some("DB CPU / (Transactions per second x elapsed)"),
            b,
            a,
            &|s| ms(s.per_count(db_cpu, SideFacts::txn)),
        ),
        figure(
            "db_cpu_per_s",
            "DB CPU per second",
            "s/s",
            Some("DB CPU / elapsed"),
            b,
            a,
            &|s| s.per_count(db_cpu, |w| (w.elapsed() > 0.0).then(|| (w.elapsed(), None))),
        ),
        figure(
            "host_cpu_busy_pct",
            "Host CPU busy",
            "%",
            None,
            b,
            a,
            &|s| s.rate(|w| w.host_busy_pct.clone()),
        ),
        figure(
            "io_share_pct",
            "I/O share of DB time",
            "%",
            Some("I/O components of the DB time breakdown / DB time"),
            b,
            a,
            &|s| s.weighted(|w| w.io_share_pct(), |w| w.db_time()),
        ),
        figure(
            "read_iops",
            "Read requests per second",
            "/s",
            None,
            b,
            a,
            &|s| s.rate(|w| w.read_iops.clone()),
        ),
        figure(
            "write_iops",
            "Write requests per second",
            "/s",
            None,
            b,
            a,
            &|s| s.rate(|w| w.write_iops.clone()),
        ),
        figure("read_mb_s", "Read MB/s", "MB/s", None, b, a, &|s| {
            s.rate(|w| w.read_mb_s.clone())
        }),
        figure("write_mb_s", "Write MB/s", "MB/s", None, b, a, &|s| {
            s.rate(|w| w.write_mb_s.clone())
        }),
        figure(
            "redo_mb_s",
            "Redo MB/s",
            "MB/s",
            Some("redo size per second / 1048576"),
            b,
            a,
            &|s| s.rate(|w| w.redo_mb_s()),
        ),
        figure(
            "avg_redo_write_kb",
            "Average redo write",
            "KB",
            Some("redo size / redo writes"),
            b,
            a,
            &|s| {
                s.weighted(
                    |w| w.avg_redo_write_kb.clone(),
                    |w| w.redo_writes_s.as_ref().map_or(0.0, |n| n.value) * w.elapsed(),
                )
            },
        ),
    ];
    v.retain(|f| f.before.is_some() || f.after.is_some());
    v
}

/// Events whose change the comparison shows (when either side has them).
fn key_events() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = Vec::new();
    v.extend(SINGLE_BLOCK);
    v.extend(MULTIBLOCK);
    v.extend(TEMP);
    v.extend(WRITE_WAITS);
    v.extend(FLASH_CACHE_READS);
    v.extend([
        "log file sync",
        "log file parallel write",
        "db file parallel write",
    ]);
    v
}

fn wait_figures(s: WaitSum) -> WaitFigures {
    WaitFigures {
        waits: round(s.waits),
        waits_per_s: round(s.waits_per_s),
        avg_ms: round(s.avg_ms),
        time_s: round(s.time_s),
        pct_db_time: s.pct_db_time.map(round),
        src: s.src,
    }
}

/// Each key wait on both sides, the largest before-side time first.
pub fn waits(b: &SideFacts<'_>, a: &SideFacts<'_>) -> Vec<WaitChange> {
    let mut v: Vec<WaitChange> = key_events()
        .into_iter()
        .filter_map(|name| {
            let (wb, wa) = (b.wait(name), a.wait(name));
            if wb.is_none() && wa.is_none() {
                return None;
            }
            Some(WaitChange {
                event: name.to_string(),
                avg_change_pct: change_pct(
                    wb.as_ref().map(|w| w.avg_ms),
                    wa.as_ref().map(|w| w.avg_ms),
                ),
                before: wb.map(wait_figures),
                after: wa.map(wait_figures),
                histogram: histogram_shift(b, a, name),
            })
        })
        .collect();
    let t = |w: &WaitChange| w.before.as_ref().map_or(0.0, |f| f.time_s);
    v.sort_by(|x, y| t(y).total_cmp(&t(x)).then_with(|| x.event.cmp(&y.event)));
    v
}

/// `(le_ms, pct)` of one side, merged over its intervals by waits.
fn merged(s: &SideFacts<'_>, event: &str) -> (Vec<(f64, f64)>, Vec<awrflash_model::EvidenceSrc>) {
    let rows = s.histograms(event);
    let mut les: Vec<f64> = rows
        .iter()
        .flat_map(|(h, _, _)| h.buckets.iter().map(|b| b.le_ms))
        .collect();
    les.sort_by(f64::total_cmp);
    les.dedup();
    let out = les
        .iter()
        .map(|le| {
            let pct = awrflash_model::stats::window_mean(rows.iter().map(|(h, w, _)| {
                let p = h
                    .buckets
                    .iter()
                    .find(|b| b.le_ms == *le)
                    .map_or(0.0, |b| b.pct);
                (Some(p), *w)
            }))
            .unwrap_or(0.0);
            (*le, pct)
        })
        .collect();
    let mut src: Vec<_> = rows.into_iter().map(|r| r.2).collect();
    src.dedup();
    (out, src)
}

/// Bucket label: `<=512us`, `<=8ms`, `<=2s`, or `>` the last bound.
fn bucket_label(le: f64, prev: Option<f64>) -> String {
    if le >= f64::MAX / 2.0 {
        return format!(">{}", prev.map_or("max".to_string(), bucket_value));
    }
    format!("<={}", bucket_value(le))
}

fn bucket_value(le: f64) -> String {
    if le < 1.0 {
        format!("{}us", (le * 1000.0).round())
    } else if le >= 1000.0 {
        format!("{}s", round(le / 1000.0))
    } else {
        format!("{}ms", round(le))
    }
}

/// Share of waits at or below 1 ms.
fn le_1ms(b: &[(f64, f64)]) -> Option<f64> {
    (!b.is_empty()).then(|| {
        round(
            b.iter()
                .filter(|(le, _)| *le <= 1.0 + 1e-9)
                .map(|(_, p)| p)
                .sum(),
        )
    })
}

fn histogram_shift(b: &SideFacts<'_>, a: &SideFacts<'_>, event: &str) -> Option<HistogramShift> {
    let (hb, sb) = merged(b, event);
    let (ha, sa) = merged(a, event);
    if hb.is_empty() && ha.is_empty() {
        return None;
    }
    let mut les: Vec<f64> = hb.iter().chain(&ha).map(|x| x.0).collect();
    les.sort_by(f64::total_cmp);
    les.dedup();
    let find = |side: &[(f64, f64)], le: f64| {
        (!side.is_empty()).then(|| round(side.iter().find(|x| x.0 == le).map_or(0.0, |x| x.1)))
    };
    let mut prev = None;
    let buckets = les
        .iter()
        .map(|le| {
            let label = bucket_label(*le, prev);
            prev = Some(*le);
            BucketShift {
                label,
                le_ms: (*le < f64::MAX / 2.0).then_some(*le),
                before_pct: find(&hb, *le),
                after_pct: find(&ha, *le),
            }
        })
        .collect();
    Some(HistogramShift {
        buckets,
        le_1ms_before_pct: le_1ms(&hb),
        le_1ms_after_pct: le_1ms(&ha),
        before_src: sb,
        after_src: sa,
    })
}

/// The breakdown's components with their names, in chart order.
pub fn components(b: &DbTimeBreakdown) -> [(&'static str, f64); 8] {
    [
        ("cpu", b.cpu_s),
        ("single_block_read", b.single_block_read_s),
        ("multiblock_read", b.multiblock_read_s),
        ("temp_io", b.temp_io_s),
        ("write_wait", b.write_wait_s),
        ("commit", b.commit_s),
        ("flash_cache_read", b.flash_cache_read_s),
        ("other", b.other_s),
    ]
}

/// DB time per transaction (ms) by component on both sides; `None` when
/// a side has no transaction count.
pub fn breakdown(b: &SideFacts<'_>, a: &SideFacts<'_>) -> Vec<ComponentChange> {
    let txns = |s: &SideFacts<'_>| -> f64 {
        s.intervals
            .iter()
            .filter_map(|w| w.transactions())
            .sum::<f64>()
    };
    let (tb, ta) = (txns(b), txns(a));
    if tb <= 0.0 || ta <= 0.0 {
        return Vec::new();
    }
    let (bb, ba) = (b.breakdown(), a.breakdown());
    components(&bb)
        .iter()
        .zip(components(&ba))
        .map(|((name, vb), (_, va))| ComponentChange {
            component: (*name).to_string(),
            before_ms_per_txn: round(vb * 1000.0 / tb),
            after_ms_per_txn: round(va * 1000.0 / ta),
            projected_ms_per_txn: None,
        })
        .collect()
}
