//! The bounded-suboptimal kernel: weighted IDA* with an incremental heuristic, pruned by the
//! length of the best path known, on a board held as a fixed-size array where it can be.
//!
//! This is the kernel the anytime engine improves its answers with, and the one
//! [`weighted_idastar`](super::weighted_idastar) runs when no trace is asked for. It does
//! what IDA*'s fixed-size kernel does per node (move a tile, update the heuristic by a
//! lookup or two, recurse, undo), plus what weighting needs:
//!
//! * **Costs** are integers, `f = SCALE·g + W·h` with `W` in thousandths, so a bound holds
//!   for the rounded weight.
//! * **One evaluation a child**, visited in the fixed move order as soon as it is within the
//!   threshold. Visiting children best first (evaluate all, sort, evaluate again) was tried:
//!   on Korf & Felner's 24-puzzles with 6-6-6-6 at `W` = 1.3 it generated the same number
//!   of nodes to the first path (within 1 %) at two thirds of the speed.
//! * **Pruned by the best known.** With an admissible heuristic, a child with
//!   `g + h ≥ below` cannot lie on a path shorter than `below`, at any weight; it is never
//!   visited and never raises the next threshold. So a search that runs out of states has
//!   proved that no path shorter than `below` exists.
//! * **Thresholds** rise to the smallest `f` pruned, and by at least `step` (with weights
//!   such as 1.3 the distinct values of `f` are ten times as many as IDA*'s thresholds).

use super::kernel::prefetch_children;
use super::{Meter, SearchStats, StopReason};
use crate::heuristic::IncrementalHeuristic;
use crate::moves::Move;
use crate::pruning::{MoveAutomaton, DEAD};
use crate::puzzle::{Puzzle, NO_CELL};

/// Fixed-point scale of `g` in `f`.
pub(crate) const SCALE: u64 = 1000;

/// `W` in thousandths (at least 1).
pub(crate) fn weight_units(weight: f64) -> u64 {
    ((weight.max(1.0) * SCALE as f64).round() as u64).max(SCALE)
}

/// A board the kernel can hold: a fixed-size array for the common shapes (indices checked
/// against a constant), a vector for the others.
pub(crate) trait Cells: AsRef<[u8]> + AsMut<[u8]> + PartialEq {}
impl<const N: usize> Cells for [u8; N] {}
impl Cells for Vec<u8> {}

/// What one bounded search found.
#[derive(Debug, Default)]
pub(crate) struct BoundedOutcome {
    /// A path shorter than `below`, if one was found.
    pub moves: Option<Vec<Move>>,
    /// Counters.
    pub stats: SearchStats,
    /// The limit that stopped the search.
    pub stopped_by: Option<StopReason>,
    /// Every state with `g + h < below` was searched without finding the goal: with an
    /// admissible heuristic, no path shorter than `below` exists.
    pub exhausted: bool,
}

/// One weighted IDA* search of paths shorter than `below`.
pub(crate) struct Bounded<'a, H, T> {
    tiles: T,
    goal: T,
    neighbours: &'a [[u8; 4]],
    /// The puzzle's pruning automaton: the move back, or duplicate sequences (`--optimal`).
    pruning: &'a MoveAutomaton,
    heuristic: H,
    /// `W` in thousandths.
    weight: u64,
    bound: u64,
    next_bound: u64,
    below: u32,
    /// Thousandths of a move the threshold rises by at least.
    step: u64,
    stats: SearchStats,
    depth: u64,
    meter: Meter<'a>,
    stopped_by: Option<StopReason>,
    /// Filled in reverse while unwinding from the goal.
    path: Vec<Move>,
    /// States this deep are not expanded ([`Control::depth_cap`](super::Control)).
    depth_cap: u32,
}

