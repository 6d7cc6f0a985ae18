//! iostat captures written for awrflash: Solaris `-xn`, sysstat 12
//! `--pretty` with 12-hour stamps, German decimal commas, Japanese dates,
//! `iostat -d` with en_GB dates, and broken captures; plus device roles.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use awrflash_model::{Document, Format, IostatCapture};

fn capture(name: &str) -> IostatCapture {
    let bytes = std::fs::read(awrflash_testkit::fixtures("iostat").join(name)).unwrap();
    match awrflash_parse::parse_bytes(&format!("fixtures/iostat/{name}"), &bytes).unwrap() {
        Document::Iostat(c) => *c,
        other => panic!("{name}: parsed as {:?}", other.source().format),
    }
}

fn devices(c: &IostatCapture) -> Vec<&str> {
    c.summary.iter().map(|d| d.device.as_str()).collect()
}

#[test]
fn solaris_xn_reads_device_last_and_sums_wait_and_service_times() {
    let c = capture("solaris_xn.txt");
    assert_eq!(c.source.format, Format::IostatSolaris);
    assert_eq!(c.samples.len(), 9);
    assert_eq!(
        devices(&c),
        ["c0t0d0", "c2t5000CCA0A1B2C3D4d0", "c2t5000CCA0A1B2C3D5d0"]
    );
    // 1312.5 94.5 10500.0 1512.0 1.2 9.2 0.0 6.8 0 94 c2t5000CCA0A1B2C3D4d0
    let s = &c.samples[4];
    assert_eq!(s.device, "c2t5000CCA0A1B2C3D4d0");
    assert_eq!(
        (s.r_s, s.w_s, s.rkb_s),
        (Some(1312.5), Some(94.5), Some(10500.0))
    );
    assert_eq!(s.queue, Some(1.2 + 9.2));
    assert_eq!(s.await_ms, Some(6.8));
    assert_eq!(s.util_pct, Some(94.0));
    assert_eq!(s.time.as_deref(), Some("2026-11-23T14:00:05"));
    let hot = &c.summary[1];
    assert_eq!(hot.samples, 2, "the since-boot report is left out");
    assert!(hot.callouts.iter().any(|m| m.starts_with("%util p95 94.0")));
    insta::assert_json_snapshot!("solaris_xn", c);
}

