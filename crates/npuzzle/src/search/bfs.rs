//! Breadth-first search: optimal without a heuristic, and memory-hungry.

use std::collections::VecDeque;

use super::keys::{with_key, KeyedSearch, StateKey};
use super::store::{Node, NodeStore, ROOT};
use super::{Control, Meter, SearchOutcome, SearchStats, TraceStep};
use crate::moves::Move;
use crate::puzzle::{Puzzle, NO_CELL};

/// Breadth-first search from `start` to the puzzle's goal. The goal is recognised when it is
/// generated, which is safe for unit move costs.
pub fn bfs(puzzle: &Puzzle, start: &[u8], control: Control<'_>) -> SearchOutcome {
    with_key(
        puzzle.cells(),
        Breadth {
            puzzle,
            start,
            control,
        },
    )
}

/// The arguments of one [`bfs`] run, waiting for its key type.
struct Breadth<'a> {
    puzzle: &'a Puzzle,
    start: &'a [u8],
    control: Control<'a>,
}

impl KeyedSearch for Breadth<'_> {
    type Output = SearchOutcome;
    fn run<K: StateKey>(self) -> SearchOutcome {
        run::<K>(self.puzzle, self.start, self.control)
    }
}

fn run<K: StateKey>(puzzle: &Puzzle, start: &[u8], control: Control<'_>) -> SearchOutcome {
    let mut meter = Meter::new(control);
    let mut stats = SearchStats::default();
    let mut outcome = SearchOutcome::default();
    let goal = K::pack(&puzzle.goal);
    let mut store = NodeStore::<K>::new();
    let root = store.insert(Node {
        key: K::pack(start),
        g: 0,
        parent: ROOT,
        step: None,
        h: 0.0,
    });
    if store.nodes[0].key == goal {
        outcome.moves = Some(Vec::new());
    }
    let mut queue = VecDeque::from([root]);
    let mut tiles = vec![0u8; puzzle.cells()];
    let mut traced: rustc_hash::FxHashMap<u32, usize> = Default::default();
    'search: while outcome.moves.is_none() {
        let Some(node) = queue.pop_front() else { break };
        if stats.generated >= meter.next_check {
            let g = store.nodes[node as usize].g;
            if let Some(why) = meter.check(&stats, queue.len() as u64, Some(g)) {
                outcome.stopped_by = Some(why);
                break;
            }
        }
        stats.expanded += 1;
        let (g, step, parent) = {
            let cur = &store.nodes[node as usize];
            cur.key.unpack(&mut tiles);
            (cur.g, cur.step, cur.parent)
        };
        if outcome.trace.len() < meter.trace_limit() {
            traced.insert(node, outcome.trace.len());
            outcome.trace.push(TraceStep {
                parent: traced.get(&parent).copied(),
                step,
                tiles: tiles.clone(),
                g,
                h: 0.0,
                f: f64::from(g),
                iteration: None,
                bound: None,
            });
        }
        let back = step.map(Move::opposite);
        let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
        for m in Move::ALL {
            let to = puzzle.neighbours[blank][m.index()];
            if to == NO_CELL || Some(m) == back {
                continue;
            }
            stats.generated += 1;
            stats.max_depth = u64::from(g) + 1;
            tiles.swap(blank, usize::from(to));
            let key = K::pack(&tiles);
            tiles.swap(blank, usize::from(to));
            if store.index.contains_key(&key) {
                continue;
            }
            if let Err(stop) = store.make_room(&mut queue, meter.memory_limit(), meter.deadline()) {
                outcome.stopped_by = Some(stop);
                break 'search;
            }
            let is_goal = key == goal;
            let child = store.insert(Node {
                key,
                g: g + 1,
                parent: node,
                step: Some(m),
                h: 0.0,
            });
            if is_goal {
                outcome.moves = Some(store.path_to(child));
                break 'search;
            }
            queue.push_back(child);
        }
        stats.max_open = stats.max_open.max(queue.len() as u64);
    }
    stats.seconds = meter.seconds();
    // The last expansion may have stopped part-way, before the peak was taken.
    stats.max_open = stats.max_open.max(queue.len() as u64);
    stats.final_open = queue.len() as u64;
    outcome.stats = stats;
    outcome
}
