//! Random instances, reproducible by seed.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::board::{Board, Tile};
use crate::moves::Move;
use crate::solvability;

/// A seeded random number generator; the same seed gives the same instances on every
/// platform and version of npuzzle (ChaCha8 is specified, unlike `StdRng`).
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// A board drawn uniformly from all boards that can reach `goal`.
///
/// Shuffles all tiles, then, if the result is in the other parity class, swaps the first two
/// tiles that are not the blank: a bijection between the two classes, so the result stays
/// uniform over the solvable class.
pub fn random_solvable<R: Rng>(goal: &Board, rng: &mut R) -> Board {
    let mut tiles: Vec<Tile> = goal.tiles().to_vec();
    tiles.shuffle(rng);
    let board = Board::new(goal.shape(), tiles.clone()).expect("a permutation is a board");
    if solvability::check(&board, goal)
        .expect("same shape")
        .solvable
    {
        return board;
    }
    let mut non_blank = (0..tiles.len()).filter(|&i| tiles[i] != 0);
    let (a, b) = (non_blank.next().unwrap(), non_blank.next().unwrap());
    tiles.swap(a, b);
    Board::new(goal.shape(), tiles).expect("a permutation is a board")
}

/// A random walk of `moves` blank moves from `goal`, never undoing the previous move.
pub fn random_walk<R: Rng>(goal: &Board, moves: usize, rng: &mut R) -> Board {
    let mut board = goal.clone();
    let mut last: Option<Move> = None;
    for _ in 0..moves {
        let options: Vec<Move> = board
            .moves()
            .filter(|&m| Some(m.opposite()) != last)
            .collect();
        let m = options[rng.random_range(0..options.len())];
        board.apply(m);
        last = Some(m);
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goal::GoalSpec;

    #[test]
    fn random_boards_are_solvable_and_reproducible() {
        for shape in ["2x2", "3x3", "4x4", "3x4", "5x2"] {
            for spec in GoalSpec::NAMED {
                let goal = spec.board(shape.parse().unwrap()).unwrap();
                let mut a = rng(42);
                let mut b = rng(42);
                for _ in 0..50 {
                    let x = random_solvable(&goal, &mut a);
                    assert_eq!(x, random_solvable(&goal, &mut b));
                    assert!(solvability::check(&x, &goal).unwrap().solvable);
                    let w = random_walk(&goal, 30, &mut a);
                    assert_eq!(w, random_walk(&goal, 30, &mut b));
                    assert!(solvability::check(&w, &goal).unwrap().solvable);
                }
            }
        }
    }
}
