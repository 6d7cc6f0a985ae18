//! No input makes the parser panic, and every refusal names its file.
//!
//! For every file of the shared corpus (`../shared/corpus` beside the
//! workspace), `parse_bytes` runs on truncations at 50 points and on byte
//! mutations that mail clients, browsers and editors make: `<`/`>` lost, a
//! `</table>` lost, random bytes, NUL bytes, line endings rewritten, a
//! UTF-16LE re-encoding with a BOM (which must parse exactly as the UTF-8). Each result must be a model whose source is the file, or an error
//! whose message names the file.
//!
//! Cost: a debug build of the parsers reads a few MB/s, so by default a
//! big file is not parsed whole 62 times. Each truncation keeps the file's
//! header (title to Load Profile) and the 32 KiB before the cut, so the
//! parser meets the cut in the same section and table as in the real cut
//! file; each mutation applies to the header plus one 128 KiB window, the 12
//! windows spread over the file. Files under those sizes are used whole.
//! `AWRFLASH_ROBUST_FULL=1` uses whole files for everything (for a release
//! build: `AWRFLASH_ROBUST_FULL=1 cargo test --release -p awrflash-parse
//! --test robustness`); `AWRFLASH_ROBUST_STRIDE=N` keeps every Nth
//! truncation point when iterating locally.
//!
//! A failing input is written to `target/robustness-failures/` so that it can
//! be replayed with `awrflash parse`.

// Tests may unwrap and index: a failure here is a test failure.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use awrflash_model::Document;
use awrflash_parse::{Limits, ParseError, parse_bytes, parse_bytes_with};

/// Name of the threads whose caught panics are not printed.
const WORKER: &str = "robustness-worker";

type PanicHook = dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static;

/// Truncation points per file.
const TRUNCATIONS: usize = 50;

/// splitmix64: a fixed-seed generator so every run mutates the same bytes.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Self(seed)
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

fn seed_of(name: &str) -> u64 {
    // FNV-1a of the file name: each file gets its own, stable mutations.
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Removes each occurrence of `byte` with probability 1/`one_in`.
fn drop_some(bytes: &[u8], byte: u8, one_in: usize, rng: &mut Rng) -> Vec<u8> {
    bytes
        .iter()
        .copied()
        .filter(|&b| b != byte || rng.below(one_in) != 0)
        .collect()
}

fn find_ci(hay: &[u8], needle: &[u8], from: usize) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w.eq_ignore_ascii_case(needle))
        .map(|p| p + from)
}

/// Removes the first `</table>` at or after `from`.
fn drop_table_close(bytes: &[u8], from: usize) -> Option<Vec<u8>> {
    let at = find_ci(bytes, b"</table>", from)?;
    let mut out = bytes[..at].to_vec();
    out.extend_from_slice(&bytes[at + b"</table>".len()..]);
    Some(out)
}

fn overwrite_random(bytes: &[u8], count: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for _ in 0..count {
        let i = rng.below(out.len());
        if let Some(b) = out.get_mut(i) {
            *b = rng.next() as u8;
        }
    }
    out
}

fn insert_nuls(bytes: &[u8], count: usize, rng: &mut Rng) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for _ in 0..count {
        let i = rng.below(out.len() + 1);
        out.insert(i, 0);
    }
    out
}

fn utf16le_with_bom(bytes: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    let mut out = vec![0xFF, 0xFE];
    for u in text.encode_utf16() {
        out.extend_from_slice(&u.to_le_bytes());
    }
    out
}

/// Names of the byte mutations, in the order [`mutate`] numbers them.
const MUTATIONS: [&str; 12] = [
    "lt-dropped-1-in-16",
    "gt-dropped-1-in-16",
    "every-lt-dropped",
    "first-table-close-dropped",
    "middle-table-close-dropped",
    "random-bytes-x16",
    "random-bytes-x256",
    "random-bytes-x4096",
    "nul-bytes-x8",
    "nul-bytes-x64",
    "utf16le-bom",
    "crlf-to-lf-and-back",
];

