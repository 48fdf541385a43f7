//! What runs for a board, decided once: the [`Plan`].
//!
//! From the board's shape and goal, the user's choices ([`SolveOptions`]) and the
//! [`Tables`] at hand, [`plan`] says what will run: the algorithm and heuristic of each
//! phase, which tables are loaded or built and what that costs, whether the answer is
//! guaranteed optimal; or, in one line, why a choice is refused. [`crate::solve`] carries a
//! plan out. Every front end (the command line's `solve`, `batch`, `bench`, `compare` and
//! `interactive`, the web API, and the page through `/api/plan`) asks here and decides
//! nothing itself.
//!
//! `Algorithm::Auto` with no heuristic named:
//!
//! * at most 10 cells: IDA* with the exact table (`perfect`), optimal;
//! * 11 to 255 cells: the anytime engine ([`crate::anytime`]) with the strongest admissible
//!   heuristic that is cheap to have (a pattern database whose tables are at hand, else the
//!   shape's partition whose tables build in about a second, else linear conflict): a first
//!   answer at once, improved and bounded until it is proved optimal or the time budget
//!   ends. Up to 16 cells there is no default budget: the answer is proved optimal unless
//!   the user's own limit stops it first. Above 16 cells the default budget is
//!   [`AUTO_BUDGET_SECONDS`] seconds of search;
//! * larger boards: the constructive solver.
//!
//! [`plan_within`] makes the same choice within the caller's limits: the strongest heuristic
//! whose tables, and building them, fit the memory limit and, where a time budget ends the
//! run (above 16 cells), can be had within [`TABLE_TIME_SHARE`] of it; down to linear
//! conflict.
//!
//! A named heuristic or algorithm runs as asked and nothing else: `auto` with `-H X` is
//! IDA* with `X`, stopped only by the user's limits. [`SolveOptions::optimal`] asks for a
//! proof: IDA* with the strongest admissible tables for the shape, whatever they cost.
//!
//! ```
//! use npuzzle::{plan, GoalSpec, SolveOptions, Tables};
//! let goal = GoalSpec::Standard.board("2x7".parse()?)?;
//! let p = plan(&goal, &SolveOptions::default(), &Tables::default())?;
//! assert_eq!(p.phases[0].heuristic.as_ref().unwrap().to_string(), "pdb:7-6");
//! assert_eq!(p.phases[0].kind, npuzzle::plan::PhaseKind::Anytime);
//! assert!(p.optimal); // 14 cells: no default budget, so proved optimal
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::time::Duration;

use serde::{Serialize, Serializer};

use crate::algorithm::Algorithm;
use crate::anytime::{BeamRanking, Schedule};
use crate::board::Board;
use crate::error::SolveError;
use crate::goal::GoalSpec;
use crate::heuristic::pdb::build::Progress;
use crate::heuristic::pdb::Partition;
use crate::heuristic::{HeuristicError, HeuristicSpec, TableEvent, Tables, MAX_PERFECT_CELLS};
use crate::puzzle::{Puzzle, MAX_SEARCH_CELLS};
use crate::search::{effective_weight, Limits};
use crate::shape::Shape;

/// The states a beam search keeps a depth when the caller gives no width: about a second
/// of search on a 6×6 board.
pub const DEFAULT_BEAM_WIDTH: usize = 10_000;

/// What to solve with: the user's choices.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveOptions {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The heuristic; `None` lets the plan pick the strongest available.
    pub heuristic: Option<HeuristicSpec>,
    /// `W` for the weighted algorithms (at least 1).
    pub weight: f64,
    /// States kept a depth by beam search (at least 1).
    pub width: usize,
    /// Prove the answer optimal, with no fallback: IDA* (or the algorithm named, if it is
    /// optimal) with the strongest admissible tables for the shape, stopped only by the
    /// caller's limits.
    pub optimal: bool,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            algorithm: Algorithm::Auto,
            heuristic: None,
            weight: 2.0,
            width: DEFAULT_BEAM_WIDTH,
            optimal: false,
        }
    }
}

/// What will run for a board and goal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    /// The board shape.
    #[serde(serialize_with = "as_text")]
    pub shape: Shape,
    /// What runs: one phase (a list so that reports read the same as before the anytime
    /// engine replaced `auto`'s cascade).
    pub phases: Vec<Phase>,
    /// The tables the plan uses, and where each comes from.
    pub tables: Vec<TableNeed>,
    /// Whether the answer is guaranteed shortest unless the caller's own limits stop the
    /// search first.
    pub optimal: bool,
    /// The stronger heuristics [`plan_within`] chose against for the caller's limits,
    /// strongest first, each with why (left out of JSON when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub passed_over: Vec<PassedOver>,
    /// Tables stronger than the plan's own that its engine would take once they are cached
    /// (left out of JSON when there are none): see [`StrongerTables`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stronger_tables: Option<StrongerTables>,
    /// How many runs, one after another, one fetch of the plan's tables serves: 1 but for
    /// [`plan_for_runs`] (a batch's boards of one goal, a thread's share of them). The
    /// tables may take [`TABLE_TIME_SHARE`] of all those runs' time, as one run's may of its
    /// own ([`Plan::in_time`], [`Plan::table_clock`]).
    #[serde(skip)]
    pub runs: usize,
    /// The caller's time limit, which [`plan_within`] chose for (the other limits left at
    /// their defaults); the plan's words name it as the budget of a budgeted run, or as
    /// where a proof stops.
    #[serde(skip)]
    pub limits: Limits,
}

