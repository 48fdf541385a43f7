//! A* and its best-first relatives: weighted A* and greedy best-first search.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::keys::{with_key, KeyedSearch, StateKey};
use super::store::{Node, NodeStore, ROOT};
use super::{Control, Meter, SearchOutcome, SearchStats, TraceStep};
use crate::heuristic::{whole_moves, Heuristic};
use crate::moves::Move;
use crate::puzzle::{Puzzle, NO_CELL};

/// How a best-first search orders its open list.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Priority {
    /// `f = g + h` (A*). Optimal with an admissible heuristic.
    AStar,
    /// `f = g + w·h`. With an admissible heuristic the cost is at most `w` × optimal.
    Weighted(f64),
    /// `f = h` (greedy best-first). Fast, no guarantee.
    Greedy,
}

/// An open-list entry: smallest priority first, then deepest (largest `g`) first, which
/// reaches the goal sooner among equals.
#[derive(PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    f: Reverse<u64>,
    g: u32,
    node: u32,
}

/// Best-first search from `start` with a closed set. A state reached again by a shorter path
/// is re-opened, so A* stays optimal with admissible but inconsistent heuristics.
///
/// With `Priority::AStar` and an admissible heuristic the path is optimal. Values of an
/// admissible heuristic are rounded up to whole moves (see [`whole_moves`]).
pub fn astar(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: &dyn Heuristic,
    admissible: bool,
    priority: Priority,
    control: Control<'_>,
) -> SearchOutcome {
    let search = BestFirst {
        puzzle,
        start,
        heuristic,
        admissible,
        priority,
        control,
    };
    with_key(puzzle.cells(), search)
}

/// The arguments of one [`astar`] run, waiting for its key type.
struct BestFirst<'a> {
    puzzle: &'a Puzzle,
    start: &'a [u8],
    heuristic: &'a dyn Heuristic,
    admissible: bool,
    priority: Priority,
    control: Control<'a>,
}

impl KeyedSearch for BestFirst<'_> {
    type Output = SearchOutcome;
    fn run<K: StateKey>(self) -> SearchOutcome {
        run::<K>(self)
    }
}

fn run<K: StateKey>(search: BestFirst<'_>) -> SearchOutcome {
    let BestFirst {
        puzzle,
        start,
        heuristic,
        admissible,
        priority,
        control,
    } = search;
    let mut meter = Meter::new(control);
    let mut stats = SearchStats::default();
    let mut trace: Vec<TraceStep> = Vec::new();
    // Trace index of each expanded node, only while tracing.
    let mut traced: rustc_hash::FxHashMap<u32, usize> = Default::default();
    let goal = K::pack(&puzzle.goal);
    let h_of = |tiles: &[u8]| -> f64 {
        let h = heuristic.estimate(tiles);
        if admissible {
            f64::from(whole_moves(h))
        } else {
            h
        }
    };
    let key_of = |g: u32, h: f64| -> u64 {
        let f = match priority {
            Priority::AStar => f64::from(g) + h,
            Priority::Weighted(w) => f64::from(g) + w * h,
            Priority::Greedy => h,
        };
        // Non-negative floats order like their bit patterns.
        f.max(0.0).to_bits()
    };

    let mut store = NodeStore::<K>::new();
    let mut open = BinaryHeap::new();
    let h0 = h_of(start);
    let root = store.insert(Node {
        key: K::pack(start),
        g: 0,
        parent: ROOT,
        step: None,
        h: h0 as f32,
    });
    open.push(Entry {
        f: Reverse(key_of(0, h0)),
        g: 0,
        node: root,
    });
    let mut tiles = vec![0u8; puzzle.cells()];
    let mut outcome = SearchOutcome::default();

    while let Some(Entry { g, node, .. }) = open.pop() {
        let current = &store.nodes[node as usize];
        if g != current.g {
            continue; // stale: this state was re-queued with a shorter path
        }
        if current.key == goal {
            outcome.moves = Some(store.path_to(node));
            break;
        }
        // Popped first, this node's `f` is the smallest on the open list: with an
        // admissible heuristic, no path is shorter.
        if admissible && priority == Priority::AStar {
            outcome.lower_bound = Some(g.saturating_add(current.h as u32));
        }
        if stats.generated >= meter.next_check {
            let bound = Some(g.saturating_add(current.h as u32));
            if let Some(why) = meter.check(&stats, open.len() as u64, bound) {
                outcome.stopped_by = Some(why);
                break;
            }
        }
        stats.expanded += 1;
        current.key.unpack(&mut tiles);
        let back = current.step.map(|m| m.opposite());
        if trace.len() < meter.trace_limit() {
            traced.insert(node, trace.len());
            trace.push(TraceStep {
                parent: traced.get(&current.parent).copied(),
                step: current.step,
                tiles: tiles.clone(),
                g,
                h: f64::from(current.h),
                f: f64::from_bits(key_of(g, f64::from(current.h))),
                iteration: None,
                bound: None,
            });
        }
        let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
        for m in Move::ALL {
            let to = puzzle.neighbours[blank][m.index()];
            if to == NO_CELL || Some(m) == back {
                continue;
            }
            stats.generated += 1;
            tiles.swap(blank, usize::from(to));
            let key = K::pack(&tiles);
            let child_g = g + 1;
            stats.max_depth = stats.max_depth.max(u64::from(child_g));
            match store.index.get(&key) {
                Some(&seen) => {
                    if child_g < store.nodes[seen as usize].g {
                        // A shorter path: re-open with the stored heuristic value.
                        if let Err(stop) =
                            store.make_room(&mut open, meter.memory_limit(), meter.deadline())
                        {
                            outcome.stopped_by = Some(stop);
                            break;
                        }
                        let old = &mut store.nodes[seen as usize];
                        old.g = child_g;
                        old.parent = node;
                        old.step = Some(m);
                        let f = key_of(child_g, f64::from(old.h));
                        open.push(Entry {
                            f: Reverse(f),
                            g: child_g,
                            node: seen,
                        });
                    }
                }
                None => {
                    if let Err(stop) =
                        store.make_room(&mut open, meter.memory_limit(), meter.deadline())
                    {
                        outcome.stopped_by = Some(stop);
                        break;
                    }
                    let h = h_of(&tiles);
                    let child = store.insert(Node {
                        key,
                        g: child_g,
                        parent: node,
                        step: Some(m),
                        h: h as f32,
                    });
                    open.push(Entry {
                        f: Reverse(key_of(child_g, h)),
                        g: child_g,
                        node: child,
                    });
                }
            }
            tiles.swap(blank, usize::from(to));
        }
        if outcome.stopped_by.is_some() {
            break;
        }
        stats.max_open = stats.max_open.max(open.len() as u64);
    }
    stats.seconds = meter.seconds();
    // The last expansion may have stopped part-way, before the peak was taken.
    stats.max_open = stats.max_open.max(open.len() as u64);
    stats.final_open = open.len() as u64;
    outcome.stats = stats;
    outcome.trace = trace;
    outcome
}
