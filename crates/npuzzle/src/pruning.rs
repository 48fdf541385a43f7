//! Which move sequences a depth-first search need not try: a finite automaton over the
//! blank's moves that rejects every sequence containing a known **duplicate**, a short
//! sequence that ends on the same state as a shorter one, or as one of the same length that
//! comes first in move order (Taylor & Korf 1993).
//!
//! IDA* finds a shortest path by trying every sequence of moves; most of them reach states
//! that another sequence reaches no later (`up left down right up` and `left up right down
//! left` both end on the same state). Rejecting the second of each pair loses no shortest
//! path: take the first shortest path in shortlex order (shorter first, then move order);
//! were a rejected sequence inside it, putting the preferred equivalent in its place would
//! give a path as short and earlier in that order. The preferred sequence is legal from the
//! same cell, because duplicates are found by searching from every cell of the real board.
//!
//! [`MoveAutomaton::parent`] rejects only a move straight back (the pruning every search
//! here does, and the only one in the node counts Korf (1985) and Korf & Felner (2002)
//! published). [`MoveAutomaton::duplicates`] finds the minimal duplicates of up to `depth`
//! moves (those that contain no other) by breadth-first search from each cell, and builds
//! an Aho–Corasick automaton over (cell, move) symbols from them: the state after a path
//! is the longest end of the path that begins some duplicate, and a state that completes
//! one is dead. On the 24-puzzle, duplicates of up to 12 moves cut IDA*'s tree by about
//! half (`docs/performance.md`).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::board::neighbour;
use crate::moves::Move;
use crate::shape::Shape;

/// The state of a sequence that contains a duplicate.
pub const DEAD: u32 = u32::MAX;

/// Largest board [`MoveAutomaton::duplicates`] works on: states are packed 5 bits a cell in
/// a `u128`.
pub const MAX_AUTOMATON_CELLS: usize = 25;

/// Longest duplicates [`MoveAutomaton::duplicates`] looks for (the automaton grows about
/// twofold per move; 16 moves on the 24-puzzle is 20 MB, built in 8 s on two cores).
pub const MAX_AUTOMATON_DEPTH: usize = 16;

/// A move filter for depth-first search: start at [`start`](Self::start) for the blank's
/// cell, follow [`next`](Self::next) for every move; a move to [`DEAD`] is not tried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveAutomaton {
    /// `next[state * 4 + move]`.
    next: Vec<u32>,
    /// The state at the start of a search, per blank cell.
    start: Vec<u32>,
    /// Longest duplicate looked for (2 for [`parent`](Self::parent)).
    depth: usize,
    /// Duplicates found (0 for [`parent`](Self::parent)).
    duplicates: usize,
}

impl MoveAutomaton {
    /// Rejects only the move straight back: states are the last move (0 to 3) or none (4).
    pub fn parent() -> MoveAutomaton {
        let mut next = Vec::with_capacity(5 * 4);
        for last in 0..5u32 {
            for mi in 0..4u32 {
                // Move::ALL is up, left, right, down: the opposite of index i is 3 - i.
                next.push(if last < 4 && mi == 3 - last { DEAD } else { mi });
            }
        }
        MoveAutomaton {
            next,
            start: Vec::new(),
            depth: 2,
            duplicates: 0,
        }
    }

    /// Rejects every duplicate of up to `depth` moves on `shape` (see the module docs).
    /// `None` above [`MAX_AUTOMATON_CELLS`] cells or [`MAX_AUTOMATON_DEPTH`] moves.
    pub fn duplicates(shape: Shape, depth: usize) -> Option<MoveAutomaton> {
        MoveAutomaton::duplicates_until(shape, depth, None)
    }