/// A heuristic [`plan_within`] would have chosen but for the caller's limits.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PassedOver {
    /// The heuristic, e.g. `pdb:6-6-6-6`.
    #[serde(serialize_with = "as_text")]
    pub heuristic: HeuristicSpec,
    /// Why, in words: "its tables take about 1.3 s to load or build, more than 75% of the
    /// 1 s budget".
    pub why: String,
}

/// Tables stronger than a budgeted `auto` plan's own that are not cached: the ones a proof
/// uses on the shape, which the anytime engine takes once they are cached (tighter bounds;
/// on 6×6 and larger, shorter answers). `npuzzle pdb build --optimal` builds and caches
/// them. Chosen by `plan::heuristic::stronger_once_cached`.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StrongerTables {
    /// The heuristic they make, e.g. `pdb:5-5-5-5-5-5-5`.
    #[serde(serialize_with = "as_text")]
    pub heuristic: HeuristicSpec,
    /// How many of its tables are not cached yet.
    pub tables: usize,
    /// Bytes of those tables.
    pub bytes: u64,
    /// Estimated seconds to build them, one after another (the plan's own estimate, as for
    /// [`TableNeed::seconds`]).
    pub seconds: f64,
    /// The command that builds and caches them, e.g. `npuzzle pdb build --size 6x6
    /// --optimal` (with `--goal` for a goal whose blank is not on the last cell).
    pub command: String,
}

impl fmt::Display for StrongerTables {
    /// `pdb:5-5-5-5-5-5-5 (7 tables, 158.3 MB, about 16 s to build on one core)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} ({} {}, {:.1} MB, about {:.0} s to build on one core)",
            self.heuristic,
            self.tables,
            if self.tables == 1 { "table" } else { "tables" },
            self.bytes as f64 / 1e6,
            self.seconds
        )
    }
}

/// `--goal G` as `npuzzle pdb build` takes it for `goal`'s tables, or nothing for the
/// standard goal's. Tables depend only on the cell of the goal's blank, so `G` is the first
/// named goal with the blank there, else the goal's own tiles.
fn goal_option(goal: &Board) -> String {
    let named = GoalSpec::NAMED.iter().find(|g| {
        g.board(goal.shape())
            .is_ok_and(|b| b.blank() == goal.blank())
    });
    match named {
        Some(GoalSpec::Standard) => String::new(),
        Some(g) => format!(" --goal {}", g.name()),
        None => format!(" --goal \"{goal}\""),
    }
}

/// What a phase is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PhaseKind {
    /// The one search the user asked for.
    Search,
    /// `auto`'s optimal search with the exact table.
    Optimal,
    /// `auto`'s anytime engine: a first answer, improved and bounded within a time budget.
    Anytime,
    /// `auto`'s (or the user's) constructive solver: always answers, not optimal.
    Constructive,
}

impl PhaseKind {
    /// `search`, `optimal`, `anytime` or `constructive`, as reports write it.
    pub fn name(self) -> &'static str {
        match self {
            PhaseKind::Search => "search",
            PhaseKind::Optimal => "optimal",
            PhaseKind::Anytime => "anytime",
            PhaseKind::Constructive => "constructive",
        }
    }

    /// The kind [`name`](PhaseKind::name) names, if any (reading reports back).
    pub fn from_name(name: &str) -> Option<PhaseKind> {
        [
            PhaseKind::Search,
            PhaseKind::Optimal,
            PhaseKind::Anytime,
            PhaseKind::Constructive,
        ]
        .into_iter()
        .find(|k| k.name() == name)
    }
}

