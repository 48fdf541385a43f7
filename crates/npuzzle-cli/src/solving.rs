//! Solving one board on a terminal: the plan, its tables loaded or built with a progress
//! bar, then the search with a spinner. `solve` and `interactive` share it.

use std::time::Instant;

use anyhow::Result;
use npuzzle::heuristic::pdb::PdbError;
use npuzzle::heuristic::HeuristicError;
use npuzzle::search::{Control, Progress, SearchStats};
use npuzzle::solvability::Verdict;
use npuzzle::{
    check_solvable, execute, plan, Board, HeuristicSpec, Plan, Solution, SolveError, StopReason,
    Tables,
};

use crate::options::SearchArgs;
use crate::progress::{JsonProgress, SearchSpinner};
use crate::table_builds::prepare_within;

/// Plans, prepares the plan's tables (with a progress bar) and solves, with a spinner on a
/// terminal (and, with `json_progress`, JSON lines of the anytime engine's progress on
/// standard output). The inner result is the solver's: an unsolvable board or a refused choice.
///
/// # Errors
/// Limits that make no sense.
pub fn solve_one(
    start: &Board,
    goal: &Board,
    search: &SearchArgs,
    tables: &Tables,
    trace: usize,
    threads: usize,
    json_progress: bool,
) -> Result<Result<Solution, SolveError>> {
    let mut limits = search.limits()?;
    // Solvability first, then the plan: the order of the core's `solve`, which `batch`
    // and the others use, so a board both unsolvable and given a refused choice exits the
    // same from every command. Unsolvable boards are reported before any table is built.
    let verdict = match check_solvable(start, goal) {
        Ok(v) => v,
        Err(e) => return Ok(Err(e)),
    };
    let p = match plan(goal, &search.solve_options(), tables) {
        Ok(p) => p,
        Err(e) => return Ok(Err(e)),
    };
    // Tables count against the memory limit, and so does building them: a plan whose
    // tables cannot fit stops before any is built (`-H pdb:1-7-7 --memory-limit 50` built
    // 58 MB of tables and peaked at 97 to 128 MB before the search said "memory").
    if over_memory(&p, &limits) {
        return Ok(Ok(stopped_by_memory(&p, verdict)));
    }
    // Loading or building tables counts against the time limit: the search gets what is
    // left.
    let started = Instant::now();
    let prepared = prepare_within(&p, goal, tables, limits.time);
    if let Some(t) = &mut limits.time {
        *t = t.saturating_sub(started.elapsed());
    }
    if let Err(e) = prepared {
        // A build stopped by Ctrl-C or the time limit: the search below stops at once (its
        // cancel flag is up, or no time is left, and the table is missing) and says which.
        let stopped = matches!(
            &e,
            SolveError::Heuristic(HeuristicError::Pdb(PdbError::Stopped))
        );
        if !stopped {
            return Ok(Err(e));
        }
    }
    let spinner = SearchSpinner::new();
    let lines = json_progress.then(JsonProgress::new);
    let report = |p: &Progress| {
        spinner.update(p);
        if let Some(lines) = &lines {
            lines.update(p);
        }
    };
    let cancel = crate::interrupt::cancel_flag();
    let control = Control {
        limits,
        cancel: Some(&cancel),
        progress: Some(&report),
        trace,
        threads,
    };
    let mut result = execute(&p, start, goal, tables, control);
    spinner.finish();
    crate::interrupt::relabel(&mut result);
    Ok(result)
}

/// [`npuzzle::solve`] with the plan's tables, and building them, counted against the
/// memory limit before any is built, as [`solve_one`] counts them: `batch` and `compare`
/// use it. (The library counts a heuristic's tables only once they are built: `batch
/// --memory-limit 50 -H pdb:1-7-7` built 58 MB of tables first, peaking near 128 MB.)
///
/// # Errors
/// As [`npuzzle::solve`].
pub fn solve_counting_tables(
    start: &Board,
    goal: &Board,
    options: &npuzzle::SolveOptions,
    tables: &Tables,
    control: Control<'_>,
) -> Result<Solution, SolveError> {
    let verdict = check_solvable(start, goal)?;
    let p = plan(goal, options, tables)?;
    if over_memory(&p, &control.limits) {
        return Ok(stopped_by_memory(&p, verdict));
    }
    execute(&p, start, goal, tables, control)
}

/// Whether the tables of `plan`, with the working memory of building them, exceed the
/// memory limit.
pub fn over_memory(plan: &Plan, limits: &npuzzle::Limits) -> bool {
    limits
        .memory_bytes
        .is_some_and(|limit| crate::table_builds::plan_memory(plan) > limit)
}

/// The answer of a plan stopped by the memory limit before it began: no path, no search.
pub fn stopped_by_memory(plan: &Plan, verdict: Verdict) -> Solution {
    let phase = &plan.phases[0];
    let heuristic = phase.heuristic.clone();
    Solution {
        verdict,
        moves: None,
        optimal: phase.optimal,
        stats: SearchStats::default(),
        stopped_by: Some(StopReason::Memory),
        algorithm: phase.algorithm,
        admissible: heuristic.as_ref().is_none_or(HeuristicSpec::admissible),
        heuristic,
        phase: phase.kind,
        trace: Vec::new(),
        lower_bound: None,
        bound_factor: None,
        improvements: Vec::new(),
    }
}
