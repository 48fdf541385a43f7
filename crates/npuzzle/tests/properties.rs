//! Properties over random boards and random text.

mod common;

use common::assert_replays;
use npuzzle::search::Control;
use npuzzle::{generate, solve, Algorithm, Board, GoalSpec, Shape, SolveOptions};
use proptest::prelude::*;

fn solve_with(start: &Board, goal: &Board, algorithm: Algorithm, h: &str) -> usize {
    let opts = SolveOptions {
        algorithm,
        heuristic: Some(h.parse().unwrap()),
        ..SolveOptions::default()
    };
    let s = solve(start, goal, &opts, common::tables(), Control::default()).unwrap();
    assert!(s.optimal);
    let moves = s.moves.unwrap();
    assert_replays(start, &moves, goal);
    moves.len()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// A* and IDA* agree on the cost, on several shapes and goals.
    #[test]
    fn astar_and_idastar_agree(seed in any::<u64>(), shape in prop::sample::select(vec!["3x3", "2x5", "3x4", "4x3", "4x4"]), goal in 0usize..3) {
        let shape: Shape = shape.parse().unwrap();
        let goal = GoalSpec::NAMED[goal].board(shape).unwrap();
        let mut rng = generate::rng(seed);
        // Uniform boards on 3x3 and 2x5; random walks on larger boards keep A* small.
        let start = if shape.cells() <= 10 {
            generate::random_solvable(&goal, &mut rng)
        } else {
            generate::random_walk(&goal, 40, &mut rng)
        };
        let a = solve_with(&start, &goal, Algorithm::AStar, "manhattan");
        let i = solve_with(&start, &goal, Algorithm::IdaStar, "linear-conflict");
        prop_assert_eq!(a, i);
        let a2 = solve_with(&start, &goal, Algorithm::AStar, "linear-conflict");
        prop_assert_eq!(a, a2);
    }

    /// Random text never panics the parser, whatever it is.
    #[test]
    fn parser_never_panics(text in ".{0,200}", size in prop::option::of("[0-9x]{0,6}")) {
        let shape = size.and_then(|s| s.parse::<Shape>().ok());
        let _ = Board::parse(&text, shape);
        let _ = text.parse::<npuzzle::HeuristicSpec>();
        let _ = text.parse::<Shape>();
    }

    /// Digit soup, closer to real boards, never panics either.
    #[test]
    fn parser_never_panics_on_digit_soup(text in "[0-9 ,/_\n]{0,80}") {
        if let Ok(b) = Board::parse(&text, None) {
            prop_assert_eq!(b.tiles().len(), b.shape().cells());
        }
    }

    /// Display then parse gives the same board.
    #[test]
    fn display_parse_round_trip(seed in any::<u64>(), rows in 2usize..7, cols in 2usize..7) {
        let shape = Shape::new(rows, cols).unwrap();
        let goal = GoalSpec::Standard.board(shape).unwrap();
        let b = generate::random_solvable(&goal, &mut generate::rng(seed));
        prop_assert_eq!(Board::parse(&b.to_string(), None).unwrap(), b.clone());
        prop_assert_eq!(Board::parse(&b.to_grid(), None).unwrap(), b.clone());
        let flat: Vec<String> = b.tiles().iter().map(u32::to_string).collect();
        prop_assert_eq!(Board::parse(&flat.join(","), Some(shape)).unwrap(), b);
    }
}
