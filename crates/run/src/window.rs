//! Time windows of reports and captures, compared to decide whether an
//! auxiliary input covers a report's interval.
//!
//! Times are the ISO 8601 local times the parsers produce
//! (`2023-10-02T10:00:05`, no zone): an AWR report prints the database
//! host's local time and iostat/sar the capture host's, so on one host they
//! compare directly.

use std::fmt;

/// `[begin, end]` in seconds since 1970-01-01 (local time, no zone), with
/// the text it was read from for messages.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Window {
    pub begin: i64,
    pub end: i64,
    pub begin_text: String,
    pub end_text: String,
}

impl Window {
    /// The window from the earliest to the latest of `times`; `None` when
    /// none of them reads as a date and time.
    pub fn spanning<'a>(times: impl IntoIterator<Item = &'a str>) -> Option<Window> {
        let mut out: Option<Window> = None;
        for t in times {
            let Some(s) = seconds(t) else {
                continue;
            };
            match &mut out {
                None => {
                    out = Some(Window {
                        begin: s,
                        end: s,
                        begin_text: t.to_string(),
                        end_text: t.to_string(),
                    });
                }
                Some(w) => {
                    if s < w.begin {
                        w.begin = s;
                        w.begin_text = t.to_string();
                    }
                    if s > w.end {
                        w.end = s;
                        w.end_text = t.to_string();
                    }
                }
            }
        }
        out
    }

    /// Whether the two windows share at least one instant.
    pub fn overlaps(&self, other: &Window) -> bool {
        self.begin <= other.end && other.begin <= self.end
    }
}

impl fmt::Display for Window {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} to {}",
            self.begin_text.replacen('T', " ", 1),
            self.end_text.replacen('T', " ", 1)
        )
    }
}

/// `YYYY-MM-DD[THH:MM[:SS[.fff]]]` to seconds since 1970-01-01.
pub(crate) fn seconds(t: &str) -> Option<i64> {
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
        assert_eq!(seconds("1970-01-01T00:00:00"), Some(0));
        assert_eq!(seconds("2000-03-01"), Some(951_868_800));
        assert_eq!(seconds("2023-10-02T10:00:05"), Some(1_696_240_805));
        assert_eq!(seconds("2024-02-29 23:59:59.5"), Some(1_709_251_199));
        assert_eq!(seconds("11:59:58"), None);
        assert_eq!(seconds("2024-13-01"), None);
    }

    #[test]
    fn windows_overlap_when_they_share_an_instant() {
        let w = |a: &str, b: &str| Window::spanning([a, b]).unwrap();
        let report = w("2023-10-02T07:30:20", "2023-10-02T08:00:21");
        assert!(report.overlaps(&w("2023-10-02T07:59:00", "2023-10-02T09:00:00")));
        assert!(report.overlaps(&w("2023-10-02T06:00:00", "2023-10-02T07:30:20")));
        assert!(!report.overlaps(&w("2018-06-13T14:10:50", "2018-06-13T14:16:07")));
        assert_eq!(
            report.to_string(),
            "2023-10-02 07:30:20 to 2023-10-02 08:00:21"
        );
        assert_eq!(Window::spanning(["not a time"]), None);
    }
}
