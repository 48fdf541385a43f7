//! One pattern's table: a lower bound for every placement of the pattern's tiles, 4 bits each.

use super::memory::TableMemory;
use crate::shape::Shape;

/// What a pattern table is for: a board shape, the goal cells of the pattern's tiles
/// (ascending), and the blank's goal cell.
///
/// The blank's goal cell matters: the goal of a pattern's subproblem is its tiles home
/// *with the blank in the region of empty cells that holds the blank's goal cell*, since
/// every real solution ends with the blank there. (Allowing any region is also admissible
/// but weaker: with the 7 tiles of Korf & Felner's 7-8 partition home, the blank's corner
/// is walled off from the rest of the board, and IDA* generates about 3.4 times more
/// nodes on Korf's 100 instances.)
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TableKey {
    /// The board shape.
    pub shape: Shape,
    /// Goal cells of the pattern's tiles, ascending.
    pub cells: Vec<u8>,
    /// The blank's goal cell (not one of `cells`).
    pub blank: u8,
    /// Whether the table keeps the blank's region: two entries for every placement, with
    /// the blank in a pocket and elsewhere (see `pockets.rs`), rather than the least over
    /// the regions.
    pub regions: bool,
}

impl TableKey {
    /// Number of entries: the placements of the pattern's tiles, `C(n, k) × k!`, twice for a
    /// table that keeps the blank's region (see `pockets.rs`).
    pub fn entries(&self) -> u64 {
        let (n, k) = (self.shape.cells(), self.cells.len());
        let placements = super::index::table_entries(n, k);
        if self.regions {
            2 * placements
        } else {
            placements
        }
    }
}

/// Entries are stored as `(d − md) / 2` in 4 bits, where `d` is the pattern's distance and
/// `md` the Manhattan distance of its tiles. Every move of a pattern tile changes `md` by
/// exactly one, so `d − md` is even and non-negative and the division is exact; the rare
/// entry above 15 is capped at 15, which stays a lower bound (the table counts how many).
/// The value itself is `md + 2 × entry`, and summed over a partition the `md` terms add up
/// to the plain Manhattan distance of the board.
pub const ENCODING_HALF_EXCESS_OVER_MANHATTAN: u8 = 1;

/// The distances of one pattern: for every placement of its tiles, the fewest moves of
/// pattern tiles that bring them home, with the blank free to wander and other tiles
/// ignored (Korf & Felner 2002).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternTable {
    pub(super) key: TableKey,
    /// Number of placements, `C(n, k) × k!`.
    pub(super) entries: u64,
    /// Two entries per byte, the even index in the low nibble.
    pub(super) data: TableMemory,
    /// Largest pattern distance found.
    pub(super) max_distance: u8,
    /// Entries whose excess over Manhattan did not fit 4 bits and were capped.
    pub(super) capped: u64,
}

impl PatternTable {
    /// What the table is for.
    pub fn key(&self) -> &TableKey {
        &self.key
    }

    /// Number of placements.
    pub fn entries(&self) -> u64 {
        self.entries
    }

    /// Bytes of table data.
    pub fn bytes(&self) -> usize {
        self.data.len()
    }

    /// The largest distance of any placement.
    pub fn max_distance(&self) -> u8 {
        self.max_distance
    }

    /// How many entries were capped at 15 (each still a lower bound).
    pub fn capped(&self) -> u64 {
        self.capped
    }

    /// The stored entry (half the excess over Manhattan) of placement `index`.
    #[inline]
    pub fn entry(&self, index: usize) -> u32 {
        u32::from(self.data[index >> 1] >> ((index & 1) * 4)) & 0xF
    }

    /// The raw table data.
    pub fn data(&self) -> &[u8] {
        &self.data
    }
}
