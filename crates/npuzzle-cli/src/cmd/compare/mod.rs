//! `npuzzle compare`: several algorithms and heuristics on the same instances, side by side.
//!
//! Every configuration solves every instance (on all cores); the table gives, per
//! configuration, how many it solved, the mean and max of length, nodes expanded and
//! generated, peak open list and time, and the effective branching factor. Lengths are
//! checked against an optimal reference (the file's expected lengths, or an optimal
//! configuration run on each instance) and any configuration that returns longer paths is
//! flagged. The same seed gives the same instances and the same node counts.

mod args;
mod config;
mod report;
mod results;

pub use args::CompareArgs;

use std::io::Write as _;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Context, Result};
use npuzzle::expected_length::{judge_path, wrong_expected};
use npuzzle::search::{Control, StopReason};
use npuzzle::{generate, solvability, Board, Limits, LineStatus, SolveError, Tables};

use crate::branching_factor::effective_branching_factor;
use crate::exit::Outcome;
use crate::input::read_entries;
use crate::many_boards::located;
use crate::options::SearchArgs;
use crate::plan_book::PlanBook;
use crate::runner;
use args::{Format, MAX_INSTANCES};
use config::{configs, Config, Reference};
use results::{Comparison, Instance, Run};

pub fn run(args: CompareArgs, tables: &Tables) -> Result<Outcome> {
    let configs = configs(&args)?;
    let reference = Reference::parse(&args.reference, args.weight)?;
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
        // A file of unsolvable boards is reported as `batch` reports it (each line, exit
        // 1); with no boards at all there is nothing to report.
        if worst == Outcome::Unsolvable {
            crate::errln!("no solvable instances to compare");
            return Ok(worst);
        }
        bail!("no instances to compare");
    }
    let schedule = Schedule::new(&configs, &instances, &reference);
    let mut runs = schedule.run(&args, &instances, tables, jobs)?;
    worst = worst.worst(reference_lengths(&mut instances, &runs, &schedule));
    worst = worst.worst(failed_references(&runs, &schedule, configs.len(), &args));
    runs.truncate(configs.len());
    let reference_name = match &reference {
        Reference::None => "none".to_string(),
        Reference::Auto => "auto (a proof, as solve --optimal)".to_string(),
        Reference::Config(c) => c.name(args.weight, args.beam.width),
    };
    let cmp = Comparison {
        source,
        seed,
        instances,
        configs,
        runs,
        reference: reference_name,
    };
    worst = worst.worst(configurations_outcome(&cmp));
    write_output(&cmp, &args)?;
    Ok(worst)
}

/// What runs: the compared configurations, then any reference not among them, each on
/// the instances it is needed for.
struct Schedule {
    /// The configurations, by slot.
    slots: Vec<Config>,
    /// For each instance, the slot of its reference run (none when the file gives its
    /// length or there is no reference).
    reference_slot: Vec<Option<usize>>,
    /// (slot, instance) pairs, instance by instance.
    tasks: Vec<(usize, usize)>,
}

impl Schedule {
    fn new(configs: &[(String, Config)], instances: &[Instance], reference: &Reference) -> Self {
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
        Schedule {
            slots,
            reference_slot,
            tasks,
        }
    }

