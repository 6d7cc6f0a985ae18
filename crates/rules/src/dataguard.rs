//! The Data Guard role, as far as the report shows it. AWR prints no
//! `database_role`; the init.ora section does print the redo transport
//! set-up: a `log_archive_dest_n` with `SERVICE=` that is not deferred
//! ships redo to a standby, which makes this database a primary. The
//! broker (`dg_broker_start`), the configuration (`log_archive_config`)
//! and the redo transport waits (`LNS ...`, `SYNC/ASYNC Remote Write`,
//! `Redo Transport ...`) back it up.

use awrflash_facts::IntervalFacts;
use awrflash_model::{Parameter, WaitEvent};

/// A destination that ships redo to a standby.
pub struct Destination<'a> {
    pub param: &'a Parameter,
    /// The `SERVICE=` value, unquoted.
    pub service: String,
    /// SYNC transport: the commit waits for the standby's acknowledgement.
    pub sync: bool,
}

/// What the report shows of a Data Guard primary.
pub struct Primary<'a> {
    pub destinations: Vec<Destination<'a>>,
    pub broker: Option<&'a Parameter>,
    pub config: Option<&'a Parameter>,
    /// Redo transport waits of the background processes.
    pub transport: Vec<&'a WaitEvent>,
}

impl Primary<'_> {
    /// One line naming what the role was read from.
    pub fn describe(&self) -> String {
        let mut parts: Vec<String> = self
            .destinations
            .iter()
            .map(|d| {
                format!(
                    "{} ships redo to SERVICE={} ({})",
                    d.param.name,
                    d.service,
                    if d.sync { "SYNC" } else { "ASYNC" }
                )
            })
            .collect();
        if let Some(b) = self.broker {
            parts.push(format!("dg_broker_start = {}", b.value.trim()));
        }
        if let Some(c) = self.config {
            parts.push(format!("log_archive_config = {}", c.value.trim()));
        }
        if !self.transport.is_empty() {
            let names: Vec<&str> = self.transport.iter().map(|e| e.name.as_str()).collect();
            parts.push(format!("redo transport waits: {}", names.join(", ")));
        }
        parts.join("; ")
    }

    pub fn sync(&self) -> bool {
        self.destinations.iter().any(|d| d.sync)
    }
}

/// The `SERVICE=` value of a destination setting, unquoted.
fn service_of(value: &str) -> Option<String> {
    let lower = value.to_ascii_lowercase();
    let at = lower.find("service")?;
    let rest = value.get(at + "service".len()..)?.trim_start();
    let rest = rest.strip_prefix('=')?.trim_start();
    let name: String = if let Some(q) = rest.strip_prefix('"') {
        q.split('"').next().unwrap_or_default().to_string()
    } else {
        rest.split(|c: char| c.is_whitespace() || c == ',')
            .next()
            .unwrap_or_default()
            .to_string()
    };
    (!name.is_empty()).then_some(name)
}

/// The database ships redo to a standby: the primary's set-up, or `None`.
pub fn primary<'a>(w: &IntervalFacts<'a>) -> Option<Primary<'a>> {
    let r = w.report;
    let destinations: Vec<Destination> = r
        .parameters
        .iter()
        .filter(|p| {
            let n = p.name.to_ascii_lowercase();
            n.strip_prefix("log_archive_dest_")
                .is_some_and(|k| !k.is_empty() && k.chars().all(|c| c.is_ascii_digit()))
        })
        .filter_map(|p| {
            let service = service_of(&p.value)?;
            let state = r.parameter(&p.name.replacen("dest_", "dest_state_", 1));
            let off = state.is_some_and(|s| {
                let v = s.value.trim().to_ascii_uppercase();
                v == "DEFER" || v == "RESET"
            });
            // A destination used only in the standby role does not ship
            // from here.
            let upper = p.value.to_ascii_uppercase().replace(' ', "");
            let standby_only = upper.contains("STANDBY_ROLE)");
            let sync = p
                .value
                .to_ascii_uppercase()
                .split(|c: char| c.is_whitespace() || c == ',')
                .any(|t| t == "SYNC");
            (!off && !standby_only).then_some(Destination {
                param: p,
                service,
                sync,
            })
        })
        .collect();
    if destinations.is_empty() {
        return None;
    }
    let transport = r
        .wait_events
        .background
        .iter()
        .filter(|e| {
            let n = e.name.to_ascii_lowercase();
            n.starts_with("lns")
                || n.starts_with("redo transport")
                || n.ends_with("remote write")
                || n.starts_with("lgwr-lns")
        })
        .collect();
    Some(Primary {
        destinations,
        broker: r.parameter("dg_broker_start"),
        config: r.parameter("log_archive_config"),
        transport,
    })
}

#[cfg(test)]
mod tests {
    use super::service_of;

    #[test]
    fn the_service_is_read_quoted_or_bare() {
        assert_eq!(
            service_of("service=\"dbs_uk99\", ASYNC NOAFFIRM").as_deref(),
            Some("dbs_uk99")
        );
        assert_eq!(
            service_of("SERVICE=PPCAT_PLK ASYNC VALID_FOR=(ALL_LOGFILES, ALL_ROLES)").as_deref(),
            Some("PPCAT_PLK")
        );
        assert_eq!(service_of("LOCATION=USE_DB_RECOVERY_FILE_DEST"), None);
    }
}
