//! Beam search: breadth-first, keeping only the `width` states of each depth that the
//! heuristic ranks best.
//!
//! All states of one depth have the same `g`, so ranking them by `h` ranks them by any
//! `g + w·h`. The beam finds no path with a guarantee, but it spends its time evenly along
//! the path: weighted A* with a weak heuristic goes deep along one line and then backs up
//! across a wide front, and on large boards that front is most of its time.
//!
//! A state already kept at one of the last [`REMEMBERED`] depths of the same parity is
//! dropped (the blank's colour alternates, so a state recurs only after an even number of
//! moves), as is a state generated twice at one depth.

use std::collections::VecDeque;

use rustc_hash::FxHashSet;

use super::keys::{with_key, KeyedSearch, StateKey};
use super::store::hash_table_bytes;
use super::{Control, Meter, SearchOutcome, SearchStats, StopReason};
use crate::heuristic::pdb::prefetch::prefetch_any;
use crate::heuristic::IncrementalHeuristic;
use crate::moves::Move;
use crate::puzzle::{Puzzle, NO_CELL};

/// Depths of the same parity whose states are remembered for dropping repeats.
const REMEMBERED: usize = 2;

/// Bytes each kept state leaves behind for the path: its parent's index and its move.
const BACK_BYTES: u64 = std::mem::size_of::<(u32, Move)>() as u64;

/// Beam search from `start` keeping `width` states a depth, ranked by `heuristic`; gives up
/// at depth `below` (a path that long is no use to the caller) or when a depth is empty.
pub fn beam<H: IncrementalHeuristic>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: H,
    width: usize,
    below: u32,
    control: Control<'_>,
) -> SearchOutcome {
    beam_with_prefix(puzzle, start, heuristic, width, below, control).0
}

/// [`beam`], and when a limit stops it before it finds a path, the moves from `start` to
/// the state its last depth ranks best: the first part of the path it was building, which
/// the caller may finish another way (a beam cut off halfway has still spent its time on
/// the moves that matter most, the first ones).
pub fn beam_with_prefix<H: IncrementalHeuristic>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: H,
    width: usize,
    below: u32,
    control: Control<'_>,
) -> (SearchOutcome, Option<Vec<Move>>) {
    with_key(
        puzzle.cells(),
        Beam {
            puzzle,
            start,
            heuristic,
            width: width.max(1),
            below,
            control,
        },
    )
}

/// The arguments of one [`beam`] run, waiting for its key type.
struct Beam<'a, H> {
    puzzle: &'a Puzzle,
    start: &'a [u8],
    heuristic: H,
    width: usize,
    below: u32,
    control: Control<'a>,
}

impl<H: IncrementalHeuristic> KeyedSearch for Beam<'_, H> {
    type Output = (SearchOutcome, Option<Vec<Move>>);
    fn run<K: StateKey>(self) -> Self::Output {
        run::<K, H>(self)
    }
}

/// A state generated at the current depth: its key, value, and where it came from.
struct Candidate<K> {
    key: K,
    h: u32,
    /// Index of the parent in the previous depth's kept states.
    parent: u32,
    step: Move,
    /// Its place among the depth's candidates when generated: its heuristic's saved state
    /// is the `slot`th in the depth's saved bytes.
    slot: u32,
}

