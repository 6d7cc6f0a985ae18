//! awrflash-model: the typed model every stage shares.
//!
//! Stage: none (types only, no I/O). Input: nothing. Output: serde types for
//! parsed inputs ([`Document`]: AWR/Statspack reports, iostat/sar captures,
//! sysstat spools, segment-size lists) and for the advisor's results
//! ([`analysis`]). Field names are a contract: other tools read the JSON.
//!
//! Every number a rule may cite keeps where it came from: rows carry `src`
//! ([`SourceRef`]: section title and 1-based line in the input file); the
//! file itself is `source.path` of the document.

pub mod analysis;
pub mod capture;
pub mod comparison;
pub mod dbkey;
pub mod report;
pub mod section;
pub mod stats;
pub mod time;

pub use analysis::*;
pub use capture::*;
pub use comparison::*;
pub use dbkey::{DbKey, InstanceKey};
pub use report::*;
pub use section::SectionName;

use serde::{Deserialize, Serialize};

/// Where a row came from inside its input file.
#[derive(Debug, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(default)]
pub struct SourceRef {
    /// Section title as printed (e.g. `Load Profile`, `Segments by Physical
    /// Reads`), shared by the rows of one section ([`SectionName`]).
    pub section: SectionName,
    /// 1-based line number in the input file (after decompression).
    pub line: u32,
}

impl SourceRef {
    pub fn new(section: impl Into<SectionName>, line: u32) -> Self {
        Self {
            section: section.into(),
            line,
        }
    }
}

/// Something recognised in the input but not understood, or a value that
/// could not be read (`######`): never silently a zero.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Warning {
    pub section: String,
    pub line: u32,
    pub message: String,
    /// Whether the warning changes the meaning of the result; omitted from
    /// JSON for a [`WarningKind::Detail`].
    #[serde(skip_serializing_if = "WarningKind::is_detail")]
    pub kind: WarningKind,
}

impl Warning {
    pub fn new(section: impl Into<String>, line: u32, message: impl Into<String>) -> Self {
        Self {
            section: section.into(),
            line,
            message: message.into(),
            kind: WarningKind::Detail,
        }
    }

    /// A warning that changes the meaning of the result (see
    /// [`WarningKind::ChangesMeaning`]).
    pub fn changes_meaning(
        section: impl Into<String>,
        line: u32,
        message: impl Into<String>,
    ) -> Self {
        Self {
            kind: WarningKind::ChangesMeaning,
            ..Self::new(section, line, message)
        }
    }

    pub fn is_meaning_changing(&self) -> bool {
        self.kind == WarningKind::ChangesMeaning
    }
}

/// How much a warning matters to whoever reads the result.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum WarningKind {
    /// A cell or row that could not be read: worth a look with `-v`, the
    /// result still stands.
    #[default]
    Detail,
    /// The result does not mean what it would without it: the report is cut
    /// short, a section the verdict needs is missing, the snapshots are
    /// invalid ("RESULTS ARE INVALID"), the identity is hidden. Shown at the
    /// default verbosity and beside the verdict.
    ChangesMeaning,
}

impl WarningKind {
    pub fn is_detail(&self) -> bool {
        *self == WarningKind::Detail
    }
}

/// The input format, detected by content.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    #[default]
    AwrHtml,
    AwrText,
    Statspack,
    IostatLinux,
    IostatSolaris,
    SarLinux,
    Sysstat,
    SegmentSizes,
    SarSolaris,
    SarHpux,
    /// nmon spreadsheet output (`nmon -f`/`-F`), AIX and Linux.
    Nmon,
    SarAix,
    IostatHpux,
    IostatAix,
}

impl Format {
    pub fn as_str(self) -> &'static str {
        match self {
            Format::AwrHtml => "awr-html",
            Format::AwrText => "awr-text",
            Format::Statspack => "statspack",
            Format::IostatLinux => "iostat-linux",
            Format::IostatSolaris => "iostat-solaris",
            Format::SarLinux => "sar-linux",
            Format::Sysstat => "sysstat",
            Format::SegmentSizes => "segment-sizes",
            Format::SarSolaris => "sar-solaris",
            Format::SarHpux => "sar-hpux",
            Format::Nmon => "nmon",
            Format::SarAix => "sar-aix",
            Format::IostatHpux => "iostat-hpux",
            Format::IostatAix => "iostat-aix",
        }
    }
}

/// What kind of report (AWR/Statspack only).
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum ReportKind {
    #[default]
    Instance,
    RacGlobal,
    Pdb,
}

/// Which file a document was read from and as what.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Source {
    /// Path as given by the user (for a zip member: `archive.zip!member`).
    pub path: String,
    pub format: Format,
    /// `instance`, `rac-global` or `pdb` for AWR/Statspack; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<ReportKind>,
}

/// One parsed input.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Document {
    Report(Box<DbReport>),
    Iostat(Box<IostatCapture>),
    Sysstat(Box<SysstatSpool>),
    SegmentSizes(Box<SegmentSizes>),
}

impl Document {
    pub fn source(&self) -> &Source {
        match self {
            Document::Report(r) => &r.source,
            Document::Iostat(c) => &c.source,
            Document::Sysstat(s) => &s.source,
            Document::SegmentSizes(s) => &s.source,
        }
    }

    pub fn warnings(&self) -> &[Warning] {
        match self {
            Document::Report(r) => &r.warnings,
            Document::Iostat(c) => &c.warnings,
            Document::Sysstat(s) => &s.warnings,
            Document::SegmentSizes(s) => &s.warnings,
        }
    }
}
