//! Statspack reports (`spreport` output), 8i/9i-19c, levels 5 and 7.
//!
//! Input: the decoded text. Output: a [`DbReport`] with `source.format =
//! "statspack"`. Statspack prints the AWR essentials under its own titles
//! (Top 5 Timed Events, Wait Events, Background Wait Events, Instance
//! Activity Stats, Tablespace/File IO Stats, Buffer Pool Advisory, Segments
//! by ... at level 7+, init.ora Parameters); the shared text machinery in
//! [`crate::textreport`] maps them into the same fields as AWR.

use awrflash_model::{DbReport, Format, ReportKind, Source, Warning};

use crate::textreport::{Ctx, Doc, sections};
use crate::{ParseError, Part};

pub fn parse(path: &str, text: &str) -> Result<DbReport, ParseError> {
    parse_as(path, text, Part::Whole)
}

/// [`parse`] for [`crate::parse_head`]: the source and header come out as
/// [`parse`] gives them; of the other sections only the OS statistics are
/// read (their CPU counts fill a header that prints none).
pub fn parse_header(path: &str, text: &str) -> Result<DbReport, ParseError> {
    parse_as(path, text, Part::Header)
}

fn parse_as(path: &str, text: &str, part: Part) -> Result<DbReport, ParseError> {
    let (decimal, uncertain) = crate::separators::detect(text);
    let text = crate::separators::normalise(text, decimal);
    let (lines, doc) = Doc::new(&text);
    let mut ctx = Ctx::default();
    ctx.warnings.extend(uncertain);
    let mut r = DbReport {
        source: Source {
            path: path.to_string(),
            format: Format::Statspack,
            kind: Some(ReportKind::Instance),
        },
        ..DbReport::default()
    };
    let start = lines
        .iter()
        .position(|l| l.text.contains("STATSPACK report for"))
        .unwrap_or(0);
    // spreport prints errors of its own before the title; 9.2 begins with
    // "ERROR: Snapshots chosen span an instance shutdown: RESULTS ARE INVALID".
    for l in lines.get(..start).unwrap_or(&[]) {
        let t = l.text.trim();
        if t.starts_with("ERROR") {
            let message = format!("the report says: {t}");
            // Oracle's own word that the figures are void changes the meaning.
            ctx.warnings.push(if t.contains("INVALID") {
                Warning::changes_meaning("header", l.no, message)
            } else {
                Warning::new("header", l.no, message)
            });
        }
    }
    r.header = sections::header(lines.get(start..).unwrap_or(&[]), &mut ctx);
    sections::require_header(path, &lines, &mut r.header)?;
    // SQL*Plus errors inside the report (a failed PL/SQL block in spreport)
    // leave the snapshot times and per-second figures out.
    if let Some(l) = lines
        .iter()
        .find(|l| l.text.starts_with("ORA-") || l.text.starts_with("PLS-"))
    {
        ctx.warnings.push(Warning::new(
            "header",
            l.no,
            format!(
                "the report contains SQL*Plus errors ({}); snapshot times, elapsed time and per-second values may be missing",
                l.text.split(':').next().unwrap_or("ORA-").trim()
            ),
        ));
    }
    sections::fill(&doc, &mut ctx, &mut r, part);
    sections::check_end(&lines, &mut ctx);
    r.warnings = ctx.warnings;
    crate::normalize::report(&mut r);
    Ok(r)
}
