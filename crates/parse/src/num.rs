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
    // Most cells start and end with an ASCII digit: nothing to trim.
    let plain = |b: Option<&u8>| b.is_some_and(u8::is_ascii_graphic);
    let s = if plain(cell.as_bytes().first()) && plain(cell.as_bytes().last()) {
        cell
    } else {
        cell.trim().trim_matches('\u{a0}').trim()
    };
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
    // Digits without separators, on the stack for any number a report
    // prints: no allocation per cell.
    let mut buf = [0u8; 64];
    let mut heap = Vec::new();
    let out: &mut [u8] = if body.len() <= buf.len() {
        &mut buf
    } else {
        heap.resize(body.len(), 0);
        &mut heap
    };
    let Some(clean) = digits(body, out) else {
        return Num::Invalid;
    };
    // Only ASCII bytes were kept.
    match std::str::from_utf8(clean).map(str::parse::<f64>) {
        Ok(Ok(v)) if v.is_finite() => Num::Value(v * mult),
        _ => Num::Invalid,
    }
}

/// Copies the digits, point, exponent and signs of `body` into `out` (at
/// least as long as `body`), dropping thousands separators; `None` when
/// another character is in the way.
fn digits<'o>(body: &str, out: &'o mut [u8]) -> Option<&'o [u8]> {
    let mut len = 0;
    for (i, b) in body.bytes().enumerate() {
        let after_exponent = len > 0 && matches!(out.get(len - 1), Some(b'e' | b'E'));
        match b {
            b',' => continue,
            b'0'..=b'9' | b'.' | b'e' | b'E' => {}
            b'+' | b'-' if i == 0 || after_exponent => {}
            _ => return None,
        }
        *out.get_mut(len)? = b;
        len += 1;
    }
    out.get(..len)
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
