//! The constructive solver and the large-board `auto`: every path replays to the goal on
//! many shapes and goals, unsolvable pairs are refused before any move, and the reported
//! lower bounds and bound factors hold against breadth-first distances.

mod common;

use npuzzle::search::Control;
use npuzzle::{
    constructive, generate, solve, Algorithm, Board, GoalSpec, Shape, SolveError, SolveOptions,
};
use proptest::prelude::*;

fn options(algorithm: Algorithm) -> SolveOptions {
    SolveOptions {
        algorithm,
        ..SolveOptions::default()
    }
}

/// A random explicit goal for a shape.
fn random_goal(shape: Shape, seed: u64) -> Board {
    let standard = GoalSpec::Standard.board(shape).unwrap();
    let mut rng = generate::rng(seed);
    // Either parity class will do for a goal: shuffle freely.
    let mut tiles = standard.tiles().to_vec();
    use rand::seq::SliceRandom;
    tiles.shuffle(&mut rng);
    Board::new(shape, tiles).unwrap()
}

/// The same board with two tiles (not the blank) swapped: the other parity class.
fn swap_two(board: &Board) -> Board {
    let mut tiles = board.tiles().to_vec();
    let mut non_blank = (0..tiles.len()).filter(|&i| tiles[i] != 0);
    let (a, b) = (non_blank.next().unwrap(), non_blank.next().unwrap());
    tiles.swap(a, b);
    Board::new(board.shape(), tiles).unwrap()
}

fn goals(shape: Shape, seed: u64) -> Vec<Board> {
    let mut goals: Vec<Board> = GoalSpec::NAMED
        .iter()
        .map(|g| g.board(shape).unwrap())
        .collect();
    goals.push(random_goal(shape, seed));
    goals
}

#[test]
fn replays_on_many_shapes_and_goals() {
    let shapes = [
        "2x2", "2x3", "3x2", "2x7", "7x2", "3x3", "4x4", "5x5", "3x10", "10x3", "9x13", "13x9",
        "2x25", "25x2", "30x30",
    ];
    for (i, size) in shapes.iter().enumerate() {
        let shape: Shape = size.parse().unwrap();
        for goal in goals(shape, i as u64) {
            let mut rng = generate::rng(100 + i as u64);
            for _ in 0..3 {
                let start = generate::random_solvable(&goal, &mut rng);
                let moves = constructive::construct(&start, &goal).unwrap();
                common::assert_replays(&start, &moves, &goal);
                assert!(moves.len() as u64 >= constructive::manhattan_bound(&start, &goal));
                // The other parity class is refused before any move.
                let other = swap_two(&start);
                assert!(matches!(
                    constructive::construct(&other, &goal),
                    Err(SolveError::Unsolvable(v)) if !v.solvable
                ));
            }
        }
    }
}

#[test]
fn solve_reports_constructive_honestly() {
    let shape: Shape = "12x7".parse().unwrap();
    for goal in goals(shape, 9) {
        let start = generate::random_solvable(&goal, &mut generate::rng(3));
        let s = solve(
            &start,
            &goal,
            &options(Algorithm::Constructive),
            common::tables(),
            Control::default(),
        )
        .unwrap();
        let moves = s.moves.as_ref().unwrap();
        common::assert_replays(&start, moves, &goal);
        assert_eq!(s.algorithm, Algorithm::Constructive);
        assert!(!s.optimal);
        let lower = s.lower_bound.unwrap();
        assert!(lower >= constructive::manhattan_bound(&start, &goal));
        let factor = s.bound_factor.unwrap();
        assert!((factor - moves.len() as f64 / lower as f64).abs() < 1e-9);
        let other = swap_two(&start);
        assert!(matches!(
            solve(
                &other,
                &goal,
                &options(Algorithm::Constructive),
                common::tables(),
                Control::default()
            ),
            Err(SolveError::Unsolvable(_))
        ));
    }
}

