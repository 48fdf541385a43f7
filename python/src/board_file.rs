//! Files of boards: the core's parser (`npuzzle::board_file`), so Python reads a file as
//! `npuzzle batch` does: the same boards, expected lengths and messages naming the line.

use npuzzle::board_file;
use pyo3::prelude::*;

use crate::board::{shape_arg, PyBoard};
use crate::errors::{self, Kind};

/// One board of a text: the board, its expected length or ``None``, its 1-based line, and
/// its own goal (from a ``START | GOAL`` line) or ``None``.
type Line = (PyBoard, Option<usize>, usize, Option<PyBoard>);

/// The boards of a text of boards, in the layouts ``npuzzle batch`` reads, each as
/// ``(board, expected, line, goal)``; an empty list when the text has none.
///
/// Raises ``InvalidBoard`` with the message of the first bad line, which names the line
/// (``line 3: board has duplicate tile 8``), or for more than ``MAX_BOARD_LINES`` lines of
/// boards (``SOURCE has more than 1000000 lines of boards (split the file)``, ``source``
/// naming the text), and ``InvalidOption`` for a bad ``size``.
#[pyfunction]
#[pyo3(signature = (text, size=None, source="the text"))]
pub fn parse_boards(
    text: &str,
    size: Option<&Bound<'_, PyAny>>,
    source: &str,
) -> PyResult<Vec<Line>> {
    let shape = size.map(shape_arg).transpose()?;
    board_file::parse(text, shape)
        .map_err(|e| errors::error(Kind::InvalidBoard, format!("{source} has {e}")))?
        .into_iter()
        .map(|e| match e.board {
            Ok(board) => Ok((
                PyBoard::new(board),
                e.expected,
                e.line,
                e.goal.map(PyBoard::new),
            )),
            Err(why) => Err(errors::error(Kind::InvalidBoard, why.to_string())),
        })
        .collect()
}
