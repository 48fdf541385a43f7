//! A checked solve request and its plan, and how it runs: a short attempt on the quick
//! pool when its plan is cheap, else (or when the attempt is not enough) on the search
//! pool; shared by the solve, stream, hint, compare and random endpoints.

use std::sync::atomic::AtomicBool;
use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use npuzzle::report::SolveReport;
use npuzzle::search::{Control, Progress, TraceStep};
use npuzzle::{
    execute, solvability, Board, Limits, Plan, Solution, SolveError, SolveOptions, StopReason,
    Tables, DEFAULT_WEIGHT,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::error::AppError;
use crate::input::{self, BoardInput, GoalInput, Instance};
use crate::state::AppState;

/// `POST /api/solve` fields (also `/api/solve/stream`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SolveRequest {
    pub(crate) board: BoardInput,
    pub(crate) size: Option<String>,
    pub(crate) goal: Option<GoalInput>,
    pub(crate) heuristic: Option<String>,
    pub(crate) algorithm: Option<String>,
    pub(crate) weight: Option<f64>,
    /// States a beam search keeps a depth (`algorithm: "beam"`).
    pub(crate) width: Option<input::Count>,
    pub(crate) time_limit: Option<f64>,
    pub(crate) max_nodes: Option<input::Count>,
    /// Record the first this-many expansions (as `npuzzle solve --trace N`).
    pub(crate) trace: Option<i64>,
    /// Add every board along the path (as `npuzzle solve --path`).
    #[serde(default)]
    pub(crate) path: bool,
    /// Prove the answer optimal with no fallback (as `npuzzle solve --optimal`), on one
    /// thread, stopped only by the request's limits or the server's.
    #[serde(default)]
    pub(crate) optimal: bool,
}

/// A checked solve with its plan, ready to run.
pub(crate) struct Job {
    pub(crate) instance: Instance,
    pub(crate) options: SolveOptions,
    pub(crate) plan: Plan,
    pub(crate) tables: Tables,
    pub(crate) limits: Limits,
    pub(crate) trace: usize,
    pub(crate) path: bool,
}

impl Job {
    pub(crate) fn new(req: SolveRequest, state: &AppState) -> Result<Job, AppError> {
        let config = state.config();
        let instance = input::instance(&req.board, req.size.as_deref(), req.goal.as_ref(), config)?;
        let heuristic = input::heuristic(req.heuristic.as_deref())?;
        let algorithm = input::algorithm(req.algorithm.as_deref())?;
        let options = SolveOptions {
            algorithm,
            heuristic,
            weight: req.weight.unwrap_or(DEFAULT_WEIGHT),
            optimal: req.optimal,
            ..SolveOptions::default()
        };
        let (options, limits) =
            input::request(config, options, req.width, req.time_limit, req.max_nodes)?;
        let given = req.trace.unwrap_or(0);
        let trace = usize::try_from(given)
            .ok()
            .filter(|&t| t <= config.max_trace)
            .ok_or_else(|| {
                AppError::bad(format!(
                    "trace must be from 0 to {} on this server, got {given}",
                    config.max_trace
                ))
            })?;
        Job::planned(instance, options, limits, state, trace, req.path)
    }

    /// A job whose board can reach its goal (a 422 with the report saying why not,
    /// otherwise) and whose choices the server's planner accepts (a 400 with the planner's
    /// one-line reason otherwise): solvability first, then the plan, as every command
    /// orders them.
    pub(crate) fn planned(
        instance: Instance,
        options: SolveOptions,
        limits: Limits,
        state: &AppState,
        trace: usize,
        path: bool,
    ) -> Result<Job, AppError> {
        let verdict = solvability::check(&instance.start, &instance.goal).map_err(AppError::bad)?;
        if !verdict.solvable {
            let result = Err(SolveError::Unsolvable(verdict));
            let report = report_json(&instance.start, &instance.goal, &result, false)
                .ok_or(AppError::Internal)?;
            return Err(AppError::Unsolvable(report.to_string()));
        }
        let tables = state.tables().clone();
        let plan = npuzzle::plan_within(&instance.goal, &options, &tables, &limits)
            .map_err(AppError::bad)?;
        Ok(Job {
            instance,
            options,
            plan,
            tables,
            limits,
            trace,
            path,
        })
    }

    pub(crate) fn run(
        &self,
        cancel: &AtomicBool,
        progress: Option<&(dyn Fn(&Progress) + Sync)>,
    ) -> Result<Solution, SolveError> {
        self.run_within(self.limits, cancel, progress)
    }

