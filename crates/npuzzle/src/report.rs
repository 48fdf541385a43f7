//! The machine-readable result of a solve: the object `npuzzle solve --json` prints, the web
//! API returns and batch runs write, one schema everywhere.

use serde::Serialize;

use crate::anytime::Improvement;
use crate::board::Board;
use crate::error::SolveError;
use crate::moves::Move;
use crate::plan::PhaseKind;
use crate::solvability::Verdict;
use crate::solve::Solution;

/// One solve, ready to serialise. Field names are a stable contract (see the README).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SolveReport {
    /// Whether the start can reach the goal.
    pub solvable: bool,
    /// Number of moves, or `null` when unsolvable or stopped by a limit.
    pub length: Option<usize>,
    /// Moves of the blank as `U`, `D`, `L`, `R`, or `null`.
    pub moves: Option<String>,
    /// Whether the path is guaranteed shortest.
    pub optimal: bool,
    /// States whose successors were generated.
    pub expanded: u64,
    /// Successor states created (the move back to the parent is never generated).
    pub generated: u64,
    /// Peak open-list size (IDA*: deepest path).
    pub max_open: u64,
    /// Wall-clock seconds of the search.
    pub seconds: f64,
    /// Heuristic used (`none` for BFS, `null` when no search ran).
    pub heuristic: Option<String>,
    /// Whether that heuristic is admissible.
    pub admissible: Option<bool>,
    /// Algorithm used (`null` when no search ran).
    pub algorithm: Option<String>,
    /// Which phase of the plan answered: `search` (the one algorithm asked for), `optimal`
    /// (auto's exact table), `anytime` (auto's anytime engine) or `constructive`. Absent
    /// when no search ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase: Option<PhaseKind>,
    /// `time`, `nodes`, `memory` or `cancelled` when a limit stopped the search.
    pub stopped_by: Option<&'static str>,
    /// Board shape, `RxC`.
    pub size: String,
    /// Start tiles, row-major, 0 the blank.
    pub start: Vec<u32>,
    /// Goal tiles, row-major.
    pub goal: Vec<u32>,
    /// Why the board is (un)solvable, in one sentence.
    pub reason: String,
    /// Boards from start to goal, with `--path`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<Vec<Vec<u32>>>,
    /// The best lower bound known on the optimal length: the length itself when optimal;
    /// for the anytime engine the larger of its heuristic's value (a pattern database where
    /// it has one) and the last IDA* threshold it completed; else linear conflict, or
    /// Manhattan distance on boards over 255 cells. Absent when no search ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lower_bound: Option<u64>,
    /// Proven bound on `length ÷ optimal` (1 when optimal; for a bounded-suboptimal search
    /// the smaller of its weight and `length ÷ lower_bound`). Absent when no path was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound_factor: Option<f64>,
    /// The anytime engine's improvements over time: `seconds`, `length`, `lower_bound` and
    /// `by` (what made it). Absent for a single search.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub improvements: Vec<Improvement>,
}

impl SolveReport {
    /// Builds the report of a solve. `with_path` adds every board along the path.
    ///
    /// Returns `None` for errors that are not about the board's solvability (bad goal,
    /// heuristic or size): those are input errors, reported as such.
    pub fn new(
        start: &Board,
        goal: &Board,
        result: &Result<Solution, SolveError>,
        with_path: bool,
    ) -> Option<SolveReport> {
        match result {
            Ok(s) => Some(SolveReport::solved(start, goal, s, with_path)),
            Err(SolveError::Unsolvable(v)) => Some(SolveReport::unsolvable(start, goal, v)),
            Err(_) => None,
        }
    }

    /// The report of a board the solver answered for (found a path or was stopped by a
    /// limit). `with_path` adds every board along the path.
    pub fn solved(start: &Board, goal: &Board, s: &Solution, with_path: bool) -> SolveReport {
        SolveReport {
            length: s.length(),
            moves: s.moves.as_deref().map(Move::to_letters),
            optimal: s.optimal,
            expanded: s.stats.expanded,
            generated: s.stats.generated,
            max_open: s.stats.max_open,
            seconds: s.stats.seconds,
            heuristic: Some(s.heuristic_name()),
            admissible: Some(s.admissible),
            algorithm: Some(s.algorithm.name().to_string()),
            phase: Some(s.phase),
            stopped_by: s.stopped_by.map(|r| r.as_str()),
            lower_bound: s.lower_bound,
            bound_factor: s.bound_factor,
            improvements: s.improvements.clone(),
            path: match (&s.moves, with_path) {
                (Some(moves), true) => Some(path_boards(start, moves)),
                _ => None,
            },
            ..SolveReport::unsolvable(start, goal, &s.verdict)
        }
    }

    /// The report of a board that cannot reach its goal (no search ran), or, with a
    /// solvable `verdict`, the fields every report shares before a search fills in its own.
    pub fn unsolvable(start: &Board, goal: &Board, verdict: &Verdict) -> SolveReport {
        SolveReport {
            solvable: verdict.solvable,
            length: None,
            moves: None,
            optimal: false,
            expanded: 0,
            generated: 0,
            max_open: 0,
            seconds: 0.0,
            heuristic: None,
            admissible: None,
            algorithm: None,
            phase: None,
            stopped_by: None,
            size: start.shape().to_string(),
            start: start.tiles().to_vec(),
            goal: goal.tiles().to_vec(),
            reason: verdict.explanation(),
            path: None,
            lower_bound: None,
            bound_factor: None,
            improvements: Vec::new(),
        }
    }
}

/// The boards along a path, start first.
pub fn path_boards(start: &Board, moves: &[Move]) -> Vec<Vec<u32>> {
    let mut board = start.clone();
    let mut out = Vec::with_capacity(moves.len() + 1);
    out.push(board.tiles().to_vec());
    for &m in moves {
        board.apply(m);
        out.push(board.tiles().to_vec());
    }
    out
}
