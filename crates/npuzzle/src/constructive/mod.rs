//! A constructive solver for boards of any size: place tiles row by row and column by
//! column until at most 9 cells are left, finish those optimally, and keep the move list
//! free of moves that undo the one before.
//!
//! It is not optimal, but it is fast (linear in the number of moves it makes: a random
//! 100×100 board takes well under a second) and works on any solvable board up to
//! [`MAX_CELLS`](crate::shape::MAX_CELLS), any shape (`R ≠ C` too) and any goal.
//!
//! How it works:
//!
//! 1. **Goal.** The rows and columns are filled from the top and the left, so the last
//!    region is the bottom-right corner. If the goal's blank lies outside that region, the
//!    solver aims instead at the goal with its blank walked right then down into the region
//!    (`G'`), and appends the walk back (`G' → G`), a few extra moves at most `rows + cols`.
//! 2. **Rows and columns.** While the region has more than 9 cells, fill its top row if it
//!    has at least as many rows as columns, else its left column (the transposed case of
//!    the same code). Tiles are pushed home along staircase paths, the one nearest the
//!    blank first (among the cells that leave no one-cell gap in the row); each gap's last
//!    two cells are filled by the classic two-tile manoeuvre (see `place.rs`).
//! 3. **Finish.** The last region (2×2 up to 3×3, 2×4 or 4×2) is solved by IDA* with
//!    linear conflict, optimally. On boards of at most 100 cells, weighted A* (`W` = 2,
//!    then `W` = 3, linear conflict) first tries the region once it is down to 25 cells
//!    (5×5, or 3×8 and the like, but no strip two cells wide), within 300,000 generated
//!    nodes for each weight: it solves that part in about two thirds of the moves the rows
//!    and columns would take.
//! 4. **Shorten.** Every move that undoes the move before it is cancelled as it is
//!    recorded; the board after the sequence is unchanged, so this is always safe.
//!
//! The board is kept as two arrays (tile on each cell, cell of each tile), both updated in
//! `O(1)` a move: no copies, so memory is a few bytes a cell plus one byte a move.
//!
//! ```
//! use npuzzle::{constructive, generate, GoalSpec, Shape};
//! let goal = GoalSpec::Spiral.board(Shape::new(9, 13)?)?;
//! let start = generate::random_solvable(&goal, &mut generate::rng(1));
//! let moves = constructive::construct(&start, &goal)?;
//! assert_eq!(start.replay(&moves).unwrap(), goal);
//! assert!(moves.len() as u64 >= constructive::manhattan_bound(&start, &goal));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod finish;
mod grid;
mod line;
mod place;

pub use line::{LineSearch, LINE_STATE_BYTES};

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::board::Board;
use crate::error::SolveError;
use crate::moves::Move;
use crate::puzzle::Puzzle;
use crate::search::{Control, Limits, Meter, SearchOutcome, SearchStats, StopReason};
use crate::solvability;

use grid::Grid;
use place::Placer;

/// Largest final region, in cells, left to the optimal finish.
const FINISH_CELLS: usize = 9;

/// On boards of at most [`MID_SIZE_CELLS`] cells, the region is handed to weighted A*
/// once it has at most this many cells (a 5×5, say).
const WEIGHTED_CELLS: usize = 25;

/// Boards up to this size (10×10) try the weighted-A* finish; on larger ones it would gain
/// too little to be worth its time.
const MID_SIZE_CELLS: usize = 100;

/// Generated-node budget of each weight of the weighted-A* finish (a few tenths of a
/// second at most); past them the rows and columns go on down to 3×3.
const WEIGHTED_NODES: u64 = 300_000;

/// Moves of the blank that take `start` to `goal`, found constructively.
///
/// # Errors
/// [`SolveError::Unsolvable`] (checked before any move is made) or
/// [`SolveError::Goal`] when the boards have different shapes.
pub fn construct(start: &Board, goal: &Board) -> Result<Vec<Move>, SolveError> {
    let verdict = solvability::check(start, goal)?;
    if !verdict.solvable {
        return Err(SolveError::Unsolvable(verdict));
    }
    Ok(construct_solvable(start, goal))
}

