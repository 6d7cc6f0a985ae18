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
    match plain(cell) {
        Some(v) => Num::Value(v),
        None => parse_num_full(cell, suffix),
    }
}

/// Powers of ten exactly representable as `f64` (up to 10^22).
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Digits below this (at most 15 significant digits) are below 2^53,
/// an exact `f64`.
const PLAIN_LIMIT: u64 = 1_000_000_000_000_000;

/// The common cell, read without [`parse_num`]'s general path: ASCII digits
/// with `,` thousands separators and at most one `.`, nothing else (no
/// space, sign, exponent, suffix or percent sign), at most 15 significant
/// digits and 22 after the point. `None` for anything else, which
/// [`parse_num`] then reads in full.
///
/// The digits form an integer below 2^53 and the divisor a power of ten
/// at most 10^22, both exact in `f64`; one correctly rounded division then
/// gives the correctly rounded value of the decimal, the same `f64` as
/// `str::parse` (its own fast path is this division).
#[inline]
pub fn plain(cell: &str) -> Option<f64> {
    let mut mantissa: u64 = 0;
    let mut digits = 0usize;
    let mut point: Option<usize> = None;
    for &b in cell.as_bytes() {
        let d = b.wrapping_sub(b'0');
        if d < 10 {
            // Past the limit already: more digits only grow it.
            if mantissa >= PLAIN_LIMIT {
                return None;
            }
            mantissa = mantissa * 10 + u64::from(d);
            digits += 1;
        } else if b == b'.' && point.is_none() {
            point = Some(digits);
        } else if b != b',' {
            return None;
        }
    }
    if digits == 0 || mantissa >= PLAIN_LIMIT {
        return None;
    }
    exact_decimal(mantissa, digits - point.unwrap_or(digits))
}

/// `mantissa / 10^fraction` when both are exact in `f64` (see [`plain`]):
/// the value `str::parse` gives the decimal with those digits. `None`
/// above 15 significant digits or 22 after the point.
#[inline]
pub(crate) fn exact_decimal(mantissa: u64, fraction: usize) -> Option<f64> {
    if mantissa >= PLAIN_LIMIT {
        return None;
    }
    // Below 2^53: the conversion is exact.
    #[allow(clippy::cast_precision_loss)]
    let m = mantissa as f64;
    POW10.get(fraction).map(|p| m / p)
}

/// [`parse_num`] without the fast path of [`plain`].
fn parse_num_full(cell: &str, suffix: Suffix) -> Num {
    // Most cells start and end with an ASCII digit: nothing to trim.
    let graphic = |b: Option<&u8>| b.is_some_and(u8::is_ascii_graphic);
    let s = if graphic(cell.as_bytes().first()) && graphic(cell.as_bytes().last()) {
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

    /// Every string [`plain`] reads must read the same through the
    /// general path, bit for bit.
    fn same_as_full(s: &str) {
        if let Some(v) = plain(s) {
            assert_eq!(parse_num_full(s, Suffix::Decimal), Num::Value(v), "{s:?}");
            assert_eq!(
                parse_num_full(s, Suffix::Decimal).value().map(f64::to_bits),
                Some(v.to_bits()),
                "{s:?}"
            );
        }
    }

    #[test]
    fn plain_cells_read_as_the_general_path_reads_them() {
        for s in [
            "0",
            "00",
            "1",
            "1.",
            ".5",
            "0.1",
            "1,234,567.89",
            ",1",
            "1,",
            "0.000000000000001",
            "999999999999999",
            "999999999999.999",
            "0.0000000000000000000001",
            "123456789012345",
            "0.123456789012345",
        ] {
            assert!(plain(s).is_some(), "{s:?}");
            same_as_full(s);
        }
        for s in [
            "",
            ".",
            ",",
            ",,",
            "1.2.3",
            "-1",
            "+1",
            "1e5",
            "1E+09",
            " 1",
            "1 ",
            "12K",
            "5%",
            "####",
            "1234567890123456",
            "0.00000000000000000000001",
            "9007199254740.993",
            "0.30000000000000004",
            "1.7976931348623157",
            "N/A",
            "\u{a0}1",
            "1..",
            "0x10",
        ] {
            assert_eq!(plain(s), None, "{s:?}");
            same_as_full(s);
        }
    }

    #[test]
    fn plain_agrees_with_the_general_path_on_generated_strings() {
        // A small xorshift generator: deterministic, no dependency.
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let alphabet = b"0123456789012345678901234567890123456789.,.,-+eE %K #";
        let mut read = 0;
        for _ in 0..200_000 {
            let len = usize::try_from(next() % 20).unwrap_or(0);
            let s: String = (0..len)
                .map(|_| {
                    let i = usize::try_from(next()).unwrap_or(0) % alphabet.len();
                    char::from(alphabet[i])
                })
                .collect();
            same_as_full(&s);
            read += usize::from(plain(&s).is_some());
        }
        // The generator must exercise the fast path, not only its refusals.
        assert!(read > 10_000, "only {read} plain strings generated");
    }

    /// Every word and every text between tags of every corpus file (all
    /// formats) that [`plain`] reads reads the same through the general path.
    #[test]
    fn plain_agrees_with_the_general_path_on_every_corpus_word() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
        let Ok(dirs) = std::fs::read_dir(&root) else {
            println!("skipped: {} is absent", root.display());
            return;
        };
        let mut read = 0usize;
        for dir in dirs.filter_map(Result::ok).map(|e| e.path()) {
            let Ok(files) = std::fs::read_dir(&dir) else {
                continue;
            };
            for file in files.filter_map(Result::ok).map(|e| e.path()) {
                let Ok(bytes) = std::fs::read(&file) else {
                    continue;
                };
                let text = crate::decode::decode(&bytes);
                let words = text
                    .split(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '|' | ';'))
                    .chain(text.split(['<', '>']));
                for w in words {
                    same_as_full(w);
                    read += usize::from(plain(w).is_some());
                }
            }
        }
        assert!(read > 100_000, "only {read} plain words in the corpus");
        println!("{read} plain words read alike");
    }

    #[test]
    fn overflow_is_not_zero() {
        assert_eq!(parse_num("######", Suffix::Decimal), Num::Overflow);
        assert_eq!(parse_num("", Suffix::Decimal), Num::Empty);
        assert_eq!(parse_num("abc", Suffix::Decimal), Num::Invalid);
        assert_eq!(parse_num("1-2", Suffix::Decimal), Num::Invalid);
    }
}
