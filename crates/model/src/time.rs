//! Times as the parsers write them: ISO 8601 local time without a zone
//! (`2023-10-02T10:00:05`), read back as seconds for comparisons.

/// `YYYY-MM-DD[THH:MM[:SS[.fff]]]` to seconds since 1970-01-01.
pub fn iso_seconds(t: &str) -> Option<i64> {
    let t = t.trim();
    let (date, time) = match t.split_once(['T', ' ']) {
        Some((d, tm)) => (d, tm),
        None => (t, ""),
    };
    let mut d = date.split('-');
    let y: i64 = d.next()?.parse().ok()?;
    let m: i64 = d.next()?.parse().ok()?;
    let day: i64 = d.next()?.parse().ok()?;
    if d.next().is_some() || !(1..=12).contains(&m) || !(1..=31).contains(&day) {
        return None;
    }
    let mut secs = 0;
    if !time.is_empty() {
        let mut parts = time.split(':');
        let h: i64 = parts.next()?.parse().ok()?;
        let min: i64 = parts.next()?.parse().ok()?;
        let s: f64 = parts.next().map_or(Some(0.0), |s| s.parse().ok())?;
        if !(0..24).contains(&h) || !(0..60).contains(&min) || !(0.0..61.0).contains(&s) {
            return None;
        }
        secs = h * 3600 + min * 60 + s as i64;
    }
    Some(days_from_civil(y, m, day) * 86_400 + secs)
}

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
/// `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_times_read_as_seconds_since_1970() {
        assert_eq!(iso_seconds("1970-01-01T00:00:00"), Some(0));
        assert_eq!(iso_seconds("2000-03-01"), Some(951_868_800));
        assert_eq!(iso_seconds("2023-10-02T10:00:05"), Some(1_696_240_805));
        assert_eq!(iso_seconds("2024-02-29 23:59:59.5"), Some(1_709_251_199));
        assert_eq!(iso_seconds("11:59:58"), None);
        assert_eq!(iso_seconds("2024-13-01"), None);
    }
}
