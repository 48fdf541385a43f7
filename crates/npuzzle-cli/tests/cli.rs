//! The `npuzzle` command-line contract: output, JSON fields, exit codes and error messages.

use std::collections::{HashMap, VecDeque};

mod common;

use common::run;
use npuzzle::{Board, GoalSpec, Move};
use serde_json::Value;

/// Distance from `start` to `goal` by a plain breadth-first search (small boards only).
fn bfs_distance(start: &Board, goal: &Board) -> usize {
    let mut seen = HashMap::from([(start.tiles().to_vec(), 0usize)]);
    let mut queue = VecDeque::from([start.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = seen[b.tiles()];
        if &b == goal {
            return d;
        }
        for m in Move::ALL {
            let mut n = b.clone();
            if n.apply(m) && !seen.contains_key(n.tiles()) {
                seen.insert(n.tiles().to_vec(), d + 1);
                queue.push_back(n);
            }
        }
    }
    panic!("{goal} not reachable from {start}");
}

fn json_line(stdout: &str) -> Value {
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{e}: {stdout}"))
}

#[test]
fn solves_the_readme_example_optimally() {
    let (code, out, err) = run(&["solve", "7 2 6/8 1 4/3 5 0"], None);
    assert_eq!(code, 0, "{err}");
    let start = Board::parse("7 2 6/8 1 4/3 5 0", None).unwrap();
    let goal = GoalSpec::Standard.board(start.shape()).unwrap();
    let d = bfs_distance(&start, &goal);
    assert!(
        out.contains(&format!("Solution: {d} moves, optimal")),
        "{out}"
    );
    assert!(out.contains("Solvable:"));
    assert!(out.contains("Expanded"));
}

#[test]
fn json_has_the_documented_fields_and_the_path_replays() {
    for goal_name in ["standard", "blank-first", "spiral", "8 7 6/5 4 3/2 1 0"] {
        let (code, out, err) = run(
            &[
                "solve",
                "7 2 6/8 1 4/3 5 0",
                "--goal",
                goal_name,
                "--json",
                "--path",
            ],
            None,
        );
        let start = Board::parse("7 2 6/8 1 4/3 5 0", None).unwrap();
        let goal = goal_name
            .parse::<GoalSpec>()
            .unwrap()
            .board(start.shape())
            .unwrap();
        let v = json_line(&out);
        if !npuzzle::solvability::check(&start, &goal).unwrap().solvable {
            assert_eq!(code, 1);
            assert_eq!(v["solvable"], false);
            assert!(v["length"].is_null());
            continue;
        }
        assert_eq!(code, 0, "{err}");
        assert_eq!(v["solvable"], true);
        assert_eq!(v["optimal"], true);
        for field in ["expanded", "generated", "max_open"] {
            assert!(v[field].is_u64(), "{field}");
        }
        assert!(v["seconds"].is_f64());
        assert!(v["heuristic"].is_string() && v["algorithm"].is_string());
        assert!(v["stopped_by"].is_null());
        let moves = Move::parse_letters(v["moves"].as_str().unwrap()).unwrap();
        assert_eq!(v["length"].as_u64().unwrap() as usize, moves.len());
        assert_eq!(moves.len(), bfs_distance(&start, &goal));
        assert_eq!(start.replay(&moves).unwrap(), goal);
        let path = v["path"].as_array().unwrap();
        assert_eq!(path.len(), moves.len() + 1);
        let tiles = |b: &Value| -> Vec<u32> {
            b.as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_u64().unwrap() as u32)
                .collect()
        };
        assert_eq!(tiles(&path[0]), start.tiles());
        assert_eq!(tiles(path.last().unwrap()), goal.tiles());
    }
}

#[test]
fn every_algorithm_and_heuristic_is_reachable_from_the_command_line() {
    let start = Board::parse("8 6 7/2 5 4/3 0 1", None).unwrap();
    let goal = GoalSpec::Standard.board(start.shape()).unwrap();
    let d = bfs_distance(&start, &goal);
    for (alg, h, optimal) in [
        ("astar", "manhattan", true),
        ("idastar", "linear-conflict", true),
        ("bfs", "manhattan", true),
        ("astar", "misplaced", true),
        ("idastar", "euclidean", true),
        ("astar", "0.6*manhattan+0.1*misplaced+0.3*euclidean", true),
        ("idastar", "max(manhattan,linear-conflict)", true),
        ("greedy", "manhattan", false),
        ("weighted-astar", "manhattan", false),
        ("astar", "2*manhattan", false),
    ] {
        let (code, out, err) = run(
            &["solve", "8 6 7/2 5 4/3 0 1", "-a", alg, "-H", h, "--json"],
            None,
        );
        assert_eq!(code, 0, "{alg} {h}: {err}");
        let v = json_line(&out);
        assert_eq!(v["optimal"], optimal, "{alg} {h}");
        assert_eq!(v["algorithm"], alg);
        let moves = Move::parse_letters(v["moves"].as_str().unwrap()).unwrap();
        assert_eq!(start.replay(&moves).unwrap(), goal);
        if optimal {
            assert_eq!(moves.len(), d, "{alg} {h}");
        } else {
            assert!(moves.len() >= d);
        }
    }
}