fn run<K: StateKey, H: IncrementalHeuristic>(
    search: Beam<'_, H>,
) -> (SearchOutcome, Option<Vec<Move>>) {
    let Beam {
        puzzle,
        start,
        mut heuristic,
        width,
        below,
        control,
    } = search;
    let mut meter = Meter::new(control);
    let mut stats = SearchStats::default();
    let mut outcome = SearchOutcome::default();
    let goal = K::pack(&puzzle.goal);
    let n = puzzle.cells();
    // A heuristic that can save its state is restored for each kept state instead of
    // evaluating the whole board again (`saved_len` bytes a state); one that cannot is
    // initialised afresh.
    let saved = heuristic.saved_bytes();
    let restores = saved.is_some();
    let saved_len = saved.unwrap_or(0);

    // The kept states of the current depth, their values, where their saved heuristic
    // states are (the `slot`th of `layer_saved`, the buffer their depth's candidates were
    // written to), and for every depth the parent and move of each.
    let mut layer: Vec<K> = vec![K::pack(start)];
    let mut layer_h: Vec<u32> = vec![heuristic.init(start)];
    let mut layer_slot: Vec<u32> = vec![0];
    let mut layer_saved = vec![0u8; saved_len];
    // Saved only by a heuristic that says it can (a sum with a part that cannot has no
    // layout to write).
    if restores {
        heuristic.save(&mut layer_saved);
    }
    let mut back: Vec<Vec<(u32, Move)>> = Vec::new();
    let mut recent: VecDeque<FxHashSet<K>> = VecDeque::new();
    // Bytes of `back`, which grows by every kept state.
    let mut back_bytes = 0u64;
    let mut tiles = vec![0u8; n];
    let mut candidates: Vec<Candidate<K>> = Vec::new();
    let mut candidates_saved: Vec<u8> = Vec::new();
    // The states generated at the current depth.
    let mut seen: FxHashSet<K> = FxHashSet::default();

    if layer[0] == goal {
        outcome.moves = Some(Vec::new());
    }
    let mut g = 0u32;
    while outcome.moves.is_none() {
        if g + 1 >= below {
            break;
        }
        if let Some(why) = meter.check(&stats, layer.len() as u64, None) {
            outcome.stopped_by = Some(why);
            break;
        }
        // At most three children a state (four at the start), of which the width are kept.
        let most = 3 * layer.len() + 1;
        let kept = most.min(width);
        if let Some(max) = meter.memory_limit() {
            let held = Held {
                back: back_bytes,
                remembered: recent.iter().map(|s| (s.capacity(), s.len())).collect(),
                layer: layer.capacity(),
                layer_h: layer_h.capacity(),
                layer_slot: layer_slot.capacity(),
                layer_saved: layer_saved.capacity(),
                candidates: candidates.capacity(),
                candidates_saved: candidates_saved.capacity(),
                seen: seen.capacity(),
            };
            if held.peak::<K>(most, kept, saved_len) > max {
                outcome.stopped_by = Some(StopReason::Memory);
                break;
            }
        }
        // Every buffer of the depth is sized up front, exactly, so that nothing grows past
        // what the peak above counts (and growing the table was a tenth of the time).
        candidates.clear();
        candidates.reserve_exact(most);
        // Written slot by slot below and read only where written, so it keeps its bytes
        // from depth to depth instead of being zeroed for every candidate.
        if candidates_saved.len() < most * saved_len {
            candidates_saved.reserve_exact(most * saved_len - candidates_saved.len());
            candidates_saved.resize(most * saved_len, 0);
        }
        seen.clear();
        seen.reserve(most);
        let mut found = None;
        'layer: for (i, key) in layer.iter().enumerate() {
            // A depth of a wide beam takes seconds: the limits are looked at within it too
            // (a 2-second limit took 3 to 5 s at 5,000,000 states), and a depth they cut
            // short is dropped.
            if stats.generated >= meter.next_check {
                if let Some(why) = meter.check(&stats, layer.len() as u64, None) {
                    outcome.stopped_by = Some(why);
                    break 'layer;
                }
            }
            stats.expanded += 1;
            key.unpack(&mut tiles);
            let h = if restores {
                let at = layer_slot[i] as usize * saved_len;
                // The next kept state's saved bytes lie anywhere in a buffer of megabytes:
                // fetching them while this one's children are made hides the misses.
                if let Some(&next) = layer_slot.get(i + 1) {
                    let next = next as usize * saved_len;
                    for line in (next..next + saved_len).step_by(64) {
                        prefetch_any(&layer_saved, line);
                    }
                }
                heuristic.restore(&layer_saved[at..at + saved_len]);
                layer_h[i]
            } else {
                heuristic.init(&tiles)
            };
            let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
            let came_by = back.last().map(|b| b[i].1.opposite());
            for m in Move::ALL {
                let to = puzzle.neighbours[blank][m.index()];
                if to == NO_CELL || Some(m) == came_by {
                    continue;
                }
                stats.generated += 1;
                let to = usize::from(to);
                let tile = tiles[to];
                let child = key.slid(blank, to, tile);
                if child == goal {
                    found = Some((i as u32, m));
                    break 'layer;
                }
                // Same parity as the child: every other remembered depth, newest first.
                let repeat = recent
                    .iter()
                    .rev()
                    .skip(1)
                    .step_by(2)
                    .any(|s| s.contains(&child));
                if !repeat && seen.insert(child.clone()) {
                    tiles.swap(blank, to);
                    let slot = candidates.len();
                    let child_h = if restores {
                        let at = slot * saved_len;
                        let out = &mut candidates_saved[at..at + saved_len];
                        heuristic.apply_saved(&tiles, h, tile, to, blank, m, out)
                    } else {
                        let (child_h, undo) = heuristic.apply(&tiles, h, tile, to, blank, m);
                        heuristic.undo(undo);
                        child_h
                    };
                    tiles.swap(blank, to);
                    candidates.push(Candidate {
                        h: child_h,
                        key: child,
                        parent: i as u32,
                        step: m,
                        slot: slot as u32,
                    });
                }
            }
        }
        if outcome.stopped_by.is_some() {
            break;
        }
        g += 1;
        stats.max_depth = u64::from(g);
        if let Some((parent, step)) = found {
            back.push(vec![(parent, step)]);
            outcome.moves = Some(path(&back, 0));
            break;
        }
        if candidates.is_empty() {
            break;
        }
        if candidates.len() > width {
            // The best `width` by value. The selection has no randomness, so runs repeat.
            candidates.select_nth_unstable_by_key(width - 1, |c| c.h);
            candidates.truncate(width);
        }
        back_bytes += candidates.len() as u64 * BACK_BYTES;
        back.push(candidates.iter().map(|c| (c.parent, c.step)).collect());
        layer_h = candidates.iter().map(|c| c.h).collect();
        // The kept states' saved bytes stay where they were written; the last depth's
        // buffer takes the next depth's candidates.
        layer_slot = candidates.iter().map(|c| c.slot).collect();
        std::mem::swap(&mut layer_saved, &mut candidates_saved);
        layer = candidates.drain(..).map(|c| c.key).collect();
        // The oldest remembered depth's set, emptied, holds the newest (no new table).
        let mut kept = if recent.len() == 2 * REMEMBERED {
            recent.pop_front().unwrap_or_default()
        } else {
            FxHashSet::default()
        };
        kept.clear();
        kept.extend(layer.iter().cloned());
        recent.push_back(kept);
        stats.max_open = stats.max_open.max(layer.len() as u64);
    }
    stats.seconds = meter.seconds();
    stats.final_open = layer.len() as u64;
    outcome.stats = stats;
    // Stopped by a limit between two depths: `back` leads to every state of `layer`.
    let prefix = (outcome.moves.is_none() && outcome.stopped_by.is_some() && !back.is_empty())
        .then(|| {
            let best = (0..layer_h.len()).min_by_key(|&i| layer_h[i]);
            best.map(|i| path(&back, i as u32))
        })
        .flatten();
    (outcome, prefix)
}

