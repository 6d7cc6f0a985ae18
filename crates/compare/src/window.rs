//! Like with like: which report intervals of each side are compared.
//!
//! Load follows the hour of day (batch at night, users by day), so with
//! several hourly intervals on each side only the hours both sides cover are
//! compared; otherwise the whole windows are, and the choice is stated.

use std::collections::BTreeSet;

use awrflash_model::{DbReport, WindowMatch};

/// How to pick the intervals of each side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum WindowChoice {
    /// Same hours of day when both sides have several intervals of at most
    /// two hours and share some hours but not all; whole windows otherwise.
    #[default]
    Auto,
    /// Every interval of each side.
    Whole,
    /// Only the hours of day both sides cover (whole windows when none).
    SameHours,
}

/// Intervals longer than this are not tied to an hour of day.
const HOURLY_MAX_S: f64 = 7200.0;

/// The hour of day an interval starts (ISO `YYYY-MM-DDTHH:MM:SS`).
fn start_hour(r: &DbReport) -> Option<u32> {
    let t = r.header.begin_time.as_deref()?;
    let h: u32 = t.get(11..13)?.parse().ok()?;
    (h < 24).then_some(h)
}

fn hourly(r: &DbReport) -> bool {
    r.header
        .elapsed_s
        .is_some_and(|e| e > 0.0 && e <= HOURLY_MAX_S)
        && start_hour(r).is_some()
}

fn hours(side: &[&DbReport]) -> BTreeSet<u32> {
    side.iter().filter_map(|r| start_hour(r)).collect()
}

fn counts(b: usize, a: usize) -> String {
    format!(
        "{b} interval{} before, {a} after",
        if b == 1 { "" } else { "s" }
    )
}

fn span(hs: &BTreeSet<u32>) -> String {
    let v: Vec<String> = hs.iter().map(|h| format!("{h:02}:00")).collect();
    v.join(", ")
}

/// The intervals to compare on each side, and the choice in words.
pub fn select<'a>(
    before: &[&'a DbReport],
    after: &[&'a DbReport],
    choice: WindowChoice,
) -> (Vec<&'a DbReport>, Vec<&'a DbReport>, WindowMatch) {
    let whole = |why: String| {
        (
            before.to_vec(),
            after.to_vec(),
            WindowMatch {
                choice: "whole-windows".into(),
                reason: format!("{why}: {}", counts(before.len(), after.len())),
                hours: Vec::new(),
            },
        )
    };
    if choice == WindowChoice::Whole {
        return whole("whole windows, as asked".into());
    }
    let (hb, ha) = (hours(before), hours(after));
    if choice == WindowChoice::Auto && before.len() == 1 && after.len() == 1 {
        let why = if hb == ha || hb.is_empty() || ha.is_empty() {
            "one interval on each side: the whole windows".to_string()
        } else {
            format!(
                "one interval on each side: the whole windows (before starts at {}, after at {}: different hours of day, whose load may differ)",
                span(&hb),
                span(&ha)
            )
        };
        return whole(why);
    }
    if !before.iter().chain(after).all(|r| hourly(r)) {
        return whole("an interval is longer than 2 hours or has no start time, so hours of day cannot be matched: the whole windows".into());
    }
    let common: BTreeSet<u32> = hb.intersection(&ha).copied().collect();
    if common.is_empty() {
        return whole(format!(
            "no hour of day on both sides (before {}, after {}): the whole windows, whose load may differ by hour",
            span(&hb),
            span(&ha)
        ));
    }
    if choice == WindowChoice::Auto && common == hb && common == ha {
        return whole("both windows cover the same hours of day: the whole windows".into());
    }
    let keep = |side: &[&'a DbReport]| -> Vec<&'a DbReport> {
        side.iter()
            .filter(|r| start_hour(r).is_some_and(|h| common.contains(&h)))
            .copied()
            .collect()
    };
    let (b, a) = (keep(before), keep(after));
    let reason = format!(
        "the same hours of day ({}): {} of {} intervals before, {} of {} after",
        span(&common),
        b.len(),
        before.len(),
        a.len(),
        after.len()
    );
    (
        b,
        a,
        WindowMatch {
            choice: "same-hours".into(),
            reason,
            hours: common.into_iter().collect(),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::Header;

    fn at(time: &str) -> DbReport {
        DbReport {
            header: Header {
                begin_time: Some(time.into()),
                elapsed_s: Some(3600.0),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    #[test]
    fn hourly_windows_are_cut_to_the_hours_both_sides_cover() {
        let b: Vec<DbReport> = (8..12)
            .map(|h| at(&format!("2026-01-05T{h:02}:00:00")))
            .collect();
        let a: Vec<DbReport> = (10..14)
            .map(|h| at(&format!("2026-02-05T{h:02}:00:00")))
            .collect();
        let br: Vec<&DbReport> = b.iter().collect();
        let ar: Vec<&DbReport> = a.iter().collect();
        let (sb, sa, m) = select(&br, &ar, WindowChoice::Auto);
        assert_eq!(m.choice, "same-hours");
        assert_eq!(m.hours, [10, 11]);
        assert_eq!((sb.len(), sa.len()), (2, 2));
        assert!(
            m.reason.contains("2 of 4 intervals before, 2 of 4 after"),
            "{}",
            m.reason
        );
        let (sb, _, m) = select(&br, &ar, WindowChoice::Whole);
        assert_eq!((m.choice.as_str(), sb.len()), ("whole-windows", 4));
    }

    #[test]
    fn one_interval_a_side_compares_the_whole_windows_and_says_when_hours_differ() {
        let b = at("2026-01-05T10:00:00");
        let a = at("2026-02-05T14:00:00");
        let (_, _, m) = select(&[&b], &[&a], WindowChoice::Auto);
        assert_eq!(m.choice, "whole-windows");
        assert!(m.reason.contains("different hours of day"), "{}", m.reason);
        assert!(
            m.reason.ends_with("1 interval before, 1 after"),
            "{}",
            m.reason
        );
    }
}
