//! Weighted IDA*: IDA* on `f = g + W·h`, a bounded-suboptimal search whose memory is only
//! the current path.
//!
//! **Bound.** With an admissible `h`, every state on an optimal path has
//! `g + W·h ≤ W·(g + h*) = W·C*`. Each iteration's threshold is the smallest `f` that the
//! previous one pruned, so the threshold that first lets a solution through is at most
//! `W·C*`, and the solution's length `g` is at most that threshold: at most `W` × optimal
//! (the argument of Pohl's weighted A*, carried over to iterative deepening).
//!
//! **Speed.** A larger `W` trusts the heuristic more, so the depth-first search dives
//! towards the goal; children are tried in order of `f` (best first) so the last iteration
//! ends early. Costs are kept as integers, `f = 1000·g + round(1000·W)·h`, so the bound
//! holds for the rounded weight, which is the one reported.

use super::{Control, Meter, SearchOutcome, SearchStats, StopReason, TraceStep};
use crate::heuristic::IncrementalHeuristic;
use crate::moves::Move;
use crate::puzzle::{Puzzle, NO_CELL};

/// Fixed-point scale of `g` in `f`.
const SCALE: u64 = 1000;

/// "No move yet": the root has no parent move to prune.
const NO_MOVE: usize = 4;

/// The weight as actually used: rounded to thousandths (at least 1).
pub fn effective_weight(weight: f64) -> f64 {
    weight_units(weight) as f64 / SCALE as f64
}

fn weight_units(weight: f64) -> u64 {
    ((weight.max(1.0) * SCALE as f64).round() as u64).max(SCALE)
}

/// Weighted IDA* from `start` to the puzzle's goal. With an admissible heuristic the path
/// is at most [`effective_weight`]`(weight)` × optimal; with `weight` 1 it is IDA*.
///
/// ```
/// use npuzzle::{Board, GoalSpec, Puzzle, heuristic::LinearConflict};
/// use npuzzle::search::{weighted_idastar, Control};
/// let start = Board::parse("7 2 6/8 1 4/3 5 0", None).unwrap();
/// let goal = GoalSpec::Standard.board(start.shape()).unwrap();
/// let puzzle = Puzzle::new(&goal).unwrap();
/// let out = weighted_idastar(&puzzle, &puzzle.encode(&start), LinearConflict::new(&puzzle),
///     2.0, Control::default());
/// let moves = out.moves.unwrap();
/// assert_eq!(start.replay(&moves).unwrap(), goal);
/// assert!(moves.len() <= 2 * 24); // the optimal length is 24
/// ```
pub fn weighted_idastar<H: IncrementalHeuristic>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: H,
    weight: f64,
    control: Control<'_>,
) -> SearchOutcome {
    if control.trace == 0 {
        // The fast kernel; thresholds rise to exactly the smallest f pruned, so the bound
        // above holds.
        let bounds = super::Bounds {
            weight,
            below: u32::MAX,
            step: 0,
        };
        let out = super::bounded(puzzle, start, heuristic, bounds, Meter::new(control));
        return SearchOutcome {
            moves: out.moves,
            stats: out.stats,
            stopped_by: out.stopped_by,
            ..SearchOutcome::default()
        };
    }
    let mut w = Wida {
        tiles: start.to_vec(),
        goal: &puzzle.goal,
        neighbours: &puzzle.neighbours,
        heuristic,
        weight: weight_units(weight),
        bound: 0,
        next_bound: u64::MAX,
        stats: SearchStats::default(),
        meter: Meter::new(control),
        stopped_by: None,
        path: Vec::new(),
        depth: 0,
        trace: Vec::new(),
        iteration: 1,
    };
    let h0 = w.heuristic.init(start);
    let blank = start.iter().position(|&t| t == 0).expect("a blank");
    let mut outcome = SearchOutcome::default();
    if w.tiles == w.goal {
        outcome.moves = Some(Vec::new());
    } else {
        w.bound = w.weight * u64::from(h0);
        loop {
            w.next_bound = u64::MAX;
            if w.dfs(blank, 0, h0, NO_MOVE, None) {
                w.path.reverse();
                outcome.moves = Some(std::mem::take(&mut w.path));
                break;
            }
            if w.stopped_by.is_some() || w.next_bound == u64::MAX {
                break;
            }
            w.bound = w.next_bound;
            w.iteration += 1;
        }
    }
    w.stats.seconds = w.meter.seconds();
    outcome.stats = w.stats;
    outcome.stopped_by = w.stopped_by;
    outcome.trace = w.trace;
    outcome
}

struct Wida<'a, H> {
    tiles: Vec<u8>,
    goal: &'a [u8],
    neighbours: &'a [[u8; 4]],
    heuristic: H,
    /// `W` in thousandths.
    weight: u64,
    bound: u64,
    next_bound: u64,
    stats: SearchStats,
    meter: Meter<'a>,
    stopped_by: Option<StopReason>,
    path: Vec<Move>,
    depth: u64,
    trace: Vec<TraceStep>,
    /// 1 for the first depth-first search, one more at each restart (for the trace).
    iteration: u32,
}

