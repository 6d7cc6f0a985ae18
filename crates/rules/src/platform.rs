//! Where the database runs, and which advice that rules out.
//!
//! The option set and the rules that advise moving files to a flash device
//! assume a host whose storage the DBA chooses. On Exadata the cells' flash
//! already serves reads (and, configured so, writes and redo): what is left
//! to advise is what the cell flash does not yet cover. On a managed cloud
//! service (Autonomous Database, or a PDB whose report shows no operating
//! system statistics) there is no host access at all: the only storage lever
//! is the service's storage tier. On a cloud VM the DBA owns the files but
//! not the devices: flash means the provider's disk tier, never a device
//! brand or format.

use awrflash_facts::{IntervalFacts, Num, ratio};

use crate::checks::on_exadata;

/// The kind of platform the report shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub enum Platform {
    /// Oracle Exadata storage cells (cell wait events or statistics).
    Exadata,
    /// A managed database service without host access; the text says how
    /// the report shows it.
    Service(String),
    /// A virtual machine of a public cloud; the provider's name.
    CloudVm(String),
    /// A host whose storage the DBA chooses.
    #[default]
    Host,
}

/// Public cloud names looked for in the platform, host and database name
/// strings of the report header (lower case), with the provider's name.
const CLOUDS: &[(&str, &str)] = &[
    ("azure", "Microsoft Azure"),
    ("amazon", "AWS"),
    ("aws", "AWS"),
    ("ec2", "AWS"),
    ("oraclecloud", "OCI"),
    ("oracle cloud", "OCI"),
    ("oci", "OCI"),
    ("google", "Google Cloud"),
    ("gcp", "Google Cloud"),
];

/// The platform of the interval `w`.
pub fn detect(w: &IntervalFacts) -> Platform {
    if on_exadata(w) {
        return Platform::Exadata;
    }
    let h = &w.report.header;
    if h.system_data_hidden {
        return Platform::Service(
            "the report hides system data (System Data Visible: NO), as a managed service such as Autonomous Database does".into(),
        );
    }
    // A PDB report on a CDB the DBA runs still names the host and its
    // CPUs; a PDB service shows none of the host.
    let no_os = w.report.os_stats.is_empty()
        && w.report.host_cpu.is_none()
        && h.host.as_deref().is_none_or(|x| x.trim().is_empty())
        && h.cpus.is_none();
    if let Some(c) = h.container.as_deref().filter(|c| !c.trim().is_empty())
        && no_os
    {
        return Platform::Service(format!(
            "the report is of the pluggable database {} and shows nothing of the host (no host name, CPUs or operating system statistics)",
            c.trim()
        ));
    }
    let fields = [h.platform.as_deref(), h.host.as_deref()];
    for f in fields.into_iter().flatten() {
        let text = f.to_ascii_lowercase();
        let words: Vec<&str> = text
            .split(|c: char| !c.is_ascii_alphanumeric() && c != ' ')
            .flat_map(|s| s.split(' '))
            .collect();
        for (needle, provider) in CLOUDS {
            let hit = if needle.contains(' ') {
                text.contains(needle)
            } else {
                words.iter().any(|word| word == needle)
            };
            if hit {
                return Platform::CloudVm((*provider).to_string());
            }
        }
    }
    Platform::Host
}

/// Rules whose advice is a device move on a host the DBA controls: on
/// Exadata (the cell flash plays that role; AF080 says what is left) and
/// on a managed service (no host access) they stay quiet.
const DEVICE_MOVE_RULES: &[&str] = &[
    "AF020", "AF030", "AF031", "AF040", "AF041", "AF042", "AF050", "AF060", "AF090",
];

/// Whether the rule `id` gives advice the platform rules out.
pub fn withheld(p: &Platform, id: &str) -> bool {
    match p {
        Platform::Exadata | Platform::Service(_) => DEVICE_MOVE_RULES.contains(&id),
        // A cloud VM's disks are the provider's: no device class, reserve
        // area or format advice.
        Platform::CloudVm(_) => id == "AF090",
        Platform::Host => false,
    }
}

/// The read requests the cell flash already serves on Exadata: optimized
/// read requests (else cell flash cache read hits) over all read requests,
/// in percent, with both rows. The one derivation of "cell flash already
/// serves X% of reads" (AF080 and the verdict print it).
pub struct CellFlashShare {
    pub pct: f64,
    pub served: Num,
    /// The statistic `served` is (`physical read requests optimized` or
    /// `cell flash cache read hits`).
    pub served_stat: &'static str,
    pub total: Num,
}

pub fn cell_flash_share(w: &IntervalFacts) -> Option<CellFlashShare> {
    let total = w
        .stat_total("physical read total IO requests")
        .filter(|t| t.value > 0.0)?;
    let (served, served_stat) = match w.stat_total("physical read requests optimized") {
        Some(n) => (n, "physical read requests optimized"),
        None => (
            w.stat_total("cell flash cache read hits")?,
            "cell flash cache read hits",
        ),
    };
    let pct = ratio(served.value * 100.0, total.value).clamp(0.0, 100.0);
    Some(CellFlashShare {
        pct,
        served,
        served_stat,
        total,
    })
}
