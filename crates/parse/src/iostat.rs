//! Placeholder: replaced by the real parser.

use awrflash_model::IostatCapture;

use crate::ParseError;

pub fn parse(path: &str, _text: &str) -> Result<IostatCapture, ParseError> {
    Err(ParseError::Unsupported {
        path: path.to_string(),
        what: "iostat".into(),
        reason: "not implemented yet".into(),
    })
}
