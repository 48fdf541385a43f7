//! Files of boards: the one reading of the text that `solve --file`, `batch`, `bench`,
//! `compare` and Python's `read_instances` take, so every front end finds the same boards,
//! the same expected lengths and the same errors, each naming its line.
//!
//! A text holds one of:
//! * the **classroom format**: a first line that is only an order (`3`, `N=3`, `n = 4`,
//!   `3x4`), then one board of that shape per line;
//! * **one board**, its rows on one line or on several;
//! * **one board per line**, optionally followed by its optimal length as one more number
//!   (`1 2 3 4 5 6 7 0 8 1`, `312045678 20`), or `START | GOAL` (as `npuzzle random
//!   --pairs` prints), the goal optionally followed by the length.
//!
//! Blank lines and lines starting with `#` are skipped; line numbers count every line,
//! from 1. Reading the text (from a file or standard input) is the caller's, capped at
//! [`MAX_INPUT_BYTES`].
//!
//! ```
//! use npuzzle::board_file;
//! let lines = board_file::parse("# two boards\n3\n1 2 3 4 5 6 7 0 8 1\n8 1 2 0 4 3 7 6 5\n", None)?;
//! assert_eq!(lines.len(), 2);
//! assert_eq!((lines[0].line, lines[0].expected), (3, Some(1)));
//! assert_eq!(lines[1].board.as_ref().unwrap().to_string(), "8 1 2/0 4 3/7 6 5");
//! let bad = board_file::parse("1 2 3 4 5 6 7 8 8\n", None)?;
//! assert_eq!(bad[0].board.as_ref().unwrap_err().to_string(), "line 1: board has duplicate tile 8");
//! # Ok::<(), board_file::TooManyLines>(())
//! ```

use crate::board::{Board, ParseBoardError, RawBoard};
use crate::shape::{Shape, ShapeError};

/// The most bytes a file of boards may have (256 MiB): readers refuse more instead of
/// reading without end. Enforce it on the bytes read, not the length a file claims
/// (`/dev/zero`, a pipe or `<(…)` claim 0).
pub const MAX_INPUT_BYTES: u64 = 256 << 20;

/// The most lines of boards a text may have (a million; a classroom header, blank lines and
/// comments are not counted). A parsed board takes some hundred bytes, several times its
/// line, so [`MAX_INPUT_BYTES`] of short lines alone would make gigabytes of boards (a
/// 250 MB file of 3x3 boards took 3.2 GB to solve, one of malformed lines 10 GB): past
/// this many lines the whole text is refused, before any board is made.
pub const MAX_BOARD_LINES: usize = 1_000_000;

/// A text with more than [`MAX_BOARD_LINES`] lines of boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("more than {max} lines of boards (split the file)", max = MAX_BOARD_LINES)]
pub struct TooManyLines;

/// One board of a file of boards, with where it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardLine {
    /// 1-based line number in the text (the first line for a board written over several).
    pub line: usize,
    /// The board, or why the line is not one.
    pub board: Result<Board, BoardLineError>,
    /// The optimal length written after the tiles, if any.
    pub expected: Option<usize>,
    /// The board's own goal, from a `START | GOAL` line; `None` means the caller's goal.
    pub goal: Option<Board>,
}

/// Why a line of a file of boards is not a board; the message names the line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BoardLineError {
    /// The classroom header is not a shape (`0`, `3x`).
    #[error("line {line}: {error}")]
    Order {
        /// 1-based line number.
        line: usize,
        /// Why the order is not a shape.
        error: ShapeError,
    },
    /// The classroom header disagrees with the size the caller gave.
    #[error("line {line}: the file's order is {order} but the size is {size}")]
    OrderMismatch {
        /// 1-based line number.
        line: usize,
        /// The header's shape.
        order: Shape,
        /// The caller's shape.
        size: Shape,
    },
    /// A line that is not a board.
    #[error("line {line}: {error}")]
    Board {
        /// 1-based line number.
        line: usize,
        /// Why not.
        error: ParseBoardError,
    },
    /// The start of a `START | GOAL` line is not a board.
    #[error("line {line}: start: {error}")]
    Start {
        /// 1-based line number.
        line: usize,
        /// Why not.
        error: ParseBoardError,
    },
    /// The goal of a `START | GOAL` line is not a board of the start's shape.
    #[error("line {line}: goal: {error}")]
    Goal {
        /// 1-based line number.
        line: usize,
        /// Why not.
        error: ParseBoardError,
    },
    /// Lines that look like the rows of one board with a mistake, reported once.
    #[error("line {line}: not a board: {error}")]
    NotABoard {
        /// 1-based line number of the first row.
        line: usize,
        /// Why the rows are not a board.
        error: ParseBoardError,
    },
}

