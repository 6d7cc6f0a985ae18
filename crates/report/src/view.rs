//! The report's content, ordered and formatted once, for every renderer.
//!
//! Strings here are raw text (not escaped): each renderer escapes for its
//! own medium (HTML through askama, Markdown and terminal text by hand).
//! Footnote numbers follow the order in which sources first appear on the page.

use std::collections::BTreeMap;

use awrflash_model::{
    Analysis, DbTimeBreakdown, Evidence, EvidenceSrc, Finding, OptionProjection, Projection,
    ProjectionStep, Severity, SourceRef,
};

use crate::fmt;

/// A link to a footnote that says where a number came from.
#[derive(Debug, Clone)]
pub struct SrcView {
    pub n: usize,
    /// `file:line [section]`.
    pub text: String,
}

#[derive(Debug, Clone)]
pub struct Footnote {
    pub n: usize,
    pub text: String,
    /// The same with the file name only (no directories): what a report
    /// shared outside the machine it was made on shows.
    pub short_text: String,
}

/// Assigns footnote numbers to sources, one number per distinct source.
#[derive(Default)]
pub(crate) struct Notes {
    seen: BTreeMap<(String, String, u32), usize>,
    pub(crate) list: Vec<Footnote>,
    /// The file exhibit rows come from when the analysis read one report
    /// only (their `SourceRef` carries section and line, not the file).
    single_report: String,
}

impl Notes {
    pub(crate) fn add(&mut self, path: &str, section: &str, line: u32) -> SrcView {
        let key = (path.to_string(), section.to_string(), line);
        let text = src_text(path, section, line);
        if let Some(n) = self.seen.get(&key) {
            return SrcView { n: *n, text };
        }
        let n = self.list.len() + 1;
        self.seen.insert(key, n);
        self.list.push(Footnote {
            n,
            text: text.clone(),
            short_text: src_text(&file_name(path), section, line),
        });
        SrcView { n, text }
    }

    fn evidence(&mut self, src: &Option<EvidenceSrc>) -> Option<SrcView> {
        src.as_ref().map(|s| self.add(&s.path, &s.section, s.line))
    }

    fn source_ref(&mut self, src: &SourceRef) -> Option<SrcView> {
        if src.section.is_empty() && src.line == 0 {
            None
        } else {
            let path = self.single_report.clone();
            Some(self.add(&path, &src.section, src.line))
        }
    }
}

/// A path without its directories; inside an archive, the archive's file
/// name and the member (`week.zip!awr_1.html`).
pub fn file_name(path: &str) -> String {
    let (outer, member) = match path.split_once('!') {
        Some((o, m)) => (o, Some(m)),
        None => (path, None),
    };
    let base = outer.rsplit(['/', '\\']).next().unwrap_or(outer);
    match member {
        Some(m) => format!("{base}!{m}"),
        None => base.to_string(),
    }
}

/// `file:line [section]`, leaving out what is not known.
fn src_text(path: &str, section: &str, line: u32) -> String {
    let mut s = String::new();
    if !path.is_empty() {
        s.push_str(path);
    }
    if line > 0 {
        if s.is_empty() {
            s.push_str(&format!("line {line}"));
        } else {
            s.push_str(&format!(":{line}"));
        }
    }
    if !section.is_empty() {
        if !s.is_empty() {
            s.push(' ');
        }
        s.push_str(&format!("[{section}]"));
    }
    if s.is_empty() {
        s.push_str("source not recorded");
    }
    s
}

#[derive(Debug, Clone)]
pub struct EvidenceView {
    pub label: String,
    pub value: String,
    pub src: Option<SrcView>,
    pub derived: Option<String>,
}

#[derive(Debug, Clone)]
pub struct StepView {
    pub component: String,
    pub waits: String,
    pub share: String,
    pub current: String,
    pub new: String,
    pub saved: String,
    pub src: Option<SrcView>,
}

#[derive(Debug, Clone)]
pub struct ProjectionView {
    pub before: String,
    pub after: String,
    pub gain: String,
    pub response_ratio: String,
    pub cap: Option<String>,
    pub bound: String,
    pub steps: Vec<StepView>,
}

