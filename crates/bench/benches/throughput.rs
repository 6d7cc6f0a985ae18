//! `cargo bench -p awrflash-bench`: awrflash's speed over the shared corpus.
//!
//! 1. Lenient byte scans (a memchr tag scan, the same scan skipping quoted
//!    attribute values, quick-xml 0.39's byte reader, quick-xml 0.42 over
//!    decoded text) vs `parse_bytes` for every AWR HTML file (one core); the
//!    ratio is against the fastest scan, and the last lines give it against
//!    each.
//!    1b. The AWR HTML parse by stage (`stages`): the UTF-8 check, the table
//!    scan skipping every table, the scan keeping the parser's tables, the
//!    parse with its mappers, `parse_bytes`; each as time over the tag scan's.
//! 2. `parse_bytes` per detected format (one core).
//! 3. End to end on the whole corpus: parse, `analyze`, render HTML
//!    (library, one core) and the `awrflash` CLI over the corpus folder.
//! 4. The CLI over batches of 1,000 / 10,000 / 100,000 reports made by
//!    copying corpus reports with distinct snapshot ids (plain files up to
//!    10,000, gzip copies above): wall time, peak RSS and the load average
//!    before and after each run.
//!
//! 5. Only when named (`-- fleet`): a fleet of databases, each with a run of
//!    consecutive intervals (`AWRFLASH_BENCH_FLEET=200x720`, the default: 200
//!    databases with a month of hourly reports, 144,000 reports), made from
//!    the corpus reports with rewritten DBIDs and snapshot ids, gzip copies.
//!
//! Sections can be picked by name: `cargo bench -p awrflash-bench -- scan
//! stages formats e2e batch`. Environment: `AWRFLASH_BENCH_BATCHES=1000,10000` (batch
//! sizes), `AWRFLASH_BENCH_CMD="analyze {dir} -o {out}/"` (the CLI words;
//! default: `analyze` when the CLI has it, else `parse`), `AWRFLASH_BENCH_KEEP=1`
//! (keep the batch folders under `target/bench-batch`), `AWRFLASH_BENCH_ONLY=TEXT`
//! (the profile loops read only the files whose name contains it).
//!
//! Loops to profile, only when named: `profile-html` (parse the AWR HTML
//! files), `profile-scan` (the floors over them), `profile-text` (parse the
//! AWR text and Statspack files), `profile-os` (parse the iostat, sar and
//! nmon captures).
//!
//! The CLI runs in a child process of this same executable (with
//! `AWRFLASH_BENCH_CHILD` set it is `awrflash`), so the bench needs no
//! separate release build of the binary and reads the child's own peak RSS.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use awrflash_bench::{
    Floor, GzipCopies, best_of, copy_sources, cpu_model, header_of, load_average, mb_per_s,
    peak_rss_kb, with_dbid, with_snap_ids,
};
use awrflash_model::Document;
use awrflash_testkit::{files_below, workspace_root};

const CHILD: &str = "AWRFLASH_BENCH_CHILD";
const RSS_TAG: &str = "awrflash-bench: peak RSS kB ";

