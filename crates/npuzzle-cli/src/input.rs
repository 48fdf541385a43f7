//! Where boards come from: an argument, a file or standard input, in any of the accepted
//! layouts (one board; the classroom format with the order on the first line; one board per
//! line, optionally followed by its known optimal length).

use std::io::{IsTerminal, Read};
use std::path::Path;

use anyhow::{bail, Context, Result};
use npuzzle::board_file::{self, BoardLineError};
use npuzzle::{Board, Shape, MAX_INPUT_BYTES};

use crate::options::BoardArgs;

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
/// A missing or unreadable file, a directory, one over 256 MiB, or not text ([`text_of`]).
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
    text_of(bytes, &path.display().to_string())
}

/// The text of `bytes` read from `source`. Bytes that are not UTF-8 become U+FFFD, so the
/// line they are on is reported as not a board, with its number, and the other lines are
/// still read (a stray byte refused the whole file). A NUL byte, which no text has, says
/// the file is binary (an image, a UTF-16 file): that is refused whole.
///
/// # Errors
/// A NUL byte.
fn text_of(bytes: Vec<u8>, source: &str) -> Result<String> {
    if let Some(at) = bytes.iter().position(|&b| b == 0) {
        bail!("{source} is not text: byte {at} is NUL (a binary or UTF-16 file?)");
    }
    Ok(match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    })
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
/// Standard input is a terminal, unreadable, not text ([`text_of`]) or over 256 MiB.
fn read_stdin() -> Result<String> {
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        bail!(
            "no board given: pass a BOARD argument, --file PATH, or pipe a board on standard input"
        );
    }
    let Some(bytes) = read_capped(stdin.lock()).context("cannot read standard input")? else {
        bail!("standard input is larger than 256 MiB");
    };
    text_of(bytes, "standard input")
}

/// Splits input text into boards with the core's parser ([`board_file::parse`]): the
/// layouts, comments, expected lengths and line numbers are those of every front end.
///
/// # Errors
/// Text without a single board (empty, only comments, or a classroom header alone), in
/// every command's words: "`source` has no boards"; or with more lines of boards than
/// [`board_file::MAX_BOARD_LINES`].
pub fn parse_entries(text: &str, size: Option<Shape>, source: &str) -> Result<Vec<Entry>> {
    let entries: Vec<Entry> = board_file::parse(text, size)
        .map_err(|e| anyhow::anyhow!("{source} has {e}"))?
        .into_iter()
        .map(|e| Entry {
            line: e.line,
            board: e.board.map_err(|e| message(&e)),
            expected: e.expected,
            goal: e.goal,
        })
        .collect();
    if entries.is_empty() {
        bail!("{source} has no boards");
    }
    Ok(entries)
}

/// How messages name `--file PATH`: `-` is standard input.
fn source_name(path: &Path) -> String {
    if path == Path::new("-") {
        "standard input".to_string()
    } else {
        path.display().to_string()
    }
}

/// Reads `--file PATH` (`-` is standard input) into entries.
///
/// # Errors
/// As [`read_file`] and [`parse_entries`].
pub fn read_entries(path: &Path, size: Option<Shape>) -> Result<Vec<Entry>> {
    parse_entries(&read_file(path)?, size, &source_name(path))
}

/// The core's message, in the command line's words where it has its own.
fn message(e: &BoardLineError) -> String {
    match e {
        BoardLineError::OrderMismatch { order, size, .. } => {
            format!("the file's order is {order} but --size is {size}")
        }
        e => e.to_string(),
    }
}

/// Boards from the arguments: BOARD, --file or standard input.
///
/// # Errors
/// An unreadable file or standard input, or one without boards.
pub fn boards(args: &BoardArgs) -> Result<Vec<Entry>> {
    match (&args.board, &args.file) {
        // `npuzzle solve boards.txt`: an existing file that is not a board is read as one.
        (Some(b), _) if Board::parse(b, args.size).is_err() && Path::new(b).is_file() => {
            read_entries(Path::new(b), args.size)
        }
        (Some(b), _) => Ok(vec![Entry {
            line: 1,
            board: Board::parse(b, args.size).map_err(|e| not_a_board(b, &e)),
            expected: None,
            goal: None,
        }]),
        (None, Some(path)) => read_entries(path, args.size),
        (None, None) => read_entries(Path::new("-"), args.size),
    }
}

/// The parse error, and for an argument that looks like a file name, the way to read one.
fn not_a_board(arg: &str, e: &npuzzle::ParseBoardError) -> String {
    if arg.chars().any(|c| c.is_alphabetic() || c == '.') && !arg.contains(char::is_whitespace) {
        let arg = npuzzle::text::clip(arg);
        format!("{e}; no file is named `{arg}` either (to read boards from a file: --file PATH)")
    } else {
        e.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression (issue 15, item 6): the cap was checked on the length a file claims, which
    /// is 0 for `/dev/zero`, a pipe or `<(…)`.
    #[test]
    fn reading_stops_at_the_cap() {
        let endless = std::io::repeat(b'1');
        assert!(read_capped(endless).unwrap().is_none());
        assert!(read_capped(&b"1 2 3"[..]).unwrap().is_some());
    }

    /// The core parses (its tests are in `npuzzle::board_file`); this layer refuses text
    /// without a board and keeps the command line's words.
    #[test]
    fn entries_in_the_command_line_words() {
        let no_boards = |text: &str| parse_entries(text, None, "f.txt").unwrap_err().to_string();
        // Empty, blank, comments only, a classroom header alone (regression: the header
        // alone gave no entries, and `solve` and `check` said nothing and exited 0).
        for text in ["", "   \n\n", "# nothing\n\n", "3\n", "N=3\n", "# c\n4\n"] {
            assert_eq!(no_boards(text), "f.txt has no boards", "{text:?}");
        }
        let e = parse_entries("3\n1 2 3 4 5 6 7 8 0\n", "4".parse().ok(), "f").unwrap();
        assert_eq!(
            e[0].board.as_ref().unwrap_err(),
            "the file's order is 3x3 but --size is 4x4"
        );
        let e = parse_entries("1 2 3 4 5 6 7 0 8 1\nbad\n", None, "f").unwrap();
        assert_eq!(e[0].expected, Some(1));
        assert_eq!(
            e[1].board.as_ref().unwrap_err(),
            "line 2: invalid tile `bad`: expected a number or `_`"
        );
        assert_eq!(source_name(Path::new("-")), "standard input");
    }
}
