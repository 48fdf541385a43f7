//! `npuzzle bench`: solve a file of instances, check their lengths, report nodes and times.

use std::io::Write as _;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Args;
use npuzzle::expected_length::{judge, wrong_expected_of};
use npuzzle::heuristic::TableSource;
use npuzzle::search::Control;
use npuzzle::{
    Algorithm, Board, GoalSpec, Limits, LineStatus, Shape, Solution, SolveError, SolveOptions,
    SolveReport, StopReason, Tables,
};
use serde_json::json;

use crate::exit::Outcome;
use crate::input::{self, Entry};
use crate::many_boards::command_goals;
use crate::options::SearchArgs;
use crate::output::plural;
use crate::plan_book::PlanBook;
use crate::runner;
use crate::table_builds::{megabytes, peak_rss, prepare_within, Prepared};

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
    #[arg(long, short = 'j', default_value_t = 1, allow_negative_numbers = true)]
    pub jobs: usize,

    /// Threads for each instance's IDA* search (default: all cores with one job, one
    /// thread per instance with several). Node counts are those of the serial search.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub threads: Option<usize>,

    /// Print one JSON object per instance (the fields of `solve --json`, plus `index`, the
    /// 0-based position among the instances as in `batch` and `compare`, `line` and
    /// `expected`), then a summary object.
    #[arg(long)]
    pub json: bool,
}

/// One instance's result.
struct Run {
    /// 0-based position among the instances (the text table numbers from 1).
    index: usize,
    line: usize,
    expected: Option<usize>,
    outcome: Result<(Board, Board, Result<Solution, SolveError>), String>,
    seconds: f64,
}

/// The request `bench` makes: the options given, except that a plain `auto` asks the core
/// for a proof (`--optimal`: IDA* with the strongest admissible tables for the shape, stopped
/// only by the user's limits). Lengths are checked against optimal ones, and a plain auto on
/// boards over 16 cells ends its time budget with its best path, not necessarily the
/// shortest. What a proof runs is the core's decision (see `npuzzle::plan`), not bench's.
fn bench_options(options: &SolveOptions) -> SolveOptions {
    let proof = options.algorithm == Algorithm::Auto && options.heuristic.is_none();
    SolveOptions {
        optimal: options.optimal || proof,
        ..options.clone()
    }
}

pub fn run(args: BenchArgs, tables: &Tables) -> Result<Outcome> {
    let limits = args.search.limits()?;
    let jobs = runner::jobs(Some(args.jobs))?;
    let threads = crate::options::threads(
        args.threads,
        if jobs == 1 {
            crate::options::all_cores()
        } else {
            1
        },
    )?;
    let entries = input::read_entries(&args.file, args.size)?;
    let options = bench_options(&args.search.solve_options());
    // Tables first, timed apart from the searches.
    let plans = Plans::make(&entries, &args.goal, jobs, &options, tables, limits)?;
    if !args.json {
        print!("{}", header(&args, &plans, &options, threads));
    }
    let wall = Instant::now();
    let mut tally = Tally::new(&entries);
    let ran = runner::run_in_order(
        &entries,
        jobs,
        |i, entry, cancel| {
            let control = Control {
                limits,
                cancel: Some(cancel),
                threads,
                ..Control::default()
            };
            run_one(i, entry, &args.goal, &plans, control)
        },
        // Each row as soon as its instance (and every one before it) ends.
        |_, run| {
            let note = tally.add(&run);
            let row = if args.json {
                json_row(&run, &note)
            } else {
                text_row(&run, &note)
            };
            writeln!(std::io::stdout(), "{row}")
        },
    );
    match ran {
        Err(e) if runner::is_closed_pipe(&e) => return Ok(tally.worst),
        Err(e) => return Err(e),
        Ok(()) => {}
    }
    let wall = wall.elapsed().as_secs_f64();
    let summary = if args.json {
        json_summary(&tally, &plans, &args, &options, threads, wall)
    } else {
        text_summary(&tally, &plans, jobs, wall)
    };
    print!("{summary}");
    Ok(tally.worst)
}

/// The plans of the instances (one per goal, see [`PlanBook`]), their tables loaded or built
/// before any search and timed apart, and what the header names.
struct Plans {
    book: PlanBook,
    /// Every plan's heuristic and algorithm, each once, in the order of the file's goals
    /// and shapes, for the header (empty when every line brings its own goal, planned as it
    /// is solved).
    heuristics: Vec<String>,
    algorithms: Vec<Algorithm>,
    prepared: Prepared,
}

