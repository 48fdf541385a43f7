//! Boards: tiles on a shape, moves, parsing and display.
//!
//! Parsing happens in two stages, as in `shakmaty`: [`RawBoard::parse`] reads numbers and row
//! breaks from text, then [`Board::from_raw`] settles the shape and checks the tile set. Both
//! stages report a [`ParseBoardError`] whose message names the problem.

use std::fmt;

use crate::moves::Move;
use crate::shape::{Shape, ShapeError};
use crate::text::clip;

/// A tile number; `0` is the blank.
pub type Tile = u32;

/// Why text or tiles do not make a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ParseBoardError {
    /// No tiles at all.
    #[error("board is empty")]
    Empty,
    /// A token that is neither a number nor `_`.
    #[error("invalid tile `{0}`: expected a number or `_`")]
    InvalidToken(String),
    /// A number too large to be a tile on any board (more than 18 digits).
    #[error("tile `{0}` is too large for any board")]
    TileTooLarge(String),
    /// Rows of different lengths.
    #[error("row {row} has {found} tiles, expected {expected} like row 1")]
    RaggedRows {
        /// 1-based row number.
        row: usize,
        /// Tiles in the first row.
        expected: usize,
        /// Tiles in this row.
        found: usize,
    },
    /// A tile count that is not a square and no size was given.
    #[error("cannot infer the board shape from {0} tiles; give the size as RxC")]
    CannotInferShape(usize),
    /// The count does not match the shape.
    #[error("expected {expected} tiles for a {shape} board, found {found}")]
    WrongCount {
        /// The shape.
        shape: Shape,
        /// Cells of the shape.
        expected: usize,
        /// Tiles given.
        found: usize,
    },
    /// Rows written in the text disagree with the given size.
    #[error("the rows describe a {written} board but the size is {given}")]
    ShapeMismatch {
        /// From the row breaks.
        written: Shape,
        /// From the caller.
        given: Shape,
    },
    /// A bad shape.
    #[error(transparent)]
    Shape(#[from] ShapeError),
    /// A tile given twice.
    #[error("board has duplicate tile {0}")]
    Duplicate(Tile),
    /// More than one blank.
    #[error("board has more than one blank (0 or _)")]
    MultipleBlanks,
    /// No blank.
    #[error("board has no blank (0 or _)")]
    NoBlank,
    /// A tile above the largest number for the shape.
    #[error("tile {tile} is out of range for a {shape} board (tiles are 1 to {max} and a blank)")]
    OutOfRange {
        /// The tile.
        tile: u64,
        /// The shape.
        shape: Shape,
        /// Largest allowed tile.
        max: usize,
    },
    /// A tile that does not appear.
    #[error("board is missing tile {0}")]
    Missing(Tile),
}

/// First parsing stage: numbers and row breaks, not yet checked against a shape.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RawBoard {
    /// Tiles in row-major order as written; the blank is `0`. Large values are kept as
    /// `u64` so the range check can name them.
    pub tiles: Vec<u64>,
    /// Length of each written row, when the text had row breaks (`/` or newlines).
    pub rows: Vec<usize>,
}

impl RawBoard {
    /// Reads tiles separated by spaces, tabs or commas, rows by `/`, `;` or newlines.
    /// `_` (and `0`) is the blank; surrounding brackets are ignored, so Python-style
    /// `[[7,2,6],[8,1,4],[3,5,0]]` works too.
    ///
    /// # Errors
    /// [`ParseBoardError::Empty`], [`ParseBoardError::InvalidToken`] or
    /// [`ParseBoardError::TileTooLarge`].
    pub fn parse(text: &str) -> Result<RawBoard, ParseBoardError> {
        // Brackets as row breaks: "[[1,2],[3,0]]" → "1,2 / 3,0".
        let mut tiles = Vec::new();
        let mut rows = Vec::new();
        for row in text.split(['/', '\n', ';', ']']) {
            let before = tiles.len();
            for token in row.split(|c: char| c.is_whitespace() || c == ',' || c == '[') {
                if token.is_empty() {
                    continue;
                }
                let value = if token == "_" {
                    0
                } else if token.bytes().all(|b| b.is_ascii_digit()) {
                    token
                        .parse::<u64>()
                        .ok()
                        .filter(|_| token.len() <= 18)
                        .ok_or_else(|| ParseBoardError::TileTooLarge(clip(token)))?
                } else {
                    return Err(ParseBoardError::InvalidToken(clip(token)));
                };
                tiles.push(value);
            }
            if tiles.len() > before {
                rows.push(tiles.len() - before);
            }
        }
        if tiles.is_empty() {
            return Err(ParseBoardError::Empty);
        }
        if let Some(digits) = digit_string(text) {
            return Ok(digits);
        }
        Ok(RawBoard { tiles, rows })
    }

