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
//! `Algorithm::Auto`:
//!
//! * at most 10 cells: IDA* with the exact table (`perfect`), optimal;
//! * 11 to 255 cells: optimal IDA* with the strongest heuristic that is cheap to have (a
//!   pattern database whose tables are at hand, else the shape's default partition when its
//!   tables build in about a second, else linear conflict) within a node budget; then, on
//!   boards of at most 100 cells, weighted A* with `W` = 2 and `W` = 3 (paths at most `W` ×
//!   optimal) within budgets; then the constructive solver, which always answers;
//! * larger boards: the constructive solver.
//!
//! ```
//! use npuzzle::{plan, GoalSpec, SolveOptions, Tables};
//! let goal = GoalSpec::Standard.board("2x7".parse()?)?;
//! let p = plan(&goal, &SolveOptions::default(), &Tables::default())?;
//! assert_eq!(p.phases[0].heuristic.as_ref().unwrap().to_string(), "pdb:7-6");
//! assert!(p.phases[0].optimal);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use serde::{Serialize, Serializer};

use crate::algorithm::Algorithm;
use crate::board::Board;
use crate::error::SolveError;
use crate::heuristic::pdb::build::Progress;
use crate::heuristic::{HeuristicError, HeuristicSpec, TableEvent, Tables, MAX_PERFECT_CELLS};
use crate::puzzle::{Puzzle, MAX_SEARCH_CELLS};
use crate::search::effective_weight;
use crate::shape::Shape;

/// What to solve with: the user's choices.
#[derive(Clone, Debug, PartialEq)]
pub struct SolveOptions {
    /// The algorithm.
    pub algorithm: Algorithm,
    /// The heuristic; `None` lets the plan pick the strongest available.
    pub heuristic: Option<HeuristicSpec>,
    /// `W` for the weighted algorithms (at least 1).
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

/// What will run for a board and goal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    /// The board shape.
    #[serde(serialize_with = "as_text")]
    pub shape: Shape,
    /// The phases, tried in order until one answers (one phase unless the algorithm is
    /// `auto`).
    pub phases: Vec<Phase>,
    /// The tables the plan uses, and where each comes from.
    pub tables: Vec<TableNeed>,
    /// Whether every answer the plan can give is guaranteed shortest.
    pub optimal: bool,
}

/// What a phase is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum PhaseKind {
    /// The one search the user asked for.
    Search,
    /// `auto`'s optimal search.
    Optimal,
    /// `auto`'s bounded-suboptimal search (at most `W` × optimal).
    Bounded,
    /// `auto`'s (or the user's) constructive solver: always answers, not optimal.
    Constructive,
}

