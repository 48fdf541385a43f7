//! Depth-first searches whose depth nothing else keeps down stay within the stack: weighted
//! IDA* with a large `W`, and IDA* with an inadmissible heuristic, dived as deep as their
//! thresholds let them (tens of thousands of moves on a 3×3) and overflowed the stack,
//! which aborts the process (an outside check: the command line and Python both died).
//! They are now capped at the constructive solver's length ([`Control::depth_cap`]), and
//! on larger boards run on a stack sized for it.

use std::time::Duration;

use npuzzle::search::{Control, Limits};
use npuzzle::{Algorithm, Board, GoalSpec, HeuristicSpec, Puzzle, SolveOptions, Tables};

/// 256 KB: a tenth of a worker thread's stack, far less than the deep dives needed.
const SMALL_STACK: usize = 256 << 10;

/// `solve` on a thread with a small stack, as a worker (or Python's thread) may have.
fn solve_on_a_small_stack(
    board: &str,
    algorithm: Algorithm,
    heuristic: &str,
    weight: f64,
    seconds: f64,
) -> npuzzle::Solution {
    let start = Board::parse(board, None).unwrap();
    let options = SolveOptions {
        algorithm,
        heuristic: Some(heuristic.parse::<HeuristicSpec>().unwrap()),
        weight,
        ..SolveOptions::default()
    };
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(move || {
            let goal = GoalSpec::Standard.board(start.shape()).unwrap();
            let control = Control {
                limits: Limits {
                    time: Some(Duration::from_secs_f64(seconds)),
                    ..Limits::default()
                },
                ..Control::default()
            };
            let s = npuzzle::solve(&start, &goal, &options, &Tables::default(), control).unwrap();
            if let Some(moves) = &s.moves {
                assert_eq!(start.replay(moves).unwrap(), goal, "the path replays");
            }
            s
        })
        .unwrap()
        .join()
        .expect("no panic")
}

/// The constructive solver's length from `board`: the cap.
fn constructive_length(board: &str) -> u64 {
    let start = Board::parse(board, None).unwrap();
    let goal = GoalSpec::Standard.board(start.shape()).unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    u64::from(npuzzle::constructive::path_length(
        &puzzle,
        &puzzle.encode(&start),
    ))
}

#[test]
fn a_large_weight_or_an_inadmissible_heuristic_answers_within_the_cap() {
    let board = "8 5 4/7 2 1/6 3 0";
    let cap = constructive_length(board);
    for (algorithm, heuristic, weight) in [
        (Algorithm::WeightedIdaStar, "manhattan", 1e6),
        (Algorithm::WeightedIdaStar, "linear-conflict", 1e4),
        (Algorithm::WeightedIdaStar, "misplaced", 1e6),
        (Algorithm::IdaStar, "1000*manhattan", 1.0),
        (Algorithm::IdaStar, "100000*misplaced", 1.0),
    ] {
        let s = solve_on_a_small_stack(board, algorithm, heuristic, weight, 20.0);
        let what = format!("{algorithm} {heuristic} {weight}");
        let moves = s.moves.as_ref().unwrap_or_else(|| panic!("{what}: a path"));
        assert!(moves.len() as u64 <= cap, "{what}: {} > {cap}", moves.len());
        assert!(s.stats.max_open <= cap + 1, "{what}: {}", s.stats.max_open);
        assert_eq!(s.stopped_by, None, "{what}");
    }
}

/// An admissible weighted IDA* still keeps its bound under the cap: at most `W` × optimal
/// (the optimal lengths from breadth-first search, in `exhaustive.rs`; here the bound is
/// checked against the proof `solve` makes).
#[test]
fn the_cap_keeps_weighted_idastars_bound() {
    let mut rng = npuzzle::generate::rng(11);
    let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
    for _ in 0..30 {
        let start = npuzzle::generate::random_solvable(&goal, &mut rng);
        let text = start.to_string();
        let optimal = solve_on_a_small_stack(&text, Algorithm::IdaStar, "manhattan", 1.0, 20.0);
        let optimal = optimal.moves.unwrap().len() as f64;
        for weight in [1.5, 3.0, 1e6] {
            let s = solve_on_a_small_stack(
                &text,
                Algorithm::WeightedIdaStar,
                "manhattan",
                weight,
                20.0,
            );
            let len = s.moves.unwrap().len() as f64;
            assert!(
                len <= weight * optimal,
                "{text}: {len} > {weight} × {optimal}"
            );
            assert!(len as u64 <= constructive_length(&text), "{text}");
        }
    }
}

/// On a 15×17 board the cap is thousands of moves deep (8,268 here): the search runs on a
/// stack sized for it, whatever the caller's, and reaches the cap without overflowing.
#[test]
fn a_deep_cap_gets_a_stack_to_match() {
    let shape = "15x17".parse().unwrap();
    let goal = GoalSpec::Standard.board(shape).unwrap();
    let start = npuzzle::generate::random_solvable(&goal, &mut npuzzle::generate::rng(1));
    let text = start.to_string();
    let cap = constructive_length(&text);
    assert!(cap > 5_000, "{cap}");
    let s = solve_on_a_small_stack(&text, Algorithm::WeightedIdaStar, "manhattan", 1e6, 1.5);
    assert!(s.stats.max_open <= cap + 1, "{} > {cap}", s.stats.max_open);
    assert!(s.stats.max_open > 1_000, "it dives: {}", s.stats.max_open);
}
