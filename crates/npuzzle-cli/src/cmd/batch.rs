//! `npuzzle batch`: solve every instance of a file on all cores.
//!
//! Each instance is reported with its line number, in input order, whatever its fate: a
//! malformed line, an unsolvable board, a wrong expected length or a limit never stops the
//! rest. The exit code is the worst outcome over all lines (see `Outcome::from(LineStatus)`).

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use npuzzle::expected_length::wrong_expected_of;
use npuzzle::{GoalSpec, LineStatus, Shape, SolveReport, StopReason, Tables};
use serde::Serialize;

use crate::exit::Outcome;
use crate::input::read_entries;
use crate::many_boards::{command_goals, solve_entry, Record};
use crate::options::SearchArgs;
use crate::output::count;
use crate::plan_book::PlanBook;
use crate::{course_report, runner};

/// Solve every board of a file, in parallel, and report each with its line number.
#[derive(Args, Debug)]
pub struct BatchArgs {
    /// The instances (`-` for standard input): one board per line, each optionally followed
    /// by its optimal length, or the classroom format (the order alone on the first line).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Board shape as RxC (needed when it is not square).
    #[arg(long, short = 's')]
    pub size: Option<Shape>,

    /// The goal: standard, blank-first, spiral, or an explicit board.
    #[arg(long, short = 'g', default_value = "standard")]
    pub goal: GoalSpec,

    #[command(flatten)]
    pub search: SearchArgs,

    /// Worker threads. Default: one per core.
    #[arg(long, short = 'j', value_name = "N", allow_negative_numbers = true)]
    pub jobs: Option<usize>,

    /// Output: a text table, JSON lines (the `solve --json` object plus `line`, `index`,
    /// `status`, `expected`, `matches_expected`), CSV, or the AI-course report (aima).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// How `batch` prints its results.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// An aligned table and a summary.
    Text,
    /// One JSON object per line.
    Json,
    /// Comma-separated values with a header row.
    Csv,
    /// The classic AI-course report (`path_to_goal`, `cost_of_path`, ...).
    Aima,
}

/// Counts for the closing summary.
#[derive(Default)]
struct Tally {
    total: usize,
    solved: usize,
    wrong_expected: usize,
    unsolvable: usize,
    limit: usize,
    invalid: usize,
    worst: Option<Outcome>,
}

impl Tally {
    fn add(&mut self, status: LineStatus) {
        self.total += 1;
        match status {
            LineStatus::Solved => self.solved += 1,
            LineStatus::WrongExpected => self.wrong_expected += 1,
            LineStatus::Unsolvable => self.unsolvable += 1,
            LineStatus::Limit => self.limit += 1,
            LineStatus::Invalid => self.invalid += 1,
        }
        let o = Outcome::from(status);
        self.worst = Some(self.worst.map_or(o, |w| w.worst(o)));
    }
}

pub fn run(args: BatchArgs, tables: &Tables) -> Result<Outcome> {
    let limits = args.search.limits()?; // bad limits before reading any input
    let options = args.search.solve_options();
    let jobs = runner::jobs(args.jobs)?;
    let entries = read_entries(&args.file, args.size)?;
    let cancel = crate::interrupt::cancel_flag();
    let book = PlanBook::new(
        command_goals(&entries, &args.goal),
        jobs,
        &options,
        tables,
        limits,
        Some(&cancel),
        |_, _| Ok(()),
    )?;
    let began = Instant::now();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let several = entries.len() > 1;
    let mut tally = Tally::default();
    if args.format == Format::Text {
        writeln!(out, "{}", text_header())?;
    }
    let ran = runner::run_in_order(
        &entries,
        jobs,
        |index, entry, cancel| solve_entry(index, entry, &args.goal, &book, limits, cancel),
        |_, record| {
            tally.add(record.status);
            match args.format {
                Format::Text => writeln!(out, "{}", text_row(&record)),
                Format::Json => writeln!(out, "{}", json_line(&record)),
                Format::Csv => out.write_all(&csv_bytes(&record, record.index == 0)?),
                Format::Aima => write!(out, "{}", aima_block(&record, several)),
            }
        },
    );
    let worst = tally.worst.unwrap_or(Outcome::Success);
    match ran {
        Err(e) if runner::is_closed_pipe(&e) => return Ok(worst),
        Err(e) => return Err(e),
        Ok(()) => {}
    }
    let mut finish = || {
        if args.format == Format::Text {
            writeln!(
                out,
                "{}",
                summary(&tally, began.elapsed().as_secs_f64(), jobs)
            )?;
        }
        out.flush()
    };
    match finish() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("cannot write the output")
        }
        _ => Ok(worst),
    }
}

