//! Fuzzing the parsers with proptest at scale (issue 15): the board parser and the
//! heuristic expression parser, fed random text, structured near-misses and random bytes.
//!
//! The default test run does a quick pass (a few thousand inputs each). For a long run,
//! give a duration in seconds:
//!
//! ```text
//! NPUZZLE_FUZZ_SECS=600 cargo test --release -p npuzzle --test fuzz -- --ignored --nocapture
//! ```
//!
//! Each target prints how many inputs it ran. A failure prints the input (its panic, or
//! the property that broke).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::{Duration, Instant};

use npuzzle::{Board, GoalSpec, HeuristicSpec, Shape};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;

/// Runs `check` on inputs drawn from `strategy` for `duration` (or `cases` inputs when no
/// duration is given); returns how many ran.
fn fuzz<S: Strategy>(
    name: &str,
    strategy: S,
    duration: Option<Duration>,
    cases: u64,
    check: impl Fn(&S::Value),
) -> u64
where
    S::Value: std::fmt::Debug,
{
    let mut runner = TestRunner::deterministic();
    let started = Instant::now();
    let mut runs = 0u64;
    loop {
        match duration {
            Some(d) if started.elapsed() >= d => break,
            None if runs >= cases => break,
            _ => {}
        }
        let input = strategy.new_tree(&mut runner).unwrap().current();
        if let Err(e) = catch_unwind(AssertUnwindSafe(|| check(&input))) {
            let why = e
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            panic!("{name}: input {input:?} failed: {why}");
        }
        runs += 1;
    }
    eprintln!(
        "{name}: {runs} inputs in {:.1} s, no failure",
        started.elapsed().as_secs_f64()
    );
    runs
}

fn duration() -> Option<Duration> {
    std::env::var("NPUZZLE_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .map(Duration::from_secs_f64)
}

/// Text that looks like boards: numbers, separators, blanks, rows, and a little noise.
fn board_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9 ,/_\n\t]{0,120}",
        prop::collection::vec(0u32..40, 0..40)
            .prop_map(|v| { v.iter().map(u32::to_string).collect::<Vec<_>>().join(" ") }),
        (2usize..7, 2usize..7, any::<u64>()).prop_map(|(r, c, seed)| {
            // A real board, then one random edit.
            let shape = Shape::new(r, c).unwrap();
            let goal = GoalSpec::Standard.board(shape).unwrap();
            let b = npuzzle::generate::random_solvable(&goal, &mut npuzzle::generate::rng(seed));
            let mut text = b.to_string().into_bytes();
            let i = (seed as usize) % text.len().max(1);
            let noise = [b'0', b'/', b' ', b'x', b'9', b'\n', b'-', 0xC3];
            text[i] = noise[(seed >> 8) as usize % noise.len()];
            String::from_utf8_lossy(&text).into_owned()
        }),
        any::<String>(),
        prop::collection::vec(any::<u8>(), 0..200)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

fn check_board(input: &(String, Option<(usize, usize)>)) {
    let (text, size) = input;
    let shape = size.and_then(|(r, c)| Shape::new(r, c).ok());
    if let Ok(board) = Board::parse(text, shape) {
        // A board that parses prints as text that parses back to it.
        let again = Board::parse(&board.to_string(), Some(board.shape())).unwrap();
        assert_eq!(again, board);
        let goal = GoalSpec::Standard.board(board.shape()).unwrap();
        let _ = npuzzle::solvability::check(&board, &goal);
    }
}

/// Text that looks like heuristic expressions.
fn expression_text() -> impl Strategy<Value = String> {
    let atom = prop_oneof![
        Just("manhattan".to_string()),
        Just("lc".to_string()),
        Just("misplaced".to_string()),
        Just("euclid".to_string()),
        Just("perfect".to_string()),
        Just("pdb".to_string()),
        "pdb:[0-9-]{0,8}",
        "[0-9.]{1,5}\\*md",
        "[a-zäü_:-]{0,10}",
    ];
    prop_oneof![
        prop::collection::vec(
            (
                atom,
                prop::sample::select(vec!["+", ",", "*", "", "max(", ")", "("])
            ),
            0..30
        )
        .prop_map(|parts| parts.into_iter().map(|(a, s)| a + s).collect::<String>()),
        "[a-z0-9().,+* _:-]{0,80}",
        any::<String>(),
    ]
}

fn check_expression(text: &str) {
    match text.parse::<HeuristicSpec>() {
        Ok(h) => {
            let _ = (h.admissible(), h.consistent());
            let printed = h.to_string();
            // What prints parses back to the same heuristic (a long expression may print
            // longer than the limit, so only check those within it).
            if printed.chars().count() <= 1000 {
                assert_eq!(printed.parse::<HeuristicSpec>().unwrap(), h, "{printed}");
            }
        }
        Err(e) => {
            let message = e.to_string();
            assert!(message.len() < 400, "{} bytes: {message}", message.len());
            assert!(!message.contains('\n'));
        }
    }
}

fn board_inputs() -> impl Strategy<Value = (String, Option<(usize, usize)>)> {
    (board_text(), prop::option::of((0usize..12, 0usize..12)))
}

#[test]
fn board_parser_quick() {
    fuzz("board parser", board_inputs(), None, 3000, check_board);
}

#[test]
fn expression_parser_quick() {
    fuzz(
        "expression parser",
        expression_text(),
        None,
        3000,
        |t: &String| check_expression(t),
    );
}

#[test]
#[ignore = "long fuzz run: NPUZZLE_FUZZ_SECS=600 … -- --ignored"]
fn board_parser_long() {
    let d = duration().unwrap_or(Duration::from_secs(60));
    fuzz("board parser", board_inputs(), Some(d), 0, check_board);
}

#[test]
#[ignore = "long fuzz run: NPUZZLE_FUZZ_SECS=600 … -- --ignored"]
fn expression_parser_long() {
    let d = duration().unwrap_or(Duration::from_secs(60));
    fuzz(
        "expression parser",
        expression_text(),
        Some(d),
        0,
        |t: &String| check_expression(t),
    );
}
