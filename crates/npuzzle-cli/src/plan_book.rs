//! The plans of a command that solves many boards (`batch`, `bench`,
//! `compare`): one per goal, made once and made ready ([`Planned`]: its tables loaded or
//! built, its heuristic made), then shared by every board of that goal on every thread. A
//! board with a goal the book was not made for (a `START | GOAL` line) is planned on its own.
//! Each plan's tables are fetched once for all its boards, so they may take a share of all
//! those boards' time ([`plan_for_runs`]), not of one board's.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use npuzzle::search::Control;
use npuzzle::{check_solvable, plan_for_runs, Board, Limits, Plan, Planned, Solution, SolveError};
use npuzzle::{runs_per_thread, SolveOptions, Tables};

use crate::solving::{note_stronger_tables, warn_tables_given_up};
use crate::table_builds::given_up;

/// Plans made once per goal.
pub struct PlanBook {
    options: SolveOptions,
    tables: Tables,
    by_goal: HashMap<Board, Result<Planned, SolveError>>,
}

impl PlanBook {
    /// Plans once for each of `goals`, the goal of each board the book will solve (repeats
    /// are planned once, for all their boards on `threads` threads), and makes each plan
    /// ready. Give it the command's goals, one per board of a shape, not the goals of
    /// `START | GOAL` pairs: a book holds every plan's tables at once.
    /// `prepare` is called with each plan first, to load or build its tables where the
    /// command shows that (`bench`'s progress bars and table times), held to the plan's
    /// [`table_clock`](Plan::table_clock); table builds left to this book are held to
    /// `limits`' time over the boards each thread runs, and to `cancel`
    /// ([`Planned::with_plan`]). Tables either left unfinished are not waited for again: a
    /// budgeted run goes on without them, any other stops at once, saying `time` (or
    /// `interrupted` after Ctrl-C).
    ///
    /// # Errors
    /// What `prepare` returns, except a build it stopped.
    pub fn new(
        goals: impl IntoIterator<Item = Board>,
        threads: usize,
        options: &SolveOptions,
        tables: &Tables,
        limits: Limits,
        cancel: Option<&AtomicBool>,
        mut prepare: impl FnMut(&Plan, &Board) -> Result<(), SolveError>,
    ) -> anyhow::Result<PlanBook> {
        // Each goal with its number of boards, in the order first met.
        let mut counted: Vec<(Board, usize)> = Vec::new();
        for goal in goals {
            match counted.iter_mut().find(|(g, _)| *g == goal) {
                Some((_, boards)) => *boards += 1,
                None => counted.push((goal, 1)),
            }
        }
        let mut by_goal = HashMap::new();
        for (goal, boards) in counted {
            let runs = runs_per_thread(boards, threads);
            let ready = match plan_for_runs(&goal, options, tables, &limits, runs) {
                Err(e) => Err(e),
                Ok(p) => {
                    note_stronger_tables(&p);
                    let mut control = Control {
                        limits,
                        cancel,
                        ..Control::default()
                    };
                    // A plan over the memory limit builds nothing; every board stops at
                    // once, saying so.
                    if p.fits(&limits) {
                        match prepare(&p, &goal) {
                            Ok(()) => {}
                            // No time is left for the tables, so `with_plan` gives them up
                            // at once.
                            Err(e) if given_up(&e) => control.limits.time = Some(Duration::ZERO),
                            Err(e) => return Err(e.into()),
                        }
                    }
                    let asked = p.heuristic().cloned();
                    let began = Instant::now();
                    let ready = Planned::with_plan(p, &goal, tables, control);
                    // A budgeted plan whose tables were late runs without them: say so
                    // (after Ctrl-C no board runs).
                    if let (Ok(r), Some(asked)) = (&ready, &asked) {
                        if r.plan().heuristic() != Some(asked) && !crate::interrupt::interrupted() {
                            warn_tables_given_up(&asked.to_string(), began.elapsed());
                        }
                    }
                    ready
                }
            };
            by_goal.insert(goal, ready);
        }
        Ok(PlanBook {
            options: options.clone(),
            tables: tables.clone(),
            by_goal,
        })
    }

    /// Solves `start` for `goal`: solvability first, then the goal's plan (or its refusal),
    /// as every command orders them.
    ///
    /// # Errors
    /// As [`npuzzle::solve`].
    pub fn solve(
        &self,
        start: &Board,
        goal: &Board,
        control: Control<'_>,
    ) -> Result<Solution, SolveError> {
        let Some(ready) = self.by_goal.get(goal) else {
            return npuzzle::solve(start, goal, &self.options, &self.tables, control);
        };
        match ready {
            // `execute` checks solvability first itself.
            Ok(p) => p.execute(start, control),
            Err(refused) => {
                check_solvable(start, goal)?;
                Err(refused.clone())
            }
        }
    }
}
