//! Building a pattern's table by breadth-first search backwards from the goal.
//!
//! The abstract state is the placement of the pattern's tiles plus the blank; only moves of
//! pattern tiles cost 1 (Korf & Felner 2002: that is what makes disjoint tables add up).
//! Blank moves through empty cells cost nothing, so instead of a 0-1 BFS over every blank
//! cell the search treats the blank's whole connected **region** of empty cells as one
//! state: a state is (placement, region), and every edge costs 1, so plain breadth-first
//! layers give exact distances. The search starts from the goal: tiles home, the blank in
//! the region of its goal cell (see [`TableKey`]). A table entry is the minimum over the
//! regions of a placement, i.e. over where the blank may be.
//!
//! Regions depend only on which cells are occupied (`C(16, 8)` = 12,870 sets for the 8-tile
//! pattern of the 15-puzzle), so states are numbered `slot × k! + π` where a slot is an
//! (occupied set, region) pair and `π` the arrangement's rank. For every slot the moves are
//! precomputed once as (target slot, tile lifted from position `i` to `j`), so expanding a
//! state is a table lookup per move and never unranks anything. The search keeps 2 bits per
//! state (new, this layer, next layer, done) and scans layer by layer: for the 8-tile
//! pattern 1.4 billion states in 356 MB, plus a byte per placement (519 MB) that is packed
//! into 4-bit entries at the end.

use std::ops::ControlFlow;
use std::sync::{Mutex, PoisonError};

use super::index::{self, Combinations, Permutations, MAX_PATTERN_TILES};
use super::memory::{TableMemory, WordMemory};
use super::pockets::POCKET_CELLS;
use super::table::{PatternTable, TableKey};
use crate::moves::Move;
use crate::shape::Shape;

/// Where a table build is, for progress bars.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BuildProgress {
    /// Tiles in the pattern being built.
    pub tiles: usize,
    /// Breadth-first layer being expanded (moves of pattern tiles from the goal).
    pub depth: u32,
    /// Work done so far: abstract states expanded, then, once the search is over, entries
    /// packed, each counted as [`work`]'s share of a state.
    pub expanded: u64,
    /// Work in all ([`work`]; its states are an upper bound: a few may be unreachable).
    pub total: u64,
    /// Whether the table is being read from disk rather than built: then `expanded` and
    /// `total` count the bytes read and to read, and `depth` is 0.
    pub loading: bool,
}

/// What a build reports to, now and then (many times a second): `Break` stops the build.
pub type Progress<'a> = dyn FnMut(&BuildProgress) -> ControlFlow<()> + 'a;

/// A build's progress callback that never stops it.
pub fn keep_going(_: &BuildProgress) -> ControlFlow<()> {
    ControlFlow::Continue(())
}

/// A build stopped by its progress callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildStopped;

const LOW_BITS: u64 = 0x5555_5555_5555_5555;

/// Every this many entries, packing reports its progress (and may be stopped).
const PACK_CHUNK: usize = 1 << 22;

/// Every this many bytes, filling the distances before the search reports its progress.
const FILL_CHUNK: usize = 1 << 24;

/// Every this many sets, finding the regions before the search reports its progress.
const REGIONS_CHUNK: usize = 1 << 12;

