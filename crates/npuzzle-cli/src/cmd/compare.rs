//! `npuzzle compare`: several algorithms and heuristics on the same instances, side by side.
//!
//! Every configuration solves every instance (on all cores); the table gives, per
//! configuration, how many it solved, the mean and max of length, nodes expanded and
//! generated, peak open list and time, and the effective branching factor. Lengths are
//! checked against an optimal reference (the file's expected lengths, or an optimal
//! configuration run on each instance) and any configuration that returns longer paths is
//! flagged. The same seed gives the same instances and the same node counts.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use npuzzle::search::Control;
use npuzzle::{
    generate, solvability, solve, Algorithm, Board, GoalSpec, HeuristicSpec, Limits, Shape,
    SolveError, Tables,
};
use serde::Serialize;

use crate::branching::effective_branching_factor;
use crate::chart::{Chart, Series};
use crate::exit::Outcome;
use crate::instances::{located, read_entries};
use crate::options::SearchArgs;
use crate::runner;

/// Compare algorithms and heuristics on the same instances: a table, the data, a chart.
#[derive(Args, Debug)]
pub struct CompareArgs {
    /// Instances from a file (`-` for standard input), in any layout `batch` reads. Lengths
    /// written after the tiles are taken as the optimal reference.
    #[arg(long, short = 'f', value_name = "FILE")]
    pub file: Option<PathBuf>,

    /// Instead of a file: K random solvable boards, uniform over all of them (needs --size).
    #[arg(long, value_name = "K")]
    pub random: Option<usize>,

    /// Instead of a file: random walks from the goal of these lengths, e.g. 10,20,30, with
    /// --per-bin boards each (needs --size). Results are also tabled per walk length.
    #[arg(long, value_name = "D1,D2,...", value_delimiter = ',')]
    pub walks: Option<Vec<usize>>,

    /// Boards per walk length with --walks.
    #[arg(long, value_name = "K", default_value_t = 10)]
    pub per_bin: usize,

    /// Board shape for --random and --walks, RxC (or the file's shape when not square).
    #[arg(long, short = 's')]
    pub size: Option<Shape>,

    /// Seed for --random and --walks; the same seed gives the same instances and the same
    /// node counts. Default: drawn from the clock and printed.
    #[arg(long)]
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
    /// ALG:HEUR run on each instance, `auto` (IDA* with the exact table on boards of up to 10
    /// cells, linear conflict above), or `none` (no optimality check).
    #[arg(long, value_name = "ALG:HEUR|auto|none", default_value = "auto")]
    pub reference: String,

    /// W for weighted-astar.
    #[arg(long, short = 'w', default_value_t = 2.0)]
    pub weight: f64,

    /// Stop each search after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,

    /// Stop each search after generating this many nodes.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,

    /// Stop each search before its tables outgrow this many megabytes (per search: with N
    /// jobs, up to N searches run at once).
    #[arg(long, value_name = "MB", default_value_t = 4096)]
    pub memory_limit: u64,

    /// Worker threads. Default: one per core.
    #[arg(long, short = 'j', value_name = "N")]
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
const MAX_CONFIGS: usize = 20;
/// The most instances generated or read.
const MAX_INSTANCES: usize = 100_000;

/// An algorithm with a heuristic (`None`: npuzzle's default for the algorithm).
#[derive(Clone, Debug, PartialEq)]
struct Config {
    algorithm: Algorithm,
    heuristic: Option<HeuristicSpec>,
}

impl Config {
    /// `ALG` or `ALG:HEUR`.
    fn parse(text: &str) -> Result<Config> {
        let (alg, heur) = match text.split_once(':') {
            Some((a, h)) => (a, Some(h)),
            None => (text, None),
        };
        let algorithm: Algorithm = alg
            .parse()
            .with_context(|| format!("in configuration `{text}`"))?;
        let heuristic = match heur {
            Some(h) if algorithm != Algorithm::Bfs => Some(
                h.parse::<HeuristicSpec>()
                    .with_context(|| format!("in configuration `{text}`"))?,
            ),
            _ => None,
        };
        Ok(Config {
            algorithm,
            heuristic,
        })
    }

