//! `awrflash analyze`: inputs -> databases -> advisor -> reports.

use std::collections::HashSet;
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use awrflash_extract::{DbGroup, DbKey, Grouped, InstanceKey};
use awrflash_model::{Analysis, Document, Severity};
use rayon::prelude::*;

use crate::args::{AdvisorArgs, AnalyzeArgs, FailOn, OutFormat};
use crate::load::{self, plural};
use crate::ui::{Page, Ui};

/// Where the reports go.
#[derive(Debug, Clone, PartialEq)]
enum Target {
    Stdout(OutFormat),
    File(PathBuf, OutFormat),
    Dir(PathBuf, OutFormat),
}

/// One database's result.
struct DbResult {
    key: DbKey,
    reports: usize,
    analysis: Analysis,
}

pub fn run(args: &AnalyzeArgs, ui: &Ui) -> Result<u8> {
    // Everything that can be checked without parsing, first.
    crate::validate::output_extension(args.output.as_deref(), args.format)?;
    let target = brief(target(args.output.as_deref(), args.format), args.brief)?;
    let opts = advisor_options(&args.advisor)?;
    crate::validate::advisor(&opts, args.advisor.roles.as_deref())?;
    crate::validate::inputs_exist(&args.inputs)?;
    let mut grouped = load::load_grouped(&args.inputs, ui)?;
    if let Some(path) = &args.advisor.roles {
        apply_roles(&mut grouped.aux, path)?;
    }
    pair_sysstat_files(&mut grouped.aux);
    if let (Target::File(path, _), true) = (&target, grouped.groups.len() > 1) {
        bail!(
            "the inputs hold {} databases ({}); write one file per database with -o {}/",
            grouped.groups.len(),
            grouped
                .groups
                .iter()
                .map(|g| g.key.label())
                .collect::<Vec<_>>()
                .join(", "),
            path.with_extension("").display()
        );
    }
    let results = analyze_groups(grouped, &opts)?;
    for r in &results {
        ui.note(&format!(
            "{}: {} {}, {} {}",
            r.key.label(),
            r.reports,
            plural(r.reports, "report", "reports"),
            r.analysis.findings.len(),
            plural(r.analysis.findings.len(), "finding", "findings")
        ));
    }
    write_output(&target, &results, ui)?;
    Ok(exit_for_findings(&results, args.fail_on))
}

/// Two `v$sysstat` files of one capture each are a begin/end pair: they
/// become one spool with deltas (begin is the one given first, or the one
/// with the earlier capture time when both print one).
fn pair_sysstat_files(aux: &mut Vec<Document>) {
    let single: Vec<usize> = aux
        .iter()
        .enumerate()
        .filter_map(|(i, d)| match d {
            Document::Sysstat(s) if s.captures.len() == 1 && s.deltas.is_empty() => Some(i),
            _ => None,
        })
        .collect();
    let [a, b] = single.as_slice() else {
        return;
    };
    let (Some(Document::Sysstat(first)), Some(Document::Sysstat(second))) =
        (aux.get(*a), aux.get(*b))
    else {
        return;
    };
    let time = |s: &awrflash_model::SysstatSpool| s.captures.first().and_then(|c| c.time.clone());
    let (begin, end) = match (time(first), time(second)) {
        (Some(t1), Some(t2)) if t2 < t1 => (second, first),
        _ => (first, second),
    };
    let paired = awrflash_parse::sysstat::pair(begin, end);
    aux.remove(*b);
    if let Some(slot) = aux.get_mut(*a) {
        *slot = Document::Sysstat(Box::new(paired));
    }
}

/// Tags the devices of every iostat/sar capture with the user's roles.
fn apply_roles(aux: &mut [Document], path: &Path) -> Result<()> {
    let mapping = fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read the device roles", path.display()))?;
    let shown = path.display().to_string();
    for doc in aux {
        if let Document::Iostat(capture) = doc {
            awrflash_parse::iostat::apply_roles(capture, &shown, &mapping)?;
        }
    }
    Ok(())
}