    pub(crate) fn run_within(
        &self,
        limits: Limits,
        cancel: &AtomicBool,
        progress: Option<&(dyn Fn(&Progress) + Sync)>,
    ) -> Result<Solution, SolveError> {
        let control = Control {
            limits,
            cancel: Some(cancel),
            progress,
            trace: self.trace,
            ..Control::default()
        };
        let i = &self.instance;
        execute(&self.plan, &i.start, &i.goal, &self.tables, control)
    }

    /// The limits of the job's attempt on the quick pool and how long it may run, or
    /// `None` when its plan cannot be cheap: it loads or builds tables for longer than
    /// [`CHEAP_TABLE_SECONDS`], or builds a table of more than [`CHEAP_BUILD_ENTRIES`].
    ///
    /// Cheap is judged by plan and time, not by the board's size: a 1-move 15-puzzle is
    /// cheap, while IDA* with `0*manhattan` on a 3x3 board (an uninformed search of
    /// billions of nodes) is not, and two of them once filled a quick pool reserved for
    /// boards of 9 cells. So every job whose tables are at hand gets a short attempt
    /// ([`QUICK_TIME`], plus the time its tables are expected to take), and one that
    /// outgrows it moves to the search pool.
    pub(crate) fn quick_limits(&self) -> Option<(Limits, Duration)> {
        let table_seconds = self.plan.table_seconds();
        // (A NaN estimate is not cheap.)
        if table_seconds.is_nan() || table_seconds > CHEAP_TABLE_SECONDS {
            return None;
        }
        // Builds of more than a small table run on the search pool, at a low priority and
        // one at a time with the other builds: on the quick pool a 5-5-5 build of the
        // 15-puzzle (a tenth of a second, more when it waits for another build) would hold
        // a slot meant for requests of milliseconds, at the priority of the threads that
        // answer requests.
        let small = |t: &npuzzle::plan::TableNeed| {
            t.source != npuzzle::plan::TableSourceKind::Build || t.entries <= CHEAP_BUILD_ENTRIES
        };
        if !self.plan.tables.iter().all(small) {
            return None;
        }
        // Twice the estimate: a build stopped midway is thrown away.
        let within = QUICK_TIME + Duration::from_secs_f64(2.0 * table_seconds);
        // The time is not capped here but by the quick pool's timer: the anytime engine
        // takes a time limit as its budget, so 5 ms of limit would make it plan for 5 ms.
        let nodes = Some(
            self.limits
                .nodes
                .map_or(QUICK_NODES, |n| n.min(QUICK_NODES)),
        );
        Some((
            Limits {
                nodes,
                ..self.limits
            },
            within,
        ))
    }

    /// The answer from the quick pool when there is one: the job's whole search when its
    /// short attempt (see [`Job::quick_limits`]) was enough. Otherwise the job comes back
    /// (`Err`) for the search pool.
    ///
    /// Most requests (an 8-puzzle, a few dozen moves on a 15-puzzle) finish within a few
    /// thousand nodes, well under a millisecond; waiting for a search slot behind long
    /// searches costs more than the search (a 15-puzzle that needed milliseconds waited
    /// 6.5 to 8.3 s behind two long searches). The attempts never run on the threads that
    /// answer HTTP requests (an attempt there blocked them: two expensive "quick" attempts
    /// made `GET /api/info` wait 9 s). Shared by `/api/solve` and `/api/solve/stream`, so
    /// both answer cheap requests at once.
    pub(crate) async fn quick(self, state: &AppState) -> Result<Result<Answered, Job>, AppError> {
        let built = self.plan.builds_tables();
        let mut job = match self.attempt(state).await? {
            Ok(done) => return Ok(Ok(done)),
            Err(job) => job,
        };
        if !built {
            return Ok(Err(job));
        }
        // The attempt built its small tables (the exact table of a 3x3 board cannot be
        // stopped midway, and may take all of the attempt's time on a busy machine): with
        // them in memory now, the search itself gets an attempt of its own, rather than a
        // wait for a search slot behind long searches (2 s measured under attack).
        match npuzzle::plan_within(&job.instance.goal, &job.options, &job.tables, &job.limits) {
            Ok(plan) if !plan.builds_tables() => {
                job.plan = plan;
                job.attempt(state).await
            }
            _ => Ok(Err(job)),
        }
    }