/// One search of a plan.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Phase {
    /// What the phase is for.
    pub kind: PhaseKind,
    /// The algorithm (never `auto`; the anytime engine's is IDA*, the search that proves
    /// its answers).
    #[serde(serialize_with = "as_text")]
    pub algorithm: Algorithm,
    /// The heuristic, with `pdb` resolved to a partition; `None` for breadth-first search
    /// and the constructive solver.
    #[serde(serialize_with = "option_as_text")]
    pub heuristic: Option<HeuristicSpec>,
    /// `W` of a weighted search.
    pub weight: Option<f64>,
    /// States a beam search keeps a depth.
    pub width: Option<usize>,
    /// Whether a path this phase finds is guaranteed shortest.
    pub optimal: bool,
    /// Seconds the phase searches when the caller sets no time limit (`None`: until it
    /// answers, or proves its answer optimal).
    pub budget: Option<f64>,
    /// Longest duplicate move sequence IDA* prunes beyond the move straight back
    /// (`--optimal` on 15- and 24-puzzles, see [`crate::pruning`]); `None`: only that move,
    /// so node counts are the published ones.
    pub pruning: Option<usize>,
    /// Whether IDA* looks ahead before each iteration for a path as long as its threshold
    /// (`--optimal`, and the anytime engine's proof: see
    /// [`crate::search::idastar_with_lookahead`]); node counts are then no longer the
    /// published ones.
    pub lookahead: bool,
    /// What the anytime engine's beams rank states by (`None` for the other phases); the
    /// shifted partition's tables are among the plan's tables when it names them.
    #[serde(serialize_with = "option_as_text")]
    pub beam_ranking: Option<BeamRanking>,
}

/// Seconds of search `auto` gives a board of more than 16 cells when the caller sets no
/// time limit: the anytime engine answers with the best path found and its proven bound.
pub const AUTO_BUDGET_SECONDS: f64 = 10.0;

/// The largest share of a budgeted run's time (plain `solve` above 16 cells: the caller's
/// time limit, else [`AUTO_BUDGET_SECONDS`]) that the tables [`plan_within`] chooses may be
/// expected to take to load or build ([`Plan::table_seconds`]); past it a weaker heuristic is
/// chosen, down to linear conflict. Measured on 5×5 boards (`docs/performance.md`, "Short
/// budgets"): tables that are ready with a third of a second or more to spare give shorter
/// answers than linear conflict (6-6-6-6 read from the cache in 0.4 s, at 0.8 and 1 s; the
/// 5-5-5-5-4 built in 0.85 s, at 2 s), while waiting for tables that are not ready in time
/// leaves the constructive answer, 1.5 to 1.9 times longer (the same build at 0.5 s). Three
/// quarters, rather than all, because an estimate may be short by a third.
pub const TABLE_TIME_SHARE: f64 = 0.75;

/// The largest share of a budgeted run's time its pruning automaton may take to build
/// ([`Phase::pruning_time`]; about 0.1 s on 5×5, once a process). With all of it, a budget
/// of 0.1 s went to the automaton and the answer was the constructive path (193.25 moves on
/// average on eight 5×5 boards, 152.5 with half). A quarter cost more than it saved from
/// 0.3 s (141.0 against 135.5): the automaton is worth more than the time it takes.
pub const PRUNING_TIME_SHARE: f64 = 0.5;

/// Boards of at most this many cells get no default budget: `auto` proves its answer
/// optimal (Korf's hardest 15-puzzles take a second or two with auto's tables).
pub const AUTO_UNBUDGETED_CELLS: usize = 16;

/// The plan for solving boards of `goal`'s shape towards `goal` with `options`, given the
/// tables at hand.
///
/// # Errors
/// A choice that cannot run, in one line: a weight below 1, a board too large for search,
/// a heuristic that cannot serve the board (`perfect` over 10 cells, a `pdb:` partition
/// that does not fit), tables larger than `tables`' policy lets a plan build, or
/// [`SolveOptions::optimal`] with a choice that cannot prove optimality.
pub fn plan(goal: &Board, options: &SolveOptions, tables: &Tables) -> Result<Plan, SolveError> {
    plan_within(goal, options, tables, &Limits::default())
}

/// [`plan`] for searches held to `limits`: where the plan chooses the heuristic itself
/// (none named, no proof asked for), it takes the strongest whose tables, and building
/// them, fit the memory limit ([`Plan::fits`]) and leave a budgeted run most of its time
/// ([`Plan::in_time`]), down to linear conflict, which needs no table. Otherwise the plan
/// is [`plan`]'s, and one that does not fit stops before it builds anything, saying
/// "memory".
///
/// # Errors
/// As [`plan`].
pub fn plan_within(
    goal: &Board,
    options: &SolveOptions,
    tables: &Tables,
    limits: &Limits,
) -> Result<Plan, SolveError> {
    plan_for_runs(goal, options, tables, limits, 1)
}

/// How many runs one after another each of `threads` threads makes of `boards` boards
/// shared among them: the `runs` of [`plan_for_runs`] for a batch (which counts 0 as 1).
pub fn runs_per_thread(boards: usize, threads: usize) -> usize {
    boards.div_ceil(threads.max(1))
}

