//! `awrflash analyze`: the run layer's inputs -> databases -> advisor ->
//! reports, with the messages and the exit code.

use std::collections::HashMap;
use std::fs;
use std::io::{self, Write};
use std::sync::{Mutex, OnceLock};

use anyhow::{Context, Result, bail};
use awrflash_model::{Analysis, DbKey, Severity};
use awrflash_run::Databases;
use awrflash_run::output::{self, OutFormat as Out, Page, RunNotes, Target, Written};

use crate::args::{AdvisorArgs, AnalyzeArgs, FailOn, OutFormat};
use crate::load::{self, plural};
use crate::ui::Ui;

/// One database's result. A page written as its analysis arrived (a
/// directory target) keeps only what the summary line and the exit code
/// read; otherwise the analysis waits for the output.
struct DbResult {
    key: DbKey,
    reports: usize,
    findings: usize,
    worst: Option<Severity>,
    analysis: Option<Analysis>,
}

impl DbResult {
    fn new(key: DbKey, reports: usize, analysis: Analysis, held: bool) -> DbResult {
        DbResult {
            key,
            reports,
            findings: analysis.findings.len(),
            worst: analysis.findings.iter().map(|f| f.severity).max(),
            analysis: held.then_some(analysis),
        }
    }
}

/// A directory target written database by database: each page (and its
/// summary) is written as soon as its analysis is done, under the name the
/// databases of the first pass give it ([`output::file_names`] over all of
/// them, so the names are those of a whole-run write), and dropped.
struct Streamed<'a> {
    dir: &'a std::path::Path,
    format: Out,
    brief: bool,
    names: OnceLock<HashMap<DbKey, String>>,
    /// Pages written so far: the database and the page's file name.
    written: Mutex<Vec<(DbKey, String)>>,
}

impl Streamed<'_> {
    /// Writes the page of `key` when it has a name; `Ok(false)` when it
    /// has none (a database the first pass did not see) and the analysis
    /// must be held for the end.
    fn write(&self, key: &DbKey, analysis: &Analysis) -> Result<bool> {
        let Some(name) = self.names.get().and_then(|n| n.get(key)) else {
            return Ok(false);
        };
        let text = page_text(
            analysis,
            self.format,
            self.brief,
            false,
            awrflash_report::TEXT_WIDTH,
        );
        output::write_page(self.dir, self.format, name, &text, analysis)?;
        if let Ok(mut w) = self.written.lock() {
            w.push((key.clone(), name.clone()));
        }
        Ok(true)
    }
}

pub fn run(args: &AnalyzeArgs, ui: &Ui) -> Result<u8> {
    // Everything that can be checked without parsing, first.
    let format = args.format.map(out_format);
    crate::validate::output_extension(args.output.as_deref(), format)?;
    let target = brief(output::target(args.output.as_deref(), format), args)?;
    let opts = advisor_options(&args.advisor)?;
    crate::validate::advisor(&opts, args.advisor.roles.as_deref())?;
    crate::validate::inputs_exist(&args.inputs)?;
    let streamed = match &target {
        Target::Dir(dir, format) => Some(Streamed {
            dir,
            format: *format,
            brief: args.brief,
            names: OnceLock::new(),
            written: Mutex::new(Vec::new()),
        }),
        _ => None,
    };
    let (dbs, results, notes) = load::analyze_streamed(
        &args.inputs,
        args.advisor.roles.as_deref(),
        &opts,
        ui,
        |dbs| {
            let keys: Vec<&DbKey> = dbs.databases.iter().map(|d| &d.key).collect();
            output::check(&target, &keys)?;
            if let Some(s) = &streamed {
                let names = output::file_names(&keys, s.format);
                let _ = s.names.set(keys.into_iter().cloned().zip(names).collect());
            }
            Ok(())
        },
        |db, analysis| {
            let written = match &streamed {
                Some(s) => s.write(&db.key, &analysis)?,
                None => false,
            };
            Ok(DbResult::new(
                db.key.clone(),
                db.reports.len(),
                analysis,
                !written,
            ))
        },
    )?;
    let results = results.into_iter().collect::<Result<Vec<DbResult>>>()?;
    if let Some(s) = &streamed {
        // A run that had to read every report again in one pass may have
        // other databases than the first pass: pages of those it no longer
        // has go.
        let kept: std::collections::HashSet<&DbKey> = results.iter().map(|r| &r.key).collect();
        for (key, name) in s.written.lock().map(|w| w.clone()).unwrap_or_default() {
            if !kept.contains(&key) {
                output::remove_page(s.dir, s.format, &name);
            }
        }
    }
    report_attachments(&dbs, ui);
    for r in &results {
        ui.note(&format!(
            "{}: {} {}, {} {}",
            r.key.label(),
            r.reports,
            plural(r.reports, "report", "reports"),
            r.findings,
            plural(r.findings, "finding", "findings")
        ));
    }
    write_output(&target, &results, ui, args.brief, &notes)?;
    Ok(exit_for_findings(&results, args.fail_on))
}

