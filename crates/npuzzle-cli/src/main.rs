//! `npuzzle`: solve sliding-tile puzzles from the command line.
//!
//! Exit codes: 0 solved (or solvable), 1 unsolvable, 2 invalid input, 3 a limit stopped the
//! search.

mod aima;
mod branching;
mod chart;
mod cmd;
mod exit;
mod input;
mod instances;
mod options;
mod output;
mod progress;
mod runner;
mod solving;
mod stream;
mod tables;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use exit::Outcome;

/// Solve sliding-tile puzzles (8-, 15-, 24-puzzle, any RxC board) with heuristic search.
#[derive(Parser, Debug)]
#[command(name = "npuzzle", version, about, max_term_width = 100)]
struct Cli {
    #[command(subcommand)]
    command: Command,

    /// Directory of cached pattern databases (default: the user's cache directory, e.g.
    /// ~/.cache/npuzzle/pdb).
    #[arg(long, global = true, env = "NPUZZLE_PDB_DIR", value_name = "DIR")]
    pdb_dir: Option<PathBuf>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Solve a board (or a file of boards) and print the path and statistics.
    Solve(cmd::solve::SolveArgs),
    /// Say whether a board can reach the goal, and why.
    Check(cmd::check::CheckArgs),
    /// Print random solvable boards, reproducible by seed.
    Random(cmd::random::RandomArgs),
    /// Enter a puzzle at prompts (order, rows, goal, heuristic), then solve it.
    Interactive(cmd::interactive::InteractiveArgs),
    /// Build or list cached pattern databases.
    Pdb(cmd::pdb::PdbArgs),
    /// Solve a file of instances, check their lengths, and report nodes and times.
    Bench(cmd::bench::BenchArgs),
    /// Serve the web page (enter, shuffle, solve, watch, play, compare) and its JSON API.
    Serve(cmd::serve::ServeArgs),
    /// Solve every board of a file on all cores; report each with its line number.
    Batch(cmd::batch::BatchArgs),
    /// Compare algorithms and heuristics on the same instances: tables, data and a chart.
    Compare(cmd::compare::CompareArgs),
}

/// Ends the process quietly when the reader of standard output goes away (`| head`):
/// `println!` panics on a broken pipe, which is not an error worth a message.
fn quiet_on_broken_pipe() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default_hook(info);
    }));
}

fn main() -> ExitCode {
    quiet_on_broken_pipe();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            // One line naming the problem, not clap's multi-line usage block.
            let rendered = e.render().to_string();
            let first = rendered
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid arguments");
            eprintln!("{first} (see npuzzle --help)");
            return Outcome::Invalid.into();
        }
    };
    // The one place tables are opened: every command gets this value.
    let tables = tables::open(cli.pdb_dir);
    let result = match cli.command {
        Command::Solve(a) => cmd::solve::run(a, &tables),
        Command::Check(a) => cmd::check::run(a),
        Command::Random(a) => cmd::random::run(a),
        Command::Interactive(a) => cmd::interactive::run(a, &tables),
        Command::Pdb(a) => cmd::pdb::run(a, &tables),
        Command::Bench(a) => cmd::bench::run(a, &tables),
        Command::Serve(a) => cmd::serve::run(a, &tables),
        Command::Batch(a) => cmd::batch::run(a, &tables),
        Command::Compare(a) => cmd::compare::run(a, &tables),
    };
    match result {
        Ok(outcome) => outcome.into(),
        Err(e) => {
            let message = format!("{e:#}").replace('\n', " ");
            let message = message
                .strip_prefix("error: ")
                .unwrap_or(&message)
                .to_string();
            eprintln!("error: {message}");
            Outcome::Invalid.into()
        }
    }
}
