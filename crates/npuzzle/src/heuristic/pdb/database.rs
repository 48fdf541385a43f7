//! A partition's tables put together: the additive heuristic, with the reflected lookup,
//! evaluated from scratch or move by move in IDA*.

use std::sync::Arc;

use super::build::Progress;
use super::index::{Combinations, Permutations, MAX_PATTERN_TILES, MAX_PDB_CELLS};
use super::partition::Partition;
use super::pockets::Cells;
use super::table::PatternTable;
use super::PdbError;
use crate::heuristic::tables::{TableEvent, Tables};
use crate::heuristic::{Heuristic, IncrementalHeuristic, Manhattan};
use crate::moves::Move;
use crate::puzzle::Puzzle;

/// An additive disjoint pattern database for one goal (Korf & Felner 2002).
///
/// Each pattern's table counts only moves of its own tiles, so the values of disjoint
/// patterns add up to a lower bound. Where the board is square and the blank's goal lies on
/// the main diagonal, the board reflected about that diagonal is looked up in the same
/// tables too (a different partition of the same tiles for free) and the larger sum is
/// used.
///
/// Values are `Manhattan + 2 × Σ entries`, see [`PatternTable`].
pub struct PatternDatabase {
    partition: Partition,
    tables: Vec<Arc<PatternTable>>,
    patterns: Vec<PatternIndex>,
    views: Vec<View>,
    manhattan: Manhattan,
    /// Whether IDA* prefetches its children's entries, see [`PdbSearch::prefetch`].
    prefetch: bool,
}

/// Patterns of this many tiles or more make IDA* prefetch its children's entries.
///
/// Measured on the 15- and 24-puzzles (`docs/performance.md`): with 7 or 8 tiles the
/// arrangement-rank rows (5 MB for 8 tiles) miss the cache too, and each lookup is a chain
/// of two misses (row, then entry) that the processor cannot overlap by itself; prefetching
/// both for every child, with the rows laid out by rank, made 7-8 about 1.35 times faster.
/// With at most 6 tiles the rows stay in cache, the processor already overlaps the entry
/// misses of siblings (it predicts that a child is pruned and runs on to the next), and
/// prefetching made 6-6-6-6 slower (0.82 times the speed).
const PREFETCH_FROM_TILES: usize = 7;

/// How placements of one pattern are ranked.
struct PatternIndex {
    combos: Arc<Combinations>,
    perms: &'static Permutations,
}

/// The board seen directly or reflected: real cells and tiles mapped onto the partition.
struct View {
    /// `cell[c]`: where real cell `c` lies in this view.
    cell: Vec<u8>,
    /// `pattern[t]`: the pattern of real tile `t` in this view (unused for the blank).
    pattern: Vec<u8>,
    /// `rank[t]`: tile `t`'s number within its pattern (the order of its view goal cell).
    rank: Vec<u8>,
}

impl PatternDatabase {
    /// [`new`](Self::new) without progress reports: the database alone, its tables taken
    /// from `tables` (memory, cache directory, or built).
    ///
    /// # Errors
    /// [`PdbError::GoalMismatch`] when the partition was made for another shape or blank
    /// cell than the puzzle's goal.
    pub fn from_tables(
        puzzle: &Puzzle,
        partition: &Partition,
        tables: &Tables,
    ) -> Result<PatternDatabase, PdbError> {
        Ok(Self::new(puzzle, partition, tables, &mut super::keep_going)?.0)
    }

