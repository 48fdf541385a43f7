//! `solve_many`: many boards on `jobs` threads, the GIL released while they search.
//!
//! The calling thread is one of the `jobs` threads: it takes boards a few at a time like
//! the others (`jobs - 1` tasks on one kept pool) and solves them with the GIL released,
//! and between its own searches, holding the GIL, it turns every result found so far (its
//! own and the ones the tasks sent) into a `Solution` object and looks for Ctrl-C. So
//! `jobs=1` runs on one core, not one plus a thread for the Python objects, and a batch of
//! millions is never held twice, once as the core's results and once as Python objects.
//!
//! On an 8-puzzle a search takes under two microseconds, about as long as making and freeing
//! its Python object, so the parts that cannot run in parallel are kept small: a `Solution`
//! holds the core's result and the `Board` objects it was given (see `solution.rs`), and
//! the threads share nothing they write on every board.

use std::collections::HashMap;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::{self, Thread};
use std::time::Duration;

use crossbeam_utils::CachePadded;
use npuzzle::search::{Control, Progress};
use npuzzle::{Board, GoalError, Planned, Shape, Solution, SolveError};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::board::{board_object, shape_arg, PyBoard};
use crate::errors::{self, Kind};
use crate::interrupt::Interrupt;
use crate::numbers::{Real, Whole};
use crate::options::{jobs_arg, SolveConfig};
use crate::solution::{self, PySolution};

/// How long the calling thread naps between collecting results once it has no boards left
/// to solve (the last task to finish wakes it at once); also how often it then looks for
/// Ctrl-C.
const COLLECT_EVERY: Duration = Duration::from_millis(1);

/// What a task sends the calling thread: the index of the first board of a run, and the
/// results of the run's boards.
type Found = (usize, Vec<Result<Solution, SolveError>>);

/// Solves many boards on ``jobs`` threads, the calling thread one of them (default: one per
/// core), with the GIL released; results in input order.
/// Unsolvable boards and boards stopped by a limit give a `Solution` (``solvable`` false,
/// or ``stopped_by`` set) instead of raising, so one board never stops the rest.
/// ``goals``, a sequence as long as ``boards``, gives each board its own goal. Ctrl-C stops
/// the batch. ``optimal=True`` proves each answer optimal, as ``solve(optimal=True)`` and
/// ``npuzzle batch --optimal`` do (one thread a board).
#[pyfunction]
#[pyo3(signature = (boards, size=None, jobs=None, goal=None, heuristic=None,
    algorithm="auto", weight=None, time_limit=None, max_nodes=None, memory_limit=None, goals=None,
    width=None, optimal=false),
    text_signature = "(boards, size=None, jobs=None, goal='standard', heuristic=None, algorithm='auto', weight=None, time_limit=None, max_nodes=None, memory_limit=None, goals=None, width=None, optimal=False)")]
#[allow(clippy::too_many_arguments)]
pub fn solve_many<'py>(
    py: Python<'py>,
    boards: &Bound<'py, PyAny>,
    size: Option<&Bound<'py, PyAny>>,
    jobs: Option<Whole>,
    goal: Option<&Bound<'py, PyAny>>,
    heuristic: Option<&Bound<'py, PyAny>>,
    algorithm: &str,
    weight: Option<Real>,
    time_limit: Option<Real>,
    max_nodes: Option<Whole>,
    memory_limit: Option<Whole>,
    goals: Option<&Bound<'py, PyAny>>,
    width: Option<Whole>,
    optimal: bool,
) -> PyResult<Bound<'py, PyList>> {
    let jobs = jobs_arg(jobs)?;
    let shape = size.map(shape_arg).transpose()?;
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
    let starts = board_objects(boards, shape)?;
    let goals = match goals.filter(|g| !g.is_none()) {
        Some(g) => Goals::own(&starts, board_objects(g, shape)?, &config)?,
        None => Goals::per_shape(py, &starts, &config, jobs)?,
    };
    let threads = jobs.min(starts.len()).max(1);
    let helpers = threads - 1;
    let batch = Batch {
        next: CachePadded::new(AtomicUsize::new(0)),
        threads,
        running: AtomicUsize::new(helpers),
        cancel: AtomicBool::new(false),
        caller: thread::current(),
    };
    let work = Work {
        starts: &starts,
        goals: &goals,
        config: &config,
        batch: &batch,
    };
    let (sender, results) = mpsc::channel();
    let solved = if helpers == 0 {
        drop(sender);
        work.lead(py, &results)
    } else {
        pool(helpers)?.in_place_scope(|scope| {
            for _ in 0..helpers {
                let sender = sender.clone();
                scope.spawn(move |_| work.help(&sender));
            }
            drop(sender);
            let solved = work.lead(py, &results);
            if solved.is_err() {
                batch.cancel.store(true, Ordering::Relaxed);
            }
            solved
        })
    }?;
    PyList::new(py, solved)
}

