//! `npuzzle solve`: solve one board or a file of boards.

use std::io::Write as _;
use std::path::Path;

use anyhow::Result;
use clap::Args;
use npuzzle::search::Control;
use npuzzle::{solve, Board, Solution, SolveError};

use crate::exit::Outcome;
use crate::input;
use crate::options::{BoardArgs, SearchArgs};
use crate::output;
use crate::progress::SearchSpinner;
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
    /// Print every board along the path, numbered step by step.
    #[arg(long)]
    pub path: bool,
    /// Print the order in which states were expanded, up to N of them: small boards side
    /// by side with g, h and f (IDA*: by iteration, with its bound).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "50")]
    pub trace: Option<usize>,
    /// How --trace prints: boards side by side, or one JSON object per expansion (with
    /// --json the trace is always a field of the object).
    #[arg(long, value_enum, default_value_t = TraceFormat::Text, value_name = "FORMAT")]
    pub trace_format: TraceFormat,
}

/// Boards from the arguments: BOARD, --file or standard input.
pub fn boards(args: &BoardArgs) -> Result<Vec<input::Entry>> {
    let text = match (&args.board, &args.file) {
        // `npuzzle solve boards.txt`: an existing file that is not a board is read as one.
        (Some(b), _) if Board::parse(b, args.size).is_err() && Path::new(b).is_file() => {
            input::read_file(Path::new(b))?
        }
        (Some(b), _) => {
            return Ok(vec![input::Entry {
                line: 1,
                board: Board::parse(b, args.size).map_err(|e| not_a_board(b, &e)),
                expected: None,
                goal: None,
            }])
        }
        (None, Some(path)) => input::read_file(path)?,
        (None, None) => input::read_stdin()?,
    };
    Ok(input::parse_entries(&text, args.size))
}

/// The parse error, and for an argument that looks like a file name, the way to read one.
fn not_a_board(arg: &str, e: &npuzzle::ParseBoardError) -> String {
    if arg.chars().any(|c| c.is_alphabetic() || c == '.') && !arg.contains(char::is_whitespace) {
        format!("{e}; no file is named `{arg}` either (to read boards from a file: --file PATH)")
    } else {
        e.to_string()
    }
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
    let cancel = crate::interrupt::cancel_flag();
    let control = Control {
        limits: search.limits()?,
        cancel: Some(&cancel),
        progress: Some(&report),
        trace,
    };
    let mut result = solve(start, goal, &options, control);
    spinner.finish();
    crate::interrupt::relabel(&mut result);
    Ok(result)
}

pub fn run(args: SolveArgs) -> Result<Outcome> {
    args.search.limits()?; // report bad limits before reading any input
    let trace = args.trace.map(|n| n.min(100_000)).unwrap_or(0);
    let entries = boards(&args.input)?;
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
        let mut result = solve_one(&start, &goal, &args.search, trace)?;
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
            // A reader that goes away (e.g. `| head`) ends the output, not the run.
            let _ = stream::json(&mut out, &start, &goal, result, args.path, entry.expected)
                .and_then(|()| out.flush());
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
            // As JSON lines, the trace follows the text instead of its boards.
            let trace_lines = match (&mut result, args.trace_format) {
                (Ok(s), TraceFormat::Json) => Some(std::mem::take(&mut s.trace)),
                _ => None,
            };
            {
                let stdout = std::io::stdout();
                let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
                let _ = output::write_text(&mut out, &start, &goal, &result, args.path)
                    .and_then(|()| out.flush());
            }
            if let Some(steps) = trace_lines.filter(|t| !t.is_empty()) {
                println!("\nExpansion order (one JSON object per line):");
                print!("{}", trace::json_lines(&steps));
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
