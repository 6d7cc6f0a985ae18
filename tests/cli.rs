//! The command line itself: help, usage errors, exit codes, generated
//! completions and man page, closed pipes.

// Test helpers outside #[test] functions may fail loudly too.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::panic,
    clippy::indexing_slicing
)]

mod common;

use std::io::Write;
use std::process::Stdio;

use common::{awrflash, code, run, stderr, stdout};

#[test]
fn help_lists_the_commands_options_examples_and_exit_codes() {
    let o = run(&["--help"]);
    assert_eq!(code(&o), 0);
    insta::assert_snapshot!("help", stdout(&o));
}

#[test]
fn analyze_help_explains_grouping_outputs_and_bad_inputs() {
    let o = run(&["analyze", "--help"]);
    assert_eq!(code(&o), 0);
    insta::assert_snapshot!("analyze_help", stdout(&o));
}

#[test]
fn version_prints_the_package_version() {
    let o = run(&["--version"]);
    assert_eq!(code(&o), 0);
    assert_eq!(
        stdout(&o).trim(),
        format!("awrflash {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn usage_errors_exit_2() {
    assert_eq!(code(&run(&["frobnicate"])), 2);
    assert_eq!(code(&run(&["analyze"])), 2);
    assert_eq!(code(&run(&["analyze", "x.html", "--format", "pdf"])), 2);
    assert_eq!(code(&run(&["analyze", "x.html", "--fail-on", "major"])), 2);
}

#[test]
fn a_run_with_no_usable_input_exits_2_and_names_each_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let garbage = dir.path().join("garbage.bin");
    std::fs::write(&garbage, [0u8, 1, 2, 3, 0, 0, 0, 0, 0, 0, 7, 0, 0, 0, 9, 9]).unwrap();
    let empty = dir.path().join("empty.html");
    std::fs::write(&empty, "").unwrap();
    let o = run(&[
        "analyze",
        garbage.to_str().unwrap(),
        empty.to_str().unwrap(),
        "--fail-on",
        "info",
    ]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    for bad in [&garbage, &empty] {
        assert!(
            err.contains(&format!("warning: {}:", bad.display())),
            "{err}"
        );
    }
    assert!(err.contains("2 inputs: 0 ok, 2 failed"), "{err}");
    assert!(err.contains("error: no usable input"), "{err}");
    assert!(stdout(&o).is_empty());
}

#[test]
fn quiet_hides_the_summary_but_not_the_bad_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let o = run(&["-q", "extract", empty.to_str().unwrap(), "--out", "unused"]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(err.contains("empty.txt"), "{err}");
    assert!(!err.contains("inputs:"), "{err}");
}

#[test]
fn completions_are_generated_for_each_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let o = run(&["completions", shell]);
        assert_eq!(code(&o), 0, "{shell}");
        let s = stdout(&o);
        for word in ["analyze", "extract", "fail-on", "channel-mbps"] {
            assert!(s.contains(word), "{shell} completion lacks {word}");
        }
    }
}

#[test]
fn the_man_page_is_roff_with_every_command() {
    let o = run(&["man"]);
    assert_eq!(code(&o), 0);
    let s = stdout(&o);
    assert!(
        s.starts_with(".ie") || s.contains(".TH awrflash"),
        "{}",
        &s[..200.min(s.len())]
    );
    for word in ["analyze", "extract", "completions", "fail\\-on"] {
        assert!(s.contains(word), "man page lacks {word}");
    }
}

