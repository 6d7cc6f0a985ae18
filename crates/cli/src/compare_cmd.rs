//! `awrflash compare`: before and after inputs -> the run layer's databases
//! on each side -> one comparison per database found on both -> reports.

use std::fs;
use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use awrflash_compare::{Options, Side, WindowChoice};
use awrflash_model::{Comparison, DbKey, DbReport};
use awrflash_run::output::{self, OutFormat as Out, Target};
use awrflash_run::{Database, Databases};

use crate::analyze_cmd::{advisor_options, out_format};
use crate::args::{CompareArgs, WindowArg};
use crate::load::{self, plural};
use crate::ui::Ui;

pub fn run(args: &CompareArgs, ui: &Ui) -> Result<u8> {
    let target = output::target(args.output.as_deref(), args.format.map(out_format));
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
    let keyed = |d: &Databases| -> Vec<(DbKey, Database)> {
        d.databases
            .iter()
            .filter(|db| !db.reports.is_empty())
            .map(|db| (db.key.clone(), db.clone()))
            .collect()
    };
    let labels = |d: &Databases| {
        d.databases
            .iter()
            .map(|db| db.key.label())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let paired = awrflash_compare::pair(keyed(&before), keyed(&after));
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
    let keys: Vec<&DbKey> = paired.pairs.iter().map(|p| &p.0).collect();
    output::check(&target, &keys)?;
    let mut results = Vec::new();
    for (key, b, a) in &paired.pairs {
        let c = awrflash_compare::compare(
            &Side {
                reports: reports(b),
                aux: b.aux.iter().collect(),
            },
            &Side {
                reports: reports(a),
                aux: a.aux.iter().collect(),
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

/// One side's inputs, loaded, reported and sorted into databases.
fn side(inputs: &[PathBuf], name: &str, args: &CompareArgs, ui: &Ui) -> Result<Databases> {
    ui.note(&format!("{name}:"));
    load::load_databases(inputs, args.advisor.roles.as_deref(), ui)
        .with_context(|| format!("the {name} inputs"))
}

/// The reports of a database.
fn reports(db: &Database) -> Vec<&DbReport> {
    db.reports
        .iter()
        .filter_map(awrflash_run::Held::full)
        .collect()
}

fn render(c: &Comparison, format: Out, color: bool) -> String {
    use awrflash_report::compare;
    match format {
        Out::Html => compare::html(c),
        Out::Json => compare::json(c),
        Out::Md => compare::markdown(c),
        Out::Text => compare::text(c, color),
    }
}

fn write_file(path: &std::path::Path, text: &str) -> Result<()> {
    fs::write(path, text).with_context(|| format!("{}: cannot write", path.display()))
}

fn write_output(target: &Target, results: &[(DbKey, Comparison)], ui: &Ui) -> Result<()> {
    match target {
        Target::Stdout(format) => {
            let stdout = io::stdout();
            let mut out = io::BufWriter::new(stdout.lock());
            match (format, results) {
                (_, [(_, one)]) => out.write_all(render(one, *format, ui.color).as_bytes())?,
                (Out::Json, _) => {
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
