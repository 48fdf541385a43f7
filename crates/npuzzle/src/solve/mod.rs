//! Carrying out a [`Plan`]: check solvability, run its phases in turn, report; for many
//! boards of one goal, a plan made ready once ([`Planned`]).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::algorithm::Algorithm;
use crate::anytime::{self, Improvement};
use crate::board::Board;
use crate::constructive;
use crate::error::SolveError;
use crate::heuristic::pdb::build::Progress;
use crate::heuristic::pdb::{BuildProgress, Partition, PartitionSpec, PatternDatabase, PdbError};
use crate::heuristic::{
    self, Heuristic, HeuristicError, HeuristicSpec, IncrementalHeuristic, LinearConflict,
    Manhattan, Reevaluate, Tables,
};
use crate::moves::Move;
use crate::plan::{self, Phase, PhaseKind, Plan, SolveOptions, TableClock};
use crate::puzzle::Puzzle;
use crate::search::{
    self, Control, Limits, Priority, SearchOutcome, SearchStats, StopReason, TraceStep,
};
use crate::solvability::{self, Verdict};

mod planned;

use planned::Made;
pub use planned::Planned;

/// The result of [`solve`].
#[derive(Clone, Debug)]
pub struct Solution {
    /// The solvability verdict (always solvable here; unsolvable boards are an error).
    pub verdict: Verdict,
    /// The moves of the blank from start to goal, or `None` if a limit stopped the search.
    pub moves: Option<Vec<Move>>,
    /// Whether the algorithm and heuristic guarantee the path is shortest.
    pub optimal: bool,
    /// Search counters, added up over the phases that ran.
    pub stats: SearchStats,
    /// The limit that stopped the search.
    pub stopped_by: Option<StopReason>,
    /// The algorithm of the phase that answered (never `auto`).
    pub algorithm: Algorithm,
    /// The heuristic of that phase; `None` for breadth-first search and the constructive
    /// solver.
    pub heuristic: Option<HeuristicSpec>,
    /// Whether that heuristic is admissible (`true` when there is none).
    pub admissible: bool,
    /// Which kind of phase of the plan answered (or was stopped).
    pub phase: PhaseKind,
    /// The first expansions, when asked for.
    pub trace: Vec<TraceStep>,
    /// The best lower bound known on the optimal length: the length itself when optimal,
    /// else the start's linear-conflict value (Manhattan distance on boards over 255
    /// cells). `None` when nothing was computed (errors only).
    pub lower_bound: Option<u64>,
    /// A proven bound on `length ÷ optimal` for a found path: 1 when optimal, otherwise
    /// the smaller of the algorithm's weight `W` (bounded-suboptimal search with an
    /// admissible heuristic) and `length ÷ lower_bound`. `None` when no path was found.
    pub bound_factor: Option<f64>,
    /// How the anytime engine's answer and bound improved over time (empty for a single
    /// search).
    pub improvements: Vec<Improvement>,
}

impl Solution {
    /// Number of moves, if solved.
    pub fn length(&self) -> Option<usize> {
        self.moves.as_ref().map(Vec::len)
    }

    /// The heuristic's name as reports print it (`none` when there is none).
    pub fn heuristic_name(&self) -> String {
        self.heuristic
            .as_ref()
            .map_or_else(|| "none".to_string(), ToString::to_string)
    }
}

/// Plans (see [`plan::plan`]), checks solvability, then carries the plan out.
///
/// The [`Solution`] names the algorithm that produced the path, marks it optimal only when
/// that is proven, and gives a lower bound and a proven bound factor beside its length.
///
/// # Errors
/// [`SolveError::Unsolvable`] before any search when the parity rule says so; otherwise
/// the plan's refusal (goal, heuristic, weight, board size or tables). Hitting a limit is
/// not an error: the [`Solution`] has `moves: None` and `stopped_by` set.
///
/// ```
/// use npuzzle::{solve, Board, GoalSpec, SolveOptions, Tables, search::Control};
/// let tables = Tables::default();
/// let start = Board::parse("7 2 6/8 1 4/3 5 0", None).unwrap();
/// let goal = GoalSpec::Standard.board(start.shape()).unwrap();
/// let s = solve(&start, &goal, &SolveOptions::default(), &tables, Control::default()).unwrap();
/// assert!(s.optimal);
/// let moves = s.moves.unwrap();
/// assert_eq!(start.replay(&moves).unwrap(), goal);
/// ```
pub fn solve(
    start: &Board,
    goal: &Board,
    options: &SolveOptions,
    tables: &Tables,
    control: Control<'_>,
) -> Result<Solution, SolveError> {
    let verdict = check_solvable(start, goal)?;
    let plan = plan::plan_within(goal, options, tables, &control.limits)?;
    run_plan(&plan, start, goal, verdict, Source::Tables(tables), control)
}

