//! The JSON API. Every endpoint takes a JSON body (see the README for the fields) and answers
//! JSON; input errors are 400 with `{"error": "…"}`, unsolvable boards 422 with the report.

use std::convert::Infallible;
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use axum::Json;
use npuzzle::hint::{Hint, HINT_TIME};
use npuzzle::plan::{choices, TableSourceKind};
use npuzzle::search::{Progress, StopReason};
use npuzzle::{
    generate, solvability, Algorithm, GoalSpec, HeuristicSpec, Limits, SolveOptions, DEFAULT_WEIGHT,
};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::error::AppError;
use crate::input::{self, BoardInput, GoalInput, Instance, JsonBody};
use crate::job::{report_json, result_line, solve_response, Job, SolveRequest};
use crate::state::{spawn_job, AppState, CancelOnDrop, Priority};
use crate::stop::Stops;

/// `GET /api/info`: what the server offers and its limits, for the page's menus.
pub async fn info(State(state): State<AppState>) -> Json<Value> {
    let c = state.config();
    Json(json!({
        "name": "npuzzle",
        "version": env!("CARGO_PKG_VERSION"),
        // The built-in heuristics, then `pdb`: the shape's default pattern database (boards
        // of at most 64 cells; built in seconds the first time, then kept).
        "heuristics": HeuristicSpec::NAMES.iter().chain(&["pdb"]).collect::<Vec<_>>(),
        "algorithms": Algorithm::ALL.iter().map(|a| a.name()).collect::<Vec<_>>(),
        "goals": GoalSpec::NAMED.iter().map(GoalSpec::name).collect::<Vec<_>>(),
        // Each `stopped_by` in the words that follow "stopped by", as the command line
        // prints them, so the page does not keep a copy.
        "stop_causes": StopReason::ALL
            .iter()
            .map(|r| (r.as_str().to_string(), json!(r.cause())))
            .collect::<serde_json::Map<_, _>>(),
        "limits": {
            "max_side": c.max_side,
            "max_body_bytes": c.max_body_bytes,
            "time_limit": c.time_limit.as_secs_f64(),
            "max_nodes": c.max_nodes,
            "memory_mb": c.memory_bytes >> 20,
            "max_trace": c.max_trace,
            "max_compare": c.max_compare,
            "max_concurrent_solves": c.max_concurrent_solves,
        },
        "busy": { "searches": state.active_searches(), "waiting": state.waiting() },
    }))
}

/// The board fields every endpoint shares.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoardRequest {
    board: BoardInput,
    size: Option<String>,
    goal: Option<GoalInput>,
}

/// `POST /api/check`: is the board valid, and can it reach the goal? Always 200 for a valid
/// board (solvable or not); 400 for an invalid one.
pub async fn check(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<BoardRequest>,
) -> Result<Json<Value>, AppError> {
    let i = input::instance(
        &req.board,
        req.size.as_deref(),
        req.goal.as_ref(),
        state.config(),
    )?;
    let verdict = solvability::check(&i.start, &i.goal).map_err(AppError::bad)?;
    Ok(Json(json!({
        "valid": true,
        "solvable": verdict.solvable,
        "reason": verdict.explanation(),
        "size": i.start.shape().to_string(),
        "start": i.start.tiles(),
        "goal": i.goal.tiles(),
        "solved": i.start == i.goal,
        "verdict": verdict,
    })))
}

/// `POST /api/random` fields.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RandomRequest {
    size: Option<String>,
    goal: Option<GoalInput>,
    /// Moves of a random walk from the goal; absent for a uniformly random solvable board.
    moves: Option<usize>,
    seed: Option<u64>,
}

/// Longest random walk a shuffle may ask for.
const MAX_WALK: usize = 100_000;