const TEXT_COLUMNS: [(&str, usize); 9] = [
    ("line", 6),
    ("status", 14),
    ("size", 5),
    ("length", 6),
    ("expected", 8),
    ("expanded", 12),
    ("generated", 12),
    ("max open", 10),
    ("seconds", 10),
];

fn text_header() -> String {
    let cells: Vec<String> = TEXT_COLUMNS
        .iter()
        .enumerate()
        .map(|(i, (name, w))| {
            if i == 1 || i == 2 {
                format!("{name:<w$}")
            } else {
                format!("{name:>w$}")
            }
        })
        .collect();
    format!("{}  note", cells.join("  "))
}

fn text_row(r: &Record) -> String {
    let dash = || "-".to_string();
    let opt = |v: Option<usize>| v.map_or_else(dash, |v| v.to_string());
    let mut cells = vec![
        r.line.to_string(),
        r.status.as_str().to_string(),
        dash(),
        dash(),
        opt(r.expected),
        dash(),
        dash(),
        dash(),
        dash(),
    ];
    let note = match &r.solved {
        Err(e) => e.clone(),
        Ok(s) => {
            cells[2] = s.start.shape().to_string();
            match &s.result {
                Err(_) if r.status == LineStatus::WrongExpected => {
                    wrong_expected_of(&s.result, r.expected.unwrap_or_default())
                }
                Err(e) => e.to_string(),
                Ok(sol) => {
                    let st = &sol.stats;
                    cells[3] = opt(sol.length());
                    cells[5] = st.expanded.to_string();
                    cells[6] = st.generated.to_string();
                    cells[7] = st.max_open.to_string();
                    cells[8] = format!("{:.6}", st.seconds);
                    match sol.stopped_by {
                        _ if r.status == LineStatus::WrongExpected => {
                            wrong_expected_of(&s.result, r.expected.unwrap_or_default())
                        }
                        Some(why) => format!("stopped by {}", why.cause()),
                        None if !sol.optimal => "not guaranteed optimal".to_string(),
                        None => String::new(),
                    }
                }
            }
        }
    };
    let cells: Vec<String> = cells
        .iter()
        .zip(TEXT_COLUMNS)
        .enumerate()
        .map(|(i, (c, (_, w)))| {
            if i == 1 || i == 2 {
                format!("{c:<w$}")
            } else {
                format!("{c:>w$}")
            }
        })
        .collect();
    format!("{}  {note}", cells.join("  "))
        .trim_end()
        .to_string()
}

fn summary(t: &Tally, seconds: f64, jobs: usize) -> String {
    let rate = if seconds > 0.0 {
        t.total as f64 / seconds
    } else {
        0.0
    };
    format!(
        "\n{}: {} solved, {} wrong expected length, {} unsolvable, {} stopped by a \
         limit, {} invalid; {seconds:.3} s on {jobs} thread{} ({rate:.0} instances/s)",
        count(t.total, "instance"),
        t.solved,
        t.wrong_expected,
        t.unsolvable,
        t.limit,
        t.invalid,
        if jobs == 1 { "" } else { "s" },
    )
}

/// The `solve --json` object plus where the instance came from and its verdict.
fn json_line(r: &Record) -> String {
    let mut value = match &r.solved {
        Ok(s) => {
            let report = SolveReport::new(&s.start, &s.goal, &s.result, false)
                .expect("input errors are recorded as invalid");
            serde_json::to_value(report).expect("a report serialises")
        }
        Err(e) => serde_json::json!({ "error": e }),
    };
    value["line"] = r.line.into();
    value["index"] = r.index.into();
    value["status"] = r.status.as_str().into();
    value["expected"] = r.expected.into();
    value["matches_expected"] = r.matches_expected.into();
    value.to_string()
}