/// The solvability verdict of a board that can reach its goal.
///
/// # Errors
/// [`SolveError::Unsolvable`] with the verdict saying why; a goal of another shape.
pub fn check_solvable(start: &Board, goal: &Board) -> Result<Verdict, SolveError> {
    let verdict = solvability::check(start, goal)?;
    if verdict.solvable {
        Ok(verdict)
    } else {
        Err(SolveError::Unsolvable(verdict))
    }
}

/// Carries out a plan made for `goal` (see [`plan::plan`]): runs its phases in turn until
/// one answers or the caller's limits stop it. Statistics add up over the phases.
///
/// # Errors
/// [`SolveError::Unsolvable`] when the start cannot reach the goal; a table the plan names
/// that cannot serve the goal (a plan made for another goal).
pub fn execute(
    plan: &Plan,
    start: &Board,
    goal: &Board,
    tables: &Tables,
    control: Control<'_>,
) -> Result<Solution, SolveError> {
    let verdict = check_solvable(start, goal)?;
    run_plan(plan, start, goal, verdict, Source::Tables(tables), control)
}

/// A value made for one search, or lent by a [`Planned`].
enum Have<'a, T: ?Sized> {
    Own(Box<T>),
    Lent(&'a T),
}

impl<T: ?Sized> std::ops::Deref for Have<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        match self {
            Have::Own(b) => b,
            Have::Lent(r) => r,
        }
    }
}

