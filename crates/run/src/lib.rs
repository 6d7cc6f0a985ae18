//! awrflash-run: one run of awrflash, from the user's inputs to written reports.
//!
//! Stage: run (between the advisor and the command line; never prints).
//! Input: paths (files, directories, globs, `.gz`, `.zip`) and the advisor's
//! options. Output: parsed documents ([`load`]), databases with the
//! auxiliary inputs that fit them and why ([`databases`], [`Attachment`]),
//! one [`Analysis`] per database ([`analyze_all`]) and the report files
//! ([`output`]).
//!
//! The way through is `load` -> `databases` -> `analyze_all` -> `output`;
//! `awrflash analyze` takes it in two passes ([`survey`], then
//! [`Survey::analyze`]: the heads of the inputs place every report, then one
//! database at a time is parsed, analysed and dropped).
//! Progress goes through the [`Progress`] trait, which the command line
//! implements with a progress bar; everything the user should read comes
//! back as data ([`Loaded::failed`], [`Databases::notes`], attachments).

mod attach;
mod aux;
mod group;
mod held;
mod inputs;
mod load;
mod memory;
mod outcomes;
pub mod output;
mod survey;
mod window;

use std::path::PathBuf;

use awrflash_facts::IntervalFacts;
use awrflash_model::{Analysis, Attachment, DbKey, DbReport, Document};
use rayon::prelude::*;

pub use attach::attach;
pub use aux::{apply_roles, pair_sysstat_files};
pub use group::{DbGroup, Grouped, Grouper, group};
pub use held::Held;
pub use inputs::{Unit, expand};
pub use load::{LoadSummary, Loaded, Progress, Streamed, load, load_each, load_grouped, reread};
pub use survey::{Analysed, Survey, survey};
pub use window::Window;