/// `POST /api/random`: a random solvable board, uniform over those other than the goal or a
/// random walk of `moves` moves from the goal (no move undoing the one before). `distance`
/// is the optimal distance when a quick search finds it, else `null`.
pub async fn random(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<RandomRequest>,
) -> Result<Json<Value>, AppError> {
    let config = state.config().clone();
    let shape = input::shape(req.size.as_deref())?.unwrap_or(npuzzle::Shape::square(3).unwrap());
    input::check_shape(shape, &config)?;
    let spec = input::goal_spec(req.goal.as_ref())?;
    let (goal, _) = input::goal(&spec, shape)?;
    if req.moves.is_some_and(|m| m > MAX_WALK) {
        return Err(AppError::bad(format!("moves must be at most {MAX_WALK}")));
    }
    let seed = req.seed.unwrap_or_else(generate::fresh_seed);
    let mut rng = generate::rng(seed);
    let board = match req.moves {
        Some(m) => generate::random_walk(&goal, m, &mut rng),
        None => generate::shuffled(&goal, &mut rng),
    };
    let cells = shape.cells();
    let quick = cells <= 9 || (cells <= 16 && req.moves.is_some_and(|m| m <= 60));
    let distance = if quick {
        let instance = Instance {
            start: board.clone(),
            goal: goal.clone(),
        };
        let options = SolveOptions::default();
        let limits = Limits {
            time: Some(Duration::from_secs(2).min(config.time_limit)),
            nodes: Some(5_000_000),
            memory_bytes: Some(config.memory_bytes),
            // The distance is wanted only when proved: a proof at once, not a budget.
            time_is_ceiling: true,
        };
        let job = Job::planned(instance, options, limits, &state, 0, false)?;
        let (_, result) = job.solve(&state).await?;
        result.ok().filter(|s| s.optimal).and_then(|s| s.length())
    } else {
        None
    };
    Ok(Json(json!({
        "size": shape.to_string(),
        "board": board.tiles(),
        "text": board.to_string(),
        "goal": goal.tiles(),
        "moves": req.moves,
        "distance": distance,
        "seed": seed,
    })))
}

/// `POST /api/solve`: solves a board and answers with the object `npuzzle solve --json` prints.
pub async fn solve_board(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<SolveRequest>,
) -> Result<Response, AppError> {
    let job = Job::new(req, &state)?;
    let (job, result) = job.solve(&state).await?;
    let i = &job.instance;
    Ok(solve_response(&i.start, &i.goal, &result, job.path))
}

