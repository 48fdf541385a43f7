//! Where the blank may be, for tables that keep its region.
//!
//! A pattern's tiles can wall free cells off from the rest of the board: a corner cell
//! between two of them, an edge cell between three. The blank is then in one of several
//! **regions** of free cells, and how many moves of the pattern's tiles bring them home
//! depends on which: a blank shut in a corner must first let a tile out. Korf & Felner's
//! tables keep the least over the regions, so that one entry serves wherever the blank is.
//! A table that keeps the region ([`TableKey::regions`](super::TableKey::regions)) has two
//! entries for every placement: the least distance with the blank in a **pocket** (a region
//! of at most [`POCKET_CELLS`] cells), and the least with the blank in a larger region.
//! The values are still additive (each table still counts only its own tiles' moves) and
//! never lower than the least over all regions: on the 24-puzzle with `6-6-6-6` they raise
//! the value of about one state in seven, by two moves.
//!
//! Whether the blank is in a pocket is worked out from the occupied cells alone, a few
//! shifts of one word, so that a lookup reads nothing more than the entry: the blank is in
//! a pocket at about one lookup in six on the 24-puzzle, too often for a branch and too
//! randomly for a table of the sets' pockets to stay in cache.

use crate::shape::Shape;

/// Most cells of a pocket.
pub const POCKET_CELLS: u32 = 3;

/// Most cells of a board whose tables may keep the blank's region: its cells are one
/// word's bits with room to shift.
pub const MAX_REGION_CELLS: usize = 63;

/// A board's cells as bits, for growing a region of free cells.
#[derive(Clone, Copy, Debug)]
pub struct Cells {
    cols: u32,
    all: u64,
    /// Cells with a neighbour on their left (not in the first column), and on their right.
    has_left: u64,
    has_right: u64,
}

impl Cells {
    /// The cells of `shape` (at most [`MAX_REGION_CELLS`]).
    pub fn new(shape: Shape) -> Cells {
        let n = shape.cells();
        assert!(n <= MAX_REGION_CELLS);
        let cols = shape.cols();
        let all = (1u64 << n) - 1;
        let column = |c: usize| {
            (0..n)
                .filter(|&i| i % cols == c)
                .fold(0u64, |m, i| m | 1 << i)
        };
        Cells {
            cols: cols as u32,
            all,
            has_left: all & !column(0),
            has_right: all & !column(cols - 1),
        }
    }

    /// `cells` and their free neighbours (`free` a mask of free cells).
    #[inline(always)]
    fn grow(&self, cells: u64, free: u64) -> u64 {
        let up = cells >> self.cols;
        let down = cells << self.cols;
        // A cell's left neighbour is one lower, so cells with a left neighbour reach it.
        let left = (cells & self.has_left) >> 1;
        let right = (cells & self.has_right) << 1;
        (cells | up | down | left | right) & free
    }

    /// Whether the free cell `blank` lies in a pocket: a region of free cells (cells not in
    /// `occupied`) of at most [`POCKET_CELLS`] cells. Without a branch: a region of `s`
    /// cells is whole after `s - 1` steps of growth, so it is a pocket when growing it
    /// [`POCKET_CELLS`] times gains nothing on the last step and it has at most that many
    /// cells.
    #[inline(always)]
    pub fn in_pocket(&self, occupied: u64, blank: usize) -> bool {
        let free = self.all & !occupied;
        let mut region = 1u64 << blank;
        let mut before = region;
        for _ in 0..POCKET_CELLS {
            before = region;
            region = self.grow(region, free);
        }
        region == before && region.count_ones() <= POCKET_CELLS
    }
}
