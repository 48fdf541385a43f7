//! IDA*'s tree cut at a frontier depth into work units that can be searched apart (on
//! threads here, or on other machines by a caller that serialises the units).
//!
//! [`split`] lists the states `depth` moves from the start in the serial search's order
//! (up, left, right, down; parent move pruned), with the path to each. For one iteration's
//! bound, [`WorkUnit::above`] counts what the serial search generates and expands *above*
//! the frontier before reaching a unit, and [`search_unit`] searches below it. Summed over
//! the units in order, the two give exactly the serial iteration's counts; when a unit finds
//! the goal, the sums up to and including that unit give the serial search's counts, since
//! the serial search stops there too.
//!
//! ```
//! use npuzzle::{Board, GoalSpec, Puzzle, heuristic::Manhattan};
//! use npuzzle::search::{idastar, Control};
//! use npuzzle::search::frontier::{search_unit, split};
//! let start = Board::parse("8 6 7/2 5 4/3 0 1", None).unwrap();
//! let goal = GoalSpec::Standard.board(start.shape()).unwrap();
//! let puzzle = Puzzle::new(&goal).unwrap();
//! let tiles = puzzle.encode(&start);
//! let h = Manhattan::new(&puzzle);
//! let units = split(&puzzle, &tiles, h.clone(), 6);
//! // IDA* unit by unit, in order: each iteration's bound, then the units above and below.
//! let (mut generated, mut bound) = (0, units[0].path_f[0]);
//! let moves = loop {
//!     let (mut next, mut found) = (u32::MAX, None);
//!     for unit in &units {
//!         let above = unit.above(bound);
//!         generated += above.generated;
//!         next = next.min(above.next_bound);
//!         if above.reached {
//!             let out = search_unit(&puzzle, unit, h.clone(), bound, Control::default());
//!             generated += out.generated;
//!             next = next.min(out.next_bound);
//!             if out.moves.is_some() {
//!                 found = out.moves;
//!                 break;
//!             }
//!         }
//!     }
//!     match found {
//!         Some(moves) => break moves,
//!         None => bound = next,
//!     }
//! };
//! assert_eq!(moves.len(), 31);
//! assert_eq!(start.replay(&moves).unwrap(), goal);
//! // Exactly the serial search's count.
//! let serial = idastar(&puzzle, &tiles, h, Control::default());
//! assert_eq!(generated, serial.stats.generated);
//! ```

use serde::{Deserialize, Serialize};

use super::idastar::Ida;
use super::kernel::{Abort, Fixed};
use super::{Control, Meter, SearchStats, StopReason};
use crate::heuristic::IncrementalHeuristic;
use crate::moves::Move;
use crate::pruning::DEAD;
use crate::puzzle::{Puzzle, NO_CELL};

/// One state of IDA*'s frontier, with the path that leads to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkUnit {
    /// Tiles, row-major, `0` the blank.
    pub tiles: Vec<u8>,
    /// The moves from the start to this state.
    pub moves: Vec<Move>,
    /// Moves from the start (`moves.len()`).
    pub g: u32,
    /// The heuristic's value here.
    pub h: u32,
    /// The move that led here, whose opposite the search does not try (`None` at the start).
    pub parent_move: Option<Move>,
    /// `g + h` of every state on the path, the start first and this state last: what
    /// decides, for a bound, whether the search reaches this state.
    pub path_f: Vec<u32>,
    /// States of the path (start included) shared with the previous unit; `0` for the
    /// first. The others were generated for this unit first.
    pub shared: u32,
    /// This state is the goal (found above the frontier depth, or on it): the search ends
    /// here when it reaches it.
    pub goal: bool,
}

/// What the serial search does above the frontier, between the previous unit and this one,
/// in an iteration with a given bound (see [`WorkUnit::above`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Above {
    /// States generated (this unit's state included when the search reaches it).
    pub generated: u64,
    /// States expanded (not this unit's state: [`search_unit`] expands it).
    pub expanded: u64,
    /// The smallest `f` above the bound among those generated (`u32::MAX`: none).
    pub next_bound: u32,
    /// States on the deepest path expanded.
    pub max_open: u64,
    /// Whether the search reaches this unit's state within the bound, so that it must be
    /// searched.
    pub reached: bool,
}

