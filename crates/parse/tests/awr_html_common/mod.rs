//! Consistency checks shared by the corpus and fixture tests: a parsed
//! report must agree with its own arithmetic.

#![allow(dead_code)]

use awrflash_model::{DbReport, ReportKind};

/// Relative agreement within `rel`, or within `abs` (the rounding of the
/// printed figure).
fn close(a: f64, b: f64, rel: f64, abs: f64) -> bool {
    let d = (a - b).abs();
    d <= abs || d <= rel * a.abs().max(b.abs())
}

/// Rounding of a count the top list printed with a K/M/G suffix: `140M`
/// (2-3 significant digits) stands for 135,387,879 waits.
fn printed_unit(x: f64) -> f64 {
    if x < 10_000.0 || x.fract() != 0.0 {
        return 0.5;
    }
    let digits = x.log10().floor();
    let mut sig = 0.0;
    let mut m = x;
    while m >= 1.0 && (m / 10.0).fract() == 0.0 {
        m /= 10.0;
        sig += 1.0;
    }
    // `sig` trailing zeros: x = m * 10^sig with m having (digits+1-sig) digits.
    if digits + 1.0 - sig <= 3.0 {
        0.5 * 10f64.powf(sig)
    } else {
        0.5
    }
}

/// Everything that does not add up, as sentences.
pub fn check_report(r: &DbReport, has_segment_sections: bool) -> Vec<String> {
    let mut p = Vec::new();
    let h = &r.header;
    let global = r.source.kind == Some(ReportKind::RacGlobal);
    for (name, present) in [
        ("db_name", h.db_name.is_some()),
        ("dbid", h.dbid.is_some()),
        ("release", h.release.is_some()),
        ("begin_snap", h.begin_snap.is_some()),
        ("end_snap", h.end_snap.is_some()),
        ("begin_time", h.begin_time.is_some()),
        ("end_time", h.end_time.is_some()),
        ("db_time_s", h.db_time_s.is_some()),
        // 10g prints host and release but no platform line.
        (
            "platform",
            h.platform.is_some() || h.release.as_deref().is_some_and(|r| r.starts_with("10.")),
        ),
        ("cpus", h.cpus.is_some()),
        // A global report spans several hosts and instances.
        ("host", global || h.host.is_some()),
        ("instance", global || h.instance.is_some()),
        ("instance_number", global || h.instance_number.is_some()),
    ] {
        if !present {
            p.push(format!("header.{name} missing"));
        }
    }
    let elapsed = h.elapsed_s.unwrap_or(0.0);
    if elapsed <= 0.0 {
        p.push(format!("elapsed_s = {:?}, not > 0", h.elapsed_s));
    }
    let db_time = h.db_time_s.unwrap_or(0.0);
    if global {
        // awrgrpt prints no Load Profile: its DB time is the sum of the
        // instances' DB time (Database Instances Included In Report).
        let sum: f64 = r.instances.iter().filter_map(|i| i.db_time_s).sum();
        if r.instances.is_empty() || !close(db_time, sum, 0.02, 1.0) {
            p.push(format!(
                "db_time_s {db_time} vs sum of {} instances {sum}",
                r.instances.len()
            ));
        }
    } else {
        match r.load_profile_row("DB Time(s)").and_then(|l| l.per_second) {
            // Load Profile prints one decimal, after a first rounding to
            // two: one unit of the last digit (0.1/s) of rounding. The 19c
            // PDB report in the corpus prints 0.2 for 3151.8 s / 21623 s =
            // 0.146/s (0.146 -> 0.15 -> 0.2).
            Some(ps) => {
                if !close(db_time, ps * elapsed, 0.02, 0.1 * elapsed) {
                    p.push(format!(
                        "db_time_s {db_time} vs Load Profile DB Time(s) {ps} x {elapsed} s = {}",
                        ps * elapsed
                    ));
                }
            }
            // 10g's Load Profile has no DB Time row: the Time Model has it.
            None => match r.time_model_row("DB time").and_then(|t| t.time_s) {
                Some(t) if h.release.as_deref().is_some_and(|r| r.starts_with("10.")) => {
                    if !close(db_time, t, 0.02, 1.0) {
                        p.push(format!("db_time_s {db_time} vs Time Model DB time {t}"));
                    }
                }
                _ => p.push("Load Profile DB Time(s) missing".into()),
            },
        }
    }
    if r.top_events.is_empty() {
        p.push("no top events".into());
    }
    // DB CPU and wait time are measured apart (CPU from the OS, waits by
    // wall clock) and CPU burnt inside a wait (async direct path I/O,
    // SQL*Net more data) is counted in both: the printed top list can sum
    // above 100% (116.4% in an 11.2.0.4 corpus report, with DB CPU 78.4%).
    // Waits alone and CPU alone stay within DB time.
    let is_cpu = |e: &&awrflash_model::TopEvent| e.waits.is_none();
    let waits_pct: f64 = r
        .top_events
        .iter()
        .filter(|e| !is_cpu(e))
        .filter_map(|e| e.pct_db_time)
        .sum();
    let cpu_pct: f64 = r
        .top_events
        .iter()
        .filter(is_cpu)
        .filter_map(|e| e.pct_db_time)
        .sum();
    if waits_pct > 100.5 || cpu_pct > 100.5 {
        p.push(format!(
            "top event % DB time sums to {waits_pct} (waits) and {cpu_pct} (CPU)"
        ));
    }
    for e in &r.top_events {
        let Some(waits) = e.waits else {
            continue;
        };
        match r.foreground_event(&e.name) {
            Some(w)
                if w.waits
                    .is_some_and(|x| close(x, waits, 0.0005, printed_unit(waits))) => {}
            Some(w) => p.push(format!(
                "top event {:?} waits {waits} vs wait events {:?}",
                e.name, w.waits
            )),
            // "Only events with Total Wait Time (s) >= .001 are shown" (19c).
            None if e.avg_ms.is_some_and(|a| waits * a / 1000.0 < 0.001) => {}
            None => p.push(format!(
                "top event {:?} not in foreground wait events",
                e.name
            )),
        }
    }
    let redo_total = r.activity_stat("redo size").and_then(|s| s.total);
    let redo_ps = r.load_profile_row("Redo size").and_then(|l| l.per_second);
    match (redo_total, redo_ps) {
        (Some(t), Some(ps)) if elapsed > 0.0 => {
            // A global report prints KiB/s with two decimals (+-5 B/s).
            let printed = if global { 6.0 } else { 0.05 };
            if !close(t / elapsed, ps, 0.02, printed) {
                p.push(format!(
                    "redo size {t} / {elapsed} s = {} vs per second {ps}",
                    t / elapsed
                ));
            }
        }
        _ => p.push(format!(
            "redo size total {redo_total:?} or per second {redo_ps:?} missing"
        )),
    }
    if has_segment_sections && r.segments.values().all(Vec::is_empty) {
        p.push("report has Segments by ... sections but no segment list was read".into());
    }
    p
}