fn main() -> ExitCode {
    if std::env::var_os(CHILD).is_some() {
        let code = awrflash_cli::main();
        if let Some(kb) = peak_rss_kb() {
            eprintln!("{RSS_TAG}{kb}");
        }
        return code;
    }
    let picked: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let want = |s: &str| picked.is_empty() || picked.iter().any(|p| p == s);
    let Some(dir) = awrflash_testkit::corpus("") else {
        return ExitCode::SUCCESS;
    };
    let files: Vec<(String, Vec<u8>)> = files_below(&dir)
        .into_iter()
        .filter_map(|p| {
            let name = p.strip_prefix(&dir).ok()?.display().to_string();
            Some((name, std::fs::read(&p).ok()?))
        })
        .collect();
    let total: usize = files.iter().map(|(_, b)| b.len()).sum();
    // Other work on the machine slows wall-clock figures: say how much.
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into());
    println!(
        "awrflash bench: {} | {} cores, load average {load} | corpus {} files, {:.1} MB | profile {}",
        cpu_model(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        files.len(),
        total as f64 / 1e6,
        if cfg!(debug_assertions) {
            "debug"
        } else {
            "optimised (bench / release / profiling)"
        },
    );
    if want("scan") {
        scan_vs_parse(&files);
    }
    if want("stages") {
        stages(&files);
    }
    if want("formats") {
        per_format(&files);
    }
    if want("e2e") {
        end_to_end(&files, &dir);
    }
    if want("batch") {
        batches(&dir);
    }
    // Not in the default run (about 15 GB of copies and 10 minutes).
    if picked.iter().any(|p| p == "fleet") {
        fleet(&dir);
    }
    // Not part of the default run: steady loops over the AWR HTML files to
    // profile (`perf record -g target/release/deps/throughput-* profile-html`)
    // or to count instructions, which other load on the machine does not
    // disturb (`valgrind --tool=callgrind ... profile-scan`, then
    // `profile-html`, with AWRFLASH_BENCH_ITERS=1).
    for what in ["profile-html", "profile-scan"] {
        if picked.iter().any(|p| p == what) {
            profile_loop(&files, what == "profile-html");
        }
    }
    if picked.iter().any(|p| p == "profile-text") {
        profile_parse(&files, &["awr-text/", "statspack/"], "text reports");
    }
    if picked.iter().any(|p| p == "profile-os") {
        profile_parse(&files, &["iostat/", "other/"], "OS captures");
    }
    ExitCode::SUCCESS
}

fn short(name: &str) -> String {
    let base = name.rsplit('/').next().unwrap_or(name);
    base.chars().take(44).collect()
}

/// Section 1: how close the HTML parser gets to a lenient scan of the
/// same bytes. Every floor of [`Floor::ALL`] is timed; the ratio is taken
/// against the fastest of them.
fn scan_vs_parse(files: &[(String, Vec<u8>)]) {
    println!("\n## 1. AWR HTML: lenient byte scans (floors) vs parse_bytes (one core, best run)");
    let [tag, quoted, qx39, qx42] = Floor::ALL.map(short_floor);
    println!(
        "{:<44} {:>6} {:>9} {:>9} {:>9} {:>9} {:>10} {:>6}  result",
        "file", "MB", tag, quoted, qx39, qx42, "parse MB/s", "ratio"
    );
    let mut bytes = 0u64;
    let mut t_floor = [Duration::ZERO; Floor::ALL.len()];
    let mut t_parse = Duration::ZERO;
    for (name, data) in files.iter().filter(|(n, _)| n.starts_with("awr-html/")) {
        let mut stopped = Vec::new();
        let mut ts = [Duration::ZERO; Floor::ALL.len()];
        for (slot, floor) in ts.iter_mut().zip(Floor::ALL) {
            let mut scan = None;
            *slot = best_of(Duration::from_millis(200), 3, || {
                scan = Some(floor.run(data));
            });
            if let Some(at) = scan.and_then(|s| s.stopped_at) {
                stopped.push(format!(" ({} stopped at byte {at})", floor.name()));
            }
        }
        let mut result = String::new();
        let tp = best_of(Duration::from_millis(200), 3, || {
            result = describe(&awrflash_parse::parse_bytes(name, data));
        });
        result.extend(stopped);
        let n = data.len() as u64;
        bytes += n;
        for (total, t) in t_floor.iter_mut().zip(ts) {
            *total += t;
        }
        t_parse += tp;
        let fastest = ts.iter().copied().min().unwrap_or(Duration::ZERO);
        let [tag, quoted, qx39, qx42] = ts;
        println!(
            "{:<44} {:>6.2} {:>9.0} {:>9.0} {:>9.0} {:>9.0} {:>10.0} {:>5.0}%  {}",
            short(name),
            n as f64 / 1e6,
            mb_per_s(n, tag),
            mb_per_s(n, quoted),
            mb_per_s(n, qx39),
            mb_per_s(n, qx42),
            mb_per_s(n, tp),
            100.0 * fastest.as_secs_f64() / tp.as_secs_f64(),
            result
        );
    }
    let fastest = t_floor.iter().copied().min().unwrap_or(Duration::ZERO);
    let [tag, quoted, qx39, qx42] = t_floor;
    println!(
        "{:<44} {:>6.2} {:>9.0} {:>9.0} {:>9.0} {:>9.0} {:>10.0} {:>5.0}%  (target: parse >= 50% of the fastest floor)",
        "ALL AWR HTML",
        bytes as f64 / 1e6,
        mb_per_s(bytes, tag),
        mb_per_s(bytes, quoted),
        mb_per_s(bytes, qx39),
        mb_per_s(bytes, qx42),
        mb_per_s(bytes, t_parse),
        100.0 * fastest.as_secs_f64() / t_parse.as_secs_f64()
    );
    for (floor, t) in Floor::ALL.iter().zip(t_floor) {
        println!(
            "  parse / {:<22} {:>5.0}%",
            floor.name(),
            100.0 * t.as_secs_f64() / t_parse.as_secs_f64()
        );
    }
}