#[derive(Debug, Clone)]
pub struct FindingView {
    pub anchor: String,
    pub id: String,
    pub rule_anchor: String,
    pub slug: String,
    pub severity: Severity,
    pub title: String,
    pub message: String,
    pub evidence: Vec<EvidenceView>,
    pub recommendation: Option<String>,
    pub sql: Vec<String>,
    pub projection: Option<ProjectionView>,
    pub citations: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct OptionView {
    pub rank: usize,
    pub anchor: String,
    pub key: String,
    pub title: String,
    pub device: String,
    pub before: String,
    pub after: String,
    pub gain: String,
    /// Projected / current DB time per transaction, `0.61x to 0.68x`.
    pub response_ratio: String,
    /// Middle of the gain range, percent (for the bar in the table).
    pub gain_mid: f64,
    pub bound: String,
    pub cap: Option<String>,
    pub capacity: Option<String>,
    pub notes: Vec<String>,
    pub steps: Vec<StepView>,
    pub best: bool,
}

#[derive(Debug, Clone)]
pub struct SegmentView {
    pub rank: String,
    pub name: String,
    pub object_type: String,
    pub tablespace: String,
    pub reads: String,
    pub pct: String,
    pub cumulative: String,
    pub writes: String,
    pub size: String,
    pub cumulative_size: String,
    pub density: String,
    pub fits: String,
    /// Projected DB time saved, and per GB where the size is known.
    pub saved: String,
    pub saved_per_gb: String,
    pub sql: Option<String>,
    pub src: Option<SrcView>,
    /// False for a segment set aside (not a move candidate): left out of
    /// the Pareto chart.
    pub ranked: bool,
    /// The numbers behind `reads` and `cumulative`, for the Pareto chart.
    pub reads_value: f64,
    pub cumulative_value: f64,
}

#[derive(Debug, Clone)]
pub struct CurvePointView {
    pub size: String,
    pub multiple: String,
    /// Estimated physical reads as a factor of today's.
    pub read_factor: String,
    /// The same as a change in percent.
    pub read_change: String,
    pub db_time: String,
    pub sga_cost: String,
}

#[derive(Debug, Clone)]
pub struct FlashCacheView {
    pub recommended: bool,
    pub size: Option<String>,
    pub sga_cost: Option<String>,
    pub reason: String,
    pub fit: Option<String>,
    pub sql: Vec<String>,
    pub points: Vec<CurvePointView>,
}

#[derive(Debug, Clone)]
pub struct TablespaceView {
    pub tablespace: String,
    pub file: String,
    pub reads: String,
    pub reads_s: String,
    pub avg_read: String,
    pub blocks_per_read: String,
    pub one_block_s: String,
    pub one_block_ms: String,
    pub writes: String,
    pub writes_s: String,
    pub buffer_waits: String,
    pub buffer_wait_ms: String,
    pub src: Option<SrcView>,
}

#[derive(Debug, Clone)]
pub struct DeviceView {
    pub device: String,
    pub role: String,
    pub samples: String,
    pub iops: String,
    pub mb_s: String,
    pub await_ms: String,
    pub util: String,
    pub callouts: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct SeriesView {
    pub label: String,
    pub elapsed: String,
    pub db_time: String,
    pub aas: String,
    pub iops: String,
    pub mb_s: String,
    pub redo_mb_s: String,
    pub path: String,
    pub peak: bool,
}

/// One trend metric: whole window, p95 and peak over the report intervals.
#[derive(Debug, Clone)]
pub struct TrendView {
    pub metric: String,
    pub unit: String,
    pub whole_window: String,
    pub p95: String,
    pub peak: String,
    /// The label of the interval with the peak (as in the series table).
    pub peak_at: String,
}

#[derive(Debug, Clone)]
pub struct BucketView {
    /// `<1ms`, `<1s`, `>1s` (the open last bucket).
    pub label: String,
    pub pct: f64,
}

#[derive(Debug, Clone)]
pub struct HistView {
    pub event: String,
    /// `1,234 waits`, or `567 waits in the detail range`.
    pub total_waits: String,
    pub buckets: Vec<BucketView>,
    /// `<1ms 8.2%, <2ms 4.1%, ...`
    pub summary: String,
    /// `38.2% of waits can be shortened (slower than afa-fc's 0.45 ms)`,
    /// empty where the advisor projects no histogram for the event.
    pub shortenable: String,
    pub src: Option<SrcView>,
}

#[derive(Debug, Clone)]
pub struct BreakdownRow {
    pub component: &'static str,
    pub before_s: f64,
    pub after_s: Option<f64>,
    pub before: String,
    pub before_pct: String,
    pub after: String,
}

#[derive(Debug, Clone)]
pub struct RuleView {
    pub anchor: String,
    pub id: String,
    pub slug: String,
    pub title: String,
    pub severity: Severity,
    pub citations: Vec<String>,
    pub findings: usize,
}

#[derive(Debug, Clone)]
pub struct InputView {
    pub path: String,
    pub format: String,
    pub kind: String,
}

/// An auxiliary input of the run and whether this database used it.
#[derive(Debug, Clone)]
pub struct AttachmentView {
    pub path: String,
    pub format: String,
    /// `yes` or `no`.
    pub used: String,
    pub reason: String,
}

/// Findings by severity.
#[derive(Debug, Clone, Copy, Default)]
pub struct Counts {
    pub critical: usize,
    pub warning: usize,
    pub info: usize,
}

/// Everything a renderer shows, in page order.
#[derive(Debug, Clone)]
pub struct View {
    pub db_label: String,
    pub summary: String,
    pub gain: String,
    pub bound: String,
    pub bound_note: String,
    pub best_option: Option<String>,
    pub identity: Vec<(String, String)>,
    pub inputs: Vec<InputView>,
    pub attachments: Vec<AttachmentView>,
    /// Input warnings that change how the verdict reads, one line each
    /// (`file, line N, [section]: message`), shown beside the verdict.
    pub caveats: Vec<String>,
    pub options: Vec<OptionView>,
    pub breakdown: Vec<BreakdownRow>,
    pub breakdown_after_title: Option<String>,
    pub findings: Vec<FindingView>,
    pub counts: Counts,
    pub segments: Vec<SegmentView>,
    pub segments_cumulative_note: Option<String>,
    /// Per segment: the statements that name it (a textual match) and why
    /// a segment is set aside.
    pub segment_notes: Vec<String>,
    /// The segments' move statements, in rank order.
    pub segment_sql: Vec<String>,
    pub flash_cache: Option<FlashCacheView>,
    pub flash_stats: Vec<EvidenceView>,
    pub redo: Vec<EvidenceView>,
    pub histograms: Vec<HistView>,
    /// Said once under the histograms when a bucket is one of Oracle's
    /// "second" buckets (powers of two of milliseconds).
    pub histogram_note: String,
    pub tablespaces: Vec<TablespaceView>,
    pub devices: Vec<DeviceView>,
    pub series: Vec<SeriesView>,
    /// Metrics that have a value in at least one interval.
    pub trend: Vec<TrendView>,
    /// The whole window (several report intervals only).
    pub window: Option<crate::window_view::WindowView>,
    pub rules: Vec<RuleView>,
    pub footnotes: Vec<Footnote>,
}

/// An `id`-safe form of a key: ASCII letters, digits, `-` and `_` only.
pub fn anchor(prefix: &str, key: &str) -> String {
    let mut s = String::from(prefix);
    for c in key.chars() {
        if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
            s.push(c);
        } else {
            s.push('_');
        }
    }
    s
}

/// What a verdict bound means, in words.
pub fn bound_note(bound: &str) -> String {
    match bound {
        "cpu" => "CPU headroom limits the gain: the signal named in the verdict (host busy, run queue, load, Resource Manager or cpu_count) decides (000 sections 5, 6.3)".into(),
        "channel" => "I/O channel bandwidth limits the gain (000 section 6.3, R7; 002)".into(),
        "io-share" => "the share of DB time spent on the I/O the option speeds up".into(),
        "none" => "no saturated resource found".into(),
        "not-enough-data" => "not enough data in the inputs".into(),
        other => other.to_string(),
    }
}

/// The breakdown's components in chart order. "CPU queue" is the part of
/// the other time that is sessions waiting for a CPU (shown only when the
/// breakdown has one).
pub const COMPONENTS: [&str; 9] = [
    "CPU",
    "single-block read",
    "multiblock read",
    "temp I/O",
    "write waits",
    "commit (log file sync)",
    "flash cache read",
    "CPU queue",
    "other",
];

pub fn components(b: &DbTimeBreakdown) -> [f64; 9] {
    let queue = b.cpu_queue_s.clamp(0.0, b.other_s.max(0.0));
    [
        b.cpu_s,
        b.single_block_read_s,
        b.multiblock_read_s,
        b.temp_io_s,
        b.write_wait_s,
        b.commit_s,
        b.flash_cache_read_s,
        queue,
        b.other_s - queue,
    ]
}

fn total(b: &DbTimeBreakdown) -> f64 {
    components(b)
        .iter()
        .filter(|v| v.is_finite())
        .map(|v| v.max(0.0))
        .sum()
}

fn gain_range(p: &Projection) -> (f64, f64) {
    if p.db_time_before_s > 0.0 {
        let low = (p.db_time_before_s - p.db_time_after_high_s) / p.db_time_before_s * 100.0;
        let high = (p.db_time_before_s - p.db_time_after_low_s) / p.db_time_before_s * 100.0;
        (low.min(high), low.max(high))
    } else {
        (f64::NAN, f64::NAN)
    }
}

fn steps(notes: &mut Notes, steps: &[ProjectionStep]) -> Vec<StepView> {
    steps
        .iter()
        .map(|s| {
            // A step that moves no waits (a CPU queueing charge, a
            // throughput cap) only adds time: no waits, share or latency.
            let waits = s.waits > 0.0;
            let or_na = |v: String| if waits { v } else { fmt::NA.to_string() };
            StepView {
                component: s.component.clone(),
                waits: or_na(fmt::num(s.waits)),
                share: or_na(fmt::pct(s.share_affected * 100.0)),
                current: or_na(fmt::ms(s.current_avg_ms)),
                new: or_na(range(fmt::ms(s.new_avg_ms_low), fmt::ms(s.new_avg_ms_high))),
                saved: fmt::secs_range(s.saved_s_low, s.saved_s_high),
                src: notes.evidence(&s.src),
            }
        })
        .collect()
}

fn range(a: String, b: String) -> String {
    if a == b { a } else { format!("{a} to {b}") }
}

fn projection(notes: &mut Notes, p: &Projection) -> ProjectionView {
    let (gl, gh) = gain_range(p);
    ProjectionView {
        before: fmt::secs(p.db_time_before_s),
        after: fmt::secs_range(p.db_time_after_low_s, p.db_time_after_high_s),
        gain: fmt::pct_range(gl, gh),
        response_ratio: range(
            fmt::ratio(p.response_ratio_low),
            fmt::ratio(p.response_ratio_high),
        ),
        cap: p.throughput_cap.map(fmt::ratio),
        bound: p.bound.to_string(),
        steps: steps(notes, &p.steps),
    }
}

fn evidence(notes: &mut Notes, e: &Evidence) -> EvidenceView {
    EvidenceView {
        label: e.label.clone(),
        value: fmt::with_unit(e.value, &e.unit),
        src: notes.evidence(&e.src),
        derived: e.derived_from.clone(),
    }
}

fn citation(c: &awrflash_model::Citation) -> String {
    c.label()
}

fn rank_options(options: &[OptionProjection]) -> Vec<(usize, &OptionProjection, f64)> {
    let mut v: Vec<(usize, &OptionProjection, f64)> = options
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let (l, h) = gain_range(&o.projection);
            let mid = (l + h) / 2.0;
            (i, o, if mid.is_finite() { mid } else { f64::MIN })
        })
        .collect();
    v.sort_by(|a, b| {
        b.2.total_cmp(&a.2)
            .then_with(|| a.1.key.cmp(&b.1.key))
            .then_with(|| a.0.cmp(&b.0))
    });
    v
}

