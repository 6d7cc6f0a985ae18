//! iostat captures: Linux sysstat `iostat -x`/`-d`, Solaris `iostat -x`/`-xn`
//! and plain `iostat` (`solaris_tty`), HP-UX `iostat` (`hpux`),
//! AIX `iostat -D`/`-Dl` (`aix`).
//!
//! Stage: parse. Input: the text of one capture. Output: an
//! [`IostatCapture`] with device samples in common units (KB/s, ms, %), CPU
//! samples, per-device summaries and the total (channel) load.
//!
//! The column header drives everything, so every sysstat layout reads the
//! same way: the old `rsec/s wsec/s avgrq-sz avgqu-sz await svctm` (sysstat
//! up to 9.0), `r_await w_await` (9.1-11.4), `aqu-sz rareq-sz wareq-sz`
//! (11.5+), sysstat 12's `d/s dkB/s f/s f_await` without `svctm`, the `-k`,
//! `-m` and sector units, `--pretty` (device name last), `-p` partitions,
//! with or without the `avg-cpu` block and `-t` timestamps in any locale
//! (12-hour AM/PM, German `dd.mm.yyyy` with decimal commas, Japanese
//! `yyyy年mm月dd日`). Solaris prints `extended device statistics` above
//! `r/s w/s kr/s kw/s wait actv wsvc_t asvc_t %w %b device` (`-xn`) or
//! `device r/s w/s kr/s kw/s wait actv svc_t %w %b` (`-x`), with `-T d`/`-T u`
//! stamps.
//!
//! The first report of each run is the average since boot: it is kept,
//! flagged `since_boot`, and left out of the summaries.

mod aix;
mod hpux;
mod layout;
mod read;
mod roles;
mod solaris_tty;
mod summary;

pub use aix::matches as is_aix_extended;
pub(crate) use hpux::is_header as is_hpux_header;
pub(crate) use layout::{Cell, Col, Row, cell, column};
pub use read::parse;
pub(crate) use read::{Warnings, banner, check_last_report, read_row, slash_order};
pub use roles::{RoleMap, apply_role_map, apply_roles, parse_roles};
pub(crate) use solaris_tty::is_columns as is_solaris_tty_columns;
pub(crate) use summary::round;
#[cfg(test)]
use summary::{layered, stats};
pub use summary::{summarize, summarize_with};

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use super::*;

    #[test]
    fn cells_read_both_decimal_marks_and_overflow() {
        assert_eq!(cell("0,47").0, Cell::Value(0.47));
        assert_eq!(cell("12.5").0, Cell::Value(12.5));
        assert_eq!(cell("#####").0, Cell::Overflow);
        assert_eq!(cell("1.2k").0, Cell::Invalid);
    }

    #[test]
    fn partitions_paths_and_controllers_are_layered() {
        let all: HashSet<&str> = [
            "sda",
            "sda1",
            "nvme0n1",
            "nvme0n1p2",
            "sd4",
            "sd4,a",
            "c0t0d0",
            "c0t0d0s0",
            "mpt_sas3",
        ]
        .into_iter()
        .collect();
        let mut all = all;
        all.insert("c0");
        for d in ["sda1", "nvme0n1p2", "sd4,a", "c0t0d0s0", "mpt_sas3", "c0"] {
            assert!(layered(d, &all), "{d}");
        }
        for d in ["sda", "nvme0n1", "sd4", "c0t0d0", "dm-0", "md0"] {
            assert!(!layered(d, &all), "{d}");
        }
    }

    #[test]
    fn p95_is_nearest_rank() {
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(stats(&v), (50.5, 95.0, 100.0));
        assert_eq!(stats(&[]), (0.0, 0.0, 0.0));
    }
}
