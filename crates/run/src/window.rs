//! Time windows of reports and captures, compared to decide whether an
//! auxiliary input covers a report's interval.
//!
//! Times are the ISO 8601 local times the parsers produce
//! (`2023-10-02T10:00:05`, no zone): an AWR report prints the database
//! host's local time and iostat/sar the capture host's, so on one host they
//! compare directly.

use std::fmt;

use awrflash_model::time::iso_seconds as seconds;

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

#[cfg(test)]
mod tests {
    use super::*;

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