impl<'a, H: IncrementalHeuristic, T: Cells> Bounded<'a, H, T> {
    /// A search from `tiles` towards `goal` (both already in the board type `T`).
    pub fn new(
        tiles: T,
        goal: T,
        puzzle: &'a Puzzle,
        heuristic: H,
        bounds: Bounds,
        meter: Meter<'a>,
    ) -> Self {
        Bounded {
            tiles,
            goal,
            neighbours: &puzzle.neighbours,
            pruning: &puzzle.pruning,
            heuristic,
            weight: weight_units(bounds.weight),
            bound: 0,
            next_bound: u64::MAX,
            below: bounds.below,
            step: bounds.step,
            stats: SearchStats::default(),
            depth: 0,
            depth_cap: meter.depth_cap(),
            meter,
            stopped_by: None,
            path: Vec::new(),
        }
    }

    #[inline]
    fn f(&self, g: u32, h: u32) -> u64 {
        SCALE * u64::from(g) + self.weight * u64::from(h)
    }

    /// Runs iterations until a path shorter than `below` is found, the states below it run
    /// out, or a limit stops the search.
    pub fn run(mut self) -> BoundedOutcome {
        let h0 = self.heuristic.init(self.tiles.as_ref());
        let blank = self.tiles.as_ref().iter().position(|&t| t == 0);
        let mut outcome = BoundedOutcome::default();
        match blank {
            _ if self.tiles == self.goal => {
                if self.below > 0 {
                    outcome.moves = Some(Vec::new());
                } else {
                    outcome.exhausted = true;
                }
            }
            None => outcome.exhausted = true,
            Some(_) if h0 >= self.below => outcome.exhausted = true,
            Some(blank) => {
                self.bound = self.f(0, h0);
                loop {
                    self.next_bound = u64::MAX;
                    if self.dfs(blank, 0, h0, self.pruning.start(blank)) {
                        self.path.reverse();
                        outcome.moves = Some(std::mem::take(&mut self.path));
                        break;
                    }
                    if self.stopped_by.is_some() {
                        break;
                    }
                    if self.next_bound == u64::MAX {
                        outcome.exhausted = true;
                        break;
                    }
                    self.bound = self.next_bound.max(self.bound + self.step);
                }
            }
        }
        self.stats.seconds = self.meter.seconds();
        self.stats.max_depth = self.stats.max_open;
        self.stats.final_open = self.depth;
        outcome.stats = self.stats;
        outcome.stopped_by = self.stopped_by;
        outcome
    }

    /// Moves the tile on `to` into the blank on `blank`; the heuristic after (exact below
    /// `cut`, see [`IncrementalHeuristic::apply_cut`]), its undo and the tile.
    #[inline]
    fn push(&mut self, blank: usize, to: usize, mi: usize, h: u32, cut: u32) -> (u32, H::Undo, u8) {
        let tiles = self.tiles.as_mut();
        let tile = tiles[to];
        tiles[blank] = tile;
        tiles[to] = 0;
        let m = Move::ALL[mi];
        let (h2, undo) = self
            .heuristic
            .apply_cut(self.tiles.as_ref(), h, tile, to, blank, m, cut);
        (h2, undo, tile)
    }

    #[inline]
    fn pop(&mut self, blank: usize, to: usize, undo: H::Undo, tile: u8) {
        self.heuristic.undo(undo);
        let tiles = self.tiles.as_mut();
        tiles[to] = tile;
        tiles[blank] = 0;
    }

    #[cold]
    #[inline(never)]
    fn poll(&mut self) -> bool {
        let bound = u32::try_from(self.bound / SCALE).ok();
        self.stopped_by = self.meter.check(&self.stats, self.depth, bound);
        self.stopped_by.is_some()
    }

