//! The self-contained HTML page (askama, escaping on) and the batch index.
//!
//! Only the charts from [`crate::svg`] are inserted unescaped; they are built
//! here from numbers, and their text is escaped by the SVG builder.

use askama::Template;
use awrflash_model::Analysis;

use crate::fmt;
use crate::svg::{self, Marker, Series, StackedBar};
use crate::view::{self, View};

/// One histogram chart with its caption.
pub struct HistChart {
    pub event: String,
    pub total_waits: String,
    /// `38.2% of waits can be shortened (...)`, or empty.
    pub shortenable: String,
    pub src: Option<view::SrcView>,
    pub svg: String,
}

/// Charts of one page, as finished `<svg>` markup.
#[derive(Default)]
pub struct Charts {
    pub breakdown: Option<String>,
    pub histograms: Vec<HistChart>,
    pub flash_curve: Option<String>,
    pub pareto: Option<String>,
    pub series: Vec<String>,
}

#[derive(Template)]
#[template(path = "report.html", config = "askama.toml")]
struct ReportPage<'a> {
    v: &'a View,
    c: &'a Charts,
}

struct IndexRow {
    href: String,
    db: String,
    dbid: String,
    instances: String,
    host: String,
    release: String,
    window: String,
    summary: String,
    bound: String,
    /// Projected DB time saved per day, as text and as the sort key
    /// (seconds, middle of the range; empty when unknown).
    per_day: String,
    per_day_key: String,
    pct: String,
    pct_key: String,
    /// The saving's bar, finished `<svg>` markup built from numbers.
    bar: String,
    critical: usize,
    warning: usize,
    info: usize,
    /// Middle of the per-day saving, for the server-side order.
    order: Option<f64>,
}

#[derive(Template)]
#[template(path = "index.html", config = "askama.toml")]
struct IndexPage<'a> {
    rows: Vec<IndexRow>,
    notes: &'a RunNotes,
    csp: String,
    script: &'static str,
}

/// What a batch run reports beside its databases: the inputs that could
/// not be read (path, reason) and the run's warnings.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunNotes {
    pub failed: Vec<(String, String)>,
    pub warnings: Vec<String>,
}

/// Sorts the index table by a clicked header; the page reads the same
/// without it (rows arrive sorted by saving). Allowed by its hash in the
/// page's Content-Security-Policy, nothing else runs.
const SORT_SCRIPT: &str = "document.querySelectorAll('table.sortable').forEach(function(t){var hs=t.tHead.rows[0].cells;Array.prototype.forEach.call(hs,function(th,i){th.tabIndex=0;th.setAttribute('aria-sort','none');th.addEventListener('click',function(){var b=t.tBodies[0],rows=Array.prototype.slice.call(b.rows),asc=th.getAttribute('aria-sort')!=='ascending';Array.prototype.forEach.call(hs,function(h){h.setAttribute('aria-sort','none');});th.setAttribute('aria-sort',asc?'ascending':'descending');function k(r){var c=r.cells[i];return c.hasAttribute('data-v')?c.getAttribute('data-v'):c.textContent.trim();}rows.sort(function(x,y){var a=k(x),c=k(y),na=parseFloat(a),nc=parseFloat(c),d;if(a===''||c===''){d=(a==='')-(c==='');return d;}d=(!isNaN(na)&&!isNaN(nc))?na-nc:a.localeCompare(c);return asc?d:-d;});rows.forEach(function(r){b.appendChild(r);});});});});";

/// The index page's Content-Security-Policy: the report's, plus the sort
/// script by its SHA-256 hash.
fn index_csp() -> String {
    format!(
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src {}",
        script_hash(SORT_SCRIPT)
    )
}

/// A CSP source allowing one inline script: `'sha256-<base64>'`.
pub(crate) fn script_hash(script: &str) -> String {
    use sha2::{Digest, Sha256};
    format!("'sha256-{}'", base64(&Sha256::digest(script.as_bytes())))
}

/// Standard base64 with padding.
pub(crate) fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let pick = |n: u32| char::from(ABC.get((n & 63) as usize).copied().unwrap_or(b'A'));
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = |i: usize| u32::from(chunk.get(i).copied().unwrap_or(0));
        let n = (b(0) << 16) | (b(1) << 8) | b(2);
        out.push(pick(n >> 18));
        out.push(pick(n >> 12));
        out.push(if chunk.len() > 1 { pick(n >> 6) } else { '=' });
        out.push(if chunk.len() > 2 { pick(n) } else { '=' });
    }
    out
}

