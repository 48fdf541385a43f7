//! `npuzzle compare`'s arguments and limits.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use npuzzle::{GoalSpec, Shape, DEFAULT_WEIGHT};

use crate::options::{LimitArgs, WidthArg};

/// Compare algorithms and heuristics on the same instances: a table, the data, a chart.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Instances from a file (`-` for standard input), in any layout `batch` reads. Lengths
    /// written after the tiles are taken as the optimal reference.
    #[arg(long, short = 'f', value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Instead of a file: K random solvable boards, uniform over all of them (needs --size).
    #[arg(long, value_name = "K", allow_negative_numbers = true)]
    pub random: Option<usize>,

    /// Instead of a file: random walks from the goal of these lengths, e.g. 10,20,30, with
    /// --per-bin boards each (needs --size). Results are also tabled per walk length.
    #[arg(long, value_name = "D1,D2,...", value_delimiter = ',')]
    pub walks: Option<Vec<usize>>,

    /// Boards per walk length with --walks.
    #[arg(
        long,
        value_name = "K",
        default_value_t = 10,
        allow_negative_numbers = true
    )]
    pub per_bin: usize,

    /// Board shape for --random and --walks, RxC (or the file's shape when not square).
    #[arg(long, short = 's')]
    pub size: Option<Shape>,

    /// Seed for --random and --walks; the same seed gives the same instances and the same
    /// node counts. Default: drawn from the clock and printed.
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<u64>,

    /// The goal: standard, blank-first, spiral, or an explicit board.
    #[arg(long, short = 'g', default_value = "standard")]
    pub goal: GoalSpec,

    /// Heuristics to compare, comma-separated (repeatable), each with every --algorithm.
    /// Default (with no --config): misplaced,manhattan,linear-conflict.
    #[arg(long, short = 'H', value_name = "H1,H2,...")]
    pub heuristic: Vec<String>,

    /// Algorithms to compare, comma-separated (repeatable), each with every --heuristic.
    /// Default: astar.
    #[arg(long, short = 'a', value_name = "A1,A2,...")]
    pub algorithm: Vec<String>,

    /// One more configuration as ALGORITHM:HEURISTIC (e.g. idastar:manhattan, greedy:misplaced,
    /// bfs); repeatable. Alone, only these are compared.
    #[arg(long = "config", short = 'c', value_name = "ALG:HEUR")]
    pub configs: Vec<String>,

    /// Where optimal lengths come from when the input does not give them: an optimal
    /// ALG:HEUR run on each instance, `auto` (a proof, as `solve --optimal` makes one: IDA*
    /// with the strongest admissible tables for the shape), or `none` (no optimality check).
    #[arg(long, value_name = "ALG:HEUR|auto|none", default_value = "auto")]
    pub reference: String,

    /// W for weighted-astar.
    #[arg(long, short = 'w', default_value_t = DEFAULT_WEIGHT, allow_negative_numbers = true)]
    pub weight: f64,

    /// `--width` for the `beam` configurations.
    #[command(flatten)]
    pub beam: WidthArg,

    #[command(flatten)]
    pub limits: LimitArgs,

    /// Worker threads. Default: one per core.
    #[arg(long, short = 'j', value_name = "N", allow_negative_numbers = true)]
    pub jobs: Option<usize>,

    /// Output: a text table, CSV (one row per configuration and instance), or JSON (the
    /// summaries and every run).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,

    /// Also write an SVG chart: mean nodes expanded by optimal solution length, one line per
    /// configuration, log scale.
    #[arg(long, value_name = "FILE.svg")]
    pub chart: Option<PathBuf>,
}

/// How `compare` prints its results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Tables of summaries.
    Text,
    /// One row per configuration and instance.
    Csv,
    /// One document: instances, summaries and runs.
    Json,
}

/// The most configurations compared at once (the chart's legend must stay readable).
pub(super) const MAX_CONFIGS: usize = 20;
/// The most instances generated or read.
pub(super) const MAX_INSTANCES: usize = 100_000;
