//! The report's tables, defined once for the Markdown and terminal renderers
//! (the HTML templates lay out the same columns with their own markup).

use crate::view::{EvidenceView, FlashCacheView, SrcView, StepView, View};

/// One table cell: text from the view, and where its number came from.
#[derive(Debug, Clone, Default)]
pub struct Cell {
    pub text: String,
    pub src: Option<SrcView>,
    /// How a number without a source was derived.
    pub derived: Option<String>,
}

impl From<&str> for Cell {
    fn from(s: &str) -> Self {
        Cell {
            text: s.to_string(),
            ..Cell::default()
        }
    }
}

impl From<&String> for Cell {
    fn from(s: &String) -> Self {
        Cell::from(s.as_str())
    }
}

fn traced(text: &str, src: &Option<SrcView>) -> Cell {
    Cell {
        text: text.to_string(),
        src: src.clone(),
        derived: None,
    }
}

#[derive(Debug, Clone)]
pub struct Table {
    pub headers: Vec<&'static str>,
    /// Right-aligned (numeric) columns.
    pub right: Vec<bool>,
    pub rows: Vec<Vec<Cell>>,
}

impl Table {
    /// `(header, right-aligned)` per column.
    fn new(cols: &[(&'static str, bool)]) -> Self {
        Table {
            headers: cols.iter().map(|c| c.0).collect(),
            right: cols.iter().map(|c| c.1).collect(),
            rows: Vec::new(),
        }
    }

    /// The columns `keep`, in that order (a narrower table for the terminal).
    pub fn keep(&self, keep: &[usize]) -> Table {
        let pick = |i: &usize| *i < self.headers.len();
        Table {
            headers: keep
                .iter()
                .filter(|i| pick(i))
                .filter_map(|i| self.headers.get(*i).copied())
                .collect(),
            right: keep
                .iter()
                .filter(|i| pick(i))
                .filter_map(|i| self.right.get(*i).copied())
                .collect(),
            rows: self
                .rows
                .iter()
                .map(|r| {
                    keep.iter()
                        .filter(|i| pick(i))
                        .map(|i| r.get(*i).cloned().unwrap_or_default())
                        .collect()
                })
                .collect(),
        }
    }
}

pub fn identity(v: &View) -> Table {
    let mut t = Table::new(&[("Field", false), ("Value", false)]);
    for (k, val) in &v.identity {
        t.rows.push(vec![k.into(), val.into()]);
    }
    t
}

pub fn inputs(v: &View) -> Table {
    let mut t = Table::new(&[("File", false), ("Format", false), ("Kind", false)]);
    for i in &v.inputs {
        t.rows
            .push(vec![(&i.path).into(), (&i.format).into(), (&i.kind).into()]);
    }
    t
}

/// Columns: File, Format, Used, Why.
pub fn attachments(v: &View) -> Table {
    let mut t = Table::new(&[
        ("File", false),
        ("Format", false),
        ("Used", false),
        ("Why", false),
    ]);
    for a in &v.attachments {
        t.rows.push(vec![
            (&a.path).into(),
            (&a.format).into(),
            (&a.used).into(),
            (&a.reason).into(),
        ]);
    }
    t
}

/// Columns: #, Option, Key, Device, DB time now, DB time after, Gain,
/// Response time (ratio), Bound, Throughput cap, Flash capacity.
pub fn options(v: &View) -> Table {
    let mut t = Table::new(&[
        ("#", true),
        ("Option", false),
        ("Key", false),
        ("Device", false),
        ("DB time now", true),
        ("DB time after", true),
        ("Gain", true),
        ("Response time", true),
        ("Bound", false),
        ("Throughput cap", true),
        ("Flash capacity", true),
    ]);
    for o in &v.options {
        let title = if o.best {
            format!("{} (best)", o.title)
        } else {
            o.title.clone()
        };
        t.rows.push(vec![
            o.rank.to_string().as_str().into(),
            (&title).into(),
            (&o.key).into(),
            (&o.device).into(),
            (&o.before).into(),
            (&o.after).into(),
            (&o.gain).into(),
            (&o.response_ratio).into(),
            (&o.bound).into(),
            o.cap.as_deref().unwrap_or("none").into(),
            o.capacity.as_deref().unwrap_or(crate::fmt::NA).into(),
        ]);
    }
    t
}

pub fn steps(steps: &[StepView]) -> Table {
    let mut t = Table::new(&[
        ("Wait affected", false),
        ("Waits", true),
        ("Share moved", true),
        ("Avg now", true),
        ("Avg after", true),
        ("Saved", true),
    ]);
    for s in steps {
        t.rows.push(vec![
            traced(&s.component, &s.src),
            (&s.waits).into(),
            (&s.share).into(),
            (&s.current).into(),
            (&s.new).into(),
            (&s.saved).into(),
        ]);
    }
    t
}

pub fn evidence(rows: &[EvidenceView], what: &'static str) -> Table {
    let mut t = Table::new(&[(what, false), ("Value", true)]);
    for e in rows {
        t.rows.push(vec![
            (&e.label).into(),
            Cell {
                text: e.value.clone(),
                src: e.src.clone(),
                derived: if e.src.is_none() {
                    e.derived.clone()
                } else {
                    None
                },
            },
        ]);
    }
    t
}

pub fn breakdown(v: &View) -> Table {
    let mut t = Table::new(&[
        ("Component", false),
        ("Now", true),
        ("Share now", true),
        ("After", true),
    ]);
    for r in &v.breakdown {
        t.rows.push(vec![
            r.component.into(),
            (&r.before).into(),
            (&r.before_pct).into(),
            (&r.after).into(),
        ]);
    }
    t
}

/// Columns: #, Segment, Type, Tablespace, Read requests, % of reads,
/// Cumulative, Writes, Size, Capacity used, Req/s per GB, Fits budget.
pub fn segments(v: &View) -> Table {
    let mut t = Table::new(&[
        ("#", true),
        ("Segment", false),
        ("Type", false),
        ("Tablespace", false),
        ("Read requests", true),
        ("% of reads", true),
        ("Cumulative", true),
        ("Writes", true),
        ("Size", true),
        ("Capacity used", true),
        ("Req/s per GB", true),
        ("Fits budget", false),
        ("DB time saved", true),
        ("Saved per GB", true),
    ]);
    for s in &v.segments {
        t.rows.push(vec![
            (&s.rank).into(),
            traced(&s.name, &s.src),
            (&s.object_type).into(),
            (&s.tablespace).into(),
            (&s.reads).into(),
            (&s.pct).into(),
            (&s.cumulative).into(),
            (&s.writes).into(),
            (&s.size).into(),
            (&s.cumulative_size).into(),
            (&s.density).into(),
            (&s.fits).into(),
            (&s.saved).into(),
            (&s.saved_per_gb).into(),
        ]);
    }
    t
}

pub fn curve(fc: &FlashCacheView) -> Table {
    let mut t = Table::new(&[
        ("Flash cache size", true),
        ("x buffer cache", true),
        ("Est. read factor", true),
        ("Reads vs today", true),
        ("Projected DB time", true),
        ("SGA cost", true),
    ]);
    for p in &fc.points {
        t.rows.push(vec![
            (&p.size).into(),
            (&p.multiple).into(),
            (&p.read_factor).into(),
            (&p.read_change).into(),
            (&p.db_time).into(),
            (&p.sga_cost).into(),
        ]);
    }
    t
}

/// Columns: Tablespace, File, Reads, Reads/s, Avg read, Blocks/read,
/// 1-block reads/s, Avg 1-block read, Writes, Writes/s, Buffer waits, Avg buffer wait.
pub fn tablespaces(v: &View) -> Table {
    let mut t = Table::new(&[
        ("Tablespace", false),
        ("File", false),
        ("Reads", true),
        ("Reads/s", true),
        ("Avg read", true),
        ("Blocks/read", true),
        ("1-block reads/s", true),
        ("Avg 1-block read", true),
        ("Writes", true),
        ("Writes/s", true),
        ("Buffer waits", true),
        ("Avg buffer wait", true),
    ]);
    for r in &v.tablespaces {
        t.rows.push(vec![
            traced(&r.tablespace, &r.src),
            (&r.file).into(),
            (&r.reads).into(),
            (&r.reads_s).into(),
            (&r.avg_read).into(),
            (&r.blocks_per_read).into(),
            (&r.one_block_s).into(),
            (&r.one_block_ms).into(),
            (&r.writes).into(),
            (&r.writes_s).into(),
            (&r.buffer_waits).into(),
            (&r.buffer_wait_ms).into(),
        ]);
    }
    t
}

/// Columns: Device, Role, Samples, IOPS, MB/s, await ms, %util (each
/// mean / p95 / max), Stands out.
pub fn devices(v: &View) -> Table {
    let mut t = Table::new(&[
        ("Device", false),
        ("Role", false),
        ("Samples", true),
        ("IOPS mean / p95 / max", true),
        ("MB/s mean / p95 / max", true),
        ("await ms mean / p95 / max", true),
        ("%util mean / p95 / max", true),
        ("Stands out", false),
    ]);
    for d in &v.devices {
        t.rows.push(vec![
            (&d.device).into(),
            (&d.role).into(),
            (&d.samples).into(),
            (&d.iops).into(),
            (&d.mb_s).into(),
            (&d.await_ms).into(),
            (&d.util).into(),
            (&d.callouts.join("; ")).into(),
        ]);
    }
    t
}

/// Columns: Interval end, Elapsed, DB time, Avg active sessions, IOPS, MB/s,
/// Redo MB/s, File.
pub fn series(v: &View) -> Table {
    let mut t = Table::new(&[
        ("Interval end", false),
        ("Elapsed", true),
        ("DB time", true),
        ("Avg active sessions", true),
        ("IOPS", true),
        ("MB/s", true),
        ("Redo MB/s", true),
        ("File", false),
    ]);
    for p in &v.series {
        let label = if p.peak {
            format!("{} (peak)", p.label)
        } else {
            p.label.clone()
        };
        t.rows.push(vec![
            (&label).into(),
            (&p.elapsed).into(),
            (&p.db_time).into(),
            (&p.aas).into(),
            (&p.iops).into(),
            (&p.mb_s).into(),
            (&p.redo_mb_s).into(),
            (&p.path).into(),
        ]);
    }
    t
}

/// The trend over the report intervals: whole window, p95 and peak per
/// metric.
pub fn trend(v: &View) -> Table {
    let mut t = Table::new(&[
        ("Metric", false),
        ("Unit", false),
        ("Whole window", true),
        ("p95", true),
        ("Peak", true),
        ("Peak interval", false),
    ]);
    for m in &v.trend {
        t.rows.push(vec![
            (&m.metric).into(),
            (&m.unit).into(),
            (&m.whole_window).into(),
            (&m.p95).into(),
            (&m.peak).into(),
            (&m.peak_at).into(),
        ]);
    }
    t
}

/// The window's facts: what and value.
pub fn window_facts(v: &View) -> Table {
    let mut t = Table::new(&[("Figure", false), ("Value", false)]);
    for (k, val) in v.window.iter().flat_map(|w| &w.facts) {
        t.rows.push(vec![k.into(), val.into()]);
    }
    t
}

/// Columns: Interval, Elapsed, DB time, Saved, Saved %, Class, Signal,
/// Bound.
pub fn window_intervals(v: &View) -> Table {
    let mut t = Table::new(&[
        ("Interval", false),
        ("Elapsed", true),
        ("DB time", true),
        ("Saved", true),
        ("Saved %", true),
        ("Class", false),
        ("Signal", false),
        ("Bound", false),
    ]);
    for i in v.window.iter().flat_map(|w| &w.intervals) {
        let label = if i.analysed {
            format!("{} (analysed)", i.label)
        } else {
            i.label.clone()
        };
        t.rows.push(vec![
            (&label).into(),
            (&i.elapsed).into(),
            (&i.db_time).into(),
            (&i.saved).into(),
            (&i.saved_pct).into(),
            (&i.class).into(),
            (&i.signal).into(),
            (&i.bound).into(),
        ]);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keep_picks_columns_in_order_and_skips_unknown_ones() {
        let mut t = Table::new(&[("a", false), ("b", true), ("c", false)]);
        t.rows.push(vec!["1".into(), "2".into(), "3".into()]);
        let k = t.keep(&[2, 0, 9]);
        assert_eq!(k.headers, vec!["c", "a"]);
        assert_eq!(k.right, vec![false, false]);
        assert_eq!(k.rows[0][0].text, "3");
        assert_eq!(k.rows[0].len(), 2);
    }
}