/// On every 16th solvable 2x4 state (and random 3x3 ones), against breadth-first distances: the
/// constructive path is at least optimal and at most `bound_factor` × optimal, and the lower
/// bound never exceeds the optimum; weighted searches stay within their weight.
#[test]
fn bounds_hold_against_bfs() {
    for size in ["2x4", "3x3"] {
        let shape: Shape = size.parse().unwrap();
        for goal in goals(shape, 4) {
            let dist = common::bfs_distances(&goal);
            let mut rng = generate::rng(8);
            let starts: Vec<Board> = if size == "2x4" {
                let mut all: Vec<&Vec<u32>> = dist.keys().collect();
                all.sort();
                all.iter()
                    .step_by(16)
                    .map(|t| Board::new(shape, t.to_vec()).unwrap())
                    .collect()
            } else {
                (0..100)
                    .map(|_| generate::random_solvable(&goal, &mut rng))
                    .collect()
            };
            for start in starts {
                let opt = u64::from(dist[start.tiles()]);
                for (algorithm, weight) in [
                    (Algorithm::Constructive, 2.0),
                    (Algorithm::WeightedIdaStar, 1.5),
                    (Algorithm::WeightedIdaStar, 3.0),
                    (Algorithm::WeightedAStar, 2.0),
                ] {
                    let o = SolveOptions {
                        algorithm,
                        weight,
                        ..SolveOptions::default()
                    };
                    let s = solve(&start, &goal, &o, common::tables(), Control::default()).unwrap();
                    let moves = s.moves.as_ref().unwrap();
                    common::assert_replays(&start, moves, &goal);
                    let len = moves.len() as u64;
                    assert!(len >= opt);
                    assert!(s.lower_bound.unwrap() <= opt, "{algorithm} lower bound");
                    if s.optimal {
                        assert_eq!(len, opt, "{algorithm} claims optimal on {start}");
                    }
                    let factor = s.bound_factor.unwrap();
                    assert!(
                        len as f64 <= factor * opt as f64 + 1e-9,
                        "{algorithm} {len} > {factor} x {opt} on {start}"
                    );
                    if algorithm != Algorithm::Constructive {
                        assert!(factor <= weight + 1e-9);
                    }
                }
            }
        }
    }
}

#[test]
fn auto_on_large_boards_says_what_it_did() {
    // 5x5 random walks: cheap for optimal IDA*.
    let goal = GoalSpec::Standard.board("5x5".parse().unwrap()).unwrap();
    let mut rng = generate::rng(11);
    for _ in 0..5 {
        let start = generate::random_walk(&goal, 30, &mut rng);
        let s = solve(
            &start,
            &goal,
            &SolveOptions::default(),
            common::tables(),
            Control::default(),
        )
        .unwrap();
        let moves = s.moves.as_ref().unwrap();
        common::assert_replays(&start, moves, &goal);
        // The anytime engine: whichever of its searches found the path, IDA* proved it.
        assert_eq!(s.phase, npuzzle::plan::PhaseKind::Anytime);
        assert!(s.optimal && moves.len() <= 30);
        assert_eq!(s.lower_bound, Some(moves.len() as u64));
    }
    // Uniform 8x8 and 20x20 boards: never optimal search; honest about it.
    for size in ["8x8", "20x20"] {
        let goal = GoalSpec::Spiral.board(size.parse().unwrap()).unwrap();
        let start = generate::random_solvable(&goal, &mut generate::rng(2));
        let one_second = Control {
            limits: npuzzle::Limits {
                time: Some(std::time::Duration::from_secs(1)),
                ..npuzzle::Limits::default()
            },
            ..Control::default()
        };
        let s = solve(
            &start,
            &goal,
            &SolveOptions::default(),
            common::tables(),
            one_second,
        )
        .unwrap();
        let moves = s.moves.as_ref().unwrap();
        common::assert_replays(&start, moves, &goal);
        assert!(!s.optimal, "{size}");
        // The search that found the path: on 8x8 (64 cells, below the staged answer's 65)
        // a beam when one finishes within the second, else the constructive answer or a
        // weighted search; a staged answer would report weighted A*, which fills its lines.
        assert!(
            matches!(
                s.algorithm,
                Algorithm::Beam
                    | Algorithm::WeightedIdaStar
                    | Algorithm::WeightedAStar
                    | Algorithm::Constructive
            ),
            "{size}: {:?}",
            s.algorithm
        );
        assert!(s.lower_bound.unwrap() > 0 && s.bound_factor.unwrap() >= 1.0);
        if size == "20x20" {
            assert_eq!(s.algorithm, Algorithm::Constructive);
        }
    }
}

