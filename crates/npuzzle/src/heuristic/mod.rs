//! Heuristics: lower bounds (or guesses) of the number of moves to the goal.
//!
//! Every heuristic here ignores the blank: counting the blank can overestimate, which is
//! the classic classroom bug that makes "misplaced tiles" inadmissible.
//!
//! | name | admissible | what it counts |
//! |---|---|---|
//! | `misplaced` | yes | tiles not on their goal cell |
//! | `manhattan` | yes | sum of row + column distances of each tile to its goal cell |
//! | `euclidean` | yes | sum of straight-line distances (never above Manhattan) |
//! | `linear-conflict` | yes | Manhattan + 2 × tiles that must leave their row or column to let others pass (Hansson, Mayer & Yung 1992) |
//! | `perfect` | yes | the exact distance, from a table of every state (boards of at most 10 cells) |
//! | `pdb`, `pdb:7-8`, `pdb:6-6-3`, `pdb:5-5-5` | yes | additive disjoint pattern databases, with the reflected lookup (see [`pdb`]) |
//! | `W1*h1+W2*h2…` | when every `hi` is and `ΣWi ≤ 1` | weighted sum |
//! | `max(h1,h2,…)` | when every `hi` is | maximum |

mod combine;
mod euclidean;
pub mod learned;
mod lehmer;
mod linear_conflict;
mod manhattan;
mod misplaced;
mod pair;
pub mod pdb;
mod perfect;
mod spec;
pub mod tables;

pub use combine::{Max, WeightedSum};
pub use euclidean::Euclidean;
pub use linear_conflict::LinearConflict;
pub use manhattan::Manhattan;
pub use misplaced::Misplaced;
pub use pair::{Larger, Pair, RankingSum};
pub use perfect::{PerfectTable, MAX_PERFECT_CELLS};
pub use spec::{HeuristicError, HeuristicSpec};
pub use tables::{TableEvent, TablePolicy, TableSource, Tables};

use crate::moves::Move;
use crate::puzzle::Puzzle;

/// A heuristic evaluated on whole states (tiles as bytes, row-major, `0` the blank).
pub trait Heuristic: Send + Sync {
    /// The estimated number of moves from `tiles` to the goal.
    fn estimate(&self, tiles: &[u8]) -> f64;

    /// Bytes this heuristic holds in its own tables, counted against a search's memory
    /// limit (a `max(…)` of many parts on a large board holds many tables).
    fn heap_bytes(&self) -> u64 {
        0
    }
}