/// Where a phase finds its heuristic: made on the spot from the tables (fetched, or built
/// under the search's limits), or made ready by a [`Planned`].
#[derive(Clone, Copy)]
enum Source<'t> {
    Tables(&'t Tables),
    Ready(&'t Planned),
}

/// The puzzle a phase searches: the goal's, with the phase's duplicate pruning.
/// Its pruning automaton is given up at `deadline`.
fn phase_puzzle(
    phase: &Phase,
    goal: &Board,
    deadline: Option<Instant>,
) -> Result<Puzzle, SolveError> {
    Ok(Puzzle::new(goal)
        .ok_or(SolveError::TooLarge {
            cells: goal.shape().cells(),
            max: crate::puzzle::MAX_SEARCH_CELLS,
        })?
        .with_duplicates_pruned_until(phase.pruning, deadline))
}

/// [`execute`] once the start is known to reach the goal (`verdict` says why). The
/// phase's default time budget applies when the caller sets no time limit.
fn run_plan(
    plan: &Plan,
    start: &Board,
    goal: &Board,
    verdict: Verdict,
    source: Source<'_>,
    mut control: Control<'_>,
) -> Result<Solution, SolveError> {
    let began = Instant::now();
    let phase = &plan.phases[0];
    // Tables count against the memory limit, and so does building them: a plan whose
    // tables cannot fit stops before any is built (`-H pdb:1-7-7 --memory-limit 50` once
    // built 58 MB of tables and peaked at 97 to 128 MB before the search said "memory").
    if !plan.fits(&control.limits) {
        return Ok(stopped_by_memory(
            phase,
            verdict,
            start_lower_bound(start, goal),
        ));
    }
    control.limits = phase.run_limits(control.limits);
    let mut s = run_phase(phase, start, goal, verdict, source, control)?;
    s.stats.seconds = began.elapsed().as_secs_f64();
    Ok(s)
}

/// The answer of a plan stopped by the memory limit before it began: no path, no search,
/// and `lower` (the start's own lower bound) as what is known.
fn stopped_by_memory(phase: &Phase, verdict: Verdict, lower: u64) -> Solution {
    let heuristic = phase.heuristic.clone();
    Solution {
        verdict,
        moves: None,
        // No path, so none is guaranteed shortest (whatever the plan would have proved).
        optimal: false,
        stats: SearchStats::default(),
        stopped_by: Some(StopReason::Memory),
        algorithm: phase.algorithm,
        admissible: heuristic.as_ref().is_none_or(HeuristicSpec::admissible),
        heuristic,
        phase: phase.kind,
        trace: Vec::new(),
        lower_bound: Some(lower),
        bound_factor: None,
        improvements: Vec::new(),
    }
}

/// Runs one phase.
fn run_phase(
    phase: &Phase,
    start: &Board,
    goal: &Board,
    verdict: Verdict,
    source: Source<'_>,
    mut control: Control<'_>,
) -> Result<Solution, SolveError> {
    if phase.algorithm == Algorithm::Constructive {
        return Ok(constructive(start, goal, verdict, control));
    }
    let made;
    let puzzle = match source {
        Source::Ready(Planned {
            puzzle: Some(p), ..
        }) => p,
        _ => {
            // Building the pruning automaton (1 to 2 s on the 24-puzzle, once a process)
            // is part of the time the user allowed; a budgeted run gives it a share only.
            let began = Instant::now();
            let deadline = phase.pruning_time(control.limits.time).map(|t| began + t);
            made = phase_puzzle(phase, goal, deadline)?;
            control = less_time_used(control, began);
            &made
        }
    };
    if phase.kind == PhaseKind::Anytime {
        return anytime_phase(phase, puzzle, start, verdict, source, control);
    }
    let tiles = puzzle.encode(start);
    let weight = phase.weight.unwrap_or(1.0);
    let spec = phase
        .heuristic
        .clone()
        .unwrap_or(HeuristicSpec::LinearConflict);
    let admissible = phase
        .heuristic
        .as_ref()
        .is_none_or(HeuristicSpec::admissible);
    let user = control.progress;
    // Linear conflict at the start, worked out only for a caller who listens.
    let floor = match user {
        Some(_) => u32::try_from(search_lower_bound(puzzle, &tiles)).unwrap_or(u32::MAX),
        None => 0,
    };
    let proven = proven_progress(phase.algorithm, admissible, floor);
    let relay = |p: &search::Progress| {
        if let Some(user) = user {
            user(&proven(p));
        }
    };
    // A depth-first search recurses a move deeper at each step. An admissible IDA*'s
    // thresholds keep it within the optimal length; any other (weighted IDA*, an
    // inadmissible heuristic) is capped at the length of a path in hand. On a board of more
    // than 64 cells that length also sizes the stack the search runs on.
    let depth_first = matches!(
        phase.algorithm,
        Algorithm::IdaStar | Algorithm::Auto | Algorithm::WeightedIdaStar
    );
    let unbounded = phase.algorithm == Algorithm::WeightedIdaStar || !admissible;
    let known = (depth_first && (unbounded || tiles.len() > 64))
        .then(|| constructive::path_length(puzzle, &tiles));
    let control = Control {
        progress: user.map(|_| &relay as &(dyn Fn(&search::Progress) + Sync)),
        depth_cap: known.filter(|_| unbounded).or(control.depth_cap),
        ..control
    };
    let outcome = search::with_stack_for(known, || {
        run_search(puzzle, &tiles, phase, &spec, weight, source, control)
    })?;
    let outcome_bound = outcome.lower_bound;
    let weight_bound = match phase.algorithm {
        Algorithm::WeightedAStar if admissible => Some(weight),
        Algorithm::WeightedIdaStar if admissible => Some(search::effective_weight(weight)),
        _ => None,
    };
    let mut solution = Solution {
        verdict,
        // A proof stopped by a limit may still hold a path it has not proved shortest.
        optimal: outcome.moves.is_some() && outcome.stopped_by.is_none() && phase.optimal,
        moves: outcome.moves,
        stats: outcome.stats,
        stopped_by: outcome.stopped_by,
        algorithm: phase.algorithm,
        heuristic: phase.heuristic.clone(),
        admissible,
        phase: phase.kind,
        trace: outcome.trace,
        lower_bound: None,
        bound_factor: None,
        improvements: Vec::new(),
    };
    // What the search proved (IDA*'s last threshold, A*'s smallest f) counts only with an
    // admissible heuristic.
    let proven = outcome_bound.filter(|_| admissible).map_or(0, u64::from);
    set_bounds(
        &mut solution,
        || search_lower_bound(puzzle, &tiles).max(proven),
        weight_bound,
    );
    Ok(solution)
}

/// A single search's progress with its proven lower bound filled in, as the anytime engine
/// reports its own: IDA*'s threshold (every lower one is exhausted), A*'s smallest `f` and
/// breadth-first search's depth each bound the optimal length from below when the
/// heuristic is admissible; `floor` (linear conflict at the start) when it is higher. A
/// weighted or greedy search's `f` bounds nothing, and its progress is passed on as it is.
fn proven_progress(
    algorithm: Algorithm,
    admissible: bool,
    floor: u32,
) -> impl Fn(&search::Progress) -> search::Progress {
    let proves = admissible
        && matches!(
            algorithm,
            Algorithm::IdaStar | Algorithm::Auto | Algorithm::AStar | Algorithm::Bfs
        );
    move |p| search::Progress {
        lower_bound: p.bound.filter(|_| proves).map(|b| b.max(floor)),
        ..*p
    }
}

/// The anytime engine's run (see [`crate::anytime`]) with the phase's heuristic. When its
/// tables cannot be built within the time limit, linear conflict stands in, so a plain
/// `solve` always ends with an answer.
fn anytime_phase(
    phase: &Phase,
    puzzle: &Puzzle,
    start: &Board,
    verdict: Verdict,
    source: Source<'_>,
    control: Control<'_>,
) -> Result<Solution, SolveError> {
    let began = Instant::now();
    let mut spec = phase
        .heuristic
        .clone()
        .unwrap_or(HeuristicSpec::LinearConflict);
    let tables = match source {
        Source::Tables(tables) => tables,
        Source::Ready(ready) => &ready.tables,
    };
    let region = |p: &Puzzle, b: &Board, c: Control<'_>| region_answer(p, b, tables, c);
    let clock = phase.table_clock(control.limits.time);
    let plain = anytime::Schedule::default();
    let linear_conflict = |control: Control<'_>| {
        let lc = LinearConflict::new(puzzle);
        engine(puzzle, start, lc, control, &plain, &region)
    };
    if matches!(spec, HeuristicSpec::Pdb(_)) {
        report_first_answer(puzzle, start, control, began);
    }
    let out = match &spec {
        HeuristicSpec::Manhattan => {
            let manhattan = Manhattan::new(puzzle);
            engine(puzzle, start, manhattan, control, &plain, &region)
        }
        // A fetch much slower than the plan expected is given up (`Phase::table_clock`),
        // and linear conflict has the rest.
        HeuristicSpec::Pdb(p) => match pdb_for_search(p, puzzle, source, control, clock)? {
            Ok((db, control)) => {
                let schedule = anytime::Schedule {
                    beam_ranking: phase
                        .beam_ranking
                        .unwrap_or(anytime::BeamRanking::LinearConflict),
                    ..anytime::Schedule::default()
                };
                let (shifted, control) = match phase.ranking_partition(puzzle) {
                    Some(partition) => shifted_tables(&partition, puzzle, tables, control),
                    None => (None, control),
                };
                let shifted = shifted.as_ref().map(PatternDatabase::search);
                anytime::run_ranked(
                    puzzle,
                    start,
                    db.search(),
                    shifted,
                    control,
                    &schedule,
                    Some(&region),
                )
            }
            Err(_) => {
                spec = HeuristicSpec::LinearConflict;
                linear_conflict(less_time_used(control, began))
            }
        },
        HeuristicSpec::LinearConflict => linear_conflict(control),
        _ => match heuristic_for_search(&spec, puzzle, source, control)? {
            Ok((h, control)) => engine(puzzle, start, Reevaluate(&*h), control, &plain, &region),
            Err(_) => {
                spec = HeuristicSpec::LinearConflict;
                linear_conflict(control)
            }
        },
    };
    // A proved answer is IDA*'s (the search that guarantees it, as the plan says); the
    // improvements say which search found each path.
    let algorithm = if out.optimal {
        Algorithm::IdaStar
    } else {
        answered_by(&out.improvements, out.moves.as_ref().map(Vec::len))
    };
    let length = out.moves.as_ref().map(Vec::len);
    Ok(Solution {
        verdict,
        optimal: out.optimal,
        moves: out.moves,
        stats: out.stats,
        stopped_by: out.stopped_by,
        algorithm,
        admissible: spec.admissible(),
        heuristic: Some(spec),
        phase: PhaseKind::Anytime,
        trace: Vec::new(),
        lower_bound: Some(out.lower_bound),
        bound_factor: length.map(|len| {
            if out.optimal || out.lower_bound == 0 {
                1.0
            } else {
                len as f64 / out.lower_bound as f64
            }
        }),
        improvements: out.improvements,
    })
}

