//! A shape and goal compiled into the lookup tables that search and heuristics share.

use std::sync::Arc;

use crate::board::Board;
use crate::moves::Move;
use crate::pruning::MoveAutomaton;
use crate::shape::Shape;

/// The most cells a board may have for tile-by-tile search (tiles fit a `u8`, and `255`
/// marks "no neighbour"). Larger boards go to the constructive solver.
pub const MAX_SEARCH_CELLS: usize = 255;

/// Marks a missing neighbour in [`Puzzle::neighbours`].
pub const NO_CELL: u8 = u8::MAX;

/// A goal compiled for search: tiles as bytes, each tile's goal cell, and neighbour cells.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The board shape.
    pub shape: Shape,
    /// Goal tiles, row-major.
    pub goal: Vec<u8>,
    /// `goal_cell[t]`: the cell tile `t` belongs on.
    pub goal_cell: Vec<u8>,
    /// `neighbours[cell][m.index()]`: the cell the blank reaches by move `m`, or [`NO_CELL`].
    pub neighbours: Vec<[u8; 4]>,
    /// The move sequences IDA* does not try: the move straight back (the default), or
    /// every known duplicate ([`with_duplicates_pruned`](Self::with_duplicates_pruned)).
    pub pruning: Arc<MoveAutomaton>,
}

impl Puzzle {
    /// Compiles a goal. Returns `None` for boards larger than [`MAX_SEARCH_CELLS`].
    pub fn new(goal: &Board) -> Option<Puzzle> {
        let shape = goal.shape();
        let n = shape.cells();
        if n > MAX_SEARCH_CELLS {
            return None;
        }
        let goal_tiles: Vec<u8> = goal.tiles().iter().map(|&t| t as u8).collect();
        let mut goal_cell = vec![0u8; n];
        for (cell, &t) in goal_tiles.iter().enumerate() {
            goal_cell[t as usize] = cell as u8;
        }
        let neighbours = (0..n)
            .map(|cell| {
                Move::ALL
                    .map(|m| crate::board::neighbour(shape, cell, m).map_or(NO_CELL, |c| c as u8))
            })
            .collect();
        Some(Puzzle {
            shape,
            goal: goal_tiles,
            goal_cell,
            neighbours,
            pruning: Arc::new(MoveAutomaton::parent()),
        })
    }

    /// The same puzzle with IDA* pruning every duplicate move sequence of up to `depth`
    /// moves (see [`crate::pruning`]): fewer nodes, the same shortest paths. `None` (as a
    /// plan's `Phase::pruning` says when a search keeps only the move-back rule) and boards
    /// over [`MAX_AUTOMATON_CELLS`](crate::pruning::MAX_AUTOMATON_CELLS) cells leave it
    /// unchanged. The automaton is built once per process (see [`crate::pruning::shared`]).
    pub fn with_duplicates_pruned(self, depth: Option<usize>) -> Puzzle {
        self.with_duplicates_pruned_until(depth, None)
    }

    /// [`with_duplicates_pruned`](Self::with_duplicates_pruned), keeping only the move-back
    /// rule if the automaton is not built by `deadline` (a search under a time limit
    /// shorter than the build: it then stops at its limit, on the same shortest paths).
    pub fn with_duplicates_pruned_until(
        mut self,
        depth: Option<usize>,
        deadline: Option<std::time::Instant>,
    ) -> Puzzle {
        if let Some(a) = depth.and_then(|d| crate::pruning::shared(self.shape, d, deadline)) {
            self.pruning = a;
        }
        self
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.goal.len()
    }

    /// Board width.
    pub fn cols(&self) -> usize {
        self.shape.cols()
    }

    /// A board's tiles as bytes (the board must have this puzzle's shape).
    pub fn encode(&self, board: &Board) -> Vec<u8> {
        board.tiles().iter().map(|&t| t as u8).collect()
    }

    /// The goal as a [`Board`].
    pub fn goal_board(&self) -> Board {
        Board::from_trusted(
            self.shape,
            self.goal.iter().map(|&t| u32::from(t)).collect(),
        )
    }
}
