//! `npuzzle.Board`: a board from text, lists, numpy arrays or another board.

use npuzzle::text::clip;
use npuzzle::{solvability, Board, GoalError, GoalSpec, Move, ParseBoardError, RawBoard, Shape};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyInt, PyList, PySequence, PyString, PyTuple};

use crate::errors::{self, Kind};
use crate::numbers::Whole;

/// A sliding-tile board: a shape and one tile per cell, ``0`` the blank. Immutable and
/// hashable.
///
/// ``Board(board, size=None)`` accepts the command line's syntax (``"7 2 6/8 1 4/3 5 0"``,
/// commas, ``_`` for the blank, rows split by ``/``, ``;`` or newlines), a flat or nested
/// list or tuple of tiles, a numpy array, or another ``Board``. ``size`` (``"RxC"``, an
/// ``int`` or ``(rows, cols)``) is needed only for a non-square board written without rows.
///
/// Raises ``InvalidBoard`` with the command line's message (``board has duplicate tile 8``)
/// when the input is not a board.
#[pyclass(
    name = "Board",
    module = "npuzzle",
    frozen,
    eq,
    hash,
    skip_from_py_object
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyBoard {
    /// The core board.
    pub board: Board,
}

impl PyBoard {
    /// Wraps a core board.
    pub fn new(board: Board) -> PyBoard {
        PyBoard { board }
    }
}

/// A tile from a Python value: a non-negative integer (numpy integers included), not a
/// bool (Python's `True` is the int 1).
fn tile(item: &Bound<'_, PyAny>) -> Result<u64, ParseBoardError> {
    if item.is_instance_of::<pyo3::types::PyBool>() {
        return Err(ParseBoardError::InvalidToken(item.to_string()));
    }
    if let Ok(s) = item.cast::<PyString>() {
        // Strings inside lists follow the text syntax: "_" or digits.
        let s = s.to_string();
        let raw = RawBoard::parse(&s)?;
        return match raw.tiles.as_slice() {
            [t] => Ok(*t),
            _ => Err(ParseBoardError::InvalidToken(clip(&s))),
        };
    }
    item.extract::<u64>().map_err(|_| {
        let text = item
            .str()
            .map(|s| s.to_string())
            .unwrap_or_else(|_| "?".to_string());
        ParseBoardError::InvalidToken(clip(&text))
    })
}

/// Tiles and row lengths from a flat or nested sequence.
fn raw_from_sequence(seq: &Bound<'_, PySequence>) -> PyResult<RawBoard> {
    let mut tiles = Vec::new();
    let mut rows = Vec::new();
    // Rows that are numpy arrays (which are not sequences to Python's `abc`) become lists.
    let items: Vec<Bound<'_, PyAny>> = seq
        .try_iter()?
        .map(|item| item.and_then(|i| array_as_list(&i)))
        .collect::<PyResult<_>>()?;
    let nested = items
        .first()
        .is_some_and(|f| !f.is_instance_of::<PyString>() && f.cast::<PySequence>().is_ok());
    for item in &items {
        if nested {
            let row = item.cast::<PySequence>().map_err(|_| {
                errors::board(ParseBoardError::InvalidToken(clip(
                    &item.str().map(|s| s.to_string()).unwrap_or_default(),
                )))
            })?;
            let before = tiles.len();
            for t in row.try_iter()? {
                tiles.push(tile(&t?).map_err(errors::board)?);
            }
            rows.push(tiles.len() - before);
        } else {
            tiles.push(tile(item).map_err(errors::board)?);
        }
    }
    if tiles.is_empty() {
        return Err(errors::board(ParseBoardError::Empty));
    }
    Ok(RawBoard { tiles, rows })
}

/// `obj.tolist()` for a numpy array (or anything array-like), else `obj` itself.
fn array_as_list<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
    if obj.hasattr("tolist")? && obj.hasattr("shape")? {
        obj.call_method0("tolist")
    } else {
        Ok(obj.clone())
    }
}

/// A core board from any accepted Python value (see [`PyBoard`]).
///
/// # Errors
/// `InvalidBoard` when the value is not a board, `InvalidOption` for a bad `size`.
pub fn to_board(obj: &Bound<'_, PyAny>, size: Option<Shape>) -> PyResult<Board> {
    if let Ok(b) = obj.cast::<PyBoard>() {
        let board = &b.get().board;
        return match size {
            Some(s) if s != board.shape() => Err(errors::board(ParseBoardError::ShapeMismatch {
                written: board.shape(),
                given: s,
            })),
            _ => Ok(board.clone()),
        };
    }
    if let Ok(s) = obj.cast::<PyString>() {
        return Board::parse(&s.extract::<String>()?, size).map_err(errors::board);
    }
    // numpy arrays (and anything array-like) become nested lists first.
    if obj.hasattr("tolist")? && obj.hasattr("shape")? {
        return to_board(&array_as_list(obj)?, size);
    }
    if let Some(seq) = tiles_of(obj) {
        let raw = raw_from_sequence(seq)?;
        return Board::from_raw(&raw, size).map_err(errors::board);
    }
    Err(not_a_board(obj))
}