#[test]
fn limits_stop_the_constructive_solver() {
    use npuzzle::search::Limits;
    use npuzzle::StopReason;
    let goal = GoalSpec::Standard.board("60x60".parse().unwrap()).unwrap();
    let start = generate::random_solvable(&goal, &mut generate::rng(1));
    let control = Control {
        limits: Limits {
            memory_bytes: Some(100_000),
            ..Limits::default()
        },
        ..Control::default()
    };
    let s = solve(
        &start,
        &goal,
        &options(Algorithm::Constructive),
        common::tables(),
        control,
    )
    .unwrap();
    assert!(s.moves.is_none());
    assert_eq!(s.stopped_by, Some(StopReason::Memory));
    let cancel = std::sync::atomic::AtomicBool::new(true);
    let control = Control {
        cancel: Some(&cancel),
        ..Control::default()
    };
    let s = solve(
        &start,
        &goal,
        &options(Algorithm::Constructive),
        common::tables(),
        control,
    )
    .unwrap();
    assert_eq!(s.stopped_by, Some(StopReason::Cancelled));
}

/// The node limit (which counts moves) is checked after each tile, not each row: on a
/// 300×300 board `--max-nodes 10` stopped at 354,848 moves, a whole row's; a tile's moves
/// are a few times its distance, at most a few thousand here.
#[test]
fn the_constructive_solver_checks_its_limits_after_each_tile() {
    use npuzzle::search::Limits;
    use npuzzle::StopReason;
    let goal = GoalSpec::Standard
        .board("300x300".parse().unwrap())
        .unwrap();
    let start = generate::random_solvable(&goal, &mut generate::rng(1));
    let control = Control {
        limits: Limits {
            nodes: Some(10),
            ..Limits::default()
        },
        ..Control::default()
    };
    let options = options(Algorithm::Constructive);
    let s = solve(&start, &goal, &options, common::tables(), control).unwrap();
    assert_eq!(s.stopped_by, Some(StopReason::Nodes));
    assert!(s.moves.is_none());
    // Nothing stopped by the limit is a row: a tile crosses at most 600 cells.
    assert!(s.stats.generated < 10 * 600, "{}", s.stats.generated);
}

