//! Errors that make a whole input unusable. Anything smaller is a
//! [`awrflash_model::Warning`] inside the model.

use thiserror::Error;

#[derive(Debug, Error, PartialEq, Eq)]
pub enum ParseError {
    /// The content is none of the formats awrflash reads.
    #[error("{path}: not a recognised input ({reason})")]
    UnknownFormat { path: String, reason: String },
    /// A known format that awrflash does not analyse (ASH report, ADDM, ...).
    #[error("{path}: {what} is not supported ({reason})")]
    Unsupported {
        path: String,
        what: String,
        reason: String,
    },
    /// The report ends (or breaks) before its header could be read.
    #[error("{path}:{line}: [{section}] {message}")]
    Malformed {
        path: String,
        line: u32,
        section: String,
        message: String,
    },
}
