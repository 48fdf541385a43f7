//! `npuzzle.Solution`: the result of a solve, whose fields are those of `npuzzle solve --json`.

use npuzzle::anytime::Improvement;
use npuzzle::plan::PhaseKind;
use npuzzle::search::{SearchStats, StopReason};
use npuzzle::{
    solvability, Board, HeuristicSpec, Move, Shape, Solution, SolveError, SolveReport, Verdict,
};
use pyo3::prelude::*;
use pyo3::types::PyList;
use serde::Deserialize;

use crate::board::PyBoard;
use crate::errors::{self, Kind};

/// What a solve found: the core's solution (a path, or the limit that stopped the search),
/// or the verdict that the goal is out of reach.
pub type Outcome = Result<Solution, Verdict>;

/// The outcome of a solve, or its error when that is not about solvability (a goal, a
/// heuristic or a size the plan refuses).
pub fn outcome(result: Result<Solution, SolveError>) -> Result<Outcome, SolveError> {
    match result {
        Ok(solution) => Ok(Ok(solution)),
        Err(SolveError::Unsolvable(verdict)) => Ok(Err(verdict)),
        Err(e) => Err(e),
    }
}

/// The result of ``solve``: its attributes are the fields of ``npuzzle solve --json``
/// (``length``, ``moves``, ``optimal``, ``expanded``, ``generated``, ``max_open``,
/// ``seconds``, ``heuristic``, ``admissible``, ``algorithm``, ``stopped_by``, ``size``,
/// ``reason``, ``lower_bound``, ``bound_factor``, ``improvements``), except that ``start`` and ``goal`` are
/// ``Board`` objects. ``to_dict()`` is that JSON object; ``path`` lists the boards from
/// start to goal.
//
// It keeps the core's result as it is and derives each field when asked: `solve_many`
// makes thousands of these while holding the GIL, and a report's seven strings and
// vectors per board cost more to make and free than the search of an 8-puzzle does.
#[pyclass(name = "Solution", module = "npuzzle", frozen)]
pub struct PySolution {
    start: Py<PyBoard>,
    goal: Py<PyBoard>,
    outcome: Outcome,
}

impl PySolution {
    /// A solution of `start` towards `goal`.
    pub fn new(start: Py<PyBoard>, goal: Py<PyBoard>, outcome: Outcome) -> PySolution {
        PySolution {
            start,
            goal,
            outcome,
        }
    }

    fn start_board(&self) -> &Board {
        &self.start.get().board
    }

    fn goal_board(&self) -> &Board {
        &self.goal.get().board
    }

    /// The core's solution, unless the board is unsolvable.
    fn solution(&self) -> Option<&Solution> {
        self.outcome.as_ref().ok()
    }

    fn verdict(&self) -> &Verdict {
        match &self.outcome {
            Ok(s) => &s.verdict,
            Err(v) => v,
        }
    }

    /// The report `npuzzle solve --json` prints for this solve; `with_path` adds the
    /// boards along the path.
    pub fn report(&self, with_path: bool) -> SolveReport {
        let (start, goal) = (self.start_board(), self.goal_board());
        match &self.outcome {
            Ok(s) => SolveReport::solved(start, goal, s, with_path),
            Err(v) => SolveReport::unsolvable(start, goal, v),
        }
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
    #[serde(default)]
    lower_bound: Option<u64>,
    #[serde(default)]
    bound_factor: Option<f64>,
    #[serde(default)]
    improvements: Vec<ImprovementFields>,
}

/// [`Improvement`]'s fields, read back from JSON.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ImprovementFields {
    seconds: f64,
    length: Option<u64>,
    lower_bound: u64,
    by: String,
}

impl From<ImprovementFields> for Improvement {
    fn from(f: ImprovementFields) -> Improvement {
        Improvement {
            seconds: f.seconds,
            length: f.length,
            lower_bound: f.lower_bound,
            by: f.by,
        }
    }
}