    /// Every task on `jobs` threads: `runs[slot][instance]`.
    fn run(
        &self,
        args: &CompareArgs,
        instances: &[Instance],
        tables: &Tables,
        jobs: usize,
    ) -> Result<Vec<Vec<Run>>> {
        let searches: Vec<SearchArgs> = self.slots.iter().map(|c| c.search_args(args)).collect();
        let limits: Vec<Limits> = searches
            .iter()
            .map(SearchArgs::limits)
            .collect::<Result<_>>()?;
        // One plan per configuration and shape for the command's goal, made ready before
        // any search; an instance with a goal of its own is planned with it.
        let cancel = crate::interrupt::cancel_flag();
        let books: Vec<PlanBook> = searches
            .iter()
            .zip(&limits)
            .map(|(search, &limits)| {
                let goals = instances
                    .iter()
                    .filter_map(|i| args.goal.board(i.board.shape()).ok());
                let options = search.solve_options();
                PlanBook::new(
                    goals,
                    jobs,
                    &options,
                    tables,
                    limits,
                    Some(&cancel),
                    |_, _| Ok(()),
                )
            })
            .collect::<Result<_>>()?;
        // A task the runner never starts was left by Ctrl-C (or by a reader gone away,
        // when nothing is printed).
        let not_started = Run {
            stopped_by: Some(StopReason::Interrupted.as_str()),
            ..Run::default()
        };
        let mut runs = vec![vec![not_started; instances.len()]; self.slots.len()];
        runner::run_in_order(
            &self.tasks,
            jobs,
            |_, &(c, i), cancel| run_one(&instances[i], &books[c], limits[c], cancel),
            |t, run| {
                let (c, i) = self.tasks[t];
                runs[c][i] = run;
                Ok(())
            },
        )?;
        Ok(runs)
    }
}

/// Sets each instance's optimal length: the file's unless a run disproves it, else the
/// reference run's. A disproved length is reported, as every command reports it: exit 2.
fn reference_lengths(
    instances: &mut [Instance],
    runs: &[Vec<Run>],
    schedule: &Schedule,
) -> Outcome {
    let mut worst = Outcome::Success;
    for (i, inst) in instances.iter_mut().enumerate() {
        inst.reference_length = match inst.expected {
            Some(expected) => match disproved(expected, runs.iter().map(|r| &r[i])) {
                None => Some(expected),
                Some((why, optimal)) => {
                    crate::errln!("error: {}: {why}", inst.label);
                    worst = worst.worst(Outcome::Invalid);
                    optimal
                }
            },
            None => schedule.reference_slot[i].and_then(|slot| {
                let run = &runs[slot][i];
                run.optimal.then_some(run.length).flatten()
            }),
        };
    }
    worst
}

/// A reference that could not run leaves its instances unchecked: says so, and returns
/// the outcome (an error: 2; a limit: 3).
fn failed_references(
    runs: &[Vec<Run>],
    schedule: &Schedule,
    compared: usize,
    args: &CompareArgs,
) -> Outcome {
    let mut worst = Outcome::Success;
    for (slot, config) in schedule.slots.iter().enumerate().skip(compared) {
        let failed: Vec<&Run> = runs[slot]
            .iter()
            .zip(&schedule.reference_slot)
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
                let why = first.stopped_by.and_then(npuzzle::StopReason::from_name);
                format!(
                    "stopped by {}",
                    why.map_or("a limit", npuzzle::StopReason::cause)
                )
            });
            let level = if first.error.is_some() {
                "error"
            } else {
                "warning"
            };
            crate::errln!(
                "{level}: the reference {} gave no optimal length on {} instance(s), left \
                 unchecked: {why}",
                config.name(args.weight, args.beam.width),
                failed.len()
            );
        }
    }
    worst
}

/// The outcome of the compared configurations: a path shorter than the reference or a
/// configuration that could not run: 2; a search stopped by a limit: 3.
fn configurations_outcome(cmp: &Comparison) -> Outcome {
    let mut worst = Outcome::Success;
    for (c, (name, _)) in cmp.configs.iter().enumerate() {
        let s = cmp.summary(c, |_| true);
        if s.shorter > 0 {
            worst = worst.worst(Outcome::Invalid);
        }
        if s.errors > 0 {
            worst = worst.worst(Outcome::Invalid);
            let first = cmp.runs[c].iter().find_map(|r| r.error.clone());
            crate::errln!(
                "error: {name} failed on {} instance(s): {}",
                s.errors,
                first.unwrap_or_default()
            );
        }
        if s.stopped > 0 {
            worst = worst.worst(Outcome::Limit);
        }
    }
    worst
}

