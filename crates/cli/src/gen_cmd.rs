//! `awrflash completions SHELL` and `awrflash man`, from the clap definition.

use std::fs;
use std::io::{self, Write};

use anyhow::{Context, Result, bail};
use clap::CommandFactory;

use crate::args::{Cli, CompletionsArgs, ManArgs};

pub fn completions(args: &CompletionsArgs) -> Result<u8> {
    // Generated into memory first: the generator panics on a write error,
    // and a closed pipe must end quietly.
    let mut buf = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "awrflash", &mut buf);
    io::stdout().lock().write_all(&buf)?;
    Ok(0)
}

/// The root page, one subcommand's page (`awrflash-analyze(1)`, the name the
/// root page's SUBCOMMANDS section refers to), or every page into a directory.
pub fn man(args: &ManArgs) -> Result<u8> {
    let mut root = Cli::command().disable_help_subcommand(true);
    // Building names the subcommands `awrflash-<name>` for their pages.
    root.build();
    if let Some(dir) = &args.dir {
        fs::create_dir_all(dir)
            .with_context(|| format!("{}: cannot create the directory", dir.display()))?;
        let subs: Vec<clap::Command> = root
            .get_subcommands()
            .filter(|s| !s.is_hide_set())
            .cloned()
            .collect();
        for page in std::iter::once(root).chain(subs) {
            page_of(page)
                .generate_to(dir)
                .with_context(|| format!("{}: cannot write the man pages", dir.display()))?;
        }
        return Ok(0);
    }
    let page = match &args.command {
        None => root,
        Some(name) => match root.find_subcommand(name) {
            Some(sub) => sub.clone(),
            None => bail!(
                "no subcommand `{name}` (one of: {})",
                root.get_subcommands()
                    .map(|s| s.get_name())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        },
    };
    let mut buf = Vec::new();
    page_of(page).render(&mut buf)?;
    io::stdout().lock().write_all(&buf)?;
    Ok(0)
}

/// One page, its footer naming awrflash and its version (a subcommand's
/// own name would stand there otherwise).
fn page_of(cmd: clap::Command) -> clap_mangen::Man {
    clap_mangen::Man::new(cmd).source(format!("awrflash {}", env!("CARGO_PKG_VERSION")))
}
