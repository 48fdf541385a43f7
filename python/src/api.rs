//! The module's functions: `solve`, `solve_many`, `check`, `random_boards`.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use npuzzle::search::{Control, Progress};
use npuzzle::{generate, Board, Shape, SolveError, SolveReport};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use rayon::prelude::*;

use crate::board::{check_dict, shape_arg, to_board, GoalArg, PyBoard};
use crate::errors::{self, Kind};
use crate::options::{jobs_arg, SolveConfig};
use crate::solution::PySolution;

/// One solve with the core, as the command line runs it.
fn solve_core(
    start: &Board,
    goal: &Board,
    config: &SolveConfig,
    control: Control<'_>,
) -> Result<npuzzle::Solution, SolveError> {
    npuzzle::solve(start, goal, &config.options, crate::tables(), control)
}

/// The report of a solve, or the error that is not about solvability.
fn report(
    start: &Board,
    goal: &Board,
    result: &Result<npuzzle::Solution, SolveError>,
) -> Result<SolveReport, SolveError> {
    SolveReport::new(start, goal, result, false).ok_or_else(|| {
        result
            .as_ref()
            .err()
            .cloned()
            .expect("only errors have no report")
    })
}

/// Solves one board and returns its ``Solution``.
///
/// ``board``: a ``Board``, text in the command line's syntax, a flat or nested list or a
/// numpy array; ``size``: ``"RxC"``, an int or ``(rows, cols)``, for a non-square board
/// written without rows. ``goal``: ``"standard"``, ``"blank-first"``, ``"spiral"`` or a
/// board. ``heuristic``: a name, an expression (``"0.6*manhattan+0.4*misplaced"``) or a
/// ``Heuristic``; ``None`` picks the strongest available. ``algorithm``: ``auto``,
/// ``astar``, ``idastar``, ``bfs``, ``greedy``, ``weighted-astar``, ``weighted-idastar``
/// or ``constructive``; ``weight``: W for the weighted ones (2 by default).
/// ``time_limit`` (seconds), ``max_nodes`` (generated) and ``memory_limit`` (megabytes,
/// 4096 by default) bound the search, as ``--time-limit``, ``--max-nodes`` and
/// ``--memory-limit`` do.
///
/// Raises ``InvalidBoard`` or ``InvalidOption`` (``ValueError``s) for bad input,
/// ``Unsolvable`` when the goal cannot be reached and ``LimitReached`` when a limit stops
/// the search; both carry the ``Solution`` as ``.solution``. Ctrl-C stops the search.
#[pyfunction]
#[pyo3(signature = (board, size=None, goal=None, heuristic=None, algorithm="auto",
    weight=None, time_limit=None, max_nodes=None, memory_limit=None),
    text_signature = "(board, size=None, goal='standard', heuristic=None, algorithm='auto', weight=None, time_limit=None, max_nodes=None, memory_limit=None)")]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    goal: Option<&Bound<'_, PyAny>>,
    heuristic: Option<&Bound<'_, PyAny>>,
    algorithm: &str,
    weight: Option<f64>,
    time_limit: Option<f64>,
    max_nodes: Option<i64>,
    memory_limit: Option<i64>,
) -> PyResult<PySolution> {
    let shape = size.map(shape_arg).transpose()?;
    let start = to_board(board, shape)?;
    let config = SolveConfig::new(
        goal,
        heuristic,
        algorithm,
        weight,
        time_limit,
        max_nodes,
        memory_limit,
    )?;
    let goal = config.goal.board(start.shape()).map_err(errors::goal)?;
    // Ctrl-C: the progress callback (about ten times a second) asks Python whether a
    // signal arrived and, if so, cancels the search.
    let cancel = AtomicBool::new(false);
    let interrupted: Mutex<Option<PyErr>> = Mutex::new(None);
    let on_progress = |_: &Progress| {
        Python::attach(|py| {
            if let Err(e) = py.check_signals() {
                *interrupted.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
                cancel.store(true, Ordering::Relaxed);
            }
        })
    };
    let control = Control {
        limits: config.limits,
        cancel: Some(&cancel),
        progress: Some(&on_progress),
        ..Control::default()
    };
    let result = py.detach(|| solve_core(&start, &goal, &config, control));
    if let Some(e) = interrupted.into_inner().unwrap_or_else(|p| p.into_inner()) {
        return Err(e);
    }
    finish(py, start, goal, result)
}

