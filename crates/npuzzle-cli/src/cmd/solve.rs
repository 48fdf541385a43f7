//! `npuzzle solve`: solve one board or a file of boards.

use std::io::Write as _;

use anyhow::{Context, Result};
use clap::Args;
use npuzzle::expected_length::{judge, wrong_expected_of};
use npuzzle::{plan, Board, LineStatus, SolveError, SolveOptions, Tables};

use crate::exit::Outcome;
use crate::input;
use crate::options::{self, BoardArgs, SearchArgs};
use crate::output;
use crate::solving::solve_one;
use crate::stream;
use crate::trace::{self, TraceFormat};

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
    /// With --json: before each board's object, a JSON line `{"progress": {...}}` whenever
    /// the anytime engine's best length or proven lower bound improves.
    #[arg(long, requires = "json")]
    pub progress: bool,
    /// Print every board along the path, numbered step by step.
    #[arg(long)]
    pub path: bool,
    /// Print the plan (algorithm, heuristic, tables and what they cost, auto's phases and
    /// budgets, whether the answer is guaranteed optimal) without searching.
    #[arg(long)]
    pub explain: bool,
    /// Print the order in which states were expanded, up to N of them: small boards side
    /// by side with g, h and f (IDA*: by iteration, with its bound).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "50")]
    pub trace: Option<usize>,
    /// Threads for each IDA* search (default: all cores). The path's length and the node
    /// counts are those of the serial search; --trace makes the search serial.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,
    /// How --trace prints: boards side by side, or one JSON object per expansion (with
    /// --json the trace is always a field of the object).
    #[arg(long, value_enum, default_value_t = TraceFormat::Text, value_name = "FORMAT")]
    pub trace_format: TraceFormat,
}

pub fn run(args: SolveArgs, tables: &Tables) -> Result<Outcome> {
    args.search.limits()?; // report bad limits before reading any input
    let trace = args.trace.map(|n| n.min(100_000)).unwrap_or(0);
    let threads = options::threads(args.threads, options::all_cores())?;
    let entries = input::boards(&args.input)?;
    let single = entries.len() == 1;
    let mut worst = Outcome::Success;
    for entry in entries {
        if crate::interrupt::interrupted() {
            break; // Ctrl-C: the boards not yet started are left out
        }
        let start = match entry.board {
            Ok(b) => b,
            Err(e) if single => anyhow::bail!(e),
            Err(e) => {
                print_invalid(&e, args.json);
                worst = worst.worst(Outcome::Invalid);
                continue;
            }
        };
        // A `START | GOAL` line brings its own goal.
        let goal = match entry
            .goal
            .map_or_else(|| args.input.goal.board(start.shape()), Ok)
        {
            Ok(g) => g,
            Err(e) if single => anyhow::bail!(e),
            Err(e) => {
                print_invalid(&format!("line {}: {e}", entry.line), args.json);
                worst = worst.worst(Outcome::Invalid);
                continue;
            }
        };
        if args.explain {
            explain(&goal, &args.search.solve_options(), tables, args.json)?;
            continue;
        }
        let mut result = solve_one(
            &start,
            &goal,
            &args.search,
            tables,
            trace,
            threads,
            args.progress,
        )?;
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
        // The same judgement of the file's expected length as every command of many boards.
        let (status, matches) = judge(&result, entry.expected);
        let outcome = Outcome::from(status);
        if args.json {
            let stdout = std::io::stdout();
            let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
            // A write error ends the run; `main` tells a reader that went away (`| head`, a
            // quiet exit) from a full disk (exit 2).
            let expected = entry.expected.map(|e| (e, matches));
            stream::json(&mut out, &start, &goal, result, args.path, expected)
                .and_then(|()| out.flush())
                .context("cannot write the output")?;
        } else {
            if !single {
                println!("== line {} ==", entry.line);
            }
            // As JSON lines, the trace follows the text instead of its boards.
            let trace_lines = match (&mut result, args.trace_format) {
                (Ok(s), TraceFormat::Json) => Some(std::mem::take(&mut s.trace)),
                _ => None,
            };
            {
                let stdout = std::io::stdout();
                let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
                output::write_text(&mut out, &start, &goal, &result, args.path)
                    .and_then(|()| out.flush())
                    .context("cannot write the output")?;
            }
            if let Some(steps) = trace_lines.filter(|t| !t.is_empty()) {
                println!("\nExpansion order (one JSON object per line):");
                print!("{}", trace::json_lines(&steps));
            }
            if let Some(expected) = entry.expected {
                match status {
                    LineStatus::WrongExpected => println!(
                        "line {}: {}",
                        entry.line,
                        wrong_expected_of(&result, expected)
                    ),
                    _ if matches == Some(true) => println!("Expected length {expected}: matches."),
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
        crate::errln!("error: {message}");
    }
}

/// Prints the plan for boards towards `goal` (`--explain`).
fn explain(goal: &Board, options: &SolveOptions, tables: &Tables, json: bool) -> Result<()> {
    let p = plan(goal, options, tables)?;
    if json {
        println!("{}", serde_json::to_string(&p)?);
    } else {
        print!("{p}");
    }
    Ok(())
}