/// Builds the table for `key`, calling `progress` now and then.
///
/// # Errors
/// [`BuildStopped`] when `progress` returns `Break`; what was built is dropped.
///
/// # Panics
/// If the key is not one `Partition::new` accepts (over 64 cells, over 8 tiles, the blank
/// among the pattern's cells).
pub fn build(key: &TableKey, progress: &mut Progress<'_>) -> Result<PatternTable, BuildStopped> {
    let (shape, cells) = (key.shape, &key.cells[..]);
    let n = shape.cells();
    assert!(!cells.contains(&key.blank) && usize::from(key.blank) < n);
    let k = cells.len();
    let combos = Combinations::new(n, k);
    let masks = combos.masks();
    let sets = masks.len();
    let perms = Permutations::get(k);
    let fact = perms.count();
    let neighbours = cell_neighbours(shape);
    // The steps before the search report too, each when it ends: on 5×5's 6-tile tables
    // they take a tenth of a second or more, which a short time limit would overrun.
    let starting = BuildProgress {
        tiles: k,
        depth: 0,
        expanded: 0,
        total: build_size(key).work,
        loading: false,
    };
    let report = |progress: &mut Progress<'_>| match progress(&starting) {
        ControlFlow::Break(()) => Err(BuildStopped),
        ControlFlow::Continue(()) => Ok(()),
    };

    let regions =
        regions(n, &masks, &neighbours, &mut || report(progress).is_err()).ok_or(BuildStopped)?;
    report(progress)?;
    let slots = regions.slot_set.len();
    let home: u64 = cells.iter().fold(0, |m, &c| m | 1 << c);
    let o = combos.rank(home) as usize;
    let goal_slot = regions.slot_start[o] as usize
        + usize::from(regions.region_of[o * n + usize::from(key.blank)]);
    let (steps, step_start) = moves_out(n, &masks, &combos, &regions, &neighbours);
    report(progress)?;
    // Where each slot's distances go in the table: the rows of a table that keeps the
    // blank's region (see `pockets.rs`), or for one that does not, its set's row.
    let rows = key.regions.then(|| slot_rows(key, &regions));
    report(progress)?;
    // Only the slots' sets are needed from here on; the regions' cells go before the
    // search's memory is allocated.
    let Regions {
        slot_set,
        region_of,
        slot_start,
    } = regions;
    drop((region_of, slot_start));

    // Manhattan distance of pattern tile q on cell c, and the occupied cells of each set.
    let mut manhattan = vec![0u8; n * k];
    for c in 0..n {
        let (r, col) = shape.coords(c);
        for (q, &g) in cells.iter().enumerate() {
            let (gr, gc) = shape.coords(usize::from(g));
            manhattan[c * k + q] = (r.abs_diff(gr) + col.abs_diff(gc)) as u8;
        }
    }
    let mut occupied = vec![0u8; sets * k];
    for (o, &mask) in masks.iter().enumerate() {
        let mut m = mask;
        for j in 0..k {
            occupied[o * k + j] = m.trailing_zeros() as u8;
            m &= m - 1;
        }
    }

    let words = fact.div_ceil(32);
    // Distances are kept per slot when the table keeps the region, else per placement.
    let distances = if key.regions {
        slots * fact
    } else {
        sets * fact
    };
    // Per occupied set, the Manhattan distance of pattern tile q on its j-th cell.
    let mut md_rows = vec![0u8; sets * k * MAX_PATTERN_TILES];
    for o in 0..sets {
        for j in 0..k {
            let c = usize::from(occupied[o * k + j]);
            for q in 0..k {
                md_rows[(o * k + j) * MAX_PATTERN_TILES + q] = manhattan[c * k + q];
            }
        }
    }
    let mut b = Builder {
        fact,
        words,
        states: WordMemory::zeroed(slots * words),
        distance: TableMemory::zeroed(distances),
        per_slot: key.regions,
        slot_set,
        perms,
    };

    // The goal: every tile home (arrangement rank 0), the blank in the region of its goal
    // cell.
    let (mut current, mut next) = (1u64, 2u64);
    let states = (slots * fact) as u64;
    let entries = if key.regions { 2 * sets } else { sets } * fact;
    // `build_size` counted the same work before the build (a test checks they agree).
    let total = starting.total;
    // Filling takes a quarter of a second on 4×4's 8-tile table (its pages are first
    // touched here), so it is done in chunks, each followed by a progress report that may
    // stop the build: a time limit shorter than that is kept.
    for chunk in b.distance.chunks_mut(FILL_CHUNK) {
        chunk.fill(u8::MAX);
        report(progress)?;
    }
    b.states.words()[goal_slot * words] |= current;
    let mut expanded = 0u64;
    let mut depth = 0u32;
    let mut frontier = Frontier {
        sel: vec![0; words],
        nonzero: Vec::with_capacity(words),
        list: Vec::with_capacity(fact),
    };
    loop {
        let mut discovered = 0u64;
        for slot in 0..slots {
            b.take_frontier(slot, current, depth, &mut frontier);
            if frontier.list.is_empty() {
                continue;
            }
            expanded += frontier.list.len() as u64;
            let (s0, s1) = (step_start[slot] as usize, step_start[slot + 1] as usize);
            for step in &steps[s0..s1] {
                discovered += if step.from == step.to {
                    b.expand_in_place(step, &frontier, next)
                } else {
                    b.expand_moved(step, &frontier.list, next)
                };
            }
            if slot % 512 == 0 {
                let now = BuildProgress {
                    tiles: k,
                    depth,
                    expanded,
                    total,
                    loading: false,
                };
                if progress(&now).is_break() {
                    return Err(BuildStopped);
                }
            }
        }
        if discovered == 0 {
            break;
        }
        depth += 1;
        std::mem::swap(&mut current, &mut next);
    }
    let packing = |packed: usize| BuildProgress {
        tiles: k,
        depth,
        expanded: work(states, packed as u64, k),
        total,
        loading: false,
    };
    b.states = WordMemory::zeroed(0);
    let mut out = TableMemory::zeroed(entries.div_ceil(2));
    let mut go_on = |packed: usize| progress(&packing(packed)).is_continue();
    let capped = match &rows {
        None => {
            let distance = |o: usize, pi: usize| b.distance[o * fact + pi];
            let main = Rows::new(sets, 0, &|o| o, &distance);
            pack(&mut out, &main, k, perms, &md_rows, &mut go_on)
        }
        Some(r) => {
            let main_distance = |o: usize, pi: usize| r.distance(&b.distance, fact, o, pi);
            let main = Rows::new(sets, 0, &|o| o, &main_distance);
            let pocket_distance = |o: usize, pi: usize| r.distance(&b.distance, fact, sets + o, pi);
            let pockets = Rows::new(sets, sets * fact, &|o| o, &pocket_distance);
            pack(&mut out, &main, k, perms, &md_rows, &mut go_on).and_then(|c| {
                pack(&mut out, &pockets, k, perms, &md_rows, &mut go_on).map(|d| c + d)
            })
        }
    }
    .ok_or(BuildStopped)?;
    if entries % 2 == 1 {
        out[entries / 2] |= 0xF0;
    }
    let data = out;
    Ok(PatternTable {
        key: key.clone(),
        entries: entries as u64,
        data,
        max_distance: depth.min(255) as u8,
        capped,
    })
}

