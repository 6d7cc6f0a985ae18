//! Every iostat capture in the shared corpus parses, with the sample count
//! and the device names of each file checked.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use awrflash_model::{Document, Format, IostatCapture};

fn load(dir: &str, name: &str) -> Option<IostatCapture> {
    let path = awrflash_testkit::corpus(dir)?.join(name);
    let bytes = std::fs::read(&path).unwrap();
    match awrflash_parse::parse_bytes(name, &bytes).unwrap() {
        Document::Iostat(c) => Some(*c),
        other => panic!("{name}: parsed as {:?}", other.source().format),
    }
}

/// (file, format, samples, reports, devices in first-seen order)
const FILES: &[(&str, Format, usize, u32, &[&str])] = &[
    (
        "linux_orimanabu-sysstat_parser_iostat-tdx_rhel5.5.txt",
        Format::IostatLinux,
        100,
        20,
        &["sda", "sda1", "sda2", "dm-0", "dm-1"],
    ),
    (
        "linux_sysstat-sysstat_expected.iostat-x",
        Format::IostatLinux,
        10,
        2,
        &["sda", "sdb", "sdq", "sdr", "sds"],
    ),
    (
        "linux_sysstat-sysstat_expected.iostat-x-p-sda",
        Format::IostatLinux,
        26,
        2,
        &[
            "sda", "sda1", "sda10", "sda11", "sda12", "sda2", "sda3", "sda4", "sda5", "sda6",
            "sda7", "sda8", "sda9",
        ],
    ),
    (
        "linux_t2y-iostat-tool_sample_iostat.output",
        Format::IostatLinux,
        3498,
        318,
        &[
            "sdd", "sdh", "sdb", "sdg", "sdc", "sde", "sdj", "sdf", "sdk", "sdi", "sda",
        ],
    ),
    (
        "linux_t2y-iostat-tool_sample_iostat_11.7.3.output",
        Format::IostatLinux,
        82,
        82,
        &["sda"],
    ),
    (
        "linux_t2y-iostat-tool_sample_iostat_killo.output",
        Format::IostatLinux,
        99,
        9,
        &[
            "sdd", "sdh", "sdb", "sdg", "sdc", "sde", "sdj", "sdf", "sdk", "sdi", "sda",
        ],
    ),
    (
        "linux_t2y-iostat-tool_sample_iostat_without_cpu.output",
        Format::IostatLinux,
        55,
        5,
        &[
            "sdd", "sdh", "sdb", "sdg", "sdc", "sde", "sdj", "sdf", "sdk", "sdi", "sda",
        ],
    ),
    (
        "solaris_orimanabu-sysstat_parser_iostat-xTd_solaris10.txt",
        Format::IostatSolaris,
        80,
        20,
        &["fd0", "sd0", "sd1", "nfs1"],
    ),
];

#[test]
fn every_corpus_iostat_file_parses_with_its_samples_and_devices() {
    let Some(dir) = awrflash_testkit::corpus("iostat") else {
        return;
    };
    let listed: Vec<String> = awrflash_testkit::files_in(&dir)
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let mut known: Vec<String> = FILES.iter().map(|f| f.0.to_string()).collect();
    known.sort();
    assert_eq!(listed, known, "a corpus file has no expectations here");
    for (name, format, samples, reports, devices) in FILES {
        let c = load("iostat", name).unwrap();
        assert_eq!(c.source.format, *format, "{name}");
        assert_eq!(c.samples.len(), *samples, "{name}: samples");
        let n_reports = c.samples.iter().map(|s| s.interval).max().unwrap() + 1;
        assert_eq!(n_reports, *reports, "{name}: reports");
        let names: Vec<&str> = c.summary.iter().map(|d| d.device.as_str()).collect();
        assert_eq!(names, *devices, "{name}: devices");
        // The first report of a run is since boot, and only that one.
        let boot: Vec<u32> = c
            .samples
            .iter()
            .filter(|s| s.since_boot)
            .map(|s| s.interval)
            .collect();
        assert!(boot.iter().all(|i| *i == 0), "{name}: since-boot samples");
        assert_eq!(
            boot.len(),
            devices.len(),
            "{name}: one since-boot row per device"
        );
        for d in &c.summary {
            assert_eq!(
                d.samples as usize,
                *reports as usize - 1,
                "{name}: {}",
                d.device
            );
        }
        assert!(c.layout.is_some(), "{name}: layout");
        assert!(c.warnings.is_empty(), "{name}: {:?}", c.warnings);
    }
}

