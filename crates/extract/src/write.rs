//! Writes tables as CSV or Parquet, one file per table.

use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use polars::prelude::*;

use crate::ExtractError;
use crate::tables::Table;

/// Output file format of `awrflash extract`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TableFormat {
    Csv,
    Parquet,
}

impl TableFormat {
    pub fn extension(self) -> &'static str {
        match self {
            TableFormat::Csv => "csv",
            TableFormat::Parquet => "parquet",
        }
    }
}

/// Writes `<dir>/<table>.<ext>` for every table (empty tables too, so the
/// set of files and their columns do not depend on the inputs).
/// Returns `(path, rows)` per file.
pub fn write_tables(
    tables: &mut [Table],
    dir: &Path,
    format: TableFormat,
) -> Result<Vec<(PathBuf, usize)>, ExtractError> {
    fs::create_dir_all(dir).map_err(|source| ExtractError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut written = Vec::with_capacity(tables.len());
    for t in tables.iter_mut() {
        let path = dir.join(format!("{}.{}", t.name, format.extension()));
        let file = File::create(&path).map_err(|source| ExtractError::Io {
            path: path.clone(),
            source,
        })?;
        let mut out = BufWriter::new(file);
        match format {
            TableFormat::Csv => CsvWriter::new(&mut out).finish(&mut t.frame)?,
            TableFormat::Parquet => {
                ParquetWriter::new(&mut out)
                    .with_compression(ParquetCompression::Zstd(None))
                    .finish(&mut t.frame)?;
            }
        }
        std::io::Write::flush(&mut out).map_err(|source| ExtractError::Io {
            path: path.clone(),
            source,
        })?;
        written.push((path, t.frame.height()));
    }
    Ok(written)
}