/// Moves out of every slot: a pattern tile next to the blank's region steps into it. The
/// steps of slot `s` are `steps[start[s]..start[s + 1]]`; both lists are allocated at their
/// exact length (the steps counted in a first pass, as [`build_size`] counts them).
fn moves_out(
    n: usize,
    masks: &[u64],
    combos: &Combinations,
    regions: &Regions,
    neighbours: &[Vec<usize>],
) -> (Vec<Step>, Vec<u32>) {
    let slots = regions.slot_set.len();
    let mut start = vec![0u32; slots + 1];
    each_step(n, masks, regions, neighbours, |slot, _, _| {
        start[slot + 1] += 1
    });
    for s in 0..slots {
        start[s + 1] += start[s];
    }
    let mut steps: Vec<Step> = Vec::with_capacity(start[slots] as usize);
    each_step(n, masks, regions, neighbours, |slot, a, b| {
        let mask = masks[regions.slot_set[slot] as usize];
        let after = mask ^ (1 << a) ^ (1 << b);
        let o2 = combos.rank(after) as usize;
        let r2 = regions.region_of[o2 * n + a];
        steps.push(Step {
            target: regions.slot_start[o2] + u32::from(r2),
            from: (mask & ((1u64 << a) - 1)).count_ones() as u8,
            to: (after & ((1u64 << b) - 1)).count_ones() as u8,
        });
    });
    (steps, start)
}

/// Calls `f(slot, a, b)` for every move out of every slot, slot by slot: the pattern tile
/// on cell `a` steps into the blank's region through its cell `b`.
fn each_step(
    n: usize,
    masks: &[u64],
    regions: &Regions,
    neighbours: &[Vec<usize>],
    mut f: impl FnMut(usize, usize, usize),
) {
    for (o, &mask) in masks.iter().enumerate() {
        let region_of = &regions.region_of[o * n..(o + 1) * n];
        let first = regions.slot_start[o];
        for r in 0..regions.slot_start[o + 1] - first {
            for b in (0..n).filter(|&b| u32::from(region_of[b]) == r) {
                for &a in &neighbours[b] {
                    if mask >> a & 1 == 1 {
                        f((first + r) as usize, a, b);
                    }
                }
            }
        }
    }
}

