//! What the run crate's tests share: where the corpus is.

use std::path::PathBuf;

/// `../shared/corpus` beside the workspace, or `None` with the reason
/// printed (the caller skips).
pub fn corpus() -> Option<PathBuf> {
    let mut root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    while !root.join("Cargo.lock").exists() {
        assert!(root.pop(), "workspace root not found");
    }
    let dir = root.join("../shared/corpus");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipping: the corpus is not at {} (it sits beside the checkout in CI)",
            dir.display()
        );
        None
    }
}
