//! Messages on stderr and the colour decision for stdout.

use std::io::{IsTerminal, Write};

use crate::args::ColorWhen;

/// How chatty to be, and whether stdout gets ANSI colours.
#[derive(Debug, Clone, Copy)]
pub struct Ui {
    pub quiet: bool,
    pub verbose: u8,
    pub color: bool,
}

impl Ui {
    pub fn new(quiet: bool, verbose: u8, color: ColorWhen) -> Self {
        Ui {
            quiet,
            verbose,
            color: use_color(
                color,
                std::io::stdout().is_terminal(),
                std::env::var_os("NO_COLOR"),
            ),
        }
    }

    /// A problem the user must see (a bad input); shown even with `-q`.
    pub fn warn(&self, msg: &str) {
        let _ = writeln!(std::io::stderr(), "awrflash: warning: {msg}");
    }

    /// Progress and summaries; hidden with `-q`.
    pub fn note(&self, msg: &str) {
        if !self.quiet {
            let _ = writeln!(std::io::stderr(), "awrflash: {msg}");
        }
    }
}

/// `auto` colours a terminal unless `NO_COLOR` is set to a non-empty value
/// (no-color.org); `always` and `never` are what they say.
fn use_color(when: ColorWhen, tty: bool, no_color: Option<std::ffi::OsString>) -> bool {
    match when {
        ColorWhen::Always => true,
        ColorWhen::Never => false,
        ColorWhen::Auto => tty && no_color.is_none_or(|v| v.is_empty()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_colour_needs_a_terminal_and_no_no_color() {
        assert!(use_color(ColorWhen::Auto, true, None));
        assert!(!use_color(ColorWhen::Auto, false, None));
        assert!(!use_color(ColorWhen::Auto, true, Some("1".into())));
        assert!(use_color(ColorWhen::Auto, true, Some("".into())));
        assert!(use_color(ColorWhen::Always, false, Some("1".into())));
        assert!(!use_color(ColorWhen::Never, true, None));
    }
}
