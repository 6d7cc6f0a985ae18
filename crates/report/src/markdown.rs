//! GitHub-flavoured Markdown: the HTML report's content without the charts.
//!
//! Text from the inputs is escaped ([`md`]) so that it renders as text, never
//! as HTML, links or table structure; SQL goes into fenced blocks whose fence
//! is longer than any backtick run inside.

use std::fmt::Write as _;

use awrflash_model::Analysis;

use crate::view::{self, EvidenceView, SrcView, StepView, View};

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
fn para(s: &str) -> String {
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

/// A GFM table; `right[i]` aligns column `i` to the right.
fn table(out: &mut String, headers: &[&str], right: &[bool], rows: &[Vec<String>]) {
    let _ = writeln!(out, "| {} |", headers.join(" | "));
    let seps: Vec<&str> = (0..headers.len())
        .map(|i| {
            if right.get(i).copied().unwrap_or(false) {
                "---:"
            } else {
                "---"
            }
        })
        .collect();
    let _ = writeln!(out, "| {} |", seps.join(" | "));
    for r in rows {
        let _ = writeln!(out, "| {} |", r.join(" | "));
    }
    out.push('\n');
}

fn note(src: &Option<SrcView>) -> String {
    src.as_ref()
        .map_or(String::new(), |s| format!("[^{}]", s.n))
}

fn value(e: &EvidenceView) -> String {
    match (&e.src, &e.derived) {
        (Some(_), _) => format!("{}{}", md(&e.value), note(&e.src)),
        (None, Some(d)) => format!("{} (derived: {})", md(&e.value), md(d)),
        (None, None) => md(&e.value),
    }
}

fn evidence_table(out: &mut String, what: &str, rows: &[EvidenceView]) {
    let rows: Vec<Vec<String>> = rows.iter().map(|e| vec![md(&e.label), value(e)]).collect();
    table(out, &[what, "Value"], &[false, true], &rows);
}

fn steps_table(out: &mut String, steps: &[StepView]) {
    let rows: Vec<Vec<String>> = steps
        .iter()
        .map(|s| {
            vec![
                format!("{}{}", md(&s.component), note(&s.src)),
                md(&s.waits),
                md(&s.share),
                md(&s.current),
                md(&s.new),
                md(&s.saved),
            ]
        })
        .collect();
    table(
        out,
        &[
            "Wait affected",
            "Waits",
            "Share moved",
            "Avg now",
            "Avg after",
            "Saved",
        ],
        &[false, true, true, true, true, true],
        &rows,
    );
}

fn absent(out: &mut String, what: &str) {
    let _ = writeln!(out, "_{what}: not in the inputs._\n");
}

pub fn render(a: &Analysis) -> String {
    let v = view::build(a);
    let mut o = String::new();
    head(&mut o, &v);
    options(&mut o, &v);
    breakdown(&mut o, &v);
    findings(&mut o, &v);
    segments(&mut o, &v);
    flash_cache(&mut o, &v);
    exhibits(&mut o, &v);
    tail(&mut o, &v);
    o
}

fn head(o: &mut String, v: &View) {
    let _ = writeln!(o, "# awrflash report: {}\n", md(&v.db_label));
    let _ = writeln!(o, "## Verdict\n");
    let _ = writeln!(o, "**{}**\n", md(&v.summary));
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
    let _ = writeln!(o, "## Database\n");
    let rows: Vec<Vec<String>> = v
        .identity
        .iter()
        .map(|(k, val)| vec![md(k), md(val)])
        .collect();
    table(o, &["Field", "Value"], &[false, false], &rows);
    if !v.inputs.is_empty() {
        let _ = writeln!(o, "### Inputs used\n");
        let rows: Vec<Vec<String>> = v
            .inputs
            .iter()
            .map(|i| vec![md(&i.path), md(&i.format), md(&i.kind)])
            .collect();
        table(
            o,
            &["File", "Format", "Kind"],
            &[false, false, false],
            &rows,
        );
    }
}

fn options(o: &mut String, v: &View) {
    let _ = writeln!(o, "## Options, ranked by projected gain\n");
    if v.options.is_empty() {
        absent(o, "Projected options");
        return;
    }
    let rows: Vec<Vec<String>> = v
        .options
        .iter()
        .map(|op| {
            vec![
                op.rank.to_string(),
                if op.best {
                    format!("**{}** (best)", md(&op.title))
                } else {
                    md(&op.title)
                },
                md(&op.key),
                md(&op.device),
                md(&op.before),
                md(&op.after),
                md(&op.gain),
                md(&op.bound),
                op.cap.as_deref().map_or("none".into(), md),
                op.capacity.as_deref().map_or("n/a".into(), md),
            ]
        })
        .collect();
    table(
        o,
        &[
            "#",
            "Option",
            "Key",
            "Device",
            "DB time now",
            "DB time after",
            "Gain",
            "Bound",
            "Throughput cap",
            "Flash capacity",
        ],
        &[
            true, false, false, false, true, true, false, false, true, true,
        ],
        &rows,
    );
    for op in &v.options {
        if op.notes.is_empty() && op.steps.is_empty() {
            continue;
        }
        let _ = writeln!(o, "### {}. {}\n", op.rank, md(&op.title));
        for n in &op.notes {
            let _ = writeln!(o, "{}\n", para(n));
        }
        if !op.steps.is_empty() {
            steps_table(o, &op.steps);
        }
    }
}

fn breakdown(o: &mut String, v: &View) {
    let _ = writeln!(o, "## DB time, now and after the best option\n");
    if v.breakdown.is_empty() {
        absent(o, "DB time breakdown");
        return;
    }
    if let Some(t) = &v.breakdown_after_title {
        let _ = writeln!(o, "Best option: {}\n", md(t));
    }
    let rows: Vec<Vec<String>> = v
        .breakdown
        .iter()
        .map(|r| {
            vec![
                md(r.component),
                md(&r.before),
                md(&r.before_pct),
                md(&r.after),
            ]
        })
        .collect();
    table(
        o,
        &["Component", "Now", "Share now", "After"],
        &[false, true, true, true],
        &rows,
    );
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
            evidence_table(o, "Evidence", &f.evidence);
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
                steps_table(o, &p.steps);
            }
        }
        if let Some(r) = &f.recommendation {
            let _ = writeln!(o, "**Recommendation:** {}\n", md(r));
        }
        for q in &f.sql {
            fenced(o, "sql", q);
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
    let rows: Vec<Vec<String>> = v
        .segments
        .iter()
        .map(|s| {
            vec![
                md(&s.rank),
                format!("{}{}", md(&s.name), note(&s.src)),
                md(&s.object_type),
                md(&s.tablespace),
                md(&s.reads),
                md(&s.pct),
                md(&s.cumulative),
                md(&s.writes),
                md(&s.size),
                md(&s.cumulative_size),
                md(&s.density),
                md(&s.fits),
            ]
        })
        .collect();
    table(
        o,
        &[
            "#",
            "Segment",
            "Type",
            "Tablespace",
            "Read requests",
            "% of reads",
            "Cumulative",
            "Writes",
            "Size",
            "Capacity used",
            "Req/s per GB",
            "Fits budget",
        ],
        &[
            true, false, false, false, true, true, true, true, true, true, true, false,
        ],
        &rows,
    );
    if let Some(n) = &v.segments_cumulative_note {
        let _ = writeln!(o, "Note: {}.\n", md(n));
    }
    if !v.segment_sql.is_empty() {
        let _ = writeln!(o, "### SQL to move them\n");
        fenced(o, "sql", &v.segment_sql.join("\n"));
    }
}

