//! The report header: database, instance, host and snapshot tables, and
//! Cache Sizes. Told apart by their column names, which every release from
//! 10g to 23ai keeps (`DB Name`/`DB Id`, `Host Name`, `Snap Id`/`Snap Time`).

use awrflash_model::DbReport;

use super::view::{Ctx, View, count, key, string, text};
use crate::num::Suffix;

/// Fills header fields from a header table; false when `v` is none.
pub fn header_table(v: &View<'_>, ctx: &mut Ctx, r: &mut DbReport) -> bool {
    let Some(row) = v.data.first() else {
        return false;
    };
    let h = &mut r.header;
    if v.has_col("db name") && v.has_col("db id") {
        h.db_name = string(row, v.col(&["db name"]));
        h.dbid = text(row, v.col(&["db id"])).and_then(|s| s.trim().parse().ok());
        if let Some(i) = v.col(&["instance"]) {
            h.instance = string(row, Some(i));
        }
        if let Some(i) = v.col(&["inst num", "inst number"]) {
            h.instance_number = text(row, Some(i)).and_then(|s| s.trim().parse().ok());
        }
        h.release = string(row, v.col(&["release"]));
        if let Some(rac) = string(row, v.col(&["rac"])) {
            h.rac = rac.eq_ignore_ascii_case("yes");
        }
        if let Some(cdb) = string(row, v.col(&["cdb"])) {
            h.cdb = Some(cdb.eq_ignore_ascii_case("yes"));
        }
        // 10g prints the host in the database table.
        if let Some(i) = v.col(&["host"]) {
            h.host = string(row, Some(i));
        }
        h.src = Some(v.src(row));
        return true;
    }
    if v.has_col("instance") && v.has_col("inst num") {
        h.instance = string(row, v.col(&["instance"]));
        h.instance_number = text(row, v.col(&["inst num"])).and_then(|s| s.trim().parse().ok());
        h.system_data_hidden = string(row, v.col(&["system data visible"]))
            .is_some_and(|s| s.eq_ignore_ascii_case("no"));
        return true;
    }
    if v.has_col("container db id") && v.has_col("container name") {
        h.container = string(row, v.col(&["container name"]));
        return true;
    }
    if v.has_col("host name") || (v.has_col("host") && v.has_col("platform")) {
        h.host = string(row, v.col(&["host name", "host"]));
        h.platform = string(row, v.col(&["platform"]));
        h.cpus = count(ctx.num(v, row, v.col(&["cpus"])));
        h.cores = count(ctx.num(v, row, v.col(&["cores"])));
        h.sockets = count(ctx.num(v, row, v.col(&["sockets"])));
        h.memory_gb = ctx.num(v, row, v.col(&["memory (gb)", "memory"]));
        return true;
    }
    if v.has_col("snap id") && v.has_col("snap time") {
        snapshots(v, ctx, r);
        return true;
    }
    false
}

fn snapshots(v: &View<'_>, ctx: &mut Ctx, r: &mut DbReport) {
    let id = v.col(&["snap id"]);
    let time = v.col(&["snap time"]);
    let mut elapsed_min = None;
    for row in &v.data {
        let label = key(text(row, Some(0)).unwrap_or(""));
        match label.as_str() {
            "begin snap" => {
                r.header.begin_snap = text(row, id).and_then(|s| s.trim().parse().ok());
                r.header.begin_time = text(row, time).and_then(iso_time);
            }
            "end snap" => {
                r.header.end_snap = text(row, id).and_then(|s| s.trim().parse().ok());
                r.header.end_time = text(row, time).and_then(iso_time);
            }
            "elapsed" => elapsed_min = minutes(ctx, v, row),
            "db time" => r.header.db_time_s = minutes(ctx, v, row).map(|m| m * 60.0),
            _ => {}
        }
    }
    r.header.elapsed_s = elapsed_seconds(
        r.header.begin_time.as_deref(),
        r.header.end_time.as_deref(),
        elapsed_min,
    );
}

/// The interval in seconds: from the snapshot times (exact to the second,
/// which is what Oracle divides by for per-second rates) when they agree
/// with the printed minutes, else from the minutes (two decimals).
pub fn elapsed_seconds(
    begin: Option<&str>,
    end: Option<&str>,
    minutes: Option<f64>,
) -> Option<f64> {
    let exact = match (begin.and_then(epoch), end.and_then(epoch)) {
        (Some(b), Some(e)) if e > b => Some((e - b) as f64),
        _ => None,
    };
    match (exact, minutes) {
        (Some(s), Some(m)) if (s - m * 60.0).abs() <= 60.0 => Some(s),
        (_, Some(m)) => Some(m * 60.0),
        (Some(s), None) => Some(s),
        (None, None) => None,
    }
}

