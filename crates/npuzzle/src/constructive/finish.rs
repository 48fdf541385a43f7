//! The last small region (at most 9 cells), solved optimally by IDA* with linear conflict.

use super::grid::Grid;
use crate::board::Board;
use crate::heuristic::LinearConflict;
use crate::puzzle::Puzzle;
use crate::search::{self, Control};
use crate::shape::Shape;

/// Solves the region of real rows `top..` and columns `left..`; every tile outside it is
/// already home, so the region holds exactly its own goal tiles and, because the whole
/// board is solvable, is solvable itself (placed tiles add no inversions of their own).
pub(super) fn finish(g: &mut Grid, top: usize, left: usize) {
    let (h, w) = (g.rows - top, g.cols - left);
    let shape = Shape::new(h, w).expect("the region is at least 2x2");
    let stride = g.cols;
    let cells: Vec<usize> = (0..h)
        .flat_map(|r| (0..w).map(move |c| (top + r) * stride + left + c))
        .collect();
    // Relabel the region's tiles 1.. in the order of their goal cells.
    let mut label = std::collections::HashMap::new();
    let mut next = 1u32;
    let goal: Vec<u32> = cells
        .iter()
        .map(|&cell| match g.goal_tile[cell] {
            0 => 0,
            t => {
                label.insert(t, next);
                next += 1;
                next - 1
            }
        })
        .collect();
    let start: Vec<u32> = cells
        .iter()
        .map(|&cell| match g.tiles[cell] {
            0 => 0,
            t => *label.get(&t).expect("only the region's own tiles are left"),
        })
        .collect();
    let goal = Board::new(shape, goal).expect("a permutation");
    let start = Board::new(shape, start).expect("a permutation");
    let puzzle = Puzzle::new(&goal).expect("a small region");
    let tiles = puzzle.encode(&start);
    let outcome = search::idastar(
        &puzzle,
        &tiles,
        LinearConflict::new(&puzzle),
        Control::default(),
    );
    let moves = outcome
        .moves
        .expect("an unlimited search of a solvable region ends");
    for m in moves {
        g.step(m);
    }
}