impl Above {
    /// Its counters, to add to an iteration's with [`SearchStats::absorb`].
    pub fn counts(&self) -> SearchStats {
        SearchStats {
            generated: self.generated,
            expanded: self.expanded,
            max_open: self.max_open,
            ..SearchStats::default()
        }
    }
}

impl WorkUnit {
    /// The nodes the serial search generates and expands above the frontier after the
    /// previous unit and before this unit's subtree, for an iteration with `bound`.
    pub fn above(&self, bound: u32) -> Above {
        let mut a = Above {
            next_bound: u32::MAX,
            ..Above::default()
        };
        let shared = self.shared as usize;
        let g = self.g as usize;
        for (depth, &f) in self.path_f.iter().enumerate() {
            // States of the shared prefix were counted for an earlier unit; the start is
            // never counted as generated.
            let new = depth >= shared.max(1);
            if new {
                a.generated += 1;
            }
            if f > bound {
                if new {
                    a.next_bound = f;
                }
                return a;
            }
            if depth < g && depth >= shared {
                a.expanded += 1;
                a.max_open = a.max_open.max(depth as u64 + 1);
            }
        }
        a.reached = true;
        a
    }
}

/// IDA*'s frontier `depth` moves from `start`, in the serial search's order: every state at
/// that depth, and the states above it where the search cannot go deeper (the goal, or a
/// dead end on a one-row board). Independent of any bound: [`WorkUnit::above`] applies one.
///
/// The list grows about 2.1-fold per move of depth on the 15-puzzle (4 × 3^(depth−1) at
/// most); depths of 10 to 14 give thousands of units.
pub fn split<H: IncrementalHeuristic>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: H,
    depth: u32,
) -> Vec<WorkUnit> {
    split_at_most(puzzle, start, heuristic, depth, usize::MAX).expect("no cap")
}

/// [`split`], or `None` as soon as the frontier holds more than `max_units` units (each
/// holds a board and its path: a depth too large for the board would fill the memory).
pub fn split_at_most<H: IncrementalHeuristic>(
    puzzle: &Puzzle,
    start: &[u8],
    mut heuristic: H,
    depth: u32,
    max_units: usize,
) -> Option<Vec<WorkUnit>> {
    let h = heuristic.init(start);
    let mut s = Splitter {
        puzzle,
        tiles: start.to_vec(),
        heuristic,
        depth,
        moves: Vec::new(),
        path_f: vec![h],
        units: Vec::new(),
        max_units,
    };
    let blank = start.iter().position(|&t| t == 0).expect("a blank");
    let goal = s.tiles == puzzle.goal;
    s.visit(blank, h, puzzle.pruning.start(blank), goal);
    if s.units.len() > max_units {
        return None;
    }
    // How much of each path the previous unit already covered.
    for i in (1..s.units.len()).rev() {
        let (before, after) = s.units.split_at_mut(i);
        let (prev, unit) = (&before[i - 1], &mut after[0]);
        let common = prev
            .moves
            .iter()
            .zip(&unit.moves)
            .take_while(|(a, b)| a == b)
            .count();
        unit.shared = common as u32 + 1;
    }
    Some(s.units)
}

struct Splitter<'a, H> {
    puzzle: &'a Puzzle,
    tiles: Vec<u8>,
    heuristic: H,
    depth: u32,
    moves: Vec<Move>,
    path_f: Vec<u32>,
    units: Vec<WorkUnit>,
    /// Stop once there are more units than this.
    max_units: usize,
}