/// One line per report: kind, release, interval and section counts.
pub fn summary_line(name: &str, r: &DbReport) -> String {
    let h = &r.header;
    let seg: usize = r.segments.values().map(Vec::len).sum();
    let sql: usize = r.sql.values().map(Vec::len).sum();
    format!(
        "{name}: {kind:?} {rel} {db}/{inst} snaps {b}-{e} ela={ela:.0}s dbtime={dbt:.0}s cpus={cpus} \
         lp={lp} top={top} fg={fg} bg={bg} wc={wc} hist={hist} tm={tm} os={os} act={act} \
         iofn={iofn} ioft={ioft} ts={ts} files={files} bpa={bpa} seglists={sl} segrows={seg} \
         sql={sql} params={params} inst={ni} warnings={w}",
        kind = r.source.kind.unwrap_or_default(),
        rel = h.release.as_deref().unwrap_or("?"),
        db = h.db_name.as_deref().unwrap_or("?"),
        inst = h.instance.as_deref().unwrap_or("-"),
        b = h.begin_snap.unwrap_or(0),
        e = h.end_snap.unwrap_or(0),
        ela = h.elapsed_s.unwrap_or(0.0),
        dbt = h.db_time_s.unwrap_or(0.0),
        cpus = h.cpus.unwrap_or(0),
        lp = r.load_profile.len(),
        top = r.top_events.len(),
        fg = r.wait_events.foreground.len(),
        bg = r.wait_events.background.len(),
        wc = r.wait_classes.len(),
        hist = r.wait_histogram.len(),
        tm = r.time_model.len(),
        os = r.os_stats.len(),
        act = r.activity_stats.len(),
        iofn = r.iostat_function.len(),
        ioft = r.iostat_filetype.len(),
        ts = r.tablespace_io.len(),
        files = r.file_io.len(),
        bpa = r.buffer_pool_advisory.len(),
        sl = r.segments.len(),
        params = r.parameters.len(),
        ni = r.instances.len(),
        w = r.warnings.len(),
    )
}

/// Rows whose `src.line` does not point at their name (the line of the
/// `<tr>` or one of the two after it, where Oracle wraps long cells).
pub fn misplaced_rows(r: &DbReport, text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let plain = |line: u32| {
        let from = (line as usize).saturating_sub(1);
        let joined = lines
            .get(from..(from + 3).min(lines.len()))
            .unwrap_or(&[])
            .join(" ");
        let unescaped = joined
            .replace("&#160;", " ")
            .replace("&nbsp;", " ")
            .replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&quot;", "\"")
            .replace("&amp;", "&");
        unescaped.split_whitespace().collect::<Vec<_>>().join(" ")
    };
    let mut named: Vec<(&str, &awrflash_model::SourceRef)> = Vec::new();
    named.extend(r.top_events.iter().map(|e| (e.name.as_str(), &e.src)));
    named.extend(
        r.wait_events
            .foreground
            .iter()
            .chain(&r.wait_events.background)
            .map(|e| (e.name.as_str(), &e.src)),
    );
    named.extend(r.activity_stats.iter().map(|s| (s.name.as_str(), &s.src)));
    named.extend(r.parameters.iter().map(|p| (p.name.as_str(), &p.src)));
    named.extend(
        r.segments
            .values()
            .flatten()
            .map(|s| (s.object.as_str(), &s.src)),
    );
    // A global report's Time Model has one column per statistic: its rows
    // are named after the statistic the column stands for.
    if r.source.kind != Some(ReportKind::RacGlobal) {
        named.extend(r.time_model.iter().map(|t| (t.name.as_str(), &t.src)));
    }
    named
        .into_iter()
        .filter(|(name, src)| !plain(src.line).contains(name))
        .map(|(name, src)| format!("{name:?} not on line {} [{}]", src.line, src.section))
        .collect()
}
