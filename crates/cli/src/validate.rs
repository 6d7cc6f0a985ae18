//! Checks of the command line that need no input parsed: they run before
//! any file is read, so a typo costs nothing on a batch of a thousand reports.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use awrflash_run::output::OutFormat;

/// Every input named on the command line (not a glob, not a directory walk)
/// must exist: a mistyped path among good ones is an error, not a warning
/// buried in the summary.
pub fn inputs_exist(inputs: &[PathBuf]) -> Result<()> {
    let missing: Vec<String> = inputs
        .iter()
        .filter(|p| !is_glob(p) && p.as_os_str() != "-" && !p.exists())
        .map(|p| p.display().to_string())
        .collect();
    match missing.as_slice() {
        [] => Ok(()),
        [one] => bail!("{one}: no such file or directory"),
        many => bail!("no such files or directories: {}", many.join(", ")),
    }
}

fn is_glob(p: &Path) -> bool {
    p.to_string_lossy().contains(['*', '?', '['])
}

/// The extension of `-o FILE` must name a format, and agree with `--format`
/// when both are given (`-o report.pdf` would silently be HTML otherwise).
pub fn output_extension(output: Option<&Path>, format: Option<OutFormat>) -> Result<()> {
    let Some(path) = output else {
        return Ok(());
    };
    let shown = path.as_os_str().to_string_lossy();
    if shown.ends_with('/') || shown.ends_with(std::path::MAIN_SEPARATOR) || path.is_dir() {
        return Ok(());
    }
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    let by_ext = match ext.as_deref() {
        Some("html" | "htm") => OutFormat::Html,
        Some("md" | "markdown") => OutFormat::Md,
        Some("json") => OutFormat::Json,
        Some("txt" | "text") => OutFormat::Text,
        Some(other) => bail!(
            "-o {shown}: `.{other}` is not an output format (use .html, .md, .json or .txt, or DIR/ for a directory)"
        ),
        None => bail!(
            "-o {shown}: no extension to choose the format from (use .html, .md, .json or .txt, or {shown}/ for a directory)"
        ),
    };
    match format {
        Some(f) if f != by_ext => bail!(
            "-o {shown} is .{} but --format is {}",
            by_ext.extension(),
            f.extension()
        ),
        _ => Ok(()),
    }
}

/// `--device` names a profile (built in or from `--devices`); `--roles`
/// names a readable file.
pub fn advisor(opts: &awrflash_rules::Options, roles: Option<&Path>) -> Result<()> {
    if let Some(name) = &opts.device {
        let known = awrflash_rules::devices(opts)?;
        if !known.iter().any(|d| &d.name == name) {
            bail!(
                "--device {name}: no such device profile (one of: {}; see `awrflash devices`)",
                known
                    .iter()
                    .map(|d| d.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            );
        }
    }
    if let Some(path) = roles
        && !path.is_file()
    {
        bail!("--roles {}: no such file", path.display());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn an_unknown_or_contradicting_extension_is_refused() {
        let e = |o: &str, f| output_extension(Some(Path::new(o)), f);
        assert!(
            e("report.pdf", None)
                .unwrap_err()
                .to_string()
                .contains(".pdf")
        );
        assert!(e("report", None).is_err());
        assert!(e("report.html", Some(OutFormat::Json)).is_err());
        assert!(e("report.json", Some(OutFormat::Json)).is_ok());
        assert!(e("report.MD", None).is_ok());
        assert!(e("out/", Some(OutFormat::Json)).is_ok());
        assert!(output_extension(None, Some(OutFormat::Html)).is_ok());
    }

    #[test]
    fn globs_and_stdin_are_not_checked_for_existence() {
        assert!(inputs_exist(&[PathBuf::from("/nowhere/*.html"), PathBuf::from("-")]).is_ok());
        let err = inputs_exist(&[PathBuf::from("/nowhere/awr.html")]).unwrap_err();
        assert!(err.to_string().contains("/nowhere/awr.html"));
    }
}
