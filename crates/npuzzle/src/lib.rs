//! # npuzzle
//!
//! Sliding-tile puzzles (the 8-, 15- and 24-puzzle and any R×C board): parse boards, pick a
//! goal, decide solvability exactly for every shape, and search with admissible heuristics
//! and optimal algorithms.
//!
//! ```
//! use npuzzle::{solve, Board, GoalSpec, HeuristicSpec, Algorithm, SolveOptions, Tables};
//! use npuzzle::search::Control;
//!
//! // The tables heuristics use (pattern databases, exact small-board tables): owned by the
//! // program, passed in.
//! let tables = Tables::default();
//! let start = Board::parse("7 2 6/8 1 4/3 5 0", None)?;
//! let goal = GoalSpec::Standard.board(start.shape())?;
//! let options = SolveOptions {
//!     algorithm: Algorithm::AStar,
//!     heuristic: Some("manhattan".parse()?),
//!     ..SolveOptions::default()
//! };
//! let solution = solve(&start, &goal, &options, &tables, Control::default())?;
//! let moves = solution.moves.expect("no limit was set");
//! assert!(solution.optimal);
//! assert_eq!(start.replay(&moves).unwrap(), goal);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod algorithm;
pub mod anytime;
pub mod board;
pub mod board_file;
pub mod constructive;
mod error;
pub mod expected_length;
pub mod generate;
pub mod goal;
pub mod heuristic;
pub mod hint;
pub mod moves;
pub mod plan;
pub mod pruning;
pub mod puzzle;
pub mod report;
pub mod request;
pub mod search;
pub mod shape;
pub mod solvability;
mod solve;
pub mod text;

pub use algorithm::Algorithm;
pub use board::{Board, ParseBoardError, RawBoard, Tile};
pub use board_file::{BoardLine, BoardLineError, TooManyLines, MAX_BOARD_LINES, MAX_INPUT_BYTES};
pub use error::SolveError;
pub use expected_length::LineStatus;
pub use goal::{GoalError, GoalSpec};
pub use heuristic::{HeuristicError, HeuristicSpec, TablePolicy, Tables};
pub use moves::Move;
pub use plan::{
    plan, plan_for_runs, plan_within, runs_per_thread, Plan, SolveOptions, DEFAULT_BEAM_WIDTH,
};
pub use puzzle::Puzzle;
pub use report::SolveReport;
pub use request::{
    Ceilings, Field, Request, RequestError, DEFAULT_MEMORY_MB, DEFAULT_WEIGHT, MAX_BEAM_WIDTH,
    MAX_WEIGHT,
};
pub use search::{Limits, SearchStats, StopReason};
pub use shape::{Shape, ShapeError};
pub use solvability::Verdict;
pub use solve::{check_solvable, execute, solve, Planned, Solution};
