//! The module's functions: `solve`, `check`, `random_boards`, `plan` (`solve_many` is in
//! `batch`).

use std::sync::atomic::{AtomicBool, Ordering};

use npuzzle::hint::{Hint, HINT_CEILINGS, HINT_TIME};
use npuzzle::search::{Control, Progress};
use npuzzle::{generate, Field, Request, SolveError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::board::{
    board_object, check_dict, numeric_shape, shape_arg, to_board, GoalArg, PyBoard,
};
use crate::errors::{self, Kind};
use crate::interrupt::Interrupt;
use crate::numbers::{Real, Whole};
use crate::options::SolveConfig;
use crate::solution::{self, PySolution};

/// Solves one board and returns its ``Solution``.
///
/// ``board``: a ``Board``, text in the command line's syntax, a flat or nested list or a
/// numpy array; ``size``: ``"RxC"``, an int or ``(rows, cols)``, for a non-square board
/// written without rows. ``goal``: ``"standard"``, ``"blank-first"``, ``"spiral"`` or a
/// board. ``heuristic``: a name, an expression (``"0.6*manhattan+0.4*misplaced"``) or a
/// ``Heuristic``; ``None`` picks the strongest available. ``algorithm``: ``auto``,
/// ``astar``, ``idastar``, ``bfs``, ``greedy``, ``weighted-astar``, ``weighted-idastar``
/// ``constructive`` or ``beam``; ``weight``: W for the weighted ones (2 by default);
/// ``width``: the states a beam keeps a depth (10,000 by default).
/// ``time_limit`` (seconds), ``max_nodes`` (generated) and ``memory_limit`` (megabytes,
/// 4096 by default) bound the search, as ``--time-limit``, ``--max-nodes`` and
/// ``--memory-limit`` do.
///
/// ``optimal=True`` proves the answer optimal with no fallback, as ``--optimal`` does: IDA*
/// (or the algorithm named, if it is optimal) with the strongest admissible tables for the
/// shape, duplicate move sequences pruned on 15- and 24-puzzles; a choice that cannot prove
/// optimality raises ``InvalidOption``.
///
/// On boards of 11 to 255 cells, ``auto`` runs the anytime engine: a first answer at once,
/// improved until it is proved optimal or the time runs out (``time_limit``; by default
/// none up to 16 cells, 10 seconds above). ``progress``, a callable, then gets a dict each
/// time the best length or the proven lower bound improves: ``seconds``, ``length``,
/// ``lower_bound``, ``expanded``, ``generated`` (as ``npuzzle solve --json --progress``
/// prints them); the answer's ``improvements`` list them all. An optimal search
/// (``optimal=True``, or a named heuristic alone) calls it each time its proven
/// ``lower_bound`` rises, with ``length`` ``None``.
///
/// Raises ``InvalidBoard`` or ``InvalidOption`` (``ValueError``s) for bad input,
/// ``Unsolvable`` when the goal cannot be reached and ``LimitReached`` when a limit stops
/// the search; both carry the ``Solution`` as ``.solution``. Ctrl-C, or an exception from
/// ``progress``, stops the search and is raised.
#[pyfunction]
#[pyo3(signature = (board, size=None, goal=None, heuristic=None, algorithm="auto",
    weight=None, time_limit=None, max_nodes=None, memory_limit=None, progress=None,
    optimal=false, width=None),
    text_signature = "(board, size=None, goal='standard', heuristic=None, algorithm='auto', weight=None, time_limit=None, max_nodes=None, memory_limit=None, progress=None, optimal=False, width=None)")]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
    heuristic: Option<&Bound<'_, PyAny>>,
    algorithm: &str,
    weight: Option<Real>,
    time_limit: Option<Real>,
    max_nodes: Option<Whole>,
    memory_limit: Option<Whole>,
    progress: Option<Bound<'_, PyAny>>,
    optimal: bool,
    width: Option<Whole>,
) -> PyResult<PySolution> {
    progress_arg(progress.as_ref())?;
    let shape = size.map(shape_arg).transpose()?;
    let start = board_object(board, shape)?;
    let config = SolveConfig::new(
        goal,
        heuristic,
        algorithm,
        weight,
        width,
        time_limit,
        max_nodes,
        memory_limit,
        optimal,
    )?;
    let goal = config
        .goal
        .board(start.get().board.shape())
        .map_err(errors::goal)?;
    let goal = Py::new(py, PyBoard::new(goal))?;
    let result = run_watched(py, &start.get().board, &goal.get().board, &config, progress)?;
    finish(py, start, goal, result)
}