    fn name(&self, weight: f64) -> String {
        let alg = match self.algorithm {
            Algorithm::WeightedAStar => format!("weighted-astar(w={weight})"),
            a => a.name().to_string(),
        };
        match &self.heuristic {
            Some(h) => format!("{alg}:{h}"),
            None => alg,
        }
    }

    /// Whether it always returns shortest paths.
    fn optimal(&self) -> bool {
        matches!(
            self.algorithm,
            Algorithm::Auto | Algorithm::AStar | Algorithm::IdaStar | Algorithm::Bfs
        ) && self
            .heuristic
            .as_ref()
            .map_or(true, HeuristicSpec::admissible)
    }

    fn search_args(&self, args: &CompareArgs) -> SearchArgs {
        SearchArgs {
            heuristic: self.heuristic.clone(),
            algorithm: self.algorithm,
            weight: args.weight,
            time_limit: args.time_limit,
            max_nodes: args.max_nodes,
            memory_limit: args.memory_limit,
        }
    }
}

/// Where optimal lengths come from.
#[derive(Debug, PartialEq)]
enum Reference {
    None,
    Auto,
    Config(Config),
}

impl Reference {
    fn parse(text: &str) -> Result<Reference> {
        Ok(match text.trim() {
            "none" => Reference::None,
            "auto" => Reference::Auto,
            t => {
                let c = Config::parse(t).context("in --reference")?;
                if !c.optimal() {
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
    fn config(&self) -> Option<Config> {
        match self {
            Reference::None => None,
            Reference::Config(c) => Some(c.clone()),
            // IDA* with the heuristic the planner gives it: the strongest cheap one.
            Reference::Auto => Some(Config {
                algorithm: Algorithm::IdaStar,
                heuristic: None,
            }),
        }
    }
}

/// One board to solve.
#[derive(Serialize)]
struct Instance {
    index: usize,
    /// `line N`, `random #K` or `walk D #K`.
    label: String,
    /// The walk length of its bin, with --walks.
    bin: Option<usize>,
    size: String,
    start: Vec<u32>,
    /// The optimal length written in the file.
    expected: Option<usize>,
    /// The optimal length used to judge the configurations.
    reference_length: Option<usize>,
    #[serde(skip)]
    board: Board,
    #[serde(skip)]
    goal: Board,
}

/// One configuration on one instance.
#[derive(Clone, Debug, Default, Serialize)]
struct Run {
    length: Option<usize>,
    /// Whether the solver guarantees the path is shortest.
    optimal: bool,
    expanded: u64,
    generated: u64,
    max_open: u64,
    seconds: f64,
    /// `N + 1 = 1 + b + … + b^d` for this run.
    ebf: Option<f64>,
    stopped_by: Option<&'static str>,
    error: Option<String>,
}

/// The runs of one configuration over a set of instances, summed up.
#[derive(Debug, Default, Serialize)]
struct Summary {
    instances: usize,
    solved: usize,
    length_mean: Option<f64>,
    length_max: Option<usize>,
    expanded_mean: Option<f64>,
    expanded_max: Option<u64>,
    generated_mean: Option<f64>,
    generated_max: Option<u64>,
    max_open_mean: Option<f64>,
    max_open_max: Option<u64>,
    seconds_mean: Option<f64>,
    seconds_max: Option<f64>,
    /// Mean over solved instances of each run's effective branching factor.
    ebf_mean: Option<f64>,
    /// Solved instances with a known optimal length.
    checked: usize,
    /// ... where this configuration's path was longer.
    longer: usize,
    /// ... where it was shorter: the reference is wrong.
    shorter: usize,
    stopped: usize,
    errors: usize,
}

impl Summary {
    fn of<'a>(runs: impl Iterator<Item = (&'a Run, Option<usize>)>) -> Summary {
        let mut s = Summary::default();
        let (mut len_sum, mut exp_sum, mut gen_sum, mut open_sum, mut sec_sum) =
            (0.0, 0.0, 0.0, 0.0, 0.0);
        let (mut ebf_sum, mut ebf_n) = (0.0, 0usize);
        for (run, reference) in runs {
            s.instances += 1;
            if run.error.is_some() {
                s.errors += 1;
                continue;
            }
            let Some(len) = run.length else {
                s.stopped += 1;
                continue;
            };
            s.solved += 1;
            len_sum += len as f64;
            exp_sum += run.expanded as f64;
            gen_sum += run.generated as f64;
            open_sum += run.max_open as f64;
            sec_sum += run.seconds;
            s.length_max = s.length_max.max(Some(len));
            s.expanded_max = s.expanded_max.max(Some(run.expanded));
            s.generated_max = s.generated_max.max(Some(run.generated));
            s.max_open_max = s.max_open_max.max(Some(run.max_open));
            s.seconds_max = Some(s.seconds_max.map_or(run.seconds, |m| m.max(run.seconds)));
            if let Some(b) = run.ebf {
                ebf_sum += b;
                ebf_n += 1;
            }
            if let Some(r) = reference {
                s.checked += 1;
                s.longer += usize::from(len > r);
                s.shorter += usize::from(len < r);
            }
        }
        if s.solved > 0 {
            let n = s.solved as f64;
            s.length_mean = Some(len_sum / n);
            s.expanded_mean = Some(exp_sum / n);
            s.generated_mean = Some(gen_sum / n);
            s.max_open_mean = Some(open_sum / n);
            s.seconds_mean = Some(sec_sum / n);
        }
        if ebf_n > 0 {
            s.ebf_mean = Some(ebf_sum / ebf_n as f64);
        }
        s
    }

    /// The optimality verdict for the table.
    fn optimal_text(&self) -> String {
        if self.shorter > 0 {
            format!("REFERENCE WRONG on {}", self.shorter)
        } else if self.longer > 0 {
            format!("NO: longer on {}/{}", self.longer, self.checked)
        } else if self.checked == 0 {
            "?".to_string()
        } else if self.checked < self.solved {
            format!("yes ({} checked)", self.checked)
        } else {
            "yes".to_string()
        }
    }
}

/// Everything a comparison produced.
struct Comparison {
    source: String,
    seed: Option<u64>,
    instances: Vec<Instance>,
    configs: Vec<(String, Config)>,
    /// `runs[config][instance]`.
    runs: Vec<Vec<Run>>,
    reference: String,
}

pub fn run(args: CompareArgs, tables: &Tables) -> Result<Outcome> {
    let configs = configs(&args)?;
    let reference = Reference::parse(&args.reference)?;
    for (_, c) in &configs {
        c.search_args(&args).limits()?; // bad limits or weight before any work
    }
    let jobs = runner::jobs(args.jobs)?;
    if let Some(path) = &args.chart {
        // Fail before the work, not after it.
        std::fs::File::create(path)
            .with_context(|| format!("cannot write the chart to {}", path.display()))?;
    }
    let (mut instances, source, seed, mut worst) = instances(&args)?;
    if instances.is_empty() {
        bail!("no instances to compare");
    }

    // The configurations to run: the compared ones, then any reference not among them.
    let mut slots: Vec<Config> = configs.iter().map(|(_, c)| c.clone()).collect();
    let mut reference_slot: Vec<Option<usize>> = Vec::with_capacity(instances.len());
    let mut tasks: Vec<(usize, usize)> = Vec::new();
    for (i, inst) in instances.iter().enumerate() {
        let slot = match (inst.expected, reference.config()) {
            (None, Some(r)) => Some(slots.iter().position(|c| *c == r).unwrap_or_else(|| {
                slots.push(r);
                slots.len() - 1
            })),
            _ => None,
        };
        reference_slot.push(slot);
        if let Some(s) = slot.filter(|&s| s >= configs.len()) {
            tasks.push((s, i));
        }
    }
    for c in 0..configs.len() {
        tasks.extend((0..instances.len()).map(|i| (c, i)));
    }
    tasks.sort_unstable_by_key(|&(c, i)| (i, c));

    let searches: Vec<SearchArgs> = slots.iter().map(|c| c.search_args(&args)).collect();
    let limits: Vec<Limits> = searches
        .iter()
        .map(SearchArgs::limits)
        .collect::<Result<_>>()?;
    let mut runs = vec![vec![Run::default(); instances.len()]; slots.len()];
    runner::run_in_order(
        &tasks,
        jobs,
        |_, &(c, i), cancel| run_one(&instances[i], &searches[c], tables, limits[c], cancel),
        |t, run| {
            let (c, i) = tasks[t];
            runs[c][i] = run;
            Ok(())
        },
    )?;

    // Optimal lengths: the file's, else the reference run's.
    for (i, inst) in instances.iter_mut().enumerate() {
        inst.reference_length = inst.expected.or_else(|| {
            let run = &runs[reference_slot[i]?][i];
            run.optimal.then_some(run.length).flatten()
        });
    }
    // A reference that could not run leaves its instances unchecked: say so.
    for (slot, config) in slots.iter().enumerate().skip(configs.len()) {
        let failed: Vec<&Run> = runs[slot]
            .iter()
            .zip(&reference_slot)
            .filter(|(r, s)| **s == Some(slot) && (r.error.is_some() || r.length.is_none()))
            .map(|(r, _)| r)
            .collect();
        if failed.iter().any(|r| r.error.is_some()) {
            worst = worst.worst(Outcome::Invalid);
        } else if !failed.is_empty() {
            worst = worst.worst(Outcome::Limit);
        }
        let first = failed.iter().find(|r| r.error.is_some()).or(failed.first());
        if let Some(first) = first {
            let why = first.error.clone().unwrap_or_else(|| {
                format!("stopped by the {} limit", first.stopped_by.unwrap_or("a"))
            });
            let level = if first.error.is_some() {
                "error"
            } else {
                "warning"
            };
            eprintln!(
                "{level}: the reference {} gave no optimal length on {} instance(s), left \
                 unchecked: {why}",
                config.name(args.weight),
                failed.len()
            );
        }
    }
    runs.truncate(configs.len());
    let reference_name = match &reference {
        Reference::None => "none".to_string(),
        Reference::Auto => "auto (idastar with the planner's strongest heuristic)".to_string(),
        Reference::Config(c) => c.name(args.weight),
    };
    let cmp = Comparison {
        source,
        seed,
        instances,
        configs,
        runs,
        reference: reference_name,
    };

    for (c, (name, _)) in cmp.configs.iter().enumerate() {
        let s = cmp.summary(c, |_| true);
        if s.shorter > 0 {
            worst = worst.worst(Outcome::Invalid);
        }
        if s.errors > 0 {
            worst = worst.worst(Outcome::Invalid);
            let first = cmp.runs[c].iter().find_map(|r| r.error.clone());
            eprintln!(
                "error: {name} failed on {} instance(s): {}",
                s.errors,
                first.unwrap_or_default()
            );
        }
        if s.stopped > 0 {
            worst = worst.worst(Outcome::Limit);
        }
    }

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = match args.format {
        Format::Text => write!(out, "{}", cmp.text(&args)),
        Format::Json => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&cmp.json(&args)).expect("serialises")
        ),
        Format::Csv => out.write_all(&cmp.csv()?),
    };
    if let Err(e) = written.and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(e).context("cannot write the output");
        }
    }
    if let Some(path) = &args.chart {
        std::fs::write(path, cmp.chart().to_svg())
            .with_context(|| format!("cannot write the chart to {}", path.display()))?;
        if args.format == Format::Text {
            println!("Chart written to {}.", path.display());
        }
    }
    Ok(worst)
}

