use super::{Heuristic, IncrementalHeuristic};
use crate::moves::Move;
use crate::puzzle::Puzzle;

/// Sum over tiles (not the blank) of row distance + column distance to the goal cell.
/// Admissible and consistent: a move shifts one tile by one cell.
#[derive(Clone, Debug)]
pub struct Manhattan {
    n: usize,
    /// `dist[t * n + cell]`: distance of tile `t` on `cell` to its goal cell (0 for the blank).
    dist: Vec<u16>,
    /// `delta[((t << shift) | cell) * 4 + m]`: change when tile `t` leaves `cell` because the
    /// blank arrived there by move `m` (the tile travels opposite to `m`). One lookup per
    /// node is what keeps IDA* fast (Korf 1985 used the same incremental update); rows of a
    /// power-of-two length make the index shifts and ors, not a multiplication, on the
    /// search's critical path.
    delta: Vec<i8>,
    /// `log2` of the delta table's row length (cells rounded up to a power of two).
    shift: u32,
}

impl Manhattan {
    /// For a puzzle's goal.
    pub fn new(puzzle: &Puzzle) -> Manhattan {
        let n = puzzle.cells();
        let shape = puzzle.shape;
        let mut dist = vec![0u16; n * n];
        for t in 1..n {
            let (gr, gc) = shape.coords(puzzle.goal_cell[t] as usize);
            for cell in 0..n {
                let (r, c) = shape.coords(cell);
                dist[t * n + cell] = (r.abs_diff(gr) + c.abs_diff(gc)) as u16;
            }
        }
        let shift = n.next_power_of_two().trailing_zeros();
        let mut delta = vec![0i8; (n << shift) * 4];
        for t in 1..n {
            for cell in 0..n {
                for m in Move::ALL {
                    // The blank moved by `m` onto `cell`; the tile went the opposite way.
                    if let Some(dest) = crate::board::neighbour(shape, cell, m.opposite()) {
                        let d = i32::from(dist[t * n + dest]) - i32::from(dist[t * n + cell]);
                        delta[((t << shift) | cell) * 4 + m.index()] = d as i8;
                    }
                }
            }
        }
        Manhattan {
            n,
            dist,
            delta,
            shift,
        }
    }

    /// Distance of tile `t` standing on `cell` to its goal cell.
    #[inline]
    pub fn tile_distance(&self, t: u8, cell: usize) -> u32 {
        u32::from(self.dist[usize::from(t) * self.n + cell])
    }

    /// Sum over all tiles, as a whole number.
    pub fn total(&self, tiles: &[u8]) -> u32 {
        tiles
            .iter()
            .enumerate()
            .map(|(cell, &t)| self.tile_distance(t, cell))
            .sum()
    }

    /// The change in distance when tile `t`, standing on `cell`, is moved because the blank
    /// moved onto `cell` by move `m`.
    #[inline]
    pub fn delta(&self, t: u8, cell: usize, m: Move) -> i32 {
        i32::from(self.delta[((usize::from(t) << self.shift) | cell) * 4 + m.index()])
    }
}

impl Heuristic for Manhattan {
    fn estimate(&self, tiles: &[u8]) -> f64 {
        f64::from(self.total(tiles))
    }
    fn heap_bytes(&self) -> u64 {
        (self.dist.capacity() * 2 + self.delta.capacity()) as u64
    }
}

impl IncrementalHeuristic for Manhattan {
    type Undo = ();
    const READS_TILES: bool = false;
    fn init(&mut self, tiles: &[u8]) -> u32 {
        self.total(tiles)
    }
    #[inline]
    fn apply(&mut self, _: &[u8], h: u32, tile: u8, from: usize, _: usize, m: Move) -> (u32, ()) {
        (h.wrapping_add_signed(self.delta(tile, from, m)), ())
    }
    #[inline]
    fn undo(&mut self, _: ()) {}
    /// Nothing to keep: the value is all the state there is.
    fn saved_bytes(&self) -> Option<usize> {
        Some(0)
    }
}
