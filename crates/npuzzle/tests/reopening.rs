//! A* stays optimal with an admissible but inconsistent heuristic, which forces it to
//! re-open states reached again by a shorter path.

mod common;

use common::{assert_replays, bfs_distances};
use npuzzle::heuristic::{Heuristic, PerfectTable};
use npuzzle::search::{astar, Control, Priority};
use npuzzle::{Board, GoalSpec, Puzzle, Shape};

/// The exact distance on states whose blank is in an even column, 0 elsewhere: admissible,
/// and inconsistent (it drops by up to the full distance in one move).
struct Patchy {
    exact: PerfectTable,
    cols: usize,
}

impl Heuristic for Patchy {
    fn estimate(&self, tiles: &[u8]) -> f64 {
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        if (blank % self.cols) % 2 == 0 {
            f64::from(self.exact.distance(tiles).unwrap())
        } else {
            0.0
        }
    }
}

#[test]
fn astar_is_optimal_with_an_inconsistent_heuristic() {
    for shape in ["2x4", "3x3"] {
        let shape: Shape = shape.parse().unwrap();
        let goal = GoalSpec::Standard.board(shape).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let h = Patchy {
            exact: PerfectTable::get(&puzzle).unwrap(),
            cols: shape.cols(),
        };
        let dist = bfs_distances(&goal);
        for (tiles, &d) in dist.iter().step_by(13) {
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
