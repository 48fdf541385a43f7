//! `npuzzle completions SHELL`: a shell completion script, from the same clap definition
//! as the command line itself (so it never falls behind a new flag).

use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;
use clap_complete::Shell;

use crate::exit::Outcome;

/// Print a completion script for a shell.
#[derive(Args, Debug)]
pub struct CompletionsArgs {
    /// The shell: bash, zsh, fish, powershell or elvish.
    #[arg(value_name = "SHELL")]
    pub shell: Shell,
}

/// Writes the script for `args.shell` to standard output; `cli` is the whole command line.
pub fn run(args: CompletionsArgs, mut cli: clap::Command) -> Result<Outcome> {
    // Into memory first: clap_complete panics when its writer fails (a full disk), and the
    // script is a few kilobytes.
    let mut script = Vec::new();
    let name = cli.get_name().to_string();
    clap_complete::generate(args.shell, &mut cli, name, &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)
        .and_then(|()| out.flush())
        .context("cannot write the output")?;
    Ok(Outcome::Success)
}
