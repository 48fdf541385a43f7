//! Iterative-deepening A* (Korf 1985): depth-first searches with a rising cost bound.
//!
//! Memory is only the current path, so IDA* is the algorithm for the 15- and 24-puzzles.
//! The search keeps one mutable board, moves a tile, updates the heuristic incrementally
//! (one table lookup for Manhattan distance) and moves the tile back: no allocation in the
//! hot loop.
//!
//! [`deepen`] picks a kernel: the fixed-size kernels of `kernel.rs` for 3×3, 4×4 and 5×5
//! boards, and the general kernel below (any shape, and the only one that records a trace)
//! otherwise. All of them count nodes the same way; `search::idastar` (in `dispatch.rs`)
//! adds the parallel search.

use super::kernel::{Abort, Fixed};
use super::lookahead::Looked;
use super::{Control, Meter, SearchOutcome, SearchStats, StopReason, TraceStep};
use crate::heuristic::IncrementalHeuristic;
use crate::moves::Move;
use crate::pruning::{MoveAutomaton, DEAD};
use crate::puzzle::{Puzzle, NO_CELL};

/// Where a serial IDA* starts and stops, and who hears of each threshold it completes.
pub(crate) struct Deepening<'c> {
    /// The first threshold, when a lower bound above the start's heuristic value is known.
    pub first: u32,
    /// Give up once the threshold reaches this: a path of this length is known.
    pub below: u32,
    /// Told each new threshold after an iteration ends without a path: a proven lower
    /// bound on the optimal length (with an admissible heuristic).
    pub on_bound: Option<&'c mut dyn FnMut(u32)>,
    /// Asked before each iteration, with its threshold, the previous iteration's generated
    /// nodes and the search's so far, for a path no longer than the threshold (see
    /// [`lookahead`](super::lookahead)).
    pub lookahead: Option<&'c mut dyn FnMut(u32, u64, u64) -> Looked>,
}

impl Default for Deepening<'_> {
    fn default() -> Self {
        Deepening {
            first: 0,
            below: u32::MAX,
            on_bound: None,
            lookahead: None,
        }
    }
}

impl Deepening<'_> {
    /// The threshold after one without a path: stop (`None`) once it reaches `below`.
    pub(crate) fn next(&mut self, next_bound: u32) -> Option<u32> {
        if next_bound == u32::MAX {
            return None; // no more states (unsolvable input, which callers rule out)
        }
        if let Some(f) = self.on_bound.as_mut() {
            f(next_bound);
        }
        (next_bound < self.below).then_some(next_bound)
    }

    /// The lookahead before the iteration at `bound`, if one is set (`previous`: the
    /// nodes of the iteration before, `used`: the search's so far).
    pub(crate) fn look(&mut self, bound: u32, previous: u64, used: u64) -> Option<Looked> {
        self.lookahead
            .as_mut()
            .map(|look| look(bound, previous, used))
    }
}

/// Serial IDA* from threshold `how.first` (or the start's heuristic value, if larger) up to
/// `how.below`, on the fixed-size kernel for 3×3, 4×4 and 5×5 boards, else (and whenever a
/// trace is asked for) the general kernel. A search that ends with no path and no limit
/// reached has proved that no path shorter than `how.below` exists.
pub(crate) fn deepen<H: IncrementalHeuristic>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: H,
    control: Control<'_>,
    how: Deepening<'_>,
) -> SearchOutcome {
    if control.trace == 0 {
        match puzzle.cells() {
            9 => return fixed::<H, 9>(puzzle, start, heuristic, control, how),
            16 => return fixed::<H, 16>(puzzle, start, heuristic, control, how),
            25 => return fixed::<H, 25>(puzzle, start, heuristic, control, how),
            _ => {}
        }
    }
    general(puzzle, start, heuristic, control, how)
}

/// Serial IDA* with the kernel for `N`-cell boards.
fn fixed<H: IncrementalHeuristic, const N: usize>(
    puzzle: &Puzzle,
    start: &[u8],
    mut heuristic: H,
    control: Control<'_>,
    mut how: Deepening<'_>,
) -> SearchOutcome {
    let h0 = heuristic.init(start);
    let blank = start.iter().position(|&t| t == 0).expect("a blank");
    let meter = Meter::new(control);
    let mut k = Fixed::<H, N>::new(
        start,
        &puzzle.goal,
        &puzzle.neighbours,
        puzzle.pruning.table(),
        heuristic,
        meter,
        None,
    );
    let root = puzzle.pruning.start(blank);
    let mut outcome = SearchOutcome::default();
    if k.at_goal() {
        outcome.moves = Some(Vec::new());
    } else if h0.max(how.first) < how.below {
        k.bound = h0.max(how.first);
        outcome.lower_bound = Some(k.bound);
        let mut previous = 0;
        loop {
            if let Some(looked) = how.look(k.bound, previous, k.generated) {
                k.generated += looked.stats.generated;
                k.expanded += looked.stats.expanded;
                k.max_open = k.max_open.max(looked.stats.max_open);
                if let Some(moves) = looked.moves {
                    k.final_open = moves.len() as u64;
                    outcome.moves = Some(moves);
                    break;
                }
                if looked.stopped_by.is_some() {
                    k.stopped_by = looked.stopped_by;
                    break;
                }
            }
            k.next_bound = u32::MAX;
            let before = k.generated;
            if k.dfs(blank, 0, h0, root) {
                k.path.reverse();
                outcome.moves = Some(std::mem::take(&mut k.path));
                break;
            }
            if k.stopped_by.is_some() {
                break;
            }
            previous = k.generated - before;
            match how.next(k.next_bound) {
                Some(bound) => k.bound = bound,
                None => break,
            }
            outcome.lower_bound = Some(k.bound);
        }
    }
    outcome.stats = SearchStats {
        expanded: k.expanded,
        generated: k.generated,
        max_open: k.max_open,
        final_open: k.final_open,
        max_depth: k.max_open,
        seconds: k.seconds(),
    };
    outcome.stopped_by = k.stopped_by;
    outcome
}

