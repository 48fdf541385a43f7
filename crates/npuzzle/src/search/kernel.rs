//! The IDA* depth-first kernel specialised for one board size (3×3, 4×4, 5×5).
//!
//! Same search and same counts as the general kernel in `idastar.rs`, but the board and the
//! neighbour table are fixed-size arrays (`[u8; N]`), so indices are checked against a
//! constant and the compiler unrolls the four moves; nothing but three counters and one
//! comparison against the meter's `next_check` is done per node. Trace recording lives only
//! in the general kernel, which callers get when they ask for a trace. The inner loop is
//! the one of Korf (1985): move a tile, update the heuristic by one lookup, recurse, undo.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use super::{Meter, SearchStats, StopReason};
use crate::heuristic::pdb::prefetch::prefetch_any;
use crate::heuristic::IncrementalHeuristic;
use crate::moves::Move;
use crate::pruning::DEAD;
use crate::puzzle::NO_CELL;

/// Transition-table entries above which the kernel prefetches its children's rows (1 MB:
/// more than the L2 cache holds beside the pattern databases' rows).
const PRUNING_PREFETCH_FROM: usize = 1 << 18;

/// Starts fetching what the children of a node will read (the blank on `blank`, its
/// `neighbours`, their automaton states `next`), so that the cache misses overlap instead
/// of coming one after the other: the rows of a large pruning automaton (`pruning`), and
/// the table entries of a heuristic with large tables. Changes nothing.
#[inline(always)]
pub(crate) fn prefetch_children<H: IncrementalHeuristic>(
    heuristic: &H,
    pruning: &[u32],
    tiles: &[u8],
    neighbours: [u8; 4],
    next: [u32; 4],
    blank: usize,
) {
    if pruning.len() > PRUNING_PREFETCH_FROM {
        for &s in &next {
            if s != DEAD {
                prefetch_any(pruning, s as usize * 4);
            }
        }
    }
    if heuristic.prefetches() {
        for (mi, &to) in neighbours.iter().enumerate() {
            if to != NO_CELL && next[mi] != DEAD {
                let to = usize::from(to);
                heuristic.prefetch(tiles[to], to, blank);
            }
        }
    }
}

/// How a parallel search stops one work unit from outside: a goal found in an earlier unit
/// (serial order), or a limit that stopped the search as a whole. Looked at only when the
/// meter is due, never per node. (A node-limited search runs serially: see
/// `dispatch::deepening`.)
#[derive(Clone, Copy)]
pub(crate) struct Abort<'a> {
    /// The smallest index of a unit that found a goal (`usize::MAX`: none yet).
    pub found: &'a AtomicUsize,
    /// This unit's index in serial order.
    pub index: usize,
    /// Set when the whole search must stop.
    pub halt: &'a AtomicBool,
}

impl Abort<'_> {
    /// Whether another unit has stopped this one. The caller knows why, and does not count
    /// this unit.
    pub fn poll(&self) -> Option<StopReason> {
        let stopped =
            self.halt.load(Ordering::Relaxed) || self.found.load(Ordering::Relaxed) < self.index;
        stopped.then_some(StopReason::Cancelled)
    }
}

/// A fixed-size IDA* search, one iteration at a time.
pub(crate) struct Fixed<'a, H, const N: usize> {
    tiles: [u8; N],
    goal: [u8; N],
    neighbours: [[u8; 4]; N],
    /// The pruning automaton's transitions (`Puzzle::pruning`), `[state * 4 + move]`.
    pruning: &'a [u32],
    pub heuristic: H,
    pub bound: u32,
    /// Smallest f above the bound seen this iteration: the next bound.
    pub next_bound: u32,
    pub generated: u64,
    pub expanded: u64,
    /// States on the deepest path expanded (`SearchStats::max_open`).
    pub max_open: u64,
    /// States on the path when the search stopped (`SearchStats::final_open`).
    pub final_open: u64,
    next_check: u64,
    meter: Meter<'a>,
    abort: Option<Abort<'a>>,
    pub stopped_by: Option<StopReason>,
    /// Filled in reverse while unwinding from the goal.
    pub path: Vec<Move>,
    /// States this deep are not expanded ([`Control::depth_cap`](super::Control)).
    depth_cap: u32,
}

impl<'a, H: IncrementalHeuristic, const N: usize> Fixed<'a, H, N> {
    /// A kernel on `tiles` (exactly `N` of them).
    pub fn new(
        tiles: &[u8],
        goal: &[u8],
        neighbours: &[[u8; 4]],
        pruning: &'a [u32],
        heuristic: H,
        meter: Meter<'a>,
        abort: Option<Abort<'a>>,
    ) -> Self {
        let mut nb = [[NO_CELL; 4]; N];
        nb.copy_from_slice(neighbours);
        Fixed {
            tiles: tiles.try_into().expect("N tiles"),
            goal: goal.try_into().expect("N goal tiles"),
            neighbours: nb,
            pruning,
            heuristic,
            bound: 0,
            next_bound: u32::MAX,
            generated: 0,
            expanded: 0,
            max_open: 0,
            final_open: 0,
            next_check: meter.next_check,
            depth_cap: meter.depth_cap(),
            meter,
            abort,
            stopped_by: None,
            path: Vec::new(),
        }
    }