/// [`plan_within`] for tables fetched once and shared by `runs` runs one after another,
/// each held to `limits` (a batch's boards of one goal, divided among its threads:
/// [`runs_per_thread`]): the time the tables may take is [`TABLE_TIME_SHARE`] of all those
/// runs' budgets, not of one's, so a batch of many boards with a short time limit each
/// still gets the tables a single board could not wait for. `runs` below 1 counts as 1.
///
/// # Errors
/// As [`plan`].
pub fn plan_for_runs(
    goal: &Board,
    options: &SolveOptions,
    tables: &Tables,
    limits: &Limits,
    runs: usize,
) -> Result<Plan, SolveError> {
    let mut weaker = 0;
    let mut passed_over = Vec::new();
    loop {
        let mut p = plan_choosing(goal, options, tables, weaker)?;
        p.runs = runs.max(1);
        p.limits = Limits {
            time: limits.time,
            time_is_ceiling: limits.time_is_ceiling,
            ..Limits::default()
        };
        // (At most three choices: the last, linear conflict, has no tables.)
        let last = p.tables.is_empty() || weaker >= 2;
        let misfit = p.misfit(limits);
        let chooses = heuristic::chooses_heuristic(options);
        if last || misfit.is_none() || !chooses {
            p.passed_over = passed_over;
            if chooses {
                p.stronger_tables = p.stronger_tables(goal, tables, limits);
            }
            return Ok(p);
        }
        if let (Some(why), Some(heuristic)) = (misfit, p.heuristic().cloned()) {
            passed_over.push(PassedOver { heuristic, why });
        }
        weaker += 1;
    }
}

/// [`plan`] with, where it chooses the heuristic, the `weaker`-th of its choices
/// ([`heuristic::auto_choices`]; 0 is the strongest).
fn plan_choosing(
    goal: &Board,
    options: &SolveOptions,
    tables: &Tables,
    weaker: usize,
) -> Result<Plan, SolveError> {
    if !(options.weight.is_finite() && options.weight >= 1.0) {
        return Err(SolveError::InvalidWeight(options.weight));
    }
    if options.width == 0 {
        return Err(SolveError::InvalidWidth);
    }
    let shape = goal.shape();
    let cells = shape.cells();
    let constructive = || Phase {
        kind: PhaseKind::Constructive,
        algorithm: Algorithm::Constructive,
        heuristic: None,
        weight: None,
        width: None,
        optimal: false,
        budget: None,
        pruning: None,
        lookahead: false,
        beam_ranking: None,
    };
    let puzzle = match Puzzle::new(goal) {
        Some(p) => p,
        // Only the constructive solver answers on boards too large to search; a heuristic
        // named with `auto` asks for a search with it.
        None if !options.optimal
            && (options.algorithm == Algorithm::Constructive
                || options.algorithm == Algorithm::Auto && options.heuristic.is_none()) =>
        {
            return Ok(Plan::new(shape, vec![constructive()], Vec::new()))
        }
        None => {
            return Err(SolveError::TooLarge {
                cells,
                max: MAX_SEARCH_CELLS,
            })
        }
    };
    // A named heuristic runs as asked: `auto` with one is IDA* with it. So does a proof.
    let algorithm = match options.algorithm {
        Algorithm::Auto if options.heuristic.is_some() || options.optimal => Algorithm::IdaStar,
        a => a,
    };
    let phases = match algorithm {
        Algorithm::Constructive if !options.optimal => vec![constructive()],
        Algorithm::Auto => auto_phases(&puzzle, options, tables, weaker)?,
        algorithm => {
            let heuristic = match algorithm {
                Algorithm::Bfs => None,
                _ if options.optimal && options.heuristic.is_none() => {
                    Some(heuristic::strongest_admissible(&puzzle, tables))
                }
                _ => Some(heuristic::chosen_heuristic(
                    &puzzle, options, tables, weaker,
                )?),
            };
            let optimal = proves_optimal(algorithm, heuristic.as_ref(), options.weight);
            if options.optimal && !optimal {
                return Err(SolveError::CannotProve(heuristic.as_ref().map_or_else(
                    || algorithm.to_string(),
                    |h| format!("{algorithm} with {h}"),
                )));
            }
            // A proof gets every pruning that keeps shortest paths, and the lookahead; IDA*
            // is the search that uses them.
            let proof = options.optimal && algorithm == Algorithm::IdaStar;
            vec![Phase {
                kind: PhaseKind::Search,
                algorithm,
                optimal,
                weight: algorithm.is_weighted().then_some(options.weight),
                width: (algorithm == Algorithm::Beam).then_some(options.width),
                heuristic,
                budget: None,
                pruning: proof
                    .then(|| crate::pruning::optimal_depth(cells))
                    .flatten(),
                lookahead: proof,
                beam_ranking: None,
            }]
        }
    };
    let mut needs = Vec::new();
    for phase in &phases {
        if let Some(h) = &phase.heuristic {
            needs::table_needs(h, &puzzle, tables, &mut needs)?;
        }
        if let Some(shifted) = phase.ranking_partition(&puzzle) {
            needs::partition_needs(&shifted, tables, &mut needs);
        }
    }
    let to_build: u64 = needs
        .iter()
        .filter(|t| t.source == TableSourceKind::Build)
        .map(|t| t.entries)
        .sum();
    let allowed = tables.policy().max_build_entries;
    if to_build > allowed {
        return Err(SolveError::Heuristic(HeuristicError::TablesNotAllowed {
            entries: to_build,
            max: allowed,
        }));
    }
    Ok(Plan::new(shape, phases, needs))
}