/// `obj` as a sequence of tiles or rows, if it is one. Bytes are a sequence of numbers to
/// Python, but not of tiles: `b"1 2 3"` would be the tiles 49, 32, 50.
fn tiles_of<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> Option<&'a Bound<'py, PySequence>> {
    if obj.is_instance_of::<PyBytes>() || obj.is_instance_of::<PyByteArray>() {
        return None;
    }
    obj.cast::<PySequence>().ok()
}

/// The error for a value that is no kind of board.
fn not_a_board(obj: &Bound<'_, PyAny>) -> PyErr {
    let kind = obj
        .get_type()
        .name()
        .map_or("?".to_string(), |n| n.to_string());
    errors::error(
        Kind::InvalidBoard,
        format!(
            "expected a board (text, a list of tiles or rows, a numpy array or a Board), got {kind}"
        ),
    )
}

/// A `Board` object for `obj`: the object itself when it is already a `Board` of the right
/// shape (boards are immutable, so sharing it is safe and saves a copy), else a new one.
///
/// # Errors
/// As [`to_board`].
pub fn board_object(obj: &Bound<'_, PyAny>, size: Option<Shape>) -> PyResult<Py<PyBoard>> {
    match obj.cast::<PyBoard>() {
        Ok(b) if size.is_none_or(|s| s == b.get().board.shape()) => Ok(b.clone().unbind()),
        _ => Py::new(obj.py(), PyBoard::new(to_board(obj, size)?)),
    }
}

#[pymethods]
impl PyBoard {
    #[new]
    #[pyo3(signature = (board, size=None))]
    fn py_new(board: &Bound<'_, PyAny>, size: Option<&Bound<'_, PyAny>>) -> PyResult<PyBoard> {
        let shape = size.map(shape_arg).transpose()?;
        Ok(PyBoard::new(to_board(board, shape)?))
    }

    /// The goal board of a shape: ``Board.goal("3x3")``, ``Board.goal(4, "spiral")``.
    #[staticmethod]
    #[pyo3(signature = (size, goal=None), text_signature = "(size, goal='standard')")]
    fn goal(size: &Bound<'_, PyAny>, goal: Option<&Bound<'_, PyAny>>) -> PyResult<PyBoard> {
        let shape = shape_arg(size)?;
        Ok(PyBoard::new(goal_board(goal, shape)?))
    }

    /// ``(rows, cols)``.
    #[getter]
    fn shape(&self) -> (usize, usize) {
        let s = self.board.shape();
        (s.rows(), s.cols())
    }

    /// The number of cells, ``rows * cols``, as numpy's ``ndarray.size``. (It used to be the
    /// text ``"3x3"``: that is ``size_text`` now, and ``shape`` is accepted wherever a size
    /// is.)
    #[getter]
    fn size(&self) -> usize {
        self.board.shape().cells()
    }

    /// The shape as the command line writes it: ``"3x3"``.
    #[getter]
    fn size_text(&self) -> String {
        self.board.shape().to_string()
    }

