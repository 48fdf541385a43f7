//! Ranking pattern placements into dense table indices.
//!
//! A placement of a pattern's `k` tiles on an `n`-cell board is split in two (the usual
//! "combination × permutation" ranking of k-permutations):
//!
//! * **which cells** are occupied: a `k`-subset of the cells, ranked in colexicographic
//!   order (`Σ C(cᵢ, i+1)` over the occupied cells `c₀ < c₁ < …`), which is also the
//!   numeric order of the occupancy bit masks;
//! * **in which order** the tiles sit on them: `arr[j]` is the pattern tile (numbered by goal
//!   cell) on the `j`-th occupied cell, ranked lexicographically (Lehmer code).
//!
//! The split makes moves cheap to follow: a horizontal move keeps the order of the occupied
//! cells, so the permutation rank does not change; a vertical move lifts one tile over at
//! most `cols − 1` others, a rotation of the arrangement looked up in a precomputed table.
//! Neither the builder nor IDA* ever unranks a placement in its inner loop.
//!
//! A table stores its entries arrangement first ([`entry_index`]), so that the moves that
//! keep the arrangement, most of them, stay within one block of `C(n, k)` entries.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use crate::heuristic::lehmer::{self, unrank};

/// Most tiles in one pattern: the permutation ranks of 8 tiles (8! = 40,320) fit a `u16`.
pub const MAX_PATTERN_TILES: usize = 8;

/// Most cells of a board that pattern databases serve (8×8): occupancy masks are `u64`.
pub const MAX_PDB_CELLS: usize = 64;

/// Where the entry of a placement lies in its table: `pi × sets + set`, for the
/// placement whose occupied cells rank `set` among `sets` and whose arrangement ranks `pi`.
///
/// The arrangement comes first because IDA* changes one pattern's placement a move and most
/// moves keep its arrangement (a horizontal move always, a vertical one unless it lifts the
/// tile past another of the pattern): their reads then stay within one arrangement's block
/// of `sets` entries (88 KB for a 6-tile pattern of the 24-puzzle), which the processor's
/// second-level cache holds; with the occupied set first they landed anywhere in the table,
/// and IDA* on the 24-puzzle took 1.2 times as long (docs/performance.md).
#[inline]
pub fn entry_index(set: u32, pi: u32, sets: usize) -> usize {
    pi as usize * sets + set as usize
}

/// The inverse of [`entry_index`]: the occupied set's and the arrangement's ranks of entry
/// `i`.
#[inline]
pub fn entry_ranks(i: usize, sets: usize) -> (usize, usize) {
    (i % sets, i / sets)
}

/// `C(n, k)`, exactly, for the small arguments used here.
pub fn binomial(n: usize, k: usize) -> u64 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut r: u64 = 1;
    for i in 0..k {
        r = r * (n - i) as u64 / (i + 1) as u64;
    }
    r
}

/// `k!`.
pub fn factorial(k: usize) -> usize {
    (1..=k).product()
}

/// Entries of the table of a `k`-tile pattern on `n` cells, `C(n, k) × k!`.
pub fn table_entries(n: usize, k: usize) -> u64 {
    binomial(n, k).saturating_mul(factorial(k) as u64)
}

/// Colexicographic ranks of `k`-subsets of `n ≤ 64` cells, by byte-wise table lookups.
/// Ranks are `u32`: `C(n, k)` must fit (every table a partition allows has fewer entries).
#[derive(Debug)]
pub struct Combinations {
    k: usize,
    count: usize,
    bytes: usize,
    /// `table[(byte * (k + 1) + before) * 256 + value]`: the contribution of the set bits in
    /// byte `byte` of a mask holding `value` there, when `before` cells below it are set.
    table: Vec<u32>,
}

