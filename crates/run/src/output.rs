//! Where the reports go: stdout, one file, or a directory of per-database
//! files with `index.html`. The caller renders each database's page (the
//! trend is part of the analysis, so every format prints it); this module
//! decides the target, the file names and the layout.

use std::collections::HashSet;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use awrflash_model::{Analysis, DbKey};
pub use awrflash_report::RunNotes;

use crate::RunError;

/// An output format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OutFormat {
    Html,
    Md,
    Json,
    Text,
}

impl OutFormat {
    pub fn extension(self) -> &'static str {
        match self {
            OutFormat::Html => "html",
            OutFormat::Md => "md",
            OutFormat::Json => "json",
            OutFormat::Text => "txt",
        }
    }
}

/// Where the reports go.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    Stdout(OutFormat),
    File(PathBuf, OutFormat),
    Dir(PathBuf, OutFormat),
}

impl Target {
    pub fn format(&self) -> OutFormat {
        match self {
            Target::Stdout(f) | Target::File(_, f) | Target::Dir(_, f) => *f,
        }
    }
}

/// `-o` and `--format` to a target: a trailing `/` or an existing directory
/// is a directory; a file's format comes from its extension unless given.
pub fn target(output: Option<&Path>, format: Option<OutFormat>) -> Target {
    let Some(path) = output else {
        return Target::Stdout(format.unwrap_or(OutFormat::Text));
    };
    let shown = path.as_os_str().to_string_lossy();
    if shown.ends_with('/') || shown.ends_with(std::path::MAIN_SEPARATOR) || path.is_dir() {
        return Target::Dir(path.to_path_buf(), format.unwrap_or(OutFormat::Html));
    }
    let by_ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let inferred = match by_ext.as_deref() {
        Some("md" | "markdown") => OutFormat::Md,
        Some("json") => OutFormat::Json,
        Some("txt" | "text") => OutFormat::Text,
        _ => OutFormat::Html,
    };
    Target::File(path.to_path_buf(), format.unwrap_or(inferred))
}

/// Refuses a target that cannot hold this many databases, before any
/// analysis runs: one file holds one database; HTML on stdout holds one.
pub fn check(target: &Target, keys: &[&DbKey]) -> Result<(), RunError> {
    if keys.len() < 2 {
        return Ok(());
    }
    match target {
        Target::File(path, _) => Err(RunError::Usage(format!(
            "the inputs hold {} databases ({}); write one file per database with -o {}/",
            keys.len(),
            keys.iter()
                .map(|k| k.label())
                .collect::<Vec<_>>()
                .join(", "),
            path.with_extension("").display()
        ))),
        Target::Stdout(OutFormat::Html) => Err(RunError::Usage(format!(
            "the inputs hold {} databases; HTML is one page per database: use -o DIR/",
            keys.len()
        ))),
        _ => Ok(()),
    }
}

/// The advisor's answer for one database, in `format`.
pub fn render(analysis: &Analysis, format: OutFormat, color: bool) -> String {
    match format {
        OutFormat::Html => awrflash_report::html(analysis),
        OutFormat::Json => awrflash_report::json(analysis),
        OutFormat::Md => awrflash_report::markdown(analysis),
        OutFormat::Text => awrflash_report::text(analysis, color),
    }
}

/// One database's rendered report.
pub struct Page<'a> {
    pub key: &'a DbKey,
    pub analysis: &'a Analysis,
    pub text: String,
}

/// What was written where, for the summary line.
#[derive(Debug, Clone, PartialEq)]
pub enum Written {
    File(PathBuf),
    Dir {
        dir: PathBuf,
        files: usize,
        index: bool,
    },
}

