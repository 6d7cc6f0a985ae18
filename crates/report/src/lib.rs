//! awrflash-report: renders [`awrflash_model::Analysis`] values.
//!
//! Stage: report. Input: an analysis (from the rules, or hand-built in
//! tests). Output: a self-contained HTML page (inline CSS and SVG charts, no
//! network), an index page for a batch, GitHub-flavoured Markdown, JSON and
//! terminal text. Depends on the model only.
//!
//! Every renderer reads the same [`view`] (content ordered and numbers
//! formatted once, in [`fmt`]); output is deterministic: no clock, stable
//! ordering, fixed float formatting. Text from the inputs (SQL, object,
//! module and host names) is escaped for each medium.

pub mod compare;
mod fmt;
mod html;
mod markdown;
mod svg;
mod tables;
mod text;
mod view;
mod window_view;

#[doc(hidden)]
pub mod testing;

use awrflash_model::Analysis;

/// One self-contained HTML page for one database.
pub fn html(analysis: &Analysis) -> String {
    html::render(analysis)
}

/// An index page linking the per-database reports of a batch
/// (`(analysis, relative file name of its report)`).
pub fn index_html(items: &[(&Analysis, String)]) -> String {
    html::render_index(items, &RunNotes::default())
}

/// The batch index with the run's failed inputs and warnings listed below
/// the databases. Rows are sorted by projected DB time saved per day
/// (largest first); the page sorts by any column in the browser.
pub fn index_html_with(items: &[(&Analysis, String)], notes: &RunNotes) -> String {
    html::render_index(items, notes)
}

pub use html::RunNotes;
pub use view::{Saving, saving};

/// GitHub-flavoured Markdown: the HTML report's content without the charts.
pub fn markdown(analysis: &Analysis) -> String {
    markdown::render(analysis)
}

/// The analysis as one line of JSON (a JSON Lines record): what
/// `analyze --format json` writes on stdout, one line per database.
pub fn json_line(analysis: &Analysis) -> String {
    serde_json::to_string(analysis).unwrap_or_default()
}

/// The brief Markdown for a ticket comment: verdict, options, top findings.
pub fn markdown_brief(analysis: &Analysis) -> String {
    markdown::render_brief(analysis)
}

/// The analysis as pretty JSON (`schema/analysis.schema.json` documents it).
pub fn json(analysis: &Analysis) -> String {
    let mut s = serde_json::to_string_pretty(analysis).unwrap_or_default();
    s.push('\n');
    s
}

/// Terminal text, [`TEXT_WIDTH`] (100) columns; ANSI colours when `color`.
pub fn text(analysis: &Analysis, color: bool) -> String {
    text::render(analysis, color, text::WIDTH)
}

/// Terminal text at `width` columns (clamped to 60..=240): the CLI passes
/// the terminal's width, or `COLUMNS`, or [`TEXT_WIDTH`].
pub fn text_width(analysis: &Analysis, color: bool, width: usize) -> String {
    text::render(analysis, color, width)
}

/// The terminal report's width when there is no terminal to measure.
pub const TEXT_WIDTH: usize = text::WIDTH;
