//! AWR text reports (`awrrpt_*.txt`/`.lst`), 10g-23ai, 80 and 132 columns.
//!
//! Input: the decoded text. Output: a [`DbReport`] with `source.format =
//! "awr-text"`, filled by the shared text-table machinery in
//! [`crate::textreport`]. Only a report without its header table is an
//! error; anything else unreadable is a warning.

use awrflash_model::{DbReport, Format, ReportKind, Source};

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
    let mut r = DbReport::default();
    let title = lines
        .iter()
        .find(|l| l.text.contains("WORKLOAD REPOSITORY"))
        .map(|l| l.text.to_ascii_uppercase())
        .unwrap_or_default();
    let kind = if title.contains("PDB") {
        ReportKind::Pdb
    } else if title.contains("RAC") {
        ReportKind::RacGlobal
    } else {
        ReportKind::Instance
    };
    r.source = Source {
        path: path.to_string(),
        format: Format::AwrText,
        kind: Some(kind),
    };
    r.header = sections::header(&lines, &mut ctx);
    sections::require_header(path, &lines, &mut r.header)?;
    if kind == ReportKind::RacGlobal {
        ctx.warnings.push(awrflash_model::Warning::new(
            "header",
            1,
            "RAC global text report: only the sections shared with instance reports are read",
        ));
    }
    sections::fill(&doc, &mut ctx, &mut r, part);
    sections::check_end(&lines, &mut ctx);
    r.warnings = ctx.warnings;
    crate::normalize::report(&mut r);
    Ok(r)
}