/// The anytime engine with `schedule`, the last region of a staged answer solved by
/// `region`.
fn engine<H: IncrementalHeuristic + Clone + Send>(
    puzzle: &Puzzle,
    start: &Board,
    heuristic: H,
    control: Control<'_>,
    schedule: &anytime::Schedule,
    region: &anytime::RegionSolver<'_>,
) -> anytime::AnytimeOutcome {
    anytime::run_with_region(puzzle, start, heuristic, control, schedule, Some(region))
}

/// The tables of `partition` (the shifted one a phase ranks its beams with, see
/// [`Phase::ranking_partition`]), and the control left for the run. They are in memory
/// once the plan is prepared; a caller that did not prepare it has them built here
/// (about 0.7 s on 6×6) within a fifth of the time limit. A build stopped there leaves the
/// beams ranked without them.
fn shifted_tables<'c>(
    partition: &Partition,
    puzzle: &Puzzle,
    tables: &Tables,
    control: Control<'c>,
) -> (Option<PatternDatabase>, Control<'c>) {
    let began = Instant::now();
    let share = Control {
        limits: Limits {
            time: control.limits.time.map(|t| t / 5),
            ..control.limits
        },
        ..control
    };
    let built = pdb_watched(partition, puzzle, tables, share, until(&share));
    (
        built.ok().and_then(Result::ok).map(|(db, _)| db),
        less_time_used(control, began),
    )
}