    /// The shape the text implies: from its rows when it has several, else a square.
    ///
    /// # Errors
    /// Ragged rows, a non-square count, or a bad shape.
    pub fn implied_shape(&self) -> Result<Shape, ParseBoardError> {
        if self.rows.len() > 1 {
            let expected = self.rows[0];
            if let Some(i) = self.rows.iter().position(|&r| r != expected) {
                return Err(ParseBoardError::RaggedRows {
                    row: i + 1,
                    expected,
                    found: self.rows[i],
                });
            }
            return Ok(Shape::new(self.rows.len(), expected)?);
        }
        let n = self.tiles.len();
        let side = (n as f64).sqrt().round() as usize;
        if side * side == n {
            Ok(Shape::square(side)?)
        } else {
            Err(ParseBoardError::CannotInferShape(n))
        }
    }
}

/// The most cells a digit string can describe: one digit per tile, `0` the blank.
pub const MAX_DIGIT_STRING_CELLS: usize = 10;

/// A digit string such as `312045678` (the classroom notebooks' input): one digit per cell,
/// for boards of 4 to 10 cells. A lone number can never be a board (a board has at least
/// four tiles), so reading it digit by digit takes nothing away.
fn digit_string(text: &str) -> Option<RawBoard> {
    let token = text
        .trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .trim();
    let fits = (4..=MAX_DIGIT_STRING_CELLS).contains(&token.len());
    (fits && token.bytes().all(|b| b.is_ascii_digit())).then(|| RawBoard {
        tiles: token.bytes().map(|b| u64::from(b - b'0')).collect(),
        rows: vec![token.len()],
    })
}

/// A board: a shape and one tile per cell, exactly one of them the blank.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    shape: Shape,
    tiles: Vec<Tile>,
    blank: usize,
}

impl Board {
    /// A board from tiles in row-major order.
    ///
    /// # Errors
    /// Wrong count, duplicate, missing or out-of-range tiles, no blank or several.
    pub fn new(shape: Shape, tiles: Vec<Tile>) -> Result<Board, ParseBoardError> {
        let wide: Vec<u64> = tiles.iter().map(|&t| u64::from(t)).collect();
        Board::from_tiles(shape, &wide)
    }

    /// Parses a board, with the shape given or implied by the text (see [`RawBoard`]).
    ///
    /// # Errors
    /// Any [`ParseBoardError`].
    ///
    /// ```
    /// use npuzzle::Board;
    /// let b = Board::parse("7 2 6/8 1 4/3 5 0", None).unwrap();
    /// assert_eq!(b.shape().to_string(), "3x3");
    /// assert_eq!(b.to_string(), "7 2 6/8 1 4/3 5 0");
    /// assert_eq!(Board::parse("1 2 3/4 4 0", None).unwrap_err().to_string(), "board has duplicate tile 4");
    /// // A digit string: one digit per cell (boards of at most 10 cells).
    /// assert_eq!(Board::parse("312045678", None).unwrap().to_string(), "3 1 2/0 4 5/6 7 8");
    /// let wide = Board::parse("120345", Some("2x3".parse().unwrap())).unwrap();
    /// assert_eq!(wide.to_string(), "1 2 0/3 4 5");
    /// ```
    pub fn parse(text: &str, shape: Option<Shape>) -> Result<Board, ParseBoardError> {
        Board::from_raw(&RawBoard::parse(text)?, shape)
    }

    /// Second stage: settles the shape and checks the tiles.
    ///
    /// # Errors
    /// Any [`ParseBoardError`] about shape or tiles.
    pub fn from_raw(raw: &RawBoard, shape: Option<Shape>) -> Result<Board, ParseBoardError> {
        let shape = match shape {
            Some(given) => {
                if raw.rows.len() > 1 {
                    if let Ok(written) = raw.implied_shape() {
                        if written != given {
                            return Err(ParseBoardError::ShapeMismatch { written, given });
                        }
                    }
                }
                given
            }
            None => raw.implied_shape()?,
        };
        Board::from_tiles(shape, &raw.tiles)
    }

