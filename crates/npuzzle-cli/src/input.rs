//! Where boards come from: an argument, a file or standard input, in any of the accepted
//! layouts (one board; the classroom format with the order on the first line; one board per
//! line, optionally followed by its known optimal length).

use std::io::{IsTerminal, Read};
use std::path::Path;

use anyhow::{bail, Context, Result};
use npuzzle::{Board, RawBoard, Shape};

use crate::options::BoardArgs;

/// Refuse inputs larger than this instead of reading without end.
const MAX_INPUT_BYTES: u64 = 256 << 20;

/// One board read from the input, with where it came from.
#[derive(Debug)]
pub struct Entry {
    /// 1-based line number in the input (1 for a board given as an argument).
    pub line: usize,
    /// The board, or why the line is not one.
    pub board: Result<Board, String>,
    /// The optimal length written after the tiles, if any.
    pub expected: Option<usize>,
    /// The board's own goal, from a `START | GOAL` line; `None` means the command's goal.
    pub goal: Option<Board>,
}

/// Reads the text of `--file PATH` (`-` is standard input).
///
/// The cap is enforced on the bytes read, not on the length the file claims: `/dev/zero`,
/// a named pipe or a process substitution (`<(…)`) report a length of 0 and never end.
///
/// # Errors
/// A missing or unreadable file, a directory, one over 256 MiB, or not UTF-8.
pub fn read_file(path: &Path) -> Result<String> {
    if path == Path::new("-") {
        return read_stdin();
    }
    let meta =
        std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if meta.is_dir() {
        bail!("cannot read {}: it is a directory", path.display());
    }
    if meta.len() > MAX_INPUT_BYTES {
        bail!("{} is larger than 256 MiB", path.display());
    }
    let file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let bytes = read_capped(file).with_context(|| format!("cannot read {}", path.display()))?;
    let Some(bytes) = bytes else {
        bail!("{} is larger than 256 MiB", path.display());
    };
    String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8 text", path.display()))
}

/// Reads at most [`MAX_INPUT_BYTES`]; `None` if there is more.
fn read_capped(reader: impl Read) -> std::io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    reader.take(MAX_INPUT_BYTES + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= MAX_INPUT_BYTES).then_some(bytes))
}

/// Reads standard input, refusing to wait on a terminal.
///
/// # Errors
/// Standard input is a terminal, unreadable, not UTF-8 or over 256 MiB.
pub fn read_stdin() -> Result<String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        bail!(
            "no board given: pass a BOARD argument, --file PATH, or pipe a board on standard input"
        );
    }
    let Some(bytes) = read_capped(stdin.lock()).context("cannot read standard input")? else {
        bail!("standard input is larger than 256 MiB");
    };
    String::from_utf8(bytes).context("standard input is not UTF-8 text")
}

