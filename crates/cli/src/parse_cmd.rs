//! `awrflash parse`: one JSON object per usable input, in input order.

use std::io::{self, BufWriter, Write};

use anyhow::Result;

use crate::args::ParseArgs;
use crate::load;
use crate::ui::Ui;

/// Exit 2 when any input could not be parsed: `parse` is a check of the inputs.
/// Each document is written as soon as the ones before it are (a chunk of
/// inputs parsed in parallel at a time), so memory does not grow with the
/// number of inputs.
pub fn run(args: &ParseArgs, ui: &Ui) -> Result<u8> {
    let stdout = io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    let loaded = load::load_each(&args.inputs, ui, &mut |doc| -> Result<()> {
        // To a string first: a closed pipe must surface as an io::Error.
        let line = serde_json::to_string(&doc)?;
        writeln!(out, "{line}")?;
        Ok(())
    })?;
    out.flush()?;
    load::report_summary(&loaded, ui);
    Ok(if loaded.failed.is_empty() {
        0
    } else {
        crate::EXIT_INPUT_ERROR
    })
}