    fn from_tiles(shape: Shape, tiles: &[u64]) -> Result<Board, ParseBoardError> {
        let n = shape.cells();
        if tiles.len() != n {
            return Err(ParseBoardError::WrongCount {
                shape,
                expected: n,
                found: tiles.len(),
            });
        }
        let mut seen = vec![false; n];
        let mut blank = None;
        for (cell, &t) in tiles.iter().enumerate() {
            if t >= n as u64 {
                return Err(ParseBoardError::OutOfRange {
                    tile: t,
                    shape,
                    max: n - 1,
                });
            }
            if t == 0 {
                if blank.is_some() {
                    return Err(ParseBoardError::MultipleBlanks);
                }
                blank = Some(cell);
            } else if std::mem::replace(&mut seen[t as usize], true) {
                return Err(ParseBoardError::Duplicate(t as Tile));
            }
        }
        // With the count right, no duplicates and all in range, nothing can be missing
        // unless the blank is absent; still name the first missing tile for clarity.
        let blank = blank.ok_or(ParseBoardError::NoBlank)?;
        if let Some(t) = (1..n).find(|&t| !seen[t]) {
            return Err(ParseBoardError::Missing(t as Tile));
        }
        Ok(Board {
            shape,
            tiles: tiles.iter().map(|&t| t as Tile).collect(),
            blank,
        })
    }

    /// The solved board of a shape with tiles in the given row-major order, trusted.
    pub(crate) fn from_trusted(shape: Shape, tiles: Vec<Tile>) -> Board {
        debug_assert_eq!(tiles.len(), shape.cells());
        let blank = tiles
            .iter()
            .position(|&t| t == 0)
            .expect("board has a blank");
        Board {
            shape,
            tiles,
            blank,
        }
    }

    /// The board's shape.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Tiles in row-major order; `0` is the blank.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles
    }

    /// The blank's cell index.
    pub fn blank(&self) -> usize {
        self.blank
    }

    /// The tile at a row and column.
    pub fn get(&self, row: usize, col: usize) -> Tile {
        self.tiles[self.shape.cell(row, col)]
    }

    /// Cell each tile stands on: `positions()[t]` is the cell of tile `t` (blank at index 0).
    pub fn positions(&self) -> Vec<usize> {
        let mut pos = vec![0; self.tiles.len()];
        for (cell, &t) in self.tiles.iter().enumerate() {
            pos[t as usize] = cell;
        }
        pos
    }

    /// The cell the blank would move to, if the move stays on the board.
    pub fn target(&self, m: Move) -> Option<usize> {
        neighbour(self.shape, self.blank, m)
    }

    /// Whether the blank can make this move.
    pub fn can_move(&self, m: Move) -> bool {
        self.target(m).is_some()
    }

    /// Moves the blank; returns `false` (and leaves the board as it was) if the move would
    /// leave the board.
    pub fn apply(&mut self, m: Move) -> bool {
        match self.target(m) {
            Some(to) => {
                self.tiles.swap(self.blank, to);
                self.blank = to;
                true
            }
            None => false,
        }
    }

    /// The board after a sequence of moves.
    ///
    /// # Errors
    /// The 0-based index of the first move that would leave the board.
    pub fn replay(&self, moves: &[Move]) -> Result<Board, usize> {
        let mut b = self.clone();
        for (i, &m) in moves.iter().enumerate() {
            if !b.apply(m) {
                return Err(i);
            }
        }
        Ok(b)
    }

    /// The legal moves of the blank, in [`Move::ALL`] order.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        Move::ALL.into_iter().filter(|&m| self.can_move(m))
    }

    /// The board mirrored about its main diagonal (shape `C×R`).
    pub fn transposed(&self) -> Board {
        let s = self.shape;
        let t = s.transposed();
        let mut tiles = vec![0; s.cells()];
        for r in 0..s.rows() {
            for c in 0..s.cols() {
                tiles[t.cell(c, r)] = self.get(r, c);
            }
        }
        Board::from_trusted(t, tiles)
    }

    /// A grid with aligned columns, one row per line (also `{:#}`).
    pub fn to_grid(&self) -> String {
        format!("{self:#}")
    }
}

/// The cell next to `cell` in direction `m`, if on the board.
pub fn neighbour(shape: Shape, cell: usize, m: Move) -> Option<usize> {
    let (r, c) = shape.coords(cell);
    match m {
        Move::Up if r > 0 => Some(cell - shape.cols()),
        Move::Down if r + 1 < shape.rows() => Some(cell + shape.cols()),
        Move::Left if c > 0 => Some(cell - 1),
        Move::Right if c + 1 < shape.cols() => Some(cell + 1),
        _ => None,
    }
}

impl fmt::Display for RawBoard {
    /// The tiles as written: rows separated by `/` when the text had row breaks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut at = 0;
        let rows: Vec<usize> = if self.rows.len() > 1 {
            self.rows.clone()
        } else {
            vec![self.tiles.len()]
        };
        for (i, &len) in rows.iter().enumerate() {
            if i > 0 {
                f.write_str("/")?;
            }
            for (j, t) in self.tiles[at..at + len].iter().enumerate() {
                if j > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{t}")?;
            }
            at += len;
        }
        Ok(())
    }
}

