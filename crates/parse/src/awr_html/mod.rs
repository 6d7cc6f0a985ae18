//! AWR HTML reports (10g to 23ai; instance, PDB and RAC global `awrgrpt`).
//!
//! The text is streamed once through a lenient tokenizer ([`scan`]); each
//! table is handed over as soon as it closes, with the title printed before
//! it, and mapped onto the model by that title and its column headers
//! ([`sections`], [`header`], [`rac`]). No DOM of the file is built.

pub mod header;
pub mod rac;
pub mod scan;
pub mod sections;
pub mod view;

use awrflash_model::{DbReport, Format, ReportKind, Source};

use crate::registry::{self, Slot};
use crate::{ParseError, Part};
use scan::Table;
use sections::IoStatKind;
use view::{Ctx, View, key};

/// Parses one AWR HTML report.
pub fn parse(path: &str, text: &str) -> Result<DbReport, ParseError> {
    read_text(path, text, Part::Whole)
}

/// [`parse`] of the raw bytes of a report, as [`crate::parse_bytes`] reads
/// one: the bytes are checked as UTF-8 only where the scan keeps their
/// text, so a report whose SQL text is in the database character set (GBK,
/// Latin-1) is read without decoding or copying it. When kept text is not
/// UTF-8, the bytes are decoded as [`crate::decode`] decodes a whole input
/// (invalid sequences become U+FFFD) and read again: the report is then
/// what [`parse`] makes of the decoded text.
pub fn parse_bytes(path: &str, bytes: &[u8]) -> Result<DbReport, ParseError> {
    match parse_as(path, Input::Bytes(bytes), Part::Whole) {
        Some(report) => report,
        None => parse(path, &crate::decode::utf8(bytes)),
    }
}

/// [`parse_as`] of decoded text, which never stops at a UTF-8 check.
fn read_text(path: &str, text: &str, part: Part) -> Result<DbReport, ParseError> {
    parse_as(path, Input::Text(text), part).unwrap_or_else(|| {
        Err(ParseError::Malformed {
            path: path.to_string(),
            line: 0,
            section: "text".into(),
            message: "text that is not UTF-8".into(),
        })
    })
}

/// What the scan reads: decoded text, or raw bytes checked where text is
/// kept.
#[derive(Clone, Copy)]
enum Input<'a> {
    Text(&'a str),
    Bytes(&'a [u8]),
}

impl<'a> Input<'a> {
    fn bytes(self) -> &'a [u8] {
        match self {
            Input::Text(t) => t.as_bytes(),
            Input::Bytes(b) => b,
        }
    }
}

/// [`parse`] for [`crate::parse_head`]: the source and header come out as
/// [`parse`] gives them, the other sections may not. In an instance or PDB
/// report the tables of the sections the registry names are not kept
/// (their rows feed no header field), but for those [`feeds_header`]
/// keeps; a RAC global report is read whole.
pub fn parse_header(path: &str, text: &str) -> Result<DbReport, ParseError> {
    read_text(path, text, Part::Header)
}

/// Whether a table with this title can give a header field: a table no
/// registry section names (the header tables have no title of their own),
/// a segment table (one the segment mapper cannot read falls to the header
/// mapper), the OS statistics (their CPU counts fill a header that prints
/// none).
fn feeds_header(title: &str) -> bool {
    matches!(
        registry::slot_of(title),
        None | Some(Slot::Segments | Slot::OsStats)
    )
}

