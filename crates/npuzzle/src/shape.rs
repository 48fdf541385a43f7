//! The shape of a board: rows × columns.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The largest number of cells a board may have (2000 × 2000).
///
/// Large enough for the constructive solver's huge boards, small enough that a
/// malformed `--size 99999x99999` is refused instead of exhausting memory.
pub const MAX_CELLS: usize = 4_000_000;

/// Rows × columns of a rectangular board, each at least 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shape {
    rows: usize,
    cols: usize,
}

/// Why a shape was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeError {
    /// A side is shorter than 2.
    #[error("board must be at least 2x2, got {rows}x{cols}")]
    TooSmall {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// More cells than [`MAX_CELLS`].
    #[error("board {rows}x{cols} is too large (at most {max} cells)", max = MAX_CELLS)]
    TooLarge {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
    },
    /// Text that is not `RxC` or `N`.
    #[error("invalid size `{0}`: expected RxC (e.g. 3x3 or 4x5) or a single number")]
    Syntax(String),
}

impl Shape {
    /// A shape of `rows` × `cols`.
    ///
    /// # Errors
    /// [`ShapeError::TooSmall`] if a side is below 2, [`ShapeError::TooLarge`] past [`MAX_CELLS`].
    pub fn new(rows: usize, cols: usize) -> Result<Shape, ShapeError> {
        if rows < 2 || cols < 2 {
            return Err(ShapeError::TooSmall { rows, cols });
        }
        match rows.checked_mul(cols) {
            Some(n) if n <= MAX_CELLS => Ok(Shape { rows, cols }),
            _ => Err(ShapeError::TooLarge { rows, cols }),
        }
    }

    /// A square shape `n` × `n`.
    ///
    /// # Errors
    /// As [`Shape::new`].
    pub fn square(n: usize) -> Result<Shape, ShapeError> {
        Shape::new(n, n)
    }

    /// Number of rows.
    pub fn rows(self) -> usize {
        self.rows
    }

    /// Number of columns (the board's width).
    pub fn cols(self) -> usize {
        self.cols
    }

    /// Number of cells, blank included.
    pub fn cells(self) -> usize {
        self.rows * self.cols
    }

    /// Row and column of a cell index (row-major).
    pub fn coords(self, cell: usize) -> (usize, usize) {
        (cell / self.cols, cell % self.cols)
    }

    /// Cell index of a row and column.
    pub fn cell(self, row: usize, col: usize) -> usize {
        row * self.cols + col
    }

    /// The same board turned on its side (rows and columns swapped).
    pub fn transposed(self) -> Shape {
        Shape {
            rows: self.cols,
            cols: self.rows,
        }
    }
}

impl fmt::Display for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.cols)
    }
}

impl FromStr for Shape {
    type Err = ShapeError;

    /// Parses `RxC` (also `R×C`, `R*C`) or a single `N` for a square.
    fn from_str(s: &str) -> Result<Shape, ShapeError> {
        let syntax = || ShapeError::Syntax(crate::text::clip(s.trim()));
        let t = s.trim().to_ascii_lowercase();
        let parse = |p: &str| p.trim().parse::<usize>().map_err(|_| syntax());
        let parts: Vec<&str> = t.split(['x', '×', '*']).collect();
        match parts.as_slice() {
            [n] => {
                let n = parse(n)?;
                Shape::new(n, n)
            }
            [r, c] => Shape::new(parse(r)?, parse(c)?),
            _ => Err(syntax()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sizes() {
        assert_eq!("3x4".parse::<Shape>().unwrap(), Shape::new(3, 4).unwrap());
        assert_eq!(" 5 ".parse::<Shape>().unwrap(), Shape::square(5).unwrap());
        assert_eq!("2X7".parse::<Shape>().unwrap().cols(), 7);
        assert!(matches!(
            "1x5".parse::<Shape>(),
            Err(ShapeError::TooSmall { .. })
        ));
        assert!(matches!("3x".parse::<Shape>(), Err(ShapeError::Syntax(_))));
        assert!(matches!(
            "99999x99999".parse::<Shape>(),
            Err(ShapeError::TooLarge { .. })
        ));
        assert!(matches!(
            "99999999999999999999x2".parse::<Shape>(),
            Err(ShapeError::Syntax(_))
        ));
    }

    #[test]
    fn coords_round_trip() {
        let s = Shape::new(3, 5).unwrap();
        for cell in 0..s.cells() {
            let (r, c) = s.coords(cell);
            assert_eq!(s.cell(r, c), cell);
        }
    }
}
