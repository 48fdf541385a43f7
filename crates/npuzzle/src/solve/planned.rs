//! [`Planned`]: a plan made once for one goal, executed board after board.

use super::{check_solvable, phase_puzzle, run_plan, watched, Have, Solution, Source};
use crate::algorithm::Algorithm;
use crate::board::Board;
use crate::error::SolveError;
use crate::heuristic::pdb::PatternDatabase;
use crate::heuristic::{self, Heuristic, HeuristicSpec, Tables};
use crate::plan::{self, Plan, SolveOptions};
use crate::puzzle::Puzzle;
use crate::search::{Control, StopReason};

/// A plan made once for one goal, with what its searches need made ready: the puzzle (and
/// its pruning) and the heuristic, holding its tables. Executing it on board after board
/// (a batch, a benchmark, a comparison) neither plans again nor looks the tables up.
///
/// ```
/// use npuzzle::{Board, GoalSpec, Planned, SolveOptions, Tables, search::Control};
/// let tables = Tables::default();
/// let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
/// let planned = Planned::new(&goal, &SolveOptions::default(), &tables).unwrap();
/// for text in ["7 2 6/8 1 4/3 5 0", "8 6 7/2 5 4/3 0 1"] {
///     let start = Board::parse(text, None).unwrap();
///     let s = planned.execute(&start, Control::default()).unwrap();
///     assert!(s.optimal);
///     assert_eq!(start.replay(&s.moves.unwrap()).unwrap(), goal);
/// }
/// ```
pub struct Planned {
    plan: Plan,
    goal: Board,
    /// The phase's puzzle, pruning set; `None` for the constructive solver and for a plan
    /// over the memory limit.
    pub(super) puzzle: Option<Puzzle>,
    /// The phase's heuristic, made once; `None` when its searches make their own (cheap
    /// ones, or tables a time limit kept from being built here).
    pub(super) heuristic: Option<Made>,
    /// Where a search whose heuristic is not made here finds its tables.
    pub(super) tables: Tables,
    /// Whether the tables were not ready in the time of all the runs they serve: then no
    /// run has time left for them, and each stops at once, saying `time`, rather than
    /// building them again under its own limit (which, a share of that time, cannot do).
    late: bool,
}

/// A heuristic made for a [`Planned`].
pub(super) enum Made {
    /// A pattern database, for IDA*'s incremental kernel as well as state by state (boxed:
    /// it is ten times the size of the other).
    Pdb(Box<PatternDatabase>),
    /// Any other heuristic that holds tables.
    Other(Box<dyn Heuristic>),
}

impl Made {
    /// The heuristic, evaluated state by state.
    pub(super) fn lend(&self) -> Have<'_, dyn Heuristic> {
        match self {
            Made::Pdb(db) => Have::Lent(db.as_ref()),
            Made::Other(h) => Have::Lent(h.as_ref()),
        }
    }
}

impl Planned {
    /// Plans for `goal` ([`plan::plan`]), then makes the plan's heuristic, loading or
    /// building its tables.
    ///
    /// # Errors
    /// The plan's refusal; a table the plan names that cannot serve the goal.
    pub fn new(
        goal: &Board,
        options: &SolveOptions,
        tables: &Tables,
    ) -> Result<Planned, SolveError> {
        let plan = plan::plan(goal, options, tables)?;
        Planned::with_plan(plan, goal, tables, Control::default())
    }

    /// Makes `plan` (made for `goal`) ready. Table builds are held to a clock made of
    /// `control`'s time limit, each run's, over all the runs the tables serve
    /// ([`Plan::table_clock`]), and to its cancel flag. A build Ctrl-C stops leaves the
    /// heuristic to each search, which then builds it under its own limits, as
    /// [`execute`](super::execute) does. Tables not ready in time are not waited for
    /// again: a budgeted run goes on [`Plan::without_tables`], and any other run stops at
    /// once, saying `time`.
    /// Nothing is built for a plan whose tables do not fit `control`'s memory limit
    /// ([`Plan::fits`]).
    ///
    /// # Errors
    /// A table the plan names that cannot serve the goal (a plan made for another goal).
    pub fn with_plan(
        plan: Plan,
        goal: &Board,
        tables: &Tables,
        control: Control<'_>,
    ) -> Result<Planned, SolveError> {
        let mut plan = plan;
        let phase = &plan.phases[0];
        // A plan whose tables do not fit the memory limit makes nothing: each execution
        // stops before its search (see `run_plan`).
        let puzzle = match phase.algorithm {
            _ if !plan.fits(&control.limits) => None,
            Algorithm::Constructive => None,
            _ => Some(phase_puzzle(phase, goal, None)?),
        };
        let clock = plan.table_clock(&control.limits);
        let mut late = false;
        let heuristic = match (&puzzle, &phase.heuristic) {
            // Manhattan distance and linear conflict cost next to nothing to make, and IDA*
            // makes its own for its incremental kernels.
            (Some(puzzle), Some(spec))
                if !matches!(
                    spec,
                    HeuristicSpec::Manhattan | HeuristicSpec::LinearConflict
                ) =>
            {
                let made = watched(control, clock, |progress| match spec {
                    HeuristicSpec::Pdb(p) => {
                        let partition = p.partition(puzzle)?;
                        Ok(Made::Pdb(Box::new(
                            PatternDatabase::new(puzzle, &partition, tables, progress)?.0,
                        )))
                    }
                    _ => heuristic::build_watched(spec, puzzle, tables, progress).map(Made::Other),
                })?;
                match made {
                    Ok((made, _)) => Some(made),
                    Err(stopped) => {
                        late = stopped.stopped_by == Some(StopReason::Time);
                        None
                    }
                }
            }
            _ => None,
        };
        // A budgeted run goes on without the tables; any other stops at once.
        let without = plan.without_tables();
        let late_for_all = late && without == plan;
        if late {
            plan = without;
        }
        Ok(Planned {
            plan,
            goal: goal.clone(),
            puzzle,
            heuristic,
            tables: tables.clone(),
            late: late_for_all,
        })
    }

    /// The plan.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// The goal it was made for.
    pub fn goal(&self) -> &Board {
        &self.goal
    }

    /// Solves `start` by the plan, as [`execute`](super::execute) does.
    ///
    /// # Errors
    /// [`SolveError::Unsolvable`] when the start cannot reach the goal; a board of another
    /// shape.
    pub fn execute(&self, start: &Board, control: Control<'_>) -> Result<Solution, SolveError> {
        let verdict = check_solvable(start, &self.goal)?;
        let mut control = control;
        if self.late {
            control.limits.time = Some(std::time::Duration::ZERO);
        }
        run_plan(
            &self.plan,
            start,
            &self.goal,
            verdict,
            Source::Ready(self),
            control,
        )
    }
}
