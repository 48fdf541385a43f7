//! The package's exceptions, defined in Python (`npuzzle/errors.py`, so they can inherit
//! from both `NpuzzleError` and `ValueError`) and raised from here with the core's messages.

use npuzzle::{GoalError, HeuristicError, ParseBoardError, ShapeError, SolveError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// One of the exception classes of `npuzzle.errors`.
#[derive(Clone, Copy)]
pub enum Kind {
    /// A board (or goal) that is not a board: `InvalidBoard`, a `ValueError`.
    InvalidBoard,
    /// A bad option value: `InvalidOption`, a `ValueError`.
    InvalidOption,
    /// The start cannot reach the goal: `Unsolvable`.
    Unsolvable,
    /// A limit stopped the search: `LimitReached`.
    LimitReached,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::InvalidBoard => "InvalidBoard",
            Kind::InvalidOption => "InvalidOption",
            Kind::Unsolvable => "Unsolvable",
            Kind::LimitReached => "LimitReached",
        }
    }

    /// The class, looked up once per process.
    fn class(self, py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
        static CLASSES: [PyOnceLock<Py<PyType>>; 4] = [
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
            PyOnceLock::new(),
        ];
        let cell = &CLASSES[self as usize];
        let class = cell.get_or_try_init(py, || -> PyResult<Py<PyType>> {
            let module = py.import("npuzzle.errors")?;
            Ok(module.getattr(self.name())?.cast_into::<PyType>()?.unbind())
        })?;
        Ok(class.bind(py))
    }
}

/// An exception of `kind` with a one-line message.
pub fn error(kind: Kind, message: impl Into<String>) -> PyErr {
    Python::attach(|py| match kind.class(py) {
        Ok(class) => PyErr::from_type(class.clone(), (message.into(),)),
        Err(e) => e,
    })
}

/// An exception of `kind` with a message and an attached object (the `Solution` so far).
pub fn error_with(py: Python<'_>, kind: Kind, message: String, attached: Py<PyAny>) -> PyErr {
    match kind.class(py) {
        Ok(class) => PyErr::from_type(class.clone(), (message, attached)),
        Err(e) => e,
    }
}

/// `InvalidBoard` with the parser's message.
pub fn board(e: ParseBoardError) -> PyErr {
    error(Kind::InvalidBoard, e.to_string())
}

/// `InvalidBoard` for a goal that does not fit the board.
pub fn goal(e: GoalError) -> PyErr {
    error(Kind::InvalidBoard, e.to_string())
}

/// `InvalidOption` for a bad `size`.
pub fn shape(e: ShapeError) -> PyErr {
    error(Kind::InvalidOption, e.to_string())
}

/// `InvalidOption` for a heuristic that cannot be used.
pub fn heuristic(e: HeuristicError) -> PyErr {
    error(Kind::InvalidOption, e.to_string())
}

/// The exception for a solve error other than unsolvability (which carries a report and is
/// raised by the caller).
pub fn solve(e: &SolveError) -> PyErr {
    let kind = match e {
        SolveError::Goal(_) | SolveError::TooLarge { .. } => Kind::InvalidBoard,
        SolveError::Unsolvable(_) => Kind::Unsolvable,
        _ => Kind::InvalidOption,
    };
    error(kind, e.to_string())
}