pub fn render(a: &Analysis) -> String {
    let v = view::build(a);
    let c = charts(a, &v);
    let page = ReportPage { v: &v, c: &c };
    page.render().unwrap_or_else(|e| {
        format!(
            "<!doctype html><title>awrflash</title><p>report template error: {}</p>",
            svg::esc(&e.to_string())
        )
    })
}

pub fn render_index(items: &[(&Analysis, String)], notes: &RunNotes) -> String {
    let savings: Vec<Option<view::Saving>> = items.iter().map(|(a, _)| view::saving(a)).collect();
    let max = savings
        .iter()
        .flatten()
        .map(|s| s.per_day_high_s)
        .fold(0.0_f64, f64::max);
    let mut rows: Vec<IndexRow> = items
        .iter()
        .zip(&savings)
        .map(|((a, href), saving)| {
            let v = view::build(a);
            let window = v
                .identity
                .iter()
                .find(|(k, _)| k == "Snapshot window")
                .map(|(_, w)| w.clone())
                .unwrap_or_default();
            let mid = saving
                .as_ref()
                .map(|s| (s.per_day_low_s + s.per_day_high_s) / 2.0);
            IndexRow {
                href: safe_href(href),
                db: v.db_label.clone(),
                dbid: a.database.dbid.map(|d| d.to_string()).unwrap_or_default(),
                instances: a.database.instances.join(", "),
                host: a.database.host.clone().unwrap_or_default(),
                release: a.database.release.clone().unwrap_or_default(),
                window,
                summary: v.summary.clone(),
                bound: v.bound.clone(),
                per_day: saving.as_ref().map_or_else(
                    || fmt::NA.to_string(),
                    |s| fmt::secs_range(s.per_day_low_s, s.per_day_high_s),
                ),
                per_day_key: mid.map(|m| format!("{m:.1}")).unwrap_or_default(),
                pct: saving.as_ref().map_or_else(
                    || fmt::NA.to_string(),
                    |s| fmt::pct_range(s.pct_low, s.pct_high),
                ),
                pct_key: saving
                    .as_ref()
                    .map(|s| format!("{:.2}", (s.pct_low + s.pct_high) / 2.0))
                    .unwrap_or_default(),
                bar: saving
                    .as_ref()
                    .map(|s| svg::saving_bar(s.per_day_low_s, s.per_day_high_s, max))
                    .unwrap_or_default(),
                critical: v.counts.critical,
                warning: v.counts.warning,
                info: v.counts.info,
                order: mid,
            }
        })
        .collect();
    // Where flash pays first: the largest projected saving per day first,
    // databases without a projection last.
    rows.sort_by(|x, y| {
        let by_saving = match (x.order, y.order) {
            (Some(a), Some(b)) => b.total_cmp(&a),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => std::cmp::Ordering::Equal,
        };
        by_saving
            .then_with(|| x.db.cmp(&y.db))
            .then_with(|| x.dbid.cmp(&y.dbid))
            .then_with(|| x.instances.cmp(&y.instances))
            .then_with(|| x.href.cmp(&y.href))
    });
    IndexPage {
        rows,
        notes,
        csp: index_csp(),
        script: SORT_SCRIPT,
    }
    .render()
    .unwrap_or_else(|e| {
        format!(
            "<!doctype html><title>awrflash</title><p>index template error: {}</p>",
            svg::esc(&e.to_string())
        )
    })
}

/// A relative link to a report: anything that could be read as a URL scheme
/// (`javascript:`, `http:`) is made a relative path.
fn safe_href(h: &str) -> String {
    let scheme_like = h.split('/').next().is_some_and(|first| first.contains(':'));
    if scheme_like || h.starts_with("//") {
        format!("./{}", h.trim_start_matches('/'))
    } else {
        h.to_string()
    }
}