    /// Tiles in row-major order, ``0`` the blank, as a tuple.
    #[getter]
    fn tiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.board.tiles())
    }

    /// Tiles row by row, as a list of lists.
    #[getter]
    fn rows<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let cols = self.board.shape().cols();
        let rows: Vec<Vec<u32>> = self
            .board
            .tiles()
            .chunks(cols)
            .map(<[u32]>::to_vec)
            .collect();
        PyList::new(py, rows)
    }

    /// The blank's cell, row-major from 0.
    #[getter]
    fn blank(&self) -> usize {
        self.board.blank()
    }

    /// Whether the board can reach ``goal`` (``standard``, ``blank-first``, ``spiral`` or
    /// a board of the same shape).
    #[pyo3(signature = (goal=None), text_signature = "($self, goal='standard')")]
    fn solvable(&self, goal: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
        let goal = goal_board(goal, self.board.shape())?;
        let verdict = solvability::check(&self.board, &goal).map_err(errors::goal)?;
        Ok(verdict.solvable)
    }

    /// The solvability verdict as a dict: the object ``npuzzle check --json`` prints.
    #[pyo3(signature = (goal=None), text_signature = "($self, goal='standard')")]
    fn check<'py>(
        &self,
        py: Python<'py>,
        goal: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        check_dict(py, &self.board, goal)
    }

    /// The board after moving the blank by ``moves`` (letters ``U``, ``D``, ``L``, ``R``;
    /// spaces and commas ignored).
    ///
    /// Raises ``InvalidOption`` for a letter that is not a move or a move that would take
    /// the blank off the board.
    fn apply(&self, moves: &str) -> PyResult<PyBoard> {
        let moves = Move::parse_letters(moves).map_err(|c| {
            errors::error(
                Kind::InvalidOption,
                format!("invalid move `{c}`: expected U, D, L or R"),
            )
        })?;
        self.board.replay(&moves).map(PyBoard::new).map_err(|i| {
            errors::error(
                Kind::InvalidOption,
                format!(
                    "move {} ({}) would take the blank off the board",
                    i + 1,
                    moves[i]
                ),
            )
        })
    }

    /// The blank's legal moves, in ``U``, ``L``, ``R``, ``D`` order, as a string.
    fn moves(&self) -> String {
        self.board.moves().map(Move::letter).collect()
    }

    /// The board as an aligned grid, one row per line, ``_`` for the blank.
    fn grid(&self) -> String {
        self.board.to_grid()
    }

    /// The tiles as a 2-D numpy array (numpy must be installed).
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let numpy = py.import("numpy")?;
        numpy.call_method1("array", (self.rows(py)?,))
    }

    /// ``numpy.array(board)`` and ``numpy.asarray(board)``: the tiles as a 2-D array (a new
    /// one each time: a ``Board`` is immutable, so ``copy=False`` is refused as numpy 2 asks).
    #[pyo3(signature = (dtype=None, copy=None))]
    fn __array__<'py>(
        &self,
        py: Python<'py>,
        dtype: Option<&Bound<'py, PyAny>>,
        copy: Option<bool>,
    ) -> PyResult<Bound<'py, PyAny>> {
        if copy == Some(false) {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "a Board's tiles cannot be viewed without a copy",
            ));
        }
        let numpy = py.import("numpy")?;
        let kwargs = PyDict::new(py);
        if let Some(dtype) = dtype.filter(|d| !d.is_none()) {
            kwargs.set_item("dtype", dtype)?;
        }
        numpy.call_method("array", (self.rows(py)?,), Some(&kwargs))
    }

    /// An SVG picture of the board.
    #[pyo3(signature = (cell=Whole(40)), text_signature = "(self, cell=40)")]
    fn to_svg(slf: &Bound<'_, Self>, cell: Whole) -> PyResult<String> {
        let cell = cell.within("cell", 1..=1000u16)?;
        let render = slf.py().import("npuzzle._render")?;
        render.call_method1("board_svg", (slf, cell))?.extract()
    }

    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        Self::to_svg(slf, Whole(40))
    }

    fn __str__(&self) -> String {
        self.board.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Board('{}')", self.board)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, String))> {
        let b = &slf.get().board;
        Ok((
            slf.get_type().into_any(),
            (b.to_string(), b.shape().to_string()),
        ))
    }
}

/// A whole number from an `int` or anything with `__index__` (numpy's integers), not from a
/// `bool`, `float` or text; one beyond `i128` is `None`, as text would be.
fn index_arg(obj: &Bound<'_, PyAny>) -> Option<i128> {
    if obj.is_instance_of::<PyString>() || obj.is_instance_of::<pyo3::types::PyBool>() {
        return None;
    }
    if !obj.is_instance_of::<PyInt>() && !obj.hasattr("__index__").unwrap_or(false) {
        return None;
    }
    obj.call_method0("__index__").ok()?.extract::<i128>().ok()
}

/// The size `obj` gives as numbers, written as the command line's `--size` takes it
/// (`"3"`, `"3x4"`): an integer, or a pair of them.
fn size_text(obj: &Bound<'_, PyAny>) -> PyResult<Option<String>> {
    if let Some(n) = index_arg(obj) {
        return Ok(Some(n.to_string()));
    }
    if let Ok(t) = obj.cast::<PyTuple>() {
        if t.len() == 2 {
            if let (Some(r), Some(c)) = (index_arg(&t.get_item(0)?), index_arg(&t.get_item(1)?)) {
                return Ok(Some(format!("{r}x{c}")));
            }
        }
    }
    Ok(None)
}

/// The shape `obj` gives as numbers (an integer or a pair), read as the command line reads
/// `--size`; `None` when it is text or anything else.
///
/// # Errors
/// `InvalidOption` with the core's message for a size it refuses.
pub fn numeric_shape(obj: &Bound<'_, PyAny>) -> PyResult<Option<Shape>> {
    size_text(obj)?
        .map(|t| t.parse::<Shape>().map_err(errors::shape))
        .transpose()
}

