//! The front door: check solvability, pick an algorithm and heuristic, search, report.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::goal::GoalError;
use crate::heuristic::pdb::{self, PartitionSpec, PatternDatabase};
use crate::heuristic::{
    self, HeuristicError, HeuristicSpec, LinearConflict, Manhattan, Reevaluate,
};
use crate::moves::Move;
use crate::puzzle::{Puzzle, MAX_SEARCH_CELLS};
use crate::search::{self, Control, Priority, SearchStats, StopReason, TraceStep};
use crate::solvability::{self, Verdict};

/// A search algorithm, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[non_exhaustive]
pub enum Algorithm {
    /// Picks a fast optimal method for the board (see [`solve`]).
    #[default]
    Auto,
    /// A* with a closed set; re-opens states reached by shorter paths. Optimal with an
    /// admissible heuristic; memory grows with the states seen.
    AStar,
    /// Iterative-deepening A*. Optimal with an admissible heuristic; memory is the path.
    IdaStar,
    /// Breadth-first search. Optimal; ignores the heuristic; memory-hungry.
    Bfs,
    /// Greedy best-first on `h` alone. Fast, not optimal.
    Greedy,
    /// A* on `g + W·h`; at most `W` × optimal with an admissible heuristic.
    WeightedAStar,
}

impl Algorithm {
    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
            Algorithm::Bfs => "bfs",
            Algorithm::Greedy => "greedy",
            Algorithm::WeightedAStar => "weighted-astar",
        }
    }

    /// All algorithms, for help text and menus.
    pub const ALL: [Algorithm; 6] = [
        Algorithm::Auto,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Bfs,
        Algorithm::Greedy,
        Algorithm::WeightedAStar,
    ];
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = SolveError;
    fn from_str(s: &str) -> Result<Algorithm, SolveError> {
        let s = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        Ok(match s.as_str() {
            "auto" => Algorithm::Auto,
            "astar" | "a*" | "a-star" => Algorithm::AStar,
            "idastar" | "ida*" | "ida-star" | "ida" => Algorithm::IdaStar,
            "bfs" | "breadth-first" => Algorithm::Bfs,
            "greedy" | "best-first" | "gbfs" => Algorithm::Greedy,
            "weighted-astar" | "wastar" | "weighted" | "wa*" => Algorithm::WeightedAStar,
            _ => return Err(SolveError::UnknownAlgorithm(crate::board::clip(&s))),
        })
    }
}

/// What to solve with.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveOptions {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The heuristic; `None` lets npuzzle pick the strongest available.
    pub heuristic: Option<HeuristicSpec>,
    /// `W` for weighted A* (at least 1).
    pub weight: f64,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            algorithm: Algorithm::Auto,
            heuristic: None,
            weight: 2.0,
        }
    }
}

/// Why a board was not searched.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The start cannot reach the goal.
    #[error("unsolvable: {0}")]
    Unsolvable(Verdict),
    /// The goal does not fit the board.
    #[error(transparent)]
    Goal(#[from] GoalError),
    /// The heuristic was refused.
    #[error(transparent)]
    Heuristic(#[from] HeuristicError),
    /// An unknown algorithm name.
    #[error(
        "unknown algorithm `{0}` (expected auto, astar, idastar, bfs, greedy or weighted-astar)"
    )]
    UnknownAlgorithm(String),
    /// A weight below 1 or not finite.
    #[error("weight must be a number of at least 1, got {0}")]
    InvalidWeight(f64),
    /// The board is too large for tile-by-tile search.
    #[error("board has {cells} cells; search algorithms handle at most {max}")]
    TooLarge {
        /// Cells of the board.
        cells: usize,
        /// The most search handles.
        max: usize,
    },
}

/// The result of [`solve`].
#[derive(Clone, Debug)]
pub struct Solution {
    /// The solvability verdict (always solvable here; unsolvable boards are an error).
    pub verdict: Verdict,
    /// The moves of the blank from start to goal, or `None` if a limit stopped the search.
    pub moves: Option<Vec<Move>>,
    /// Whether the algorithm and heuristic guarantee the path is shortest.
    pub optimal: bool,
    /// Search counters.
    pub stats: SearchStats,
    /// The limit that stopped the search.
    pub stopped_by: Option<StopReason>,
    /// The algorithm used (never `auto`).
    pub algorithm: Algorithm,
    /// The heuristic used, by name (`none` for BFS).
    pub heuristic: String,
    /// Whether that heuristic is admissible.
    pub admissible: bool,
    /// The first expansions, when asked for.
    pub trace: Vec<TraceStep>,
}

impl Solution {
    /// Number of moves, if solved.
    pub fn length(&self) -> Option<usize> {
        self.moves.as_ref().map(Vec::len)
    }
}

