//! Options shared by the commands that take boards and search them.

use anyhow::{anyhow, bail, Result};
use clap::Args;
use npuzzle::{
    Algorithm, Ceilings, Field, GoalSpec, HeuristicError, HeuristicSpec, Limits, Request, Shape,
    SolveOptions, DEFAULT_BEAM_WIDTH, DEFAULT_MEMORY_MB, DEFAULT_WEIGHT,
};
use std::path::PathBuf;
use std::str::FromStr;

/// The most expansions `--trace` (and the interactive prompt's trace) records: each holds a
/// board, so a longer trace is more output than anyone reads and memory on large boards.
pub const MAX_TRACE: usize = 100_000;

/// Where the boards come from and which goal they go to.
#[derive(Args, Debug, Clone)]
pub struct BoardArgs {
    /// The board: numbers separated by spaces or commas, rows optionally separated by `/`
    /// or newlines, `0` or `_` for the blank (e.g. "7 2 6/8 1 4/3 5 0"). Read from standard
    /// input when neither BOARD nor --file is given.
    pub board: Option<String>,

    /// Read boards from a file (`-` for standard input): one board, the classroom format
    /// (the order on the first line, then one board per line), or one board per line.
    #[arg(long, short = 'f', conflicts_with = "board")]
    pub file: Option<PathBuf>,

    /// Board shape as RxC (needed when it is not square and not written in rows).
    #[arg(long, short = 's')]
    pub size: Option<Shape>,

    /// The goal: standard (1..n-1 then the blank), blank-first, spiral, or an explicit
    /// board of the same shape.
    #[arg(long, short = 'g', default_value = "standard")]
    pub goal: GoalSpec,
}

/// How to search, and when to give up.
#[derive(Args, Debug, Clone)]
pub struct SearchArgs {
    /// Heuristic: misplaced, manhattan, euclidean, linear-conflict, perfect (all
    /// admissible; perfect is an exact table for boards of at most 10 cells), pdb or
    /// pdb:7-8, pdb:6-6-3, pdb:5-5-5 (additive pattern databases, cached on disk; see
    /// `npuzzle pdb`), a weighted
    /// sum such as "0.6*manhattan+0.4*misplaced" (admissible when the weights add up to at
    /// most 1), or "max(manhattan,linear-conflict)" (admissible when every part is).
    /// Default (or auto): the strongest available for the board.
    #[arg(long, short = 'H')]
    pub heuristic: Option<HeuristicArg>,

    // The help lists every algorithm there is (see `algorithm_help`).
    #[arg(long, short = 'a', default_value = "auto", help = algorithm_help())]
    pub algorithm: Algorithm,

    /// W for weighted-astar and weighted-idastar: the path is at most W times the optimal
    /// length.
    #[arg(
        long,
        short = 'w',
        default_value_t = DEFAULT_WEIGHT,
        allow_negative_numbers = true
    )]
    pub weight: f64,

    #[command(flatten)]
    pub beam: WidthArg,

    /// Prove the answer optimal, with no fallback: IDA* (or the algorithm named, if it is
    /// optimal) with the strongest admissible tables for the shape (7-8 on 4x4, 6-6-6-6
    /// keeping the blank's region on 5x5, built and cached if need be; `npuzzle pdb build
    /// --optimal` builds them ahead) on all --threads, pruning duplicate move sequences on
    /// 15- and 24-puzzles, stopped only by a limit you set.
    #[arg(long)]
    pub optimal: bool,

    #[command(flatten)]
    pub limits: LimitArgs,
}

/// `-H`: `auto` (the planner's choice, as with no `-H`) or a heuristic, as
/// [`HeuristicSpec::parse_choice`] reads them in every front end.
#[derive(Clone, Debug, PartialEq)]
pub struct HeuristicArg(pub Option<HeuristicSpec>);

impl FromStr for HeuristicArg {
    type Err = HeuristicError;

    fn from_str(name: &str) -> Result<HeuristicArg, HeuristicError> {
        HeuristicSpec::parse_choice(name).map(HeuristicArg)
    }
}