/// The report read from `input`; `None` when some of the text the scan
/// keeps is not UTF-8 (bytes only).
fn parse_as(path: &str, input: Input<'_>, part: Part) -> Option<Result<DbReport, ParseError>> {
    let undoubled;
    // Halving the quotes of UTF-8 text leaves it UTF-8.
    let input = if quotes_doubled(input.bytes()) {
        undoubled = undouble(input.bytes());
        Input::Bytes(&undoubled)
    } else {
        input
    };
    let mut report = DbReport::default();
    let mut ctx = Ctx::default();
    let mut kind: Option<ReportKind> = None;
    let mut summary_wait_classes = Vec::new();
    let mut global = rac::Global::default();
    // Known once the first table is read: until then every table is kept.
    let instance = std::cell::Cell::new(false);
    let keep = |title: &str| {
        wanted(title) && (part == Part::Whole || !instance.get() || feeds_header(title))
    };
    let sink = |table: &Table<'_>| {
        let k = *kind.get_or_insert_with(|| kind_of(table));
        instance.set(k != ReportKind::RacGlobal);
        if !table.complete {
            ctx.warn(
                &table.title,
                table.line,
                "the report ends inside this table; rows after the cut are missing",
            );
        }
        if k == ReportKind::RacGlobal {
            rac::table(table, &mut ctx, &mut report, &mut global);
        } else if table.kept || part == Part::Header {
            // A whole report's tables not kept are those no mapper reads
            // (`SKIPPED`): they have no rows and map to nothing.
            instance_table(table, &mut ctx, &mut report, &mut summary_wait_classes);
        }
    };
    let summary = match input {
        Input::Text(text) => scan::scan(text, keep, sink),
        Input::Bytes(bytes) => scan::scan_bytes(bytes, keep, sink)?,
    };
    let kind = kind.unwrap_or(ReportKind::Instance);
    let kind = if summary.h1.to_ascii_uppercase().contains("PDB REPORT") {
        ReportKind::Pdb
    } else {
        kind
    };
    for note in &summary.notes {
        ctx.warn("", note.line, note.message.clone());
    }
    if report.header.db_name.is_none() && report.header.begin_snap.is_none() {
        return Some(Err(ParseError::Malformed {
            path: path.to_string(),
            line: summary.lines,
            section: "header".into(),
            message: "no report header (DB Name / Snap Id tables) before the end of the file"
                .into(),
        }));
    }
    if !ends_with_end_of_report(input.bytes()) {
        ctx.warnings
            .push(crate::normalize::cut_short_warning(summary.lines));
    }
    if kind == ReportKind::RacGlobal {
        rac::finish(&mut report, &mut ctx, global);
    }
    // The summary table (all sessions) only when there is no other.
    if report.wait_classes.is_empty() {
        report.wait_classes = summary_wait_classes;
    }
    report.source = Source {
        path: path.to_string(),
        format: Format::AwrHtml,
        kind: Some(kind),
    };
    report.warnings = ctx.warnings;
    crate::normalize::report(&mut report);
    Some(Ok(report))
}

/// A report saved through a spreadsheet or CSV export has every double
/// quote doubled (`class=""awrbg""`, `colspan="" 2""`): halving them all is
/// the exact inverse. Oracle itself never writes `=""awr`.
fn quotes_doubled(bytes: &[u8]) -> bool {
    const HEAD: usize = 65536;
    let head = bytes.get(..HEAD.min(bytes.len())).unwrap_or(bytes);
    memchr::memmem::find(head, b"=\"\"awr").is_some()
}

/// `bytes` with every doubled quote halved, as `str::replace` halves them
/// (matches do not overlap: four quotes become two).
fn undouble(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len());
    let mut last = 0;
    for at in memchr::memmem::find_iter(bytes, b"\"\"") {
        out.extend_from_slice(bytes.get(last..=at).unwrap_or_default());
        last = at + 2;
    }
    out.extend_from_slice(bytes.get(last..).unwrap_or_default());
    out
}

/// Oracle closes every AWR HTML report with an `End of Report` line; only
/// the last few kilobytes are searched (markup and `SQL>` prompts may follow).
fn ends_with_end_of_report(bytes: &[u8]) -> bool {
    const TAIL: usize = 8192;
    const MARK: &[u8] = b"End of Report";
    let tail = bytes
        .get(bytes.len().saturating_sub(TAIL)..)
        .unwrap_or(bytes);
    memchr::memmem::find(tail, MARK).is_some()
}

