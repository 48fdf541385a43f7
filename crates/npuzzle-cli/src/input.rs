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
}

/// Reads the text of `--file PATH` (`-` is standard input).
///
/// # Errors
/// A missing or unreadable file, or one over 256 MiB.
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
    let bytes = std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
    String::from_utf8(bytes).with_context(|| format!("{} is not UTF-8 text", path.display()))
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
    let mut bytes = Vec::new();
    stdin
        .lock()
        .take(MAX_INPUT_BYTES + 1)
        .read_to_end(&mut bytes)
        .context("cannot read standard input")?;
    if bytes.len() as u64 > MAX_INPUT_BYTES {
        bail!("standard input is larger than 256 MiB");
    }
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
        }];
    }
    let (first_line, first) = lines[0];
    if let Some(order) = order_header(first) {
        let shape = match (order, size) {
            (Ok(o), None) => o,
            (Ok(o), Some(s)) if o == s => o,
            (Ok(o), Some(s)) => {
                return vec![Entry {
                    line: first_line,
                    board: Err(format!("the file's order is {o} but --size is {s}")),
                    expected: None,
                }]
            }
            (Err(e), _) => {
                return vec![Entry {
                    line: first_line,
                    board: Err(format!("line {first_line}: {e}")),
                    expected: None,
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
        }];
    }
    lines
        .iter()
        .map(|&(line, l)| board_line(line, l, size))
        .collect()
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

/// One line: tiles, then optionally the optimal length as one more number.
fn board_line(line: usize, text: &str, size: Option<Shape>) -> Entry {
    let located = |e: String| format!("line {line}: {e}");
    let raw = match RawBoard::parse(text) {
        Ok(raw) => raw,
        Err(e) => {
            return Entry {
                line,
                board: Err(located(e.to_string())),
                expected: None,
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
            };
        }
    }
    Entry {
        line,
        board: Board::from_raw(&raw, size).map_err(|e| located(e.to_string())),
        expected: None,
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
        (Some(b), _) => {
            return Ok(vec![Entry {
                line: 1,
                board: Board::parse(b, args.size).map_err(|e| e.to_string()),
                expected: None,
            }])
        }
        (None, Some(path)) => read_file(path)?,
        (None, None) => read_stdin()?,
    };
    Ok(parse_entries(&text, args.size))
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

    #[test]
    fn lines_with_expected_lengths() {
        let e = parse_entries("1 2 3 4 5 6 7 0 8 1\n1 2 3 4 5 6 0 7 8 2\nbad line\n", None);
        assert_eq!(e.len(), 3);
        assert_eq!(e[0].expected, Some(1));
        assert_eq!(e[1].expected, Some(2));
        assert!(e[2].board.as_ref().unwrap_err().starts_with("line 3:"));
    }
}
