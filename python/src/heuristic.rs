//! `npuzzle.Heuristic`: a heuristic as a value, callable on boards.

use std::sync::Mutex;

use npuzzle::heuristic::{self, Heuristic};
use npuzzle::puzzle::Puzzle;
use npuzzle::{Board, HeuristicSpec};
use pyo3::prelude::*;

use crate::board::{goal_board, to_board};
use crate::errors::{self, Kind};

/// A heuristic, by the command line's name or expression: ``misplaced``, ``manhattan``,
/// ``euclidean``, ``linear-conflict``, ``perfect``, ``pdb`` / ``pdb:7-8``, a weighted sum
/// such as ``"0.6*manhattan+0.4*misplaced"`` or ``"max(manhattan,linear-conflict)"``.
///
/// Call it on a board for its estimate of the moves to the goal: ``h(board)`` or
/// ``h(board, goal="spiral")``. Pattern databases are loaded from, or built into, the same
/// cache directory as the command line's.
#[pyclass(name = "Heuristic", module = "npuzzle", frozen)]
pub struct PyHeuristic {
    /// The parsed heuristic.
    pub spec: HeuristicSpec,
    /// The heuristic built for the last goal it was called with.
    built: Mutex<Option<(Board, Box<dyn Heuristic>)>>,
}

impl PyHeuristic {
    fn from_spec(spec: HeuristicSpec) -> PyHeuristic {
        PyHeuristic {
            spec,
            built: Mutex::new(None),
        }
    }
}

/// A heuristic value from its name or expression (see ``Heuristic``).
#[pyfunction(name = "heuristic")]
pub fn make_heuristic(expression: &str) -> PyResult<PyHeuristic> {
    PyHeuristic::py_new(expression)
}

#[pymethods]
impl PyHeuristic {
    #[new]
    fn py_new(expression: &str) -> PyResult<PyHeuristic> {
        let spec: HeuristicSpec = expression.parse().map_err(errors::heuristic)?;
        Ok(PyHeuristic::from_spec(spec))
    }

    /// The canonical name, as the command line and ``Solution.heuristic`` write it.
    #[getter]
    fn name(&self) -> String {
        self.spec.to_string()
    }

    /// Whether it never overestimates, so optimal algorithms stay optimal with it.
    #[getter]
    fn admissible(&self) -> bool {
        self.spec.admissible()
    }

    /// Whether it is consistent (never drops by more than one per move).
    #[getter]
    fn consistent(&self) -> bool {
        self.spec.consistent()
    }

    /// The estimate for ``board`` towards ``goal``, in moves (a float: weighted sums and
    /// ``euclidean`` need not be whole; search rounds them up).
    #[pyo3(signature = (board, goal=None))]
    fn __call__(
        &self,
        py: Python<'_>,
        board: &Bound<'_, PyAny>,
        goal: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<f64> {
        let board = to_board(board, None)?;
        let goal = goal_board(goal, board.shape())?;
        let puzzle = Puzzle::new(&goal).ok_or_else(|| {
            errors::error(
                Kind::InvalidBoard,
                format!(
                    "board has {} cells; heuristics handle at most {}",
                    board.shape().cells(),
                    npuzzle::puzzle::MAX_SEARCH_CELLS
                ),
            )
        })?;
        let tiles = puzzle.encode(&board);
        let mut built = self.built.lock().unwrap_or_else(|p| p.into_inner());
        if !built.as_ref().is_some_and(|(g, _)| *g == goal) {
            // Building may take a while (pattern databases): let other threads run.
            let h = py
                .detach(|| heuristic::build(&self.spec, &puzzle, crate::tables()))
                .map_err(errors::heuristic)?;
            *built = Some((goal, h));
        }
        let (_, h) = built.as_ref().expect("just built");
        Ok(h.estimate(&tiles))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyHeuristic>()
            .is_ok_and(|o| o.get().spec == self.spec)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.spec.to_string().hash(&mut h);
        h.finish()
    }

    fn __str__(&self) -> String {
        self.spec.to_string()
    }

    fn __repr__(&self) -> String {
        format!("heuristic('{}')", self.spec)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((slf.get_type().into_any(), (slf.get().spec.to_string(),)))
    }
}
