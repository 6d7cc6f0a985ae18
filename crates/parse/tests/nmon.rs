//! nmon captures: AIX (`topas_nmon`, disk sections split over several
//! lines, DISKSERV/DISKWAIT) and Linux (unsorted records, partitions and
//! device-mapper volumes) fixtures written for awrflash, the two real Linux
//! captures of the shared corpus, and cuts of every length.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use awrflash_model::{Document, Format, IostatCapture};

fn parse(name: &str, bytes: &[u8]) -> IostatCapture {
    match awrflash_parse::parse_bytes(name, bytes).unwrap() {
        Document::Iostat(c) => *c,
        other => panic!("{name}: parsed as {:?}", other.source().format),
    }
}

fn fixture(name: &str) -> IostatCapture {
    let bytes = std::fs::read(awrflash_testkit::fixtures("nmon").join(name)).unwrap();
    parse(&format!("fixtures/nmon/{name}"), &bytes)
}

#[test]
fn aix_nmon_joins_split_disk_sections_and_reads_service_and_queue_times() {
    let c = fixture("aix_dbhost_split_disks.nmon");
    assert_eq!(c.source.format, Format::Nmon);
    assert_eq!(c.host.as_deref(), Some("aixdb01"));
    assert_eq!(c.samples.len(), 12, "3 disks x 4 snapshots");
    assert_eq!(c.interval_s, Some(300.0));
    let devs: Vec<&str> = c.summary.iter().map(|d| d.device.as_str()).collect();
    assert!(devs.contains(&"hdisk2"), "{devs:?}");
    let s = c
        .samples
        .iter()
        .find(|s| s.device == "hdisk1" && s.interval == 1)
        .unwrap();
    assert_eq!(s.time.as_deref(), Some("2026-11-13T09:10:00"));
    assert_eq!(s.rkb_s, Some(56000.0));
    assert_eq!(s.wkb_s, Some(2000.0));
    assert_eq!(s.tps, Some(7000.0));
    assert_eq!(s.util_pct, Some(88.0));
    // Queue time plus service time, as iostat's await.
    assert_eq!(s.await_ms, Some(5.0 + 7.9));
    assert_eq!(c.cpu.len(), 4);
    assert_eq!(c.cpu[1].iowait_pct, Some(15.0));
    assert_eq!(c.cpu[1].time.as_deref(), Some("2026-11-13T09:10:00"));
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    insta::assert_json_snapshot!("nmon_aix_summary", (&c.summary, &c.channel));
}

#[test]
fn linux_nmon_sorts_snapshots_and_counts_partitions_once() {
    let c = fixture("linux_unsorted_partitions.nmon");
    assert_eq!(c.host.as_deref(), Some("lnxdb02"));
    assert_eq!(c.samples.len(), 12);
    let first = &c.samples[0];
    assert_eq!(first.interval, 0);
    assert_eq!(first.time.as_deref(), Some("2026-11-23T23:58:00"));
    // Across midnight.
    let last = c.samples.last().unwrap();
    assert_eq!(last.time.as_deref(), Some("2026-11-24T00:00:00"));
    assert_eq!(c.interval_s, Some(60.0));
    // sda1 sits on sda and dm-0 on a disk: neither is counted in the channel.
    assert!(!c.channel.devices.iter().any(|d| d == "sda1" || d == "dm-0"));
    assert_eq!(c.cpu.len(), 3);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    insta::assert_json_snapshot!("nmon_linux_summary", (&c.summary, &c.channel));
}

#[test]
fn corpus_nmon_captures_parse_into_device_and_cpu_samples() {
    let Some(dir) = awrflash_testkit::corpus("other") else {
        return;
    };
    let mut seen = 0;
    for (name, host, devices, snapshots) in [
        ("linux_sk112-NmonParser_NmonFile.nmon", "ubuntu", 41, 27),
        (
            "linux_yuanjl1989-PythonNmonAnalyzer_15_20151110_000701.nmon",
            "newerpdb",
            5,
            80,
        ),
    ] {
        let Ok(bytes) = std::fs::read(dir.join(name)) else {
            println!("skipped: {name} is absent");
            continue;
        };
        seen += 1;
        let c = parse(name, &bytes);
        assert_eq!(c.source.format, Format::Nmon, "{name}");
        assert_eq!(c.host.as_deref(), Some(host), "{name}");
        assert_eq!(c.summary.len(), devices, "{name}");
        assert_eq!(c.samples.len(), devices * snapshots, "{name}");
        assert_eq!(c.cpu.len(), snapshots, "{name}");
        assert!(c.interval_s.is_some(), "{name}");
        // The first file lost the ZZZZ line of T0025 and its clock steps
        // back after it: both are said, not hidden.
        let untimed = c.samples.iter().filter(|s| s.time.is_none()).count();
        if untimed > 0 {
            assert_eq!(untimed, devices, "{name}");
            assert!(
                c.warnings
                    .iter()
                    .any(|w| w.message.contains("T0025 has no ZZZZ")),
                "{name}: {:?}",
                c.warnings
            );
        }
        assert!(c.channel.mb_s_max >= c.channel.mb_s_mean, "{name}");
        println!(
            "{name}: {} samples, channel {:.1} MB/s mean, warnings {:?}",
            c.samples.len(),
            c.channel.mb_s_mean,
            c.warnings
        );
    }
    println!("{seen} corpus nmon files");
}

#[test]
fn nmon_cut_anywhere_never_panics_and_names_the_file_on_error() {
    for name in [
        "aix_dbhost_split_disks.nmon",
        "linux_unsorted_partitions.nmon",
    ] {
        let bytes = std::fs::read(awrflash_testkit::fixtures("nmon").join(name)).unwrap();
        for end in 0..bytes.len() {
            let n = format!("{name}#{end}");
            match awrflash_parse::parse_bytes(&n, &bytes[..end]) {
                Ok(Document::Iostat(c)) => {
                    assert!(c.samples.iter().all(|s| s.device.len() < 64), "{n}");
                }
                Ok(_) => {}
                Err(e) => assert!(e.to_string().contains(&n), "{n}: {e}"),
            }
        }
    }
}