impl ReportFields {
    /// The outcome these fields describe, with the verdict worked out again from the
    /// boards.
    fn outcome(self, start: &Board, goal: &Board) -> Result<Outcome, String> {
        let verdict = solvability::check(start, goal).map_err(|e| e.to_string())?;
        if verdict.solvable != self.solvable {
            return Err(format!(
                "solvable is {} but the boards say {}",
                self.solvable, verdict.solvable
            ));
        }
        if !self.solvable {
            return Ok(Err(verdict));
        }
        let need = |field: Option<String>, name: &str| {
            field.ok_or_else(|| format!("a solved board's report needs `{name}`"))
        };
        let moves = match self.moves {
            Some(m) => Some(Move::parse_letters(&m).map_err(|e| e.to_string())?),
            None => None,
        };
        if moves.as_ref().map(Vec::len) != self.length {
            return Err("length is not the number of moves".to_string());
        }
        // `path` and the animation replay the moves: they must stay on the board and end
        // at the goal.
        if let Some(moves) = &moves {
            let end = start.replay(moves).map_err(|i| {
                format!(
                    "move {} ({}) would take the blank off the board",
                    i + 1,
                    moves[i]
                )
            })?;
            if &end != goal {
                return Err("the moves do not reach the goal".to_string());
            }
        }
        let heuristic = match need(self.heuristic, "heuristic")?.as_str() {
            "none" => None,
            h => Some(h.parse::<HeuristicSpec>().map_err(|e| e.to_string())?),
        };
        // What a solve reports is what ran: never `auto`, and admissible exactly when its
        // heuristic is.
        let algorithm: npuzzle::Algorithm = need(self.algorithm, "algorithm")?
            .parse()
            .map_err(|e| format!("{e}"))?;
        if algorithm == npuzzle::Algorithm::Auto {
            return Err("algorithm is `auto`, which names a request, not what ran".to_string());
        }
        let admissible = heuristic.as_ref().is_none_or(HeuristicSpec::admissible);
        if self.admissible.is_some_and(|a| a != admissible) {
            return Err(format!(
                "admissible is {} but {} is{} admissible",
                !admissible,
                heuristic
                    .as_ref()
                    .map_or("no heuristic".to_string(), ToString::to_string),
                if admissible { "" } else { " not" }
            ));
        }
        let phase = need(self.phase, "phase")?;
        let stopped_by = match self.stopped_by {
            Some(s) => Some(StopReason::from_name(&s).ok_or(format!("unknown limit `{s}`"))?),
            None => None,
        };
        Ok(Ok(Solution {
            verdict,
            moves,
            optimal: self.optimal,
            stats: SearchStats {
                expanded: self.expanded,
                generated: self.generated,
                max_open: self.max_open,
                seconds: self.seconds,
                ..SearchStats::default()
            },
            stopped_by,
            algorithm,
            heuristic,
            admissible,
            phase: PhaseKind::from_name(&phase).ok_or(format!("unknown phase `{phase}`"))?,
            trace: Vec::new(),
            lower_bound: self.lower_bound,
            bound_factor: self.bound_factor,
            improvements: self.improvements.into_iter().map(Into::into).collect(),
        }))
    }
}