impl<H: IncrementalHeuristic> Wida<'_, H> {
    #[inline]
    fn f(&self, g: u32, h: u32) -> u64 {
        SCALE * u64::from(g) + self.weight * u64::from(h)
    }

    /// Moves the blank from `blank` to `to`; returns the heuristic after and its undo.
    #[inline]
    fn push(&mut self, blank: usize, to: usize, mi: usize, h: u32) -> (u32, H::Undo, u8) {
        let tile = self.tiles[to];
        self.tiles[blank] = tile;
        self.tiles[to] = 0;
        let (h2, undo) = self
            .heuristic
            .apply(&self.tiles, h, tile, to, blank, Move::ALL[mi]);
        (h2, undo, tile)
    }

    #[inline]
    fn pop(&mut self, blank: usize, to: usize, undo: H::Undo, tile: u8) {
        self.heuristic.undo(undo);
        self.tiles[to] = tile;
        self.tiles[blank] = 0;
    }

    fn dfs(&mut self, blank: usize, g: u32, h: u32, back: usize, parent: Option<usize>) -> bool {
        if self.stats.generated >= self.meter.next_check {
            let why = self.meter.check(
                &self.stats,
                self.depth,
                u32::try_from(self.bound / SCALE).ok(),
            );
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
        let me = self.record(g, h, parent, back);
        // Evaluate the children first, then visit them best first.
        let mut kids = [(u64::MAX, 0usize, 0usize, 0u32); 4];
        let mut n = 0;
        for (mi, &to) in self.neighbours[blank].iter().enumerate() {
            if to == NO_CELL || mi == back {
                continue;
            }
            self.stats.generated += 1;
            let to = usize::from(to);
            let (h2, undo, tile) = self.push(blank, to, mi, h);
            self.pop(blank, to, undo, tile);
            kids[n] = (self.f(g + 1, h2), mi, to, h2);
            n += 1;
        }
        let kids = &mut kids[..n];
        kids.sort_unstable_by_key(|k| k.0);
        for &(f, mi, to, _) in kids.iter() {
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                continue;
            }
            let (h2, undo, tile) = self.push(blank, to, mi, h);
            // Move::ALL is up, left, right, down, so the opposite of index i is 3 - i.
            if (h2 == 0 && self.tiles == self.goal) || self.dfs(to, g + 1, h2, 3 - mi, me) {
                self.path.push(Move::ALL[mi]);
                return true;
            }
            self.pop(blank, to, undo, tile);
            if self.stopped_by.is_some() {
                return false;
            }
        }
        self.depth -= 1;
        false
    }

    /// Records an expansion while the trace has room; returns its index. `back` is the
    /// index of the move that undoes the last one, so the last move is its opposite.
    #[inline]
    fn record(&mut self, g: u32, h: u32, parent: Option<usize>, back: usize) -> Option<usize> {
        if self.trace.len() >= self.meter.trace_limit() {
            return None;
        }
        self.trace.push(TraceStep {
            parent,
            step: (back < 4).then(|| Move::ALL[3 - back]),
            tiles: self.tiles.clone(),
            g,
            h: f64::from(h),
            f: self.f(g, h) as f64 / SCALE as f64,
            iteration: Some(self.iteration),
            bound: u32::try_from(self.bound / SCALE).ok(),
        });
        Some(self.trace.len() - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;
    use crate::goal::GoalSpec;
    use crate::heuristic::{LinearConflict, Manhattan, Tables};

    /// On random 3x3 boards, weighted IDA* stays within W of the exact distance (from the
    /// perfect table, built by an independent breadth-first search).
    #[test]
    fn within_the_bound() {
        let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let table = Tables::default().perfect(&puzzle).unwrap();
        let mut rng = generate::rng(5);
        for w in [1.0, 1.5, 2.0, 4.0] {
            for _ in 0..40 {
                let start = generate::random_solvable(&goal, &mut rng);
                let tiles = puzzle.encode(&start);
                let opt = table.distance(&tiles).unwrap() as f64;
                for out in [
                    weighted_idastar(
                        &puzzle,
                        &tiles,
                        Manhattan::new(&puzzle),
                        w,
                        Control::default(),
                    ),
                    weighted_idastar(
                        &puzzle,
                        &tiles,
                        LinearConflict::new(&puzzle),
                        w,
                        Control::default(),
                    ),
                ] {
                    let moves = out.moves.unwrap();
                    assert_eq!(start.replay(&moves).unwrap(), goal);
                    assert!(
                        moves.len() as f64 <= w * opt + 1e-9,
                        "{} > {w} x {opt}",
                        moves.len()
                    );
                    if w == 1.0 {
                        assert_eq!(moves.len() as f64, opt);
                    }
                }
            }
        }
    }
}