/// [`construct`] with or without the weighted-A* finish of mid-size boards (without it,
/// rows and columns go down to the last 3×3 whatever the size: the plain constructive
/// solver, for comparisons).
///
/// # Errors
/// As [`construct`].
pub fn construct_with(
    start: &Board,
    goal: &Board,
    weighted_finish: bool,
) -> Result<Vec<Move>, SolveError> {
    let verdict = solvability::check(start, goal)?;
    if !verdict.solvable {
        return Err(SolveError::Unsolvable(verdict));
    }
    Ok(run(start, goal, Control::default(), weighted_finish)
        .moves
        .expect("no limits"))
}

/// [`construct`] for boards already known to be solvable.
pub(crate) fn construct_solvable(start: &Board, goal: &Board) -> Vec<Move> {
    run(start, goal, Control::default(), true)
        .moves
        .expect("no limits")
}

/// [`construct`] for a solvable board under a search's [`Control`]: limits and
/// cancellation are checked, and progress reported, after each tile placed. In the
/// statistics, `expanded` counts rows and columns filled and `generated` the moves kept so
/// far; the memory limit covers the move list and the board's four arrays.
pub(crate) fn construct_controlled(
    start: &Board,
    goal: &Board,
    control: Control<'_>,
) -> SearchOutcome {
    run(start, goal, control, true)
}

/// The length of the plain constructive path from `tiles` (the puzzle's encoding) to the
/// puzzle's goal, found in milliseconds: a path that long is known to exist, which caps
/// how deep a search need go ([`Control::depth_cap`]). `u32::MAX` if the board cannot
/// reach the goal.
pub fn path_length(puzzle: &Puzzle, tiles: &[u8]) -> u32 {
    let start = Board::from_trusted(puzzle.shape, tiles.iter().map(|&t| u32::from(t)).collect());
    construct_plain(&start, &puzzle.goal_board(), Control::default())
        .moves
        .map_or(u32::MAX, |m| u32::try_from(m.len()).unwrap_or(u32::MAX))
}

/// [`construct_controlled`] without the weighted-A* finish: rows and columns down to the
/// last 3×3 whatever the size, the fastest answer there is (the anytime engine's first).
pub(crate) fn construct_plain(start: &Board, goal: &Board, control: Control<'_>) -> SearchOutcome {
    run(start, goal, control, false)
}