#[pymethods]
impl PySolution {
    /// Whether the start can reach the goal.
    #[getter]
    fn solvable(&self) -> bool {
        self.outcome.is_ok()
    }
    /// Number of moves, or ``None`` when unsolvable or stopped by a limit.
    #[getter]
    fn length(&self) -> Option<usize> {
        self.solution().and_then(Solution::length)
    }
    /// Moves of the blank as a string of ``U``, ``D``, ``L``, ``R``, or ``None``.
    #[getter]
    fn moves(&self) -> Option<String> {
        let moves = self.solution()?.moves.as_deref()?;
        Some(Move::to_letters(moves))
    }
    /// Whether the path is guaranteed shortest.
    #[getter]
    fn optimal(&self) -> bool {
        self.solution().is_some_and(|s| s.optimal)
    }
    /// States whose successors were generated.
    #[getter]
    fn expanded(&self) -> u64 {
        self.solution().map_or(0, |s| s.stats.expanded)
    }
    /// Successor states created.
    #[getter]
    fn generated(&self) -> u64 {
        self.solution().map_or(0, |s| s.stats.generated)
    }
    /// Peak open-list size (IDA*: deepest path).
    #[getter]
    fn max_open(&self) -> u64 {
        self.solution().map_or(0, |s| s.stats.max_open)
    }
    /// Wall-clock seconds of the search.
    #[getter]
    fn seconds(&self) -> f64 {
        self.solution().map_or(0.0, |s| s.stats.seconds)
    }
    /// The heuristic used (``"none"`` for BFS), ``None`` when no search ran.
    #[getter]
    fn heuristic(&self) -> Option<String> {
        self.solution().map(Solution::heuristic_name)
    }
    /// Whether that heuristic is admissible.
    #[getter]
    fn admissible(&self) -> Option<bool> {
        self.solution().map(|s| s.admissible)
    }
    /// Which phase of the plan answered (``search``, ``optimal``, ``anytime`` or
    /// ``constructive``), ``None`` when no search ran.
    #[getter]
    fn phase(&self) -> Option<&'static str> {
        self.solution().map(|s| s.phase.name())
    }
    /// The algorithm used (never ``"auto"``), ``None`` when no search ran.
    #[getter]
    fn algorithm(&self) -> Option<&'static str> {
        self.solution().map(|s| s.algorithm.name())
    }
    /// ``"time"``, ``"nodes"``, ``"memory"`` or ``"cancelled"`` when a limit stopped the
    /// search.
    #[getter]
    fn stopped_by(&self) -> Option<&'static str> {
        self.solution()?.stopped_by.map(StopReason::as_str)
    }
    /// The board shape, ``"RxC"``.
    #[getter]
    fn size(&self) -> String {
        self.start_board().shape().to_string()
    }
    /// Why the board is (un)solvable, in one sentence.
    #[getter]
    fn reason(&self) -> String {
        self.verdict().explanation()
    }
    /// The best lower bound known on the optimal length.
    #[getter]
    fn lower_bound(&self) -> Option<u64> {
        self.solution()?.lower_bound
    }
    /// A proven bound on ``length / optimal`` (1 when optimal).
    #[getter]
    fn bound_factor(&self) -> Option<f64> {
        self.solution()?.bound_factor
    }
    /// How the anytime engine's answer improved, in order: a list of dicts with
    /// ``seconds`` (since the search began), ``length`` (the best answer then), ``lower_bound``
    /// (proven then) and ``by`` (what found it: ``constructive``, ``shortened``,
    /// ``staged``, ``beam width=4000``, ``long windows``, ``weighted idastar W=1.3``,
    /// ``idastar bound 86``, ``proved``…). Empty when a single
    /// search answered (a named heuristic or algorithm, or a board of up to 10 cells).
    #[getter]
    fn improvements<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let list: &[Improvement] = self.solution().map_or(&[], |s| &s.improvements);
        Ok(pythonize::pythonize(py, list)?)
    }
    /// The start board.
    #[getter]
    fn start(&self, py: Python<'_>) -> Py<PyBoard> {
        self.start.clone_ref(py)
    }
    /// The goal board.
    #[getter]
    fn goal(&self, py: Python<'_>) -> Py<PyBoard> {
        self.goal.clone_ref(py)
    }
    /// The boards from start to goal (``len(moves) + 1`` of them), or ``None`` without a
    /// path.
    #[getter]
    fn path<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        let Some(moves) = self.solution().and_then(|s| s.moves.as_deref()) else {
            return Ok(None);
        };
        let mut board = self.start_board().clone();
        let mut out = Vec::with_capacity(moves.len() + 1);
        out.push(PyBoard::new(board.clone()));
        for &m in moves {
            board.apply(m);
            out.push(PyBoard::new(board.clone()));
        }
        PyList::new(py, out).map(Some)
    }

    /// The JSON object of ``npuzzle solve --json`` as a dict; with ``path=True`` it also
    /// has ``path``, the tiles of every board along the way (as ``--path`` adds).
    #[pyo3(signature = (path=false))]
    fn to_dict<'py>(&self, py: Python<'py>, path: bool) -> PyResult<Bound<'py, PyAny>> {
        Ok(pythonize::pythonize(py, &self.report(path))?)
    }

    /// The same object as JSON text, one line.
    fn to_json(&self) -> String {
        serde_json::to_string(&self.report(false)).expect("a report serialises")
    }

    /// Reads ``to_json()``'s text back.
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<PySolution> {
        let bad = |m: String| errors::error(Kind::InvalidOption, format!("not a solution: {m}"));
        let f: ReportFields = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let shape: Shape = f
            .size
            .parse()
            .map_err(|e: npuzzle::ShapeError| bad(e.to_string()))?;
        let start = Board::new(shape, f.start.clone()).map_err(|e| bad(e.to_string()))?;
        let goal = Board::new(shape, f.goal.clone()).map_err(|e| bad(e.to_string()))?;
        let outcome = f.outcome(&start, &goal).map_err(bad)?;
        Ok(PySolution::new(
            Py::new(py, PyBoard::new(start))?,
            Py::new(py, PyBoard::new(goal))?,
            outcome,
        ))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PySolution>()
            .is_ok_and(|o| o.get().report(false) == self.report(false))
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_json = slf.get_type().getattr("from_json")?;
        Ok((from_json, (slf.get().to_json(),)))
    }

    fn __repr__(&self) -> String {
        let Some(s) = self.solution() else {
            return format!("Solution(unsolvable, start='{}')", self.start_board());
        };
        match &s.moves {
            Some(m) => {
                let shown = Move::to_letters(&m[..m.len().min(60)]);
                format!(
                    "Solution(length={}, optimal={}, moves='{}{}', algorithm='{}', heuristic='{}', expanded={})",
                    m.len(),
                    if s.optimal { "True" } else { "False" },
                    shown,
                    if m.len() > 60 { "…" } else { "" },
                    s.algorithm.name(),
                    s.heuristic_name(),
                    s.stats.expanded
                )
            }
            None => format!(
                "Solution(stopped_by='{}', expanded={}, generated={})",
                s.stopped_by.map_or("", StopReason::as_str),
                s.stats.expanded,
                s.stats.generated
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
