//! Messages on stderr and the colour decision for stdout.

use std::io::{IsTerminal, Write};

use crate::args::ColorWhen;

/// How chatty to be, and whether stdout gets ANSI colours.
#[derive(Debug, Clone, Copy)]
pub struct Ui {
    pub quiet: bool,
    pub verbose: u8,
    pub color: bool,
    /// Columns of the terminal report on stdout.
    pub width: usize,
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
            width: page_width(
                std::env::var("COLUMNS").ok().as_deref(),
                terminal_size::terminal_size_of(std::io::stdout()).map(|(w, _)| usize::from(w.0)),
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

/// `COLUMNS` when it holds a number, else the terminal's width, else 100
/// (a pipe or a file).
fn page_width(columns: Option<&str>, terminal: Option<usize>) -> usize {
    columns
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|c| *c > 0)
        .or(terminal)
        .unwrap_or(awrflash_report::TEXT_WIDTH)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_width_comes_from_columns_then_the_terminal() {
        assert_eq!(page_width(Some("160"), Some(80)), 160);
        assert_eq!(page_width(Some("wide"), Some(80)), 80);
        assert_eq!(page_width(None, Some(132)), 132);
        assert_eq!(page_width(None, None), 100);
        assert_eq!(page_width(Some("0"), None), 100);
    }

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
