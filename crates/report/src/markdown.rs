//! GitHub-flavoured Markdown: the HTML report's content without the charts,
//! ready to paste into a ticket: file names without directories, sources as
//! plain numbered notes (`[3]` in the text, a numbered list at the end; no
//! footnote syntax, which many trackers do not render), and one SQL block per
//! finding. [`render_brief`] is the short form for a ticket comment.
//!
//! Text from the inputs is escaped ([`md`]) so that it renders as text, never
//! as HTML, links or table structure; SQL goes into fenced blocks whose fence
//! is longer than any backtick run inside.

use std::fmt::Write as _;

use awrflash_model::Analysis;

use crate::tables::{self, Cell, Table};
use crate::view::{self, SrcView, View};

/// Escapes text for a Markdown table cell or inline text: HTML, emphasis,
/// links, code spans, table pipes and GitHub's math (`$`) become literal text.
/// Text that starts a line goes through [`para`] instead.
pub fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\\' | '`' | '*' | '_' | '[' | ']' | '|' | '~' | '$' => {
                // ASCII punctuation: a backslash makes each one literal (CommonMark 2.4).
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Escapes text that starts a paragraph: also what would open a block there
/// (`-`, `+`, `#`, `=`, `1.`, `1)`).
pub(crate) fn para(s: &str) -> String {
    let e = md(s.trim_start());
    let digits = e.chars().take_while(char::is_ascii_digit).count();
    let after = e.chars().nth(digits);
    if e.starts_with(['-', '+', '#', '=']) {
        format!("\\{e}")
    } else if digits > 0 && matches!(after, Some('.') | Some(')')) {
        let (num, rest) = e.split_at(digits);
        format!("{num}\\{rest}")
    } else {
        e
    }
}

/// A fenced code block whose fence is longer than any backtick run in `code`.
fn fenced(out: &mut String, lang: &str, code: &str) {
    let mut longest = 0;
    let mut run = 0;
    for c in code.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest.max(2) + 1);
    let _ = writeln!(out, "{fence}{lang}");
    for line in code.lines() {
        let clean: String = line
            .chars()
            .map(|c| if c.is_control() && c != '\t' { ' ' } else { c })
            .collect();
        let _ = writeln!(out, "{clean}");
    }
    let _ = writeln!(out, "{fence}\n");
}

/// A GFM table.
pub(crate) fn table(out: &mut String, t: &Table) {
    table_of(out, t, cell);
}

/// A GFM table, each cell written by `cell`; a file column shows file names
/// only (the directories are of the machine the report was made on).
fn table_of(out: &mut String, t: &Table, cell: impl Fn(&Cell) -> String) {
    let file_col: Vec<bool> = t
        .headers
        .iter()
        .map(|h| matches!(*h, "File" | "Input"))
        .collect();
    let _ = writeln!(out, "| {} |", t.headers.join(" | "));
    let seps: Vec<&str> = t
        .right
        .iter()
        .map(|r| if *r { "---:" } else { "---" })
        .collect();
    let _ = writeln!(out, "| {} |", seps.join(" | "));
    for r in &t.rows {
        let cells: Vec<String> = r
            .iter()
            .zip(&file_col)
            .map(|(c, file)| {
                if *file {
                    cell(&Cell {
                        text: view::file_name(&c.text),
                        ..c.clone()
                    })
                } else {
                    cell(c)
                }
            })
            .collect();
        let _ = writeln!(out, "| {} |", cells.join(" | "));
    }
    out.push('\n');
}

/// A note mark, `[3]`, escaped so that it never becomes a link.
fn mark(n: usize) -> String {
    md(&format!("[{n}]"))
}

/// A cell's text, escaped, with its note number or how it was derived.
fn cell(c: &Cell) -> String {
    match (&c.src, &c.derived) {
        (Some(s), _) => format!("{} {}", md(&c.text), mark(s.n)),
        (None, Some(d)) => format!("{} (derived: {})", md(&c.text), md(d)),
        (None, None) => md(&c.text),
    }
}

fn note(src: &Option<SrcView>) -> String {
    src.as_ref()
        .map_or(String::new(), |s| format!(" {}", mark(s.n)))
}