    /// [`duplicates`](Self::duplicates), given up (`None`) once `deadline` passes: on the
    /// 24-puzzle the search for duplicates of 14 moves takes seconds, which a search's time
    /// limit must cover.
    pub fn duplicates_until(
        shape: Shape,
        depth: usize,
        deadline: Option<Instant>,
    ) -> Option<MoveAutomaton> {
        let n = shape.cells();
        if !(2..=MAX_AUTOMATON_CELLS).contains(&n) || depth > MAX_AUTOMATON_DEPTH {
            return None;
        }
        let neighbours: Vec<[Option<usize>; 4]> = (0..n)
            .map(|c| Move::ALL.map(|m| neighbour(shape, c, m)))
            .collect();
        let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
        let found = find_duplicates(&neighbours, depth.max(2), deadline, threads)?;
        Some(build(&neighbours, &found, depth.max(2)))
    }

    /// The state at the start of a search with the blank on `blank`.
    #[inline]
    pub fn start(&self, blank: usize) -> u32 {
        self.start.get(blank).copied().unwrap_or(4)
    }

    /// The state after move `mi` (its index in [`Move::ALL`]) from `state`: [`DEAD`] when
    /// the sequence now ends with a duplicate.
    #[inline(always)]
    pub fn next(&self, state: u32, mi: usize) -> u32 {
        self.next[state as usize * 4 + mi]
    }

    /// The transition table, `[state * 4 + move]`, for kernels that keep it in a local.
    #[inline]
    pub fn table(&self) -> &[u32] {
        &self.next
    }

    /// The state after a sequence of moves from the start with the blank on `blank`
    /// ([`DEAD`] once it contains a duplicate).
    pub fn walk(&self, blank: usize, moves: &[Move]) -> u32 {
        moves
            .iter()
            .try_fold(self.start(blank), |s, &m| {
                let t = self.next(s, m.index());
                (t != DEAD).then_some(t)
            })
            .unwrap_or(DEAD)
    }

    /// Longest duplicate looked for: 2 when only the move back is rejected.
    pub fn depth(&self) -> usize {
        self.depth
    }

    /// The minimal duplicates the automaton was built from: every sequence it rejects
    /// contains one.
    pub fn duplicates_found(&self) -> usize {
        self.duplicates
    }

    /// States of the automaton.
    pub fn states(&self) -> usize {
        self.next.len() / 4
    }

    /// Bytes of the transition table.
    pub fn bytes(&self) -> usize {
        self.next.len() * 4
    }
}

/// Longest duplicates `--optimal` prunes on a board of `cells` cells, if any: 14 moves on
/// the 24-puzzle (built in about 1 s on two cores and 2 s on one, 4 MB; IDA* generates about
/// half the nodes, see `docs/performance.md`), 12 on boards of 16 to 24 cells such as the
/// 15-puzzle (0.05 s on 4×4), none on smaller boards (their searches take less time than
/// building the automaton).
pub fn optimal_depth(cells: usize) -> Option<usize> {
    match cells {
        25 => Some(14),
        16..=24 => Some(12),
        _ => None,
    }
}

/// Longest duplicates the anytime engine's depth-first searches prune (its weighted IDA*,
/// the lookahead and the proof) when a time budget ends the run (plain `solve` from 17
/// cells, as the plan decides): 12 moves. Built in 0.1 s on 4×5 and 3×7 and 0.2 to 0.35 s
/// on 5×5; the 14-move automaton `--optimal` uses on 5×5 takes 1 to 2 s, and gave the same
/// answers on the boards measured (`docs/performance.md`). No automaton is built past
/// [`MAX_AUTOMATON_CELLS`].
pub fn anytime_depth(cells: usize) -> Option<usize> {
    (cells <= MAX_AUTOMATON_CELLS).then_some(12)
}

/// The automaton for `shape` and `depth`, built once per process and shared; `None` also
/// when `deadline` passes before it is built (a later call tries again).
pub fn shared(shape: Shape, depth: usize, deadline: Option<Instant>) -> Option<Arc<MoveAutomaton>> {
    type Built = Mutex<HashMap<(Shape, usize), Arc<MoveAutomaton>>>;
    static BUILT: OnceLock<Built> = OnceLock::new();
    let built = BUILT.get_or_init(|| Mutex::new(HashMap::default()));
    // Held while building, so that threads asking for the same automaton build it once.
    let mut built = built
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(a) = built.get(&(shape, depth)) {
        return Some(Arc::clone(a));
    }
    let a = Arc::new(MoveAutomaton::duplicates_until(shape, depth, deadline)?);
    built.insert((shape, depth), Arc::clone(&a));
    Some(a)
}

