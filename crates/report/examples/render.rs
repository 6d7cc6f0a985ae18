//! Renders an analysis JSON file (such as `fixtures/analysis/rich.json`) in
//! one format, to make a sample report without running the advisor:
//!
//! ```sh
//! cargo run -p awrflash-report --example render -- fixtures/analysis/rich.json html target/sample.html
//! ```
//!
//! Formats: `html`, `md`, `json`, `text`, `text-color`. Without an output
//! path the result goes to standard output.

use std::io::Write as _;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(input), Some(format)) = (args.first(), args.get(1)) else {
        return Err("usage: render ANALYSIS.json html|md|json|text|text-color [OUT]".into());
    };
    let text = std::fs::read_to_string(input).map_err(|e| format!("{input}: {e}"))?;
    let analysis: awrflash_model::Analysis =
        serde_json::from_str(&text).map_err(|e| format!("{input}: {e}"))?;
    let out = match format.as_str() {
        "html" => awrflash_report::html(&analysis),
        "md" => awrflash_report::markdown(&analysis),
        "json" => awrflash_report::json(&analysis),
        "text" => awrflash_report::text(&analysis, false),
        "text-color" => awrflash_report::text(&analysis, true),
        other => return Err(format!("unknown format {other:?}").into()),
    };
    match args.get(2) {
        Some(path) => std::fs::write(path, out).map_err(|e| format!("{path}: {e}"))?,
        None => std::io::stdout().write_all(out.as_bytes())?,
    }
    Ok(())
}