    /// The database of `partition` for `puzzle`'s goal, its tables taken from `tables`
    /// (memory, cache directory, or built). Returns what happened to each table.
    ///
    /// # Errors
    /// [`PdbError::GoalMismatch`] when the partition was made for another shape or blank
    /// cell than the puzzle's goal; [`PdbError::Stopped`] when `progress` stopped a build.
    pub fn new(
        puzzle: &Puzzle,
        partition: &Partition,
        tables: &Tables,
        progress: &mut Progress<'_>,
    ) -> Result<(PatternDatabase, Vec<TableEvent>), PdbError> {
        let shape = puzzle.shape;
        let n = shape.cells();
        if partition.shape() != shape || usize::from(puzzle.goal_cell[0]) != partition.blank() {
            return Err(PdbError::GoalMismatch);
        }
        let mut held = Vec::new();
        let mut events = Vec::new();
        let mut patterns = Vec::new();
        for key in partition.keys() {
            let (t, e) = tables.pattern(&key, progress)?;
            held.push(t);
            events.push(e);
            patterns.push(PatternIndex {
                combos: Combinations::get(n, key.cells.len()),
                perms: Permutations::get(key.cells.len()),
            });
        }
        let identity: Vec<u8> = (0..n as u8).collect();
        let mut views = vec![view(puzzle, partition, &identity)];
        if partition.reflectable() {
            let transpose: Vec<u8> = (0..n)
                .map(|c| {
                    let (r, col) = shape.coords(c);
                    shape.cell(col, r) as u8
                })
                .collect();
            views.push(view(puzzle, partition, &transpose));
        }
        let prefetch = partition
            .patterns()
            .iter()
            .any(|cells| cells.len() >= PREFETCH_FROM_TILES);
        Ok((
            PatternDatabase {
                partition: partition.clone(),
                tables: held,
                patterns,
                views,
                manhattan: Manhattan::new(puzzle),
                prefetch,
            },
            events,
        ))
    }

    /// The partition.
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// Whether the reflected lookup is used.
    pub fn reflected(&self) -> bool {
        self.views.len() == 2
    }

    /// Bytes of table data.
    pub fn bytes(&self) -> usize {
        self.tables.iter().map(|t| t.bytes()).sum()
    }

    /// The heuristic value of a state (tiles as bytes, row-major, 0 the blank).
    pub fn value(&self, tiles: &[u8]) -> u32 {
        let mut s = self.search();
        s.init(tiles)
    }

    /// A move-by-move evaluator for IDA*.
    pub fn search(&self) -> PdbSearch<'_> {
        let mut tile_pattern = [[0; MAX_PDB_CELLS]; 2];
        let mut view_cell = [[0; MAX_PDB_CELLS]; 2];
        for (v, view) in self.views.iter().enumerate() {
            tile_pattern[v][..view.pattern.len()].copy_from_slice(&view.pattern);
            view_cell[v][..view.cell.len()].copy_from_slice(&view.cell);
        }
        PdbSearch {
            db: self,
            tile_pattern,
            view_cell,
            lookups: self
                .tables
                .iter()
                .zip(&self.patterns)
                .map(|(t, idx)| Lookup {
                    data: t.data(),
                    perms: idx.perms,
                    sets: idx.combos.count(),
                    cells: t.key().regions.then(|| Cells::new(t.key().shape)),
                    placements: idx.combos.count() * idx.perms.count(),
                })
                .collect(),
            md: 0,
            sums: [0; 2],
            states: [
                vec![PatternState::default(); self.tables.len()],
                vec![PatternState::default(); self.tables.len()],
            ],
            saved: Vec::new(),
        }
    }
}

/// The occupied set's rank after the tile at arrangement position `i` (cell `a`) is
/// lifted to position `j` (cell `b`), past the pattern's tiles between the two cells.
///
/// The rank is `Σ C(c, idx + 1)` over the occupied cells `c` in ascending order (`idx`
/// their order): the moved cell's term changes, and each cell passed over moves one
/// place, down when the tile moves up the order (`a < b`), up otherwise.
#[inline(always)]
fn set_rank_after_lift(old: PatternState, a: usize, b: usize, i: usize, j: usize) -> u32 {
    let c = &BINOMIAL;
    let mut set = old.set - c[a][i + 1] + c[b][j + 1];
    let (low, high) = (a.min(b), a.max(b));
    // The occupied cells strictly between the two, in ascending order.
    let mut between = old.mask & ((1u64 << high) - 1) & !((2u64 << low) - 1);
    let mut idx = if a < b { i + 1 } else { j };
    while between != 0 {
        let cell = between.trailing_zeros() as usize;
        set = if a < b {
            set - c[cell][idx + 1] + c[cell][idx]
        } else {
            set - c[cell][idx + 1] + c[cell][idx + 2]
        };
        idx += 1;
        between &= between - 1;
    }
    set
}