/// A heuristic that IDA* can update move by move instead of re-evaluating whole states.
///
/// IDA* swaps the tile and the blank first, then calls [`apply`](Self::apply); if it backs
/// out it calls [`undo`](Self::undo) with what `apply` returned.
pub trait IncrementalHeuristic {
    /// What `undo` needs to restore internal state.
    type Undo: Copy;
    /// Whether `apply` reads `tiles` (the board after the move). When it does not, IDA*'s
    /// fixed-size kernels move the tile on their board only for children they expand.
    const READS_TILES: bool = true;
    /// Sets up internal state for `tiles` and returns its value.
    fn init(&mut self, tiles: &[u8]) -> u32;
    /// `tile` has just moved from cell `from` to cell `to` by blank move `m`; `h` was the
    /// value before. Returns the new value.
    fn apply(
        &mut self,
        tiles: &[u8],
        h: u32,
        tile: u8,
        from: usize,
        to: usize,
        m: Move,
    ) -> (u32, Self::Undo);
    /// Reverts the internal state changed by `apply`.
    fn undo(&mut self, undo: Self::Undo);
    /// [`apply`](Self::apply) for a caller that only needs the exact value below `cut`: at
    /// or above it, any value at least `cut` will do (IDA* prunes the child and its next bound
    /// is already that low). Pattern databases then skip lookups that cannot matter; the
    /// state is updated fully only when the value returned is below `cut`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn apply_cut(
        &mut self,
        tiles: &[u8],
        h: u32,
        tile: u8,
        from: usize,
        to: usize,
        m: Move,
        cut: u32,
    ) -> (u32, Self::Undo) {
        let _ = cut;
        self.apply(tiles, h, tile, from, to, m)
    }
    /// A hint that `apply` will soon be called with these arguments (the tiles as they are
    /// before the move): a heuristic that reads large tables starts fetching the entries, so
    /// that the cache misses of a node's children overlap instead of coming one after the
    /// other. Changes nothing; the default does nothing. Called only when
    /// [`prefetches`](Self::prefetches) says so.
    #[inline]
    fn prefetch(&self, tile: u8, from: usize, to: usize) {
        let _ = (tile, from, to);
    }
    /// Whether [`prefetch`](Self::prefetch) does anything (the default: no), so that a
    /// search skips the calls.
    #[inline]
    fn prefetches(&self) -> bool {
        false
    }
    /// Bytes of internal state that [`save`](Self::save) writes, or `None` (the default)
    /// when the heuristic cannot be put back that way and a caller must call
    /// [`init`](Self::init) again. A beam keeps every kept state's saved bytes, so that
    /// expanding it costs its children's `apply`s only, not a whole-board `init`.
    fn saved_bytes(&self) -> Option<usize> {
        None
    }
    /// Writes the internal state (after `init` or `apply`) into `out`, of
    /// [`saved_bytes`](Self::saved_bytes) bytes.
    fn save(&self, out: &mut [u8]) {
        let _ = out;
    }
    /// Puts back the internal state that [`save`](Self::save) wrote, as if `init` had just
    /// been called on that state.
    fn restore(&mut self, saved: &[u8]) {
        let _ = saved;
    }
    /// A child's value and saved state: what [`apply`](Self::apply), [`save`](Self::save)
    /// into `out` and [`undo`](Self::undo) give one after the other, the heuristic left as
    /// it was. Called only when [`saved_bytes`](Self::saved_bytes) is `Some`. The default
    /// does just that; a heuristic with a large state writes the child's straight into
    /// `out` instead of changing its own, copying it and changing it back.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn apply_saved(
        &mut self,
        tiles: &[u8],
        h: u32,
        tile: u8,
        from: usize,
        to: usize,
        m: Move,
        out: &mut [u8],
    ) -> u32 {
        let (value, undo) = self.apply(tiles, h, tile, from, to, m);
        self.save(out);
        self.undo(undo);
        value
    }
}

/// A borrowed heuristic works as the heuristic itself: the parallel search lends each
/// thread's copy to unit after unit.
impl<H: IncrementalHeuristic + ?Sized> IncrementalHeuristic for &mut H {
    type Undo = H::Undo;
    const READS_TILES: bool = H::READS_TILES;
    #[inline]
    fn init(&mut self, tiles: &[u8]) -> u32 {
        (**self).init(tiles)
    }
    #[inline]
    fn apply(
        &mut self,
        tiles: &[u8],
        h: u32,
        tile: u8,
        from: usize,
        to: usize,
        m: Move,
    ) -> (u32, Self::Undo) {
        (**self).apply(tiles, h, tile, from, to, m)
    }
    #[inline]
    fn undo(&mut self, undo: Self::Undo) {
        (**self).undo(undo)
    }
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn apply_cut(
        &mut self,
        tiles: &[u8],
        h: u32,
        tile: u8,
        from: usize,
        to: usize,
        m: Move,
        cut: u32,
    ) -> (u32, Self::Undo) {
        (**self).apply_cut(tiles, h, tile, from, to, m, cut)
    }
    #[inline]
    fn prefetch(&self, tile: u8, from: usize, to: usize) {
        (**self).prefetch(tile, from, to)
    }
    #[inline]
    fn prefetches(&self) -> bool {
        (**self).prefetches()
    }
    fn saved_bytes(&self) -> Option<usize> {
        (**self).saved_bytes()
    }
    fn save(&self, out: &mut [u8]) {
        (**self).save(out)
    }
    fn restore(&mut self, saved: &[u8]) {
        (**self).restore(saved)
    }
    #[inline]
    #[allow(clippy::too_many_arguments)]
    fn apply_saved(
        &mut self,
        tiles: &[u8],
        h: u32,
        tile: u8,
        from: usize,
        to: usize,
        m: Move,
        out: &mut [u8],
    ) -> u32 {
        (**self).apply_saved(tiles, h, tile, from, to, m, out)
    }
}

