//! `npuzzle bench`: solve a file of instances, check their lengths, report nodes and times.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use npuzzle::heuristic::TableSource;
use npuzzle::search::Control;
use npuzzle::SolveReport;
use npuzzle::{
    execute, plan, solve, Algorithm, Board, GoalSpec, Plan, Shape, Solution, SolveError,
    SolveOptions, Tables,
};
use rayon::prelude::*;
use serde_json::json;

use crate::exit::Outcome;
use crate::input;
use crate::instances::{judge, wrong_expected_of, Status};
use crate::options::SearchArgs;
use crate::tables::{megabytes, peak_rss, prepare, Prepared};

/// Solve every instance of a file and report lengths, nodes and times.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Instance file: one board per line, optionally followed by its optimal length (e.g.
    /// data/korf100-15puzzle.txt with --goal blank-first), or the classroom format.
    pub file: PathBuf,

    /// Board shape as RxC (needed when it is not square).
    #[arg(long, short = 's')]
    pub size: Option<Shape>,

    /// The goal: standard, blank-first, spiral, or an explicit board.
    #[arg(long, short = 'g', default_value = "standard")]
    pub goal: GoalSpec,

    #[command(flatten)]
    pub search: SearchArgs,

    /// Instances solved at once, each on its own thread.
    #[arg(long, short = 'j', default_value_t = 1)]
    pub jobs: usize,

    /// Threads for each instance's IDA* search (default: all cores with one job, one
    /// thread per instance with several). Node counts are those of the serial search.
    #[arg(long, value_name = "N")]
    pub threads: Option<usize>,

    /// Print one JSON object per instance (the fields of `solve --json`, plus `index` and
    /// `expected`), then a summary object.
    #[arg(long)]
    pub json: bool,
}

/// One instance's result.
struct Run {
    index: usize,
    line: usize,
    expected: Option<usize>,
    outcome: Result<(Board, Board, Result<Solution, SolveError>), String>,
    seconds: f64,
}

/// The options `bench` solves with: those given, except that `auto` becomes IDA*, which
/// the planner gives the heuristic auto's optimal phase uses. Lengths are checked against
/// optimal ones, and auto's anytime engine answers with its best path when its time budget
/// ends on boards over 16 cells, which would turn a slow instance into a wrong length.
fn optimal_options(options: &SolveOptions) -> SolveOptions {
    match options.algorithm {
        Algorithm::Auto => SolveOptions {
            algorithm: Algorithm::IdaStar,
            ..options.clone()
        },
        _ => options.clone(),
    }
}

