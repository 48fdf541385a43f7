//! Moves of the blank.

use std::fmt;

use serde::{Deserialize, Serialize};

/// A move, named by the direction the **blank** travels (the tile moves the other way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Move {
    /// Blank moves up one row.
    Up,
    /// Blank moves left one column.
    Left,
    /// Blank moves right one column.
    Right,
    /// Blank moves down one row.
    Down,
}

impl Move {
    /// All moves in the operator order used throughout npuzzle: up, left, right, down
    /// (Korf 1985). Search node counts depend on this order.
    pub const ALL: [Move; 4] = [Move::Up, Move::Left, Move::Right, Move::Down];

    /// The move that undoes this one.
    pub fn opposite(self) -> Move {
        match self {
            Move::Up => Move::Down,
            Move::Down => Move::Up,
            Move::Left => Move::Right,
            Move::Right => Move::Left,
        }
    }

    /// The letter used in move strings: `U`, `D`, `L` or `R`.
    pub fn letter(self) -> char {
        match self {
            Move::Up => 'U',
            Move::Down => 'D',
            Move::Left => 'L',
            Move::Right => 'R',
        }
    }

    /// Reads a move letter (either case).
    pub fn from_letter(c: char) -> Option<Move> {
        match c.to_ascii_uppercase() {
            'U' => Some(Move::Up),
            'D' => Some(Move::Down),
            'L' => Some(Move::Left),
            'R' => Some(Move::Right),
            _ => None,
        }
    }

    /// Index of this move in [`Move::ALL`].
    pub fn index(self) -> usize {
        match self {
            Move::Up => 0,
            Move::Left => 1,
            Move::Right => 2,
            Move::Down => 3,
        }
    }

    /// Moves as a string of letters, e.g. `"ULDR"`.
    pub fn to_letters(moves: &[Move]) -> String {
        moves.iter().map(|m| m.letter()).collect()
    }

    /// Parses a string of move letters; spaces and commas are ignored.
    ///
    /// # Errors
    /// The first character that is not a move letter.
    pub fn parse_letters(s: &str) -> Result<Vec<Move>, char> {
        s.chars()
            .filter(|c| !c.is_whitespace() && *c != ',')
            .map(|c| Move::from_letter(c).ok_or(c))
            .collect()
    }

    /// The same move on the board transposed about its main diagonal.
    pub fn transposed(self) -> Move {
        match self {
            Move::Up => Move::Left,
            Move::Left => Move::Up,
            Move::Right => Move::Down,
            Move::Down => Move::Right,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        let moves = Move::parse_letters("u L,R d").unwrap();
        assert_eq!(moves, vec![Move::Up, Move::Left, Move::Right, Move::Down]);
        assert_eq!(Move::to_letters(&moves), "ULRD");
        assert_eq!(Move::parse_letters("UX"), Err('X'));
        for m in Move::ALL {
            assert_eq!(m.opposite().opposite(), m);
            assert_ne!(m.opposite(), m);
            assert_eq!(Move::ALL[m.index()], m);
            assert_eq!(m.transposed().transposed(), m);
        }
    }
}
