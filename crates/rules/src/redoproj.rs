//! The redo option's projection, from the commit model of the facts layer
//! (`awrflash_facts::commit`): only the redo write changes; the wait behind
//! LGWR's write in progress follows the new write time, the posting
//! overhead and the scheduling time stay. Every term is listed in the
//! option's notes with its source row, and AF050/AF051 print the same split.

use awrflash_model::{OptionProjection, ProjectionStep};

use crate::devices::{DeviceProfile, IoKind};
use crate::projection::{Plan, finish, misalignment_penalty, range_factors, rounded, with_charges};
use crate::util::{f1, f2};
use awrflash_facts::{CommitFacts, IntervalFacts, round};

pub const REDO_TITLE: &str = "Move the online redo logs to flash (4 KB redo block size)";

/// The device's redo write (ms, low and high) for today's average write:
/// one write at a time per member (LGWR writes the members in parallel, so
/// the device sees as many outstanding writes as there are members), the
/// class's write range, the misalignment penalty of 512-byte-aligned redo
/// writes at the high end (000 Table 6.1).
pub fn device_write_ms(w: &IntervalFacts, dev: &DeviceProfile, c: &CommitFacts) -> (f64, f64) {
    let size_kb = w.avg_redo_write_kb.as_ref().map_or(4.0, |n| n.value);
    let members = c
        .multiplex
        .as_ref()
        .map_or(1.0, |m| m.value.round().max(1.0));
    let t = dev.service_ms(IoKind::Write, size_kb, members);
    let pen = misalignment_penalty(dev, size_kb);
    let (f_lo, f_hi) = range_factors(dev, IoKind::Write);
    (t * f_lo, t * pen * f_hi)
}

/// The redo option: `None` without `log file sync`.
pub fn redo_option(w: &IntervalFacts, dev: &DeviceProfile, p: &Plan) -> Option<OptionProjection> {
    let c = w.commit()?;
    let lfs = &c.lfs;
    if lfs.waits <= 0.0 {
        return None;
    }
    let cur = lfs.avg_ms;
    let (t_lo, t_hi) = device_write_ms(w, dev, &c);
    let writes_s = c.writes_s.as_ref().map_or(0.0, |n| n.value);
    let mut notes = Vec::new();
    let (new_lo, new_hi, method) = match c.split() {
        Some(s) => {
            let today_write = c.lfpw.as_ref().map_or(cur, |e| e.avg_ms);
            // The new average write: bucket by bucket from the `log file
            // parallel write` histogram where the report has one (writes
            // already at or below the device's time stay), else the
            // device's time; never slower than today's write.
            let hist = c.lfpw.as_ref().and_then(|e| {
                let d = w.distribution(&e.name)?;
                let hp =
                    crate::histproj::project(&e.name, Some(&d), e.waits, e.avg_ms, (t_lo, t_hi));
                hp.used_histogram
                    .then_some((hp.new_avg_ms_low, hp.new_avg_ms_high))
            });
            let (w_lo, w_hi, how) = match hist {
                Some((l, h)) => (
                    l.min(today_write),
                    h.min(today_write),
                    format!(
                        "bucket by bucket from the log file parallel write histogram (the device's {}-{} ms for writes slower than that)",
                        f2(t_lo),
                        f2(t_hi)
                    ),
                ),
                None => (
                    t_lo.min(today_write),
                    t_hi.min(today_write),
                    "the device's write time (no log file parallel write histogram)".to_string(),
                ),
            };
            let lo = s.sync_at(w_lo, writes_s).min(cur);
            let hi = s.sync_at(w_hi, writes_s).min(cur);
            notes.push(commit_terms_note(&c, &s));
            (
                lo.min(hi),
                hi.max(lo),
                format!(
                    "`log file sync` by the commit model: the average redo write ({} ms today) becomes {}-{} ms, {how}; the wait behind LGWR's write in progress follows it (LGWR {}% busy today at {} writes/s); the posting overhead ({} ms) and the scheduling time ({} ms) stay",
                    f2(today_write),
                    f2(w_lo),
                    f2(w_hi),
                    f1(s.lgwr_util * 100.0),
                    f1(writes_s),
                    f2(s.post_ms),
                    f2(s.rest_ms)
                ),
            )
        }
        None => (
            t_lo.min(cur),
            t_hi.min(cur),
            format!(
                "`log file sync`: no `log file parallel write` in the report, so the whole average ({} ms) is taken as the redo write and replaced by the device's {}-{} ms",
                f2(cur),
                f2(t_lo.min(cur)),
                f2(t_hi.min(cur))
            ),
        ),
    };
    let n = lfs.waits;
    let (saved_lo, saved_hi) = (n * (cur - new_hi) / 1000.0, n * (cur - new_lo) / 1000.0);
    let step = ProjectionStep {
        component: lfs.name.clone(),
        waits: round(n),
        share_affected: 1.0,
        current_avg_ms: round(cur),
        new_avg_ms_low: round(new_lo),
        new_avg_ms_high: round(new_hi),
        saved_s_low: round(saved_lo),
        saved_s_high: round(saved_hi),
        src: Some(lfs.src()),
        method,
    };
    let projection = finish(w, p, step.saved_s_low, step.saved_s_high, vec![step]);
    let mut after = p.breakdown.clone();
    after.commit_s = (after.commit_s - 0.5 * (saved_lo + saved_hi)).max(0.0);
    let after = rounded(&with_charges(after, &projection.steps));
    let ends = if dev.misaligned_write_penalty.is_some() {
        "the low device write assumes 4 KB-aligned redo writes, the high one 512-byte alignment (000 Table 6.1)"
    } else {
        "the low and high device write are the device class's write range (its profile gives no misalignment penalty)"
    };
    notes.push(ends.to_string());
    Some(OptionProjection {
        key: "redo".into(),
        title: REDO_TITLE.into(),
        device: dev.name.clone(),
        projection,
        before: rounded(&p.breakdown),
        after,
        capacity_gb: None,
        notes,
    })
}

/// The commit model's terms in words, each with the statistic it comes
/// from: the note of the redo option and the evidence of AF050/AF051.
pub fn commit_terms_note(c: &CommitFacts, s: &awrflash_facts::CommitSplit) -> String {
    let mut parts = vec![
        format!(
            "log file sync {} ms = redo write {} ms (log file parallel write)",
            f2(s.sync_ms),
            f2(s.write_ms)
        ),
        format!(
            "+ {} ms behind LGWR's write in progress (LGWR {}% busy: {} redo writes/s x {} ms)",
            f2(s.queue_ms),
            f1(s.lgwr_util * 100.0),
            f1(c.writes_s.as_ref().map_or(0.0, |n| n.value)),
            f2(c.lfpw.as_ref().map_or(0.0, |e| e.avg_ms))
        ),
        format!(
            "+ {} ms posting ({})",
            f2(s.post_ms),
            if c.post_ms.is_some() {
                "redo synch time overhead (usec) / redo synch writes"
            } else {
                "not in this report: counted 0"
            }
        ),
        format!(
            "+ {} ms scheduling (the rest: LGWR and the committing sessions waiting to run)",
            f2(s.rest_ms)
        ),
    ];
    if s.scale < 1.0 {
        parts.push(format!(
            "(the modelled terms add up to more than the measured average and are scaled by {})",
            f2(s.scale)
        ));
    }
    parts.join(" ")
}
