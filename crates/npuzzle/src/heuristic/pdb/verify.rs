//! Checking a table against the puzzle's moves, without rebuilding it.
//!
//! A table read from disk carries its own checksums, but whoever can rewrite the file can
//! recompute them: a table with raised entries then overestimates, and a search using it
//! reports a longer path as optimal. So entries are checked against two facts that every
//! true table obeys, for a random sample of placements (a fresh sample every time, so no
//! one can tamper only where the check does not look):
//!
//! * **A way down.** A placement other than the goal has a neighbour (one pattern tile
//!   moved into an adjacent cell free of pattern tiles) whose value is at least one less:
//!   the first move of a shortest solution leads there. The goal placement has value 0.
//! * **No cliff.** When the free cells of both placements form a single region (so the
//!   blank may be anywhere among them), a placement's value is at most one more than its
//!   neighbour's: one move leads from it to the neighbour.
//!
//! A value is `md + 2 × entry` (see [`ENCODING_HALF_EXCESS_OVER_MANHATTAN`]); entries capped
//! at 15 are below the truth and are not held to "a way down" (nor as the lower side of "no
//! cliff").
//!
//! Capped entries escape "a way down", so a table with *every* entry raised to 15 passed
//! the sample (only the goal placement's entry broke a fact, one sample in millions). So
//! besides the sample, the placements nearest the goal are checked every time, in full
//! ([`near_goal`]): "no cliff" chained from the goal's 0 says that a placement `d` single-
//! region moves from the goal has value at most `d`, capped or not. A raised table must
//! then keep true values around the goal and raise only further out, where the sample
//! looks; the keyed digest written at build (see `store.rs`) is what catches it there.
//!
//! A table that keeps the blank's region (`pockets.rs`) has an entry for every placement
//! and region of the blank, and its states are one move apart when a pattern tile next to
//! the blank's region steps into it: "no cliff" then holds between every two such states,
//! whatever the regions (but into an entry that holds the least over several regions,
//! which may be lower), and "a way down" looks among the moves out of every region the
//! entry holds.
//!
//! [`ENCODING_HALF_EXCESS_OVER_MANHATTAN`]: super::table::ENCODING_HALF_EXCESS_OVER_MANHATTAN

use std::sync::Arc;

use rand::{Rng, SeedableRng};

use super::index::{self, Combinations, Permutations, MAX_PATTERN_TILES, MAX_PDB_CELLS};
use super::pockets::Cells;
use super::table::PatternTable;
use crate::moves::Move;

/// The placement a sample looks at: the cell of each pattern tile, and for a table that
/// keeps the blank's region, the blank's cell.
struct Placements<'a> {
    table: &'a PatternTable,
    n: usize,
    k: usize,
    combos: Arc<Combinations>,
    masks: Vec<u64>,
    perms: &'static Permutations,
    /// For a table that keeps the blank's region, the board's cells.
    cells: Option<Cells>,
}

/// A state of a pattern's subproblem: its tiles' cells (by tile), and the blank's cell
/// (any free cell of its region; unused by a table that keeps the least over regions).
type State = ([u8; MAX_PATTERN_TILES], usize);