/// Writes the pages to a file or a directory. An HTML directory also gets
/// each database's analysis beside its page (`<stem>.summary.json`) and an
/// `index.html` rebuilt from every summary present there, so a re-run of one
/// database keeps the others listed; `notes` (this run's failed inputs and
/// warnings) are listed below them. A stdout target writes nothing here: see
/// [`write_stdout`].
pub fn write_files(
    target: &Target,
    pages: &[Page],
    notes: &RunNotes,
) -> Result<Option<Written>, RunError> {
    match target {
        Target::Stdout(_) => Ok(None),
        Target::File(path, _) => {
            let Some(p) = pages.first() else {
                return Ok(None);
            };
            write_file(path, &p.text)?;
            Ok(Some(Written::File(path.clone())))
        }
        Target::Dir(dir, format) => {
            let keys: Vec<&DbKey> = pages.iter().map(|p| p.key).collect();
            let names = file_names(&keys, *format);
            for (p, name) in pages.iter().zip(&names) {
                write_page(dir, *format, name, &p.text, p.analysis)?;
            }
            let index = finish_dir(dir, *format, notes)?;
            Ok(Some(Written::Dir {
                dir: dir.clone(),
                files: pages.len(),
                index,
            }))
        }
    }
}

/// Writes one database's page into `dir` as `name` and, for HTML, its
/// analysis beside it (`<stem>.summary.json`, what the index is built
/// from). A run over many databases calls this as each analysis arrives,
/// so no page is held past its database; [`finish_dir`] then writes the
/// index.
pub fn write_page(
    dir: &Path,
    format: OutFormat,
    name: &str,
    text: &str,
    analysis: &Analysis,
) -> Result<(), RunError> {
    fs::create_dir_all(dir).map_err(|source| RunError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    write_file(&dir.join(name), text)?;
    if format == OutFormat::Html {
        write_file(
            &summary_path(dir, name),
            &awrflash_report::json_line(analysis),
        )?;
    }
    Ok(())
}

/// Removes a page [`write_page`] wrote and its summary (a page the run no
/// longer stands by); a file already gone is no error.
pub fn remove_page(dir: &Path, format: OutFormat, name: &str) {
    let _ = fs::remove_file(dir.join(name));
    if format == OutFormat::Html {
        let _ = fs::remove_file(summary_path(dir, name));
    }
}

/// `<stem>.summary.json` beside the HTML page `name` (or beside `<stem>.html`
/// when `name` is a stem).
fn summary_path(dir: &Path, name: &str) -> PathBuf {
    let stem = name.strip_suffix(".html").unwrap_or(name);
    dir.join(format!("{stem}{SUMMARY_SUFFIX}"))
}

/// After the pages of a directory target: an HTML directory gets its
/// `index.html` (true); other formats have none (false).
pub fn finish_dir(dir: &Path, format: OutFormat, notes: &RunNotes) -> Result<bool, RunError> {
    fs::create_dir_all(dir).map_err(|source| RunError::Write {
        path: dir.to_path_buf(),
        source,
    })?;
    if format != OutFormat::Html {
        return Ok(false);
    }
    write_index(dir, notes)?;
    Ok(true)
}

/// The name ending of a report's analysis beside its HTML page.
pub const SUMMARY_SUFFIX: &str = ".summary.json";

/// Rebuilds `dir/index.html` from every `<stem>.summary.json` whose
/// `<stem>.html` is present. A summary that cannot be read is listed among
/// the warnings, never dropped silently.
fn write_index(dir: &Path, notes: &RunNotes) -> Result<(), RunError> {
    let mut notes = notes.clone();
    let read_err = |source| RunError::Write {
        path: dir.to_path_buf(),
        source,
    };
    let mut stems: Vec<String> = fs::read_dir(dir)
        .map_err(read_err)?
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter_map(|n| n.strip_suffix(SUMMARY_SUFFIX).map(str::to_string))
        .filter(|stem| dir.join(format!("{stem}.html")).is_file())
        .collect();
    stems.sort();
    let mut analyses: Vec<(Analysis, String)> = Vec::new();
    for stem in stems {
        let path = summary_path(dir, &stem);
        let parsed = fs::read_to_string(&path)
            .map_err(|e| e.to_string())
            .and_then(|t| serde_json::from_str::<Analysis>(&t).map_err(|e| e.to_string()));
        match parsed {
            Ok(a) => analyses.push((a, format!("{stem}.html"))),
            Err(e) => notes.warnings.push(format!(
                "{}: not listed, the summary cannot be read: {e}",
                path.display()
            )),
        }
    }
    let items: Vec<(&Analysis, String)> = analyses.iter().map(|(a, h)| (a, h.clone())).collect();
    write_file(
        &dir.join("index.html"),
        &awrflash_report::index_html_with(&items, &notes),
    )
}

/// Writes the pages to `out`: JSON as JSON Lines (one document per
/// database, one per line, however many there are); one page of another
/// format as is; several one after the other under a heading naming the
/// database. (Several HTML pages are refused earlier by [`check`].)
pub fn write_stdout(out: &mut dyn Write, format: OutFormat, pages: &[Page]) -> io::Result<()> {
    match (format, pages) {
        (OutFormat::Json, _) => {
            for p in pages {
                writeln!(out, "{}", awrflash_report::json_line(p.analysis))?;
            }
        }
        (_, [one]) => out.write_all(one.text.as_bytes())?,
        (_, _) => {
            for (i, p) in pages.iter().enumerate() {
                if i > 0 {
                    let rule = if format == OutFormat::Md {
                        "\n---\n"
                    } else {
                        ""
                    };
                    writeln!(out, "{rule}")?;
                }
                let heading = p.key.label();
                if format == OutFormat::Md {
                    writeln!(out, "<!-- {heading} -->")?;
                } else {
                    writeln!(out, "== {heading} ==")?;
                }
                out.write_all(p.text.as_bytes())?;
            }
        }
    }
    Ok(())
}

/// `<db>_<dbid>_<inst>.<ext>`, made unique when two keys sanitise alike.
pub fn file_names(keys: &[&DbKey], format: OutFormat) -> Vec<String> {
    let mut used = HashSet::new();
    keys.iter()
        .map(|k| {
            let stem = k.file_stem();
            let mut name = format!("{stem}.{}", format.extension());
            let mut n = 2;
            while name == "index.html" || !used.insert(name.clone()) {
                name = format!("{stem}-{n}.{}", format.extension());
                n += 1;
            }
            name
        })
        .collect()
}

fn write_file(path: &Path, text: &str) -> Result<(), RunError> {
    fs::write(path, text).map_err(|source| RunError::Write {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::InstanceKey;

    fn key(name: &str) -> DbKey {
        DbKey {
            db_name: Some(name.into()),
            container: None,
            dbid: Some(1),
            instance: InstanceKey::Number(1),
            hidden: None,
        }
    }

    #[test]
    fn the_output_target_follows_the_path_and_extension() {
        assert_eq!(target(None, None), Target::Stdout(OutFormat::Text));
        assert_eq!(
            target(Some(Path::new("r.html")), None),
            Target::File("r.html".into(), OutFormat::Html)
        );
        assert_eq!(
            target(Some(Path::new("r.md")), None),
            Target::File("r.md".into(), OutFormat::Md)
        );
        assert_eq!(
            target(Some(Path::new("r.out")), Some(OutFormat::Json)),
            Target::File("r.out".into(), OutFormat::Json)
        );
        assert_eq!(
            target(Some(Path::new("out/")), None),
            Target::Dir("out/".into(), OutFormat::Html)
        );
    }

    #[test]
    fn file_names_never_collide_with_each_other_or_the_index() {
        let (a, b) = (key("PROD"), key("PROD"));
        let names = file_names(&[&a, &b], OutFormat::Html);
        assert_eq!(names, ["PROD_1_1.html", "PROD_1_1-2.html"]);
    }

    #[test]
    fn one_file_or_html_on_stdout_refuses_several_databases() {
        let (a, b) = (key("A"), key("B"));
        let two = [&a, &b];
        let file = Target::File("r.html".into(), OutFormat::Html);
        let err = check(&file, &two).unwrap_err().to_string();
        assert!(
            err.contains("2 databases") && err.contains("-o r/"),
            "{err}"
        );
        assert!(check(&Target::Stdout(OutFormat::Html), &two).is_err());
        assert!(check(&Target::Stdout(OutFormat::Json), &two).is_ok());
        assert!(check(&file, &two[..1]).is_ok());
    }
}