impl Plan {
    fn new(shape: Shape, phases: Vec<Phase>, tables: Vec<TableNeed>) -> Plan {
        let optimal = phases.iter().all(|p| p.optimal);
        Plan {
            shape,
            phases,
            tables,
            optimal,
            passed_over: Vec::new(),
            stronger_tables: None,
            runs: 1,
            limits: Limits::default(),
        }
    }

    /// The stronger tables this plan would take once they are cached, if it is the anytime
    /// engine with a budget (above [`AUTO_UNBUDGETED_CELLS`]; below it the answer is proved
    /// optimal whatever the tables), they are not its own
    /// ([`heuristic::stronger_once_cached`]), and they fit `limits`' memory (larger ones
    /// would be passed over even if cached).
    fn stronger_tables(
        &self,
        goal: &Board,
        tables: &Tables,
        limits: &Limits,
    ) -> Option<StrongerTables> {
        let phase = &self.phases[0];
        if phase.kind != PhaseKind::Anytime || phase.budget.is_none() {
            return None;
        }
        let puzzle = Puzzle::new(goal)?;
        let chosen = phase.heuristic.as_ref()?;
        let (spec, partition) = heuristic::stronger_once_cached(&puzzle, tables, chosen)?;
        let mut missing = Vec::new();
        needs::partition_needs(&partition, tables, &mut missing);
        missing.retain(|t| t.source == TableSourceKind::Build);
        let bytes = missing.iter().map(|t| t.bytes).sum();
        if limits.memory_bytes.is_some_and(|m| bytes > m) {
            return None;
        }
        Some(StrongerTables {
            heuristic: HeuristicSpec::Pdb(spec),
            tables: missing.len(),
            bytes,
            seconds: missing.iter().map(|t| t.seconds).sum(),
            command: format!(
                "npuzzle pdb build --size {}{} --optimal",
                self.shape,
                goal_option(goal)
            ),
        })
    }

    /// The algorithm of the first phase (the one that answers unless a budget runs out).
    pub fn algorithm(&self) -> Algorithm {
        self.phases[0].algorithm
    }

    /// The heuristic of the first phase.
    pub fn heuristic(&self) -> Option<&HeuristicSpec> {
        self.phases[0].heuristic.as_ref()
    }

    /// Seconds the tables are expected to take to load or build.
    pub fn table_seconds(&self) -> f64 {
        self.tables.iter().map(|t| t.seconds).sum()
    }

    /// Whether running the plan builds a table.
    pub fn builds_tables(&self) -> bool {
        self.tables
            .iter()
            .any(|t| t.source == TableSourceKind::Build)
    }

    /// Bytes the plan's tables take at their peak: every table it uses, and the working
    /// memory of the largest one it builds (builds run one at a time).
    pub fn table_bytes(&self) -> u64 {
        let held: u64 = self.tables.iter().map(|t| t.bytes).sum();
        let building = self.tables.iter().map(TableNeed::build_bytes).max();
        held.saturating_add(building.unwrap_or(0))
    }

    /// Whether the plan's tables can be had within [`TABLE_TIME_SHARE`] of the time budget
    /// of the [`Plan::runs`] runs they serve, each given `limits`' time limit, else the
    /// phase's default budget. Always true of a run that no budget ends (up to 16 cells, a
    /// proof, a named algorithm), where the tables pay for themselves however long they
    /// take.
    pub fn in_time(&self, limits: &Limits) -> bool {
        self.table_budget(limits)
            .is_none_or(|time| self.table_seconds() <= TABLE_TIME_SHARE * time)
    }

    /// Seconds a budget gives the runs the tables serve ([`Plan::runs`] of them): each has
    /// `limits`' time limit, else the phase's default budget; `None` for runs that no budget
    /// ends.
    fn table_budget(&self, limits: &Limits) -> Option<f64> {
        let phase = &self.phases[0];
        phase.budget?;
        let each = phase.run_limits(*limits).time?;
        Some(each.as_secs_f64() * self.runs as f64)
    }