/// Which auxiliary input each database uses, and why; an input no database
/// uses says why once (with `-v`, every refusal per database).
fn report_attachments(dbs: &Databases, ui: &Ui) {
    for db in &dbs.databases {
        for a in &db.attachments {
            if a.attached {
                ui.note(&format!(
                    "{}: uses {} ({})",
                    db.key.label(),
                    a.path,
                    a.reason
                ));
            } else if ui.verbose > 0 {
                ui.note(&format!(
                    "{}: does not use {} ({})",
                    db.key.label(),
                    a.path,
                    a.reason
                ));
            }
        }
    }
    let several = dbs.databases.len() > 1 && ui.verbose == 0;
    for a in &dbs.unused {
        ui.note(&format!(
            "{}: not used ({}){}",
            a.path,
            a.reason,
            if several {
                "; -v gives each database's reason"
            } else {
                ""
            }
        ));
    }
}

/// `--brief` is Markdown: the default format of stdout (text) or of a
/// directory (HTML) becomes Markdown; any other format with it is a usage error.
fn brief(target: Target, args: &AnalyzeArgs) -> Result<Target> {
    if !args.brief {
        return Ok(target);
    }
    Ok(match target {
        Target::Stdout(Out::Text) if args.format.is_none() => Target::Stdout(Out::Md),
        Target::Dir(dir, Out::Html) if args.format.is_none() => Target::Dir(dir, Out::Md),
        Target::Stdout(Out::Md) | Target::File(_, Out::Md) | Target::Dir(_, Out::Md) => target,
        other => bail!(
            "--brief is Markdown; the output is {} (use --format md or -o FILE.md)",
            other.format().extension()
        ),
    })
}

pub(crate) fn out_format(f: OutFormat) -> Out {
    match f {
        OutFormat::Html => Out::Html,
        OutFormat::Md => Out::Md,
        OutFormat::Json => Out::Json,
        OutFormat::Text => Out::Text,
    }
}

pub(crate) fn advisor_options(a: &AdvisorArgs) -> Result<awrflash_rules::Options> {
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

/// A database's page in `format`: the text a file or stdout gets.
fn page_text(analysis: &Analysis, format: Out, brief: bool, color: bool, width: usize) -> String {
    match format {
        Out::Md if brief => awrflash_report::markdown_brief(analysis),
        Out::Text => awrflash_report::text_width(analysis, color, width),
        other => output::render(analysis, other, color),
    }
}

fn write_output(
    target: &Target,
    results: &[DbResult],
    ui: &Ui,
    brief: bool,
    notes: &RunNotes,
) -> Result<()> {
    let stdout = matches!(target, Target::Stdout(_));
    let color = stdout && ui.color;
    // The terminal's width on stdout; a file gets the default width.
    let width = if stdout {
        ui.width
    } else {
        awrflash_report::TEXT_WIDTH
    };
    if let Target::Dir(dir, format) = target {
        // Pages were written as their analyses came; only those the first
        // pass had no name for are still held.
        let keys: Vec<&DbKey> = results.iter().map(|r| &r.key).collect();
        let names = output::file_names(&keys, *format);
        for (r, name) in results.iter().zip(&names) {
            if let Some(a) = &r.analysis {
                let text = page_text(a, *format, brief, color, width);
                output::write_page(dir, *format, name, &text, a)?;
            }
        }
        let index = output::finish_dir(dir, *format, notes)?;
        ui.note(&format!(
            "wrote {} {} to {}{}",
            results.len(),
            plural(results.len(), "report", "reports"),
            dir.display(),
            if index { " with index.html" } else { "" }
        ));
        return Ok(());
    }
    let pages: Vec<Page> = results
        .iter()
        .filter_map(|r| r.analysis.as_ref().map(|a| (&r.key, a)))
        .map(|(key, analysis)| Page {
            key,
            analysis,
            text: page_text(analysis, target.format(), brief, color, width),
        })
        .collect();
    if let Target::Stdout(format) = target {
        let stdout = io::stdout();
        let mut out = io::BufWriter::new(stdout.lock());
        output::write_stdout(&mut out, *format, &pages)?;
        out.flush()?;
        return Ok(());
    }
    if let Some(Written::File(path)) = output::write_files(target, &pages, notes)? {
        ui.note(&format!("wrote {}", path.display()));
    }
    Ok(())
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
    let hit = results.iter().any(|r| r.worst.is_some_and(|w| w >= level));
    u8::from(hit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::{Finding, InstanceKey};

    fn result(sev: &[Severity]) -> DbResult {
        DbResult::new(
            DbKey {
                db_name: Some("PROD".into()),
                container: None,
                dbid: Some(1),
                instance: InstanceKey::Number(1),
                hidden: None,
            },
            1,
            Analysis {
                findings: sev
                    .iter()
                    .map(|s| Finding {
                        severity: *s,
                        ..Default::default()
                    })
                    .collect(),
                ..Default::default()
            },
            // Written as it came: the exit code reads what the result kept.
            false,
        )
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
}
