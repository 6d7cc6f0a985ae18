//! Small helpers: sizes, SQL identifiers, number formatting.

pub use awrflash_facts::parse_size;

/// A quoted SQL identifier (`"SCOTT"."EMP"`); embedded quotes doubled.
pub fn ident(name: &str) -> String {
    format!("\"{}\"", name.trim().replace('"', "\"\""))
}

/// A single-quoted SQL string literal.
pub fn lit(s: &str) -> String {
    format!("'{}'", s.replace('\'', "''"))
}

/// Fixed, locale-free formatting with one decimal.
pub fn f1(v: f64) -> String {
    format!("{:.1}", awrflash_facts::round(v))
}

pub fn f2(v: f64) -> String {
    format!("{:.2}", awrflash_facts::round(v))
}

pub fn f0(v: f64) -> String {
    format!("{:.0}", awrflash_facts::round(v))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_double_embedded_quotes() {
        assert_eq!(ident("a\"b"), "\"a\"\"b\"");
    }
}