/// The capacities of what a beam holds as a depth begins, to bound its memory before the
/// depth allocates anything.
struct Held {
    /// Bytes of the kept states' parents and moves, every depth so far.
    back: u64,
    /// Capacity and length of each remembered depth's set.
    remembered: Vec<(usize, usize)>,
    /// Capacities of the current depth's keys, values, slots and saved heuristic states
    /// (bytes).
    layer: usize,
    layer_h: usize,
    layer_slot: usize,
    layer_saved: usize,
    /// Capacities of the candidate buffers and of the set of generated states.
    candidates: usize,
    candidates_saved: usize,
    seen: usize,
}

impl Held {
    /// The most bytes the next depth holds at once when it generates at most `most`
    /// candidates and keeps `kept` of them, each with `saved` bytes of heuristic state (keys
    /// are held inline: they have no bytes elsewhere). Counted from the buffers' real
    /// capacities; a buffer that must grow counts its old and its new allocation, which
    /// both exist while it moves; the new depth's vectors are collected while the old
    /// ones are alive; the newest remembered set may be a new table.
    fn peak<K>(&self, most: usize, kept: usize, saved: usize) -> u64 {
        let key = size_of::<K>() as u64;
        let grown = |now: usize, need: usize, unit: u64| {
            let old = now as u64 * unit;
            if now >= need {
                old
            } else {
                old + need as u64 * unit
            }
        };
        let set = hash_table_bytes::<K>;
        let seen = if self.seen >= most {
            set(self.seen)
        } else {
            set(self.seen) + set(most)
        };
        let remembered: u64 = self
            .remembered
            .iter()
            .map(|&(capacity, _)| set(capacity))
            .sum::<u64>()
            + set(kept);
        let candidate = size_of::<Candidate<K>>() as u64;
        self.back
            + kept as u64 * BACK_BYTES
            + remembered
            // This depth, and the next collected beside it.
            + self.layer as u64 * key
            + kept as u64 * key
            + (self.layer_h + kept + self.layer_slot + kept) as u64 * 4
            // Kept as it is: the depth after this one writes its candidates into it.
            + self.layer_saved as u64
            + grown(self.candidates, most, candidate)
            + grown(self.candidates_saved, most * saved, 1)
            + seen
    }
}

