//! The user's device-to-role mapping and the per-role summaries.

use std::collections::{BTreeMap, HashSet};

use awrflash_model::{DeviceSample, IostatCapture, RoleSummary, Warning};

use super::summary::{UTIL_HOT, mean_opt, opt_stats, stats, weighted};
use crate::ParseError;

/// A device-to-role mapping the user wrote, read by [`parse_roles`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RoleMap {
    /// The file it was read from, to name it in warnings.
    pub path: String,
    /// `(device pattern, role)` pairs in the order written; a pattern
    /// ending in `*` matches by prefix.
    pub pairs: Vec<(String, String)>,
}

impl RoleMap {
    /// The role of a device: an exact name first, then a prefix pattern.
    pub fn role_of(&self, dev: &str) -> Option<&str> {
        self.pairs
            .iter()
            .find(|(p, _)| p == dev)
            .or_else(|| {
                self.pairs
                    .iter()
                    .find(|(p, _)| p.strip_suffix('*').is_some_and(|pre| dev.starts_with(pre)))
            })
            .map(|(_, r)| r.as_str())
    }
}

/// Reads a device-to-role mapping the user wrote.
///
/// TOML: `sdb = "redo"` pairs (top level or under `[devices]`), or
/// `redo = ["sdb", "sdc"]` lists (top level or under `[roles]`). CSV:
/// `device,role` lines, an optional header, `#` comments. A name ending in
/// `*` matches by prefix (`sdd*`).
pub fn parse_roles(text: &str, path: &str) -> Result<RoleMap, ParseError> {
    Ok(RoleMap {
        path: path.to_string(),
        pairs: read_mapping(path, text)?,
    })
}

/// Reads the mapping in `mapping` and applies it: a thin wrapper over
/// [`parse_roles`] and [`apply_role_map`] kept for callers that read the
/// file themselves.
pub fn apply_roles(cap: &mut IostatCapture, path: &str, mapping: &str) -> Result<(), ParseError> {
    let map = parse_roles(mapping, path)?;
    apply_role_map(cap, &map);
    Ok(())
}

/// Groups the device summaries of a capture by role. Devices the capture
/// does not list are warnings, not errors.
pub fn apply_role_map(cap: &mut IostatCapture, map: &RoleMap) {
    let mut roles: Vec<&str> = Vec::new();
    for (_, r) in &map.pairs {
        if !roles.contains(&r.as_str()) {
            roles.push(r);
        }
    }
    for d in &mut cap.summary {
        d.role = map.role_of(&d.device).map(str::to_string);
    }
    for (p, r) in &map.pairs {
        let found = match p.strip_suffix('*') {
            Some(pre) => cap.summary.iter().any(|d| d.device.starts_with(pre)),
            None => cap.summary.iter().any(|d| &d.device == p),
        };
        if !found {
            cap.warnings.push(Warning::new(
                "roles",
                0,
                format!(
                    "{}: device \"{p}\" (role {r}) is not in the capture",
                    map.path
                ),
            ));
        }
    }
    let mut out = Vec::new();
    for role in roles {
        let devices: Vec<String> = cap
            .summary
            .iter()
            .filter(|d| d.role.as_deref() == Some(role))
            .map(|d| d.device.clone())
            .collect();
        if devices.is_empty() {
            continue;
        }
        out.push(role_summary(role, devices, &cap.samples));
    }
    cap.roles = out;
}