/// A shape from `"RxC"`, an integer (square; numpy's integers too) or `(rows, cols)`.
/// Numbers are read as the command line reads `--size`, so a negative or huge side gets
/// its words (`invalid size `-2x-2``), never a side clamped to another number.
///
/// # Errors
/// `InvalidOption` with the core's message.
pub fn shape_arg(obj: &Bound<'_, PyAny>) -> PyResult<Shape> {
    if let Ok(s) = obj.cast::<PyString>() {
        return s
            .extract::<String>()?
            .parse::<Shape>()
            .map_err(errors::shape);
    }
    match numeric_shape(obj)? {
        Some(shape) => Ok(shape),
        None => {
            let text = obj.str().map(|s| s.to_string()).unwrap_or_default();
            Err(errors::shape(npuzzle::ShapeError::Syntax(clip(&text))))
        }
    }
}

/// The goal as given: a name or text to resolve per shape, or a board.
#[derive(Clone, Debug)]
pub enum GoalArg {
    /// `standard`, `blank-first`, `spiral` or a board written as text.
    Spec(GoalSpec),
    /// A board given as a `Board`, list or array.
    Board(Board),
}

impl GoalArg {
    /// Reads a `goal=` argument.
    ///
    /// # Errors
    /// `InvalidBoard` when text is neither a goal's name nor a board, or a list or array is
    /// not a board.
    pub fn from_py(obj: Option<&Bound<'_, PyAny>>) -> PyResult<GoalArg> {
        let Some(obj) = obj.filter(|o| !o.is_none()) else {
            return Ok(GoalArg::Spec(GoalSpec::Standard));
        };
        if let Ok(s) = obj.cast::<PyString>() {
            // A name, or board text: text that is neither (`"blank-last"`, `""`) is refused
            // with the command line's message (`goal: invalid tile ...`).
            return s
                .extract::<String>()?
                .parse()
                .map(GoalArg::Spec)
                .map_err(errors::goal);
        }
        if let Ok(b) = obj.cast::<PyBoard>() {
            return Ok(GoalArg::Board(b.get().board.clone()));
        }
        // Tiles and rows as written, whose shape the start settles (a flat list of six
        // tiles is a 2x3 goal for a 2x3 start), as for a goal written as text.
        let list = array_as_list(obj)?;
        let raw = match tiles_of(&list) {
            Some(seq) => raw_from_sequence(seq),
            None => Err(not_a_board(&list)),
        };
        raw.map(|raw| GoalArg::Spec(GoalSpec::Explicit(raw)))
            .map_err(|e| Python::attach(|py| prefix_goal(py, e)))
    }

    /// The goal board for a start of this shape.
    ///
    /// # Errors
    /// The goal does not parse or has another shape.
    pub fn board(&self, shape: Shape) -> Result<Board, GoalError> {
        match self {
            GoalArg::Spec(spec) => spec.board(shape),
            GoalArg::Board(b) if b.shape() == shape => Ok(b.clone()),
            GoalArg::Board(b) => Err(GoalError::ShapeMismatch {
                goal: b.shape(),
                board: shape,
            }),
        }
    }
}

/// `goal: ...` in front of a board error about the goal, as the core words it.
fn prefix_goal(py: Python<'_>, e: PyErr) -> PyErr {
    let msg = e.value(py).str().map(|s| s.to_string()).unwrap_or_default();
    let is_board = e.get_type(py).name().is_ok_and(|n| n == "InvalidBoard");
    if is_board {
        errors::error(Kind::InvalidBoard, format!("goal: {msg}"))
    } else {
        e
    }
}

/// The goal board for a shape from a `goal=` argument.
///
/// # Errors
/// `InvalidBoard` for a goal that is not a board of that shape.
pub fn goal_board(obj: Option<&Bound<'_, PyAny>>, shape: Shape) -> PyResult<Board> {
    GoalArg::from_py(obj)?.board(shape).map_err(errors::goal)
}

/// The verdict dict of `npuzzle check --json`.
pub fn check_dict<'py>(
    py: Python<'py>,
    start: &Board,
    goal: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let goal = goal_board(goal, start.shape())?;
    let verdict = solvability::check(start, &goal).map_err(errors::goal)?;
    let dict = pythonize::pythonize(py, &verdict)?.cast_into::<PyDict>()?;
    dict.set_item("reason", verdict.explanation())?;
    dict.set_item("size", start.shape().to_string())?;
    Ok(dict)
}