/// The `Solution`, or the exception a single solve raises.
fn finish(
    py: Python<'_>,
    start: Board,
    goal: Board,
    result: Result<npuzzle::Solution, SolveError>,
) -> PyResult<PySolution> {
    let report = report(&start, &goal, &result).map_err(|e| errors::solve(&e))?;
    let solution = PySolution::new(report, start, goal);
    match &result {
        Ok(s) if s.moves.is_some() => Ok(solution),
        Ok(s) => {
            let why = s.stopped_by.map_or("a", |r| r.as_str());
            let message = format!("stopped by the {why} limit before finding a solution");
            Err(errors::error_with(
                py,
                Kind::LimitReached,
                message,
                Py::new(py, solution)?.into_any(),
            ))
        }
        Err(e) => Err(errors::error_with(
            py,
            Kind::Unsolvable,
            e.to_string(),
            Py::new(py, solution)?.into_any(),
        )),
    }
}

/// Thread pools by size, kept for the life of the process (building one per call would
/// cost more than a small batch).
fn pool(jobs: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|p| p.into_inner());
    if let Some(p) = pools.get(&jobs) {
        return Ok(p.clone());
    }
    let p = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map(Arc::new)
        .map_err(|e| {
            errors::error(
                Kind::InvalidOption,
                format!("cannot start the worker threads: {e}"),
            )
        })?;
    pools.insert(jobs, p.clone());
    Ok(p)
}

/// Boards from a sequence of anything `Board` accepts, each error naming its index.
pub fn boards_arg(boards: &Bound<'_, PyAny>, shape: Option<Shape>) -> PyResult<Vec<Board>> {
    if boards.is_instance_of::<PyString>() || boards.cast::<PyBoard>().is_ok() {
        return Err(errors::error(
            Kind::InvalidBoard,
            "expected a sequence of boards, got a single board".to_string(),
        ));
    }
    let py = boards.py();
    boards
        .try_iter()?
        .enumerate()
        .map(|(i, item)| {
            to_board(&item?, shape).map_err(|e| {
                let msg = e.value(py).str().map(|s| s.to_string()).unwrap_or_default();
                PyErr::from_type(e.get_type(py), (format!("board {i}: {msg}"),))
            })
        })
        .collect()
}

/// Solves many boards on `jobs` threads with the GIL released; results in input order.
/// Unsolvable boards and boards stopped by a limit give a `Solution` (``solvable`` false,
/// or ``stopped_by`` set) instead of raising, so one board never stops the rest.
/// ``goals``, a sequence as long as ``boards``, gives each board its own goal.
#[pyfunction]
#[pyo3(signature = (boards, size=None, jobs=None, goal=None, heuristic=None,
    algorithm="auto", weight=None, time_limit=None, max_nodes=None, memory_limit=None, goals=None),
    text_signature = "(boards, size=None, jobs=None, goal='standard', heuristic=None, algorithm='auto', weight=None, time_limit=None, max_nodes=None, memory_limit=None, goals=None)")]
