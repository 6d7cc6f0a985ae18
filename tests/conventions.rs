//! The conventions a DBA scripts against: man pages for every subcommand,
//! site defaults from `awrflash.toml`, the terminal width, the ticket-ready
//! Markdown and its brief form.

// Test helpers outside #[test] functions may fail loudly too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use common::{awrflash, code, root, run, stderr, stdout};

fn sample() -> String {
    root()
        .join("fixtures/sample/awr_19c_sample.html")
        .display()
        .to_string()
}

#[test]
fn every_page_the_man_page_refers_to_is_generated() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(&["man", "--dir", dir.path().to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let root_page = std::fs::read_to_string(dir.path().join("awrflash.1")).unwrap();
    // roff escapes the hyphen: `awrflash\-analyze(1)`.
    let refs: Vec<String> = root_page
        .split("awrflash\\-")
        .skip(1)
        .filter_map(|s| s.split_once("(1)").map(|(name, _)| name.to_string()))
        .filter(|name| name.chars().all(|c| c.is_ascii_lowercase()))
        .collect();
    assert!(refs.iter().any(|r| r == "analyze"), "{refs:?}");
    for r in &refs {
        let page = dir.path().join(format!("awrflash-{r}.1"));
        assert!(
            page.is_file(),
            "awrflash-{r}(1) is referred to but not written"
        );
    }
}

#[test]
fn man_prints_one_subcommands_page_and_refuses_an_unknown_one() {
    let o = run(&["man", "analyze"]);
    assert_eq!(code(&o), 0);
    let page = stdout(&o);
    assert!(page.contains(".TH awrflash-analyze 1"), "{page}");
    assert!(page.contains("channel\\-mbps"), "{page}");
    assert!(page.contains(&format!("awrflash {}", env!("CARGO_PKG_VERSION"))));
    let o = run(&["man", "analyse"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("no subcommand `analyse`"),
        "{}",
        stderr(&o)
    );
}

/// `analyze SAMPLE --format json` in `dir`, with `extra` arguments.
fn json_in(dir: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let sample = sample();
    let mut args = vec!["-q", "analyze", sample.as_str(), "--format", "json"];
    args.extend_from_slice(extra);
    awrflash().args(&args).current_dir(dir).output().unwrap()
}

#[test]
fn awrflash_toml_in_the_working_directory_sets_site_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let without = json_in(dir.path(), &[]);
    assert!(!stdout(&without).contains("12 MB/s channel"));
    std::fs::write(dir.path().join("awrflash.toml"), "channel_mbps = 12\n").unwrap();
    let with = json_in(dir.path(), &[]);
    assert_eq!(code(&with), 0, "{}", stderr(&with));
    assert!(
        stdout(&with).contains("12 MB/s channel"),
        "{}",
        stdout(&with)
    );
    // A flag wins over the file.
    let flag = json_in(dir.path(), &["--channel-mbps", "24"]);
    assert!(
        stdout(&flag).contains("24 MB/s channel"),
        "{}",
        stdout(&flag)
    );
    assert!(!stdout(&flag).contains("12 MB/s channel"));
}

#[test]
fn a_config_file_given_with_config_is_read_from_anywhere() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("site.toml");
    std::fs::write(&cfg, "channel_mbps = 12\n").unwrap();
    let o = json_in(&root(), &["--config", cfg.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("12 MB/s channel"));
}

#[test]
fn an_unknown_config_key_or_a_missing_config_file_exits_2_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("awrflash.toml"), "chanel_mbps = 12\n").unwrap();
    let o = json_in(dir.path(), &[]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(
        err.contains("awrflash.toml") && err.contains("chanel_mbps"),
        "{err}"
    );
    assert!(stdout(&o).is_empty());

    let missing = dir.path().join("nowhere.toml");
    let o = json_in(&root(), &["--config", missing.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("nowhere.toml"), "{}", stderr(&o));
}

#[test]
fn the_terminal_report_follows_columns() {
    let sample = sample();
    for width in [80usize, 160] {
        let o = awrflash()
            .args(["-q", "analyze", sample.as_str()])
            .env("COLUMNS", width.to_string())
            .output()
            .unwrap();
        assert_eq!(code(&o), 0);
        let text = stdout(&o);
        let widest = text.lines().map(|l| l.chars().count()).max().unwrap();
        assert!(widest <= width, "{width}: a line of {widest} columns");
        if width > 100 {
            assert!(widest > 100, "{width}: the page did not grow ({widest})");
        }
    }
}

#[test]
fn brief_markdown_fits_a_ticket_comment() {
    let o = run(&["-q", "analyze", &sample(), "--brief"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let md = stdout(&o);
    assert!(md.starts_with("# awrflash report: "), "{md}");
    for part in ["## Verdict", "## Options", "## Top findings"] {
        assert!(md.contains(part), "no {part}");
    }
    assert!(md.len() < 10_000, "{} bytes", md.len());
    assert!(!md.contains("```"), "the brief carries no SQL");
}

#[test]
fn brief_with_another_format_is_a_usage_error() {
    let o = run(&["analyze", &sample(), "--brief", "--format", "json"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("--brief"), "{}", stderr(&o));
}

#[test]
fn full_markdown_has_one_sql_block_per_finding_and_file_names_only() {
    let o = run(&["-q", "analyze", &sample(), "--format", "md"]);
    assert_eq!(code(&o), 0);
    let md = stdout(&o);
    let dir = root().join("fixtures/sample").display().to_string();
    assert!(!md.contains(&dir), "a local directory in the Markdown");
    assert!(
        md.contains(r"awr\_19c\_sample.html:"),
        "the notes name the file"
    );
    assert!(!md.contains("[^"), "footnote syntax");
    for finding in md.split("\n### ").skip(1) {
        let finding = finding.split("\n## ").next().unwrap();
        assert!(
            finding.matches("```sql").count() <= 1,
            "more than one SQL block in: {}",
            finding.lines().next().unwrap()
        );
    }
}

#[test]
fn a_missing_input_named_on_the_command_line_exits_2_before_any_parsing() {
    let o = run(&["analyze", &sample(), "/nowhere/awrrpt_1_2.html"]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(
        err.contains("/nowhere/awrrpt_1_2.html: no such file or directory"),
        "{err}"
    );
    // Nothing was parsed: no summary of inputs.
    assert!(!err.contains("1 ok"), "{err}");
    assert!(stdout(&o).is_empty());
    let o = run(&["extract", "/nowhere/awr.html", "-o", "unused"]);
    assert_eq!(code(&o), 2);
}

#[test]
fn flags_are_checked_before_any_parsing() {
    let dir = tempfile::tempdir().unwrap();
    let pdf = dir.path().join("report.pdf");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec!["-o".into(), pdf.display().to_string()],
            "`.pdf` is not an output format",
        ),
        (
            vec![
                "-o".into(),
                dir.path().join("r.html").display().to_string(),
                "--format".into(),
                "json".into(),
            ],
            "--format is json",
        ),
        (
            vec!["--device".into(), "floppy".into()],
            "--device floppy: no such device profile",
        ),
        (
            vec!["--roles".into(), "/nowhere/roles.toml".into()],
            "--roles /nowhere/roles.toml: no such file",
        ),
    ];
    for (extra, message) in cases {
        // A missing input as well: the flag is reported first, before any input is looked at.
        let mut args = vec!["analyze".to_string(), sample()];
        args.extend(extra);
        let o = awrflash().args(&args).output().unwrap();
        assert_eq!(code(&o), 2, "{args:?}");
        assert!(stderr(&o).contains(message), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("inputs:"), "parsed before refusing");
    }
    assert!(!pdf.exists(), "a .pdf was written");
}

#[test]
fn extract_takes_the_same_output_flags_as_analyze_and_the_old_ones() {
    for flags in [["-o", "--format"], ["--out", "--to"]] {
        let dir = tempfile::tempdir().unwrap();
        let o = run(&[
            "-q",
            "extract",
            &sample(),
            flags[0],
            dir.path().to_str().unwrap(),
            flags[1],
            "csv",
        ]);
        assert_eq!(code(&o), 0, "{flags:?}: {}", stderr(&o));
        assert!(dir.path().join("snapshots.csv").is_file(), "{flags:?}");
    }
    let help = stdout(&run(&["extract", "--help"]));
    assert!(
        !help.contains("--out ") && !help.contains("--to "),
        "{help}"
    );
}

#[test]
fn json_on_stdout_is_one_line_per_database_with_the_current_schema_version() {
    let o = run(&["-q", "analyze", &sample(), "--format", "json"]);
    assert_eq!(code(&o), 0);
    let text = stdout(&o);
    assert_eq!(text.lines().count(), 1, "one database, one line");
    let v: serde_json::Value = serde_json::from_str(text.trim_end()).unwrap();
    assert!(v["verdict"].is_object());
    assert_eq!(v["schema_version"], 2);
}

#[test]
fn brief_into_a_directory_writes_markdown() {
    let dir = tempfile::tempdir().unwrap();
    let out = format!("{}/", dir.path().display());
    let o = run(&["-q", "analyze", &sample(), "-o", &out, "--brief"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let files = awrflash_testkit::files_below(dir.path());
    assert_eq!(files.len(), 1, "{files:?}");
    assert!(files[0].extension().is_some_and(|e| e == "md"), "{files:?}");
}

/// The report links of `index.html` in `dir`, in page order.
fn index_links(dir: &std::path::Path) -> Vec<String> {
    let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
    html.split("<tr><td><a href=\"")
        .skip(1)
        .map(|r| r[..r.find('"').unwrap()].to_string())
        .collect()
}

#[test]
fn the_index_is_rebuilt_from_every_report_in_the_output_directory() {
    let other = root()
        .join("fixtures/awr-html/awr_23ai_reduced.html")
        .display()
        .to_string();
    let dir = tempfile::tempdir().unwrap();
    let out = format!("{}/", dir.path().display());
    let junk = dir.path().join("junk.html");
    std::fs::write(&junk, "<p>not an <b>AWR</b> report</p>").unwrap();
    let junk = junk.display().to_string();

    let o = run(&["-q", "analyze", &sample(), &other, &junk, "-o", &out]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let both = index_links(dir.path());
    assert_eq!(both.len(), 2, "{both:?}");
    for link in &both {
        assert!(dir.path().join(link).is_file(), "{link}");
        let stem = link.strip_suffix(".html").unwrap();
        assert!(dir.path().join(format!("{stem}.summary.json")).is_file());
    }
    // The failed input is listed with its reason, escaped.
    let html = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    let failed = &html[html.find("<section id=\"failed\"").unwrap()..];
    let failed = &failed[..failed.find("</section>").unwrap()];
    assert!(failed.contains("junk.html"), "{failed}");
    assert!(!failed.contains("<b>AWR"), "{failed}");

    // One database again into the same directory: both stay listed.
    let o = run(&["-q", "analyze", &other, "-o", &out]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let mut again = index_links(dir.path());
    let mut expected = both.clone();
    again.sort();
    expected.sort();
    assert_eq!(again, expected);
    // The failed input belonged to the first run.
    let html = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    assert!(!html.contains("junk.html"));

    // A summary that cannot be read (here the one of the database not
    // re-run) is named among the warnings and its report left out.
    let solo = tempfile::tempdir().unwrap();
    let o = run(&[
        "-q",
        "analyze",
        &other,
        "-o",
        &format!("{}/", solo.path().display()),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let other_link = index_links(solo.path()).remove(0);
    let sample_link = both.iter().find(|l| **l != other_link).unwrap();
    let stem = sample_link.strip_suffix(".html").unwrap();
    std::fs::write(dir.path().join(format!("{stem}.summary.json")), "{oops").unwrap();
    let o = run(&["-q", "analyze", &other, "-o", &out]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(index_links(dir.path()), [other_link]);
    let html = std::fs::read_to_string(dir.path().join("index.html")).unwrap();
    let warnings = &html[html.find("<section id=\"warnings\"").unwrap()..];
    assert!(
        warnings.contains("summary cannot be read") && warnings.contains(stem),
        "{warnings}"
    );
}

/// `awrflash ARGS` with `input` on standard input.
fn run_piped(args: &[&str], input: &[u8]) -> std::process::Output {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = awrflash()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_dash_reads_one_input_from_standard_input() {
    let bytes = std::fs::read(sample()).unwrap();
    let from_file = run(&["-q", "analyze", &sample(), "--format", "json"]);
    let piped = run_piped(&["-q", "analyze", "-", "--format", "json"], &bytes);
    assert_eq!(code(&piped), 0, "{}", stderr(&piped));
    let (a, b): (serde_json::Value, serde_json::Value) = (
        serde_json::from_str(stdout(&from_file).trim_end()).unwrap(),
        serde_json::from_str(stdout(&piped).trim_end()).unwrap(),
    );
    // The same verdict and figures; only the input's name differs.
    assert_eq!(a["verdict"], b["verdict"]);
    assert_eq!(a["database"], b["database"]);
    assert_eq!(b["inputs"][0]["path"], "<stdin>", "{}", b["inputs"]);

    // Not a report: the error names standard input.
    let o = run_piped(&["analyze", "-"], b"hello\n");
    assert_ne!(code(&o), 0);
    assert!(stderr(&o).contains("<stdin>"), "{}", stderr(&o));
    // Nothing piped in.
    let o = run_piped(&["analyze", "-"], b"");
    assert_ne!(code(&o), 0);
    assert!(
        stderr(&o).contains("standard input (-) is empty"),
        "{}",
        stderr(&o)
    );

    // extract takes it as well.
    let dir = tempfile::tempdir().unwrap();
    let o = run_piped(
        &[
            "-q",
            "extract",
            "-",
            "-o",
            dir.path().to_str().unwrap(),
            "--format",
            "csv",
        ],
        &bytes,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(dir.path().join("snapshots.csv").is_file());
}
