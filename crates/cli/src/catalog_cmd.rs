//! `awrflash rules` and `awrflash devices`: what the advisor knows.

use std::fs;
use std::io::{self, Write};

use anyhow::{Context, Result, bail};
use awrflash_rules::{DeviceSpec, RuleSpec};

use crate::args::{DevicesArgs, ListFormat, RulesArgs};

pub fn rules(args: &RulesArgs) -> Result<u8> {
    let catalogue = awrflash_rules::catalogue().context("loading the rule catalogue")?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match &args.id {
        None => match args.format {
            ListFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&catalogue)?)?,
            ListFormat::Text => write!(out, "{}", rule_list(&catalogue))?,
        },
        Some(id) => {
            let Some(rule) = catalogue.iter().find(|r| r.id.eq_ignore_ascii_case(id)) else {
                bail!("no rule {id}; `awrflash rules` lists them");
            };
            match args.format {
                ListFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(rule)?)?,
                ListFormat::Text => write!(out, "{}", rule_doc(rule))?,
            }
        }
    }
    out.flush()?;
    Ok(0)
}

fn rule_list(rules: &[RuleSpec]) -> String {
    let mut s = String::new();
    for r in rules {
        s.push_str(&format!(
            "{:<10} {:<9} {:<36} {}\n",
            r.id, r.severity, r.slug, r.title
        ));
    }
    s
}

fn rule_doc(r: &RuleSpec) -> String {
    let mut s = format!("{} {} ({})\n{}\n", r.id, r.slug, r.severity, r.title);
    for (head, body) in [
        ("Summary", &r.summary),
        ("Why", &r.why),
        ("Evidence", &r.evidence),
        ("Fix", &r.fix),
    ] {
        if !body.trim().is_empty() {
            s.push_str(&format!("\n{head}:\n{}\n", indent(body)));
        }
    }
    if !r.thresholds.is_empty() {
        s.push_str("\nThresholds:\n");
        for t in &r.thresholds {
            s.push_str(&format!("  {} = {}\n", t.name, t.value));
            if !t.derivation.trim().is_empty() {
                s.push_str(&format!("{}\n", indent_by(&t.derivation, "    ")));
            }
        }
    }
    if !r.citations.is_empty() {
        s.push_str("\nCitations:\n");
        for c in &r.citations {
            s.push_str(&format!("  {}\n", c.label()));
        }
    }
    s
}

fn indent(text: &str) -> String {
    indent_by(text, "  ")
}

/// Indents and word-wraps to 100 columns (a word longer than the line stays whole).
fn indent_by(text: &str, pad: &str) -> String {
    const WIDTH: usize = 100;
    let mut out = Vec::new();
    for para in text.trim().lines() {
        let mut line = String::from(pad);
        for word in para.split_whitespace() {
            if line.len() > pad.len() && line.len() + 1 + word.len() > WIDTH {
                out.push(std::mem::replace(&mut line, String::from(pad)));
            }
            if line.len() > pad.len() {
                line.push(' ');
            }
            line.push_str(word);
        }
        out.push(line);
    }
    out.join("\n")
}

pub fn devices(args: &DevicesArgs) -> Result<u8> {
    if args.template {
        let t = awrflash_rules::device_template().context("building the device template")?;
        let stdout = io::stdout();
        let mut out = io::BufWriter::new(stdout.lock());
        write!(out, "{t}")?;
        out.flush()?;
        return Ok(0);
    }
    let devices_toml = match &args.devices {
        Some(p) => Some(
            fs::read_to_string(p)
                .with_context(|| format!("{}: cannot read the device profiles", p.display()))?,
        ),
        None => None,
    };
    let opts = awrflash_rules::Options {
        devices_toml,
        ..Default::default()
    };
    let devices = awrflash_rules::devices(&opts).context("loading the device profiles")?;
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    match args.format {
        ListFormat::Json => writeln!(out, "{}", serde_json::to_string_pretty(&devices)?)?,
        ListFormat::Text => write!(out, "{}", device_list(&devices))?,
    }
    out.flush()?;
    Ok(0)
}

fn device_list(devices: &[DeviceSpec]) -> String {
    let mut s = String::new();
    for d in devices {
        let assumed = if d.assumption {
            "; an editable assumption"
        } else {
            ""
        };
        let default = if d.default { "; the default" } else { "" };
        s.push_str(&format!(
            "{} ({}; 8K read {} ms, 8K write {} ms at one outstanding I/O{assumed}{default})\n",
            d.name, d.class, d.read_8k_ms_qd1, d.write_8k_ms_qd1
        ));
        s.push_str(&format!("{}\n", indent(&d.description)));
        let (rl, rh) = d.read_range_ms;
        let (wl, wh) = d.write_range_ms;
        if rl < rh || wl < wh {
            s.push_str(&format!(
                "{}\n",
                indent(&format!(
                    "class range: 8K read {rl}-{rh} ms, 8K write {wl}-{wh} ms"
                ))
            ));
        }
        if !d.source.is_empty() {
            s.push_str(&format!("{}\n", indent(&format!("source: {}", d.source))));
        }
        if !d.derivation.is_empty() {
            s.push_str(&format!(
                "{}\n",
                indent(&format!("derivation: {}", d.derivation))
            ));
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use awrflash_model::Citation;
    use awrflash_rules::ThresholdDoc;

    #[test]
    fn a_rule_doc_shows_its_sections_and_citations() {
        let r = RuleSpec {
            id: "AF001".into(),
            slug: "single-block-reads-dominate".into(),
            severity: "warning".into(),
            title: "Single-block reads dominate DB time".into(),
            summary: "Reads wait.".into(),
            why: "Disk seeks.".into(),
            evidence: String::new(),
            fix: "Move indexes.".into(),
            citations: vec![Citation {
                seed: "000_x.txt".into(),
                section: "6.3".into(),
                title: None,
            }],
            thresholds: vec![ThresholdDoc {
                name: "share_pct".into(),
                value: "40".into(),
                derivation: "000 6.3.".into(),
            }],
        };
        let doc = rule_doc(&r);
        assert!(doc.starts_with("AF001 single-block-reads-dominate (warning)"));
        assert!(doc.contains("Why:\n  Disk seeks."));
        assert!(!doc.contains("Evidence:"));
        assert!(doc.contains("  000_x.txt, 6.3\n"));
        assert!(doc.contains("Thresholds:\n  share_pct = 40\n    000 6.3.\n"));
        assert_eq!(doc.matches("Thresholds:").count(), 1);
        let long = indent_by(&"word ".repeat(60), "  ");
        assert!(
            long.lines().count() > 1
                && long
                    .lines()
                    .all(|l| l.len() <= 100 && l.starts_with("  word"))
        );
        assert!(rule_list(&[r]).starts_with("AF001      warning"));
    }
}
