//! The front door: check solvability, pick an algorithm and heuristic, search, report.

use std::fmt;
use std::str::FromStr;

use crate::board::Board;
use crate::constructive;
use crate::goal::GoalError;
use crate::heuristic::pdb::{self, PartitionSpec, PatternDatabase};
use crate::heuristic::{
    self, Heuristic, HeuristicError, HeuristicSpec, LinearConflict, Manhattan, Reevaluate,
};
use crate::moves::Move;
use crate::puzzle::{Puzzle, MAX_SEARCH_CELLS};
use crate::search::{
    self, Control, Limits, Priority, SearchOutcome, SearchStats, StopReason, TraceStep,
};
use crate::solvability::{self, Verdict};

/// A search algorithm, as named on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
#[non_exhaustive]
pub enum Algorithm {
    /// Picks a fast optimal method for the board (see [`solve`]).
    #[default]
    Auto,
    /// A* with a closed set; re-opens states reached by shorter paths. Optimal with an
    /// admissible heuristic; memory grows with the states seen.
    AStar,
    /// Iterative-deepening A*. Optimal with an admissible heuristic; memory is the path.
    IdaStar,
    /// Breadth-first search. Optimal; ignores the heuristic; memory-hungry.
    Bfs,
    /// Greedy best-first on `h` alone. Fast, not optimal.
    Greedy,
    /// A* on `g + W·h`; at most `W` × optimal with an admissible heuristic.
    WeightedAStar,
    /// IDA* on `g + W·h`: at most `W` × optimal with an admissible heuristic, memory only
    /// the path.
    WeightedIdaStar,
    /// Places tiles row by row and column by column, then finishes the last 3×3 optimally:
    /// any size up to 2000×2000 in linear time, not optimal (see [`crate::constructive`]).
    Constructive,
}

impl Algorithm {
    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Auto => "auto",
            Algorithm::AStar => "astar",
            Algorithm::IdaStar => "idastar",
            Algorithm::Bfs => "bfs",
            Algorithm::Greedy => "greedy",
            Algorithm::WeightedAStar => "weighted-astar",
            Algorithm::WeightedIdaStar => "weighted-idastar",
            Algorithm::Constructive => "constructive",
        }
    }

    /// All algorithms, for help text and menus.
    pub const ALL: [Algorithm; 8] = [
        Algorithm::Auto,
        Algorithm::AStar,
        Algorithm::IdaStar,
        Algorithm::Bfs,
        Algorithm::Greedy,
        Algorithm::WeightedAStar,
        Algorithm::WeightedIdaStar,
        Algorithm::Constructive,
    ];
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = SolveError;
    fn from_str(s: &str) -> Result<Algorithm, SolveError> {
        let s = s.trim().to_ascii_lowercase().replace(['_', ' '], "-");
        Ok(match s.as_str() {
            "auto" => Algorithm::Auto,
            "astar" | "a*" | "a-star" => Algorithm::AStar,
            "idastar" | "ida*" | "ida-star" | "ida" => Algorithm::IdaStar,
            "bfs" | "breadth-first" => Algorithm::Bfs,
            "greedy" | "best-first" | "gbfs" => Algorithm::Greedy,
            "weighted-astar" | "wastar" | "weighted" | "wa*" => Algorithm::WeightedAStar,
            "weighted-idastar" | "widastar" | "wida*" | "weighted-ida" => {
                Algorithm::WeightedIdaStar
            }
            "constructive" | "rows" => Algorithm::Constructive,
            _ => return Err(SolveError::UnknownAlgorithm(crate::board::clip(&s))),
        })
    }
}

/// What to solve with.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveOptions {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The heuristic; `None` lets npuzzle pick the strongest available.
    pub heuristic: Option<HeuristicSpec>,
    /// `W` for weighted A* (at least 1).
    pub weight: f64,
}

impl Default for SolveOptions {
    fn default() -> Self {
        SolveOptions {
            algorithm: Algorithm::Auto,
            heuristic: None,
            weight: 2.0,
        }
    }
}

