//! One latency distribution per wait event, merged from every Wait Event
//! Histogram table the report prints for it.
//!
//! 11.2 and 12.1 print a millisecond table (`<1ms` .. `<=1s`, `>1s`) and
//! detail tables (`64 msec to 2 sec`, ...); 12.2 and later print a
//! microsecond table (`<8us` .. `>=512us`) and `(up to 64 us)`, `(up to 32
//! ms)`, `(up to 2 sec)`, ... tables. The parsers keep each table's row for
//! an event as its own [`HistogramRow`]. Every table gives percentages of the
//! event's total waits, its first column counting every wait below its bound
//! and its last every wait above, so each table row is a set of points of one
//! cumulative distribution: F(bound) = % of waits under the bound. The merge
//! takes the union of every row's bounds; each interval between two
//! neighbouring bounds keeps the cell a table prints for exactly that
//! interval, and an interval no table prints alone comes from the cumulative
//! points (at each bound the estimate that sums the fewest rounded cells,
//! made non-decreasing). So the 19c `log file sync` that the microsecond
//! table shows as `>=512us 100%` gets its 1-32 ms buckets from the `(up to
//! 32 ms)` table as printed.

use awrflash_model::{HistogramBucket, HistogramRow, SharedStr, SourceRef};

/// Rounding slack of one printed percentage cell (`.0` is below .05%).
const CELL_SLACK: f64 = 0.05;
/// A row whose cells sum further than this from 100% (beyond the rounding of
/// its cells) is not a share of the event's total waits: left out, with a
/// warning.
const SUM_SLACK: f64 = 1.0;

/// One event's merged latency distribution.
#[derive(Debug, Clone, PartialEq)]
pub struct Distribution {
    pub event: String,
    /// Total waits of the event, from the table that prints a total.
    pub total_waits: Option<f64>,
    /// Percentage of waits per bucket, ascending bounds; the open last
    /// bucket has `le_ms` = `f64::MAX`. Sums to 100 within the rounding of
    /// the printed cells.
    pub buckets: Vec<HistogramBucket>,
    /// The rows merged (section and line of each table row).
    pub rows: Vec<SourceRef>,
    /// Rows left out or inconsistencies found, each naming its row.
    pub warnings: Vec<String>,
}

impl Distribution {
    /// Percentage of waits that took longer than `ms` (bucket resolution:
    /// a bucket counts as above when its lower bound is at or above `ms`).
    pub fn pct_above(&self, ms: f64) -> f64 {
        let mut lo = 0.0;
        let mut above = 0.0;
        for b in &self.buckets {
            if lo >= ms {
                above += b.pct;
            }
            lo = b.le_ms;
        }
        above
    }

    /// The merged distribution as one histogram row (the first merged row
    /// as its source), for the exhibits.
    pub fn to_row(&self) -> HistogramRow {
        HistogramRow {
            event: SharedStr::shared(&self.event),
            total_waits: self.total_waits,
            range_waits: None,
            buckets: self.buckets.as_slice().into(),
            src: self.rows.first().cloned().unwrap_or_default(),
        }
    }

    /// Lower and upper bound (ms) of each bucket; the open last bucket's
    /// upper bound is `None`.
    pub fn ranges(&self) -> Vec<(f64, Option<f64>, f64)> {
        let mut lo = 0.0;
        self.buckets
            .iter()
            .map(|b| {
                let hi = is_open(b.le_ms)
                    .then_some(())
                    .map_or(Some(b.le_ms), |()| None);
                let r = (lo, hi, b.pct);
                lo = b.le_ms;
                r
            })
            .collect()
    }
}

fn is_open(le_ms: f64) -> bool {
    !le_ms.is_finite() || le_ms >= f64::MAX / 2.0
}

fn same_bound(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1e-12)
}

/// A point of the cumulative distribution from one row: the bound, the
/// percentage of waits below it, and how many rounded cells were summed.
#[derive(Debug, Clone, Copy)]
struct Point {
    le_ms: f64,
    cum: f64,
    cells: usize,
}

/// `s.trim()`, without looking further than its two ends when they are
/// printable ASCII (every event name the parsers store): a merge compares
/// the event with every histogram row of the report.
fn trimmed(s: &str) -> &str {
    match (s.as_bytes().first(), s.as_bytes().last()) {
        (Some(a), Some(z)) if a.is_ascii_graphic() && z.is_ascii_graphic() => s,
        _ => s.trim(),
    }
}

