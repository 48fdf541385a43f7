//! Whether a start board can reach a goal board.
//!
//! Every move is a transposition of the blank with a tile. A horizontal move keeps the
//! row-major order of the tiles, so the inversion count is unchanged. A vertical move lifts a
//! tile past `width − 1` others, which changes the inversion count by an odd amount when the
//! width is even and an even amount when it is odd. Hence:
//!
//! * odd width: the parity of the inversion count is invariant;
//! * even width: the parity of inversions + blank row is invariant.
//!
//! For boards of at least 2×2 these invariants are also sufficient (Johnson & Story 1879;
//! Wilson 1974): every state with the same invariant as the goal reaches it. Inversions are
//! counted with a Fenwick tree, so the check is O(n log n) even on huge boards.

use std::fmt;

use serde::Serialize;

use crate::board::Board;
use crate::goal::GoalError;
use crate::shape::Shape;

/// Which invariant decided the verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Rule {
    /// Odd width: inversion parity must match.
    OddWidthInversions,
    /// Even width: parity of inversions + blank row must match.
    EvenWidthInversionsPlusBlankRow,
}

/// The solvability verdict with the numbers behind it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Verdict {
    /// Whether the start reaches the goal.
    pub solvable: bool,
    /// The rule used.
    pub rule: Rule,
    /// Board width (columns).
    pub width: usize,
    /// Inversions among the start's tiles (row-major, blank ignored).
    pub start_inversions: u64,
    /// Inversions among the goal's tiles.
    pub goal_inversions: u64,
    /// The start's blank row, counted from 1 at the top.
    pub start_blank_row: usize,
    /// The goal's blank row, counted from 1 at the top.
    pub goal_blank_row: usize,
}

impl Verdict {
    /// The invariant's value for the start (inversions, plus blank row for even widths).
    pub fn start_invariant(&self) -> u64 {
        match self.rule {
            Rule::OddWidthInversions => self.start_inversions,
            Rule::EvenWidthInversionsPlusBlankRow => {
                self.start_inversions + self.start_blank_row as u64
            }
        }
    }

    /// The invariant's value for the goal.
    pub fn goal_invariant(&self) -> u64 {
        match self.rule {
            Rule::OddWidthInversions => self.goal_inversions,
            Rule::EvenWidthInversionsPlusBlankRow => {
                self.goal_inversions + self.goal_blank_row as u64
            }
        }
    }

    /// One sentence explaining the verdict.
    pub fn explanation(&self) -> String {
        fn parity(n: u64) -> &'static str {
            if n.is_multiple_of(2) {
                "even"
            } else {
                "odd"
            }
        }
        let (s, g) = (self.start_invariant(), self.goal_invariant());
        let outcome = if self.solvable {
            "same parity, so it is solvable"
        } else {
            "different parity, so it is unsolvable"
        };
        match self.rule {
            Rule::OddWidthInversions => format!(
                "width {} is odd, so every move keeps the parity of the inversion count; \
                 start has {} inversion{} ({}), goal has {} ({}): {outcome}",
                self.width,
                self.start_inversions,
                if self.start_inversions == 1 { "" } else { "s" },
                parity(s),
                self.goal_inversions,
                parity(g)
            ),
            Rule::EvenWidthInversionsPlusBlankRow => format!(
                "width {} is even, so every move keeps the parity of inversions + blank row; \
                 start {} + row {} = {} ({}), goal {} + row {} = {} ({}): {outcome}",
                self.width,
                self.start_inversions,
                self.start_blank_row,
                s,
                parity(s),
                self.goal_inversions,
                self.goal_blank_row,
                g,
                parity(g)
            ),
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.explanation())
    }
}

/// Decides whether `start` can reach `goal`.
///
/// # Errors
/// [`GoalError::ShapeMismatch`] if the boards have different shapes.
///
/// ```
/// use npuzzle::{solvability, Board};
/// let start = Board::parse("1 2 3/4 5 6/8 7 0", None).unwrap();
/// let goal = Board::parse("1 2 3/4 5 6/7 8 0", None).unwrap();
/// let v = solvability::check(&start, &goal).unwrap();
/// assert!(!v.solvable);
/// assert_eq!(v.start_inversions, 1);
/// ```
pub fn check(start: &Board, goal: &Board) -> Result<Verdict, GoalError> {
    if start.shape() != goal.shape() {
        return Err(GoalError::ShapeMismatch {
            goal: goal.shape(),
            board: start.shape(),
        });
    }
    Ok(verdict(start.shape(), start, goal))
}