/// `progress=`: a callable or `None`.
fn progress_arg(progress: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
    match progress {
        Some(p) if !p.is_callable() => Err(errors::error(
            Kind::InvalidOption,
            "progress must be a callable (or None)".to_string(),
        )),
        _ => Ok(()),
    }
}

/// Solves `start` for `goal` as `config` says, `progress` hearing the search, Ctrl-C (or
/// an exception in `progress`) stopping it and raised.
fn run_watched(
    py: Python<'_>,
    start: &npuzzle::Board,
    goal: &npuzzle::Board,
    config: &SolveConfig,
    progress: Option<Bound<'_, PyAny>>,
) -> PyResult<Result<npuzzle::Solution, SolveError>> {
    let cancel = AtomicBool::new(false);
    let interrupt = Interrupt::with_callback(&cancel, progress.map(Bound::unbind));
    let on_progress = |p: &Progress| interrupt.check(p);
    let control = Control {
        limits: config.limits,
        cancel: Some(&cancel),
        progress: Some(&on_progress),
        ..Control::default()
    };
    let run = || config.solve(start, goal, control);
    // Boards of up to 9 cells are solved in well under a second: no thread to watch them.
    let result = if start.shape().cells() <= 9 {
        py.detach(run)
    } else {
        interrupt.watch(py, run)
    };
    match interrupt.take() {
        Some(e) => Err(e),
        None => Ok(result),
    }
}

/// The next move towards the goal: the first move of ``auto``'s answer within a hint's
/// budget (``time_limit``, 5 seconds by default and at most), as ``npuzzle play``'s ``h``
/// and the server's ``/api/hint`` give it: the dict ``/api/hint`` answers, ``solved``,
/// ``move`` (the blank's, ``U``, ``D``, ``L`` or ``R``; ``None`` when solved or when no path
/// was found in time), ``tile`` (the tile that slides), ``remaining``, ``optimal``,
/// ``lower_bound``, ``moves`` (the path the move starts) and ``stopped_by``. On boards of up
/// to 16 cells the path is proved shortest; on larger ones it is the anytime engine's best
/// when the budget ends, ``optimal`` ``False`` unless its proven ``lower_bound`` meets
/// ``remaining``. A named ``heuristic`` runs an optimal search with it alone, as in
/// ``solve``. ``progress`` is ``solve``'s.
///
/// Raises ``InvalidBoard`` or ``InvalidOption`` for bad input (a ``time_limit`` over 5
/// seconds: ``time_limit must be at most 5 seconds, got 7``) and ``Unsolvable`` when the
/// goal cannot be reached.
#[pyfunction]
#[pyo3(signature = (board, size=None, goal=None, heuristic=None, time_limit=None, progress=None),
    text_signature = "(board, size=None, goal='standard', heuristic=None, time_limit=None, progress=None)")]
pub fn hint<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
    goal: Option<&Bound<'py, PyAny>>,
    heuristic: Option<&Bound<'py, PyAny>>,
    time_limit: Option<Real>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    progress_arg(progress.as_ref())?;
    let shape = size.map(shape_arg).transpose()?;
    let start = board_object(board, shape)?;
    let mut config =
        SolveConfig::new(goal, heuristic, "auto", None, None, None, None, None, false)?;
    // The hint's own budget and ceiling, in the core's words.
    let budget = Request {
        time_limit: time_limit.map(|t| t.0),
        ..Request::default()
    };
    let (_, limits) = budget
        .check(&HINT_CEILINGS)
        .map_err(|e| errors::error(Kind::InvalidOption, e.message(Field::api_name)))?;
    // A hint's time is its budget, as the server's `/api/hint` applies it.
    config.limits.time = limits.with_default_budget(Some(HINT_TIME)).time;
    let goal = config
        .goal
        .board(start.get().board.shape())
        .map_err(errors::goal)?;
    let board = &start.get().board;
    let solution = match run_watched(py, board, &goal, &config, progress)? {
        Ok(s) => s,
        // Raised as `solve` raises it (`Unsolvable` with its `Solution`).
        Err(e) => {
            let goal = Py::new(py, PyBoard::new(goal))?;
            return match finish(py, start, goal, Err(e)) {
                Ok(_) => unreachable!("an error is raised"),
                Err(raised) => Err(raised),
            };
        }
    };
    Ok(pythonize::pythonize(
        py,
        &Hint::new(board, &goal, &solution),
    )?)
}