fn flash_cache(o: &mut String, v: &View) {
    let _ = writeln!(o, "## Database Smart Flash Cache\n");
    match &v.flash_cache {
        None => absent(o, "Flash cache sizing"),
        Some(fc) => {
            let mut line = if fc.recommended {
                "**Recommended**".to_string()
            } else {
                "**Not recommended**".to_string()
            };
            if let Some(s) = &fc.size {
                let _ = write!(line, ": size {}", md(s));
            }
            if let Some(s) = &fc.sga_cost {
                let _ = write!(line, ", SGA cost {}", md(s));
            }
            let _ = writeln!(o, "{line}. {}\n", md(&fc.reason));
            if let Some(fit) = &fc.fit {
                let _ = writeln!(o, "Curve fit: {}\n", md(fit));
            }
            if !fc.points.is_empty() {
                let rows: Vec<Vec<String>> = fc
                    .points
                    .iter()
                    .map(|p| {
                        vec![
                            md(&p.size),
                            md(&p.multiple),
                            md(&p.reads),
                            md(&p.db_time),
                            md(&p.sga_cost),
                        ]
                    })
                    .collect();
                table(
                    o,
                    &[
                        "Flash cache size",
                        "x buffer cache",
                        "Est. physical reads",
                        "Projected DB time",
                        "SGA cost",
                    ],
                    &[true; 5],
                    &rows,
                );
            }
            for q in &fc.sql {
                fenced(o, "sql", q);
            }
        }
    }
    let _ = writeln!(o, "### Flash cache statistics\n");
    if v.flash_stats.is_empty() {
        absent(o, "Flash cache statistics");
    } else {
        evidence_table(o, "Statistic", &v.flash_stats);
    }
}

