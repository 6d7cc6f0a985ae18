//! Command-line definition (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "awrflash",
    version,
    about = "Reads Oracle AWR, Statspack and iostat output and says what to move to flash storage, and what it will buy",
    after_help = "Examples:\n  awrflash parse awrrpt_1_100_101.html\n  awrflash parse --jobs 2 reports/*.html > models.jsonl"
)]
pub struct Cli {
    /// Worker threads for parsing (default: all cores).
    #[arg(long, short = 'j', global = true, value_name = "N")]
    pub jobs: Option<usize>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Parse inputs and print each model as one JSON object per line (JSON Lines).
    Parse(ParseArgs),
}

#[derive(Debug, Args)]
pub struct ParseArgs {
    /// Report files, directories, .gz or .zip archives.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
}