    /// When the runs of this plan give up tables still loading or building, each run held
    /// to `limits` ([`Phase::run_limits`]): [`Phase::table_clock`] of the time of all
    /// [`Plan::runs`] runs the tables serve.
    pub fn table_clock(&self, limits: &Limits) -> Option<TableClock> {
        let phase = &self.phases[0];
        let each = phase.run_limits(*limits).time;
        phase.table_clock(each.map(|t| t.mul_f64(self.runs as f64)))
    }

    /// Why the plan does not fit `limits` ([`Plan::fits`], then [`Plan::in_time`]), in
    /// words; `None` when it does.
    fn misfit(&self, limits: &Limits) -> Option<String> {
        // In the memory limit's unit (`--memory-limit 100` is 100 × 2^20 bytes).
        let mb = |bytes: u64| bytes as f64 / f64::from(1 << 20);
        if let Some(limit) = limits.memory_bytes.filter(|_| !self.fits(limits)) {
            return Some(format!(
                "its tables, and building them, take {:.1} MB, more than the memory limit of {} MB",
                mb(self.table_bytes()),
                mb(limit)
            ));
        }
        let time = self
            .table_budget(limits)
            .filter(|_| !self.in_time(limits))?;
        let budget = match self.runs {
            1 => format!("the {time} s budget"),
            runs => format!("the {time} s budget of the {runs} runs they would serve"),
        };
        Some(format!(
            "its tables take about {:.1} s to load or build, more than {}% of {budget}",
            self.table_seconds(),
            TABLE_TIME_SHARE * 100.0
        ))
    }

    /// The plan for when its tables were given up ([`Phase::table_clock`]): the
    /// anytime engine with linear conflict, which needs none, the heuristic it gives up
    /// named in [`Plan::passed_over`]. Only a budgeted run gives tables up; any other plan
    /// is returned as it is.
    pub fn without_tables(&self) -> Plan {
        let mut p = self.clone();
        let phase = &mut p.phases[0];
        if phase.budget.is_none() || phase.kind != PhaseKind::Anytime {
            return p;
        }
        if let Some(heuristic) = phase.heuristic.replace(HeuristicSpec::LinearConflict) {
            if heuristic != HeuristicSpec::LinearConflict {
                p.passed_over.push(PassedOver {
                    heuristic,
                    why: format!(
                        "its tables were not ready within {}% of the budget",
                        TABLE_TIME_SHARE * 100.0
                    ),
                });
            }
        }
        if phase.beam_ranking.is_some() {
            phase.beam_ranking = Some(BeamRanking::LinearConflict);
        }
        p.tables.clear();
        p
    }

    /// Whether the plan's tables, and building them, fit `limits`' memory. A plan that does
    /// not stops before anything is built, with `stopped_by: "memory"`.
    pub fn fits(&self, limits: &Limits) -> bool {
        limits
            .memory_bytes
            .is_none_or(|limit| self.table_bytes() <= limit)
    }
}

impl fmt::Display for Plan {
    /// The plan in a few lines, as `npuzzle solve --explain` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.optimal {
            "the answer is guaranteed optimal (unless a limit you set stops the search)."
        } else if self.phases[0].kind == PhaseKind::Anytime {
            "the best answer found within the budget, with a proven lower bound; optimal when the bound meets it."
        } else {
            "the answer is not guaranteed optimal."
        };
        writeln!(f, "Plan for a {} board: {verdict}", self.shape)?;
        for (i, p) in self.phases.iter().enumerate() {
            write!(f, "  {}. ", i + 1)?;
            p.describe(f, self.shape.cells(), &self.limits)?;
            writeln!(f)?;
        }
        for p in &self.passed_over {
            writeln!(f, "Not {}: {}.", p.heuristic, p.why)?;
        }
        if let Some(s) = &self.stronger_tables {
            writeln!(f, "Stronger once cached: {s}; `{}` caches them.", s.command)?;
        }
        if self.tables.is_empty() {
            writeln!(f, "Tables: none.")?;
        } else {
            writeln!(f, "Tables:")?;
            for t in &self.tables {
                let source = match t.source {
                    TableSourceKind::Memory => "in memory",
                    TableSourceKind::Disk => "load from the cache",
                    TableSourceKind::Build => "build",
                };
                writeln!(
                    f,
                    "  {} ({} entries, {:.1} MB): {source}, about {:.1} s",
                    t.name,
                    t.entries,
                    t.bytes as f64 / 1e6,
                    t.seconds
                )?;
            }
        }
        Ok(())
    }
}

