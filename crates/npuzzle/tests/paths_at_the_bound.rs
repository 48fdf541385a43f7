//! A path no longer than a proven lower bound is a shortest one, whichever search found it,
//! and the answer says so.
//!
//! Before, greedy search one move from the goal answered "not guaranteed optimal ... at most
//! 1.000 x optimal"; on a solved board greedy and beam search gave no `bound_factor` and
//! weighted A* gave 2.0.

mod common;

use npuzzle::search::Control;
use npuzzle::{solve, Algorithm, Board, GoalSpec, Shape, SolveOptions};

fn answer(start: &Board, goal: &Board, algorithm: Algorithm) -> npuzzle::Solution {
    let options = SolveOptions {
        algorithm,
        ..SolveOptions::default()
    };
    solve(start, goal, &options, common::tables(), Control::default()).unwrap()
}

#[test]
fn every_algorithm_calls_a_path_at_its_bound_optimal() {
    for shape in ["3x3", "2x4", "5x5"] {
        let shape: Shape = shape.parse().unwrap();
        let goal = GoalSpec::Standard.board(shape).unwrap();
        // The solved board and every board one move from the goal.
        let mut starts = vec![goal.clone()];
        starts.extend(goal.moves().map(|m| {
            let mut b = goal.clone();
            b.apply(m);
            b
        }));
        for start in &starts {
            for algorithm in Algorithm::ALL {
                if algorithm == Algorithm::Bfs && shape.cells() > 16 {
                    continue;
                }
                let s = answer(start, &goal, algorithm);
                let what = format!("{algorithm} on {shape} from {start}");
                let moves = s.moves.as_ref().expect(&what);
                common::assert_replays(start, moves, &goal);
                assert!(moves.len() <= 1, "{what}: {} moves", moves.len());
                assert!(s.optimal, "{what}: not called optimal");
                assert_eq!(s.lower_bound, Some(moves.len() as u64), "{what}");
                assert_eq!(s.bound_factor, Some(1.0), "{what}");
            }
        }
    }
}

#[test]
fn a_path_longer_than_its_bound_is_not_called_optimal() {
    // Every 3×3 board eight moves or fewer from the goal: a search may call its path
    // optimal only when it is as short as breadth-first search's.
    // (Its bound is linear conflict, so longer paths are never at their bound.)
    let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
    let distances = common::bfs_distances(&goal);
    for (tiles, &d) in distances.iter().filter(|(_, &d)| d <= 8) {
        let start = Board::new(goal.shape(), tiles.clone()).unwrap();
        for algorithm in [Algorithm::Greedy, Algorithm::WeightedAStar, Algorithm::Beam] {
            let s = answer(&start, &goal, algorithm);
            let moves = s.moves.as_ref().unwrap();
            common::assert_replays(&start, moves, &goal);
            let what = format!(
                "{algorithm} from {start}: {} moves, optimal {d}",
                moves.len()
            );
            if s.optimal {
                assert_eq!(moves.len(), d as usize, "{what}: called optimal");
            }
            let lower = s.lower_bound.unwrap();
            assert!(lower <= u64::from(d), "{what}: bound {lower}");
        }
    }
}
