//! The classroom programs' features that npuzzle lacked (issue 14), one test per problem:
//! random start/goal pairs and `compare` over them, the expansion order as boards, digit
//! strings, Ctrl-C, `solve FILE`, `interactive`'s menus and prompts, and `check --file`'s
//! line numbers with `--help` naming every algorithm.

mod common;

use std::collections::HashMap;
use std::time::Duration;

use common::{distances, npuzzle, replay, run};
use npuzzle::Algorithm;
use serde_json::Value;

fn tiles(text: &str) -> Vec<u32> {
    text.split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect()
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Problem 1: `random --pairs` then `compare` over the pairs file: the classroom experiment (10
/// random 3x3 start/goal pairs, four heuristics), every length checked against a
/// breadth-first search from that pair's own goal; `solve --file` replays to each goal.
#[test]
fn random_pairs_then_compare_reproduce_the_classroom_experiment() {
    let (code, pairs, err) = run(
        &[
            "random", "--pairs", "--size", "3x3", "--count", "10", "--seed", "2024",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let pairs: Vec<(Vec<u32>, Vec<u32>)> = pairs
        .lines()
        .map(|l| {
            let (s, g) = l
                .split_once(" | ")
                .unwrap_or_else(|| panic!("not START | GOAL: {l}"));
            (tiles(s), tiles(g))
        })
        .collect();
    assert_eq!(pairs.len(), 10);
    let goals: std::collections::HashSet<&Vec<u32>> = pairs.iter().map(|(_, g)| g).collect();
    assert!(goals.len() > 1, "every pair has the same goal");
    // The true distance of each pair, by breadth-first search from its goal (which also
    // proves the pair solvable: the start is reachable).
    let mut bfs: HashMap<Vec<u32>, HashMap<Vec<u32>, usize>> = HashMap::new();
    let truth: Vec<usize> = pairs
        .iter()
        .map(|(s, g)| {
            let d = bfs.entry(g.clone()).or_insert_with(|| distances(3, 3, g));
            *d.get(s)
                .unwrap_or_else(|| panic!("{s:?} cannot reach {g:?}"))
        })
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pairs.txt");
    let text: Vec<String> = pairs
        .iter()
        .map(|(s, g)| {
            let w = |t: &[u32]| t.iter().map(u32::to_string).collect::<Vec<_>>().join(" ");
            format!("{} | {}", w(s), w(g))
        })
        .collect();
    std::fs::write(&file, text.join("\n")).unwrap();
    let file = file.to_str().unwrap();

    let heuristics = ["misplaced", "manhattan", "euclidean", "linear-conflict"];
    let (code, out, err) = run(
        &[
            "compare",
            "--file",
            file,
            "-a",
            "astar",
            "-H",
            &heuristics.join(","),
            "--reference",
            "bfs",
            "--format",
            "json",
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["goal"], "per line");
    let instances = v["instances"].as_array().unwrap();
    assert_eq!(instances.len(), 10);
    for (inst, &d) in instances.iter().zip(&truth) {
        assert_eq!(inst["reference_length"].as_u64(), Some(d as u64));
    }
    let configs = v["configs"].as_array().unwrap();
    assert_eq!(configs.len(), 4);
    for (c, h) in configs.iter().zip(heuristics) {
        assert_eq!(c["heuristic"], h);
        let lengths: Vec<usize> = c["runs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["length"].as_u64().unwrap() as usize)
            .collect();
        assert_eq!(lengths, truth, "{h}");
    }
    // The weaker heuristic expands more, as it must.
    let expanded = |i: usize| configs[i]["summary"]["expanded_mean"].as_f64().unwrap();
    assert!(expanded(0) > expanded(1) && expanded(1) > expanded(3));

    let (code, out, err) = run(&["solve", "--file", file, "--json"], None);
    assert_eq!(code, 0, "{err}");
    for ((v, (s, g)), d) in json_lines(&out).iter().zip(&pairs).zip(&truth) {
        let moves = common::letters(v["moves"].as_str().unwrap());
        assert_eq!(moves.len(), *d);
        assert_eq!(
            &replay(s, 3, &moves),
            g,
            "the path ends on the line's own goal"
        );
    }
    // batch reads the pairs too.
    let (code, out, err) = run(&["batch", file, "--format", "csv"], None);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 11, "{out}");
}

/// Problem 2: `--trace N` prints the expansions as boards with g, h, f, and IDA*'s restarts with
/// their bounds; `--trace-format json`; `interactive` offers the trace.
#[test]
fn the_trace_shows_boards_with_g_h_f_and_idastar_iterations() {
    let board = "7 2 6/8 1 4/3 5 0";
    let args = [
        "solve",
        board,
        "-a",
        "idastar",
        "-H",
        "manhattan",
        "--trace",
        "30",
    ];
    let (code, out, err) = run(&args, None);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Iteration 1, bound 14:"), "{out}");
    assert!(
        out.contains("Iteration 2, bound 16, from the start again:"),
        "{out}"
    );
    assert!(out.contains("g0 h14 f14"), "{out}");
    // The root's grid, as a grid: its three rows on three lines.
    let rows: Vec<&str> = out.lines().collect();
    let i = rows.iter().position(|l| l.starts_with("7 2 6")).unwrap();
    assert!(rows[i + 1].starts_with("8 1 4") && rows[i + 2].starts_with("3 5 _"));

    let (code, out, _) = run(&[&args[..], &["--trace-format", "json"]].concat(), None);
    assert_eq!(code, 0);
    let steps: Vec<Value> = out
        .lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(steps.len(), 30);
    assert_eq!(
        (steps[0]["iteration"].as_u64(), steps[0]["bound"].as_u64()),
        (Some(1), Some(14))
    );
    assert!(steps.iter().all(|s| s["f"].as_f64() <= s["bound"].as_f64()));

    let (code, out, err) = run(
        &["interactive"],
        Some(b"3\n7 2 6 8 1 4 3 5 0\n\n2\nidastar\n5\n"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("How many"), "{out}");
    assert!(out.contains("Expansion order (first 5 of"), "{out}");
}

/// Problem 3: A digit string is a board when it has one digit per cell (at most 10 cells).
#[test]
fn digit_strings_are_boards() {
    let (code, out, err) = run(&["solve", "312045678", "--json"], None);
    assert_eq!(code, 0, "{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["start"], serde_json::json!([3, 1, 2, 0, 4, 5, 6, 7, 8]));
    let moves = common::letters(v["moves"].as_str().unwrap());
    let start = [3, 1, 2, 0, 4, 5, 6, 7, 8];
    assert_eq!(replay(&start, 3, &moves), common::standard_goal(9));
    let d = distances(3, 3, &common::standard_goal(9));
    assert_eq!(moves.len(), d[&start.to_vec()]);
    // --size settles a length that does not (6 = 2x3 or 3x2); a goal as digits too.
    let (code, out, err) = run(
        &["check", "120345", "--size", "2x3", "--goal", "123450"],
        None,
    );
    assert!(code == 0 || code == 1, "{err}");
    assert!(out.contains("solvable"), "{out}");
    let (code, _, err) = run(&["solve", "120345"], None);
    assert_eq!(code, 2);
    assert!(err.contains("give the size as RxC"), "{err}");
}

/// Runs `command`, sends it SIGINT (a Ctrl-C) after `millis`, and waits for its output.
fn interrupted_after(command: &mut std::process::Command, millis: u64) -> std::process::Output {
    let child = command
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(millis));
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    child.wait_with_output().unwrap()
}

/// Problem 4: Ctrl-C stops a search without limits: the statistics so far, exit 3, `interrupted`.
#[test]
fn ctrl_c_stops_the_search_and_prints_what_it_has() {
    // Korf's first 15-puzzle instance with misplaced tiles: hours of IDA*.
    let board = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    let bin = assert_cmd::cargo::cargo_bin("npuzzle");
    let args = [
        "solve",
        board,
        "-g",
        "blank-first",
        "-a",
        "idastar",
        "-H",
        "misplaced",
        "--json",
    ];
    let out = interrupted_after(std::process::Command::new(&bin).args(args), 700);
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["stopped_by"], "interrupted");
    assert!(v["generated"].as_u64().unwrap() > 0);
    assert_eq!(v["moves"], Value::Null);
}

/// Ctrl-C during `interactive`'s search stops it as it stops `solve`'s: the statistics so
/// far and exit 3. Before, it exited 130 at once with nothing.
#[test]
fn ctrl_c_stops_the_interactive_search_and_prints_what_it_has() {
    let dir = tempfile::tempdir().unwrap();
    let answers = dir.path().join("answers.txt");
    std::fs::write(
        &answers,
        "4\n14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\nblank-first\nmisplaced\nidastar\n\n",
    )
    .unwrap();
    let bin = assert_cmd::cargo::cargo_bin("npuzzle");
    let mut command = std::process::Command::new(&bin);
    command
        .arg("interactive")
        .stdin(std::fs::File::open(&answers).unwrap());
    let out = interrupted_after(&mut command, 700);
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert_eq!(out.status.code(), Some(3), "{stdout}{stderr}");
    assert!(stdout.contains("Expanded"), "{stdout}");
    assert!(stdout.to_lowercase().contains("ctrl-c"), "{stdout}");
}

/// Ctrl-C while a plain `solve` of a 24-puzzle gets its tables ready (an empty cache here)
/// still answers with the engine's first path, says what stopped it in plain words, and
/// exits 3. Before, the answer had no path ("Interrupted (Ctrl-C) before finding a
/// solution"), and with a path the words were "Stopped by the interrupted limit".
#[test]
fn ctrl_c_while_the_tables_load_still_answers_with_a_path() {
    let cache = tempfile::tempdir().unwrap();
    let board = "17 12 1 11 13/6 20 24 3 5/10 19 23 15 16/0 9 7 8 22/2 4 14 21 18";
    let mut solve = std::process::Command::new(assert_cmd::cargo::cargo_bin("npuzzle"));
    solve
        .args(["solve", board])
        .env("NPUZZLE_PDB_DIR", cache.path());
    let out = interrupted_after(&mut solve, 300);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{text}");
    assert!(text.contains("not guaranteed optimal"), "{text}");
    assert!(text.contains("Stopped by Ctrl-C before"), "{text}");
    let moves = text
        .lines()
        .find_map(|l| l.strip_prefix("Moves (blank): "))
        .expect("a path");
    let tiles: Vec<u32> = board
        .split(|c: char| c == '/' || c.is_whitespace())
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap())
        .collect();
    let end = common::replay(&tiles, 5, &common::letters(moves));
    assert_eq!(end, common::standard_goal(25));
}

/// Problem 5: `npuzzle solve FILE` reads the file; a name that is no file suggests `--file`.
#[test]
fn solve_reads_a_file_named_as_its_argument() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("infile.txt");
    std::fs::write(&file, "3\n1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 0 7 8\n").unwrap();
    let (code, out, err) = run(&["solve", file.to_str().unwrap(), "--json"], None);
    assert_eq!(code, 0, "{err}");
    let lengths: Vec<u64> = json_lines(&out)
        .iter()
        .map(|v| v["length"].as_u64().unwrap())
        .collect();
    assert_eq!(lengths, [1, 2]);
    let (code, _, err) = run(&["solve", "infile.txt"], None);
    assert_eq!(code, 2);
    assert!(err.contains("--file"), "{err}");
    assert_eq!(err.lines().count(), 1);
}

/// Problem 6: `interactive`: a numbered heuristic menu, one-line boards, honest prompts with -H, and
/// the end of input takes the defaults.
#[test]
fn interactive_menus_one_line_boards_and_defaults() {
    // `2` at the heuristic prompt is the menu's second heuristic, manhattan.
    let (code, out, err) = run(&["interactive"], Some(b"3\n7 2 6 8 1 4 3 5 0\n\n2\n"));
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("with manhattan"), "{out}");
    assert!(out.contains("Solution: 22 moves, optimal"), "{out}");
    // With -H, the prompt offers to keep it, not "the best available"; the input ends
    // at that prompt, which takes the default.
    let (code, out, err) = run(
        &["interactive", "-H", "misplaced"],
        Some(b"3\n726814350\n\n"),
    );
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("best available"), "{out}");
    assert!(out.contains("with misplaced"), "{out}");
    // Algorithms by number too: the menu lists every one.
    for a in Algorithm::ALL {
        assert!(
            out.contains(&format!(". {a}\n")),
            "{a} missing from the menu: {out}"
        );
    }
}

/// A choice the planner refuses for the board (`perfect` on a 4×4) is asked again, naming
/// why; before, `interactive` ended there with the error and exit 2. Once the input has
/// ended, the questions asked again take their defaults, as every prompt does at the end of
/// input (before, it printed "Error: …" on standard output and exited 2); a refusal of the
/// defaults themselves (`-H perfect`) is an error, on standard error, as on the command line.
#[test]
fn interactive_asks_again_after_a_refused_choice() {
    let board = b"4\n1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15\n\n";
    let answers = [&board[..], b"perfect\n\nmanhattan\nastar\n\n"].concat();
    let (code, out, err) = run(&["interactive"], Some(&answers));
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(
            "heuristic perfect supports boards of at most 10 cells, this one has 16; choose again."
        ),
        "{out}"
    );
    assert!(
        out.contains("Solution: 1 move, optimal, by astar with manhattan"),
        "{out}"
    );
    let answers = [&board[..], b"perfect\n"].concat();
    let (code, out, err) = run(&["interactive"], Some(&answers));
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("; choose again."), "{out}");
    assert!(out.contains("Solution: 1 move, optimal"), "{out}");
    let (code, out, err) = run(&["interactive", "-H", "perfect"], Some(&board[..]));
    assert_eq!(code, 2, "{out}");
    assert!(!out.to_lowercase().contains("error"), "{out}");
    assert_eq!(
        err,
        "error: heuristic perfect supports boards of at most 10 cells, this one has 16\n"
    );
}

