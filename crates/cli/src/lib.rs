//! awrflash-cli: the command line.
//!
//! Stage: cli (the only crate that prints). Input: arguments and files.
//! Output: reports, tables, JSON Lines and exit codes (0 ok, 1 findings at
//! or above `--fail-on`, 2 input or usage error). A closed pipe exits quietly.

mod analyze_cmd;
mod args;
mod catalog_cmd;
mod compare_cmd;
mod config;
mod extract_cmd;
mod gen_cmd;
mod load;
mod parse_cmd;
mod ui;
mod validate;

use std::io::{self, Write};
use std::process::ExitCode;

use clap::Parser;

pub use args::{Cli, Command};

/// Exit code for an input or usage error.
pub const EXIT_INPUT_ERROR: u8 = 2;

pub fn main() -> ExitCode {
    let mut cli = match Cli::try_parse() {
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
    if let Err(e) = apply_config(&mut cli) {
        let _ = writeln!(io::stderr(), "awrflash: error: {e:#}");
        return ExitCode::from(EXIT_INPUT_ERROR);
    }
    let result = match &cli.command {
        Command::Analyze(args) => analyze_cmd::run(args, &ui),
        Command::Extract(args) => extract_cmd::run(args, &ui),
        Command::Compare(args) => compare_cmd::run(args, &ui),
        Command::Rules(args) => catalog_cmd::rules(args),
        Command::Devices(args) => catalog_cmd::devices(args),
        Command::Parse(args) => parse_cmd::run(args, &ui),
        Command::Completions(args) => gen_cmd::completions(args),
        Command::Man(args) => gen_cmd::man(args),
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

/// Site defaults from the config file, for the commands that use them.
fn apply_config(cli: &mut Cli) -> anyhow::Result<()> {
    let explicit = cli.config.as_deref();
    let uses_config = matches!(cli.command, Command::Analyze(_) | Command::Devices(_));
    if !uses_config && explicit.is_none() {
        return Ok(());
    }
    let cwd = std::env::current_dir().unwrap_or_default();
    let Some((_, config)) = config::load(explicit, &cwd)? else {
        return Ok(());
    };
    match &mut cli.command {
        Command::Analyze(args) => config::apply(&config, &mut args.advisor),
        Command::Devices(args) if args.devices.is_none() => {
            args.devices.clone_from(&config.devices);
        }
        _ => {}
    }
    Ok(())
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