/// A sequence of moves from the blank on `cell` (2 bits each, the first lowest).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Sequence {
    cell: u8,
    len: u8,
    moves: u64,
}

impl Sequence {
    fn moves(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.len).map(|i| (self.moves >> (2 * i) & 3) as usize)
    }

    /// A key for a set of sequences from one cell: the moves, and the length above them.
    fn key(&self) -> u64 {
        self.moves | u64::from(self.len) << 40
    }

    /// The sequence without its first move, from the cell that move takes the blank to.
    fn without_first(&self, neighbours: &[[Option<usize>; 4]]) -> Sequence {
        let to = neighbours[usize::from(self.cell)][(self.moves & 3) as usize];
        Sequence {
            cell: to.expect("a legal sequence") as u8,
            len: self.len - 1,
            moves: self.moves >> 2,
        }
    }
}

/// Every **minimal** duplicate of 2 to `depth` moves from every cell: a sequence that is not
/// the first (in shortlex order) to reach its state, while every proper beginning and every
/// proper end of it is (from the cell where that end begins).
///
/// Minimal ones suffice: a sequence that contains a later one is itself later (put the
/// earlier one in its place), so a sequence is a duplicate exactly when it contains a minimal
/// one, and an automaton given more duplicates would reject the same sequences with more
/// states. They are also cheap to recognise. Only first sequences are extended, so a
/// sequence's proper beginnings are first; and its proper ends nest, so they are all first
/// when the longest (all but its first move) is. So two passes over the cells: the first
/// lists the first sequences of 2 to `depth - 1` moves from each cell, the second keeps each
/// sequence that is not first but whose longest proper end is on its cell's list. (The
/// second pass searches again what the first did, a little under half its work, because the
/// end begins on another cell: one pass would have to keep every cell's later sequences,
/// or every cell's states at once, until all cells were searched.) The cells of a pass are
/// searched on `threads` threads; the result does not depend on how many.
///
/// `None` once `deadline` passes (looked at between cells).
fn find_duplicates(
    neighbours: &[[Option<usize>; 4]],
    depth: usize,
    deadline: Option<Instant>,
    threads: usize,
) -> Option<Vec<Sequence>> {
    let cells = Cells {
        n: neighbours.len(),
        deadline,
        threads,
    };
    let first: Vec<HashSet<u64>> = cells.each(|cell| {
        let mut first = HashSet::default();
        search_from(neighbours, cell, depth - 1, |seq, is_first| {
            if is_first && seq.len >= 2 {
                first.insert(seq.key());
            }
        });
        first
    })?;
    let found = cells.each(|cell| {
        let mut found = Vec::new();
        search_from(neighbours, cell, depth, |seq, is_first| {
            if !is_first {
                let end = seq.without_first(neighbours);
                if seq.len < 3 || first[usize::from(end.cell)].contains(&end.key()) {
                    found.push(seq);
                }
            }
        });
        found
    })?;
    Some(found.into_iter().flatten().collect())
}

/// The cells of a board, searched from in turn by some threads until a deadline.
///
/// Scoped threads of its own rather than rayon's pool: the build runs under [`shared`]'s
/// lock, and a rayon thread waiting for its cells may take up other queued work meanwhile,
/// such as another instance of a batch, which would ask for that lock on the thread that
/// holds it.
struct Cells {
    n: usize,
    deadline: Option<Instant>,
    threads: usize,
}

