//! Every state of the small shapes, against an independent breadth-first search: the
//! solvability verdict equals reachability, optimal algorithms return paths of the true
//! length, every path replays, and admissible heuristics never exceed the true distance.

mod common;

use std::collections::HashMap;

use common::{all_states, assert_replays, bfs_distances};
use npuzzle::search::Control;
use npuzzle::{
    heuristic, solvability, solve, Algorithm, Board, GoalSpec, HeuristicSpec, Puzzle, Shape,
    SolveOptions,
};
use rand::seq::SliceRandom;

const SMALL: [&str; 5] = ["2x2", "2x3", "3x2", "2x4", "4x2"];

/// Named goals plus one random explicit goal per shape.
fn goals(shape: Shape) -> Vec<Board> {
    let mut goals: Vec<Board> = GoalSpec::NAMED
        .iter()
        .map(|g| g.board(shape).unwrap())
        .collect();
    let mut tiles: Vec<u32> = (0..shape.cells() as u32).collect();
    tiles.shuffle(&mut npuzzle::generate::rng(shape.cells() as u64));
    goals.push(Board::new(shape, tiles).unwrap());
    goals
}

fn options(algorithm: Algorithm, heuristic: Option<&str>) -> SolveOptions {
    SolveOptions {
        algorithm,
        heuristic: heuristic.map(|h| h.parse().unwrap()),
        ..SolveOptions::default()
    }
}

/// Solves `start` and checks the length against the reference and the replay.
fn check_optimal(start: &Board, goal: &Board, opts: &SolveOptions, distance: u32) {
    let s = solve(start, goal, opts, common::tables(), Control::default()).unwrap();
    assert!(s.optimal, "{:?} should be optimal", opts);
    let moves = s.moves.expect("no limits were set");
    assert_eq!(moves.len() as u32, distance, "{start} with {:?}", opts);
    assert_replays(start, &moves, goal);
}

#[test]
fn solvability_equals_reachability_for_every_state_and_goal() {
    for shape in SMALL {
        let shape: Shape = shape.parse().unwrap();
        let states = all_states(shape.cells());
        for goal in goals(shape) {
            let dist = bfs_distances(&goal);
            assert_eq!(dist.len(), states.len() / 2, "half the states reach {goal}");
            for tiles in &states {
                let b = Board::new(shape, tiles.clone()).unwrap();
                let v = solvability::check(&b, &goal).unwrap();
                assert_eq!(v.solvable, dist.contains_key(tiles), "{b} -> {goal}: {v}");
                if !v.solvable {
                    let err = solve(
                        &b,
                        &goal,
                        &SolveOptions::default(),
                        common::tables(),
                        Control::default(),
                    );
                    assert!(matches!(err, Err(npuzzle::SolveError::Unsolvable(_))));
                }
            }
        }
    }
}

#[test]
fn optimal_algorithms_return_true_lengths_on_every_small_state() {
    let configs = [
        options(Algorithm::Auto, None),
        options(Algorithm::AStar, Some("manhattan")),
        options(Algorithm::IdaStar, Some("linear-conflict")),
    ];
    // Weak or re-evaluated heuristics and breadth-first search cost far more per state:
    // they run on a deterministic sample of every shape and goal.
    let sampled = [
        options(Algorithm::AStar, Some("max(misplaced,euclidean)")),
        options(
            Algorithm::IdaStar,
            Some("0.5*manhattan+0.5*linear-conflict"),
        ),
        options(Algorithm::Bfs, None),
    ];
    for shape in SMALL {
        let shape: Shape = shape.parse().unwrap();
        for goal in goals(shape) {
            let dist = bfs_distances(&goal);
            for (i, (tiles, &d)) in dist.iter().enumerate() {
                let start = Board::new(shape, tiles.clone()).unwrap();
                for opts in &configs {
                    check_optimal(&start, &goal, opts, d);
                }
                if i % 37 == 0 {
                    for opts in &sampled {
                        check_optimal(&start, &goal, opts, d);
                    }
                }
            }
        }
    }
}