    /// Expands the state with the blank on `blank`, `g` moves from the start, heuristic
    /// `h`; `state` is the pruning automaton's state after the path here.
    fn dfs(&mut self, blank: usize, g: u32, h: u32, state: u32) -> bool {
        if self.stats.generated >= self.meter.next_check && self.poll() {
            return false;
        }
        if g >= self.depth_cap {
            return false; // a leaf: its children would be deeper than the cap
        }
        self.stats.expanded += 1;
        self.depth += 1;
        if self.depth > self.stats.max_open {
            self.stats.max_open = self.depth;
        }
        let neighbours = self.neighbours[blank];
        let row = state as usize * 4;
        let table = self.pruning.table();
        let next: [u32; 4] = table[row..row + 4].try_into().expect("4 moves");
        prefetch_children(
            &self.heuristic,
            table,
            self.tiles.as_ref(),
            neighbours,
            next,
            blank,
        );
        // Values from `cut` up need not be exact (pattern databases then skip lookups): such
        // a child is pruned, by the threshold or by the best length, and its f is no lower
        // than the next threshold already is.
        let g1 = u64::from(g + 1);
        let by_weight =
            (self.bound.saturating_sub(SCALE * g1) / self.weight + 1).min(u64::from(u32::MAX));
        let by_best = u64::from(self.below.saturating_sub(g + 1));
        let by_next = self
            .next_bound
            .saturating_sub(SCALE * g1)
            .div_ceil(self.weight);
        let cut = by_weight.min(by_best).max(by_next).min(u64::from(u32::MAX)) as u32;
        for (mi, &to) in neighbours.iter().enumerate() {
            if to == NO_CELL || next[mi] == DEAD {
                continue;
            }
            self.stats.generated += 1;
            let to = usize::from(to);
            let (h2, undo, tile) = self.push(blank, to, mi, h, cut);
            if g + 1 + h2 >= self.below {
                self.pop(blank, to, undo, tile);
                continue; // cannot lie on a path shorter than the best known
            }
            let f = self.f(g + 1, h2);
            if f > self.bound {
                self.next_bound = self.next_bound.min(f);
                self.pop(blank, to, undo, tile);
                continue;
            }
            if (h2 == 0 && self.tiles == self.goal) || self.dfs(to, g + 1, h2, next[mi]) {
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
}

/// What one bounded search looks for: paths shorter than `below` (`u32::MAX`: any) by
/// weighted IDA* with weight `weight`, thresholds rising by at least `step` thousandths of
/// a move.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bounds {
    pub weight: f64,
    pub below: u32,
    pub step: u64,
}

/// Weighted IDA* from `start` (tiles as bytes) towards the puzzle's goal within `bounds`;
/// the board is held in a fixed-size array on boards of 9, 16, 25, 36, 49 and 64 cells.
pub(crate) fn bounded<H: IncrementalHeuristic>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: H,
    bounds: Bounds,
    meter: Meter<'_>,
) -> BoundedOutcome {
    fn fixed<H: IncrementalHeuristic, const N: usize>(
        puzzle: &Puzzle,
        start: &[u8],
        heuristic: H,
        bounds: Bounds,
        meter: Meter<'_>,
    ) -> BoundedOutcome {
        let tiles: [u8; N] = start.try_into().expect("N tiles");
        let goal: [u8; N] = puzzle.goal[..].try_into().expect("N goal tiles");
        Bounded::new(tiles, goal, puzzle, heuristic, bounds, meter).run()
    }
    match start.len() {
        9 => fixed::<H, 9>(puzzle, start, heuristic, bounds, meter),
        16 => fixed::<H, 16>(puzzle, start, heuristic, bounds, meter),
        25 => fixed::<H, 25>(puzzle, start, heuristic, bounds, meter),
        36 => fixed::<H, 36>(puzzle, start, heuristic, bounds, meter),
        49 => fixed::<H, 49>(puzzle, start, heuristic, bounds, meter),
        64 => fixed::<H, 64>(puzzle, start, heuristic, bounds, meter),
        _ => {
            let goal = puzzle.goal.clone();
            Bounded::new(start.to_vec(), goal, puzzle, heuristic, bounds, meter).run()
        }
    }
}
