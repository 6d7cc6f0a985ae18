//! Numbers as Oracle and sysstat print them.
//!
//! Thousands separators (`1,234,567.8`), leading-dot decimals (`.5`),
//! signs, exponents (`1.2E+09`), unit suffixes (`12K`, `3.4M`, `1.1G`, `2T`;
//! powers of 1000 in AWR "per second" columns, powers of 1024 in byte
//! columns: the caller picks), percent signs, and `######` overflow, which
//! is never a zero: it is [`Num::Overflow`] and the caller records a warning.

/// A cell read as a number.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Num {
    Value(f64),
    /// Empty cell, `N/A`, `-`, `&nbsp;`.
    Empty,
    /// `#####`: the report's column was too narrow.
    Overflow,
    /// Something else: not a number.
    Invalid,
}

impl Num {
    pub fn value(self) -> Option<f64> {
        match self {
            Num::Value(v) => Some(v),
            _ => None,
        }
    }
}

/// How to scale a K/M/G/T suffix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Suffix {
    /// K = 1000 (AWR counts: `1.2K` executions).
    Decimal,
    /// K = 1024 (AWR byte sizes: `12M` of data).
    Binary,
}

/// Parses one cell. Decimal-comma input (German iostat) is handled by the
/// iostat parser, not here: here `,` is always a thousands separator.
pub fn parse_num(cell: &str, suffix: Suffix) -> Num {
    let s = cell.trim().trim_matches('\u{a0}').trim();
    if s.is_empty() || s == "-" || s.eq_ignore_ascii_case("n/a") || s == "&nbsp;" {
        return Num::Empty;
    }
    if s.bytes().all(|b| b == b'#') {
        return Num::Overflow;
    }
    let s = s.strip_suffix('%').unwrap_or(s).trim_end();
    let power = match s.as_bytes().last() {
        Some(b'K' | b'k') => 1,
        Some(b'M') => 2,
        Some(b'G') => 3,
        Some(b'T') => 4,
        Some(b'P') => 5,
        _ => 0,
    };
    // The suffix is one ASCII byte, so cutting it keeps a char boundary.
    let (body, mult) = if power == 0 {
        (s, 1.0)
    } else {
        (s.get(..s.len() - 1).unwrap_or(s), scale(suffix, power))
    };
    let body = body.trim_end();
    if body.is_empty() {
        return Num::Invalid;
    }
    let mut clean = String::with_capacity(body.len());
    for (i, c) in body.char_indices() {
        match c {
            ',' => {}
            '0'..='9' | '.' | 'e' | 'E' => clean.push(c),
            '+' | '-' if i == 0 || matches!(clean.chars().last(), Some('e' | 'E')) => clean.push(c),
            _ => return Num::Invalid,
        }
    }
    match clean.parse::<f64>() {
        Ok(v) if v.is_finite() => Num::Value(v * mult),
        _ => Num::Invalid,
    }
}

fn scale(suffix: Suffix, power: i32) -> f64 {
    match suffix {
        Suffix::Decimal => 1000f64.powi(power),
        Suffix::Binary => 1024f64.powi(power),
    }
}

/// Shorthand for [`parse_num`] with decimal suffixes, `None` unless a value.
pub fn num(cell: &str) -> Option<f64> {
    parse_num(cell, Suffix::Decimal).value()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_thousands_separators_and_leading_dot() {
        assert_eq!(num("1,234,567.8"), Some(1_234_567.8));
        assert_eq!(num(".5"), Some(0.5));
        assert_eq!(num("-.25"), Some(-0.25));
    }

    #[test]
    fn parses_exponents_and_suffixes() {
        assert_eq!(num("1.2E+09"), Some(1.2e9));
        assert_eq!(num("3.5K"), Some(3500.0));
        assert_eq!(
            parse_num("2M", Suffix::Binary),
            Num::Value(2.0 * 1024.0 * 1024.0)
        );
        assert_eq!(num("12.5%"), Some(12.5));
    }

    #[test]
    fn overflow_is_not_zero() {
        assert_eq!(parse_num("######", Suffix::Decimal), Num::Overflow);
        assert_eq!(parse_num("", Suffix::Decimal), Num::Empty);
        assert_eq!(parse_num("abc", Suffix::Decimal), Num::Invalid);
        assert_eq!(parse_num("1-2", Suffix::Decimal), Num::Invalid);
    }
}
