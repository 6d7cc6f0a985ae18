//! Every number the renderers print goes through here, so that the same value
//! reads the same in HTML, Markdown and terminal text, and so that output is
//! byte-for-byte stable (fixed decimals, no locale, no exponent notation).

/// What a value that is not a finite number prints as.
pub const NA: &str = "n/a";

/// `x` with `decimals` fixed decimals and `,` thousands separators.
/// Non-finite values print as [`NA`]; `-0` prints as `0`.
pub fn fixed(x: f64, decimals: usize) -> String {
    if !x.is_finite() {
        return NA.to_string();
    }
    let s = format!("{x:.decimals$}");
    // `-0.0` and values that round to zero must not keep a sign.
    let s = if s.starts_with('-')
        && s.trim_start_matches('-')
            .chars()
            .all(|c| c == '0' || c == '.')
    {
        s.trim_start_matches('-').to_string()
    } else {
        s
    };
    group_thousands(&s)
}

fn group_thousands(s: &str) -> String {
    let (sign, rest) = match s.strip_prefix('-') {
        Some(r) => ("-", r),
        None => ("", s),
    };
    let (int, frac) = match rest.find('.') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    let digits: Vec<char> = int.chars().collect();
    let mut out = String::with_capacity(s.len() + digits.len() / 3);
    out.push_str(sign);
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(*c);
    }
    out.push_str(frac);
    out
}

/// A count or rate with as many decimals as its magnitude deserves:
/// `12,345`, `123`, `12.3`, `1.23`, `0.012`.
pub fn num(x: f64) -> String {
    if !x.is_finite() {
        return NA.to_string();
    }
    let a = x.abs();
    let d = if a >= 100.0 || a == 0.0 || (x.fract() == 0.0 && a < 1e15) {
        0
    } else if a >= 10.0 {
        1
    } else if a >= 0.1 {
        2
    } else {
        3
    };
    fixed(x, d)
}

/// Decimals for a quantity shown to about three significant digits:
/// none from 100, one from 10, two below.
fn three_digits(x: f64) -> usize {
    let a = x.abs();
    if a >= 100.0 || a == 0.0 {
        0
    } else if a >= 10.0 {
        1
    } else {
        2
    }
}

/// Seconds: `1,234 s`, `12.3 s`, `0.45 s`.
pub fn secs(x: f64) -> String {
    if !x.is_finite() {
        return NA.to_string();
    }
    format!("{} s", fixed(x, three_digits(x)))
}

/// A duration in seconds with minutes or hours beside it: `3,600 s (60.0 min)`.
pub fn duration(x: f64) -> String {
    if !x.is_finite() {
        return NA.to_string();
    }
    if x >= 7200.0 {
        format!("{} ({} h)", secs(x), fixed(x / 3600.0, 1))
    } else if x >= 120.0 {
        format!("{} ({} min)", secs(x), fixed(x / 60.0, 1))
    } else {
        secs(x)
    }
}

/// A percentage: `12.3%`.
pub fn pct(x: f64) -> String {
    if !x.is_finite() {
        return NA.to_string();
    }
    format!("{}%", fixed(x, 1))
}

/// Milliseconds: `0.12 ms`, `5.40 ms`, `12.5 ms`.
pub fn ms(x: f64) -> String {
    if !x.is_finite() {
        return NA.to_string();
    }
    let d = if x.abs() >= 10.0 { 1 } else { 2 };
    format!("{} ms", fixed(x, d))
}

/// Gigabytes: `0.25 GB`, `12.5 GB`, `1,234 GB`.
pub fn gb(x: f64) -> String {
    if !x.is_finite() {
        return NA.to_string();
    }
    format!("{} GB", fixed(x, three_digits(x)))
}

/// Megabytes: `12.5 MB`.
pub fn mb(x: f64) -> String {
    if !x.is_finite() {
        return NA.to_string();
    }
    let d = if x.abs() >= 100.0 || x == 0.0 { 0 } else { 1 };
    format!("{} MB", fixed(x, d))
}

/// A ratio such as a throughput cap: `1.30x`.
pub fn ratio(x: f64) -> String {
    if !x.is_finite() {
        return NA.to_string();
    }
    format!("{}x", fixed(x, 2))
}

