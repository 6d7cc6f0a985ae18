//! The `sar` reports in the shared corpus: their device sections parse,
//! with sample counts and device names checked per file.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use awrflash_model::{Document, Format, IostatCapture};

fn load(name: &str) -> Option<IostatCapture> {
    let dir = awrflash_testkit::corpus("other")?;
    let bytes = std::fs::read(dir.join(name)).unwrap();
    match awrflash_parse::parse_bytes(name, &bytes).unwrap() {
        Document::Iostat(c) => Some(*c),
        other => panic!("{name}: parsed as {:?}", other.source().format),
    }
}

#[test]
fn linux_sysstat_10_sar_a_reads_the_sector_device_section() {
    let Some(c) = load("linux_mbaldessari-sarstats_el6-sar05") else {
        return;
    };
    assert_eq!(c.source.format, Format::SarLinux);
    assert_eq!(c.host.as_deref(), Some("gss12.s390.bos.redhat.com"));
    assert_eq!(c.samples.len(), 858);
    let devs: Vec<&str> = c.summary.iter().map(|d| d.device.as_str()).collect();
    assert_eq!(
        devs,
        [
            "dev94-0", "dev94-4", "dev94-8", "dev94-12", "dev253-0", "dev94-16"
        ]
    );
    assert!(c.samples.iter().all(|s| !s.since_boot));
    assert_eq!(c.summary[0].samples, 143);
    assert_eq!(c.samples[0].time.as_deref(), Some("2014-02-05T00:10:01"));
    // 00:10:01 dev94-0 0.15 0.00 1.88 12.53 0.00 2.33 1.56 0.02
    let s = &c.samples[0];
    assert_eq!(s.tps, Some(0.15));
    assert_eq!(s.wkb_s, Some(1.88 / 2.0));
    assert_eq!(s.await_ms, Some(2.33));
    assert_eq!(s.util_pct, Some(0.02));
    assert_eq!(c.interval_s, Some(600.0));
    assert_eq!(c.cpu.len(), 143);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

#[test]
fn linux_sysstat_12_sar_a_reads_the_kilobyte_device_section() {
    let Some(c) = load("linux_mbaldessari-sarstats_f39-sar02") else {
        return;
    };
    assert_eq!(c.source.format, Format::SarLinux);
    assert_eq!(c.samples.len(), 45);
    let devs: Vec<&str> = c.summary.iter().map(|d| d.device.as_str()).collect();
    assert_eq!(
        devs,
        [
            "sdb", "sda", "sdc", "nvme0n1", "nvme1n1", "dm-0", "zram0", "dm-1", "dm-2"
        ]
    );
    // 13:10:30 nvme0n1 22.03 19.67 469.96 0.00 22.23 0.06 2.56 1.84
    let s = c.samples.iter().find(|s| s.device == "nvme0n1").unwrap();
    assert_eq!(s.time.as_deref(), Some("2024-01-02T13:10:30"));
    assert_eq!(
        (s.tps, s.rkb_s, s.wkb_s),
        (Some(22.03), Some(19.67), Some(469.96))
    );
    assert_eq!(s.avg_rq_kb, Some(22.23));
    // dm volumes sit on the nvme disk: not counted twice.
    assert!(!c.channel.devices.iter().any(|d| d.starts_with("dm-")));
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

#[test]
fn solaris_sar_reads_rows_without_a_time_and_skips_the_average_block() {
    let Some(c) = load("solaris_vlsi-ksar_sar-Solaris-11.3") else {
        return;
    };
    assert_eq!(c.source.format, Format::SarSolaris);
    assert_eq!(c.host.as_deref(), Some("ala52s01"));
    assert_eq!(c.samples.len(), 1432);
    assert_eq!(c.samples.iter().map(|s| s.interval).max(), Some(29));
    let first: Vec<&str> = c
        .samples
        .iter()
        .filter(|s| s.interval == 0)
        .map(|s| s.device.as_str())
        .take(4)
        .collect();
    assert_eq!(first, ["iscsi0", "mpt_sas1", "mpt_sas2", "mpt_sas3"]);
    // `sd5 4 0.1 44 2700 0.0 2.7` at 08:20:00
    let sd5 = c.samples.iter().find(|s| s.device == "sd5").unwrap();
    assert_eq!(sd5.time.as_deref(), Some("2017-05-26T08:20:00"));
    assert_eq!(sd5.tps, Some(44.0));
    assert_eq!(sd5.kb_s, Some(1350.0));
    assert_eq!(sd5.util_pct, Some(4.0));
    assert_eq!(sd5.await_ms, Some(2.7));
    // Controllers, slices and paths are not added to the disks.
    for d in ["mpt_sas3", "sd5,a", "sd5.t3.m", "xhci0,bu"] {
        assert!(!c.channel.devices.iter().any(|x| x == d), "{d}");
    }
    assert!(c.channel.devices.iter().any(|x| x == "sd5"));
    // The Average block's devices never become samples after 18:00:00.
    assert_eq!(
        c.samples.last().unwrap().time.as_deref(),
        Some("2017-05-26T18:00:00")
    );
}

#[test]
fn hpux_sar_reads_every_interval_of_the_device_section() {
    let Some(c) = load("hpux_vlsi-ksar_hpux-sar.txt") else {
        return;
    };
    assert_eq!(c.source.format, Format::SarHpux);
    assert_eq!(c.host.as_deref(), Some("lasv"));
    assert_eq!(c.samples.len(), 897);
    assert_eq!(c.samples.iter().map(|s| s.interval).max(), Some(15));
    assert_eq!(c.summary.len(), 67);
    assert_eq!(c.summary[0].device, "disk1");
    // disk103 at 00:05:01: 100.00 0.50 265 33883 0.00 10.89
    let d = c.samples.iter().find(|s| s.device == "disk103").unwrap();
    assert_eq!(d.util_pct, Some(100.0));
    assert_eq!(d.kb_s, Some(33883.0 / 2.0));
    let s = c.summary.iter().find(|s| s.device == "disk103").unwrap();
    assert!(
        s.callouts.iter().any(|m| m.contains("%util")),
        "{:?}",
        s.callouts
    );
    assert_eq!(c.interval_s, Some(300.0));
}
