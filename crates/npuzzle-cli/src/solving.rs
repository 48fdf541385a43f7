//! Solving one board on a terminal: the plan, its tables loaded or built with a progress
//! bar, then the search with a spinner. `solve` and `interactive` share it.

use anyhow::Result;
use npuzzle::search::{Control, Progress};
use npuzzle::{check_solvable, execute, plan, Board, Solution, SolveError, Tables};

use crate::options::SearchArgs;
use crate::progress::SearchSpinner;
use crate::tables::prepare;

/// Plans, prepares the plan's tables (with a progress bar) and solves, with a spinner on a
/// terminal. The inner result is the solver's: an unsolvable board or a refused choice.
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
) -> Result<Result<Solution, SolveError>> {
    let limits = search.limits()?;
    let p = match plan(goal, &search.solve_options(), tables) {
        Ok(p) => p,
        Err(e) => return Ok(Err(e)),
    };
    // Unsolvable boards are reported before any table is built.
    if let Err(e) = check_solvable(start, goal) {
        return Ok(Err(e));
    }
    if let Err(e) = prepare(&p, goal, tables) {
        // After Ctrl-C stopped a build, the search below stops at once (its cancel flag is
        // up) and reports `interrupted` like any interrupted search.
        if !crate::interrupt::interrupted() {
            return Ok(Err(e));
        }
    }
    let spinner = SearchSpinner::new();
    let report = |p: &Progress| spinner.update(p);
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