impl Combinations {
    /// Ranker for `k`-subsets of `n` cells.
    pub fn new(n: usize, k: usize) -> Combinations {
        assert!(n <= MAX_PDB_CELLS && k <= n && binomial(n, k) <= u64::from(u32::MAX));
        let bytes = n.div_ceil(8);
        let mut table = vec![0u32; bytes * (k + 1) * 256];
        for byte in 0..bytes {
            for before in 0..=k {
                for value in 0..256usize {
                    let mut sum = 0u64;
                    let mut j = before;
                    for bit in 0..8 {
                        if value >> bit & 1 == 1 {
                            let cell = byte * 8 + bit;
                            if j < k && cell < n {
                                sum += binomial(cell, j + 1);
                            }
                            j += 1;
                        }
                    }
                    table[(byte * (k + 1) + before) * 256 + value] = sum as u32;
                }
            }
        }
        Combinations {
            k,
            count: binomial(n, k) as usize,
            bytes,
            table,
        }
    }

    /// The shared ranker for `k`-subsets of `n` cells, built on first use.
    pub fn get(n: usize, k: usize) -> Arc<Combinations> {
        type Cache = Mutex<HashMap<(usize, usize), Arc<Combinations>>>;
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let mut cache = CACHE
            .get_or_init(Default::default)
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        cache
            .entry((n, k))
            .or_insert_with(|| Arc::new(Combinations::new(n, k)))
            .clone()
    }

    /// Number of `k`-subsets.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The rank of a mask with exactly `k` bits set, all below `n`.
    #[inline]
    pub fn rank(&self, mask: u64) -> u32 {
        let mut r = 0;
        let mut before = 0usize;
        for byte in 0..self.bytes {
            let value = (mask >> (8 * byte)) as usize & 0xFF;
            r += self.table[(byte * (self.k + 1) + before) * 256 + value];
            before += value.count_ones() as usize;
        }
        r
    }

    /// Every mask in rank order (Gosper's hack enumerates `k`-bit masks in numeric order,
    /// which is colexicographic order).
    pub fn masks(&self) -> Vec<u64> {
        let mut out = Vec::with_capacity(self.count);
        if self.k == 0 {
            out.push(0);
            return out;
        }
        let mut m: u64 = (1u64 << self.k) - 1;
        for _ in 0..self.count {
            out.push(m);
            let c = m & m.wrapping_neg();
            // Wraps only after the last mask of 64 cells, whose successor is not used.
            let r = m.wrapping_add(c);
            m = (((r ^ m) >> 2) / c) | r;
        }
        out
    }
}

/// Lexicographic ranks of arrangements of `k ≤ 8` pattern tiles, with the tables that follow
/// a tile lifted from one position of the arrangement to another.
#[derive(Debug)]
pub struct Permutations {
    k: usize,
    count: usize,
    /// `arrangements[rank]`: the arrangement of that rank.
    arrangements: Vec<[u8; MAX_PATTERN_TILES]>,
    /// `moved[(i * k + j) * count + rank]`: the rank after the tile at position `i` is taken
    /// out and put back at position `j`. The builder's layout: one move, every rank.
    moved: Vec<u16>,
    /// The same ranks in the search's layout: `rows[rank]` holds every move of that rank.
    rows: Vec<MovedRow>,
}

/// The ranks reached from one arrangement by every lift, `[i * 8 + j]` for the tile at
/// position `i` put back at position `j` (`i == j` keeps the rank). A node's children read
/// the row of its rank, one aligned 128-byte block, which IDA* prefetches as soon as it
/// knows the rank.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub struct MovedRow(pub [u16; MAX_PATTERN_TILES * MAX_PATTERN_TILES]);