/// `--time-limit`, `--max-nodes` and `--memory-limit`, one set of flags for the search
/// commands and `compare`, all checked by the core's [`Request::check`].
#[derive(Args, Debug, Clone, Copy)]
pub struct LimitArgs {
    /// Stop a search after this many seconds. For auto it is the budget: the best answer
    /// found by then is printed with its proven lower bound (default on boards over 16
    /// cells: 10 seconds; up to 16 cells auto runs until the answer is proved optimal).
    #[arg(long, value_name = "SECONDS", allow_negative_numbers = true)]
    pub time_limit: Option<f64>,

    /// Stop a search after generating this many nodes.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub max_nodes: Option<i128>,

    /// Stop a search before its open and closed lists outgrow this many megabytes (each
    /// search: commands that run several at once give each this much).
    #[arg(long, value_name = "MB", default_value_t = DEFAULT_MEMORY_MB.into(), allow_negative_numbers = true)]
    pub memory_limit: i128,
}

/// `--width`, one flag for the search commands and `compare`.
#[derive(Args, Debug, Clone, Copy)]
pub struct WidthArg {
    /// States beam search keeps a depth (`-a beam`): wider beams find shorter paths and
    /// take longer. A beam that loses its way (every state of a depth a repeat, or twice
    /// the constructive solver's length reached) stops, exit 3, stopped by "width".
    #[arg(
        long,
        value_name = "N",
        default_value_t = DEFAULT_BEAM_WIDTH as i128,
        allow_negative_numbers = true
    )]
    pub width: i128,
}

impl SearchArgs {
    /// The solver options. The width is checked by [`limits`](SearchArgs::limits), which
    /// every command calls first; one out of range here becomes 0, which the planner
    /// refuses.
    pub fn solve_options(&self) -> SolveOptions {
        SolveOptions {
            algorithm: self.algorithm,
            heuristic: self.heuristic_spec(),
            weight: self.weight,
            width: usize::try_from(self.beam.width).unwrap_or(0),
            optimal: self.optimal,
        }
    }

    /// The heuristic asked for; `None` for the planner's choice (no `-H`, or `-H auto`).
    pub fn heuristic_spec(&self) -> Option<HeuristicSpec> {
        self.heuristic.as_ref().and_then(|h| h.0.clone())
    }

    /// The limits, with the weight, the width and every limit checked by the core's
    /// [`Request::check`] (the message spells the field as the flag).
    ///
    /// # Errors
    /// A limit that is zero, negative, not a number or above [`Ceilings::DEFAULT`], a
    /// weight outside 1..=1000000 or a width outside 1..=100000000.
    pub fn limits(&self) -> Result<Limits> {
        let request = Request {
            options: self.solve_options(),
            time_limit: self.limits.time_limit,
            max_nodes: self.limits.max_nodes,
            memory_limit: Some(self.limits.memory_limit),
            width: Some(self.beam.width),
        };
        let (_, limits) = request
            .check(&Ceilings::DEFAULT)
            .map_err(|e| anyhow!(e.message(Field::cli_name)))?;
        Ok(limits)
    }
}

/// The help of `--algorithm`, naming every algorithm in [`Algorithm::ALL`] so none is left
/// out when one is added.
pub fn algorithm_help() -> String {
    let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
    format!(
        "Algorithm: {} (auto: optimal up to 16 cells, else the best answer within the time budget with its proven lower bound; weighted ones: see --weight; beam: see --width)",
        names.join(", ")
    )
}

/// `--seed`, or one drawn from the clock when it is not given.
pub fn seed_or_clock(seed: Option<u64>) -> u64 {
    seed.unwrap_or_else(npuzzle::generate::fresh_seed)
}

/// `--threads`: the threads one search may use, checked for sense; `None` gives `default`.
///
/// # Errors
/// A count of 0 or above 1024.
pub fn threads(given: Option<usize>, default: usize) -> Result<usize> {
    match given {
        None => Ok(default),
        Some(n) if (1..=1024).contains(&n) => Ok(n),
        Some(n) => bail!("--threads must be between 1 and 1024, got {n}"),
    }
}

/// The processors this process may run on (1 when that cannot be told).
pub fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}
