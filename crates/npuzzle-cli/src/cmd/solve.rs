//! `npuzzle solve`: solve one board or a file of boards.

use std::io::Write as _;

use anyhow::{Context, Result};
use clap::Args;
use npuzzle::search::Control;
use npuzzle::{solve, Board, Solution, SolveError};

use crate::exit::Outcome;
use crate::input;
use crate::options::{BoardArgs, SearchArgs};
use crate::output;
use crate::progress::SearchSpinner;
use crate::stream;

/// Solve boards and print the path and statistics.
#[derive(Args, Debug)]
pub struct SolveArgs {
    #[command(flatten)]
    pub input: BoardArgs,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Print one JSON object per board (one per line) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Print every board along the path, numbered step by step.
    #[arg(long)]
    pub path: bool,
    /// Print the order in which states were expanded, up to N of them.
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "50")]
    pub trace: Option<usize>,
}

/// Boards from the arguments: BOARD, --file or standard input.
pub fn boards(args: &BoardArgs) -> Result<Vec<input::Entry>> {
    let text = match (&args.board, &args.file) {
        (Some(b), _) => {
            return Ok(vec![input::Entry {
                line: 1,
                board: Board::parse(b, args.size).map_err(|e| e.to_string()),
                expected: None,
            }])
        }
        (None, Some(path)) => input::read_file(path)?,
        (None, None) => input::read_stdin()?,
    };
    Ok(input::parse_entries(&text, args.size))
}

/// Solves one board with a spinner on a terminal.
pub fn solve_one(
    start: &Board,
    goal: &Board,
    search: &SearchArgs,
    trace: usize,
) -> Result<Result<Solution, SolveError>> {
    let options = search.solve_options();
    // Load or build pattern databases with a progress bar; a partition that does not fit
    // the board is reported by `solve` itself.
    let _ = crate::cmd::pdb::prepare(&npuzzle::planned_heuristic(goal, &options), goal);
    let spinner = SearchSpinner::new();
    let report = |p: &npuzzle::search::Progress| spinner.update(p);
    let control = Control {
        limits: search.limits()?,
        cancel: None,
        progress: Some(&report),
        trace,
    };
    let result = solve(start, goal, &options, control);
    spinner.finish();
    Ok(result)
}

pub fn run(args: SolveArgs) -> Result<Outcome> {
    args.search.limits()?; // report bad limits before reading any input
    let trace = args.trace.map(|n| n.min(100_000)).unwrap_or(0);
    let entries = boards(&args.input)?;
    let single = entries.len() == 1;
    let mut worst = Outcome::Success;
    for entry in entries {
        let start = match entry.board {
            Ok(b) => b,
            Err(e) if single => anyhow::bail!(e),
            Err(e) => {
                print_invalid(&e, args.json);
                worst = worst.worst(Outcome::Invalid);
                continue;
            }
        };
        let goal = match args.input.goal.board(start.shape()) {
            Ok(g) => g,
            Err(e) if single => anyhow::bail!(e),
            Err(e) => {
                print_invalid(&format!("line {}: {e}", entry.line), args.json);
                worst = worst.worst(Outcome::Invalid);
                continue;
            }
        };
        let result = solve_one(&start, &goal, &args.search, trace)?;
        if let Err(e) = &result {
            if !matches!(e, SolveError::Unsolvable(_)) {
                if single {
                    anyhow::bail!(e.clone());
                }
                print_invalid(&format!("line {}: {e}", entry.line), args.json);
                worst = worst.worst(Outcome::Invalid);
                continue;
            }
        }
        if args.path {
            stream::warn_path(&start, &result);
        }
        let outcome = output::outcome(&result);
        if args.json && stream::is_huge(&start, &result, args.path) {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
            // A write error ends the run; `main` tells a reader that went away (`| head`, a
            // quiet exit) from a full disk (exit 2).
            stream::json(&mut out, &start, &goal, result, args.path, entry.expected)
                .and_then(|()| out.flush())
                .context("cannot write the output")?;
        } else if args.json {
            let mut line = output::json(&start, &goal, &result, args.path);
            if let Some(expected) = entry.expected {
                // Keep the report's schema and add the file's expected length beside it.
                line.pop();
                line.push_str(&format!(",\"expected\":{expected}}}"));
            }
            println!("{line}");
        } else {
            if !single {
                println!("== line {} ==", entry.line);
            }
            {
                let stdout = std::io::stdout();
                let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
                output::write_text(&mut out, &start, &goal, &result, args.path)
                    .and_then(|()| out.flush())
                    .context("cannot write the output")?;
            }
            if let (Some(expected), Ok(s)) = (entry.expected, &result) {
                match s.length() {
                    Some(len) if len == expected => {
                        println!("Expected length {expected}: matches.")
                    }
                    Some(len) if s.optimal => {
                        println!("Expected length {expected}: MISMATCH (found {len}).")
                    }
                    _ => println!("Expected length {expected}."),
                }
            }
            if !single {
                println!();
            }
        }
        worst = worst.worst(outcome);
    }
    Ok(worst)
}

fn print_invalid(message: &str, json: bool) {
    if json {
        println!("{}", serde_json::json!({ "error": message }));
    } else {
        eprintln!("error: {message}");
    }
}