/// Splits input text into boards.
///
/// * A first line holding just a number (`3`, `N=3`, `3x4`) gives the order of the
///   classroom format: each later line is one board of that shape.
/// * Otherwise, if the whole text is one valid board, it is one board (rows may be on
///   separate lines).
/// * Otherwise each non-empty line is a board, optionally followed by its optimal length.
///
/// Lines starting with `#` are comments.
pub fn parse_entries(text: &str, size: Option<Shape>) -> Vec<Entry> {
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if lines.is_empty() {
        return vec![Entry {
            line: 1,
            board: Err("input has no board".into()),
            expected: None,
            goal: None,
        }];
    }
    let (first_line, first) = lines[0];
    // A digit string (`312045678`) is a board, not an order, though it is all digits.
    let header = order_header(first).filter(|_| Board::parse(first, size).is_err());
    if let Some(order) = header {
        let shape = match (order, size) {
            (Ok(o), None) => o,
            (Ok(o), Some(s)) if o == s => o,
            (Ok(o), Some(s)) => {
                return vec![Entry {
                    line: first_line,
                    board: Err(format!("the file's order is {o} but --size is {s}")),
                    expected: None,
                    goal: None,
                }]
            }
            (Err(e), _) => {
                return vec![Entry {
                    line: first_line,
                    board: Err(format!("line {first_line}: {e}")),
                    expected: None,
                    goal: None,
                }]
            }
        };
        return lines[1..]
            .iter()
            .map(|&(line, l)| board_line(line, l, Some(shape)))
            .collect();
    }
    let whole_text: Vec<&str> = lines.iter().map(|(_, l)| *l).collect();
    if lines.len() == 1 {
        return vec![board_line(first_line, first, size)];
    }
    if let Ok(board) = Board::parse(&whole_text.join("\n"), size) {
        return vec![Entry {
            line: first_line,
            board: Ok(board),
            expected: None,
            goal: None,
        }];
    }
    let entries: Vec<Entry> = lines
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
    if rows_of_one && entries.iter().all(|e| e.board.is_err()) {
        let e = Board::parse(&whole_text.join("\n"), size).err();
        return vec![Entry {
            line: first_line,
            board: Err(format!(
                "line {first_line}: not a board: {}",
                e.map_or("unreadable".to_string(), |e| e.to_string())
            )),
            expected: None,
            goal: None,
        }];
    }
    entries
}

/// The classroom header: a line that is only an order (`3`, `N=3`, `n = 4`, `3x4`).
fn order_header(line: &str) -> Option<Result<Shape, String>> {
    let t = line.trim();
    let value = match t.split_once('=') {
        Some((k, v)) if k.trim().eq_ignore_ascii_case("n") => v.trim(),
        Some(_) => return None,
        None => t,
    };
    let looks_like_order = !value.is_empty()
        && value
            .chars()
            .all(|c| c.is_ascii_digit() || c == 'x' || c == 'X')
        && value.chars().next().is_some_and(|c| c.is_ascii_digit());
    looks_like_order.then(|| value.parse::<Shape>().map_err(|e| e.to_string()))
}

/// One line: `START`, or `START | GOAL` (as `random --pairs` prints), each a board,
/// the last optionally followed by the optimal length as one more number.
fn board_line(line: usize, text: &str, size: Option<Shape>) -> Entry {
    let Some((start, goal)) = text.split_once('|') else {
        return tiles_line(line, text, size);
    };
    let located = |e: String| format!("line {line}: {e}");
    let start = match Board::parse(start.trim(), size) {
        Ok(b) => b,
        Err(e) => {
            return Entry {
                line,
                board: Err(located(format!("start: {e}"))),
                expected: None,
                goal: None,
            }
        }
    };
    // The goal takes the start's shape, so a digit string or one row of tiles needs no --size.
    let goal = tiles_line(line, goal.trim(), Some(start.shape()));
    match goal.board {
        Ok(g) => Entry {
            line,
            board: Ok(start),
            expected: goal.expected,
            goal: Some(g),
        },
        Err(e) => Entry {
            line,
            board: Err(e.replacen(": ", ": goal: ", 1)),
            expected: None,
            goal: None,
        },
    }
}