/// The cells next to each cell.
fn cell_neighbours(shape: Shape) -> Vec<Vec<usize>> {
    (0..shape.cells())
        .map(|c| {
            Move::ALL
                .iter()
                .filter_map(|&m| crate::board::neighbour(shape, c, m))
                .collect()
        })
        .collect()
}

/// Regions of empty cells for every occupied set: `region_of[o * n + c]` numbers the region
/// of free cell `c` in set `o`; the slots of set `o` (one per region) are
/// `slot_start[o]..slot_start[o + 1]`, and `slot_set` maps a slot back to its set.
struct Regions {
    region_of: Vec<u8>,
    slot_start: Vec<u32>,
    slot_set: Vec<u32>,
}

/// The regions of every set; `None` when `stop`, asked every [`REGIONS_CHUNK`] sets (the
/// whole takes a tenth of a second on 5×5's 6-tile sets), says to stop.
fn regions(
    n: usize,
    masks: &[u64],
    neighbours: &[Vec<usize>],
    stop: &mut dyn FnMut() -> bool,
) -> Option<Regions> {
    let sets = masks.len();
    let mut region_of = vec![u8::MAX; sets * n];
    let mut slot_start = Vec::with_capacity(sets + 1);
    let mut slot_set: Vec<u32> = Vec::new();
    let mut stack = Vec::with_capacity(n);
    for (o, &mask) in masks.iter().enumerate() {
        if o % REGIONS_CHUNK == 0 && stop() {
            return None;
        }
        slot_start.push(slot_set.len() as u32);
        let regions = &mut region_of[o * n..(o + 1) * n];
        let mut count = 0u8;
        for start in 0..n {
            if mask >> start & 1 == 1 || regions[start] != u8::MAX {
                continue;
            }
            regions[start] = count;
            stack.push(start);
            while let Some(c) = stack.pop() {
                for &d in &neighbours[c] {
                    if mask >> d & 1 == 0 && regions[d] == u8::MAX {
                        regions[d] = count;
                        stack.push(d);
                    }
                }
            }
            slot_set.push(o as u32);
            count += 1;
        }
    }
    slot_start.push(slot_set.len() as u32);
    // Kept through the search: no room to spare.
    slot_set.shrink_to_fit();
    Some(Regions {
        region_of,
        slot_start,
        slot_set,
    })
}

impl Regions {
    /// Whether region `r` (numbered within set `o`, on a board of `n` cells) is a pocket:
    /// at most [`POCKET_CELLS`] cells.
    fn is_pocket(&self, o: usize, r: usize, n: usize) -> bool {
        let region_of = &self.region_of[o * n..(o + 1) * n];
        region_of.iter().filter(|&&x| usize::from(x) == r).count() <= POCKET_CELLS as usize
    }
}

/// The work of a build of `k` tiles that expands `states` abstract states and packs
/// `entries` entries, in states: packing an entry costs about a twentieth of a state per
/// tile (measured: 0.07 to 0.22 of a state for 5 tiles, 0.30 for 6, 0.39 for 7, 0.43 for
/// 8), so that a progress bar's estimate of the time left still holds while the entries are
/// packed (5 to 15 % of a build).
pub fn work(states: u64, entries: u64, k: usize) -> u64 {
    states + entries * k as u64 / 20
}

/// What building a table takes, known before it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildSize {
    /// Abstract states the search may expand.
    pub states: u64,
    /// The build's work in all (the `total` of its [`BuildProgress`]): [`work`].
    pub work: u64,
    /// Entries of the table.
    pub entries: u64,
    /// Peak bytes while building: a byte per placement throughout (per slot for a table
    /// that keeps the blank's region), beside either 2 bits per state (the search) or the
    /// packed table (4 bits an entry, at the end), plus the moves
    /// out of every slot and the per-set lists (`tests/pdb_peak.rs` measures it).
    pub peak_bytes: u64,
}

