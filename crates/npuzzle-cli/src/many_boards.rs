//! One engine for a file of boards, shared by `solve --file`, `batch`, `bench` and
//! `compare`: reading the file (entries numbered by line, 1-based, as in every message) and
//! solving an entry. Parsing the text and judging a length written in it are the core's
//! ([`npuzzle::board_file`], [`npuzzle::expected_length`]), shared with Python.

use std::sync::atomic::AtomicBool;

use anyhow::Result;
use npuzzle::expected_length::judge;
use npuzzle::search::Control;
use npuzzle::{Board, GoalSpec, LineStatus, Solution, SolveError};

use crate::exit::Outcome;
use crate::input::Entry;
use crate::plan_book::PlanBook;

impl From<LineStatus> for Outcome {
    /// The exit outcome of a line: a wrong expected length counts as invalid input (the
    /// file's claim is false), like a malformed line.
    fn from(status: LineStatus) -> Outcome {
        match status {
            LineStatus::Solved => Outcome::Success,
            LineStatus::Unsolvable => Outcome::Unsolvable,
            LineStatus::Limit => Outcome::Limit,
            LineStatus::WrongExpected | LineStatus::Invalid => Outcome::Invalid,
        }
    }
}

/// One line's result.
pub struct Record {
    /// 0-based position among the instances.
    pub index: usize,
    /// 1-based line number in the input.
    pub line: usize,
    /// The optimal length written in the file.
    pub expected: Option<usize>,
    /// Whether the result agrees with `expected` (`None`: nothing to compare, or a path
    /// that is not guaranteed shortest and is not shorter than expected).
    pub matches_expected: Option<bool>,
    /// The verdict.
    pub status: LineStatus,
    /// The solve, or why there was none.
    pub solved: Result<Solved, String>,
}

/// A board that went through the solver.
pub struct Solved {
    pub start: Board,
    pub goal: Board,
    pub result: Result<Solution, SolveError>,
}

/// Prefixes `line N: ` unless the message already names its line.
pub fn located(line: usize, message: &str) -> String {
    if message.starts_with("line ") {
        message.to_string()
    } else {
        format!("line {line}: {message}")
    }
}

/// The goals the entries' boards are solved for by the command's `goal` (one per shape),
/// for a [`PlanBook`]: lines with their own goal, or no board, have none.
pub fn command_goals<'a>(
    entries: &'a [Entry],
    goal: &'a GoalSpec,
) -> impl Iterator<Item = Board> + 'a {
    entries
        .iter()
        .filter(|e| e.goal.is_none())
        .filter_map(|e| e.board.as_ref().ok())
        .filter_map(|b| goal.board(b.shape()).ok())
}

/// Solves one entry (its goal: its own from a `START | GOAL` line, else `goal` on its
/// board's shape) by its goal's plan in `book`, and judges it against its expected length.
pub fn solve_entry(
    index: usize,
    entry: &Entry,
    goal: &GoalSpec,
    book: &PlanBook,
    limits: npuzzle::Limits,
    cancel: &AtomicBool,
) -> Record {
    let mut record = Record {
        index,
        line: entry.line,
        expected: entry.expected,
        matches_expected: None,
        status: LineStatus::Invalid,
        solved: Err(String::new()),
    };
    let start = match &entry.board {
        Ok(b) => b.clone(),
        Err(e) => {
            record.solved = Err(located(entry.line, e));
            return record;
        }
    };
    let goal = match entry
        .goal
        .clone()
        .map_or_else(|| goal.board(start.shape()), Ok)
    {
        Ok(g) => g,
        Err(e) => {
            record.solved = Err(located(entry.line, &e.to_string()));
            return record;
        }
    };
    let control = Control {
        limits,
        cancel: Some(cancel),
        ..Control::default()
    };
    let mut result = book.solve(&start, &goal, control);
    crate::interrupt::relabel(&mut result);
    let (status, matches) = judge(&result, entry.expected);
    if status == LineStatus::Invalid {
        let e = result.as_ref().err().map(ToString::to_string);
        record.solved = Err(located(entry.line, &e.unwrap_or_default()));
        return record;
    }
    record.status = status;
    record.matches_expected = matches;
    record.solved = Ok(Solved {
        start,
        goal,
        result,
    });
    record
}
