//! Every front end runs the plan the core planner makes: `solve --explain` prints it,
//! `solve` runs it, `bench` runs the plan of a proof (the web API is checked in crates/npuzzle-web/tests).

mod common;

use common::run;
use npuzzle::{plan, Board, GoalSpec, Plan, SolveOptions, TablePolicy, Tables};
use serde_json::Value;

/// The core's plan for `goal` and `options`, with the tables a fresh cache directory has.
fn core_plan(goal: &Board, options: &SolveOptions) -> Plan {
    plan(goal, options, &Tables::new(None, TablePolicy::default())).unwrap()
}

#[test]
fn solve_explain_bench_and_the_core_agree_on_the_plan() {
    for (board, size, goal) in [
        ("8 6 7/2 5 4/3 0 1", "3x3", "standard"),
        ("5 1 2 3/9 6 7 4/13 10 11 8/0 14 15 12", "4x4", "standard"),
        ("1 10 3 11 13 5 8 7 4 0 12 9 6 2", "2x7", "standard"),
        ("1 0 2 3 4 5 6 7 8 9 10 11", "3x4", "blank-first"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let pdb_dir = dir.path().to_str().unwrap();
        let goal_board = goal
            .parse::<GoalSpec>()
            .unwrap()
            .board(size.parse().unwrap())
            .unwrap();
        let core = core_plan(&goal_board, &SolveOptions::default());
        let common = ["--pdb-dir", pdb_dir, "--size", size, "--goal", goal];
        // --explain prints the plan, and searches nothing.
        let mut args = vec!["solve", board, "--explain", "--json"];
        args.extend(common);
        let (code, out, err) = run(&args, None);
        assert_eq!(code, 0, "{err}");
        let explained: Value = serde_json::from_str(&out).unwrap();
        assert_eq!(explained, serde_json::to_value(&core).unwrap(), "{size}");
        // solve runs it: the first phase answers these boards.
        let mut args = vec!["solve", board, "--json"];
        args.extend(common);
        let (code, out, err) = run(&args, None);
        assert_eq!(code, 0, "{err}");
        let solved: Value = serde_json::from_str(&out).unwrap();
        let first = &explained["phases"][0];
        assert_eq!(solved["algorithm"], first["algorithm"], "{size}");
        assert_eq!(solved["heuristic"], first["heuristic"], "{size}");
        assert_eq!(solved["phase"], first["kind"], "{size}");
        assert_eq!(solved["optimal"], true, "{size}");
        // bench checks optimal lengths, so it asks the core for a proof: the plan of
        // `--optimal` (the strongest admissible tables, e.g. 7-8 on 4x4).
        let proof = core_plan(
            &goal_board,
            &SolveOptions {
                optimal: true,
                ..SolveOptions::default()
            },
        );
        let proof = &serde_json::to_value(&proof).unwrap()["phases"][0];
        let file = dir.path().join("boards.txt");
        std::fs::write(&file, format!("{board}\n")).unwrap();
        let mut args = vec!["bench", file.to_str().unwrap(), "--json"];
        args.extend(common);
        let (code, out, err) = run(&args, None);
        assert_eq!(code, 0, "{err}");
        let first_line: Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        assert_eq!(first_line["algorithm"], proof["algorithm"], "{size}: {out}");
        assert_eq!(first_line["heuristic"], proof["heuristic"], "{size}: {out}");
        assert_eq!(first_line["length"], solved["length"]);
    }
}

#[test]
fn a_refused_choice_is_one_line_and_exit_2_before_any_search() {
    let (code, out, err) = run(
        &[
            "solve",
            "5 1 2 3/9 6 7 4/13 10 11 8/0 14 15 12",
            "-H",
            "perfect",
            "--explain",
        ],
        None,
    );
    assert_eq!(code, 2, "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("at most 10 cells"), "{err}");
}

/// One rule for a shape's default partition: with no tables at hand, `auto` and `-H pdb`
/// name the same partition in `--explain`. Before, 3x4 got `8-3` from auto and `6-5` from
/// `-H pdb` (and 3x5 `6-6-2` and `7-7`).
#[test]
fn auto_and_pdb_choose_the_same_default_partition() {
    for (board, size) in [
        ("1 2 3 4 5 6 7 8 9 10 0 11", "3x4"),
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 0 14", "3x5"),
        ("1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15", "4x4"),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let pdb_dir = dir.path().to_str().unwrap();
        let heuristic = |extra: &[&str]| -> String {
            let mut args = vec!["solve", board, "--size", size, "--explain", "--json"];
            args.extend(["--pdb-dir", pdb_dir]);
            args.extend(extra);
            let (code, out, err) = run(&args, None);
            assert_eq!(code, 0, "{args:?}: {err}");
            let plan: Value = serde_json::from_str(out.trim()).unwrap();
            let phases = plan["phases"].as_array().unwrap();
            let named: Vec<&str> = phases
                .iter()
                .filter_map(|p| p["heuristic"].as_str())
                .filter(|h| h.starts_with("pdb:"))
                .collect();
            assert!(!named.is_empty(), "{args:?}: no partition in {plan}");
            named[0].to_string()
        };
        assert_eq!(heuristic(&[]), heuristic(&["-H", "pdb"]), "on {size}");
    }
}

/// Plain `solve` on a 7x7 board with an empty cache says, once on standard error, which
/// stronger tables it would take and the command that caches them; that command, run as
/// written, makes the note go and the next answer use those tables. `batch` says the same
/// words once for all its boards, and standard output stays the JSON alone.
#[test]
fn the_note_on_stronger_tables_names_the_command_that_makes_them_used() {
    let dir = tempfile::tempdir().unwrap();
    let pdb_dir = dir.path().to_str().unwrap();
    let (code, boards, _) = run(
        &["random", "--size", "7x7", "--seed", "3", "--count", "2"],
        None,
    );
    assert_eq!(code, 0);
    let board = boards.lines().next().unwrap();
    // Before, no table is loaded, so half a second will do; after, the budget is long
    // enough that loading the tables on a busy machine stays within the plan's share of it
    // (a run whose tables are late goes on without them, and says so).
    let solve = |seconds: &str| {
        let args = [
            "solve",
            board,
            "--time-limit",
            seconds,
            "--json",
            "--pdb-dir",
            pdb_dir,
        ];
        let (code, out, err) = run(&args, None);
        assert_eq!(code, 0, "{err}");
        let answer: Value = serde_json::from_str(out.trim()).expect("stdout is the JSON alone");
        common::assert_replays_to_standard(board, 7, &answer);
        (answer["heuristic"].as_str().unwrap().to_string(), err)
    };

    let (before, err) = solve("0.5");
    assert_eq!(before, "linear-conflict");
    let tables = "pdb:4-4-4-4-4-4-4-4-4-4-4-4";
    let notes: Vec<&str> = err.lines().filter(|l| l.starts_with("note:")).collect();
    let [note] = notes[..] else {
        panic!("one note expected: {err}")
    };
    assert!(
        note.starts_with(&format!(
            "note: stronger tables are not cached: `npuzzle pdb build --size 7x7 --optimal` \
             builds {tables} (12 tables, 30.5 MB, about "
        )),
        "{note}"
    );

    let (code, _, batch_err) = run(
        &[
            "batch",
            "-",
            "--time-limit",
            "0.2",
            "--format",
            "json",
            "--pdb-dir",
            pdb_dir,
        ],
        Some(boards.as_bytes()),
    );
    assert_eq!(code, 0, "{batch_err}");
    assert_eq!(
        batch_err.lines().filter(|l| *l == note).count(),
        1,
        "{batch_err}"
    );

    let command = note.split('`').nth(1).unwrap();
    let mut words: Vec<&str> = command.split_whitespace().skip(1).collect();
    words.extend(["--pdb-dir", pdb_dir]);
    let (code, _, err) = run(&words, None);
    assert_eq!(code, 0, "{command}: {err}");

    let (after, err) = solve("5");
    assert_eq!(after, tables, "{err}");
    assert!(!err.contains("note:"), "{err}");
}
