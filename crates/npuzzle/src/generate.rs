//! Random instances, reproducible by seed.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::board::{Board, Tile};
use crate::moves::Move;
use crate::shape::Shape;
use crate::solvability;

/// A seeded random number generator; the same seed gives the same instances on every
/// platform and version of npuzzle (ChaCha8 is specified, unlike `StdRng`).
pub fn rng(seed: u64) -> ChaCha8Rng {
    ChaCha8Rng::seed_from_u64(seed)
}

/// Largest seed [`fresh_seed`] draws: 2^53 - 1, the largest integer a JSON reader that
/// holds numbers as doubles (JavaScript, for one) keeps exactly, so a seed the server or
/// `--json` reports can be sent back and give the same board.
pub const MAX_FRESH_SEED: u64 = (1 << 53) - 1;

/// A seed for a user who gave none: from the clock, distinct for calls within one clock
/// tick, and at most [`MAX_FRESH_SEED`].
pub fn fresh_seed() -> u64 {
    use std::sync::atomic::AtomicU64;
    static CALLS: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    // SplitMix64's increment spreads the count over all the bits before the mask.
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    (nanos ^ call.wrapping_mul(0x9E37_79B9_7F4A_7C15)) & MAX_FRESH_SEED
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

/// A shuffle: a board drawn uniformly from the solvable boards other than `goal` itself (a
/// shuffle that leaves the puzzle solved is none: one draw in 12 on 2×2, one in 360 on 2×3,
/// where the page's shuffle then had nothing to solve).
pub fn shuffled<R: Rng>(goal: &Board, rng: &mut R) -> Board {
    loop {
        let board = random_solvable(goal, rng);
        if board != *goal {
            return board;
        }
    }
}

/// A board drawn uniformly from every arrangement of a shape's tiles, solvable or not from
/// any particular goal: a random goal, for experiments over start/goal pairs.
pub fn random_board<R: Rng>(shape: Shape, rng: &mut R) -> Board {
    let mut tiles: Vec<Tile> = (0..shape.cells() as Tile).collect();
    tiles.shuffle(rng);
    Board::new(shape, tiles).expect("a permutation is a board")
}

/// A start/goal pair drawn uniformly from all solvable pairs of a shape: the goal uniform
/// over every arrangement, then the start uniform over the boards that reach it.
pub fn random_pair<R: Rng>(shape: Shape, rng: &mut R) -> (Board, Board) {
    let goal = random_board(shape, rng);
    (random_solvable(&goal, rng), goal)
}

/// A random walk of `moves` blank moves from `goal`, never undoing the previous move.
pub fn random_walk<R: Rng>(goal: &Board, moves: usize, rng: &mut R) -> Board {
    random_walk_until(goal, moves, rng, &AtomicBool::new(false)).expect("never stopped")
}

/// [`random_walk`], or `None` once `stop` is set (looked at every 65,536 moves: a walk of a
/// billion moves takes most of a minute).
pub fn random_walk_until<R: Rng>(
    goal: &Board,
    moves: usize,
    rng: &mut R,
    stop: &AtomicBool,
) -> Option<Board> {
    let mut board = goal.clone();
    let mut last: Option<Move> = None;
    for i in 0..moves {
        if i % (1 << 16) == 0 && stop.load(Ordering::Relaxed) {
            return None;
        }
        let options: Vec<Move> = board
            .moves()
            .filter(|&m| Some(m.opposite()) != last)
            .collect();
        let m = options[rng.random_range(0..options.len())];
        board.apply(m);
        last = Some(m);
    }
    Some(board)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goal::GoalSpec;

    /// A drawn seed survives a trip through a double (a JavaScript number), and two draws in
    /// a row differ.
    #[test]
    fn fresh_seeds_are_exact_as_doubles_and_distinct() {
        let seeds: Vec<u64> = (0..1000).map(|_| fresh_seed()).collect();
        for &s in &seeds {
            assert!(s <= MAX_FRESH_SEED);
            assert_eq!(s as f64 as u64, s, "seed {s} changes as a double");
        }
        let distinct: std::collections::HashSet<_> = seeds.iter().collect();
        assert_eq!(distinct.len(), seeds.len());
    }

    /// A shuffle is never the goal, and reaches every other solvable board of 2×2.
    #[test]
    fn a_shuffle_is_never_the_goal() {
        let goal = GoalSpec::Standard.board("2x2".parse().unwrap()).unwrap();
        let mut rng = rng(5);
        let seen: std::collections::HashSet<Board> =
            (0..600).map(|_| shuffled(&goal, &mut rng)).collect();
        assert!(!seen.contains(&goal));
        assert!(seen
            .iter()
            .all(|b| solvability::check(b, &goal).unwrap().solvable));
        assert_eq!(seen.len(), 11, "the twelve solvable boards but the goal");
    }

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

    /// Pairs are solvable, reproducible, and their goals cover both parity classes and many
    /// arrangements (a 2x2 has 24 boards; 2000 draws leave none out when uniform).
    #[test]
    fn random_pairs_are_solvable_and_their_goals_are_uniform() {
        let shape: Shape = "2x2".parse().unwrap();
        let (mut a, mut b) = (rng(9), rng(9));
        let mut seen = std::collections::HashMap::new();
        for _ in 0..2000 {
            let (start, goal) = random_pair(shape, &mut a);
            assert_eq!((start.clone(), goal.clone()), random_pair(shape, &mut b));
            assert!(solvability::check(&start, &goal).unwrap().solvable);
            *seen.entry(goal.tiles().to_vec()).or_insert(0) += 1;
        }
        assert_eq!(seen.len(), 24);
        // Each arrangement expects 2000/24 ≈ 83 draws; far off means a biased draw.
        assert!(seen.values().all(|&n| (40..=140).contains(&n)), "{seen:?}");
    }
}