/// The size of the build of `key`'s table. It depends only on the board's shape and the
/// pattern's number of tiles, and is worked out once for each in a process: counting the
/// blank's regions and the moves out of them takes 0.06 s for 6 tiles on 5×5, 0.17 s for 5
/// tiles on 6×6 and 5 s for 5 tiles on 8×8 (whose build takes minutes).
pub fn build_size(key: &TableKey) -> BuildSize {
    /// A build's shape, tiles and whether it keeps the blank's region.
    type Of = (Shape, usize, bool);
    static KNOWN: Mutex<Vec<(Of, BuildSize)>> = Mutex::new(Vec::new());
    let of = (key.shape, key.cells.len(), key.regions);
    let known = |list: &Vec<_>| list.iter().find(|(k, _)| *k == of).map(|&(_, s)| s);
    if let Some(size) = known(&KNOWN.lock().unwrap_or_else(PoisonError::into_inner)) {
        return size;
    }
    // Counted without the lock: two threads asking at once both count, and agree.
    let size = count_build_size(of.0, of.1, of.2);
    let mut list = KNOWN.lock().unwrap_or_else(PoisonError::into_inner);
    if known(&list).is_none() {
        list.push((of, size));
    }
    size
}

/// [`build_size`], counted.
fn count_build_size(shape: Shape, k: usize, keep_regions: bool) -> BuildSize {
    let n = shape.cells();
    let neighbours = cell_neighbours(shape);
    let masks = Combinations::new(n, k).masks();
    let regions = regions(n, &masks, &neighbours, &mut || false).expect("never stopped");
    let mut steps = 0u64;
    each_step(n, &masks, &regions, &neighbours, |_, _, _| steps += 1);
    let (sets, slots) = (masks.len() as u64, regions.slot_set.len() as u64);
    let fact = Permutations::get(k).count() as u64;
    // A table that keeps the blank's region has rows for its pockets too, and the search
    // keeps a distance per slot rather than per placement.
    let (rows, distances) = if keep_regions {
        (2 * sets, slots * fact)
    } else {
        (sets, sets * fact)
    };
    let entries = rows * fact;
    let words = fact.div_ceil(32);
    // What stays allocated from the search to the end: the moves out, two words a slot
    // (where its moves start, its occupied set), per occupied set its mask, its cells and
    // its rows of Manhattan distances, and a table that keeps the region its rows' slots
    // (`slot_rows`: two lists of row starts, one of them a copy used while filling that
    // the allocator may keep, and a word a slot). The regions' cells, freed before the
    // search, are not counted: whether the allocator keeps them depends on what the
    // process allocated before (in `pdb build` it does, on 5×5, about 1.5 % of the peak).
    let row_lists = if keep_regions {
        (2 * sets + 1) * 8 + slots * 4
    } else {
        0
    };
    let lists = steps * std::mem::size_of::<Step>() as u64
        + slots * 8
        + sets * (8 + k as u64 + (k * MAX_PATTERN_TILES) as u64)
        + row_lists;
    BuildSize {
        states: slots * fact,
        work: work(slots * fact, entries, k),
        entries,
        peak_bytes: distances + (slots * words * 8).max(entries.div_ceil(2)) + lists,
    }
}

/// Occupied sets packed together: their distances for every arrangement (`SET_BLOCK × k!`
/// bytes, 46 KB for 6 tiles, 2.6 MB for 8) stay in cache while the block is read
/// arrangement by arrangement.
const SET_BLOCK: usize = 64;

/// Rows of distances to pack: `count` rows of `k!` arrangements each, written from entry
/// `offset` of the table, arrangement first (`offset + pi × count + row`).
struct Rows<'a> {
    count: usize,
    offset: usize,
    /// The occupied set of a row (for its Manhattan distances).
    set: &'a dyn Fn(usize) -> usize,
    /// The distance of arrangement `pi` in a row, 255 where never reached.
    distance: &'a dyn Fn(usize, usize) -> u8,
}

impl<'a> Rows<'a> {
    fn new(
        count: usize,
        offset: usize,
        set: &'a dyn Fn(usize) -> usize,
        distance: &'a dyn Fn(usize, usize) -> u8,
    ) -> Rows<'a> {
        Rows {
            count,
            offset,
            set,
            distance,
        }
    }
}