/// Section 1b: where the AWR HTML parse spends its time beyond the floor.
/// Over the same files (one core, best run of each): the UTF-8 check of
/// the input alone; then, on the text decoded beforehand, the table scan
/// with every table's text skipped (the tokenizer over the whole input,
/// the rows of no table read), the scan keeping the tables the parser
/// keeps (`awr_html::wanted`), rows built but not mapped, and the whole
/// `awr_html::parse` (mappers, normalising, the model), each doing the
/// work of the one before and more; last `parse_bytes` on the raw bytes
/// (sniffing too, and the UTF-8 check of only the text the scan keeps,
/// not the whole input's of the first line). From the second line on, the
/// gap between two lines is what the later stage adds. Each stage is the best of 2 s of
/// runs: with 0.5 s, two runs on a shared 2-core machine differed by 20%.
fn stages(files: &[(String, Vec<u8>)]) {
    use awrflash_parse::awr_html::{self, scan::scan};
    println!("\n## 1b. AWR HTML: the parse by stage (one core, best run; x = time / tag scan)");
    let html: Vec<&(String, Vec<u8>)> = files
        .iter()
        .filter(|(n, _)| n.starts_with("awr-html/"))
        .collect();
    let texts: Vec<String> = html
        .iter()
        .map(|(_, b)| awrflash_parse::decode::decode(b).into_owned())
        .collect();
    let bytes: u64 = html.iter().map(|(_, b)| b.len() as u64).sum();
    let time = |f: &mut dyn FnMut()| best_of(Duration::from_secs(2), 10, f);
    let floor = time(&mut || {
        for (_, b) in &html {
            std::hint::black_box(Floor::TagScan.run(b));
        }
    });
    type Stage<'a> = (&'a str, Box<dyn FnMut() + 'a>);
    let stages: Vec<Stage> = vec![
        (
            "UTF-8 check (decode)",
            Box::new(|| {
                for (_, b) in &html {
                    std::hint::black_box(awrflash_parse::decode::decode(b).len());
                }
            }),
        ),
        (
            "scan, every table skipped",
            Box::new(|| {
                for t in &texts {
                    std::hint::black_box(scan(t, |_| false, |_| {}).lines);
                }
            }),
        ),
        (
            "scan, the parser's tables kept",
            Box::new(|| {
                for t in &texts {
                    std::hint::black_box(scan(t, awr_html::wanted, |_| {}).lines);
                }
            }),
        ),
        (
            "awr_html::parse (+ mappers)",
            Box::new(|| {
                for ((name, _), t) in html.iter().zip(&texts) {
                    std::hint::black_box(awr_html::parse(name, t).is_ok());
                }
            }),
        ),
        (
            "parse_bytes (raw bytes, sniff)",
            Box::new(|| {
                for (name, b) in &html {
                    std::hint::black_box(awrflash_parse::parse_bytes(name, b).is_ok());
                }
            }),
        ),
    ];
    println!("{:<34} {:>9} {:>9} {:>6}", "stage", "ms", "MB/s", "x");
    let line = |name: &str, t: Duration| {
        println!(
            "{name:<34} {:>9.2} {:>9.0} {:>6.2}",
            t.as_secs_f64() * 1e3,
            mb_per_s(bytes, t),
            t.as_secs_f64() / floor.as_secs_f64()
        );
    };
    line("memchr tag scan (the floor)", floor);
    for (name, mut f) in stages {
        line(name, time(&mut f));
    }
}

