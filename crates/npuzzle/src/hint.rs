//! A hint: the next move towards the goal, the first of `auto`'s answer within a hint's
//! budget. `npuzzle play`'s `h`, the server's `/api/hint` and Python's `hint()` all give
//! it, with this budget and these words.
//!
//! ```
//! use npuzzle::{hint::Hint, solve, Board, SolveOptions, Tables, search::Control};
//! let start = Board::parse("1 2 3/4 5 6/7 0 8", None).unwrap();
//! let goal = Board::parse("1 2 3/4 5 6/7 8 0", None).unwrap();
//! let s = solve(&start, &goal, &SolveOptions::default(), &Tables::default(), Control::default());
//! let hint = Hint::new(&start, &goal, &s.unwrap());
//! assert_eq!((hint.next.as_deref(), hint.tile, hint.remaining), (Some("R"), Some(8), Some(1)));
//! ```

use std::time::Duration;

use serde::Serialize;

use crate::board::Board;
use crate::moves::Move;
use crate::request::Ceilings;
use crate::solve::Solution;

/// Longest a hint searches, and its budget when none is given: a hint should come back
/// while the player waits.
pub const HINT_TIME: Duration = Duration::from_secs(5);

/// The ceilings of a hint's request: a time limit of at most [`HINT_TIME`] (a longer one
/// is refused, in [`Request::check`](crate::Request::check)'s words), the rest the command
/// line's.
pub const HINT_CEILINGS: Ceilings = Ceilings {
    time: HINT_TIME,
    ..Ceilings::DEFAULT
};

/// The next move from a board, as `/api/hint` answers it (its JSON fields).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Hint {
    /// Whether the board is the goal already (then there is no move).
    pub solved: bool,
    /// The blank's move, `U`, `D`, `L` or `R`; `None` when solved or when no path was found
    /// in the budget.
    #[serde(rename = "move")]
    pub next: Option<String>,
    /// The tile that move slides.
    pub tile: Option<u32>,
    /// The moves left on the path the hint starts.
    pub remaining: Option<usize>,
    /// Whether that path is proved shortest.
    pub optimal: bool,
    /// The proven lower bound on the moves left.
    pub lower_bound: Option<u64>,
    /// The path the hint starts, as letters.
    pub moves: Option<String>,
    /// The limit that ended the search, if one did.
    pub stopped_by: Option<&'static str>,
}

impl Hint {
    /// The hint `solution` (a solve from `start` to `goal`) gives.
    pub fn new(start: &Board, goal: &Board, solution: &Solution) -> Hint {
        let first = solution.moves.as_ref().and_then(|m| m.first().copied());
        Hint {
            solved: start == goal,
            next: first.map(|m| m.letter().to_string()),
            tile: first
                .and_then(|m| start.target(m))
                .map(|cell| start.tiles()[cell]),
            remaining: solution.length(),
            optimal: solution.optimal,
            lower_bound: solution.lower_bound,
            moves: solution.moves.as_deref().map(Move::to_letters),
            stopped_by: solution.stopped_by.map(|r| r.as_str()),
        }
    }
}