impl Placements<'_> {
    /// Entries of the main regions (all entries, for a table that keeps no regions).
    fn placements(&self) -> usize {
        self.masks.len() * self.perms.count()
    }

    /// The state of entry `i`, if any state reads it (with the blank's region kept, a
    /// placement has no pocket, or no free cell outside its pockets, now and then).
    fn state_of(&self, i: usize) -> Option<State> {
        let in_pocket = i >= self.placements();
        let (o, pi) = index::entry_ranks(i % self.placements(), self.masks.len());
        let arr = self.perms.arrangement(pi);
        let mut mask = self.masks[o];
        let mut cell_of = [0u8; MAX_PATTERN_TILES];
        for &tile in &arr[..self.k] {
            cell_of[usize::from(tile)] = mask.trailing_zeros() as u8;
            mask &= mask - 1;
        }
        let occupied = self.masks[o];
        let blank = (0..self.n).find(|&c| {
            occupied >> c & 1 == 0
                && self
                    .cells
                    .is_none_or(|cells| cells.in_pocket(occupied, c) == in_pocket)
        })?;
        Some((cell_of, blank))
    }

    /// The entry index of a state.
    fn index(&self, cell_of: &[u8], blank: usize) -> usize {
        let mask = cell_of.iter().fold(0u64, |m, &c| m | 1 << c);
        let mut arr = [0u8; MAX_PATTERN_TILES];
        let mut rest = mask;
        for slot in arr.iter_mut().take(self.k) {
            let cell = rest.trailing_zeros() as u8;
            rest &= rest - 1;
            *slot = cell_of.iter().position(|&c| c == cell).expect("occupied") as u8;
        }
        let (set, pi) = (self.combos.rank(mask), index::rank(&arr[..self.k]));
        let pocket = self.cells.is_some_and(|cells| cells.in_pocket(mask, blank));
        index::entry_index(set, pi, self.masks.len()) + usize::from(pocket) * self.placements()
    }

    /// The free cells whose entries are in the same row as the blank's: with the blank's
    /// region kept, the pockets or the larger regions (all free cells otherwise).
    fn row_cells(&self, occupied: u64, blank: usize) -> u64 {
        let free = (0..self.n).filter(|&c| occupied >> c & 1 == 0);
        match self.cells {
            None => free.fold(0, |m, c| m | 1 << c),
            Some(cells) => {
                let pocket = cells.in_pocket(occupied, blank);
                free.filter(|&c| cells.in_pocket(occupied, c) == pocket)
                    .fold(0, |m, c| m | 1 << c)
            }
        }
    }

    /// Whether a state's entry holds the least over several regions (with the blank's
    /// region kept): then it may be below the state's own distance, as a capped entry is.
    fn shared(&self, cell_of: &[u8], blank: usize) -> bool {
        let occupied = cell_of.iter().fold(0u64, |m, &c| m | 1 << c);
        self.cells.is_some() && self.reach(occupied, blank) != self.row_cells(occupied, blank)
    }

    /// The value of a state and whether its entry is capped.
    fn value(&self, cell_of: &[u8], blank: usize) -> (u32, bool) {
        let shape = self.table.key.shape;
        let md: u32 = cell_of
            .iter()
            .zip(&self.table.key.cells)
            .map(|(&c, &g)| {
                let (r, col) = shape.coords(usize::from(c));
                let (gr, gc) = shape.coords(usize::from(g));
                (r.abs_diff(gr) + col.abs_diff(gc)) as u32
            })
            .sum();
        let e = self.table.entry(self.index(cell_of, blank));
        (md + 2 * e, e == 15)
    }

    /// Whether the cells free of pattern tiles form one connected region.
    fn one_region(&self, cell_of: &[u8]) -> bool {
        let occupied = cell_of.iter().fold(0u64, |m, &c| m | 1 << c);
        let Some(first) = (0..self.n).find(|&c| occupied >> c & 1 == 0) else {
            return true;
        };
        self.reach(occupied, first).count_ones() as usize + cell_of.len() == self.n
    }

    /// The free cells reached from free cell `from` with `occupied` taken.
    fn reach(&self, occupied: u64, from: usize) -> u64 {
        let shape = self.table.key.shape;
        let mut seen = 1u64 << from;
        let mut stack = vec![from];
        while let Some(c) = stack.pop() {
            for m in Move::ALL {
                if let Some(d) = crate::board::neighbour(shape, c, m) {
                    if (seen | occupied) >> d & 1 == 0 {
                        seen |= 1 << d;
                        stack.push(d);
                    }
                }
            }
        }
        seen
    }

    /// The states one move of a pattern tile away: for a table that keeps the blank's
    /// region, a tile next to the blank's region (with `whole_slot`, next to any region of
    /// the blank's pocket slot) steps into it and leaves the blank on its cell; otherwise a
    /// tile steps into any free cell next to it.
    fn moves(&self, cell_of: &[u8], blank: usize, whole_slot: bool) -> Vec<State> {
        let shape = self.table.key.shape;
        let occupied = cell_of.iter().fold(0u64, |m, &c| m | 1 << c);
        let open = match self.cells {
            None => !occupied,
            Some(_) if !whole_slot => self.reach(occupied, blank),
            Some(_) => self.row_cells(occupied, blank),
        };
        let mut out = Vec::new();
        for q in 0..self.k {
            for m in Move::ALL {
                let a = usize::from(cell_of[q]);
                let Some(to) = crate::board::neighbour(shape, a, m) else {
                    continue;
                };
                if open >> to & 1 == 0 {
                    continue;
                }
                let mut moved = [0u8; MAX_PATTERN_TILES];
                moved[..self.k].copy_from_slice(cell_of);
                moved[q] = to as u8;
                out.push((moved, a));
            }
        }
        out
    }
}

