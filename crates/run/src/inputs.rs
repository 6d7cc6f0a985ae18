//! Expands the user's inputs into named units to parse: files, directories
//! (recursive, sorted), globs (expanded here, so they work where the shell
//! does not expand them), gzip files and zip archives (members read in
//! memory, named `archive.zip!member`). Compression is recognised by its
//! magic bytes, formats later by content; file names decide nothing.

use std::fs::{self, File};
use std::io::{Cursor, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use zip::ZipArchive;

/// Decompressed inputs larger than this are refused (a corrupt or hostile
/// archive must not exhaust memory); the largest real AWR reports are tens of
/// MB. The parsers refuse anything larger anyway, so reading stops there.
const MAX_INPUT_BYTES: u64 = awrflash_parse::limits::DEFAULT_MAX_INPUT_BYTES;

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

type Archive = ZipArchive<Cursor<Arc<[u8]>>>;

/// One thing to parse.
#[derive(Clone)]
pub enum Unit {
    /// A file, named by its path as given. A run holds one unit per input
    /// to the end, so the path is kept once: `path` is set only where the
    /// name cannot stand for it (a path that is not UTF-8, shown lossily).
    File {
        name: Box<str>,
        path: Option<Box<Path>>,
    },
    ZipMember {
        name: String,
        archive: Box<Archive>,
        index: usize,
    },
    /// Bytes already read: standard input (`-`), named [`STDIN_NAME`].
    Memory { name: String, bytes: Arc<[u8]> },
    /// An input that could not even be opened or listed.
    Failed { name: String, reason: String },
}

impl Unit {
    pub fn name(&self) -> &str {
        match self {
            Unit::File { name, .. } => name,
            Unit::ZipMember { name, .. }
            | Unit::Memory { name, .. }
            | Unit::Failed { name, .. } => name,
        }
    }

    /// The unit's bytes, gzip-decompressed when they start with the gzip magic.
    pub fn read(&self) -> Result<Vec<u8>, String> {
        let raw = match self {
            Unit::Failed { reason, .. } => return Err(reason.clone()),
            Unit::File { name, path } => {
                let f =
                    File::open(file_path(name, path)).map_err(|e| format!("cannot read: {e}"))?;
                read_capped(f)?
            }
            Unit::ZipMember { archive, index, .. } => {
                let mut archive = archive.clone();
                let member = archive
                    .by_index(*index)
                    .map_err(|e| format!("cannot read zip member: {e}"))?;
                read_capped(member).map_err(|e| format!("corrupt zip member: {e}"))?
            }
            Unit::Memory { bytes, .. } => bytes.to_vec(),
        };
        if raw.starts_with(&GZIP_MAGIC) {
            return read_capped(flate2::read::MultiGzDecoder::new(raw.as_slice()))
                .map_err(|e| format!("corrupt gzip data: {e}"));
        }
        if is_zip(&raw) {
            return Err(
                "a zip archive inside a zip archive is not read; unpack the outer one".into(),
            );
        }
        Ok(raw)
    }
    /// The first `max` bytes of the unit (gzip-decompressed as [`Unit::read`]
    /// does), and whether they are the whole input. A plain or gzip file is
    /// read no further than its head; zip members and standard input are
    /// in memory already.
    pub fn read_head(&self, max: usize) -> Result<(Vec<u8>, bool), String> {
        let cap = u64::try_from(max).unwrap_or(u64::MAX).saturating_add(1);
        // Sized once, not grown by doubling: one allocation per input
        // instead of five in a pass that reads every input's head.
        let room = max.saturating_add(1).min(1 << 20);
        let mut out = Vec::new();
        match self {
            Unit::File { name, path } => {
                let mut f =
                    File::open(file_path(name, path)).map_err(|e| format!("cannot read: {e}"))?;
                let mut raw = Vec::with_capacity(room);
                (&mut f)
                    .take(cap)
                    .read_to_end(&mut raw)
                    .map_err(|e| format!("cannot read: {e}"))?;
                if raw.starts_with(&GZIP_MAGIC) {
                    out.reserve_exact(room);
                    flate2::read::MultiGzDecoder::new(raw.as_slice().chain(f))
                        .take(cap)
                        .read_to_end(&mut out)
                        .map_err(|e| format!("corrupt gzip data: {e}"))?;
                } else {
                    out = raw;
                }
            }
            _ => out = self.read()?,
        }
        let whole = out.len() <= max;
        out.truncate(max);
        Ok((out, whole))
    }
}

/// The path of a [`Unit::File`].
fn file_path<'a>(name: &'a str, path: &'a Option<Box<Path>>) -> &'a Path {
    path.as_deref().unwrap_or(Path::new(name))
}

fn read_capped(r: impl Read) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    r.take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| e.to_string())?;
    if out.len() as u64 > MAX_INPUT_BYTES {
        return Err(format!(
            "larger than {} MiB uncompressed",
            MAX_INPUT_BYTES >> 20
        ));
    }
    Ok(out)
}

fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

fn has_glob_chars(s: &str) -> bool {
    s.contains(['*', '?', '['])
}

/// Expands the arguments in order: directories sorted by path, glob matches
/// sorted, zip members in archive order.
pub fn expand(args: &[PathBuf]) -> Vec<Unit> {
    expand_with_stdin(args, &mut std::io::stdin().lock())
}

/// How standard input (`-`) is named in messages and reports.
pub const STDIN_NAME: &str = "<stdin>";

/// [`expand`] reading `-` from `stdin`: one input, detected by content like
/// any file (gzip and zip included); `-` given twice is refused the second time.
pub fn expand_with_stdin(args: &[PathBuf], stdin: &mut dyn Read) -> Vec<Unit> {
    let mut out = Vec::new();
    let mut stdin_read = false;
    for arg in args {
        let shown = arg.display().to_string();
        if arg.as_os_str() == "-" {
            if stdin_read {
                out.push(Unit::Failed {
                    name: STDIN_NAME.into(),
                    reason: "standard input (-) given more than once; it is read once".into(),
                });
                continue;
            }
            stdin_read = true;
            match read_capped(&mut *stdin) {
                Ok(bytes) if bytes.is_empty() => out.push(Unit::Failed {
                    name: STDIN_NAME.into(),
                    reason: "standard input (-) is empty".into(),
                }),
                Ok(bytes) if is_zip(&bytes) => push_zip(STDIN_NAME.into(), bytes.into(), &mut out),
                Ok(bytes) => out.push(Unit::Memory {
                    name: STDIN_NAME.into(),
                    bytes: bytes.into(),
                }),
                Err(e) => out.push(Unit::Failed {
                    name: STDIN_NAME.into(),
                    reason: format!("cannot read standard input (-): {e}"),
                }),
            }
        } else if arg.is_dir() {
            push_dir(arg, &mut out);
        } else if arg.exists() {
            push_file(arg.clone(), &mut out);
        } else if has_glob_chars(&shown) {
            expand_glob(&shown, &mut out);
        } else {
            out.push(Unit::Failed {
                name: shown,
                reason: "no such file or directory".into(),
            });
        }
    }
    out
}

fn expand_glob(pattern: &str, out: &mut Vec<Unit>) {
    let paths = match glob::glob(pattern) {
        Ok(paths) => paths,
        Err(e) => {
            out.push(Unit::Failed {
                name: pattern.to_string(),
                reason: format!("bad glob pattern: {e}"),
            });
            return;
        }
    };
    let mut matched: Vec<PathBuf> = paths.filter_map(Result::ok).collect();
    matched.sort();
    if matched.is_empty() {
        out.push(Unit::Failed {
            name: pattern.to_string(),
            reason: "no file matches this pattern".into(),
        });
    }
    for p in matched {
        if p.is_dir() {
            push_dir(&p, out);
        } else {
            push_file(p, out);
        }
    }
}

/// The files under `dir`, sorted by path.
fn push_dir(dir: &Path, out: &mut Vec<Unit>) {
    let mut files = Vec::new();
    walk(dir, &mut files);
    files.sort();
    let zips = zip_magic(&files);
    for (f, zip) in files.into_iter().zip(zips) {
        push_checked(f, zip, out);
    }
}

/// How many files [`zip_magic`] opens at once.
const OPENING: usize = 8;

