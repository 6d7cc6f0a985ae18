//! The one normalisation pass every report format goes through after its
//! sections are read (AWR HTML, AWR text, Statspack), so that the same
//! snapshots give the same model whatever the format: figures one section
//! lacks and another prints are filled here, once.

use std::collections::BTreeSet;

use awrflash_model::{DbReport, Format, SharedStr, SourceRef, Warning};

use crate::names::{self, List, Lookup};

/// Fills the gaps of a freshly parsed report and adds the warnings that
/// change its meaning (hidden identity, sections the verdict needs).
pub fn report(r: &mut DbReport) {
    markup_debris(r);
    full_names(r);
    cpus_from_os_stats(r);
    advisory_block_sizes(r);
    wait_classes_from_top_events(r);
    hidden_identity(r);
    verdict_sections(r);
}

/// The warning for a report that does not end with its `End of Report`
/// line, in every format.
pub fn cut_short_warning(line: u32) -> Warning {
    Warning::changes_meaning(
        "",
        line,
        "no \"End of Report\" line: the report is cut short; later sections are missing",
    )
}

/// Text that is markup, not a value: Oracle prints `<td ...>/td>` where a
/// hidden container name belongs, and a cut tag leaves `/td>`.
fn is_markup(s: &str) -> bool {
    s.contains('<') || s.contains('>') || s.contains("/td")
}

/// A header field never holds markup debris: it is left empty, with a
/// warning that names it.
fn markup_debris(r: &mut DbReport) {
    let line = r.header.src.as_ref().map_or(0, |s| s.line);
    let h = &mut r.header;
    let fields: [(&str, &mut Option<String>); 6] = [
        ("DB name", &mut h.db_name),
        ("instance", &mut h.instance),
        ("release", &mut h.release),
        ("container", &mut h.container),
        ("host", &mut h.host),
        ("platform", &mut h.platform),
    ];
    for (what, field) in fields {
        if field.as_deref().is_some_and(is_markup) {
            let v = field.take().unwrap_or_default();
            r.warnings.push(Warning::changes_meaning(
                "header",
                line,
                format!("the {what} cell holds markup ({v:?}), not a name: left empty"),
            ));
        }
    }
}

/// A report whose identity is hidden or blank says what is missing, so it
/// is not mistaken for (or grouped with) another database.
fn hidden_identity(r: &mut DbReport) {
    let h = &r.header;
    let identity_gone = h.db_name.is_none() || h.dbid.is_none();
    if !(identity_gone || h.system_data_hidden) {
        return;
    }
    let missing: Vec<&str> = [
        ("DB name", h.db_name.is_none()),
        ("DBID", h.dbid.is_none()),
        ("release", h.release.is_none()),
        ("host", h.host.is_none()),
        ("CPU count", h.cpus.is_none()),
    ]
    .into_iter()
    .filter_map(|(what, gone)| gone.then_some(what))
    .collect();
    let why = if h.system_data_hidden {
        "the report says \"System Data Visible: NO\" (as on Autonomous Database)"
    } else {
        "the report header leaves them blank"
    };
    let line = h.src.as_ref().map_or(1, |s| s.line);
    let message = if missing.is_empty() {
        format!("{why}; the identity cells it prints were read")
    } else {
        format!("identity not shown: no {}; {why}", missing.join(", "))
    };
    r.warnings
        .push(Warning::changes_meaning("header", line, message));
}

/// The verdict weighs I/O waits against DB time: a report that prints
/// neither DB time nor any wait event list cannot give one.
fn verdict_sections(r: &mut DbReport) {
    let has_db_time = r.header.db_time_s.is_some()
        || r.time_model
            .iter()
            .any(|t| t.name.eq_ignore_ascii_case("DB time") && t.time_s.is_some())
        || r.load_profile
            .iter()
            .any(|l| l.name.to_ascii_lowercase().starts_with("db time") && l.per_second.is_some());
    let has_waits = !r.top_events.is_empty()
        || !r.wait_events.foreground.is_empty()
        || !r.wait_events.all.is_empty();
    let mut missing = Vec::new();
    if !has_db_time {
        missing.push("DB time (header, Time Model Statistics or Load Profile)");
    }
    if !has_waits {
        missing.push("wait events (Top Events or Wait Events)");
    }
    if !missing.is_empty() {
        r.warnings.push(Warning::changes_meaning(
            "",
            0,
            format!(
                "the report has no {}: the share of I/O in DB time cannot be judged",
                missing.join(" and no ")
            ),
        ));
    }
}

/// A whole, non-negative count.
pub fn to_u32(v: f64) -> Option<u32> {
    (v >= 0.0 && v <= f64::from(u32::MAX) && v.fract() == 0.0).then_some(v as u32)
}

