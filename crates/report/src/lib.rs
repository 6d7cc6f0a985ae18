//! awrflash-report: renders [`awrflash_model::Analysis`] values.
//!
//! Stage: report. Input: analyses (hand-built in tests). Output: HTML
//! (self-contained), Markdown, JSON, terminal text. Depends on the model only.
//!
//! API placeholder: the signatures are the contract the CLI builds on; the
//! report work fills them in.

use awrflash_model::Analysis;

/// One self-contained HTML page for one database.
pub fn html(_analysis: &Analysis) -> String {
    String::new()
}

/// An index page linking the per-database reports of a batch
/// (`(analysis, relative file name of its report)`).
pub fn index_html(_items: &[(&Analysis, String)]) -> String {
    String::new()
}

pub fn markdown(_analysis: &Analysis) -> String {
    String::new()
}

pub fn json(analysis: &Analysis) -> String {
    serde_json::to_string_pretty(analysis).unwrap_or_default()
}

/// Terminal text, 100 columns; ANSI colours when `color`.
pub fn text(_analysis: &Analysis, _color: bool) -> String {
    String::new()
}
