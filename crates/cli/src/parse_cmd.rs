//! `awrflash parse`: one JSON object per input, in input order.

use std::io::{self, BufWriter, Write};

use anyhow::Result;
use rayon::prelude::*;

use crate::args::ParseArgs;
use crate::inputs;

pub fn run(args: &ParseArgs) -> Result<u8> {
    let expanded = inputs::expand(&args.inputs);
    let results: Vec<Result<String, String>> = expanded
        .par_iter()
        .map(|item| match item {
            Err((name, why)) => Err(format!("{name}: {why}")),
            Ok(input) => {
                let bytes = inputs::read(input).map_err(|e| format!("{e:#}"))?;
                let doc =
                    awrflash_parse::parse_bytes(&input.name, &bytes).map_err(|e| e.to_string())?;
                serde_json::to_string(&doc).map_err(|e| format!("{}: {e}", input.name))
            }
        })
        .collect();
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    for r in &results {
        match r {
            Ok(json) => writeln!(out, "{json}")?,
            Err(msg) => {
                failed += 1;
                out.flush()?;
                eprintln!("awrflash: {msg}");
            }
        }
    }
    out.flush()?;
    Ok(if failed > 0 {
        crate::EXIT_INPUT_ERROR
    } else {
        0
    })
}
