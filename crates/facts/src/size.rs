//! Sizes as init.ora parameters print them.

/// Parses an init.ora size (`26843545600`, `25G`, `512M`, `100K`).
pub fn parse_size(s: &str) -> Option<f64> {
    let t = s.trim();
    let (num, mult) = match t.chars().last()? {
        'k' | 'K' => (t.get(..t.len() - 1)?, 1024.0),
        'm' | 'M' => (t.get(..t.len() - 1)?, 1_048_576.0),
        'g' | 'G' => (t.get(..t.len() - 1)?, 1_073_741_824.0),
        't' | 'T' => (t.get(..t.len() - 1)?, 1_099_511_627_776.0),
        _ => (t, 1.0),
    };
    num.trim()
        .replace(',', "")
        .parse::<f64>()
        .ok()
        .map(|v| v * mult)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_suffixes() {
        assert_eq!(parse_size("25G"), Some(25.0 * 1_073_741_824.0));
        assert_eq!(parse_size("4096"), Some(4096.0));
        assert_eq!(parse_size("x"), None);
    }
}
