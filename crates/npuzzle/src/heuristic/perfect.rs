use std::sync::Arc;

use super::lehmer::{rank, unrank};
use super::Heuristic;
use crate::puzzle::Puzzle;

/// The largest board (in cells) for which [`PerfectTable`] holds every state: 10! bytes is
/// 3.6 MB and builds in about a second; 12! would be 479 MB.
pub const MAX_PERFECT_CELLS: usize = 10;

/// The exact distance of every state to the goal, from one breadth-first search backwards
/// from the goal. With it, IDA* walks straight down an optimal path.
///
/// Tables are built by [`super::Tables::perfect`], once per shape and goal, and kept there.
#[derive(Clone, Debug)]
pub struct PerfectTable {
    n: usize,
    /// Distance by permutation rank; `u8::MAX` for states in the other parity class.
    dist: Arc<Vec<u8>>,
}

impl PerfectTable {
    /// A table from its distances by permutation rank (see [`super::Tables::perfect`],
    /// which builds and keeps them).
    pub(crate) fn from_distances(n: usize, dist: Arc<Vec<u8>>) -> PerfectTable {
        PerfectTable { n, dist }
    }

    /// The exact number of moves from `tiles` to the goal, or `None` if unreachable.
    pub fn distance(&self, tiles: &[u8]) -> Option<u32> {
        match self.dist[rank(tiles)] {
            u8::MAX => None,
            d => Some(u32::from(d)),
        }
    }

    /// Number of cells of the table's board.
    pub fn cells(&self) -> usize {
        self.n
    }
}

impl Heuristic for PerfectTable {
    fn estimate(&self, tiles: &[u8]) -> f64 {
        f64::from(self.dist[rank(tiles)])
    }
    /// The whole table, although it is shared with other searches of the same goal: it is
    /// held for as long as this search runs.
    fn heap_bytes(&self) -> u64 {
        self.dist.len() as u64
    }
}

/// Breadth-first search from the goal over permutation ranks.
pub(super) fn build(puzzle: &Puzzle) -> Vec<u8> {
    let n = puzzle.cells();
    let total: usize = (1..=n).product();
    let mut dist = vec![u8::MAX; total];
    let start = rank(&puzzle.goal);
    dist[start] = 0;
    let mut frontier = vec![start as u32];
    let mut next = Vec::new();
    let mut tiles = vec![0u8; n];
    let mut depth = 0u8;
    while !frontier.is_empty() {
        depth += 1;
        for &r in &frontier {
            unrank(r as usize, &mut tiles);
            let blank = tiles.iter().position(|&t| t == 0).expect("a blank");
            for &to in &puzzle.neighbours[blank] {
                if to == crate::puzzle::NO_CELL {
                    continue;
                }
                tiles.swap(blank, usize::from(to));
                let s = rank(&tiles);
                if dist[s] == u8::MAX {
                    dist[s] = depth;
                    next.push(s as u32);
                }
                tiles.swap(blank, usize::from(to));
            }
        }
        std::mem::swap(&mut frontier, &mut next);
        next.clear();
    }
    dist
}
