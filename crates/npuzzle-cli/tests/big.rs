//! `npuzzle solve` on big boards: constructive answers marked honestly, streamed output that
//! parses and replays, and `auto` naming what it did.

mod common;

use common::run;
use npuzzle::{Board, GoalSpec, Move, Shape};
use serde_json::Value;

fn random(size: &str, goal: &str, seed: &str) -> String {
    let (code, out, _) = run(
        &["random", "--size", size, "--goal", goal, "--seed", seed],
        None,
    );
    assert_eq!(code, 0);
    out
}

fn replays(v: &Value, size: &str, goal: &str) {
    let shape: Shape = size.parse().unwrap();
    let tiles = |key: &str| -> Vec<u32> {
        v[key]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_u64().unwrap() as u32)
            .collect()
    };
    let start = Board::new(shape, tiles("start")).unwrap();
    let goal_board = goal.parse::<GoalSpec>().unwrap().board(shape).unwrap();
    assert_eq!(tiles("goal"), goal_board.tiles());
    let moves = Move::parse_letters(v["moves"].as_str().unwrap()).unwrap();
    assert_eq!(v["length"].as_u64().unwrap() as usize, moves.len());
    assert_eq!(start.replay(&moves).unwrap(), goal_board);
}

/// A 100x100 board from standard input: solved constructively, in streamed JSON (over a
/// million moves), marked not optimal with a lower bound and bound factor, and it replays.
#[test]
fn solves_a_100x100_board_from_stdin() {
    for goal in ["standard", "blank-first", "spiral"] {
        let board = random("100x100", goal, "7");
        let (code, out, err) = run(&["solve", "--json", "--goal", goal], Some(board.as_bytes()));
        assert_eq!(code, 0, "{err}");
        assert_eq!(out.lines().count(), 1);
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["algorithm"], "constructive");
        assert_eq!(v["optimal"], false);
        assert_eq!(v["size"], "100x100");
        let len = v["length"].as_u64().unwrap();
        assert!(len > 1 << 16, "streamed");
        let lower = v["lower_bound"].as_u64().unwrap();
        assert!(lower > 0 && lower < len);
        let factor = v["bound_factor"].as_f64().unwrap();
        assert!((factor - len as f64 / lower as f64).abs() < 1e-9);
        replays(&v, "100x100", goal);
    }
}

#[test]
fn text_output_names_the_method_and_the_bound() {
    let board = random("12x15", "standard", "3");
    let (code, out, err) = run(&["solve", "--size", "12x15", &board], None);
    assert_eq!(code, 0, "{err}");
    // The constructive answer, or the staged one that improves it (its lines are filled by
    // weighted A*).
    assert!(
        out.contains("not guaranteed optimal, by constructive")
            || out.contains("not guaranteed optimal, by weighted-astar"),
        "{out}"
    );
    assert!(out.contains("Lower bound: "), "{out}");
    assert!(out.contains("x optimal."), "{out}");
    let moves_line = out
        .lines()
        .find(|l| l.starts_with("Moves (blank): "))
        .unwrap();
    let moves = Move::parse_letters(&moves_line["Moves (blank): ".len()..]).unwrap();
    let shape: Shape = "12x15".parse().unwrap();
    let start = Board::parse(&board, Some(shape)).unwrap();
    let goal = GoalSpec::Standard.board(shape).unwrap();
    assert_eq!(start.replay(&moves).unwrap(), goal);
}

#[test]
fn algorithms_by_name_on_mid_size_boards() {
    let board = random("5x5", "standard", "2");
    for (alg, optimal) in [("constructive", false), ("weighted-idastar", false)] {
        let (code, out, err) = run(
            &["solve", "--json", "-a", alg, "--weight", "3", &board],
            None,
        );
        assert_eq!(code, 0, "{err}");
        let v: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["algorithm"], alg);
        assert_eq!(v["optimal"], optimal);
        if alg == "weighted-idastar" {
            assert!(v["bound_factor"].as_f64().unwrap() <= 3.0);
        }
        replays(&v, "5x5", "standard");
    }
    // Search algorithms other than the constructive one still refuse huge boards.
    let big = random("20x20", "standard", "1");
    let (code, _, err) = run(&["solve", "-a", "idastar", &big], None);
    assert_eq!(code, 2);
    assert!(
        err.contains("search algorithms handle at most 255"),
        "{err}"
    );
    // So does a named heuristic, which runs as asked (IDA* with it) or not at all: the
    // constructive solver answered in its place, saying `heuristic: none`.
    for h in ["manhattan", "perfect", "pdb:7-8"] {
        let (code, out, err) = run(&["solve", "-H", h, &big, "--json"], None);
        assert_eq!(code, 2, "{h}: {out}");
        assert!(
            err.contains("search algorithms handle at most 255"),
            "{h}: {err}"
        );
    }
}

#[test]
fn unsolvable_big_boards_are_refused_up_front() {
    let board = random("40x40", "standard", "5");
    let mut tiles: Vec<&str> = board.split_whitespace().collect();
    let (a, b) = {
        let mut nz = (0..tiles.len()).filter(|&i| tiles[i] != "0");
        (nz.next().unwrap(), nz.next().unwrap())
    };
    tiles.swap(a, b);
    let (code, out, _) = run(&["solve", "--json", &tiles.join(" ")], None);
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["solvable"], false);
    assert_eq!(v["expanded"], 0);
}

#[test]
fn limits_stop_the_constructive_solver_with_exit_3() {
    let board = random("30x30", "standard", "4");
    let (code, out, _) = run(
        &[
            "solve",
            "--json",
            "-a",
            "constructive",
            "--max-nodes",
            "100",
            &board,
        ],
        None,
    );
    assert_eq!(code, 3);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["stopped_by"], "nodes");
    assert!(v["length"].is_null());
    assert!(v["lower_bound"].as_u64().unwrap() > 0);
    // A 300x300 path needs more than a megabyte: the memory limit stops it.
    let big = random("300x300", "standard", "4");
    let (code, out, _) = run(
        &[
            "solve",
            "--json",
            "-a",
            "constructive",
            "--memory-limit",
            "1",
        ],
        Some(big.as_bytes()),
    );
    assert_eq!(code, 3);
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["stopped_by"], "memory");
}
