//! `npuzzle`: solve sliding-tile puzzles from the command line.
//!
//! Exit codes: 0 solved (or solvable), 1 unsolvable, 2 invalid input, 3 a limit stopped the
//! search.

mod branching_factor;
mod chart;
mod cmd;
mod course_report;
mod exit;
mod input;
mod interrupt;
mod json_stream;
mod many_boards;
mod options;
mod output;
mod output_errors;
mod plan_book;
mod progress;
mod runner;
mod solving;
mod table_builds;
mod trace;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{CommandFactory, Parser, Subcommand};

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
    /// Play a board full screen in the terminal: move tiles, undo, hint, watch it solved.
    Play(cmd::play::PlayArgs),
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
    /// Print a shell completion script (bash, zsh, fish, powershell or elvish).
    Completions(cmd::completions::CompletionsArgs),
    /// Print the manual page, or write a page per command to a directory.
    Manpage(cmd::manpage::ManpageArgs),
}

/// clap's "invalid value 'VALUE' for '--option'" line without VALUE when it is long: the
/// reason after it already quotes what matters (a 50 KB heuristic expression was echoed
/// in full, then again in the reason).
fn without_long_value(e: &clap::Error, line: &str) -> String {
    use clap::error::{ContextKind, ContextValue};
    const LONGEST_ECHO: usize = 60;
    match e.get(ContextKind::InvalidValue) {
        Some(ContextValue::String(v)) if v.chars().count() > LONGEST_ECHO => {
            line.replacen(&format!(" '{v}'"), "", 1)
        }
        _ => line.to_string(),
    }
}

/// A flag's value the core refused (a goal, size, heuristic or algorithm that does not
/// parse): the core's words alone, as Python and the web API give them, rather than
/// wrapped in clap's `invalid value 'V' for '--goal <GOAL>': … (see npuzzle --help)`. Each
/// already names what it refuses (`goal: invalid tile …`, `unknown heuristic …`).
fn core_refusal(e: &clap::Error) -> Option<String> {
    use std::error::Error as _;
    let source = e.source()?;
    let core = source.is::<npuzzle::GoalError>()
        || source.is::<npuzzle::ShapeError>()
        || source.is::<npuzzle::heuristic::HeuristicError>()
        || source.is::<npuzzle::SolveError>();
    core.then(|| source.to_string())
}

/// What clap's first line leaves to the lines after it: the arguments that are missing
/// ("the following required arguments were not provided:" names none on its own line) and
/// the values an option takes.
fn what_clap_left_out(e: &clap::Error) -> String {
    use clap::error::{ContextKind, ContextValue};
    let names = |kind| match e.get(kind) {
        Some(ContextValue::Strings(v)) => v.join(", "),
        Some(ContextValue::String(v)) => v.clone(),
        _ => String::new(),
    };
    match e.kind() {
        clap::error::ErrorKind::MissingRequiredArgument => {
            format!(" {}", names(ContextKind::InvalidArg))
        }
        clap::error::ErrorKind::InvalidValue => match names(ContextKind::ValidValue) {
            valid if valid.is_empty() => String::new(),
            valid => format!(" (valid: {valid})"),
        },
        _ => String::new(),
    }
}

fn main() -> ExitCode {
    output_errors::install_hook();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => {
            // --help and --version: to a full disk, that is an error like any other output.
            use std::io::Write;
            let written = e.print().and_then(|()| std::io::stdout().flush());
            return match written {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    errln!("error: cannot write the output: {e}");
                    Outcome::Invalid.into()
                }
                _ => ExitCode::SUCCESS,
            };
        }
        Err(e) => {
            if let Some(words) = core_refusal(&e) {
                crate::errln!("error: {words}");
                return Outcome::Invalid.into();
            }
            // One line naming the problem, not clap's multi-line usage block.
            let rendered = e.render().to_string();
            let first = rendered
                .lines()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("invalid arguments");
            crate::errln!(
                "{}{} (see npuzzle --help)",
                without_long_value(&e, first),
                what_clap_left_out(&e)
            );
            return Outcome::Invalid.into();
        }
    };
    // The one place tables are opened: every command gets this value.
    let tables = table_builds::open(cli.pdb_dir);
    interrupt::clean_up_on_exit(tables.cache_dir());
    if matches!(
        cli.command,
        Command::Solve(_) | Command::Batch(_) | Command::Bench(_) | Command::Compare(_)
    ) {
        interrupt::install();
    }
    if matches!(cli.command, Command::Pdb(_)) {
        interrupt::install_quiet();
    }
    let result = match cli.command {
        Command::Solve(a) => cmd::solve::run(a, &tables),
        Command::Check(a) => cmd::check::run(a),
        Command::Random(a) => cmd::random::run(a),
        Command::Interactive(a) => cmd::interactive::run(a, &tables),
        Command::Play(a) => cmd::play::run(a, &tables),
        Command::Pdb(a) => cmd::pdb::run(a, &tables),
        Command::Bench(a) => cmd::bench::run(a, &tables),
        Command::Serve(a) => cmd::serve::run(a, &tables),
        Command::Batch(a) => cmd::batch::run(a, &tables),
        Command::Compare(a) => cmd::compare::run(a, &tables),
        Command::Completions(a) => cmd::completions::run(a, Cli::command()),
        Command::Manpage(a) => cmd::manpage::run(a, Cli::command()),
    };
    let code = match result {
        // Whatever the results so far, an interrupted run did not finish: exit 3.
        Ok(_) if interrupt::interrupted() => Outcome::Limit.into(),
        Ok(outcome) => outcome.into(),
        Err(e) if runner::is_closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let message = format!("{e:#}").replace('\n', " ");
            let message = message
                .strip_prefix("error: ")
                .unwrap_or(&message)
                .to_string();
            if interrupt::may_speak_last() {
                crate::errln!("error: {message}");
            }
            Outcome::Invalid.into()
        }
    };
    output_errors::flush(code)
}
