//! Dates and times as iostat, sar and SQL*Plus print them, turned into
//! ISO 8601 text (`2018-06-13T14:10:50`, no zone: captures do not say which).
//!
//! The locale decides the layout: `06/13/2018 02:10:50 PM` (en_US),
//! `13.06.2018 14:10:50` (de_DE), `2018年06月13日 14時10分50秒` (ja_JP),
//! `2018-06-13T14:10:50+0200` (`S_TIME_FORMAT=ISO`), Solaris `iostat -T d`
//! (`Tue Apr 19 21:16:01 2011`) and `-T u` (seconds since 1970).

/// A calendar date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Date {
    pub y: i64,
    pub m: u32,
    pub d: u32,
}

/// A time of day in seconds.
pub type Secs = u32;

/// Which way round `01/02/03` is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SlashOrder {
    /// `mm/dd/yy` (en_US, sysstat's C locale).
    #[default]
    MonthFirst,
    /// `dd/mm/yy` (en_GB, fr_FR...): chosen when any day field exceeds 12.
    DayFirst,
}

/// What a timestamp line held.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stamp {
    DateTime(Date, Secs),
    Time(Secs),
}

impl Date {
    pub fn valid(self) -> bool {
        (1..=12).contains(&self.m) && self.d >= 1 && self.d <= days_in_month(self.y, self.m)
    }

    pub fn next(self) -> Date {
        civil_from_days(days_from_civil(self) + 1)
    }

    pub fn days(self) -> i64 {
        days_from_civil(self)
    }
}