/// Sections no part of the model comes from: their cell text is not kept,
/// which saves most of the allocations on a large report (SQL text, latch
/// and Exadata cell tables, and others no mapper reads, none of which holds
/// a header column). In byte order, so that [`wanted`] compares a title
/// with the prefixes of its first letter only.
const SKIPPED: [&str; 68] = [
    "activity over time",
    "buffer pool statistics",
    "buffer wait statistics",
    "buffered queue",
    "checkpoint activity",
    "child latch",
    "columnar cache",
    "complete list of sql text",
    "dictionary cache",
    "dynamic remastering",
    "enqueue activity",
    "exadata",
    "flash cache ",
    "flash log",
    "global cache times",
    "global cache transfer",
    "goldengate",
    "init.ora multi-valued",
    "instance efficiency",
    "instance recovery stats",
    "interconnect",
    "java pool",
    "latch ",
    "library cache",
    "memory dynamic",
    "memory statistics",
    "modified multi-valued",
    "mttr advisory",
    "mutex",
    "operating system statistics - detail",
    "parent latch",
    "persistent queue",
    "pga ",
    "process memory",
    "redo write histogram",
    "replication",
    "resource limit",
    "service statistics",
    "service wait class stats",
    "sga breakdown",
    "sga memory",
    "sga target advisory",
    "shared pool advisory",
    "shared pool statistics",
    "shared servers",
    "smart io",
    "sql ordered by cluster",
    "sql ordered by cpu",
    "sql ordered by elapsed",
    "sql ordered by executions",
    "sql ordered by gets",
    "sql ordered by parse",
    "sql ordered by sharable",
    "sql ordered by user i/o",
    "sql ordered by version",
    "streams pool",
    "top addm findings",
    "top blocking",
    "top databases",
    "top db objects",
    "top event p1",
    "top io reasons",
    "top pl/sql",
    "top process types",
    "top sessions",
    "top sql with",
    "undo segment",
    "xstream",
];

/// Whether the cell text of a table with this title is kept (its title
/// starts with none of [`SKIPPED`]): what a whole report's scan keeps. The
/// bench's stage figures scan with it, without the mappers.
pub fn wanted(title: &str) -> bool {
    let t = title.trim_start();
    // Every table's title goes through here: the prefixes of other first
    // letters are passed over by a binary search.
    let Some(first) = t.as_bytes().first().map(u8::to_ascii_lowercase) else {
        return true;
    };
    let first_of = |p: &&str| p.as_bytes().first().copied().unwrap_or(0);
    let from = SKIPPED.partition_point(|p| first_of(p) < first);
    !SKIPPED
        .get(from..)
        .unwrap_or_default()
        .iter()
        .take_while(|p| first_of(p) == first)
        .any(|p| {
            t.get(..p.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(p))
        })
}

/// The first table tells the report kind: a RAC global report starts with
/// "Database Summary" under the "WORKLOAD REPOSITORY REPORT (RAC)" title.
fn kind_of(first: &Table) -> ReportKind {
    let t = first.heading.to_ascii_uppercase();
    if t.contains("(RAC)") || key(&first.title) == "database summary" {
        ReportKind::RacGlobal
    } else if t.contains("PDB REPORT") {
        ReportKind::Pdb
    } else {
        ReportKind::Instance
    }
}

