//! Python arguments to core types, checked with the command line's rules and messages
//! (`--time-limit` on the command line is `time_limit` here).

use std::time::Duration;

use npuzzle::search::Control;
use npuzzle::{Algorithm, Board, HeuristicSpec, Limits, Solution, SolveError, SolveOptions};
use pyo3::prelude::*;

use crate::board::GoalArg;
use crate::errors::{self, Kind};
use crate::heuristic::PyHeuristic;

/// The command line's default `--memory-limit`, in megabytes.
pub const DEFAULT_MEMORY_MB: u64 = 4096;

/// A heuristic from a name, an expression or a `Heuristic`; `None` stays `None`.
///
/// # Errors
/// `InvalidOption` with the core's message.
pub fn heuristic_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<HeuristicSpec>> {
    let Some(obj) = obj else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    if let Ok(h) = obj.cast::<PyHeuristic>() {
        return Ok(Some(h.get().spec.clone()));
    }
    let text: String = obj.str()?.to_string();
    text.parse().map(Some).map_err(errors::heuristic)
}

/// An algorithm by its command-line name.
///
/// # Errors
/// `InvalidOption` with the core's message.
pub fn algorithm_arg(name: &str) -> PyResult<Algorithm> {
    name.parse().map_err(|e| errors::solve(&e))
}

/// Everything `solve` needs besides the board: options, goal and limits, checked.
#[derive(Clone, Debug)]
pub struct SolveConfig {
    /// Algorithm, heuristic and weight.
    pub options: SolveOptions,
    /// The goal.
    pub goal: GoalArg,
    /// Time, node and memory limits.
    pub limits: Limits,
}

impl SolveConfig {
    /// One solve with the core and the module's tables, as the command line runs it.
    ///
    /// # Errors
    /// As [`npuzzle::solve`].
    pub fn solve(
        &self,
        start: &Board,
        goal: &Board,
        control: Control<'_>,
    ) -> Result<Solution, SolveError> {
        self.solve_with(crate::tables(), start, goal, control)
    }

    /// [`solve`](Self::solve) with other tables.
    ///
    /// # Errors
    /// As [`npuzzle::solve`].
    pub fn solve_with(
        &self,
        tables: &npuzzle::Tables,
        start: &Board,
        goal: &Board,
        control: Control<'_>,
    ) -> Result<Solution, SolveError> {
        npuzzle::solve(start, goal, &self.options, tables, control)
    }

    /// Checks the keyword arguments of `solve` and friends.
    ///
    /// # Errors
    /// `InvalidOption` (or `InvalidBoard` for the goal) with the command line's message.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        goal: Option<&Bound<'_, PyAny>>,
        heuristic: Option<&Bound<'_, PyAny>>,
        algorithm: &str,
        weight: Option<f64>,
        time_limit: Option<f64>,
        max_nodes: Option<i64>,
        memory_limit: Option<i64>,
    ) -> PyResult<SolveConfig> {
        let invalid = |m: String| errors::error(Kind::InvalidOption, m);
        let weight = weight.unwrap_or(2.0);
        if !(weight.is_finite() && (1.0..=1e6).contains(&weight)) {
            return Err(invalid(format!(
                "weight must be a number from 1 to 1000000, got {weight}"
            )));
        }
        let time = match time_limit {
            None => None,
            Some(t) if t.is_finite() && t > 0.0 && t <= 1e7 => Some(Duration::from_secs_f64(t)),
            Some(t) => {
                return Err(invalid(format!(
                    "time_limit must be a number of seconds above 0 and at most 10000000, got {t}"
                )))
            }
        };
        let nodes = match max_nodes {
            None => None,
            Some(n) if n >= 1 => Some(n as u64),
            Some(_) => return Err(invalid("max_nodes must be at least 1".to_string())),
        };
        let memory = memory_limit.unwrap_or(DEFAULT_MEMORY_MB as i64);
        if !(1..=1 << 30).contains(&memory) {
            return Err(invalid(format!(
                "memory_limit must be between 1 and {} megabytes, got {memory}",
                1u64 << 30
            )));
        }
        Ok(SolveConfig {
            options: SolveOptions {
                algorithm: algorithm_arg(algorithm)?,
                heuristic: heuristic_arg(heuristic)?,
                weight,
                optimal: false,
            },
            goal: GoalArg::from_py(goal)?,
            limits: Limits {
                time,
                nodes,
                memory_bytes: Some((memory as u64) << 20),
            },
        })
    }
}

/// `jobs=`: worker threads, one per core by default.
///
/// # Errors
/// `InvalidOption` for 0 or more than 1024, as `--jobs`.
pub fn jobs_arg(jobs: Option<i64>) -> PyResult<usize> {
    match jobs {
        Some(n) if (1..=1024).contains(&n) => Ok(n as usize),
        Some(n) => Err(errors::error(
            Kind::InvalidOption,
            format!("jobs must be between 1 and 1024, got {n}"),
        )),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}