fn role_summary(role: &str, devices: Vec<String>, samples: &[DeviceSample]) -> RoleSummary {
    #[derive(Default)]
    struct Acc {
        iops: f64,
        mb: f64,
        rmb: Option<f64>,
        wmb: Option<f64>,
        aw: (f64, f64),
        waw: (f64, f64),
        util: Option<f64>,
    }
    let set: HashSet<&str> = devices.iter().map(String::as_str).collect();
    let mut per: BTreeMap<u32, Acc> = BTreeMap::new();
    for s in samples {
        if s.since_boot || !set.contains(s.device.as_str()) {
            continue;
        }
        let a = per.entry(s.interval).or_default();
        let n = s.iops().unwrap_or(0.0);
        a.iops += n;
        a.mb += s.mb_s().unwrap_or(0.0);
        if let Some(r) = s.rkb_s {
            a.rmb = Some(a.rmb.unwrap_or(0.0) + r / 1024.0);
        }
        if let Some(w) = s.wkb_s {
            a.wmb = Some(a.wmb.unwrap_or(0.0) + w / 1024.0);
        }
        if let Some(aw) = s.await_ms {
            a.aw.0 += aw * n;
            a.aw.1 += n;
        }
        if let (Some(wa), Some(w)) = (s.w_await_ms, s.w_s) {
            a.waw.0 += wa * w;
            a.waw.1 += w;
        }
        if let Some(u) = s.util_pct {
            a.util = Some(a.util.map_or(u, |m: f64| m.max(u)));
        }
    }
    let accs: Vec<&Acc> = per.values().collect();
    let (iops_mean, iops_p95, iops_max) = stats(&accs.iter().map(|a| a.iops).collect::<Vec<_>>());
    let (mb_s_mean, mb_s_p95, mb_s_max) = stats(&accs.iter().map(|a| a.mb).collect::<Vec<_>>());
    let awaits: Vec<f64> = accs
        .iter()
        .filter(|a| a.aw.1 > 0.0)
        .map(|a| a.aw.0 / a.aw.1)
        .collect();
    let (_, await_p95, await_max) = opt_stats(&awaits);
    let utils: Vec<f64> = accs.iter().filter_map(|a| a.util).collect();
    let (util_mean, util_p95, util_max) = opt_stats(&utils);
    let mut callouts = Vec::new();
    if let Some(p95) = util_p95.filter(|v| *v >= UTIL_HOT) {
        callouts.push(format!(
            "busiest member's %util p95 {p95:.1} >= {UTIL_HOT:.0}: saturated"
        ));
    }
    RoleSummary {
        role: role.to_string(),
        devices,
        samples: accs.len() as u32,
        iops_mean,
        iops_p95,
        iops_max,
        mb_s_mean,
        mb_s_p95,
        mb_s_max,
        read_mb_s_mean: mean_opt(accs.iter().map(|a| a.rmb)),
        write_mb_s_mean: mean_opt(accs.iter().map(|a| a.wmb)),
        await_ms_mean: weighted(
            accs.iter()
                .map(|a| (a.aw.0 / a.aw.1.max(f64::MIN_POSITIVE), a.aw.1)),
        ),
        await_ms_p95: await_p95,
        await_ms_max: await_max,
        w_await_ms_mean: weighted(
            accs.iter()
                .map(|a| (a.waw.0 / a.waw.1.max(f64::MIN_POSITIVE), a.waw.1)),
        ),
        util_pct_mean: util_mean,
        util_pct_p95: util_p95,
        util_pct_max: util_max,
        callouts,
    }
}

/// `(device pattern, role)` pairs in the order written.
fn read_mapping(path: &str, text: &str) -> Result<Vec<(String, String)>, ParseError> {
    let bad = |line: u32, message: String| ParseError::Malformed {
        path: path.to_string(),
        line,
        section: "roles".into(),
        message,
    };
    let looks_toml = text.lines().any(|l| {
        let t = l.trim();
        t.starts_with('[') || (t.contains('=') && !t.starts_with('#'))
    });
    let mut pairs = Vec::new();
    if looks_toml {
        let table: toml::Table = text
            .parse()
            .map_err(|e: toml::de::Error| bad(0, format!("not valid TOML: {}", e.message())))?;
        collect_toml(&table, &mut pairs, path)?;
    } else {
        for (i, l) in text.lines().enumerate() {
            let t = l.trim();
            if t.is_empty() || t.starts_with('#') {
                continue;
            }
            let mut f = t
                .split([',', ';', '\t'])
                .map(|c| c.trim().trim_matches('"').trim());
            let (Some(dev), Some(role)) = (f.next(), f.next()) else {
                return Err(bad(i as u32 + 1, format!("expected device,role: \"{t}\"")));
            };
            if i == 0 && dev.eq_ignore_ascii_case("device") {
                continue;
            }
            if dev.is_empty() || role.is_empty() {
                return Err(bad(i as u32 + 1, format!("empty device or role: \"{t}\"")));
            }
            pairs.push((dev.to_string(), role.to_string()));
        }
    }
    if pairs.is_empty() {
        return Err(bad(0, "no device -> role pairs".into()));
    }
    Ok(pairs)
}

fn collect_toml(
    table: &toml::Table,
    pairs: &mut Vec<(String, String)>,
    path: &str,
) -> Result<(), ParseError> {
    for (k, v) in table {
        match v {
            toml::Value::String(role) => pairs.push((k.clone(), role.clone())),
            toml::Value::Array(devs) => {
                for d in devs {
                    match d {
                        toml::Value::String(d) => pairs.push((d.clone(), k.clone())),
                        other => {
                            return Err(ParseError::Malformed {
                                path: path.to_string(),
                                line: 0,
                                section: "roles".into(),
                                message: format!("role {k}: expected device names, got {other}"),
                            });
                        }
                    }
                }
            }
            toml::Value::Table(t) => collect_toml(t, pairs, path)?,
            other => {
                return Err(ParseError::Malformed {
                    path: path.to_string(),
                    line: 0,
                    section: "roles".into(),
                    message: format!("{k}: expected a role name or a list of devices, got {other}"),
                });
            }
        }
    }
    Ok(())
}
