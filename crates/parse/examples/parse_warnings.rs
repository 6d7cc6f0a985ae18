//! Prints the detected format and every warning of each input, meaning-
//! changing ones marked `!`: `cargo run -p awrflash-parse --example
//! parse_warnings -- FILE...`. A debugging aid for new inputs.

use awrflash_model::{Document, Warning};

fn main() {
    for path in std::env::args().skip(1) {
        let Ok(bytes) = std::fs::read(&path) else {
            eprintln!("{path}: cannot read");
            continue;
        };
        let doc = awrflash_parse::parse_bytes(&path, &bytes);
        let (what, warnings): (&str, &[Warning]) = match &doc {
            Ok(Document::Report(r)) => (r.source.format.as_str(), &r.warnings),
            Ok(Document::Iostat(c)) => (c.source.format.as_str(), &c.warnings),
            Ok(Document::Sysstat(s)) => ("sysstat", &s.warnings),
            Ok(Document::SegmentSizes(s)) => ("segment sizes", &s.warnings),
            Err(e) => {
                println!("== {path}: {e}");
                continue;
            }
        };
        println!("== {path}: {what}");
        for w in warnings {
            let mark = if w.is_meaning_changing() { '!' } else { ' ' };
            println!("{mark} {}:{} [{}] {}", path, w.line, w.section, w.message);
        }
    }
}
