//! Broken text reports: cut before the header (an error naming the file,
//! line and section), cut in the middle of a table (parsed up to the cut,
//! with a warning), and `######` cells (null with a warning, never 0).

#![allow(clippy::unwrap_used, clippy::panic, clippy::indexing_slicing)]

use awrflash_model::Document;
use awrflash_parse::{ParseError, parse_bytes};

fn fixture(name: &str) -> String {
    let p = awrflash_testkit::fixtures(name);
    std::fs::read_to_string(p).unwrap()
}

#[test]
fn awr_text_cut_before_its_header_is_an_error_naming_the_file() {
    let text = "\nWORKLOAD REPOSITORY report for\n\nDB Name         DB Id    Instance\n";
    match parse_bytes("awrrpt_cut.txt", text.as_bytes()) {
        Err(ParseError::Malformed { path, section, .. }) => {
            assert_eq!(path, "awrrpt_cut.txt");
            assert_eq!(section, "header");
        }
        other => panic!("expected a header error, got {other:?}"),
    }
}

#[test]
fn statspack_cut_before_its_header_is_an_error() {
    let text = "STATSPACK report for\n\n";
    assert!(matches!(
        parse_bytes("sp_cut.lst", text.as_bytes()),
        Err(ParseError::Malformed { .. })
    ));
}

#[test]
fn awr_text_cut_in_the_middle_of_a_table_keeps_the_rows_before_the_cut() {
    let full = fixture("awr-text/10.2.0.4_awrrpt_1_101_102.txt");
    let cut = full
        .find("db file scattered read               90,000     .0")
        .unwrap();
    let text = &full[..cut];
    let Ok(Document::Report(r)) = parse_bytes("cut.txt", text.as_bytes()) else {
        panic!("a report cut mid-table still parses");
    };
    assert_eq!(
        r.wait_events.foreground.len(),
        1,
        "rows before the cut are kept"
    );
    assert!(r.file_io.is_empty(), "sections after the cut are absent");
    assert!(
        r.warnings
            .iter()
            .any(|w| w.message.contains("End of Report")),
        "the cut is stated: {:?}",
        r.warnings
    );
}

#[test]
fn overflowed_cells_are_null_with_a_warning() {
    let text = fixture("awr-text/11.1.0.7_awrrpt_1_5400_5401.txt");
    let Ok(Document::Report(r)) = parse_bytes("x.txt", text.as_bytes()) else {
        panic!()
    };
    let w = r
        .warnings
        .iter()
        .find(|w| w.message.contains("######"))
        .unwrap();
    assert_eq!(w.section, "Wait Events");
    // The warning points at the line that holds the cell.
    let line = text.lines().nth(w.line as usize - 1).unwrap();
    assert!(line.contains("######"), "{line}");
}

#[test]
fn statspack_9i_invalid_results_are_a_warning_not_an_error() {
    let text = "\n\nERROR: Snapshots chosen span an instance shutdown: RESULTS ARE INVALID\nSTATSPACK report for\n\nDB Name         DB Id    Instance     Inst Num Release     Cluster Host\n------------ ----------- ------------ -------- ----------- ------- ------------\nORA9          1234567890 ora9                1 9.2.0.1.0   NO      host9\n\nEnd of Report\n";
    let Ok(Document::Report(r)) = parse_bytes("sp9.lst", text.as_bytes()) else {
        panic!()
    };
    assert_eq!(r.header.release.as_deref(), Some("9.2.0.1.0"));
    assert_eq!(r.header.host.as_deref(), Some("host9"));
    assert!(
        r.warnings
            .iter()
            .any(|w| w.line == 3 && w.message.contains("RESULTS ARE INVALID"))
    );
}

#[test]
fn text_reports_cut_anywhere_never_panic() {
    // Every fixture cut at many points (on char boundaries): each cut parses
    // or is refused with an error, and nothing panics.
    let mut cuts = 0;
    for sub in ["awr-text", "statspack"] {
        for f in awrflash_testkit::files_in(&awrflash_testkit::fixtures(sub)) {
            let text = std::fs::read_to_string(&f).unwrap();
            let mut at = 0;
            while at < text.len() {
                if text.is_char_boundary(at) {
                    let _ = parse_bytes("cut.txt", &text.as_bytes()[..at]);
                    cuts += 1;
                }
                at += 211;
            }
        }
    }
    assert!(cuts > 200, "{cuts} cuts tried");
}

#[test]
fn pdb_text_report_names_its_container() {
    let text = "\nWORKLOAD REPOSITORY PDB report (PDB snapshots)\n\nDB Name         DB Id    Unique Name DB Role          Edition Release    RAC CDB\n------------ ----------- ----------- ---------------- ------- ---------- --- ---\nCDB1           123456789 CDB1        PRIMARY          EE      19.0.0.0.0 NO  YES\n\nContainer DB Id  Container Name       Open Time\n--------------- --------------- -----------------\n     987654321  SALESPDB        01-Mar-24 05:02\n\nEnd of Report\n";
    let Ok(Document::Report(r)) = parse_bytes("pdb.txt", text.as_bytes()) else {
        panic!()
    };
    assert_eq!(r.source.kind, Some(awrflash_model::ReportKind::Pdb));
    assert_eq!(r.header.container.as_deref(), Some("SALESPDB"));
    assert_eq!(r.header.cdb, Some(true));
}
