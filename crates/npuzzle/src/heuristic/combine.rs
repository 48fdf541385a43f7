use super::Heuristic;

/// `Σ wᵢ·hᵢ`. Admissible when every `hᵢ` is, all weights are non-negative and they add up
/// to at most 1 (a convex combination of lower bounds is a lower bound).
pub struct WeightedSum(pub Vec<(f64, Box<dyn Heuristic>)>);

impl Heuristic for WeightedSum {
    fn estimate(&self, tiles: &[u8]) -> f64 {
        self.0.iter().map(|(w, h)| w * h.estimate(tiles)).sum()
    }
    fn heap_bytes(&self) -> u64 {
        self.0.iter().map(|(_, h)| h.heap_bytes() + 16).sum()
    }
}

/// `max(h₁, h₂, …)`. Admissible when every part is.
pub struct Max(pub Vec<Box<dyn Heuristic>>);

impl Heuristic for Max {
    fn estimate(&self, tiles: &[u8]) -> f64 {
        self.0.iter().map(|h| h.estimate(tiles)).fold(0.0, f64::max)
    }
    fn heap_bytes(&self) -> u64 {
        self.0.iter().map(|h| h.heap_bytes() + 16).sum()
    }
}