/// Applies mutation number `i` of [`MUTATIONS`] to `bytes`.
fn mutate(i: usize, bytes: &[u8], rng: &mut Rng) -> Vec<u8> {
    match i {
        0 => drop_some(bytes, b'<', 16, rng),
        1 => drop_some(bytes, b'>', 16, rng),
        2 => drop_some(bytes, b'<', 1, rng),
        3 => drop_table_close(bytes, 0).unwrap_or_else(|| bytes.to_vec()),
        4 => drop_table_close(bytes, bytes.len() / 2).unwrap_or_else(|| bytes.to_vec()),
        5 => overwrite_random(bytes, 16, rng),
        6 => overwrite_random(bytes, 256, rng),
        7 => overwrite_random(bytes, 4096, rng),
        8 => insert_nuls(bytes, 8, rng),
        9 => insert_nuls(bytes, 64, rng),
        10 => utf16le_with_bom(bytes),
        // A mail client's line-ending rewrite, half done: LF files get CRLF,
        // CRLF files lose their CR.
        _ => {
            if bytes.windows(2).any(|w| w == b"\r\n") {
                bytes.iter().copied().filter(|&b| b != b'\r').collect()
            } else {
                bytes
                    .iter()
                    .flat_map(|&b| {
                        if b == b'\n' {
                            vec![b'\r', b'\n']
                        } else {
                            vec![b]
                        }
                    })
                    .collect()
            }
        }
    }
}

/// Bytes kept whole at the start of every excerpt: the report's title and
/// header (up to its Load Profile), or the first 4 KiB of a capture.
fn header_len(bytes: &[u8]) -> usize {
    let head = &bytes[..bytes.len().min(64 * 1024)];
    report_landmarks(head)
        .map_or(4096, |(_, body)| body)
        .min(bytes.len())
}

/// Bytes before a cut that an excerpt keeps.
const CUT_WINDOW: usize = 32 * 1024;
/// Bytes of the body a mutated excerpt keeps.
const MUTATION_WINDOW: usize = 128 * 1024;

/// The file cut at `cut`; in excerpt mode a big file keeps only its header
/// and the `CUT_WINDOW` bytes before the cut, so the parser meets the cut
/// in the same section and table at a fraction of the cost.
fn cut_at(bytes: &[u8], header: usize, cut: usize, full: bool) -> Vec<u8> {
    if full || cut <= header + CUT_WINDOW {
        return bytes[..cut].to_vec();
    }
    let mut out = bytes[..header].to_vec();
    out.extend_from_slice(&bytes[cut - CUT_WINDOW..cut]);
    out
}

/// Excerpt `i` of `n`: the header and one window of the body, the windows
/// spread evenly over the file (the whole file in full mode or when small).
fn excerpt(bytes: &[u8], header: usize, i: usize, n: usize, full: bool) -> Vec<u8> {
    if full || bytes.len() <= header + MUTATION_WINDOW {
        return bytes.to_vec();
    }
    let room = bytes.len() - header - MUTATION_WINDOW;
    let start = header + room * i / n.saturating_sub(1).max(1);
    let mut out = bytes[..header].to_vec();
    out.extend_from_slice(&bytes[start..start + MUTATION_WINDOW]);
    out
}

/// Failures collected over all files: (input name, what went wrong).
type Failures = Mutex<Vec<String>>;

fn failure_dir() -> PathBuf {
    awrflash_testkit::workspace_root().join("target/robustness-failures")
}

fn keep_failing_input(label: &str, bytes: &[u8]) -> String {
    let dir = failure_dir();
    let _ = std::fs::create_dir_all(&dir);
    let file: String = label
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let path = dir.join(file);
    let _ = std::fs::write(&path, bytes);
    path.display().to_string()
}

/// Parses one input and checks the invariants. Returns the result for
/// further checks, or `None` after recording a panic.
fn check(label: &str, bytes: &[u8], failures: &Failures) -> Option<Result<Document, ParseError>> {
    let result = catch_unwind(AssertUnwindSafe(|| parse_bytes(label, bytes)));
    let fail = |why: String| {
        let saved = keep_failing_input(label, bytes);
        failures
            .lock()
            .unwrap()
            .push(format!("{label}: {why} (input saved to {saved})"));
    };
    match result {
        Err(panic) => {
            let msg = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_default();
            fail(format!("panicked: {msg}"));
            None
        }
        Ok(Err(e)) => {
            let msg = e.to_string();
            if !msg.contains(label) {
                fail(format!("error does not name the file: {msg}"));
            }
            Some(Err(e))
        }
        Ok(Ok(doc)) => {
            if doc.source().path != label {
                fail(format!(
                    "model names another source: {:?}",
                    doc.source().path
                ));
            }
            Some(Ok(doc))
        }
    }
}

