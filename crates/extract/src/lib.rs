//! awrflash-extract: parsed inputs as tables.
//!
//! Stage: aggregation (beside the advisor; the only crate that uses polars).
//! Input: parsed [`awrflash_model::Document`]s (grouped and ordered by the
//! run layer, `awrflash-run`). Output: per-interval metrics
//! ([`snapshot_metrics`], read from the facts layer) and tidy polars
//! DataFrames written as CSV or Parquet ([`build_tables`], [`write_tables`]),
//! the `trend_summary` table among them (the advisor's trend,
//! [`awrflash_facts::trend`]).

mod metrics;
mod tables;
mod write;

use std::path::PathBuf;

pub use awrflash_facts::TREND_METRICS;
pub use metrics::{SnapshotMetrics, snapshot_metrics};
pub use polars;
pub use tables::{TABLE_NAMES, Table, build_tables};
pub use write::{TableFormat, write_tables};

#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error(transparent)]
    Polars(#[from] polars::prelude::PolarsError),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
}