impl<H: IncrementalHeuristic> Splitter<'_, H> {
    fn visit(&mut self, blank: usize, h: u32, state: u32, goal: bool) {
        if self.units.len() > self.max_units {
            return;
        }
        let g = self.moves.len() as u32;
        let pruning = &self.puzzle.pruning;
        let children = self.puzzle.neighbours[blank]
            .iter()
            .enumerate()
            .filter(|&(mi, &to)| to != NO_CELL && pruning.next(state, mi) != DEAD)
            .count();
        if goal || g == self.depth || children == 0 {
            self.units.push(WorkUnit {
                tiles: self.tiles.clone(),
                moves: self.moves.clone(),
                g,
                h,
                parent_move: self.moves.last().copied(),
                path_f: self.path_f.clone(),
                shared: 0,
                goal,
            });
            return;
        }
        for (mi, &to) in self.puzzle.neighbours[blank].iter().enumerate() {
            let next = self.puzzle.pruning.next(state, mi);
            if to == NO_CELL || next == DEAD {
                continue;
            }
            let to = usize::from(to);
            let tile = self.tiles[to];
            self.tiles[blank] = tile;
            self.tiles[to] = 0;
            let m = Move::ALL[mi];
            let (h2, undo) = self.heuristic.apply(&self.tiles, h, tile, to, blank, m);
            self.moves.push(m);
            self.path_f.push(g + 1 + h2);
            let goal = h2 == 0 && self.tiles == self.puzzle.goal;
            self.visit(to, h2, next, goal);
            self.path_f.pop();
            self.moves.pop();
            self.heuristic.undo(undo);
            self.tiles[to] = tile;
            self.tiles[blank] = 0;
        }
    }
}

/// What searching one unit's subtree found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UnitOutcome {
    /// The whole path from the start, when the goal is in this unit's subtree within the
    /// bound.
    pub moves: Option<Vec<Move>>,
    /// States generated below the unit's state.
    pub generated: u64,
    /// States expanded, the unit's own state included.
    pub expanded: u64,
    /// The smallest `f` above the bound seen (`u32::MAX`: none): the next iteration's
    /// bound is the smallest over all units and [`Above::next_bound`].
    pub next_bound: u32,
    /// States on the deepest path expanded, counted from the start.
    pub max_open: u64,
    /// The limit that stopped the search, if any (the counts are then partial).
    pub stopped_by: Option<StopReason>,
}

impl UnitOutcome {
    /// Its counters, to add to an iteration's with [`SearchStats::absorb`].
    pub fn counts(&self) -> SearchStats {
        SearchStats {
            generated: self.generated,
            expanded: self.expanded,
            max_open: self.max_open,
            ..SearchStats::default()
        }
    }
}

/// Searches the subtree below `unit` as IDA*'s iteration with `bound` does (the caller
/// checks [`WorkUnit::above`]`(bound).reached` first; a unit whose `g + h` is above the
/// bound is not expanded). `control`'s limits apply to this unit alone; its trace and
/// threads are ignored.
pub fn search_unit<H: IncrementalHeuristic>(
    puzzle: &Puzzle,
    unit: &WorkUnit,
    heuristic: H,
    bound: u32,
    control: Control<'_>,
) -> UnitOutcome {
    run(puzzle, unit, heuristic, bound, Meter::new(control), None)
}

/// [`search_unit`] with an outside stop, for the parallel search.
pub(crate) fn run<'a, H: IncrementalHeuristic>(
    puzzle: &'a Puzzle,
    unit: &WorkUnit,
    heuristic: H,
    bound: u32,
    meter: Meter<'a>,
    abort: Option<Abort<'a>>,
) -> UnitOutcome {
    let mut out = UnitOutcome {
        next_bound: u32::MAX,
        ..UnitOutcome::default()
    };
    let f = unit.g + unit.h;
    if f > bound {
        out.next_bound = f;
        return out;
    }
    if unit.goal {
        out.moves = Some(unit.moves.clone());
        return out;
    }
    let found = match puzzle.cells() {
        9 => run_fixed::<H, 9>(puzzle, unit, heuristic, bound, meter, abort, &mut out),
        16 => run_fixed::<H, 16>(puzzle, unit, heuristic, bound, meter, abort, &mut out),
        25 => run_fixed::<H, 25>(puzzle, unit, heuristic, bound, meter, abort, &mut out),
        _ => run_general(puzzle, unit, heuristic, bound, meter, abort, &mut out),
    };
    if let Some(mut path) = found {
        path.reverse();
        let mut moves = unit.moves.clone();
        moves.extend(path);
        out.moves = Some(moves);
    }
    out
}

