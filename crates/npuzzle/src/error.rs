//! Why a board was not searched.

use crate::goal::GoalError;
use crate::heuristic::HeuristicError;
use crate::solvability::Verdict;

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
        "unknown algorithm `{0}` (expected auto, astar, idastar, bfs, greedy, weighted-astar, weighted-idastar, constructive or beam)"
    )]
    UnknownAlgorithm(String),
    /// A weight below 1 or not finite.
    #[error("weight must be a number of at least 1, got {0}")]
    InvalidWeight(f64),
    /// A beam width of 0.
    #[error("width must be at least 1, got 0")]
    InvalidWidth,
    /// A proof of optimality was asked for with a choice that cannot give one.
    #[error(
        "a proof of optimality needs an optimal search: {0} does not prove its answer shortest (use auto, astar, idastar or bfs with an admissible heuristic)"
    )]
    CannotProve(String),
    /// The board is too large for tile-by-tile search.
    #[error("board has {cells} cells; search algorithms handle at most {max}")]
    TooLarge {
        /// Cells of the board.
        cells: usize,
        /// The most search handles.
        max: usize,
    },
}
