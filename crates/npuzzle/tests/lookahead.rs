//! IDA* with the lookahead of `--optimal` (`search::idastar_with_lookahead`) against an
//! independent reference: on random 3×3 boards its paths have the breadth-first search's
//! lengths and replay, with Manhattan distance and linear conflict; on 3×4 boards (where
//! iterations go parallel) the counts are the same on one thread and on two; and through
//! `solve`, `--optimal` looks ahead while a named IDA* does not.

mod common;

use common::{assert_replays, bfs_distances};
use npuzzle::heuristic::{LinearConflict, Manhattan};
use npuzzle::search::{idastar, idastar_with_lookahead, Control};
use npuzzle::{generate, solve, Algorithm, GoalSpec, Puzzle, SolveOptions, Tables};

#[test]
fn lookahead_paths_are_shortest_on_random_8_puzzles() {
    let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
    let dist = bfs_distances(&goal);
    let puzzle = Puzzle::new(&goal).unwrap();
    let mut rng = generate::rng(41);
    for _ in 0..2000 {
        let start = generate::random_solvable(&goal, &mut rng);
        let tiles = puzzle.encode(&start);
        let optimal = dist[start.tiles()] as usize;
        for looked in [
            idastar_with_lookahead(&puzzle, &tiles, Manhattan::new(&puzzle), Control::default()),
            idastar_with_lookahead(
                &puzzle,
                &tiles,
                LinearConflict::new(&puzzle),
                Control::default(),
            ),
        ] {
            let moves = looked.moves.expect("no limits");
            assert_eq!(moves.len(), optimal, "{start}");
            assert_replays(&start, &moves, &goal);
        }
    }
}

#[test]
fn lookahead_counts_are_the_same_on_one_and_two_threads() {
    let goal = GoalSpec::Standard.board("3x4".parse().unwrap()).unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    let mut rng = generate::rng(43);
    for _ in 0..8 {
        let start = generate::random_solvable(&goal, &mut rng);
        let tiles = puzzle.encode(&start);
        let runs: Vec<_> = [1, 2]
            .into_iter()
            .map(|threads| {
                let control = Control {
                    threads,
                    ..Control::default()
                };
                idastar_with_lookahead(&puzzle, &tiles, LinearConflict::new(&puzzle), control)
            })
            .collect();
        let plain = idastar(
            &puzzle,
            &tiles,
            LinearConflict::new(&puzzle),
            Control::default(),
        );
        let optimal = plain.moves.expect("no limits").len();
        for out in &runs {
            let moves = out.moves.as_ref().expect("no limits");
            assert_eq!(moves.len(), optimal, "{start}");
            assert_replays(&start, moves, &goal);
        }
        assert_eq!(runs[0].stats.generated, runs[1].stats.generated, "{start}");
        assert_eq!(runs[0].stats.expanded, runs[1].stats.expanded, "{start}");
    }
}

/// `--optimal` asks for the lookahead; `-a idastar` alone keeps the published search.
#[test]
fn optimal_looks_ahead_and_a_named_idastar_does_not() {
    let start = npuzzle::Board::parse("8 6 7/2 5 4/3 0 1", None).unwrap();
    let goal = GoalSpec::Standard.board(start.shape()).unwrap();
    let tables = Tables::default();
    let named = SolveOptions {
        algorithm: Algorithm::IdaStar,
        heuristic: Some("manhattan".parse().unwrap()),
        ..SolveOptions::default()
    };
    let proof = SolveOptions {
        optimal: true,
        ..named.clone()
    };
    let plan = |o: &SolveOptions| npuzzle::plan(&goal, o, &tables).unwrap();
    assert!(plan(&proof).phases[0].lookahead);
    assert!(!plan(&named).phases[0].lookahead);
    let (a, b) = (
        solve(&start, &goal, &named, &tables, Control::default()).unwrap(),
        solve(&start, &goal, &proof, &tables, Control::default()).unwrap(),
    );
    assert_eq!(a.length(), Some(31));
    assert_eq!(b.length(), Some(31));
    assert!(a.optimal && b.optimal);
    let puzzle = Puzzle::new(&goal).unwrap();
    let tiles = puzzle.encode(&start);
    let plain = idastar(&puzzle, &tiles, Manhattan::new(&puzzle), Control::default());
    let looked =
        idastar_with_lookahead(&puzzle, &tiles, Manhattan::new(&puzzle), Control::default());
    assert_eq!(a.stats.generated, plain.stats.generated);
    assert_eq!(b.stats.generated, looked.stats.generated);
}
