//! Renderers of an [`awrflash_model::Comparison`]: HTML (self-contained,
//! inline SVG before/after charts, the analysis page's CSS), Markdown, JSON
//! and terminal text, all from one [`view`].

mod charts;
mod html;
mod view;

use std::fmt::Write as _;

use awrflash_model::Comparison;

use crate::markdown as mdr;
use crate::text as txt;

pub use html::render as html;

/// The comparison as pretty JSON (`schema/comparison.schema.json`).
pub fn json(c: &Comparison) -> String {
    let mut s = serde_json::to_string_pretty(c).unwrap_or_default();
    s.push('\n');
    s
}

/// GitHub-flavoured Markdown: the HTML page's content without the charts.
pub fn markdown(c: &Comparison) -> String {
    let v = view::build(c);
    let md = mdr::md;
    let mut o = String::new();
    let _ = writeln!(o, "# awrflash comparison: {}\n", md(&v.title));
    let _ = writeln!(o, "{}\n", mdr::para(&v.summary));
    let _ = writeln!(o, "**Compared:** {}\n", md(&v.window));
    mdr::table(&mut o, &v.sides);
    let _ = writeln!(o, "## What changed in the storage\n");
    if v.changes.is_empty() {
        let _ = writeln!(o, "_No storage change shows in the figures._\n");
    }
    for (title, because, key) in &v.changes {
        let k = key.as_ref().map_or(String::new(), |k| {
            format!(" (option `{}`)", k.replace('`', "'"))
        });
        let _ = writeln!(o, "- **{}**{k}: {}", md(title), md(because));
    }
    o.push('\n');
    let _ = writeln!(o, "## Projected and measured\n");
    match &v.check {
        Some(ch) => {
            let _ = writeln!(o, "{}\n", mdr::para(&ch.verdict));
            let _ = writeln!(
                o,
                "Option: {} (`{}`), taken because {}.\n",
                md(&ch.option),
                ch.key.replace('`', "'"),
                md(&ch.chosen_because)
            );
            mdr::table(&mut o, &ch.table);
            for r in &ch.reasons {
                let _ = writeln!(o, "- {}", md(r));
            }
            if !ch.reasons.is_empty() {
                o.push('\n');
            }
        }
        None => {
            let _ = writeln!(
                o,
                "_No detected change has an advisor option to check against._\n"
            );
        }
    }
    let _ = writeln!(o, "## Workload\n\n{}\n", mdr::para(&v.drift));
    let _ = writeln!(o, "## Measured figures\n");
    mdr::table(&mut o, &v.figures);
    if !v.breakdown.rows.is_empty() {
        let _ = writeln!(o, "## DB time per transaction by component\n");
        mdr::table(&mut o, &v.breakdown);
    }
    let _ = writeln!(o, "## Key waits\n");
    mdr::table(&mut o, &v.waits);
    for h in &v.histograms {
        let _ = writeln!(
            o,
            "### {}: latency histogram\n\n{}\n",
            md(&h.event),
            md(&h.le_1ms)
        );
        mdr::table(&mut o, &h.table);
    }
    if !v.notes.is_empty() {
        let _ = writeln!(o, "## Notes\n");
        for n in &v.notes {
            let _ = writeln!(o, "- {}", md(n));
        }
        o.push('\n');
    }
    if !v.footnotes.is_empty() {
        let _ = writeln!(o, "## Sources of the numbers\n");
        // Plain numbered notes, as in the analysis Markdown: the list's
        // numbers are the marks in the tables.
        for f in &v.footnotes {
            let _ = writeln!(o, "{}. {}", f.n, md(&f.short_text));
        }
    }
    o
}

/// Terminal text, 100 columns; ANSI colours when `color`.
pub fn text(c: &Comparison, color: bool) -> String {
    let v = view::build(c);
    let st = txt::Style {
        color,
        width: txt::WIDTH,
    };
    let ind = "  ";
    let mut o = String::new();
    let title = format!("awrflash comparison: {}", txt::clean(&v.title));
    let _ = writeln!(o, "{}", st.paint("1", &title));
    let _ = writeln!(o, "{}", "=".repeat(title.chars().count().min(txt::WIDTH)));
    txt::section(&mut o, &st, "Summary");
    txt::para(&mut o, &st, ind, &v.summary);
    txt::para(&mut o, &st, ind, &format!("Compared: {}", v.window));
    o.push('\n');
    txt::table(&mut o, &st, ind, &v.sides);
    txt::section(&mut o, &st, "What changed in the storage");
    if v.changes.is_empty() {
        txt::para(&mut o, &st, ind, "No storage change shows in the figures.");
    }
    for (title, because, key) in &v.changes {
        let k = key
            .as_ref()
            .map_or(String::new(), |k| format!(" (option {k})"));
        txt::para(&mut o, &st, ind, &format!("- {title}{k}: {because}"));
    }
    txt::section(&mut o, &st, "Projected and measured");
    match &v.check {
        Some(ch) => {
            txt::para(&mut o, &st, ind, &ch.verdict);
            txt::para(
                &mut o,
                &st,
                ind,
                &format!(
                    "Option: {} ({}), taken because {}.",
                    ch.option, ch.key, ch.chosen_because
                ),
            );
            txt::table(&mut o, &st, ind, &ch.table);
            for r in &ch.reasons {
                txt::para(&mut o, &st, ind, &format!("- {r}"));
            }
        }
        None => txt::para(
            &mut o,
            &st,
            ind,
            "No detected change has an advisor option to check against.",
        ),
    }
    txt::section(&mut o, &st, "Workload");
    txt::para(&mut o, &st, ind, &v.drift);
    txt::section(&mut o, &st, "Measured figures");
    txt::table(&mut o, &st, ind, &v.figures);
    if !v.breakdown.rows.is_empty() {
        txt::section(&mut o, &st, "DB time per transaction by component");
        txt::table(&mut o, &st, ind, &v.breakdown);
    }
    txt::section(&mut o, &st, "Key waits");
    let narrow = v.waits.keep(&[0, 1, 2, 3, 6, 7]);
    txt::table(&mut o, &st, ind, &narrow);
    for h in &v.histograms {
        let _ = writeln!(o);
        txt::para(&mut o, &st, ind, &format!("{}: {}", h.event, h.le_1ms));
        txt::table(&mut o, &st, ind, &h.table);
    }
    if !v.notes.is_empty() {
        txt::section(&mut o, &st, "Notes");
        for n in &v.notes {
            txt::para(&mut o, &st, ind, &format!("- {n}"));
        }
    }
    txt::section(&mut o, &st, "Sources");
    for f in &v.footnotes {
        txt::para(&mut o, &st, ind, &format!("[{}] {}", f.n, f.text));
    }
    o
}
