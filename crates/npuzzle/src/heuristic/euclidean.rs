use super::Heuristic;
use crate::puzzle::Puzzle;

/// Sum over tiles (not the blank) of the straight-line distance to the goal cell.
/// Admissible (never above Manhattan), but weaker than Manhattan.
#[derive(Clone, Debug)]
pub struct Euclidean {
    n: usize,
    dist: Vec<f64>,
}

impl Euclidean {
    /// For a puzzle's goal.
    pub fn new(puzzle: &Puzzle) -> Euclidean {
        let n = puzzle.cells();
        let shape = puzzle.shape;
        let mut dist = vec![0.0; n * n];
        for t in 1..n {
            let (gr, gc) = shape.coords(puzzle.goal_cell[t] as usize);
            for cell in 0..n {
                let (r, c) = shape.coords(cell);
                let (dr, dc) = (r.abs_diff(gr) as f64, c.abs_diff(gc) as f64);
                dist[t * n + cell] = (dr * dr + dc * dc).sqrt();
            }
        }
        Euclidean { n, dist }
    }
}

impl Heuristic for Euclidean {
    fn heap_bytes(&self) -> u64 {
        (self.dist.capacity() * std::mem::size_of::<f64>()) as u64
    }
    fn estimate(&self, tiles: &[u8]) -> f64 {
        tiles
            .iter()
            .enumerate()
            .map(|(cell, &t)| self.dist[usize::from(t) * self.n + cell])
            .sum()
    }
}
