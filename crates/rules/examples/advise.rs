//! Prints the advisor's verdict, options and findings for the given files
//! (a quick look without the CLI): `cargo run -p awrflash-rules --example
//! advise -- FILE...`. Add `--json` for the whole Analysis.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use awrflash_rules::{Options, analyze};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    let mut docs = Vec::new();
    for p in args.iter().filter(|a| !a.starts_with("--")) {
        let bytes = std::fs::read(p).expect("readable file");
        match awrflash_parse::parse_bytes(p, &bytes) {
            Ok(d) => docs.push(d),
            Err(e) => eprintln!("{p}: {e}"),
        }
    }
    let a = analyze(&docs, &Options::default()).expect("analysis");
    if json {
        println!("{}", serde_json::to_string_pretty(&a).unwrap());
        return;
    }
    println!("VERDICT [{}] {}", a.verdict.bound, a.verdict.summary);
    for o in &a.options {
        let p = &o.projection;
        println!(
            "  option {:<16} {:>10.0} s -> {:>10.0}..{:<10.0} ratio {:.3}..{:.3} bound {}",
            o.key,
            p.db_time_before_s,
            p.db_time_after_low_s,
            p.db_time_after_high_s,
            p.response_ratio_low,
            p.response_ratio_high,
            p.bound
        );
    }
    for f in &a.findings {
        println!(
            "- {} [{}] {}\n    {}",
            f.id,
            f.severity.as_str(),
            f.title,
            f.message
        );
    }
    if let Some(fc) = &a.flash_cache {
        println!("flash cache: {} ({:?} GB)", fc.reason, fc.size_gb);
    }
}