/// The boards of a batch and how to solve them: what every thread of the batch reads.
#[derive(Clone, Copy)]
struct Work<'a> {
    starts: &'a [Py<PyBoard>],
    goals: &'a Goals,
    config: &'a SolveConfig,
    batch: &'a Batch,
}

impl Work<'_> {
    /// Solves boards `run`.
    fn solve(&self, run: Range<usize>, control: Control<'_>) -> Vec<Result<Solution, SolveError>> {
        run.map(|i| {
            let start = &self.starts[i].get().board;
            match self.goals.planned(start) {
                Some(planned) => planned.execute(start, control),
                None => self.config.solve_with(
                    self.goals.tables(i),
                    start,
                    self.goals.board(i, start),
                    control,
                ),
            }
        })
        .collect()
    }

    /// What a task of the pool does: solves boards until none are left, sending what it
    /// finds to the calling thread.
    fn help(&self, results: &mpsc::Sender<Found>) {
        let _done = DoneOnDrop(self.batch);
        let control = self.batch.control(self.config, None);
        while let Some(run) = self.batch.take(self.starts.len()) {
            let solved = self.solve(run.clone(), control);
            // The receiver outlives the tasks: a send cannot fail.
            let _ = results.send((run.start, solved));
        }
    }

    /// What the calling thread does: solves boards with the GIL released, and between runs
    /// makes the `Solution` objects of all the results found so far; once no boards are
    /// left, collects the tasks' last results. Returns the objects in input order, or the
    /// error of the first board that had one, or Ctrl-C's.
    fn lead(
        &self,
        py: Python<'_>,
        results: &mpsc::Receiver<Found>,
    ) -> PyResult<Vec<Py<PySolution>>> {
        let mut made = Made::new(self.starts.len());
        // A search of its own that runs long looks for Ctrl-C from its progress callback,
        // as `solve` does; between runs the thread asks Python itself.
        let interrupt = Interrupt::new(&self.batch.cancel);
        let on_progress = |p: &Progress| interrupt.check(p);
        let control = self.batch.control(self.config, Some(&on_progress));
        while let Some(run) = self.batch.take(self.starts.len()) {
            let solved = py.detach(|| self.solve(run.clone(), control));
            made.keep(py, self, run.start, solved)?;
            made.keep_arrived(py, self, results)?;
            if let Err(e) = interrupt.take().map_or_else(|| py.check_signals(), Err) {
                return Err(self.stop(py, e));
            }
        }
        loop {
            // Read before draining: every result sent before the tasks ended is then seen.
            let done = self.batch.done();
            made.keep_arrived(py, self, results)?;
            if done {
                return made.finish(py);
            }
            if let Err(e) = py.check_signals() {
                return Err(self.stop(py, e));
            }
            py.detach(|| thread::park_timeout(COLLECT_EVERY));
        }
    }

    /// Ctrl-C: stops the searches, waits for the tasks to wind down, and gives back `e`
    /// to raise.
    fn stop(&self, py: Python<'_>, e: PyErr) -> PyErr {
        self.batch.cancel.store(true, Ordering::Relaxed);
        while !self.batch.done() {
            py.detach(|| thread::park_timeout(COLLECT_EVERY));
        }
        e
    }
}

/// The `Solution` objects made so far, and the first board whose search failed.
struct Made {
    solutions: Vec<Option<Py<PySolution>>>,
    first_error: Option<(usize, SolveError)>,
}

impl Made {
    fn new(boards: usize) -> Made {
        Made {
            solutions: (0..boards).map(|_| None).collect(),
            first_error: None,
        }
    }

    /// Makes the objects of the boards from `first` on, whose results are `solved`.
    fn keep(
        &mut self,
        py: Python<'_>,
        work: &Work<'_>,
        first: usize,
        solved: Vec<Result<Solution, SolveError>>,
    ) -> PyResult<()> {
        for (i, result) in (first..).zip(solved) {
            match solution::outcome(result) {
                Ok(outcome) => {
                    let start = &work.starts[i];
                    let goal = work.goals.object(i, &start.get().board).clone_ref(py);
                    let start = start.clone_ref(py);
                    self.solutions[i] = Some(Py::new(py, PySolution::new(start, goal, outcome))?);
                }
                Err(e) => {
                    if self.first_error.as_ref().is_none_or(|(j, _)| i < *j) {
                        self.first_error = Some((i, e));
                    }
                }
            }
        }
        Ok(())
    }