impl BoardLineError {
    /// The 1-based line the error is about.
    pub fn line(&self) -> usize {
        match self {
            BoardLineError::Order { line, .. }
            | BoardLineError::OrderMismatch { line, .. }
            | BoardLineError::Board { line, .. }
            | BoardLineError::Start { line, .. }
            | BoardLineError::Goal { line, .. }
            | BoardLineError::NotABoard { line, .. } => *line,
        }
    }
}

/// The lines that can hold boards, numbered from 1 and trimmed: every line but blank ones
/// and comments (lines starting with `#`). A byte-order mark at the start (editors on
/// Windows write one) is not part of the first line.
pub fn lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.strip_prefix('\u{feff}')
        .unwrap_or(text)
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
}

/// Splits a text into boards (see the [module](self) for the layouts), with `size` the
/// shape when the caller knows it. A text without a line of [`lines`] gives no boards, and
/// so does a classroom header with none after it.
///
/// Every line's outcome is its own: a bad line is an `Err` among the others.
///
/// # Errors
/// More than [`MAX_BOARD_LINES`] lines of boards, counted before any board is made.
pub fn parse(text: &str, size: Option<Shape>) -> Result<Vec<BoardLine>, TooManyLines> {
    let Some((_, first)) = lines(text).next() else {
        return Ok(Vec::new());
    };
    // A digit string (`312045678`) is a board, not an order, though it is all digits.
    let header = order_header(first).filter(|_| Board::parse(first, size).is_err());
    // Counted without keeping them, and no further than the cap needs.
    let counted = lines(text).take(MAX_BOARD_LINES + 2).count();
    if counted - usize::from(header.is_some()) > MAX_BOARD_LINES {
        return Err(TooManyLines);
    }
    Ok(parse_within_cap(lines(text).collect(), size, header))
}

/// [`parse`] of a text's [`lines`] (at least one) within the cap, its header already read.
fn parse_within_cap(
    lines: Vec<(usize, &str)>,
    size: Option<Shape>,
    header: Option<Result<Shape, ShapeError>>,
) -> Vec<BoardLine> {
    let (first_line, first) = lines[0];
    let failed = |board: BoardLineError| BoardLine {
        line: board.line(),
        board: Err(board),
        expected: None,
        goal: None,
    };
    if let Some(order) = header {
        let shape = match (order, size) {
            (Ok(order), Some(size)) if order != size => {
                return vec![failed(BoardLineError::OrderMismatch {
                    line: first_line,
                    order,
                    size,
                })]
            }
            (Ok(order), _) => order,
            (Err(error), _) => {
                return vec![failed(BoardLineError::Order {
                    line: first_line,
                    error,
                })]
            }
        };
        return lines[1..]
            .iter()
            .map(|&(line, l)| board_line(line, l, Some(shape)))
            .collect();
    }
    if lines.len() == 1 {
        return vec![board_line(first_line, first, size)];
    }
    let whole_text = lines.iter().map(|(_, l)| *l).collect::<Vec<_>>().join("\n");
    let whole = Board::parse(&whole_text, size);
    if let Ok(board) = whole {
        return vec![BoardLine {
            line: first_line,
            board: Ok(board),
            expected: None,
            goal: None,
        }];
    }
    let entries: Vec<BoardLine> = lines
        .iter()
        .map(|&(line, l)| board_line(line, l, size))
        .collect();
    // No line is a board and the lines look like the rows of one (as many rows as
    // columns, give or take one): it is one board with a mistake, so report that mistake
    // once rather than every row as a board of its own.
    let tokens = |l: &str| l.split([' ', ',', '\t']).filter(|t| !t.is_empty()).count();
    let rows_of_one = lines
        .iter()
        .all(|(_, l)| tokens(l).abs_diff(lines.len()) <= 1);
    if let (true, Err(error)) = (
        rows_of_one && entries.iter().all(|e| e.board.is_err()),
        whole,
    ) {
        return vec![failed(BoardLineError::NotABoard {
            line: first_line,
            error,
        })];
    }
    entries
}