/// The `Solution`, or the exception a single solve raises.
fn finish(
    py: Python<'_>,
    start: Py<PyBoard>,
    goal: Py<PyBoard>,
    result: Result<npuzzle::Solution, SolveError>,
) -> PyResult<PySolution> {
    let outcome = solution::outcome(result).map_err(|e| errors::solve(&e))?;
    let raise = match &outcome {
        Ok(s) if s.moves.is_some() => None,
        Ok(s) => {
            let why = s.stopped_by.map_or("a limit", npuzzle::StopReason::cause);
            let message = format!("stopped by {why} before finding a solution");
            Some((Kind::LimitReached, message))
        }
        Err(verdict) => {
            let message = SolveError::Unsolvable(verdict.clone()).to_string();
            Some((Kind::Unsolvable, message))
        }
    };
    let solution = PySolution::new(start, goal, outcome);
    match raise {
        None => Ok(solution),
        Some((kind, message)) => Err(errors::error_with(
            py,
            kind,
            message,
            Py::new(py, solution)?.into_any(),
        )),
    }
}

/// Whether a board can reach the goal, and why: the object ``npuzzle check --json``
/// prints (``solvable``, ``rule``, ``width``, inversions and blank rows, ``reason``,
/// ``size``).
#[pyfunction]
#[pyo3(signature = (board, goal=None, size=None), text_signature = "(board, goal='standard', size=None)")]
pub fn check<'py>(
    py: Python<'py>,
    board: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    size: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let shape = size.map(shape_arg).transpose()?;
    check_dict(py, &to_board(board, shape)?, goal)
}

/// The memory the boards of one `random_boards` call may fill.
const MAX_BOARDS_BYTES: u128 = 2 << 30;

/// ``count`` random solvable boards of ``size``, uniform over all of them, or random walks
/// of ``moves`` moves from the goal; the same ``seed`` gives the same boards as
/// ``npuzzle random --seed``.
#[pyfunction]
#[pyo3(signature = (size, count=Whole(1), seed=None, moves=None, goal=None),
    text_signature = "(size, count=1, seed=None, moves=None, goal='standard')")]