/// `30.02 (mins)` in the second or third cell.
fn minutes(ctx: &mut Ctx, v: &View<'_>, row: &super::scan::Row) -> Option<f64> {
    row.cells.iter().skip(1).find_map(|c| {
        let t = c.text.trim();
        let t = t.strip_suffix("(mins)").unwrap_or(t).trim();
        if t.is_empty() {
            None
        } else {
            ctx.cell_num(&v.section, row.line, t, Suffix::Decimal)
        }
    })
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// `02-Oct-23 07:30:20` (or without seconds) to `2023-10-02T07:30:20`.
pub fn iso_time(s: &str) -> Option<String> {
    let s = s.trim();
    let (date, time) = s.split_once(' ')?;
    let mut d = date.split('-');
    let day: u32 = d.next()?.parse().ok()?;
    let mon = d.next()?.to_ascii_lowercase();
    let month = MONTHS.iter().position(|m| *m == mon)? + 1;
    let y: u32 = d.next()?.parse().ok()?;
    let year = match y {
        0..=69 => 2000 + y,
        70..=99 => 1900 + y,
        _ => y,
    };
    let mut t = time.trim().split(':');
    let hh: u32 = t.next()?.parse().ok()?;
    let mm: u32 = t.next()?.parse().ok()?;
    let ss: u32 = t.next().map_or(Some(0), |x| x.parse().ok())?;
    if day == 0 || day > 31 || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{hh:02}:{mm:02}:{ss:02}"
    ))
}

/// Seconds since 1970 of an ISO time written by [`iso_time`].
fn epoch(iso: &str) -> Option<i64> {
    awrflash_model::time::iso_seconds(iso)
}

/// Single-instance "Cache Sizes": label/begin/end pairs in two column groups.
pub fn cache_sizes(v: &View<'_>, ctx: &mut Ctx, r: &mut DbReport) {
    let c = &mut r.cache_sizes;
    for row in &v.data {
        if c.src.is_none() {
            c.src = Some(v.src(row));
        }
        let cells: Vec<&str> = row.cells.iter().map(|c| c.text.as_ref()).collect();
        // Labels sit in cell 0 (with begin/end after) and cell 3 (value after).
        let mut i = 0;
        while i < cells.len() {
            let label = key(cells.get(i).copied().unwrap_or(""));
            let next = |k: usize| cells.get(i + k).copied().unwrap_or("");
            let mut take = 1;
            match label.as_str() {
                "buffer cache" => {
                    c.buffer_cache_bytes = ctx.bytes(&v.section, row.line, next(1), 1.0);
                    let end = next(2);
                    if !end.trim().is_empty() && parse_is_num(end) {
                        c.buffer_cache_bytes_end = ctx.bytes(&v.section, row.line, end, 1.0);
                        take = 3;
                    } else {
                        take = 2;
                    }
                }
                "shared pool size" | "shared pool" => {
                    c.shared_pool_bytes = ctx.bytes(&v.section, row.line, next(1), 1.0);
                    let end = next(2);
                    if !end.trim().is_empty() && parse_is_num(end) {
                        c.shared_pool_bytes_end = ctx.bytes(&v.section, row.line, end, 1.0);
                        take = 3;
                    } else {
                        take = 2;
                    }
                }
                "std block size" => {
                    c.std_block_size = ctx.bytes(&v.section, row.line, next(1), 1.0);
                    take = 2;
                }
                "log buffer" => {
                    c.log_buffer_bytes = ctx.bytes(&v.section, row.line, next(1), 1.0);
                    take = 2;
                }
                _ => {}
            }
            i += take;
        }
    }
}

fn parse_is_num(s: &str) -> bool {
    s.trim()
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_digit() || c == '.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snapshot_times_become_iso_8601() {
        assert_eq!(
            iso_time("02-Oct-23 07:30:20").as_deref(),
            Some("2023-10-02T07:30:20")
        );
        assert_eq!(
            iso_time("15-Feb-23 00:00").as_deref(),
            Some("2023-02-15T00:00:00")
        );
        assert_eq!(
            iso_time("05-Jun-99 14:00:03").as_deref(),
            Some("1999-06-05T14:00:03")
        );
        assert_eq!(iso_time("32-Foo-23 07:30"), None);
    }

    #[test]
    fn elapsed_prefers_exact_snapshot_times_that_agree_with_the_minutes() {
        let b = Some("2023-10-02T07:30:20");
        let e = Some("2023-10-02T08:00:21");
        assert_eq!(elapsed_seconds(b, e, Some(30.02)), Some(1801.0));
        // Across midnight and month ends.
        assert_eq!(
            elapsed_seconds(
                Some("2023-01-31T23:30:00"),
                Some("2023-02-01T00:30:00"),
                Some(60.0)
            ),
            Some(3600.0)
        );
        // Times that disagree with the printed minutes lose.
        assert_eq!(elapsed_seconds(b, e, Some(90.0)), Some(5400.0));
    }
}