/// A floor's column header (MB/s).
fn short_floor(f: Floor) -> &'static str {
    match f {
        Floor::TagScan => "tag MB/s",
        Floor::QuotedTagScan => "qtag MB/s",
        Floor::QuickXmlBytes => "qx39 MB/s",
        Floor::QuickXmlStr => "qx42 MB/s",
    }
}

fn describe(r: &Result<Document, awrflash_parse::ParseError>) -> String {
    match r {
        Ok(d) => format!(
            "{} ({} warnings)",
            d.source().format.as_str(),
            d.warnings().len()
        ),
        Err(e) => {
            let msg = e.to_string();
            let why = msg.split_once(": ").map_or(msg.as_str(), |(_, w)| w);
            format!("error: {}", why.chars().take(60).collect::<String>())
        }
    }
}

/// `AWRFLASH_BENCH_ITERS` (default 20) and `AWRFLASH_BENCH_ONLY` (empty:
/// every file) of the profiling loops.
fn profile_settings() -> (u64, String) {
    let iters = std::env::var("AWRFLASH_BENCH_ITERS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20);
    (
        iters,
        std::env::var("AWRFLASH_BENCH_ONLY").unwrap_or_default(),
    )
}

/// Parses every file of `picked` `iters` times, nothing else, and prints
/// the rate.
fn parse_loop(picked: &[&(String, Vec<u8>)], iters: u64, what: &str) {
    let n: u64 = picked.iter().map(|(_, b)| b.len() as u64).sum::<u64>() * iters;
    let t = Instant::now();
    for _ in 0..iters {
        for (name, data) in picked {
            std::hint::black_box(awrflash_parse::parse_bytes(name, data).is_ok());
        }
    }
    println!(
        "parse_bytes ({what}, {} files): {:.0} MB/s over {:.0} MB",
        picked.len(),
        mb_per_s(n, t.elapsed()),
        n as f64 / 1e6
    );
}

/// Parses (or only scans, with every floor in turn) every AWR HTML file of
/// the corpus (see [`profile_settings`]).
fn profile_loop(files: &[(String, Vec<u8>)], parse: bool) {
    let (iters, only) = profile_settings();
    let html: Vec<_> = files
        .iter()
        .filter(|(n, _)| n.starts_with("awr-html/") && n.contains(only.as_str()))
        .collect();
    if parse {
        parse_loop(&html, iters, "AWR HTML");
        return;
    }
    let n: u64 = html.iter().map(|(_, b)| b.len() as u64).sum::<u64>() * iters;
    for floor in Floor::ALL {
        let t = Instant::now();
        for _ in 0..iters {
            for (_, data) in &html {
                std::hint::black_box(floor.run(data));
            }
        }
        println!(
            "{}: {:.0} MB/s over {:.0} MB",
            floor.name(),
            mb_per_s(n, t.elapsed()),
            n as f64 / 1e6
        );
    }
}

/// Parses every file of the corpus under one of `dirs` but the HTML ones
/// (see [`profile_settings`]): the loop of the text and OS capture parsers.
fn profile_parse(files: &[(String, Vec<u8>)], dirs: &[&str], what: &str) {
    let (iters, only) = profile_settings();
    let picked: Vec<_> = files
        .iter()
        .filter(|(n, _)| {
            dirs.iter().any(|d| n.starts_with(d))
                && !n.ends_with(".html")
                && n.contains(only.as_str())
        })
        .collect();
    parse_loop(&picked, iters, what);
}

/// Section 2: parse_bytes grouped by the format it detected.
fn per_format(files: &[(String, Vec<u8>)]) {
    println!("\n## 2. parse_bytes per detected format (one core, best run)");
    let mut groups: BTreeMap<String, Vec<&(String, Vec<u8>)>> = BTreeMap::new();
    for f in files {
        let key = match awrflash_parse::parse_bytes(&f.0, &f.1) {
            Ok(d) => d.source().format.as_str().to_string(),
            Err(_) => "(refused)".to_string(),
        };
        groups.entry(key).or_default().push(f);
    }
    println!("{:<16} {:>6} {:>8} {:>10}", "format", "files", "MB", "MB/s");
    for (format, group) in &groups {
        let n: u64 = group.iter().map(|(_, b)| b.len() as u64).sum();
        let t = best_of(Duration::from_millis(300), 3, || {
            for (name, data) in group {
                std::hint::black_box(awrflash_parse::parse_bytes(name, data).is_ok());
            }
        });
        println!(
            "{:<16} {:>6} {:>8.2} {:>10.0}",
            format,
            group.len(),
            n as f64 / 1e6,
            mb_per_s(n, t)
        );
    }
}

/// Section 3: the whole corpus through parse, analyze and the HTML report.
fn end_to_end(files: &[(String, Vec<u8>)], dir: &Path) {
    println!("\n## 3. End to end on the whole corpus");
    let n: u64 = files.iter().map(|(_, b)| b.len() as u64).sum();
    let mut summary = String::new();
    let t = best_of(Duration::from_secs(1), 2, || {
        let docs: Vec<Document> = files
            .iter()
            .filter_map(|(name, data)| awrflash_parse::parse_bytes(name, data).ok())
            .collect();
        let opts = awrflash_rules::Options::default();
        summary = match awrflash_rules::analyze(&docs, &opts) {
            Ok(a) => format!(
                "{} documents, report rendered: {} bytes of HTML, {} of JSON",
                docs.len(),
                std::hint::black_box(awrflash_report::html(&a)).len(),
                std::hint::black_box(awrflash_report::json(&a)).len()
            ),
            Err(e) => format!("{} documents, analyze failed: {e}", docs.len()),
        };
    });
    println!(
        "library (parse_bytes + rules::analyze + report html/json, one core): {:.3} s, {:.0} MB/s; {summary}",
        t.as_secs_f64(),
        mb_per_s(n, t)
    );
    let words = cli_words();
    match run_cli(&words, dir, &scratch("e2e-out")) {
        Some(run) => println!(
            "CLI `awrflash {}` over the corpus folder (all cores): {:.3} s, {:.0} MB/s, peak RSS {:.0} MB, exit {}",
            words.join(" "),
            run.wall.as_secs_f64(),
            mb_per_s(n, run.wall),
            run.rss_kb as f64 / 1024.0,
            run.code
        ),
        None => println!("CLI run failed to start"),
    }
}

/// The CLI words to benchmark: `{dir}` is the input folder, `{out}` an
/// output folder.
fn cli_words() -> Vec<String> {
    if let Ok(cmd) = std::env::var("AWRFLASH_BENCH_CMD") {
        return cmd.split_whitespace().map(str::to_string).collect();
    }
    let has_analyze = Command::new(exe())
        .env(CHILD, "1")
        .args(["analyze", "--help"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if has_analyze {
        vec![
            "analyze".into(),
            "{dir}".into(),
            "-o".into(),
            // A trailing slash: one report per database plus an index.
            "{out}/".into(),
        ]
    } else {
        vec!["parse".into(), "{dir}".into()]
    }
}

fn exe() -> PathBuf {
    std::env::current_exe().unwrap_or_else(|_| PathBuf::from("awrflash-bench"))
}

struct CliRun {
    wall: Duration,
    rss_kb: u64,
    code: i32,
    stderr_lines: usize,
}

fn run_cli(words: &[String], dir: &Path, out: &Path) -> Option<CliRun> {
    let _ = std::fs::remove_dir_all(out);
    let args: Vec<String> = words
        .iter()
        .map(|w| {
            w.replace("{dir}", &dir.display().to_string())
                .replace("{out}", &out.display().to_string())
        })
        .collect();
    let start = Instant::now();
    let output = Command::new(exe())
        .env(CHILD, "1")
        .args(&args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .ok()?;
    let wall = start.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    let rss_kb = stderr
        .lines()
        .find_map(|l| l.strip_prefix(RSS_TAG))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or(0);
    let stderr_lines = stderr.lines().filter(|l| !l.starts_with(RSS_TAG)).count();
    Some(CliRun {
        wall,
        rss_kb,
        code: output.status.code().unwrap_or(-1),
        stderr_lines,
    })
}

fn scratch(name: &str) -> PathBuf {
    workspace_root().join("target/bench-batch").join(name)
}

/// Plain batches up to this size (about 10 GB of copies); larger ones are
/// written as gzip copies ([`GzipCopies`], about a tenth of the size):
/// 100,000 plain copies would take about 100 GB of disk.
/// `AWRFLASH_BENCH_PLAIN_MAX` sets another size.
const PLAIN_MAX: usize = 10_000;

fn plain_max() -> usize {
    std::env::var("AWRFLASH_BENCH_PLAIN_MAX")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(PLAIN_MAX)
}

/// Free space (bytes) where the batches are written, from `df`.
fn free_bytes() -> Option<u64> {
    let dir = scratch("");
    let _ = std::fs::create_dir_all(&dir);
    let out = Command::new("df").arg("-Pk").arg(&dir).output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    let kb: u64 = text
        .lines()
        .nth(1)?
        .split_whitespace()
        .nth(3)?
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// Whether a batch of about `bytes` on disk leaves room for the rest of
/// the machine (twice its size free); says why not.
fn room_for(n: usize, bytes: u64) -> bool {
    match free_bytes() {
        Some(free) if free < 2 * bytes => {
            println!(
                "{n:>7} skipped: about {:.1} GB to write, {:.1} GB free",
                bytes as f64 / 1e9,
                free as f64 / 1e9
            );
            false
        }
        _ => true,
    }
}

/// Section 4: batches of reports through the CLI.
fn batches(dir: &Path) {
    let sizes: Vec<usize> = std::env::var("AWRFLASH_BENCH_BATCHES")
        .ok()
        .map(|s| s.split(',').filter_map(|n| n.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![1_000, 10_000, 100_000]);
    let sources = copy_sources(dir);
    if sources.is_empty() {
        println!("\n## 4. no report with Begin/End Snap labels to copy");
        return;
    }
    let words = cli_words();
    let plain_max = plain_max();
    println!(
        "\n## 4. `awrflash {}` over batches of reports (all cores; {} corpus reports copied round-robin with distinct snapshot ids; up to {plain_max} plain copies, hard links for the smaller batches; above, gzip copies)",
        words.join(" "),
        sources.len()
    );
    print_batch_header();
    let (plain, gz): (Vec<usize>, Vec<usize>) = sizes.iter().partition(|n| **n <= plain_max);
    let per_copy = mean_len(&sources);
    if let Some(&largest) = plain.iter().max()
        && room_for(largest, per_copy * largest as u64)
    {
        let all = scratch(&format!("n{largest}"));
        let made = make_batch(&all, &sources, largest);
        for &n in &plain {
            let dir_n = if n == largest {
                all.clone()
            } else {
                let d = scratch(&format!("n{n}"));
                link_subset(&made, &d, n);
                d
            };
            let bytes: u64 = made.iter().take(n).map(|(_, len)| len).sum();
            measure_batch(&words, &dir_n, n, "plain", bytes);
        }
        let names: Vec<String> = plain.iter().map(|n| format!("n{n}")).collect();
        clean_batches(&names);
    }
    for &n in &gz {
        if !room_for(n, per_copy / 8 * n as u64) {
            continue;
        }
        let dir_n = scratch(&format!("gz{n}"));
        let bytes = make_gzip_batch(&dir_n, &sources, n);
        measure_batch(&words, &dir_n, n, "gzip", bytes);
        clean_batches(&[format!("gz{n}")]);
    }
}

/// Section 5: a fleet. Database `d` is corpus report `d mod S` (of the `S`
/// whose DBID can be rewritten) with DBID variant `d / S + 1`
/// ([`with_dbid`]); its `k` intervals are gzip copies with snapshot ids
/// 100,000 + i. Prints the batch line and how many pages the run wrote
/// (one per database, so it shows the copies read as that many databases).
fn fleet(dir: &Path) {
    let spec = std::env::var("AWRFLASH_BENCH_FLEET").unwrap_or_else(|_| "200x720".into());
    let Some((dbs, k)) = spec.split_once('x').and_then(|(a, b)| {
        Some((
            a.trim().parse::<usize>().ok()?,
            b.trim().parse::<u64>().ok()?,
        ))
    }) else {
        println!("\n## 5. AWRFLASH_BENCH_FLEET={spec}: expected DATABASESxINTERVALS, e.g. 200x720");
        return;
    };
    // One source per DBID and instance (two corpus reports of one database
    // would make one database of twice the intervals, half of them twice).
    let mut seen = std::collections::BTreeSet::new();
    let sources: Vec<(String, Vec<u8>)> = copy_sources(dir)
        .into_iter()
        .filter(|(_, b)| {
            header_of(b).is_some_and(|h| {
                with_dbid(b, 1).is_some() && seen.insert((h.dbid, h.instance_number))
            })
        })
        .collect();
    if sources.is_empty() || dbs == 0 || k == 0 {
        println!("\n## 5. no corpus report whose DBID and snapshot ids can be rewritten");
        return;
    }
    let n = dbs * k as usize;
    let words = cli_words();
    println!(
        "\n## 5. `awrflash {}` over a fleet: {dbs} databases x {k} intervals = {n} reports (gzip copies of {} corpus reports with rewritten DBIDs and snapshot ids)",
        words.join(" "),
        sources.len()
    );
    let per_copy = mean_len(&sources);
    if !room_for(n, per_copy / 8 * n as u64) {
        return;
    }
    let name = format!("fleet{dbs}x{k}");
    let dir_n = scratch(&name);
    let _ = std::fs::remove_dir_all(&dir_n);
    let _ = std::fs::create_dir_all(&dir_n);
    let made = Instant::now();
    let mut bytes = 0u64;
    for d in 0..dbs {
        let Some((src, report)) = sources.get(d % sources.len()) else {
            break;
        };
        let variant = (d / sources.len() + 1) as u32;
        let Some(copy) = with_dbid(report, variant) else {
            continue;
        };
        let (Some(gz), Some(base)) = (GzipCopies::new(&copy), with_snap_ids(&copy, 0, 0)) else {
            continue;
        };
        // Uncompressed size without the two one-digit ids.
        let base = base.len() as u64 - 2;
        for i in 0..k {
            let (begin, end) = (100_000 + i, 100_001 + i);
            let path = dir_n.join(format!("{d:04}_{i:05}_{src}.gz"));
            if let Ok(data) = gz.copy(begin, end)
                && std::fs::write(&path, data).is_ok()
            {
                bytes += base + (begin.to_string().len() + end.to_string().len()) as u64;
            }
        }
    }
    println!("(copies written in {:.0} s)", made.elapsed().as_secs_f64());
    print_batch_header();
    measure_batch(&words, &dir_n, n, "gzip", bytes);
    let out = scratch(&format!("out{n}"));
    let pages = files_below(&out)
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
        .filter(|p| p.file_name().is_some_and(|f| f != "index.html"))
        .count();
    println!("{pages} database pages written in {}", out.display());
    if std::env::var_os("AWRFLASH_BENCH_KEEP").is_none() {
        let _ = std::fs::remove_dir_all(&dir_n);
        let _ = std::fs::remove_dir_all(&out);
    }
}

/// The column heads of [`measure_batch`]'s lines.
fn print_batch_header() {
    println!(
        "{:>7} {:>5} {:>9} {:>8} {:>8} {:>10} {:>7} {:>13} {:>5} {:>7}",
        "files", "kind", "MB", "wall s", "MB/s", "ms/report", "RSS MB", "load", "exit", "stderr"
    );
}

/// The mean size of the reports a batch copies (bytes; `sources` is not
/// empty).
fn mean_len(sources: &[(String, Vec<u8>)]) -> u64 {
    sources.iter().map(|(_, b)| b.len() as u64).sum::<u64>() / sources.len().max(1) as u64
}

/// Runs the CLI over one batch folder and prints its line; `bytes` is the
/// batch's uncompressed size.
fn measure_batch(words: &[String], dir: &Path, n: usize, kind: &str, bytes: u64) {
    let before = load_average();
    let run = run_cli(words, dir, &scratch(&format!("out{n}")));
    let load = format!("{before}->{}", load_average());
    match run {
        Some(r) => println!(
            "{:>7} {:>5} {:>9.1} {:>8.2} {:>8.0} {:>10.2} {:>7.0} {:>13} {:>5} {:>7}",
            n,
            kind,
            bytes as f64 / 1e6,
            r.wall.as_secs_f64(),
            mb_per_s(bytes, r.wall),
            r.wall.as_secs_f64() * 1000.0 / n as f64,
            r.rss_kb as f64 / 1024.0,
            load,
            r.code,
            r.stderr_lines
        ),
        None => println!("{n:>7} CLI failed to start"),
    }
}

/// Removes these batch folders and their output folders unless
/// `AWRFLASH_BENCH_KEEP` is set (only these: two bench runs with other
/// batch sizes may share the scratch folder).
fn clean_batches(names: &[String]) {
    if std::env::var_os("AWRFLASH_BENCH_KEEP").is_some() {
        return;
    }
    for name in names {
        let out = format!(
            "out{}",
            name.trim_start_matches(|c: char| c.is_ascii_alphabetic())
        );
        let _ = std::fs::remove_dir_all(scratch(name));
        let _ = std::fs::remove_dir_all(scratch(&out));
    }
}

/// Writes `n` gzip copies (see [`GzipCopies`]) and returns their
/// uncompressed size.
fn make_gzip_batch(dir: &Path, sources: &[(String, Vec<u8>)], n: usize) -> u64 {
    let _ = std::fs::create_dir_all(dir);
    let copies: Vec<(&str, GzipCopies, u64)> = sources
        .iter()
        .filter_map(|(name, bytes)| {
            let len = with_snap_ids(bytes, 0, 0)?.len() as u64 - 2;
            Some((name.as_str(), GzipCopies::new(bytes)?, len))
        })
        .collect();
    let mut total = 0;
    for i in 0..n {
        let Some((name, gz, len)) = copies.get(i % copies.len().max(1)) else {
            break;
        };
        let copy = (i / copies.len()) as u64;
        let (begin, end) = (100_000 + copy, 100_001 + copy);
        let path = dir.join(format!("{i:06}_{name}.gz"));
        if let Ok(data) = gz.copy(begin, end)
            && std::fs::write(&path, data).is_ok()
        {
            total += len + (begin.to_string().len() + end.to_string().len()) as u64;
        }
    }
    total
}

/// Writes `n` copies (file path, size) unless the folder already holds them.
fn make_batch(dir: &Path, sources: &[(String, Vec<u8>)], n: usize) -> Vec<(PathBuf, u64)> {
    let _ = std::fs::create_dir_all(dir);
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let Some((name, bytes)) = sources.get(i % sources.len()) else {
            break;
        };
        // Copies of one report form consecutive intervals of one database.
        let copy = (i / sources.len()) as u64;
        let path = dir.join(format!("{i:05}_{name}"));
        let data = with_snap_ids(bytes, 100_000 + copy, 100_001 + copy).unwrap_or_default();
        if std::fs::metadata(&path).map(|m| m.len()).ok() != Some(data.len() as u64) {
            let _ = std::fs::write(&path, &data);
        }
        out.push((path, data.len() as u64));
    }
    out
}

/// A folder of hard links to the first `n` files of a batch (no copying).
fn link_subset(made: &[(PathBuf, u64)], dir: &Path, n: usize) {
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::create_dir_all(dir);
    for (path, _) in made.iter().take(n) {
        if let Some(name) = path.file_name() {
            let _ = std::fs::hard_link(path, dir.join(name));
        }
    }
}
