//! The `npuzzle._native` extension module: a thin layer of conversions over the `npuzzle`
//! core crate. The Python package (`npuzzle/__init__.py`) re-exports it with the parts
//! written in Python (exceptions, pandas tables, rendering, Dask).
//!
//! No solver logic lives here: boards, goals, heuristics, search and reports are the core's,
//! so results, JSON fields and messages are those of the command line.

mod api;
mod batch;
mod board;
mod board_file;
mod errors;
mod frontier;
mod heuristic;
mod interrupt;
mod numbers;
mod options;
mod solution;

use std::path::PathBuf;
use std::sync::OnceLock;

use npuzzle::{TablePolicy, Tables};

use pyo3::prelude::*;

/// The extension's Rust allocations (not Python's objects) go to mimalloc: in `solve_many`
/// the calling thread frees what the other threads allocated (each board's path and each
/// run's results) while they go on allocating, and with the system allocator each such free
/// took a lock the other thread was using (`perf` showed futex waits in `malloc` and `free`).
/// It also makes the many small allocations of a search on a small board cheaper.
#[global_allocator]
static ALLOC: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Where pattern databases are cached, as on the command line: `NPUZZLE_PDB_DIR`, else the
/// user's cache directory (`~/.cache/npuzzle/pdb` on Linux).
fn pdb_dir() -> Option<PathBuf> {
    std::env::var_os("NPUZZLE_PDB_DIR")
        .map(PathBuf::from)
        .filter(|d| !d.as_os_str().is_empty())
        .or_else(|| dirs::cache_dir().map(|d| d.join("npuzzle").join("pdb")))
}

/// Bytes of tables this process keeps in memory before dropping the least recently used:
/// a notebook that solves towards many goals keeps one exact table per goal otherwise.
const TABLE_MEMORY: u64 = 2 << 30;

/// The module's tables, as the command line's `main` owns its own: cached in [`pdb_dir`].
pub fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        Tables::new(
            pdb_dir(),
            TablePolicy {
                memory_budget: Some(TABLE_MEMORY),
                ..TablePolicy::default()
            },
        )
    })
}

/// Tables that are never built, only read from the cache directory: for goals too few
/// boards share to repay building a table (see `batch::Goals::own`). What they load is
/// dropped past 256 MB, least recently used first.
pub fn tables_without_builds() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        Tables::new(
            pdb_dir(),
            TablePolicy {
                max_build_entries: 0,
                save: false,
                memory_budget: Some(256 << 20),
            },
        )
    })
}

/// The directory pattern databases are cached in, or ``None`` (memory only).
#[pyfunction]
fn pdb_cache_dir() -> Option<PathBuf> {
    tables().cache_dir().map(PathBuf::from)
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MAX_INPUT_BYTES", npuzzle::MAX_INPUT_BYTES)?;
    m.add("MAX_BOARD_LINES", npuzzle::MAX_BOARD_LINES)?;
    m.add_class::<board::PyBoard>()?;
    m.add_class::<solution::PySolution>()?;
    m.add_class::<heuristic::PyHeuristic>()?;
    m.add_class::<frontier::PyWorkUnit>()?;
    m.add_function(wrap_pyfunction!(api::solve, m)?)?;
    m.add_function(wrap_pyfunction!(batch::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(api::check, m)?)?;
    m.add_function(wrap_pyfunction!(api::hint, m)?)?;
    m.add_function(wrap_pyfunction!(api::random_boards, m)?)?;
    m.add_function(wrap_pyfunction!(heuristic::make_heuristic, m)?)?;
    m.add_function(wrap_pyfunction!(pdb_cache_dir, m)?)?;
    m.add_function(wrap_pyfunction!(frontier::split, m)?)?;
    m.add_function(wrap_pyfunction!(frontier::solve_unit, m)?)?;
    m.add_function(wrap_pyfunction!(api::plan, m)?)?;
    m.add_function(wrap_pyfunction!(board_file::parse_boards, m)?)?;
    Ok(())
}