/// Any [`Heuristic`] as an [`IncrementalHeuristic`] that re-evaluates every state. Values are
/// rounded up (minus a rounding tolerance): distances are whole moves, so rounding an
/// admissible bound up keeps it admissible.
#[derive(Clone, Copy)]
pub struct Reevaluate<'a>(pub &'a dyn Heuristic);

/// Rounds a heuristic value up to whole moves, tolerating floating-point noise. Values are
/// capped at 2^30 so that `g + h` never overflows, whatever weights a user types.
pub fn whole_moves(h: f64) -> u32 {
    (h - 1e-9).ceil().clamp(0.0, f64::from(1u32 << 30)) as u32
}

impl IncrementalHeuristic for Reevaluate<'_> {
    type Undo = ();
    fn init(&mut self, tiles: &[u8]) -> u32 {
        whole_moves(self.0.estimate(tiles))
    }
    fn apply(&mut self, tiles: &[u8], _: u32, _: u8, _: usize, _: usize, _: Move) -> (u32, ()) {
        (whole_moves(self.0.estimate(tiles)), ())
    }
    fn undo(&mut self, _: ()) {}
    /// Nothing to keep: every value is computed afresh.
    fn saved_bytes(&self) -> Option<usize> {
        Some(0)
    }
}

/// Builds a heuristic for a puzzle.
///
/// # Errors
/// [`HeuristicError`] when the heuristic cannot serve this puzzle (e.g. `perfect` on a
/// board too large for its table).
pub fn build(
    spec: &HeuristicSpec,
    puzzle: &Puzzle,
    tables: &Tables,
) -> Result<Box<dyn Heuristic>, HeuristicError> {
    build_watched(spec, puzzle, tables, &mut pdb::keep_going)
}

/// [`build`], with `progress` told how every table build goes and able to stop it (then
/// [`HeuristicError::Pdb`] with [`pdb::PdbError::Stopped`]).
///
/// # Errors
/// As [`build`], and a stopped build.
pub fn build_watched(
    spec: &HeuristicSpec,
    puzzle: &Puzzle,
    tables: &Tables,
    progress: &mut pdb::build::Progress<'_>,
) -> Result<Box<dyn Heuristic>, HeuristicError> {
    Ok(match spec {
        HeuristicSpec::Misplaced => Box::new(Misplaced::new(puzzle)),
        HeuristicSpec::Manhattan => Box::new(Manhattan::new(puzzle)),
        HeuristicSpec::Euclidean => Box::new(Euclidean::new(puzzle)),
        HeuristicSpec::LinearConflict => Box::new(LinearConflict::new(puzzle)),
        HeuristicSpec::Perfect => Box::new(tables.perfect(puzzle)?),
        HeuristicSpec::Pdb(p) => {
            let partition = p.partition(puzzle)?;
            Box::new(pdb::PatternDatabase::new(puzzle, &partition, tables, progress)?.0)
        }
        HeuristicSpec::Sum(terms) => Box::new(WeightedSum(
            terms
                .iter()
                .map(|(w, s)| Ok((*w, build_watched(s, puzzle, tables, progress)?)))
                .collect::<Result<_, HeuristicError>>()?,
        )),
        HeuristicSpec::Max(parts) => Box::new(Max(parts
            .iter()
            .map(|s| build_watched(s, puzzle, tables, progress))
            .collect::<Result<_, _>>()?)),
    })
}

#[cfg(test)]
mod tests;