/// `BINOMIAL[n][r]` = `C(n, r)` for every cell number `n` and every term `r` a set rank
/// update reads (Pascal's triangle, at compile time). Values past `u32::MAX` (`C(64, 9)`,
/// say) saturate: the patterns a partition allows never read them, their set ranks being
/// `u32` (see `Combinations`).
static BINOMIAL: [[u32; MAX_PATTERN_TILES + 2]; MAX_PDB_CELLS + 1] = {
    let mut c = [[0u32; MAX_PATTERN_TILES + 2]; MAX_PDB_CELLS + 1];
    let mut n = 0;
    while n <= MAX_PDB_CELLS {
        c[n][0] = 1;
        let mut r = 1;
        while r < MAX_PATTERN_TILES + 2 {
            if n > 0 {
                c[n][r] = c[n - 1][r - 1].saturating_add(c[n - 1][r]);
            }
            r += 1;
        }
        n += 1;
    }
    c
};

fn view(puzzle: &Puzzle, partition: &Partition, map: &[u8]) -> View {
    let n = puzzle.cells();
    let mut pattern_of_cell = vec![u8::MAX; n];
    let mut rank_of_cell = vec![u8::MAX; n];
    for (p, cells) in partition.patterns().iter().enumerate() {
        for (q, &c) in cells.iter().enumerate() {
            pattern_of_cell[usize::from(c)] = p as u8;
            rank_of_cell[usize::from(c)] = q as u8;
        }
    }
    let mut pattern = vec![0u8; n];
    let mut rank = vec![0u8; n];
    for t in 1..n {
        let goal = usize::from(map[usize::from(puzzle.goal_cell[t])]);
        pattern[t] = pattern_of_cell[goal];
        rank[t] = rank_of_cell[goal];
        debug_assert!(pattern[t] != u8::MAX, "every tile is in a pattern");
    }
    View {
        cell: map.to_vec(),
        pattern,
        rank,
    }
}

impl Heuristic for PatternDatabase {
    fn estimate(&self, tiles: &[u8]) -> f64 {
        f64::from(self.value(tiles))
    }
    /// The tables (shared with the process's other searches of the same pattern, but held
    /// while this search runs) and the Manhattan tables beside them.
    fn heap_bytes(&self) -> u64 {
        self.tables.iter().map(|t| t.data.len() as u64).sum::<u64>() + self.manhattan.heap_bytes()
    }
}

/// One pattern's placement in one view, as IDA* tracks it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PatternState {
    /// Occupied cells.
    mask: u64,
    /// Their colexicographic rank (`Combinations::rank(mask)`), kept up to date move by move.
    set: u32,
    /// The arrangement's rank.
    pi: u32,
    entry: u32,
}

/// [`PatternDatabase`] as an [`IncrementalHeuristic`]: a move changes one pattern per view,
/// and only that pattern's index is updated (Korf & Felner 2002). Following the split
/// ranking of `index.rs`, a horizontal move changes only the occupied set; a vertical one
/// also rotates the arrangement, one table lookup.
#[derive(Clone)]
pub struct PdbSearch<'a> {
    db: &'a PatternDatabase,
    /// `View::pattern` of each view, in place: a fixed-size array indexed by a tile below
    /// `MAX_PDB_CELLS` needs no bounds check and no pointer to follow.
    tile_pattern: [[u8; MAX_PDB_CELLS]; 2],
    /// `View::cell` of each view, in place, likewise.
    view_cell: [[u8; MAX_PDB_CELLS]; 2],
    /// Per pattern, what a lookup needs, borrowed once rather than per node.
    lookups: Vec<Lookup<'a>>,
    md: u32,
    sums: [u32; 2],
    states: [Vec<PatternState>; 2],
    /// What each applied move that changed the state replaced, the last move's on top.
    saved: Vec<Replaced>,
}

/// What a move that changed the state replaced, kept on `PdbSearch::saved` rather than in
/// the undo record: IDA* holds a record across each child's search, and one of this size
/// is returned through memory, written field by field by `apply_cut` and copied at once by
/// the caller, whose wide reads of the fresh narrow writes stalled the processor (a store
/// that cannot be forwarded to the load; measured in `docs/performance.md`).
#[derive(Clone, Copy, Debug)]
struct Replaced {
    md: u32,
    sums: [u32; 2],
    pattern: [u8; 2],
    old: [PatternState; 2],
}

