//! `npuzzle.split` and `npuzzle.solve_unit`: IDA*'s tree cut at a frontier depth into work
//! units that other processes or machines search (the driver is `npuzzle.dask.solve_split`).
//! The core's `search::frontier` does the work; this file converts.

use std::sync::atomic::AtomicBool;

use npuzzle::heuristic::pdb::PatternDatabase;
use npuzzle::heuristic::{self, LinearConflict, Manhattan, Reevaluate};
use npuzzle::puzzle::Puzzle;
use npuzzle::search::frontier::{self, UnitOutcome, WorkUnit};
use npuzzle::search::{Control, Limits};
use npuzzle::{Algorithm, Board, HeuristicSpec, Move, Shape, SolveOptions};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::{Deserialize, Serialize};

use crate::board::{shape_arg, to_board, GoalArg, PyBoard};
use crate::errors::{self, Kind};
use crate::interrupt::Interrupt;
use crate::numbers::{Real, Whole};
use crate::options::heuristic_arg;

/// Runs `$body` with `$h` bound to the incremental form of `$spec` for `$puzzle`: the
/// core's searches are generic over the heuristic, so each kind is its own instantiation.
macro_rules! with_heuristic {
    ($spec:expr, $puzzle:expr, |$h:ident| $body:expr) => {{
        let puzzle: &Puzzle = $puzzle;
        match $spec {
            HeuristicSpec::Manhattan => {
                let $h = Manhattan::new(puzzle);
                Ok($body)
            }
            HeuristicSpec::LinearConflict => {
                let $h = LinearConflict::new(puzzle);
                Ok($body)
            }
            HeuristicSpec::Pdb(p) => match p.partition(puzzle).and_then(|partition| {
                PatternDatabase::from_tables(puzzle, &partition, crate::tables())
            }) {
                Ok(db) => {
                    let $h = db.search();
                    Ok($body)
                }
                Err(e) => Err(heuristic::HeuristicError::from(e)),
            },
            spec => match heuristic::build(spec, puzzle, crate::tables()) {
                Ok(built) => {
                    let $h = Reevaluate(built.as_ref());
                    Ok($body)
                }
                Err(e) => Err(e),
            },
        }
    }};
}

/// A work unit with what is needed to search it anywhere: the goal and the heuristic.
#[derive(Clone, Serialize, Deserialize)]
struct Portable {
    unit: WorkUnit,
    index: usize,
    size: String,
    goal: Vec<u32>,
    heuristic: String,
    /// Longest duplicate move sequence pruned (`split(optimal=True)`), if any.
    #[serde(default)]
    pruning: Option<usize>,
}

/// One state of IDA*'s frontier, with the path to it: made by ``split``, searched by
/// ``solve_unit``. Picklable (as JSON), so it travels to other processes and machines.
#[pyclass(name = "WorkUnit", module = "npuzzle", frozen)]
pub struct PyWorkUnit {
    unit: WorkUnit,
    index: usize,
    goal: Board,
    heuristic: HeuristicSpec,
    pruning: Option<usize>,
}

impl PyWorkUnit {
    /// The puzzle the unit is searched on: the goal, with the pruning `split` used.
    fn puzzle(&self) -> Option<Puzzle> {
        Some(Puzzle::new(&self.goal)?.with_duplicates_pruned(self.pruning))
    }

    fn portable(&self) -> Portable {
        Portable {
            unit: self.unit.clone(),
            index: self.index,
            size: self.goal.shape().to_string(),
            goal: self.goal.tiles().to_vec(),
            heuristic: self.heuristic.to_string(),
            pruning: self.pruning,
        }
    }
}

#[pymethods]
impl PyWorkUnit {
    /// Position in the serial search's order, from 0.
    #[getter]
    fn index(&self) -> usize {
        self.index
    }
    /// The state, as a ``Board``.
    #[getter]
    fn board(&self) -> PyResult<PyBoard> {
        let tiles = self.unit.tiles.iter().map(|&t| u32::from(t)).collect();
        Board::new(self.goal.shape(), tiles)
            .map(PyBoard::new)
            .map_err(errors::board)
    }
    /// The moves from the start to this state, as letters.
    #[getter]
    fn moves(&self) -> String {
        Move::to_letters(&self.unit.moves)
    }
    /// Moves from the start.
    #[getter]
    fn g(&self) -> u32 {
        self.unit.g
    }
    /// The heuristic's value here.
    #[getter]
    fn h(&self) -> u32 {
        self.unit.h
    }
    /// ``g + h`` along the path, the start first: the first is IDA*'s first bound.
    #[getter]
    fn path_f(&self) -> Vec<u32> {
        self.unit.path_f.clone()
    }
    /// Whether this state is the goal.
    #[getter]
    fn is_goal(&self) -> bool {
        self.unit.goal
    }
    /// The heuristic the unit is searched with.
    #[getter]
    fn heuristic(&self) -> String {
        self.heuristic.to_string()
    }

