//! What is compared: configurations (an algorithm with a heuristic) and the reference
//! that gives optimal lengths.

use anyhow::{bail, Context, Result};
use npuzzle::{Algorithm, HeuristicSpec};

use super::args::{CompareArgs, MAX_CONFIGS};
use crate::options::{HeuristicArg, SearchArgs};

/// An algorithm with a heuristic (`None`: npuzzle's default for the algorithm), or a
/// request for a proof of optimality, whose algorithm and heuristic the core chooses.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Config {
    pub(super) algorithm: Algorithm,
    pub(super) heuristic: Option<HeuristicSpec>,
    /// Ask the core for a proof (`solve --optimal`).
    pub(super) prove: bool,
}

impl Config {
    /// `ALG` or `ALG:HEUR`.
    pub(super) fn parse(text: &str) -> Result<Config> {
        let (alg, heur) = match text.split_once(':') {
            Some((a, h)) => (a, Some(h)),
            None => (text, None),
        };
        let algorithm: Algorithm = alg
            .parse()
            .with_context(|| format!("in configuration `{text}`"))?;
        let heuristic = match heur {
            Some(h) if algorithm != Algorithm::Bfs => HeuristicSpec::parse_choice(h)
                .with_context(|| format!("in configuration `{text}`"))?,
            _ => None,
        };
        Ok(Config {
            algorithm,
            heuristic,
            prove: false,
        })
    }

    pub(super) fn name(&self, weight: f64, width: i128) -> String {
        let alg = match self.algorithm {
            Algorithm::WeightedAStar => format!("weighted-astar(w={weight})"),
            Algorithm::Beam => format!("beam(width={width})"),
            a => a.name().to_string(),
        };
        match &self.heuristic {
            Some(h) => format!("{alg}:{h}"),
            None => alg,
        }
    }

    /// Whether it always returns shortest paths (the core's rule, with `weight` for the
    /// weighted algorithms).
    pub(super) fn optimal(&self, weight: f64) -> bool {
        self.prove || npuzzle::plan::proves_optimal(self.algorithm, self.heuristic.as_ref(), weight)
    }

    pub(super) fn search_args(&self, args: &CompareArgs) -> SearchArgs {
        SearchArgs {
            heuristic: Some(HeuristicArg(self.heuristic.clone())),
            algorithm: self.algorithm,
            weight: args.weight,
            beam: args.beam,
            optimal: self.prove,
            limits: args.limits,
        }
    }
}

/// Where optimal lengths come from.
#[derive(Debug, PartialEq)]
pub(super) enum Reference {
    None,
    Auto,
    Config(Config),
}

impl Reference {
    /// `none`, `auto` or an `ALG:HEUR` that proves optimality with `weight`.
    pub(super) fn parse(text: &str, weight: f64) -> Result<Reference> {
        Ok(match text.trim() {
            "none" => Reference::None,
            "auto" => Reference::Auto,
            t => {
                let c = Config::parse(t).context("in --reference")?;
                if !c.optimal(weight) {
                    bail!(
                        "--reference {t} does not guarantee shortest paths: use an optimal \
                         algorithm (astar, idastar, bfs) with an admissible heuristic"
                    );
                }
                Reference::Config(c)
            }
        })
    }

    /// The configuration that gives a board's optimal length.
    pub(super) fn config(&self) -> Option<Config> {
        match self {
            Reference::None => None,
            Reference::Config(c) => Some(c.clone()),
            // A proof, as `solve --optimal` asks for one: the core picks what runs.
            Reference::Auto => Some(Config {
                algorithm: Algorithm::Auto,
                heuristic: None,
                prove: true,
            }),
        }
    }
}

/// The configurations to compare, in the order given, without duplicates.
pub(super) fn configs(args: &CompareArgs) -> Result<Vec<(String, Config)>> {
    let heuristics = list_items(&args.heuristic, |h| {
        HeuristicSpec::parse_choice(h).map_err(anyhow::Error::from)
    })?;
    let algorithms = list_items(&args.algorithm, |a| {
        a.parse::<Algorithm>().map_err(anyhow::Error::from)
    })?;
    let mut list = Vec::new();
    let product = !heuristics.is_empty() || !algorithms.is_empty() || args.configs.is_empty();
    if product {
        let algorithms = if algorithms.is_empty() {
            vec![Algorithm::AStar]
        } else {
            algorithms
        };
        let heuristics: Vec<Option<HeuristicSpec>> = match heuristics.is_empty() {
            false => heuristics,
            true if args.algorithm.is_empty() => ["misplaced", "manhattan", "linear-conflict"]
                .iter()
                .map(|h| Some(h.parse().expect("a known heuristic")))
                .collect(),
            true => vec![None],
        };
        for &algorithm in &algorithms {
            for h in &heuristics {
                let heuristic = if algorithm == Algorithm::Bfs {
                    None
                } else {
                    h.clone()
                };
                list.push(Config {
                    algorithm,
                    heuristic,
                    prove: false,
                });
            }
        }
    }
    for c in &args.configs {
        list.push(Config::parse(c)?);
    }
    let mut unique: Vec<Config> = Vec::new();
    for c in list {
        if !unique.contains(&c) {
            unique.push(c);
        }
    }
    if unique.len() > MAX_CONFIGS {
        bail!(
            "{} configurations to compare; at most {MAX_CONFIGS} fit one table and chart",
            unique.len()
        );
    }
    Ok(unique
        .into_iter()
        .map(|c| (c.name(args.weight, args.beam.width), c))
        .collect())
}

/// Splits a list at commas outside parentheses, so `max(a,b),manhattan` is two items.
/// The items of every value of a repeatable list flag (`-H a,b -H c`), each read by
/// `parse`. A value with no item at all (`-H ""`) goes to `parse` as it is, which refuses
/// it as `solve -H ""` does: it was read as no flag, and the defaults ran.
fn list_items<T>(values: &[String], parse: impl Fn(&str) -> Result<T>) -> Result<Vec<T>> {
    values
        .iter()
        .flat_map(|value| {
            let items = split_top_level(value);
            if items.is_empty() {
                vec![value.clone()]
            } else {
                items
            }
        })
        .map(|item| parse(&item))
        .collect()
}

pub(super) fn split_top_level(list: &str) -> Vec<String> {
    let mut items = Vec::new();
    let (mut depth, mut current) = (0i32, String::new());
    for ch in list.chars() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                items.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(ch);
    }
    items.push(current);
    items
        .into_iter()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}