    /// One attempt on the quick pool under [`Job::quick_limits`] (see [`Job::quick`]).
    async fn attempt(self, state: &AppState) -> Result<Result<Answered, Job>, AppError> {
        let Some((quick, within)) = self.quick_limits() else {
            return Ok(Err(self));
        };
        let ((job, result), late) = state
            .quick(within, move |cancel| {
                let result = self.run_within(quick, cancel, None);
                (self, result)
            })
            .await?;
        // Outgrown: it ran out of the attempt's time (its answer was cut short after the
        // timer went off) or nodes, or (with `auto`) the first phase ran out of the
        // attempt's nodes and a later one answered: the full limits may let the first
        // phase answer (an optimal path rather than the constructive one). A whole answer
        // is kept however late it came: on a busy machine a search of microseconds may
        // end after the timer.
        let fewer_nodes = quick
            .nodes
            .is_some_and(|q| job.limits.nodes.is_none_or(|n| q < n));
        let outgrown = match &result {
            Ok(s) => match s.stopped_by {
                Some(StopReason::Nodes) => late || fewer_nodes,
                Some(_) => late,
                None => fewer_nodes && s.phase != job.plan.phases[0].kind,
            },
            Err(_) => false,
        };
        Ok(if outgrown {
            Err(job)
        } else {
            Ok((job, result))
        })
    }

    /// Solves on the quick pool when [`Job::quick`] answers, else on the search pool under
    /// the request's full limits and a slot.
    pub(crate) async fn solve(self, state: &AppState) -> Result<Answered, AppError> {
        let job = match self.quick(state).await? {
            Ok(done) => return Ok(done),
            Err(job) => job,
        };
        state
            .search(move |cancel| {
                let result = job.run(cancel, None);
                (job, result)
            })
            .await
    }
}

/// A job and its result.
pub(crate) type Answered = (Job, Result<Solution, SolveError>);

/// Longest table load or build (by the planner's estimate) a cheap job may need: the
/// exact table of a 3x3 board, a 4x4 pattern database from the cache.
pub(crate) const CHEAP_TABLE_SECONDS: f64 = 0.25;

/// Most entries of a table a quick attempt may build: the exact table of a 3x3 board
/// (9! = 362,880), some 20 ms.
pub(crate) const CHEAP_BUILD_ENTRIES: u64 = 400_000;

/// Node budget of the attempt on the quick pool (see [`Job::quick`]): a few milliseconds
/// of search at the usual node rates.
pub(crate) const QUICK_NODES: u64 = 200_000;
/// Time budget of the attempt on the quick pool, besides its tables' time: enough for
/// what a person waits for (an 8-puzzle, most 15-puzzles with their tables in memory),
/// short enough that clients sending expensive requests in a loop hold the quick pool for
/// moments only. (20 ms was tried: two attackers looping over 15-puzzle requests then
/// kept both quick slots busy, and the 8-puzzles' p99 rose to 280 ms.)
pub(crate) const QUICK_TIME: Duration = Duration::from_millis(5);

/// The `npuzzle solve --json` object of a solve: the report, plus `trace` when recorded.
#[derive(Serialize)]
pub(crate) struct Answer<'a> {
    #[serde(flatten)]
    report: SolveReport,
    #[serde(skip_serializing_if = "<[TraceStep]>::is_empty")]
    trace: &'a [TraceStep],
}

impl Answer<'_> {
    /// `None` for errors that are not about solvability.
    pub(crate) fn new<'a>(
        start: &Board,
        goal: &Board,
        result: &'a Result<Solution, SolveError>,
        path: bool,
    ) -> Option<Answer<'a>> {
        Some(Answer {
            report: SolveReport::new(start, goal, result, path)?,
            trace: result.as_ref().map_or(&[], |s| &s.trace),
        })
    }
}

/// The answer as a JSON value (for embedding in a larger answer).
pub(crate) fn report_json(
    start: &Board,
    goal: &Board,
    result: &Result<Solution, SolveError>,
    path: bool,
) -> Option<Value> {
    serde_json::to_value(Answer::new(start, goal, result, path)?).ok()
}

/// 200 with the report (solved, or stopped by a limit), 422 with the report when unsolvable,
/// 400 for other solver errors.
pub(crate) fn solve_response(
    start: &Board,
    goal: &Board,
    result: &Result<Solution, SolveError>,
    path: bool,
) -> Response {
    match (Answer::new(start, goal, result, path), result) {
        (Some(v), Err(SolveError::Unsolvable(_))) => {
            (StatusCode::UNPROCESSABLE_ENTITY, Json(v)).into_response()
        }
        (Some(v), _) => Json(v).into_response(),
        (None, Err(e)) => AppError::bad(e).into_response(),
        (None, Ok(_)) => AppError::Internal.into_response(),
    }
}

/// The last line of a streamed solve: `{"result": <report>}` or `{"error": "…"}`.
pub(crate) fn result_line(job: &Job, result: Result<Solution, SolveError>) -> String {
    let i = &job.instance;
    let last = match report_json(&i.start, &i.goal, &result, job.path) {
        Some(report) => json!({ "result": report }),
        None => json!({
            "error": result.err().map_or("internal error".to_string(), |e| {
                crate::error::one_line(&e.to_string())
            })
        }),
    };
    format!("{last}\n")
}