impl PhaseKind {
    /// `search`, `optimal`, `bounded` or `constructive`, as reports write it.
    pub fn name(self) -> &'static str {
        match self {
            PhaseKind::Search => "search",
            PhaseKind::Optimal => "optimal",
            PhaseKind::Bounded => "bounded",
            PhaseKind::Constructive => "constructive",
        }
    }

    /// The kind [`name`](PhaseKind::name) names, if any (reading reports back).
    pub fn from_name(name: &str) -> Option<PhaseKind> {
        [
            PhaseKind::Search,
            PhaseKind::Optimal,
            PhaseKind::Bounded,
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
    /// The algorithm (never `auto`).
    #[serde(serialize_with = "as_text")]
    pub algorithm: Algorithm,
    /// The heuristic, with `pdb` resolved to a partition; `None` for breadth-first search
    /// and the constructive solver.
    #[serde(serialize_with = "option_as_text")]
    pub heuristic: Option<HeuristicSpec>,
    /// `W` of a weighted search.
    pub weight: Option<f64>,
    /// Whether a path this phase finds is guaranteed shortest.
    pub optimal: bool,
    /// Generated nodes the phase may use before the next phase takes over (`None`: only
    /// the user's limits).
    pub nodes: Option<u64>,
    /// The share of the user's time left that the phase may use (`None`: all of it).
    pub time_share: Option<f64>,
}

/// Generated nodes of `auto`'s optimal phase with a pattern database on boards of at most
/// 16 cells, where it almost always answers (Korf's hardest 15-puzzles need a few million
/// with 6-6-3): a second or two.
const AUTO_OPTIMAL_PDB_NODES: u64 = 20_000_000;
/// The same on larger boards, where random instances are mostly out of its reach: about a
/// second before the bounded phases take over.
const AUTO_OPTIMAL_PDB_NODES_LARGE: u64 = 10_000_000;
/// Generated nodes of `auto`'s optimal phase with linear conflict (no table cheap enough).
const AUTO_OPTIMAL_NODES: u64 = 1_000_000;
/// Generated nodes of each bounded phase (a second or two at most).
const AUTO_BOUNDED_NODES: u64 = 500_000;
/// The weights `auto` tries with weighted A*, in turn.
const AUTO_WEIGHTS: [f64; 2] = [2.0, 3.0];
/// Boards over this many cells (10×10) skip weighted A* in `auto`: it seldom finishes
/// within its budget there, and the constructive solver is close to its quality.
const AUTO_BOUNDED_CELLS: usize = 100;

/// The plan for solving boards of `goal`'s shape towards `goal` with `options`, given the
/// tables at hand.
///
/// # Errors
/// A choice that cannot run, in one line: a weight below 1, a board too large for search,
/// a heuristic that cannot serve the board (`perfect` over 10 cells, a `pdb:` partition
/// that does not fit), or tables larger than `tables`' policy lets a plan build.
pub fn plan(goal: &Board, options: &SolveOptions, tables: &Tables) -> Result<Plan, SolveError> {
    if !(options.weight.is_finite() && options.weight >= 1.0) {
        return Err(SolveError::InvalidWeight(options.weight));
    }
    let shape = goal.shape();
    let cells = shape.cells();
    let constructive = || Phase {
        kind: PhaseKind::Constructive,
        algorithm: Algorithm::Constructive,
        heuristic: None,
        weight: None,
        optimal: false,
        nodes: None,
        time_share: None,
    };
    let puzzle = match Puzzle::new(goal) {
        Some(p) => p,
        None if matches!(options.algorithm, Algorithm::Auto | Algorithm::Constructive) => {
            return Ok(Plan::new(shape, vec![constructive()], Vec::new()))
        }
        None => {
            return Err(SolveError::TooLarge {
                cells,
                max: MAX_SEARCH_CELLS,
            })
        }
    };
    let phases = match options.algorithm {
        Algorithm::Constructive => vec![constructive()],
        Algorithm::Auto => auto_phases(&puzzle, options, tables)?,
        algorithm => {
            let heuristic = match algorithm {
                Algorithm::Bfs => None,
                _ => Some(heuristic::chosen_heuristic(&puzzle, options, tables)?),
            };
            vec![Phase {
                kind: PhaseKind::Search,
                algorithm,
                optimal: proves_optimal(algorithm, heuristic.as_ref(), options.weight),
                weight: algorithm.is_weighted().then_some(options.weight),
                heuristic,
                nodes: None,
                time_share: None,
            }]
        }
    };
    let mut needs = Vec::new();
    for phase in &phases {
        if let Some(h) = &phase.heuristic {
            needs::table_needs(h, &puzzle, tables, &mut needs)?;
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
        // A plan is optimal when its first phase is and no later phase can answer: a
        // cascade's later phases are not optimal.
        let optimal = phases.iter().all(|p| p.optimal);
        Plan {
            shape,
            phases,
            tables,
            optimal,
        }
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
}

impl fmt::Display for Plan {
    /// The plan in a few lines, as `npuzzle solve --explain` prints it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let verdict = if self.optimal {
            "the answer is guaranteed optimal."
        } else if self.phases[0].optimal {
            "optimal when phase 1 answers within its budget (the output names the phase that answered)."
        } else {
            "the answer is not guaranteed optimal."
        };
        writeln!(f, "Plan for a {} board: {verdict}", self.shape)?;
        for (i, p) in self.phases.iter().enumerate() {
            write!(f, "  {}. {}", i + 1, p)?;
            writeln!(f)?;
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

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            PhaseKind::Search => "search",
            PhaseKind::Optimal => "optimal search",
            PhaseKind::Bounded => "bounded search",
            PhaseKind::Constructive => "constructive",
        };
        write!(f, "{what}: {}", self.algorithm)?;
        if let Some(h) = &self.heuristic {
            write!(f, " with {h}")?;
        }
        if let Some(w) = self.weight {
            write!(f, ", W = {w}")?;
        }
        if self.optimal {
            f.write_str(" (optimal)")?;
        } else if self.kind == PhaseKind::Bounded {
            if let Some(w) = self.weight {
                write!(f, " (at most {w} × optimal)")?;
            }
        } else {
            f.write_str(" (not optimal)")?;
        }
        match (self.nodes, self.time_share) {
            (Some(n), Some(s)) => write!(
                f,
                ", up to {n} nodes and {:.0} % of the time left",
                s * 100.0
            ),
            (Some(n), None) => write!(f, ", up to {n} nodes"),
            (None, Some(s)) => write!(f, ", up to {:.0} % of the time left", s * 100.0),
            (None, None) => Ok(()),
        }
    }
}

/// `auto`'s phases on a board of at most 255 cells (see the module docs).
fn auto_phases(
    puzzle: &Puzzle,
    options: &SolveOptions,
    tables: &Tables,
) -> Result<Vec<Phase>, SolveError> {
    let cells = puzzle.cells();
    let heuristic = heuristic::chosen_heuristic(puzzle, options, tables)?;
    let optimal = heuristic.admissible();
    if cells <= MAX_PERFECT_CELLS && heuristic == HeuristicSpec::Perfect {
        // The exact table walks straight down an optimal path: nothing to budget.
        return Ok(vec![Phase {
            kind: PhaseKind::Optimal,
            algorithm: Algorithm::IdaStar,
            heuristic: Some(heuristic),
            weight: None,
            optimal,
            nodes: None,
            time_share: None,
        }]);
    }
    let budget = match heuristic {
        HeuristicSpec::Pdb(_) if cells <= 16 => AUTO_OPTIMAL_PDB_NODES,
        HeuristicSpec::Pdb(_) => AUTO_OPTIMAL_PDB_NODES_LARGE,
        _ => AUTO_OPTIMAL_NODES,
    };
    let mut phases = vec![Phase {
        kind: PhaseKind::Optimal,
        algorithm: Algorithm::IdaStar,
        heuristic: Some(heuristic),
        weight: None,
        optimal,
        nodes: Some(budget),
        // Boards up to 4x4 are expected to answer here: most of the time goes to it.
        time_share: Some(if cells <= 16 { 0.6 } else { 0.1 }),
    }];
    if cells <= AUTO_BOUNDED_CELLS {
        // Weighted A* evaluates every state from scratch; linear conflict does that fast.
        let bounded = options
            .heuristic
            .clone()
            .unwrap_or(HeuristicSpec::LinearConflict);
        for w in AUTO_WEIGHTS {
            phases.push(Phase {
                kind: PhaseKind::Bounded,
                algorithm: Algorithm::WeightedAStar,
                optimal: false,
                weight: Some(w),
                heuristic: Some(bounded.clone()),
                nodes: Some(AUTO_BOUNDED_NODES),
                time_share: Some(0.33),
            });
        }
    }
    phases.push(Phase {
        kind: PhaseKind::Constructive,
        algorithm: Algorithm::Constructive,
        heuristic: None,
        weight: None,
        optimal: false,
        nodes: None,
        time_share: None,
    });
    Ok(phases)
}

/// Whether a path found by `algorithm` with `heuristic` is proven shortest.
fn proves_optimal(algorithm: Algorithm, heuristic: Option<&HeuristicSpec>, weight: f64) -> bool {
    let admissible = heuristic.is_none_or(HeuristicSpec::admissible);
    match algorithm {
        Algorithm::Bfs => true,
        Algorithm::AStar | Algorithm::IdaStar | Algorithm::Auto => admissible,
        Algorithm::WeightedAStar => admissible && weight <= 1.0,
        Algorithm::WeightedIdaStar => admissible && effective_weight(weight) <= 1.0,
        Algorithm::Greedy | Algorithm::Constructive => false,
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
mod heuristic;
mod needs;

pub use choices::{algorithm_label, choices, heuristic_label, Choice, Choices, HEURISTICS};
pub use heuristic::{at_hand, resolve, strongest, AUTO_BUILD_ENTRIES};
pub use needs::{TableNeed, TableSourceKind};

#[cfg(test)]
mod tests;
