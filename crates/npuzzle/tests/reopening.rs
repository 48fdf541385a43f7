//! A* stays optimal with an admissible but inconsistent heuristic, under which it meets
//! states again by shorter paths and must re-open them.

mod common;

use common::{assert_replays, bfs_distances};
use npuzzle::heuristic::{Heuristic, PerfectTable};
use npuzzle::search::{astar, Control, Priority};
use npuzzle::{Board, GoalSpec, Puzzle, Shape};

/// The exact distance on a pseudo-random half of the states, 0 on the others: admissible,
/// and inconsistent (it drops by up to the full distance in one move).
struct Patchy {
    exact: PerfectTable,
}

impl Heuristic for Patchy {
    fn estimate(&self, tiles: &[u8]) -> f64 {
        // FNV-1a over the tiles decides which half a state is in.
        let hash = tiles.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &t| {
            (h ^ u64::from(t)).wrapping_mul(0x100_0000_01b3)
        });
        if hash % 2 == 0 {
            f64::from(self.exact.distance(tiles).unwrap())
        } else {
            0.0
        }
    }
}

#[test]
fn astar_is_optimal_with_an_inconsistent_heuristic() {
    for (shape, step) in [("2x3", 1), ("2x4", 17), ("4x2", 17)] {
        let shape: Shape = shape.parse().unwrap();
        let goal = GoalSpec::Standard.board(shape).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let h = Patchy {
            exact: common::tables().perfect(&puzzle).unwrap(),
        };
        let dist = bfs_distances(&goal);
        for (tiles, &d) in dist.iter().step_by(step) {
            let start = Board::new(shape, tiles.clone()).unwrap();
            let bytes = puzzle.encode(&start);
            let out = astar(
                &puzzle,
                &bytes,
                &h,
                true,
                Priority::AStar,
                Control::default(),
            );
            let moves = out.moves.unwrap();
            assert_eq!(moves.len() as u32, d, "{start}");
            assert_replays(&start, &moves, &goal);
        }
    }
}