/// The last region of a staged anytime answer (25 cells at most, see `anytime::Schedule`)
/// solved by the engine with the strongest pattern database that is cheap to have for it
/// (`plan::strongest`: tables at hand, or ones that build in about a second), else with
/// linear conflict. A table build counts against the region's time.
fn region_answer(
    puzzle: &Puzzle,
    start: &Board,
    tables: &Tables,
    control: Control<'_>,
) -> anytime::AnytimeOutcome {
    let began = Instant::now();
    if let HeuristicSpec::Pdb(spec) = crate::plan::strongest(puzzle, tables) {
        if let Ok(Ok((db, control))) = pdb_for_search(
            &spec,
            puzzle,
            Source::Tables(tables),
            control,
            until(&control),
        ) {
            return anytime::run(puzzle, start, db.search(), control);
        }
    }
    let control = less_time_used(control, began);
    anytime::run(puzzle, start, LinearConflict::new(puzzle), control)
}

/// The clock of a search's own table builds: its time limit, and nothing earlier
/// (a budgeted run's tables have [`Phase::table_clock`]).
fn until(control: &Control<'_>) -> Option<TableClock> {
    control.limits.time.map(TableClock::until)
}

/// `control` with its time limit less what has passed since `began` (a stopped table
/// build's time, before linear conflict stands in).
fn less_time_used(mut control: Control<'_>, began: Instant) -> Control<'_> {
    control.limits.time = control
        .limits
        .time
        .map(|t| t.saturating_sub(began.elapsed()));
    control
}

/// The algorithm that found the anytime answer of `length` moves: the maker of the first
/// improvement of that length (a shortened path counts as its original's).
fn answered_by(improvements: &[Improvement], length: Option<usize>) -> Algorithm {
    let first = improvements
        .iter()
        .position(|i| i.length == length.map(|l| l as u64));
    let Some(first) = first else {
        return Algorithm::Constructive;
    };
    improvements[..=first]
        .iter()
        .rev()
        .find_map(|i| match i.by.as_str() {
            "constructive" => Some(Algorithm::Constructive),
            "idastar" | "proved" => Some(Algorithm::IdaStar),
            // A staged answer's lines are filled by weighted A*.
            "staged" => Some(Algorithm::WeightedAStar),
            by if by.starts_with("weighted astar") => Some(Algorithm::WeightedAStar),
            by if by.starts_with("beam") => Some(Algorithm::Beam),
            by if by.starts_with("weighted") => Some(Algorithm::WeightedIdaStar),
            _ => None,
        })
        .unwrap_or(Algorithm::Constructive)
}

/// One search with one algorithm and heuristic.
fn run_search(
    puzzle: &Puzzle,
    tiles: &[u8],
    phase: &Phase,
    spec: &HeuristicSpec,
    weight: f64,
    source: Source<'_>,
    control: Control<'_>,
) -> Result<SearchOutcome, SolveError> {
    // IDA* as the phase asks: with a proof's lookahead, or as published.
    fn ida<H: IncrementalHeuristic + Clone + Send>(
        lookahead: bool,
        puzzle: &Puzzle,
        tiles: &[u8],
        heuristic: H,
        control: Control<'_>,
    ) -> SearchOutcome {
        if lookahead {
            search::idastar_with_lookahead(puzzle, tiles, heuristic, control)
        } else {
            search::idastar(puzzle, tiles, heuristic, control)
        }
    }
    let look = phase.lookahead;
    Ok(match phase.algorithm {
        Algorithm::Bfs => search::bfs(puzzle, tiles, control),
        Algorithm::IdaStar | Algorithm::Auto => match spec {
            HeuristicSpec::Manhattan => ida(look, puzzle, tiles, Manhattan::new(puzzle), control),
            HeuristicSpec::LinearConflict => {
                ida(look, puzzle, tiles, LinearConflict::new(puzzle), control)
            }
            HeuristicSpec::Pdb(p) => {
                match pdb_for_search(p, puzzle, source, control, until(&control))? {
                    Ok((db, control)) => ida(look, puzzle, tiles, db.search(), control),
                    Err(stopped) => stopped,
                }
            }
            _ => {
                let (h, control) = match heuristic_for_search(spec, puzzle, source, control)? {
                    Ok(ready) => ready,
                    Err(stopped) => return Ok(stopped),
                };
                ida(look, puzzle, tiles, Reevaluate(&*h), control)
            }
        },
        Algorithm::WeightedIdaStar => match spec {
            HeuristicSpec::Manhattan => {
                search::weighted_idastar(puzzle, tiles, Manhattan::new(puzzle), weight, control)
            }
            HeuristicSpec::LinearConflict => search::weighted_idastar(
                puzzle,
                tiles,
                LinearConflict::new(puzzle),
                weight,
                control,
            ),
            // The pattern database move by move, on the fast bounded kernel.
            HeuristicSpec::Pdb(p) => {
                match pdb_for_search(p, puzzle, source, control, until(&control))? {
                    Ok((db, control)) => {
                        search::weighted_idastar(puzzle, tiles, db.search(), weight, control)
                    }
                    Err(stopped) => stopped,
                }
            }
            _ => {
                let (h, control) = match heuristic_for_search(spec, puzzle, source, control)? {
                    Ok(ready) => ready,
                    Err(stopped) => return Ok(stopped),
                };
                search::weighted_idastar(puzzle, tiles, Reevaluate(&*h), weight, control)
            }
        },
        Algorithm::Beam => {
            let width = phase.width.unwrap_or(plan::DEFAULT_BEAM_WIDTH);
            let below = beam_depth_cap(puzzle, tiles);
            let mut outcome = match spec {
                HeuristicSpec::Manhattan => {
                    search::beam(puzzle, tiles, Manhattan::new(puzzle), width, below, control)
                }
                HeuristicSpec::LinearConflict => search::beam(
                    puzzle,
                    tiles,
                    LinearConflict::new(puzzle),
                    width,
                    below,
                    control,
                ),
                HeuristicSpec::Pdb(p) => {
                    match pdb_for_search(p, puzzle, source, control, until(&control))? {
                        Ok((db, control)) => {
                            search::beam(puzzle, tiles, db.search(), width, below, control)
                        }
                        Err(stopped) => stopped,
                    }
                }
                _ => {
                    let (h, control) = match heuristic_for_search(spec, puzzle, source, control)? {
                        Ok(ready) => ready,
                        Err(stopped) => return Ok(stopped),
                    };
                    search::beam(puzzle, tiles, Reevaluate(&*h), width, below, control)
                }
            };
            // No path and no limit: the beam lost its way, which only its width decides.
            if outcome.moves.is_none() && outcome.stopped_by.is_none() {
                outcome.stopped_by = Some(StopReason::Width);
            }
            outcome
        }
        // (The constructive solver is not a search; `run_phase` never sends it here.)
        Algorithm::AStar
        | Algorithm::Greedy
        | Algorithm::WeightedAStar
        | Algorithm::Constructive => {
            let (h, control) = match heuristic_for_search(spec, puzzle, source, control)? {
                Ok(ready) => ready,
                Err(stopped) => return Ok(stopped),
            };
            let priority = match phase.algorithm {
                Algorithm::AStar => Priority::AStar,
                Algorithm::Greedy => Priority::Greedy,
                _ => Priority::Weighted(weight),
            };
            search::astar(puzzle, tiles, &*h, spec.admissible(), priority, control)
        }
    })
}

/// Reports the answer every anytime run starts from (the constructive path, the engine's
/// first) and linear conflict's bound before the engine's tables are fetched: loading them
/// from disk takes a second or more on 5×5 the first time, and building them longer, and a
/// caller watching progress (the page's "best … · proven ≥ …") had nothing until then.
fn report_first_answer(puzzle: &Puzzle, start: &Board, control: Control<'_>, began: Instant) {
    let Some(report) = control.progress else {
        return;
    };
    let tiles = puzzle.encode(start);
    report(&search::Progress {
        elapsed: began.elapsed(),
        best: Some(constructive::path_length(puzzle, &tiles)),
        lower_bound: u32::try_from(search_lower_bound(puzzle, &tiles)).ok(),
        ..search::Progress::default()
    });
}

/// The depth past which a beam search gives up: twice the length of the constructive
/// solver's path, which a beam that has not lost its way beats.
fn beam_depth_cap(puzzle: &Puzzle, tiles: &[u8]) -> u32 {
    constructive::path_length(puzzle, tiles)
        .saturating_mul(2)
        .saturating_add(1)
}

/// The pattern database of `spec`: made ready beforehand, or made now with its tables
/// built under `control` ([`watched`]).
#[allow(clippy::type_complexity)]
fn pdb_for_search<'a, 's>(
    spec: &PartitionSpec,
    puzzle: &Puzzle,
    source: Source<'s>,
    control: Control<'a>,
    clock: Option<TableClock>,
) -> Result<Result<(Have<'s, PatternDatabase>, Control<'a>), SearchOutcome>, SolveError> {
    let tables = match source {
        Source::Ready(Planned {
            heuristic: Some(Made::Pdb(db)),
            ..
        }) => return Ok(Ok((Have::Lent(db.as_ref()), control))),
        Source::Ready(ready) => &ready.tables,
        Source::Tables(tables) => tables,
    };
    let partition = spec.partition(puzzle).map_err(HeuristicError::from)?;
    Ok(pdb_watched(&partition, puzzle, tables, control, clock)?
        .map(|(db, control)| (Have::Own(Box::new(db)), control)))
}

/// The pattern database of `partition`, its missing tables built under `control`
/// ([`watched`]), and the control left for the search.
#[allow(clippy::type_complexity)]
fn pdb_watched<'a>(
    partition: &Partition,
    puzzle: &Puzzle,
    tables: &Tables,
    control: Control<'a>,
    clock: Option<TableClock>,
) -> Result<Result<(PatternDatabase, Control<'a>), SearchOutcome>, SolveError> {
    watched(control, clock, |progress| {
        PatternDatabase::new(puzzle, partition, tables, progress)
            .map(|(db, _)| db)
            .map_err(HeuristicError::from)
    })
}

