//! Placeholder: replaced by the real parser.

use awrflash_model::DbReport;

use crate::ParseError;

pub fn parse(path: &str, _text: &str) -> Result<DbReport, ParseError> {
    Err(ParseError::Unsupported {
        path: path.to_string(),
        what: "this format".into(),
        reason: "not implemented yet".into(),
    })
}