fn stride() -> usize {
    std::env::var("AWRFLASH_ROBUST_STRIDE")
        .ok()
        .and_then(|s| s.parse().ok())
        .filter(|&n: &usize| n > 0)
        .unwrap_or(1)
}

/// Full mode: whole-file truncations and mutations (slow in a debug build).
fn full_mode() -> bool {
    std::env::var_os("AWRFLASH_ROBUST_FULL").is_some()
}

fn run_file(path: &Path, root: &Path, failures: &Failures) -> usize {
    let bytes = std::fs::read(path).unwrap();
    let name = path
        .strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string();
    let full = full_mode();
    let header = header_len(&bytes);
    let mut runs = 0;
    for k in (0..TRUNCATIONS).step_by(stride()) {
        let cut = bytes.len() * k / TRUNCATIONS;
        let input = cut_at(&bytes, header, cut, full);
        check(
            &format!("{name}#cut-{k}-of-{TRUNCATIONS}"),
            &input,
            failures,
        );
        runs += 1;
    }
    let mut rng = Rng::new(seed_of(&name));
    for (i, what) in MUTATIONS.iter().enumerate() {
        let base = excerpt(&bytes, header, i, MUTATIONS.len(), full);
        let label = format!("{name}#{what}");
        let result = check(&label, &mutate(i, &base, &mut rng), failures);
        runs += 1;
        // A UTF-16 copy decodes to the same text: it must parse the same.
        if *what == "utf16le-bom" {
            let original = check(&format!("{name}#excerpt-{i}"), &base, failures);
            runs += 1;
            let same = match (&original, &result) {
                (Some(Ok(a)), Some(Ok(b))) => {
                    let mut b = b.clone();
                    relabel(&mut b, &format!("{name}#excerpt-{i}"));
                    *a == b
                }
                (Some(Err(_)), Some(Err(_))) => true,
                _ => false,
            };
            if !same {
                failures.lock().unwrap().push(format!(
                    "{label}: parses differently from the UTF-8 original"
                ));
            }
        }
    }
    runs
}

/// Gives a document the source path it would have had under `path`.
fn relabel(doc: &mut Document, path: &str) {
    match doc {
        Document::Report(r) => r.source.path = path.to_string(),
        Document::Iostat(c) => c.source.path = path.to_string(),
        Document::Sysstat(s) => s.source.path = path.to_string(),
        Document::SegmentSizes(s) => s.source.path = path.to_string(),
    }
}