/// Tiles, then optionally the optimal length as one more number.
fn tiles_line(line: usize, text: &str, size: Option<Shape>) -> Entry {
    let located = |e: String| format!("line {line}: {e}");
    // A digit string followed by its length: `312045678 20`.
    if let Some((digits, length)) = text.split_once(char::is_whitespace) {
        let is_number = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let (digits, length) = (digits.trim(), length.trim());
        if digits.len() >= 4 && is_number(digits) && is_number(length) {
            if let Ok(board) = Board::parse(digits, size) {
                return Entry {
                    line,
                    board: Ok(board),
                    expected: length.parse().ok(),
                    goal: None,
                };
            }
        }
    }
    let raw = match RawBoard::parse(text) {
        Ok(raw) => raw,
        Err(e) => {
            return Entry {
                line,
                board: Err(located(e.to_string())),
                expected: None,
                goal: None,
            }
        }
    };
    // With one more number than a board holds, the last one is the expected length.
    let cells = size
        .map(|s| s.cells())
        .or_else(|| square_below(raw.tiles.len()));
    if let Some(cells) = cells {
        if raw.tiles.len() == cells + 1 && raw.rows.len() <= 1 {
            let expected = raw.tiles[cells];
            let tiles = RawBoard {
                tiles: raw.tiles[..cells].to_vec(),
                rows: vec![cells],
            };
            return Entry {
                line,
                board: Board::from_raw(&tiles, size).map_err(|e| located(e.to_string())),
                expected: usize::try_from(expected).ok(),
                goal: None,
            };
        }
    }
    Entry {
        line,
        board: Board::from_raw(&raw, size).map_err(|e| located(e.to_string())),
        expected: None,
        goal: None,
    }
}

/// `k²` when `n == k² + 1` (a square board followed by its length).
fn square_below(n: usize) -> Option<usize> {
    let k = ((n.saturating_sub(1)) as f64).sqrt().round() as usize;
    (k >= 2 && k * k + 1 == n).then_some(k * k)
}

/// Boards from the arguments: BOARD, --file or standard input.
pub fn boards(args: &BoardArgs) -> Result<Vec<Entry>> {
    let text = match (&args.board, &args.file) {
        // `npuzzle solve boards.txt`: an existing file that is not a board is read as one.
        (Some(b), _) if Board::parse(b, args.size).is_err() && Path::new(b).is_file() => {
            read_file(Path::new(b))?
        }
        (Some(b), _) => {
            return Ok(vec![Entry {
                line: 1,
                board: Board::parse(b, args.size).map_err(|e| not_a_board(b, &e)),
                expected: None,
                goal: None,
            }])
        }
        (None, Some(path)) => read_file(path)?,
        (None, None) => read_stdin()?,
    };
    Ok(parse_entries(&text, args.size))
}