fn absent(out: &mut String, what: &str) {
    let _ = writeln!(out, "_{what}: not in the inputs._\n");
}

pub fn render(a: &Analysis) -> String {
    let v = view::build(a);
    let mut o = String::new();
    head(&mut o, &v);
    options(&mut o, &v);
    findings(&mut o, &v);
    segments(&mut o, &v);
    exhibits(&mut o, &v);
    projections(&mut o, &v);
    tail(&mut o, &v);
    o
}

/// Findings the brief form lists, most severe first.
pub const BRIEF_FINDINGS: usize = 5;

/// The brief form for a ticket comment: verdict, the options, and the most
/// severe findings with their recommendations; no tables of evidence, SQL
/// or sources (they are in the full report).
pub fn render_brief(a: &Analysis) -> String {
    let v = view::build(a);
    let mut o = String::new();
    verdict(&mut o, &v);
    if !v.options.is_empty() {
        let _ = writeln!(o, "## Options, ranked by projected gain\n");
        // #, Option, DB time now, DB time after, Gain, Bound.
        plain_table(&mut o, &tables::options(&v).keep(&[0, 1, 4, 5, 6, 8]));
    }
    let shown = v.findings.len().min(BRIEF_FINDINGS);
    if shown > 0 {
        let _ = writeln!(o, "## Top findings ({shown} of {})\n", v.findings.len());
    }
    for (i, f) in v.findings.iter().take(BRIEF_FINDINGS).enumerate() {
        let _ = writeln!(
            o,
            "{}. **{} {}**: {}",
            i + 1,
            f.severity.as_str().to_uppercase(),
            md(&f.id),
            md(&f.title)
        );
        let _ = writeln!(o, "   {}", md(&f.message));
        if let Some(r) = &f.recommendation {
            let _ = writeln!(o, "   Recommendation: {}", md(r));
        }
    }
    if shown > 0 {
        o.push('\n');
    }
    let _ = writeln!(
        o,
        "_Evidence, SQL and the source of every number: the full awrflash report._"
    );
    o
}

/// A GFM table of the cells' text only (no note marks).
fn plain_table(out: &mut String, t: &Table) {
    table_of(out, t, |c| md(&c.text));
}

/// Title and verdict, shared by the full and the brief form.
fn verdict(o: &mut String, v: &View) {
    let _ = writeln!(o, "# awrflash report: {}\n", md(&v.db_label));
    let _ = writeln!(o, "## Verdict\n");
    let _ = writeln!(o, "**{}**\n", md(&v.summary));
    if !v.caveats.is_empty() {
        let _ = writeln!(o, "Read with care, the inputs say:\n");
        for c in &v.caveats {
            let _ = writeln!(o, "- {}", md(c));
        }
        let _ = writeln!(o);
    }
    let _ = writeln!(o, "- Expected gain: {}", md(&v.gain));
    let _ = writeln!(o, "- Limited by: {} ({})", md(&v.bound), md(&v.bound_note));
    if let Some(b) = &v.best_option {
        let _ = writeln!(o, "- Best option: {}", md(b));
    }
    let _ = writeln!(
        o,
        "- Findings: {} critical, {} warning, {} info\n",
        v.counts.critical, v.counts.warning, v.counts.info
    );
}

fn head(o: &mut String, v: &View) {
    verdict(o, v);
    let _ = writeln!(o, "## Database\n");
    table(o, &tables::identity(v));
    if !v.inputs.is_empty() {
        let _ = writeln!(o, "### Inputs used\n");
        table(o, &tables::inputs(v));
    }
    if !v.attachments.is_empty() {
        let _ = writeln!(o, "### Auxiliary inputs of the run\n");
        table(o, &tables::attachments(v));
    }
}

fn options(o: &mut String, v: &View) {
    let _ = writeln!(o, "## Options, ranked by projected gain\n");
    if v.options.is_empty() {
        absent(o, "Projected options");
    } else {
        table(o, &tables::options(v));
    }

    let _ = writeln!(o, "## DB time, now and after the best option\n");
    if v.breakdown.is_empty() {
        absent(o, "DB time breakdown");
        return;
    }
    if let Some(t) = &v.breakdown_after_title {
        let _ = writeln!(o, "Best option: {}\n", md(t));
    }
    table(o, &tables::breakdown(v));
}