#[test]
fn rules_and_devices_print_json_lists() {
    for cmd in ["rules", "devices"] {
        let o = run(&[cmd, "--format", "json"]);
        assert_eq!(code(&o), 0, "{cmd}: {}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        assert!(v.is_array(), "{cmd}");
    }
}

#[test]
fn the_device_template_loads_back_with_devices_and_a_guessed_file_is_told_the_shape() {
    let o = run(&["devices", "--template"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("mine.toml");
    std::fs::write(&path, stdout(&o)).unwrap();
    let o = run(&["devices", "--devices", path.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(stdout(&o).contains("my-array (flash;"), "{}", stdout(&o));
    // A guessed single-bracket file: the error says what shape is expected.
    std::fs::write(&path, "[device]\nname = \"x\"\n").unwrap();
    let o = run(&["devices", "--devices", path.to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    let err = stderr(&o);
    assert!(
        err.contains("[[device]]") && err.contains("--template"),
        "{err}"
    );
}

#[test]
fn an_unknown_rule_id_exits_2() {
    let o = run(&["rules", "NOPE999"]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("no rule NOPE999"));
}

#[test]
fn every_rule_in_the_catalogue_prints_its_doc() {
    let o = run(&["rules", "--format", "json"]);
    let rules: Vec<serde_json::Value> = serde_json::from_str(&stdout(&o)).unwrap();
    for r in rules {
        let id = r["id"].as_str().unwrap();
        let doc = run(&["rules", id]);
        assert_eq!(code(&doc), 0, "{id}");
        assert!(stdout(&doc).starts_with(id), "{id}");
    }
}

/// Output into a pipe whose reader is gone ends quietly with status 0.
fn assert_quiet_on_closed_pipe(args: &[&str]) {
    let mut child = awrflash()
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let o = child.wait_with_output().unwrap();
    let err = stderr(&o);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(
        !err.to_lowercase().contains("broken pipe"),
        "{args:?}: {err}"
    );
    assert_eq!(code(&o), 0, "{args:?}: {err}");
}

#[test]
fn a_closed_pipe_ends_quietly() {
    assert_quiet_on_closed_pipe(&["man"]);
    assert_quiet_on_closed_pipe(&["completions", "zsh"]);
    assert_quiet_on_closed_pipe(&["--help"]);
    let sample = common::root().join("fixtures/sample/awr_19c_sample.html");
    assert_quiet_on_closed_pipe(&["-q", "analyze", sample.to_str().unwrap()]);
    assert_quiet_on_closed_pipe(&[
        "-q",
        "analyze",
        "--format",
        "json",
        sample.to_str().unwrap(),
    ]);
}

#[test]
fn a_closed_pipe_during_a_large_parse_ends_quietly() {
    let Some(corpus) = awrflash_testkit::corpus("") else {
        return;
    };
    // Several MB of JSON Lines: far more than a pipe buffer holds.
    let dir = corpus.join("awr-html");
    let files: Vec<String> = awrflash_testkit::files_below(&dir)
        .into_iter()
        .map(|f| f.display().to_string())
        .filter(|f| awrflash_parse::parse_bytes(f, &std::fs::read(f).unwrap()).is_ok())
        .take(4)
        .collect();
    if files.is_empty() {
        eprintln!("skipping: no corpus AWR HTML report parses yet");
        return;
    }
    let mut args = vec!["-q", "parse"];
    args.extend(files.iter().map(String::as_str));
    assert_quiet_on_closed_pipe(&args);
}

#[test]
fn a_glob_is_expanded_by_awrflash_itself() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["a.lst", "b.lst", "c.txt"] {
        let mut f = std::fs::File::create(dir.path().join(name)).unwrap();
        writeln!(f, "not a report").unwrap();
    }
    let pattern = dir.path().join("*.lst");
    let o = run(&["analyze", pattern.to_str().unwrap()]);
    let err = stderr(&o);
    assert!(err.contains("2 inputs: 0 ok, 2 failed"), "{err}");
    assert!(err.contains("a.lst") && err.contains("b.lst") && !err.contains("c.txt"));
}

#[test]
fn roles_group_the_iostat_devices_of_an_analysis() {
    let root = common::root();
    let sample = root.join("fixtures/sample/awr_19c_sample.html");
    // The capture of dbhost01, moved to the hour of the sample report
    // (14-Mar-25 09:00 to 10:00): a capture of another day is not attached.
    let text = std::fs::read_to_string(root.join("fixtures/iostat/sysstat12_pretty_ampm.txt"))
        .unwrap()
        .replace("11/23/2026", "03/14/2025")
        .replace("11:59:58 AM", "09:59:58 AM")
        .replace("12:00:", "10:00:")
        .replace(" PM", " AM");
    let dir = tempfile::tempdir().unwrap();
    let capture = dir.path().join("iostat_dbhost01.txt");
    std::fs::write(&capture, text).unwrap();
    let roles = root.join("fixtures/roles/dbhost01.toml");
    let args = [
        "analyze",
        sample.to_str().unwrap(),
        capture.to_str().unwrap(),
        "--roles",
        roles.to_str().unwrap(),
        "--format",
        "json",
        "-q",
    ];
    let out = common::run(&args);
    assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&common::stdout(&out)).unwrap();
    let devices = json["exhibits"]["devices"]
        .as_array()
        .expect("device summaries");
    let role_of = |dev: &str| {
        devices
            .iter()
            .find(|d| d["device"] == dev)
            .map(|d| d["role"].clone())
    };
    assert_eq!(
        role_of("sdb"),
        Some(serde_json::json!("redo")),
        "{devices:?}"
    );
    assert_eq!(role_of("sdc"), Some(serde_json::json!("+DATA")));
    assert_eq!(role_of("sda"), Some(serde_json::Value::Null));

    // A mapping that cannot be read is an input error naming the file.
    let bad = [&args[..3], &["--roles", "/nonexistent/roles.toml"]].concat();
    let out = common::run(&bad);
    assert_eq!(common::code(&out), 2);
    assert!(
        common::stderr(&out).contains("roles.toml"),
        "{}",
        common::stderr(&out)
    );
}

#[test]
fn a_capture_of_another_day_is_not_used_and_says_why() {
    let root = common::root();
    let sample = root.join("fixtures/sample/awr_19c_sample.html");
    let capture = root.join("fixtures/iostat/sysstat12_pretty_ampm.txt");
    let out = common::run(&[
        "analyze",
        sample.to_str().unwrap(),
        capture.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
    let why = "same host dbhost01, but its window 2026-11-23 11:59:58 to 2026-11-23 12:00:13 \
               does not overlap the report window 2025-03-14 09:00:12 to 2025-03-14 10:00:15";
    let err = common::stderr(&out);
    assert!(
        err.contains(&format!("sysstat12_pretty_ampm.txt: not used ({why})")),
        "{err}"
    );
    let json: serde_json::Value = serde_json::from_str(&common::stdout(&out)).unwrap();
    assert_eq!(json["attachments"][0]["attached"], false);
    assert_eq!(json["attachments"][0]["reason"], why);
    assert_eq!(
        json["exhibits"]["devices"].as_array().map(Vec::len),
        Some(0)
    );
}

#[test]
fn a_report_cut_short_says_so_on_stderr_and_beside_the_verdict_in_every_format() {
    let root = common::root();
    let full = std::fs::read(root.join("fixtures/sample/awr_19c_sample.html")).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("cut.html");
    std::fs::write(&input, &full[..full.len() / 3]).unwrap();
    let shown = input.display().to_string();
    let said = "the report is cut short";
    // Default verbosity: the warning that changes the meaning is printed.
    let o = run(&["analyze", &shown, "--format", "json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.lines()
            .any(|l| l.starts_with(&format!("awrflash: warning: {shown}:")) && l.contains(said)),
        "{err}"
    );
    let json: serde_json::Value = serde_json::from_str(stdout(&o).lines().next().unwrap()).unwrap();
    let caveats = json["caveats"].as_array().unwrap();
    assert_eq!(caveats.len(), 1, "{caveats:?}");
    assert!(caveats[0]["message"].as_str().unwrap().contains(said));
    // Beside the verdict, before the expected gain, in the human formats.
    for (format, gain) in [
        ("html", "Expected gain"),
        ("md", "Expected gain"),
        ("text", "Expected gain"),
    ] {
        let o = run(&["analyze", &shown, "--format", format, "--color", "never"]);
        let out = stdout(&o);
        let at = out
            .find(said)
            .unwrap_or_else(|| panic!("{format}: no caveat\n{out}"));
        let verdict = out.find("Verdict").or_else(|| out.find("VERDICT")).unwrap();
        assert!(
            verdict < at && at < out.find(gain).unwrap(),
            "{format}:\n{out}"
        );
    }
    // The whole report has no such caveat.
    let o = run(&[
        "analyze",
        root.join("fixtures/sample/awr_19c_sample.html")
            .to_str()
            .unwrap(),
        "--format",
        "json",
    ]);
    assert!(!stdout(&o).contains("\"caveats\""), "{}", stdout(&o));
    assert!(!stderr(&o).contains(said), "{}", stderr(&o));
}

#[test]
fn a_report_with_no_identity_is_named_by_its_file_and_says_so() {
    let root = common::root();
    // The sample with its DB Name and DB Id cells blank, as a service that
    // hides system data prints them.
    let text = std::fs::read_to_string(root.join("fixtures/sample/awr_19c_sample.html"))
        .unwrap()
        .replace(
            "<td scope=\"row\" class='awrc'>SAMPLEDB</td><td align=\"right\" class='awrc'>1234567890</td>",
            "<td scope=\"row\" class='awrc'></td><td align=\"right\" class='awrc'></td>",
        );
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("hidden.html");
    std::fs::write(&input, text).unwrap();
    let out_dir = dir.path().join("out/");
    let o = run(&[
        "analyze",
        input.to_str().unwrap(),
        "-o",
        out_dir.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let err = stderr(&o);
    let shown = input.display().to_string();
    assert!(
        err.contains(&format!(
            "{shown}: the report shows no DB name or DBID (identity not shown by the service)"
        )),
        "{err}"
    );
    assert!(
        err.contains(&format!(
            "identity not shown by the service ({shown}, snapshots 4410-4411): 1 report"
        )),
        "{err}"
    );
    assert!(!err.contains("unknown"), "{err}");
    assert!(
        out_dir
            .join("unnamed_hidden.html__snapshots_4410-4411.html")
            .is_file()
    );
}

#[test]
fn a_begin_and_an_end_sysstat_file_are_judged_by_their_deltas() {
    let root = common::root();
    let file = |p: &str| root.join(p).to_str().unwrap().to_string();
    let hits = |args: &[String]| {
        let out = common::awrflash().args(args).output().unwrap();
        assert_eq!(common::code(&out), 0, "{}", common::stderr(&out));
        let json: serde_json::Value = serde_json::from_str(&common::stdout(&out)).unwrap();
        json["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["id"] == "AF071")
            .flat_map(|f| f["evidence"].as_array().unwrap().clone())
            .find(|e| e["label"] == "physical read flash cache hits")
            .map(|e| e["value"].as_f64().unwrap())
    };
    let mut args: Vec<String> = ["analyze", "--format", "json", "-q"]
        .map(String::from)
        .to_vec();
    args.push(file("fixtures/sample/awr_19c_sample.html"));
    args.push(file("fixtures/sysstat/begin.csv"));
    args.push(file("fixtures/sysstat/end.csv"));
    // end.csv minus begin.csv: 7,980,112 - 6,021,774 hits.
    assert_eq!(hits(&args), Some(1_958_338.0));
}
