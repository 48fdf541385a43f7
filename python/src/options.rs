//! Python arguments to core types, checked with the command line's rules and messages
//! (`--time-limit` on the command line is `time_limit` here).

use std::time::Duration;

use npuzzle::{Algorithm, Board, GoalError, GoalSpec, HeuristicSpec, Limits, Shape, SolveOptions};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyString, PyTuple};

use crate::board::to_board;
use crate::errors::{self, Kind};
use crate::heuristic::PyHeuristic;

/// The command line's default `--memory-limit`, in megabytes.
pub const DEFAULT_MEMORY_MB: u64 = 4096;

/// A shape from `"RxC"`, an `int` (square) or `(rows, cols)`.
///
/// # Errors
/// `InvalidOption` with the core's message.
pub fn shape_arg(obj: &Bound<'_, PyAny>) -> PyResult<Shape> {
    if let Ok(s) = obj.cast::<PyString>() {
        return s
            .extract::<String>()?
            .parse::<Shape>()
            .map_err(errors::shape);
    }
    if let Ok(n) = obj.cast::<PyInt>() {
        let n: i64 = n.extract()?;
        return Shape::square(n.max(0) as usize).map_err(errors::shape);
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        if let Ok((r, c)) = t.extract::<(usize, usize)>() {
            return Shape::new(r, c).map_err(errors::shape);
        }
    }
    let text = obj.str().map(|s| s.to_string()).unwrap_or_default();
    Err(errors::error(
        Kind::InvalidOption,
        format!("invalid size `{text}`: expected RxC (e.g. 3x3 or 4x5) or a single number"),
    ))
}

/// The goal as given: a name or text to resolve per shape, or a board.
#[derive(Clone, Debug)]
pub enum GoalArg {
    /// `standard`, `blank-first`, `spiral` or a board written as text.
    Spec(GoalSpec),
    /// A board given as a `Board`, list or array.
    Board(Board),
}

impl GoalArg {
    /// Reads a `goal=` argument.
    ///
    /// # Errors
    /// `InvalidBoard` when a list or array is not a board.
    pub fn from_py(obj: Option<&Bound<'_, PyAny>>) -> PyResult<GoalArg> {
        let Some(obj) = obj.filter(|o| !o.is_none()) else {
            return Ok(GoalArg::Spec(GoalSpec::Standard));
        };
        if let Ok(s) = obj.cast::<PyString>() {
            return Ok(GoalArg::Spec(
                s.extract::<String>()?.parse().expect("infallible"),
            ));
        }
        to_board(obj, None)
            .map(GoalArg::Board)
            .map_err(|e| Python::attach(|py| prefix_goal(py, e)))
    }

    /// The goal board for a start of this shape.
    ///
    /// # Errors
    /// The goal does not parse or has another shape.
    pub fn board(&self, shape: Shape) -> Result<Board, GoalError> {
        match self {
            GoalArg::Spec(spec) => spec.board(shape),
            GoalArg::Board(b) if b.shape() == shape => Ok(b.clone()),
            GoalArg::Board(b) => Err(GoalError::ShapeMismatch {
                goal: b.shape(),
                board: shape,
            }),
        }
    }
}

/// `goal: ...` in front of a board error about the goal, as the core words it.
fn prefix_goal(py: Python<'_>, e: PyErr) -> PyErr {
    let msg = e.value(py).str().map(|s| s.to_string()).unwrap_or_default();
    let is_board = e.get_type(py).name().is_ok_and(|n| n == "InvalidBoard");
    if is_board {
        errors::error(Kind::InvalidBoard, format!("goal: {msg}"))
    } else {
        e
    }
}

/// The goal board for a shape from a `goal=` argument.
///
/// # Errors
/// `InvalidBoard` for a goal that is not a board of that shape.
pub fn goal_board(obj: Option<&Bound<'_, PyAny>>, shape: Shape) -> PyResult<Board> {
    GoalArg::from_py(obj)?.board(shape).map_err(errors::goal)
}

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
