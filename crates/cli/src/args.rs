//! Command-line definition (clap derive). Completions and the man page are
//! generated from it (`awrflash completions`, `awrflash man`).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

const EXAMPLES: &str = "\
Examples:
  awrflash analyze awrrpt_1_100_101.html
  awrflash analyze reports/ -o out/                  one HTML report per database + index.html
  awrflash analyze week.zip iostat.txt -o prod.html --channel-mbps 1600
  awrflash analyze 'awr/*.html' --format json --fail-on critical
  awrflash extract week.zip -o tables/ --format parquet
  awrflash rules AF001

Exit status: 0 ok, 1 findings at or above --fail-on, 2 input or usage error.";

#[derive(Debug, Parser)]
#[command(
    name = "awrflash",
    version,
    about = "Reads Oracle AWR, Statspack and iostat output and says what to move to flash storage, and what it will buy",
    after_help = EXAMPLES,
    max_term_width = 100
)]
pub struct Cli {
    /// Worker threads for parsing (default: all cores).
    #[arg(
        long,
        short = 'j',
        global = true,
        value_name = "N",
        help_heading = "Global options"
    )]
    pub jobs: Option<usize>,

    /// No progress bar and no summary on stderr (bad inputs are still reported).
    #[arg(long, short = 'q', global = true, help_heading = "Global options")]
    pub quiet: bool,

    /// Also print each input's parse warnings and the read speed (stderr).
    #[arg(long, short = 'v', global = true, action = clap::ArgAction::Count, help_heading = "Global options")]
    pub verbose: u8,

    /// Colour the terminal report: auto means on a terminal when NO_COLOR is not set.
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto, value_name = "WHEN", help_heading = "Global options")]
    pub color: ColorWhen,

    /// Site defaults file [default: ./awrflash.toml when present]; flags win.
    #[arg(
        long,
        global = true,
        value_name = "FILE.toml",
        help_heading = "Global options"
    )]
    pub config: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorWhen {
    Auto,
    Always,
    Never,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Analyse reports and captures: verdict, findings, options, segments to move.
    #[command(after_help = ANALYZE_HELP)]
    Analyze(AnalyzeArgs),
    /// Compare a before and an after window of one database with the advisor's projection.
    #[command(after_help = COMPARE_HELP)]
    Compare(CompareArgs),
    /// Write the parsed inputs as tidy tables (CSV or Parquet), one file per table.
    #[command(after_help = "Example:\n  awrflash extract week.zip -o tables/ --format parquet")]
    Extract(ExtractArgs),
    /// List the rule catalogue, or print one rule's documentation.
    Rules(RulesArgs),
    /// List the device profiles the projections use.
    Devices(DevicesArgs),
    /// Parse inputs and print each model as one JSON object per line (JSON Lines).
    Parse(ParseArgs),
    /// Print a shell completion script.
    #[command(
        after_help = "Example:\n  awrflash completions bash > /etc/bash_completion.d/awrflash"
    )]
    Completions(CompletionsArgs),
    /// Print a man page (roff), or write every page to a directory.
    #[command(
        after_help = "Examples:\n  awrflash man > awrflash.1 && man ./awrflash.1\n  awrflash man analyze > awrflash-analyze.1\n  awrflash man --dir /usr/local/share/man/man1"
    )]
    Man(ManArgs),
}

const ANALYZE_HELP: &str = "\
Reports are grouped by database (DBID and instance; a RAC global report is its own \
'all instances' group) and ordered by snapshot time. An iostat capture goes to the databases \
on its host (when one is in the run); other iostat, sysstat and segment-size inputs go to \
every database.

Output: text on stdout by default; -o FILE writes one database's report (format from \
the extension: .html, .md, .json, .txt); -o DIR/ writes one file per database named \
<db>_<dbid>_<instance>.<ext>, plus index.html for HTML.

Inputs that cannot be read are reported and skipped; the exit status is then decided by \
the findings, and is 2 only when no input could be used.

Examples:
  awrflash analyze awrrpt_1_100_101.html -o report.html
  awrflash analyze /data/awr/ -o out/ --fail-on warning";

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    /// Report files, directories (recursive), globs, .gz files or .zip archives.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// Write to FILE (one database) or DIR/ (one file per database + index.html).
    #[arg(long, short = 'o', value_name = "FILE|DIR/")]
    pub output: Option<PathBuf>,

    /// Output format [default: text on stdout; from the -o extension; html for a directory].
    #[arg(long, short = 'f', value_enum, value_name = "FORMAT")]
    pub format: Option<OutFormat>,

    /// Exit with status 1 when a finding has this severity or higher.
    #[arg(long, value_enum, value_name = "SEVERITY")]
    pub fail_on: Option<FailOn>,

    /// The short Markdown for a ticket comment: verdict, options, top findings
    /// (implies --format md).
    #[arg(long)]
    pub brief: bool,

    #[command(flatten)]
    pub advisor: AdvisorArgs,
}