/// Solves one instance with one configuration.
fn run_one(
    inst: &Instance,
    search: &SearchArgs,
    tables: &Tables,
    limits: Limits,
    cancel: &AtomicBool,
) -> Run {
    let control = Control {
        limits,
        cancel: Some(cancel),
        progress: None,
        trace: 0,
    };
    match solve(
        &inst.board,
        &inst.goal,
        &search.solve_options(),
        tables,
        control,
    ) {
        Ok(s) => Run {
            length: s.length(),
            optimal: s.optimal,
            expanded: s.stats.expanded,
            generated: s.stats.generated,
            max_open: s.stats.max_open,
            seconds: s.stats.seconds,
            ebf: s
                .length()
                .and_then(|d| effective_branching_factor(s.stats.generated, d)),
            stopped_by: s.stopped_by.map(|w| w.as_str()),
            error: None,
        },
        Err(e) => Run {
            error: Some(located_label(&inst.label, &e)),
            ..Run::default()
        },
    }
}

fn located_label(label: &str, e: &SolveError) -> String {
    format!("{label}: {e}")
}

/// The configurations to compare, in the order given, without duplicates.
fn configs(args: &CompareArgs) -> Result<Vec<(String, Config)>> {
    let heuristics: Vec<HeuristicSpec> = args
        .heuristic
        .iter()
        .flat_map(|l| split_top_level(l))
        .map(|h| h.parse::<HeuristicSpec>().map_err(anyhow::Error::from))
        .collect::<Result<_>>()?;
    let algorithms: Vec<Algorithm> = args
        .algorithm
        .iter()
        .flat_map(|l| split_top_level(l))
        .map(|a| a.parse::<Algorithm>().map_err(anyhow::Error::from))
        .collect::<Result<_>>()?;
    let mut list = Vec::new();
    let product = !heuristics.is_empty() || !algorithms.is_empty() || args.configs.is_empty();
    if product {
        let algorithms = if algorithms.is_empty() {
            vec![Algorithm::AStar]
        } else {
            algorithms
        };
        let heuristics: Vec<Option<HeuristicSpec>> = match heuristics.is_empty() {
            false => heuristics.into_iter().map(Some).collect(),
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
        .map(|c| (c.name(args.weight), c))
        .collect())
}

/// Splits a list at commas outside parentheses, so `max(a,b),manhattan` is two items.
fn split_top_level(list: &str) -> Vec<String> {
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

/// The instances, a description of where they came from, the seed used, and the outcome of
/// reading them (invalid or unsolvable lines are reported and left out).
fn instances(args: &CompareArgs) -> Result<(Vec<Instance>, String, Option<u64>, Outcome)> {
    let sources = [
        args.file.is_some(),
        args.random.is_some(),
        args.walks.is_some(),
    ];
    match sources.iter().filter(|&&s| s).count() {
        0 => bail!("no instances: give --file FILE, --random K or --walks D1,D2,..."),
        1 => {}
        _ => bail!("give only one of --file, --random and --walks"),
    }
    let mut worst = Outcome::Success;
    let mut list = Vec::new();
    let mut push = |label: String, bin, board: Board, goal: Board, expected| {
        list.push(Instance {
            index: list.len(),
            label,
            bin,
            size: board.shape().to_string(),
            start: board.tiles().to_vec(),
            expected,
            reference_length: None,
            board,
            goal,
        })
    };
    if let Some(path) = &args.file {
        let entries = read_entries(path, args.size)?;
        if entries.len() > MAX_INSTANCES {
            bail!(
                "{} boards; compare takes at most {MAX_INSTANCES}",
                entries.len()
            );
        }
        for e in entries {
            let board = match e.board {
                Ok(b) => b,
                Err(m) => {
                    eprintln!("error: {} (skipped)", located(e.line, &m));
                    worst = worst.worst(Outcome::Invalid);
                    continue;
                }
            };
            let goal = match args.goal.board(board.shape()) {
                Ok(g) => g,
                Err(m) => {
                    eprintln!("error: {} (skipped)", located(e.line, &m.to_string()));
                    worst = worst.worst(Outcome::Invalid);
                    continue;
                }
            };
            let verdict = solvability::check(&board, &goal)?;
            if !verdict.solvable {
                let claim = match e.expected {
                    Some(x) => {
                        worst = worst.worst(Outcome::Invalid);
                        format!(", though the file says {x} moves")
                    }
                    None => String::new(),
                };
                eprintln!("line {}: unsolvable{claim} (skipped)", e.line);
                worst = worst.worst(Outcome::Unsolvable);
                continue;
            }
            push(format!("line {}", e.line), None, board, goal, e.expected);
        }
        return Ok((list, format!("{}", path.display()), None, worst));
    }

    let Some(size) = args.size else {
        bail!("--random and --walks need --size RxC");
    };
    let goal = args.goal.board(size)?;
    let seed = crate::options::seed_or_clock(args.seed);
    let mut rng = generate::rng(seed);
    if let Some(k) = args.random {
        if k == 0 || k > MAX_INSTANCES {
            bail!("--random must be between 1 and {MAX_INSTANCES}, got {k}");
        }
        for j in 0..k {
            let board = generate::random_solvable(&goal, &mut rng);
            push(
                format!("random #{}", j + 1),
                None,
                board,
                goal.clone(),
                None,
            );
        }
        let source = format!("{k} random {size} boards, seed {seed}");
        return Ok((list, source, Some(seed), worst));
    }
    let depths = args.walks.clone().unwrap_or_default();
    if depths.is_empty() {
        bail!("--walks needs at least one length");
    }
    if args.per_bin == 0 || args.per_bin.saturating_mul(depths.len()) > MAX_INSTANCES {
        bail!(
            "--per-bin must be at least 1 and give at most {MAX_INSTANCES} boards, got {}",
            args.per_bin
        );
    }
    if let Some(&d) = depths.iter().find(|&&d| d > 1_000_000) {
        bail!("walk lengths must be at most 1000000, got {d}");
    }
    for &d in &depths {
        for j in 0..args.per_bin {
            let board = generate::random_walk(&goal, d, &mut rng);
            push(
                format!("walk {d} #{}", j + 1),
                Some(d),
                board,
                goal.clone(),
                None,
            );
        }
    }
    let lengths: Vec<String> = depths.iter().map(usize::to_string).collect();
    let source = format!(
        "random walks of {} moves on {size}, {} per length, seed {seed}",
        lengths.join(", "),
        args.per_bin
    );
    Ok((list, source, Some(seed), worst))
}

impl Comparison {
    /// The summary of configuration `c` over the instances `keep` selects.
    fn summary(&self, c: usize, keep: impl Fn(&Instance) -> bool) -> Summary {
        Summary::of(
            self.instances
                .iter()
                .filter(|i| keep(i))
                .map(|i| (&self.runs[c][i.index], i.reference_length)),
        )
    }

    /// The walk lengths, in the order given.
    fn bins(&self) -> Vec<usize> {
        let mut bins: Vec<usize> = Vec::new();
        for b in self.instances.iter().filter_map(|i| i.bin) {
            if !bins.contains(&b) {
                bins.push(b);
            }
        }
        bins
    }

    fn text(&self, args: &CompareArgs) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} instances ({}), goal {}; optimal lengths: {}.",
            self.instances.len(),
            self.source,
            args.goal.name(),
            if self.instances.iter().any(|i| i.expected.is_some()) {
                "from the file".to_string()
            } else {
                self.reference.clone()
            }
        );
        let _ = writeln!(out, "\n{}", self.table(|_| true));
        for bin in self.bins() {
            let _ = writeln!(out, "Random walks of {bin} moves:");
            let _ = writeln!(out, "{}", self.table(|i| i.bin == Some(bin)));
        }
        let notes = self.notes();
        if !notes.is_empty() {
            let _ = writeln!(out, "{notes}");
        }
        let _ = writeln!(
            out,
            "Means are over solved instances; b* solves N + 1 = 1 + b + ... + b^d (N \
             generated, d the length), averaged over instances. Times are measured with other \
             searches running on the other cores."
        );
        out
    }

    /// One row per configuration.
    fn table(&self, keep: impl Fn(&Instance) -> bool + Copy) -> String {
        let mut rows: Vec<Vec<String>> = vec![
            [
                "",
                "",
                "length",
                "",
                "expanded",
                "",
                "generated",
                "",
                "peak open",
                "",
                "time ms",
                "",
                "",
                "",
            ]
            .map(String::from)
            .to_vec(),
            [
                "configuration",
                "solved",
                "mean",
                "max",
                "mean",
                "max",
                "mean",
                "max",
                "mean",
                "max",
                "mean",
                "max",
                "b*",
                "optimal",
            ]
            .map(String::from)
            .to_vec(),
        ];
        for (c, (name, _)) in self.configs.iter().enumerate() {
            let s = self.summary(c, keep);
            let mean =
                |v: Option<f64>, digits: usize| v.map_or("-".into(), |v| format!("{v:.digits$}"));
            let max = |v: Option<u64>| v.map_or("-".into(), |v| v.to_string());
            rows.push(vec![
                name.clone(),
                format!("{}/{}", s.solved, s.instances),
                mean(s.length_mean, 2),
                max(s.length_max.map(|v| v as u64)),
                mean(s.expanded_mean, 1),
                max(s.expanded_max),
                mean(s.generated_mean, 1),
                max(s.generated_max),
                mean(s.max_open_mean, 1),
                max(s.max_open_max),
                mean(s.seconds_mean.map(|v| v * 1e3), 3),
                mean(s.seconds_max.map(|v| v * 1e3), 3),
                mean(s.ebf_mean, 3),
                s.optimal_text(),
            ]);
        }
        render_table(&rows)
    }

    /// Sentences about non-optimal paths, wrong references, limits and errors.
    fn notes(&self) -> String {
        let mut out = String::new();
        for (c, (name, config)) in self.configs.iter().enumerate() {
            let s = self.summary(c, |_| true);
            let first = |pred: &dyn Fn(usize, usize) -> bool| {
                self.instances.iter().find_map(|i| {
                    let len = self.runs[c][i.index].length?;
                    let r = i.reference_length?;
                    pred(len, r).then(|| format!("{}: {len} moves, optimal {r}", i.label))
                })
            };
            if s.longer > 0 {
                let claim = if config.optimal() {
                    " although it should be optimal: a bug"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "{name}: longer than optimal on {} of {} instances{claim} (e.g. {}).",
                    s.longer,
                    s.checked,
                    first(&|l, r| l > r).unwrap_or_default()
                );
            }
            if s.shorter > 0 {
                let _ = writeln!(
                    out,
                    "{name}: SHORTER than the optimal reference on {} instances (e.g. {}): the \
                     reference is wrong.",
                    s.shorter,
                    first(&|l, r| l < r).unwrap_or_default()
                );
            }
            if s.stopped > 0 {
                let mut reasons: Vec<&str> =
                    self.runs[c].iter().filter_map(|r| r.stopped_by).collect();
                reasons.sort_unstable();
                reasons.dedup();
                let _ = writeln!(
                    out,
                    "{name}: {} stopped by a limit ({}).",
                    s.stopped,
                    reasons.join(", ")
                );
            }
            if s.errors > 0 {
                let e = self.runs[c].iter().find_map(|r| r.error.clone());
                let _ = writeln!(
                    out,
                    "{name}: failed on {}: {}.",
                    s.errors,
                    e.unwrap_or_default()
                );
            }
        }
        out
    }

    fn json(&self, args: &CompareArgs) -> serde_json::Value {
        let configs: Vec<serde_json::Value> = self
            .configs
            .iter()
            .enumerate()
            .map(|(c, (name, config))| {
                let bins: Vec<serde_json::Value> = self
                    .bins()
                    .into_iter()
                    .map(|b| {
                        serde_json::json!({
                            "bin": b,
                            "summary": self.summary(c, |i| i.bin == Some(b)),
                        })
                    })
                    .collect();
                let runs: Vec<serde_json::Value> = self.runs[c]
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let mut v = serde_json::to_value(r).expect("serialises");
                        v["index"] = i.into();
                        v
                    })
                    .collect();
                serde_json::json!({
                    "name": name,
                    "algorithm": config.algorithm.name(),
                    "heuristic": config.heuristic.as_ref().map(ToString::to_string),
                    "summary": self.summary(c, |_| true),
                    "bins": bins,
                    "runs": runs,
                })
            })
            .collect();
        serde_json::json!({
            "source": self.source,
            "seed": self.seed,
            "goal": args.goal.name(),
            "weight": args.weight,
            "reference": self.reference,
            "instances": self.instances,
            "configs": configs,
        })
    }

    fn csv(&self) -> Result<Vec<u8>> {
        #[derive(Serialize)]
        struct Row<'a> {
            config: &'a str,
            algorithm: &'a str,
            heuristic: Option<String>,
            index: usize,
            instance: &'a str,
            bin: Option<usize>,
            size: &'a str,
            start: String,
            optimal_length: Option<usize>,
            length: Option<usize>,
            longer_than_optimal: Option<bool>,
            expanded: u64,
            generated: u64,
            max_open: u64,
            seconds: f64,
            ebf: Option<f64>,
            stopped_by: Option<&'a str>,
            error: Option<&'a str>,
        }
        let mut w = csv::Writer::from_writer(Vec::new());
        for (c, (name, config)) in self.configs.iter().enumerate() {
            for inst in &self.instances {
                let r = &self.runs[c][inst.index];
                let tiles: Vec<String> = inst.start.iter().map(u32::to_string).collect();
                w.serialize(Row {
                    config: name,
                    algorithm: config.algorithm.name(),
                    heuristic: config.heuristic.as_ref().map(ToString::to_string),
                    index: inst.index,
                    instance: &inst.label,
                    bin: inst.bin,
                    size: &inst.size,
                    start: tiles.join(" "),
                    optimal_length: inst.reference_length,
                    length: r.length,
                    longer_than_optimal: r.length.zip(inst.reference_length).map(|(l, o)| l > o),
                    expanded: r.expanded,
                    generated: r.generated,
                    max_open: r.max_open,
                    seconds: r.seconds,
                    ebf: r.ebf,
                    stopped_by: r.stopped_by,
                    error: r.error.as_deref(),
                })?;
            }
        }
        w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))
    }

    /// Mean nodes expanded by optimal length (by the run's own length where no optimal
    /// length is known), one series per configuration.
    fn chart(&self) -> Chart {
        let any_reference = self.instances.iter().any(|i| i.reference_length.is_some());
        let series = self
            .configs
            .iter()
            .enumerate()
            .map(|(c, (name, _))| {
                let mut by_length: std::collections::BTreeMap<usize, (f64, usize)> =
                    Default::default();
                for inst in &self.instances {
                    let r = &self.runs[c][inst.index];
                    let Some(len) = r.length else { continue };
                    let x = if any_reference {
                        match inst.reference_length {
                            Some(x) => x,
                            None => continue,
                        }
                    } else {
                        len
                    };
                    let e = by_length.entry(x).or_default();
                    e.0 += r.expanded as f64;
                    e.1 += 1;
                }
                Series {
                    name: name.clone(),
                    points: by_length
                        .into_iter()
                        .map(|(x, (sum, n))| (x as f64, sum / n as f64))
                        .collect(),
                }
            })
            .collect();
        Chart {
            title: if any_reference {
                "Nodes expanded by optimal solution length".into()
            } else {
                "Nodes expanded by solution length".into()
            },
            subtitle: format!("{} instances: {}", self.instances.len(), self.source),
            x_label: if any_reference {
                "optimal solution length (moves)".into()
            } else {
                "solution length found (moves)".into()
            },
            y_label: "nodes expanded (mean, log scale)".into(),
            series,
        }
    }
}

