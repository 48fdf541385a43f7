//! Goals: the board a search must reach.

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, ParseBoardError, RawBoard, Tile};
use crate::shape::Shape;

/// Which goal to solve towards: a named layout, resolved for any shape, or an explicit board.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum GoalSpec {
    /// `1 2 … n−1` then the blank in the last cell.
    #[default]
    Standard,
    /// The blank first, then `1 2 … n−1` (Korf's convention).
    BlankFirst,
    /// Tiles numbered clockwise in a spiral from the top-left corner, the blank on the
    /// spiral's last cell (3×3: `1 2 3/8 0 4/7 6 5`).
    Spiral,
    /// An explicit board, parsed (tiles and any row breaks); it must have the same shape as
    /// the start, which settles its shape when it was written without rows.
    Explicit(RawBoard),
}

/// Why a goal could not be made for a board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GoalError {
    /// The explicit goal is not a board.
    #[error("goal: {0}")]
    Board(ParseBoardError),
    /// The explicit goal has another shape.
    #[error("goal is {goal} but the board is {board}")]
    ShapeMismatch {
        /// The goal's shape.
        goal: Shape,
        /// The start's shape.
        board: Shape,
    },
}

impl GoalSpec {
    /// The goal board for a shape.
    ///
    /// # Errors
    /// An explicit goal that does not parse, or has another shape.
    ///
    /// ```
    /// use npuzzle::{GoalSpec, Shape};
    /// let spiral = GoalSpec::Spiral.board(Shape::square(3).unwrap()).unwrap();
    /// assert_eq!(spiral.to_string(), "1 2 3/8 0 4/7 6 5");
    /// ```
    pub fn board(&self, shape: Shape) -> Result<Board, GoalError> {
        let n = shape.cells();
        let tiles: Vec<Tile> = match self {
            GoalSpec::Standard => (1..n as Tile).chain([0]).collect(),
            GoalSpec::BlankFirst => (0..n as Tile).collect(),
            GoalSpec::Spiral => spiral(shape),
            GoalSpec::Explicit(raw) => {
                // An explicit goal with no row breaks takes the start's shape.
                let written = if raw.rows.len() > 1 {
                    Some(raw.implied_shape().map_err(GoalError::Board)?)
                } else {
                    None
                };
                if let Some(goal) = written.filter(|&g| g != shape) {
                    return Err(GoalError::ShapeMismatch { goal, board: shape });
                }
                if raw.rows.len() <= 1 && raw.tiles.len() != n {
                    if let Ok(goal) = raw.implied_shape() {
                        return Err(GoalError::ShapeMismatch { goal, board: shape });
                    }
                }
                return Board::from_raw(raw, Some(shape)).map_err(GoalError::Board);
            }
        };
        Ok(Board::from_trusted(shape, tiles))
    }

    /// The name used on the command line (`standard`, `blank-first`, `spiral`, or the board).
    pub fn name(&self) -> String {
        match self {
            GoalSpec::Standard => "standard".into(),
            GoalSpec::BlankFirst => "blank-first".into(),
            GoalSpec::Spiral => "spiral".into(),
            GoalSpec::Explicit(raw) => raw.to_string(),
        }
    }

    /// The named goals, for tests and menus.
    pub const NAMED: [GoalSpec; 3] = [GoalSpec::Standard, GoalSpec::BlankFirst, GoalSpec::Spiral];
}

/// Tiles of the spiral goal: 1, 2, … clockwise from the top-left, blank last.
fn spiral(shape: Shape) -> Vec<Tile> {
    let (rows, cols) = (shape.rows() as isize, shape.cols() as isize);
    let mut tiles = vec![0; shape.cells()];
    let (mut top, mut bottom, mut left, mut right) = (0, rows - 1, 0, cols - 1);
    let mut order = Vec::with_capacity(shape.cells());
    while top <= bottom && left <= right {
        for c in left..=right {
            order.push((top, c));
        }
        for r in top + 1..=bottom {
            order.push((r, right));
        }
        if top < bottom {
            for c in (left..right).rev() {
                order.push((bottom, c));
            }
        }
        if left < right {
            for r in (top + 1..bottom).rev() {
                order.push((r, left));
            }
        }
        top += 1;
        bottom -= 1;
        left += 1;
        right -= 1;
    }
    let last = order.len() - 1;
    for (i, &(r, c)) in order.iter().enumerate() {
        let tile = if i == last { 0 } else { i as Tile + 1 };
        tiles[shape.cell(r as usize, c as usize)] = tile;
    }
    tiles
}

impl FromStr for GoalSpec {
    type Err = GoalError;

    /// Named goals by name (case-insensitive, `_` or `-`); anything else is read as an
    /// explicit board (its tiles and shape are checked when it is resolved against a shape).
    ///
    /// # Errors
    /// Text that is neither a goal's name nor board text.
    fn from_str(s: &str) -> Result<GoalSpec, GoalError> {
        Ok(
            match s.trim().to_ascii_lowercase().replace('_', "-").as_str() {
                "standard" | "default" => GoalSpec::Standard,
                "blank-first" | "blankfirst" | "korf" => GoalSpec::BlankFirst,
                "spiral" | "snail" => GoalSpec::Spiral,
                _ => GoalSpec::Explicit(RawBoard::parse(s).map_err(GoalError::Board)?),
            },
        )
    }
}

impl fmt::Display for GoalSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn goal(spec: &str, shape: &str) -> String {
        let spec: GoalSpec = spec.parse().unwrap();
        spec.board(shape.parse().unwrap()).unwrap().to_string()
    }

    #[test]
    fn named_goals() {
        assert_eq!(goal("standard", "3x3"), "1 2 3/4 5 6/7 8 0");
        assert_eq!(goal("blank-first", "2x3"), "0 1 2/3 4 5");
        assert_eq!(goal("spiral", "3x3"), "1 2 3/8 0 4/7 6 5");
        assert_eq!(
            goal("spiral", "4x4"),
            "1 2 3 4/12 13 14 5/11 0 15 6/10 9 8 7"
        );
        assert_eq!(goal("spiral", "2x3"), "1 2 3/0 5 4");
        assert_eq!(goal("spiral", "3x2"), "1 2/0 3/5 4");
        assert_eq!(goal("spiral", "4x3"), "1 2 3/10 11 4/9 0 5/8 7 6");
    }

    #[test]
    fn explicit_goals() {
        assert_eq!(goal("0 1 2 3 4 5 6 7 8", "3x3"), "0 1 2/3 4 5/6 7 8");
        assert_eq!(goal("1 2 3 4 5 0", "2x3"), "1 2 3/4 5 0");
        let spec: GoalSpec = "1 2 3/4 5 6/7 8 0".parse().unwrap();
        assert_eq!(
            spec.board("4x4".parse().unwrap()).unwrap_err().to_string(),
            "goal is 3x3 but the board is 4x4"
        );
        let spec: GoalSpec = "1 2 3 4 5 6 7 8 8".parse().unwrap();
        assert_eq!(
            spec.board("3x3".parse().unwrap()).unwrap_err().to_string(),
            "goal: board has duplicate tile 8"
        );
        // Text that is no board is refused when read, naming the problem.
        let e = "1 2 x".parse::<GoalSpec>().unwrap_err().to_string();
        assert!(e.starts_with("goal: "), "{e}");
        // The name of an explicit goal is the board again, rows kept.
        let spec: GoalSpec = "1 2 3/4 5 0".parse().unwrap();
        assert_eq!(spec.name(), "1 2 3/4 5 0");
    }
}