#[test]
fn no_corpus_file_truncation_or_mutation_panics_and_every_error_names_its_file() {
    let Some(dir) = awrflash_testkit::corpus("") else {
        return;
    };
    let root = dir.clone();
    let files = awrflash_testkit::files_below(&dir);
    assert!(!files.is_empty(), "the corpus directory has no files");
    let failures: Failures = Mutex::new(Vec::new());
    let next = Mutex::new(files.iter());
    let runs = Mutex::new(0usize);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    // The default hook would print every caught panic's backtrace; the
    // failures list reports them once, with the input saved. Other tests'
    // threads keep the default hook.
    let hook: Arc<PanicHook> = Arc::from(std::panic::take_hook());
    let chained = Arc::clone(&hook);
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() != Some(WORKER) {
            chained(info);
        }
    }));
    std::thread::scope(|s| {
        for _ in 0..workers {
            let work = || {
                loop {
                    let Some(path) = next.lock().unwrap().next() else {
                        break;
                    };
                    let t = std::time::Instant::now();
                    let n = run_file(path, &root, &failures);
                    println!(
                        "{}: {n} parses in {} ms",
                        path.strip_prefix(&root).unwrap_or(path).display(),
                        t.elapsed().as_millis()
                    );
                    *runs.lock().unwrap() += n;
                }
            };
            std::thread::Builder::new()
                .name(WORKER.into())
                .spawn_scoped(s, work)
                .unwrap();
        }
    });
    let failures = failures.into_inner().unwrap();
    println!(
        "{} files, {} parses, {} failures",
        files.len(),
        runs.into_inner().unwrap(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Where the report's title ends (end of its line) and where its body
/// starts (the Load Profile), for AWR and Statspack files.
fn report_landmarks(bytes: &[u8]) -> Option<(usize, usize)> {
    let title = [
        &b"workload repository"[..],
        b"awr rac report",
        b"statspack report for",
    ]
    .iter()
    .filter_map(|t| find_ci(bytes, t, 0))
    .min()?;
    let title_end = bytes[title..].iter().position(|&b| b == b'\n')? + title;
    let body = find_ci(bytes, b"load profile", title_end)?;
    Some((title_end, body))
}

/// The AWR and Statspack files of the corpus with their landmarks.
fn report_files(dir: &Path) -> Vec<(String, Vec<u8>, usize, usize)> {
    let mut out = Vec::new();
    for path in awrflash_testkit::files_below(dir) {
        let rel = path.strip_prefix(dir).unwrap().display().to_string();
        if !["awr-html/", "awr-text/", "statspack/"]
            .iter()
            .any(|p| rel.starts_with(p))
        {
            continue;
        }
        let bytes = std::fs::read(&path).unwrap();
        let (title_end, body) = report_landmarks(&bytes)
            .unwrap_or_else(|| panic!("{rel}: no title or Load Profile found to cut at"));
        out.push((rel, bytes, title_end, body));
    }
    out
}

#[test]
fn reports_cut_right_after_their_title_are_errors_naming_the_file() {
    let Some(dir) = awrflash_testkit::corpus("") else {
        return;
    };
    let mut problems = Vec::new();
    let files = report_files(&dir);
    for (rel, bytes, title_end, _) in &files {
        let label = format!("{rel}#cut-after-title");
        match parse_bytes(&label, &bytes[..*title_end]) {
            Ok(_) => problems.push(format!("{label}: a report without its header parsed")),
            Err(e) if !e.to_string().contains(&label) => {
                problems.push(format!("{label}: error does not name the file: {e}"))
            }
            Err(_) => {}
        }
    }
    println!("{} reports cut after their title", files.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]

fn reports_cut_after_their_header_parse_with_warnings() {
    let Some(dir) = awrflash_testkit::corpus("") else {
        return;
    };
    let mut problems = Vec::new();
    let files = report_files(&dir);
    for (rel, bytes, _, body) in &files {
        let label = format!("{rel}#cut-before-load-profile");
        match parse_bytes(&label, &bytes[..*body]) {
            Ok(doc) if doc.warnings().is_empty() => problems.push(format!(
                "{label}: a report cut after its header parsed without a warning"
            )),
            Ok(_) => {}
            Err(e) => problems.push(format!(
                "{label}: a report with its header intact was refused: {e}"
            )),
        }
    }
    println!("{} reports cut after their header", files.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// A synthetic Linux `iostat -x` capture of about `target` bytes.
fn iostat_capture(target: usize, long_line: Option<usize>) -> Vec<u8> {
    let mut out = String::with_capacity(target + 4096);
    out.push_str("Linux 5.14.0-70.el9.x86_64 (dbhost01) \t11/23/2026 \t_x86_64_\t(8 CPU)\n\n");
    let mut t = 0u32;
    while out.len() < target {
        out.push_str(&format!(
            "11/23/2026 {:02}:{:02}:{:02} AM\n",
            (t / 3600) % 12 + 1,
            (t / 60) % 60,
            t % 60
        ));
        out.push_str(
            "Device            r/s     w/s     rkB/s     wkB/s   rrqm/s   wrqm/s  %rrqm  %wrqm r_await w_await aqu-sz rareq-sz wareq-sz  svctm  %util\n",
        );
        if let (Some(n), 1) = (long_line, t) {
            out.push_str(&"x".repeat(n));
            out.push('\n');
        }
        for d in 0..8 {
            out.push_str(&format!(
                "sd{}            {:>6}.00   12.00   1024.00    96.00     0.00     1.00   0.00   7.69    0.45    1.20   0.05     8.00     8.00   0.30   4.20\n",
                (b'a' + d) as char,
                100 + t % 50
            ));
        }
        out.push('\n');
        t += 1;
    }
    out.into_bytes()
}

#[test]
fn inputs_above_the_size_limit_are_refused_before_parsing() {
    let limits = Limits {
        max_input_bytes: 1024 * 1024,
        ..Limits::default()
    };
    let bytes = iostat_capture(2 * 1024 * 1024, None);
    let err = parse_bytes_with("big.iostat", &bytes, &limits).unwrap_err();
    let msg = err.to_string();
    assert!(msg.starts_with("big.iostat: "), "{msg}");
    assert!(msg.contains("input limit"), "{msg}");
    // The default limit lets the same input through to the parser.
    let r = parse_bytes("big.iostat", &bytes);
    assert!(
        !r.as_ref()
            .is_err_and(|e| e.to_string().contains("input limit")),
        "{r:?}"
    );
}

#[test]
fn a_ten_megabyte_line_is_cut_not_parsed_whole() {
    let bytes = iostat_capture(64 * 1024, Some(10 * 1024 * 1024));
    let r = catch_unwind(|| parse_bytes("long-line.iostat", &bytes)).expect("no panic");
    match r {
        Ok(doc) => assert!(
            doc.warnings()
                .iter()
                .any(|w| w.section == "input" && w.message.contains("10 MiB")),
            "{:?}",
            doc.warnings()
        ),
        Err(e) => assert!(e.to_string().contains("long-line.iostat"), "{e}"),
    }
}

fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Parses `bytes` and checks: no panic, an error names the file, and the
/// peak RSS grew by less than 4x the input. Run such tests alone (`--exact`)
/// so that the peak is theirs.
fn assert_parses_in_bounded_memory(name: &str, bytes: &[u8]) {
    let before = peak_rss_kb().unwrap_or(0);
    let r = catch_unwind(|| parse_bytes(name, bytes)).expect("no panic");
    let after = peak_rss_kb().unwrap_or(0);
    let input_kb = (bytes.len() / 1024) as u64;
    println!(
        "{name}: input {} MiB, peak RSS {} MiB before parsing, {} MiB after; result: {}",
        input_kb / 1024,
        before / 1024,
        after / 1024,
        match &r {
            Ok(doc) => format!(
                "{} model with {} warnings",
                doc.source().format.as_str(),
                doc.warnings().len()
            ),
            Err(e) => format!("error: {e}"),
        }
    );
    if let Err(e) = &r {
        assert!(e.to_string().contains(name), "{e}");
    }
    assert!(
        after.saturating_sub(before) < 4 * input_kb,
        "parsing {input_kb} KiB grew the peak RSS by {} KiB",
        after.saturating_sub(before)
    );
}

/// A 200 MB iostat capture with a 10 MB line. Ignored by default (about
/// 20 s in a release build, minutes in a debug one); run it alone:
/// `cargo test --release -p awrflash-parse --test robustness -- --ignored --exact two_hundred_megabyte_iostat_capture_parses_in_bounded_memory`
#[test]
#[ignore]
fn two_hundred_megabyte_iostat_capture_parses_in_bounded_memory() {
    let bytes = iostat_capture(200 * 1024 * 1024, Some(10 * 1024 * 1024));
    assert_parses_in_bounded_memory("huge.iostat", &bytes);
}

/// The project's sample AWR HTML report grown to 200 MB by a "Complete
/// List of SQL Text" section (the biggest section of real reports), with
/// one 10 MB SQL text on a single line. Ignored by default; run it alone:
/// `cargo test --release -p awrflash-parse --test robustness -- --ignored --exact two_hundred_megabyte_awr_html_report_parses_in_bounded_memory`
#[test]
#[ignore]
fn two_hundred_megabyte_awr_html_report_parses_in_bounded_memory() {
    let sample = awrflash_testkit::fixtures("sample/awr_19c_sample.html");
    let sample = std::fs::read_to_string(&sample).unwrap();
    let at = sample.rfind("End of Report").unwrap();
    let mut html = String::with_capacity(201 * 1024 * 1024);
    html.push_str(&sample[..at]);
    html.push_str(
        "<h3 class=\"awr\">Complete List of SQL Text</h3>\n<table border=\"0\" class=\"tdiff\">\n<tr><th class=\"awrbg\">SQL Id</th><th class=\"awrbg\">SQL Text</th></tr>\n",
    );
    let mut i = 0u64;
    while html.len() < 200 * 1024 * 1024 {
        let text = if i == 7 {
            "SELECT 1 FROM DUAL UNION ALL ".repeat(10 * 1024 * 1024 / 29)
        } else {
            format!("SELECT /* {i} */ C1, C2 FROM T WHERE ID = :B1 AND X &lt; 5\n").repeat(60)
        };
        html.push_str(&format!(
            "<tr><td class='awrc'>{i:013x}</td><td class='awrc'>{text}</td></tr>\n"
        ));
        i += 1;
    }
    html.push_str("</table><p />\n");
    html.push_str(&sample[at..]);
    assert_parses_in_bounded_memory("huge.html", html.as_bytes());
}