/// One pattern's table and rankers.
#[derive(Clone)]
struct Lookup<'a> {
    data: &'a [u8],
    perms: &'static Permutations,
    /// Occupied sets of the pattern, `C(n, k)`.
    sets: usize,
    /// For a table that keeps the blank's region, the board's cells.
    cells: Option<Cells>,
    /// Placements, `C(n, k) × k!`: with the blank's region kept, the pockets' entries
    /// follow the others.
    placements: usize,
}

impl Lookup<'_> {
    /// The table index of the placement `state` (its entry aside), the blank on (view)
    /// cell `blank`.
    #[inline(always)]
    fn index(&self, state: &PatternState, blank: usize) -> usize {
        let index = super::index::entry_index(state.set, state.pi, self.sets);
        match self.cells {
            None => index,
            // Without a branch (see `pockets.rs`): the pockets' entries follow the others.
            Some(cells) => {
                index + usize::from(cells.in_pocket(state.mask, blank)) * self.placements
            }
        }
    }

    /// The entry of the placement `state`, the blank on (view) cell `blank`.
    #[inline(always)]
    fn entry(&self, state: &PatternState, blank: usize) -> u32 {
        let index = self.index(state, blank);
        u32::from(self.data[index >> 1] >> ((index & 1) * 4)) & 0xF
    }
}

/// What [`PdbSearch::undo`] needs: whether the move changed the state (what it replaced is
/// on the search's own stack, so moves are undone last first). A move whose value reached
/// `apply_cut`'s cut changed nothing.
#[derive(Clone, Copy, Debug)]
pub struct PdbUndo(bool);

impl PdbSearch<'_> {
    fn value(&self) -> u32 {
        self.md + 2 * self.sums[0].max(self.sums[1])
    }

    /// In view `v`, when tile `t` moves from cell `from` to cell `to`: its pattern, that
    /// pattern's state before the move, its state after (without the entry), and the
    /// blank's view cell after (`from`'s).
    #[inline(always)]
    fn moved(
        &self,
        v: usize,
        t: usize,
        from: usize,
        to: usize,
    ) -> (usize, PatternState, PatternState, usize) {
        let p = usize::from(self.tile_pattern[v][t % MAX_PDB_CELLS]);
        let a = usize::from(self.view_cell[v][from % MAX_PDB_CELLS]);
        let b = usize::from(self.view_cell[v][to % MAX_PDB_CELLS]);
        let old = self.states[v][p];
        let mask = old.mask ^ (1 << a) ^ (1 << b);
        // The tile's position in the arrangement before (among the occupied cells below
        // `a`) and after (below `b`).
        let i = (old.mask & ((1u64 << a) - 1)).count_ones() as usize;
        let j = (mask & ((1u64 << b) - 1)).count_ones() as usize;
        let (pi, set) = if i == j {
            // A horizontal move, or a vertical one past no other tile of the pattern: the
            // arrangement stays, and only the moved cell's term of the set's rank changes.
            let c = &BINOMIAL;
            (old.pi, old.set - c[a][i + 1] + c[b][i + 1])
        } else {
            (
                self.lookups[p].perms.moved(i, j, old.pi),
                set_rank_after_lift(old, a, b, i, j),
            )
        };
        let new = PatternState {
            mask,
            set,
            pi,
            entry: 0,
        };
        (p, old, new, a)
    }

    /// [`moved`](Self::moved) with the new state's entry read from the table, and view
    /// `v`'s sum after the move.
    #[inline(always)]
    fn looked_up(
        &self,
        v: usize,
        t: usize,
        from: usize,
        to: usize,
    ) -> (usize, PatternState, PatternState, u32) {
        let (p, old, mut new, blank) = self.moved(v, t, from, to);
        new.entry = self.lookups[p].entry(&new, blank);
        (p, old, new, self.sums[v] + new.entry - old.entry)
    }
}