/// Serial IDA* with the general kernel: any shape, and traces.
fn general<H: IncrementalHeuristic>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: H,
    control: Control<'_>,
    mut how: Deepening<'_>,
) -> SearchOutcome {
    let mut ida = Ida::new(puzzle, start, heuristic, Meter::new(control), None);
    let h0 = ida.heuristic.init(start);
    let blank = start.iter().position(|&t| t == 0).expect("a blank");
    let mut outcome = SearchOutcome::default();
    if ida.tiles == ida.goal {
        outcome.moves = Some(Vec::new());
    } else if h0.max(how.first) < how.below {
        ida.bound = h0.max(how.first);
        outcome.lower_bound = Some(ida.bound);
        let mut previous = 0;
        loop {
            if let Some(looked) = how.look(ida.bound, previous, ida.stats.generated) {
                looked.add_to(&mut ida.stats);
                if let Some(moves) = looked.moves {
                    ida.depth = moves.len() as u64;
                    outcome.moves = Some(moves);
                    break;
                }
                if looked.stopped_by.is_some() {
                    ida.stopped_by = looked.stopped_by;
                    break;
                }
            }
            ida.next_bound = u32::MAX;
            let before = ida.stats.generated;
            if ida.dfs(blank, 0, h0, puzzle.pruning.start(blank), None) {
                ida.path.reverse();
                outcome.moves = Some(std::mem::take(&mut ida.path));
                break;
            }
            if ida.stopped_by.is_some() {
                break;
            }
            previous = ida.stats.generated - before;
            match how.next(ida.next_bound) {
                Some(bound) => ida.bound = bound,
                None => break,
            }
            outcome.lower_bound = Some(ida.bound);
            ida.iteration += 1;
        }
    }
    ida.stats.seconds = ida.meter.seconds();
    ida.stats.final_open = ida.depth;
    // `depth` counts the states on the path, root included, so the deepest expanded state
    // is `max_open - 1` moves deep and its children, the deepest generated, `max_open`.
    ida.stats.max_depth = ida.stats.max_open;
    outcome.stats = ida.stats;
    outcome.stopped_by = ida.stopped_by;
    outcome.trace = ida.trace;
    outcome
}

/// The general kernel's state, also used for work units on boards without a fixed kernel.
pub(crate) struct Ida<'a, H> {
    pub(crate) tiles: Vec<u8>,
    pub(crate) goal: &'a [u8],
    pub(crate) neighbours: &'a [[u8; 4]],
    /// The pruning automaton (`Puzzle::pruning`).
    pub(crate) pruning: &'a MoveAutomaton,
    pub(crate) heuristic: H,
    pub(crate) bound: u32,
    /// Smallest f above the bound seen this iteration: the next bound.
    pub(crate) next_bound: u32,
    pub(crate) stats: SearchStats,
    pub(crate) meter: Meter<'a>,
    pub(crate) stopped_by: Option<StopReason>,
    /// Filled in reverse while unwinding from the goal.
    pub(crate) path: Vec<Move>,
    pub(crate) trace: Vec<TraceStep>,
    pub(crate) depth: u64,
    pub(crate) abort: Option<Abort<'a>>,
    /// Generated count at the last look by `abort`.
    pub(crate) reported: u64,
    /// 1 for the first depth-first search, one more at each restart (for the trace).
    pub(crate) iteration: u32,
}

impl<'a, H: IncrementalHeuristic> Ida<'a, H> {
    /// A kernel on `tiles`; the caller initialises the heuristic.
    pub(crate) fn new(
        puzzle: &'a Puzzle,
        tiles: &[u8],
        heuristic: H,
        meter: Meter<'a>,
        abort: Option<Abort<'a>>,
    ) -> Self {
        Ida {
            tiles: tiles.to_vec(),
            goal: &puzzle.goal,
            neighbours: &puzzle.neighbours,
            pruning: &puzzle.pruning,
            heuristic,
            bound: 0,
            next_bound: u32::MAX,
            stats: SearchStats::default(),
            meter,
            stopped_by: None,
            path: Vec::new(),
            trace: Vec::new(),
            depth: 0,
            abort,
            reported: 0,
            iteration: 1,
        }
    }
}