/// A newline-delimited JSON answer.
fn ndjson(body: Body) -> Response {
    (
        [
            (header::CONTENT_TYPE, "application/x-ndjson"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

/// `POST /api/solve/stream`: as `/api/solve`, but the answer is newline-delimited JSON: a
/// `{"waiting": "waiting for a free slot", "ahead": n}` line when every search slot is busy,
/// a `{"started": true, "id": …}` line when the search starts (the id for [`solve_stop`]),
/// a `{"progress": …}` line about ten times a second while it runs and at once when the
/// anytime engine improves its answer or its bound (`best` and `lower_bound`), then one
/// `{"result": <report>}` or `{"error": "…"}` line (the report's `improvements` list the
/// anytime engine's answers over time).
/// A cheap search is answered at once with the result line alone, as `/api/solve` answers
/// it without a slot. Closing the connection cancels the search (or the wait).
pub async fn solve_stream(
    State(state): State<AppState>,
    Extension(stops): Extension<Stops>,
    JsonBody(req): JsonBody<SolveRequest>,
) -> Result<Response, AppError> {
    let job = Job::new(req, &state)?;
    let job = match job.quick(&state).await? {
        Ok((job, result)) => return Ok(ndjson(Body::from(result_line(&job, result)))),
        Err(job) => job,
    };
    // The request takes its place in the line here, before the waiting line is sent, so
    // the queue's count and bound hold for what the client is told.
    let free = match state.try_slot() {
        Some(slot) => Ok(slot),
        None => Err(state.line_up_for_slot()?),
    };
    let cancel = CancelOnDrop::new();
    let flag = cancel.flag();
    // The search thread never waits for the client: progress lines are dropped when the
    // client reads slowly, and the result goes through a oneshot channel that cannot block.
    // So a client that stops reading holds no search slot and no thread.
    let (tx, rx) = tokio::sync::mpsc::channel::<String>(8);
    let (done, result_rx) = tokio::sync::oneshot::channel::<String>();
    let waiter = state.clone();
    tokio::spawn(async move {
        let slot = match free {
            Ok(slot) => slot,
            Err(place) => {
                let line = json!({ "waiting": "waiting for a free slot", "ahead": place.ahead() });
                let _ = tx.try_send(format!("{line}\n"));
                // A client that hangs up while waiting leaves the queue at once.
                tokio::select! {
                    slot = place.slot() => match slot {
                        Ok(slot) => slot,
                        Err(e) => {
                            let _ = done.send(format!("{}\n", json!({ "error": e.message() })));
                            return;
                        }
                    },
                    () = tx.closed() => return,
                }
            }
        };
        let running = waiter.running();
        let entry = stops.register(&flag);
        drop(spawn_job(Priority::Low, move || {
            let _slot = slot;
            let _running = running;
            let progress = |p: &Progress| {
                let line = json!({ "progress": {
                    "expanded": p.expanded,
                    "generated": p.generated,
                    "open": p.open,
                    "bound": p.bound,
                    "seconds": p.elapsed.as_secs_f64(),
                    // The anytime engine's answer so far and its proven bound (`length` null
                    // in a single search and before the first answer; `lower_bound` an
                    // optimal search's proven bound, else null): the names of
                    // `solve --json --progress` and Python's progress callback.
                    "length": p.best,
                    "lower_bound": p.lower_bound,
                }});
                // A slow reader misses progress lines rather than slowing the search.
                let _ = tx.try_send(format!("{line}\n"));
            };
            let started = json!({ "started": true, "id": entry.id() });
            let _ = tx.try_send(format!("{started}\n"));
            let result = job.run(&flag, Some(&progress));
            drop(entry);
            let _ = done.send(result_line(&job, result));
        }));
    });
    // The stream owns the cancel guard: when the client goes away hyper drops the body, the
    // guard sets the flag, and the search stops. Progress lines come first; when the search
    // has finished (its sender is gone) the result line ends the stream.
    let lines = futures_util::stream::unfold(
        (rx, Some(result_rx), cancel),
        |(mut rx, result_rx, cancel)| async move {
            if let Some(line) = rx.recv().await {
                return Some((
                    Ok::<_, Infallible>(Bytes::from(line)),
                    (rx, result_rx, cancel),
                ));
            }
            let last = result_rx?.await.ok()?;
            Some((Ok(Bytes::from(last)), (rx, None, cancel)))
        },
    );
    Ok(ndjson(Body::from_stream(lines)))
}

/// `POST /api/solve/stop` fields.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StopRequest {
    /// The id of a stream's `started` line.
    id: String,
}

/// `POST /api/solve/stop {"id": …}`: ends the streamed search with that id now; its stream
/// stays open and ends with the best answer found (`stopped_by: "cancelled"`). Answers
/// `{"stopped": true}`, or `false` when no search with that id is running (it ended, or
/// never was).
pub async fn solve_stop(
    Extension(stops): Extension<Stops>,
    JsonBody(req): JsonBody<StopRequest>,
) -> Json<Value> {
    Json(json!({ "stopped": stops.stop(&req.id) }))
}

/// `POST /api/hint` fields.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HintRequest {
    board: BoardInput,
    size: Option<String>,
    goal: Option<GoalInput>,
    heuristic: Option<String>,
    time_limit: Option<f64>,
}

/// `POST /api/hint`: the first move of `auto`'s solution within the hint's budget (the
/// request's `time_limit`, at most [`HINT_TIME`]): on boards of up to 16 cells a proved
/// shortest path, on larger ones the anytime engine's best when the budget ends, with its
/// proven `lower_bound` and `optimal: false` unless the bound meets it. `moves` is the
/// whole path the hint starts.
pub async fn hint(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<HintRequest>,
) -> Result<Response, AppError> {
    let mut config = state.config().clone();
    let instance = input::instance(&req.board, req.size.as_deref(), req.goal.as_ref(), &config)?;
    let heuristic = input::heuristic(req.heuristic.as_deref())?;
    let options = SolveOptions {
        heuristic,
        ..SolveOptions::default()
    };
    // The hint's own ceiling: a longer time limit is refused, as one above the server's.
    config.time_limit = config.time_limit.min(HINT_TIME);
    let (options, limits) = input::request(&config, options, None, req.time_limit, None)?;
    // A hint's time is its budget, as in `play` and Python (`HINT_TIME` unless the request
    // asks for less): auto's anytime engine answers at once and improves within it, so a
    // board too hard to solve optimally in time still gets a hint (marked not optimal).
    let limits = limits.with_default_budget(Some(HINT_TIME));
    let job = Job::planned(instance, options, limits, &state, 0, false)?;
    let (job, result) = job.solve(&state).await?;
    let s = result.map_err(AppError::bad)?;
    let hint = Hint::new(&job.instance.start, &job.instance.goal, &s);
    Ok(Json(hint).into_response())
}

/// `POST /api/compare` fields.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    board: BoardInput,
    size: Option<String>,
    goal: Option<GoalInput>,
    heuristics: Option<Vec<String>>,
    algorithm: Option<String>,
    weight: Option<f64>,
    /// States a beam search keeps a depth.
    width: Option<input::Count>,
    /// Seconds for each heuristic.
    time_limit: Option<f64>,
    /// Nodes for each heuristic.
    max_nodes: Option<input::Count>,
}

/// Seconds each heuristic of a comparison gets unless the request says otherwise.
const COMPARE_TIME: Duration = Duration::from_secs(3);

/// `POST /api/compare`: solves one board with several heuristics (default: every built-in one
/// that fits the board), one after another, each under its own limits and all within the
/// server's time limit. Answers `{"results": [<report or {"heuristic", "error"}>…]}`.
pub async fn compare(
    State(state): State<AppState>,
    JsonBody(req): JsonBody<CompareRequest>,
) -> Result<Response, AppError> {
    let config = state.config().clone();
    let instance = input::instance(&req.board, req.size.as_deref(), req.goal.as_ref(), &config)?;
    let algorithm = input::algorithm(req.algorithm.as_deref().or(Some("astar")))?;
    let names: Vec<String> = match req.heuristics {
        Some(h) if h.is_empty() => return Err(AppError::bad("heuristics must not be empty")),
        Some(h) => h,
        // Every built-in heuristic the planner accepts for this board and goal, but the
        // pattern database (built on demand: asked for by name).
        None => choices(&instance.goal, algorithm, 2.0, state.tables())
            .heuristics
            .into_iter()
            .filter(|c| c.available && c.id != "pdb")
            .map(|c| c.id)
            .collect(),
    };
    if names.len() > config.max_compare {
        return Err(AppError::bad(format!(
            "at most {} heuristics per comparison, got {}",
            config.max_compare,
            names.len()
        )));
    }
    // A heuristic the planner refuses for this board is reported in its row.
    let mut jobs: Vec<Result<Job, (String, String)>> = Vec::new();
    for name in &names {
        let options = SolveOptions {
            algorithm,
            heuristic: input::heuristic(Some(name))?,
            weight: req.weight.unwrap_or(DEFAULT_WEIGHT),
            optimal: false,
            ..SolveOptions::default()
        };
        let (options, mut limits) =
            input::request(&config, options, req.width, req.time_limit, req.max_nodes)?;
        if req.time_limit.is_none() {
            limits.time = Some(COMPARE_TIME.min(config.time_limit));
        }
        let job = Job::planned(instance.clone(), options, limits, &state, 0, false);
        // An unsolvable board is the answer, whatever the heuristics.
        if let Err(e @ AppError::Unsolvable(_)) = job {
            return Err(e);
        }
        jobs.push(job.map_err(|e| (name.clone(), e.message())));
    }
    check_table_budget(jobs.iter().flatten(), config.max_build_entries)?;
    let budget = config.time_limit;
    let results =
        state
            .search(move |cancel| {
                let started = Instant::now();
                let mut out = Vec::new();
                for job in jobs {
                    let mut job = match job {
                        Ok(job) => job,
                        Err((name, error)) => {
                            out.push(json!({ "heuristic": name, "error": error }));
                            continue;
                        }
                    };
                    let left = budget
                        .saturating_sub(started.elapsed())
                        .max(Duration::from_millis(1));
                    job.limits.time = job.limits.time.map(|t| t.min(left));
                    let result = job.run(cancel, None);
                    let i = &job.instance;
                    let name = job.options.heuristic.as_ref().map(ToString::to_string);
                    out.push(report_json(&i.start, &i.goal, &result, false).unwrap_or_else(|| {
                    json!({
                        "heuristic": name,
                        "error": result.err().map(|e| crate::error::one_line(&e.to_string())),
                    })
                }));
                }
                out
            })
            .await?;
    Ok(Json(json!({
        "size": instance.start.shape().to_string(),
        "start": instance.start.tiles(),
        "goal": instance.goal.tiles(),
        "algorithm": algorithm.name(),
        "results": results,
    }))
    .into_response())
}

/// Refuses a request whose jobs together would build more table entries than one request
/// may (the planner checks each job alone: eight heuristics of a comparison, each within
/// the 30 million entries, built about 190 million). A table two jobs share is counted
/// once: the first builds it, the second finds it in memory.
///
/// # Errors
/// A 400 naming the entries and the limit.
fn check_table_budget<'a>(jobs: impl Iterator<Item = &'a Job>, max: u64) -> Result<(), AppError> {
    let mut names = std::collections::HashSet::new();
    let entries: u64 = jobs
        .flat_map(|job| &job.plan.tables)
        .filter(|t| t.source == TableSourceKind::Build && names.insert(t.name.as_str()))
        .map(|t| t.entries)
        .fold(0, u64::saturating_add);
    if entries > max {
        return Err(AppError::bad(format!(
            "these heuristics together need tables of {entries} entries built first; one \
             request may build at most {max} (compare fewer at once, or build them with \
             `npuzzle pdb build`)"
        )));
    }
    Ok(())
}