#[test]
fn sysstat_12_pretty_with_twelve_hour_stamps_reads_device_last() {
    let c = capture("sysstat12_pretty_ampm.txt");
    assert_eq!(devices(&c), ["sda", "sdb", "sdc", "sdd", "sde"]);
    assert_eq!(c.samples.len(), 20);
    assert!(c.layout.as_deref().unwrap().contains("--pretty"));
    assert!(c.layout.as_deref().unwrap().contains("sysstat 12"));
    // 11:59:58 AM, then 12:00:03 PM is noon, not midnight.
    assert_eq!(c.samples[0].time.as_deref(), Some("2026-11-23T11:59:58"));
    assert_eq!(c.samples[5].time.as_deref(), Some("2026-11-23T12:00:03"));
    assert_eq!(c.interval_s, Some(5.0));
    assert_eq!(c.cpu.len(), 4);
    let sde = c.summary.iter().find(|d| d.device == "sde").unwrap();
    assert!(
        sde.callouts
            .iter()
            .any(|m| m.contains("x the median device")),
        "{:?}",
        sde.callouts
    );
    let sdb = c.summary.iter().find(|d| d.device == "sdb").unwrap();
    assert!(sdb.callouts.is_empty(), "{:?}", sdb.callouts);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

#[test]
fn german_decimal_commas_and_dotted_dates_read_as_numbers_and_dates() {
    let c = capture("german_decimal_comma.txt");
    assert_eq!(devices(&c), ["sdb", "sdc", "sdd"]);
    assert_eq!(c.samples.len(), 9);
    // sdc 0,00 1,00 81,00 7,50 648,00 60,00 16,00 0,54 6,12 6,50 2,00 0,30 4,65
    let s = &c.samples[1];
    assert_eq!(
        (s.r_s, s.w_s, s.rkb_s),
        (Some(81.0), Some(7.5), Some(648.0))
    );
    assert_eq!(s.avg_rq_kb, Some(8.0));
    assert_eq!(s.time.as_deref(), Some("2026-11-23T23:59:58"));
    assert_eq!(c.samples[8].time.as_deref(), Some("2026-11-24T00:00:08"));
    assert_eq!(c.cpu[0].idle_pct, Some(63.0));
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

#[test]
fn japanese_date_lines_and_megabyte_units_are_read() {
    let c = capture("japanese_dates_mb.txt");
    assert_eq!(devices(&c), ["sdb", "sdc"]);
    assert_eq!(c.samples.len(), 6);
    assert_eq!(c.samples[2].time.as_deref(), Some("2026-11-23T14:00:11"));
    assert_eq!(c.samples[3].rkb_s, Some(14.06 * 1024.0));
    assert!(c.cpu.is_empty());
}

#[test]
fn iostat_d_with_day_first_dates_keeps_partitions_out_of_the_total() {
    let c = capture("basic_d_en_gb.txt");
    assert_eq!(devices(&c), ["nvme0n1", "nvme0n1p1", "nvme0n1p2"]);
    assert_eq!(c.samples[0].time.as_deref(), Some("2026-11-24T14:00:01"));
    assert_eq!(c.samples[3].tps, Some(311.5));
    assert_eq!(c.channel.devices, ["nvme0n1"]);
    assert_eq!(c.interval_s, Some(60.0));
}

#[test]
fn a_truncated_last_sample_is_dropped_with_warnings() {
    let c = capture("truncated.txt");
    assert_eq!(c.samples.len(), 17);
    assert_eq!(c.warnings.len(), 2, "{:?}", c.warnings);
    assert!(
        c.warnings[0]
            .message
            .contains("cut short (11 of 23 fields)")
    );
    assert_eq!(c.warnings[0].line, 43);
    assert!(c.warnings[1].message.contains("2 of 5 devices"));
}

#[test]
fn a_mixed_locale_capture_reads_both_runs_and_warns() {
    let c = capture("mixed_locale.txt");
    assert_eq!(c.samples.len(), 18);
    // Two runs, each with its own since-boot report.
    let boot: Vec<u32> = c
        .samples
        .iter()
        .filter(|s| s.since_boot)
        .map(|s| s.interval)
        .collect();
    assert_eq!(boot, [0, 0, 0, 3, 3, 3]);
    assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
    assert!(c.warnings[0].message.contains("mixed decimal marks"));
    // Both runs hold the same numbers, whatever the decimal mark.
    let a: Vec<_> = c.samples[..9].iter().map(|s| s.rkb_s).collect();
    let b: Vec<_> = c.samples[9..].iter().map(|s| s.rkb_s).collect();
    assert_eq!(a, b);
}

#[test]
fn a_role_mapping_groups_devices_into_role_summaries() {
    let mut c = capture("sysstat12_pretty_ampm.txt");
    let toml = std::fs::read_to_string(awrflash_testkit::fixtures("roles/dbhost01.toml")).unwrap();
    awrflash_parse::iostat::apply_roles(&mut c, "fixtures/roles/dbhost01.toml", &toml).unwrap();
    let roles: Vec<(&str, Vec<&str>)> = c
        .roles
        .iter()
        .map(|r| {
            (
                r.role.as_str(),
                r.devices.iter().map(String::as_str).collect(),
            )
        })
        .collect();
    assert_eq!(
        roles,
        [
            ("redo", vec!["sdb"]),
            ("temp", vec!["sde"]),
            ("+DATA", vec!["sdc", "sdd"])
        ]
    );
    let data = c.roles.iter().find(|r| r.role == "+DATA").unwrap();
    let sdc = c.summary.iter().find(|d| d.device == "sdc").unwrap();
    let sdd = c.summary.iter().find(|d| d.device == "sdd").unwrap();
    assert!((data.iops_mean - (sdc.iops_mean + sdd.iops_mean)).abs() < 0.01);
    assert_eq!(data.samples, 3);
    assert_eq!(sdc.role.as_deref(), Some("+DATA"));
    assert_eq!(c.summary[0].role, None, "sda is not mapped");
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    insta::assert_json_snapshot!("roles_dbhost01", c.roles);

    // The same mapping as CSV gives the same groups, and warns about a
    // device the capture does not have.
    let mut c2 = capture("sysstat12_pretty_ampm.txt");
    let csv = std::fs::read_to_string(awrflash_testkit::fixtures("roles/dbhost01.csv")).unwrap();
    awrflash_parse::iostat::apply_roles(&mut c2, "dbhost01.csv", &csv).unwrap();
    let data2 = c2.roles.iter().find(|r| r.role == "+DATA").unwrap();
    assert_eq!(data, data2);
    assert_eq!(c2.warnings.len(), 1);
    assert!(c2.warnings[0].message.contains("sdz"));
}

#[test]
fn a_broken_role_mapping_is_an_error() {
    let mut c = capture("solaris_xn.txt");
    let e =
        awrflash_parse::iostat::apply_roles(&mut c, "r.toml", "[devices]\nsdb = 3\n").unwrap_err();
    assert!(e.to_string().contains("r.toml"), "{e}");
    let e = awrflash_parse::iostat::apply_roles(&mut c, "r.csv", "just-a-device\n").unwrap_err();
    assert!(e.to_string().contains("r.csv:1"), "{e}");
}

#[test]
fn long_device_names_on_their_own_line_join_the_values_below() {
    let c = capture("long_device_names.txt");
    assert_eq!(
        devices(&c),
        [
            "cciss/c0d0",
            "mapper/vg_ora-lv_redo01",
            "mapper/vg_ora-lv_data01"
        ]
    );
    assert_eq!(c.samples.len(), 6);
    // mapper/vg_ora-lv_data01: 880.00 r/s, 14080.00 rsec/s in the second report.
    let s = &c.samples[5];
    assert_eq!((s.r_s, s.rkb_s), (Some(880.0), Some(7040.0)));
    assert_eq!(s.src.line, 15);
    // The LVM volumes carry more than the one disk listed: their disks are
    // not in the capture, so the volumes make the total.
    assert_eq!(c.channel.devices.len(), 3);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}

#[test]
fn solaris_xc_rows_without_the_cpu_columns_are_kept() {
    let c = capture("solaris_xc.txt");
    assert_eq!(c.source.format, Format::IostatSolaris);
    assert_eq!(devices(&c), ["sd0", "sd1"]);
    assert_eq!(c.samples.len(), 4);
    let sd1 = &c.samples[3];
    assert_eq!(
        (sd1.r_s, sd1.util_pct, sd1.await_ms),
        (Some(330.0), Some(93.0), Some(10.4))
    );
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
}
