//! One point per report interval when several reports are analysed.

use awrflash_model::SnapshotPoint;

use awrflash_facts::{IntervalFacts, round};

pub fn points(all: &[IntervalFacts]) -> Vec<SnapshotPoint> {
    if all.len() < 2 {
        return Vec::new();
    }
    let mut v: Vec<SnapshotPoint> = all
        .iter()
        .map(|w| {
            let h = &w.report.header;
            let val = |n: &Option<awrflash_facts::Num>| n.as_ref().map_or(0.0, |x| round(x.value));
            SnapshotPoint {
                begin_time: h.begin_time.clone(),
                end_time: h.end_time.clone(),
                begin_snap: h.begin_snap,
                end_snap: h.end_snap,
                elapsed_s: round(w.elapsed()),
                db_time_s: round(w.db_time()),
                db_cpu_s: val(&w.db_cpu_s),
                read_iops: val(&w.read_iops),
                write_iops: val(&w.write_iops),
                read_mb_s: val(&w.read_mb_s),
                write_mb_s: val(&w.write_mb_s),
                redo_mb_s: w
                    .redo_bytes_s
                    .as_ref()
                    .map_or(0.0, |b| round(b.value / 1_048_576.0)),
                path: w.path.clone(),
            }
        })
        .collect();
    v.sort_by(|a, b| {
        a.begin_time
            .cmp(&b.begin_time)
            .then(a.begin_snap.cmp(&b.begin_snap))
            .then(a.path.cmp(&b.path))
    });
    v
}
