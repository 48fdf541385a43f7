//! The search algorithms, as the command line and the API name them.

use std::fmt;
use std::str::FromStr;

use crate::error::SolveError;

/// A search algorithm, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[non_exhaustive]
pub enum Algorithm {
    /// What the planner picks for the board (see [`mod@crate::plan`]).
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
    /// IDA* on `g + W·h`: at most `W` × optimal with an admissible heuristic, memory only
    /// the path.
    WeightedIdaStar,
    /// Places tiles row by row and column by column, then finishes the last 3×3 optimally:
    /// any size up to 2000×2000 in linear time, not optimal (see [`crate::constructive`]).
    Constructive,
    /// Beam search: breadth-first, keeping the `width` states of each depth that the
    /// heuristic ranks best (see [`crate::search::beam`]). Not optimal; memory is the width
    /// times the depth. The anytime engine runs it too, on boards of 26 cells and more.
    Beam,
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
            Algorithm::WeightedIdaStar => "weighted-idastar",
            Algorithm::Constructive => "constructive",
            Algorithm::Beam => "beam",
        }
    }

    /// Whether the algorithm takes a weight `W`.
    pub fn is_weighted(self) -> bool {
        matches!(self, Algorithm::WeightedAStar | Algorithm::WeightedIdaStar)
    }

    /// All algorithms, for help text and menus.
    pub const ALL: [Algorithm; 9] = [
        Algorithm::Auto,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Bfs,
        Algorithm::Greedy,
        Algorithm::WeightedAStar,
        Algorithm::WeightedIdaStar,
        Algorithm::Constructive,
        Algorithm::Beam,
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
            "weighted-idastar" | "widastar" | "wida*" | "weighted-ida" => {
                Algorithm::WeightedIdaStar
            }
            "constructive" | "rows" => Algorithm::Constructive,
            "beam" | "beam-search" => Algorithm::Beam,
            _ => return Err(SolveError::UnknownAlgorithm(crate::text::clip(&s))),
        })
    }
}