fn run(start: &Board, goal: &Board, control: Control<'_>, weighted_finish: bool) -> SearchOutcome {
    let shape = start.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    let (h, w) = final_region(rows, cols, FINISH_CELLS);
    let (goal_tiles, walk_back) = walked_goal(goal, h, w);

    let board_bytes = 16 * shape.cells() as u64;
    let mut grid = Grid::new(start, goal_tiles);
    // Reserve the move list at once, as far as the memory limit allows: paths come out at
    // about 3 × the Manhattan bound, so 4 × rarely needs more. A list that grows instead may
    // be copied at each growth (allocators that cannot move a mapping in place hold old and
    // new copies at once). Pages never written are never resident, so the slack costs
    // address space only; where even that is refused, the list grows as it goes.
    let room = control
        .limits
        .memory_bytes
        .map_or(u64::MAX, |m| m.saturating_sub(board_bytes));
    let expected = manhattan_bound(start, goal)
        .saturating_mul(4)
        .saturating_add(64);
    let _ = grid
        .moves
        .try_reserve_exact(usize::try_from(expected.min(room)).unwrap_or(usize::MAX));
    let mut meter = Meter::new(control);
    let mut stats = SearchStats::default();
    let (mut top, mut left) = (0, 0);
    let mut weighted = weighted_finish && shape.cells() <= MID_SIZE_CELLS;
    let mut done = false;
    while (rows - top) * (cols - left) > FINISH_CELLS {
        // (Not on strips two cells wide: weighted A* seldom finishes those in its budget.)
        let (h, w) = (rows - top, cols - left);
        if weighted && h * w <= WEIGHTED_CELLS && h >= 3 && w >= 3 {
            weighted = false;
            // The user's time, memory and Ctrl-C stop it as they stop the rows. (Their
            // node limit counts moves, checked once the path is known.)
            let remaining = Control {
                limits: Limits {
                    time: control
                        .limits
                        .time
                        .map(|t| t.saturating_sub(meter.elapsed())),
                    memory_bytes: meter
                        .memory_limit()
                        .map(|m| m.saturating_sub(board_bytes + grid.moves.capacity() as u64)),
                    nodes: None,
                    ..control.limits
                },
                ..control
            };
            match finish::weighted(&mut grid, top, left, WEIGHTED_NODES, remaining) {
                Ok(true) => {
                    done = true;
                    break;
                }
                Ok(false) => {}
                Err(why) => return stopped(why, stats, &meter),
            }
        }
        // Grow the move list by a quarter at a time (not double), so the memory limit is
        // checked before an allocation rather than after one twice too large.
        let moves = &mut grid.moves;
        if moves.capacity() - moves.len() < moves.len() / 8 + (1 << 16) {
            moves.reserve_exact(moves.len() / 4 + (1 << 20));
        }
        // Limits are checked after each tile: one row of a 2000×2000 board takes a tenth of
        // a second and millions of moves.
        if let Some(why) = limit_reached(&mut meter, &mut stats, board_bytes, &grid.moves) {
            return stopped(why, stats, &meter);
        }
        let row = rows - top >= cols - left;
        let mut why = None;
        {
            let mut stop = |moves: &Vec<Move>| {
                why = limit_reached(&mut meter, &mut stats, board_bytes, moves);
                why.is_some()
            };
            let mut placer = Placer::new(&mut grid);
            if row {
                placer.fill_row(top, left, &mut stop);
            } else {
                placer.fill_col(top, left, &mut stop);
            }
        }
        if let Some(why) = why {
            return stopped(why, stats, &meter);
        }
        if row {
            top += 1;
        } else {
            left += 1;
        }
        stats.expanded += 1;
    }
    if !done {
        finish::finish(&mut grid, top, left);
    }
    // And back from G' to the real goal.
    walk_back.into_iter().for_each(|m| grid.step(m));
    let mut moves = grid.moves;
    moves.shrink_to_fit();
    stats.generated = moves.len() as u64;
    // The last region is not checked move by move; a path longer than the node limit
    // (which counts moves here) went past it.
    if control.limits.nodes.is_some_and(|n| stats.generated > n) {
        return stopped(StopReason::Nodes, stats, &meter);
    }
    stats.seconds = meter.seconds();
    SearchOutcome {
        moves: Some(moves),
        stats,
        stopped_by: None,
        ..SearchOutcome::default()
    }
}

/// The limit a run with `moves` so far has reached, if any (its memory counts the move
/// list and the board's arrays, `board_bytes`), with `stats.generated` brought up to date.
fn limit_reached(
    meter: &mut Meter<'_>,
    stats: &mut SearchStats,
    board_bytes: u64,
    moves: &Vec<Move>,
) -> Option<StopReason> {
    stats.generated = moves.len() as u64;
    if meter.over_memory(board_bytes + moves.capacity() as u64) {
        Some(StopReason::Memory)
    } else {
        meter.check(stats, 0, None)
    }
}

/// The answer of a run that `why` stopped before it finished.
fn stopped(why: StopReason, mut stats: SearchStats, meter: &Meter<'_>) -> SearchOutcome {
    stats.seconds = meter.seconds();
    SearchOutcome {
        moves: None,
        stats,
        stopped_by: Some(why),
        ..SearchOutcome::default()
    }
}

/// The goal with its blank walked right, then down, into the final region of `h` × `w`
/// cells at the bottom right (`G'`, so that no row or column filled before holds the
/// blank's goal cell), and the moves that walk it back (`G' → G`).
fn walked_goal(goal: &Board, h: usize, w: usize) -> (Vec<u32>, Vec<Move>) {
    let shape = goal.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    let mut goal_tiles = goal.tiles().to_vec();
    let (gr, gc) = shape.coords(goal.blank());
    let (tr, tc) = (gr.max(rows - h), gc.max(cols - w));
    let mut b = goal.blank();
    for _ in gc..tc {
        goal_tiles.swap(b, b + 1);
        b += 1;
    }
    for _ in gr..tr {
        goal_tiles.swap(b, b + cols);
        b += cols;
    }
    let back = std::iter::repeat_n(Move::Up, tr - gr)
        .chain(std::iter::repeat_n(Move::Left, tc - gc))
        .collect();
    (goal_tiles, back)
}