#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("{}: cannot read the device roles: {source}", path.display())]
    Roles {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Parse(#[from] awrflash_parse::ParseError),
    #[error("{label}: the advisor failed: {source}")]
    Advisor {
        label: String,
        source: awrflash_rules::RulesError,
    },
    #[error("{}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Io(#[from] std::io::Error),
    /// A report held packed could not be packed or unpacked again.
    #[error("{path}: the report held for its database could not be packed or read back: {reason}")]
    Pack { path: String, reason: String },
    #[error("{0}")]
    Usage(String),
}

/// One database of the run: its reports in snapshot-time order, the
/// auxiliary inputs attached to it, and the decision on every auxiliary
/// input of the run.
#[derive(Debug, Clone)]
pub struct Database {
    pub key: DbKey,
    /// Whole, or thinned and packed when the run streamed its inputs
    /// ([`load_grouped`]): then only the busiest interval is whole.
    pub reports: Vec<Held>,
    pub aux: Vec<Document>,
    pub attachments: Vec<Attachment>,
}

/// The databases of a run and what the user should hear about them.
#[derive(Debug, Clone, Default)]
pub struct Databases {
    /// Sorted by key; with no report at all, one database of the
    /// auxiliary inputs alone.
    pub databases: Vec<Database>,
    /// `(skipped path, kept path)` for intervals given more than once.
    pub duplicates: Vec<(String, String)>,
    /// Things to say at the default verbosity (a report that shows no
    /// identity), one sentence each, naming the file.
    pub notes: Vec<String>,
    /// Auxiliary inputs no database uses, each with one reason for the
    /// whole run (every database's own reason is in its attachments).
    pub unused: Vec<Attachment>,
}

/// Sorts documents into databases: reports grouped by [`DbKey`], sysstat
/// begin/end files paired, devices tagged with the user's roles (the TOML
/// or CSV mapping file of `--roles`), and each
/// auxiliary input attached to the databases whose host and time window it
/// fits ([`attach`]).
pub fn databases(
    docs: Vec<Document>,
    roles: Option<&std::path::Path>,
) -> Result<Databases, RunError> {
    databases_from(group(docs), roles)
}

/// [`databases`] from documents already grouped (by [`Grouper`], as the
/// streamed run does).
pub fn databases_from(
    mut grouped: Grouped,
    roles: Option<&std::path::Path>,
) -> Result<Databases, RunError> {
    if let Some(path) = roles {
        apply_roles(&mut grouped.aux, path)?;
    }
    pair_sysstat_files(&mut grouped.aux);
    let notes = grouped
        .groups
        .iter()
        .filter(|g| g.key.hidden.is_some())
        .flat_map(|g| g.reports.iter())
        .map(|d| {
            format!(
                "{}: the report shows no DB name or DBID (identity not shown by the service); it is analysed on its own",
                d.source().path
            )
        })
        .collect();
    let attached = attach(&grouped);
    let unused = grouped
        .aux
        .iter()
        .enumerate()
        .filter(|(i, _)| {
            !grouped.groups.is_empty()
                && attached
                    .iter()
                    .all(|d| d.get(*i).is_some_and(|a| !a.attached))
        })
        .map(|(i, d)| Attachment {
            path: d.source().path.clone(),
            format: d.source().format,
            attached: false,
            reason: attach::unused_reason(&grouped, &attached, i),
        })
        .collect();
    let Grouped {
        groups,
        aux,
        duplicates,
    } = grouped;
    let mut databases: Vec<Database> = groups
        .into_iter()
        .zip(attached)
        .map(|(g, decisions)| Database {
            key: g.key,
            reports: g.reports,
            aux: decisions
                .iter()
                .zip(&aux)
                .filter(|(a, _)| a.attached)
                .map(|(_, d)| d.clone())
                .collect(),
            attachments: decisions,
        })
        .collect();
    if databases.is_empty() && !aux.is_empty() {
        databases.push(Database {
            key: DbKey {
                db_name: None,
                container: None,
                dbid: None,
                instance: awrflash_model::InstanceKey::Unknown,
                hidden: None,
            },
            reports: Vec::new(),
            attachments: aux
                .iter()
                .map(|d| Attachment {
                    path: d.source().path.clone(),
                    format: d.source().format,
                    attached: true,
                    reason: "no report in the run: analysed on its own".into(),
                })
                .collect(),
            aux,
        });
    }
    Ok(Databases {
        databases,
        duplicates,
        notes,
        unused,
    })
}

/// The advisor's answer for one database, with its attachment decisions.
/// Packed reports are unpacked for the advisor and dropped with its answer.
pub fn analyze(db: &Database, opts: &awrflash_rules::Options) -> Result<Analysis, RunError> {
    advise(db, db.reports.iter().cloned(), opts)
}

/// [`analyze`] for a database the caller gives up: each report is unpacked
/// (or moved out, when whole) and left as its head at once, so the packed
/// bytes do not stay beside the unpacked reports while the advisor runs.
/// Gives the database back with its reports as heads, for what the caller
/// keeps of it.
pub fn analyze_owned(
    mut db: Database,
    opts: &awrflash_rules::Options,
) -> Result<(Database, Analysis), RunError> {
    let reports: Vec<Held> = db
        .reports
        .iter_mut()
        .map(|held| {
            let head = held.head();
            std::mem::replace(held, head)
        })
        .collect();
    let analysis = advise(&db, reports.into_iter(), opts)?;
    Ok((db, analysis))
}

/// The advisor over `reports`, the reports of `db` in its order, and its
/// auxiliary inputs.
///
/// A reduced report comes with its facts ([`Held::Reduced`]); each packed
/// report is unpacked, its facts computed, and only its reduced form
/// ([`awrflash_facts::reduced`]) kept for the facts' readers:
/// the foreground events, Load Profile and time model rows it drops are
/// most of an interval. The advisor plans in detail for one interval and
/// reads every section of its report: one not held whole is read again
/// (the run keeps the busiest interval whole, which is that report unless
/// it is an incident).
fn advise(
    db: &Database,
    reports: impl Iterator<Item = Held>,
    opts: &awrflash_rules::Options,
) -> Result<Analysis, RunError> {
    let advisor = |source| RunError::Advisor {
        label: db.key.label(),
        source,
    };
    let n = reports.size_hint().0;
    let mut kept: Vec<DbReport> = Vec::with_capacity(n);
    let mut detached: Vec<Option<awrflash_facts::Detached>> = Vec::with_capacity(n);
    let mut moves: Vec<Option<awrflash_rules::WindowMoves>> = Vec::with_capacity(n);
    // Made on the first packed report, if any.
    let mut planner: Option<Option<awrflash_rules::MovesPlanner>> = None;
    for held in reports {
        match held {
            Held::Full(r) => {
                detached.push(None);
                moves.push(None);
                kept.push(*r);
            }
            Held::Reduced {
                facts,
                report,
                moves: m,
            } => {
                detached.push(Some(*facts));
                moves.push(m.map(|m| *m));
                kept.push(*report);
            }
            // Packed: unpacked and held lean here, one at a time (a head
            // alone is no document: an error).
            held => {
                let Document::Report(r) = held.into_document()? else {
                    continue;
                };
                let p = planner.get_or_insert_with(|| awrflash_rules::MovesPlanner::new(opts).ok());
                let (facts, report, m) = held::reduced_parts(&r, p.as_ref());
                detached.push(Some(facts));
                moves.push(m);
                kept.push(report);
            }
        }
    }
    let cut: Vec<bool> = detached.iter().map(Option::is_some).collect();
    // From the detached facts' own vector (collected in place).
    let facts: Vec<IntervalFacts> = detached
        .into_iter()
        .zip(&kept)
        .map(|(d, r)| match d {
            Some(d) => d.bind(r),
            None => IntervalFacts::new(r),
        })
        .collect();
    let whole: Box<DbReport>;
    let mut iv = awrflash_rules::Intervals::with_moves(facts, moves).map_err(advisor)?;
    if let Some(i) = iv.analysed_input()
        && cut.get(i) == Some(&true)
    {
        let source = iv
            .analysed()
            .map(|w| w.report.source.clone())
            .unwrap_or_default();
        whole = reread(&source)?;
        iv.replace_analysed(IntervalFacts::new(&whole))
            .map_err(advisor)?;
    }
    // Every input in the order given: the reports (the analysed one whole
    // by now), then the auxiliary inputs.
    let sources: Vec<(&awrflash_model::Source, &[awrflash_model::Warning])> = iv
        .given_order()
        .map(|f| (&f.report.source, f.report.warnings.as_slice()))
        .chain(db.aux.iter().map(|d| (d.source(), d.warnings())))
        .collect();
    let given = awrflash_rules::Given {
        inputs: sources.iter().map(|(s, _)| (*s).clone()).collect(),
        caveats: awrflash_rules::caveats(sources.iter().map(|(s, w)| (s.path.as_str(), *w))),
        aux: &db.aux,
    };
    let mut analysis = awrflash_rules::analyze_intervals(iv, &given, opts).map_err(advisor)?;
    analysis.attachments = db.attachments.clone();
    Ok(analysis)
}

/// Analyses every database in parallel and keeps what `keep` makes of each
/// database (its reports as heads by then: [`analyze_owned`]) and its
/// analysis, in database order. Each database's documents are dropped once
/// `keep` returns, so a caller that keeps only the analysis holds no parsed
/// report past its database.
pub fn analyze_all<T, F>(
    databases: Vec<Database>,
    opts: &awrflash_rules::Options,
    keep: F,
) -> Result<Vec<T>, RunError>
where
    T: Send,
    F: Fn(&Database, Analysis) -> T + Sync,
{
    databases
        .into_par_iter()
        .map(|db| {
            let (db, analysis) = analyze_owned(db, opts)?;
            Ok(keep(&db, analysis))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::{DbReport, Header, IostatCapture, ReportKind, Source};

    fn hidden(path: &str, begin: u64) -> Document {
        Document::Report(Box::new(DbReport {
            source: Source {
                path: path.into(),
                kind: Some(ReportKind::Pdb),
                ..Default::default()
            },
            header: Header {
                container: Some("/td>".into()),
                begin_snap: Some(begin),
                end_snap: Some(begin + 1),
                ..Default::default()
            },
            ..Default::default()
        }))
    }

    #[test]
    fn reports_with_no_identity_are_each_their_own_database_named_by_file_and_snapshots() {
        let dbs = databases(vec![hidden("a.html", 10), hidden("b.html", 10)], None).unwrap();
        let labels: Vec<String> = dbs.databases.iter().map(|d| d.key.label()).collect();
        assert_eq!(
            labels,
            [
                "identity not shown by the service (a.html, snapshots 10-11)",
                "identity not shown by the service (b.html, snapshots 10-11)"
            ]
        );
        assert!(
            labels
                .iter()
                .all(|l| !l.contains("unknown") && !l.contains("td>"))
        );
        assert_eq!(dbs.notes.len(), 2);
        assert!(dbs.notes[0].starts_with("a.html: the report shows no DB name or DBID"));
        assert!(dbs.duplicates.is_empty());
    }

    #[test]
    fn attached_inputs_go_with_their_database_and_unused_ones_say_why_once() {
        let capture = |path: &str, host: &str| {
            Document::Iostat(Box::new(IostatCapture {
                source: Source {
                    path: path.into(),
                    ..Default::default()
                },
                host: Some(host.into()),
                ..Default::default()
            }))
        };
        let report = Document::Report(Box::new(DbReport {
            header: Header {
                db_name: Some("PROD".into()),
                dbid: Some(1),
                host: Some("db01".into()),
                ..Default::default()
            },
            ..Default::default()
        }));
        let dbs = databases(
            vec![
                report,
                capture("mine.txt", "db01"),
                capture("theirs.txt", "db02"),
            ],
            None,
        )
        .unwrap();
        let [db] = dbs.databases.as_slice() else {
            panic!("{:?}", dbs.databases);
        };
        let used: Vec<&str> = db.aux.iter().map(|d| d.source().path.as_str()).collect();
        assert_eq!(used, ["mine.txt"]);
        assert_eq!(db.attachments.len(), 2);
        let [unused] = dbs.unused.as_slice() else {
            panic!("{:?}", dbs.unused);
        };
        assert_eq!(unused.path, "theirs.txt");
        assert_eq!(
            unused.reason,
            "host db02 is not this database's host (db01)"
        );
    }

    #[test]
    fn inputs_with_no_report_are_analysed_on_their_own() {
        let doc = Document::Iostat(Box::default());
        let dbs = databases(vec![doc], None).unwrap();
        assert_eq!(dbs.databases.len(), 1);
        assert_eq!(dbs.databases[0].aux.len(), 1);
        assert!(dbs.unused.is_empty());
    }
}
