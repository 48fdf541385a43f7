//! `npuzzle interactive`: prompt for the order, the rows, the goal and the heuristic.

use std::io::{BufRead, Write};

use anyhow::{bail, Result};
use clap::Args;
use npuzzle::{Board, GoalSpec, HeuristicSpec, RawBoard, Shape, Tables};

use crate::exit::Outcome;
use crate::options::SearchArgs;
use crate::output;
use crate::solving::solve_one;

/// Ask for a puzzle one prompt at a time, then solve it. Works with piped input too.
#[derive(Args, Debug)]
pub struct InteractiveArgs {
    #[command(flatten)]
    pub search: SearchArgs,
}

/// Reads answers line by line and re-asks on bad input.
struct Prompter<R> {
    input: R,
}

impl<R: BufRead> Prompter<R> {
    /// Prints `question`, reads one line; `None` at end of input.
    fn ask(&mut self, question: &str) -> Result<Option<String>> {
        print!("{question}");
        std::io::stdout().flush()?;
        let mut line = String::new();
        if self.input.read_line(&mut line)? == 0 {
            println!();
            return Ok(None);
        }
        Ok(Some(line.trim().to_string()))
    }

    fn ask_required(&mut self, question: &str) -> Result<String> {
        match self.ask(question)? {
            Some(a) => Ok(a),
            None => bail!("input ended before the puzzle was complete"),
        }
    }

    fn shape(&mut self) -> Result<Shape> {
        loop {
            let answer = self.ask_required("Order of the puzzle (3 for the 8-puzzle, or RxC): ")?;
            match answer
                .trim_start_matches(['N', 'n', '=', ' '])
                .parse::<Shape>()
            {
                Ok(s) if s.cells() <= 1024 => return Ok(s),
                Ok(s) => println!("  {s} is too large to type in; use `npuzzle solve --file`."),
                Err(e) => println!("  {e}"),
            }
        }
    }

    /// Reads a board row by row. With `empty_means` set, an empty first row returns `None`.
    fn board(&mut self, what: &str, shape: Shape, empty_ok: bool) -> Result<Option<Board>> {
        'again: loop {
            let mut tiles = Vec::new();
            for r in 0..shape.rows() {
                let hint = if r == 0 && empty_ok {
                    ", Enter for the standard goal"
                } else {
                    ""
                };
                let q = format!(
                    "{what} row {} of {} ({} numbers, 0 or _ for the blank{hint}): ",
                    r + 1,
                    shape.rows(),
                    shape.cols()
                );
                let answer = self.ask_required(&q)?;
                if r == 0 && empty_ok && answer.is_empty() {
                    return Ok(None);
                }
                match RawBoard::parse(&answer) {
                    Ok(raw) if raw.tiles.len() == shape.cols() => tiles.extend(raw.tiles),
                    Ok(raw) => {
                        println!(
                            "  expected {} numbers, got {}; start the {what} again.",
                            shape.cols(),
                            raw.tiles.len()
                        );
                        continue 'again;
                    }
                    Err(e) => {
                        println!("  {e}; start the {what} again.");
                        continue 'again;
                    }
                }
            }
            let raw = RawBoard {
                tiles,
                rows: vec![shape.cols(); shape.rows()],
            };
            match Board::from_raw(&raw, Some(shape)) {
                Ok(b) => return Ok(Some(b)),
                Err(e) => println!("  {e}; start the {what} again."),
            }
        }
    }

    fn heuristic(&mut self) -> Result<Option<HeuristicSpec>> {
        loop {
            let answer = self.ask_required(
                "Heuristic (misplaced, manhattan, euclidean, linear-conflict; Enter for the best available): ",
            )?;
            if answer.is_empty() {
                return Ok(None);
            }
            match answer.parse::<HeuristicSpec>() {
                Ok(h) => return Ok(Some(h)),
                Err(e) => println!("  {e}"),
            }
        }
    }
}

pub fn run(args: InteractiveArgs, tables: &Tables) -> Result<Outcome> {
    args.search.limits()?;
    let stdin = std::io::stdin();
    let mut p = Prompter {
        input: stdin.lock(),
    };
    let shape = p.shape()?;
    let start = p.board("start", shape, false)?.expect("required");
    let goal = match p.board("goal", shape, true)? {
        Some(g) => g,
        None => GoalSpec::Standard.board(shape)?,
    };
    let heuristic = p.heuristic()?;
    let mut search = args.search.clone();
    if heuristic.is_some() {
        search.heuristic = heuristic;
    }
    println!();
    let result = solve_one(
        &start,
        &goal,
        &search,
        tables,
        0,
        crate::options::all_cores(),
    )?;
    print!("{}", output::text(&start, &goal, &result, true));
    Ok(output::outcome(&result))
}