impl Permutations {
    /// The shared tables for `k` tiles, built on first use.
    ///
    /// # Panics
    /// If `k` is above [`MAX_PATTERN_TILES`].
    pub fn get(k: usize) -> &'static Permutations {
        static TABLES: [OnceLock<Permutations>; MAX_PATTERN_TILES + 1] =
            [const { OnceLock::new() }; MAX_PATTERN_TILES + 1];
        TABLES[k].get_or_init(|| Permutations::new(k))
    }

    fn new(k: usize) -> Permutations {
        assert!(k <= MAX_PATTERN_TILES);
        let count = factorial(k);
        let mut arrangements = vec![[0u8; MAX_PATTERN_TILES]; count];
        for (r, arr) in arrangements.iter_mut().enumerate() {
            unrank(r, &mut arr[..k]);
        }
        let mut moved = vec![0u16; k * k * count];
        let mut tmp = [0u8; MAX_PATTERN_TILES];
        for i in 0..k {
            for j in 0..k {
                for (r, arr) in arrangements.iter().enumerate() {
                    tmp[..k].copy_from_slice(&arr[..k]);
                    if i < j {
                        tmp[i..=j].rotate_left(1);
                    } else {
                        tmp[j..=i].rotate_right(1);
                    }
                    moved[(i * k + j) * count + r] = rank(&tmp[..k]) as u16;
                }
            }
        }
        let mut rows = vec![MovedRow([0; MAX_PATTERN_TILES * MAX_PATTERN_TILES]); count];
        for (r, row) in rows.iter_mut().enumerate() {
            for i in 0..k {
                for j in 0..k {
                    row.0[i * MAX_PATTERN_TILES + j] = if i == j {
                        r as u16
                    } else {
                        moved[(i * k + j) * count + r]
                    };
                }
            }
        }
        Permutations {
            k,
            count,
            arrangements,
            moved,
            rows,
        }
    }

    /// `k!`.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The arrangement of rank `r` (first `k` bytes).
    #[inline]
    pub fn arrangement(&self, r: usize) -> &[u8; MAX_PATTERN_TILES] {
        &self.arrangements[r]
    }

    /// The rank table for lifting the tile at position `i` to position `j`.
    #[inline]
    pub fn moved_table(&self, i: usize, j: usize) -> &[u16] {
        let start = (i * self.k + j) * self.count;
        &self.moved[start..start + self.count]
    }

    /// The rank after lifting the tile at position `i` to position `j`.
    #[inline]
    pub fn moved(&self, i: usize, j: usize, r: u32) -> u32 {
        u32::from(self.row(r).0[i * MAX_PATTERN_TILES + j])
    }

    /// Every rank reached from rank `r` by one lift.
    #[inline]
    pub fn row(&self, r: u32) -> &MovedRow {
        &self.rows[r as usize]
    }
}

/// Lexicographic rank of an arrangement of `0..k` (`k ≤` [`MAX_PATTERN_TILES`]), as the
/// tables store it.
#[inline]
pub fn rank(arr: &[u8]) -> u32 {
    lehmer::rank(arr) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry has one place, and the placements of one arrangement fill one block of
    /// `sets` entries: a move that keeps the arrangement reads within it.
    #[test]
    fn entries_lie_arrangement_first() {
        for (n, k) in [(9, 4), (16, 3), (25, 2)] {
            let sets = binomial(n, k) as usize;
            let fact = factorial(k);
            let mut seen = vec![false; sets * fact];
            for pi in 0..fact as u32 {
                for set in 0..sets as u32 {
                    let i = entry_index(set, pi, sets);
                    assert!(!std::mem::replace(&mut seen[i], true), "{i} twice");
                    assert_eq!(i / sets, pi as usize, "block of arrangement {pi}");
                    assert_eq!(entry_ranks(i, sets), (set as usize, pi as usize));
                }
            }
        }
    }

    #[test]
    fn combination_ranks_are_dense_and_ordered() {
        for (n, k) in [(9, 4), (16, 7), (20, 3), (25, 2), (8, 8), (6, 0)] {
            let c = Combinations::new(n, k);
            let masks = c.masks();
            assert_eq!(masks.len() as u64, binomial(n, k));
            for (i, &m) in masks.iter().enumerate() {
                assert_eq!(m.count_ones() as usize, k);
                assert!(m >> n == 0 || n == 32);
                assert_eq!(c.rank(m) as usize, i, "n {n} k {k} mask {m:b}");
            }
        }
    }

    #[test]
    fn moved_ranks_match_moving_the_arrangement() {
        let p = Permutations::get(5);
        for r in 0..p.count() {
            let arr = p.arrangement(r);
            assert_eq!(rank(&arr[..5]) as usize, r);
            for i in 0..5 {
                for j in 0..5 {
                    let mut v = arr[..5].to_vec();
                    let t = v.remove(i);
                    v.insert(j, t);
                    assert_eq!(p.moved(i, j, r as u32), rank(&v));
                }
            }
        }
    }
}