fn findings(o: &mut String, v: &View) {
    let _ = writeln!(o, "## Findings\n");
    if v.findings.is_empty() {
        let _ = writeln!(o, "_No findings._\n");
    }
    for f in &v.findings {
        let _ = writeln!(
            o,
            "### {}: {}\n",
            f.severity.as_str().to_uppercase(),
            md(&f.title)
        );
        let slug = if f.slug.is_empty() {
            String::new()
        } else {
            format!(" {}", md(&f.slug))
        };
        let _ = writeln!(o, "Rule [{}](#{}){}\n", md(&f.id), md_anchor(&f.id), slug);
        let _ = writeln!(o, "{}\n", para(&f.message));
        if !f.evidence.is_empty() {
            table(o, &tables::evidence(&f.evidence, "Evidence"));
        }
        if let Some(p) = &f.projection {
            let cap = p
                .cap
                .as_deref()
                .map_or(String::new(), |c| format!("; throughput cap {}", md(c)));
            let _ = writeln!(
                o,
                "Projected DB time: {} now, {} after ({} less); response time ratio {}{}; bound: {}.\n",
                md(&p.before),
                md(&p.after),
                md(&p.gain),
                md(&p.response_ratio),
                cap,
                md(&p.bound)
            );
            if !p.steps.is_empty() {
                table(o, &tables::steps(&p.steps));
            }
        }
        if let Some(r) = &f.recommendation {
            let _ = writeln!(o, "**Recommendation:** {}\n", md(r));
        }
        if !f.sql.is_empty() {
            fenced(o, "sql", &f.sql.join("\n"));
        }
        if !f.citations.is_empty() {
            let c: Vec<String> = f.citations.iter().map(|c| md(c)).collect();
            let _ = writeln!(o, "Based on: {}\n", c.join("; "));
        }
    }
}