impl Plans {
    fn make(
        entries: &[Entry],
        goal: &GoalSpec,
        jobs: usize,
        options: &SolveOptions,
        tables: &Tables,
        limits: Limits,
    ) -> Result<Plans> {
        let mut heuristics: Vec<String> = Vec::new();
        let mut algorithms: Vec<Algorithm> = Vec::new();
        let mut prepared = Prepared::default();
        // A choice refused on a shape is reported by each board's solve, after its
        // solvability, as every command orders them.
        let book = PlanBook::new(
            command_goals(entries, goal),
            jobs,
            options,
            tables,
            limits,
            None,
            |p, goal| {
                let heuristic = p.heuristic().map_or("none".into(), ToString::to_string);
                if !heuristics.contains(&heuristic) {
                    heuristics.push(heuristic);
                }
                if !algorithms.contains(&p.algorithm()) {
                    algorithms.push(p.algorithm());
                }
                let started = Instant::now();
                match prepare_within(p, goal, tables, p.table_clock(&limits)) {
                    Ok(ready) => {
                        prepared.seconds += ready.seconds;
                        prepared.events.extend(ready.events);
                        Ok(())
                    }
                    Err(e) => {
                        // A build given up (the book goes on without it); any other
                        // failure ends the run.
                        prepared.seconds += started.elapsed().as_secs_f64();
                        prepared.given_up += 1;
                        Err(e)
                    }
                }
            },
        )?;
        Ok(Plans {
            book,
            heuristics,
            algorithms,
            prepared,
        })
    }

    /// The heuristics the plans chose, `perfect, pdb:7-8` for a file of 3×3 and 4×4
    /// boards; `None` when each line is planned for its own goal.
    fn heuristic(&self) -> Option<String> {
        (!self.heuristics.is_empty()).then(|| self.heuristics.join(", "))
    }

    /// The algorithms the searches run, as [`Plans::heuristic`]; the options' (`auto`) when
    /// each line is planned for its own goal.
    fn algorithm(&self, options: &SolveOptions) -> String {
        if self.algorithms.is_empty() {
            return options.algorithm.name().to_string();
        }
        let names: Vec<&str> = self.algorithms.iter().map(|a| a.name()).collect();
        names.join(", ")
    }
}

