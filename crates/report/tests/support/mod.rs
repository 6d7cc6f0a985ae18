//! Shared by the report tests: the workspace root and the analysis fixtures.
#![allow(dead_code, clippy::expect_used, clippy::panic)]

use std::path::PathBuf;

use awrflash_model::Analysis;

/// The workspace root (two levels above this crate).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("workspace root")
}

/// `fixtures/analysis/<name>.json`, parsed.
pub fn fixture(name: &str) -> Analysis {
    let path = workspace_root().join(format!("fixtures/analysis/{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fixtures every format is snapshotted on.
pub const FIXTURES: [&str; 2] = ["rich", "sparse"];

/// Where the browser test leaves its pages and screenshots for review.
pub fn browser_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"))
        .join("browser")
}