/// Facts the inputs do not carry, for the advisor.
#[derive(Debug, Args, Clone, Default)]
#[command(next_help_heading = "Advisor options")]
pub struct AdvisorArgs {
    /// I/O channel (HBA or network) capacity in MB/s, for the channel bound.
    #[arg(long, value_name = "MBPS")]
    pub channel_mbps: Option<f64>,

    /// Flash capacity budget in GB, filled with the densest segments first.
    #[arg(long, value_name = "GB")]
    pub flash_capacity_gb: Option<f64>,

    /// Device profile to project with (see `awrflash devices`).
    #[arg(long, value_name = "NAME", help = device_help())]
    pub device: Option<String>,

    /// Extra device profiles from a TOML file (same layout as rules/devices.toml).
    #[arg(long, value_name = "FILE.toml")]
    pub devices: Option<PathBuf>,

    /// Device roles for iostat/sar captures: a TOML (`sdb = "redo"`) or CSV
    /// (`device,role`) mapping; device summaries are then grouped by role.
    #[arg(long, value_name = "FILE")]
    pub roles: Option<PathBuf>,
}

const COMPARE_HELP: &str = "\
Reports are matched by database (DBID and instance, as analyze groups them); a pair of \
different databases is refused. With several intervals a side, the hours of day both sides \
cover are compared (--window), and the choice is stated.

Examples:
  awrflash compare --before jan/ --after feb/ -o compare.html
  awrflash compare --before awrrpt_1_100_101.html --after awrrpt_1_900_901.html --format json";

#[derive(Debug, Args)]
pub struct CompareArgs {
    /// Reports of the window before the change (files, directories, globs, .gz, .zip).
    #[arg(long, required = true, num_args = 1.., value_name = "INPUT")]
    pub before: Vec<PathBuf>,

    /// Reports of the window after the change.
    #[arg(long, required = true, num_args = 1.., value_name = "INPUT")]
    pub after: Vec<PathBuf>,

    /// Write to FILE (one database) or DIR/ (one file per database).
    #[arg(long, short = 'o', value_name = "FILE|DIR/")]
    pub output: Option<PathBuf>,

    /// Output format [default: text on stdout; from the -o extension; html for a directory].
    #[arg(long, short = 'f', value_enum, value_name = "FORMAT")]
    pub format: Option<OutFormat>,

    /// Which intervals to compare: auto (same hours of day when the sides share some), whole, same-hours.
    #[arg(long, value_enum, default_value_t = WindowArg::Auto, value_name = "WHICH")]
    pub window: WindowArg,

    #[command(flatten)]
    pub advisor: AdvisorArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum WindowArg {
    Auto,
    Whole,
    SameHours,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum OutFormat {
    Html,
    Md,
    Json,
    Text,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    Info,
    Warning,
    Critical,
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    /// Report files, directories (recursive), globs, .gz files or .zip archives.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,

    /// Directory to write the tables to (created if missing).
    // `--out` and `--to` are the spellings of earlier releases, kept hidden.
    #[arg(long = "output", short = 'o', alias = "out", value_name = "DIR")]
    pub out: PathBuf,

    /// Table file format.
    #[arg(long = "format", short = 'f', alias = "to", value_enum, default_value_t = TableFormatArg::Parquet, value_name = "FORMAT")]
    pub to: TableFormatArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormatArg {
    Csv,
    Parquet,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ListFormat {
    Text,
    Json,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// A rule id (e.g. AF001): print its documentation.
    #[arg(value_name = "ID")]
    pub id: Option<String>,

    #[arg(long, short = 'f', value_enum, default_value_t = ListFormat::Text, value_name = "FORMAT")]
    pub format: ListFormat,
}

/// `--device`'s help: the built-in profile names from `rules/devices.toml`,
/// the default first.
fn device_help() -> String {
    let names = awrflash_rules::builtin_device_names();
    let (default, rest) = names
        .split_first()
        .map_or(("", &[][..]), |(d, r)| (d.as_str(), r));
    format!(
        "Device profile to project with: {default} (the default), {}, or one from a --devices file (see `awrflash devices`)",
        rest.join(", ")
    )
}

#[derive(Debug, Args)]
pub struct DevicesArgs {
    /// Also list the profiles of this TOML file.
    #[arg(long, value_name = "FILE.toml")]
    pub devices: Option<PathBuf>,

    /// Print an editable device file (the default profile under a new name,
    /// every field commented) that loads back with `--devices FILE`.
    #[arg(long, conflicts_with = "devices")]
    pub template: bool,

    #[arg(long, short = 'f', value_enum, default_value_t = ListFormat::Text, value_name = "FORMAT")]
    pub format: ListFormat,
}

#[derive(Debug, Args)]
pub struct ParseArgs {
    /// Report files, directories (recursive), globs, .gz files or .zip archives.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ManArgs {
    /// A subcommand (e.g. analyze): print its page, awrflash-analyze(1).
    #[arg(value_name = "COMMAND", conflicts_with = "dir")]
    pub command: Option<String>,

    /// Write awrflash.1 and one awrflash-COMMAND.1 per subcommand into DIR.
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