#[test]
fn unsolvable_boards_exit_1_with_the_reason() {
    let (code, out, _) = run(&["solve", "1 2 3/4 5 6/8 7 0"], None);
    assert_eq!(code, 1);
    assert!(out.contains("Unsolvable: width 3 is odd"), "{out}");
    let (code, out, _) = run(
        &["solve", "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0", "--json"],
        None,
    );
    assert_eq!(code, 1);
    let v = json_line(&out);
    assert_eq!(v["solvable"], false);
    assert!(v["length"].is_null() && v["moves"].is_null());
    assert!(v["reason"].as_str().unwrap().contains("even"));
}

#[test]
fn check_prints_the_numbers_behind_the_verdict() {
    let (code, out, _) = run(&["check", "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0"], None);
    assert_eq!(code, 1);
    assert!(out.starts_with("unsolvable"));
    assert!(
        out.contains("1 inversion") && out.contains("row 4"),
        "{out}"
    );
    let (code, out, _) = run(
        &["check", "1 2 3 4/5 6 7 8/9 10 11 0/13 14 15 12", "--json"],
        None,
    );
    assert_eq!(code, 0);
    let v = json_line(&out);
    assert_eq!(v["solvable"], true);
    assert_eq!(v["start_inversions"], 3);
    assert_eq!(v["start_blank_row"], 3);
    assert_eq!(v["rule"], "even-width-inversions-plus-blank-row");
}

#[test]
fn limits_stop_the_search_say_which_and_exit_3() {
    // Korf's instance 1 (57 moves): far beyond these limits for A* with misplaced tiles.
    let hard = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    for (flags, which) in [
        (vec!["--max-nodes", "1000"], "nodes"),
        (vec!["--time-limit", "0.2"], "time"),
        (vec!["--memory-limit", "2"], "memory"),
    ] {
        let mut args = vec![
            "solve",
            hard,
            "--goal",
            "blank-first",
            "-a",
            "astar",
            "-H",
            "misplaced",
            "--json",
        ];
        args.extend(flags);
        let (code, out, err) = run(&args, None);
        assert_eq!(code, 3, "{which}: {err}");
        let v = json_line(&out);
        assert_eq!(v["stopped_by"], which);
        assert!(v["length"].is_null());
        assert!(
            v["generated"].as_u64().unwrap() > 0,
            "statistics so far are printed"
        );
    }
    // A named heuristic runs as asked, so the limit stops it: exit 3.
    let (code, out, _) = run(
        &[
            "solve",
            hard,
            "--goal",
            "blank-first",
            "-H",
            "manhattan",
            "--max-nodes",
            "5000",
        ],
        None,
    );
    assert_eq!(code, 3);
    assert!(out.contains("Stopped by the node limit"), "{out}");
    // Auto's anytime engine answers at once, so a limit ends its improvements, not the
    // answer: exit 0, with the limit and the proven bound named.
    let (code, out, _) = run(
        &[
            "solve",
            hard,
            "--goal",
            "blank-first",
            "--max-nodes",
            "5000",
        ],
        None,
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("not guaranteed optimal"), "{out}");
    assert!(out.contains("Lower bound:"), "{out}");
    // Only the time limit is the budget `--time-limit` sets: the line used to end
    // "(--time-limit sets the budget)" whatever stopped the run.
    assert!(
        out.contains("Stopped by the node limit before the bound met the length.\n"),
        "{out}"
    );
}

