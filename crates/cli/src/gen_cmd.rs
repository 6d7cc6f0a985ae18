//! `awrflash completions SHELL` and `awrflash man`, from the clap definition.

use std::io::{self, Write};

use anyhow::Result;
use clap::CommandFactory;

use crate::args::{Cli, CompletionsArgs};

pub fn completions(args: &CompletionsArgs) -> Result<u8> {
    // Generated into memory first: the generator panics on a write error,
    // and a closed pipe must end quietly.
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "awrflash", &mut buf);
    io::stdout().lock().write_all(&buf)?;
    Ok(0)
}

pub fn man() -> Result<u8> {
    let mut buf = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut buf)?;
    io::stdout().lock().write_all(&buf)?;
    Ok(0)
}
