//! `sar -d` reports written for awrflash: a sysstat 12 `-dp` report on a
//! 12-hour clock across midnight, and a German-locale sysstat 10 report.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use awrflash_model::{Document, Format, IostatCapture};

fn capture(name: &str) -> IostatCapture {
    let p = awrflash_testkit::fixtures("sar").join(name);
    let bytes = std::fs::read(&p).unwrap();
    match awrflash_parse::parse_bytes(&format!("fixtures/sar/{name}"), &bytes).unwrap() {
        Document::Iostat(c) => *c,
        other => panic!("{name}: parsed as {:?}", other.source().format),
    }
}

#[test]
fn a_twelve_hour_sar_dp_report_rolls_over_midnight_and_skips_restarts_and_averages() {
    let c = capture("linux_sar_dp_ampm.txt");
    assert_eq!(c.source.format, Format::SarLinux);
    assert_eq!(c.samples.len(), 21);
    let devs: Vec<&str> = c.summary.iter().map(|d| d.device.as_str()).collect();
    assert_eq!(
        devs,
        ["sda", "mpatha", "sdb", "sdc", "mpathb", "sdd", "sde"]
    );
    assert_eq!(c.samples[0].time.as_deref(), Some("2026-11-23T23:55:01"));
    assert_eq!(c.samples[7].time.as_deref(), Some("2026-11-24T00:00:01"));
    // Multipath maps sit on their sd paths: counted once.
    assert_eq!(c.channel.devices, ["sda", "sdb", "sdc", "sdd", "sde"]);
    let mpath: f64 = c
        .summary
        .iter()
        .filter(|d| d.device.starts_with("mpath"))
        .map(|d| d.mb_s_mean)
        .sum();
    assert!((c.channel.mb_s_mean - mpath - c.summary[0].mb_s_mean).abs() < 0.01);
    assert!(c.samples.iter().all(|s| !s.since_boot));
    // sar rows are interval averages: every one counts in the summary.
    assert_eq!(c.summary[1].samples, 3);
    assert_eq!(c.cpu.len(), 3);
    assert_eq!(c.cpu[0].iowait_pct, Some(14.0));
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    insta::assert_json_snapshot!("linux_sar_dp_ampm_summary", (&c.summary, &c.channel));
}

#[test]
fn a_german_sar_report_reads_commas_and_skips_its_average_lines() {
    let c = capture("linux_sar_d_de.txt");
    assert_eq!(c.samples.len(), 6);
    // 14:10:01 dev8-32 1750,00 56000,00 240,00 32,14 10,90 6,23 0,40 93,00
    let s = &c.samples[1];
    assert_eq!(s.device, "dev8-32");
    assert_eq!(s.tps, Some(1750.0));
    assert_eq!(s.rkb_s, Some(28000.0));
    assert_eq!(s.avg_rq_kb, Some(32.14 / 2.0));
    assert_eq!(s.queue, Some(10.9));
    assert_eq!(s.time.as_deref(), Some("2026-11-23T14:10:01"));
    assert!(c.summary[1].callouts.iter().any(|m| m.contains("%util")));
}

#[test]
fn aix_sar_is_labelled_aix_not_linux() {
    let text = "AIX nutmeg 3 5 00CDB4DF4C00    06/27/03\n\n14:31:02     device    %busy    avque    r+w/s    Kbs/s   avwait   avserv\n14:31:07     hdisk0      1      0.0        3       12      0.0      4.1\n";
    let c = match awrflash_parse::parse_bytes("aix.txt", text.as_bytes()).unwrap() {
        Document::Iostat(c) => *c,
        other => panic!("parsed as {:?}", other.source().format),
    };
    assert_eq!(c.source.format, Format::SarAix);
    assert_eq!(c.samples[0].time.as_deref(), Some("2003-06-27T14:31:07"));
    assert_eq!(c.samples[0].kb_s, Some(12.0));
}

#[test]
fn an_aix_sar_d_report_reads_kbs_and_queue_plus_service_time() {
    let c = capture("aix_sar_d.txt");
    assert_eq!(c.source.format, Format::SarAix);
    assert_eq!(c.host.as_deref(), Some("aixdb01"));
    // Three intervals of three disks; the Average block is skipped.
    assert_eq!(c.samples.len(), 9);
    let s = c
        .samples
        .iter()
        .find(|s| s.device == "hdisk1" && s.interval == 1)
        .unwrap();
    assert_eq!(s.time.as_deref(), Some("2026-11-13T09:10:00"));
    assert_eq!(s.kb_s, Some(58000.0));
    assert_eq!(s.tps, Some(7000.0));
    assert_eq!(s.util_pct, Some(88.0));
    assert_eq!(s.await_ms, Some(5.0 + 7.9));
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    insta::assert_json_snapshot!("aix_sar_d_summary", (&c.summary, &c.channel));
}