fn instance_table(
    t: &Table,
    ctx: &mut Ctx,
    r: &mut DbReport,
    summary_wait_classes: &mut Vec<awrflash_model::WaitClassRow>,
) {
    let title = key(&t.title);
    let v = View::new(t, &t.title);
    let before = ctx.warnings.len();
    let rows_before = mapped_rows(r) + summary_wait_classes.len();
    let mut mapped = true;
    match registry::slot_of_key(&title) {
        Some(Slot::LoadProfile) => sections::load_profile(&v, ctx, &mut r.load_profile),
        Some(Slot::TopEvents) => {
            if v.has_col("event") {
                sections::top_events(&v, ctx, &mut r.top_events);
            } else {
                unknown_columns(t, &v, ctx, "Event");
            }
        }
        Some(Slot::ForegroundWaits) => {
            sections::wait_events(&v, ctx, &mut r.wait_events.foreground);
        }
        Some(Slot::BackgroundWaits) => {
            sections::wait_events(&v, ctx, &mut r.wait_events.background);
        }
        Some(Slot::AllWaits) => sections::wait_events(&v, ctx, &mut r.wait_events.all),
        Some(Slot::WaitClasses) => sections::wait_classes(&v, ctx, &mut r.wait_classes),
        Some(Slot::SummaryWaitClasses) => {
            sections::wait_classes(&v, ctx, summary_wait_classes);
        }
        Some(Slot::Histogram) => sections::histogram(&v, ctx, &mut r.wait_histogram),
        Some(Slot::TimeModel) => sections::time_model(&v, ctx, &mut r.time_model),
        Some(Slot::OsStats) => sections::os_stats(&v, ctx, &mut r.os_stats),
        Some(Slot::HostCpu) => r.host_cpu = sections::host_cpu(&v, ctx),
        Some(Slot::InstanceCpu) => r.instance_cpu = sections::instance_cpu(&v, ctx),
        Some(Slot::IoProfile) => sections::io_profile(&v, ctx, &mut r.io_profile),
        Some(Slot::ActivityStats) => sections::activity_stats(&v, ctx, &mut r.activity_stats),
        Some(Slot::IostatFunction) => {
            sections::iostat(&v, ctx, IoStatKind::Function, &mut r.iostat_function);
        }
        Some(Slot::IostatFiletype) => {
            sections::iostat(&v, ctx, IoStatKind::Filetype, &mut r.iostat_filetype);
        }
        Some(Slot::IostatFunctionFiletype) => sections::iostat(
            &v,
            ctx,
            IoStatKind::FunctionFiletype,
            &mut r.iostat_function_filetype,
        ),
        Some(Slot::TablespaceIo) => sections::file_io(&v, ctx, false, &mut r.tablespace_io),
        Some(Slot::FileIo) => sections::file_io(&v, ctx, true, &mut r.file_io),
        Some(Slot::BufferPoolAdvisory) => {
            sections::buffer_pool_advisory(&v, ctx, &mut r.buffer_pool_advisory);
        }
        Some(Slot::SqlReads) => {
            sections::sql(&v, ctx, r.sql.entry("physical_reads".into()).or_default());
        }
        Some(Slot::SqlUnoptimizedReads) => {
            sections::sql(
                &v,
                ctx,
                r.sql.entry("unoptimized_reads".into()).or_default(),
            );
        }
        Some(Slot::Parameters) => sections::parameters(&v, &mut r.parameters),
        Some(Slot::CacheSizes) => header::cache_sizes(&v, ctx, r),
        // `title` is a key already: a segment title starts so.
        Some(Slot::Segments) | None => match title
            .starts_with("segments by ")
            .then(|| sections::segment_key(&title))
            .flatten()
        {
            Some(k) if v.has_col("owner") => {
                sections::segments(&v, ctx, r.segments.entry(k).or_default());
            }
            Some(_) if !v.data.is_empty() => unknown_columns(t, &v, ctx, "Owner"),
            _ => mapped = header::header_table(&v, ctx, r),
        },
    }
    if mapped
        && !v.data.is_empty()
        && mapped_rows(r) + summary_wait_classes.len() == rows_before
        && ctx.warnings.len() == before
    {
        ctx.warn(
            &t.title,
            t.line,
            format!(
                "section recognised but no row could be read (columns: {})",
                v.col_list()
            ),
        );
    }
}

/// A section recognised by its title whose columns are not the expected ones.
fn unknown_columns(t: &Table, v: &View<'_>, ctx: &mut Ctx, wanted: &str) {
    ctx.warn(
        &t.title,
        t.line,
        format!(
            "section recognised but it has no {wanted} column (columns: {}); skipped",
            v.col_list()
        ),
    );
}

