//! awrflash-cli: the command line.
//!
//! Stage: cli (the only crate that prints). Input: arguments and files.
//! Output: reports, tables, JSON Lines and exit codes (0 ok, 1 findings at
//! or above `--fail-on`, 2 input or usage error). A closed pipe exits quietly.

mod analyze_cmd;
mod args;
mod catalog_cmd;
mod extract_cmd;
mod gen_cmd;
mod load;
mod parse_cmd;
mod ui;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

pub use args::{Cli, Command};

/// Exit code for an input or usage error.
pub const EXIT_INPUT_ERROR: u8 = 2;

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { EXIT_INPUT_ERROR } else { 0 };
            // `--help` into a closed pipe: nothing to say either way.
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
    let ui = ui::Ui::new(cli.quiet, cli.verbose, cli.color);
    let result = match &cli.command {
        Command::Analyze(args) => analyze_cmd::run(args, &ui),
        Command::Extract(args) => extract_cmd::run(args, &ui),
        Command::Rules(args) => catalog_cmd::rules(args),
        Command::Devices(args) => catalog_cmd::devices(args),
        Command::Parse(args) => parse_cmd::run(args, &ui),
        Command::Completions(args) => gen_cmd::completions(args),
        Command::Man => gen_cmd::man(),
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