fn charts(a: &Analysis, v: &View) -> Charts {
    let mut c = Charts::default();

    if !v.breakdown.is_empty() {
        let mut bars = vec![StackedBar {
            label: "Now",
            parts: v
                .breakdown
                .iter()
                .map(|r| (r.component, r.before_s))
                .collect(),
        }];
        if v.breakdown_after_title.is_some() {
            bars.push(StackedBar {
                label: "After best option",
                parts: v
                    .breakdown
                    .iter()
                    .map(|r| (r.component, r.after_s.unwrap_or(0.0)))
                    .collect(),
            });
        }
        c.breakdown = Some(svg::stacked_bars(
            &bars,
            "DB time by component, now and after the best option",
        ));
    }

    // Histograms come from the view (key events first), with their numbers.
    for h in &v.histograms {
        let vals: Vec<(String, f64)> = h.buckets.iter().map(|b| (b.label.clone(), b.pct)).collect();
        c.histograms.push(HistChart {
            event: h.event.clone(),
            total_waits: h.total_waits.clone(),
            shortenable: h.shortenable.clone(),
            src: h.src.clone(),
            svg: svg::bars(&vals, "%", &format!("{}: % of waits by latency", h.event)),
        });
    }

    if let Some(plan) = &a.flash_cache
        && plan.curve.len() > 1
    {
        let xs: Vec<String> = plan
            .curve
            .iter()
            .map(|p| format!("{}x", fmt::axis(p.multiple_of_buffer_cache)))
            .collect();
        let marker_at = plan.size_gb.and_then(|s| {
            plan.curve
                .iter()
                .enumerate()
                .min_by(|x, y| (x.1.size_gb - s).abs().total_cmp(&(y.1.size_gb - s).abs()))
                .map(|p| p.0)
        });
        let mark_text = plan
            .size_gb
            .map(|s| format!("recommended: {}", fmt::gb(s)))
            .unwrap_or_default();
        let positions: Vec<f64> = plan
            .curve
            .iter()
            .map(|p| p.multiple_of_buffer_cache)
            .collect();
        c.flash_curve = Some(svg::lines(
            &xs,
            Some(&positions),
            &[
                Series {
                    name: "projected DB time",
                    ys: plan.curve.iter().map(|p| p.db_time_s).collect(),
                    right_axis: false,
                    dashed: false,
                    unit: "s",
                },
                Series {
                    name: "SGA cost",
                    ys: plan.curve.iter().map(|p| p.sga_cost_mb).collect(),
                    right_axis: true,
                    dashed: true,
                    unit: "MB",
                },
            ],
            "flash cache size (multiple of the buffer cache)",
            marker_at.map(|at| Marker {
                at,
                text: &mark_text,
            }),
            "Projected DB time and SGA cost by flash cache size",
        ));
    }

    let pareto_rows: Vec<&view::SegmentView> =
        v.segments.iter().filter(|s| s.ranked).take(25).collect();
    if pareto_rows.iter().any(|s| s.reads_value > 0.0) {
        let names: Vec<String> = pareto_rows.iter().map(|s| s.name.clone()).collect();
        let vals: Vec<f64> = pareto_rows.iter().map(|s| s.reads_value).collect();
        let cum: Vec<f64> = pareto_rows.iter().map(|s| s.cumulative_value).collect();
        c.pareto = Some(svg::pareto(
            &names,
            &vals,
            &cum,
            "Segments by read requests with cumulative share",
        ));
    }

    if a.series.len() > 1 {
        let (xs, x_title) = short_labels(
            &a.series
                .iter()
                .enumerate()
                .map(|(i, p)| view::series_label(p, i))
                .collect::<Vec<_>>(),
        );
        // `sum_peak`: the peak of the parts' sum (read + write); otherwise of the
        // first part alone (DB CPU is part of DB time, not added to it).
        let panel = |title: &str, parts: Vec<(&str, Vec<f64>)>, unit: &str, sum_peak: bool| {
            let totals: Vec<f64> = (0..xs.len())
                .map(|i| {
                    let n = if sum_peak { parts.len() } else { 1 };
                    parts.iter().take(n).filter_map(|p| p.1.get(i)).sum()
                })
                .collect();
            let peak = totals
                .iter()
                .enumerate()
                .max_by(|x, y| x.1.total_cmp(y.1).then(y.0.cmp(&x.0)))
                .map(|p| (p.0, *p.1));
            let text = peak
                .map(|(i, v)| {
                    format!(
                        "peak {} {} at {}",
                        fmt::num(v),
                        unit,
                        xs.get(i).map_or("", String::as_str)
                    )
                })
                .unwrap_or_default();
            let series: Vec<Series<'_>> = parts
                .iter()
                .map(|(name, ys)| Series {
                    name,
                    ys: ys.clone(),
                    right_axis: false,
                    dashed: false,
                    unit,
                })
                .collect();
            svg::lines(
                &xs,
                None,
                &series,
                &x_title,
                peak.map(|(at, _)| Marker { at, text: &text }),
                title,
            )
        };
        let s = &a.series;
        c.series.push(panel(
            "DB time per interval",
            vec![
                ("DB time", s.iter().map(|p| p.db_time_s).collect()),
                ("DB CPU", s.iter().map(|p| p.db_cpu_s).collect()),
            ],
            "s",
            false,
        ));
        c.series.push(panel(
            "I/O requests per second",
            vec![
                ("read IOPS", s.iter().map(|p| p.read_iops).collect()),
                ("write IOPS", s.iter().map(|p| p.write_iops).collect()),
            ],
            "IOPS",
            true,
        ));
        c.series.push(panel(
            "I/O throughput",
            vec![
                ("read MB/s", s.iter().map(|p| p.read_mb_s).collect()),
                ("write MB/s", s.iter().map(|p| p.write_mb_s).collect()),
            ],
            "MB/s",
            true,
        ));
        c.series.push(panel(
            "Redo generated",
            vec![("redo MB/s", s.iter().map(|p| p.redo_mb_s).collect())],
            "MB/s",
            true,
        ));
    }
    c
}