pub fn random_boards(
    py: Python<'_>,
    size: &Bound<'_, PyAny>,
    count: Whole,
    seed: Option<i128>,
    moves: Option<Whole>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PyBoard>> {
    let shape = shape_arg(size)?;
    let invalid = |m: String| errors::error(Kind::InvalidOption, m);
    let count = count.within("count", 1..=100_000_000u32)?;
    let moves = moves
        .map(|m| m.within("moves", 0..=1_000_000_000u32))
        .transpose()?
        .map(|m| m as usize);
    // All of them are held at once, in Rust and then as Python objects: about 170 bytes a
    // 3x3 board, measured (4 bytes a tile and the rest).
    let bytes = (count as u128) * (4 * shape.cells() as u128 + 160);
    if bytes > MAX_BOARDS_BYTES {
        return Err(invalid(format!(
            "{count} boards of {shape} would take about {} MB; at most {} MB at once (`npuzzle \
             random --count N` writes any number of them)",
            bytes >> 20,
            MAX_BOARDS_BYTES >> 20
        )));
    }
    let goal = GoalArg::from_py(goal)?.board(shape).map_err(errors::goal)?;
    let seed =
        match seed {
            Some(s) => Some(u64::try_from(s).map_err(|_| {
                invalid(format!("seed must be between 0 and {}, got {s}", u64::MAX))
            })?),
            None => None,
        };
    let seed = seed.unwrap_or_else(generate::fresh_seed);
    // Ctrl-C stops it: a hundred million boards, or walks of a billion moves, take minutes.
    let cancel = AtomicBool::new(false);
    let interrupt = Interrupt::new(&cancel);
    let boards = interrupt.watch(py, || {
        let mut rng = generate::rng(seed);
        (0..count)
            .map(|_| match moves {
                Some(m) => generate::random_walk_until(&goal, m, &mut rng, &cancel),
                None => (!cancel.load(Ordering::Relaxed))
                    .then(|| generate::random_solvable(&goal, &mut rng)),
            })
            .collect::<Option<Vec<_>>>()
    });
    if let Some(e) = interrupt.take() {
        return Err(e);
    }
    let boards = boards.expect("only Ctrl-C stops the boards");
    Ok(boards.into_iter().map(PyBoard::new).collect())
}

/// What ``solve`` will run for boards of a shape towards a goal, decided once by the core's
/// planner (as ``npuzzle solve --explain`` shows it): a dict with ``shape``, ``phases``
/// (algorithm, heuristic, weight, budgets, optimality of each), ``tables`` (which pattern
/// databases are loaded or built, and what that costs), ``optimal`` and, where the shape has
/// stronger tables that are not cached, ``stronger_tables`` (which, and the ``npuzzle pdb
/// build`` command that caches them; they are then used). ``optimal=True``
/// gives the plan of ``solve(optimal=True)``'s proof. The limits are ``solve``'s: past 16
/// cells a ``time_limit`` too short to load or build the tables makes auto plan linear
/// conflict, as ``solve`` with that limit runs.
#[pyfunction]
#[pyo3(signature = (board_or_size, goal=None, heuristic=None, algorithm="auto", weight=None,
    width=None, optimal=false, time_limit=None, max_nodes=None, memory_limit=None),
    text_signature = "(board_or_size, goal='standard', heuristic=None, algorithm='auto', weight=None, width=None, optimal=False, time_limit=None, max_nodes=None, memory_limit=None)")]
#[allow(clippy::too_many_arguments)]
pub fn plan<'py>(
    py: Python<'py>,
    board_or_size: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    heuristic: Option<&Bound<'py, PyAny>>,
    algorithm: &str,
    weight: Option<Real>,
    width: Option<Whole>,
    optimal: bool,
    time_limit: Option<Real>,
    max_nodes: Option<Whole>,
    memory_limit: Option<Whole>,
) -> PyResult<Bound<'py, PyAny>> {
    // A size given as numbers is only a size, and its error is the size's; text may be
    // either (`"3x3"`, `"1 2/3 0"`).
    let (shape, board) = if let Some(shape) = numeric_shape(board_or_size)? {
        (shape, None)
    } else {
        match shape_arg(board_or_size) {
            Ok(s) if !board_or_size.is_instance_of::<pyo3::types::PyList>() => (s, None),
            _ => {
                let board = to_board(board_or_size, None)?;
                (board.shape(), Some(board))
            }
        }
    };
    let config = SolveConfig::new(
        goal,
        heuristic,
        algorithm,
        weight,
        width,
        time_limit,
        max_nodes,
        memory_limit,
        optimal,
    )?;
    let goal = config.goal.board(shape).map_err(errors::goal)?;
    // Solvability comes before the plan, as in `npuzzle solve --explain`: a board that
    // cannot reach the goal raises `Unsolvable`, with its report, as `solve` does.
    if let Some(start) = board {
        if let Err(e @ SolveError::Unsolvable(_)) = npuzzle::check_solvable(&start, &goal) {
            let start = Py::new(py, PyBoard::new(start))?;
            let goal = Py::new(py, PyBoard::new(goal))?;
            let message = e.to_string();
            let raised = finish(py, start, goal, Err(e)).err();
            return Err(raised.unwrap_or_else(|| errors::error(Kind::Unsolvable, message)));
        }
    }
    let p = npuzzle::plan_within(&goal, &config.options, crate::tables(), &config.limits)
        .map_err(|e| errors::solve(&e))?;
    Ok(pythonize::pythonize(py, &p)?)
}