impl Phase {
    /// The phase in words, for a board of `cells` cells and the caller's `limits`: the
    /// anytime engine's steps are those that run on such a board (a 2×7 has no beams).
    fn describe(&self, f: &mut fmt::Formatter<'_>, cells: usize, limits: &Limits) -> fmt::Result {
        if self.kind != PhaseKind::Anytime {
            return write!(f, "{self}");
        }
        let schedule = Schedule::default();
        f.write_str("anytime: a first answer by the constructive solver")?;
        if cells >= schedule.staged_from_cells {
            f.write_str(
                "; a staged answer (lines by weighted astar, the last 25 cells by this engine)",
            )?;
        }
        if let Some(ranking) = self.beam_ranking {
            write!(f, "; beam searches ranked by {ranking}")?;
        }
        if cells >= schedule.best_first_from_cells {
            f.write_str("; long windows of the path re-solved")?;
        }
        f.write_str(
            "; then weighted idastar with W from 2 down to 1.01 pruned by the best length, \
             then idastar under it",
        )?;
        if let Some(h) = &self.heuristic {
            write!(f, ", all with {h}")?;
        }
        let run = self.run_limits(*limits);
        match (self.budget, limits.budget(), run.time) {
            (Some(_), Some(t), _) => write!(f, "; for {} s (the time limit)", t.as_secs_f64()),
            (Some(b), None, Some(t)) if t.as_secs_f64() < b => write!(
                f,
                "; for {} s (the time limit; the default is {b} s)",
                t.as_secs_f64()
            ),
            (Some(b), ..) => write!(f, "; for {b} s (the default; a time limit sets another)"),
            (None, _, Some(t)) => {
                write!(f, "; until proved optimal or {} s pass", t.as_secs_f64())
            }
            (None, _, None) => f.write_str("; until proved optimal (no default time budget)"),
        }
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.kind == PhaseKind::Anytime {
            return self.describe(f, 0, &Limits::default());
        }
        let what = match self.kind {
            PhaseKind::Search => "search",
            PhaseKind::Optimal => "optimal search",
            PhaseKind::Anytime => "anytime",
            PhaseKind::Constructive => "constructive",
        };
        write!(f, "{what}: {}", self.algorithm)?;
        if let Some(h) = &self.heuristic {
            write!(f, " with {h}")?;
        }
        if let Some(w) = self.weight {
            write!(f, ", W = {w}")?;
        }
        if let Some(w) = self.width {
            write!(f, ", {w} states a depth")?;
        }
        if let Some(d) = self.pruning {
            write!(f, ", duplicate move sequences of up to {d} moves pruned")?;
        }
        if self.lookahead {
            f.write_str(", weighted lookaheads that can skip iterations")?;
        }
        if self.optimal {
            f.write_str(" (optimal)")
        } else if let (Some(w), true) = (self.weight, self.heuristic_admissible()) {
            write!(f, " (at most {w} × optimal)")
        } else {
            f.write_str(" (not optimal)")
        }
    }
}

impl Phase {
    /// The limits a run of this phase runs under, given the caller's: the phase's default
    /// budget ([`Phase::budget`]) becomes the time limit when the caller gave no budget of
    /// its own (held to a ceiling, [`Limits::time_is_ceiling`]). The one place a default
    /// budget is applied: the run, its tables' clock and the plan's words all ask here.
    pub fn run_limits(&self, limits: Limits) -> Limits {
        limits.with_default_budget(self.budget.map(Duration::from_secs_f64))
    }

    /// When a run of this phase gives up tables still loading or building, in a run whose
    /// time limit is `time` (`None`: the caller set none): for a budgeted run (the anytime
    /// engine above 16 cells), once [`TABLE_TIME_SHARE`] of the budget has passed (the share
    /// [`plan_within`] chose them for) and the table in progress, at the pace it has kept,
    /// would not be ready by [`TABLE_TIME_END`] of it, and at that point in any case: tables
    /// much slower than their estimate (a cold or slow disk, a busy machine) are given up,
    /// and the run goes on with linear conflict ([`Plan::without_tables`]). For any other
    /// run, at `time`; `None`: never.
    pub fn table_clock(&self, time: Option<Duration>) -> Option<TableClock> {
        match self.budget {
            Some(budget) => {
                let budget = time.unwrap_or(Duration::from_secs_f64(budget));
                Some(TableClock::new(
                    budget.mul_f64(TABLE_TIME_SHARE),
                    budget.mul_f64(TABLE_TIME_END),
                ))
            }
            None => time.map(TableClock::until),
        }
    }

    /// How long building this phase's pruning automaton may take in a run whose time limit
    /// is `time`, past which the run searches without it: for a budgeted run (the anytime
    /// engine above 16 cells) [`PRUNING_TIME_SHARE`] of its time; for any other run, `time`.
    pub fn pruning_time(&self, time: Option<Duration>) -> Option<Duration> {
        match self.budget {
            Some(_) => time.map(|t| t.mul_f64(PRUNING_TIME_SHARE)),
            None => time,
        }
    }

