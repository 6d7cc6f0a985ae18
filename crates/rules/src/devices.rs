//! Device profiles (`catalogue/devices.toml`, i.e. `rules/devices.toml`, plus the user's TOML): service time
//! by I/O kind, size and concurrency.

use serde::{Deserialize, Serialize};

use crate::RulesError;

const BUILTIN: &str = include_str!("../catalogue/devices.toml");

/// The default flash device of a projection: the seed's measured module.
pub const DEFAULT_FLASH: &str = "f5100-fmod";

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct DeviceFile {
    device: Vec<DeviceProfile>,
}

/// One device's service-time table.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeviceProfile {
    pub name: String,
    /// `flash` or `disk`.
    pub class: String,
    pub description: String,
    pub source: String,
    /// Not measured in the seeds (an editable assumption).
    #[serde(default)]
    pub assumption: bool,
    /// Devices a deployment spreads the I/O over.
    #[serde(default = "one")]
    pub units: f64,
    pub concurrency: Vec<f64>,
    pub read_8k_ms: Vec<f64>,
    pub write_8k_ms: Vec<f64>,
    pub read_1m_ms: Vec<f64>,
    pub write_1m_ms: Vec<f64>,
    /// Multiplier on small writes not aligned on 4 KB (000 Table 6.1).
    #[serde(default)]
    pub misaligned_write_penalty: Option<f64>,
}

fn one() -> f64 {
    1.0
}

/// Read or write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IoKind {
    Read,
    Write,
}

impl DeviceProfile {
    fn validate(&self) -> Result<(), RulesError> {
        let n = self.concurrency.len();
        let ok = n > 0
            && [
                &self.read_8k_ms,
                &self.write_8k_ms,
                &self.read_1m_ms,
                &self.write_1m_ms,
            ]
            .iter()
            .all(|v| v.len() == n && v.iter().all(|x| x.is_finite() && *x > 0.0))
            && self.concurrency.windows(2).all(|w| match w {
                [a, b] => a < b,
                _ => true,
            })
            && self.units > 0.0;
        if ok {
            Ok(())
        } else {
            Err(RulesError::Config(format!(
                "device `{}`: concurrency must be increasing and every service-time list must have one positive value per concurrency point",
                self.name
            )))
        }
    }

    /// Service time (ms) of one I/O of `size_kb` at `per_unit_conc`
    /// outstanding I/Os per unit.
    pub fn service_ms(&self, kind: IoKind, size_kb: f64, per_unit_conc: f64) -> f64 {
        let (small, large) = match kind {
            IoKind::Read => (&self.read_8k_ms, &self.read_1m_ms),
            IoKind::Write => (&self.write_8k_ms, &self.write_1m_ms),
        };
        let t8 = interp(&self.concurrency, small, per_unit_conc);
        let t1m = interp(&self.concurrency, large, per_unit_conc);
        let size = size_kb.clamp(8.0, 1024.0);
        // Linear in size: setup + size / bandwidth.
        t8 + (t1m - t8) * (size - 8.0) / (1024.0 - 8.0)
    }

    /// Solves Little's law for the device: at `rate_per_s` I/Os of `size_kb`,
    /// the outstanding count is rate x time; returns (time ms, outstanding).
    pub fn at_rate(&self, kind: IoKind, size_kb: f64, rate_per_s: f64) -> (f64, f64) {
        let mut t = self.service_ms(kind, size_kb, 1.0);
        for _ in 0..50 {
            let conc = (rate_per_s * t / 1000.0 / self.units).max(1.0);
            let next = self.service_ms(kind, size_kb, conc);
            if (next - t).abs() < 1e-9 {
                break;
            }
            t = 0.5 * (t + next);
        }
        (t, rate_per_s * t / 1000.0)
    }

