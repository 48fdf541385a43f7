//! One engine for a file of boards, shared by `solve --file`, `batch`, `bench` and
//! `compare`: reading the file (entries numbered by line, 1-based, as in every message),
//! solving an entry, and one rule for judging a length written in the file.

use std::path::Path;
use std::sync::atomic::AtomicBool;

use anyhow::{bail, Result};
use npuzzle::search::Control;
use npuzzle::{Board, GoalSpec, Shape, Solution, SolveError, SolveOptions, Tables};

use crate::exit::Outcome;
use crate::input::{self, Entry};

/// What became of one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Solved, and the expected length (if any) agrees.
    Solved,
    /// Solved or proved unsolvable, and the expected length written in the file is wrong.
    WrongExpected,
    /// The board cannot reach the goal.
    Unsolvable,
    /// A limit stopped the search.
    Limit,
    /// Not a board, or not one the search accepts.
    Invalid,
}

impl Status {
    /// The name used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Solved => "solved",
            Status::WrongExpected => "wrong-expected",
            Status::Unsolvable => "unsolvable",
            Status::Limit => "limit",
            Status::Invalid => "invalid",
        }
    }

    /// The exit outcome: a wrong expected length counts as invalid input (the file's claim
    /// is false), like a malformed line.
    pub fn outcome(self) -> Outcome {
        match self {
            Status::Solved => Outcome::Success,
            Status::Unsolvable => Outcome::Unsolvable,
            Status::Limit => Outcome::Limit,
            Status::WrongExpected | Status::Invalid => Outcome::Invalid,
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
    pub status: Status,
    /// The solve, or why there was none.
    pub solved: Result<Solved, String>,
}

/// A board that went through the solver.
pub struct Solved {
    pub start: Board,
    pub goal: Board,
    pub result: Result<Solution, SolveError>,
}

/// Reads a file (or `-`) into entries, refusing input without a single board.
///
/// # Errors
/// An unreadable file or one without boards.
pub fn read_entries(path: &Path, size: Option<Shape>) -> Result<Vec<Entry>> {
    let text = input::read_file(path)?;
    let has_board = text
        .lines()
        .map(str::trim)
        .any(|l| !l.is_empty() && !l.starts_with('#'));
    if !has_board {
        bail!("{} has no boards", display_path(path));
    }
    Ok(input::parse_entries(&text, size))
}

fn display_path(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// Prefixes `line N: ` unless the message already names its line.
pub fn located(line: usize, message: &str) -> String {
    if message.starts_with("line ") {
        message.to_string()
    } else {
        format!("line {line}: {message}")
    }
}

/// Solves one entry (its goal: its own from a `START | GOAL` line, else `goal` on its
/// board's shape) and judges it against its expected length.
pub fn solve_entry(
    index: usize,
    entry: &Entry,
    goal: &GoalSpec,
    options: &SolveOptions,
    tables: &Tables,
    limits: npuzzle::Limits,
    cancel: &AtomicBool,
) -> Record {
    let mut record = Record {
        index,
        line: entry.line,
        expected: entry.expected,
        matches_expected: None,
        status: Status::Invalid,
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
        progress: None,
        trace: 0,
        threads: 0,
    };
    let mut result = crate::solving::solve_counting_tables(&start, &goal, options, tables, control);
    crate::interrupt::relabel(&mut result);
    let (status, matches) = judge(&result, entry.expected);
    if status == Status::Invalid {
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

/// The status of a solve and whether it agrees with the expected length: the one
/// judgement of expected lengths that `solve --file`, `batch`, `bench` and `compare` make.
///
/// A path not guaranteed shortest disproves an expected length only when it is shorter.
pub fn judge(
    result: &Result<Solution, SolveError>,
    expected: Option<usize>,
) -> (Status, Option<bool>) {
    match result {
        Err(SolveError::Unsolvable(_)) => match expected {
            Some(_) => (Status::WrongExpected, Some(false)),
            None => (Status::Unsolvable, None),
        },
        Err(_) => (Status::Invalid, None),
        Ok(s) => judge_path(s.length(), s.optimal, expected),
    }
}

/// [`judge`] for a search that ended without an error: `length` is `None` when a limit
/// stopped it, `optimal` whether the path is guaranteed shortest.
pub fn judge_path(
    length: Option<usize>,
    optimal: bool,
    expected: Option<usize>,
) -> (Status, Option<bool>) {
    match (length, expected) {
        (None, _) => (Status::Limit, None),
        (Some(_), None) => (Status::Solved, None),
        (Some(len), Some(e)) if len == e => (Status::Solved, Some(true)),
        (Some(len), Some(e)) if optimal || len < e => (Status::WrongExpected, Some(false)),
        (Some(_), Some(_)) => (Status::Solved, None),
    }
}

/// The words every command uses for a length the file got wrong: `found` is the length of
/// the path that disproves it, `None` for an unsolvable board.
pub fn wrong_expected(found: Option<usize>, expected: usize) -> String {
    match found {
        Some(len) => format!("wrong expected length: found {len} moves, the file says {expected}"),
        None => format!("wrong expected length: unsolvable, the file says {expected} moves"),
    }
}

/// [`wrong_expected`] for a solve [`judge`] found wrong.
pub fn wrong_expected_of(result: &Result<Solution, SolveError>, expected: usize) -> String {
    wrong_expected(result.as_ref().ok().and_then(Solution::length), expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::search::SearchStats;
    use npuzzle::{Algorithm, Verdict};

    fn solution(length: Option<usize>, optimal: bool) -> Result<Solution, SolveError> {
        let start = Board::parse("1 2 3/4 5 6/7 8 0", None).unwrap();
        let verdict = npuzzle::solvability::check(&start, &start).unwrap();
        Ok(Solution {
            verdict,
            moves: length.map(|n| vec![npuzzle::Move::Up; n]),
            optimal,
            stats: SearchStats::default(),
            stopped_by: None,
            algorithm: Algorithm::IdaStar,
            heuristic: Some(npuzzle::HeuristicSpec::Manhattan),
            phase: npuzzle::plan::PhaseKind::Search,
            admissible: true,
            trace: Vec::new(),
            lower_bound: None,
            bound_factor: None,
            improvements: Vec::new(),
        })
    }

    #[test]
    fn expected_lengths_are_judged_by_what_the_path_proves() {
        use Status::*;
        assert_eq!(
            judge(&solution(Some(20), true), Some(20)),
            (Solved, Some(true))
        );
        assert_eq!(
            judge(&solution(Some(22), true), Some(20)),
            (WrongExpected, Some(false))
        );
        // A greedy path longer than expected proves nothing; a shorter one does.
        assert_eq!(judge(&solution(Some(30), false), Some(20)), (Solved, None));
        assert_eq!(
            judge(&solution(Some(18), false), Some(20)),
            (WrongExpected, Some(false))
        );
        assert_eq!(judge(&solution(None, false), Some(20)), (Limit, None));
        assert_eq!(judge(&solution(Some(5), true), None), (Solved, None));
        let unsolvable: Verdict = {
            let a = Board::parse("1 2 3/4 5 6/8 7 0", None).unwrap();
            let g = Board::parse("1 2 3/4 5 6/7 8 0", None).unwrap();
            npuzzle::solvability::check(&a, &g).unwrap()
        };
        let err = Err(SolveError::Unsolvable(unsolvable));
        assert_eq!(judge(&err, None), (Unsolvable, None));
        assert_eq!(judge(&err, Some(3)), (WrongExpected, Some(false)));
    }
}