/// A board reduced to its last region: rows and columns filled by search ([`line`]), the
/// region left for a stronger solver.
pub(crate) struct Reduced {
    /// The moves that fill the rows and columns outside the region.
    pub prefix: Vec<Move>,
    /// The region after `prefix`, as a board of its own (tiles relabelled `1..` in goal
    /// order).
    pub start: Board,
    /// The region's goal.
    pub goal: Board,
    /// The moves after the region is solved that walk the goal's blank back (`G' → G`).
    pub suffix: Vec<Move>,
}

/// When the line searches must stop: a deadline, a cancellation, or both.
#[derive(Clone, Copy, Default)]
pub(crate) struct Until<'a> {
    /// The searches stop at this instant.
    pub deadline: Option<Instant>,
    /// And once this is set (a Ctrl-C, a client gone).
    pub cancel: Option<&'a AtomicBool>,
}

impl Until<'_> {
    /// Whether the deadline has passed or the work was cancelled.
    pub fn passed(&self) -> bool {
        self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }
}

/// Fills rows and columns of a solvable board (the larger side first, as [`construct`]
/// does) by search until at most `region_cells` cells are left. A line the search cannot
/// fill within its budget, or once `until` has passed, is pushed home as [`construct`]
/// does (in microseconds), so this always ends with the region.
pub(crate) fn reduce(
    start: &Board,
    goal: &Board,
    region_cells: usize,
    search: LineSearch,
    until: Until<'_>,
) -> Reduced {
    let shape = start.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    let (h, w) = final_region(rows, cols, region_cells.max(FINISH_CELLS));
    let (goal_tiles, suffix) = walked_goal(goal, h, w);
    let mut grid = Grid::new(start, goal_tiles);
    let (mut top, mut left) = (0, 0);
    while (rows - top) * (cols - left) > h * w {
        let row = rows - top >= cols - left;
        // Each line gets an equal share of the time left.
        let now = Instant::now();
        let lines_left = (rows - h - top + cols - w - left) as u32;
        let share = Until {
            deadline: until
                .deadline
                .map(|d| now + d.saturating_duration_since(now) / lines_left),
            ..until
        };
        if share.passed() || !line::fill(&mut grid, top, left, row, search, share) {
            let mut placer = Placer::new(&mut grid);
            if row {
                placer.fill_row(top, left, &mut place::never);
            } else {
                placer.fill_col(top, left, &mut place::never);
            }
        }
        if row {
            top += 1;
        } else {
            left += 1;
        }
    }
    let (start, goal) = finish::region_boards(&grid, top, left);
    Reduced {
        prefix: grid.moves,
        start,
        goal,
        suffix,
    }
}

/// Rows and columns of the region left on a `rows` × `cols` board once rows and columns
/// are filled, the larger side first, down to at most `cells` cells.
fn final_region(mut rows: usize, mut cols: usize, cells: usize) -> (usize, usize) {
    while rows * cols > cells {
        if rows >= cols {
            rows -= 1;
        } else {
            cols -= 1;
        }
    }
    (rows, cols)
}