/// The classroom header: a line that is only an order (`3`, `N=3`, `n = 4`, `3x4`).
fn order_header(line: &str) -> Option<Result<Shape, ShapeError>> {
    let t = line.trim();
    let value = match t.split_once('=') {
        Some((k, v)) if k.trim().eq_ignore_ascii_case("n") => v.trim(),
        Some(_) => return None,
        None => t,
    };
    let looks_like_order = value
        .chars()
        .all(|c| c.is_ascii_digit() || c == 'x' || c == 'X')
        && value.chars().next().is_some_and(|c| c.is_ascii_digit());
    looks_like_order.then(|| value.parse::<Shape>())
}

/// One line: `START`, or `START | GOAL`, each a board, the last optionally followed by
/// the optimal length as one more number.
fn board_line(line: usize, text: &str, size: Option<Shape>) -> BoardLine {
    let Some((start, goal)) = text.split_once('|') else {
        let (board, expected) = tiles(text, size);
        return BoardLine {
            line,
            board: board.map_err(|error| BoardLineError::Board { line, error }),
            expected,
            goal: None,
        };
    };
    let failed = |board| BoardLine {
        line,
        board: Err(board),
        expected: None,
        goal: None,
    };
    let start = match Board::parse(start.trim(), size) {
        Ok(b) => b,
        Err(error) => return failed(BoardLineError::Start { line, error }),
    };
    // The goal takes the start's shape, so a digit string or one row of tiles needs no size.
    match tiles(goal.trim(), Some(start.shape())) {
        (Ok(goal), expected) => BoardLine {
            line,
            board: Ok(start),
            expected,
            goal: Some(goal),
        },
        (Err(error), _) => failed(BoardLineError::Goal { line, error }),
    }
}

/// Tiles, then optionally the optimal length as one more number.
fn tiles(text: &str, size: Option<Shape>) -> (Result<Board, ParseBoardError>, Option<usize>) {
    // A digit string followed by its length: `312045678 20`.
    if let Some((digits, length)) = text.split_once(char::is_whitespace) {
        let is_number = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let (digits, length) = (digits.trim(), length.trim());
        if digits.len() >= 4 && is_number(digits) && is_number(length) {
            if let Ok(board) = Board::parse(digits, size) {
                return (Ok(board), length.parse().ok());
            }
        }
    }
    let raw = match RawBoard::parse(text) {
        Ok(raw) => raw,
        Err(e) => return (Err(e), None),
    };
    // With one more number than a board holds, the last one is the expected length.
    let cells = size
        .map(|s| s.cells())
        .or_else(|| square_below(raw.tiles.len()));
    if let Some(cells) = cells {
        if raw.tiles.len() == cells + 1 && raw.rows.len() <= 1 {
            let tiles = RawBoard {
                tiles: raw.tiles[..cells].to_vec(),
                rows: vec![cells],
            };
            let expected = usize::try_from(raw.tiles[cells]).ok();
            return (Board::from_raw(&tiles, size), expected);
        }
    }
    (Board::from_raw(&raw, size), None)
}

