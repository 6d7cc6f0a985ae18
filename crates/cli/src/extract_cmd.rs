//! `awrflash extract`: the parsed inputs as tidy tables, one file per table.

use anyhow::{Context, Result};
use awrflash_extract::TableFormat;

use crate::args::{ExtractArgs, TableFormatArg};
use crate::load;
use crate::ui::Ui;

pub fn run(args: &ExtractArgs, ui: &Ui) -> Result<u8> {
    crate::validate::inputs_exist(&args.inputs)?;
    // Same order and de-duplication as `analyze`: by database, then snapshot
    // time; every input goes into the tables, attached or not.
    let grouped = awrflash_run::group(load::load_usable(&args.inputs, ui)?);
    load::report_duplicates(&grouped.duplicates, ui);
    let docs = grouped.all_documents()?;
    let mut tables = awrflash_extract::build_tables(&docs).context("building the tables")?;
    let format = match args.to {
        TableFormatArg::Csv => TableFormat::Csv,
        TableFormatArg::Parquet => TableFormat::Parquet,
    };
    let written = awrflash_extract::write_tables(&mut tables, &args.out, format)?;
    for (path, rows) in &written {
        ui.note(&format!(
            "wrote {} ({rows} {})",
            path.display(),
            load::plural(*rows, "row", "rows")
        ));
    }
    Ok(0)
}