/// Axis labels for report intervals: when every label is `<date> <time>` (or ISO `<date>T<time>`) with
/// the same date, the time alone (without `:00` seconds), and the date goes
/// into the axis title.
fn short_labels(labels: &[String]) -> (Vec<String>, String) {
    // `23-Nov-26 02:00:00` as AWR prints it, `2026-11-23T02:00:00` as ISO 8601.
    let split: Vec<Option<(&str, &str)>> = labels
        .iter()
        .map(|l| l.split_once(' ').or_else(|| l.split_once('T')))
        .collect();
    let first_day = split.first().copied().flatten().map(|p| p.0);
    let same_day = first_day.is_some() && split.iter().all(|p| p.map(|x| x.0) == first_day);
    match first_day {
        Some(day) if same_day => (
            split
                .iter()
                .flatten()
                .map(|(_, t)| t.strip_suffix(":00").unwrap_or(t).to_string())
                .collect(),
            format!("report interval end, {day}"),
        ),
        _ => (labels.to_vec(), "report interval end".to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hrefs_that_look_like_urls_become_relative() {
        assert_eq!(safe_href("javascript:alert(1)"), "./javascript:alert(1)");
        assert_eq!(safe_href("//evil/x.html"), "./evil/x.html");
        assert_eq!(safe_href("PROD/report.html"), "PROD/report.html");
    }

    #[test]
    fn interval_labels_drop_a_shared_date() {
        let (xs, title) = short_labels(&["23-Nov-26 02:00:00".into(), "23-Nov-26 03:00:00".into()]);
        assert_eq!(xs, vec!["02:00", "03:00"]);
        assert_eq!(title, "report interval end, 23-Nov-26");
        let (xs, _) = short_labels(&["23-Nov-26 23:00:00".into(), "24-Nov-26 00:00:00".into()]);
        assert_eq!(xs[0], "23-Nov-26 23:00:00");
        let (xs, _) = short_labels(&["2026-04-02T20:00:03".into(), "2026-04-02T21:00:00".into()]);
        assert_eq!(xs, vec!["20:00:03", "21:00"]);
    }
}

#[cfg(test)]
mod index_tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_alphabet_and_padding() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert_eq!(base64(&[0xfb, 0xff]), "+/8=");
    }

    #[test]
    fn the_index_allows_its_script_by_hash_only() {
        let page = render_index(&[], &RunNotes::default());
        // SHA-256 of the empty string, to check the hash itself.
        assert_eq!(
            script_hash(""),
            "'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='"
        );
        let csp = format!("script-src {}\"", script_hash(SORT_SCRIPT));
        assert!(page.contains(&csp), "{page}");
        assert!(!page.contains("unsafe-eval") && !page.contains("script-src 'unsafe-inline'"));
        assert!(page.contains(&format!("<script>{SORT_SCRIPT}</script>")));
    }
}
