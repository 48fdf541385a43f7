//! `solve_many`: many boards on a pool of threads, the GIL released while they search.
//!
//! `jobs` tasks on one kept pool take the boards a few at a time and send back what they
//! find; the calling thread, which holds the GIL between naps, turns each result into a
//! `Solution` object as it arrives (so a batch of millions is never held twice, once as the
//! core's results and once as Python objects) and looks for Ctrl-C.
//!
//! On an 8-puzzle a search takes under two microseconds, about as long as making and freeing
//! its Python object, so the parts that cannot run in parallel are kept small: a `Solution`
//! holds the core's result and the `Board` objects it was given (see `solution.rs`), and
//! the tasks share nothing they write on every board.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::{self, Thread};
use std::time::Duration;

use crossbeam_utils::CachePadded;
use npuzzle::search::Control;
use npuzzle::{GoalError, Shape, Solution, SolveError};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::board::{board_object, shape_arg, PyBoard};
use crate::errors::{self, Kind};
use crate::options::{jobs_arg, SolveConfig};
use crate::solution::{self, PySolution};

/// How long the calling thread naps between collecting results (the last result wakes it at
/// once). Measured on 10,000 8-puzzles, anything from 0.2 to 100 ms takes the same time;
/// 1 ms answers Ctrl-C at once and wakes the thread a few times per batch.
const COLLECT_EVERY: Duration = Duration::from_millis(1);

/// Solves many boards on `jobs` threads with the GIL released; results in input order.
/// Unsolvable boards and boards stopped by a limit give a `Solution` (``solvable`` false,
/// or ``stopped_by`` set) instead of raising, so one board never stops the rest.
/// ``goals``, a sequence as long as ``boards``, gives each board its own goal. Ctrl-C stops
/// the batch.
#[pyfunction]
#[pyo3(signature = (boards, size=None, jobs=None, goal=None, heuristic=None,
    algorithm="auto", weight=None, time_limit=None, max_nodes=None, memory_limit=None, goals=None),
    text_signature = "(boards, size=None, jobs=None, goal='standard', heuristic=None, algorithm='auto', weight=None, time_limit=None, max_nodes=None, memory_limit=None, goals=None)")]
#[allow(clippy::too_many_arguments)]
pub fn solve_many<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
    jobs: Option<i64>,
    goal: Option<&Bound<'py, PyAny>>,
    heuristic: Option<&Bound<'py, PyAny>>,
    algorithm: &str,
    weight: Option<f64>,
    time_limit: Option<f64>,
    max_nodes: Option<i64>,
    memory_limit: Option<i64>,
    goals: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
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
    let starts = board_objects(boards, shape)?;
    let goals = match goals.filter(|g| !g.is_none()) {
        Some(g) => own_goals(&starts, board_objects(g, shape)?)?,
        None => shared_goals(py, &starts, &config)?,
    };
    let pool = pool(jobs)?;
    let tasks = jobs.min(starts.len()).max(1);
    let batch = Batch {
        next: CachePadded::new(AtomicUsize::new(0)),
        running: AtomicUsize::new(tasks),
        cancel: AtomicBool::new(false),
        collector: thread::current(),
    };
    let control = Control {
        limits: config.limits,
        cancel: Some(&batch.cancel),
        ..Control::default()
    };
    let (sender, results) = mpsc::channel();
    let solved = pool.in_place_scope(|scope| {
        for _ in 0..tasks {
            let (sender, batch, starts, goals, config) =
                (sender.clone(), &batch, &starts, &goals, &config);
            scope.spawn(move |_| {
                let _done = DoneOnDrop(batch);
                while let Some(boards) = batch.take(starts.len(), tasks) {
                    let solved = boards
                        .clone()
                        .map(|i| {
                            config.solve(&starts[i].get().board, &goals[i].get().board, control)
                        })
                        .collect();
                    // The receiver outlives the searches: a send cannot fail.
                    let _ = sender.send((boards.start, solved));
                }
            });
        }
        let solved = collect(py, &starts, &goals, &results, &batch);
        if solved.is_err() {
            batch.cancel.store(true, Ordering::Relaxed);
        }
        solved
    })?;
    PyList::new(py, solved)
}

/// Makes the `Solution` objects as results arrive, until the searches are done. Returns
/// them in input order, or the error of the first board that had one, or Ctrl-C's.
fn collect(
    py: Python<'_>,
    starts: &[Py<PyBoard>],
    goals: &[Py<PyBoard>],
    results: &mpsc::Receiver<(usize, Vec<Result<Solution, SolveError>>)>,
    batch: &Batch,
) -> PyResult<Vec<Py<PySolution>>> {
    let mut out: Vec<Option<Py<PySolution>>> = (0..starts.len()).map(|_| None).collect();
    let mut first_error: Option<(usize, SolveError)> = None;
    loop {
        // Read before draining: every result sent before the searches ended is then seen.
        let done = batch.done();
        let arrived = results
            .try_iter()
            .flat_map(|(first, solved)| (first..).zip(solved));
        for (i, result) in arrived {
            let outcome = match solution::outcome(result) {
                Ok(outcome) => outcome,
                Err(e) => {
                    if first_error.as_ref().is_none_or(|(j, _)| i < *j) {
                        first_error = Some((i, e));
                    }
                    continue;
                }
            };
            let start = starts[i].clone_ref(py);
            let goal = goals[i].clone_ref(py);
            out[i] = Some(Py::new(py, PySolution::new(start, goal, outcome))?);
        }
        if done {
            break;
        }
        if let Err(e) = py.check_signals() {
            // Ctrl-C: stop the searches, wait for them to wind down, raise.
            batch.cancel.store(true, Ordering::Relaxed);
            while !batch.done() {
                py.detach(|| thread::park_timeout(COLLECT_EVERY));
            }
            return Err(e);
        }
        py.detach(|| thread::park_timeout(COLLECT_EVERY));
    }
    if let Some((i, e)) = first_error {
        let e = errors::solve(&e);
        let msg = e.value(py).str()?.to_string();
        return Err(PyErr::from_type(
            e.get_type(py),
            (format!("board {i}: {msg}"),),
        ));
    }
    out.into_iter()
        .collect::<Option<Vec<_>>>()
        .ok_or_else(|| PyRuntimeError::new_err("a search of the batch ended without a result"))
}

