//! Shortening a path without changing its ends: loops cut out, then windows of the path
//! replaced by shortest paths between their ends.
//!
//! A suboptimal path is mostly locally wasteful: a tile taken round a detour that a few
//! moves elsewhere would have spared. The shortest path between two states `k` moves apart
//! on the path is found by IDA* with linear conflict towards the later state (admissible
//! between any two states), in well under a millisecond for windows of a few dozen moves,
//! on any board; where it is shorter, it replaces the window.

use std::collections::HashMap;
use std::time::Instant;

use crate::board::Board;
use crate::heuristic::LinearConflict;
use crate::moves::Move;
use crate::puzzle::Puzzle;
use crate::search::{deepen, Control, Deepening};
use crate::shape::Shape;

/// The window lengths tried, in turn: short windows first (cheap, and they clear the way
/// for the long ones).
const WINDOWS: [usize; 3] = [12, 20, 28];

/// `moves` from `start` (tiles as bytes) made shorter: every loop cut out, then windows of
/// 12, 20 and 28 moves in turn, overlapping by half, each replaced by a shortest path
/// between its ends, pass after pass while a pass gains. Stops early at `control`'s time
/// limit or cancellation, with what it has.
pub fn shorten(shape: Shape, start: &[u8], moves: &[Move], control: Control<'_>) -> Vec<Move> {
    shorten_windows(shape, start, moves, &WINDOWS, None, control)
}

/// [`shorten`] with windows of the lengths given, in turn, each window's search stopped
/// after `window_nodes` nodes (then the window is left as it is). Long windows (40 moves
/// and more) find what short ones cannot, a tile's detour undone many moves later, but a
/// few of them take far longer than the rest: the cap keeps one from eating the budget.
pub fn shorten_windows(
    shape: Shape,
    start: &[u8],
    moves: &[Move],
    windows: &[usize],
    window_nodes: Option<u64>,
    control: Control<'_>,
) -> Vec<Move> {
    let began = Instant::now();
    let out_of_time = || {
        control.limits.time.is_some_and(|t| began.elapsed() >= t)
            || control
                .cancel
                .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    };
    let mut path = without_loops(shape, start, moves);
    for &window in windows {
        loop {
            let before = path.len();
            let mut i = 0;
            while i + 2 < path.len() && !out_of_time() {
                let j = (i + window).min(path.len());
                let left = control
                    .limits
                    .time
                    .map(|t| t.saturating_sub(began.elapsed()));
                let sub = Control {
                    limits: crate::search::Limits {
                        time: left,
                        nodes: crate::search::tighter(window_nodes, control.limits.nodes),
                        ..control.limits
                    },
                    progress: None,
                    trace: 0,
                    threads: 1,
                    ..control
                };
                if let Some(shorter) = shortest_between(shape, start, &path, i, j, sub) {
                    path.splice(i..j, shorter);
                }
                i += window / 2;
            }
            if path.len() == before || out_of_time() {
                break;
            }
        }
    }
    path
}

/// A path shorter than moves `i..j` of `path` between the states before and after them,
/// if one exists (and the search was not stopped).
fn shortest_between(
    shape: Shape,
    start: &[u8],
    path: &[Move],
    i: usize,
    j: usize,
    control: Control<'_>,
) -> Option<Vec<Move>> {
    let mut from = Board::from_trusted(shape, start.iter().map(|&t| u32::from(t)).collect());
    for &m in &path[..i] {
        from.apply(m);
    }
    let mut to = from.clone();
    for &m in &path[i..j] {
        to.apply(m);
    }
    let puzzle = Puzzle::new(&to)?;
    let tiles = puzzle.encode(&from);
    let how = Deepening {
        below: (j - i) as u32,
        ..Deepening::default()
    };
    deepen(&puzzle, &tiles, LinearConflict::new(&puzzle), control, how)
        .moves
        .filter(|m| m.len() < j - i)
}