/// The Manhattan lower bound: every tile (not the blank) must travel at least its row and
/// column distance to its goal cell, one cell a move. Works on boards of any size.
///
/// # Panics
/// If the boards have different shapes.
pub fn manhattan_bound(start: &Board, goal: &Board) -> u64 {
    assert_eq!(start.shape(), goal.shape(), "boards of one shape");
    let shape = start.shape();
    let goal_pos = goal.positions();
    start
        .tiles()
        .iter()
        .enumerate()
        .filter(|&(_, &t)| t != 0)
        .map(|(cell, &t)| {
            let (r, c) = shape.coords(cell);
            let (gr, gc) = shape.coords(goal_pos[t as usize]);
            (r.abs_diff(gr) + c.abs_diff(gc)) as u64
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;
    use crate::goal::GoalSpec;
    use crate::shape::Shape;

    #[test]
    fn final_regions() {
        assert_eq!(final_region(3, 3, 9), (3, 3));
        assert_eq!(final_region(100, 100, 9), (3, 3));
        assert_eq!(final_region(2, 7, 9), (2, 4));
        assert_eq!(final_region(7, 2, 9), (4, 2));
        assert_eq!(final_region(2, 2, 9), (2, 2));
        assert_eq!(final_region(7, 7, 25), (5, 5));
        assert_eq!(final_region(6, 8, 25), (5, 5));
    }

    #[test]
    fn solves_every_named_goal_on_assorted_shapes() {
        for (i, size) in [
            "2x2", "2x3", "3x2", "2x7", "7x2", "3x3", "4x4", "5x5", "4x9", "9x13", "12x5",
        ]
        .iter()
        .enumerate()
        {
            let shape: Shape = size.parse().unwrap();
            for spec in GoalSpec::NAMED {
                let goal = spec.board(shape).unwrap();
                let mut rng = generate::rng(i as u64);
                for _ in 0..5 {
                    let start = generate::random_solvable(&goal, &mut rng);
                    let moves = construct(&start, &goal).unwrap();
                    assert_eq!(start.replay(&moves).unwrap(), goal, "{size} {spec}");
                    assert!(moves.len() as u64 >= manhattan_bound(&start, &goal));
                }
            }
        }
    }

    /// Staged reduction on assorted shapes and goals: after the prefix every cell outside
    /// the region holds its (walked) goal tile, the region's board is what is left, and
    /// prefix, region answer and suffix replay to the goal. The searched lines must be
    /// shorter than the pushes: the whole answer, with the region finished by the same
    /// constructive solver, beats the plain constructive one on every board.
    #[test]
    fn reduce_fills_lines_by_search_and_the_parts_replay() {
        let line = LineSearch {
            weight: 3.0,
            states: 3_000_000,
        };
        for (i, (size, spec)) in [
            ("7x7", GoalSpec::Standard),
            ("6x8", GoalSpec::Spiral),
            ("8x6", GoalSpec::BlankFirst),
            ("6x6", GoalSpec::Standard),
        ]
        .into_iter()
        .enumerate()
        {
            let shape: Shape = size.parse().unwrap();
            let goal = spec.board(shape).unwrap();
            let mut rng = generate::rng(40 + i as u64);
            for _ in 0..2 {
                let start = generate::random_solvable(&goal, &mut rng);
                let r = reduce(&start, &goal, 25, line, Until::default());
                assert!(r.start.shape().cells() <= 25, "{size}");
                let region = construct(&r.start, &r.goal).expect("a solvable region");
                let mut moves = r.prefix.clone();
                moves.extend(region);
                moves.extend(r.suffix.iter().copied());
                assert_eq!(start.replay(&moves).unwrap(), goal, "{size} {spec}");
                let plain = construct_with(&start, &goal, false).unwrap();
                assert!(
                    moves.len() < plain.len(),
                    "{size} {spec}: staged {} against pushed {}",
                    moves.len(),
                    plain.len()
                );
            }
        }
    }

    /// Past its deadline, or cancelled, the reduction pushes every line, as the plain
    /// constructive solver does: a longer prefix, and the parts still replay to the goal.
    #[test]
    fn past_its_deadline_reduce_pushes_the_lines() {
        let goal = GoalSpec::Standard.board(Shape::new(8, 8).unwrap()).unwrap();
        let start = generate::random_solvable(&goal, &mut generate::rng(3));
        let line = LineSearch {
            weight: 3.0,
            states: 3_000_000,
        };
        let searched = reduce(&start, &goal, 25, line, Until::default());
        let cancel = AtomicBool::new(true);
        for until in [
            Until {
                deadline: Some(Instant::now()),
                cancel: None,
            },
            // Regression: a cancellation did not stop the searches (4 s on 15×17).
            Until {
                deadline: None,
                cancel: Some(&cancel),
            },
        ] {
            let pushed = reduce(&start, &goal, 25, line, until);
            assert_eq!(pushed.start.shape(), searched.start.shape());
            assert!(searched.prefix.len() < pushed.prefix.len());
            let mut moves = pushed.prefix;
            moves.extend(construct(&pushed.start, &pushed.goal).unwrap());
            moves.extend(pushed.suffix);
            assert_eq!(start.replay(&moves).unwrap(), goal);
        }
    }

    #[test]
    fn solved_board_needs_no_moves() {
        let goal = GoalSpec::Standard.board(Shape::new(6, 8).unwrap()).unwrap();
        assert!(construct(&goal, &goal).unwrap().is_empty());
    }
}