/// `k²` when `n == k² + 1` (a square board followed by its length).
fn square_below(n: usize) -> Option<usize> {
    let k = ((n.saturating_sub(1)) as f64).sqrt().round() as usize;
    (k >= 2 && k * k + 1 == n).then_some(k * k)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shape(s: &str) -> Option<Shape> {
        Some(s.parse().unwrap())
    }

    /// The boards of a text well within the cap.
    fn parse(text: &str, size: Option<Shape>) -> Vec<BoardLine> {
        super::parse(text, size).expect("within the cap")
    }

    fn board(e: &BoardLine) -> String {
        e.board.as_ref().unwrap().to_string()
    }

    fn error(e: &BoardLine) -> String {
        e.board.as_ref().unwrap_err().to_string()
    }

    #[test]
    fn comments_and_blank_lines_are_skipped_but_counted() {
        let e = parse(
            "# Korf's first two\n\n1 2 3 4 5 6 7 0 8\n   \n# note\n1 2 3 4 5 6 0 7 8\n",
            None,
        );
        assert_eq!(e.iter().map(|e| e.line).collect::<Vec<_>>(), [3, 6]);
        assert_eq!(board(&e[1]), "1 2 3/4 5 6/0 7 8");
        assert!(parse("", None).is_empty());
        assert!(parse("# only a comment\n\n", None).is_empty());
        // A `#` after the tiles is not a comment.
        assert_eq!(
            error(&parse("1 2 3 4 5 6 7 0 8 # easy\n", None)[0]),
            "line 1: invalid tile `#`: expected a number or `_`"
        );
    }

    /// Regression: a file saved with a byte-order mark said "invalid tile `\u{feff}1`".
    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_line() {
        let e = parse("\u{feff}1 2 3 4 5 6 7 0 8 1\n1 2 3 4 5 6 0 7 8\n", None);
        assert_eq!(board(&e[0]), "1 2 3/4 5 6/7 0 8");
        assert_eq!((e[0].line, e[0].expected, e[1].line), (1, Some(1), 2));
        let e = parse("\u{feff}3\n1 2 3 4 5 6 7 0 8\n", None);
        assert_eq!(board(&e[0]), "1 2 3/4 5 6/7 0 8");
        assert!(parse("\u{feff}", None).is_empty());
        // Only at the start: anywhere else it is not a tile.
        assert!(
            parse("1 2 3 4 5 6 7 0 8\n\u{feff}1 2 3 4 5 6 0 7 8\n", None)[1]
                .board
                .is_err()
        );
    }

    #[test]
    fn classroom_header() {
        for header in ["3", "N=3", "n = 3", "3x3", "3X3"] {
            let e = parse(
                &format!("{header}\n1 2 3 4 5 6 7 8 0\n\n8 1 2 0 4 3 7 6 5 9\n"),
                None,
            );
            assert_eq!(e.len(), 2, "{header}");
            assert_eq!((e[1].line, e[1].expected), (4, Some(9)), "{header}");
            assert_eq!(board(&e[1]), "8 1 2/0 4 3/7 6 5");
        }
        let e = parse("2x3\n1 2 3 4 5 0\n1 2 3 4 0 5 1\n", None);
        assert_eq!(board(&e[0]), "1 2 3/4 5 0");
        assert_eq!(e[1].expected, Some(1));
        // The header agrees with the size given, or is the one error.
        assert_eq!(parse("3\n1 2 3 4 5 6 7 8 0\n", shape("3x3")).len(), 1);
        let e = parse("3\n1 2 3 4 5 6 7 8 0\n", shape("4x4"));
        assert_eq!(e.len(), 1);
        assert_eq!(
            e[0].board,
            Err(BoardLineError::OrderMismatch {
                line: 1,
                order: "3x3".parse().unwrap(),
                size: "4x4".parse().unwrap()
            })
        );
        assert_eq!(
            error(&e[0]),
            "line 1: the file's order is 3x3 but the size is 4x4"
        );
        let e = parse("# header\n1x3\n1 2 0\n", None);
        assert!(matches!(
            e[0].board,
            Err(BoardLineError::Order { line: 2, .. })
        ));
        assert!(parse("3\n", None).is_empty());
        // A digit string on the first line is a board, not an order.
        assert_eq!(parse("312045678\n123456708\n", None).len(), 2);
    }

    #[test]
    fn expected_length_present_or_absent() {
        let e = parse(
            "1 2 3 4 5 6 7 0 8 1\n1,2,3,4,5,6,0,7,8,2\n1 2 3 4 5 6 7 8 0\n312045678 21\n\
             1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15 1\n",
            None,
        );
        let lengths: Vec<_> = e.iter().map(|e| e.expected).collect();
        assert_eq!(lengths, [Some(1), Some(2), None, Some(21), Some(1)]);
        assert_eq!(board(&e[3]), "3 1 2/0 4 5/6 7 8");
        assert_eq!(board(&e[4]), "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15");
        // With the size given, one more number than its cells is the length.
        let e = parse("1 2 3 4 0 5 7\n1 2 3 4 0 5\n", shape("2x3"));
        assert_eq!((e[0].expected, e[1].expected), (Some(7), None));
        // Rows written with `/` take no length.
        let e = parse("1 2 3/4 5 6/7 0 8 1\n1 2 3 4 5 6 7 8 0\n", None);
        assert_eq!(
            error(&e[0]),
            "line 1: row 3 has 4 tiles, expected 3 like row 1"
        );
        // A length too large for a tile is refused like one.
        let e = parse("1 2 3 4 5 6 7 0 8 99999999999999999999\n", None);
        assert!(error(&e[0]).starts_with("line 1: tile `9999"));
    }

    #[test]
    fn a_bad_line_is_named_and_the_others_are_read() {
        let e = parse("1 2 3 4 5 6 7 0 8 1\n1 2 3 4 5 6 0 7 8 2\nbad line\n", None);
        assert_eq!(e.len(), 3);
        assert_eq!(e[1].expected, Some(2));
        assert_eq!(
            e[2].board,
            Err(BoardLineError::Board {
                line: 3,
                error: ParseBoardError::InvalidToken("bad".into())
            })
        );
        assert_eq!(
            error(&e[2]),
            "line 3: invalid tile `bad`: expected a number or `_`"
        );
        assert_eq!(e[2].board.as_ref().unwrap_err().line(), 3);
    }

    #[test]
    fn one_board_over_several_lines() {
        let e = parse("7 2 6\n8 1 4\n3 5 0\n", None);
        assert_eq!(e.len(), 1);
        assert_eq!(board(&e[0]), "7 2 6/8 1 4/3 5 0");
    }

    /// Regression: a one-board file with one typo reported every line as a bad board.
    #[test]
    fn one_board_with_a_typo_is_one_error() {
        let e = parse("7 2 6\n8 1 x\n3 5 0\n", None);
        assert_eq!(e.len(), 1);
        assert!(matches!(
            e[0].board,
            Err(BoardLineError::NotABoard { line: 1, .. })
        ));
        assert!(error(&e[0]).starts_with("line 1: not a board"));
        // Lines of whole boards with mistakes are still reported one by one.
        let e = parse("1 2 3 4 5 6 7 0 x\n1 2 3 4 5 6 0 7 y\n", None);
        assert_eq!(e.len(), 2);
    }

    #[test]
    fn start_goal_pairs() {
        let e = parse(
            "1 2 3 4 5 6 7 0 8 | 1 2 3 4 5 6 7 8 0\n\
             8 1 2 0 4 3 7 6 5 | 0 1 2 3 4 5 6 7 8 22\n\
             1 2 3 4 5 6 7 0 8 | 1 2 3 4 5 6 7 8 0 9 10 11 12 13 14 15\n\
             1 2 3 4 5 6 7 8 0\n\
             1 2 3 4 5 6 7 8 | 1 2 3 4 5 6 7 8 0\n",
            None,
        );
        assert_eq!(e.len(), 5);
        assert_eq!(e[0].goal.as_ref().unwrap().to_string(), "1 2 3/4 5 6/7 8 0");
        assert_eq!(e[0].expected, None);
        assert_eq!(e[1].goal.as_ref().unwrap().to_string(), "0 1 2/3 4 5/6 7 8");
        assert_eq!(e[1].expected, Some(22));
        assert!(
            error(&e[2]).starts_with("line 3: goal:"),
            "{}",
            error(&e[2])
        );
        assert!(e[3].goal.is_none() && e[3].board.is_ok());
        assert!(
            error(&e[4]).starts_with("line 5: start:"),
            "{}",
            error(&e[4])
        );
    }

    #[test]
    fn digit_strings_with_and_without_lengths_and_goals() {
        let e = parse("312045678\n312045678 3\n312045678 | 123456780\n", None);
        assert_eq!(e.len(), 3);
        assert!(e.iter().all(|e| board(e) == "3 1 2/0 4 5/6 7 8"));
        assert_eq!(e[1].expected, Some(3));
        assert_eq!(e[2].goal.as_ref().unwrap().to_string(), "1 2 3/4 5 6/7 8 0");
    }

    /// Fuzzing the parser (issue 15): random texts never panic it, every error is one line
    /// naming a line of the text, and every board read is a board of that line.
    /// `NPUZZLE_FUZZ_SECS=600 cargo test --release -p npuzzle --lib fuzz -- --ignored`
    mod fuzz {
        use std::time::{Duration, Instant};

        use proptest::prelude::*;
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;

        use super::super::*;

        fn file_text() -> impl Strategy<Value = String> {
            let line = prop_oneof![
                "[0-9 ,/_|]{0,40}",
                prop::collection::vec(0u32..20, 8..18).prop_map(|v| v
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")),
                Just("N=3".to_string()),
                Just("3x4".to_string()),
                Just("# comment".to_string()),
                Just("1 2 3 4 5 6 7 0 8 1".to_string()),
                Just("7 2 6".to_string()),
                "[0-9]{1,3}x[0-9]{1,3}",
                any::<String>().prop_map(|s| s.replace(['\n', '\r'], " ")),
            ];
            prop_oneof![
                prop::collection::vec(line, 0..12).prop_map(|l| l.join("\n")),
                prop::collection::vec(any::<u8>(), 0..300)
                    .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
            ]
        }

        fn check(text: &str, size: Option<Shape>) {
            let lines = text.lines().count().max(1);
            for e in super::parse(text, size) {
                assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}", e.line);
                match &e.board {
                    Ok(b) => {
                        let again = Board::parse(&b.to_string(), Some(b.shape())).unwrap();
                        assert_eq!(&again, b);
                    }
                    Err(why) => {
                        assert_eq!(why.line(), e.line);
                        let why = why.to_string();
                        assert!(why.starts_with(&format!("line {}: ", e.line)), "{why}");
                        assert!(!why.contains('\n'), "{why}");
                        assert!(why.len() < 500, "{} bytes", why.len());
                    }
                }
            }
        }

        fn run(duration: Option<Duration>, cases: u64) {
            let strategy = (file_text(), prop::option::of((2usize..6, 2usize..6)));
            let mut runner = TestRunner::deterministic();
            let started = Instant::now();
            let mut runs = 0u64;
            while duration.map_or(runs < cases, |d| started.elapsed() < d) {
                let (text, size) = strategy.new_tree(&mut runner).unwrap().current();
                let size = size.and_then(|(r, c)| Shape::new(r, c).ok());
                let outcome = std::panic::catch_unwind(|| check(&text, size));
                assert!(outcome.is_ok(), "input {text:?} (size {size:?}) failed");
                runs += 1;
            }
            eprintln!(
                "board file parser: {runs} inputs in {:.1} s, no failure",
                started.elapsed().as_secs_f64()
            );
        }

        #[test]
        fn board_file_parser_quick() {
            run(None, 3000);
        }

        #[test]
        #[ignore = "long fuzz run"]
        fn board_file_parser_long() {
            let secs = std::env::var("NPUZZLE_FUZZ_SECS")
                .ok()
                .and_then(|s| s.parse::<f64>().ok())
                .unwrap_or(60.0);
            run(Some(Duration::from_secs_f64(secs)), 0);
        }
    }

    /// Regression: a file within the byte cap but of a few million short lines made
    /// gigabytes of boards (10 GB for 250 MB of malformed lines). Past a million lines of
    /// boards the text is refused; a header, comments and blank lines do not count.
    #[test]
    fn more_than_a_million_lines_of_boards_are_refused() {
        let lines = |n: usize| "x\n".repeat(n);
        let at_cap = format!("3\n# a comment\n\n{}", lines(MAX_BOARD_LINES));
        assert_eq!(
            super::parse(&at_cap, None).map(|e| e.len()),
            Ok(MAX_BOARD_LINES)
        );
        let over = format!("{at_cap}x\n");
        assert_eq!(super::parse(&over, None), Err(TooManyLines));
        assert_eq!(
            super::parse(&lines(MAX_BOARD_LINES + 1), None),
            Err(TooManyLines)
        );
        assert_eq!(
            TooManyLines.to_string(),
            "more than 1000000 lines of boards (split the file)"
        );
    }
}