#[allow(clippy::too_many_arguments)]
pub fn solve_many(
    py: Python<'_>,
    boards: &Bound<'_, PyAny>,
    size: Option<&Bound<'_, PyAny>>,
    jobs: Option<i64>,
    goal: Option<&Bound<'_, PyAny>>,
    heuristic: Option<&Bound<'_, PyAny>>,
    algorithm: &str,
    weight: Option<f64>,
    time_limit: Option<f64>,
    max_nodes: Option<i64>,
    memory_limit: Option<i64>,
    goals: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PySolution>> {
    let jobs = jobs_arg(jobs)?;
    let shape = size.map(shape_arg).transpose()?;
    let config = SolveConfig::new(
        goal,
        heuristic,
        algorithm,
        weight,
        time_limit,
        max_nodes,
        memory_limit,
    )?;
    let starts = boards_arg(boards, shape)?;
    let own_goals = match goals {
        Some(g) if !g.is_none() => {
            let g = boards_arg(g, shape)?;
            if g.len() != starts.len() {
                return Err(errors::error(
                    Kind::InvalidOption,
                    format!(
                        "goals has {} boards but boards has {}",
                        g.len(),
                        starts.len()
                    ),
                ));
            }
            Some(g)
        }
        _ => None,
    };
    let pairs: Vec<(Board, Board)> = starts
        .into_iter()
        .enumerate()
        .map(|(i, start)| {
            let goal = match &own_goals {
                Some(g) => GoalArg::Board(g[i].clone()).board(start.shape()),
                None => config.goal.board(start.shape()),
            };
            match goal {
                Ok(goal) => Ok((start, goal)),
                Err(e) => Err(errors::error(Kind::InvalidBoard, format!("board {i}: {e}"))),
            }
        })
        .collect::<PyResult<_>>()?;
    let pool = pool(jobs)?;
    let control = Control {
        limits: config.limits,
        ..Control::default()
    };
    let reports: Vec<Result<SolveReport, SolveError>> = py.detach(|| {
        pool.install(|| {
            pairs
                .par_iter()
                .map(|(start, goal)| {
                    report(start, goal, &solve_core(start, goal, &config, control))
                })
                .collect()
        })
    });
    let mut out = Vec::with_capacity(reports.len());
    for (i, (r, (start, goal))) in reports.into_iter().zip(pairs).enumerate() {
        match r {
            Ok(report) => out.push(PySolution::new(report, start, goal)),
            Err(e) => {
                let kind = errors::solve(&e);
                let msg = kind.value(py).str()?.to_string();
                return Err(PyErr::from_type(
                    kind.get_type(py),
                    (format!("board {i}: {msg}"),),
                ));
            }
        }
    }
    Ok(out)
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

/// ``count`` random solvable boards of ``size``, uniform over all of them, or random walks
/// of ``moves`` moves from the goal; the same ``seed`` gives the same boards as
/// ``npuzzle random --seed``.
#[pyfunction]
#[pyo3(signature = (size, count=1, seed=None, moves=None, goal=None),
    text_signature = "(size, count=1, seed=None, moves=None, goal='standard')")]
pub fn random_boards(
    py: Python<'_>,
    size: &Bound<'_, PyAny>,
    count: i64,
    seed: Option<i128>,
    moves: Option<i64>,
    goal: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PyBoard>> {
    let shape = shape_arg(size)?;
    let invalid = |m: String| errors::error(Kind::InvalidOption, m);
    if !(1..=100_000_000).contains(&count) {
        return Err(invalid(format!(
            "count must be between 1 and 100000000, got {count}"
        )));
    }
    let moves = match moves {
        Some(m) if !(0..=1_000_000_000).contains(&m) => {
            return Err(invalid(
                "moves must be between 0 and 1000000000".to_string(),
            ))
        }
        m => m.map(|m| m as usize),
    };
    if (count as u128) * (shape.cells() as u128) > 4_000_000_000 {
        return Err(invalid(format!(
            "{count} boards of {shape} would make more than 4 billion tiles"
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
    let seed = seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    });
    let boards = py.detach(|| {
        let mut rng = generate::rng(seed);
        (0..count)
            .map(|_| match moves {
                Some(m) => generate::random_walk(&goal, m, &mut rng),
                None => generate::random_solvable(&goal, &mut rng),
            })
            .collect::<Vec<_>>()
    });
    Ok(boards.into_iter().map(PyBoard::new).collect())
}

/// What ``solve`` will run for boards of a shape towards a goal, decided once by the core's
/// planner (as ``npuzzle solve --explain`` shows it): a dict with ``shape``, ``phases``
/// (algorithm, heuristic, weight, budgets, optimality of each), ``tables`` (which pattern
/// databases are loaded or built, and what that costs) and ``optimal``.
#[pyfunction]
#[pyo3(signature = (board_or_size, goal=None, heuristic=None, algorithm="auto", weight=None),
    text_signature = "(board_or_size, goal='standard', heuristic=None, algorithm='auto', weight=None)")]
pub fn plan<'py>(
    py: Python<'py>,
    board_or_size: &Bound<'py, PyAny>,
    goal: Option<&Bound<'py, PyAny>>,
    heuristic: Option<&Bound<'py, PyAny>>,
    algorithm: &str,
    weight: Option<f64>,
) -> PyResult<Bound<'py, PyAny>> {
    let shape = match shape_arg(board_or_size) {
        Ok(s) if !board_or_size.is_instance_of::<pyo3::types::PyList>() => s,
        _ => to_board(board_or_size, None)?.shape(),
    };
    let config = SolveConfig::new(goal, heuristic, algorithm, weight, None, None, None)?;
    let goal = config.goal.board(shape).map_err(errors::goal)?;
    let p =
        npuzzle::plan(&goal, &config.options, crate::tables()).map_err(|e| errors::solve(&e))?;
    Ok(pythonize::pythonize(py, &p)?)
}