/// Why a board was not searched.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum SolveError {
    /// The start cannot reach the goal.
    #[error("unsolvable: {0}")]
    Unsolvable(Verdict),
    /// The goal does not fit the board.
    #[error(transparent)]
    Goal(#[from] GoalError),
    /// The heuristic was refused.
    #[error(transparent)]
    Heuristic(#[from] HeuristicError),
    /// An unknown algorithm name.
    #[error(
        "unknown algorithm `{0}` (expected auto, astar, idastar, bfs, greedy, weighted-astar, weighted-idastar or constructive)"
    )]
    UnknownAlgorithm(String),
    /// A weight below 1 or not finite.
    #[error("weight must be a number of at least 1, got {0}")]
    InvalidWeight(f64),
    /// The board is too large for tile-by-tile search.
    #[error("board has {cells} cells; search algorithms handle at most {max}")]
    TooLarge {
        /// Cells of the board.
        cells: usize,
        /// The most search handles.
        max: usize,
    },
}

/// The result of [`solve`].
#[derive(Clone, Debug)]
pub struct Solution {
    /// The solvability verdict (always solvable here; unsolvable boards are an error).
    pub verdict: Verdict,
    /// The moves of the blank from start to goal, or `None` if a limit stopped the search.
    pub moves: Option<Vec<Move>>,
    /// Whether the algorithm and heuristic guarantee the path is shortest.
    pub optimal: bool,
    /// Search counters.
    pub stats: SearchStats,
    /// The limit that stopped the search.
    pub stopped_by: Option<StopReason>,
    /// The algorithm used (never `auto`).
    pub algorithm: Algorithm,
    /// The heuristic used, by name (`none` for BFS).
    pub heuristic: String,
    /// Whether that heuristic is admissible.
    pub admissible: bool,
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
}

impl Solution {
    /// Number of moves, if solved.
    pub fn length(&self) -> Option<usize> {
        self.moves.as_ref().map(Vec::len)
    }
}

/// Boards of at most this many cells keep the plain `auto` rule (IDA* with the strongest
/// heuristic); larger ones go through `auto_large`.
const AUTO_OPTIMAL_CELLS: usize = 16;

/// Generated nodes `auto` lets optimal IDA* try on a board over `AUTO_OPTIMAL_CELLS`
/// cells before it falls back (well under a second).
const AUTO_OPTIMAL_NODES: u64 = 1_000_000;

/// Generated nodes `auto` lets bounded-suboptimal weighted A* try before the constructive
/// solver takes over (a second or two at most).
const AUTO_BOUNDED_NODES: u64 = 500_000;

/// The weights `auto` tries with weighted A*, in turn: paths at most 2 (then 3) × optimal.
const AUTO_WEIGHTS: [f64; 2] = [2.0, 3.0];

/// Boards over this many cells (10×10) skip weighted A* in `auto`: it seldom finishes
/// within its budget there, and the constructive solver is close to its quality.
const AUTO_BOUNDED_CELLS: usize = 100;

/// Checks solvability, then searches.
///
/// `Algorithm::Auto`:
///
/// * up to 16 cells: IDA* (memory is only the path, so it never outgrows a memory limit)
///   with the `perfect` table on boards of up to 10 cells, pattern databases (`pdb`) on
///   4×4 and linear conflict on other boards (see [`planned_heuristic`]); optimal.
/// * up to 255 cells: optimal IDA* with linear conflict, or a pattern database whose tables
///   are at hand ([`pdb::at_hand`]), while it stays cheap (at most 1,000,000 generated
///   nodes and a tenth of any time limit); else, on boards of at most
///   100 cells, weighted A* with linear conflict and `W` = 2, then `W` = 3 (at most `W` ×
///   optimal), each within 500,000 generated nodes and a third of the time left; else the
///   constructive solver.
/// * larger boards: the constructive solver.
///
/// The [`Solution`] names the algorithm that produced the path, marks it optimal only when
/// that is proven, and gives a lower bound and a proven bound factor beside its length.
/// Without a heuristic the other algorithms use linear conflict.
///
/// # Errors
/// [`SolveError::Unsolvable`] before any search when the parity rule says so; otherwise
/// errors about the goal, heuristic, weight or board size. Hitting a limit is not an error:
/// the [`Solution`] has `moves: None` and `stopped_by` set.
///
/// ```
/// use npuzzle::{solve, Board, GoalSpec, SolveOptions, search::Control};
/// let start = Board::parse("7 2 6/8 1 4/3 5 0", None).unwrap();
/// let goal = GoalSpec::Standard.board(start.shape()).unwrap();
/// let s = solve(&start, &goal, &SolveOptions::default(), Control::default()).unwrap();
/// assert!(s.optimal);
/// let moves = s.moves.unwrap();
/// assert_eq!(start.replay(&moves).unwrap(), goal);
/// ```
pub fn solve(
    start: &Board,
    goal: &Board,
    options: &SolveOptions,
    control: Control<'_>,
) -> Result<Solution, SolveError> {
    let verdict = solvability::check(start, goal)?;
    if !verdict.solvable {
        return Err(SolveError::Unsolvable(verdict));
    }
    if !(options.weight.is_finite() && options.weight >= 1.0) {
        return Err(SolveError::InvalidWeight(options.weight));
    }
    let cells = start.shape().cells();
    match options.algorithm {
        Algorithm::Constructive => return Ok(constructive(start, goal, verdict, control)),
        Algorithm::Auto if cells > MAX_SEARCH_CELLS => {
            return Ok(constructive(start, goal, verdict, control))
        }
        Algorithm::Auto if cells > AUTO_OPTIMAL_CELLS => {
            return auto_large(start, goal, verdict, options, control)
        }
        _ => {}
    }
    let puzzle = Puzzle::new(goal).ok_or(SolveError::TooLarge {
        cells,
        max: MAX_SEARCH_CELLS,
    })?;
    let tiles = puzzle.encode(start);

    let algorithm = match options.algorithm {
        Algorithm::Auto => Algorithm::IdaStar,
        a => a,
    };
    let spec = planned_for(&puzzle, options);
    let outcome = run_search(&puzzle, &tiles, algorithm, &spec, options.weight, control)?;
    Ok(finish(
        &puzzle,
        &tiles,
        verdict,
        outcome,
        algorithm,
        &spec,
        options.weight,
    ))
}