#[test]
fn suboptimal_algorithms_return_valid_paths_and_say_so() {
    let shape: Shape = "2x4".parse().unwrap();
    let goal = GoalSpec::Spiral.board(shape).unwrap();
    let dist = bfs_distances(&goal);
    let greedy = options(Algorithm::Greedy, Some("manhattan"));
    let weighted = SolveOptions {
        weight: 1.5,
        ..options(Algorithm::WeightedAStar, Some("manhattan"))
    };
    for (tiles, &d) in dist.iter().step_by(7) {
        let start = Board::new(shape, tiles.clone()).unwrap();
        let g = solve(&start, &goal, &greedy, common::tables(), Control::default()).unwrap();
        let moves = g.moves.as_ref().unwrap();
        assert_replays(&start, moves, &goal);
        // Optimal only when its path is as short as its proven bound, hence as BFS's.
        assert!(g.lower_bound.unwrap() <= u64::from(d));
        if g.optimal {
            assert_eq!(moves.len(), d as usize, "greedy called optimal");
            assert_eq!(g.lower_bound, Some(u64::from(d)));
        }
        let w = solve(
            &start,
            &goal,
            &weighted,
            common::tables(),
            Control::default(),
        )
        .unwrap();
        let len = w.moves.as_ref().unwrap().len() as f64;
        assert!(
            len <= 1.5 * f64::from(d) + 1e-9,
            "weighted A* within its bound"
        );
        assert_replays(&start, w.moves.as_ref().unwrap(), &goal);
    }
}

/// Every admissible heuristic is at most the true distance, and `perfect` equals it.
fn check_admissible(shape: Shape, goal: &Board, dist: &HashMap<Vec<u32>, u32>) {
    let puzzle = Puzzle::new(goal).unwrap();
    let specs = [
        "misplaced",
        "manhattan",
        "euclidean",
        "linear-conflict",
        "max(manhattan,linear-conflict,misplaced)",
        "0.6*manhattan+0.1*misplaced+0.3*euclidean",
    ];
    let hs: Vec<_> = specs
        .iter()
        .map(|s| {
            let spec: HeuristicSpec = s.parse().unwrap();
            assert!(spec.admissible(), "{s}");
            heuristic::build(&spec, &puzzle, common::tables()).unwrap()
        })
        .collect();
    let perfect = common::tables().perfect(&puzzle).ok();
    for (tiles, &d) in dist {
        let bytes: Vec<u8> = tiles.iter().map(|&t| t as u8).collect();
        for (h, name) in hs.iter().zip(specs) {
            let value = h.estimate(&bytes);
            assert!(
                value <= f64::from(d) + 1e-9,
                "{name} = {value} > {d} on {tiles:?} ({shape})"
            );
        }
        if let Some(p) = &perfect {
            assert_eq!(p.distance(&bytes), Some(d));
        }
    }
}

#[test]
fn admissible_heuristics_never_exceed_the_true_distance() {
    for shape in ["2x4", "4x2", "3x3"] {
        let shape: Shape = shape.parse().unwrap();
        for goal in goals(shape) {
            check_admissible(shape, &goal, &bfs_distances(&goal));
        }
    }
}

#[test]
#[ignore = "slow: every one of the 181,440 solvable 3x3 states with four optimal configurations"]
fn every_3x3_state_is_solved_optimally() {
    let shape = Shape::square(3).unwrap();
    let goal = GoalSpec::Standard.board(shape).unwrap();
    let dist = bfs_distances(&goal);
    assert_eq!(dist.len(), 181_440);
    let configs = [
        options(Algorithm::Auto, None),
        options(Algorithm::AStar, Some("manhattan")),
        options(Algorithm::IdaStar, Some("linear-conflict")),
        options(Algorithm::IdaStar, Some("manhattan")),
    ];
    for (tiles, &d) in &dist {
        let start = Board::new(shape, tiles.clone()).unwrap();
        for opts in &configs {
            check_optimal(&start, &goal, opts, d);
        }
    }
}
