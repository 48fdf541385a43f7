//! `npuzzle interactive`: prompt for the order, the boards, the heuristic, the algorithm and
//! the trace, as the classroom's console program does, then solve.

use std::io::{BufRead, Read as _, Write};

use anyhow::{bail, Result};
use clap::Args;
use npuzzle::{Algorithm, Board, GoalSpec, HeuristicSpec, RawBoard, Shape, Tables};

use crate::exit::Outcome;
use crate::options::{HeuristicArg, SearchArgs};
use crate::output;
use crate::solving::solve_one;

/// Ask for a puzzle one prompt at a time, then solve it. Works with piped input too; at the
/// end of input the remaining prompts take their defaults.
#[derive(Args, Debug)]
pub struct InteractiveArgs {
    #[command(flatten)]
    pub search: SearchArgs,
}

/// The heuristics of the numbered menu (any other spec can still be typed by name).
const HEURISTICS: [(&str, &str); 6] = [
    ("misplaced", "tiles not on their goal cell"),
    ("manhattan", "sum of each tile's row and column distances"),
    ("euclidean", "sum of straight-line distances"),
    (
        "linear-conflict",
        "Manhattan + 2 per tile that must leave its line to let others pass",
    ),
    (
        "perfect",
        "the exact distance, from a table (at most 10 cells)",
    ),
    (
        "pdb",
        "additive pattern databases (built once, cached on disk)",
    ),
];

/// The longest answer read: a board of the largest shape typed in (1,024 cells) fits many
/// times over, and a line without an end (a stray binary file) is not read into memory whole.
const MAX_ANSWER_BYTES: u64 = 64 << 10;

/// The most answers one session reads. A puzzle of the largest shape typed row by row, with
/// its goal and menus, takes about a thousand; piped input that never completes a puzzle
/// (`yes | npuzzle interactive`) would otherwise be asked again for ever.
const MAX_ANSWERS: usize = 10_000;

/// Reads answers line by line and re-asks on bad input.
struct Prompter<R> {
    input: R,
    /// The input has ended: every question from now on takes its default.
    ended: bool,
    /// Answers read so far.
    answers: usize,
}

