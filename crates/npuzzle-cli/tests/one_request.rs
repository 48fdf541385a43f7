//! Issue 23, "One contract everywhere": `bench` and `compare` make their requests to the
//! core and let it decide what runs. They used to rewrite `auto` into IDA* themselves, and
//! `compare` judged on its own that `auto` always answers optimally, calling its anytime
//! answers on large boards "a bug".

mod common;

use serde_json::Value;

/// A 4x5 board 60 random moves from the goal: its proof needs only small tables (5-5-5-4,
/// under a second to build) and prunes duplicate move sequences, so what a proof runs
/// differs from plain IDA* in its node counts.
fn board_4x5() -> String {
    let (code, out, err) = common::run(
        &["random", "--size", "4x5", "--moves", "60", "--seed", "3"],
        None,
    );
    assert_eq!(code, 0, "{err}");
    out.trim().to_string()
}

/// The standard output of `npuzzle ARGS` with the table cache `cache`, which must exit 0.
fn stdout_of(args: &[&str], cache: &std::path::Path) -> Vec<u8> {
    let out = common::npuzzle()
        .args(args)
        .env("NPUZZLE_PDB_DIR", cache)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    out.stdout
}

/// `solve BOARD --json` on 4x5 with more arguments.
fn solve_json(board: &str, cache: &std::path::Path, more: &[&str]) -> Value {
    let args = [&["solve", board, "--size", "4x5", "--json"], more].concat();
    serde_json::from_slice(&stdout_of(&args, cache)).unwrap()
}

#[test]
fn bench_asks_the_core_for_the_proof_solve_optimal_runs() {
    let cache = tempfile::tempdir().unwrap();
    let board = board_4x5();
    let proof = solve_json(&board, cache.path(), &["--optimal"]);
    let plain = solve_json(&board, cache.path(), &["-a", "idastar"]);
    assert_eq!(proof["optimal"], true);
    assert_eq!(proof["length"], plain["length"]);
    // The test can tell them apart: the proof prunes, plain IDA* does not.
    assert_ne!(proof["generated"], plain["generated"]);

    let file = cache.path().join("board.txt");
    std::fs::write(&file, format!("{board}\n")).unwrap();
    let out = stdout_of(
        &["bench", file.to_str().unwrap(), "--size", "4x5", "--json"],
        cache.path(),
    );
    let row: Value = serde_json::from_slice(out.split(|&b| b == b'\n').next().unwrap()).unwrap();
    for field in [
        "length",
        "optimal",
        "generated",
        "expanded",
        "heuristic",
        "algorithm",
    ] {
        assert_eq!(
            row[field], proof[field],
            "bench's {field} is not solve --optimal's"
        );
    }
}

#[test]
fn compare_believes_the_core_about_which_answers_are_optimal() {
    // K&F's first 24-puzzle (optimal 95): within 0.3 s auto gives its first, long answer and
    // says it is not optimal. Longer than optimal, but no bug: it never claimed otherwise.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("k1.txt");
    let line = include_str!("../../../data/korf50-24puzzle.txt")
        .lines()
        .find(|l| !l.starts_with('#') && !l.trim().is_empty())
        .unwrap();
    std::fs::write(&file, format!("{line}\n")).unwrap();
    let out = common::npuzzle()
        .args([
            "compare",
            "--file",
            file.to_str().unwrap(),
            "-g",
            "blank-first",
        ])
        .args(["-a", "auto", "--time-limit", "0.3"])
        .env("NPUZZLE_PDB_DIR", dir.path())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("auto: longer than optimal on 1 of 1"),
        "{stdout}"
    );
    assert!(!stdout.contains("a bug"), "{stdout}");
}

/// The bug: `head -10 korf100 | batch --time-limit 0.5` (an example in docs/cli.md) with an
/// empty table cache reported limits: the table build ate each board's time. Since the
/// anytime engine, auto answers every board whatever a build leaves it; kept here because
/// the plan is now made once per goal, its tables built within the limit before the boards.
#[test]
fn batch_under_a_short_time_limit_answers_every_board() {
    let cache = tempfile::tempdir().unwrap();
    let boards: String = include_str!("../../../data/korf100-15puzzle.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .take(10)
        .map(|l| format!("{l}\n"))
        .collect();
    let out = common::npuzzle()
        .args(["batch", "-", "--goal", "blank-first", "--time-limit", "0.5"])
        .args(["--format", "json"])
        .env("NPUZZLE_PDB_DIR", cache.path())
        .write_stdin(boards)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 10);
    for row in &rows {
        let length = row["length"].as_u64().expect("an answer on every board");
        assert!(row["lower_bound"].as_u64().unwrap() <= length, "{row}");
        assert!(length >= row["expected"].as_u64().unwrap(), "{row}");
    }
}

/// `auto` names the planner's choice of heuristic as it names the algorithm's, in every
/// front end ([`npuzzle::HeuristicSpec::parse_choice`]): `-H auto` runs what no `-H` runs,
/// in `solve` and in `compare`, and an empty name is refused as an unknown one. The server
/// took `auto`, `default` and `""` while the command line and Python refused all three.
#[test]
fn auto_names_the_planners_heuristic_and_an_empty_name_is_refused() {
    let cache = tempfile::tempdir().unwrap();
    let board = "8 6 7/2 5 4/3 0 1";
    let solve = |more: &[&str]| -> Value {
        let args = [&["solve", board, "--json"], more].concat();
        serde_json::from_slice(&stdout_of(&args, cache.path())).unwrap()
    };
    let (plain, auto) = (solve(&[]), solve(&["-H", " auto "]));
    for field in ["length", "optimal", "heuristic", "algorithm", "expanded"] {
        assert_eq!(plain[field], auto[field], "{field}");
    }
    assert_eq!(auto["length"], 31);

    let compare = stdout_of(
        &[
            "compare",
            "--random",
            "2",
            "--size",
            "3x3",
            "--seed",
            "1",
            "-H",
            "auto,manhattan",
            "--format",
            "json",
        ],
        cache.path(),
    );
    let compare: Value = serde_json::from_slice(&compare).unwrap();
    let names: Vec<&str> = compare["configs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["astar", "astar:manhattan"], "{compare}");

    for (args, words) in [
        (
            vec!["solve", board, "-H", ""],
            "invalid heuristic expression ``",
        ),
        (
            vec!["solve", board, "-H", "default"],
            "unknown heuristic `default`",
        ),
        (
            vec!["compare", "--random", "1", "--size", "3x3", "-c", "astar:"],
            "invalid heuristic expression ``",
        ),
    ] {
        let (code, _, err) = common::run(&args, None);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(err.contains(words), "{args:?}: {err}");
    }
}

/// `--explain` checks solvability first, as `solve` does: an unsolvable board is reported,
/// exit 1, even with a choice the planner would refuse (it said "heuristic perfect supports
/// boards of at most 10 cells", exit 2, and without `-H` printed a plan, exit 0).
#[test]
fn explain_reports_an_unsolvable_board_as_solve_does() {
    let board = "1 2 3 4/5 6 7 8/9 10 11 12/13 15 14 0";
    for more in [&["-H", "perfect"][..], &[], &["--json"]] {
        let args = [&["solve", board][..], more].concat();
        let (code, solved, _) = common::run(&args, None);
        let explained = common::run(&[&args[..], &["--explain"]].concat(), None);
        assert_eq!(code, 1, "{args:?}: {solved}");
        assert_eq!(explained, (1, solved, String::new()), "{args:?}");
    }
}
