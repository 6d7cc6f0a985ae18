//! Expands the user's inputs into named byte buffers: files, directories
//! (recursive, sorted), `.gz` files. Formats are decided later by content.

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

/// One input to parse: a display name and where to read it from.
#[derive(Debug, Clone)]
pub struct InputRef {
    pub name: String,
    pub path: PathBuf,
}

/// Expands directories recursively (sorted by path, hidden files skipped).
/// A path that does not exist is an error for that path, reported by the caller.
pub fn expand(paths: &[PathBuf]) -> Vec<Result<InputRef, (String, String)>> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut files = Vec::new();
            walk(p, &mut files);
            files.sort();
            out.extend(files.into_iter().map(|f| {
                Ok(InputRef {
                    name: f.display().to_string(),
                    path: f,
                })
            }));
        } else if p.exists() {
            out.push(Ok(InputRef {
                name: p.display().to_string(),
                path: p.clone(),
            }));
        } else {
            out.push(Err((
                p.display().to_string(),
                "no such file or directory".to_string(),
            )));
        }
    }
    out
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        let hidden = path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.'));
        if hidden {
            continue;
        }
        if path.is_dir() {
            walk(&path, files);
        } else {
            files.push(path);
        }
    }
}

/// Reads a file, decompressing gzip by its magic bytes (not its name).
pub fn read(input: &InputRef) -> Result<Vec<u8>> {
    let bytes = fs::read(&input.path).with_context(|| format!("{}: cannot read", input.name))?;
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        flate2::read::MultiGzDecoder::new(bytes.as_slice())
            .read_to_end(&mut out)
            .with_context(|| format!("{}: corrupt gzip data", input.name))?;
        return Ok(out);
    }
    Ok(bytes)
}
