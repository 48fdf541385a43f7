//! The tables a plan uses: where each comes from and what it costs, and loading or
//! building them before a run.

use serde::Serialize;

use crate::error::SolveError;
use crate::heuristic::pdb::build::Progress;
use crate::heuristic::pdb::{build_size, Partition, PdbError, TableKey};
use crate::heuristic::{HeuristicError, HeuristicSpec, TableEvent, Tables};
use crate::puzzle::Puzzle;

/// Where a table comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TableSourceKind {
    /// Already in memory.
    Memory,
    /// In the cache directory.
    Disk,
    /// Built when the plan runs.
    Build,
}

/// One table a plan uses.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableNeed {
    /// What the table is, e.g. `pattern 4x4 cells 1,2,3,4,5,6,7` or `exact 3x3`.
    pub name: String,
    /// Entries of the table.
    pub entries: u64,
    /// Bytes of table data.
    pub bytes: u64,
    /// Where it comes from.
    pub source: TableSourceKind,
    /// Estimated seconds to load or build it.
    pub seconds: f64,
    /// The pattern's table, to size its build by; `None` for the exact table.
    #[serde(skip)]
    pub key: Option<TableKey>,
}

impl TableNeed {
    /// Bytes building the table takes besides the table itself, at its peak; 0 when it is
    /// not built.
    pub fn build_bytes(&self) -> u64 {
        if self.source != TableSourceKind::Build {
            return 0;
        }
        match &self.key {
            Some(key) => build_size(key).peak_bytes.saturating_sub(self.bytes),
            // The breadth-first search's two widest layers, as 4-byte ranks in vectors
            // that grow by doubling: under 0.6 bytes an entry on 2×5 (two layers hold 15 %
            // of its 1,814,400 states), the largest board with an exact table.
            None => self.entries,
        }
    }
}

/// Pattern-table entries built per second, for estimates (measured: 6-6-3 in 0.5 s, 7-8
/// in 31 s).
pub(super) const BUILD_ENTRIES_PER_SECOND: f64 = 20e6;

/// Exact-table entries built per second (10 cells in about a second).
pub(super) const PERFECT_ENTRIES_PER_SECOND: f64 = 4e6;

/// Bytes read from the cache directory per second, for estimates (measured: the 255 MB of
/// 5×5's 6-6-6-6 tables in 0.38 to 0.40 s from the page cache, 0.63 s after it was dropped).
pub(super) const LOAD_BYTES_PER_SECOND: f64 = 5e8;

/// Entries of the exact table of a board of `cells` cells (`cells!`).
pub(super) fn perfect_entries(cells: usize) -> u64 {
    (1..=cells as u64).product()
}

/// Adds the tables a resolved heuristic needs (each once).
pub(super) fn table_needs(
    spec: &HeuristicSpec,
    puzzle: &Puzzle,
    tables: &Tables,
    needs: &mut Vec<TableNeed>,
) -> Result<(), SolveError> {
    match spec {
        HeuristicSpec::Perfect => {
            let entries = perfect_entries(puzzle.cells());
            let (source, seconds) = if tables.perfect_in_memory(puzzle) {
                (TableSourceKind::Memory, 0.0)
            } else {
                (
                    TableSourceKind::Build,
                    entries as f64 / PERFECT_ENTRIES_PER_SECOND,
                )
            };
            let need = TableNeed {
                name: format!("exact {}", puzzle.shape),
                entries,
                bytes: entries,
                source,
                seconds,
                key: None,
            };
            add_need(needs, need);
        }
        HeuristicSpec::Pdb(p) => {
            let partition = p.partition(puzzle).map_err(HeuristicError::from)?;
            partition_needs(&partition, tables, needs);
        }
        HeuristicSpec::Sum(terms) => {
            for (_, h) in terms {
                table_needs(h, puzzle, tables, needs)?;
            }
        }
        HeuristicSpec::Max(parts) => {
            for h in parts {
                table_needs(h, puzzle, tables, needs)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// Adds the tables of a partition's patterns (each once).
pub(super) fn partition_needs(partition: &Partition, tables: &Tables, needs: &mut Vec<TableNeed>) {
    for key in partition.keys() {
        let entries = key.entries();
        let bytes = entries.div_ceil(2);
        let (source, seconds) = if tables.pattern_in_memory(&key) {
            (TableSourceKind::Memory, 0.0)
        } else if tables.pattern_at_hand(&key) {
            (TableSourceKind::Disk, bytes as f64 / LOAD_BYTES_PER_SECOND)
        } else {
            (
                TableSourceKind::Build,
                entries as f64 / BUILD_ENTRIES_PER_SECOND,
            )
        };
        let cells: Vec<String> = key.cells.iter().map(u8::to_string).collect();
        let need = TableNeed {
            name: format!("pattern {} cells {}", key.shape, cells.join(",")),
            entries,
            bytes,
            source,
            seconds,
            key: Some(key),
        };
        add_need(needs, need);
    }
}

/// Adds `need` unless a table of its name is there already (two phases, or a heuristic
/// and the beams' ranking, may share tables).
fn add_need(needs: &mut Vec<TableNeed>, need: TableNeed) {
    if !needs.iter().any(|n| n.name == need.name) {
        needs.push(need);
    }
}

/// Loads or builds the tables of a partition's patterns, recording what happened to each
/// (once).
pub(super) fn prepare_partition(
    partition: &Partition,
    tables: &Tables,
    progress: &mut Progress<'_>,
    events: &mut Vec<TableEvent>,
) -> Result<(), SolveError> {
    for key in partition.keys() {
        let (_, event) = tables
            .pattern(&key, progress)
            .map_err(|stopped| HeuristicError::from(PdbError::from(stopped)))?;
        if !events.iter().any(|e: &TableEvent| e.key == event.key) {
            events.push(event);
        }
    }
    Ok(())
}

pub(super) fn prepare_spec(
    spec: &HeuristicSpec,
    puzzle: &Puzzle,
    tables: &Tables,
    progress: &mut Progress<'_>,
    events: &mut Vec<TableEvent>,
) -> Result<(), SolveError> {
    match spec {
        HeuristicSpec::Perfect => {
            tables.perfect(puzzle)?;
        }
        HeuristicSpec::Pdb(p) => {
            let partition = p.partition(puzzle).map_err(HeuristicError::from)?;
            prepare_partition(&partition, tables, progress, events)?;
        }
        HeuristicSpec::Sum(terms) => {
            for (_, h) in terms {
                prepare_spec(h, puzzle, tables, progress, events)?;
            }
        }
        HeuristicSpec::Max(parts) => {
            for h in parts {
                prepare_spec(h, puzzle, tables, progress, events)?;
            }
        }
        _ => {}
    }
    Ok(())
}