fn opt_num(x: Option<f64>) -> String {
    fmt::opt(x, fmt::num)
}

fn severity_rank(s: Severity) -> u8 {
    match s {
        Severity::Critical => 0,
        Severity::Warning => 1,
        Severity::Info => 2,
    }
}

/// Histograms of the key events first, in the order the issue names them.
const KEY_EVENTS: [&str; 3] = [
    "db file sequential read",
    "log file parallel write",
    "log file sync",
];

pub fn build(a: &Analysis) -> View {
    let mut notes = Notes::default();
    let reports: Vec<&awrflash_model::Source> = a
        .inputs
        .iter()
        .filter(|s| {
            matches!(
                s.format,
                awrflash_model::Format::AwrHtml
                    | awrflash_model::Format::AwrText
                    | awrflash_model::Format::Statspack
            )
        })
        .collect();
    if let [one] = reports.as_slice() {
        notes.single_report = one.path.clone();
    }
    let db = &a.database;
    let db_label = db
        .db_name
        .clone()
        .filter(|s| !s.trim().is_empty())
        .unwrap_or_else(|| "unknown database".into());

    // Identity.
    let mut identity: Vec<(String, String)> = Vec::new();
    identity.push(("Database".into(), db_label.clone()));
    if let Some(id) = db.dbid {
        identity.push(("DBID".into(), id.to_string()));
    }
    if !db.instances.is_empty() {
        identity.push(("Instances".into(), db.instances.join(", ")));
    }
    identity.push((
        "Release".into(),
        db.release.clone().unwrap_or_else(|| fmt::NA.into()),
    ));
    identity.push(("RAC".into(), if db.rac { "yes" } else { "no" }.to_string()));
    identity.push((
        "Host".into(),
        db.host.clone().unwrap_or_else(|| fmt::NA.into()),
    ));
    if let Some(p) = &db.platform {
        identity.push(("Platform".into(), p.clone()));
    }
    let mut window = String::new();
    if let (Some(b), Some(e)) = (db.begin_snap, db.end_snap) {
        window.push_str(&format!("snapshots {b} to {e}"));
    }
    match (&db.begin_time, &db.end_time) {
        (Some(b), Some(e)) => {
            if !window.is_empty() {
                window.push_str(", ");
            }
            window.push_str(&format!("{b} to {e}"));
        }
        (Some(t), None) | (None, Some(t)) => {
            if !window.is_empty() {
                window.push_str(", ");
            }
            window.push_str(t);
        }
        (None, None) => {}
    }
    if let Some(rows) = crate::window_view::identity_rows(a, &window) {
        identity.extend(rows);
    } else {
        if a.series.len() > 1 {
            if !window.is_empty() {
                window.push_str(", ");
            }
            window.push_str(&format!("{} report intervals", a.series.len()));
        }
        identity.push((
            "Snapshot window".into(),
            if window.is_empty() {
                fmt::NA.into()
            } else {
                window
            },
        ));
    }
    if let Some(e) = db.elapsed_s {
        identity.push(("Elapsed".into(), fmt::duration(e)));
    }
    if let Some(t) = db.db_time_s {
        identity.push(("DB time".into(), fmt::duration(t)));
    }
    identity.push(("Inputs".into(), format!("{} file(s)", a.inputs.len())));

    let inputs = a
        .inputs
        .iter()
        .map(|s| InputView {
            path: s.path.clone(),
            format: s.format.as_str().to_string(),
            kind: s.kind.map_or(String::new(), |k| match k {
                awrflash_model::ReportKind::Instance => "instance".into(),
                awrflash_model::ReportKind::RacGlobal => "rac-global".into(),
                awrflash_model::ReportKind::Pdb => "pdb".into(),
            }),
        })
        .collect();
    let attachments = a
        .attachments
        .iter()
        .map(|x| AttachmentView {
            path: x.path.clone(),
            format: x.format.as_str().to_string(),
            used: if x.attached { "yes" } else { "no" }.into(),
            reason: x.reason.clone(),
        })
        .collect();

    // Options, ranked by the middle of their gain range.
    let ranked = rank_options(&a.options);
    let best_key = a
        .verdict
        .best_option
        .clone()
        .filter(|k| a.options.iter().any(|o| &o.key == k))
        .or_else(|| ranked.first().map(|r| r.1.key.clone()));
    let mut options = Vec::new();
    for (rank, (_, o, _)) in ranked.iter().enumerate() {
        // The steps get their footnotes at the end: they are shown last.
        let p = projection(&mut Notes::default(), &o.projection);
        let (gl, gh) = gain_range(&o.projection);
        let mid = (gl + gh) / 2.0;
        options.push(OptionView {
            rank: rank + 1,
            anchor: anchor("option-", &o.key),
            key: o.key.clone(),
            title: if o.title.is_empty() {
                o.key.clone()
            } else {
                o.title.clone()
            },
            device: o.device.clone(),
            before: p.before,
            after: p.after,
            gain: p.gain,
            response_ratio: p.response_ratio,
            gain_mid: if mid.is_finite() {
                mid.clamp(0.0, 100.0)
            } else {
                0.0
            },
            bound: p.bound,
            cap: p.cap,
            capacity: o.capacity_gb.map(fmt::gb),
            notes: o.notes.clone(),
            steps: Vec::new(),
            best: best_key.as_deref() == Some(o.key.as_str()),
        });
    }
    let best_title = options.iter().find(|o| o.best).map(|o| o.title.clone());

    // Breakdown: the best option's before/after, else the current workload.
    let best = best_key
        .as_deref()
        .and_then(|k| a.options.iter().find(|o| o.key == k));
    let (before, after) = match best {
        Some(o) if total(&o.before) > 0.0 => (
            o.before.clone(),
            if total(&o.after) > 0.0 {
                Some(o.after.clone())
            } else {
                None
            },
        ),
        Some(o) => (
            a.exhibits.breakdown.clone(),
            if total(&o.after) > 0.0 {
                Some(o.after.clone())
            } else {
                None
            },
        ),
        None => (a.exhibits.breakdown.clone(), None),
    };
    let before_total = total(&before);
    let breakdown = if before_total > 0.0 {
        let b = components(&before);
        let af = after.as_ref().map(components);
        COMPONENTS
            .iter()
            .enumerate()
            .filter(|(i, name)| {
                **name != "CPU queue"
                    || b.get(*i).is_some_and(|v| *v > 0.0)
                    || af
                        .as_ref()
                        .and_then(|x| x.get(*i))
                        .is_some_and(|v| *v > 0.0)
            })
            .map(|(i, name)| {
                let bv = b.get(i).copied().unwrap_or(0.0);
                let av = af.as_ref().and_then(|x| x.get(i).copied());
                BreakdownRow {
                    component: name,
                    before_s: bv,
                    after_s: av,
                    before: fmt::secs(bv),
                    before_pct: fmt::pct(bv / before_total * 100.0),
                    after: av.map_or_else(|| fmt::NA.into(), fmt::secs),
                }
            })
            .collect()
    } else {
        Vec::new()
    };
    let breakdown_after_title = if after.is_some() {
        best.map(|o| {
            if o.title.is_empty() {
                o.key.clone()
            } else {
                o.title.clone()
            }
        })
    } else {
        None
    };

    // Findings: most severe first, then by rule id; stable otherwise.
    let mut order: Vec<&Finding> = a.findings.iter().collect();
    order.sort_by(|x, y| {
        severity_rank(x.severity)
            .cmp(&severity_rank(y.severity))
            .then_with(|| x.id.cmp(&y.id))
    });
    let mut counts = Counts::default();
    let mut findings = Vec::new();
    let mut rules: BTreeMap<String, RuleView> = BTreeMap::new();
    for (i, f) in order.iter().enumerate() {
        match f.severity {
            Severity::Critical => counts.critical += 1,
            Severity::Warning => counts.warning += 1,
            Severity::Info => counts.info += 1,
        }
        let ev = f.evidence.iter().map(|e| evidence(&mut notes, e)).collect();
        let proj = f.projection.as_ref().map(|p| projection(&mut notes, p));
        let citations: Vec<String> = f.citations.iter().map(citation).collect();
        let rule_anchor = anchor("rule-", &f.id);
        let entry = rules.entry(f.id.clone()).or_insert_with(|| RuleView {
            anchor: rule_anchor.clone(),
            id: f.id.clone(),
            slug: f.slug.clone(),
            title: f.title.clone(),
            severity: f.severity,
            citations: Vec::new(),
            findings: 0,
        });
        entry.findings += 1;
        entry.severity = entry.severity.max(f.severity);
        for c in &citations {
            if !entry.citations.contains(c) {
                entry.citations.push(c.clone());
            }
        }
        findings.push(FindingView {
            anchor: format!("{}-{}", anchor("finding-", &f.id), i + 1),
            id: f.id.clone(),
            rule_anchor,
            slug: f.slug.clone(),
            severity: f.severity,
            title: f.title.clone(),
            message: f.message.clone(),
            evidence: ev,
            recommendation: f
                .recommendation
                .as_ref()
                .map(|r| r.text.clone())
                .filter(|t| !t.is_empty()),
            sql: f
                .recommendation
                .as_ref()
                .map(|r| r.sql.clone())
                .unwrap_or_default(),
            projection: proj,
            citations,
        });
    }

    // Segments to move.
    let mut segs: Vec<&awrflash_model::SegmentToMove> = a.segments_to_move.iter().collect();
    segs.sort_by_key(|s| (s.rank == 0, s.rank));
    let mut running_gb = 0.0;
    let mut segments = Vec::new();
    let mut segment_notes = Vec::new();
    for (i, s) in segs.iter().enumerate() {
        let mut name = String::new();
        if !s.owner.is_empty() {
            name.push_str(&s.owner);
            name.push('.');
        }
        name.push_str(&s.object);
        if let Some(sub) = s.subobject.as_ref().filter(|x| !x.is_empty()) {
            name.push_str(&format!(" ({sub})"));
        }
        // The advisor's cumulative share of the database's reads.
        let cumulative_value = s.cumulative_pct.unwrap_or(f64::NAN);
        let cumulative = fmt::pct(cumulative_value);
        let cumulative_size = match s.size_gb {
            // A segment set aside takes no flash capacity.
            _ if s.set_aside.is_some() => fmt::NA.into(),
            Some(g) if g.is_finite() => {
                running_gb += g;
                fmt::gb(running_gb)
            }
            _ => fmt::NA.into(),
        };
        if let Some(why) = &s.set_aside {
            segment_notes.push(format!("{name}: set aside, not moved: {why}"));
        } else if !s.statements.is_empty() {
            let named: Vec<String> = s
                .statements
                .iter()
                .take(3)
                .map(|q| {
                    let mut t = q.sql_id.clone();
                    let mut what = Vec::new();
                    if let Some(m) = q.module.as_deref().filter(|m| !m.is_empty()) {
                        what.push(m.to_string());
                    }
                    if let Some(p) = q.pct_of_reads {
                        what.push(format!("{} of physical reads", fmt::pct(p)));
                    }
                    if let Some(k) = &q.maintenance {
                        what.push(k.clone());
                    }
                    if !what.is_empty() {
                        t.push_str(&format!(" ({})", what.join(", ")));
                    }
                    if let Some(x) = q.text.as_deref().filter(|x| !x.is_empty()) {
                        t.push_str(&format!(": {x}"));
                    }
                    t
                })
                .collect();
            segment_notes.push(format!(
                "{name}: read most likely by {} (SQL text names it: a textual match)",
                named.join("; ")
            ));
        }
        let set_aside = s.set_aside.is_some();
        segments.push(SegmentView {
            // Set aside: not ranked; the note under the table says why.
            rank: if set_aside {
                "-".into()
            } else if s.rank > 0 {
                s.rank.to_string()
            } else {
                (i + 1).to_string()
            },
            name,
            object_type: s.object_type.clone(),
            tablespace: s.tablespace.clone(),
            // A segment pulled in from the write list: its reads are below
            // the read list's rows, not unknown.
            reads: match (s.read_requests, s.physical_writes) {
                (None, Some(_)) => "write list only".into(),
                (r, _) => opt_num(r),
            },
            pct: fmt::opt(s.pct_of_reads, fmt::pct),
            cumulative,
            writes: opt_num(s.physical_writes),
            size: fmt::opt(s.size_gb, fmt::gb),
            cumulative_size,
            density: opt_num(s.io_density),
            fits: match s.fits_budget {
                Some(true) => "yes".into(),
                Some(false) => "no".into(),
                None => fmt::NA.into(),
            },
            ranked: !set_aside,
            saved: fmt::opt(s.saved_s, fmt::secs),
            saved_per_gb: fmt::opt(s.saved_s_per_gb, fmt::secs),
            sql: s.sql.clone().filter(|q| !q.trim().is_empty()),
            src: notes.evidence(&s.src),
            reads_value: s.read_requests.unwrap_or(0.0),
            cumulative_value,
        });
    }
    let segment_sql = segments.iter().filter_map(|s| s.sql.clone()).collect();
    let segments_cumulative_note = if !segs.is_empty()
        && segs.iter().all(|s| s.cumulative_pct.is_none())
    {
        Some("the report prints no share of the database's read requests per segment, so there is no cumulative share".into())
    } else {
        None
    };

    let flash_cache = a.flash_cache.as_ref().map(|f| FlashCacheView {
        recommended: f.recommended,
        size: f.size_gb.map(fmt::gb),
        sga_cost: f.sga_cost_mb.map(fmt::mb),
        reason: f.reason.clone(),
        fit: f.fit.clone().filter(|x| !x.is_empty()),
        sql: f.sql.clone(),
        points: f
            .curve
            .iter()
            .map(|p| CurvePointView {
                size: fmt::gb(p.size_gb),
                multiple: fmt::ratio(p.multiple_of_buffer_cache),
                read_factor: fmt::ratio(p.est_read_factor),
                read_change: fmt::pct(p.est_read_change_pct),
                db_time: fmt::secs(p.db_time_s),
                sga_cost: fmt::mb(p.sga_cost_mb),
            })
            .collect(),
    });
    let flash_stats = a
        .exhibits
        .flash_cache_stats
        .iter()
        .map(|e| evidence(&mut notes, e))
        .collect();
    let redo = a
        .exhibits
        .redo
        .iter()
        .map(|e| evidence(&mut notes, e))
        .collect();

    let mut hist_rows: Vec<&awrflash_model::HistogramRow> = a.exhibits.histograms.iter().collect();
    hist_rows.sort_by_key(|h| {
        let k = KEY_EVENTS
            .iter()
            .position(|e| e.eq_ignore_ascii_case(h.event.trim()))
            .unwrap_or(KEY_EVENTS.len());
        (k, h.event.clone())
    });
    let histograms = hist_rows
        .iter()
        .map(|h| HistView {
            event: h.event.to_string(),
            total_waits: match (h.total_waits, h.range_waits) {
                (None, Some(r)) => format!("{} waits in the detail range", fmt::num(r)),
                (t, _) => format!("{} waits", opt_num(t)),
            },
            summary: String::new(),
            shortenable: a
                .exhibits
                .shortenable
                .iter()
                .find(|x| x.event.eq_ignore_ascii_case(h.event.trim()))
                .map(|x| {
                    format!(
                        "{} of waits can be shortened (slower than {}'s {})",
                        fmt::pct(x.pct),
                        x.device,
                        fmt::ms(x.device_ms)
                    )
                })
                .unwrap_or_default(),
            buckets: {
                // The parsers give the open last bucket (`>1s`) as f64::MAX.
                let mut prev = None;
                h.buckets
                    .iter()
                    .map(|b| {
                        let le = (b.le_ms.is_finite() && b.le_ms > 0.0 && b.le_ms < 1e12)
                            .then_some(b.le_ms);
                        let label = bucket_label(le, prev);
                        prev = le.or(prev);
                        BucketView {
                            label,
                            pct: if b.pct.is_finite() { b.pct } else { 0.0 },
                        }
                    })
                    .collect()
            },
            src: notes.source_ref(&h.src),
        })
        .map(|mut h| {
            h.summary = h
                .buckets
                .iter()
                .map(|b| format!("{} {}", b.label, fmt::pct(b.pct)))
                .collect::<Vec<_>>()
                .join(", ");
            h
        })
        .collect();

    let tablespaces = a
        .exhibits
        .tablespaces
        .iter()
        .map(|t| TablespaceView {
            tablespace: t.tablespace.to_string(),
            file: t.file.clone().unwrap_or_default(),
            reads: opt_num(t.reads),
            reads_s: opt_num(t.reads_per_s),
            avg_read: fmt::opt(t.avg_read_ms, fmt::ms),
            blocks_per_read: opt_num(t.blocks_per_read),
            one_block_s: opt_num(t.one_block_reads_per_s),
            one_block_ms: fmt::opt(t.avg_one_block_read_ms, fmt::ms),
            writes: opt_num(t.writes),
            writes_s: opt_num(t.writes_per_s),
            buffer_waits: opt_num(t.buffer_waits),
            buffer_wait_ms: fmt::opt(t.avg_buffer_wait_ms, fmt::ms),
            src: notes.source_ref(&t.src),
        })
        .collect();

    let devices = a
        .exhibits
        .devices
        .iter()
        .map(|d| DeviceView {
            device: d.device.clone(),
            role: match (d.role.clone().unwrap_or_default(), d.layered) {
                (r, true) if r.is_empty() => "layered".into(),
                (r, true) => format!("{r} (layered)"),
                (r, false) => r,
            },
            samples: d.samples.to_string(),
            iops: format!(
                "{} / {} / {}",
                fmt::num(d.iops_mean),
                fmt::num(d.iops_p95),
                fmt::num(d.iops_max)
            ),
            mb_s: format!(
                "{} / {} / {}",
                fmt::num(d.mb_s_mean),
                fmt::num(d.mb_s_p95),
                fmt::num(d.mb_s_max)
            ),
            await_ms: match (d.await_ms_mean, d.await_ms_p95, d.await_ms_max) {
                (None, None, None) => fmt::NA.into(),
                (m, p, x) => format!("{} / {} / {}", opt_num(m), opt_num(p), opt_num(x)),
            },
            util: match (d.util_pct_mean, d.util_pct_p95, d.util_pct_max) {
                (None, None, None) => fmt::NA.into(),
                (m, p, x) => format!("{} / {} / {}", opt_num(m), opt_num(p), opt_num(x)),
            },
            callouts: d.callouts.clone(),
        })
        .collect();

    // The advisor's peak interval: the one the verdict and findings describe.
    let peak = a.peak_interval;
    let series = a
        .series
        .iter()
        .enumerate()
        .map(|(i, p)| SeriesView {
            label: series_label(p, i),
            elapsed: fmt::secs(p.elapsed_s),
            db_time: fmt::secs(p.db_time_s),
            aas: if p.elapsed_s > 0.0 {
                fmt::fixed(p.db_time_s / p.elapsed_s, 1)
            } else {
                fmt::NA.into()
            },
            iops: fmt::num(p.read_iops + p.write_iops),
            mb_s: fmt::num(p.read_mb_s + p.write_mb_s),
            redo_mb_s: fmt::num(p.redo_mb_s),
            path: p.path.clone(),
            peak: Some(i) == peak,
        })
        .collect();

    let opt = |x: Option<f64>| x.map_or_else(|| fmt::NA.to_string(), fmt::num);
    let trend = a
        .trend
        .iter()
        .filter(|m| m.intervals > 0)
        .map(|m| TrendView {
            metric: m.metric.clone(),
            unit: m.unit.clone(),
            whole_window: opt(m.whole_window),
            p95: opt(m.p95),
            peak: opt(m.peak),
            peak_at: m
                .peak_interval
                .and_then(|i| a.series.get(i).map(|p| series_label(p, i)))
                .unwrap_or_else(|| fmt::NA.to_string()),
        })
        .collect();

    // Projection details come last on the page, so their sources are numbered last.
    for (view, (_, o, _)) in options.iter_mut().zip(&ranked) {
        view.steps = steps(&mut notes, &o.projection.steps);
    }

    let gain = if a.verdict.gain_pct_low == 0.0 && a.verdict.gain_pct_high == 0.0 {
        "none expected".to_string()
    } else {
        format!(
            "{} less DB time",
            fmt::pct_range(a.verdict.gain_pct_low, a.verdict.gain_pct_high)
        )
    };
    let bound = a.verdict.bound.to_string();
    View {
        summary: if a.verdict.summary.trim().is_empty() {
            "No verdict: the inputs did not carry enough data.".into()
        } else {
            a.verdict.summary.clone()
        },
        gain,
        bound_note: bound_note(&bound),
        bound,
        best_option: best_title,
        db_label,
        identity,
        inputs,
        attachments,
        caveats: a
            .caveats
            .iter()
            .map(|c| {
                let section = if c.section.is_empty() {
                    String::new()
                } else {
                    format!(" [{}]", c.section)
                };
                format!(
                    "{}, line {}{section}: {}",
                    file_name(&c.path),
                    c.line,
                    c.message
                )
            })
            .collect(),
        options,
        breakdown,
        breakdown_after_title,
        findings,
        counts,
        segments,
        segments_cumulative_note,
        segment_notes,
        segment_sql,
        flash_cache,
        flash_stats,
        redo,
        histogram_note: if a
            .exhibits
            .histograms
            .iter()
            .flat_map(|h| &h.buckets)
            .any(|b| b.le_ms.is_finite() && b.le_ms < 1e12 && oracle_seconds(b.le_ms).is_some())
        {
            ORACLE_SECONDS_NOTE.to_string()
        } else {
            String::new()
        },
        histograms,
        tablespaces,
        devices,
        series,
        trend,
        window: crate::window_view::window(a),
        rules: rules.into_values().collect(),
        footnotes: notes.list,
    }
}