/// The weighted-A* finish of boards of up to 100 cells honours the caller's limits as the
/// rows and columns do. Before, on boards of up to 25 cells it ran first and unchecked:
/// `--max-nodes 10` on a 5×5 gave a whole path of 128 moves, and a time limit or Ctrl-C
/// waited for it.
#[test]
fn the_weighted_finish_honours_the_limits() {
    use npuzzle::search::Limits;
    use npuzzle::StopReason;
    for size in ["4x4", "5x5", "6x6", "10x10"] {
        let goal = GoalSpec::Standard.board(size.parse().unwrap()).unwrap();
        let start = generate::random_solvable(&goal, &mut generate::rng(1));
        let run = |limits: Limits, cancel: Option<&std::sync::atomic::AtomicBool>| {
            let control = Control {
                limits,
                cancel,
                ..Control::default()
            };
            let options = options(Algorithm::Constructive);
            solve(&start, &goal, &options, common::tables(), control).unwrap()
        };
        let free = run(Limits::default(), None);
        let length = free.moves.as_ref().unwrap().len() as u64;
        common::assert_replays(&start, free.moves.as_ref().unwrap(), &goal);
        // The node limit counts moves: the path's own length lets it through, one less not.
        let at = |n: u64| Limits {
            nodes: Some(n),
            ..Limits::default()
        };
        assert_eq!(
            run(at(length), None).moves.map(|m| m.len() as u64),
            Some(length)
        );
        for n in [10, length - 1] {
            let s = run(at(n), None);
            assert!(s.moves.is_none(), "{size}, {n} nodes");
            assert_eq!(s.stopped_by, Some(StopReason::Nodes), "{size}, {n} nodes");
        }
        let cancel = std::sync::atomic::AtomicBool::new(true);
        let s = run(Limits::default(), Some(&cancel));
        assert_eq!(s.stopped_by, Some(StopReason::Cancelled), "{size}");
        let s = run(
            Limits {
                time: Some(std::time::Duration::from_nanos(1)),
                ..Limits::default()
            },
            None,
        );
        assert_eq!(s.stopped_by, Some(StopReason::Time), "{size}");
        // Memory the finish's open list lacks is no reason to stop: the rows and
        // columns answer within it.
        let s = run(
            Limits {
                memory_bytes: Some(2 << 20),
                ..Limits::default()
            },
            None,
        );
        let moves = s.moves.expect(size);
        common::assert_replays(&start, &moves, &goal);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Any shape from 2x2 to 14x14, any named or random goal, any seed: the path replays,
    /// and the other parity class is refused.
    #[test]
    fn constructive_replays(rows in 2usize..15, cols in 2usize..15, goal_kind in 0usize..4, seed in any::<u64>()) {
        let shape = Shape::new(rows, cols).unwrap();
        let goal = match goal_kind {
            3 => random_goal(shape, seed),
            k => GoalSpec::NAMED[k].board(shape).unwrap(),
        };
        let start = generate::random_solvable(&goal, &mut generate::rng(seed));
        let moves = constructive::construct(&start, &goal).unwrap();
        prop_assert_eq!(start.replay(&moves).unwrap(), goal.clone());
        // No move is followed by its reverse.
        prop_assert!(moves.windows(2).all(|w| w[1] != w[0].opposite()));
        let unsolvable = constructive::construct(&swap_two(&start), &goal);
        prop_assert!(matches!(unsolvable, Err(SolveError::Unsolvable(_))), "swapped start accepted");
    }
}

/// A 300x300 board (slow in debug builds, about a second in release).
#[test]
#[ignore]
fn replays_300x300() {
    let goal = GoalSpec::BlankFirst
        .board("300x300".parse().unwrap())
        .unwrap();
    let start = generate::random_solvable(&goal, &mut generate::rng(1));
    let moves = constructive::construct(&start, &goal).unwrap();
    common::assert_replays(&start, &moves, &goal);
}

/// Tiles are fetched in the order that keeps the blank's trips short, so on random boards
/// from 16×16 to 40×40 the answer stays under 3.2 × the Manhattan bound (filling each row
/// from left to right gave 3.24 to 3.30 on these boards).
#[test]
fn the_answer_stays_near_three_moves_a_cell() {
    for (size, seed) in [("16x16", 1), ("16x16", 2), ("24x24", 3), ("40x40", 4)] {
        let goal = GoalSpec::Standard.board(size.parse().unwrap()).unwrap();
        let start = generate::random_solvable(&goal, &mut generate::rng(seed));
        let moves = constructive::construct(&start, &goal).unwrap();
        common::assert_replays(&start, &moves, &goal);
        let ratio = moves.len() as f64 / constructive::manhattan_bound(&start, &goal) as f64;
        assert!(ratio < 3.2, "{size} seed {seed}: {ratio:.3} × Manhattan");
    }
}
