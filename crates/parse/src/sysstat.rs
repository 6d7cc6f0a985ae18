//! Placeholder: replaced by the real parser.

use awrflash_model::SysstatSpool;

use crate::ParseError;

pub fn parse(path: &str, _text: &str) -> Result<SysstatSpool, ParseError> {
    Err(ParseError::Unsupported {
        path: path.to_string(),
        what: "sysstat".into(),
        reason: "not implemented yet".into(),
    })
}