/// The tables (text, CSV or JSON) on standard output, and the chart if asked for.
fn write_output(cmp: &Comparison, args: &CompareArgs) -> Result<()> {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = match args.format {
        Format::Text => write!(out, "{}", cmp.text(args)),
        Format::Json => writeln!(
            out,
            "{}",
            serde_json::to_string_pretty(&cmp.json(args)).expect("serialises")
        ),
        Format::Csv => out.write_all(&cmp.csv()?),
    };
    if let Err(e) = written.and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            return Err(e).context("cannot write the output");
        }
    }
    drop(out);
    if let Some(path) = &args.chart {
        std::fs::write(path, cmp.chart().to_svg())
            .with_context(|| format!("cannot write the chart to {}", path.display()))?;
        if args.format == Format::Text {
            println!("Chart written to {}.", path.display());
        }
    }
    Ok(())
}

/// Whether the runs of one instance disprove the file's expected length, judged as every
/// command judges it ([`judge_path`]): the words saying so, and the length of an optimal
/// run, which becomes the reference instead.
fn disproved<'a>(
    expected: usize,
    runs: impl Iterator<Item = &'a Run> + Clone,
) -> Option<(String, Option<usize>)> {
    let wrong = runs.clone().find(|r| {
        r.error.is_none()
            && judge_path(r.length, r.optimal, Some(expected)).0 == LineStatus::WrongExpected
    })?;
    let optimal = runs
        .filter(|r| r.optimal && r.error.is_none())
        .find_map(|r| r.length);
    Some((wrong_expected(wrong.length, expected), optimal))
}

/// Solves one instance with one configuration.
fn run_one(inst: &Instance, book: &PlanBook, limits: Limits, cancel: &AtomicBool) -> Run {
    let control = Control {
        limits,
        cancel: Some(cancel),
        ..Control::default()
    };
    let mut result = book.solve(&inst.board, &inst.goal, control);
    crate::interrupt::relabel(&mut result);
    match result {
        Ok(s) => Run {
            heuristic: s.heuristic.as_ref().map(ToString::to_string),
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
                    crate::errln!("error: {} (skipped)", located(e.line, &m));
                    worst = worst.worst(Outcome::Invalid);
                    continue;
                }
            };
            // A `START | GOAL` line brings its own goal.
            let goal = match e.goal.map_or_else(|| args.goal.board(board.shape()), Ok) {
                Ok(g) => g,
                Err(m) => {
                    crate::errln!("error: {} (skipped)", located(e.line, &m.to_string()));
                    worst = worst.worst(Outcome::Invalid);
                    continue;
                }
            };
            let verdict = solvability::check(&board, &goal)?;
            if !verdict.solvable {
                match e.expected {
                    Some(x) => {
                        worst = worst.worst(Outcome::Invalid);
                        let why = wrong_expected(None, x);
                        crate::errln!("error: line {}: {why} (skipped)", e.line);
                    }
                    None => crate::errln!("line {}: unsolvable (skipped)", e.line),
                }
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

#[cfg(test)]
mod tests {
    use super::config::split_top_level;
    use super::results::Summary;
    use super::*;
    use npuzzle::Algorithm;

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
        assert!(c.optimal(2.0));
        assert!(!Config::parse("greedy:manhattan").unwrap().optimal(2.0));
        assert!(!Config::parse("astar:2*manhattan").unwrap().optimal(2.0));
        assert!(!Config::parse("weighted-astar:manhattan")
            .unwrap()
            .optimal(2.0));
        assert!(Config::parse("weighted-astar:manhattan")
            .unwrap()
            .optimal(1.0));
        assert_eq!(Config::parse("bfs:manhattan").unwrap().heuristic, None);
        assert!(Config::parse("dijkstra:manhattan").is_err());
        assert!(Config::parse("astar:nonsense").is_err());
        assert!(Reference::parse("greedy:manhattan", 2.0).is_err());
        assert_eq!(Reference::parse("none", 2.0).unwrap(), Reference::None);
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
