//! awrflash-facts: the facts layer.
//!
//! Stage: facts, between the parsed model and everything that reads a figure.
//! Input: one report interval ([`awrflash_model::DbReport`]) plus its
//! auxiliary inputs (iostat captures). Output: [`IntervalFacts`]: DB time
//! and its split by component, DB CPU, host CPU busy, the I/O share of DB
//! time, IOPS, MB/s, redo rate and average redo write, the key waits with
//! their histograms, the cache sizes and the storage device's own service
//! time ([`device`]), each a [`Num`] that keeps the row it
//! was read from or its derivation in words.
//!
//! Every figure the advisor, the extract and the renderers print comes from
//! here, so one figure has one derivation. Series statistics (p95, peak,
//! whole-window mean) come from [`awrflash_model::stats`].
//!
//! [`thin`] cuts a report down to what these figures read, for runs that
//! hold thousands of intervals; [`reduced`] cuts it further, to what the
//! figures' readers still read once [`IntervalFacts::new`] has run, and
//! [`Detached`] holds the facts while their report is cut.

pub mod classes;
pub mod commit;
pub mod cpu;
pub mod device;
pub mod histogram;
mod interval;
mod num;
mod size;
mod thin;
mod trend;

pub use classes::*;
pub use commit::{CommitFacts, CommitSplit};
pub use cpu::{CpuHeadroom, CpuSignal, CpuSignalKind};
pub use device::{DeviceTimes, DeviceView, SPLIT_EVENTS, ServiceTime, Split};
pub use histogram::Distribution;
pub use interval::{Detached, DistributionMemo, Ev, IntervalFacts, KEY_HISTOGRAMS};
pub use num::{Num, ratio, round};
pub use size::parse_size;
pub use thin::{INTERVAL_STATS, LEAN_STATS, interval_event, lean, reduced, thin};
pub use trend::{TREND_EVENTS, TREND_METRICS, TREND_STATS, peak_interval, trend};

/// Bytes in a megabyte (MB/s figures are per 1,048,576 bytes).
pub const MB: f64 = 1_048_576.0;
