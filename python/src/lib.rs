//! The `npuzzle._native` extension module: a thin layer of conversions over the `npuzzle`
//! core crate. The Python package (`npuzzle/__init__.py`) re-exports it with the parts
//! written in Python (exceptions, pandas tables, rendering, Dask).
//!
//! No solver logic lives here: boards, goals, heuristics, search and reports are the core's,
//! so results, JSON fields and messages are those of the command line.

mod api;
mod board;
mod errors;
mod frontier;
mod heuristic;
mod options;
mod solution;

use std::path::PathBuf;

use pyo3::prelude::*;

/// Where pattern databases are cached, as on the command line: `NPUZZLE_PDB_DIR`, else the
/// user's cache directory (`~/.cache/npuzzle/pdb` on Linux).
fn pdb_dir() -> Option<PathBuf> {
    std::env::var_os("NPUZZLE_PDB_DIR")
        .map(PathBuf::from)
        .filter(|d| !d.as_os_str().is_empty())
        .or_else(|| dirs::cache_dir().map(|d| d.join("npuzzle").join("pdb")))
}

/// The directory pattern databases are cached in, or ``None`` (memory only).
#[pyfunction]
fn pdb_cache_dir() -> Option<PathBuf> {
    npuzzle::heuristic::pdb::registry::cache_dir()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    npuzzle::heuristic::pdb::registry::set_cache_dir(pdb_dir());
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<board::PyBoard>()?;
    m.add_class::<solution::PySolution>()?;
    m.add_class::<heuristic::PyHeuristic>()?;
    m.add_class::<frontier::PyWorkUnit>()?;
    m.add_function(wrap_pyfunction!(api::solve, m)?)?;
    m.add_function(wrap_pyfunction!(api::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(api::check, m)?)?;
    m.add_function(wrap_pyfunction!(api::random_boards, m)?)?;
    m.add_function(wrap_pyfunction!(heuristic::make_heuristic, m)?)?;
    m.add_function(wrap_pyfunction!(pdb_cache_dir, m)?)?;
    m.add_function(wrap_pyfunction!(frontier::split, m)?)?;
    m.add_function(wrap_pyfunction!(frontier::solve_unit, m)?)?;
    Ok(())
}