impl IncrementalHeuristic for PdbSearch<'_> {
    type Undo = PdbUndo;
    const READS_TILES: bool = false;

    fn init(&mut self, tiles: &[u8]) -> u32 {
        let db = self.db;
        // Moves applied before (say, by a search stopped part-way) are not undone now.
        self.saved.clear();
        self.md = db.manhattan.total(tiles);
        self.sums = [0; 2];
        let blank = tiles.iter().position(|&t| t == 0).unwrap_or(0);
        for (v, view) in db.views.iter().enumerate() {
            let view_blank = usize::from(view.cell[blank]);
            // Arrangement of each pattern in view-cell order.
            let mut by_cell: Vec<(u8, u8, u8)> = tiles
                .iter()
                .enumerate()
                .filter(|&(_, &t)| t != 0)
                .map(|(c, &t)| {
                    let t = usize::from(t);
                    (view.cell[c], view.pattern[t], view.rank[t])
                })
                .collect();
            by_cell.sort_unstable();
            for p in 0..db.tables.len() {
                let arr: Vec<u8> = by_cell
                    .iter()
                    .filter(|e| usize::from(e.1) == p)
                    .map(|e| e.2)
                    .collect();
                let mask = by_cell
                    .iter()
                    .filter(|e| usize::from(e.1) == p)
                    .fold(0u64, |m, e| m | 1 << e.0);
                let pi = super::index::rank(&arr);
                let set = db.patterns[p].combos.rank(mask);
                let mut state = PatternState {
                    mask,
                    set,
                    pi,
                    entry: 0,
                };
                state.entry = self.lookups[p].entry(&state, view_blank);
                self.states[v][p] = state;
                self.sums[v] += state.entry;
            }
        }
        self.value()
    }

    #[inline]
    fn apply(
        &mut self,
        tiles: &[u8],
        h: u32,
        tile: u8,
        from: usize,
        to: usize,
        m: Move,
    ) -> (u32, PdbUndo) {
        self.apply_cut(tiles, h, tile, from, to, m, u32::MAX)
    }

    /// The direct view first; when its sum alone reaches `cut`, the reflected lookup (the
    /// second table read, most often a cache miss) is skipped: the value is the larger of
    /// the two sums, so it is at least `cut` either way. A value at or above `cut` leaves
    /// the state as it was (the child is pruned, and undoing it costs nothing); below it,
    /// what the move replaces is pushed on `saved` for `undo`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn apply_cut(
        &mut self,
        _: &[u8],
        _: u32,
        tile: u8,
        from: usize,
        to: usize,
        m: Move,
        cut: u32,
    ) -> (u32, PdbUndo) {
        let db = self.db;
        let t = usize::from(tile);
        let md = self
            .md
            .wrapping_add_signed(db.manhattan.delta(tile, from, m));
        let (p0, old0, new0, sum0) = self.looked_up(0, t, from, to);
        let direct = md + 2 * sum0;
        if direct >= cut {
            return (direct, PdbUndo(false));
        }
        let mut replaced = Replaced {
            md: self.md,
            sums: self.sums,
            pattern: [p0 as u8, 0],
            old: [old0, PatternState::default()],
        };
        let mut value = direct;
        if db.views.len() == 2 {
            let (p1, old1, new1, sum1) = self.looked_up(1, t, from, to);
            value = value.max(md + 2 * sum1);
            if value >= cut {
                return (value, PdbUndo(false));
            }
            replaced.pattern[1] = p1 as u8;
            replaced.old[1] = old1;
            self.states[1][p1] = new1;
            self.sums[1] = sum1;
        }
        self.saved.push(replaced);
        self.md = md;
        self.sums[0] = sum0;
        self.states[0][p0] = new0;
        (value, PdbUndo(true))
    }

    /// Starts reading the entries `apply` will read for this move, in both views.
    #[inline]
    fn prefetch(&self, tile: u8, from: usize, to: usize) {
        let t = usize::from(tile);
        for v in 0..self.db.views.len() {
            let (p, _, new, blank) = self.moved(v, t, from, to);
            let lookup = &self.lookups[p];
            super::prefetch::prefetch(lookup.data, lookup.index(&new, blank) >> 1);
            // If this child is expanded, its own children read this row (when they lift a
            // tile of the pattern). Both of its cache lines.
            super::prefetch::prefetch_row(lookup.perms.row(new.pi));
        }
    }

    /// For patterns of 7 tiles or more (`PREFETCH_FROM_TILES`).
    #[inline]
    fn prefetches(&self) -> bool {
        self.db.prefetch
    }

    #[inline]
    fn undo(&mut self, undo: PdbUndo) {
        if !undo.0 {
            return;
        }
        let last = self.saved.len() - 1;
        let r = &self.saved[last];
        self.md = r.md;
        self.sums = r.sums;
        for v in 0..self.db.views.len() {
            self.states[v][usize::from(r.pattern[v])] = r.old[v];
        }
        self.saved.truncate(last);
    }

    /// Manhattan distance and the views' sums, then each pattern's placement in each
    /// view: 17 bytes a pattern (on 6×6 with seven patterns and the
    /// reflection, 250 bytes; a whole-board `init` ranks every pattern afresh).
    fn saved_bytes(&self) -> Option<usize> {
        let patterns: usize = self.states.iter().map(Vec::len).sum();
        Some(12 + patterns * SAVED_PATTERN_BYTES)
    }

    fn save(&self, out: &mut [u8]) {
        out[..4].copy_from_slice(&self.md.to_le_bytes());
        out[4..8].copy_from_slice(&self.sums[0].to_le_bytes());
        out[8..12].copy_from_slice(&self.sums[1].to_le_bytes());
        let states = self.states.iter().flatten();
        for (state, o) in states.zip(out[12..].chunks_exact_mut(SAVED_PATTERN_BYTES)) {
            o[..8].copy_from_slice(&state.mask.to_le_bytes());
            o[8..12].copy_from_slice(&state.set.to_le_bytes());
            o[12..16].copy_from_slice(&state.pi.to_le_bytes());
            // An entry is 4 bits.
            o[16] = state.entry as u8;
        }
    }

    fn restore(&mut self, saved: &[u8]) {
        self.saved.clear();
        let word = |b: &[u8]| u32::from_le_bytes(b[..4].try_into().expect("four bytes"));
        self.md = word(&saved[..4]);
        self.sums = [word(&saved[4..8]), word(&saved[8..12])];
        let states = self.states.iter_mut().flatten();
        for (state, s) in states.zip(saved[12..].chunks_exact(SAVED_PATTERN_BYTES)) {
            *state = PatternState {
                mask: u64::from_le_bytes(s[..8].try_into().expect("eight bytes")),
                set: word(&s[8..12]),
                pi: word(&s[12..16]),
                entry: u32::from(s[16]),
            };
        }
    }
}