/// Rows mapped so far, to notice a recognised section that gave nothing.
fn mapped_rows(r: &DbReport) -> usize {
    r.load_profile.len()
        + r.top_events.len()
        + r.wait_events.foreground.len()
        + r.wait_events.background.len()
        + r.wait_classes.len()
        + r.wait_histogram.len()
        + r.time_model.len()
        + r.os_stats.len()
        + usize::from(r.host_cpu.is_some())
        + usize::from(r.instance_cpu.is_some())
        + r.io_profile.len()
        + r.activity_stats.len()
        + r.iostat_function.len()
        + r.iostat_filetype.len()
        + r.iostat_function_filetype.len()
        + r.tablespace_io.len()
        + r.file_io.len()
        + r.buffer_pool_advisory.len()
        + r.segments.values().map(Vec::len).sum::<usize>()
        + r.sql.values().map(Vec::len).sum::<usize>()
        + r.parameters.len()
        + usize::from(r.cache_sizes.src.is_some())
        + usize::from(r.header.src.is_some())
        + usize::from(r.header.host.is_some())
        + usize::from(r.header.begin_snap.is_some())
        + usize::from(r.header.instance.is_some())
        + usize::from(r.header.container.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::registry::{SECTIONS, Title};

    /// `wanted` finds the prefixes by a binary search on a title's first
    /// letter, lowercased: they must be lowercase and in byte order.
    #[test]
    fn skipped_prefixes_are_lowercase_and_the_case_of_a_title_does_not_matter() {
        assert!(SKIPPED.is_sorted(), "{SKIPPED:?}");
        for p in SKIPPED {
            assert_eq!(p, p.to_ascii_lowercase(), "{p}");
            assert!(!p.is_empty());
            assert!(!wanted(&p.to_ascii_uppercase()), "{p}");
            assert!(!wanted(&format!("  {p} and more")), "{p}");
        }
        assert!(wanted("Load Profile"));
        assert!(wanted(""));
    }

    /// `wanted`'s search by first byte reads as a comparison with every
    /// prefix: over every prefix cut at every length, in both cases, with
    /// and without more after it and blanks before it.
    #[test]
    fn wanted_reads_as_a_comparison_with_every_prefix() {
        let naive = |title: &str| {
            let t = title.trim_start();
            !SKIPPED.iter().any(|p| {
                t.get(..p.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(p))
            })
        };
        let mut titles = vec![String::new(), " ".into(), "\u{a0}sga".into(), "~".into()];
        for p in SKIPPED {
            for cut in 0..=p.len() {
                let head = p.get(..cut).unwrap_or_default();
                for h in [head.to_string(), head.to_ascii_uppercase()] {
                    titles.push(h.clone());
                    titles.push(format!("  {h} x"));
                    titles.push(format!("{h}zz"));
                }
            }
        }
        for t in &titles {
            assert_eq!(wanted(t), naive(t), "{t:?}");
        }
    }

    /// No skipped prefix may start a title a mapper reads: the registry's
    /// titles (instance reports) and the RAC global mapper's.
    #[test]
    fn skipped_tables_are_none_a_mapper_reads() {
        let mut read: Vec<&str> = vec![
            "database summary",
            "database instances included in report",
            "os statistics by instance",
            "time model",
            "foreground wait classes",
            "top timed foreground events",
            "top timed events",
            "foreground wait events (global)",
            "background wait events (global)",
            "wait event histogram (global)",
            "system statistics (global)",
            "global messaging statistics (global)",
            "system statistics - per second",
            "system statistics - per transaction",
            "io profile (global)",
            "iostat by function",
            "iostat by file type",
            "init.ora parameters",
            "cache sizes",
            "top 10 foreground events by total wait time",
            "top 5 timed events",
            "segments by physical reads",
        ];
        for (_, titles) in SECTIONS {
            for t in *titles {
                if let Title::Is(s) | Title::StartsWith(s) | Title::Contains(s) = *t {
                    read.push(s);
                }
            }
        }
        for t in read {
            assert!(wanted(t), "{t:?} is read by a mapper but skipped");
        }
        assert!(!wanted("Operating System Statistics - Detail"));
        assert!(!wanted("  Flash Cache User Reads"));
    }

    /// The raw bytes read as their decoded text reads: with GBK bytes in
    /// a table no section keeps (read without decoding), in a kept cell
    /// (decoded and read again), and with doubled quotes.
    #[test]
    fn bytes_read_as_their_decoded_text() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../fixtures/awr-html/awr_23ai_reduced.html"
        );
        let Ok(base) = std::fs::read(path) else {
            panic!("{path} is missing");
        };
        let at = memchr::memmem::find(&base, b"<h3 class=\"awr\">init.ora").unwrap_or(0);
        assert!(at > 0);
        let with = |insert: &[u8], into: &[u8]| {
            let (head, tail) = into.split_at(at);
            [head, insert, tail].concat()
        };
        let skipped = with(
            b"<h3 class=\"awr\">Complete List of SQL Text</h3>\n<table><tr><th>SQL Id</th><th>SQL Text</th></tr>\n<tr><td>a1</td><td>select '\xd6\xd0\xce\xc4' from dual</td></tr></table>\n",
            &base,
        );
        let kept = [&base[..], b"\xd6\xd0"].concat();
        let kept = with(b"<p>\xce\xc4</p>\n", &kept);
        let doubled = String::from_utf8_lossy(&base)
            .replace('"', "\"\"")
            .into_bytes();
        let segment = memchr::memmem::find(&base, b">ORDERS<").unwrap_or(0);
        assert!(segment > 0);
        let mut in_cell = base.clone();
        in_cell.splice(segment + 1..segment + 1, *b"\xd6\xd0");
        // Only a table's attributes are read: those of other tags are not
        // checked, a table's are.
        let in_attrs = with(
            b"<a class=\"awr\" name=\"\xd6\xd0\"></a>\n<h3 class=\"\xce\xc4\">Top SQL</h3>\n",
            &base,
        );
        let in_table_attrs = with(
            b"<table summary=\"\xd6\xd0\"><tr><td>1</td></tr></table>\n",
            &base,
        );
        for (what, bytes) in [
            ("as it is", &base),
            ("GBK in a skipped table", &skipped),
            ("GBK between tables and at the end", &kept),
            ("GBK in a segment name", &in_cell),
            (
                "GBK in the attributes of an anchor and a heading",
                &in_attrs,
            ),
            ("GBK in a table's attributes", &in_table_attrs),
            ("quotes doubled", &doubled),
        ] {
            let decoded = crate::decode::decode(bytes);
            let want = parse("r.html", &decoded);
            assert!(want.is_ok(), "{what}");
            assert_eq!(parse_bytes("r.html", bytes), want, "{what}");
        }
        let lazy = parse_as("r.html", Input::Bytes(&skipped), Part::Whole);
        assert!(lazy.is_some(), "a skipped table's bytes are not decoded");
        let lazy = parse_as("r.html", Input::Bytes(&in_cell), Part::Whole);
        assert!(lazy.is_none(), "a kept cell's bytes are checked");
        let lazy = parse_as("r.html", Input::Bytes(&in_attrs), Part::Whole);
        assert!(lazy.is_some(), "the attributes of other tags are not read");
        let lazy = parse_as("r.html", Input::Bytes(&in_table_attrs), Part::Whole);
        assert!(lazy.is_none(), "a table's attributes are checked");
        let report = parse_bytes("r.html", &in_cell);
        let names: Vec<String> = report
            .iter()
            .flat_map(|r| r.segments.values().flatten())
            .map(|s| s.object.clone())
            .collect();
        assert_eq!(names, ["\u{fffd}\u{fffd}ORDERS"]);
    }

    #[test]
    fn undoubled_bytes_are_what_str_replace_gives() {
        for s in [
            "",
            "\"",
            "\"\"",
            "\"\"\"",
            "\"\"\"\"",
            "a\"\"b\"\"\"c",
            "=\"\"awrbg\"\"",
            "\u{4e2d}\"\"\u{6587}",
        ] {
            assert_eq!(
                undouble(s.as_bytes()),
                s.replace("\"\"", "\"").into_bytes(),
                "{s:?}"
            );
        }
    }
}
