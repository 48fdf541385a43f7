//! A better answer on large boards (from `Schedule::staged_from_cells`), in stages: the
//! rows and columns outside the last 5×5 (or any region of at most 25 cells) are filled
//! one at a time by weighted A* over the places of their own tiles
//! (`constructive::reduce`), and that region is then solved by this engine itself, whose
//! answers on 25 cells are within a few per cent of the optimum. The stages are not
//! optimal together (each line is filled without regard for the next), but on 7×7 and up
//! they are far shorter than weighted A* over the whole board, which linear conflict (or
//! small tables) guides too weakly there.

use std::time::{Duration, Instant};

use super::{RegionSolver, Run, Schedule};
use crate::board::Board;
use crate::constructive::{self, LineSearch};
use crate::puzzle::Puzzle;

/// The region the stages leave to the engine: 25 cells, a 5×5 on square boards.
pub(super) const REGION_CELLS: usize = 25;

/// Fills the lines outside the last region, solves the region with `region` (an anytime
/// run, for at most `schedule.staged_share` of the time left before `until`), and offers
/// the whole path, shortened, as the incumbent.
#[allow(clippy::too_many_arguments)]
pub(super) fn staged(
    run: &mut Run<'_>,
    puzzle: &Puzzle,
    start: &Board,
    tiles: &[u8],
    line: LineSearch,
    region: &RegionSolver<'_>,
    schedule: &Schedule,
    until: Duration,
) {
    if run.done() || puzzle.cells() <= REGION_CELLS {
        return;
    }
    let deadline = run.watch.began + until;
    // The lines' searches get half the time left; lines after that are pushed.
    let now = Instant::now();
    let lines_until = now + deadline.saturating_duration_since(now) / 2;
    let goal = puzzle.goal_board();
    // Within the user's memory limit, if any.
    let line = LineSearch {
        states: run.control.limits.memory_bytes.map_or(line.states, |m| {
            line.states
                .min(usize::try_from(m / constructive::LINE_STATE_BYTES).unwrap_or(usize::MAX))
        }),
        ..line
    };
    let until = constructive::Until {
        deadline: Some(lines_until),
        cancel: run.control.cancel,
    };
    let reduced = constructive::reduce(start, &goal, REGION_CELLS, line, until);
    let left = deadline.saturating_duration_since(Instant::now());
    let puzzle_of_region = Puzzle::new(&reduced.goal).expect("a region of at most 25 cells");
    let control = run.sub(Some(left.mul_f64(schedule.staged_share)));
    let out = region(&puzzle_of_region, &reduced.start, control);
    run.add(&out.stats);
    if let Some(middle) = out.moves {
        let mut moves = reduced.prefix;
        moves.extend(middle);
        moves.extend(reduced.suffix);
        run.offer(moves, "staged");
        run.shorten(puzzle, tiles);
    } else {
        run.user_stop(out.stopped_by);
    }
}