/// One CSV row. Empty cells mean "does not apply".
#[derive(Serialize)]
struct CsvRow<'a> {
    index: usize,
    line: usize,
    status: &'a str,
    size: Option<String>,
    start: Option<String>,
    length: Option<usize>,
    expected: Option<usize>,
    matches_expected: Option<bool>,
    optimal: Option<bool>,
    expanded: Option<u64>,
    generated: Option<u64>,
    max_open: Option<u64>,
    seconds: Option<f64>,
    algorithm: Option<&'a str>,
    heuristic: Option<String>,
    stopped_by: Option<&'a str>,
    moves: Option<String>,
    error: Option<String>,
}

/// One record as CSV text, after the header row when `header` is set; each row is handed
/// on at once so a long run streams.
fn csv_bytes(r: &Record, header: bool) -> std::io::Result<Vec<u8>> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(header)
        .from_writer(Vec::new());
    w.serialize(csv_row(r)).map_err(std::io::Error::other)?;
    w.into_inner()
        .map_err(|e| std::io::Error::other(e.to_string()))
}

fn csv_row(r: &Record) -> CsvRow<'_> {
    let mut row = CsvRow {
        index: r.index,
        line: r.line,
        status: r.status.as_str(),
        size: None,
        start: None,
        length: None,
        expected: r.expected,
        matches_expected: r.matches_expected,
        optimal: None,
        expanded: None,
        generated: None,
        max_open: None,
        seconds: None,
        algorithm: None,
        heuristic: None,
        stopped_by: None,
        moves: None,
        error: None,
    };
    match &r.solved {
        Err(e) => row.error = Some(e.clone()),
        Ok(s) => {
            row.size = Some(s.start.shape().to_string());
            let tiles: Vec<String> = s.start.tiles().iter().map(u32::to_string).collect();
            row.start = Some(tiles.join(" "));
            match &s.result {
                Err(e) => row.error = Some(e.to_string()),
                Ok(sol) => {
                    row.length = sol.length();
                    row.optimal = Some(sol.optimal);
                    row.expanded = Some(sol.stats.expanded);
                    row.generated = Some(sol.stats.generated);
                    row.max_open = Some(sol.stats.max_open);
                    row.seconds = Some(sol.stats.seconds);
                    row.algorithm = Some(sol.algorithm.name());
                    row.heuristic = Some(sol.heuristic_name());
                    row.stopped_by = sol.stopped_by.map(|w| w.as_str());
                    row.moves = sol.moves.as_deref().map(npuzzle::Move::to_letters);
                }
            }
        }
    }
    row
}

/// The AI-course report of one line. With several lines, each block starts with a
/// `# line N` comment and blocks are separated by a blank line; a line without a solution
/// is a comment saying why.
fn aima_block(r: &Record, several: bool) -> String {
    let mut out = String::new();
    if several {
        if r.index > 0 {
            out.push('\n');
        }
        out.push_str(&format!("# line {}\n", r.line));
    }
    let why = match &r.solved {
        Err(e) => e.clone(),
        Ok(s) => match (&s.result, r.status) {
            (Ok(sol), LineStatus::Solved) => match &sol.moves {
                Some(moves) => {
                    out.push_str(&course_report::report(sol, moves));
                    return out;
                }
                None => String::new(),
            },
            (result, LineStatus::WrongExpected) => format!(
                "line {}: {}",
                r.line,
                wrong_expected_of(result, r.expected.unwrap_or_default())
            ),
            (Ok(sol), _) => format!(
                "line {}: stopped by {}",
                r.line,
                sol.stopped_by.map_or("a limit", StopReason::cause)
            ),
            (Err(e), _) => format!("line {}: {e}", r.line),
        },
    };
    if several {
        out.push_str(&format!("# {why}\n"));
    } else {
        crate::errln!("error: {why}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_worst_status_decides_the_exit_code() {
        let mut t = Tally::default();
        t.add(LineStatus::Solved);
        t.add(LineStatus::Unsolvable);
        assert_eq!(t.worst, Some(Outcome::Unsolvable));
        t.add(LineStatus::Limit);
        assert_eq!(t.worst, Some(Outcome::Limit));
        t.add(LineStatus::WrongExpected);
        assert_eq!(t.worst, Some(Outcome::Invalid));
    }
}