/// ISO text for a date and a time of day.
pub fn iso(date: Option<Date>, secs: Secs) -> String {
    let (h, mi, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    // Digits pushed one by one (a capture has a stamp every few rows, and
    // `format!` took most of the time of placing one); years of other
    // than four digits and hours past 99 go through `format!`.
    let four = date.is_none_or(|d| (0..=9999).contains(&d.y) && d.m < 100 && d.d < 100);
    if !four || h > 99 {
        return match date {
            Some(d) => format!("{:04}-{:02}-{:02}T{h:02}:{mi:02}:{s:02}", d.y, d.m, d.d),
            None => format!("{h:02}:{mi:02}:{s:02}"),
        };
    }
    let mut out = String::with_capacity(19);
    let two = |out: &mut String, n: u32| {
        out.push(char::from(b'0' + (n / 10 % 10) as u8));
        out.push(char::from(b'0' + (n % 10) as u8));
    };
    if let Some(d) = date {
        let y = u32::try_from(d.y).unwrap_or_default();
        two(&mut out, y / 100);
        two(&mut out, y % 100);
        out.push('-');
        two(&mut out, d.m);
        out.push('-');
        two(&mut out, d.d);
        out.push('T');
    }
    two(&mut out, h);
    out.push(':');
    two(&mut out, mi);
    out.push(':');
    two(&mut out, s);
    out
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

fn days_in_month(y: i64, m: u32) -> u32 {
    match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if is_leap(y) => 29,
        2 => 28,
        _ => 0,
    }
}

/// Days since 1970-01-01 (proleptic Gregorian).
fn days_from_civil(d: Date) -> i64 {
    let y = if d.m <= 2 { d.y - 1 } else { d.y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(d.m);
    let mp = if m > 2 { m - 3 } else { m + 9 };
    let doy = (153 * mp + 2) / 5 + i64::from(d.d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> Date {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    Date { y, m, d }
}

fn full_year(y: i64, digits: usize) -> i64 {
    if digits <= 2 {
        if y < 70 { 2000 + y } else { 1900 + y }
    } else {
        y
    }
}

fn num(s: &str) -> Option<i64> {
    if s.is_empty() || s.len() > 4 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

/// A date token: `06/13/2018`, `13.06.2018`, `2018-06-13`, `2018/06/13`,
/// `2018年06月13日`.
pub fn parse_date(tok: &str, order: SlashOrder) -> Option<Date> {
    let t = tok.trim().trim_end_matches('日');
    if t.contains('年') {
        let t = t.replace(['年', '月'], "-");
        return parse_date(&t, order);
    }
    let (sep, parts) = ['/', '.', '-']
        .iter()
        .map(|&c| (c, t.split(c).collect::<Vec<_>>()))
        .find(|(_, p)| p.len() == 3)?;
    let (a, b, c) = match parts.as_slice() {
        [a, b, c] => (*a, *b, *c),
        _ => return None,
    };
    // Oracle's `DD-MON-YY` / `DD-MON-YYYY` (NLS_DATE_FORMAT default).
    if let Some(m) = month(b).filter(|_| b.len() == 3) {
        let date = Date {
            y: full_year(num(c)?, c.len()),
            m,
            d: num(a)? as u32,
        };
        return date.valid().then_some(date);
    }
    let (na, nb, nc) = (num(a)?, num(b)?, num(c)?);
    let date = if a.len() == 4 {
        Date {
            y: na,
            m: nb as u32,
            d: nc as u32,
        }
    } else if sep == '.' || (sep == '/' && order == SlashOrder::DayFirst) || sep == '-' {
        Date {
            y: full_year(nc, c.len()),
            m: nb as u32,
            d: na as u32,
        }
    } else {
        Date {
            y: full_year(nc, c.len()),
            m: na as u32,
            d: nb as u32,
        }
    };
    date.valid().then_some(date)
}

/// Whether a slash date's first field can only be a day (`25/12/2018`).
pub fn slash_day_first(tok: &str) -> bool {
    let mut p = tok.split('/');
    match (p.next(), p.next(), p.next(), p.next()) {
        (Some(a), Some(_), Some(_), None) if a.len() <= 2 => num(a).is_some_and(|v| v > 12),
        _ => false,
    }
}

/// A time token `14:10:50`, `14:10:50.123`, `14時10分50秒`; `ampm` applies
/// a following `AM`/`PM` (or `午前`/`午後`).
pub fn parse_time(tok: &str, ampm: Option<&str>) -> Option<Secs> {
    let t = tok.trim();
    let t = if t.contains('時') {
        t.replace(['時', '分'], ":").replace('秒', "")
    } else {
        t.to_string()
    };
    let t = t.split(['.', ',']).next().unwrap_or("");
    let mut it = t.split(':');
    let h = num(it.next()?)?;
    let m = num(it.next()?)?;
    let s = match it.next() {
        Some(s) => num(s)?,
        None => 0,
    };
    if it.next().is_some() || h > 24 || m > 59 || s > 60 {
        return None;
    }
    let h = match ampm.map(|a| a.trim().to_ascii_uppercase()) {
        Some(a) if a == "AM" || a == "午前" => {
            if h == 12 {
                0
            } else {
                h
            }
        }
        Some(a) if a == "PM" || a == "午後" => {
            if h == 12 {
                12
            } else {
                h + 12
            }
        }
        _ => h,
    };
    if h > 23 {
        return None;
    }
    Some((h * 3600 + m * 60 + s.min(59)) as u32)
}

fn is_ampm(tok: &str) -> bool {
    matches!(
        tok.to_ascii_uppercase().as_str(),
        "AM" | "PM" | "午前" | "午後"
    )
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

fn month(tok: &str) -> Option<u32> {
    let head = tok.as_bytes().get(..3)?;
    MONTHS
        .iter()
        .position(|m| head.eq_ignore_ascii_case(m.as_bytes()))
        .map(|i| i as u32 + 1)
}

/// Reads a whole line as a timestamp, or `None` when it is something else.
pub fn parse_stamp_line(line: &str, order: SlashOrder) -> Option<Stamp> {
    let t = line.trim();
    let t = t.strip_prefix("Time:").map(str::trim).unwrap_or(t);
    // Japanese locales may print the AM/PM marker glued to the time.
    let spaced;
    let t = if !t.is_ascii() && (t.contains("午前") || t.contains("午後")) {
        spaced = t.replace("午前", " 午前 ").replace("午後", " 午後 ");
        spaced.as_str()
    } else {
        t
    };
    // The first four tokens and the last: all the shapes below read (most
    // lines read here are device rows of a dozen numbers, not stamps). A
    // line of four or more tokens is a stamp only with a month second.
    let mut kept: [&str; 5] = [""; 5];
    let mut n = 0;
    for tok in t.split_whitespace() {
        if let Some(slot) = kept.get_mut(n.min(4)) {
            *slot = tok;
        }
        n += 1;
        if n == 4 && kept.get(1).and_then(|m| month(m)).is_none() {
            return None;
        }
    }
    match kept.get(..n.min(5)).unwrap_or_default() {
        // Solaris -T u: seconds since the epoch.
        [one] if one.len() >= 9 && one.bytes().all(|b| b.is_ascii_digit()) => {
            let secs: i64 = one.parse().ok()?;
            let date = civil_from_days(secs.div_euclid(86_400));
            Some(Stamp::DateTime(date, secs.rem_euclid(86_400) as u32))
        }
        // ISO with a T: 2020-06-01T10:00:00+0200.
        [one] if one.contains('T') && one.contains('-') => {
            let (d, rest) = one.split_once('T')?;
            let date = parse_date(d, order)?;
            let time = rest
                .split(['+', 'Z'])
                .next()
                .and_then(|x| x.rsplit_once('-').map_or(Some(x), |(a, _)| Some(a)))?;
            Some(Stamp::DateTime(date, parse_time(time, None)?))
        }
        [one] => parse_time(one, None).map(Stamp::Time),
        [time, ap] if is_ampm(ap) => parse_time(time, Some(ap)).map(Stamp::Time),
        [ap, time] if is_ampm(ap) => parse_time(time, Some(ap)).map(Stamp::Time),
        [date, time] => Some(Stamp::DateTime(
            parse_date(date, order)?,
            parse_time(time, None)?,
        )),
        [date, time, ap] if is_ampm(ap) => Some(Stamp::DateTime(
            parse_date(date, order)?,
            parse_time(time, Some(ap))?,
        )),
        [date, ap, time] if is_ampm(ap) => Some(Stamp::DateTime(
            parse_date(date, order)?,
            parse_time(time, Some(ap))?,
        )),
        // Solaris -T d / ctime: Tue Apr 19 21:16:01 [TZ] 2011.
        [_wd, mon, day, time, rest @ ..] if month(mon).is_some() => {
            let year = rest.last()?;
            if year.len() != 4 {
                return None;
            }
            let date = Date {
                y: num(year)?,
                m: month(mon)?,
                d: num(day)? as u32,
            };
            if !date.valid() {
                return None;
            }
            Some(Stamp::DateTime(date, parse_time(time, None)?))
        }
        _ => None,
    }
}

/// Assigns dates to a run of stamps: a time-only stamp takes the current
/// date, moving to the next day when the clock goes backwards.
#[derive(Debug, Default)]
pub struct Clock {
    pub date: Option<Date>,
    last: Option<Secs>,
}

impl Clock {
    pub fn new(date: Option<Date>) -> Self {
        Self { date, last: None }
    }

    /// Sets the date from a header and forgets the last time.
    pub fn reset(&mut self, date: Option<Date>) {
        self.date = date;
        self.last = None;
    }

    /// ISO text for a stamp and seconds since 1970 when the date is known.
    pub fn place(&mut self, stamp: Stamp) -> (String, Option<i64>) {
        match stamp {
            Stamp::DateTime(d, s) => {
                self.date = Some(d);
                self.last = Some(s);
                (iso(Some(d), s), Some(d.days() * 86_400 + i64::from(s)))
            }
            Stamp::Time(s) => {
                if let (Some(last), Some(d)) = (self.last, self.date) {
                    // A backwards step of more than an hour is midnight; a
                    // small one is a clock adjustment.
                    if s + 3600 < last {
                        self.date = Some(d.next());
                    }
                }
                self.last = Some(s);
                let epoch = self.date.map(|d| d.days() * 86_400 + i64::from(s));
                (iso(self.date, s), epoch)
            }
        }
    }
}

/// The median gap between consecutive known instants, in seconds.
pub fn median_gap(instants: &[i64]) -> Option<f64> {
    let mut gaps: Vec<i64> = instants
        .windows(2)
        .filter_map(|w| match w {
            [a, b] if b > a => Some(b - a),
            _ => None,
        })
        .collect();
    if gaps.is_empty() {
        return None;
    }
    gaps.sort_unstable();
    gaps.get(gaps.len() / 2).map(|g| *g as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dt(line: &str) -> Option<String> {
        let mut c = Clock::default();
        parse_stamp_line(line, SlashOrder::MonthFirst).map(|s| c.place(s).0)
    }

    #[test]
    fn us_twelve_hour_stamps_become_iso() {
        assert_eq!(
            dt("06/13/2018 02:10:50 PM").as_deref(),
            Some("2018-06-13T14:10:50")
        );
        assert_eq!(
            dt("06/13/2018 12:10:50 AM").as_deref(),
            Some("2018-06-13T00:10:50")
        );
        assert_eq!(
            dt("09/26/21 03:35:19").as_deref(),
            Some("2021-09-26T03:35:19")
        );
    }

    #[test]
    fn german_japanese_iso_and_solaris_stamps_become_iso() {
        assert_eq!(
            dt("13.06.2018 14:10:50").as_deref(),
            Some("2018-06-13T14:10:50")
        );
        assert_eq!(
            dt("2018年06月13日 14時10分50秒").as_deref(),
            Some("2018-06-13T14:10:50")
        );
        assert_eq!(
            dt("2018年06月13日 午後02時10分50秒").as_deref(),
            Some("2018-06-13T14:10:50")
        );
        assert_eq!(
            dt("2020-06-01T10:00:00+0200").as_deref(),
            Some("2020-06-01T10:00:00")
        );
        assert_eq!(
            dt("Tue Apr 19 21:16:01 2011").as_deref(),
            Some("2011-04-19T21:16:01")
        );
        // The year is the last token, after a time zone or two; a ctime
        // line without one is no stamp; the month is read in any case.
        assert_eq!(
            dt("Tue APR 19 21:16:01 CEST x 2011").as_deref(),
            Some("2011-04-19T21:16:01")
        );
        assert_eq!(dt("Tue Apr 19 21:16:01"), None);
        assert_eq!(dt("Tue Äpr 19 21:16:01 2011"), None);
        assert_eq!(dt("1303247761").as_deref(), Some("2011-04-19T21:16:01"));
        assert_eq!(dt("Time: 20:44:30").as_deref(), Some("20:44:30"));
        assert_eq!(
            dt("23-NOV-26 14:05:01").as_deref(),
            Some("2026-11-23T14:05:01")
        );
    }

    #[test]
    fn device_rows_are_not_stamps() {
        assert_eq!(dt("sda 0.00 1.00"), None);
        assert_eq!(dt("sda 0.00 1.00 2.00 3.00 4.00 5.00"), None);
        assert_eq!(dt("avg-cpu:  %user"), None);
        assert_eq!(dt("13/13/2018 10:00:00"), None);
    }

    /// Every hour, minute and second of a day, years of one to five
    /// digits and every month and day number: what `format!` writes.
    #[test]
    fn iso_writes_what_format_writes() {
        let want = |date: Option<Date>, secs: Secs| {
            let (h, mi, s) = (secs / 3600, secs / 60 % 60, secs % 60);
            match date {
                Some(d) => format!("{:04}-{:02}-{:02}T{h:02}:{mi:02}:{s:02}", d.y, d.m, d.d),
                None => format!("{h:02}:{mi:02}:{s:02}"),
            }
        };
        for secs in (0..86_400)
            .step_by(7)
            .chain([86_399, 86_400, 359_999, 360_000, u32::MAX])
        {
            assert_eq!(iso(None, secs), want(None, secs), "{secs}");
        }
        for y in [-1, 0, 7, 99, 2026, 9999, 10_000] {
            for m in [1, 9, 10, 12, 100] {
                for d in [1, 9, 10, 31] {
                    let date = Some(Date { y, m, d });
                    for secs in [0, 3_599, 45_296, 86_399, 400_000] {
                        assert_eq!(iso(date, secs), want(date, secs), "{y} {m} {d} {secs}");
                    }
                }
            }
        }
    }

    #[test]
    fn time_only_stamps_roll_over_midnight() {
        let mut c = Clock::new(parse_date("2014-02-05", SlashOrder::MonthFirst));
        assert_eq!(c.place(Stamp::Time(86_000)).0, "2014-02-05T23:53:20");
        assert_eq!(c.place(Stamp::Time(60)).0, "2014-02-06T00:01:00");
        let feb = Date {
            y: 2024,
            m: 2,
            d: 29,
        };
        assert_eq!(
            feb.next(),
            Date {
                y: 2024,
                m: 3,
                d: 1
            }
        );
    }
}