impl<R: BufRead> Prompter<R> {
    /// Prints `question`, reads one line; `None` at end of input.
    ///
    /// # Errors
    /// An answer longer than [`MAX_ANSWER_BYTES`], more than [`MAX_ANSWERS`] of them, or
    /// input that cannot be read.
    fn ask(&mut self, question: &str) -> Result<Option<String>> {
        if self.answers == MAX_ANSWERS {
            bail!("{MAX_ANSWERS} answers and still no puzzle: is the input meant for these questions?");
        }
        print!("{question}");
        std::io::stdout().flush()?;
        let mut line = String::new();
        let read = (&mut self.input)
            .take(MAX_ANSWER_BYTES + 1)
            .read_line(&mut line)?;
        if read == 0 {
            println!();
            self.ended = true;
            return Ok(None);
        }
        if read as u64 > MAX_ANSWER_BYTES {
            bail!("an answer longer than {MAX_ANSWER_BYTES} bytes: type a board of at most 1024 cells");
        }
        self.answers += 1;
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

    /// Reads a board: the whole of it on one line (`7 2 6 8 1 4 3 5 0`, `726814350`,
    /// `7 2 6/8 1 4/3 5 0`) or row by row. For the goal (`optional`), a goal's name
    /// (`spiral`, as `--goal` takes) is read too, and Enter or the end of input means the
    /// standard goal and returns `None`.
    fn board(&mut self, what: &str, shape: Shape, optional: bool) -> Result<Option<Board>> {
        let example = GoalSpec::Standard.board(shape)?.to_string();
        'again: loop {
            let first = format!(
                "{what}: the whole board on one line (e.g. {example}) or row 1 of {} ({} numbers, 0 or _ for the blank{}): ",
                shape.rows(),
                shape.cols(),
                if optional {
                    "; standard, blank-first or spiral; Enter for the standard goal"
                } else {
                    ""
                }
            );
            let answer = match self.ask(&first)? {
                None if optional => return Ok(None),
                None => bail!("input ended before the puzzle was complete"),
                Some(a) if a.is_empty() && optional => return Ok(None),
                Some(a) => a,
            };
            if let Ok(b) = Board::parse(&answer, Some(shape)) {
                return Ok(Some(b));
            }
            let named = answer.parse::<GoalSpec>().ok();
            if let Some(goal) = named.filter(|g| optional && !matches!(g, GoalSpec::Explicit(_))) {
                return Ok(Some(goal.board(shape)?));
            }
            let mut tiles = Vec::new();
            for r in 0..shape.rows() {
                let answer = if r == 0 {
                    answer.clone()
                } else {
                    let q = format!("{what} row {} of {}: ", r + 1, shape.rows());
                    self.ask_required(&q)?
                };
                match RawBoard::parse(&answer) {
                    Ok(raw) if raw.tiles.len() == shape.cols() => tiles.extend(raw.tiles),
                    Ok(raw) => {
                        println!(
                            "  expected {} numbers for a row or {} for the board, got {}; enter the {what} again.",
                            shape.cols(),
                            shape.cells(),
                            raw.tiles.len()
                        );
                        continue 'again;
                    }
                    Err(e) => {
                        println!("  {e}; enter the {what} again.");
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
                Err(e) => println!("  {e}; enter the {what} again."),
            }
        }
    }

    /// The heuristic menu. `given` is `-H`'s heuristic: Enter (or the end of input) keeps it,
    /// or without `-H`, lets npuzzle pick the best available.
    fn heuristic(&mut self, given: Option<&HeuristicSpec>) -> Result<Option<HeuristicSpec>> {
        println!("Heuristics:");
        for (i, (name, what)) in HEURISTICS.iter().enumerate() {
            println!("  {}. {name:<16} {what}", i + 1);
        }
        let default = match given {
            Some(h) => format!("Enter keeps {h} (from -H)"),
            None => "Enter for the best available".to_string(),
        };
        loop {
            let q = format!("Heuristic (number or name; {default}): ");
            let answer = match self.ask(&q)? {
                None => return Ok(given.cloned()),
                Some(a) if a.is_empty() => return Ok(given.cloned()),
                Some(a) => a,
            };
            let name = match answer.parse::<usize>() {
                Ok(n) if (1..=HEURISTICS.len()).contains(&n) => HEURISTICS[n - 1].0,
                Ok(_) => {
                    println!("  choose 1 to {}, or type a name", HEURISTICS.len());
                    continue;
                }
                Err(_) => answer.as_str(),
            };
            match HeuristicSpec::parse_choice(name) {
                Ok(h) => return Ok(h),
                Err(e) => println!("  {e}"),
            }
        }
    }

    /// The algorithm menu (every algorithm there is); Enter or the end of input keeps `given`.
    fn algorithm(&mut self, given: Algorithm) -> Result<Algorithm> {
        println!("Algorithms:");
        for (i, a) in Algorithm::ALL.iter().enumerate() {
            println!("  {}. {a}", i + 1);
        }
        loop {
            let q = format!("Algorithm (number or name; Enter for {given}): ");
            let answer = match self.ask(&q)? {
                None => return Ok(given),
                Some(a) if a.is_empty() => return Ok(given),
                Some(a) => a,
            };
            let chosen = match answer.parse::<usize>() {
                Ok(n) if (1..=Algorithm::ALL.len()).contains(&n) => Ok(Algorithm::ALL[n - 1]),
                Ok(_) => {
                    println!("  choose 1 to {}, or type a name", Algorithm::ALL.len());
                    continue;
                }
                Err(_) => answer.parse::<Algorithm>(),
            };
            match chosen {
                Ok(a) => return Ok(a),
                Err(e) => println!("  {e}"),
            }
        }
    }

    /// How many expansions to show; Enter or the end of input shows none.
    fn trace(&mut self) -> Result<usize> {
        loop {
            let q = "Show the order of expansions as boards? How many (Enter for none): ";
            let answer = match self.ask(q)? {
                None => return Ok(0),
                Some(a) if a.is_empty() => return Ok(0),
                Some(a) => a,
            };
            match answer.parse::<usize>() {
                Ok(n) if n <= crate::options::MAX_TRACE => return Ok(n),
                _ => println!("  a number from 0 to {}", crate::options::MAX_TRACE),
            }
        }
    }
}

pub fn run(args: InteractiveArgs, tables: &Tables) -> Result<Outcome> {
    let limits = args.search.limits()?;
    let stdin = std::io::stdin();
    let mut p = Prompter {
        input: stdin.lock(),
        ended: false,
        answers: 0,
    };
    let shape = p.shape()?;
    let start = p.board("Start", shape, false)?.expect("required");
    let goal = match p.board("Goal", shape, true)? {
        Some(g) => g,
        None => GoalSpec::Standard.board(shape)?,
    };
    let mut search = args.search.clone();
    // A choice the planner refuses for this board (`perfect` on a 4×4, say) is asked
    // again, unless the board is unsolvable (no choice would change that) or the input
    // has ended (the same defaults would come back).
    // Once the input has ended the questions asked again take their defaults (the options'
    // choices), and a refusal of those is the answer: an error, as the command line's.
    let solvable = npuzzle::check_solvable(&start, &goal).is_ok();
    loop {
        let defaults = p.ended;
        search.heuristic = Some(HeuristicArg(
            p.heuristic(args.search.heuristic_spec().as_ref())?,
        ));
        search.algorithm = p.algorithm(args.search.algorithm)?;
        match npuzzle::plan::plan_within(&goal, &search.solve_options(), tables, &limits) {
            Err(e) if solvable && defaults => return Err(e.into()),
            Err(e) if solvable => println!("  {e}; choose again."),
            _ => break,
        }
    }
    let trace = p.trace()?;
    println!();
    // Ctrl-C at a prompt quits at once; from here on it stops the search, which answers
    // with what it has and exit 3, as `solve` does.
    crate::interrupt::install();
    let result = solve_one(
        &start,
        &goal,
        &search,
        tables,
        trace,
        crate::options::all_cores(),
        false,
    )?;
    print!("{}", output::text(&start, &goal, &result, true));
    Ok(output::outcome(&result))
}
