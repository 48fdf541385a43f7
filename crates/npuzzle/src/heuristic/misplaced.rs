use super::Heuristic;
use crate::puzzle::Puzzle;

/// Number of tiles (not the blank) away from their goal cell. Admissible: each such tile
/// needs at least one move.
#[derive(Clone, Debug)]
pub struct Misplaced {
    goal: Vec<u8>,
}

impl Misplaced {
    /// For a puzzle's goal.
    pub fn new(puzzle: &Puzzle) -> Misplaced {
        Misplaced {
            goal: puzzle.goal.clone(),
        }
    }
}

impl Heuristic for Misplaced {
    fn heap_bytes(&self) -> u64 {
        self.goal.capacity() as u64
    }
    fn estimate(&self, tiles: &[u8]) -> f64 {
        tiles
            .iter()
            .zip(&self.goal)
            .filter(|&(&t, &g)| t != 0 && t != g)
            .count() as f64
    }
}