/// Turns the distances of `rows` into 4-bit entries `(d − md) / 2` in `out`, where
/// [`index::entry_index`] puts them, arrangement first. Returns how many hit the cap of 15
/// (or were never reached, which no solvable board can meet); `None` when `go_on` (asked
/// every [`PACK_CHUNK`] entries or so, with the entries packed so far) says to stop.
///
/// Computing Manhattan distances here, in one pass, is cheaper than during the search,
/// where placements arrive in random order.
fn pack(
    out: &mut TableMemory,
    rows: &Rows<'_>,
    k: usize,
    perms: &Permutations,
    md_rows: &[u8],
    go_on: &mut dyn FnMut(usize) -> bool,
) -> Option<u64> {
    let fact = perms.count();
    let mut capped = 0u64;
    let mut unreported = 0usize;
    for first in (0..rows.count).step_by(SET_BLOCK) {
        let block = first..(first + SET_BLOCK).min(rows.count);
        unreported += block.len() * fact;
        if unreported >= PACK_CHUNK {
            if !go_on(rows.offset + first * fact) {
                return None;
            }
            unreported = 0;
        }
        for pi in 0..fact {
            let arr = perms.arrangement(pi);
            for row in block.clone() {
                let d = u32::from((rows.distance)(row, pi));
                let o = (rows.set)(row);
                let md_row = &md_rows[o * k * MAX_PATTERN_TILES..(o + 1) * k * MAX_PATTERN_TILES];
                let md: u32 = (0..k)
                    .map(|j| u32::from(md_row[j * MAX_PATTERN_TILES + usize::from(arr[j])]))
                    .sum();
                let half = if d == u32::from(u8::MAX) {
                    15
                } else {
                    debug_assert!(d >= md && (d - md).is_multiple_of(2));
                    ((d - md) / 2).min(15) as u8
                };
                capped += u64::from(half == 15);
                let i = rows.offset + index::entry_index(row as u32, pi as u32, rows.count);
                out[i / 2] |= half << ((i % 2) * 4);
            }
        }
    }
    Some(capped)
}

/// Where a table that keeps the blank's region puts each slot's distances: every set has
/// two rows, the least over its larger regions' slots and the least over its pockets'
/// (see `pockets.rs`); a row with no slot is never read.
struct SlotRows {
    /// Row `r`'s slots are `slots[start[r]..start[r + 1]]`: the larger regions' row of set
    /// `o` is row `o`, its pockets' row `sets + o`.
    start: Vec<u32>,
    slots: Vec<u32>,
}

impl SlotRows {
    /// The least distance of arrangement `pi` over row `row`'s slots, 255 if none.
    fn distance(&self, distance: &TableMemory, fact: usize, row: usize, pi: usize) -> u8 {
        let (s0, s1) = (self.start[row] as usize, self.start[row + 1] as usize);
        self.slots[s0..s1]
            .iter()
            .map(|&s| distance[s as usize * fact + pi])
            .min()
            .unwrap_or(u8::MAX)
    }
}

fn slot_rows(key: &TableKey, regions: &Regions) -> SlotRows {
    let n = key.shape.cells();
    let sets = regions.slot_start.len() - 1;
    let row_of = |o: usize, s: u32| {
        let pocket = regions.is_pocket(o, (s - regions.slot_start[o]) as usize, n);
        if pocket {
            sets + o
        } else {
            o
        }
    };
    let each_slot = || {
        (0..sets).flat_map(move |o| {
            (regions.slot_start[o]..regions.slot_start[o + 1]).map(move |s| (o, s))
        })
    };
    // Counted first and then filled in place: a list per row would cost more memory than
    // the rows themselves, and the allocator may keep what a build frees (`build_size`).
    // Whether a slot is a pocket is worked out twice, once a pass: cheaper than a list.
    let mut start = vec![0u32; 2 * sets + 1];
    for (o, s) in each_slot() {
        start[row_of(o, s) + 1] += 1;
    }
    for r in 0..2 * sets {
        start[r + 1] += start[r];
    }
    let mut slots = vec![0u32; regions.slot_set.len()];
    let mut next = start.clone();
    for (o, s) in each_slot() {
        let r = row_of(o, s);
        slots[next[r] as usize] = s;
        next[r] += 1;
    }
    SlotRows { start, slots }
}