/// Solves one instance: with its goal's plan, planned on its own when its line brings its
/// own goal (`START | GOAL`).
fn run_one(i: usize, entry: &Entry, goal: &GoalSpec, plans: &Plans, control: Control<'_>) -> Run {
    let started = Instant::now();
    let outcome = match &entry.board {
        Err(why) => Err(why.clone()),
        Ok(start) => match entry
            .goal
            .clone()
            .map_or_else(|| goal.board(start.shape()), Ok)
        {
            Err(why) => Err(format!("line {}: {why}", entry.line)),
            Ok(goal) => {
                let mut result = plans.book.solve(start, &goal, control);
                crate::interrupt::relabel(&mut result);
                Ok((start.clone(), goal, result))
            }
        },
    };
    Run {
        index: i,
        line: entry.line,
        expected: entry.expected,
        outcome,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// What the rows so far add up to.
struct Tally {
    /// Instances in the file.
    count: usize,
    /// Instances with an expected length in the file.
    with_expected: usize,
    /// Rows printed.
    ran: usize,
    solved: usize,
    /// Expected lengths a solve confirmed.
    matched: usize,
    /// Instances whose expected length is wrong, by their 0-based index.
    wrong: Vec<usize>,
    nodes: u64,
    search_seconds: f64,
    worst: Outcome,
}

impl Tally {
    fn new(entries: &[Entry]) -> Tally {
        Tally {
            count: entries.len(),
            with_expected: entries.iter().filter(|e| e.expected.is_some()).count(),
            ran: 0,
            solved: 0,
            matched: 0,
            wrong: Vec::new(),
            nodes: 0,
            search_seconds: 0.0,
            worst: Outcome::Success,
        }
    }

    /// Counts one instance, judged as every command judges expected lengths; the note for
    /// its row.
    fn add(&mut self, run: &Run) -> String {
        self.ran += 1;
        let result = match &run.outcome {
            Err(why) => {
                self.worst = self.worst.worst(Outcome::Invalid);
                return why.clone();
            }
            Ok((_, _, result)) => result,
        };
        let (status, matches) = judge(result, run.expected);
        self.worst = self.worst.worst(Outcome::from(status));
        self.matched += usize::from(matches == Some(true));
        if let Ok(s) = result {
            self.nodes += s.stats.generated;
            self.search_seconds += s.stats.seconds;
        }
        match (status, result) {
            (LineStatus::WrongExpected, _) => {
                self.wrong.push(run.index);
                wrong_expected_of(result, run.expected.unwrap_or_default())
            }
            (LineStatus::Solved, Ok(s)) => {
                self.solved += 1;
                // As `batch` words a path that is not proved shortest.
                match s.stopped_by {
                    _ if s.optimal => String::new(),
                    Some(why) => format!("stopped by {}", why.cause()),
                    None => "not guaranteed optimal".to_string(),
                }
            }
            (_, Err(e)) => e.to_string(),
            (_, Ok(s)) if s.stopped_by == Some(StopReason::Interrupted) => {
                "interrupted (Ctrl-C)".to_string()
            }
            (_, Ok(s)) => format!(
                "stopped by {}",
                s.stopped_by.map_or("a limit", StopReason::cause)
            ),
        }
    }

    fn mean_nodes(&self) -> f64 {
        if self.ran > 0 {
            self.nodes as f64 / self.ran as f64
        } else {
            0.0
        }
    }
}

/// The lines before the rows: what runs, the tables, the column names.
fn header(args: &BenchArgs, plans: &Plans, options: &SolveOptions, threads: usize) -> String {
    let mut out = format!(
        "{}, {} job{}, {threads} thread{} per search.\n",
        match plans.heuristic() {
            Some(h) => format!(
                "Heuristic{} {h}{}, algorithm{} {}",
                plural(plans.heuristics.len()),
                if plans.heuristics.len() > 1 {
                    " (one for each shape or goal)"
                } else {
                    ""
                },
                plural(plans.algorithms.len()),
                plans.algorithm(options)
            ),
            None => "Heuristic and algorithm planned for each line's own goal".to_string(),
        },
        args.jobs,
        plural(args.jobs),
        plural(threads),
    );
    if let Some(s) = plans.prepared.summary() {
        out.push_str(&format!("Pattern databases: {s}.\n"));
    }
    out.push_str(&format!(
        "{:>5} {:>7} {:>9} {:>14} {:>10}  note",
        "#", "length", "expected", "nodes", "seconds"
    ));
    out.push('\n');
    out
}

fn text_row(run: &Run, note: &str) -> String {
    let Ok((_, _, result)) = &run.outcome else {
        return format!("{:>5} error: {note}", run.index + 1);
    };
    let (len, generated, secs) = match result {
        Ok(s) => (
            s.length().map_or("-".into(), |l| l.to_string()),
            s.stats.generated.to_string(),
            format!("{:.4}", s.stats.seconds),
        ),
        Err(_) => ("-".into(), "-".into(), format!("{:.4}", run.seconds)),
    };
    let exp = run.expected.map_or("-".into(), |e| e.to_string());
    format!(
        "{:>5} {len:>7} {exp:>9} {generated:>14} {secs:>10}  {note}",
        run.index + 1
    )
}

fn json_row(run: &Run, note: &str) -> String {
    let Ok((start, goal, result)) = &run.outcome else {
        return json!({ "index": run.index, "line": run.line, "error": note }).to_string();
    };
    let mut v = match SolveReport::new(start, goal, result, false) {
        Some(r) => serde_json::to_value(r).expect("a report serialises"),
        None => json!({ "error": note }),
    };
    v["index"] = json!(run.index);
    v["line"] = json!(run.line);
    v["expected"] = json!(run.expected);
    // Judged as `batch` judges it (null without an expected length).
    v["matches_expected"] = json!(judge(result, run.expected).1);
    v.to_string()
}

/// "Solved 3 of 3; every length matches the expected one." and the totals. An interrupted
/// run says so, and how far it got; "every length matches" only when every expected length
/// of the file was checked.
fn text_summary(t: &Tally, plans: &Plans, jobs: usize, wall: f64) -> String {
    let head = if crate::interrupt::interrupted() {
        format!(
            "Interrupted (Ctrl-C): solved {} of {}, {} not started",
            t.solved,
            t.count,
            t.count - t.ran
        )
    } else {
        format!("Solved {} of {}", t.solved, t.count)
    };
    let lengths = if !t.wrong.is_empty() {
        format!(
            "; {} with a wrong expected length (instances {:?})",
            t.wrong.len(),
            t.wrong.iter().map(|i| i + 1).collect::<Vec<_>>()
        )
    } else if t.with_expected == 0 {
        String::new()
    } else if t.matched == t.with_expected {
        "; every length matches the expected one".to_string()
    } else if t.matched == 0 {
        format!("; none of the {} expected lengths checked", t.with_expected)
    } else {
        format!(
            "; {} of {} expected lengths checked, all matching",
            t.matched, t.with_expected
        )
    };
    let peak = peak_rss();
    format!(
        "{head}{lengths}.\nTotal: {} nodes generated (mean {:.0} per instance), search {:.3} s, wall {wall:.3} s with {jobs} job{}.\nTables: {}; peak memory (RSS) {}.\n",
        t.nodes,
        t.mean_nodes(),
        t.search_seconds,
        plural(jobs),
        plans.prepared.summary().unwrap_or_else(|| "none".into()),
        peak.map_or("unknown".into(), megabytes)
    )
}

fn json_summary(
    t: &Tally,
    plans: &Plans,
    args: &BenchArgs,
    options: &SolveOptions,
    threads: usize,
    wall: f64,
) -> String {
    let tables: Vec<_> = plans
        .prepared
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
    let summary = json!({ "summary": {
        "instances": t.count,
        "ran": t.ran,
        "interrupted": crate::interrupt::interrupted(),
        "solved": t.solved,
        "matched": t.matched,
        "mismatches": t.wrong,
        "generated": t.nodes,
        "mean_generated": t.mean_nodes(),
        "search_seconds": t.search_seconds,
        "wall_seconds": wall,
        "jobs": args.jobs,
        "threads": threads,
        "heuristic": plans.heuristic(),
        "algorithm": plans.algorithm(options),
        "table_seconds": plans.prepared.seconds,
        "tables_given_up": plans.prepared.given_up,
        "table_bytes": plans.prepared.bytes(),
        "tables": tables,
        "peak_rss_bytes": peak_rss(),
    }});
    format!("{summary}\n")
}