/// Aligns a table: the first column to the left, the others to the right.
fn render_table(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, s)| {
                let w = widths[c];
                if c == 0 {
                    format!("{s:<w$}")
                } else {
                    format!("{s:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_split_outside_parentheses() {
        assert_eq!(
            split_top_level("max(manhattan,misplaced), linear-conflict,,0.5*manhattan"),
            [
                "max(manhattan,misplaced)",
                "linear-conflict",
                "0.5*manhattan"
            ]
        );
    }

    #[test]
    fn configurations_parse_and_know_whether_they_are_optimal() {
        let c = Config::parse("idastar:manhattan").unwrap();
        assert_eq!(c.algorithm, Algorithm::IdaStar);
        assert!(c.optimal());
        assert!(!Config::parse("greedy:manhattan").unwrap().optimal());
        assert!(!Config::parse("astar:2*manhattan").unwrap().optimal());
        assert_eq!(Config::parse("bfs:manhattan").unwrap().heuristic, None);
        assert!(Config::parse("dijkstra:manhattan").is_err());
        assert!(Config::parse("astar:nonsense").is_err());
        assert!(Reference::parse("greedy:manhattan").is_err());
        assert_eq!(Reference::parse("none").unwrap(), Reference::None);
    }

    #[test]
    fn summaries_count_longer_and_shorter_paths() {
        let run = |len: Option<usize>, exp: u64| Run {
            length: len,
            expanded: exp,
            ..Run::default()
        };
        let runs = [
            run(Some(10), 100),
            run(Some(12), 300),
            run(None, 5),
            run(Some(8), 1),
        ];
        let refs = [Some(10), Some(10), Some(4), Some(9)];
        let s = Summary::of(runs.iter().zip(refs));
        assert_eq!((s.solved, s.stopped, s.checked), (3, 1, 3));
        assert_eq!((s.longer, s.shorter), (1, 1));
        assert_eq!(s.length_max, Some(12));
        assert_eq!(s.expanded_mean, Some(401.0 / 3.0));
        assert!(s.optimal_text().starts_with("REFERENCE WRONG"));
    }
}
