//! Writes what the parser makes of each input, and of mutated copies of it,
//! as text files for `diff -r`: `cargo run --release -p awrflash-parse
//! --example parse_dump -- OUT [--mutations N] PATH...` (files or folders).
//!
//! `scripts/parse-diff.sh` runs it from two revisions over the same inputs:
//! a change to the parser that should not change its output (a faster
//! scanner, a new buffer) is checked against the revision before it on the
//! shared corpus, the fixtures and mutations of each, which reach the
//! repairs and error paths that well-formed reports never take.
//!
//! For each input `OUT/NAME.txt` holds `parse_bytes` and `parse_head` of
//! the input (`{:#?}`: every field, every number exactly), and
//! `OUT/NAME.mK.txt` the same for its K-th mutation. Mutations come from a
//! fixed seed, so two builds of this file mutate alike: markup, entities,
//! quotes and newlines inserted (half of them next to a 64-byte boundary,
//! where word- or block-wise scans change hands), bytes deleted, spans
//! copied elsewhere, the input cut short.

use std::path::{Path, PathBuf};

/// Inserted at random places: what the HTML scanner and the text parsers
/// branch on.
const PIECES: &[&[u8]] = &[
    b"<",
    b">",
    b"&",
    b"&nbsp;",
    b"&#160;",
    b"&amp;",
    b"&lt;",
    b"&bogus;",
    b"\"",
    b"'",
    b"<!--",
    b"-->",
    b"<![CDATA[",
    b"]]>",
    b"<?",
    b"?>",
    b"<td>",
    b"</td>",
    b"<td/>",
    b"<TD ALIGN=right>",
    b"<th colspan=3>",
    b"<tr>",
    b"</tr>",
    b"<table>",
    b"</table>",
    b"<h3>",
    b"</h3>",
    b"<p />",
    b"<li>",
    b"<br>",
    b"\n",
    b"\r\n",
    b"\t",
    b" ",
    b"\xc3\xa9",
    b"\xff",
    b"~~~~",
    b"-----",
];

/// xorshift64*: small, fixed, the same in every build.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn mutate(data: &[u8], rng: &mut Rng) -> Vec<u8> {
    let mut d = data.to_vec();
    for _ in 0..1 + rng.below(12) {
        let mut at = rng.below(d.len() + 1);
        if rng.below(2) == 0 {
            // Next to a 64-byte boundary.
            let near = [0usize, 1, 2, 62, 63, 65];
            let off = near.get(rng.below(near.len())).copied().unwrap_or(0);
            at = (at / 64 * 64 + off).saturating_sub(2).min(d.len());
        }
        match rng.below(10) {
            0..=5 => {
                let piece = PIECES.get(rng.below(PIECES.len())).copied().unwrap_or(b"<");
                d.splice(at..at, piece.iter().copied());
            }
            6 | 7 => {
                let end = (at + 1 + rng.below(40)).min(d.len());
                d.drain(at..end);
            }
            8 => {
                let from = rng.below(d.len() + 1);
                let end = (from + 1 + rng.below(200)).min(d.len());
                let span = d.get(from..end).unwrap_or_default().to_vec();
                d.splice(at..at, span);
            }
            _ => d.truncate(at),
        }
    }
    d
}

fn dump(out: &Path, name: &str, bytes: &[u8]) -> std::io::Result<()> {
    let full = awrflash_parse::parse_bytes(name, bytes);
    let head = awrflash_parse::parse_head(name, bytes);
    std::fs::write(
        out.join(format!("{name}.txt")),
        format!("{full:#?}\n---- head\n{head:#?}\n"),
    )
}

fn files(path: &Path, into: &mut Vec<PathBuf>) {
    match std::fs::read_dir(path) {
        Ok(entries) => {
            let mut paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
            paths.sort();
            for p in paths {
                files(&p, into);
            }
        }
        Err(_) if path.is_file() => into.push(path.to_path_buf()),
        Err(_) => {}
    }
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let Some(out) = args.next().map(PathBuf::from) else {
        eprintln!("usage: parse_dump OUT [--mutations N] PATH...");
        std::process::exit(2);
    };
    let mut mutations = 0usize;
    let mut inputs = Vec::new();
    while let Some(a) = args.next() {
        if a == "--mutations" {
            mutations = args.next().and_then(|n| n.parse().ok()).unwrap_or(0);
        } else {
            files(Path::new(&a), &mut inputs);
        }
    }
    std::fs::create_dir_all(&out)?;
    for (i, path) in inputs.iter().enumerate() {
        let bytes = std::fs::read(path)?;
        let base = path
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
        // Inputs of the same name in different folders stay apart.
        let name = format!("{i:04}-{base}");
        dump(&out, &name, &bytes)?;
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1));
        for k in 0..mutations {
            dump(&out, &format!("{name}.m{k}"), &mutate(&bytes, &mut rng))?;
        }
    }
    println!(
        "{} inputs, {} mutations each, in {}",
        inputs.len(),
        mutations,
        out.display()
    );
    Ok(())
}
