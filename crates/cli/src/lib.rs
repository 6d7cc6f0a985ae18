//! awrflash-cli: the command line.
//!
//! Stage: cli (the only crate that prints). Input: arguments and files.
//! Output: JSON Lines, reports and exit codes (0 ok, 1 findings at or above
//! `--fail-on`, 2 input or usage error). A closed pipe exits quietly.

mod args;
mod inputs;
mod parse_cmd;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

pub use args::{Cli, Command};

/// Exit code for a run where some input could not be used.
pub const EXIT_INPUT_ERROR: u8 = 2;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_INPUT_ERROR } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    if let Some(jobs) = cli.jobs {
        // A second init (tests calling main twice) is harmless.
        let _ = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs.max(1))
            .build_global();
    }
    let result = match &cli.command {
        Command::Parse(args) => parse_cmd::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let _ = writeln!(io::stderr(), "awrflash: error: {e:#}");
            ExitCode::from(EXIT_INPUT_ERROR)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
