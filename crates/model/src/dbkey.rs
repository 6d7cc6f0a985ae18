//! Which database a report belongs to: reports with the same [`DbKey`] are
//! one series. The run layer groups by it and the extract tables key their
//! trend rows by it, so it lives here where both can use it.

use std::fmt;

use crate::{DbReport, ReportKind};

/// Which instance(s) a report covers.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum InstanceKey {
    /// One instance, by `Inst num`.
    Number(u32),
    /// One instance known only by name.
    Named(String),
    /// A RAC global report: all instances together.
    All,
    /// The report names no instance.
    Unknown,
}

impl fmt::Display for InstanceKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InstanceKey::Number(n) => write!(f, "{n}"),
            InstanceKey::Named(s) => f.write_str(s),
            InstanceKey::All => f.write_str("all"),
            InstanceKey::Unknown => f.write_str("unknown"),
        }
    }
}

/// The database a report belongs to. DBID + instance; a RAC global report
/// is its own `all` series; a PDB report is keyed by its container too.
///
/// A report that shows neither DB name nor DBID (a service that hides
/// system data, e.g. "System Data Visible: NO") cannot be matched to any
/// other report: it is its own database, keyed by its file and snapshot
/// ids ([`DbKey::hidden`]), and labelled as such.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct DbKey {
    pub db_name: Option<String>,
    pub container: Option<String>,
    pub dbid: Option<u64>,
    pub instance: InstanceKey,
    /// Set when the report shows no identity: `<file>, snapshots <b>-<e>`.
    pub hidden: Option<String>,
}

/// A header name that is really a name: not blank and not markup debris
/// (`/td>` where a service printed a cell it hides).
fn name(s: Option<&str>) -> Option<String> {
    s.map(str::trim)
        .filter(|s| !s.is_empty() && !s.contains(['<', '>']))
        .map(str::to_string)
}

impl DbKey {
    pub fn of(report: &DbReport) -> Self {
        let h = &report.header;
        let instance = if report.source.kind == Some(ReportKind::RacGlobal) {
            InstanceKey::All
        } else if let Some(n) = h.instance_number {
            InstanceKey::Number(n)
        } else if let Some(n) = name(h.instance.as_deref()) {
            InstanceKey::Named(n)
        } else {
            InstanceKey::Unknown
        };
        let container = if report.source.kind == Some(ReportKind::Pdb) {
            name(h.container.as_deref())
        } else {
            None
        };
        let db_name = name(h.db_name.as_deref());
        let hidden = (db_name.is_none() && h.dbid.is_none()).then(|| {
            let snaps = match (h.begin_snap, h.end_snap) {
                (Some(b), Some(e)) => format!(", snapshots {b}-{e}"),
                _ => String::new(),
            };
            format!("{}{snaps}", report.source.path)
        });
        DbKey {
            db_name,
            container,
            dbid: h.dbid,
            instance,
            hidden,
        }
    }

    /// File name stem `<db>_<dbid>_<inst>` (PDB: `<db>-<pdb>_<dbid>_<inst>`;
    /// hidden identity: `unnamed_<file>_<snapshots>`), restricted to
    /// characters safe on every file system.
    pub fn file_stem(&self) -> String {
        let raw = if let Some(hidden) = &self.hidden {
            let base = hidden.rsplit(['/', '\\', '!']).next().unwrap_or(hidden);
            format!("unnamed_{base}")
        } else {
            let mut db = self.db_name.clone().unwrap_or_else(|| "unknown".into());
            if let Some(c) = &self.container {
                db.push('-');
                db.push_str(c);
            }
            let dbid = self
                .dbid
                .map_or_else(|| "nodbid".to_string(), |d| d.to_string());
            format!("{db}_{dbid}_{}", self.instance)
        };
        raw.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    }

    /// Human label, e.g. `PROD (DBID 1234567, instance 1)`, or for a report
    /// with no identity `identity not shown by the service (r.html, snapshots 10-11)`.
    pub fn label(&self) -> String {
        if let Some(hidden) = &self.hidden {
            return format!("identity not shown by the service ({hidden})");
        }
        let mut db = self.db_name.clone().unwrap_or_else(|| "unknown".into());
        if let Some(c) = &self.container {
            db.push('/');
            db.push_str(c);
        }
        let dbid = self
            .dbid
            .map_or_else(|| "no DBID".to_string(), |d| format!("DBID {d}"));
        let inst = match &self.instance {
            InstanceKey::All => "all instances".to_string(),
            other => format!("instance {other}"),
        };
        format!("{db} ({dbid}, {inst})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Header, Source};

    fn report() -> DbReport {
        DbReport {
            source: Source {
                path: "dir/a.html".into(),
                kind: Some(ReportKind::Instance),
                ..Default::default()
            },
            header: Header {
                db_name: Some("PROD".into()),
                dbid: Some(42),
                instance_number: Some(2),
                begin_snap: Some(10),
                end_snap: Some(11),
                ..Default::default()
            },
            ..Default::default()
        }
    }

    #[test]
    fn rac_global_reports_are_keyed_by_all_instances() {
        let mut r = report();
        assert_eq!(DbKey::of(&r).file_stem(), "PROD_42_2");
        r.source.kind = Some(ReportKind::RacGlobal);
        let k = DbKey::of(&r);
        assert_eq!(k.instance, InstanceKey::All);
        assert_eq!(k.file_stem(), "PROD_42_all");
        assert_eq!(k.label(), "PROD (DBID 42, all instances)");
    }

    #[test]
    fn file_stems_are_safe_for_any_file_system() {
        let mut r = report();
        r.header.db_name = Some("A/B C".into());
        r.header.dbid = None;
        assert_eq!(DbKey::of(&r).file_stem(), "A_B_C_nodbid_2");
    }

    #[test]
    fn a_report_with_no_identity_is_labelled_by_its_file_and_snapshots() {
        let mut r = report();
        r.source.kind = Some(ReportKind::Pdb);
        r.header.db_name = Some("  ".into());
        r.header.dbid = None;
        r.header.container = Some("/td>".into());
        let k = DbKey::of(&r);
        assert_eq!(k.container, None, "markup is never a name");
        assert_eq!(
            k.label(),
            "identity not shown by the service (dir/a.html, snapshots 10-11)"
        );
        assert_eq!(k.file_stem(), "unnamed_a.html__snapshots_10-11");
        assert!(!k.label().contains("unknown"));
    }
}