/// What the calling thread and the task running the searches share.
struct Batch {
    /// The next board to solve. On a cache line of its own: every task writes it, and the
    /// searches read `cancel` all the time.
    next: CachePadded<AtomicUsize>,
    /// Tasks still running (each counts itself out with [`DoneOnDrop`]).
    running: AtomicUsize,
    /// Stop: the remaining boards are skipped and the running searches stopped.
    cancel: AtomicBool,
    /// The calling thread, woken when the searches are over.
    collector: Thread,
}

impl Batch {
    /// Whether the searches are over. Acquire: every result a task sent before counting
    /// itself out is then in the channel.
    fn done(&self) -> bool {
        self.running.load(Ordering::Acquire) == 0
    }

    /// The next boards for a task to solve, if any are left: a few at a time while many
    /// are left (so the tasks seldom meet at `next`), one at a time near the end (so they
    /// finish together however unequal the boards are).
    fn take(&self, boards: usize, tasks: usize) -> Option<std::ops::Range<usize>> {
        if self.cancel.load(Ordering::Relaxed) {
            return None;
        }
        let left = boards.saturating_sub(self.next.load(Ordering::Relaxed));
        let count = (left / (8 * tasks)).clamp(1, 16);
        let first = self.next.fetch_add(count, Ordering::Relaxed);
        (first < boards).then(|| first..(first + count).min(boards))
    }
}

/// Held by each task running searches: however it ends (a panic included), it counts
/// itself out, and the last one wakes the calling thread at once.
struct DoneOnDrop<'a>(&'a Batch);

impl Drop for DoneOnDrop<'_> {
    fn drop(&mut self) {
        if self.0.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.collector.unpark();
        }
    }
}

/// Board objects from a sequence of boards (each as `solve` takes one), with the index of
/// a bad one in its message.
fn board_objects(boards: &Bound<'_, PyAny>, shape: Option<Shape>) -> PyResult<Vec<Py<PyBoard>>> {
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
            board_object(&item?, shape).map_err(|e| {
                let msg = e.value(py).str().map(|s| s.to_string()).unwrap_or_default();
                PyErr::from_type(e.get_type(py), (format!("board {i}: {msg}"),))
            })
        })
        .collect()
}

/// Each board's goal from `goals=`: as many as there are boards, each of its board's shape.
fn own_goals(starts: &[Py<PyBoard>], goals: Vec<Py<PyBoard>>) -> PyResult<Vec<Py<PyBoard>>> {
    if goals.len() != starts.len() {
        return Err(errors::error(
            Kind::InvalidOption,
            format!(
                "goals has {} boards but boards has {}",
                goals.len(),
                starts.len()
            ),
        ));
    }
    for (i, (start, goal)) in starts.iter().zip(&goals).enumerate() {
        let (board, goal) = (start.get().board.shape(), goal.get().board.shape());
        if board != goal {
            let e = GoalError::ShapeMismatch { goal, board };
            return Err(errors::error(Kind::InvalidBoard, format!("board {i}: {e}")));
        }
    }
    Ok(goals)
}

/// Each board's goal from `goal=`: one board object per shape, shared.
fn shared_goals(
    py: Python<'_>,
    starts: &[Py<PyBoard>],
    config: &SolveConfig,
) -> PyResult<Vec<Py<PyBoard>>> {
    let mut by_shape: Vec<(Shape, Py<PyBoard>)> = Vec::new();
    starts
        .iter()
        .enumerate()
        .map(|(i, start)| {
            let shape = start.get().board.shape();
            // A batch has one shape or a few: the last one found is almost always it.
            if let Some((_, goal)) = by_shape.iter().rev().find(|(s, _)| *s == shape) {
                return Ok(goal.clone_ref(py));
            }
            let goal = config
                .goal
                .board(shape)
                .map_err(|e| errors::error(Kind::InvalidBoard, format!("board {i}: {e}")))?;
            let goal = Py::new(py, PyBoard::new(goal))?;
            by_shape.push((shape, goal.clone_ref(py)));
            Ok(goal)
        })
        .collect()
}

/// The thread pool, kept for the life of the process and grown when a call asks for more
/// threads than it has: building one per call would cost more than a small batch, and one
/// pool (rather than one per size) keeps calls with other `jobs` from waking threads that
/// compete for the same cores.
fn pool(jobs: usize) -> PyResult<Arc<rayon::ThreadPool>> {
    static POOL: Mutex<Option<Arc<rayon::ThreadPool>>> = Mutex::new(None);
    let mut pool = POOL.lock().unwrap_or_else(|p| p.into_inner());
    if let Some(p) = pool.as_ref().filter(|p| p.current_num_threads() >= jobs) {
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
    *pool = Some(p.clone());
    Ok(p)
}
