//! Placeholder: replaced by the real parser.

use awrflash_model::SegmentSizes;

use crate::ParseError;

pub fn parse(path: &str, _text: &str) -> Result<SegmentSizes, ParseError> {
    Err(ParseError::Unsupported {
        path: path.to_string(),
        what: "segment sizes".into(),
        reason: "not implemented yet".into(),
    })
}