/// A proof stopped by a limit while it holds a path longer than its proven bound (a
/// lookahead above the bound found it, and the iterations below it were proving it)
/// answers with that path, not proved: `optimal` false, the proven bound, the limit, exit
/// 0 as any answer. It used to say it had found no solution. (With Manhattan distance the
/// seed-4 4×4 board's proof holds its 48-move path from about 0.6 of its nodes on: the
/// search is deterministic, so a limit at 0.8 of them stops it there.)
#[test]
fn a_proof_stopped_while_holding_a_path_answers_with_it_unproved() {
    let (_, board, _) = run(&["random", "--size", "4x4", "--seed", "4"], None);
    let board = board.trim();
    let proof = ["solve", board, "-H", "manhattan", "--optimal", "--json"];
    let (code, out, err) = run(&proof, None);
    assert_eq!(code, 0, "{err}");
    let full = json_line(&out);
    let optimal = full["length"].as_u64().unwrap();
    let limit = (full["generated"].as_u64().unwrap() * 4 / 5).to_string();
    let mut args = proof.to_vec();
    args.extend(["--max-nodes", &limit]);
    let (code, out, err) = run(&args, None);
    assert_eq!(code, 0, "a path is an answer: {err}");
    let v = json_line(&out);
    assert_eq!(v["stopped_by"], "nodes", "{v}");
    assert_eq!(v["optimal"], false, "{v}");
    let len = v["length"].as_u64().expect("the path in hand");
    let lower = v["lower_bound"].as_u64().unwrap();
    assert!(lower < len && lower <= optimal && optimal <= len, "{v}");
    common::assert_replays_to_standard(board, 4, &v);
    args.retain(|a| *a != "--json");
    let (code, out, _) = run(&args, None);
    assert_eq!(code, 0);
    for words in [
        format!("Solution: {len} moves, not guaranteed optimal"),
        format!("Lower bound: {lower} moves (proven so far)"),
        "Stopped by the node limit before proving it shortest.".to_string(),
    ] {
        assert!(out.contains(&words), "{words:?} in {out}");
    }
}

#[test]
fn boards_come_from_stdin_and_files_in_the_classroom_format() {
    let (code, out, _) = run(&["solve", "--json"], Some(b"7 2 6\n8 1 4\n3 5 0\n"));
    assert_eq!(code, 0);
    assert_eq!(json_line(&out)["solvable"], true);

    let dir = std::env::temp_dir().join(format!("npuzzle-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("infile.txt");
    std::fs::write(
        &file,
        "N=3\n1 2 3 4 5 6 0 7 8\n1 2 3 4 5 6 8 7 0\n0 1 3 4 2 5 7 8 6\n",
    )
    .unwrap();
    let (code, out, _) = run(&["solve", "--file", file.to_str().unwrap(), "--json"], None);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3, "one object per board, in input order");
    assert_eq!(lines[0]["length"], 2);
    assert_eq!(lines[1]["solvable"], false);
    assert_eq!(lines[2]["solvable"], true);
    assert_eq!(code, 1, "worst outcome: one board is unsolvable");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn interactive_mode_works_with_piped_input_and_re_asks() {
    let answers = "x\n3\n7 2 6\n8 1\n7 2 6\n8 1 4\n3 5 0\n\nnonsense\nmanhattan\n";
    let (code, out, err) = run(&["interactive"], Some(answers.as_bytes()));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("invalid size `x`"), "re-asks the order: {out}");
    assert!(
        out.contains("expected 3 numbers for a row or 9 for the board, got 2"),
        "re-asks the rows"
    );
    assert!(out.contains("unknown heuristic `nonsense`"));
    assert!(out.contains("Solution: 22 moves, optimal, by idastar with manhattan"));
    assert!(out.contains("Step 22"));
    let (code, _, err) = run(&["interactive"], Some(b"3\n1 2 3\n"));
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        "error: input ended before the puzzle was complete"
    );
}

#[test]
fn random_boards_are_reproducible_by_seed_and_solvable() {
    let args = [
        "random", "--size", "3x4", "--count", "5", "--seed", "9", "--goal", "spiral",
    ];
    let (code, a, _) = run(&args, None);
    assert_eq!(code, 0);
    let (_, b, _) = run(&args, None);
    assert_eq!(a, b);
    assert_eq!(a.lines().count(), 5);
    let goal = GoalSpec::Spiral.board("3x4".parse().unwrap()).unwrap();
    for line in a.lines() {
        let board = Board::parse(line, Some(goal.shape())).unwrap();
        assert!(npuzzle::solvability::check(&board, &goal).unwrap().solvable);
    }
    let (_, walk, _) = run(
        &["random", "--size", "4x4", "--moves", "10", "--seed", "1"],
        None,
    );
    let board = Board::parse(walk.trim(), None).unwrap();
    let goal = GoalSpec::Standard.board(board.shape()).unwrap();
    assert!(bfs_distance(&board, &goal) <= 10);
}