impl fmt::Display for Board {
    /// `7 2 6/8 1 4/3 5 0`; with `{:#}`, an aligned grid with `_` for the blank.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cols = self.shape.cols();
        if f.alternate() {
            let width = (self.tiles.len() - 1).to_string().len();
            for (r, row) in self.tiles.chunks(cols).enumerate() {
                if r > 0 {
                    writeln!(f)?;
                }
                for (c, &t) in row.iter().enumerate() {
                    if c > 0 {
                        write!(f, " ")?;
                    }
                    if t == 0 {
                        write!(f, "{:>width$}", "_")?;
                    } else {
                        write!(f, "{t:>width$}")?;
                    }
                }
            }
            Ok(())
        } else {
            for (r, row) in self.tiles.chunks(cols).enumerate() {
                if r > 0 {
                    write!(f, "/")?;
                }
                for (c, t) in row.iter().enumerate() {
                    if c > 0 {
                        write!(f, " ")?;
                    }
                    write!(f, "{t}")?;
                }
            }
            Ok(())
        }
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({} {})", self.shape, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        Board::parse(text, None).unwrap_err().to_string()
    }

    #[test]
    fn parses_common_notations() {
        let a = Board::parse("7 2 6/8 1 4/3 5 0", None).unwrap();
        let b = Board::parse("7,2,6\n8,1,4\n3,5,_\n", None).unwrap();
        let c = Board::parse("[[7, 2, 6], [8, 1, 4], [3, 5, 0]]", None).unwrap();
        let d = Board::parse("7 2 6 8 1 4 3 5 0", None).unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a, d);
        assert_eq!(a.blank(), 8);
        let r = Board::parse("1 2 3 4 5 0", Some(Shape::new(2, 3).unwrap())).unwrap();
        assert_eq!(r.to_string(), "1 2 3/4 5 0");
        let r = Board::parse("1 2/3 4/5 0", None).unwrap();
        assert_eq!(r.shape(), Shape::new(3, 2).unwrap());
    }

    #[test]
    fn names_problems() {
        assert_eq!(err(""), "board is empty");
        assert_eq!(err("1 2 3 x"), "invalid tile `x`: expected a number or `_`");
        assert_eq!(err("1 2 3/4 5"), "row 2 has 2 tiles, expected 3 like row 1");
        assert_eq!(
            err("1 2 3 4 5 0"),
            "cannot infer the board shape from 6 tiles; give the size as RxC"
        );
        assert_eq!(err("1 2 3 0 5 6 7 8 8"), "board has duplicate tile 8");
        assert_eq!(
            err("1 2 3 4 5 6 7 8 0 0 1 2 3 4 5 6"),
            "board has more than one blank (0 or _)"
        );
        assert_eq!(
            err("1 2 3 4 5 6 7 8 9"),
            "tile 9 is out of range for a 3x3 board (tiles are 1 to 8 and a blank)"
        );
        assert_eq!(
            err("1 2 3 4 5 6 7 0 0"),
            "board has more than one blank (0 or _)"
        );
        assert_eq!(
            Board::parse("1 2 3 0", Some(Shape::new(2, 3).unwrap()))
                .unwrap_err()
                .to_string(),
            "expected 6 tiles for a 2x3 board, found 4"
        );
        assert_eq!(
            Board::parse("1 2 3/4 5 0", Some(Shape::new(3, 2).unwrap()))
                .unwrap_err()
                .to_string(),
            "the rows describe a 2x3 board but the size is 3x2"
        );
        assert_eq!(err("0"), "board must be at least 2x2, got 1x1");
    }

    #[test]
    fn moves_and_replay() {
        let b = Board::parse("1 2 3/4 5 6/7 8 0", None).unwrap();
        assert!(!b.can_move(Move::Down));
        assert!(!b.can_move(Move::Right));
        assert_eq!(b.moves().collect::<Vec<_>>(), vec![Move::Up, Move::Left]);
        let after = b.replay(&[Move::Up, Move::Left]).unwrap();
        assert_eq!(after.to_string(), "1 2 3/4 0 5/7 8 6");
        assert_eq!(b.replay(&[Move::Down]), Err(0));
        assert_eq!(after.to_grid(), "1 2 3\n4 _ 5\n7 8 6");
    }

    #[test]
    fn transposes() {
        let b = Board::parse("1 2 3/4 5 0", None).unwrap();
        let t = b.transposed();
        assert_eq!(t.to_string(), "1 4/2 5/3 0");
        assert_eq!(t.transposed(), b);
    }
}