/// A short label for one report interval: its end time, else its snapshots.
pub fn series_label(p: &awrflash_model::SnapshotPoint, i: usize) -> String {
    if let Some(t) = p.end_time.as_ref().filter(|t| !t.is_empty()) {
        t.clone()
    } else if let (Some(b), Some(e)) = (p.begin_snap, p.end_snap) {
        format!("{b}-{e}")
    } else {
        format!("#{}", i + 1)
    }
}

/// An upper bound (ms) that is one of Oracle's "second" buckets: 1,024 ms
/// x a power of two, labelled `1s`, `2s`, `4s`... in the report (the
/// `up to 2 sec` histogram and the classic table's last buckets).
fn oracle_seconds(v: f64) -> Option<f64> {
    let k = v / 1024.0;
    (k >= 1.0 && k.log2().fract().abs() < 1e-9).then_some(k)
}

/// The note the histogram exhibit prints once when a label is one of
/// Oracle's second buckets.
pub const ORACLE_SECONDS_NOTE: &str = "Bucket labels follow Oracle's: its \"second\" buckets are powers of two of milliseconds, so <1s means under 1,024 ms and <2s under 2,048 ms.";

/// A histogram bucket's label: `<1ms`, `<1s`, `>1s`, from its upper bound
/// and, for the open last bucket, the bound before it. Oracle's second
/// buckets (1,024 ms, 2,048 ms...) keep Oracle's labels (`<1s`, `<2s`).
fn bucket_label(le_ms: Option<f64>, prev: Option<f64>) -> String {
    fn unit(v: f64) -> String {
        if let Some(k) = oracle_seconds(v) {
            format!("{}s", fmt::axis(k))
        } else if v >= 60_000.0 {
            format!("{}min", fmt::axis(v / 60_000.0))
        } else if v >= 1000.0 {
            format!("{}s", fmt::axis(v / 1000.0))
        } else if v < 1.0 {
            format!("{}us", fmt::axis(v * 1000.0))
        } else {
            format!("{}ms", fmt::axis(v))
        }
    }
    match (le_ms, prev) {
        (Some(v), _) => format!("<{}", unit(v)),
        (None, Some(p)) => format!(">{}", unit(p)),
        (None, None) => "all".into(),
    }
}

