//! One point per report interval when several reports are analysed, in
//! the order of the interval facts (time order).

use awrflash_model::SnapshotPoint;

use awrflash_facts::{IntervalFacts, round};

pub fn points(all: &[IntervalFacts]) -> Vec<SnapshotPoint> {
    if all.len() < 2 {
        return Vec::new();
    }
    let v: Vec<SnapshotPoint> = all
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
                redo_mb_s: w.redo_mb_s().map_or(0.0, |n| round(n.value)),
                path: w.path.to_string(),
            }
        })
        .collect();
    v
}