impl Cells {
    /// `work(cell)` for every cell, in cell order; `None` once the deadline passes (looked
    /// at before each cell).
    fn each<T: Send>(&self, work: impl Fn(usize) -> T + Sync) -> Option<Vec<T>> {
        let next = AtomicUsize::new(0);
        let late = AtomicBool::new(false);
        let run = || {
            let mut done = Vec::new();
            loop {
                let cell = next.fetch_add(1, Ordering::Relaxed);
                if cell >= self.n {
                    break;
                }
                if self.deadline.is_some_and(|d| Instant::now() >= d) {
                    late.store(true, Ordering::Relaxed);
                    break;
                }
                done.push((cell, work(cell)));
            }
            done
        };
        let mut done: Vec<(usize, T)> = std::thread::scope(|s| {
            // A helper the system refuses to start leaves its cells to the others.
            let helpers: Vec<_> = (1..self.threads.clamp(1, self.n))
                .filter_map(|_| std::thread::Builder::new().spawn_scoped(s, run).ok())
                .collect();
            let mut done = run();
            for h in helpers {
                done.extend(h.join().expect("a search from a cell does not panic"));
            }
            done
        });
        if late.load(Ordering::Relaxed) {
            return None;
        }
        done.sort_by_key(|&(cell, _)| cell);
        Some(done.into_iter().map(|(_, t)| t).collect())
    }
}

/// Breadth-first search over the move sequences of 1 to `depth` moves from `cell`, in
/// shortlex order, extending only the first to reach their states: `visit` is told of each
/// sequence one move longer than a first one (those are all the sequences whose proper
/// beginnings are first) whether it is first too. Tiles are labelled by their starting
/// cell, so two sequences reach the same state only when they move every tile alike.
fn search_from(
    neighbours: &[[Option<usize>; 4]],
    cell: usize,
    depth: usize,
    mut visit: impl FnMut(Sequence, bool),
) {
    let n = neighbours.len();
    let start: u128 = (0..n).fold(0, |s, c| s | (c as u128) << (5 * c));
    let mut seen: HashSet<u128> = HashSet::default();
    seen.insert(start);
    let empty = Sequence {
        cell: cell as u8,
        len: 0,
        moves: 0,
    };
    // (sequence, blank cell, state) of the first sequences of the last depth.
    let mut layer = vec![(empty, cell, start)];
    for d in 1..=depth {
        let mut next_layer = Vec::new();
        for &(seq, blank, state) in &layer {
            for (mi, to) in neighbours[blank].iter().enumerate() {
                let Some(to) = *to else { continue };
                let child = Sequence {
                    cell: seq.cell,
                    len: seq.len + 1,
                    moves: seq.moves | (mi as u64) << (2 * seq.len),
                };
                // Slide the tile on `to` onto `blank`.
                let tile = state >> (5 * to) & 31;
                let blank_label = state >> (5 * blank) & 31;
                let moved = state & !(31 << (5 * to)) & !(31 << (5 * blank))
                    | tile << (5 * blank)
                    | blank_label << (5 * to);
                let is_first = seen.insert(moved);
                if is_first && d < depth {
                    next_layer.push((child, to, moved));
                }
                visit(child, is_first);
            }
        }
        layer = next_layer;
    }
}