/// Bytes a pattern's placement takes in a saved state: its mask, set rank, arrangement
/// rank and entry.
const SAVED_PATTERN_BYTES: usize = 17;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GoalSpec, Shape};

    /// Move by move, the occupied-set ranks kept up to date equal ranks computed from
    /// scratch, and the value equals a fresh evaluation, on boards where a vertical move
    /// lifts a tile past up to 4 others (5 wide) and with the reflected view (square); also
    /// after the state is saved, overwritten and restored now and then. With tables that
    /// keep the blank's region too: only the moved tile's pattern looks its region up
    /// again, since the blank moves between two cells free for every other pattern.
    #[test]
    fn set_ranks_and_values_follow_random_moves() {
        let cases: [(&str, &[usize], bool); 5] = [
            ("5x5", &[3, 3, 3, 3, 3, 3, 3, 3], false),
            ("3x5", &[4, 5, 5], false),
            ("4x4", &[5, 5, 5], false),
            ("5x5", &[3, 3, 3, 3, 3, 3, 3, 3], true),
            ("3x5", &[4, 5, 5], true),
        ];
        let mut seed = 7u64;
        for (shape, sizes, regions) in cases {
            let shape: Shape = shape.parse().unwrap();
            let goal = GoalSpec::BlankFirst.board(shape).unwrap();
            let puzzle = Puzzle::new(&goal).unwrap();
            let partition = Partition::new(shape, 0, sizes)
                .and_then(|p| p.with_regions(regions))
                .unwrap();
            let tables = Tables::default();
            let db = PatternDatabase::from_tables(&puzzle, &partition, &tables).unwrap();
            let mut tiles = puzzle.encode(&goal);
            let mut search = db.search();
            let mut h = search.init(&tiles);
            let mut blank = tiles.iter().position(|&t| t == 0).unwrap();
            for _ in 0..2000 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let m = Move::ALL[(seed >> 33) as usize % 4];
                let Some(cell) = crate::board::neighbour(shape, blank, m) else {
                    continue;
                };
                let tile = tiles[cell];
                tiles[blank] = tile;
                tiles[cell] = 0;
                (h, _) = search.apply(&tiles, h, tile, cell, blank, m);
                blank = cell;
                for v in 0..db.views.len() {
                    for (p, s) in search.states[v].iter().enumerate() {
                        assert_eq!(s.set, db.patterns[p].combos.rank(s.mask), "{shape}");
                    }
                }
                assert_eq!(h, db.value(&tiles), "{shape}");
                if seed.is_multiple_of(7) {
                    // Saved, overwritten by another board, and restored: the walk goes on
                    // from the restored state, checked as above.
                    let mut saved = vec![0; search.saved_bytes().unwrap()];
                    search.save(&mut saved);
                    search.init(&puzzle.encode(&goal));
                    search.restore(&saved);
                }
            }
        }
    }

    /// `apply_cut` at a value of `cut` or more leaves the state as it was, and the true
    /// value is then at least `cut` too; below `cut` the value is exact; undoing either
    /// restores the state before the move, on a walk with moves applied and undone in
    /// nested order as IDA* does.
    #[test]
    fn cut_moves_change_nothing_and_undo_restores() {
        let shape: Shape = "5x5".parse().unwrap();
        let goal = GoalSpec::BlankFirst.board(shape).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let partition = Partition::new(shape, 0, &[3, 3, 3, 3, 3, 3, 3, 3]).unwrap();
        let tables = Tables::default();
        let db = PatternDatabase::from_tables(&puzzle, &partition, &tables).unwrap();
        assert!(db.reflected());
        let snapshot = |s: &PdbSearch<'_>| (s.md, s.sums, s.states.clone(), s.saved.len());
        let mut tiles = puzzle.encode(&goal);
        let mut search = db.search();
        let mut h = search.init(&tiles);
        let mut blank = 0;
        let mut seed = 11u64;
        let mut random = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        let (mut cut_hits, mut exact) = (0, 0);
        // The moves walked and not taken back yet, the last on top, with their undo records.
        let mut walk = Vec::new();
        for _ in 0..3000 {
            let before = snapshot(&search);
            for m in Move::ALL {
                let Some(cell) = crate::board::neighbour(shape, blank, m) else {
                    continue;
                };
                let tile = tiles[cell];
                let mut child = tiles.clone();
                child[blank] = tile;
                child[cell] = 0;
                let truth = db.value(&child);
                let cut = h.saturating_sub(2) + random(6) as u32;
                let (value, undo) = search.apply_cut(&child, h, tile, cell, blank, m, cut);
                if value >= cut {
                    assert!(truth >= cut && value <= truth, "{value} {truth} {cut}");
                    assert!(snapshot(&search) == before, "a cut move changed the state");
                    cut_hits += 1;
                } else {
                    assert_eq!(value, truth);
                    assert_eq!(search.value(), truth);
                    exact += 1;
                }
                search.undo(undo);
                assert!(snapshot(&search) == before, "undo restores the state");
            }
            // One step on, kept (an expanded child), or back now and then.
            if random(5) == 0 {
                if let Some((undo, tile, back, cell)) = walk.pop() {
                    // The tile goes back from `back` (the blank before) to `cell`.
                    search.undo(undo);
                    tiles[cell] = tile;
                    tiles[back] = 0;
                    blank = back;
                    h = search.value();
                    assert_eq!(h, db.value(&tiles));
                    continue;
                }
            }
            let m = Move::ALL[random(4) as usize];
            let Some(cell) = crate::board::neighbour(shape, blank, m) else {
                continue;
            };
            let tile = tiles[cell];
            tiles[blank] = tile;
            tiles[cell] = 0;
            let (value, undo) = search.apply(&tiles, h, tile, cell, blank, m);
            walk.push((undo, tile, blank, cell));
            blank = cell;
            h = value;
            assert_eq!(h, db.value(&tiles));
        }
        assert!(cut_hits > 1000 && exact > 1000, "{cut_hits} {exact}");
    }
}