#[test]
fn trace_prints_the_expansion_order() {
    let (code, out, _) = run(
        &[
            "solve",
            "1 2 3/4 5 6/0 7 8",
            "-a",
            "astar",
            "-H",
            "manhattan",
            "--trace",
            "2",
        ],
        None,
    );
    assert_eq!(code, 0);
    // Boards side by side: the root, then its child by the blank's move right.
    assert!(out.contains("Expansion order ("), "{out}");
    assert!(out.contains("#1         #2 <#1 R"), "{out}");
    assert!(out.contains("g0 h2 f2"), "{out}");
}

/// A trace longer than the documented cap (`docs/cli.md`: at most 100,000 expansions) is
/// cut there: IDA* with misplaced tiles expands millions on this board.
/// `--trace` on a board the anytime engine answers (11 cells or more, no algorithm named)
/// says that no expansion order was recorded; it used to print nothing at all about it.
/// Named, the same search is traced.
#[test]
fn a_trace_the_anytime_engine_cannot_record_says_so() {
    let board = "9 0 1 11 7 6 4 2 3 5 10 8";
    let (code, out, err) = run(&["solve", board, "--size", "3x4", "--trace", "3"], None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Expansion order: not recorded."), "{out}");
    let (code, out, err) = run(
        &[
            "solve", board, "--size", "3x4", "--trace", "3", "-a", "idastar",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Expansion order (first 3"), "{out}");
    assert!(!out.contains("not recorded"), "{out}");
}

#[test]
fn a_trace_stops_at_its_documented_cap() {
    let doc =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/cli.md")).unwrap();
    let words = doc.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        words.contains("at most 100,000: each holds a board"),
        "docs/cli.md"
    );
    let (code, out, _) = run(
        &[
            "solve",
            "8 6 7/2 5 4/3 0 1",
            "-a",
            "idastar",
            "-H",
            "misplaced",
            "--trace",
            "200000",
            "--trace-format",
            "json",
        ],
        None,
    );
    assert_eq!(code, 0);
    let expansions = out.lines().filter(|l| l.contains("\"tiles\"")).count();
    assert_eq!(expansions, 100_000);
}

/// Arguments, standard input, and a phrase the error must contain.
type Case<'a> = (Vec<&'a str>, Option<&'a [u8]>, &'a str);

/// Each malformed input exits 2 with one line on stderr that names the problem.
#[test]
fn malformed_inputs_exit_2_with_one_line() {
    let dir = std::env::temp_dir();
    let cases: Vec<Case> = vec![
        (vec!["solve", ""], None, "board is empty"),
        (vec!["solve", "1 2 3 x"], None, "invalid tile `x`"),
        (
            vec!["solve", "1 2 3/4 5"],
            None,
            "row 2 has 2 tiles, expected 3",
        ),
        (
            vec!["solve", "1 2 3 4 5 0"],
            None,
            "cannot infer the board shape from 6 tiles",
        ),
        (
            vec!["solve", "1 2 3 0 5 6 7 8 8"],
            None,
            "board has duplicate tile 8",
        ),
        (
            vec!["solve", "1 2 3 4 5 6 7 8 9"],
            None,
            "tile 9 is out of range",
        ),
        (
            vec!["solve", "1 2 3 4 5 6 7 0 0"],
            None,
            "more than one blank",
        ),
        (vec!["solve", "0"], None, "at least 2x2"),
        (
            vec!["solve", "1 2 3 4 5 0", "--size", "3x3"],
            None,
            "expected 9 tiles for a 3x3 board, found 6",
        ),
        (
            vec!["solve", "1 2 3/4 5 0", "--size", "3x2"],
            None,
            "the rows describe a 2x3 board but the size is 3x2",
        ),
        (
            vec!["solve", "1 2 3 0", "--size", "1x4"],
            None,
            "at least 2x2",
        ),
        (
            vec!["solve", "1 2 3 0", "--size", "abc"],
            None,
            "invalid size `abc`",
        ),
        (
            vec!["solve", "1 2 3 0", "--size", "99999x99999"],
            None,
            "too large",
        ),
        (
            vec!["solve", "7 2 6/8 1 4/3 5 0", "--goal", "1 2 3/4 5 6/7 8 8"],
            None,
            "goal: board has duplicate tile 8",
        ),
        (
            vec!["solve", "7 2 6/8 1 4/3 5 0", "--goal", "1 2/3 0"],
            None,
            "goal is 2x2 but the board is 3x3",
        ),
        (
            vec!["solve", "7 2 6/8 1 4/3 5 0", "-H", "bogus"],
            None,
            "unknown heuristic `bogus`",
        ),
        (
            vec!["solve", "7 2 6/8 1 4/3 5 0", "-H", "0.5*"],
            None,
            "invalid heuristic expression",
        ),
        (
            vec!["solve", "7 2 6/8 1 4/3 5 0", "-H", "max(manhattan"],
            None,
            "missing `)`",
        ),
        (
            vec!["solve", "7 2 6/8 1 4/3 5 0", "-a", "dijkstra"],
            None,
            "unknown algorithm `dijkstra`",
        ),
        (
            vec!["solve", "7 2 6/8 1 4/3 5 0", "--time-limit", "-1"],
            None,
            "--time-limit must be",
        ),
        (
            vec!["solve", "7 2 6/8 1 4/3 5 0", "--time-limit", "NaN"],
            None,
            "--time-limit must be",
        ),
        (
            vec!["solve", "7 2 6/8 1 4/3 5 0", "--max-nodes", "0"],
            None,
            "--max-nodes must be at least 1",
        ),
        (
            vec!["solve", "7 2 6/8 1 4/3 5 0", "--memory-limit", "0"],
            None,
            "--memory-limit must be",
        ),
        (
            vec!["solve", "7 2 6/8 1 4/3 5 0", "--weight", "0.5"],
            None,
            "--weight must be",
        ),
        (
            vec!["solve", "--file", "/nonexistent/boards.txt"],
            None,
            "cannot read /nonexistent/boards.txt",
        ),
        (
            vec!["solve", "--file", dir.to_str().unwrap()],
            None,
            "is a directory",
        ),
        (
            vec!["solve", "99999999999999999999999 1 2 3"],
            None,
            "tile `99999999999999999999999` is too large for any board",
        ),
        (
            vec![
                "solve",
                "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15",
                "-H",
                "perfect",
            ],
            None,
            "supports boards of at most 10 cells",
        ),
        (
            vec!["solve"],
            Some(&[0xff, 0xfe, 0x20]),
            "invalid tile `\u{fffd}\u{fffd}`",
        ),
        (
            vec!["solve"],
            Some(&[0xff, 0xfe, b'1', 0, b' ', 0]),
            "standard input is not text: byte 3 is NUL",
        ),
        (
            vec!["solve"],
            Some(b"   \n\n"),
            "standard input has no boards",
        ),
        (
            vec!["solve", "--max-nodes", "lots", "1 2 3 0"],
            None,
            "invalid value 'lots'",
        ),
        // Counts past 64 bits reach the checks too (they were "number too large to fit in
        // target type"), so the words say what the largest is.
        (
            vec!["solve", "--max-nodes", "18446744073709551616", "1 2 3 0"],
            None,
            "--max-nodes must be at most 18446744073709551615, got 18446744073709551616",
        ),
        (
            vec![
                "solve",
                "--width",
                "99999999999999999999",
                "-a",
                "beam",
                "1 2 3 0",
            ],
            None,
            "--width must be a whole number from 1 to",
        ),
        // Negative numbers reach the checks (they were "unexpected argument '-5'").
        (
            vec!["solve", "--max-nodes", "-5", "1 2 3 0"],
            None,
            "--max-nodes must be at least 1, got -5",
        ),
        (
            vec![
                "compare",
                "--random",
                "2",
                "--size",
                "2x2",
                "--memory-limit",
                "-5",
            ],
            None,
            "--memory-limit must be at least 1 megabyte, got -5",
        ),
        (
            vec!["solve", "--threads", "-1", "1 2 3 0"],
            None,
            "invalid value '-1' for '--threads <N>'",
        ),
        (
            vec!["random", "--size", "3x3", "--count", "-1"],
            None,
            "invalid value '-1' for '--count <COUNT>'",
        ),
        (
            vec!["random", "--size", "3x3", "--count", "0"],
            None,
            "--count must be between 1",
        ),
        (vec!["random", "--size", "x"], None, "invalid size `x`"),
        (vec!["frobnicate"], None, "unrecognized subcommand"),
        (vec!["check", "1 1 1 1"], None, "board has duplicate tile 1"),
        (
            vec!["solve", "1,2,3,4,5,6,7,8,0,1,2,3,4,5,6"],
            None,
            "cannot infer the board shape from 15 tiles",
        ),
        (
            vec!["solve", "[[1, 2], [3]]"],
            None,
            "row 2 has 1 tiles, expected 2",
        ),
    ];
    assert!(cases.len() >= 25);
    for (args, stdin, expected) in cases {
        let (code, out, err) = run(&args, stdin);
        assert_eq!(code, 2, "{args:?}: stdout {out} stderr {err}");
        let lines: Vec<&str> = err.lines().collect();
        assert_eq!(lines.len(), 1, "{args:?}: one line, got {err:?}");
        assert!(
            lines[0].contains(expected),
            "{args:?}: {:?} should mention {expected:?}",
            lines[0]
        );
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn a_bad_line_in_a_file_does_not_stop_the_rest() {
    let (code, out, err) = run(
        &["solve", "--json", "--file", "-"],
        Some(b"1 2 3 4 5 6 7 0 8\n1 2 3 4 5 5 7 0 8\n1 2 3 4 5 6 0 7 8\n"),
    );
    assert_eq!(code, 2);
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["length"], 1);
    assert!(lines[1]["error"]
        .as_str()
        .unwrap()
        .contains("line 2: board has duplicate tile 5"));
    assert_eq!(lines[2]["length"], 2);
    assert!(err.is_empty());
}

#[test]
fn absurd_heuristic_weights_neither_panic_nor_claim_optimality() {
    for alg in ["idastar", "astar", "greedy", "weighted-astar"] {
        let (code, out, err) = run(
            &[
                "solve",
                "7 2 6/8 1 4/3 5 0",
                "-a",
                alg,
                "-H",
                "99999999999*manhattan",
                "--json",
            ],
            None,
        );
        assert_eq!(code, 0, "{alg}: {err}");
        let v = json_line(&out);
        assert_eq!(v["optimal"], false);
        assert_eq!(v["admissible"], false);
        let start = Board::parse("7 2 6/8 1 4/3 5 0", None).unwrap();
        let moves = Move::parse_letters(v["moves"].as_str().unwrap()).unwrap();
        assert_eq!(
            start.replay(&moves).unwrap(),
            GoalSpec::Standard.board(start.shape()).unwrap()
        );
    }
}

#[test]
fn a_reader_that_goes_away_ends_the_command_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let boards: String = (0..300).map(|_| "8 6 7 2 5 4 3 0 1\n").collect();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("npuzzle"))
        .args(["solve", "--path", "--file", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(boards.as_bytes())
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap(); // then drop the pipe
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The bug: auto gave a named heuristic a node budget, then swapped in weighted A*, so
/// `-H misplaced` on this 8-puzzle answered 33 moves and `-H linear-conflict` on a 58-move
/// 15-puzzle 76. A named heuristic now runs alone, and its answer is optimal.
#[test]
fn a_named_heuristic_runs_as_asked_and_answers_optimally() {
    for (board, goal, flags, optimal) in [
        ("8 6 7/2 5 4/3 0 1", "standard", vec!["-H", "misplaced"], 31),
        ("8 6 7/2 5 4/3 0 1", "standard", vec!["-H", "euclidean"], 31),
        (
            "5 7 3 12 15 13 14 8 0 10 9 6 1 4 2 11",
            "blank-first",
            vec![
                "-H",
                "linear-conflict",
                "--time-limit",
                "20",
                "--threads",
                "1",
            ],
            58,
        ),
    ] {
        let mut args = vec!["solve", board, "--goal", goal, "--json"];
        args.extend(flags.iter().copied());
        let (code, out, err) = run(&args, None);
        assert_eq!(code, 0, "{flags:?}: {err}");
        let v = json_line(&out);
        assert_eq!(v["length"], optimal, "{flags:?}");
        assert_eq!(v["optimal"], true, "{flags:?}");
        assert_eq!(v["algorithm"], "idastar", "{flags:?}");
        assert_eq!(v["heuristic"], flags[1], "{flags:?}");
        assert_eq!(v["phase"], "search", "{flags:?}");
    }
}

/// Auto's anytime engine on a 24-puzzle within a short budget: an answer, its proven bound,
/// its improvements, and the progress lines of `--progress` before the result.
#[test]
fn auto_on_a_24_puzzle_answers_within_its_budget_with_a_bound_and_progress() {
    let board = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(
        &[
            "solve",
            board,
            "--goal",
            "blank-first",
            "--time-limit",
            "1",
            "--threads",
            "1",
            "-H",
            "linear-conflict",
            "-a",
            "auto",
            "--json",
            "--progress",
            "--pdb-dir",
            dir.path().to_str().unwrap(),
        ],
        None,
    );
    // A named heuristic: IDA* alone, stopped by the limit (exit 3) — no path.
    assert_eq!(code, 3, "{err}");
    let last = out.lines().last().unwrap_or_default();
    assert!(json_line(last)["length"].is_null(), "{out}");
    let (code, out, err) = run(
        &[
            "solve",
            board,
            "--goal",
            "blank-first",
            "--time-limit",
            "2",
            "--threads",
            "1",
            "--json",
            "--progress",
            "--pdb-dir",
            dir.path().to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines.len() >= 2, "{out}");
    let mut last_len = u64::MAX;
    for line in &lines[..lines.len() - 1] {
        let p: serde_json::Value = serde_json::from_str(line).unwrap();
        let len = p["progress"]["length"].as_u64().unwrap_or(u64::MAX);
        assert!(len <= last_len, "{out}");
        last_len = len;
    }
    let v: serde_json::Value = serde_json::from_str(lines[lines.len() - 1]).unwrap();
    assert_eq!(v["phase"], "anytime");
    let (len, lower) = (
        v["length"].as_u64().unwrap(),
        v["lower_bound"].as_u64().unwrap(),
    );
    // Korf & Felner's instance 1: 95 moves.
    assert!(lower <= 95 && len >= 95, "{len} ≥ 95 ≥ {lower}");
    assert!(!v["improvements"].as_array().unwrap().is_empty());
}

/// The bug: `--json --progress` printed lines only for the anytime engine, so an optimal
/// search (`--optimal`, or `-H X` alone) ran silent to the end, minutes on a 24-puzzle.
/// Its threshold (IDA*), smallest `f` (A*) or depth (breadth-first) is a proven lower bound
/// and now rises line by line, never above the optimum, and the result keeps the last one.
#[test]
fn an_optimal_search_streams_its_rising_proven_bound() {
    // Korf & Felner's instance 1 (95 moves): IDA* with linear conflict runs for minutes.
    let board = "14 5 9 2 18 8 23 19 12 17 15 0 10 20 4 6 11 21 1 7 24 3 16 22 13";
    for algorithm in ["idastar", "astar"] {
        let (code, out, err) = run(
            &[
                "solve",
                board,
                "--goal",
                "blank-first",
                "-H",
                "linear-conflict",
                "-a",
                algorithm,
                "--time-limit",
                "1.5",
                "--memory-limit",
                "300",
                "--json",
                "--progress",
            ],
            None,
        );
        assert_eq!(code, 3, "{algorithm}: {err}");
        let lines: Vec<&str> = out.lines().collect();
        assert!(lines.len() >= 2, "{algorithm}: no progress line: {out}");
        let mut last_bound = 0;
        for line in &lines[..lines.len() - 1] {
            let p = &json_line(line)["progress"];
            assert!(p["length"].is_null(), "{line}");
            let bound = p["lower_bound"].as_u64().expect("a proven bound");
            assert!(bound >= last_bound && bound <= 95, "{algorithm}: {out}");
            last_bound = bound;
        }
        let result = json_line(lines[lines.len() - 1]);
        let lower = result["lower_bound"].as_u64().unwrap();
        assert!(lower >= last_bound && lower <= 95, "{algorithm}: {out}");
    }
}

/// The bug: with an empty table cache, `--time-limit 0.5` on an easy 15-puzzle went to the
/// table build, and auto stopped with "Expanded 0" and exit 3. The anytime engine's first
/// answer needs no table, so plain `solve` ends with an answer and names the limit.
#[test]
fn a_time_limit_that_a_table_build_uses_up_still_ends_with_an_answer() {
    let dir = tempfile::tempdir().unwrap();
    let (code, out, err) = run(
        &[
            "solve",
            "5 1 2 3/9 6 7 4/13 10 11 8/0 14 15 12",
            "--time-limit",
            "0.05",
            "--pdb-dir",
            dir.path().to_str().unwrap(),
            "--json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let v = json_line(&out);
    let len = v["length"].as_u64().expect("an answer");
    assert!(v["lower_bound"].as_u64().unwrap() <= len, "{out}");
    assert_eq!(v["phase"], "anytime", "{out}");
}

/// The bug: a missing required argument was reported as "the following required arguments
/// were not provided:" naming none, and `--format xml` listed no valid values.
#[test]
fn errors_name_the_missing_argument_and_the_valid_values() {
    let (code, _, err) = run(&["random"], None);
    assert_eq!(code, 2);
    assert!(err.contains("--size"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    let (code, _, err) = run(&["batch"], None);
    assert_eq!(code, 2);
    assert!(err.contains("<FILE>"), "{err}");
    let (code, _, err) = run(&["batch", "x", "--format", "xml"], None);
    assert_eq!(code, 2);
    assert!(err.contains("valid: text, json, csv, aima"), "{err}");
}

/// A goal, size, heuristic or algorithm the core refuses gets the core's words alone, as
/// Python and the web API give them: they were wrapped in clap's "invalid value
/// 'blank-last' for '--goal <GOAL>': … (see npuzzle --help)".
#[test]
fn a_refused_goal_size_heuristic_or_algorithm_gets_the_cores_words() {
    for (args, line) in [
        (
            &["solve", "1 2/3 0", "--goal", "blank-last"][..],
            "goal: invalid tile `blank-last`: expected a number or `_`",
        ),
        (
            &["check", "1 2 3 0", "--size", "abc"],
            "invalid size `abc`: expected RxC (e.g. 3x3 or 4x5) or a single number",
        ),
        (&["batch", "-", "-H", ""], "invalid heuristic expression ``: expected a heuristic name"),
        (&["solve", "1 2 3 0", "-a", "dfs"], "unknown algorithm `dfs` (expected auto, astar, idastar, bfs, greedy, weighted-astar, weighted-idastar, constructive or beam)"),
    ] {
        let (code, _, err) = run(args, Some(b""));
        assert_eq!(code, 2, "{args:?}");
        assert_eq!(err, format!("error: {line}\n"), "{args:?}");
    }
}

/// One contract: every command that takes --weight and the limits refuses the same bad
/// value with the same line, the core's (`compare` once read `--time-limit -1` as an unknown
/// flag `-1`, since only `solve`'s options allowed negative numbers).
#[test]
fn every_command_words_a_bad_limit_as_solve_does() {
    let board = "7 2 6/8 1 4/3 5 0";
    let commands: [&[&str]; 5] = [
        &["solve", board],
        &["batch", "-"],
        &["bench", "-"],
        &["compare", "--random", "2", "--size", "3x3", "--seed", "1"],
        &["interactive"],
    ];
    for (bad, words) in [
        (
            ["--time-limit", "-1"],
            "--time-limit must be a number of seconds above 0, got -1",
        ),
        (
            ["--time-limit", "1e8"],
            "--time-limit must be at most 10000000 seconds, got 100000000",
        ),
        (
            ["--max-nodes", "0"],
            "--max-nodes must be at least 1, got 0",
        ),
        (
            ["--memory-limit", "0"],
            "--memory-limit must be at least 1 megabyte, got 0",
        ),
        (
            ["--weight", "-2"],
            "--weight must be a number from 1 to 1000000, got -2",
        ),
        (
            ["--width", "0"],
            "--width must be a whole number from 1 to 100000000, got 0",
        ),
        (
            ["--width", "-7"],
            "--width must be a whole number from 1 to 100000000, got -7",
        ),
    ] {
        for command in commands {
            let args: Vec<&str> = command.iter().chain(&bad).copied().collect();
            let (code, _, err) = run(&args, Some(format!("{board}\n").as_bytes()));
            assert_eq!(code, 2, "{args:?}: {err}");
            assert_eq!(err.trim(), format!("error: {words}"), "{args:?}");
        }
    }
}

/// `bench` names every plan a file of several shapes runs, and each instance's JSON says
/// whether its length matches, as `batch`'s does. Before, the header and the summary named
/// the first board's heuristic only ("Heuristic perfect" over a 3x4 solved with pattern
/// databases), and `matches_expected` was missing.
#[test]
fn bench_names_every_plan_and_judges_each_length() {
    let file = b"8 6 7 2 5 4 3 0 1 31\n1 2 3 4/5 6 7 8/9 10 0 11\n1 2 3 0 3\n";
    let (code, out, err) = run(&["bench", "-"], Some(file));
    assert_eq!(code, 2, "{err}");
    let first = out.lines().next().unwrap();
    assert!(
        first.starts_with("Heuristics perfect, pdb:") && first.contains("one for each shape"),
        "{first}"
    );
    let (_, out, _) = run(&["bench", "-", "--json"], Some(file));
    let lines: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let matches: Vec<&Value> = lines[..3].iter().map(|v| &v["matches_expected"]).collect();
    assert_eq!(
        matches,
        [&Value::Bool(true), &Value::Null, &Value::Bool(false)]
    );
    let heuristic = lines[3]["summary"]["heuristic"].as_str().unwrap();
    assert!(heuristic.starts_with("perfect, pdb:"), "{heuristic}");
}