    /// What the serial search does above the frontier, after the previous unit and before
    /// this one, in the iteration with ``bound``: a dict with ``generated``, ``expanded``,
    /// ``next_bound`` (``None``: no state above the bound), ``max_open`` and ``reached``
    /// (whether this unit must be searched at all). Summed with ``solve_unit``'s counts over
    /// the units in order, these are exactly the serial iteration's counts.
    fn above<'py>(&self, py: Python<'py>, bound: Whole) -> PyResult<Bound<'py, PyDict>> {
        let a = self.unit.above(bound.within("bound", 0..=u32::MAX)?);
        let d = PyDict::new(py);
        d.set_item("generated", a.generated)?;
        d.set_item("expanded", a.expanded)?;
        d.set_item(
            "next_bound",
            (a.next_bound != u32::MAX).then_some(a.next_bound),
        )?;
        d.set_item("max_open", a.max_open)?;
        d.set_item("reached", a.reached)?;
        Ok(d)
    }

    /// The unit as JSON text (``from_json`` reads it back; pickling uses it).
    fn to_json(&self) -> String {
        serde_json::to_string(&self.portable()).expect("a unit serialises")
    }

    /// Reads ``to_json()``'s text.
    #[staticmethod]
    fn from_json(text: &str) -> PyResult<PyWorkUnit> {
        let bad = |m: String| errors::error(Kind::InvalidOption, format!("not a work unit: {m}"));
        let p: Portable = serde_json::from_str(text).map_err(|e| bad(e.to_string()))?;
        let shape: Shape = p
            .size
            .parse()
            .map_err(|e: npuzzle::ShapeError| bad(e.to_string()))?;
        let goal = Board::new(shape, p.goal).map_err(|e| bad(e.to_string()))?;
        let heuristic = p.heuristic.parse().map_err(errors::heuristic)?;
        // The searches index tables by tile and cell: anything `split` could not have made
        // is refused here rather than reaching them.
        if Puzzle::new(&goal).is_none() {
            return Err(bad(format!(
                "a {shape} board has {} cells; search algorithms handle at most {}",
                shape.cells(),
                npuzzle::puzzle::MAX_SEARCH_CELLS
            )));
        }
        let tiles = p.unit.tiles.iter().map(|&t| u32::from(t)).collect();
        if p.unit.tiles.len() != shape.cells() || Board::new(shape, tiles).is_err() {
            return Err(bad(format!("its state is not a {shape} board")));
        }
        let u = &p.unit;
        if u.g as usize != u.moves.len() || u.path_f.len() != u.moves.len() + 1 {
            return Err(bad(format!(
                "g is {} and path_f has {} values for {} moves",
                u.g,
                u.path_f.len(),
                u.moves.len()
            )));
        }
        if u.g.checked_add(u.h).is_none() {
            return Err(bad(format!("g + h overflows: {} + {}", u.g, u.h)));
        }
        if p.pruning
            .is_some_and(|d| d > npuzzle::pruning::MAX_AUTOMATON_DEPTH)
        {
            return Err(bad(format!(
                "pruning of {:?} moves is beyond the most, {}",
                p.pruning,
                npuzzle::pruning::MAX_AUTOMATON_DEPTH
            )));
        }
        Ok(PyWorkUnit {
            unit: p.unit,
            index: p.index,
            goal,
            heuristic,
            pruning: p.pruning,
        })
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_json = slf.get_type().getattr("from_json")?;
        Ok((from_json, (slf.get().to_json(),)))
    }

    fn __repr__(&self) -> String {
        format!(
            "WorkUnit(index={}, moves='{}', g={}, h={})",
            self.index,
            Move::to_letters(&self.unit.moves),
            self.unit.g,
            self.unit.h
        )
    }
}

/// The most units `split` makes: each holds a board and its path, in Rust and in Python.
const MAX_UNITS: usize = 1_000_000;

/// IDA*'s frontier ``depth`` moves from ``board``, in the serial search's order (up, left,
/// right, down; the move back never tried), as independent work units. ``heuristic``
/// defaults to what ``solve`` would use with IDA*; the frontier grows about 2.1-fold per
/// move of depth on the 15-puzzle. ``optimal=True`` searches as ``solve(optimal=True)``
/// does: the strongest tables unless ``heuristic`` names one, and duplicate move sequences
/// pruned on 15- and 24-puzzles (the units carry that, so every worker prunes alike).
/// ``depth`` is 0 to 40, and a depth that would make more than a million units is refused.
#[pyfunction]
#[pyo3(signature = (board, goal=None, heuristic=None, depth=Whole(8), size=None, optimal=false),
    text_signature = "(board, goal='standard', heuristic=None, depth=8, size=None, optimal=False)")]