    /// Makes the objects of every result the tasks have sent so far.
    fn keep_arrived(
        &mut self,
        py: Python<'_>,
        work: &Work<'_>,
        results: &mpsc::Receiver<Found>,
    ) -> PyResult<()> {
        for (first, solved) in results.try_iter() {
            self.keep(py, work, first, solved)?;
        }
        Ok(())
    }

    /// The objects in input order, or the error of the first board that had one.
    fn finish(self, py: Python<'_>) -> PyResult<Vec<Py<PySolution>>> {
        if let Some((i, e)) = self.first_error {
            let e = errors::solve(&e);
            let msg = e.value(py).str()?.to_string();
            return Err(PyErr::from_type(
                e.get_type(py),
                (format!("board {i}: {msg}"),),
            ));
        }
        self.solutions
            .into_iter()
            .collect::<Option<Vec<_>>>()
            .ok_or_else(|| PyRuntimeError::new_err("a search of the batch ended without a result"))
    }
}

/// What the threads of a batch share.
struct Batch {
    /// The next board to solve. On a cache line of its own: every thread writes it, and the
    /// searches read `cancel` all the time.
    next: CachePadded<AtomicUsize>,
    /// Threads solving boards, the calling thread included.
    threads: usize,
    /// Tasks of the pool still running (each counts itself out with [`DoneOnDrop`]).
    running: AtomicUsize,
    /// Stop: the remaining boards are skipped and the running searches stopped.
    cancel: AtomicBool,
    /// The calling thread, woken when the tasks are over.
    caller: Thread,
}

impl Batch {
    /// Whether the tasks are over. Acquire: every result a task sent before counting
    /// itself out is then in the channel.
    fn done(&self) -> bool {
        self.running.load(Ordering::Acquire) == 0
    }

    /// How a search of the batch is steered: the batch's limits and its cancel flag.
    fn control<'a>(
        &'a self,
        config: &SolveConfig,
        progress: Option<&'a (dyn Fn(&Progress) + Sync)>,
    ) -> Control<'a> {
        Control {
            limits: config.limits,
            cancel: Some(&self.cancel),
            progress,
            ..Control::default()
        }
    }

    /// The next boards for a thread to solve, if any are left: a few at a time while many
    /// are left (so the threads seldom meet at `next`), one at a time near the end (so they
    /// finish together however unequal the boards are).
    fn take(&self, boards: usize) -> Option<Range<usize>> {
        if self.cancel.load(Ordering::Relaxed) {
            return None;
        }
        let left = boards.saturating_sub(self.next.load(Ordering::Relaxed));
        let count = (left / (8 * self.threads)).clamp(1, 16);
        let first = self.next.fetch_add(count, Ordering::Relaxed);
        (first < boards).then(|| first..(first + count).min(boards))
    }
}

/// Held by each task of the pool: however it ends (a panic included), it counts itself
/// out, and the last one wakes the calling thread at once.
struct DoneOnDrop<'a>(&'a Batch);

