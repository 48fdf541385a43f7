//! Additive disjoint pattern databases (Korf & Felner 2002; Felner, Korf & Hanan 2004).
//!
//! The tiles of a goal are split into disjoint **patterns** (a [`Partition`], e.g. `7-8`:
//! seven tiles and eight tiles on the 15-puzzle). For each pattern a [`PatternTable`] holds,
//! for every placement of its tiles, the fewest moves *of those tiles* that bring them
//! home. Because each table counts only its own tiles' moves, the values of all patterns
//! add up to an admissible heuristic, far stronger than Manhattan distance.
//!
//! * Tables are named by the goal **cells** of their tiles, not tile numbers, so they work
//!   for every goal and are shared between goals that use the same cells.
//! * [`build`](build::build) runs a breadth-first search over compact placement indices
//!   (see `index.rs` and `build.rs`); entries take 4 bits.
//! * [`Tables`](crate::Tables) holds the tables a program has loaded or built and, when the caller gives a
//!   directory, caches them on disk with a versioned, checksummed header ([`store`]).
//! * [`PatternDatabase`] adds the reflected lookup and serves IDA* move by move
//!   ([`PdbSearch`]).
//!
//! ```
//! use npuzzle::heuristic::pdb::{Partition, PatternDatabase};
//! use npuzzle::{Board, GoalSpec, Puzzle, Tables};
//! let goal = GoalSpec::Standard.board("3x3".parse()?)?;
//! let puzzle = Puzzle::new(&goal).unwrap();
//! let partition = Partition::new(puzzle.shape, 8, &[4, 4])?;
//! let db = PatternDatabase::from_tables(&puzzle, &partition, &Tables::default())?;
//! let start = Board::parse("8 6 7/2 5 4/3 0 1", None)?; // 31 moves from the goal
//! let h = db.value(&puzzle.encode(&start));
//! assert!(h >= 21 && h <= 31); // at least Manhattan distance, at most the true distance
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod build;
mod database;
pub mod index;
mod memory;
mod partition;
pub(crate) mod pockets;
pub(crate) mod prefetch;
pub mod store;
pub(crate) mod table;
mod verify;

pub use build::{build_size, keep_going, BuildProgress, BuildSize, BuildStopped};
pub use database::{PatternDatabase, PatternState, PdbSearch, PdbUndo};
pub use index::{table_entries, MAX_PDB_CELLS};
pub use partition::{
    candidates, sizes_within, Partition, PartitionSpec, DEFAULT_BUILD_ENTRIES, MAX_TABLE_ENTRIES,
};
pub use table::{PatternTable, TableKey};

use crate::shape::Shape;

/// Why a pattern database cannot serve a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PdbError {
    /// A board too large for occupancy masks.
    #[error("pattern databases support boards of at most {max} cells, this one has {cells}")]
    TooManyCells {
        /// Cells of the board.
        cells: usize,
        /// The most supported.
        max: usize,
    },
    /// Pattern sizes that do not add up to the tiles of the board.
    #[error("partition {partition} covers {covered} tiles but a {shape} board has {tiles}")]
    WrongTileCount {
        /// The partition, e.g. `7-8`.
        partition: String,
        /// Tiles it covers.
        covered: usize,
        /// The board shape.
        shape: Shape,
        /// Tiles of the board.
        tiles: usize,
    },
    /// A pattern with too many tiles.
    #[error("a pattern of {tiles} tiles is too large (at most {max})")]
    PatternTooLarge {
        /// Tiles asked for.
        tiles: usize,
        /// The most supported.
        max: usize,
    },
    /// A table too large to build.
    #[error(
        "a pattern of {tiles} tiles on a {shape} board needs {entries} table entries (at most {max})"
    )]
    TableTooLarge {
        /// Tiles in the pattern.
        tiles: usize,
        /// The board shape.
        shape: Shape,
        /// Entries needed.
        entries: u64,
        /// The most allowed.
        max: u64,
    },
    /// Tables that keep the blank's region, asked for on a board too large for them.
    #[error("tables that keep the blank's region support boards of at most {max} cells, this one has {cells}")]
    RegionsTooManyCells {
        /// Cells of the board.
        cells: usize,
        /// The most supported.
        max: usize,
    },
    /// A malformed `pdb:` name.
    #[error("invalid pattern database `{0}`: expected pdb or pdb: with pattern sizes such as pdb:7-8 or pdb:6-6-3")]
    Syntax(String),
    /// A drawn layout that is not one pattern letter or `.` per cell of the board, with
    /// one `.` and letters from `A` on.
    #[error("invalid partition layout `{0}`: expected one `.` (the blank) and a letter A, B, … per cell, row by row")]
    Layout(String),
    /// A partition used with a goal it was not made for.
    #[error("partition was made for another shape or blank goal cell")]
    GoalMismatch,
    /// A table build stopped by its caller (a time limit, a cancelled request).
    #[error("a pattern table build was stopped before it finished")]
    Stopped,
}

impl From<build::BuildStopped> for PdbError {
    fn from(_: build::BuildStopped) -> PdbError {
        PdbError::Stopped
    }
}

#[cfg(test)]
mod tests;
