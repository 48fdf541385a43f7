//! The choices that can run for a board and goal, for menus (the page, `interactive`).

use serde::Serialize;

use super::{plan, SolveOptions};
use crate::algorithm::Algorithm;
use crate::board::Board;
use crate::heuristic::{HeuristicSpec, Tables};

/// One entry of a menu: its id (as the command line and the API spell it), a label for
/// people, and whether it can run here, or why not in one line.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    /// The name to send back (`idastar`, `linear-conflict`, `pdb`).
    pub id: String,
    /// A readable name.
    pub label: &'static str,
    /// Whether planning with it succeeds for this board and goal.
    pub available: bool,
    /// Why it cannot run, when it cannot.
    pub why: Option<String>,
    /// Whether its answer is guaranteed shortest (for heuristics: whether it is
    /// admissible).
    pub optimal: bool,
}

/// The menus for a board and goal.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choices {
    /// Every algorithm, with the strongest heuristic for it.
    pub algorithms: Vec<Choice>,
    /// Every named heuristic, with `algorithm` (IDA* when that takes no heuristic).
    pub heuristics: Vec<Choice>,
}

/// The heuristics a menu offers, by id.
pub const HEURISTICS: [&str; 6] = [
    "misplaced",
    "manhattan",
    "euclidean",
    "linear-conflict",
    "perfect",
    "pdb",
];

/// A readable name for an algorithm.
pub fn algorithm_label(a: Algorithm) -> &'static str {
    match a {
        Algorithm::Auto => "Auto (best for this board)",
        Algorithm::AStar => "A*",
        Algorithm::IdaStar => "IDA*",
        Algorithm::Bfs => "Breadth-first search",
        Algorithm::Greedy => "Greedy best-first",
        Algorithm::WeightedAStar => "Weighted A*",
        Algorithm::WeightedIdaStar => "Weighted IDA*",
        Algorithm::Constructive => "Row by row (constructive)",
        Algorithm::Beam => "Beam search",
    }
}

/// A readable name for a heuristic id of [`HEURISTICS`].
pub fn heuristic_label(id: &str) -> &'static str {
    match id {
        "misplaced" => "Misplaced tiles",
        "manhattan" => "Manhattan distance",
        "euclidean" => "Euclidean distance",
        "linear-conflict" => "Linear conflict",
        "perfect" => "Exact table",
        "pdb" => "Pattern database",
        _ => "Custom expression",
    }
}

/// What can run for boards towards `goal` with these tables; heuristics are tried with
/// `algorithm` (IDA* when it is `auto` or takes no heuristic).
pub fn choices(goal: &Board, algorithm: Algorithm, weight: f64, tables: &Tables) -> Choices {
    let try_plan = |options: SolveOptions| plan(goal, &options, tables);
    let algorithms = Algorithm::ALL
        .iter()
        .map(|&a| {
            let result = try_plan(SolveOptions {
                algorithm: a,
                heuristic: None,
                weight,
                optimal: false,
                ..SolveOptions::default()
            });
            Choice {
                id: a.name().to_string(),
                label: algorithm_label(a),
                available: result.is_ok(),
                optimal: result.as_ref().is_ok_and(|p| p.optimal),
                why: result.err().map(|e| e.to_string()),
            }
        })
        .collect();
    let with = match algorithm {
        Algorithm::Auto | Algorithm::Bfs | Algorithm::Constructive => Algorithm::IdaStar,
        a => a,
    };
    let heuristics = HEURISTICS
        .iter()
        .map(|&id| {
            let spec: HeuristicSpec = id.parse().expect("menu heuristics parse");
            let result = try_plan(SolveOptions {
                algorithm: with,
                heuristic: Some(spec.clone()),
                weight,
                optimal: false,
                ..SolveOptions::default()
            });
            Choice {
                id: id.to_string(),
                label: heuristic_label(id),
                available: result.is_ok(),
                why: result.err().map(|e| e.to_string()),
                optimal: spec.admissible(),
            }
        })
        .collect();
    Choices {
        algorithms,
        heuristics,
    }
}