/// What a search needs, made by `build` with its table builds held to `clock` (see
/// [`until`]) and `control`'s cancel flag, and the control left for the search; or, when
/// a build was stopped, the outcome saying why.
#[allow(clippy::type_complexity)]
fn watched<'a, T>(
    control: Control<'a>,
    clock: Option<TableClock>,
    build: impl FnOnce(&mut Progress<'_>) -> Result<T, HeuristicError>,
) -> Result<Result<(T, Control<'a>), SearchOutcome>, SolveError> {
    let mut watch = BuildWatch::new(&control, clock);
    match build(&mut |p| watch.check(p)) {
        Ok(built) => Ok(Ok((built, watch.rest(control)))),
        Err(HeuristicError::Pdb(PdbError::Stopped)) => Ok(Err(watch.outcome())),
        Err(e) => Err(e.into()),
    }
}

/// The heuristic of `spec` for a search that evaluates it state by state: built under
/// `control` ([`watched`]), with the memory limit lowered by its own tables.
#[allow(clippy::type_complexity)]
fn heuristic_for_search<'a, 's>(
    spec: &HeuristicSpec,
    puzzle: &Puzzle,
    source: Source<'s>,
    control: Control<'a>,
) -> Result<Result<(Have<'s, dyn Heuristic>, Control<'a>), SearchOutcome>, SolveError> {
    let built = match source {
        Source::Ready(Planned {
            heuristic: Some(made),
            ..
        }) => Ok(Ok((made.lend(), control))),
        Source::Ready(Planned { tables, .. }) | Source::Tables(tables) => {
            watched(control, until(&control), |progress| {
                heuristic::build_watched(spec, puzzle, tables, progress).map(Have::Own)
            })
        }
    }?;
    Ok(
        built.and_then(|(h, control)| match charge(control, h.heap_bytes()) {
            Some(control) => Ok((h, control)),
            None => Err(over_memory()),
        }),
    )
}

