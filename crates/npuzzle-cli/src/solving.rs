//! Solving one board on a terminal: the plan, its tables loaded or built with a progress
//! bar, then the search with a spinner. `solve` and `interactive` share it.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::Result;
use npuzzle::search::{Control, Progress};
use npuzzle::{check_solvable, execute, plan_within, Board, Plan, Solution, SolveError, Tables};

use crate::options::SearchArgs;
use crate::progress::{JsonProgress, SearchSpinner};
use crate::table_builds::{given_up, prepare_within};

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
    if let Err(e) = check_solvable(start, goal) {
        return Ok(Err(e));
    }
    let mut p = match plan_within(goal, &search.solve_options(), tables, &limits) {
        Ok(p) => p,
        Err(e) => return Ok(Err(e)),
    };
    note_stronger_tables(&p);
    // Loading or building tables counts against the time limit: the search gets what is
    // left. A plan whose tables do not fit the memory limit builds nothing: the search
    // stops at once and says so.
    let started = Instant::now();
    let prepared = if p.fits(&limits) {
        let clock = p.table_clock(&limits);
        prepare_within(&p, goal, tables, clock).map(drop)
    } else {
        Ok(())
    };
    if let Some(t) = &mut limits.time {
        *t = t.saturating_sub(started.elapsed());
    }
    if let Err(e) = prepared {
        if !given_up(&e) {
            return Ok(Err(e));
        }
        // Stopped by Ctrl-C, or by the time its tables may take: a budgeted run then goes on
        // without them (the core's rule, `Plan::without_tables`), and says so; any other
        // search stops at once (its cancel flag is up, or no time is left, and the table is
        // missing) and says which.
        let without = p.without_tables();
        if !crate::interrupt::interrupted() && without != p {
            let heuristic = p.heuristic().map(ToString::to_string).unwrap_or_default();
            warn_tables_given_up(&heuristic, started.elapsed());
            p = without;
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
        ..Control::default()
    };
    let mut result = execute(&p, start, goal, tables, control);
    spinner.finish();
    crate::interrupt::relabel(&mut result);
    Ok(result)
}

/// Says on standard error that the tables of `heuristic` were given up after `waited`
/// (the core's rule, [`npuzzle::Plan::without_tables`]): the same words from `solve` and
/// from the commands that plan once for many boards.
pub fn warn_tables_given_up(heuristic: &str, waited: Duration) {
    crate::errln!(
        "warning: the tables of {heuristic} were not ready in time ({:.1} s); the search \
         runs with linear-conflict",
        waited.as_secs_f64()
    );
}

/// Says on standard error, once a process for each command, which stronger tables the plan
/// would take once they are cached and the command that caches them
/// ([`npuzzle::Plan::stronger_tables`]): the same words from `solve` and from the commands
/// that plan once for many boards.
pub fn note_stronger_tables(plan: &Plan) {
    static SAID: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let Some(s) = &plan.stronger_tables else {
        return;
    };
    let mut said = SAID
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if said.contains(&s.command) {
        return;
    }
    said.push(s.command.clone());
    crate::errln!(
        "note: stronger tables are not cached: `{}` builds {s} once, for every later \
         solve of this shape and goal",
        s.command
    );
}