/// Event and statistic names: blank runs collapsed in every format, and in
/// text reports (which cut them to their column) mapped back to Oracle's
/// full name where the printed prefix begins only one.
fn full_names(r: &mut DbReport) {
    // The HTML scanner collapses every cell's blanks (Unicode ones, which
    // include the ASCII blanks `names::collapse` reads) and prints names
    // whole: nothing to do (the scanner's tests check it).
    if r.source.format == Format::AwrHtml {
        return;
    }
    let expand = matches!(r.source.format, Format::AwrText | Format::Statspack);
    let mut ambiguous: BTreeSet<String> = BTreeSet::new();
    let mut warnings = Vec::new();
    // The name to write in place of `name`, if it changes.
    let mut fix = |list: List, name: &str, src: &SourceRef| -> Option<String> {
        let collapsed = names::collapse(name);
        let name = collapsed.as_ref();
        let mut full_name = None;
        if expand {
            match names::lookup(list, name) {
                Lookup::AsPrinted => {}
                Lookup::Full(full) => full_name = Some(full.to_string()),
                Lookup::Ambiguous(candidates) => {
                    if ambiguous.insert(name.to_string()) {
                        warnings.push(Warning::new(
                            src.section.clone(),
                            src.line,
                            format!(
                                "name {name:?} is cut to its column and begins several names ({}, ...): kept as printed",
                                candidates.join(", ")
                            ),
                        ));
                    }
                }
            }
        }
        match (full_name, collapsed) {
            (Some(full), _) => Some(full),
            (None, std::borrow::Cow::Owned(c)) => Some(c),
            (None, std::borrow::Cow::Borrowed(_)) => None,
        }
    };
    for e in &mut r.top_events {
        if let Some(n) = fix(List::Events, &e.name, &e.src) {
            e.name = n;
        }
    }
    for e in r
        .wait_events
        .foreground
        .iter_mut()
        .chain(r.wait_events.background.iter_mut())
        .chain(r.wait_events.all.iter_mut())
    {
        if let Some(n) = fix(List::Events, &e.name, &e.src) {
            e.name = SharedStr::shared(&n);
        }
    }
    for h in &mut r.wait_histogram {
        if let Some(n) = fix(List::Events, &h.event, &h.src) {
            h.event = SharedStr::shared(&n);
        }
    }
    for s in &mut r.activity_stats {
        if let Some(n) = fix(List::Statistics, &s.name, &s.src) {
            s.name = SharedStr::shared(&n);
        }
    }
    r.warnings.extend(warnings);
}

/// 10g prints no host table and 8i/9i Statspack no CPU line: the CPU count
/// is then only in the OS statistics.
fn cpus_from_os_stats(r: &mut DbReport) {
    let os = |r: &DbReport, n: &str| r.os_stat(n).and_then(|s| s.value).and_then(to_u32);
    if r.header.cpus.is_none() {
        r.header.cpus = os(r, "NUM_CPUS");
    }
    if r.header.cores.is_none() {
        r.header.cores = os(r, "NUM_CPU_CORES");
    }
}

/// The advisory prints the pool letter; the standard block size applies to
/// D/K/R, and other pools are named by their size (`16k`).
fn advisory_block_sizes(r: &mut DbReport) {
    let std = r.cache_sizes.std_block_size;
    for row in &mut r.buffer_pool_advisory {
        if row.block_size.is_none() {
            row.block_size = match row.pool.as_str() {
                "D" | "K" | "R" => std,
                p => p
                    .strip_suffix(['k', 'K'])
                    .and_then(|n| n.parse::<u64>().ok())
                    .and_then(|n| n.checked_mul(1024)),
            };
        }
    }
}

/// Event tables print no wait class before 12c: take it from the top events
/// where the event is listed there.
fn wait_classes_from_top_events(r: &mut DbReport) {
    let classes: Vec<(String, String)> = r
        .top_events
        .iter()
        .filter_map(|e| e.wait_class.clone().map(|c| (e.name.clone(), c)))
        .collect();
    for e in r
        .wait_events
        .foreground
        .iter_mut()
        .chain(r.wait_events.background.iter_mut())
        .chain(r.wait_events.all.iter_mut())
    {
        if e.wait_class.is_none()
            && let Some((_, c)) = classes.iter().find(|(n, _)| {
                // A name still cut to its column (ambiguous prefix) matches
                // the top event it begins.
                *n == e.name || (e.name.len() >= 20 && n.starts_with(e.name.as_str()))
            })
        {
            e.wait_class = Some(SharedStr::shared(c));
        }
    }
}

#[cfg(test)]
mod tests {
    use awrflash_model::{BufferPoolAdvisoryRow, TopEvent, WaitEvent};

    use super::*;

    #[test]
    fn advisory_pools_named_by_size_get_that_block_size() {
        let mut r = DbReport::default();
        r.cache_sizes.std_block_size = Some(8192);
        for pool in ["D", "16k", "X"] {
            r.buffer_pool_advisory.push(BufferPoolAdvisoryRow {
                pool: pool.into(),
                ..BufferPoolAdvisoryRow::default()
            });
        }
        report(&mut r);
        let sizes: Vec<Option<u64>> = r
            .buffer_pool_advisory
            .iter()
            .map(|b| b.block_size)
            .collect();
        assert_eq!(sizes, vec![Some(8192), Some(16384), None]);
    }

    #[test]
    fn every_event_list_takes_its_class_from_the_top_events() {
        let mut r = DbReport::default();
        r.top_events.push(TopEvent {
            name: "db file sequential read".into(),
            wait_class: Some("User I/O".into()),
            ..TopEvent::default()
        });
        let ev = WaitEvent {
            name: "db file sequential read".into(),
            ..WaitEvent::default()
        };
        r.wait_events.foreground.push(ev.clone());
        r.wait_events.all.push(ev);
        report(&mut r);
        assert_eq!(
            r.wait_events
                .all
                .first()
                .and_then(|e| e.wait_class.as_deref()),
            Some("User I/O")
        );
        assert_eq!(
            r.wait_events
                .foreground
                .first()
                .and_then(|e| e.wait_class.as_deref()),
            Some("User I/O")
        );
    }
}