#[test]
fn timestamps_in_twelve_hour_and_time_only_layouts_become_iso() {
    let Some(c) = load("iostat", "linux_t2y-iostat-tool_sample_iostat.output") else {
        return;
    };
    assert_eq!(c.samples[0].time.as_deref(), Some("2018-06-13T14:10:50"));
    assert_eq!(c.interval_s, Some(1.0));
    assert_eq!(c.cpu.len(), 318);
    assert!(c.cpu[0].since_boot && !c.cpu[1].since_boot);
    assert_eq!(c.cpu[0].idle_pct, Some(99.11));
    let c = load(
        "iostat",
        "linux_orimanabu-sysstat_parser_iostat-tdx_rhel5.5.txt",
    )
    .unwrap();
    // `Time: 20:44:30` takes its date from the banner (04/12/11).
    assert_eq!(c.samples[0].time.as_deref(), Some("2011-04-12T20:44:30"));
    let c = load(
        "iostat",
        "solaris_orimanabu-sysstat_parser_iostat-xTd_solaris10.txt",
    )
    .unwrap();
    assert_eq!(c.samples[0].time.as_deref(), Some("2011-04-19T21:16:01"));
}

#[test]
fn units_are_converted_to_kilobytes() {
    // rsec/s: sectors of 512 bytes.
    let Some(c) = load(
        "iostat",
        "linux_t2y-iostat-tool_sample_iostat_without_cpu.output",
    ) else {
        return;
    };
    let sdb = c.samples.iter().find(|s| s.device == "sdb").unwrap();
    assert_eq!(sdb.rkb_s, Some(1149.11 / 2.0));
    assert_eq!(sdb.avg_rq_kb, Some(268.22 / 2.0));
    // rMB/s.
    let c = load("iostat", "linux_t2y-iostat-tool_sample_iostat.output").unwrap();
    let sdb = c.samples.iter().find(|s| s.device == "sdb").unwrap();
    assert_eq!(sdb.rkb_s, Some(0.57 * 1024.0));
    assert_eq!(sdb.await_ms, Some(49.24));
    // sysstat 12: await is the IOPS-weighted r_await/w_await, avg request from KB/IOPS.
    let c = load("iostat", "linux_sysstat-sysstat_expected.iostat-x").unwrap();
    let sda = &c.samples[0];
    let want = (6.90 * 12.58 + 1.69 * 9.61) / (6.90 + 1.69);
    assert!((sda.await_ms.unwrap() - want).abs() < 1e-3);
    assert_eq!(sda.queue, Some(0.10));
    assert_eq!(sda.util_pct, Some(0.46));
}

#[test]
fn partitions_and_volumes_stay_out_of_the_channel_total() {
    let Some(c) = load("iostat", "linux_sysstat-sysstat_expected.iostat-x-p-sda") else {
        return;
    };
    assert_eq!(c.channel.devices, ["sda"]);
    assert!(
        c.summary
            .iter()
            .filter(|d| d.device != "sda")
            .all(|d| d.layered)
    );
    let c = load(
        "iostat",
        "linux_orimanabu-sysstat_parser_iostat-tdx_rhel5.5.txt",
    )
    .unwrap();
    assert_eq!(c.channel.devices, ["sda"]);
    assert_eq!(c.channel.points.len(), 20);
    assert!(c.channel.points[0].since_boot);
}

/// Recomputes one device's means from the raw lines, without the parser.
#[test]
fn one_device_mean_matches_a_recount_from_the_raw_lines() {
    let Some(dir) = awrflash_testkit::corpus("iostat") else {
        return;
    };
    let name = "linux_t2y-iostat-tool_sample_iostat.output";
    let text = std::fs::read_to_string(dir.join(name)).unwrap();
    // Header: Device: rrqm/s wrqm/s r/s w/s rMB/s wMB/s avgrq-sz avgqu-sz await r_await w_await svctm %util
    let rows: Vec<Vec<f64>> = text
        .lines()
        .filter(|l| l.starts_with("sdb "))
        .map(|l| {
            l.split_whitespace()
                .skip(1)
                .map(|v| v.parse().unwrap())
                .collect()
        })
        .collect();
    assert_eq!(rows.len(), 318);
    let live = &rows[1..]; // the first report is since boot
    let n = live.len() as f64;
    let iops = live.iter().map(|r| r[2] + r[3]).sum::<f64>() / n;
    let mbs = live.iter().map(|r| r[4] + r[5]).sum::<f64>() / n;
    let util = live.iter().map(|r| r[12]).sum::<f64>() / n;
    let mut utils: Vec<f64> = live.iter().map(|r| r[12]).collect();
    utils.sort_by(f64::total_cmp);
    let util_max = *utils.last().unwrap();

    let c = load("iostat", name).unwrap();
    let d = c.summary.iter().find(|d| d.device == "sdb").unwrap();
    assert_eq!(d.samples, 317);
    assert!(
        (d.iops_mean - iops).abs() < 0.001,
        "{} vs {iops}",
        d.iops_mean
    );
    assert!(
        (d.mb_s_mean - mbs).abs() < 0.001,
        "{} vs {mbs}",
        d.mb_s_mean
    );
    assert!((d.util_pct_mean.unwrap() - util).abs() < 0.001);
    assert_eq!(d.util_pct_max, Some(util_max));
}