impl<'t> Placements<'t> {
    /// The placements of `table`'s pattern, ranked as its entries are.
    fn of(table: &'t PatternTable) -> Result<Placements<'t>, String> {
        let n = table.key.shape.cells();
        let k = table.key.cells.len();
        if k == 0 || k > MAX_PATTERN_TILES || n > MAX_PDB_CELLS {
            return Err(format!("cannot check a pattern of {k} tiles on {n} cells"));
        }
        let combos = Combinations::get(n, k);
        Ok(Placements {
            table,
            n,
            k,
            masks: combos.masks(),
            combos,
            perms: Permutations::get(k),
            cells: table.key.regions.then(|| Cells::new(table.key.shape)),
        })
    }
}

/// Checks `samples` random entries of `table` (all of them if it has no more), drawn with
/// `seed`.
///
/// # Errors
/// How many sampled entries break the facts above, and the first one found.
pub fn sample(table: &PatternTable, samples: usize, seed: u64) -> Result<(), String> {
    let p = Placements::of(table)?;
    let entries = table.entries as usize;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let all = entries <= samples;
    let count = if all { entries } else { samples };
    let mut bad = 0usize;
    let mut first = None;
    for s in 0..count {
        let i = if all { s } else { rng.random_range(0..entries) };
        if let Err(why) = check_entry(&p, i) {
            bad += 1;
            first.get_or_insert(why);
        }
    }
    match first {
        None => Ok(()),
        Some(why) => Err(format!(
            "{bad} of {count} sampled entries are inconsistent with the puzzle's moves \
             (tampered or corrupt; first: {why})"
        )),
    }
}

/// Placements [`near_goal`] checks: the goal's neighbourhood, a millisecond or two.
pub const NEAR_GOAL: usize = 4096;

/// Checks the placements nearest the goal, breadth-first through single-region
/// placements (through every state, for a table that keeps the blank's region), up to
/// `limit` of them: the goal's value must be 0 and one `d` such moves away at most `d`
/// (see the module docs).
///
/// # Errors
/// The first placement whose value is too high.
pub fn near_goal(table: &PatternTable, limit: usize) -> Result<(), String> {
    near_goal_unworded(table, limit).map_err(|why| {
        format!(
            "entries near the goal are inconsistent with the puzzle's moves (tampered or \
             corrupt: {why})"
        )
    })
}

fn near_goal_unworded(table: &PatternTable, limit: usize) -> Result<(), String> {
    let p = Placements::of(table)?;
    let k = p.k;
    let regions = p.cells.is_some();
    let mut goal = [0u8; MAX_PATTERN_TILES];
    goal[..k].copy_from_slice(&table.key.cells);
    let blank = usize::from(table.key.blank);
    let (value, _) = p.value(&goal[..k], blank);
    if value != 0 {
        return Err(format!("the goal placement has value {value}, not 0"));
    }
    if !regions && !p.one_region(&goal[..k]) {
        return Ok(());
    }
    let mut seen = std::collections::HashSet::from([p.index(&goal[..k], blank)]);
    let mut queue = std::collections::VecDeque::from([((goal, blank), 0u32)]);
    while let Some(((cells, blank), depth)) = queue.pop_front() {
        for (next, next_blank) in p.moves(&cells[..k], blank, false) {
            if seen.len() >= limit {
                return Ok(());
            }
            if !regions && !p.one_region(&next[..k]) {
                continue;
            }
            if !seen.insert(p.index(&next[..k], next_blank)) {
                continue;
            }
            let (value, _) = p.value(&next[..k], next_blank);
            if value > depth + 1 {
                return Err(format!(
                    "a placement {} moves from the goal has value {value}",
                    depth + 1
                ));
            }
            queue.push_back(((next, next_blank), depth + 1));
        }
    }
    Ok(())
}

fn check_entry(p: &Placements<'_>, i: usize) -> Result<(), String> {
    // An entry no state reads is not checked: it changes no search.
    let Some((cells, blank)) = p.state_of(i) else {
        return Ok(());
    };
    let cell_of = &cells[..p.k];
    let (value, capped) = p.value(cell_of, blank);
    let regions = p.cells.is_some();
    let home = cell_of == &p.table.key.cells[..];
    // The goal: tiles home, with the blank in its goal cell's region.
    let goal_region = !regions || {
        let occupied = cell_of.iter().fold(0u64, |m, &c| m | 1 << c);
        p.row_cells(occupied, blank) >> p.table.key.blank & 1 == 1
    };
    if home && goal_region {
        return if value == 0 {
            Ok(())
        } else {
            Err(format!("entry {i}: the goal placement has value {value}"))
        };
    }
    // Without regions, one move apart means both placements are single regions.
    let single = regions || p.one_region(cell_of);
    let mut lowest = u32::MAX;
    for (moved, moved_blank) in p.moves(cell_of, blank, true) {
        let (v, v_capped) = p.value(&moved[..p.k], moved_blank);
        lowest = lowest.min(v);
        if single
            && !v_capped
            && !p.shared(&moved[..p.k], moved_blank)
            && value > v + 1
            && (regions || p.one_region(&moved[..p.k]))
        {
            return Err(format!(
                "entry {i} has value {value}, a neighbour {v}: one move apart"
            ));
        }
    }
    if !capped && lowest >= value {
        return Err(format!(
            "entry {i} has value {value} and no neighbour below it"
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::heuristic::pdb::table::TableKey;
    use crate::shape::Shape;

    /// Raises one entry in a hundred by one (two moves), as a tamperer would.
    fn raise_one_in_a_hundred(t: &mut PatternTable) {
        for i in (0..t.entries as usize).step_by(101) {
            let e = t.entry(i);
            if e < 14 {
                let shift = (i & 1) * 4;
                t.data[i >> 1] = (t.data[i >> 1] & !(0xF << shift)) | ((e as u8 + 1) << shift);
            }
        }
    }

    fn table(rows: usize, cols: usize, cells: &[u8], blank: u8) -> PatternTable {
        built(rows, cols, cells, blank, false)
    }

    fn built(rows: usize, cols: usize, cells: &[u8], blank: u8, regions: bool) -> PatternTable {
        let key = TableKey {
            shape: Shape::new(rows, cols).unwrap(),
            cells: cells.to_vec(),
            blank,
            regions,
        };
        super::super::build::build(&key, &mut super::super::build::keep_going).unwrap()
    }

    /// Tables that keep the blank's region pass every entry and the goal's neighbourhood,
    /// and raised entries are caught in them too.
    #[test]
    fn region_tables_pass_and_raised_entries_are_caught() {
        for t in [
            built(3, 3, &[1, 3, 5, 7], 0, true),
            built(3, 3, &[0, 1, 2, 3], 8, true),
            built(2, 4, &[1, 2, 5, 6], 0, true),
            built(4, 4, &[0, 1, 4, 5, 8], 15, true),
        ] {
            sample(&t, usize::MAX, 0).unwrap();
            near_goal(&t, usize::MAX).unwrap();
        }
        let mut t = built(4, 4, &[0, 1, 4, 5, 8], 15, true);
        raise_one_in_a_hundred(&mut t);
        let e = sample(&t, 1 << 13, 7).unwrap_err();
        assert!(e.contains("inconsistent"), "{e}");
    }

    #[test]
    fn built_tables_pass_every_entry() {
        for t in [
            table(3, 3, &[0, 1, 2, 3], 8),
            table(3, 3, &[4, 5, 6, 7], 8),
            table(2, 4, &[0, 1, 4], 7),
            table(4, 4, &[0, 1, 4, 5, 8], 15),
        ] {
            sample(&t, usize::MAX, 0).unwrap();
        }
    }

    /// Regression (issue 15, item 7): raised entries with recomputed checksums were
    /// trusted, and a search reported a longer path as optimal.
    #[test]
    fn raised_entries_are_caught() {
        let mut t = table(4, 4, &[0, 1, 4, 5, 8], 15);
        raise_one_in_a_hundred(&mut t);
        let e = sample(&t, 1 << 13, 7).unwrap_err();
        assert!(e.contains("inconsistent"), "{e}");
    }

    /// Regression (issue 25, E5): every entry raised to the 4-bit maximum, checksums
    /// recomputed, passed verification (capped entries escape "a way down"), and a search
    /// then ran to its limit.
    #[test]
    fn a_table_raised_to_the_cap_is_caught() {
        let mut t = table(4, 4, &[0, 1, 4, 5, 8], 15);
        near_goal(&t, NEAR_GOAL).unwrap();
        t.data.fill(0xFF);
        let e = near_goal(&t, NEAR_GOAL).unwrap_err();
        assert!(e.contains("goal placement"), "{e}");
        // The goal left alone: its neighbours give it away.
        let mut t = table(4, 4, &[0, 1, 4, 5, 8], 15);
        let goal = t.key.cells.clone();
        let keep = {
            let combos = Combinations::get(16, 5);
            let p = Placements {
                table: &t,
                n: 16,
                k: 5,
                masks: combos.masks(),
                combos,
                perms: Permutations::get(5),
                cells: None,
            };
            p.index(&goal, 15)
        };
        for i in 0..t.entries as usize {
            if i != keep {
                let shift = (i & 1) * 4;
                t.data[i >> 1] |= 0xF << shift;
            }
        }
        let e = near_goal(&t, NEAR_GOAL).unwrap_err();
        assert!(e.contains("1 moves from the goal"), "{e}");
        // Every built table passes.
        for t in [
            table(3, 3, &[0, 1, 2, 3], 8),
            table(2, 4, &[0, 1, 4], 7),
            table(3, 3, &[4, 5, 6, 7], 8),
        ] {
            near_goal(&t, usize::MAX).unwrap();
        }
    }

    #[test]
    fn lowered_entries_are_caught() {
        let mut t = table(3, 3, &[0, 1, 2, 3], 8);
        for b in t.data.iter_mut().step_by(7) {
            *b = 0;
        }
        assert!(sample(&t, usize::MAX, 0).is_err());
    }
}
