//! Test support: open a rendered page in headless Chromium.
//!
//! Used by this crate's browser test and reusable by the workspace's
//! end-to-end tests (`awrflash_report::testing::open_in_chromium`). Not part
//! of the renderers' API.

use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where Debian installs Chromium (`.ci/run` installs it when missing).
pub const CHROMIUM: &str = "/usr/bin/chromium";

/// What one headless run produced.
#[derive(Debug)]
pub struct BrowserRun {
    /// The page file that was opened.
    pub page: PathBuf,
    /// The DOM after load (`--dump-dom`).
    pub dom: String,
    /// The screenshot (`--screenshot`).
    pub screenshot: PathBuf,
    pub screenshot_bytes: u64,
    /// PNG width and height from the IHDR chunk.
    pub screenshot_size: (u32, u32),
    /// Console and browser log lines of both runs.
    pub log: String,
    /// URLs with a network scheme (`http`, `https`, `ws`, `ftp`) that the
    /// page requested, from Chromium's net log (Chromium's own requests left out).
    pub network_requests: Vec<String>,
}

/// The `<section id>`s every report page has (absent data says so inside).
pub const REPORT_SECTIONS: [&str; 15] = [
    "verdict",
    "database",
    "options",
    "breakdown",
    "findings",
    "segments",
    "flash-cache",
    "redo",
    "histograms",
    "tablespaces",
    "devices",
    "series",
    "projections",
    "rules",
    "sources",
];

impl BrowserRun {
    /// Everything wrong with a rendered report page, empty when it is fine:
    /// script errors or blocked loads in the log, network requests, a
    /// missing section of [`REPORT_SECTIONS`], a blank screenshot.
    ///
    /// ```no_run
    /// let html = awrflash_report::html(&awrflash_model::Analysis::default());
    /// let run = awrflash_report::testing::open_in_chromium(
    ///     &html, std::path::Path::new("target/browser"), "corpus-19c", 1280, 4000,
    /// ).unwrap();
    /// assert!(run.report_problems().is_empty(), "{:?}", run.report_problems());
    /// ```
    pub fn report_problems(&self) -> Vec<String> {
        let mut p: Vec<String> = self
            .page_errors()
            .iter()
            .map(|l| format!("page error: {l}"))
            .collect();
        p.extend(
            self.network_requests
                .iter()
                .map(|u| format!("network request: {u}")),
        );
        for id in REPORT_SECTIONS {
            if !self.dom.contains(&format!("<section id=\"{id}\"")) {
                p.push(format!("section #{id} missing from the DOM"));
            }
        }
        // A blank page compresses to a few kB whatever its size.
        if self.screenshot_bytes < 20_000 {
            p.push(format!(
                "screenshot {} is only {} bytes: nothing rendered",
                self.screenshot.display(),
                self.screenshot_bytes
            ));
        }
        p
    }

    /// Log lines that mean the page misbehaved: a script error or a blocked load.
    pub fn page_errors(&self) -> Vec<&str> {
        self.log
            .lines()
            .filter(|l| {
                l.contains("Uncaught")
                    || l.contains("Refused to")
                    || l.contains("Content Security Policy")
                    || (l.contains("CONSOLE") && l.contains("Error"))
            })
            .collect()
    }
}

/// Writes `html` to `<out_dir>/<name>.html`, opens it in headless Chromium,
/// dumps the DOM and takes a `width` x `height` screenshot to `<out_dir>/<name>.png`.
///
/// Errors (as text, for a test failure message) when Chromium is missing or
/// fails; a missing Chromium says how to get it.
pub fn open_in_chromium(
    html: &str,
    out_dir: &Path,
    name: &str,
    width: u32,
    height: u32,
) -> Result<BrowserRun, String> {
    let chromium = std::env::var_os("AWRFLASH_CHROMIUM")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(CHROMIUM));
    if !chromium.exists() {
        return Err(format!(
            "{} not found: the browser test needs Debian's `chromium` package \
             (`.ci/run` installs it; by hand: `apt-get install -y chromium`)",
            chromium.display()
        ));
    }
    std::fs::create_dir_all(out_dir).map_err(|e| format!("{}: {e}", out_dir.display()))?;
    let page = out_dir.join(format!("{name}.html"));
    std::fs::write(&page, html).map_err(|e| format!("{}: {e}", page.display()))?;
    let page = page
        .canonicalize()
        .map_err(|e| format!("{}: {e}", page.display()))?;
    let screenshot = out_dir.join(format!("{name}.png"));
    let _ = std::fs::remove_file(&screenshot);
    let netlog = out_dir.join(format!("{name}.netlog.json"));
    let url = format!("file://{}", page.display());

    let profile =
        std::env::temp_dir().join(format!("awrflash-chromium-{}-{name}", std::process::id()));
    let common = |extra: &[String]| -> Vec<String> {
        let mut a: Vec<String> = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "--hide-scrollbars",
            "--enable-logging=stderr",
            "--v=0",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        a.push(format!("--user-data-dir={}", profile.display()));
        a.extend(extra.iter().cloned());
        a.push(url.clone());
        a
    };

    let shot = run(
        &chromium,
        &common(&[
            format!("--screenshot={}", screenshot.display()),
            format!("--window-size={width},{height}"),
            format!("--log-net-log={}", netlog.display()),
        ]),
    )?;
    let dump = run(&chromium, &common(&["--dump-dom".to_string()]))?;
    let _ = std::fs::remove_dir_all(&profile);

    let meta = std::fs::metadata(&screenshot).map_err(|e| {
        format!(
            "no screenshot at {}: {e}\nchromium said:\n{}",
            screenshot.display(),
            shot.1
        )
    })?;
    let png = std::fs::read(&screenshot).map_err(|e| format!("{}: {e}", screenshot.display()))?;
    let screenshot_size = png_size(&png).unwrap_or((0, 0));
    let network_requests = std::fs::read_to_string(&netlog)
        .map(|s| network_urls(&s))
        .unwrap_or_default();
    Ok(BrowserRun {
        page,
        dom: dump.0,
        screenshot,
        screenshot_bytes: meta.len(),
        screenshot_size,
        log: format!("{}\n{}", shot.1, dump.1),
        network_requests,
    })
}

