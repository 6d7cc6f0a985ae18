//! Site defaults from `awrflash.toml` (in the working directory, or the file
//! given with `--config`): the facts an assessment needs that no report
//! carries. A flag given on the command line wins over the file.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde::Deserialize;

use crate::args::AdvisorArgs;

/// The file read from the working directory when `--config` is not given.
pub const DEFAULT_FILE: &str = "awrflash.toml";

/// What the file may set. Unknown keys are an error, so a typo never
/// silently drops a site default.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Device profile name (`awrflash devices`).
    pub device: Option<String>,
    /// Extra device profiles (TOML), relative to the config file.
    pub devices: Option<PathBuf>,
    /// I/O channel capacity, MB/s.
    pub channel_mbps: Option<f64>,
    /// Flash budget, GB.
    pub flash_capacity_gb: Option<f64>,
    /// Device roles file (TOML or CSV), relative to the config file.
    pub roles: Option<PathBuf>,
}

/// Reads `explicit`, else `awrflash.toml` in `cwd` when it exists. An explicit
/// file that cannot be read is an error; so is any key the file should not hold.
pub fn load(explicit: Option<&Path>, cwd: &Path) -> Result<Option<(PathBuf, Config)>> {
    let path = match explicit {
        Some(p) => p.to_path_buf(),
        None => {
            let p = cwd.join(DEFAULT_FILE);
            if !p.is_file() {
                return Ok(None);
            }
            p
        }
    };
    let text = fs::read_to_string(&path)
        .with_context(|| format!("{}: cannot read the config file", path.display()))?;
    let config = parse(&path, &text)?;
    Ok(Some((path, config)))
}

fn parse(path: &Path, text: &str) -> Result<Config> {
    let mut config: Config = match toml::from_str(text) {
        Ok(c) => c,
        Err(e) => bail!("{}: {}", path.display(), e.to_string().trim_end()),
    };
    for (key, value) in [
        ("channel_mbps", config.channel_mbps),
        ("flash_capacity_gb", config.flash_capacity_gb),
    ] {
        if let Some(v) = value
            && !(v.is_finite() && v > 0.0)
        {
            bail!(
                "{}: `{key}` must be a positive number, got {v}",
                path.display()
            );
        }
    }
    // Paths in the file are relative to the file, not to where awrflash runs.
    let base = path.parent().unwrap_or(Path::new(""));
    for p in [&mut config.devices, &mut config.roles]
        .into_iter()
        .flatten()
    {
        if p.is_relative() {
            *p = base.join(&*p);
        }
    }
    Ok(config)
}

/// Fills every advisor option the command line left unset.
pub fn apply(config: &Config, args: &mut AdvisorArgs) {
    if args.device.is_none() {
        args.device.clone_from(&config.device);
    }
    if args.devices.is_none() {
        args.devices.clone_from(&config.devices);
    }
    if args.channel_mbps.is_none() {
        args.channel_mbps = config.channel_mbps;
    }
    if args.flash_capacity_gb.is_none() {
        args.flash_capacity_gb = config.flash_capacity_gb;
    }
    if args.roles.is_none() {
        args.roles.clone_from(&config.roles);
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn an_unknown_key_names_the_file_and_the_key() {
        let err = parse(Path::new("site/awrflash.toml"), "chanel_mbps = 1600\n")
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("site/awrflash.toml: "), "{err}");
        assert!(err.contains("chanel_mbps"), "{err}");
    }

    #[test]
    fn paths_are_relative_to_the_config_file() {
        let c = parse(
            Path::new("site/awrflash.toml"),
            "roles = \"roles.toml\"\ndevices = \"/etc/dev.toml\"\n",
        )
        .unwrap();
        assert_eq!(c.roles, Some(PathBuf::from("site/roles.toml")));
        assert_eq!(c.devices, Some(PathBuf::from("/etc/dev.toml")));
    }

    #[test]
    fn flags_win_over_the_file() {
        let c = parse(
            Path::new("awrflash.toml"),
            "channel_mbps = 1600\nflash_capacity_gb = 400\ndevice = \"nvme\"\n",
        )
        .unwrap();
        let mut args = AdvisorArgs {
            channel_mbps: Some(800.0),
            ..AdvisorArgs::default()
        };
        apply(&c, &mut args);
        assert_eq!(args.channel_mbps, Some(800.0));
        assert_eq!(args.flash_capacity_gb, Some(400.0));
        assert_eq!(args.device.as_deref(), Some("nvme"));
    }

    #[test]
    fn a_negative_budget_is_refused() {
        let err = parse(Path::new("a.toml"), "flash_capacity_gb = -4\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains("flash_capacity_gb"), "{err}");
    }
}