/// Checks solvability, then searches.
///
/// `Algorithm::Auto` uses IDA* (memory is only the path, so it never outgrows a memory
/// limit) with the `perfect` table on boards of up to 10 cells, pattern databases (`pdb`)
/// on 4×4 and linear conflict on other boards (see [`planned_heuristic`]).
/// Without a heuristic the other algorithms use linear conflict.
///
/// # Errors
/// [`SolveError::Unsolvable`] before any search when the parity rule says so; otherwise
/// errors about the goal, heuristic, weight or board size. Hitting a limit is not an error:
/// the [`Solution`] has `moves: None` and `stopped_by` set.
///
/// ```
/// use npuzzle::{solve, Board, GoalSpec, SolveOptions, search::Control};
/// let start = Board::parse("7 2 6/8 1 4/3 5 0", None).unwrap();
/// let goal = GoalSpec::Standard.board(start.shape()).unwrap();
/// let s = solve(&start, &goal, &SolveOptions::default(), Control::default()).unwrap();
/// assert!(s.optimal);
/// let moves = s.moves.unwrap();
/// assert_eq!(start.replay(&moves).unwrap(), goal);
/// ```
pub fn solve(
    start: &Board,
    goal: &Board,
    options: &SolveOptions,
    control: Control<'_>,
) -> Result<Solution, SolveError> {
    let verdict = solvability::check(start, goal)?;
    if !verdict.solvable {
        return Err(SolveError::Unsolvable(verdict));
    }
    if !(options.weight.is_finite() && options.weight >= 1.0) {
        return Err(SolveError::InvalidWeight(options.weight));
    }
    let cells = start.shape().cells();
    let puzzle = Puzzle::new(goal).ok_or(SolveError::TooLarge {
        cells,
        max: MAX_SEARCH_CELLS,
    })?;
    let tiles = puzzle.encode(start);

    let algorithm = match options.algorithm {
        Algorithm::Auto => Algorithm::IdaStar,
        a => a,
    };
    let spec = planned_for(&puzzle, options);
    let admissible = spec.admissible();
    let outcome = match algorithm {
        Algorithm::Bfs => search::bfs(&puzzle, &tiles, control),
        Algorithm::IdaStar | Algorithm::Auto => match spec {
            HeuristicSpec::Manhattan => {
                search::idastar(&puzzle, &tiles, Manhattan::new(&puzzle), control)
            }
            HeuristicSpec::LinearConflict => {
                search::idastar(&puzzle, &tiles, LinearConflict::new(&puzzle), control)
            }
            HeuristicSpec::Pdb(ref p) => {
                let partition = pdb::partition(p, &puzzle).map_err(HeuristicError::from)?;
                let (db, _) = PatternDatabase::new(&puzzle, &partition, &mut |_| {})
                    .map_err(HeuristicError::from)?;
                search::idastar(&puzzle, &tiles, db.search(), control)
            }
            _ => {
                let h = heuristic::build(&spec, &puzzle)?;
                search::idastar(&puzzle, &tiles, Reevaluate(h.as_ref()), control)
            }
        },
        Algorithm::AStar | Algorithm::Greedy | Algorithm::WeightedAStar => {
            let h = heuristic::build(&spec, &puzzle)?;
            let priority = match algorithm {
                Algorithm::AStar => Priority::AStar,
                Algorithm::Greedy => Priority::Greedy,
                _ => Priority::Weighted(options.weight),
            };
            search::astar(&puzzle, &tiles, h.as_ref(), admissible, priority, control)
        }
    };
    let optimal = outcome.moves.is_some()
        && match algorithm {
            Algorithm::Bfs => true,
            Algorithm::AStar | Algorithm::IdaStar | Algorithm::Auto => admissible,
            Algorithm::WeightedAStar => admissible && options.weight <= 1.0,
            Algorithm::Greedy => false,
        };
    let (heuristic, admissible) = if algorithm == Algorithm::Bfs {
        ("none".to_string(), true)
    } else {
        (spec.to_string(), admissible)
    };
    Ok(Solution {
        verdict,
        moves: outcome.moves,
        optimal,
        stats: outcome.stats,
        stopped_by: outcome.stopped_by,
        algorithm,
        heuristic,
        admissible,
        trace: outcome.trace,
    })
}

/// The heuristic [`solve`] will use for `options` towards `goal`, with `pdb` resolved to a
/// concrete partition (e.g. `pdb:7-8`): callers use it to load or build pattern databases
/// beforehand with a progress bar ([`pdb::prepare`]).
///
/// With no heuristic given, `auto` picks `perfect` up to 10 cells and, on 4×4, `pdb`: the
/// `7-8` tables when they are at hand (in memory or in the cache directory), else `6-6-3`,
/// which builds in well under a second. Other algorithms default to linear conflict.
pub fn planned_heuristic(goal: &Board, options: &SolveOptions) -> HeuristicSpec {
    match Puzzle::new(goal) {
        Some(puzzle) => planned_for(&puzzle, options),
        None => options
            .heuristic
            .clone()
            .unwrap_or(HeuristicSpec::LinearConflict),
    }
}

fn planned_for(puzzle: &Puzzle, options: &SolveOptions) -> HeuristicSpec {
    let cells = puzzle.cells();
    let spec = match (&options.heuristic, options.algorithm) {
        (Some(h), _) => h.clone(),
        (None, Algorithm::Auto) if cells <= heuristic::MAX_PERFECT_CELLS => HeuristicSpec::Perfect,
        (None, Algorithm::Auto) if puzzle.shape.rows() == 4 && puzzle.shape.cols() == 4 => {
            HeuristicSpec::Pdb(PartitionSpec::Best)
        }
        (None, _) => HeuristicSpec::LinearConflict,
    };
    pdb::resolve(&spec, puzzle)
}