pub fn run(args: BenchArgs, tables: &Tables) -> Result<Outcome> {
    let limits = args.search.limits()?;
    if args.jobs == 0 || args.jobs > 1024 {
        bail!("--jobs must be between 1 and 1024, got {}", args.jobs);
    }
    let threads = crate::options::threads(
        args.threads,
        if args.jobs == 1 {
            crate::options::all_cores()
        } else {
            1
        },
    )?;
    let text = input::read_file(&args.file)?;
    let entries = input::parse_entries(&text, args.size);
    let options = optimal_options(&args.search.solve_options());

    // Tables first, timed apart from the searches.
    let mut prepared = Prepared::default();
    // The plan of each shape, made once per shape.
    let mut by_shape: Vec<(Shape, Plan)> = Vec::new();
    let mut heuristic = None;
    for e in &entries {
        if let Ok(b) = &e.board {
            if by_shape.iter().any(|(s, _)| *s == b.shape()) {
                continue;
            }
            // A choice refused on this shape is reported by each board's solve, after its
            // solvability, as every command orders them.
            if let Some((goal, p)) = args
                .goal
                .board(b.shape())
                .ok()
                .and_then(|goal| Some((goal.clone(), plan(&goal, &options, tables).ok()?)))
            {
                heuristic.get_or_insert_with(|| {
                    p.heuristic()
                        .map_or("none".to_string(), ToString::to_string)
                });
                let ready = prepare(&p, &goal, tables)?;
                prepared.seconds += ready.seconds;
                prepared.events.extend(ready.events);
                by_shape.push((b.shape(), p));
            }
        }
    }

    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs)
        .build()
        .context("cannot start worker threads")?;
    let bar = if std::io::stderr().is_terminal() {
        let bar = ProgressBar::new(entries.len() as u64);
        bar.set_style(
            ProgressStyle::with_template("solving [{bar:30}] {pos}/{len} {elapsed_precise}")
                .expect("a valid template")
                .progress_chars("=> "),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let wall = Instant::now();
    let cancel = crate::interrupt::cancel_flag();
    let runs: Vec<Run> = pool.install(|| {
        entries
            .par_iter()
            .with_max_len(1)
            .enumerate()
            .map(|(i, e)| {
                let started = Instant::now();
                let outcome = match &e.board {
                    Err(why) => Err(why.clone()),
                    // A `START | GOAL` line brings its own goal.
                    Ok(start) => match e
                        .goal
                        .clone()
                        .map_or_else(|| args.goal.board(start.shape()), Ok)
                    {
                        Err(why) => Err(format!("line {}: {why}", e.line)),
                        Ok(goal) => {
                            let control = Control {
                                limits,
                                cancel: Some(&cancel),
                                threads,
                                ..Control::default()
                            };
                            // The shape's plan is for the command's goal; a line with its
                            // own goal is planned on its own.
                            let planned = by_shape
                                .iter()
                                .find(|(s, _)| *s == start.shape())
                                .filter(|_| e.goal.is_none());
                            let mut result = match planned {
                                Some((_, p)) => execute(p, start, &goal, tables, control),
                                None => solve(start, &goal, &options, tables, control),
                            };
                            crate::interrupt::relabel(&mut result);
                            Ok((start.clone(), goal, result))
                        }
                    },
                };
                bar.inc(1);
                Run {
                    index: i + 1,
                    line: e.line,
                    expected: e.expected,
                    outcome,
                    seconds: started.elapsed().as_secs_f64(),
                }
            })
            .collect()
    });
    let wall = wall.elapsed().as_secs_f64();
    bar.finish_and_clear();
    // The algorithm used (auto resolves to one), from the first search that ran.
    let algorithm = runs
        .iter()
        .find_map(|r| match &r.outcome {
            Ok((_, _, Ok(s))) => Some(s.algorithm),
            _ => None,
        })
        .unwrap_or(options.algorithm);

    let mut worst = Outcome::Success;
    let (mut solved, mut nodes, mut search_seconds) = (0usize, 0u64, 0.0f64);
    let mut mismatches = Vec::new();
    if !args.json {
        println!(
            "Heuristic {}, algorithm {}, {} job{}, {} thread{} per search.",
            heuristic.as_deref().unwrap_or("(none)"),
            algorithm,
            args.jobs,
            if args.jobs == 1 { "" } else { "s" },
            threads,
            if threads == 1 { "" } else { "s" }
        );
        if let Some(s) = prepared.summary() {
            println!("Pattern databases: {s}.");
        }
        println!(
            "{:>5} {:>7} {:>9} {:>14} {:>10}  note",
            "#", "length", "expected", "nodes", "seconds"
        );
    }
    for run in &runs {
        let (start, goal, result) = match &run.outcome {
            Err(why) => {
                worst = worst.worst(Outcome::Invalid);
                if args.json {
                    println!(
                        "{}",
                        json!({ "index": run.index, "line": run.line, "error": why })
                    );
                } else {
                    println!("{:>5} error: {why}", run.index);
                }
                continue;
            }
            Ok(o) => o,
        };
        // The same judgement of the file's expected length as every command of many boards.
        let (status, _) = judge(result, run.expected);
        let outcome = status.outcome();
        if let Ok(s) = result {
            nodes += s.stats.generated;
            search_seconds += s.stats.seconds;
        }
        let note = match (status, result) {
            (Status::WrongExpected, _) => {
                mismatches.push(run.index);
                wrong_expected_of(result, run.expected.unwrap_or_default())
            }
            (Status::Solved, _) => {
                solved += 1;
                String::new()
            }
            (_, Err(e)) => e.to_string(),
            (_, Ok(s)) => format!(
                "stopped by the {} limit",
                s.stopped_by.map_or("a", |r| r.as_str())
            ),
        };
        worst = worst.worst(outcome);
        if args.json {
            let report = SolveReport::new(start, goal, result, false);
            let mut v = match report {
                Some(r) => serde_json::to_value(r).expect("a report serialises"),
                None => json!({ "error": note }),
            };
            v["index"] = json!(run.index);
            v["expected"] = json!(run.expected);
            println!("{v}");
        } else {
            let (len, generated, secs) = match result {
                Ok(s) => (
                    s.length().map_or("-".into(), |l| l.to_string()),
                    s.stats.generated.to_string(),
                    format!("{:.4}", s.stats.seconds),
                ),
                Err(_) => ("-".into(), "-".into(), format!("{:.4}", run.seconds)),
            };
            let exp = run.expected.map_or("-".into(), |e| e.to_string());
            println!(
                "{:>5} {len:>7} {exp:>9} {generated:>14} {secs:>10}  {note}",
                run.index
            );
        }
    }
    let count = runs.len();
    let mean = if count > 0 {
        nodes as f64 / count as f64
    } else {
        0.0
    };
    let peak = peak_rss();
    if args.json {
        let tables: Vec<_> = prepared
            .events
            .iter()
            .map(|e| {
                json!({
                    "cells": e.key.cells,
                    "blank": e.key.blank,
                    "source": match &e.source {
                        TableSource::Memory => "memory",
                        TableSource::Disk(_) => "disk",
                        TableSource::Built(_) => "built",
                    },
                    "seconds": e.seconds,
                    "bytes": e.bytes,
                })
            })
            .collect();
        println!(
            "{}",
            json!({ "summary": {
                "instances": count,
                "solved": solved,
                "mismatches": mismatches,
                "generated": nodes,
                "mean_generated": mean,
                "search_seconds": search_seconds,
                "wall_seconds": wall,
                "jobs": args.jobs,
                "threads": threads,
                "heuristic": heuristic,
                "algorithm": algorithm.name(),
                "table_seconds": prepared.seconds,
                "table_bytes": prepared.bytes(),
                "tables": tables,
                "peak_rss_bytes": peak,
            }})
        );
    } else {
        println!(
            "Solved {solved} of {count}{}.",
            if mismatches.is_empty() {
                if runs.iter().any(|r| r.expected.is_some()) {
                    "; every length matches the expected one".to_string()
                } else {
                    String::new()
                }
            } else {
                format!(
                    "; {} with a wrong expected length (instances {:?})",
                    mismatches.len(),
                    mismatches
                )
            }
        );
        println!(
            "Total: {nodes} nodes generated (mean {mean:.0} per instance), search {search_seconds:.3} s, wall {wall:.3} s with {} job{}.",
            args.jobs,
            if args.jobs == 1 { "" } else { "s" }
        );
        println!(
            "Tables: {}; peak memory (RSS) {}.",
            prepared.summary().unwrap_or_else(|| "none".into()),
            peak.map_or("unknown".into(), megabytes)
        );
    }
    Ok(worst)
}
