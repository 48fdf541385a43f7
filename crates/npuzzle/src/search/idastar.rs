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

use super::deepening::{After, Before, Deepening};
use super::kernel::{Abort, Fixed};
use super::{Control, Meter, SearchOutcome, SearchStats, StopReason, TraceStep};
use crate::heuristic::IncrementalHeuristic;
use crate::moves::Move;
use crate::pruning::{MoveAutomaton, DEAD};
use crate::puzzle::{Puzzle, NO_CELL};

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
    } else if how.start(h0) {
        loop {
            let (looked, next) = how.before(&k.counts(), false, None);
            k.absorb(&looked);
            let bound = match next {
                Before::Iterate { bound, .. } => bound,
                Before::Over { moves, stopped_by } => {
                    if let Some(m) = &moves {
                        k.final_open = m.len() as u64;
                    }
                    outcome.moves = moves;
                    k.stopped_by = stopped_by;
                    break;
                }
            };
            k.bound = bound;
            k.next_bound = u32::MAX;
            let before = k.generated;
            if k.dfs(blank, 0, h0, root) {
                k.path.reverse();
                match how.found(std::mem::take(&mut k.path)) {
                    Some(moves) => outcome.moves = Some(moves),
                    None => {
                        // Kept: the iterations below it search from the start again.
                        k.restart(start);
                        continue;
                    }
                }
                break;
            }
            if k.stopped_by.is_some() {
                break;
            }
            if let After::Over(moves) = how.completed(bound, k.generated - before, k.next_bound) {
                if let Some(m) = &moves {
                    k.final_open = m.len() as u64;
                }
                outcome.moves = moves;
                break;
            }
        }
        outcome.lower_bound = Some(how.proven());
        if k.stopped_by.is_some() && outcome.moves.is_none() {
            // A limit stopped the proof of a path in hand: the best there is.
            outcome.moves = how.unproved();
            k.final_open = outcome
                .moves
                .as_ref()
                .map_or(k.final_open, |m| m.len() as u64);
        }
    }
    outcome.stats = SearchStats {
        final_open: k.final_open,
        max_depth: k.max_open,
        seconds: k.seconds(),
        ..k.counts()
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
    } else if how.start(h0) {
        loop {
            let (looked, next) = how.before(&ida.stats, false, None);
            ida.stats.absorb(&looked);
            let bound = match next {
                Before::Iterate { bound, .. } => bound,
                Before::Over { moves, stopped_by } => {
                    if let Some(m) = &moves {
                        ida.depth = m.len() as u64;
                    }
                    outcome.moves = moves;
                    ida.stopped_by = stopped_by;
                    break;
                }
            };
            ida.bound = bound;
            ida.next_bound = u32::MAX;
            let before = ida.stats.generated;
            if ida.dfs(blank, 0, h0, puzzle.pruning.start(blank), None) {
                ida.path.reverse();
                match how.found(std::mem::take(&mut ida.path)) {
                    Some(moves) => outcome.moves = Some(moves),
                    None => {
                        // Kept: the iterations below it search from the start again.
                        ida.tiles.copy_from_slice(start);
                        ida.heuristic.init(start);
                        ida.iteration += 1;
                        continue;
                    }
                }
                break;
            }
            if ida.stopped_by.is_some() {
                break;
            }
            let nodes = ida.stats.generated - before;
            if let After::Over(moves) = how.completed(bound, nodes, ida.next_bound) {
                if let Some(m) = &moves {
                    ida.depth = m.len() as u64;
                }
                outcome.moves = moves;
                break;
            }
            ida.iteration += 1;
        }
        outcome.lower_bound = Some(how.proven());
        if ida.stopped_by.is_some() && outcome.moves.is_none() {
            // A limit stopped the proof of a path in hand: the best there is.
            outcome.moves = how.unproved();
            ida.depth = outcome.moves.as_ref().map_or(ida.depth, |m| m.len() as u64);
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
                why = a.poll();
            }
            if why.is_some() {
                self.stopped_by = why;
                return false;
            }
        }
        if g >= self.meter.depth_cap() {
            return false; // a leaf: its children would be deeper than the cap
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
