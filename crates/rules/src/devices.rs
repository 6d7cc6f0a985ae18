//! Device profiles (`catalogue/devices.toml`, i.e. `rules/devices.toml`, plus the user's TOML): service time
//! by I/O kind, size and concurrency.

use serde::{Deserialize, Serialize};

use crate::RulesError;

const BUILTIN: &str = include_str!("../catalogue/devices.toml");

/// The default target device of a projection: an all-flash array over FC or
/// iSCSI, the class a DBA buying storage today compares against. The seed
/// devices (`f5100-fmod`, ...) stay for calibration.
pub const DEFAULT_FLASH: &str = "afa-fc";
/// The profile used on Exadata, where the flash is the storage cells' own.
pub const EXADATA_FLASH: &str = "exadata-cell-flash";

/// The profile an analysis plans for: the one the user names, else on
/// Exadata the cells' flash, else the default flash.
pub(crate) fn planned(named: Option<&str>, on_exadata: bool) -> &str {
    named.unwrap_or(if on_exadata {
        EXADATA_FLASH
    } else {
        DEFAULT_FLASH
    })
}

/// What a device file looks like, for the error a wrong shape gets.
const SHAPE: &str = "a device file holds one `[[device]]` table per profile (double brackets) with name, class, description, source, concurrency, read_8k_ms, write_8k_ms, read_1m_ms and write_1m_ms (one service time in ms per concurrency point), and optionally assumption, units, read_range_ms, write_range_ms, derivation and misaligned_write_penalty; `awrflash devices --template` prints one to edit";

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
    /// Plausible 8 KB read service time of the class at light to moderate
    /// load, low and high (ms); the projection's range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_range_ms: Option<[f64; 2]>,
    /// The same for 8 KB writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub write_range_ms: Option<[f64; 2]>,
    /// How assumed figures were derived from the cited source.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub derivation: String,
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
            && self.units > 0.0
            && [self.read_range_ms, self.write_range_ms]
                .iter()
                .flatten()
                .all(|[lo, hi]| lo.is_finite() && hi.is_finite() && *lo > 0.0 && lo <= hi);
        if ok {
            Ok(())
        } else {
            Err(RulesError::Config(format!(
                "device `{}`: concurrency must be increasing, every service-time list must have one positive value per concurrency point, and a range must be [low, high] with 0 < low <= high",
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

    /// The class's 8 KB service time range (low, high) in ms: the profile's
    /// `read_range_ms` / `write_range_ms`, or the table's time at one
    /// outstanding I/O when the profile gives no range.
    pub fn range_ms(&self, kind: IoKind) -> (f64, f64) {
        let (range, table) = match kind {
            IoKind::Read => (self.read_range_ms, &self.read_8k_ms),
            IoKind::Write => (self.write_range_ms, &self.write_8k_ms),
        };
        match range {
            Some([lo, hi]) => (lo, hi),
            None => {
                let t = table.first().copied().unwrap_or(0.0);
                (t, t)
            }
        }
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
            read_range_ms: self.range_ms(IoKind::Read),
            write_range_ms: self.range_ms(IoKind::Write),
            derivation: self.derivation.clone(),
            default: self.name == DEFAULT_FLASH,
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
    let file: DeviceFile = toml::from_str(text).map_err(|e| {
        RulesError::Config(format!("{what}: {}; {SHAPE}", e.to_string().trim_end()))
    })?;
    for d in &file.device {
        d.validate()?;
    }
    Ok(file.device)
}

/// An editable device file: the default target's profile under a new name,
/// every field commented. `awrflash devices --template` prints it; it loads
/// back with `--devices FILE`.
pub fn template() -> Result<String, RulesError> {
    let list = load(None)?;
    let d = find(&list, DEFAULT_FLASH)?;
    let nums = |v: &[f64]| {
        v.iter()
            .map(|x| format!("{x:?}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let range = |kind| {
        let (lo, hi) = d.range_ms(kind);
        format!("[{lo:?}, {hi:?}]")
    };
    let mut t = String::new();
    t.push_str("# An awrflash device profile: edit the figures to your device's, then\n");
    t.push_str("#   awrflash analyze REPORT --devices THIS_FILE --device my-array\n");
    t.push_str("# Several profiles: repeat the [[device]] table (double brackets).\n");
    t.push_str(&format!(
        "# Starting point: the built-in `{}` profile ({}).\n\n",
        d.name, d.source
    ));
    t.push_str("[[device]]\n");
    t.push_str("# The name --device selects (a built-in name replaces that profile).\n");
    t.push_str("name = \"my-array\"\n");
    t.push_str("# `flash` or `disk`.\n");
    t.push_str(&format!("class = {:?}\n", d.class));
    t.push_str("description = \"My storage array (edit)\"\n");
    t.push_str("# Where the figures come from (datasheet, benchmark, iostat of a test).\n");
    t.push_str("source = \"my measurements (edit)\"\n");
    t.push_str("# true while the figures are not measured on the device itself.\n");
    t.push_str("assumption = true\n");
    t.push_str("# Devices (arrays, volumes, drives) the database's I/O is spread over.\n");
    t.push_str(&format!("units = {:?}\n", d.units));
    t.push_str("# 8 KB service time at light to moderate load, [low, high] ms: the\n");
    t.push_str("# projection's range.\n");
    t.push_str(&format!("read_range_ms = {}\n", range(IoKind::Read)));
    t.push_str(&format!("write_range_ms = {}\n", range(IoKind::Write)));
    t.push_str("# Service time (ms) per outstanding I/Os per unit: one value per\n");
    t.push_str("# concurrency point, for 8 KB and 1 MB reads and writes.\n");
    t.push_str(&format!("concurrency = [{}]\n", nums(&d.concurrency)));
    t.push_str(&format!("read_8k_ms = [{}]\n", nums(&d.read_8k_ms)));
    t.push_str(&format!("write_8k_ms = [{}]\n", nums(&d.write_8k_ms)));
    t.push_str(&format!("read_1m_ms = [{}]\n", nums(&d.read_1m_ms)));
    t.push_str(&format!("write_1m_ms = [{}]\n", nums(&d.write_1m_ms)));
    Ok(t)
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
        let bad_range = user.replace("concurrency", "read_range_ms = [0.5, 0.1]\nconcurrency");
        assert!(load(Some(&bad_range)).is_err());
    }

    #[test]
    fn a_guessed_single_bracket_file_is_told_the_expected_shape() {
        let guessed = "[device]\nname = \"x\"\n";
        let e = load(Some(guessed)).unwrap_err().to_string();
        assert!(e.contains("[[device]]") && e.contains("--template"), "{e}");
    }

    #[test]
    fn the_template_loads_back_as_a_user_device_file() {
        let t = template().unwrap();
        let list = load(Some(&t)).unwrap();
        let mine = find(&list, "my-array").unwrap();
        let default = find(&list, DEFAULT_FLASH).unwrap();
        assert!(mine.assumption);
        assert_eq!(mine.read_8k_ms, default.read_8k_ms);
        assert_eq!(mine.range_ms(IoKind::Read), default.range_ms(IoKind::Read));
        assert_eq!(
            mine.range_ms(IoKind::Write),
            default.range_ms(IoKind::Write)
        );
        // The built-ins are all still there.
        assert_eq!(list.len(), load(None).unwrap().len() + 1);
    }

    #[test]
    fn todays_classes_cite_a_source_and_carry_a_range() {
        let list = load(None).unwrap();
        for name in [
            "afa-fc",
            "nvme-modern",
            "aws-io2-bx",
            "azure-premium-ssd-v2",
            "azure-ultra-disk",
            "gcp-hyperdisk-extreme",
            "exadata-cell-flash",
        ] {
            let d = find(&list, name).unwrap();
            assert!(
                d.assumption && !d.source.is_empty() && !d.derivation.is_empty(),
                "{name}"
            );
            let (lo, hi) = d.range_ms(IoKind::Read);
            assert!(lo < hi, "{name}");
            // The table's time at one outstanding I/O sits inside the range.
            let qd1 = d.service_ms(IoKind::Read, 8.0, 1.0);
            assert!(lo <= qd1 && qd1 <= hi, "{name}: {qd1} not in {lo}-{hi}");
            let (wlo, whi) = d.range_ms(IoKind::Write);
            let wqd1 = d.service_ms(IoKind::Write, 8.0, 1.0);
            assert!(
                wlo <= wqd1 && wqd1 <= whi,
                "{name}: write {wqd1} not in {wlo}-{whi}"
            );
        }
        // A seed device without a range: its one-outstanding-I/O time.
        let f = find(&list, "f5100-fmod").unwrap();
        assert_eq!(f.range_ms(IoKind::Read), (0.37, 0.37));
        assert_eq!(find(&list, DEFAULT_FLASH).unwrap().name, "afa-fc");
    }
}
