//! Auxiliary inputs made ready before they are attached: a `v$sysstat`
//! begin file and end file become one spool with deltas, and iostat/sar
//! devices get the roles the user gave them.

use std::fs;
use std::path::Path;

use awrflash_model::{Document, SysstatSpool};

use crate::RunError;

/// Two `v$sysstat` files of one capture each are a begin/end pair: they
/// become one spool with deltas (begin is the one given first, or the one
/// with the earlier capture time when both print one). Any other number of
/// single captures is left alone (and is not used for interval figures:
/// see [`crate::attach`]).
pub fn pair_sysstat_files(aux: &mut Vec<Document>) {
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
    let time = |s: &SysstatSpool| s.captures.first().and_then(|c| c.time.clone());
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

/// Tags the devices of every iostat/sar capture with the roles of the
/// mapping file at `path`.
pub fn apply_roles(aux: &mut [Document], path: &Path) -> Result<(), RunError> {
    let mapping = fs::read_to_string(path).map_err(|source| RunError::Roles {
        path: path.to_path_buf(),
        source,
    })?;
    let shown = path.display().to_string();
    for doc in aux {
        if let Document::Iostat(capture) = doc {
            awrflash_parse::iostat::apply_roles(capture, &shown, &mapping)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::{Source, SysstatCapture, SysstatValue};

    fn spool(path: &str, time: Option<&str>, hits: f64) -> Document {
        Document::Sysstat(Box::new(SysstatSpool {
            source: Source {
                path: path.into(),
                ..Default::default()
            },
            captures: vec![SysstatCapture {
                time: time.map(str::to_string),
                file: None,
                values: vec![SysstatValue {
                    name: "physical read flash cache hits".into(),
                    value: Some(hits),
                    ..Default::default()
                }],
            }],
            ..Default::default()
        }))
    }

    #[test]
    fn two_single_captures_pair_by_time_into_one_spool_with_deltas() {
        let mut aux = vec![
            spool("end.lst", Some("2024-01-01T11:00:00"), 150.0),
            spool("begin.lst", Some("2024-01-01T10:00:00"), 100.0),
        ];
        pair_sysstat_files(&mut aux);
        let [Document::Sysstat(s)] = aux.as_slice() else {
            panic!("not paired: {aux:?}");
        };
        assert_eq!(s.source.path, "begin.lst + end.lst");
        assert_eq!(s.delta("physical read flash cache hits"), Some(50.0));
    }

    #[test]
    fn three_single_captures_are_not_paired() {
        let mut aux = vec![
            spool("a", None, 1.0),
            spool("b", None, 2.0),
            spool("c", None, 3.0),
        ];
        pair_sysstat_files(&mut aux);
        assert_eq!(aux.len(), 3);
    }
}
