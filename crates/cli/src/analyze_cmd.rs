//! `awrflash analyze`: the run layer's inputs -> databases -> advisor ->
//! reports, with the messages and the exit code.

use std::fs;
use std::io::{self, Write};

use anyhow::{Context, Result, bail};
use awrflash_model::{Analysis, DbKey, Severity};
use awrflash_run::output::{self, OutFormat as Out, Page, RunNotes, Target, Written};
use awrflash_run::{Database, Databases};

use crate::args::{AdvisorArgs, AnalyzeArgs, FailOn, OutFormat};
use crate::load::{self, plural};
use crate::ui::Ui;

/// One database's result.
struct DbResult {
    key: DbKey,
    reports: usize,
    analysis: Analysis,
}

pub fn run(args: &AnalyzeArgs, ui: &Ui) -> Result<u8> {
    // Everything that can be checked without parsing, first.
    let format = args.format.map(out_format);
    crate::validate::output_extension(args.output.as_deref(), format)?;
    let target = brief(output::target(args.output.as_deref(), format), args)?;
    let opts = advisor_options(&args.advisor)?;
    crate::validate::advisor(&opts, args.advisor.roles.as_deref())?;
    crate::validate::inputs_exist(&args.inputs)?;
    let (dbs, results, notes) = load::analyze_streamed(
        &args.inputs,
        args.advisor.roles.as_deref(),
        &opts,
        ui,
        |dbs| {
            let keys: Vec<&DbKey> = dbs.databases.iter().map(|d| &d.key).collect();
            Ok(output::check(&target, &keys)?)
        },
        keep,
    )?;
    report_attachments(&dbs, ui);
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
    write_output(&target, &results, ui, args.brief, &notes)?;
    Ok(exit_for_findings(&results, args.fail_on))
}

/// What `analyze` keeps of a database once the advisor is done: its key,
/// report count and analysis, not the parsed reports.
fn keep(db: &Database, analysis: Analysis) -> DbResult {
    DbResult {
        key: db.key.clone(),
        reports: db.reports.len(),
        analysis,
    }
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
    let pages: Vec<Page> = results
        .iter()
        .map(|r| Page {
            key: &r.key,
            analysis: &r.analysis,
            text: match target.format() {
                Out::Md if brief => awrflash_report::markdown_brief(&r.analysis),
                Out::Text => awrflash_report::text_width(&r.analysis, color, width),
                other => output::render(&r.analysis, other, color),
            },
        })
        .collect();
    if let Target::Stdout(format) = target {
        let stdout = io::stdout();
        let mut out = io::BufWriter::new(stdout.lock());
        output::write_stdout(&mut out, *format, &pages)?;
        out.flush()?;
        return Ok(());
    }
    match output::write_files(target, &pages, notes)? {
        Some(Written::File(path)) => ui.note(&format!("wrote {}", path.display())),
        Some(Written::Dir { dir, files, index }) => ui.note(&format!(
            "wrote {files} {} to {}{}",
            plural(files, "report", "reports"),
            dir.display(),
            if index { " with index.html" } else { "" }
        )),
        None => {}
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
    let hit = results
        .iter()
        .flat_map(|r| &r.analysis.findings)
        .any(|f| f.severity >= level);
    u8::from(hit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::{Finding, InstanceKey};

    fn result(sev: &[Severity]) -> DbResult {
        DbResult {
            key: DbKey {
                db_name: Some("PROD".into()),
                container: None,
                dbid: Some(1),
                instance: InstanceKey::Number(1),
                hidden: None,
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
}