/// The parse error, and for an argument that looks like a file name, the way to read one.
fn not_a_board(arg: &str, e: &npuzzle::ParseBoardError) -> String {
    if arg.chars().any(|c| c.is_alphabetic() || c == '.') && !arg.contains(char::is_whitespace) {
        format!("{e}; no file is named `{arg}` either (to read boards from a file: --file PATH)")
    } else {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classroom_format() {
        let e = parse_entries("N=3\n1 2 3 4 5 6 7 8 0\n\n8 1 2 0 4 3 7 6 5\n", None);
        assert_eq!(e.len(), 2);
        assert_eq!(e[1].line, 4);
        assert!(e.iter().all(|e| e.board.is_ok()));
        let e = parse_entries("2x3\n1 2 3 4 5 0\n", None);
        assert_eq!(e[0].board.as_ref().unwrap().shape().to_string(), "2x3");
    }

    #[test]
    fn one_board_over_several_lines() {
        let e = parse_entries("7 2 6\n8 1 4\n3 5 0\n", None);
        assert_eq!(e.len(), 1);
        assert_eq!(
            e[0].board.as_ref().unwrap().to_string(),
            "7 2 6/8 1 4/3 5 0"
        );
    }

    /// Regression: a one-board file with one typo reported every line as a bad board.
    #[test]
    fn one_board_with_a_typo_is_one_error() {
        let e = parse_entries("7 2 6\n8 1 x\n3 5 0\n", None);
        assert_eq!(e.len(), 1);
        let why = e[0].board.as_ref().unwrap_err();
        assert!(why.starts_with("line 1: not a board"), "{why}");
        // Lines of whole boards with mistakes are still reported one by one.
        let e = parse_entries("1 2 3 4 5 6 7 0 x\n1 2 3 4 5 6 0 7 y\n", None);
        assert_eq!(e.len(), 2);
    }

    /// Regression (issue 15, item 6): the cap was checked on the length a file claims, which
    /// is 0 for `/dev/zero`, a pipe or `<(…)`.
    #[test]
    fn reading_stops_at_the_cap() {
        let endless = std::io::repeat(b'1');
        assert!(read_capped(endless).unwrap().is_none());
        assert!(read_capped(&b"1 2 3"[..]).unwrap().is_some());
    }

    #[test]
    fn lines_with_expected_lengths() {
        let e = parse_entries("1 2 3 4 5 6 7 0 8 1\n1 2 3 4 5 6 0 7 8 2\nbad line\n", None);
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].expected, Some(1));
        assert_eq!(e[1].expected, Some(2));
        assert!(e[2].board.as_ref().unwrap_err().starts_with("line 3:"));
    }

    #[test]
    fn start_goal_pairs() {
        let e = parse_entries(
            "1 2 3 4 5 6 7 0 8 | 1 2 3 4 5 6 7 8 0\n\
             8 1 2 0 4 3 7 6 5 | 0 1 2 3 4 5 6 7 8 22\n\
             1 2 3 4 5 6 7 0 8 | 1 2 3 4 5 6 7 8 0 9 10 11 12 13 14 15\n\
             1 2 3 4 5 6 7 8 0\n",
            None,
        );
        assert_eq!(e.len(), 4);
        assert_eq!(e[0].goal.as_ref().unwrap().to_string(), "1 2 3/4 5 6/7 8 0");
        assert_eq!(e[0].expected, None);
        assert_eq!(e[1].goal.as_ref().unwrap().to_string(), "0 1 2/3 4 5/6 7 8");
        assert_eq!(e[1].expected, Some(22));
        let err = e[2].board.as_ref().unwrap_err();
        assert!(err.starts_with("line 3: goal:"), "{err}");
        assert!(e[3].goal.is_none() && e[3].board.is_ok());
    }

    #[test]
    fn digit_strings_with_and_without_lengths_and_goals() {
        let e = parse_entries("312045678\n312045678 3\n312045678 | 123456780\n", None);
        assert_eq!(e.len(), 3);
        assert!(e
            .iter()
            .all(|e| e.board.as_ref().unwrap().to_string() == "3 1 2/0 4 5/6 7 8"));
        assert_eq!(e[1].expected, Some(3));
        assert_eq!(e[2].goal.as_ref().unwrap().to_string(), "1 2 3/4 5 6/7 8 0");
    }

    /// Fuzzing the file reader (issue 15): random files never panic it, every error is one
    /// line naming a line of the file, and every board read is a board of that line.
    /// `NPUZZLE_FUZZ_SECS=600 cargo test --release -p npuzzle-cli --bin npuzzle fuzz -- --ignored`
    mod fuzz {
        use std::time::{Duration, Instant};

        use proptest::prelude::*;
        use proptest::strategy::ValueTree;
        use proptest::test_runner::TestRunner;

        use super::super::*;

        fn file_text() -> impl Strategy<Value = String> {
            let line = prop_oneof![
                "[0-9 ,/_]{0,40}",
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
            for e in parse_entries(text, size) {
                assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}", e.line);
                match &e.board {
                    Ok(b) => {
                        let again = Board::parse(&b.to_string(), Some(b.shape())).unwrap();
                        assert_eq!(&again, b);
                    }
                    Err(why) => {
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
            crate::errln!(
                "file reader: {runs} inputs in {:.1} s, no failure",
                started.elapsed().as_secs_f64()
            );
        }

        #[test]
        fn file_reader_quick() {
            run(None, 3000);
        }

        #[test]
        #[ignore = "long fuzz run"]
        fn file_reader_long() {
            let secs = std::env::var("NPUZZLE_FUZZ_SECS")
                .ok()
                .and_then(|s| s.parse::<f64>().ok())
                .unwrap_or(60.0);
            run(Some(Duration::from_secs_f64(secs)), 0);
        }
    }
}