/// `moves` with every loop cut out: when a state comes round again, the moves between its
/// two visits go.
fn without_loops(shape: Shape, start: &[u8], moves: &[Move]) -> Vec<Move> {
    let mut board = Board::from_trusted(shape, start.iter().map(|&t| u32::from(t)).collect());
    let mut seen: HashMap<Vec<u32>, usize> = HashMap::new();
    seen.insert(board.tiles().to_vec(), 0);
    let mut kept: Vec<Move> = Vec::with_capacity(moves.len());
    let mut states: Vec<Vec<u32>> = vec![board.tiles().to_vec()];
    for &m in moves {
        board.apply(m);
        let tiles = board.tiles().to_vec();
        if let Some(&k) = seen.get(&tiles) {
            // Back to state k: forget the states after it.
            for s in states.drain(k + 1..) {
                seen.remove(&s);
            }
            kept.truncate(k);
        } else {
            kept.push(m);
            seen.insert(tiles.clone(), states.len());
            states.push(tiles);
        }
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;
    use crate::goal::GoalSpec;
    use crate::heuristic::Tables;

    /// A path with detours comes back no longer, still from start to goal; on 3×3 boards,
    /// never shorter than the exact distance.
    #[test]
    fn shortened_paths_replay_and_never_beat_the_optimum() {
        let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let table = Tables::default().perfect(&puzzle).unwrap();
        let mut rng = generate::rng(11);
        for _ in 0..50 {
            let start = generate::random_solvable(&goal, &mut rng);
            let tiles = puzzle.encode(&start);
            let moves = crate::constructive::construct(&start, &goal).unwrap();
            // A detour: there and back again in the middle.
            let mut padded = moves.clone();
            let mut b = start.clone();
            for &m in &moves[..moves.len() / 2] {
                b.apply(m);
            }
            let extra: Vec<Move> = b.moves().take(1).collect();
            if let Some(&m) = extra.first() {
                padded.splice(moves.len() / 2..moves.len() / 2, [m, m.opposite()]);
            }
            let short = shorten(puzzle.shape, &tiles, &padded, Control::default());
            assert_eq!(start.replay(&short).unwrap(), goal);
            assert!(short.len() <= moves.len());
            assert!(short.len() as u64 >= u64::from(table.distance(&tiles).unwrap()));
        }
    }

    /// Long windows, each search capped by nodes: on 4×4 boards the path still replays,
    /// never grows, and never beats linear conflict's lower bound; a cap of one node leaves
    /// the path as it was. (3×3 paths are already shortest after [`shorten`].)
    #[test]
    fn long_windows_replay_never_grow_and_respect_their_cap() {
        let goal = GoalSpec::Standard.board("4x4".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let lc = LinearConflict::new(&puzzle);
        let mut rng = generate::rng(3);
        let mut gained = 0;
        for _ in 0..10 {
            let start = generate::random_solvable(&goal, &mut rng);
            let tiles = puzzle.encode(&start);
            let moves = crate::constructive::construct(&start, &goal).unwrap();
            let short = shorten(puzzle.shape, &tiles, &moves, Control::default());
            let long = |cap| {
                let windows = [36, 48];
                shorten_windows(
                    puzzle.shape,
                    &tiles,
                    &short,
                    &windows,
                    Some(cap),
                    Control::default(),
                )
            };
            let longer = long(200_000);
            assert_eq!(start.replay(&longer).unwrap(), goal);
            assert!(longer.len() <= short.len());
            let bound = crate::heuristic::Heuristic::estimate(&lc, &tiles);
            assert!(longer.len() as f64 >= bound);
            gained += usize::from(longer.len() < short.len());
            assert_eq!(
                long(1),
                short,
                "a window stopped by its cap is left as it is"
            );
        }
        assert!(gained > 0, "long windows shortened none of ten paths");
    }

    #[test]
    fn loops_are_cut() {
        let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
        let tiles: Vec<u8> = goal.tiles().iter().map(|&t| t as u8).collect();
        // Up, left, right, down from the solved board comes back to it.
        let moves = [Move::Up, Move::Left, Move::Right, Move::Down];
        assert!(without_loops(goal.shape(), &tiles, &moves).is_empty());
    }
}
