//! `awrflash compare`: before and after inputs -> databases on both sides
//! -> one comparison per database -> reports.

use std::fs;
use std::io::{self, Write};

use anyhow::{Context, Result, bail};
use awrflash_compare::{Options, Side, WindowChoice};
use awrflash_extract::{DbGroup, DbKey, Grouped};
use awrflash_model::{Comparison, Document};

use crate::analyze_cmd::{
    Target, advisor_options, apply_roles, pair_sysstat_files, target, write_file,
};
use crate::args::{CompareArgs, OutFormat, WindowArg};
use crate::load::{self, plural};
use crate::ui::Ui;

pub fn run(args: &CompareArgs, ui: &Ui) -> Result<u8> {
    let target = target(args.output.as_deref(), args.format);
    let opts = Options {
        advisor: advisor_options(&args.advisor)?,
        window: match args.window {
            WindowArg::Auto => WindowChoice::Auto,
            WindowArg::Whole => WindowChoice::Whole,
            WindowArg::SameHours => WindowChoice::SameHours,
        },
    };
    let before = side(&args.before, "before", args, ui)?;
    let after = side(&args.after, "after", args, ui)?;
    let groups = |g: &Grouped| -> Vec<(DbKey, DbGroup)> {
        g.groups
            .iter()
            .map(|d| (d.key.clone(), d.clone()))
            .collect()
    };
    let paired = awrflash_compare::pair(groups(&before), groups(&after));
    let labels = |g: &Grouped| {
        g.groups
            .iter()
            .map(|d| d.key.label())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if paired.pairs.is_empty() {
        bail!(
            "the before and after inputs hold different databases (before: {}; after: {}): compare matches reports by DBID and instance",
            labels(&before),
            labels(&after)
        );
    }
    for k in &paired.only_before {
        ui.warn(&format!(
            "{}: only in the before inputs; not compared",
            k.label()
        ));
    }
    for k in &paired.only_after {
        ui.warn(&format!(
            "{}: only in the after inputs; not compared",
            k.label()
        ));
    }
    if let (Target::File(path, _), true) = (&target, paired.pairs.len() > 1) {
        bail!(
            "both sides hold {} databases; write one file per database with -o {}/",
            paired.pairs.len(),
            path.with_extension("").display()
        );
    }
    let mut results = Vec::new();
    for (key, b, a) in &paired.pairs {
        let c = awrflash_compare::compare(
            &Side {
                reports: reports(b),
                aux: before.aux_for(b),
            },
            &Side {
                reports: reports(a),
                aux: after.aux_for(a),
            },
            &opts,
        )
        .with_context(|| format!("{}: the comparison failed", key.label()))?;
        ui.note(&format!(
            "{}: {} of {} {} before, {} of {} after; {} storage {}",
            key.label(),
            c.before.intervals_used,
            c.before.intervals,
            plural(c.before.intervals as usize, "interval", "intervals"),
            c.after.intervals_used,
            c.after.intervals,
            c.storage_changes.len(),
            plural(c.storage_changes.len(), "change", "changes")
        ));
        results.push((key.clone(), c));
    }
    write_output(&target, &results, ui)?;
    Ok(0)
}

/// One side's inputs, loaded, reported and grouped by database.
fn side(inputs: &[std::path::PathBuf], name: &str, args: &CompareArgs, ui: &Ui) -> Result<Grouped> {
    ui.note(&format!("{name}:"));
    let mut g = load::load_grouped(inputs, ui).with_context(|| format!("the {name} inputs"))?;
    if let Some(path) = &args.advisor.roles {
        apply_roles(&mut g.aux, path)?;
    }
    pair_sysstat_files(&mut g.aux);
    Ok(g)
}

/// The reports of a database group.
fn reports(g: &DbGroup) -> Vec<&awrflash_model::DbReport> {
    g.reports
        .iter()
        .filter_map(|d| match d {
            Document::Report(r) => Some(r.as_ref()),
            _ => None,
        })
        .collect()
}

fn render(c: &Comparison, format: OutFormat, color: bool) -> String {
    use awrflash_report::compare;
    match format {
        OutFormat::Html => compare::html(c),
        OutFormat::Json => compare::json(c),
        OutFormat::Md => compare::markdown(c),
        OutFormat::Text => compare::text(c, color),
    }
}

fn write_output(target: &Target, results: &[(DbKey, Comparison)], ui: &Ui) -> Result<()> {
    match target {
        Target::Stdout(format) => {
            let stdout = io::stdout();
            let mut out = io::BufWriter::new(stdout.lock());
            match (format, results) {
                (_, [(_, one)]) => out.write_all(render(one, *format, ui.color).as_bytes())?,
                (OutFormat::Html, _) => bail!(
                    "both sides hold {} databases; HTML is one page per database: use -o DIR/",
                    results.len()
                ),
                (OutFormat::Json, _) => {
                    let docs: Vec<String> = results
                        .iter()
                        .map(|(_, c)| render(c, *format, false))
                        .collect();
                    writeln!(out, "[\n{}\n]", docs.join(",\n"))?;
                }
                (_, _) => {
                    for (k, c) in results {
                        writeln!(out, "== {} ==", k.label())?;
                        out.write_all(render(c, *format, ui.color).as_bytes())?;
                        writeln!(out)?;
                    }
                }
            }
            out.flush()?;
        }
        Target::File(path, format) => {
            if let Some((_, c)) = results.first() {
                write_file(path, &render(c, *format, false))?;
                ui.note(&format!("wrote {}", path.display()));
            }
        }
        Target::Dir(dir, format) => {
            fs::create_dir_all(dir)
                .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
            for (k, c) in results {
                let name = format!("{}-compare.{}", k.file_stem(), format.extension());
                write_file(&dir.join(name), &render(c, *format, false))?;
            }
            ui.note(&format!(
                "wrote {} {} to {}",
                results.len(),
                plural(results.len(), "comparison", "comparisons"),
                dir.display()
            ));
        }
    }
    Ok(())
}
