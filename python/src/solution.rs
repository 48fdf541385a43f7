//! `npuzzle.Solution`: the result of a solve, whose fields are those of `npuzzle solve --json`.

use npuzzle::plan::PhaseKind;
use npuzzle::{Board, Move, Shape, SolveReport};
use pyo3::prelude::*;
use pyo3::types::PyList;
use serde::Deserialize;

use crate::board::PyBoard;
use crate::errors::{self, Kind};

/// The result of ``solve``: its attributes are the fields of ``npuzzle solve --json``
/// (``length``, ``moves``, ``optimal``, ``expanded``, ``generated``, ``max_open``,
/// ``seconds``, ``heuristic``, ``admissible``, ``algorithm``, ``stopped_by``, ``size``,
/// ``reason``, ``lower_bound``, ``bound_factor``), except that ``start`` and ``goal`` are
/// ``Board`` objects. ``to_dict()`` is that JSON object; ``path`` lists the boards from
/// start to goal.
#[pyclass(name = "Solution", module = "npuzzle", frozen)]
pub struct PySolution {
    report: SolveReport,
    start: Board,
    goal: Board,
}

impl PySolution {
    /// A solution from the report of a solve.
    pub fn new(report: SolveReport, start: Board, goal: Board) -> PySolution {
        PySolution {
            report,
            start,
            goal,
        }
    }

    /// The core report.
    pub fn report(&self) -> &SolveReport {
        &self.report
    }

    fn moves_vec(&self) -> Option<Vec<Move>> {
        self.report
            .moves
            .as_deref()
            .map(|m| Move::parse_letters(m).expect("the solver writes move letters"))
    }
}

/// [`SolveReport`]'s fields, read back from JSON (for pickling).
#[derive(Deserialize)]
struct ReportFields {
    solvable: bool,
    length: Option<usize>,
    moves: Option<String>,
    optimal: bool,
    expanded: u64,
    generated: u64,
    max_open: u64,
    seconds: f64,
    heuristic: Option<String>,
    admissible: Option<bool>,
    algorithm: Option<String>,
    #[serde(default)]
    phase: Option<String>,
    stopped_by: Option<String>,
    size: String,
    start: Vec<u32>,
    goal: Vec<u32>,
    reason: String,
    #[serde(default)]
    lower_bound: Option<u64>,
    #[serde(default)]
    bound_factor: Option<f64>,
}

/// The static name of a limit, as [`npuzzle::StopReason::as_str`] gives it.
fn stop_name(name: &str) -> Option<&'static str> {
    ["time", "nodes", "memory", "cancelled"]
        .into_iter()
        .find(|&n| n == name)
}