/// The Aho–Corasick automaton of the duplicates over (cell, move) symbols: one root per
/// cell (the empty sequence with the blank there), a trie of the duplicates' beginnings,
/// and for every state and move the longest end of (state's sequence + move) in the trie.
fn build(neighbours: &[[Option<usize>; 4]], found: &[Sequence], depth: usize) -> MoveAutomaton {
    let n = neighbours.len();
    // Trie: node → children, the blank's cell, whether a duplicate ends here.
    let mut children: Vec<[u32; 4]> = vec![[DEAD; 4]; n];
    let mut cell_of: Vec<usize> = (0..n).collect();
    let mut terminal: Vec<bool> = vec![false; n];
    for seq in found {
        let mut node = usize::from(seq.cell);
        for mi in seq.moves() {
            let child = children[node][mi];
            node = if child == DEAD {
                let to = neighbours[cell_of[node]][mi].expect("a legal sequence");
                children.push([DEAD; 4]);
                cell_of.push(to);
                terminal.push(false);
                let id = children.len() - 1;
                children[node][mi] = id as u32;
                id
            } else {
                child as usize
            };
        }
        terminal[node] = true;
    }
    let nodes = children.len();
    let mut fail = vec![0u32; nodes];
    let mut dead = terminal.clone();
    let mut next = vec![DEAD; nodes * 4];
    let mut queue: VecDeque<usize> = VecDeque::new();
    for root in 0..n {
        for mi in 0..4 {
            let Some(to) = neighbours[root][mi] else {
                continue;
            };
            let child = children[root][mi];
            if child == DEAD {
                next[root * 4 + mi] = to as u32;
            } else {
                fail[child as usize] = to as u32;
                next[root * 4 + mi] = child;
                queue.push_back(child as usize);
            }
        }
    }
    // Breadth first, so a node's fail state (shorter) has its transitions already.
    let mut shallow_first: Vec<usize> = (0..n).collect();
    while let Some(node) = queue.pop_front() {
        shallow_first.push(node);
        let f = fail[node] as usize;
        dead[node] |= dead[f];
        for mi in 0..4 {
            if neighbours[cell_of[node]][mi].is_none() {
                continue;
            }
            let via_fail = next[f * 4 + mi];
            let child = children[node][mi];
            if child == DEAD {
                next[node * 4 + mi] = via_fail;
            } else {
                fail[child as usize] = via_fail;
                next[node * 4 + mi] = child;
                queue.push_back(child as usize);
            }
        }
    }
    // A move into a dead state is rejected. (A fail state's own transitions may point to
    // dead states only through `next`, which this pass maps too.)
    for t in next.iter_mut() {
        if *t != DEAD && dead[*t as usize] {
            *t = DEAD;
        }
    }
    // Renumber the live states densely so the table holds nothing unreachable, the
    // shallowest first: a state `d` moves into the trie stands for one `d`-move history, so
    // the shallow ones are where searches spend most moves, and numbered together their
    // rows share cache lines.
    let mut id: HashMap<usize, u32> = HashMap::default();
    let mut order: Vec<usize> = Vec::new();
    for s in shallow_first.into_iter().filter(|&s| !dead[s]) {
        id.insert(s, order.len() as u32);
        order.push(s);
    }
    let mut table = Vec::with_capacity(order.len() * 4);
    for &s in &order {
        for mi in 0..4 {
            let t = next[s * 4 + mi];
            table.push(if t == DEAD { DEAD } else { id[&(t as usize)] });
        }
    }
    MoveAutomaton {
        next: table,
        start: (0..n).map(|c| id[&c]).collect(),
        depth,
        duplicates: found.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::random_solvable;
    use crate::goal::GoalSpec;
    use crate::heuristic::Manhattan;
    use crate::puzzle::Puzzle;
    use crate::search::{bfs, idastar, Control};
    use rand::{rngs::StdRng, SeedableRng};

    fn shape(s: &str) -> Shape {
        s.parse().unwrap()
    }

    /// Breadth-first search over (board, automaton state) pairs, following only the moves
    /// the automaton accepts: every board must still be reached, at its true distance
    /// (found by plain breadth-first search over boards).
    fn reaches_every_board_at_its_distance(shape: Shape, depth: usize) {
        let a = MoveAutomaton::duplicates(shape, depth).unwrap();
        let n = shape.cells();
        let neighbours: Vec<[Option<usize>; 4]> = (0..n)
            .map(|c| Move::ALL.map(|m| neighbour(shape, c, m)))
            .collect();
        let start: Vec<u8> = (0..n as u8).collect();
        let walk = |accept: &dyn Fn(u32, usize) -> Option<u32>| {
            let mut dist: HashMap<Vec<u8>, usize> = HashMap::default();
            dist.insert(start.clone(), 0);
            let mut seen: HashSet<(Vec<u8>, u32)> = HashSet::default();
            let mut layer = vec![(start.clone(), 0usize, a.start(0))];
            let mut d = 0;
            while !layer.is_empty() {
                d += 1;
                let mut next = Vec::new();
                for (tiles, blank, s) in layer {
                    for (mi, to) in neighbours[blank].iter().enumerate() {
                        let (Some(to), Some(s2)) = (*to, accept(s, mi)) else {
                            continue;
                        };
                        let mut t = tiles.clone();
                        t.swap(blank, to);
                        dist.entry(t.clone()).or_insert(d);
                        if seen.insert((t.clone(), s2)) {
                            next.push((t, to, s2));
                        }
                    }
                }
                layer = next;
            }
            dist
        };
        let pruned = walk(&|s, mi| Some(a.next(s, mi)).filter(|&t| t != DEAD));
        let plain = walk(&|_, mi| Some(mi as u32));
        assert_eq!(plain.len(), (1..=n).product::<usize>() / 2);
        assert_eq!(
            pruned, plain,
            "{shape}: a board is farther or unreached with pruning"
        );
    }

    #[test]
    fn pruning_keeps_every_shortest_path_on_small_boards() {
        reaches_every_board_at_its_distance(shape("2x3"), 12);
        reaches_every_board_at_its_distance(shape("2x4"), 10);
    }

    /// Every sequence of 1 to `depth` moves from every cell, in shortlex order (shorter
    /// first, then by move index), with the cells the blank visits.
    fn all_sequences(shape: Shape, depth: usize) -> Vec<(usize, Vec<usize>, Vec<usize>)> {
        let n = shape.cells();
        let mut out = Vec::new();
        for cell in 0..n {
            let mut layer: Vec<(Vec<usize>, Vec<usize>)> = vec![(Vec::new(), vec![cell])];
            for _ in 0..depth {
                let mut next = Vec::new();
                for (moves, cells) in &layer {
                    for (mi, m) in Move::ALL.iter().enumerate() {
                        if let Some(to) = neighbour(shape, *cells.last().unwrap(), *m) {
                            let mut moves = moves.clone();
                            moves.push(mi);
                            let mut cells = cells.clone();
                            cells.push(to);
                            next.push((moves, cells));
                        }
                    }
                }
                out.extend(next.iter().map(|(m, c)| (cell, m.clone(), c.clone())));
                layer = next;
            }
        }
        out
    }

    /// The automaton's language, checked against its definition by brute force: a
    /// sequence of up to `depth` moves is rejected exactly when an earlier sequence (in
    /// shortlex order) from the same cell moves every tile alike.
    fn rejects_exactly_the_later_sequences(shape: Shape, depth: usize) {
        let a = MoveAutomaton::duplicates(shape, depth).unwrap();
        let n = shape.cells();
        // The empty sequence comes first from every cell.
        let mut first: HashMap<(usize, Vec<u8>), usize> = (0..n)
            .map(|cell| ((cell, (0..n as u8).collect()), usize::MAX))
            .collect();
        let mut later_ones: HashMap<(usize, Vec<usize>), bool> = HashMap::default();
        for (i, (cell, moves, cells)) in all_sequences(shape, depth).into_iter().enumerate() {
            let mut tiles: Vec<u8> = (0..n as u8).collect();
            for w in cells.windows(2) {
                tiles.swap(w[0], w[1]);
            }
            let later = *first.entry((cell, tiles)).or_insert(i) != i;
            let path: Vec<Move> = moves.iter().map(|&mi| Move::ALL[mi]).collect();
            assert_eq!(
                a.walk(cell, &path) == DEAD,
                later,
                "{shape}, from cell {cell}: {path:?}"
            );
            later_ones.insert((cell, moves), later);
        }
        // Built from the minimal ones only: later, with every proper beginning and end first.
        let is_later = |cell: usize, moves: &[usize]| later_ones[&(cell, moves.to_vec())];
        let minimal = later_ones
            .iter()
            .filter(|&(&(cell, ref moves), &later)| {
                let next = neighbour(shape, cell, Move::ALL[moves[0]]).unwrap();
                later
                    && (moves.len() < 2 || !is_later(cell, &moves[..moves.len() - 1]))
                    && (moves.len() < 2 || !is_later(next, &moves[1..]))
            })
            .count();
        assert!(minimal > 0);
        assert_eq!(a.duplicates_found(), minimal, "{shape}");
    }

    #[test]
    fn the_automaton_rejects_exactly_the_later_sequences() {
        rejects_exactly_the_later_sequences(shape("2x3"), 10);
        rejects_exactly_the_later_sequences(shape("3x3"), 9);
        rejects_exactly_the_later_sequences(shape("2x5"), 8);
    }

    #[test]
    fn the_duplicates_do_not_depend_on_the_number_of_threads() {
        let s = shape("4x4");
        let neighbours: Vec<[Option<usize>; 4]> = (0..16)
            .map(|c| Move::ALL.map(|m| neighbour(s, c, m)))
            .collect();
        let one = find_duplicates(&neighbours, 10, None, 1).unwrap();
        assert!(!one.is_empty());
        for threads in [2, 3, 40] {
            assert_eq!(
                find_duplicates(&neighbours, 10, None, threads).unwrap(),
                one
            );
        }
        let past = Instant::now() - std::time::Duration::from_millis(1);
        assert_eq!(find_duplicates(&neighbours, 10, Some(past), 2), None);
    }

    #[test]
    fn parent_rejects_only_the_move_back() {
        let a = MoveAutomaton::parent();
        for last in 0..4 {
            for mi in 0..4 {
                assert_eq!(a.next(last, mi) == DEAD, mi == 3 - last as usize);
            }
        }
        assert!((0..4).all(|mi| a.next(a.start(7), mi) != DEAD));
    }

    #[test]
    fn duplicates_reject_the_known_short_cycles() {
        let s = shape("5x5");
        let a = MoveAutomaton::duplicates(s, 12).unwrap();
        assert!(a.duplicates_found() > 0 && a.states() > 25);
        // From the centre: up then down returns; so does a full turn around a 2×2 block
        // (12 moves: the three tiles come back after three turns).
        let (u, l, r, d) = (Move::Up, Move::Left, Move::Right, Move::Down);
        assert_eq!(a.walk(12, &[u, d]), DEAD);
        let turn = [u, l, d, r];
        let three: Vec<Move> = turn.iter().cycle().take(12).copied().collect();
        assert_eq!(a.walk(12, &three), DEAD);
        assert_ne!(a.walk(12, &three[..4]), DEAD);
        // Up, left equals... nothing shorter: a path of distinct first moves is kept.
        assert_ne!(a.walk(12, &[u, l, u, l]), DEAD);
    }

    #[test]
    fn idastar_with_pruning_finds_the_bfs_length_with_fewer_nodes() {
        let goal = GoalSpec::Standard.board(shape("3x3")).unwrap();
        let plain = Puzzle::new(&goal).unwrap();
        let pruned = Puzzle::new(&goal).unwrap().with_duplicates_pruned(Some(12));
        let (mut fewer, mut total) = (0, 0);
        let mut rng = StdRng::seed_from_u64(7);
        for seed in 0..40 {
            let board = random_solvable(&goal, &mut rng);
            let tiles = plain.encode(&board);
            let want = bfs(&plain, &tiles, Control::default()).moves.unwrap().len();
            let a = idastar(&plain, &tiles, Manhattan::new(&plain), Control::default());
            let b = idastar(&pruned, &tiles, Manhattan::new(&pruned), Control::default());
            let path = b.moves.unwrap();
            assert_eq!(path.len(), want, "seed {seed}");
            assert_eq!(board.replay(&path).unwrap(), goal);
            assert!(b.stats.generated <= a.stats.generated);
            fewer += usize::from(b.stats.generated < a.stats.generated);
            total += 1;
            // Two threads: the same counts.
            let two = Control {
                threads: 2,
                ..Control::default()
            };
            let c = idastar(&pruned, &tiles, Manhattan::new(&pruned), two);
            assert_eq!(c.moves.unwrap().len(), want);
            assert_eq!(c.stats.generated, b.stats.generated);
        }
        assert!(fewer * 2 > total, "pruning cut nodes on {fewer} of {total}");
    }
}
