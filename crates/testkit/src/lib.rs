//! awrflash-testkit: where the tests and benches find their inputs.
//!
//! Stage: none (tests and benches only; a dev-dependency of the crates that
//! read fixtures or the corpus, and a dependency of the measurement-only
//! bench crate). Input: the workspace layout. Output: paths. Here: the
//! workspace root ([`workspace_root`]), a folder of `fixtures/`
//! ([`fixtures`]), the shared corpus beside the workspace or a printed
//! reason to skip ([`corpus`]), and every file below a folder in one sorted
//! order ([`files_below`], [`files_in`]).

use std::path::{Path, PathBuf};

/// The workspace root: the nearest ancestor of this crate holding the
/// workspace's `Cargo.lock` (two levels up when none is found).
pub fn workspace_root() -> PathBuf {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    here.ancestors()
        .find(|d| d.join("Cargo.lock").is_file())
        .map_or_else(|| here.join("../.."), Path::to_path_buf)
}

/// `fixtures/<sub>` of the workspace (`""` for `fixtures/` itself).
pub fn fixtures(sub: &str) -> PathBuf {
    below(workspace_root().join("fixtures"), sub)
}

/// `../shared/corpus` beside the workspace, without checking that it exists.
pub fn corpus_root() -> PathBuf {
    workspace_root().join("../shared/corpus")
}

/// `../shared/corpus/<sub>` beside the workspace (`""` for the corpus
/// itself), or `None` after printing one line naming the missing folder:
/// the caller skips (the corpus sits beside the checkout, never in it).
pub fn corpus(sub: &str) -> Option<PathBuf> {
    let dir = below(corpus_root(), sub);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "skipped: {} is absent (the corpus sits beside the workspace)",
            dir.display()
        );
        None
    }
}

/// Every file below `dir`, in every subfolder, sorted by path; the corpus
/// `MANIFEST.tsv` is left out. Unreadable folders give nothing.
pub fn files_below(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for p in entries.flatten().map(|e| e.path()) {
            if p.is_dir() {
                stack.push(p);
            } else if !is_manifest(&p) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The files directly in `dir` (no subfolders), sorted by path; the corpus
/// `MANIFEST.tsv` is left out. An unreadable folder gives nothing.
pub fn files_in(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && !is_manifest(p))
        .collect();
    out.sort();
    out
}

fn below(dir: PathBuf, sub: &str) -> PathBuf {
    if sub.is_empty() { dir } else { dir.join(sub) }
}

fn is_manifest(p: &Path) -> bool {
    p.file_name().is_some_and(|n| n == "MANIFEST.tsv")
}

/// Every text made of up to `most` pieces of `alphabet` (the empty text
/// first, then the texts of one piece, of two, ...): inputs for tests that
/// hold a fast reader to a plain one in every arrangement of a few bytes.
pub fn every_text(alphabet: &[&str], most: usize) -> Vec<String> {
    let mut texts = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..most {
        let next: Vec<String> = last
            .iter()
            .flat_map(|t| alphabet.iter().map(move |c| format!("{t}{c}")))
            .collect();
        texts.extend(next.iter().cloned());
        last = next;
    }
    texts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_workspace_root_holds_the_lock_and_the_fixtures() {
        let root = workspace_root();
        assert!(root.join("Cargo.lock").is_file(), "{}", root.display());
        assert!(fixtures("").is_dir());
        assert_eq!(fixtures(""), root.join("fixtures"));
    }

    #[test]
    fn files_below_are_recursive_sorted_and_leave_the_manifest_out() {
        let dir = std::env::temp_dir().join(format!("awrflash-testkit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("b/c")).unwrap();
        for f in ["b/c/z.txt", "b/a.txt", "MANIFEST.tsv", "a.txt"] {
            std::fs::write(dir.join(f), f).unwrap();
        }
        let rel = |v: Vec<PathBuf>| -> Vec<String> {
            v.iter()
                .map(|p| p.strip_prefix(&dir).unwrap().display().to_string())
                .collect()
        };
        assert_eq!(rel(files_below(&dir)), ["a.txt", "b/a.txt", "b/c/z.txt"]);
        assert_eq!(rel(files_in(&dir)), ["a.txt"]);
        assert!(files_below(&dir.join("missing")).is_empty());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