/// The frontier arrangements of one slot, as a list and as bit masks per state word (the
/// low bit of each 2-bit field).
struct Frontier {
    sel: Vec<u64>,
    nonzero: Vec<u32>,
    list: Vec<u16>,
}

/// A move out of a slot: to slot `target`, lifting the tile at position `from` of the
/// arrangement to position `to`.
#[derive(Clone, Copy, Debug)]
struct Step {
    target: u32,
    from: u8,
    to: u8,
}

struct Builder {
    fact: usize,
    words: usize,
    /// 2 bits per (slot, arrangement): 0 new, 1 or 2 this or the next layer, 3 done.
    states: WordMemory,
    /// Distance of every placement (the first, so smallest, one found), or with
    /// `per_slot` of every slot's arrangement; 255 until found.
    distance: TableMemory,
    per_slot: bool,
    slot_set: Vec<u32>,
    perms: &'static Permutations,
}

impl Builder {
    /// Collects the arrangements of `slot` in the layer coded `current`, marks them done
    /// (code 3) and records their placements' distance `depth` unless one was recorded
    /// before: layers come in order, so the first region of a placement expanded gives the
    /// minimum over where the blank may be. (Recording here rather than when a state is
    /// first reached walks the distance table in order instead of at random.)
    fn take_frontier(&mut self, slot: usize, current: u64, depth: u32, f: &mut Frontier) {
        let row = if self.per_slot {
            slot
        } else {
            self.slot_set[slot] as usize
        };
        let depth = depth.min(254) as u8;
        let distance = &mut self.distance[row * self.fact..(row + 1) * self.fact];
        f.list.clear();
        for &w in &f.nonzero {
            f.sel[w as usize] = 0;
        }
        f.nonzero.clear();
        let block = &mut self.states.words()[slot * self.words..(slot + 1) * self.words];
        for (w, word) in block.iter_mut().enumerate() {
            let x = *word;
            if x == 0 {
                continue;
            }
            let lo = x & LOW_BITS;
            let hi = (x >> 1) & LOW_BITS;
            // Code 1 is (lo, hi) = (1, 0); code 2 is (0, 1).
            let sel = if current == 1 { lo & !hi } else { hi & !lo };
            if sel == 0 {
                continue;
            }
            *word = x | sel | (sel << 1);
            f.sel[w] = sel;
            f.nonzero.push(w as u32);
            let mut m = sel;
            while m != 0 {
                let pi = w * 32 + m.trailing_zeros() as usize / 2;
                f.list.push(pi as u16);
                distance[pi] = distance[pi].min(depth);
                m &= m - 1;
            }
        }
    }

    /// A move that keeps the arrangement (a horizontal move, or a vertical one past no
    /// pattern tile): the target has the same rank, so 32 states go at once, word by word.
    fn expand_in_place(&mut self, step: &Step, f: &Frontier, next: u64) -> u64 {
        let base = step.target as usize * self.words;
        let states = self.states.words();
        let mut new = 0;
        for &w in &f.nonzero {
            let w = w as usize;
            let x = states[base + w];
            let fresh = !(x | x >> 1) & LOW_BITS;
            let reached = f.sel[w] & fresh;
            if reached == 0 {
                continue;
            }
            states[base + w] = x | if next == 1 { reached } else { reached << 1 };
            new += u64::from(reached.count_ones());
        }
        new
    }

    /// A move that lifts a tile over others: each rank maps through the rotation table. The
    /// loop has no data-dependent branch (whether a target is new is random, and a
    /// mispredicted branch per state cost more than the memory traffic).
    fn expand_moved(&mut self, step: &Step, list: &[u16], next: u64) -> u64 {
        let base = step.target as usize * self.words;
        let table = self
            .perms
            .moved_table(usize::from(step.from), usize::from(step.to));
        let block = &mut self.states.words()[base..base + self.words];
        let mut new = 0;
        for &pi in list {
            let pi2 = table[usize::from(pi)];
            let w = usize::from(pi2 >> 5);
            let shift = u32::from(pi2 & 31) * 2;
            let x = block[w];
            let fresh = u64::from((x >> shift) & 3 == 0);
            block[w] = x | (next * fresh) << shift;
            new += fresh;
        }
        new
    }
}
