use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::lehmer::{rank, unrank};
use super::{Heuristic, HeuristicError};
use crate::puzzle::Puzzle;

/// The largest board (in cells) for which [`PerfectTable`] holds every state: 10! bytes is
/// 3.6 MB and builds in about a second; 12! would be 479 MB.
pub const MAX_PERFECT_CELLS: usize = 10;

/// The exact distance of every state to the goal, from one breadth-first search backwards
/// from the goal. With it, IDA* walks straight down an optimal path.
///
/// Tables are built once per shape and goal and shared for the life of the process.
#[derive(Clone, Debug)]
pub struct PerfectTable {
    n: usize,
    /// Distance by permutation rank; `u8::MAX` for states in the other parity class.
    dist: Arc<Vec<u8>>,
}

type Key = (usize, usize, Vec<u8>);

fn cache() -> &'static Mutex<HashMap<Key, Arc<Vec<u8>>>> {
    static CACHE: OnceLock<Mutex<HashMap<Key, Arc<Vec<u8>>>>> = OnceLock::new();
    CACHE.get_or_init(Default::default)
}

impl PerfectTable {
    /// The table for a puzzle's goal, built on first use.
    ///
    /// # Errors
    /// [`HeuristicError::TooLarge`] for boards over [`MAX_PERFECT_CELLS`] cells.
    pub fn get(puzzle: &Puzzle) -> Result<PerfectTable, HeuristicError> {
        let n = puzzle.cells();
        if n > MAX_PERFECT_CELLS {
            return Err(HeuristicError::TooLarge {
                heuristic: "perfect".into(),
                cells: n,
                max: MAX_PERFECT_CELLS,
            });
        }
        let key = (
            puzzle.shape.rows(),
            puzzle.shape.cols(),
            puzzle.goal.clone(),
        );
        let mut tables = cache().lock().unwrap_or_else(|e| e.into_inner());
        let dist = tables
            .entry(key)
            .or_insert_with(|| Arc::new(build(puzzle)))
            .clone();
        Ok(PerfectTable { n, dist })
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
fn build(puzzle: &Puzzle) -> Vec<u8> {
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