    /// The partition whose tables rank this phase's beams beside its heuristic's
    /// ([`BeamRanking::uses_shifted`]), if any.
    pub fn ranking_partition(&self, puzzle: &Puzzle) -> Option<Partition> {
        self.beam_ranking
            .is_some_and(BeamRanking::uses_shifted)
            .then(|| Partition::shifted(puzzle.shape, usize::from(puzzle.goal_cell[0])))
            .flatten()
    }

    fn heuristic_admissible(&self) -> bool {
        self.heuristic
            .as_ref()
            .is_some_and(HeuristicSpec::admissible)
    }
}

/// `auto`'s phase on a board of at most 255 cells (see the module docs).
fn auto_phases(
    puzzle: &Puzzle,
    options: &SolveOptions,
    tables: &Tables,
    weaker: usize,
) -> Result<Vec<Phase>, SolveError> {
    let cells = puzzle.cells();
    let heuristic = heuristic::chosen_heuristic(puzzle, options, tables, weaker)?;
    let exact = cells <= MAX_PERFECT_CELLS && heuristic == HeuristicSpec::Perfect;
    // A time budget ends the search, rather than a proof.
    let budgeted = !exact && cells > AUTO_UNBUDGETED_CELLS;
    let beams = !exact && cells >= Schedule::default().beam_from_cells;
    let beam_ranking = beams.then(|| heuristic::beam_ranking(&heuristic, puzzle, tables));
    Ok(vec![Phase {
        // The exact table walks straight down an optimal path: nothing to improve.
        kind: if exact {
            PhaseKind::Optimal
        } else {
            PhaseKind::Anytime
        },
        algorithm: Algorithm::IdaStar,
        heuristic: Some(heuristic),
        weight: None,
        width: None,
        optimal: exact || cells <= AUTO_UNBUDGETED_CELLS,
        budget: budgeted.then_some(AUTO_BUDGET_SECONDS),
        pruning: budgeted
            .then(|| crate::pruning::anytime_depth(cells))
            .flatten(),
        // The engine's proof looks ahead before each iteration (`anytime::run`).
        lookahead: !exact,
        beam_ranking,
    }])
}

/// Whether a path found by `algorithm` with `heuristic` (and `weight`, for the weighted
/// algorithms) is proven shortest. `auto` counts as optimal here because a plan runs it
/// with a heuristic as IDA*; plain `auto` is judged by its [`Plan::optimal`].
pub fn proves_optimal(
    algorithm: Algorithm,
    heuristic: Option<&HeuristicSpec>,
    weight: f64,
) -> bool {
    let admissible = heuristic.is_none_or(HeuristicSpec::admissible);
    match algorithm {
        Algorithm::Bfs => true,
        Algorithm::AStar | Algorithm::IdaStar | Algorithm::Auto => admissible,
        Algorithm::WeightedAStar => admissible && weight <= 1.0,
        Algorithm::WeightedIdaStar => admissible && effective_weight(weight) <= 1.0,
        Algorithm::Greedy | Algorithm::Constructive | Algorithm::Beam => false,
    }
}

/// Loads or builds every table a plan needs, reporting build progress, so that running
/// it finds them in memory. Returns what happened to each table.
///
/// # Errors
/// A `pdb:` partition that does not fit the board (which [`plan`] has already ruled out);
/// a build stopped by `progress` ([`PdbError::Stopped`](crate::heuristic::pdb::PdbError)).
pub fn prepare(
    plan: &Plan,
    goal: &Board,
    tables: &Tables,
    progress: &mut Progress<'_>,
) -> Result<Vec<TableEvent>, SolveError> {
    let Some(puzzle) = Puzzle::new(goal) else {
        return Ok(Vec::new());
    };
    let mut events = Vec::new();
    for phase in &plan.phases {
        if let Some(h) = &phase.heuristic {
            needs::prepare_spec(h, &puzzle, tables, progress, &mut events)?;
        }
        if let Some(shifted) = phase.ranking_partition(&puzzle) {
            needs::prepare_partition(&shifted, tables, progress, &mut events)?;
        }
    }
    Ok(events)
}

fn as_text<T: fmt::Display, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    s.collect_str(value)
}

fn option_as_text<T: fmt::Display, S: Serializer>(
    value: &Option<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match value {
        Some(v) => s.collect_str(v),
        None => s.serialize_none(),
    }
}

mod choices;
mod clock;
mod heuristic;
mod needs;

pub use choices::{algorithm_label, choices, heuristic_label, Choice, Choices, HEURISTICS};
pub use clock::{TableClock, TABLE_TIME_END};
pub use heuristic::{
    at_hand, default_partition, resolve, strongest, strongest_admissible, AUTO_BUILD_ENTRIES,
};
pub use needs::{TableNeed, TableSourceKind};

#[cfg(test)]
mod tests;