/// A value with its unit, formatted by what the unit is.
pub fn with_unit(x: f64, unit: &str) -> String {
    match unit.trim() {
        "s" => secs(x),
        "ms" => ms(x),
        "%" => pct(x),
        "GB" => gb(x),
        "MB" => mb(x),
        "x" => ratio(x),
        "" => num(x),
        u => format!("{} {u}", num(x)),
    }
}

/// An optional number, or [`NA`].
pub fn opt(x: Option<f64>, f: fn(f64) -> String) -> String {
    x.map_or_else(|| NA.to_string(), f)
}

/// A low-high range in percent: `12.0% to 18.5%`, or one value when both round alike.
pub fn pct_range(low: f64, high: f64) -> String {
    let (l, h) = (pct(low), pct(high));
    if l == h { l } else { format!("{l} to {h}") }
}

/// A low-high range in seconds: `1,200 s to 1,450 s`.
pub fn secs_range(low: f64, high: f64) -> String {
    let (l, h) = (secs(low), secs(high));
    if l == h { l } else { format!("{l} to {h}") }
}

/// A coordinate in an SVG: one decimal, no separators.
pub fn coord(x: f64) -> String {
    if !x.is_finite() {
        return "0".to_string();
    }
    let s = format!("{x:.1}");
    let s = s.strip_suffix(".0").map_or(s.clone(), str::to_string);
    if s == "-0" { "0".to_string() } else { s }
}

/// A compact axis label: `1.2k`, `3.4M`, `0.5`, `12`.
pub fn axis(x: f64) -> String {
    if !x.is_finite() {
        return NA.to_string();
    }
    let a = x.abs();
    let (v, suffix) = if a >= 1e9 {
        (x / 1e9, "G")
    } else if a >= 1e6 {
        (x / 1e6, "M")
    } else if a >= 1e4 {
        (x / 1e3, "k")
    } else {
        (x, "")
    };
    let va = v.abs();
    let d = if va == 0.0 || v.fract() == 0.0 || va >= 100.0 {
        0
    } else if va >= 10.0 {
        1
    } else {
        2
    };
    let s = fixed(v, d);
    // Trim trailing zeros of the fraction: `2.50` -> `2.5`.
    let s = if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    };
    format!("{s}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_groups_thousands_and_drops_negative_zero() {
        assert_eq!(fixed(1234567.891, 2), "1,234,567.89");
        assert_eq!(fixed(-1234.5, 1), "-1,234.5");
        assert_eq!(fixed(-0.0001, 2), "0.00");
        assert_eq!(fixed(999.0, 0), "999");
        assert_eq!(fixed(f64::NAN, 2), NA);
        assert_eq!(fixed(f64::INFINITY, 0), NA);
    }

    #[test]
    fn num_picks_decimals_by_magnitude() {
        assert_eq!(num(12345.6), "12,346");
        assert_eq!(num(12.34), "12.3");
        assert_eq!(num(1.234), "1.23");
        assert_eq!(num(0.01234), "0.012");
        assert_eq!(num(42.0), "42");
    }

    #[test]
    fn units_format_by_kind() {
        assert_eq!(with_unit(5.4, "ms"), "5.40 ms");
        assert_eq!(with_unit(42.26, "%"), "42.3%");
        assert_eq!(with_unit(3600.0, "s"), "3,600 s");
        assert_eq!(with_unit(160.0, "MB/s"), "160 MB/s");
        assert_eq!(duration(3600.0), "3,600 s (60.0 min)");
        assert_eq!(pct_range(12.0, 18.04), "12.0% to 18.0%");
        assert_eq!(pct_range(12.0, 12.04), "12.0%");
    }

    #[test]
    fn axis_and_coord_are_compact() {
        assert_eq!(axis(25000.0), "25k");
        assert_eq!(axis(2_500_000.0), "2.5M");
        assert_eq!(axis(0.5), "0.5");
        assert_eq!(coord(12.0), "12");
        assert_eq!(coord(12.345), "12.3");
        assert_eq!(coord(-0.01), "0");
    }
}
