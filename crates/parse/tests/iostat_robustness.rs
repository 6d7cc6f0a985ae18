//! No input makes the iostat, sar, sysstat or segment parsers panic: every
//! corpus capture and fixture is cut at many points and mangled, and each
//! piece must come back as a model or a `ParseError`.

#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

use std::path::{Path, PathBuf};

fn files() -> Vec<PathBuf> {
    let mut out = Vec::new();
    for sub in ["iostat", "sar", "sysstat", "segsizes"] {
        out.extend(awrflash_testkit::files_in(&awrflash_testkit::fixtures(sub)));
    }
    if let Some(d) = awrflash_testkit::corpus("iostat") {
        out.extend(awrflash_testkit::files_in(&d));
    }
    let other = awrflash_testkit::corpus_root().join("other");
    for name in [
        "hpux_vlsi-ksar_hpux-sar.txt",
        "linux_mbaldessari-sarstats_el6-sar05",
        "linux_mbaldessari-sarstats_f39-sar02",
        "solaris_vlsi-ksar_sar-Solaris-11.3",
    ] {
        let p = other.join(name);
        if p.is_file() {
            out.push(p);
        }
    }
    out.sort();
    out
}

fn name(p: &Path) -> String {
    p.file_name().unwrap().to_string_lossy().into_owned()
}

#[test]
fn cut_and_mangled_captures_never_panic() {
    let files = files();
    assert!(files.len() >= 12, "{files:?}");
    for p in files {
        let bytes = std::fs::read(&p).unwrap();
        let n = name(&p);
        // Cut at 16 points through the file (4 for the large ones).
        let points = if bytes.len() > 100_000 { 4 } else { 16 };
        for i in 1..points {
            let cut = bytes.len() * i / points;
            let _ = awrflash_parse::parse_bytes(&n, &bytes[..cut]);
        }
        // Every line doubled, fields swapped, digits replaced.
        let text = String::from_utf8_lossy(&bytes);
        let doubled: String = text
            .lines()
            .flat_map(|l| [l, l])
            .collect::<Vec<_>>()
            .join("\n");
        let _ = awrflash_parse::parse_bytes(&n, doubled.as_bytes());
        let mangled: String = text
            .lines()
            .enumerate()
            .map(|(i, l)| match i % 7 {
                3 => l.replace('.', "#"),
                5 => l.split_whitespace().rev().collect::<Vec<_>>().join(" "),
                6 => l.replace(['0', '5'], "x"),
                _ => l.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\r\n");
        let _ = awrflash_parse::parse_bytes(&n, mangled.as_bytes());
    }
}

#[test]
fn a_header_without_rows_is_an_error_not_an_empty_model() {
    let e = awrflash_parse::parse_bytes(
        "empty.txt",
        b"Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await  svctm  %util\n",
    )
    .unwrap_err();
    assert!(e.to_string().contains("empty.txt"), "{e}");
}

#[test]
fn human_readable_values_are_refused_with_a_warning() {
    let text = "Linux 5.14.0 (h) \t11/23/2026 \t_x86_64_\t(4 CPU)\n\n      r/s     rkB/s Device\n     6.9k    222.1M sda\n     1.00      2.00 sdb\n";
    match awrflash_parse::parse_bytes("h.txt", text.as_bytes()).unwrap() {
        awrflash_model::Document::Iostat(c) => {
            assert_eq!(c.samples.len(), 1);
            assert!(
                c.warnings.iter().any(|w| w.message.contains("--human")),
                "{:?}",
                c.warnings
            );
        }
        _ => panic!("not iostat"),
    }
}

#[test]
fn a_single_since_boot_report_warns_and_can_be_summarised_on_request() {
    let text = "Device:         rrqm/s   wrqm/s     r/s     w/s    rkB/s    wkB/s avgrq-sz avgqu-sz   await  svctm  %util\nsda               0.00     1.00   10.00   20.00   80.00  160.00    16.00     0.10    2.00   0.50   1.50\n";
    let mut c = awrflash_parse::iostat::parse("one.txt", text).unwrap();
    assert_eq!(c.summary[0].samples, 0);
    assert!(c.warnings.iter().any(|w| w.message.contains("since-boot")));
    awrflash_parse::iostat::summarize_with(&mut c, true);
    assert_eq!(c.summary[0].samples, 1);
    assert_eq!(c.summary[0].iops_mean, 30.0);
    assert_eq!(c.channel.mb_s_max, 0.234);
}