/// The pruning automaton's state at the unit: its path walked from the start's blank
/// (found by taking the path back from the unit's blank).
fn state_of(puzzle: &Puzzle, unit: &WorkUnit) -> u32 {
    let start_blank = unit.moves.iter().rev().fold(blank_of(unit), |cell, m| {
        usize::from(puzzle.neighbours[cell][m.opposite().index()])
    });
    puzzle.pruning.walk(start_blank, &unit.moves)
}

fn blank_of(unit: &WorkUnit) -> usize {
    unit.tiles.iter().position(|&t| t == 0).expect("a blank")
}

fn run_fixed<'a, H: IncrementalHeuristic, const N: usize>(
    puzzle: &'a Puzzle,
    unit: &WorkUnit,
    mut heuristic: H,
    bound: u32,
    meter: Meter<'a>,
    abort: Option<Abort<'a>>,
    out: &mut UnitOutcome,
) -> Option<Vec<Move>> {
    let h = heuristic.init(&unit.tiles);
    let mut k = Fixed::<H, N>::new(
        &unit.tiles,
        &puzzle.goal,
        &puzzle.neighbours,
        puzzle.pruning.table(),
        heuristic,
        meter,
        abort,
    );
    k.bound = bound;
    let found = k.dfs(blank_of(unit), unit.g, h, state_of(puzzle, unit));
    out.generated = k.generated;
    out.expanded = k.expanded;
    out.next_bound = k.next_bound;
    out.max_open = k.max_open;
    out.stopped_by = k.stopped_by;
    found.then(|| std::mem::take(&mut k.path))
}

fn run_general<'a, H: IncrementalHeuristic>(
    puzzle: &'a Puzzle,
    unit: &WorkUnit,
    heuristic: H,
    bound: u32,
    meter: Meter<'a>,
    abort: Option<Abort<'a>>,
    out: &mut UnitOutcome,
) -> Option<Vec<Move>> {
    let mut ida = Ida::new(puzzle, &unit.tiles, heuristic, meter, abort);
    let h = ida.heuristic.init(&unit.tiles);
    ida.bound = bound;
    // The general kernel counts path states from its own root: start it at the unit's
    // depth so that `max_open` counts from the start.
    ida.depth = u64::from(unit.g);
    let found = ida.dfs(blank_of(unit), unit.g, h, state_of(puzzle, unit), None);
    out.generated = ida.stats.generated;
    out.expanded = ida.stats.expanded;
    out.next_bound = ida.next_bound;
    out.max_open = ida.stats.max_open;
    out.stopped_by = ida.stopped_by;
    found.then(|| std::mem::take(&mut ida.path))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goal::GoalSpec;
    use crate::heuristic::Manhattan;
    use crate::Board;

    #[test]
    fn units_round_trip_through_json_and_list_the_frontier_in_serial_order() {
        let start = Board::parse("8 6 7/2 5 4/3 0 1", None).unwrap();
        let goal = GoalSpec::Standard.board(start.shape()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let tiles = puzzle.encode(&start);
        let units = split(&puzzle, &tiles, Manhattan::new(&puzzle), 5);
        let text = serde_json::to_string(&units).unwrap();
        let back: Vec<WorkUnit> = serde_json::from_str(&text).unwrap();
        assert_eq!(back, units);
        // Every unit is 5 moves deep (no goal that close), its path leads to its tiles, and
        // paths come in the order up, left, right, down.
        for w in units.windows(2) {
            let key = |u: &WorkUnit| u.moves.iter().map(|m| m.index()).collect::<Vec<_>>();
            assert!(key(&w[0]) < key(&w[1]));
        }
        for u in &units {
            assert_eq!((u.g, u.moves.len(), u.path_f.len()), (5, 5, 6));
            assert_eq!(puzzle.encode(&start.replay(&u.moves).unwrap()), u.tiles);
            assert!(!u.goal);
        }
        // A bound that lets everything through reaches every unit.
        assert!(units.iter().all(|u| u.above(u32::MAX).reached));
    }
}
