//! The comparison's content, ordered and formatted once for every renderer
//! (raw text: each renderer escapes for its medium). Footnotes number the
//! source rows in the order they first appear.

use awrflash_model::{Comparison, EvidenceSrc};

use crate::fmt;
use crate::tables::{Cell, Table};
use crate::view::{Footnote, Notes};

/// The text of a figure on one side, with the footnote of its first row
/// and how many more rows it rests on.
fn cell(text: String, src: &[EvidenceSrc], notes: &mut Notes) -> Cell {
    let first = src.first().map(|s| notes.add(&s.path, &s.section, s.line));
    Cell {
        text,
        src: first,
        derived: None,
    }
}

/// A change in percent with its sign: `+12.0%`, `-45.3%`.
pub fn change(p: Option<f64>) -> String {
    match p {
        Some(p) if p > 0.0 => format!("+{}", fmt::pct(p)),
        Some(p) => fmt::pct(p),
        None => fmt::NA.to_string(),
    }
}

fn value(v: Option<f64>, unit: &str) -> String {
    v.map_or_else(|| fmt::NA.to_string(), |v| fmt::with_unit(v, unit))
}

/// Human name of a breakdown component key.
pub fn component_name(key: &str) -> &str {
    match key {
        "cpu" => "CPU",
        "single_block_read" => "single-block read",
        "multiblock_read" => "multiblock read",
        "temp_io" => "temp I/O",
        "write_wait" => "write waits",
        "commit" => "commit (log file sync)",
        "flash_cache_read" => "flash cache read",
        "other" => "other",
        k => k,
    }
}

pub struct HistView {
    pub event: String,
    pub labels: Vec<String>,
    pub before: Vec<f64>,
    pub after: Vec<f64>,
    pub table: Table,
    pub le_1ms: String,
}

pub struct CompareView {
    pub title: String,
    pub summary: String,
    pub window: String,
    pub sides: Table,
    pub figures: Table,
    pub waits: Table,
    pub histograms: Vec<HistView>,
    pub breakdown: Table,
    pub changes: Vec<(String, String, Option<String>)>,
    pub check: Option<CheckView>,
    pub drift: String,
    pub confounded: bool,
    pub notes: Vec<String>,
    pub footnotes: Vec<Footnote>,
}

pub struct CheckView {
    pub verdict: String,
    pub option: String,
    pub key: String,
    pub chosen_because: String,
    pub table: Table,
    pub reasons: Vec<String>,
}