fn advisor_options(a: &AdvisorArgs) -> Result<awrflash_rules::Options> {
    let devices_toml = match &a.devices {
        Some(p) => Some(
            fs::read_to_string(p)
                .with_context(|| format!("{}: cannot read the device profiles", p.display()))?,
        ),
        None => None,
    };
    Ok(awrflash_rules::Options {
        channel_mbps: a.channel_mbps,
        flash_capacity_gb: a.flash_capacity_gb,
        device: a.device.clone(),
        devices_toml,
    })
}

/// `-o` and `--format` to a target: a trailing `/` or an existing directory
/// is a directory; a file's format comes from its extension unless given.
fn target(output: Option<&Path>, format: Option<OutFormat>) -> Target {
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

/// `--brief` turns a Markdown target into the brief form; any other format
/// with it is a usage error.
fn brief(target: Target, brief: bool) -> Result<Target> {
    if !brief {
        return Ok(target);
    }
    let md = |f: OutFormat| match f {
        OutFormat::Md | OutFormat::MdBrief => Ok(OutFormat::MdBrief),
        other => bail!(
            "--brief is Markdown; the output is {} (use --format md or -o FILE.md)",
            other.extension()
        ),
    };
    Ok(match target {
        // Text is the default on stdout: --brief alone means Markdown.
        Target::Stdout(OutFormat::Text) => Target::Stdout(OutFormat::MdBrief),
        Target::Stdout(f) => Target::Stdout(md(f)?),
        Target::File(p, f) => Target::File(p, md(f)?),
        Target::Dir(p, f) => Target::Dir(p, md(f)?),
    })
}

/// Runs the advisor on every database (in parallel). Inputs that are not
/// reports go with the databases (see `Grouped::aux_for`); with no report at
/// all they are analysed alone.
fn analyze_groups(mut grouped: Grouped, opts: &awrflash_rules::Options) -> Result<Vec<DbResult>> {
    if grouped.groups.is_empty() {
        grouped.groups.push(DbGroup {
            key: DbKey {
                db_name: None,
                container: None,
                dbid: None,
                instance: InstanceKey::Unknown,
            },
            reports: Vec::new(),
        });
    }
    let grouped = &grouped;
    grouped
        .groups
        .par_iter()
        .map(|g| {
            let reports = g.reports.len();
            let mut docs = g.reports.clone();
            docs.extend(grouped.aux_for(g).into_iter().cloned());
            let analysis = awrflash_rules::analyze(&docs, opts)
                .with_context(|| format!("{}: the advisor failed", g.key.label()))?;
            Ok(DbResult {
                key: g.key.clone(),
                reports,
                analysis,
            })
        })
        .collect()
}

fn render(r: &DbResult, format: OutFormat, page: Page) -> Result<String> {
    Ok(match format {
        OutFormat::Html => awrflash_report::html(&r.analysis),
        OutFormat::Json => awrflash_report::json(&r.analysis),
        OutFormat::MdBrief => awrflash_report::markdown_brief(&r.analysis),
        OutFormat::Md => awrflash_report::markdown(&r.analysis),
        OutFormat::Text => awrflash_report::text_width(&r.analysis, page.color, page.width),
    })
}

fn write_output(target: &Target, results: &[DbResult], ui: &Ui) -> Result<()> {
    match target {
        Target::Stdout(format) => {
            let stdout = io::stdout();
            let mut out = io::BufWriter::new(stdout.lock());
            write_stdout(&mut out, *format, results, ui.page())?;
            out.flush()?;
        }
        Target::File(path, format) => {
            if let Some(r) = results.first() {
                let text = render(r, *format, Page::FILE)?;
                write_file(path, &text)?;
                ui.note(&format!("wrote {}", path.display()));
            }
        }
        Target::Dir(dir, format) => {
            fs::create_dir_all(dir)
                .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
            let names = file_names(results, *format);
            for (r, name) in results.iter().zip(&names) {
                write_file(&dir.join(name), &render(r, *format, Page::FILE)?)?;
            }
            let mut what = format!(
                "wrote {} {} to {}",
                results.len(),
                plural(results.len(), "report", "reports"),
                dir.display()
            );
            if *format == OutFormat::Html {
                let items: Vec<(&Analysis, String)> = results
                    .iter()
                    .zip(names)
                    .map(|(r, n)| (&r.analysis, n))
                    .collect();
                write_file(
                    &dir.join("index.html"),
                    &awrflash_report::index_html(&items),
                )?;
                what.push_str(" with index.html");
            }
            ui.note(&what);
        }
    }
    Ok(())
}

fn write_stdout(
    out: &mut impl Write,
    format: OutFormat,
    results: &[DbResult],
    page: Page,
) -> Result<()> {
    match (format, results) {
        // JSON Lines whatever the number of databases: one document per
        // database, one per line, so `jq .verdict` reads one or many alike.
        (OutFormat::Json, _) => {
            for r in results {
                writeln!(out, "{}", awrflash_report::json_line(&r.analysis))?;
            }
        }
        (_, [one]) => out.write_all(render(one, format, page)?.as_bytes())?,
        (OutFormat::Html, _) => bail!(
            "the inputs hold {} databases; HTML is one page per database: use -o DIR/",
            results.len()
        ),
        (_, _) => {
            for (i, r) in results.iter().enumerate() {
                if i > 0 {
                    let rule = if matches!(format, OutFormat::Md | OutFormat::MdBrief) {
                        "\n---\n"
                    } else {
                        ""
                    };
                    writeln!(out, "{rule}")?;
                }
                let heading = r.key.label();
                if matches!(format, OutFormat::Md | OutFormat::MdBrief) {
                    writeln!(out, "<!-- {heading} -->")?;
                } else {
                    writeln!(out, "== {heading} ==")?;
                }
                out.write_all(render(r, format, page)?.as_bytes())?;
            }
        }
    }
    Ok(())
}

/// `<db>_<dbid>_<inst>.<ext>`, made unique when two keys sanitise alike.
fn file_names(results: &[DbResult], format: OutFormat) -> Vec<String> {
    let mut used = HashSet::new();
    results
        .iter()
        .map(|r| {
            let stem = r.key.file_stem();
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

fn write_file(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text).with_context(|| format!("{}: cannot write", path.display()))
}

fn exit_for_findings(results: &[DbResult], fail_on: Option<FailOn>) -> u8 {
    let Some(level) = fail_on else {
        return 0;
    };
    let level = match level {
        FailOn::Info => Severity::Info,
        FailOn::Warning => Severity::Warning,
        FailOn::Critical => Severity::Critical,
    };
    let hit = results
        .iter()
        .flat_map(|r| &r.analysis.findings)
        .any(|f| f.severity >= level);
    u8::from(hit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::Finding;

    fn result(sev: &[Severity]) -> DbResult {
        DbResult {
            key: DbKey {
                db_name: Some("PROD".into()),
                container: None,
                dbid: Some(1),
                instance: InstanceKey::Number(1),
            },
            reports: 1,
            analysis: Analysis {
                findings: sev
                    .iter()
                    .map(|s| Finding {
                        severity: *s,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            },
        }
    }

    #[test]
    fn fail_on_counts_findings_at_or_above_the_level() {
        let r = [result(&[Severity::Info, Severity::Warning])];
        assert_eq!(exit_for_findings(&r, None), 0);
        assert_eq!(exit_for_findings(&r, Some(FailOn::Info)), 1);
        assert_eq!(exit_for_findings(&r, Some(FailOn::Warning)), 1);
        assert_eq!(exit_for_findings(&r, Some(FailOn::Critical)), 0);
        assert_eq!(exit_for_findings(&[result(&[])], Some(FailOn::Info)), 0);
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
        let a = result(&[]);
        let mut b = result(&[]);
        b.key.db_name = Some("PROD".into());
        let names = file_names(&[a, b], OutFormat::Html);
        assert_eq!(names, ["PROD_1_1.html", "PROD_1_1-2.html"]);
    }
}
