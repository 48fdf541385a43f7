//! `npuzzle solve`: solve one board or a file of boards.

use std::io::Write as _;

use anyhow::{Context, Result};
use clap::Args;
use npuzzle::expected_length::{judge, wrong_expected_of};
use npuzzle::plan::PhaseKind;
use npuzzle::{plan_within, Board, LineStatus, Solution, SolveError, Tables};

use crate::exit::Outcome;
use crate::input::{self, Entry};
use crate::json_stream;
use crate::options::{self, BoardArgs, SearchArgs};
use crate::output;
use crate::solving::solve_one;
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
    /// the anytime engine's best length or proven lower bound improves, or an optimal
    /// search's proven lower bound (IDA*'s threshold, A*'s smallest f) rises.
    #[arg(long, requires = "json")]
    pub progress: bool,
    /// Print every board along the path, numbered step by step.
    #[arg(long)]
    pub path: bool,
    /// Print the plan (algorithm, heuristic, tables and what they cost, auto's phases and
    /// budgets, whether the answer is guaranteed optimal) without searching.
    #[arg(long)]
    pub explain: bool,
    /// Print the order in which states were expanded, up to N of them (at most 100000):
    /// small boards side by side with g, h and f (IDA*: by iteration, with its bound).
    #[arg(long, value_name = "N", num_args = 0..=1, default_missing_value = "50", allow_negative_numbers = true)]
    pub trace: Option<usize>,
    /// Threads for each IDA* search (default: all cores). The path's length and the node
    /// counts are those of the serial search; --trace makes the search serial.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// How --trace prints: boards side by side, or one JSON object per expansion (with
    /// --json the trace is always a field of the object).
    #[arg(long, value_enum, default_value_t = TraceFormat::Text, value_name = "FORMAT")]
    pub trace_format: TraceFormat,
}

pub fn run(args: SolveArgs, tables: &Tables) -> Result<Outcome> {
    args.search.limits()?; // report bad limits before reading any input
    let entries = input::boards(&args.input)?;
    let run = Run {
        single: entries.len() == 1,
        trace: args.trace.map_or(0, |n| n.min(crate::options::MAX_TRACE)),
        threads: options::threads(args.threads, options::all_cores())?,
        args: &args,
        tables,
    };
    let mut worst = Outcome::Success;
    for entry in entries {
        if crate::interrupt::interrupted() {
            break; // Ctrl-C: the boards not yet started are left out
        }
        worst = worst.worst(run.entry(entry)?);
    }
    Ok(worst)
}

/// What every board of one `solve` shares.
struct Run<'a> {
    args: &'a SolveArgs,
    tables: &'a Tables,
    /// One board (an argument, or a file of one): its errors end the command with their
    /// own words; in a file, each is printed with its line and the next board follows.
    single: bool,
    trace: usize,
    threads: usize,
}

impl Run<'_> {
    /// One board: its goal, then its plan (`--explain`) or its solve, printed.
    fn entry(&self, entry: Entry) -> Result<Outcome> {
        let start = match entry.board {
            Ok(b) => b,
            Err(e) => return self.invalid(anyhow::anyhow!(e.clone()), e),
        };
        // A `START | GOAL` line brings its own goal.
        let goal = match entry
            .goal
            .map_or_else(|| self.args.input.goal.board(start.shape()), Ok)
        {
            Ok(g) => g,
            Err(e) => {
                let line = format!("line {}: {e}", entry.line);
                return self.invalid(e.into(), line);
            }
        };
        if self.args.explain {
            // Solvability comes before the plan here too: an unsolvable board is reported
            // as `solve` reports it (exit 1), even when its choice would be refused.
            if let Err(e @ SolveError::Unsolvable(_)) = npuzzle::check_solvable(&start, &goal) {
                return self.print(entry.line, entry.expected, &start, &goal, Err(e));
            }
            explain(&goal, &self.args.search, self.tables, self.args.json)?;
            return Ok(Outcome::Success);
        }
        let result = solve_one(
            &start,
            &goal,
            &self.args.search,
            self.tables,
            self.trace,
            self.threads,
            self.args.progress,
        )?;
        if let Err(e) = &result {
            if !matches!(e, SolveError::Unsolvable(_)) {
                let line = format!("line {}: {e}", entry.line);
                return self.invalid(e.clone().into(), line);
            }
        }
        if self.args.path {
            json_stream::warn_path(&start, &result);
        }
        self.print(entry.line, entry.expected, &start, &goal, result)
    }

    /// A board that cannot be solved as asked: the command's error when it is the only
    /// one, else `in_file` printed (JSON: an `error` object) and the next board follows.
    fn invalid(&self, error: anyhow::Error, in_file: String) -> Result<Outcome> {
        if self.single {
            return Err(error);
        }
        print_invalid(&in_file, self.args.json);
        Ok(Outcome::Invalid)
    }

    /// Prints a solve (text or JSON) with the judgement of the file's expected length, the
    /// same as every command of many boards makes, and returns its outcome.
    fn print(
        &self,
        line: usize,
        expected: Option<usize>,
        start: &Board,
        goal: &Board,
        mut result: Result<Solution, SolveError>,
    ) -> Result<Outcome> {
        let (status, matches) = judge(&result, expected);
        let stdout = std::io::stdout();
        if self.args.json {
            let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
            // A write error ends the run; `main` tells a reader that went away (`| head`, a
            // quiet exit) from a full disk (exit 2).
            let expected = expected.map(|e| (e, matches));
            json_stream::json(&mut out, start, goal, result, self.args.path, expected)
                .and_then(|()| out.flush())
                .context("cannot write the output")?;
            return Ok(Outcome::from(status));
        }
        if !self.single {
            println!("== line {line} ==");
        }
        // As JSON lines, the trace follows the text instead of its boards.
        let trace_lines = match (&mut result, self.args.trace_format) {
            (Ok(s), TraceFormat::Json) => Some(std::mem::take(&mut s.trace)),
            _ => None,
        };
        {
            let mut out = std::io::BufWriter::with_capacity(1 << 20, stdout.lock());
            output::write_text(&mut out, start, goal, &result, self.args.path)
                .and_then(|()| out.flush())
                .context("cannot write the output")?;
        }
        if let Some(steps) = trace_lines.filter(|t| !t.is_empty()) {
            println!("\nExpansion order (one JSON object per line):");
            print!("{}", trace::json_lines(&steps));
        }
        let unrecorded =
            matches!(&result, Ok(s) if s.trace.is_empty() && s.phase == PhaseKind::Anytime);
        if self.trace > 0 && unrecorded {
            println!("\n{}", trace::NOT_RECORDED);
        }
        if let Some(expected) = expected {
            match status {
                LineStatus::WrongExpected => {
                    println!("line {line}: {}", wrong_expected_of(&result, expected))
                }
                _ if matches == Some(true) => println!("Expected length {expected}: matches."),
                _ => println!("Expected length {expected}."),
            }
        }
        if !self.single {
            println!();
        }
        Ok(Outcome::from(status))
    }
}

fn print_invalid(message: &str, json: bool) {
    if json {
        println!("{}", serde_json::json!({ "error": message }));
    } else {
        crate::errln!("error: {message}");
    }
}

/// Prints the plan for boards towards `goal` (`--explain`): the one `solve` runs with these
/// options and limits.
fn explain(goal: &Board, search: &SearchArgs, tables: &Tables, json: bool) -> Result<()> {
    let p = plan_within(goal, &search.solve_options(), tables, &search.limits()?)?;
    if json {
        println!("{}", serde_json::to_string(&p)?);
    } else {
        print!("{p}");
    }
    Ok(())
}
