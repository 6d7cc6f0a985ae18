//! Groups parsed documents by database and orders each database's reports
//! by snapshot time; the same interval given twice (a file and its copy in
//! an archive) is kept once.

use std::collections::BTreeMap;

use awrflash_model::{DbKey, DbReport, Document};

/// The reports of one database, in snapshot-time order.
#[derive(Debug, Clone)]
pub struct DbGroup {
    pub key: DbKey,
    pub reports: Vec<Document>,
}

/// A run's documents sorted out.
#[derive(Debug, Clone, Default)]
pub struct Grouped {
    /// Databases, sorted by key.
    pub groups: Vec<DbGroup>,
    /// iostat, sysstat and segment-size inputs, sorted by path: they carry
    /// no DBID; [`crate::attach`] decides which database gets which.
    pub aux: Vec<Document>,
    /// `(skipped path, kept path)` for intervals given more than once.
    pub duplicates: Vec<(String, String)>,
}

impl Grouped {
    /// All documents: each database's reports in order, then the others.
    pub fn all_documents(&self) -> Vec<Document> {
        self.groups
            .iter()
            .flat_map(|g| g.reports.iter().cloned())
            .chain(self.aux.iter().cloned())
            .collect()
    }
}

type IntervalId = (Option<u64>, Option<u64>, Option<String>, Option<String>);

fn interval(r: &DbReport) -> Option<IntervalId> {
    let h = &r.header;
    if h.begin_snap.is_none() && h.begin_time.is_none() {
        return None;
    }
    Some((
        h.begin_snap,
        h.end_snap,
        h.begin_time.clone(),
        h.end_time.clone(),
    ))
}

fn order_key(r: &DbReport) -> (Option<String>, Option<u64>, Option<u64>, String) {
    (
        r.header.begin_time.clone(),
        r.header.begin_snap,
        r.header.end_snap,
        r.source.path.clone(),
    )
}

/// Sorts documents into databases; input order does not matter.
pub fn group(docs: Vec<Document>) -> Grouped {
    let mut by_key: BTreeMap<DbKey, Vec<Box<DbReport>>> = BTreeMap::new();
    let mut aux = Vec::new();
    for d in docs {
        match d {
            Document::Report(r) => by_key.entry(DbKey::of(&r)).or_default().push(r),
            other => aux.push(other),
        }
    }
    aux.sort_by(|a, b| a.source().path.cmp(&b.source().path));
    let mut duplicates = Vec::new();
    let mut groups = Vec::new();
    for (key, mut reports) in by_key {
        reports.sort_by_key(|r| order_key(r));
        let mut seen: BTreeMap<IntervalId, String> = BTreeMap::new();
        let mut kept = Vec::new();
        for r in reports {
            if let Some(id) = interval(&r) {
                if let Some(first) = seen.get(&id) {
                    duplicates.push((r.source.path.clone(), first.clone()));
                    continue;
                }
                seen.insert(id, r.source.path.clone());
            }
            kept.push(Document::Report(r));
        }
        groups.push(DbGroup { key, reports: kept });
    }
    Grouped {
        groups,
        aux,
        duplicates,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::{Header, Source};

    fn report(path: &str, inst: u32, begin: u64, time: &str) -> Document {
        Document::Report(Box::new(DbReport {
            source: Source {
                path: path.into(),
                ..Default::default()
            },
            header: Header {
                db_name: Some("PROD".into()),
                dbid: Some(7),
                instance_number: Some(inst),
                begin_snap: Some(begin),
                end_snap: Some(begin + 1),
                begin_time: Some(time.into()),
                ..Default::default()
            },
            ..Default::default()
        }))
    }

    #[test]
    fn reports_group_by_instance_and_sort_by_snapshot_time() {
        let docs = vec![
            report("c", 1, 12, "2024-01-01T12:00:00"),
            report("x", 2, 10, "2024-01-01T10:00:00"),
            report("a", 1, 10, "2024-01-01T10:00:00"),
            Document::Iostat(Box::default()),
            report("b", 1, 11, "2024-01-01T11:00:00"),
        ];
        let g = group(docs);
        assert_eq!(g.groups.len(), 2);
        let paths: Vec<_> = g.groups[0]
            .reports
            .iter()
            .map(|d| d.source().path.clone())
            .collect();
        assert_eq!(paths, ["a", "b", "c"]);
        assert_eq!(g.groups[1].key.file_stem(), "PROD_7_2");
        assert_eq!(g.aux.len(), 1);
        assert_eq!(g.all_documents().len(), 5);
    }

    #[test]
    fn the_same_interval_twice_is_kept_once() {
        let docs = vec![
            report("week.zip!a.html", 1, 10, "2024-01-01T10:00:00"),
            report("a.html", 1, 10, "2024-01-01T10:00:00"),
        ];
        let g = group(docs);
        assert_eq!(g.groups[0].reports.len(), 1);
        assert_eq!(
            g.duplicates,
            [("week.zip!a.html".to_string(), "a.html".to_string())]
        );
    }
}