impl Drop for DoneOnDrop<'_> {
    fn drop(&mut self) {
        if self.0.running.fetch_sub(1, Ordering::AcqRel) == 1 {
            self.0.caller.unpark();
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

/// Each board's goal.
enum Goals {
    /// From `goal=`: one per shape, as the object the solutions share and as a copy the
    /// searches read. The calling thread writes the object's reference count, on the same
    /// cache line as its board, for every solution it makes, and a search reading the
    /// object would wait for that line at every board.
    PerShape(Vec<(Py<PyBoard>, Board)>, Vec<Option<Planned>>),
    /// From `goals=`: each board its own, and whether the planner may build tables for it
    /// (see [`Goals::own`]).
    Own(Vec<Py<PyBoard>>, Vec<bool>),
}

/// Boards that must share a goal before `auto` may build a table for it (the exact table of
/// a 3x3 goal takes about 40 ms to build, a search with linear conflict a fraction of a
/// millisecond): with 1,000 goals of one board each, building them all took a minute and
/// kept 430 MB after the results were freed.
const BOARDS_PER_BUILT_TABLE: usize = 200;

impl Goals {
    /// The goals of `goal=`: one for each shape among the boards, each planned for its
    /// boards on `jobs` threads (its tables, fetched once, may take a share of all their
    /// time: [`npuzzle::plan_for_runs`]).
    fn per_shape(
        py: Python<'_>,
        starts: &[Py<PyBoard>],
        config: &SolveConfig,
        jobs: usize,
    ) -> PyResult<Goals> {
        let mut goals: Vec<(Py<PyBoard>, Board)> = Vec::new();
        // The number of boards of each goal.
        let mut boards: Vec<usize> = Vec::new();
        for (i, start) in starts.iter().enumerate() {
            let shape = start.get().board.shape();
            if let Some(at) = goals.iter().position(|(_, g)| g.shape() == shape) {
                boards[at] += 1;
                continue;
            }
            let goal = config
                .goal
                .board(shape)
                .map_err(|e| errors::error(Kind::InvalidBoard, format!("board {i}: {e}")))?;
            goals.push((Py::new(py, PyBoard::new(goal.clone()))?, goal));
            boards.push(1);
        }
        // Each shape's plan made once, with its tables, for every board of the shape. A
        // refused plan is left to each board, which reports it after its solvability.
        let planned = py.detach(|| {
            goals
                .iter()
                .zip(&boards)
                .map(|((_, goal), &boards)| {
                    let control = Control {
                        limits: config.limits,
                        ..Control::default()
                    };
                    let runs = npuzzle::runs_per_thread(boards, jobs);
                    let (options, limits) = (&config.options, &config.limits);
                    npuzzle::plan_for_runs(goal, options, crate::tables(), limits, runs)
                        .and_then(|p| Planned::with_plan(p, goal, crate::tables(), control))
                        .ok()
                })
                .collect()
        });
        Ok(Goals::PerShape(goals, planned))
    }

    /// The goals of `goals=`: as many as there are boards, each of its board's shape. When
    /// the heuristic is left to the planner, a goal shared by fewer than
    /// [`BOARDS_PER_BUILT_TABLE`] boards is planned with tables it may not build (it takes
    /// one already in memory or on disk), so no table is built, and kept, for a few boards.
    fn own(
        starts: &[Py<PyBoard>],
        goals: Vec<Py<PyBoard>>,
        config: &SolveConfig,
    ) -> PyResult<Goals> {
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
        let may_build = if config.options.heuristic.is_some() {
            // A heuristic the caller named is built when needed, as always.
            vec![true; goals.len()]
        } else {
            let mut boards = HashMap::<&Board, usize>::new();
            for g in &goals {
                *boards.entry(&g.get().board).or_default() += 1;
            }
            let in_memory = |g: &Board| {
                npuzzle::puzzle::Puzzle::new(g)
                    .is_some_and(|p| crate::tables().perfect_in_memory(&p))
            };
            let worth: HashMap<&Board, bool> = boards
                .into_iter()
                .map(|(g, n)| (g, n >= BOARDS_PER_BUILT_TABLE || in_memory(g)))
                .collect();
            goals.iter().map(|g| worth[&g.get().board]).collect()
        };
        Ok(Goals::Own(goals, may_build))
    }

    /// The tables board `i` is planned with.
    fn tables(&self, i: usize) -> &'static npuzzle::Tables {
        match self {
            Goals::Own(_, may_build) if !may_build[i] => crate::tables_without_builds(),
            _ => crate::tables(),
        }
    }

    /// The goal board `i` (which is `start`) is searched towards.
    fn board(&self, i: usize, start: &Board) -> &Board {
        match self {
            Goals::PerShape(goals, _) => &goals[Self::of_shape(goals, start)].1,
            Goals::Own(goals, _) => &goals[i].get().board,
        }
    }

    /// The goal object of board `i`'s solution (`start` is the board).
    fn object(&self, i: usize, start: &Board) -> &Py<PyBoard> {
        match self {
            Goals::PerShape(goals, _) => &goals[Self::of_shape(goals, start)].0,
            Goals::Own(goals, _) => &goals[i],
        }
    }

    /// Where the goal of `start`'s shape is; a batch has one shape or a few.
    fn of_shape(goals: &[(Py<PyBoard>, Board)], start: &Board) -> usize {
        goals
            .iter()
            .position(|(_, g)| g.shape() == start.shape())
            .expect("per_shape made a goal for every shape of the batch")
    }

    /// The plan made once for board `i`'s goal, if there is one (`start` is the board).
    fn planned(&self, start: &Board) -> Option<&Planned> {
        match self {
            Goals::PerShape(goals, planned) => planned[Self::of_shape(goals, start)].as_ref(),
            Goals::Own(..) => None,
        }
    }
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