fn table(cols: &[(&'static str, bool)]) -> Table {
    Table {
        headers: cols.iter().map(|c| c.0).collect(),
        right: cols.iter().map(|c| c.1).collect(),
        rows: Vec::new(),
    }
}

pub fn title(c: &Comparison) -> String {
    let d = &c.database;
    let mut s = d.db_name.clone().unwrap_or_else(|| "database".into());
    if let Some(id) = d.dbid {
        s.push_str(&format!(" (DBID {id}"));
        if !d.instances.is_empty() {
            s.push_str(&format!(", {}", d.instances.join(", ")));
        }
        s.push(')');
    }
    s
}

pub fn build(c: &Comparison) -> CompareView {
    let mut notes = Notes::default();
    let mut sides = table(&[("", false), ("Before", false), ("After", false)]);
    let win = |s: &awrflash_model::WindowSide| {
        format!(
            "{} to {}",
            s.begin_time.as_deref().unwrap_or(fmt::NA),
            s.end_time.as_deref().unwrap_or(fmt::NA)
        )
    };
    let text = |s: &str| Cell::from(s);
    sides.rows.push(vec![
        text("Intervals compared"),
        text(&format!(
            "{} of {}",
            c.before.intervals_used, c.before.intervals
        )),
        text(&format!(
            "{} of {}",
            c.after.intervals_used, c.after.intervals
        )),
    ]);
    sides.rows.push(vec![
        text("Window"),
        text(&win(&c.before)),
        text(&win(&c.after)),
    ]);
    sides.rows.push(vec![
        text("Elapsed"),
        text(&fmt::duration(c.before.elapsed_s)),
        text(&fmt::duration(c.after.elapsed_s)),
    ]);
    let o = |v: &Option<String>| v.clone().unwrap_or_else(|| fmt::NA.to_string());
    sides.rows.push(vec![
        text("Host"),
        text(&o(&c.before.host)),
        text(&o(&c.after.host)),
    ]);
    sides.rows.push(vec![
        text("Release"),
        text(&o(&c.before.release)),
        text(&o(&c.after.release)),
    ]);

    let mut figures = table(&[
        ("Figure", false),
        ("Before", true),
        ("After", true),
        ("Change", true),
    ]);
    for f in &c.figures {
        let mut label = Cell::from(&f.label);
        label.derived = f.derived.clone();
        figures.rows.push(vec![
            label,
            cell(value(f.before, &f.unit), &f.before_src, &mut notes),
            cell(value(f.after, &f.unit), &f.after_src, &mut notes),
            Cell::from(change(f.change_pct).as_str()),
        ]);
    }

    let mut waits = table(&[
        ("Wait", false),
        ("Avg before", true),
        ("Avg after", true),
        ("Change", true),
        ("Waits/s before", true),
        ("Waits/s after", true),
        ("% DB time before", true),
        ("% DB time after", true),
    ]);
    for w in &c.waits {
        let side = |f: &Option<awrflash_model::WaitFigures>, notes: &mut Notes| {
            f.as_ref().map_or_else(
                || Cell::from("none"),
                |f| cell(fmt::ms(f.avg_ms), &f.src, notes),
            )
        };
        let get = |f: &Option<awrflash_model::WaitFigures>,
                   g: fn(&awrflash_model::WaitFigures) -> Option<f64>,
                   u: &str| {
            Cell::from(
                f.as_ref()
                    .map_or("none".to_string(), |f| {
                        g(f).map_or_else(|| fmt::NA.to_string(), |v| fmt::with_unit(v, u))
                    })
                    .as_str(),
            )
        };
        waits.rows.push(vec![
            Cell::from(&w.event),
            side(&w.before, &mut notes),
            side(&w.after, &mut notes),
            Cell::from(change(w.avg_change_pct).as_str()),
            get(&w.before, |f| Some(f.waits_per_s), ""),
            get(&w.after, |f| Some(f.waits_per_s), ""),
            get(&w.before, |f| f.pct_db_time, "%"),
            get(&w.after, |f| f.pct_db_time, "%"),
        ]);
    }

    let mut histograms = Vec::new();
    for w in &c.waits {
        let Some(h) = &w.histogram else { continue };
        let mut t = table(&[("Latency", false), ("Before", true), ("After", true)]);
        let first_b = h
            .before_src
            .first()
            .map(|s| notes.add(&s.path, &s.section, s.line));
        let first_a = h
            .after_src
            .first()
            .map(|s| notes.add(&s.path, &s.section, s.line));
        for b in &h.buckets {
            t.rows.push(vec![
                Cell::from(&b.label),
                Cell {
                    text: fmt::opt(b.before_pct, fmt::pct),
                    src: first_b.clone(),
                    derived: None,
                },
                Cell {
                    text: fmt::opt(b.after_pct, fmt::pct),
                    src: first_a.clone(),
                    derived: None,
                },
            ]);
        }
        histograms.push(HistView {
            event: w.event.clone(),
            labels: h.buckets.iter().map(|b| b.label.clone()).collect(),
            before: h
                .buckets
                .iter()
                .map(|b| b.before_pct.unwrap_or(0.0))
                .collect(),
            after: h
                .buckets
                .iter()
                .map(|b| b.after_pct.unwrap_or(0.0))
                .collect(),
            table: t,
            le_1ms: format!(
                "waits at or below 1 ms: {} before, {} after",
                fmt::opt(h.le_1ms_before_pct, fmt::pct),
                fmt::opt(h.le_1ms_after_pct, fmt::pct)
            ),
        });
    }

    let projected = c.breakdown.iter().any(|b| b.projected_ms_per_txn.is_some());
    let mut breakdown = if projected {
        table(&[
            ("Component", false),
            ("Before ms/txn", true),
            ("After ms/txn", true),
            ("Projected ms/txn", true),
        ])
    } else {
        table(&[
            ("Component", false),
            ("Before ms/txn", true),
            ("After ms/txn", true),
        ])
    };
    for b in &c.breakdown {
        let mut row = vec![
            Cell::from(component_name(&b.component)),
            Cell::from(fmt::ms(b.before_ms_per_txn).as_str()),
            Cell::from(fmt::ms(b.after_ms_per_txn).as_str()),
        ];
        if projected {
            row.push(Cell::from(
                fmt::opt(b.projected_ms_per_txn, fmt::ms).as_str(),
            ));
        }
        breakdown.rows.push(row);
    }

    let check = c.projection_check.as_ref().map(|p| {
        let mut t = table(&[("", false), ("DB time per transaction", true)]);
        let range = if fmt::pct(p.projected_gain_pct_low) == fmt::pct(p.projected_gain_pct_high) {
            format!("-{}", fmt::pct(p.projected_gain_pct_low))
        } else {
            format!(
                "-{} to -{}",
                fmt::pct(p.projected_gain_pct_low),
                fmt::pct(p.projected_gain_pct_high)
            )
        };
        t.rows
            .push(vec![Cell::from("Projected"), Cell::from(range.as_str())]);
        t.rows.push(vec![
            Cell::from("Measured"),
            Cell::from(change(Some(-p.measured_gain_pct)).as_str()),
        ]);
        t.rows.push(vec![
            Cell::from("Error (points)"),
            Cell::from(
                if p.within_range {
                    "0 (within the range)".to_string()
                } else {
                    fmt::num(p.error_pct_points)
                }
                .as_str(),
            ),
        ]);
        t.rows.push(vec![
            Cell::from("Bound named by the projection"),
            Cell::from(p.projected_bound.as_str()),
        ]);
        CheckView {
            verdict: p.verdict.clone(),
            option: format!("{} on {}", p.option_title, p.device),
            key: p.option_key.clone(),
            chosen_because: p.chosen_because.clone(),
            table: t,
            reasons: p.reasons.clone(),
        }
    });

    CompareView {
        title: title(c),
        summary: c.summary.clone(),
        window: format!(
            "{} ({})",
            c.window.choice.replace('-', " "),
            c.window.reason
        ),
        sides,
        figures,
        waits,
        histograms,
        breakdown,
        changes: c
            .storage_changes
            .iter()
            .map(|s| (s.title.clone(), s.because.clone(), s.option_key.clone()))
            .collect(),
        check,
        drift: c.drift.message.clone(),
        confounded: c.drift.confounded,
        notes: c.notes.clone(),
        footnotes: notes.list,
    }
}
