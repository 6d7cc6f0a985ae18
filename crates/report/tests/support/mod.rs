//! Shared by the report tests: the workspace root and the analysis fixtures.
#![allow(dead_code, clippy::expect_used, clippy::panic)]

pub mod schema_check;

use std::path::PathBuf;

use awrflash_model::Analysis;

pub use awrflash_testkit::workspace_root;

/// `fixtures/analysis/<name>.json`, parsed.
pub fn fixture(name: &str) -> Analysis {
    let path = awrflash_testkit::fixtures("analysis").join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The fixtures every format is snapshotted on.
pub const FIXTURES: [&str; 2] = ["rich", "sparse"];

/// Where the browser test leaves its pages and screenshots for review.
pub fn browser_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| workspace_root().join("target"))
        .join("browser")
}

/// Payloads planted in every text field that comes from the inputs.
pub const SCRIPT: &str = "<script>alert(1)</script>";
pub const IMG: &str = "\"><img src=x onerror=alert(1)>";

/// The rich fixture with [`SCRIPT`] and [`IMG`] planted in object names,
/// SQL, labels, host and file names, section titles and an ANSI escape in
/// the module-like labels.
pub fn injected() -> Analysis {
    let mut a = fixture("rich");
    let both = format!("{SCRIPT}{IMG}\x1b[2J");
    let p = |s: &mut String| s.push_str(&both);
    a.database.db_name = Some(format!("PROD{both}"));
    a.database.host = Some(format!("host{both}"));
    a.database.instances.push(both.clone());
    a.database.release = Some(both.clone());
    a.database.platform = Some(both.clone());
    a.database.begin_time = Some(both.clone());
    for i in &mut a.inputs {
        p(&mut i.path);
    }
    p(&mut a.verdict.summary);
    for f in &mut a.findings {
        p(&mut f.id);
        p(&mut f.slug);
        p(&mut f.title);
        p(&mut f.message);
        for e in &mut f.evidence {
            p(&mut e.label);
            p(&mut e.unit);
            if let Some(s) = &mut e.src {
                s.path = format!("{}{both}", s.path).as_str().into();
                s.section = format!("{}{both}", s.section).as_str().into();
            }
            if let Some(d) = &mut e.derived_from {
                p(d);
            }
        }
        if let Some(r) = &mut f.recommendation {
            p(&mut r.text);
            r.sql.push(format!("SELECT '{both}' FROM dual;"));
        }
        for c in &mut f.citations {
            p(&mut c.seed);
            p(&mut c.section);
        }
        if let Some(pr) = &mut f.projection {
            for s in &mut pr.steps {
                p(&mut s.component);
            }
        }
    }
    for o in &mut a.options {
        p(&mut o.key);
        p(&mut o.title);
        p(&mut o.device);
        o.notes.push(both.clone());
    }
    for s in &mut a.segments_to_move {
        p(&mut s.owner);
        p(&mut s.object);
        p(&mut s.object_type);
        p(&mut s.tablespace);
        s.subobject = Some(both.clone());
        s.sql = Some(format!("ALTER INDEX \"{both}\" REBUILD;"));
        for q in &mut s.statements {
            p(&mut q.sql_id);
            q.module = Some(both.clone());
            q.text = Some(both.clone());
            q.maintenance = Some(both.clone());
        }
        if let Some(w) = &mut s.set_aside {
            p(w);
        }
    }
    if let Some(fc) = &mut a.flash_cache {
        p(&mut fc.reason);
        fc.fit = Some(both.clone());
        fc.sql.push(both.clone());
    }
    for h in &mut a.exhibits.histograms {
        let mut event = h.event.to_string();
        p(&mut event);
        h.event = event.into();
        let mut section = h.src.section.to_string();
        p(&mut section);
        h.src.section = section.into();
    }
    for t in &mut a.exhibits.tablespaces {
        let mut tablespace = t.tablespace.to_string();
        p(&mut tablespace);
        t.tablespace = tablespace.into();
        t.file = Some(both.clone());
    }
    for e in a
        .exhibits
        .redo
        .iter_mut()
        .chain(a.exhibits.flash_cache_stats.iter_mut())
    {
        p(&mut e.label);
    }
    for d in &mut a.exhibits.devices {
        p(&mut d.device);
        d.role = Some(both.clone());
        d.callouts.push(both.clone());
    }
    for s in &mut a.series {
        p(&mut s.path);
        s.end_time = Some(format!("23-Nov-26 {both}"));
    }
    a
}

/// One start tag of an HTML page.
pub struct Tag {
    pub name: String,
    pub attributes: Vec<(String, String)>,
    /// The tag's text between `<` and `>`.
    pub text: String,
}

/// The start tags of a page (`<!doctype>` and end tags left out), with
/// attributes read as a browser reads them: quoted values may hold spaces.
/// Text from the inputs is escaped, so every raw `<` starts a real tag.
pub fn tags(html: &str) -> Vec<Tag> {
    let mut out = Vec::new();
    for t in html.split('<').skip(1) {
        let text = t.split('>').next().unwrap_or("");
        if text.starts_with('!') || text.starts_with('/') {
            continue;
        }
        let mut chars = text.chars().peekable();
        let mut name = String::new();
        while let Some(c) = chars.peek().copied() {
            if c.is_whitespace() || c == '/' {
                break;
            }
            name.push(c.to_ascii_lowercase());
            chars.next();
        }
        let mut attributes = Vec::new();
        loop {
            while chars.peek().is_some_and(|c| c.is_whitespace() || *c == '/') {
                chars.next();
            }
            let mut attr = String::new();
            while let Some(c) = chars.peek().copied() {
                if c.is_whitespace() || c == '=' {
                    break;
                }
                attr.push(c);
                chars.next();
            }
            if attr.is_empty() {
                break;
            }
            let mut value = String::new();
            if chars.peek() == Some(&'=') {
                chars.next();
                if chars.peek() == Some(&'"') {
                    chars.next();
                    for c in chars.by_ref() {
                        if c == '"' {
                            break;
                        }
                        value.push(c);
                    }
                } else {
                    while let Some(c) = chars.peek().copied() {
                        if c.is_whitespace() {
                            break;
                        }
                        value.push(c);
                        chars.next();
                    }
                }
            }
            attributes.push((attr, value));
        }
        out.push(Tag {
            name,
            attributes,
            text: text.to_string(),
        });
    }
    out
}
