//! Parse throughput of the AWR HTML parser on one core, in MB/s.
//!
//! `cargo run --release -p awrflash-parse --example awr_html_throughput -- [DIR] [ROUNDS]`
//! (default DIR: `../shared/corpus/awr-html` from the workspace root, 5 rounds).
//! Files are read into memory first, so the figure is decode + sniff + parse.

use std::time::Instant;

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args.next().unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/corpus/awr-html"
        )
        .to_string()
    });
    let rounds: usize = args.next().and_then(|r| r.parse().ok()).unwrap_or(5);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("{dir}: cannot read the directory");
        std::process::exit(2);
    };
    let mut files: Vec<(String, Vec<u8>)> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .filter_map(|p| Some((p.display().to_string(), std::fs::read(&p).ok()?)))
        .collect();
    files.sort();
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    let mut best = f64::MAX;
    let mut failed = 0;
    for _ in 0..rounds.max(1) {
        let start = Instant::now();
        for (path, data) in &files {
            if awrflash_parse::parse_bytes(path, data).is_err() {
                failed += 1;
            }
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    let mb = bytes as f64 / 1e6;
    println!(
        "{} files, {mb:.1} MB, best of {rounds} rounds: {best:.3} s = {:.0} MB/s on one core ({failed} failed parses)",
        files.len(),
        mb / best
    );
}