impl<H: IncrementalHeuristic> Ida<'_, H> {
    /// Expands the state with the blank on `blank`, `g` moves from the start, heuristic `h`;
    /// `state` is the pruning automaton's state after the path here. Returns `true` when
    /// the goal is found.
    pub(crate) fn dfs(
        &mut self,
        blank: usize,
        g: u32,
        h: u32,
        state: u32,
        parent: Option<usize>,
    ) -> bool {
        if self.stats.generated >= self.meter.next_check {
            let mut why = self.meter.check(&self.stats, self.depth, Some(self.bound));
            if let (None, Some(a)) = (why, &self.abort) {
                why = a.poll(self.stats.generated - self.reported);
                self.reported = self.stats.generated;
            }
            if why.is_some() {
                self.stopped_by = why;
                return false;
            }
        }
        self.stats.expanded += 1;
        self.depth += 1;
        self.stats.max_open = self.stats.max_open.max(self.depth);
        let me = self.record(g, h, parent);
        let neighbours = self.neighbours[blank];
        for (mi, &to) in neighbours.iter().enumerate() {
            let next = self.pruning.next(state, mi);
            if to == NO_CELL || next == DEAD {
                continue;
            }
            self.stats.generated += 1;
            let to = usize::from(to);
            let tile = self.tiles[to];
            self.tiles[blank] = tile;
            self.tiles[to] = 0;
            let m = Move::ALL[mi];
            let (h2, undo) = self.heuristic.apply(&self.tiles, h, tile, to, blank, m);
            let f = g + 1 + h2;
            if f <= self.bound {
                if (h2 == 0 && self.tiles == self.goal) || self.dfs(to, g + 1, h2, next, me) {
                    self.path.push(m);
                    return true;
                }
                if self.stopped_by.is_some() {
                    return false;
                }
            } else if f < self.next_bound {
                self.next_bound = f;
            }
            self.heuristic.undo(undo);
            self.tiles[to] = tile;
            self.tiles[blank] = 0;
        }
        self.depth -= 1;
        false
    }

    /// Records an expansion while the trace has room; returns its index.
    #[inline]
    fn record(&mut self, g: u32, h: u32, parent: Option<usize>) -> Option<usize> {
        if self.trace.len() >= self.meter.trace_limit() {
            return None;
        }
        let step = self.trace.len();
        self.trace.push(TraceStep {
            parent,
            step: None,
            tiles: self.tiles.clone(),
            g,
            h: f64::from(h),
            f: f64::from(g + h),
            iteration: Some(self.iteration),
            bound: Some(self.bound),
        });
        // The step that led here is the last move of the current path, recoverable from
        // the parent's tiles; name it for readers of the trace.
        if let Some(p) = parent {
            let before = &self.trace[p].tiles;
            let blank_before = before.iter().position(|&t| t == 0);
            let blank_now = self.tiles.iter().position(|&t| t == 0);
            if let (Some(b0), Some(b1)) = (blank_before, blank_now) {
                let step_move = Move::ALL
                    .into_iter()
                    .find(|m| self.neighbours[b0][m.index()] as usize == b1);
                self.trace[step].step = step_move;
            }
        }
        Some(step)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::goal::GoalSpec;
    use crate::heuristic::{Heuristic, Manhattan};

    /// Every IDA* iteration restarts at the root with a higher bound, and the trace says so:
    /// iteration 1 runs at the root's heuristic, each later one at a larger bound, and no
    /// state in an iteration has `f` above its bound.
    #[test]
    fn the_trace_marks_each_iteration_and_its_bound() {
        let start = Board::parse("7 2 6/8 1 4/3 5 0", None).unwrap();
        let goal = GoalSpec::Standard.board(start.shape()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let tiles = puzzle.encode(&start);
        let h0 = Manhattan::new(&puzzle).estimate(&tiles) as u32;
        let control = Control {
            trace: 5000,
            ..Control::default()
        };
        let out = deepen(
            &puzzle,
            &tiles,
            Manhattan::new(&puzzle),
            control,
            Deepening::default(),
        );
        assert_eq!(out.trace[0].iteration, Some(1));
        assert_eq!(out.trace[0].bound, Some(h0));
        let mut last = (1, h0);
        let mut restarts = 0;
        for t in &out.trace {
            let (it, bound) = (t.iteration.unwrap(), t.bound.unwrap());
            assert!(t.f <= f64::from(bound));
            if it != last.0 {
                assert_eq!(it, last.0 + 1);
                assert!(bound > last.1);
                assert_eq!(
                    (t.g, t.parent),
                    (0, None),
                    "an iteration starts at the root"
                );
                restarts += 1;
            }
            last = (it, bound);
        }
        assert!(restarts >= 2, "{restarts}");
    }
}