/// The goal prompt takes a goal's name, as `--goal` does; before, `spiral` was read as a
/// board ("invalid tile `spiral`"). A bad row asks for the board again in plain words.
#[test]
fn interactive_takes_a_goal_by_name() {
    let (code, out, err) = run(
        &["interactive"],
        Some(b"3\n1 2 3 8 0 4 7 6 5\nspiral\n\n\n\n"),
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Solution: 0 moves, optimal"), "{out}");
    let (_, out, _) = run(&["interactive"], Some(b"3\n1 2\n"));
    assert!(out.contains("; enter the Start again."), "{out}");
}

/// Problem 7: `check --file` names the line of each verdict; `--help` lists every algorithm.
#[test]
fn check_file_labels_lines_and_help_lists_every_algorithm() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boards.txt");
    std::fs::write(
        &file,
        "# two boards\n1 2 3 4 5 6 7 0 8\n\n2 1 3 4 5 6 7 8 0\n",
    )
    .unwrap();
    let (code, out, _) = run(&["check", "--file", file.to_str().unwrap()], None);
    assert_eq!(code, 1);
    assert!(out.contains("line 2: solvable"), "{out}");
    assert!(out.contains("line 4: unsolvable"), "{out}");
    let (_, out, _) = run(&["solve", "--help"], None);
    for a in Algorithm::ALL {
        assert!(out.contains(a.name()), "--help leaves out {a}: {out}");
    }
}

