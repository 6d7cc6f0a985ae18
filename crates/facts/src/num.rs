//! A figure with its provenance, and the rounding every output shares.

use awrflash_model::{Evidence, EvidenceSrc};

/// A number with its origin.
#[derive(Debug, Clone, PartialEq)]
pub struct Num {
    pub value: f64,
    pub src: Option<EvidenceSrc>,
    /// How a derived number was computed (`None` when read as printed).
    pub derived: Option<String>,
}

impl Num {
    pub fn evidence(&self, label: &str, unit: &str) -> Evidence {
        Evidence {
            label: label.to_string(),
            value: round(self.value),
            unit: unit.to_string(),
            src: self.src.clone(),
            derived_from: self.derived.clone(),
        }
    }
}

/// Rounds for display and stable snapshots (4 significant decimals).
pub fn round(v: f64) -> f64 {
    if !v.is_finite() {
        return 0.0;
    }
    let a = v.abs();
    let scale = if a >= 1000.0 {
        10.0
    } else if a >= 1.0 {
        1000.0
    } else {
        100_000.0
    };
    let r = (v * scale).round() / scale;
    // No negative zero in the output.
    if r == 0.0 { 0.0 } else { r }
}

/// `a / b`, 0 when `b` is 0.
pub fn ratio(a: f64, b: f64) -> f64 {
    if b == 0.0 || !b.is_finite() {
        0.0
    } else {
        a / b
    }
}