    pub fn spec(&self) -> crate::DeviceSpec {
        crate::DeviceSpec {
            name: self.name.clone(),
            description: self.description.clone(),
            source: self.source.clone(),
            class: self.class.clone(),
            assumption: self.assumption,
            units: self.units,
            read_8k_ms_qd1: self.read_8k_ms.first().copied().unwrap_or(0.0),
            write_8k_ms_qd1: self.write_8k_ms.first().copied().unwrap_or(0.0),
        }
    }
}

/// Piecewise-linear in concurrency; below the first point the first value;
/// beyond the last, time grows in proportion to the queue (Little's law at
/// the device's peak rate).
fn interp(xs: &[f64], ys: &[f64], x: f64) -> f64 {
    let pairs: Vec<(f64, f64)> = xs.iter().copied().zip(ys.iter().copied()).collect();
    let (Some(first), Some(last)) = (pairs.first(), pairs.last()) else {
        return 0.0;
    };
    if x <= first.0 {
        return first.1;
    }
    if x >= last.0 {
        return last.1 * x / last.0;
    }
    for w in pairs.windows(2) {
        if let [a, b] = w
            && x >= a.0
            && x <= b.0
        {
            let f = (x - a.0) / (b.0 - a.0);
            return a.1 + f * (b.1 - a.1);
        }
    }
    last.1
}

/// Built-in profiles followed by the user's (a user profile with a built-in
/// name replaces it).
pub fn load(user_toml: Option<&str>) -> Result<Vec<DeviceProfile>, RulesError> {
    let mut list = parse(BUILTIN, "rules/devices.toml")?;
    if let Some(text) = user_toml {
        for d in parse(text, "the user device file")? {
            list.retain(|x| x.name != d.name);
            list.push(d);
        }
    }
    Ok(list)
}

fn parse(text: &str, what: &str) -> Result<Vec<DeviceProfile>, RulesError> {
    let file: DeviceFile =
        toml::from_str(text).map_err(|e| RulesError::Config(format!("{what}: {e}")))?;
    for d in &file.device {
        d.validate()?;
    }
    Ok(file.device)
}

/// Finds a profile by name (case-insensitive).
pub fn find<'a>(list: &'a [DeviceProfile], name: &str) -> Result<&'a DeviceProfile, RulesError> {
    list.iter()
        .find(|d| d.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            let names: Vec<&str> = list.iter().map(|d| d.name.as_str()).collect();
            RulesError::Config(format!(
                "unknown device `{name}`; known: {}",
                names.join(", ")
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_profiles_load_and_interpolate_table_2_2() {
        let list = load(None).unwrap();
        let f = find(&list, "f5100-fmod").unwrap();
        assert!((f.service_ms(IoKind::Read, 8.0, 1.0) - 0.37).abs() < 1e-9);
        assert!((f.service_ms(IoKind::Read, 1024.0, 16.0) - 60.6).abs() < 1e-9);
        // Between 8 and 16 users.
        let t = f.service_ms(IoKind::Read, 8.0, 12.0);
        assert!(t > 0.71 && t < 1.38);
        // Beyond the table the queue grows the time.
        assert!(f.service_ms(IoKind::Read, 8.0, 32.0) > 2.0);
        assert!(find(&list, "nvme-modern").unwrap().assumption);
    }

    #[test]
    fn user_profile_replaces_builtin_and_bad_profile_is_an_error() {
        let user = r#"
[[device]]
name = "nvme-modern"
class = "flash"
description = "mine"
source = "my datasheet"
concurrency = [1]
read_8k_ms = [0.05]
write_8k_ms = [0.02]
read_1m_ms = [0.4]
write_1m_ms = [0.5]
"#;
        let list = load(Some(user)).unwrap();
        assert_eq!(find(&list, "nvme-modern").unwrap().description, "mine");
        let bad = user.replace("read_8k_ms = [0.05]", "read_8k_ms = [0.05, 1.0]");
        assert!(load(Some(&bad)).is_err());
    }
}