/// The anchor GitHub gives a heading that is just the rule id.
fn md_anchor(id: &str) -> String {
    id.chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

fn segments(o: &mut String, v: &View) {
    let _ = writeln!(o, "## Segments to move\n");
    if v.segments.is_empty() {
        absent(o, "Segment statistics");
        return;
    }
    table(o, &tables::segments(v));
    if let Some(n) = &v.segments_cumulative_note {
        let _ = writeln!(o, "Note: {}.\n", md(n));
    }
    if !v.segment_notes.is_empty() {
        for n in &v.segment_notes {
            let _ = writeln!(o, "- {}", md(n));
        }
        let _ = writeln!(o);
    }
    if !v.segment_sql.is_empty() {
        let _ = writeln!(o, "### SQL to move them\n");
        fenced(o, "sql", &v.segment_sql.join("\n"));
    }
}

fn exhibits(o: &mut String, v: &View) {
    let _ = writeln!(o, "## Database Smart Flash Cache\n");
    match &v.flash_cache {
        None => absent(o, "Flash cache sizing"),
        Some(fc) => {
            let _ = writeln!(
                o,
                "**{}**. {}\n",
                md(&crate::view::flash_cache_line(fc)),
                md(&fc.reason)
            );
            if let Some(fit) = &fc.fit {
                let _ = writeln!(o, "Curve fit: {}\n", md(fit));
            }
            if !fc.points.is_empty() {
                table(o, &tables::curve(fc));
            }
            if !fc.sql.is_empty() {
                fenced(o, "sql", &fc.sql.join("\n"));
            }
        }
    }
    let _ = writeln!(o, "### Flash cache statistics\n");
    if v.flash_stats.is_empty() {
        absent(o, "Flash cache statistics");
    } else {
        table(o, &tables::evidence(&v.flash_stats, "Statistic"));
    }

    let _ = writeln!(o, "## Redo\n");
    if v.redo.is_empty() {
        absent(o, "Redo figures");
    } else {
        table(o, &tables::evidence(&v.redo, "Figure"));
    }

    let _ = writeln!(o, "## Wait latency histograms\n");
    if v.histograms.is_empty() {
        absent(o, "Wait Event Histogram");
    }
    for h in &v.histograms {
        let _ = writeln!(
            o,
            "- **{}** ({}{}): {}{}",
            md(&h.event),
            md(&h.total_waits),
            note(&h.src),
            md(&h.summary),
            if h.shortenable.is_empty() {
                String::new()
            } else {
                format!("; {}", md(&h.shortenable))
            }
        );
    }
    if !v.histograms.is_empty() {
        o.push('\n');
    }
    if !v.histogram_note.is_empty() {
        let _ = writeln!(o, "{}\n", md(&v.histogram_note));
    }

    let _ = writeln!(o, "## Tablespace and file I/O\n");
    if v.tablespaces.is_empty() {
        absent(o, "Tablespace IO Stats");
    } else {
        table(o, &tables::tablespaces(v));
    }

    let _ = writeln!(o, "## Devices (iostat)\n");
    if v.devices.is_empty() {
        absent(o, "iostat capture");
    } else {
        table(o, &tables::devices(v));
    }

    let _ = writeln!(o, "## Over time\n");
    if v.series.len() < 2 {
        let _ = writeln!(
            o,
            "_Time series: not in the inputs (it needs two or more report intervals)._\n"
        );
    } else {
        table(o, &tables::series(v));
        if !v.trend.is_empty() {
            let _ = writeln!(
                o,
                "Trend: whole window (elapsed-weighted), p95 (nearest rank) and peak.\n"
            );
            table(o, &tables::trend(v));
        }
    }
    if v.window.is_some() {
        let _ = writeln!(
            o,
            "## Whole window
"
        );
        let _ = writeln!(
            o,
            "Each interval projected on its own with the window's move; the window's saving is the sum of the intervals'.\n"
        );
        table(o, &tables::window_facts(v));
        table(o, &tables::window_intervals(v));
    }
}

fn projections(o: &mut String, v: &View) {
    if v.options.is_empty() {
        return;
    }
    let _ = writeln!(o, "## Projection details\n");
    for op in &v.options {
        if op.notes.is_empty() && op.steps.is_empty() {
            continue;
        }
        let _ = writeln!(o, "### {}. {}\n", op.rank, md(&op.title));
        for n in &op.notes {
            let _ = writeln!(o, "{}\n", para(n));
        }
        if !op.steps.is_empty() {
            table(o, &tables::steps(&op.steps));
        }
    }
}

fn tail(o: &mut String, v: &View) {
    let _ = writeln!(o, "## Rules cited\n");
    if v.rules.is_empty() {
        let _ = writeln!(o, "_No rule fired._\n");
    }
    for r in &v.rules {
        let _ = writeln!(o, "### {}\n", md(&r.id));
        let _ = writeln!(
            o,
            "{} Full doc: `awrflash rules`.\n",
            md(&crate::view::rule_line(r))
        );
    }
    if !v.footnotes.is_empty() {
        let _ = writeln!(o, "## Sources of the numbers\n");
        // Numbered 1, 2, 3... in order, so the list's numbers are the marks'.
        for n in &v.footnotes {
            let _ = writeln!(o, "{}. {}", n.n, md(&n.short_text));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn md_escapes_html_and_table_structure() {
        let s = md("<script>alert(1)</script> | a_b *c*");
        assert!(!s.contains('<'));
        assert!(s.contains("&lt;script&gt;"));
        assert!(s.contains("\\|"));
        assert!(s.contains("a\\_b \\*c\\*"));
        assert_eq!(md("6.80 ms"), "6.80 ms");
    }

    #[test]
    fn paragraphs_do_not_open_blocks() {
        assert_eq!(para("- not a list"), "\\- not a list");
        assert_eq!(para("12. not a list"), "12\\. not a list");
        assert_eq!(para("# not a heading"), "\\# not a heading");
        assert_eq!(para("plain"), "plain");
    }

    #[test]
    fn fences_outgrow_backticks_in_the_code() {
        let mut o = String::new();
        fenced(&mut o, "sql", "select '```' from dual;");
        assert!(o.starts_with("````sql\n"));
        assert!(o.ends_with("````\n\n"));
    }
}