#[pymethods]
impl PySolution {
    /// Whether the start can reach the goal.
    #[getter]
    fn solvable(&self) -> bool {
        self.report.solvable
    }
    /// Number of moves, or ``None`` when unsolvable or stopped by a limit.
    #[getter]
    fn length(&self) -> Option<usize> {
        self.report.length
    }
    /// Moves of the blank as a string of ``U``, ``D``, ``L``, ``R``, or ``None``.
    #[getter]
    fn moves(&self) -> Option<&str> {
        self.report.moves.as_deref()
    }
    /// Whether the path is guaranteed shortest.
    #[getter]
    fn optimal(&self) -> bool {
        self.report.optimal
    }
    /// States whose successors were generated.
    #[getter]
    fn expanded(&self) -> u64 {
        self.report.expanded
    }
    /// Successor states created.
    #[getter]
    fn generated(&self) -> u64 {
        self.report.generated
    }
    /// Peak open-list size (IDA*: deepest path).
    #[getter]
    fn max_open(&self) -> u64 {
        self.report.max_open
    }
    /// Wall-clock seconds of the search.
    #[getter]
    fn seconds(&self) -> f64 {
        self.report.seconds
    }
    /// The heuristic used (``"none"`` for BFS), ``None`` when no search ran.
    #[getter]
    fn heuristic(&self) -> Option<&str> {
        self.report.heuristic.as_deref()
    }
    /// Whether that heuristic is admissible.
    #[getter]
    fn admissible(&self) -> Option<bool> {
        self.report.admissible
    }
    /// Which phase of the plan answered (``search``, ``optimal``, ``bounded`` or
    /// ``constructive``), ``None`` when no search ran.
    #[getter]
    fn phase(&self) -> Option<&'static str> {
        self.report.phase.map(|p| match p {
            PhaseKind::Search => "search",
            PhaseKind::Optimal => "optimal",
            PhaseKind::Bounded => "bounded",
            PhaseKind::Constructive => "constructive",
        })
    }
    /// The algorithm used (never ``"auto"``), ``None`` when no search ran.
    #[getter]
    fn algorithm(&self) -> Option<&str> {
        self.report.algorithm.as_deref()
    }
    /// ``"time"``, ``"nodes"``, ``"memory"`` or ``"cancelled"`` when a limit stopped the
    /// search.
    #[getter]
    fn stopped_by(&self) -> Option<&'static str> {
        self.report.stopped_by
    }
    /// The board shape, ``"RxC"``.
    #[getter]
    fn size(&self) -> &str {
        &self.report.size
    }
    /// Why the board is (un)solvable, in one sentence.
    #[getter]
    fn reason(&self) -> &str {
        &self.report.reason
    }
    /// The best lower bound known on the optimal length.
    #[getter]
    fn lower_bound(&self) -> Option<u64> {
        self.report.lower_bound
    }
    /// A proven bound on ``length / optimal`` (1 when optimal).
    #[getter]
    fn bound_factor(&self) -> Option<f64> {
        self.report.bound_factor
    }
    /// The start board.
    #[getter]
    fn start(&self) -> PyBoard {
        PyBoard::new(self.start.clone())
    }
    /// The goal board.
    #[getter]
    fn goal(&self) -> PyBoard {
        PyBoard::new(self.goal.clone())
    }
    /// The boards from start to goal (``len(moves) + 1`` of them), or ``None`` without a
    /// path.
    #[getter]
    fn path<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        let Some(moves) = self.moves_vec() else {
            return Ok(None);
        };
        let mut board = self.start.clone();
        let mut out = Vec::with_capacity(moves.len() + 1);
        out.push(PyBoard::new(board.clone()));
        for m in moves {
            board.apply(m);
            out.push(PyBoard::new(board.clone()));
        }
        PyList::new(py, out).map(Some)
    }

    /// The JSON object of ``npuzzle solve --json`` as a dict; with ``path=True`` it also
    /// has ``path``, the tiles of every board along the way (as ``--path`` adds).
    #[pyo3(signature = (path=false))]
    fn to_dict<'py>(&self, py: Python<'py>, path: bool) -> PyResult<Bound<'py, PyAny>> {
        let with_path;
        let report = match (path, self.moves_vec()) {
            (true, Some(moves)) => {
                with_path = SolveReport {
                    path: Some(npuzzle::report::path_boards(&self.start, &moves)),
                    ..self.report.clone()
                };
                &with_path
            }
            _ => &self.report,
        };
        Ok(pythonize::pythonize(py, report)?)
    }

    /// The same object as JSON text, one line.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.report).expect("a report serialises")
    }

    /// Reads ``to_json()``'s text back.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<PySolution> {
        let bad = |m: String| errors::error(Kind::InvalidOption, format!("not a solution: {m}"));
        let f: ReportFields = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let shape: Shape = f
            .size
            .parse()
            .map_err(|e: npuzzle::ShapeError| bad(e.to_string()))?;
        let start = Board::new(shape, f.start.clone()).map_err(|e| bad(e.to_string()))?;
        let goal = Board::new(shape, f.goal.clone()).map_err(|e| bad(e.to_string()))?;
        let stopped_by = match f.stopped_by.as_deref() {
            None => None,
            Some(s) => Some(stop_name(s).ok_or_else(|| bad(format!("unknown limit `{s}`")))?),
        };
        let report = SolveReport {
            solvable: f.solvable,
            length: f.length,
            moves: f.moves,
            optimal: f.optimal,
            expanded: f.expanded,
            generated: f.generated,
            max_open: f.max_open,
            seconds: f.seconds,
            heuristic: f.heuristic,
            admissible: f.admissible,
            algorithm: f.algorithm,
            phase: match f.phase.as_deref() {
                None => None,
                Some("search") => Some(PhaseKind::Search),
                Some("optimal") => Some(PhaseKind::Optimal),
                Some("bounded") => Some(PhaseKind::Bounded),
                Some("constructive") => Some(PhaseKind::Constructive),
                Some(p) => return Err(bad(format!("unknown phase `{p}`"))),
            },
            stopped_by,
            size: f.size,
            start: f.start,
            goal: f.goal,
            reason: f.reason,
            path: None,
            lower_bound: f.lower_bound,
            bound_factor: f.bound_factor,
        };
        Ok(PySolution::new(report, start, goal))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PySolution>()
            .is_ok_and(|o| o.get().report == self.report)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_json = slf.get_type().getattr("from_json")?;
        Ok((from_json, (slf.get().to_json(),)))
    }

    fn __repr__(&self) -> String {
        let r = &self.report;
        match (&r.moves, r.stopped_by) {
            _ if !r.solvable => format!("Solution(unsolvable, start='{}')", self.start),
            (Some(m), _) => format!(
                "Solution(length={}, optimal={}, moves='{}', algorithm='{}', heuristic='{}', expanded={})",
                m.len(),
                if r.optimal { "True" } else { "False" },
                if m.len() > 60 { format!("{}…", &m[..60]) } else { m.clone() },
                r.algorithm.as_deref().unwrap_or(""),
                r.heuristic.as_deref().unwrap_or(""),
                r.expanded
            ),
            (None, stop) => format!(
                "Solution(stopped_by='{}', expanded={}, generated={})",
                stop.unwrap_or(""),
                r.expanded,
                r.generated
            ),
        }
    }

    /// A self-contained animation of the path with a slider (HTML, SVG and a little
    /// JavaScript; no server).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        let render = slf.py().import("npuzzle._render")?;
        render.call_method1("solution_html", (slf,))?.extract()
    }
}
