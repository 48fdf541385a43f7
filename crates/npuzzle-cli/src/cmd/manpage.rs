//! `npuzzle manpage`: the manual page (roff), from the same clap definition as the command
//! line itself.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use crate::exit::Outcome;

/// Print the manual page, or write one page per command to a directory.
#[derive(Args, Debug)]
pub struct ManpageArgs {
    /// Write `npuzzle.1` and a page per command (`npuzzle-solve.1`, …) into DIR instead of
    /// printing `npuzzle.1` (e.g. `--dir ~/.local/share/man/man1`).
    #[arg(long, value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Renders the pages of `cli`, the whole command line.
pub fn run(args: ManpageArgs, cli: clap::Command) -> Result<Outcome> {
    match args.dir {
        Some(dir) => {
            // create_dir_all says only "File exists" when a file is in the way.
            if dir.exists() && !dir.is_dir() {
                anyhow::bail!(
                    "cannot write manual pages to {}: it is not a directory",
                    dir.display()
                );
            }
            std::fs::create_dir_all(&dir)
                .and_then(|()| clap_mangen::generate_to(cli, &dir))
                .with_context(|| format!("cannot write manual pages to {}", dir.display()))?;
        }
        None => {
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            let man = clap_mangen::Man::new(cli);
            man.render(&mut out)
                .and_then(|()| out.flush())
                .context("cannot write the output")?;
        }
    }
    Ok(Outcome::Success)
}
