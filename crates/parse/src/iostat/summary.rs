//! Per-device summaries, the channel total and callouts of a capture.

use std::collections::{BTreeMap, HashMap, HashSet};

use awrflash_model::{
    ChannelLoad, ChannelPoint, DeviceSample, DeviceSummary, IostatCapture, stats,
};

// ---------------------------------------------------------------- summaries

/// Mean, p95 and max; zeros for an empty series. The mean and the p95 are
/// the model's (`awrflash_model::stats`: nearest rank), the same everywhere
/// a p95 is printed.
pub(crate) fn stats(v: &[f64]) -> (f64, f64, f64) {
    let mean = stats::mean(v.iter().copied()).unwrap_or(0.0);
    let p95 = stats::p95(v.iter().copied()).unwrap_or(0.0);
    let max = v
        .iter()
        .copied()
        .filter(|x| x.is_finite())
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))))
        .unwrap_or(0.0);
    (round(mean), round(p95), round(max))
}

pub(super) fn opt_stats(v: &[f64]) -> (Option<f64>, Option<f64>, Option<f64>) {
    if v.is_empty() {
        (None, None, None)
    } else {
        let (a, b, c) = stats(v);
        (Some(a), Some(b), Some(c))
    }
}

/// Three decimals: summaries are read by people and snapshotted.
pub(crate) fn round(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

pub(super) fn mean_opt(v: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let vals: Vec<f64> = v.flatten().collect();
    (!vals.is_empty()).then(|| round(vals.iter().sum::<f64>() / vals.len() as f64))
}

/// A weighted mean `sum(x*w)/sum(w)`; `None` without weight.
pub(super) fn weighted(pairs: impl Iterator<Item = (f64, f64)>) -> Option<f64> {
    let (mut num, mut den) = (0.0, 0.0);
    for (x, w) in pairs {
        num += x * w;
        den += w;
    }
    (den > 0.0).then(|| round(num / den))
}

/// Storage drivers whose `sar -d` rows are controller totals (Solaris).
const CONTROLLERS: &[&str] = &[
    "mpt_sas",
    "mpt",
    "iscsi",
    "scsi_vhc",
    "scsi_vhci",
    "xhci",
    "ehci",
    "ohci",
    "uhci",
    "ahci",
    "fp",
    "fcp",
    "qlc",
    "emlxs",
    "pmcs",
    "nv_sata",
    "si3124",
    "mr_sas",
    "lsimega",
    "sata",
];

/// Whether a device is layered on another one listed in the same capture
/// (a partition, a path, a controller total, or a device-mapper/md volume
/// over whole disks), so the channel total does not count it twice.
pub(crate) fn layered(name: &str, all: &HashSet<&str>) -> bool {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
    let base = name.split([',', '.']).next().unwrap_or(name);
    if CONTROLLERS.contains(&stem)
        || CONTROLLERS.contains(&base.trim_end_matches(|c: char| c.is_ascii_digit()))
    {
        return true;
    }
    // Solaris `sd4,a` (slice) and `sd4.t2.mpt_sas2` (path).
    if let Some((base, _)) = name.split_once([',', '.'])
        && all.contains(base)
    {
        return true;
    }
    // Solaris `iostat -C` controller totals: `c2` over `c2t0d0`...
    if let Some(num) = name.strip_prefix('c')
        && !num.is_empty()
        && num.bytes().all(|b| b.is_ascii_digit())
        && all.iter().any(|d| {
            d.len() > name.len() + 1
                && d.starts_with(name)
                && d.get(name.len()..name.len() + 1) == Some("t")
        })
    {
        return true;
    }
    // nvme0n1p1, mmcblk0p2.
    if stem.len() < name.len() && stem.ends_with('p') {
        let parent = stem.trim_end_matches('p');
        if parent.ends_with(|c: char| c.is_ascii_digit()) && all.contains(parent) {
            return true;
        }
    }
    // sda1, xvdb2, vda10.
    if stem.len() < name.len() && stem.chars().all(|c| c.is_ascii_lowercase()) && all.contains(stem)
    {
        return true;
    }
    // Solaris c0t0d0s0.
    if let Some(pos) = stem.rfind('s')
        && stem.len() == pos + 1
        && stem.len() < name.len()
    {
        let parent = stem.get(..pos).unwrap_or("");
        if all.contains(parent) {
            return true;
        }
    }
    false
}

/// Device-mapper, md and VxVM volumes, and multipath maps as `-N`/`-p`
/// name them (`mpatha`): they sit on disks the capture usually lists too.
fn is_volume(name: &str) -> bool {
    let stem = name.trim_end_matches(|c: char| c.is_ascii_digit());
    (stem.len() < name.len() && matches!(stem, "dm-" | "md" | "VxVM" | "vx" | "vxvm"))
        || name.starts_with("mpath")
        || name.starts_with("mapper/")
}

/// Fills `summary` and `channel` from the samples (since-boot samples left out).
pub fn summarize(cap: &mut IostatCapture) {
    summarize_with(cap, false);
}

/// [`summarize`], optionally counting the since-boot reports too (for a
/// capture taken with `iostat -y`, whose first report is a real interval).
pub fn summarize_with(cap: &mut IostatCapture, include_since_boot: bool) {
    let mut order: Vec<&str> = Vec::new();
    let mut by_dev: HashMap<&str, Vec<&DeviceSample>> = HashMap::new();
    for s in &cap.samples {
        let e = by_dev.entry(s.device.as_str()).or_default();
        if e.is_empty() && !order.contains(&s.device.as_str()) {
            order.push(s.device.as_str());
        }
        if include_since_boot || !s.since_boot {
            e.push(s);
        }
    }
    let all: HashSet<&str> = order.iter().copied().collect();
    let mut is_layered: HashSet<&str> =
        order.iter().copied().filter(|d| layered(d, &all)).collect();
    // Volumes sit on disks the capture lists too, unless the disks carry
    // less than the busiest volume (then its disks are not listed and the
    // volumes are the better total). Volumes may stack (LVM on dm-crypt),
    // so they are not summed for this test.
    let traffic = |d: &str| -> f64 {
        by_dev
            .get(d)
            .into_iter()
            .flatten()
            .filter_map(|s| s.mb_s())
            .sum()
    };
    let disk_mb: f64 = order
        .iter()
        .filter(|d| !is_layered.contains(*d) && !is_volume(d))
        .map(|d| traffic(d))
        .sum();
    let volume_mb = order
        .iter()
        .filter(|d| !is_layered.contains(*d) && is_volume(d))
        .map(|d| traffic(d))
        .fold(0.0, f64::max);
    let has_disks = order
        .iter()
        .any(|d| !is_layered.contains(d) && !is_volume(d));
    if has_disks && disk_mb >= 0.9 * volume_mb {
        for d in &order {
            if is_volume(d) {
                is_layered.insert(d);
            }
        }
    }

    let mut summary = Vec::new();
    for dev in &order {
        let rows = by_dev.get(dev).map(Vec::as_slice).unwrap_or(&[]);
        summary.push(device_summary(dev, rows, is_layered.contains(dev)));
    }
    callouts(&mut summary);

    let channel_devs: Vec<String> = order
        .iter()
        .filter(|d| !is_layered.contains(*d))
        .map(|d| d.to_string())
        .collect();
    let chan: HashSet<&str> = channel_devs.iter().map(String::as_str).collect();
    let mut points: BTreeMap<u32, ChannelPoint> = BTreeMap::new();
    for s in &cap.samples {
        if !chan.contains(s.device.as_str()) {
            continue;
        }
        let p = points.entry(s.interval).or_insert_with(|| ChannelPoint {
            interval: s.interval,
            time: s.time.clone(),
            since_boot: s.since_boot,
            ..ChannelPoint::default()
        });
        p.iops += s.iops().unwrap_or(0.0);
        p.mb_s += s.mb_s().unwrap_or(0.0);
    }
    let points: Vec<ChannelPoint> = points
        .into_values()
        .map(|mut p| {
            p.iops = round(p.iops);
            p.mb_s = round(p.mb_s);
            p
        })
        .collect();
    let live: Vec<&ChannelPoint> = points
        .iter()
        .filter(|p| include_since_boot || !p.since_boot)
        .collect();
    let (mb_s_mean, mb_s_p95, mb_s_max) = stats(&live.iter().map(|p| p.mb_s).collect::<Vec<_>>());
    let (iops_mean, iops_p95, iops_max) = stats(&live.iter().map(|p| p.iops).collect::<Vec<_>>());
    cap.channel = ChannelLoad {
        devices: channel_devs,
        points,
        mb_s_mean,
        mb_s_p95,
        mb_s_max,
        iops_mean,
        iops_p95,
        iops_max,
    };
    cap.summary = summary;
}

fn device_summary(dev: &str, rows: &[&DeviceSample], layered: bool) -> DeviceSummary {
    let iops: Vec<f64> = rows.iter().filter_map(|s| s.iops()).collect();
    let mbs: Vec<f64> = rows.iter().filter_map(|s| s.mb_s()).collect();
    // Latency is read where there was I/O: idle intervals print 0.00 and
    // would pull the mean towards zero.
    let busy: Vec<&&DeviceSample> = rows
        .iter()
        .filter(|s| s.iops().is_some_and(|n| n > 0.0))
        .collect();
    let awaits: Vec<f64> = busy.iter().filter_map(|s| s.await_ms).collect();
    let utils: Vec<f64> = rows.iter().filter_map(|s| s.util_pct).collect();
    let (iops_mean, iops_p95, iops_max) = stats(&iops);
    let (mb_s_mean, mb_s_p95, mb_s_max) = stats(&mbs);
    let (_, await_p95, await_max) = opt_stats(&awaits);
    let await_mean = weighted(busy.iter().filter_map(|s| Some((s.await_ms?, s.iops()?))));
    let (util_mean, util_p95, util_max) = opt_stats(&utils);
    let total_kb: f64 = rows.iter().filter_map(|s| s.mb_s()).sum::<f64>() * 1024.0;
    let total_io: f64 = iops.iter().sum();
    DeviceSummary {
        device: dev.to_string(),
        role: None,
        samples: rows.len() as u32,
        iops_mean,
        iops_p95,
        iops_max,
        mb_s_mean,
        mb_s_p95,
        mb_s_max,
        await_ms_mean: await_mean,
        await_ms_p95: await_p95,
        await_ms_max: await_max,
        util_pct_mean: util_mean,
        util_pct_p95: util_p95,
        util_pct_max: util_max,
        callouts: Vec::new(),
        r_s_mean: mean_opt(rows.iter().map(|s| s.r_s)),
        w_s_mean: mean_opt(rows.iter().map(|s| s.w_s)),
        read_mb_s_mean: mean_opt(rows.iter().map(|s| s.rkb_s.map(|k| k / 1024.0))),
        write_mb_s_mean: mean_opt(rows.iter().map(|s| s.wkb_s.map(|k| k / 1024.0))),
        r_await_ms_mean: weighted(rows.iter().filter_map(|s| Some((s.r_await_ms?, s.r_s?)))),
        w_await_ms_mean: weighted(rows.iter().filter_map(|s| Some((s.w_await_ms?, s.w_s?)))),
        avg_rq_kb_mean: (total_io > 0.0).then(|| round(total_kb / total_io)),
        queue_mean: mean_opt(rows.iter().map(|s| s.queue)),
        layered,
    }
}

/// Devices with at least this many IOPS on average take part in the peer
/// comparison of await.
const PEER_MIN_IOPS: f64 = 1.0;
/// An await this many times the median device's is called out...
const PEER_FACTOR: f64 = 5.0;
/// ...when it is also at least this many milliseconds.
const PEER_MIN_MS: f64 = 5.0;
pub(super) const UTIL_HOT: f64 = 90.0;

fn callouts(summary: &mut [DeviceSummary]) {
    let mut peers: Vec<f64> = summary
        .iter()
        .filter(|d| d.iops_mean >= PEER_MIN_IOPS && !d.layered)
        .filter_map(|d| d.await_ms_mean)
        .collect();
    peers.sort_by(f64::total_cmp);
    let median = if peers.len() >= 3 {
        peers.get(peers.len() / 2).copied()
    } else {
        None
    };
    for d in summary.iter_mut() {
        if let Some(p95) = d.util_pct_p95.filter(|v| *v >= UTIL_HOT) {
            d.callouts
                .push(format!("%util p95 {p95:.1} >= {UTIL_HOT:.0}: saturated"));
        } else if let Some(max) = d.util_pct_max.filter(|v| *v >= UTIL_HOT) {
            d.callouts
                .push(format!("%util reached {max:.1} (>= {UTIL_HOT:.0}) at peak"));
        }
        if let (Some(m), Some(a)) = (median, d.await_ms_mean)
            && d.iops_mean >= PEER_MIN_IOPS
            && a >= PEER_MIN_MS
            && m > 0.0
            && a >= PEER_FACTOR * m
        {
            d.callouts.push(format!(
                "await {a:.1} ms is {:.1}x the median device ({m:.1} ms)",
                a / m
            ));
        }
    }
}