/// Whether each file starts with a zip archive's magic, [`OPENING`] files
/// at a time: on a cold cache each open and first read waits on the disk,
/// and a fleet's folder holds a hundred thousand files. (The pages read
/// here are those the first pass reads next.)
fn zip_magic(files: &[PathBuf]) -> Vec<bool> {
    let read = |part: &[PathBuf]| -> Vec<bool> { part.iter().map(|f| looks_zip(f)).collect() };
    let chunk = files.len().div_ceil(OPENING).max(256);
    std::thread::scope(|s| {
        let readers: Vec<_> = files
            .chunks(chunk)
            .map(|part| {
                let thread = std::thread::Builder::new().spawn_scoped(s, move || read(part));
                (part, thread.ok())
            })
            .collect();
        readers
            .into_iter()
            .flat_map(|(part, thread)| match thread.map(|t| t.join()) {
                Some(Ok(zips)) => zips,
                // No thread to be had: this part is read here.
                _ => read(part),
            })
            .collect()
    })
}

/// Whether `path` starts with a zip archive's magic (false when it cannot
/// be read: the parse says why).
fn looks_zip(path: &Path) -> bool {
    let mut magic = [0u8; 4];
    File::open(path)
        .and_then(|mut f| f.read_exact(&mut magic))
        .is_ok()
        && is_zip(&magic)
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
        // The entry's own type needs no further system call; a symbolic
        // link is followed to what it points to.
        let dir = match e.file_type() {
            Ok(t) if !t.is_symlink() => t.is_dir(),
            _ => path.is_dir(),
        };
        if dir {
            walk(&path, files);
        } else {
            files.push(path);
        }
    }
}

/// A plain file, or the members of a zip archive (recognised by its magic).
fn push_file(path: PathBuf, out: &mut Vec<Unit>) {
    let zip = looks_zip(&path);
    push_checked(path, zip, out);
}

/// [`push_file`] with its magic already read (`zip`: [`looks_zip`]).
fn push_checked(path: PathBuf, zip: bool, out: &mut Vec<Unit>) {
    let name = path.display().to_string();
    if !zip {
        let path = (path.to_str() != Some(name.as_str())).then(|| path.into_boxed_path());
        out.push(Unit::File {
            name: name.into_boxed_str(),
            path,
        });
        return;
    }
    let bytes: Arc<[u8]> = match fs::read(&path) {
        Ok(b) => b.into(),
        Err(e) => {
            out.push(Unit::Failed {
                name,
                reason: format!("cannot read: {e}"),
            });
            return;
        }
    };
    push_zip(name, bytes, out);
}

/// The members of a zip archive held in memory, sorted by name.
fn push_zip(name: String, bytes: Arc<[u8]>, out: &mut Vec<Unit>) {
    let archive = match ZipArchive::new(Cursor::new(bytes)) {
        Ok(a) => a,
        Err(e) => {
            out.push(Unit::Failed {
                name,
                reason: format!("corrupt zip archive: {e}"),
            });
            return;
        }
    };
    let mut members: Vec<(String, usize)> = (0..archive.len())
        .filter_map(|i| archive.name_for_index(i).map(|n| (n.to_string(), i)))
        .filter(|(n, _)| !skip_member(n))
        .collect();
    members.sort();
    let archive = Box::new(archive);
    for (member, index) in members {
        out.push(Unit::ZipMember {
            name: format!("{name}!{member}"),
            archive: archive.clone(),
            index,
        });
    }
}

/// Directories, macOS resource forks and hidden files are not inputs.
fn skip_member(name: &str) -> bool {
    name.ends_with('/')
        || name.starts_with("__MACOSX/")
        || name
            .rsplit('/')
            .next()
            .is_some_and(|base| base.starts_with('.') || base.is_empty())
}

#[cfg(test)]
mod tests {

    fn read_all(units: &[Unit]) -> Vec<(String, Result<Vec<u8>, String>)> {
        units
            .iter()
            .map(|u| (u.name().to_string(), u.read()))
            .collect()
    }