fn exhibits(o: &mut String, v: &View) {
    let _ = writeln!(o, "## Redo\n");
    if v.redo.is_empty() {
        absent(o, "Redo figures");
    } else {
        evidence_table(o, "Figure", &v.redo);
    }

    let _ = writeln!(o, "## Wait latency histograms\n");
    if v.histograms.is_empty() {
        absent(o, "Wait Event Histogram");
    }
    for h in &v.histograms {
        let mut prev = None;
        let parts: Vec<String> = h
            .buckets
            .iter()
            .map(|b| {
                let l = view::bucket_label(b, prev);
                if b.le_ms.is_some() {
                    prev = b.le_ms;
                }
                format!("{} {}", md(&l), md(&crate::fmt::pct(b.pct)))
            })
            .collect();
        let _ = writeln!(
            o,
            "- **{}** ({} waits{}): {}",
            md(&h.event),
            md(&h.total_waits),
            note(&h.src),
            parts.join(", ")
        );
    }
    if !v.histograms.is_empty() {
        o.push('\n');
    }

    let _ = writeln!(o, "## Tablespace and file I/O\n");
    if v.tablespaces.is_empty() {
        absent(o, "Tablespace IO Stats");
    } else {
        let rows: Vec<Vec<String>> = v
            .tablespaces
            .iter()
            .map(|t| {
                vec![
                    format!("{}{}", md(&t.tablespace), note(&t.src)),
                    md(&t.file),
                    md(&t.reads),
                    md(&t.reads_s),
                    md(&t.avg_read),
                    md(&t.blocks_per_read),
                    md(&t.one_block_s),
                    md(&t.one_block_ms),
                    md(&t.writes),
                    md(&t.writes_s),
                    md(&t.buffer_waits),
                    md(&t.buffer_wait_ms),
                ]
            })
            .collect();
        let mut right = [true; 12];
        right[0] = false;
        right[1] = false;
        table(
            o,
            &[
                "Tablespace",
                "File",
                "Reads",
                "Reads/s",
                "Avg read",
                "Blocks/read",
                "1-block reads/s",
                "Avg 1-block read",
                "Writes",
                "Writes/s",
                "Buffer waits",
                "Avg buffer wait",
            ],
            &right,
            &rows,
        );
    }

    let _ = writeln!(o, "## Devices (iostat)\n");
    if v.devices.is_empty() {
        absent(o, "iostat capture");
    } else {
        let rows: Vec<Vec<String>> = v
            .devices
            .iter()
            .map(|d| {
                vec![
                    md(&d.device),
                    md(&d.role),
                    md(&d.samples),
                    md(&d.iops),
                    md(&d.mb_s),
                    md(&d.await_ms),
                    md(&d.util),
                    d.callouts
                        .iter()
                        .map(|c| md(c))
                        .collect::<Vec<_>>()
                        .join("; "),
                ]
            })
            .collect();
        table(
            o,
            &[
                "Device",
                "Role",
                "Samples",
                "IOPS mean / p95 / max",
                "MB/s mean / p95 / max",
                "await ms mean / p95 / max",
                "%util mean / p95 / max",
                "Stands out",
            ],
            &[false, false, true, true, true, true, true, false],
            &rows,
        );
    }

    let _ = writeln!(o, "## Over time\n");
    if v.series.len() < 2 {
        let _ = writeln!(
            o,
            "_Time series: not in the inputs (it needs two or more report intervals)._\n"
        );
    } else {
        let rows: Vec<Vec<String>> = v
            .series
            .iter()
            .map(|p| {
                vec![
                    if p.peak {
                        format!("{} (peak)", md(&p.label))
                    } else {
                        md(&p.label)
                    },
                    md(&p.elapsed),
                    md(&p.db_time),
                    md(&p.aas),
                    md(&p.iops),
                    md(&p.mb_s),
                    md(&p.redo_mb_s),
                    md(&p.path),
                ]
            })
            .collect();
        table(
            o,
            &[
                "Interval end",
                "Elapsed",
                "DB time",
                "Avg active sessions",
                "IOPS",
                "MB/s",
                "Redo MB/s",
                "File",
            ],
            &[false, true, true, true, true, true, true, false],
            &rows,
        );
    }
}

fn tail(o: &mut String, v: &View) {
    let _ = writeln!(o, "## Rules cited\n");
    if v.rules.is_empty() {
        let _ = writeln!(o, "_No rule fired._\n");
    }
    for r in &v.rules {
        let _ = writeln!(o, "### {}\n", md(&r.id));
        let cites = if r.citations.is_empty() {
            "none given".to_string()
        } else {
            r.citations
                .iter()
                .map(|c| md(c))
                .collect::<Vec<_>>()
                .join("; ")
        };
        let _ = writeln!(
            o,
            "{} ({}, {} finding{}): {}. Sources: {}. Full doc: `awrflash rules`.\n",
            md(&r.slug),
            r.severity.as_str(),
            r.findings,
            if r.findings == 1 { "" } else { "s" },
            md(&r.title),
            cites
        );
    }
    if !v.footnotes.is_empty() {
        let _ = writeln!(o, "## Sources of the numbers\n");
        for n in &v.footnotes {
            let _ = writeln!(o, "[^{}]: {}", n.n, md(&n.text));
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