/// `Recommended: size 64.0 GB, SGA cost 800 MB`.
pub fn flash_cache_line(fc: &FlashCacheView) -> String {
    let mut line = if fc.recommended {
        "Recommended".to_string()
    } else {
        "Not recommended".to_string()
    };
    if let Some(s) = &fc.size {
        line.push_str(&format!(": size {s}"));
    }
    if let Some(s) = &fc.sga_cost {
        line.push_str(&format!(", SGA cost {s}"));
    }
    line
}

/// `slug (severity, n findings): title. Sources: ...`
pub fn rule_line(r: &RuleView) -> String {
    let cites = if r.citations.is_empty() {
        "none given".to_string()
    } else {
        r.citations.join("; ")
    };
    format!(
        "{} ({}, {} finding{}): {}. Sources: {}.",
        r.slug,
        r.severity.as_str(),
        r.findings,
        if r.findings == 1 { "" } else { "s" },
        r.title,
        cites
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::{FileIoRow, Format, Source};

    #[test]
    fn oracle_second_buckets_keep_oracle_labels() {
        assert_eq!(bucket_label(Some(1024.0), Some(512.0)), "<1s");
        assert_eq!(bucket_label(Some(2048.0), Some(1024.0)), "<2s");
        assert_eq!(bucket_label(None, Some(2048.0)), ">2s");
        assert_eq!(bucket_label(Some(512.0), Some(256.0)), "<512ms");
        assert_eq!(bucket_label(Some(0.512), None), "<512us");
        // A bound that is not one of Oracle's second buckets keeps its value.
        assert_eq!(bucket_label(Some(1500.0), None), "<1.5s");
    }

    fn with_tablespace_row(reports: usize) -> Analysis {
        let mut a = Analysis::default();
        for i in 0..reports {
            a.inputs.push(Source {
                path: format!("awr_{i}.html"),
                format: Format::AwrHtml,
                kind: None,
            });
        }
        a.inputs.push(Source {
            path: "iostat.txt".into(),
            format: Format::IostatLinux,
            kind: None,
        });
        a.exhibits.tablespaces.push(FileIoRow {
            tablespace: "USERS".into(),
            src: SourceRef::new("Tablespace IO Stats", 12),
            ..FileIoRow::default()
        });
        a
    }

    #[test]
    fn exhibit_rows_of_a_single_report_name_its_file() {
        let v = build(&with_tablespace_row(1));
        assert_eq!(v.footnotes[0].text, "awr_0.html:12 [Tablespace IO Stats]");
    }

    #[test]
    fn exhibit_rows_of_several_reports_give_section_and_line_only() {
        let v = build(&with_tablespace_row(2));
        assert_eq!(v.footnotes[0].text, "line 12 [Tablespace IO Stats]");
    }

    #[test]
    fn one_source_gets_one_footnote_number() {
        let mut a = with_tablespace_row(1);
        a.exhibits
            .tablespaces
            .push(a.exhibits.tablespaces[0].clone());
        let v = build(&a);
        assert_eq!(v.footnotes.len(), 1);
        assert_eq!(v.tablespaces[1].src.as_ref().map(|s| s.n), Some(1));
    }
}

/// Projected DB time saved, the figure the batch index ranks by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Saving {
    /// The verdict's DB time reduction, percent.
    pub pct_low: f64,
    pub pct_high: f64,
    /// That share of the analysed window's DB time, scaled from the
    /// window's elapsed time to a day (86,400 s).
    pub per_day_low_s: f64,
    pub per_day_high_s: f64,
}

/// The verdict's reduction applied to the window's DB time and scaled to a
/// day: `DB time x gain% / 100 x 86,400 / elapsed`. `None` without DB time,
/// elapsed time or a finite gain.
pub fn saving(a: &Analysis) -> Option<Saving> {
    let db_time = a
        .database
        .db_time_s
        .filter(|t| t.is_finite() && *t >= 0.0)?;
    let elapsed = a.database.elapsed_s.filter(|e| e.is_finite() && *e > 0.0)?;
    let (low, high) = (a.verdict.gain_pct_low, a.verdict.gain_pct_high);
    if !low.is_finite() || !high.is_finite() {
        return None;
    }
    let (low, high) = (low.min(high).max(0.0), low.max(high).max(0.0));
    let per_day = |pct: f64| db_time * pct / 100.0 * 86_400.0 / elapsed;
    Some(Saving {
        pct_low: low,
        pct_high: high,
        per_day_low_s: per_day(low),
        per_day_high_s: per_day(high),
    })
}