/// The points one row gives, or why the row is left out.
fn row_points(row: &HistogramRow) -> Result<Vec<Point>, String> {
    let mut buckets: Vec<&HistogramBucket> = row
        .buckets
        .iter()
        .filter(|b| b.pct.is_finite() && b.le_ms.is_finite())
        .collect();
    if buckets.len() != row.buckets.len() {
        return Err("a bucket that is not a number".into());
    }
    if buckets.iter().any(|b| b.pct < 0.0) {
        return Err("a negative percentage".into());
    }
    buckets.sort_by(|a, b| a.le_ms.total_cmp(&b.le_ms));
    if buckets.windows(2).any(|w| match w {
        [a, b] => same_bound(a.le_ms, b.le_ms),
        _ => false,
    }) {
        return Err("two buckets with one bound".into());
    }
    let sum: f64 = buckets.iter().map(|b| b.pct).sum();
    let n = buckets.len();
    if n == 0 {
        return Ok(Vec::new());
    }
    if (sum - 100.0).abs() > SUM_SLACK + CELL_SLACK * n as f64 {
        return Err(format!("its percentages sum to {sum:.1}, not 100"));
    }
    let mut out = Vec::new();
    let mut below = 0.0;
    for (k, b) in buckets.iter().enumerate() {
        below += b.pct;
        if is_open(b.le_ms) {
            continue;
        }
        // From below: k + 1 cells summed; from above: the n - k - 1 cells
        // over the bound (valid because the row sums to 100).
        let above_cells = n - k - 1;
        let point = if above_cells < k + 1 {
            Point {
                le_ms: b.le_ms,
                cum: 100.0 - (sum - below),
                cells: above_cells,
            }
        } else {
            Point {
                le_ms: b.le_ms,
                cum: below,
                cells: k + 1,
            }
        };
        out.push(point);
    }
    Ok(out)
}