fn verdict(shape: Shape, start: &Board, goal: &Board) -> Verdict {
    let width = shape.cols();
    let start_inversions = inversions(start.tiles());
    let goal_inversions = inversions(goal.tiles());
    let start_blank_row = start.blank() / width + 1;
    let goal_blank_row = goal.blank() / width + 1;
    let rule = if width % 2 == 1 {
        Rule::OddWidthInversions
    } else {
        Rule::EvenWidthInversionsPlusBlankRow
    };
    let mut v = Verdict {
        solvable: false,
        rule,
        width,
        start_inversions,
        goal_inversions,
        start_blank_row,
        goal_blank_row,
    };
    v.solvable = v.start_invariant() % 2 == v.goal_invariant() % 2;
    v
}

/// Number of pairs of tiles (blank ignored) that stand in the wrong order, row-major.
/// `tiles` is a permutation of `0..tiles.len()`.
pub fn inversions(tiles: &[u32]) -> u64 {
    if tiles.len() <= 64 {
        inversions_in_a_word(tiles)
    } else {
        inversions_in_a_tree(tiles)
    }
}

/// Boards of up to 64 cells: the tiles seen so far are the bits of one word, and the larger
/// ones among them are counted in one instruction. Allocates nothing, which matters when a
/// batch of 8-puzzles each takes a couple of microseconds to solve.
fn inversions_in_a_word(tiles: &[u32]) -> u64 {
    let mut seen = 0u64;
    let mut inv = 0u64;
    for &t in tiles.iter().filter(|&&t| t != 0) {
        // Tiles are below 64 here; the checked shifts keep a bad slice from panicking.
        let larger = seen.checked_shr(t).unwrap_or(0) >> 1;
        inv += u64::from(larger.count_ones());
        seen |= 1u64.checked_shl(t).unwrap_or(0);
    }
    inv
}

/// Larger boards: a Fenwick tree over tile values, counting for each tile the larger tiles
/// already seen, in O(n log n).
fn inversions_in_a_tree(tiles: &[u32]) -> u64 {
    let n = tiles.len();
    let mut tree = vec![0u32; n + 1];
    let mut seen = 0u64;
    let mut inv = 0u64;
    for &t in tiles {
        if t == 0 {
            continue;
        }
        let mut i = t as usize;
        let mut not_greater = 0u64;
        while i > 0 {
            not_greater += u64::from(tree[i]);
            i &= i - 1;
        }
        inv += seen - not_greater;
        seen += 1;
        let mut i = t as usize;
        while i <= n {
            tree[i] += 1;
            i += i & i.wrapping_neg();
        }
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goal::GoalSpec;

    fn naive_inversions(tiles: &[u32]) -> u64 {
        let t: Vec<u32> = tiles.iter().copied().filter(|&t| t != 0).collect();
        let mut n = 0;
        for i in 0..t.len() {
            for j in i + 1..t.len() {
                n += u64::from(t[i] > t[j]);
            }
        }
        n
    }

    #[test]
    fn both_counts_match_naive() {
        use rand::seq::SliceRandom;
        use rand::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for n in [1usize, 2, 4, 9, 16, 30, 63, 64, 65, 100] {
            let mut t: Vec<u32> = (0..n as u32).collect();
            for _ in 0..20 {
                t.shuffle(&mut rng);
                let naive = naive_inversions(&t);
                assert_eq!(inversions(&t), naive, "{t:?}");
                assert_eq!(inversions_in_a_tree(&t), naive, "{t:?}");
                if n <= 64 {
                    assert_eq!(inversions_in_a_word(&t), naive, "{t:?}");
                }
            }
            // The extremes: sorted (none) and reversed (every pair of non-blank tiles).
            t.sort_unstable();
            assert_eq!(inversions(&t), 0);
            t.reverse();
            let k = n.saturating_sub(1) as u64;
            assert_eq!(inversions(&t), k * k.saturating_sub(1) / 2);
        }
    }

    #[test]
    fn classic_cases() {
        let goal = GoalSpec::Standard.board("4x4".parse().unwrap()).unwrap();
        // Sam Loyd's 14-15 puzzle is unsolvable.
        let loyd = Board::parse("1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0", None).unwrap();
        let v = check(&loyd, &goal).unwrap();
        assert!(!v.solvable);
        assert_eq!(v.rule, Rule::EvenWidthInversionsPlusBlankRow);
        assert!(v.explanation().contains("unsolvable"));
        // Moving the blank up one row in a 4-wide board keeps the invariant.
        let up = Board::parse("1 2 3 4/5 6 7 8/9 10 11 0/13 14 15 12", None).unwrap();
        assert!(check(&up, &goal).unwrap().solvable);
        assert_eq!(check(&up, &goal).unwrap().start_inversions, 3);
    }
}