/// `GET /api/plan` query: the board's shape and goal, and optionally the choices to plan.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlanQuery {
    size: String,
    goal: Option<String>,
    heuristic: Option<String>,
    algorithm: Option<String>,
    weight: Option<f64>,
    #[serde(default, deserialize_with = "input::query_count")]
    width: Option<input::Count>,
    /// A proof's plan, as `npuzzle solve --optimal --explain` shows it.
    #[serde(default)]
    optimal: bool,
    /// The time limit a solve would be given (the server's by default): past 16 cells it
    /// decides which tables auto can afford, as `npuzzle solve --time-limit T --explain`.
    time_limit: Option<f64>,
    /// The node limit a solve would be given (the server's by default).
    #[serde(default, deserialize_with = "input::query_count")]
    max_nodes: Option<input::Count>,
}

/// `GET /api/plan?size=RxC&goal=G[&heuristic=H&algorithm=A&weight=W&width=N&optimal=true&time_limit=T&max_nodes=N]`:
/// the menus for that board and goal (every algorithm and heuristic, each available or not
/// and why) and the plan a solve of those choices and limits runs (auto's, within the
/// server's limits, by default), or 400 with the planner's refusal.
pub async fn plan(
    State(state): State<AppState>,
    query: Result<axum::extract::Query<PlanQuery>, axum::extract::rejection::QueryRejection>,
) -> Result<Response, AppError> {
    let axum::extract::Query(q) = query.map_err(|e| input::query_error(&e))?;
    let config = state.config();
    let shape = input::shape(Some(&q.size))?.ok_or_else(|| AppError::bad("size is required"))?;
    input::check_shape(shape, config)?;
    let spec = input::goal_spec(q.goal.map(GoalInput::text).as_ref())?;
    let (goal, custom_goal) = input::goal(&spec, shape)?;
    let heuristic = input::heuristic(q.heuristic.as_deref())?;
    let algorithm = input::algorithm(q.algorithm.as_deref())?;
    let options = SolveOptions {
        algorithm,
        heuristic,
        weight: q.weight.unwrap_or(DEFAULT_WEIGHT),
        optimal: q.optimal,
        ..SolveOptions::default()
    };
    // The limits a solve of this request would get, checked as its are: they decide the
    // tables a budgeted run can afford, and the memory limit those it can hold.
    let (options, limits) = input::request(config, options, q.width, q.time_limit, q.max_nodes)?;
    let tables = state.tables();
    let plan = npuzzle::plan_within(&goal, &options, tables, &limits).map_err(AppError::bad)?;
    let menus = choices(&goal, algorithm, options.weight, tables);
    Ok(Json(json!({
        "size": shape.to_string(),
        "goal": spec.name(),
        "custom_goal": custom_goal,
        "algorithms": menus.algorithms,
        "heuristics": menus.heuristics,
        "plan": plan,
        "summary": plan.to_string(),
    }))
    .into_response())
}