/// The moves to kept state `index` of the last depth in `back`, from the start.
fn path(back: &[Vec<(u32, Move)>], mut index: u32) -> Vec<Move> {
    let mut moves = Vec::with_capacity(back.len());
    for depth in back.iter().rev() {
        let (parent, step) = depth[index as usize];
        moves.push(step);
        index = parent;
    }
    moves.reverse();
    moves
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::generate;
    use crate::heuristic::{LinearConflict, RankingSum};
    use crate::search::{bfs, Limits};
    use crate::{Board, GoalSpec};

    fn setup(size: &str) -> (Board, Puzzle) {
        let goal = GoalSpec::Standard.board(size.parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        (goal, puzzle)
    }

    fn limited(limits: Limits) -> Control<'static> {
        Control {
            limits,
            ..Control::default()
        }
    }

    /// A beam wider than the puzzle has states never drops one for width, so it is
    /// breadth-first search and finds a shortest path: checked against BFS on 3×3 boards.
    #[test]
    fn a_beam_wider_than_the_puzzle_finds_shortest_paths() {
        let (goal, puzzle) = setup("3x3");
        let mut rng = generate::rng(11);
        for _ in 0..20 {
            let start = generate::random_solvable(&goal, &mut rng);
            let tiles = puzzle.encode(&start);
            let lc = LinearConflict::new(&puzzle);
            let out = beam(&puzzle, &tiles, lc, 200_000, u32::MAX, Control::default());
            let path = out.moves.expect("a path");
            assert_eq!(start.replay(&path).unwrap(), goal);
            let optimal = bfs(&puzzle, &tiles, Control::default()).moves.unwrap();
            assert_eq!(path.len(), optimal.len(), "{start}");
        }
    }

    /// Narrow beams on 4×4 and 6×6 answer with paths that replay; wider ones are not
    /// worse on these boards, and a beam gives up at the depth it is told to.
    #[test]
    fn narrow_beams_answer_and_stop_at_their_depth() {
        for size in ["4x4", "6x6"] {
            let (goal, puzzle) = setup(size);
            let start = generate::random_solvable(&goal, &mut generate::rng(3));
            let tiles = puzzle.encode(&start);
            let mut lengths = Vec::new();
            for width in [10, 1_000] {
                let lc = LinearConflict::new(&puzzle);
                let out = beam(&puzzle, &tiles, lc, width, u32::MAX, Control::default());
                let path = out.moves.expect("a path");
                assert_eq!(start.replay(&path).unwrap(), goal, "{size} width {width}");
                assert!(out.stats.max_open <= width as u64);
                lengths.push(path.len());
            }
            assert!(lengths[1] <= lengths[0], "{size}: {lengths:?}");
            // Told that a path of the wider beam's length is no use, the same beam stops.
            let lc = LinearConflict::new(&puzzle);
            let below = lengths[1] as u32;
            let out = beam(&puzzle, &tiles, lc, 1_000, below, Control::default());
            assert!(out.moves.is_none(), "{size}");
            assert!(out.stats.max_depth < u64::from(below), "{size}");
        }
    }

    /// Linear conflict that cannot save its state, so the beam evaluates each kept state
    /// afresh.
    struct Fresh(LinearConflict);

    impl IncrementalHeuristic for Fresh {
        type Undo = <LinearConflict as IncrementalHeuristic>::Undo;
        fn init(&mut self, tiles: &[u8]) -> u32 {
            self.0.init(tiles)
        }
        fn apply(
            &mut self,
            tiles: &[u8],
            h: u32,
            tile: u8,
            from: usize,
            to: usize,
            m: Move,
        ) -> (u32, Self::Undo) {
            self.0.apply(tiles, h, tile, from, to, m)
        }
        fn undo(&mut self, undo: Self::Undo) {
            self.0.undo(undo)
        }
    }

    /// Restoring each kept state's saved heuristic state ranks the children as evaluating
    /// the state afresh does: the same paths, on 5×5 and 7×7 boards.
    #[test]
    fn saved_heuristic_states_give_the_paths_fresh_evaluations_give() {
        for (size, seed) in [("5x5", 1), ("7x7", 2)] {
            let (goal, puzzle) = setup(size);
            let start = generate::random_solvable(&goal, &mut generate::rng(seed));
            let tiles = puzzle.encode(&start);
            let lc = LinearConflict::new(&puzzle);
            assert!(lc.saved_bytes().is_some());
            let saved = beam(
                &puzzle,
                &tiles,
                lc.clone(),
                300,
                u32::MAX,
                Control::default(),
            );
            let fresh = beam(
                &puzzle,
                &tiles,
                Fresh(lc),
                300,
                u32::MAX,
                Control::default(),
            );
            let path = saved.moves.expect("a path");
            assert_eq!(start.replay(&path).unwrap(), goal);
            assert_eq!(Some(path), fresh.moves, "{size}");
            assert_eq!(saved.stats.generated, fresh.stats.generated, "{size}");
        }
    }

    /// A ranking with a part that cannot save its state (linear conflict plus [`Fresh`]) is
    /// evaluated afresh for each kept state; it ranks as linear conflict alone (every value
    /// doubled), so the paths are the same. The beam used to ask the sum to save its state
    /// anyway, and the sum panicked splitting an empty buffer.
    #[test]
    fn a_sum_whose_part_cannot_save_is_evaluated_afresh() {
        let (goal, puzzle) = setup("5x5");
        let start = generate::random_solvable(&goal, &mut generate::rng(3));
        let tiles = puzzle.encode(&start);
        let lc = LinearConflict::new(&puzzle);
        let sum = RankingSum::new(lc.clone(), Fresh(lc.clone()));
        assert!(sum.saved_bytes().is_none());
        let summed = beam(&puzzle, &tiles, sum, 300, u32::MAX, Control::default());
        let alone = beam(&puzzle, &tiles, lc, 300, u32::MAX, Control::default());
        let path = summed.moves.expect("a path");
        assert_eq!(start.replay(&path).unwrap(), goal);
        assert_eq!(Some(path), alone.moves);
    }

    /// The time and memory limits stop a beam and say so.
    #[test]
    fn limits_stop_a_beam() {
        let (goal, puzzle) = setup("12x12");
        let start = generate::random_solvable(&goal, &mut generate::rng(4));
        let tiles = puzzle.encode(&start);
        let time = limited(Limits {
            time: Some(Duration::from_millis(50)),
            ..Limits::default()
        });
        let began = std::time::Instant::now();
        let lc = LinearConflict::new(&puzzle);
        let out = beam(&puzzle, &tiles, lc, 100_000, u32::MAX, time);
        assert_eq!(out.stopped_by, Some(StopReason::Time));
        assert!(out.moves.is_none());
        assert!(began.elapsed() < Duration::from_secs(2));
        let memory = limited(Limits {
            memory_bytes: Some(1 << 20),
            ..Limits::default()
        });
        let lc = LinearConflict::new(&puzzle);
        let out = beam(&puzzle, &tiles, lc, 100_000, u32::MAX, memory);
        assert_eq!(out.stopped_by, Some(StopReason::Memory));
    }

    /// A beam stopped by a limit gives the moves to the best state of its last depth: a
    /// legal path from the start, as deep as the beam got, the same on every run (the
    /// beam stops between depths, so one node more stops it at the same one), that a
    /// narrower beam then finishes. A beam that answers gives none.
    #[test]
    fn a_beam_cut_off_gives_the_way_to_its_best_state() {
        let (goal, puzzle) = setup("6x6");
        let start = generate::random_solvable(&goal, &mut generate::rng(5));
        let tiles = puzzle.encode(&start);
        let mut lc = LinearConflict::new(&puzzle);
        for nodes in [5_000, 40_000, 300_000] {
            let control = limited(Limits {
                nodes: Some(nodes),
                ..Limits::default()
            });
            let (out, prefix) =
                beam_with_prefix(&puzzle, &tiles, lc.clone(), 2_000, u32::MAX, control);
            assert_eq!(out.stopped_by, Some(StopReason::Nodes), "{nodes}");
            assert!(out.moves.is_none());
            let prefix = prefix.expect("a cut-off beam's best state");
            assert_eq!(
                prefix.len() as u64,
                out.stats.max_depth,
                "{nodes}: as deep as it got"
            );
            let middle = start.replay(&prefix).expect("legal moves from the start");
            let h = lc.init(&puzzle.encode(&middle));
            let deeper = limited(Limits {
                nodes: Some(nodes + 1),
                ..Limits::default()
            });
            let (_, again) = beam_with_prefix(&puzzle, &tiles, lc.clone(), 2_000, u32::MAX, deeper);
            assert_eq!(
                again.as_deref(),
                Some(&prefix[..]),
                "{nodes}: the same state again"
            );
            assert!(h <= lc.init(&tiles), "{nodes}: {h} no worse than the start");
            let rest = beam(
                &puzzle,
                &puzzle.encode(&middle),
                lc.clone(),
                500,
                u32::MAX,
                Control::default(),
            )
            .moves
            .expect("a narrower beam finishes it");
            assert_eq!(middle.replay(&rest).unwrap(), goal);
        }
        // An answer is an answer: no prefix beside it.
        let (out, prefix) =
            beam_with_prefix(&puzzle, &tiles, lc, 2_000, u32::MAX, Control::default());
        assert!(out.moves.is_some() && prefix.is_none());
    }
}
