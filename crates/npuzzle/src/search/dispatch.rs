//! The public IDA*: one search on several threads when the caller asks for them (see
//! `parallel.rs`), else the serial kernels of `idastar.rs`. Kept apart from both so that the
//! parallel search, which builds on the serial kernels, and the kernels import nothing of
//! each other's callers.

use std::sync::atomic::{AtomicU32, Ordering};

use super::deepening::{Deepening, PROOF_WINDOW};
use super::lookahead::{Ask, Lookahead};
use super::{Control, Progress, SearchOutcome};
use crate::heuristic::IncrementalHeuristic;
use crate::puzzle::Puzzle;

/// IDA* from `start` to the puzzle's goal with an incremental heuristic.
///
/// Successors are generated in the order up, left, right, down (the blank's direction) and
/// only the move back to the parent is pruned, so node counts match Korf's (1985) for the
/// same heuristic. The path is optimal when the heuristic is admissible.
///
/// With `control.threads` above 1 (and no trace or node limit asked for) the search runs on
/// that many threads (see [`frontier`](super::frontier)); it finds a path of the same length
/// and reports the node counts of the serial search.
///
/// ```
/// use npuzzle::{Board, GoalSpec, Puzzle, heuristic::Manhattan};
/// use npuzzle::search::{idastar, Control};
/// let start = Board::parse("8 6 7/2 5 4/3 0 1", None).unwrap();
/// let goal = GoalSpec::Standard.board(start.shape()).unwrap();
/// let puzzle = Puzzle::new(&goal).unwrap();
/// let tiles = puzzle.encode(&start);
/// let serial = idastar(&puzzle, &tiles, Manhattan::new(&puzzle), Control::default());
/// let two = Control { threads: 2, ..Control::default() };
/// let parallel = idastar(&puzzle, &tiles, Manhattan::new(&puzzle), two);
/// assert_eq!(serial.moves.as_ref().unwrap().len(), 31);
/// assert_eq!(parallel.moves.as_ref().unwrap().len(), 31);
/// assert_eq!(serial.stats.generated, parallel.stats.generated);
/// assert_eq!(start.replay(&parallel.moves.unwrap()).unwrap(), goal);
/// ```
pub fn idastar<H: IncrementalHeuristic + Clone + Send>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: H,
    control: Control<'_>,
) -> SearchOutcome {
    deepening(puzzle, start, heuristic, control, Deepening::default())
}

/// [`idastar`] for a proof: before each iteration a short weighted search looks for a path
/// as long as the threshold, which is then a shortest one (see `lookahead.rs`), and once
/// iterations are large it looks a few thresholds ahead and skips the iterations below the
/// highest (see `deepening.rs`). The path is optimal as IDA*'s is; node counts are still the
/// same on any number of threads, but they are no longer the published IDA* counts. With a
/// trace asked for, plain IDA*.
///
/// ```
/// use npuzzle::{Board, GoalSpec, Puzzle, heuristic::Manhattan};
/// use npuzzle::search::{idastar_with_lookahead, Control};
/// let start = Board::parse("8 6 7/2 5 4/3 0 1", None).unwrap();
/// let goal = GoalSpec::Standard.board(start.shape()).unwrap();
/// let puzzle = Puzzle::new(&goal).unwrap();
/// let tiles = puzzle.encode(&start);
/// let out = idastar_with_lookahead(&puzzle, &tiles, Manhattan::new(&puzzle), Control::default());
/// assert_eq!(start.replay(&out.moves.unwrap()).unwrap(), goal);
/// ```
pub fn idastar_with_lookahead<H: IncrementalHeuristic + Clone + Send>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: H,
    control: Control<'_>,
) -> SearchOutcome {
    if control.trace > 0 {
        return idastar(puzzle, start, heuristic, control);
    }
    // Progress reports the proven bound as its `bound`: the thresholds searched and looked
    // ahead at run ahead of it once iterations are skipped.
    let proven = AtomicU32::new(heuristic.clone().init(start));
    let user = control.progress;
    let relay = |p: &Progress| {
        if let Some(user) = user {
            let proven = proven.load(Ordering::Relaxed);
            user(&Progress {
                bound: p.bound.map(|b| b.min(proven)),
                ..*p
            });
        }
    };
    let control = Control {
        progress: user.map(|_| &relay as &(dyn Fn(&Progress) + Sync)),
        ..control
    };
    let lookahead = Lookahead::new(puzzle, start, heuristic.clone(), control);
    let at = |ask: Ask<'_>| lookahead.at(ask);
    let mut raise = |bound| proven.store(bound, Ordering::Relaxed);
    let how = Deepening {
        lookahead: Some(&at),
        on_bound: Some(&mut raise),
        window: PROOF_WINDOW,
        ..Deepening::default()
    };
    deepening(puzzle, start, heuristic, control, how)
}

/// IDA* as `how` says, on `control.threads` threads when more than one and neither a trace
/// nor a node limit is asked for, else serial.
///
/// Why serial under a node limit: the threads count their nodes together, including work
/// past the goal that the serial search would not have done, so near a limit they stopped
/// where the serial search finishes (a 4×4 proof of 409,257 nodes was "stopped by nodes"
/// at `--max-nodes 418000` on two threads, one run in two), and past it they stopped at
/// counts that depended on timing. On one thread a node limit stops the search where the
/// serial search stops, with its counts, on every front end.
pub(crate) fn deepening<H: IncrementalHeuristic + Clone + Send>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: H,
    control: Control<'_>,
    how: Deepening<'_>,
) -> SearchOutcome {
    if control.trace == 0 && control.threads > 1 && control.limits.nodes.is_none() {
        return super::parallel::idastar(puzzle, start, heuristic, control, how);
    }
    super::idastar::deepen(puzzle, start, heuristic, control, how)
}