/// Runs Chromium with a time limit; returns (stdout, stderr).
fn run(chromium: &Path, args: &[String]) -> Result<(String, String), String> {
    let mut child = Command::new(chromium)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", chromium.display()))?;
    // Read both pipes on threads so a full pipe never blocks Chromium.
    let mut out_pipe = child.stdout.take();
    let mut err_pipe = child.stderr.take();
    let out_t = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = out_pipe.as_mut() {
            let _ = p.read_to_string(&mut s);
        }
        s
    });
    let err_t = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(p) = err_pipe.as_mut() {
            let _ = p.read_to_string(&mut s);
        }
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait() {
            Ok(Some(st)) => break st,
            Ok(None) if start.elapsed() > Duration::from_secs(120) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "{} did not finish within 120 s",
                    chromium.display()
                ));
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(100)),
            Err(e) => return Err(format!("waiting for chromium: {e}")),
        }
    };
    let out = out_t.join().unwrap_or_default();
    let err = err_t.join().unwrap_or_default();
    if !status.success() {
        return Err(format!("chromium exited with {status}:\n{err}"));
    }
    Ok((out, err))
}

/// Width and height of a PNG from its IHDR chunk.
pub fn png_size(png: &[u8]) -> Option<(u32, u32)> {
    if png.get(..8)? != b"\x89PNG\r\n\x1a\n" || png.get(12..16)? != b"IHDR" {
        return None;
    }
    let w = u32::from_be_bytes(png.get(16..20)?.try_into().ok()?);
    let h = u32::from_be_bytes(png.get(20..24)?.try_into().ok()?);
    Some((w, h))
}

/// Network URLs the page itself requested, from a Chromium net log (JSON).
///
/// Chromium makes requests of its own (time sync, account checks) even with
/// background networking off; those carry the initiator `not an origin`.
/// Requests made by a `file://` page carry the initiator `null` and a
/// `file://` network isolation key.
fn network_urls(netlog: &str) -> Vec<String> {
    let Ok(v) = serde_json::from_str::<serde_json::Value>(netlog) else {
        return vec![format!("unreadable net log ({} bytes)", netlog.len())];
    };
    let mut found = Vec::new();
    let events = v.get("events").and_then(|e| e.as_array());
    for e in events.into_iter().flatten() {
        let Some(p) = e.get("params") else { continue };
        let Some(url) = p.get("url").and_then(|u| u.as_str()) else {
            continue;
        };
        let initiator = p.get("initiator").and_then(|u| u.as_str()).unwrap_or("");
        let nik = p
            .get("network_isolation_key")
            .and_then(|u| u.as_str())
            .unwrap_or("");
        let from_page = initiator == "null" || nik.starts_with("file://");
        let network = ["http://", "https://", "ws://", "wss://", "ftp://"]
            .iter()
            .any(|s| url.starts_with(s));
        if from_page && network && !found.iter().any(|f| f == url) {
            found.push(url.to_string());
        }
    }
    found.sort();
    found
}

/// The CSP source that allows one inline script (`'sha256-...'`), for a
/// test that adds a script to a page (a click) and must allow it.
pub fn script_hash(script: &str) -> String {
    crate::html::script_hash(script)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn png_size_reads_the_ihdr_chunk() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&1280u32.to_be_bytes());
        png.extend_from_slice(&4000u32.to_be_bytes());
        assert_eq!(png_size(&png), Some((1280, 4000)));
        assert_eq!(png_size(b"GIF89a"), None);
    }

    #[test]
    fn network_urls_are_collected_from_a_net_log() {
        let log = r#"{"events":[
            {"params":{"url":"https://example.invalid/x.js","initiator":"null"}},
            {"params":{"url":"http://update.invalid/t","initiator":"not an origin"}},
            {"params":{"url":"file:///tmp/r.html","initiator":"null"}}]}"#;
        assert_eq!(network_urls(log), vec!["https://example.invalid/x.js"]);
    }
}