/// One search with one algorithm and heuristic.
fn run_search(
    puzzle: &Puzzle,
    tiles: &[u8],
    algorithm: Algorithm,
    spec: &HeuristicSpec,
    weight: f64,
    control: Control<'_>,
) -> Result<SearchOutcome, SolveError> {
    let admissible = spec.admissible();
    Ok(match algorithm {
        Algorithm::Bfs => search::bfs(puzzle, tiles, control),
        Algorithm::IdaStar | Algorithm::Auto => match spec {
            HeuristicSpec::Manhattan => {
                search::idastar(puzzle, tiles, Manhattan::new(puzzle), control)
            }
            HeuristicSpec::LinearConflict => {
                search::idastar(puzzle, tiles, LinearConflict::new(puzzle), control)
            }
            HeuristicSpec::Pdb(p) => {
                let partition = pdb::partition(p, puzzle).map_err(HeuristicError::from)?;
                let (db, _) = PatternDatabase::new(puzzle, &partition, &mut |_| {})
                    .map_err(HeuristicError::from)?;
                search::idastar(puzzle, tiles, db.search(), control)
            }
            _ => {
                let h = heuristic::build(spec, puzzle)?;
                let Some(control) = charge(control, h.heap_bytes()) else {
                    return Ok(over_memory());
                };
                search::idastar(puzzle, tiles, Reevaluate(h.as_ref()), control)
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
            _ => {
                let h = heuristic::build(spec, puzzle)?;
                let Some(control) = charge(control, h.heap_bytes()) else {
                    return Ok(over_memory());
                };
                search::weighted_idastar(puzzle, tiles, Reevaluate(h.as_ref()), weight, control)
            }
        },
        // (The constructive solver is not a search; `solve` never sends it here.)
        Algorithm::AStar
        | Algorithm::Greedy
        | Algorithm::WeightedAStar
        | Algorithm::Constructive => {
            let h = heuristic::build(spec, puzzle)?;
            let Some(control) = charge(control, h.heap_bytes()) else {
                return Ok(over_memory());
            };
            let priority = match algorithm {
                Algorithm::AStar => Priority::AStar,
                Algorithm::Greedy => Priority::Greedy,
                _ => Priority::Weighted(weight),
            };
            search::astar(puzzle, tiles, h.as_ref(), admissible, priority, control)
        }
    })
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

/// The [`Solution`] of a search, with its optimality and bounds.
fn finish(
    puzzle: &Puzzle,
    tiles: &[u8],
    verdict: Verdict,
    outcome: SearchOutcome,
    algorithm: Algorithm,
    spec: &HeuristicSpec,
    weight: f64,
) -> Solution {
    let admissible = spec.admissible();
    let optimal = outcome.moves.is_some()
        && match algorithm {
            Algorithm::Bfs => true,
            Algorithm::AStar | Algorithm::IdaStar | Algorithm::Auto => admissible,
            Algorithm::WeightedAStar | Algorithm::WeightedIdaStar => {
                admissible && options_weight_is_one(algorithm, weight)
            }
            Algorithm::Greedy | Algorithm::Constructive => false,
        };
    let weight_bound = match algorithm {
        Algorithm::WeightedAStar if admissible => Some(weight),
        Algorithm::WeightedIdaStar if admissible => Some(search::effective_weight(weight)),
        _ => None,
    };
    let (heuristic, admissible) = if algorithm == Algorithm::Bfs {
        ("none".to_string(), true)
    } else {
        (spec.to_string(), admissible)
    };
    let lower = search_lower_bound(puzzle, tiles);
    let mut solution = Solution {
        verdict,
        moves: outcome.moves,
        optimal,
        stats: outcome.stats,
        stopped_by: outcome.stopped_by,
        algorithm,
        heuristic,
        admissible,
        trace: outcome.trace,
        lower_bound: None,
        bound_factor: None,
    };
    set_bounds(&mut solution, lower, weight_bound);
    solution
}

/// Whether a weighted search ran with weight 1 (then it is plain A* or IDA*).
fn options_weight_is_one(algorithm: Algorithm, weight: f64) -> bool {
    match algorithm {
        Algorithm::WeightedIdaStar => search::effective_weight(weight) <= 1.0,
        _ => weight <= 1.0,
    }
}

/// The linear-conflict value of the start: a lower bound on the optimal length.
fn search_lower_bound(puzzle: &Puzzle, tiles: &[u8]) -> u64 {
    heuristic::whole_moves(LinearConflict::new(puzzle).estimate(tiles)).into()
}

/// Fills in `lower_bound` and `bound_factor` from a lower bound and, for bounded-suboptimal
/// searches, their weight.
fn set_bounds(s: &mut Solution, lower: u64, weight_bound: Option<f64>) {
    match s.length() {
        Some(len) if s.optimal => {
            s.lower_bound = Some(len as u64);
            s.bound_factor = Some(1.0);
        }
        Some(len) => {
            s.lower_bound = Some(lower);
            let certified = (lower > 0).then(|| len as f64 / lower as f64);
            s.bound_factor = match (weight_bound, certified) {
                (Some(w), Some(c)) => Some(w.min(c)),
                (w, c) => w.or(c),
            };
        }
        None => s.lower_bound = Some(lower),
    }
}

/// The constructive solver's [`Solution`].
fn constructive(start: &Board, goal: &Board, verdict: Verdict, control: Control<'_>) -> Solution {
    let outcome = constructive::construct_controlled(start, goal, control);
    let lower = match Puzzle::new(goal) {
        Some(puzzle) => search_lower_bound(&puzzle, &puzzle.encode(start)),
        None => constructive::manhattan_bound(start, goal),
    };
    let mut solution = Solution {
        verdict,
        moves: outcome.moves,
        optimal: false,
        stats: outcome.stats,
        stopped_by: outcome.stopped_by,
        algorithm: Algorithm::Constructive,
        heuristic: "none".to_string(),
        admissible: true,
        trace: Vec::new(),
        lower_bound: None,
        bound_factor: None,
    };
    // A path no longer than a lower bound is a shortest one.
    solution.optimal = solution.length().is_some_and(|len| len as u64 <= lower);
    set_bounds(&mut solution, lower, None);
    solution
}

/// `auto` on boards of 17 to 255 cells: optimal while cheap, then bounded-suboptimal, then
/// constructive (see [`solve`]). Statistics add up over the phases.
fn auto_large(
    start: &Board,
    goal: &Board,
    verdict: Verdict,
    options: &SolveOptions,
    control: Control<'_>,
) -> Result<Solution, SolveError> {
    let puzzle = Puzzle::new(goal).expect("at most 255 cells");
    let tiles = puzzle.encode(start);
    let spec = options
        .heuristic
        .clone()
        .unwrap_or(HeuristicSpec::LinearConflict);
    // The optimal phase may take a pattern database at hand (see `planned_for`); the
    // bounded phases keep linear conflict, which A* evaluates from scratch on every state
    // much faster.
    let optimal_spec = planned_for(&puzzle, options);
    let began = std::time::Instant::now();
    let mut total = SearchStats::default();
    let mut phases = vec![(Algorithm::IdaStar, AUTO_OPTIMAL_NODES, 0.1, 1.0)];
    if start.shape().cells() <= AUTO_BOUNDED_CELLS {
        for w in AUTO_WEIGHTS {
            phases.push((Algorithm::WeightedAStar, AUTO_BOUNDED_NODES, 0.33, w));
        }
    }
    for (algorithm, budget, share, weight) in phases {
        let limits = phase_limits(control.limits, budget, share, began, &total);
        let phase = Control { limits, ..control };
        let phase_spec = if algorithm == Algorithm::IdaStar {
            &optimal_spec
        } else {
            &spec
        };
        let outcome = run_search(&puzzle, &tiles, algorithm, phase_spec, weight, phase)?;
        add_stats(&mut total, &outcome.stats);
        let user_stop = match outcome.stopped_by {
            Some(StopReason::Cancelled) => true,
            Some(StopReason::Nodes) => control.limits.nodes.is_some_and(|n| total.generated >= n),
            Some(StopReason::Time) => control.limits.time.is_some_and(|t| began.elapsed() >= t),
            _ => false,
        };
        if outcome.moves.is_some() || user_stop {
            let mut s = finish(
                &puzzle, &tiles, verdict, outcome, algorithm, phase_spec, weight,
            );
            total.seconds = began.elapsed().as_secs_f64();
            s.stats = total;
            return Ok(s);
        }
    }
    let rest = Control {
        limits: Limits {
            time: control
                .limits
                .time
                .map(|t| t.saturating_sub(began.elapsed())),
            nodes: None,
            ..control.limits
        },
        ..control
    };
    let mut s = constructive(start, goal, verdict, rest);
    add_stats(&mut total, &s.stats);
    total.seconds = began.elapsed().as_secs_f64();
    s.stats = total;
    Ok(s)
}

/// A phase's limits: its own node budget and share of the time left, within the caller's.
fn phase_limits(
    user: Limits,
    budget: u64,
    share: f64,
    began: std::time::Instant,
    done: &SearchStats,
) -> Limits {
    let nodes = match user.nodes {
        Some(n) => budget.min(n.saturating_sub(done.generated)).max(1),
        None => budget,
    };
    let time = user
        .time
        .map(|t| t.saturating_sub(began.elapsed()).mul_f64(share));
    Limits {
        time,
        nodes: Some(nodes),
        memory_bytes: user.memory_bytes,
    }
}

fn add_stats(total: &mut SearchStats, more: &SearchStats) {
    total.expanded += more.expanded;
    total.generated += more.generated;
    total.max_open = total.max_open.max(more.max_open);
}

/// The heuristic [`solve`] will use for `options` towards `goal`, with `pdb` resolved to a
/// concrete partition (e.g. `pdb:7-8`): callers use it to load or build pattern databases
/// beforehand with a progress bar ([`pdb::prepare`]).
///
/// With no heuristic given, `auto` picks `perfect` up to 10 cells and, on 4×4, `pdb`: the
/// `7-8` tables when they are at hand (in memory or in the cache directory), else `6-6-3`,
/// which builds in well under a second. On larger boards (its optimal phase) it picks a
/// pattern database only when its tables are at hand ([`pdb::at_hand`]: `6-6-6-6` on 5×5
/// once built, say), never building one, else linear conflict. Other algorithms default to
/// linear conflict.
pub fn planned_heuristic(goal: &Board, options: &SolveOptions) -> HeuristicSpec {
    match Puzzle::new(goal) {
        Some(puzzle) => planned_for(&puzzle, options),
        None => options
            .heuristic
            .clone()
            .unwrap_or(HeuristicSpec::LinearConflict),
    }
}

fn planned_for(puzzle: &Puzzle, options: &SolveOptions) -> HeuristicSpec {
    let cells = puzzle.cells();
    let spec = match (&options.heuristic, options.algorithm) {
        (Some(h), _) => h.clone(),
        (None, Algorithm::Auto) if cells <= heuristic::MAX_PERFECT_CELLS => HeuristicSpec::Perfect,
        (None, Algorithm::Auto) if puzzle.shape.rows() == 4 && puzzle.shape.cols() == 4 => {
            HeuristicSpec::Pdb(PartitionSpec::Best)
        }
        (None, Algorithm::Auto) if cells > AUTO_OPTIMAL_CELLS => pdb::at_hand(puzzle)
            .map_or(HeuristicSpec::LinearConflict, |sizes| {
                HeuristicSpec::Pdb(PartitionSpec::Sizes(sizes))
            }),
        (None, _) => HeuristicSpec::LinearConflict,
    };
    pdb::resolve(&spec, puzzle)
}
