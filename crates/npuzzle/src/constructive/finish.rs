//! The last region: at most 9 cells solved optimally by IDA* with linear conflict, or (on
//! mid-size boards) up to 25 cells by weighted A* with a node budget.

use super::grid::Grid;
use crate::board::Board;
use crate::heuristic::LinearConflict;
use crate::puzzle::Puzzle;
use crate::search::{self, Control, Limits, StopReason};
use crate::shape::Shape;

/// Solves the region of real rows `top..` and columns `left..`; every tile outside it is
/// already home, so the region holds exactly its own goal tiles and, because the whole
/// board is solvable, is solvable itself (placed tiles add no inversions of their own).
pub(super) fn finish(g: &mut Grid, top: usize, left: usize) {
    let (puzzle, tiles) = region(g, top, left);
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

/// Weighted A* (linear conflict) on the region with each weight of [`WEIGHTS`] in turn,
/// each within `nodes` generated nodes and the caller's time, memory and cancellation
/// (`limits`, what is left of them). Returns whether it solved the region (then the moves
/// are made), or the caller's time limit or cancellation that stopped it.
pub(super) fn weighted(
    g: &mut Grid,
    top: usize,
    left: usize,
    nodes: u64,
    limits: Control<'_>,
) -> Result<bool, StopReason> {
    for w in WEIGHTS {
        match weighted_with(g, top, left, nodes, w, limits) {
            Ok(false) => continue,
            done => return done,
        }
    }
    Ok(false)
}

fn weighted_with(
    g: &mut Grid,
    top: usize,
    left: usize,
    nodes: u64,
    weight: f64,
    limits: Control<'_>,
) -> Result<bool, StopReason> {
    let (puzzle, tiles) = region(g, top, left);
    let h = LinearConflict::new(&puzzle);
    let control = Control {
        limits: Limits {
            nodes: Some(nodes),
            ..limits.limits
        },
        cancel: limits.cancel,
        ..Control::default()
    };
    let outcome = search::astar(
        &puzzle,
        &tiles,
        &h,
        true,
        search::Priority::Weighted(weight),
        control,
    );
    match (outcome.moves, outcome.stopped_by) {
        (Some(moves), _) => {
            moves.into_iter().for_each(|m| g.step(m));
            Ok(true)
        }
        // Its node budget, or memory that the rows and columns (a byte a move) do not
        // need: they take over.
        (None, Some(StopReason::Nodes | StopReason::Memory) | None) => Ok(false),
        (None, Some(why)) => Err(why),
    }
}

/// The weights of the weighted-A* finish: `W` = 2 first, then the faster `W` = 3.
const WEIGHTS: [f64; 2] = [2.0, 3.0];

/// The region as a search problem: its goal relabelled `1..` in goal order, and its tiles.
fn region(g: &Grid, top: usize, left: usize) -> (Puzzle, Vec<u8>) {
    let (start, goal) = region_boards(g, top, left);
    let puzzle = Puzzle::new(&goal).expect("a small region");
    let tiles = puzzle.encode(&start);
    (puzzle, tiles)
}

/// The region's board and goal, its tiles relabelled `1..` in goal order.
pub(super) fn region_boards(g: &Grid, top: usize, left: usize) -> (Board, Board) {
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
    (start, goal)
}