/// Table builds before a search, held to the search's own time limit and cancel flag: a
/// request that may take half a second does not spend two building a table first.
struct BuildWatch<'a> {
    /// When the build began, read only when there is a time limit (an 8-puzzle is solved
    /// in about as long as a few clock reads).
    began: Option<Instant>,
    /// When a build is given up; `None`: only on cancellation.
    clock: Option<TableClock>,
    cancel: Option<&'a AtomicBool>,
    stopped_by: Option<StopReason>,
}

impl<'a> BuildWatch<'a> {
    fn new(control: &Control<'a>, clock: Option<TableClock>) -> BuildWatch<'a> {
        BuildWatch {
            began: control.limits.time.map(|_| Instant::now()),
            clock,
            cancel: control.cancel,
            stopped_by: None,
        }
    }

    /// A build's progress callback: stops it when its clock says it is late or on
    /// cancellation.
    fn check(&mut self, p: &BuildProgress) -> ControlFlow<()> {
        if self.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            self.stopped_by = Some(StopReason::Cancelled);
        } else if self.clock.as_mut().is_some_and(|clock| clock.late(p)) {
            self.stopped_by = Some(StopReason::Time);
        }
        if self.stopped_by.is_some() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    /// The search's control: its time limit less the time spent on tables.
    fn rest<'c>(&self, control: Control<'c>) -> Control<'c> {
        match self.began {
            Some(began) => less_time_used(control, began),
            None => control,
        }
    }

    /// The outcome of a search whose tables could not be built in time.
    fn outcome(&self) -> SearchOutcome {
        SearchOutcome {
            stopped_by: self.stopped_by.or(Some(StopReason::Cancelled)),
            ..SearchOutcome::default()
        }
    }
}