    #[test]
    fn a_dash_reads_standard_input_once_gzip_included() {
        use std::io::Write as _;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"WORKLOAD REPOSITORY report").unwrap();
        let gz = gz.finish().unwrap();
        let args = [PathBuf::from("-"), PathBuf::from("-")];
        let units = read_all(&expand_with_stdin(&args, &mut gz.as_slice()));
        assert_eq!(units.len(), 2);
        assert_eq!(units[0].0, STDIN_NAME);
        assert_eq!(
            units[0].1.as_deref().unwrap(),
            b"WORKLOAD REPOSITORY report"
        );
        let second = units[1].1.as_ref().unwrap_err();
        assert!(second.contains("more than once"), "{second}");

        let empty = read_all(&expand_with_stdin(&args[..1], &mut &b""[..]));
        assert!(empty[0].1.as_ref().unwrap_err().contains("is empty"));
    }

    #[test]
    fn without_a_dash_standard_input_is_not_read() {
        struct Refuse;
        impl Read for Refuse {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                panic!("standard input read without '-'");
            }
        }
        let units = expand_with_stdin(&[PathBuf::from("/no/such/input")], &mut Refuse);
        assert_eq!(units.len(), 1);
    }
    use super::*;
    use std::io::Write;

    fn names(units: &[Unit]) -> Vec<String> {
        units.iter().map(|u| u.name().to_string()).collect()
    }

    #[test]
    fn directories_expand_recursively_in_sorted_order_without_hidden_files() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        for f in ["b.txt", "a.txt", ".hidden", "sub/c.txt"] {
            fs::write(dir.path().join(f), "x").unwrap();
        }
        let units = expand(&[dir.path().to_path_buf()]);
        let got: Vec<String> = names(&units)
            .iter()
            .map(|n| {
                n.trim_start_matches(&dir.path().display().to_string())
                    .to_string()
            })
            .collect();
        assert_eq!(got, ["/a.txt", "/b.txt", "/sub/c.txt"]);
    }

    /// The magic is read by several threads over parts of the folder: every
    /// archive is still found where it sits, and the order is the paths'.
    #[test]
    fn archives_anywhere_in_a_large_folder_are_opened_in_path_order() {
        let dir = tempfile::tempdir().unwrap();
        let zip_at = [0usize, 299, 300, 1199];
        for i in 0..1200 {
            let path = dir.path().join(format!("r{i:04}.txt"));
            if zip_at.contains(&i) {
                let mut zw = zip::ZipWriter::new(File::create(&path).unwrap());
                zw.start_file("m.html", zip::write::SimpleFileOptions::default())
                    .unwrap();
                zw.write_all(b"member").unwrap();
                zw.finish().unwrap();
            } else {
                fs::write(&path, "x").unwrap();
            }
        }
        let units = expand(&[dir.path().to_path_buf()]);
        let shown = |i: usize| {
            dir.path()
                .join(format!("r{i:04}.txt"))
                .display()
                .to_string()
        };
        let want: Vec<String> = (0..1200)
            .map(|i| {
                if zip_at.contains(&i) {
                    format!("{}!m.html", shown(i))
                } else {
                    shown(i)
                }
            })
            .collect();
        assert_eq!(names(&units), want);
        assert_eq!(units[299].read().unwrap(), b"member");
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_folder_is_followed_and_a_link_to_a_file_read() {
        let dir = tempfile::tempdir().unwrap();
        let real = tempfile::tempdir().unwrap();
        fs::write(real.path().join("r.txt"), "x").unwrap();
        fs::create_dir(dir.path().join("a")).unwrap();
        std::os::unix::fs::symlink(real.path(), dir.path().join("a/linked")).unwrap();
        std::os::unix::fs::symlink(real.path().join("r.txt"), dir.path().join("f.txt")).unwrap();
        let units = expand(&[dir.path().to_path_buf()]);
        let root = dir.path().display().to_string();
        let got: Vec<String> = names(&units)
            .iter()
            .map(|n| n.trim_start_matches(&root).to_string())
            .collect();
        assert_eq!(got, ["/a/linked/r.txt", "/f.txt"]);
        assert_eq!(units[0].read().unwrap(), b"x");
    }

    #[test]
    fn globs_expand_here_and_an_empty_match_is_a_failed_input() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["r1.html", "r2.html", "x.txt"] {
            fs::write(dir.path().join(f), "x").unwrap();
        }
        let pattern = dir.path().join("*.html");
        let units = expand(&[pattern]);
        assert_eq!(units.len(), 2);
        assert!(units.iter().all(|u| matches!(u, Unit::File { .. })));
        let none = expand(&[dir.path().join("*.lst")]);
        assert!(matches!(none.as_slice(), [Unit::Failed { .. }]));
    }

    #[test]
    fn zip_members_are_read_in_memory_and_named_after_the_archive() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("week.zip");
        let mut zw = zip::ZipWriter::new(File::create(&path).unwrap());
        let opts = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated);
        zw.add_directory("d/", opts).unwrap();
        zw.start_file("d/b.html", opts).unwrap();
        zw.write_all(b"second").unwrap();
        zw.start_file("a.txt", opts).unwrap();
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"first").unwrap();
        zw.write_all(&gz.finish().unwrap()).unwrap();
        zw.start_file("__MACOSX/._a.txt", opts).unwrap();
        zw.finish().unwrap();

        let units = expand(std::slice::from_ref(&path));
        let shown = path.display().to_string();
        assert_eq!(
            names(&units),
            [format!("{shown}!a.txt"), format!("{shown}!d/b.html")]
        );
        assert_eq!(units[0].read().unwrap(), b"first");
        assert_eq!(units[1].read().unwrap(), b"second");
    }

    #[test]
    fn a_missing_path_and_a_corrupt_archive_are_failed_inputs() {
        let dir = tempfile::tempdir().unwrap();
        let bad = dir.path().join("bad.zip");
        fs::write(&bad, b"PK\x03\x04 not really").unwrap();
        let units = expand(&[dir.path().join("missing.html"), bad]);
        assert_eq!(units.len(), 2);
        for u in &units {
            assert!(u.read().is_err(), "{}", u.name());
        }
    }

    #[test]
    fn the_head_of_a_multi_member_gzip_file_is_the_start_of_its_text() {
        let dir = tempfile::tempdir().unwrap();
        let text: Vec<u8> = (0..50_000u32)
            .flat_map(|i| format!("line {i}\n").into_bytes())
            .collect();
        let mut gz = Vec::new();
        // Three members, as the bench's gzip copies are written.
        for part in text.chunks(text.len() / 3 + 1) {
            let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            z.write_all(part).unwrap();
            gz.extend(z.finish().unwrap());
        }
        let p = dir.path().join("r.txt.gz");
        fs::write(&p, &gz).unwrap();
        let plain = dir.path().join("r.txt");
        fs::write(&plain, &text).unwrap();
        let units = expand(&[p, plain]);
        for u in &units {
            let (head, whole) = u.read_head(300_000).unwrap();
            assert_eq!(head, text[..300_000], "{}", u.name());
            assert!(!whole);
            let (all, whole) = u.read_head(text.len()).unwrap();
            assert_eq!(all, text);
            assert!(whole);
        }
    }

    #[test]
    fn corrupt_gzip_is_an_error_not_a_panic() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("r.html.gz");
        fs::write(&p, [0x1f, 0x8b, 8, 0, 1, 2, 3]).unwrap();
        let units = expand(&[p]);
        let err = units[0].read().unwrap_err();
        assert!(err.contains("gzip"), "{err}");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_whose_name_is_not_utf8_is_still_read_by_its_own_path() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let odd = dir.path().join(std::ffi::OsStr::from_bytes(b"r\xff.txt"));
        let plain = dir.path().join("s.txt");
        fs::write(&odd, "odd").unwrap();
        fs::write(&plain, "plain").unwrap();
        let units = expand(&[odd.clone(), plain.clone()]);
        let [a, b] = &units[..] else {
            panic!("two units expected")
        };
        // The name shows the path lossily; the bytes come from the path.
        assert_eq!(a.name(), odd.display().to_string());
        assert!(a.name().contains('\u{fffd}'));
        assert_eq!(a.read().unwrap(), b"odd");
        assert_eq!(a.read_head(2).unwrap(), (b"od".to_vec(), false));
        assert!(matches!(b, Unit::File { path: None, .. }));
        assert_eq!(b.name(), plain.display().to_string());
        assert_eq!(b.read().unwrap(), b"plain");
    }
}
