//! Python arguments to core types, checked by the core as the command line's are (the
//! core's messages, with `--time-limit` on the command line spelled `time_limit` here).

use npuzzle::search::Control;
use npuzzle::{
    Algorithm, Board, Ceilings, Field, HeuristicSpec, Limits, Request, Solution, SolveError,
    SolveOptions, DEFAULT_MEMORY_MB, DEFAULT_WEIGHT,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::board::GoalArg;
use crate::errors::{self, Kind};
use crate::heuristic::PyHeuristic;
use crate::numbers::{Real, Whole};

/// A heuristic from a name, an expression or a `Heuristic`; `None` and `"auto"` give `None`
/// (the planner's choice), as in every front end.
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
    // Text only: `str(5)` would be read as an expression and refused in its words.
    let Ok(text) = obj.cast::<PyString>() else {
        let kind = obj.get_type().name()?;
        return Err(PyTypeError::new_err(format!(
            "expected a heuristic (a name, an expression or a Heuristic), not {kind}"
        )));
    };
    HeuristicSpec::parse_choice(&text.to_string()).map_err(errors::heuristic)
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
    /// Algorithm, heuristic, weight and beam width.
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
    /// The weight, width and limits go to the core's [`Request::check`], as the command
    /// line's do.
    ///
    /// # Errors
    /// `InvalidOption` (or `InvalidBoard` for the goal) with the core's message.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        goal: Option<&Bound<'_, PyAny>>,
        heuristic: Option<&Bound<'_, PyAny>>,
        algorithm: &str,
        weight: Option<Real>,
        width: Option<Whole>,
        time_limit: Option<Real>,
        max_nodes: Option<Whole>,
        memory_limit: Option<Whole>,
        optimal: bool,
    ) -> PyResult<SolveConfig> {
        let options = SolveOptions {
            algorithm: algorithm_arg(algorithm)?,
            heuristic: heuristic_arg(heuristic)?,
            weight: weight.map_or(DEFAULT_WEIGHT, |w| w.0),
            optimal,
            ..SolveOptions::default()
        };
        let request = Request {
            options,
            time_limit: time_limit.map(|t| t.0),
            max_nodes: max_nodes.map(|n| n.0),
            memory_limit: Some(memory_limit.map_or(DEFAULT_MEMORY_MB.into(), |m| m.0)),
            width: width.map(|w| w.0),
        };
        let (options, limits) = request.check(&Ceilings::DEFAULT).map_err(|e| {
            let message = crate::numbers::saturated_in_words(&e.message(Field::api_name));
            errors::error(Kind::InvalidOption, message)
        })?;
        Ok(SolveConfig {
            options,
            goal: GoalArg::from_py(goal)?,
            limits,
        })
    }
}

/// `jobs=`: worker threads, one per core by default.
///
/// # Errors
/// `InvalidOption` for 0 or more than 1024, as `--jobs`.
pub fn jobs_arg(jobs: Option<Whole>) -> PyResult<usize> {
    match jobs {
        Some(n) => n.within("jobs", 1..=1024u16).map(usize::from),
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
    }
}