pub fn split(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    goal: Option<&Bound<'_, PyAny>>,
    heuristic: Option<&Bound<'_, PyAny>>,
    depth: Whole,
    size: Option<&Bound<'_, PyAny>>,
    optimal: bool,
) -> PyResult<Vec<PyWorkUnit>> {
    let shape = size.map(shape_arg).transpose()?;
    let start = to_board(board, shape)?;
    let goal = GoalArg::from_py(goal)?
        .board(start.shape())
        .map_err(errors::goal)?;
    let depth = depth.within("depth", 0..=40u32)?;
    let verdict = npuzzle::solvability::check(&start, &goal).map_err(errors::goal)?;
    if !verdict.solvable {
        return Err(errors::error(
            Kind::Unsolvable,
            format!("unsolvable: {verdict}"),
        ));
    }
    let puzzle = Puzzle::new(&goal).ok_or_else(|| {
        errors::error(
            Kind::InvalidBoard,
            format!(
                "board has {} cells; search algorithms handle at most {}",
                goal.shape().cells(),
                npuzzle::puzzle::MAX_SEARCH_CELLS
            ),
        )
    })?;
    let options = SolveOptions {
        algorithm: Algorithm::IdaStar,
        heuristic: heuristic_arg(heuristic)?,
        optimal,
        ..SolveOptions::default()
    };
    let plan = npuzzle::plan(&goal, &options, crate::tables()).map_err(|e| errors::solve(&e))?;
    let spec = plan.phases[0]
        .heuristic
        .clone()
        .unwrap_or(HeuristicSpec::LinearConflict);
    let pruning = plan.phases[0].pruning;
    let puzzle = py.detach(|| puzzle.with_duplicates_pruned(pruning));
    let tiles = puzzle.encode(&start);
    let units = py
        .detach(|| {
            with_heuristic!(&spec, &puzzle, |h| frontier::split_at_most(
                &puzzle, &tiles, h, depth, MAX_UNITS
            ))
        })
        .map_err(errors::heuristic)?
        .ok_or_else(|| {
            errors::error(
                Kind::InvalidOption,
                format!(
                    "depth {depth} cuts this board's search into more than {MAX_UNITS} units; \
                     a smaller depth gives fewer"
                ),
            )
        })?;
    Ok(units
        .into_iter()
        .enumerate()
        .map(|(index, unit)| PyWorkUnit {
            unit,
            index,
            goal: goal.clone(),
            heuristic: spec.clone(),
            pruning,
        })
        .collect())
}

/// Searches one work unit below ``bound`` (IDA*'s iteration with that bound, restricted
/// to the unit's subtree). Returns a dict: ``moves`` (the whole path from the start, as
/// letters, or ``None``), ``generated``, ``expanded``, ``max_open``, ``next_bound`` (the
/// smallest ``f`` above the bound, ``None`` if none) and ``stopped_by``. The GIL is
/// released while it searches.
#[pyfunction]
#[pyo3(signature = (unit, bound, time_limit=None, max_nodes=None))]
pub fn solve_unit<'py>(
    py: Python<'py>,
    unit: &Bound<'py, PyWorkUnit>,
    bound: Whole,
    time_limit: Option<Real>,
    max_nodes: Option<Whole>,
) -> PyResult<Bound<'py, PyDict>> {
    let unit = unit.get();
    let limits = crate::options::SolveConfig::new(
        None, None, "idastar", None, None, time_limit, max_nodes, None, false,
    )?
    .limits;
    // `split` and `from_json` refuse larger boards; this is never an error in practice.
    let puzzle = py.detach(|| unit.puzzle()).ok_or_else(|| {
        errors::error(
            Kind::InvalidBoard,
            "the unit's board is too large to search".to_string(),
        )
    })?;
    // The search recurses a move deeper at each step, as deep as the bound lets it. No
    // optimal search needs a bound above the length of a path it knows of (the unit's depth
    // plus the constructive path from it), so a larger one is refused rather than followed
    // into a dive that would overflow the stack.
    let known = npuzzle::constructive::path_length(&puzzle, &unit.unit.tiles);
    let most = unit.unit.g.saturating_add(known);
    let bound = bound.within("bound", 0..=most).map_err(|e| {
        let why = format!(
            " (the unit's depth, {}, and a path of {known} moves from it: no optimal search \
             needs a larger bound)",
            unit.unit.g
        );
        errors::error(Kind::InvalidOption, format!("{}{why}", e.value(py)))
    })?;
    let cancel = AtomicBool::new(false);
    let interrupt = Interrupt::new(&cancel);
    let control = Control {
        limits: Limits {
            memory_bytes: None,
            ..limits
        },
        cancel: Some(&cancel),
        ..Control::default()
    };
    let out = interrupt.watch(py, || {
        npuzzle::search::with_stack_for(Some(bound), || {
            with_heuristic!(&unit.heuristic, &puzzle, |h| frontier::search_unit(
                &puzzle, &unit.unit, h, bound, control
            ))
        })
    });
    if let Some(e) = interrupt.take() {
        return Err(e);
    }
    let out: UnitOutcome = out.map_err(errors::heuristic)?;
    let d = PyDict::new(py);
    d.set_item("index", unit.index)?;
    d.set_item("moves", out.moves.as_deref().map(Move::to_letters))?;
    d.set_item("generated", out.generated)?;
    d.set_item("expanded", out.expanded)?;
    d.set_item("max_open", out.max_open)?;
    d.set_item(
        "next_bound",
        (out.next_bound != u32::MAX).then_some(out.next_bound),
    )?;
    d.set_item("stopped_by", out.stopped_by.map(|r| r.as_str()))?;
    Ok(d)
}
