//! iostat layouts of other platforms, written for awrflash from the
//! platforms' manual pages: HP-UX `iostat` (`device bps sps msps`),
//! Solaris `iostat` without `-x` (tty / disk / cpu, with and without
//! `-T d`), AIX `iostat -D` and `-DlT`; and cuts of every length of each.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use awrflash_model::{Document, Format, IostatCapture};

fn bytes(name: &str) -> Vec<u8> {
    std::fs::read(awrflash_testkit::fixtures("iostat").join(name)).unwrap()
}

fn capture(name: &str) -> IostatCapture {
    match awrflash_parse::parse_bytes(name, &bytes(name)).unwrap() {
        Document::Iostat(c) => *c,
        other => panic!("{name}: parsed as {:?}", other.source().format),
    }
}

#[test]
fn hpux_iostat_reads_kb_and_transfers_per_second_and_skips_the_boot_report() {
    let c = capture("hpux_iostat.txt");
    assert_eq!(c.source.format, Format::IostatHpux);
    assert_eq!(c.samples.len(), 12);
    assert_eq!(c.samples.iter().filter(|s| s.since_boot).count(), 3);
    let s = c
        .samples
        .iter()
        .find(|s| s.device == "c4t0d1" && s.interval == 1)
        .unwrap();
    assert_eq!(s.kb_s, Some(24000.0));
    assert_eq!(s.tps, Some(3000.0));
    // msps is a constant on HP-UX 11, not a service time.
    assert_eq!(s.await_ms, None);
    assert_eq!(
        c.summary
            .iter()
            .find(|d| d.device == "c4t0d1")
            .unwrap()
            .samples,
        3
    );
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    insta::assert_json_snapshot!("hpux_iostat_summary", (&c.summary, &c.channel));
}

#[test]
fn solaris_iostat_without_x_reads_disk_triples_cpu_and_dates() {
    let c = capture("solaris_plain_td.txt");
    assert_eq!(c.source.format, Format::IostatSolaris);
    let devs: Vec<&str> = c.summary.iter().map(|d| d.device.as_str()).collect();
    assert_eq!(devs, ["sd0", "sd1", "sd2", "nfs1"]);
    assert_eq!(c.samples.len(), 16);
    assert_eq!(c.interval_s, Some(5.0));
    let s = c
        .samples
        .iter()
        .find(|s| s.device == "sd1" && s.interval == 2)
        .unwrap();
    assert_eq!(s.time.as_deref(), Some("2026-11-24T01:00:10"));
    assert_eq!(s.kb_s, Some(36000.0));
    assert_eq!(s.tps, Some(2250.0));
    assert_eq!(s.await_ms, Some(17.0));
    assert!(s.util_pct.is_none());
    assert_eq!(c.cpu.len(), 4);
    assert_eq!(c.cpu[1].user_pct, Some(22.0));
    assert!(c.cpu[0].since_boot && !c.cpu[1].since_boot);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    insta::assert_json_snapshot!("solaris_plain_td_summary", (&c.summary, &c.channel));

    let plain = capture("solaris_plain.txt");
    assert_eq!(plain.samples.len(), 8);
    assert!(plain.samples.iter().all(|s| s.time.is_none()));
    let sd1 = plain.summary.iter().find(|d| d.device == "sd1").unwrap();
    assert_eq!(sd1.samples, 3);
    assert!((sd1.iops_mean - 603.333).abs() < 0.001, "{}", sd1.iops_mean);
}

#[test]
fn cuts_of_other_layouts_never_panic_and_name_the_file() {
    for name in [
        "hpux_iostat.txt",
        "solaris_plain_td.txt",
        "solaris_plain.txt",
        "aix_iostat_D.txt",
        "aix_iostat_DlT.txt",
    ] {
        let b = bytes(name);
        for end in 0..b.len() {
            let n = format!("{name}#{end}");
            if let Err(e) = awrflash_parse::parse_bytes(&n, &b[..end]) {
                assert!(e.to_string().contains(&n), "{n}: {e}");
            }
        }
    }
}

#[test]
fn aix_iostat_d_blocks_and_dl_lines_give_the_same_samples() {
    let d = capture("aix_iostat_D.txt");
    let dl = capture("aix_iostat_DlT.txt");
    for c in [&d, &dl] {
        assert_eq!(c.source.format, Format::IostatAix);
        assert_eq!(c.samples.len(), 4);
        assert_eq!(c.samples.iter().filter(|s| s.since_boot).count(), 2);
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    }
    let s = d
        .samples
        .iter()
        .find(|s| s.device == "hdisk1" && !s.since_boot)
        .unwrap();
    assert_eq!(s.r_s, Some(5600.0));
    assert_eq!(s.w_s, Some(400.0));
    // Bytes per second with a 1024 suffix, in KB.
    assert_eq!(s.rkb_s, Some(48.0 * 1024.0));
    assert_eq!(s.util_pct, Some(71.5));
    // Service time plus time in the wait queue.
    assert_eq!(s.r_await_ms, Some(6.2 + 3.1));
    assert_eq!(s.w_await_ms, Some(1.1 + 3.1));
    assert_eq!(s.queue, Some(0.8));
    let strip = |c: &IostatCapture| -> Vec<_> {
        c.samples
            .iter()
            .map(|s| {
                let mut s = s.clone();
                s.src = Default::default();
                s.time = None;
                s
            })
            .collect()
    };
    assert_eq!(strip(&d), strip(&dl));
    assert_eq!(dl.samples[2].time.as_deref(), Some("09:01:00"));
    insta::assert_json_snapshot!("aix_iostat_d_summary", (&d.summary, &d.channel));
}