/// `control` with the memory limit lowered by `bytes` a heuristic holds in its own tables,
/// or `None` when those alone exceed it.
fn charge(mut control: Control<'_>, bytes: u64) -> Option<Control<'_>> {
    if let Some(limit) = control.limits.memory_bytes {
        control.limits.memory_bytes = Some(limit.checked_sub(bytes)?);
    }
    Some(control)
}

/// A search that could not start because its heuristic alone outgrew the memory limit.
fn over_memory() -> SearchOutcome {
    SearchOutcome {
        stopped_by: Some(StopReason::Memory),
        ..SearchOutcome::default()
    }
}

/// A lower bound on the optimal length from the start alone: its linear-conflict value,
/// or its Manhattan distance on boards too large to search.
fn start_lower_bound(start: &Board, goal: &Board) -> u64 {
    match Puzzle::new(goal) {
        Some(puzzle) => search_lower_bound(&puzzle, &puzzle.encode(start)),
        None => constructive::manhattan_bound(start, goal),
    }
}

/// The linear-conflict value of the start: a lower bound on the optimal length.
fn search_lower_bound(puzzle: &Puzzle, tiles: &[u8]) -> u64 {
    heuristic::whole_moves(LinearConflict::new(puzzle).estimate(tiles)).into()
}

/// Fills in `lower_bound` and `bound_factor` from a lower bound and, for bounded-suboptimal
/// searches, their weight, and calls the path optimal when it is no longer than the bound
/// (a greedy search one move from the goal, any search on a solved board). The lower bound
/// is computed only when the path is not already optimal (an optimal path is its own bound;
/// an 8-puzzle solved in microseconds should not pay for a second heuristic).
fn set_bounds(s: &mut Solution, lower: impl FnOnce() -> u64, weight_bound: Option<f64>) {
    let Some(len) = s.length().map(|len| len as u64) else {
        s.lower_bound = Some(lower());
        return;
    };
    let lower = if s.optimal { len } else { lower() };
    if len <= lower {
        s.optimal = true;
        s.lower_bound = Some(len);
        s.bound_factor = Some(1.0);
        return;
    }
    s.lower_bound = Some(lower);
    let certified = (lower > 0).then(|| len as f64 / lower as f64);
    s.bound_factor = match (weight_bound, certified) {
        (Some(w), Some(c)) => Some(w.min(c)),
        (w, c) => w.or(c),
    };
}

/// The constructive solver's [`Solution`].
fn constructive(start: &Board, goal: &Board, verdict: Verdict, control: Control<'_>) -> Solution {
    let outcome = constructive::construct_controlled(start, goal, control);
    let lower = start_lower_bound(start, goal);
    let mut solution = Solution {
        verdict,
        moves: outcome.moves,
        optimal: false,
        stats: outcome.stats,
        stopped_by: outcome.stopped_by,
        algorithm: Algorithm::Constructive,
        heuristic: None,
        admissible: true,
        phase: PhaseKind::Constructive,
        trace: Vec::new(),
        lower_bound: None,
        bound_factor: None,
        improvements: Vec::new(),
    };
    set_bounds(&mut solution, || lower, None);
    solution
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn at(bound: Option<u32>) -> search::Progress {
        search::Progress {
            expanded: 1,
            generated: 2,
            open: 3,
            bound,
            elapsed: Duration::from_millis(5),
            best: None,
            lower_bound: None,
        }
    }

    #[test]
    fn only_an_optimal_search_with_an_admissible_heuristic_proves_its_bound() {
        for algorithm in [Algorithm::IdaStar, Algorithm::AStar, Algorithm::Bfs] {
            let p = proven_progress(algorithm, true, 40)(&at(Some(52)));
            assert_eq!(p.lower_bound, Some(52), "{algorithm:?}");
            assert_eq!((p.bound, p.generated), (Some(52), 2));
            // Linear conflict at the start, when higher, is the bound.
            let p = proven_progress(algorithm, true, 60)(&at(Some(52)));
            assert_eq!(p.lower_bound, Some(60), "{algorithm:?}");
            assert_eq!(
                proven_progress(algorithm, false, 40)(&at(Some(52))).lower_bound,
                None
            );
        }
        for algorithm in [
            Algorithm::WeightedIdaStar,
            Algorithm::WeightedAStar,
            Algorithm::Greedy,
            Algorithm::Beam,
        ] {
            let p = proven_progress(algorithm, true, 40)(&at(Some(52)));
            assert_eq!(p.lower_bound, None, "{algorithm:?}");
        }
        assert_eq!(
            proven_progress(Algorithm::IdaStar, true, 40)(&at(None)).lower_bound,
            None
        );
    }
}