    /// Puts the board and the heuristic back at `start` (exactly `N` tiles), as they were
    /// before a search that found a path (which leaves them at its end); returns the
    /// heuristic's value there.
    pub fn restart(&mut self, start: &[u8]) -> u32 {
        self.tiles.copy_from_slice(start);
        self.path.clear();
        self.heuristic.init(start)
    }

    /// The kernel's counters so far (expanded, generated, deepest path).
    pub fn counts(&self) -> SearchStats {
        SearchStats {
            generated: self.generated,
            expanded: self.expanded,
            max_open: self.max_open,
            ..SearchStats::default()
        }
    }

    /// Counts a search run on this one's behalf (a lookahead) as this one's nodes, so limits
    /// and reports see them (`SearchStats::absorb`, on the kernel's own counters).
    pub fn absorb(&mut self, other: &SearchStats) {
        let mut mine = self.counts();
        mine.absorb(other);
        (self.generated, self.expanded, self.max_open) =
            (mine.generated, mine.expanded, mine.max_open);
    }

    /// Whether the tiles are the goal.
    pub fn at_goal(&self) -> bool {
        self.tiles == self.goal
    }

    /// Seconds since the meter started.
    pub fn seconds(&self) -> f64 {
        self.meter.seconds()
    }

    /// The limits and the outside stop, looked at once `generated` reaches `next_check`.
    /// Returns `true` when the search must stop.
    #[cold]
    #[inline(never)]
    fn poll(&mut self, g: u32) -> bool {
        let stats = self.counts();
        let mut why = self.meter.check(&stats, u64::from(g), Some(self.bound));
        self.next_check = self.meter.next_check;
        if why.is_none() {
            if let Some(a) = &self.abort {
                why = a.poll();
            }
        }
        if why.is_some() {
            self.stopped_by = why;
            self.final_open = u64::from(g);
            return true;
        }
        false
    }

    /// Expands the state with the blank on `blank`, `g` moves from the start, heuristic `h`;
    /// `state` is the pruning automaton's state after the path here. Returns `true` when the
    /// goal is found (the path then holds the moves in reverse).
    pub fn dfs(&mut self, blank: usize, g: u32, h: u32, state: u32) -> bool {
        if self.generated >= self.next_check && self.poll(g) {
            return false;
        }
        if g >= self.depth_cap {
            return false; // a leaf: its children would be deeper than the cap
        }
        self.expanded += 1;
        let depth = u64::from(g) + 1;
        if depth > self.max_open {
            self.max_open = depth;
        }
        let neighbours = self.neighbours[blank];
        let row = state as usize * 4;
        let next: [u32; 4] = self.pruning[row..row + 4].try_into().expect("4 moves");
        prefetch_children(
            &self.heuristic,
            self.pruning,
            &self.tiles,
            neighbours,
            next,
            blank,
        );
        for (mi, &to) in neighbours.iter().enumerate() {
            if to == NO_CELL || next[mi] == DEAD {
                continue;
            }
            self.generated += 1;
            let to = usize::from(to);
            let tile = self.tiles[to];
            // Heuristics that do not read the board move the tile only for children that
            // are expanded (most children are pruned).
            if H::READS_TILES {
                self.tiles[blank] = tile;
                self.tiles[to] = 0;
            }
            let m = Move::ALL[mi];
            // Values from `cut` up need not be exact: such a child is pruned and cannot lower
            // the next bound (`next_bound > bound`, so `cut` is above the bound's too).
            let cut = self.next_bound.saturating_sub(g + 1);
            let (h2, undo) = self
                .heuristic
                .apply_cut(&self.tiles, h, tile, to, blank, m, cut);
            let f = g + 1 + h2;
            let expand = f <= self.bound;
            if expand {
                if !H::READS_TILES {
                    self.tiles[blank] = tile;
                    self.tiles[to] = 0;
                }
                if (h2 == 0 && self.tiles == self.goal) || self.dfs(to, g + 1, h2, next[mi]) {
                    if self.path.is_empty() {
                        self.final_open = depth;
                    }
                    self.path.push(m);
                    return true;
                }
                if self.stopped_by.is_some() {
                    return false;
                }
            } else if f < self.next_bound {
                self.next_bound = f;
            }
            if H::READS_TILES || expand {
                self.tiles[to] = tile;
                self.tiles[blank] = 0;
            }
            self.heuristic.undo(undo);
        }
        false
    }
}