/// Merges every row of `event` (case-insensitive) in `rows` into one
/// distribution; `None` when the report has no usable row for it.
pub fn merge(rows: &[HistogramRow], event: &str) -> Option<Distribution> {
    let event = trimmed(event);
    let mine: Vec<&HistogramRow> = rows
        .iter()
        .filter(|r| trimmed(&r.event).eq_ignore_ascii_case(event))
        .collect();
    let first = mine.first()?;
    let mut warnings = Vec::new();
    let mut points: Vec<Point> = Vec::new();
    let mut used = Vec::new();
    for r in &mine {
        match row_points(r) {
            Ok(p) if !p.is_empty() || !r.buckets.is_empty() => {
                points.extend(p);
                used.push(r.src.clone());
            }
            Ok(_) => {}
            Err(why) => warnings.push(format!(
                "[{}] line {}: `{}` histogram row left out of the merged distribution: {why}",
                r.src.section, r.src.line, r.event
            )),
        }
    }
    if used.is_empty() {
        return None;
    }
    // Per bound, the estimate that sums the fewest rounded cells (ties:
    // their mean).
    points.sort_by(|a, b| a.le_ms.total_cmp(&b.le_ms).then(a.cells.cmp(&b.cells)));
    let mut cdf: Vec<(f64, f64)> = Vec::new();
    let mut i = 0;
    while let Some(p) = points.get(i) {
        let group: Vec<&Point> = points
            .get(i..)
            .unwrap_or_default()
            .iter()
            .take_while(|q| same_bound(q.le_ms, p.le_ms))
            .collect();
        let best = group.iter().map(|q| q.cells).min().unwrap_or(0);
        let chosen: Vec<f64> = group
            .iter()
            .filter(|q| q.cells == best)
            .map(|q| q.cum)
            .collect();
        let cum = chosen.iter().sum::<f64>() / chosen.len().max(1) as f64;
        let spread = group
            .iter()
            .map(|q| (q.cum - cum).abs())
            .fold(0.0_f64, f64::max);
        let slack = CELL_SLACK * (group.iter().map(|q| q.cells).max().unwrap_or(0) + best) as f64;
        if spread > slack + 0.5 {
            warnings.push(format!(
                "`{}`: the tables disagree on the waits under {} ms by {spread:.1} points (merged with the most precise)",
                first.event, p.le_ms
            ));
        }
        cdf.push((p.le_ms, cum.clamp(0.0, 100.0)));
        i += group.len().max(1);
    }
    // A distribution never decreases: rounding can make a later point
    // dip below an earlier one.
    let mut floor = 0.0_f64;
    for (_, c) in &mut cdf {
        floor = floor.max(*c);
        *c = floor;
    }
    // Each interval between two neighbouring bounds takes the cell a table
    // prints for exactly that interval (the printed figure, unrounded by
    // the merge); an interval no table prints alone comes from the
    // cumulative points.
    let sorted_rows: Vec<Vec<&HistogramBucket>> = mine
        .iter()
        .map(|r| {
            let mut sorted: Vec<&HistogramBucket> = r.buckets.iter().collect();
            sorted.sort_by(|a, b| a.le_ms.total_cmp(&b.le_ms));
            sorted
        })
        .collect();
    let exact = |lo: f64, hi: Option<f64>| -> Option<f64> {
        let cells: Vec<f64> = sorted_rows
            .iter()
            .filter_map(|sorted| {
                let mut prev = 0.0;
                sorted.iter().find_map(|b| {
                    let p = prev;
                    prev = b.le_ms;
                    let upper_ok = match hi {
                        Some(h) => !is_open(b.le_ms) && same_bound(b.le_ms, h),
                        None => is_open(b.le_ms),
                    };
                    (upper_ok && same_bound(p, lo)).then_some(b.pct)
                })
            })
            .filter(|p| p.is_finite())
            .collect();
        (!cells.is_empty()).then(|| cells.iter().sum::<f64>() / cells.len() as f64)
    };
    let mut buckets = Vec::with_capacity(cdf.len() + 1);
    let (mut lo, mut prev) = (0.0, 0.0);
    for (le_ms, c) in &cdf {
        let pct = exact(lo, Some(*le_ms)).unwrap_or((c - prev).max(0.0));
        buckets.push(HistogramBucket { le_ms: *le_ms, pct });
        (lo, prev) = (*le_ms, *c);
    }
    buckets.push(HistogramBucket {
        le_ms: f64::MAX,
        pct: exact(lo, None).unwrap_or((100.0 - prev).max(0.0)),
    });
    let total_waits = mine.iter().find_map(|r| r.total_waits);
    Some(Distribution {
        event: first.event.trim().to_string(),
        total_waits,
        buckets,
        rows: used,
        warnings,
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing)]
    use super::*;

    fn row(event: &str, total: Option<f64>, line: u32, b: &[(f64, f64)]) -> HistogramRow {
        HistogramRow {
            event: event.into(),
            total_waits: total,
            range_waits: None,
            buckets: b
                .iter()
                .map(|&(le_ms, pct)| HistogramBucket { le_ms, pct })
                .collect(),
            src: SourceRef::new("Wait Event Histogram", line),
        }
    }

    fn pcts(d: &Distribution) -> Vec<(f64, f64)> {
        d.buckets
            .iter()
            .map(|b| (b.le_ms, (b.pct * 10.0).round() / 10.0))
            .collect()
    }

    const MAX: f64 = f64::MAX;

    #[test]
    fn the_19c_tables_merge_on_their_overlapping_buckets() {
        // The 19c jdmoreno 160_204 `log file sync` rows as the parser stores
        // them: microsecond table, (up to 32 ms), (up to 2 sec).
        let us = row(
            "log file sync",
            Some(48.5e6),
            804,
            &[
                (0.008, 0.0),
                (0.016, 0.0),
                (0.032, 0.0),
                (0.064, 0.0),
                (0.128, 0.0),
                (0.256, 0.0),
                (0.512, 0.0),
                (MAX, 100.0),
            ],
        );
        let ms = row(
            "log file sync",
            None,
            1082,
            &[
                (0.512, 0.0),
                (1.0, 4.5),
                (2.0, 14.9),
                (4.0, 16.2),
                (8.0, 44.6),
                (16.0, 16.6),
                (32.0, 2.6),
                (MAX, 0.7),
            ],
        );
        let s = row(
            "log file sync",
            None,
            1189,
            &[
                (32.0, 99.3),
                (64.0, 0.4),
                (128.0, 0.1),
                (256.0, 0.1),
                (512.0, 0.0),
                (1024.0, 0.0),
                (2048.0, 0.0),
            ],
        );
        let d = merge(&[us, ms, s], "LOG FILE SYNC").unwrap();
        assert_eq!(d.total_waits, Some(48.5e6));
        assert_eq!(d.rows.len(), 3);
        // By hand: every interval up to 2 s is printed alone by one table
        // (up to 512 us by the microsecond table, 512 us - 32 ms by the 32 ms
        // table, 32 ms - 2 s by the 2 s table); above 2 s no table prints a
        // cell, so it is 100 - F(2048 ms), and F(2048) = 100 (the 2 s table's
        // blank `>=2s` cell is truly 0).
        let got = pcts(&d);
        let want = vec![
            (0.008, 0.0),
            (0.016, 0.0),
            (0.032, 0.0),
            (0.064, 0.0),
            (0.128, 0.0),
            (0.256, 0.0),
            (0.512, 0.0),
            (1.0, 4.5),
            (2.0, 14.9),
            (4.0, 16.2),
            (8.0, 44.6),
            (16.0, 16.6),
            (32.0, 2.6),
            (64.0, 0.4),
            (128.0, 0.1),
            (256.0, 0.1),
            (512.0, 0.0),
            (1024.0, 0.0),
            (2048.0, 0.0),
            (MAX, 0.0),
        ];
        assert_eq!(got, want);
        let sum: f64 = d.buckets.iter().map(|b| b.pct).sum();
        assert!((sum - 100.0).abs() < 0.05, "{sum}");
        assert!(d.warnings.is_empty(), "{:?}", d.warnings);
        // 95.5% of the waits took 1 ms or more.
        assert!((d.pct_above(1.0) - 95.5).abs() < 1e-9);
    }

    #[test]
    fn an_11g_detail_table_refines_the_open_millisecond_bucket() {
        // 11.2: `<1ms .. <32ms, <=1s, >1s` and the 64 msec to 2 sec detail
        // (`<32ms` cumulative).
        let main = row(
            "db file sequential read",
            Some(1000.0),
            10,
            &[
                (1.0, 20.0),
                (2.0, 10.0),
                (4.0, 10.0),
                (8.0, 30.0),
                (16.0, 20.0),
                (32.0, 5.0),
                (1024.0, 5.0),
                (MAX, 0.0),
            ],
        );
        let detail = row(
            "db file sequential read",
            None,
            20,
            &[(32.0, 95.0), (64.0, 3.0), (128.0, 2.0)],
        );
        let d = merge(&[detail, main], "db file sequential read").unwrap();
        assert_eq!(
            pcts(&d),
            vec![
                (1.0, 20.0),
                (2.0, 10.0),
                (4.0, 10.0),
                (8.0, 30.0),
                (16.0, 20.0),
                (32.0, 5.0),
                (64.0, 3.0),
                (128.0, 2.0),
                (1024.0, 0.0),
                (MAX, 0.0),
            ]
        );
        assert!((d.pct_above(32.0) - 5.0).abs() < 1e-9);
        assert_eq!(d.to_row().src.line, 20);
    }

    #[test]
    fn an_interval_no_table_prints_alone_comes_from_the_cumulative_points() {
        // Table a: 16 ms and 64 ms bounds; table b: 32 ms. (16, 32] and
        // (32, 64] are printed by neither alone. F(16) = 40 (a, one cell
        // from below), F(32) = 70 (b: one cell from below, or two from
        // above: 100 - 20 - 10), F(64) = 90 (a: one cell from above).
        let a = row(
            "x",
            Some(10.0),
            1,
            &[(16.0, 40.0), (64.0, 50.0), (MAX, 10.0)],
        );
        let b = row("x", None, 2, &[(32.0, 70.0), (MAX, 30.0)]);
        let d = merge(&[a, b], "x").unwrap();
        assert_eq!(
            pcts(&d),
            vec![(16.0, 40.0), (32.0, 30.0), (64.0, 20.0), (MAX, 10.0)]
        );
    }

    #[test]
    fn rounding_never_makes_a_bucket_negative() {
        // F(32) = 99.6 from table b, F(48) = 99.5 from table a (one cell
        // from above each): the later point is lifted to 99.6 and the
        // (32, 48] bucket is 0, not -0.1.
        let a = row("x", Some(10.0), 1, &[(16.0, 90.0), (48.0, 9.5), (MAX, 0.5)]);
        let b = row("x", None, 2, &[(32.0, 99.6), (MAX, 0.4)]);
        let d = merge(&[a, b], "x").unwrap();
        assert!(d.buckets.iter().all(|b| b.pct >= 0.0), "{:?}", d.buckets);
        assert_eq!(
            pcts(&d),
            vec![(16.0, 90.0), (32.0, 9.6), (48.0, 0.0), (MAX, 0.5)]
        );
    }

    #[test]
    fn a_row_that_is_not_a_share_of_all_waits_is_left_out_with_a_warning() {
        let good = row("x", Some(10.0), 1, &[(1.0, 50.0), (MAX, 50.0)]);
        let bad = row("x", None, 7, &[(1.0, 50.0), (2.0, 10.0), (MAX, 10.0)]);
        let d = merge(&[good, bad], "x").unwrap();
        assert_eq!(d.rows.len(), 1);
        assert_eq!(d.warnings.len(), 1);
        assert!(d.warnings[0].contains("line 7"), "{}", d.warnings[0]);
        assert_eq!(pcts(&d), vec![(1.0, 50.0), (MAX, 50.0)]);
        assert!(merge(&[], "x").is_none());
        let nan = row("y", None, 3, &[(1.0, f64::NAN)]);
        assert!(merge(&[nan], "y").is_none());
    }
}
