//! awrflash-bench: helpers for the throughput benchmark.
//!
//! Stage: none (measurement only; `cargo bench -p awrflash-bench` runs
//! `benches/throughput.rs`). Input: the shared corpus beside the workspace.
//! Output: timings printed by the bench. Here: finding the corpus, the raw
//! tokenizer scan the parser is compared with, making batch copies of a
//! report with distinct snapshot ids, and reading peak RSS.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use quick_xml::events::Event;

/// The workspace root: the nearest ancestor of this crate with a Cargo.lock.
pub fn workspace_root() -> PathBuf {
    let mut dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    while !dir.join("Cargo.lock").exists() {
        if !dir.pop() {
            break;
        }
    }
    dir
}

/// `../shared/corpus` beside the workspace, if present.
pub fn corpus_dir() -> Option<PathBuf> {
    let dir = workspace_root().join("../shared/corpus");
    dir.is_dir().then_some(dir)
}

/// Every file under `dir` except the manifest, sorted.
pub fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.file_name().is_some_and(|n| n != "MANIFEST.tsv") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// What a raw tokenizer pass saw.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Scan {
    pub events: u64,
    /// Bytes of text content seen (keeps the pass from being optimised out).
    pub text_bytes: u64,
    /// Where the tokenizer gave up, if it did before the end.
    pub stopped_at: Option<u64>,
}

/// The practical limit for the HTML parser: quick-xml's event loop over
/// the decoded text in the same lenient configuration, doing nothing with
/// the events.
pub fn raw_scan(text: &str) -> Scan {
    let mut reader = quick_xml::Reader::from_str(text);
    let config = reader.config_mut();
    config.check_end_names = false;
    config.check_comments = false;
    config.allow_unmatched_ends = true;
    config.allow_dangling_amp = true;
    let mut scan = Scan::default();
    loop {
        match reader.read_event() {
            Ok(Event::Eof) => break,
            Ok(Event::Text(t)) => {
                scan.events += 1;
                scan.text_bytes += t.len() as u64;
            }
            Ok(_) => scan.events += 1,
            Err(_) => {
                scan.stopped_at = Some(reader.buffer_position());
                break;
            }
        }
    }
    scan
}

/// Replaces the snapshot ids after the `Begin Snap:` and `End Snap:` labels
/// (instance AWR HTML/text and Statspack headers) so that copies of one
/// report read as distinct intervals. `None` when the labels are missing
/// (RAC global reports, 9i Statspack).
pub fn with_snap_ids(bytes: &[u8], begin: u64, end: u64) -> Option<Vec<u8>> {
    let (b_at, b_len) = number_after(bytes, b"Begin Snap:", 0)?;
    let (e_at, e_len) = number_after(bytes, b"End Snap:", b_at + b_len)?;
    let mut out = Vec::with_capacity(bytes.len() + 16);
    out.extend_from_slice(bytes.get(..b_at)?);
    out.extend_from_slice(begin.to_string().as_bytes());
    out.extend_from_slice(bytes.get(b_at + b_len..e_at)?);
    out.extend_from_slice(end.to_string().as_bytes());
    out.extend_from_slice(bytes.get(e_at + e_len..)?);
    Some(out)
}

/// The first run of digits after `label` (from `from`), outside any tag.
fn number_after(bytes: &[u8], label: &[u8], from: usize) -> Option<(usize, usize)> {
    let rest = bytes.get(from..)?;
    let at = rest.windows(label.len()).position(|w| w == label)? + from + label.len();
    let mut in_tag = false;
    let tail = bytes.get(at..)?;
    for (i, &b) in tail.iter().enumerate().take(512) {
        match b {
            b'<' => in_tag = true,
            b'>' => in_tag = false,
            b'0'..=b'9' if !in_tag => {
                let len = tail
                    .get(i..)?
                    .iter()
                    .take_while(|b| b.is_ascii_digit())
                    .count();
                return Some((at + i, len));
            }
            _ => {}
        }
    }
    None
}

/// Runs `f` until at least `min` has passed (and at least `min_runs`
/// times) and returns the fastest run: the figure least disturbed by other
/// work on a shared machine.
pub fn best_of(min: Duration, min_runs: u32, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    let mut best = Duration::MAX;
    let mut runs = 0;
    while runs < min_runs || start.elapsed() < min {
        let t = Instant::now();
        f();
        best = best.min(t.elapsed());
        runs += 1;
    }
    best
}

/// MB/s (10^6 bytes per second).
pub fn mb_per_s(bytes: u64, d: Duration) -> f64 {
    let secs = d.as_secs_f64();
    if secs <= 0.0 {
        return 0.0;
    }
    // Corpus sizes are far below 2^53 bytes.
    #[allow(clippy::cast_precision_loss)]
    let mb = bytes as f64 / 1e6;
    mb / secs
}

/// Peak resident set size of this process in KiB (`VmHWM`), Linux only.
pub fn peak_rss_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// The CPU model name, for the report's machine line.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snap_ids_are_replaced_in_html_headers() {
        let html =
            b"<td>Begin Snap:</td><td align=\"right\" class='awrnc'>5</td><td>20-Oct-24</td>\
<td>End Snap:</td><td class='awrc'>7</td>";
        let out = with_snap_ids(html, 1001, 1002).unwrap_or_default();
        let out = String::from_utf8_lossy(&out);
        assert!(out.contains("'awrnc'>1001</td><td>20-Oct-24"), "{out}");
        assert!(out.contains("'awrc'>1002</td>"), "{out}");
    }

    #[test]
    fn snap_ids_are_replaced_in_text_headers() {
        let text = b"Begin Snap:      2668 04-Feb-23 19:00:39\n  End Snap:      2669 04-Feb-23\n";
        let out = with_snap_ids(text, 7, 8).unwrap_or_default();
        assert_eq!(
            String::from_utf8_lossy(&out),
            "Begin Snap:      7 04-Feb-23 19:00:39\n  End Snap:      8 04-Feb-23\n"
        );
    }

    #[test]
    fn reports_without_snap_labels_are_left_alone() {
        assert_eq!(with_snap_ids(b"Begin snapshot 1", 1, 2), None);
    }

    #[test]
    fn raw_scan_counts_events_of_unbalanced_html() {
        let scan = raw_scan("<html><table><tr><td>1<td>2</tr></table></body></html>");
        assert_eq!(scan.stopped_at, None);
        assert_eq!(scan.text_bytes, 2);
        assert!(scan.events >= 10, "{scan:?}");
    }
}