/// `play` refuses to draw on something that is not a terminal, with one clear line.
#[test]
fn play_needs_a_terminal() {
    let out = npuzzle().args(["play", "312045678"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("needs a terminal"), "{err}");
    assert!(out.stdout.is_empty());
}

/// Runs `interactive` with `chunk` written to its standard input again and again until it
/// exits (or 30 s pass, when it is killed): its exit code and standard error.
fn interactive_on_endless_input(chunk: &'static [u8]) -> (Option<i32>, String) {
    use std::io::Write as _;
    use std::process::{Command, Stdio};
    use std::time::Instant;
    let mut child = Command::new(assert_cmd::cargo::cargo_bin("npuzzle"))
        .arg("interactive")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || while stdin.write_all(chunk).is_ok() {});
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if started.elapsed() > Duration::from_secs(30) {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    writer.join().unwrap();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    (status.and_then(|s| s.code()), stderr)
}

/// Regression: `yes | npuzzle interactive` asked for the order for ever: piped answers that
/// never complete a puzzle now end the session after a number of answers no one types.
#[test]
fn endless_wrong_answers_end_the_interactive_session() {
    let (code, stderr) = interactive_on_endless_input(b"y\n");
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("10000 answers and still no puzzle"),
        "{stderr}"
    );
}

/// Regression: an answer without an end of line was read whole, gigabytes of it (a 2 GB
/// line took 3.9 GB). An answer is at most 64 KiB.
#[test]
fn an_endless_answer_is_refused() {
    let (code, stderr) = interactive_on_endless_input(&[b'1'; 4096]);
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("an answer longer than 65536 bytes"),
        "{stderr}"
    );
}
