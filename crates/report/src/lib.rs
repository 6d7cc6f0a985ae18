//! awrflash-report: renders an [`awrflash_model::Analysis`].
//!
//! Stage: report. Input: analyses. Output: HTML, Markdown, JSON, text.
//! Filled in by the report work.
