//! `npuzzle batch`: every format, bad and unsolvable lines, wrong expected lengths, exit
//! codes, input order and optimality against an independent breadth-first search.

mod common;

use common::{distances, npuzzle, replay, standard_goal};
use serde_json::Value;

/// Random 3x3 boards from the CLI itself, as tile vectors.
fn random_boards(n: usize, seed: u64) -> Vec<Vec<u32>> {
    let out = npuzzle()
        .args(["random", "--size", "3x3", "--seed", &seed.to_string()])
        .args(["--count", &n.to_string()])
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect()
}

fn line_of(tiles: &[u32]) -> String {
    tiles
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A file mixing good lines, a wrong expected length, a malformed line and an unsolvable
/// board, with comments and blank lines so that line numbers matter. Returns the text and
/// the true distances of the two solvable boards.
fn mixed_file() -> (String, usize, usize) {
    let goal = standard_goal(9);
    let dist = distances(3, 3, &goal);
    let boards = random_boards(2, 5);
    let (a, b) = (dist[&boards[0]], dist[&boards[1]]);
    let text = format!(
        "# a mixed file\n{} {a}\n\n{} {}\n1 2 3 x 5 6 7 8 0\n2 1 3 4 5 6 7 8 0\n1 2 3 4 5 6 7 8\n",
        line_of(&boards[0]),
        line_of(&boards[1]),
        b + 2
    );
    (text, a, b)
}

#[test]
fn json_lines_report_every_line_in_order_with_its_fate() {
    let (text, a, b) = mixed_file();
    let out = npuzzle()
        .args(["batch", "-", "--format", "json", "--jobs", "2"])
        .write_stdin(text)
        .output()
        .unwrap();
    // A wrong expected length and malformed lines make the run invalid (exit 2).
    assert_eq!(out.status.code(), Some(2));
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let fates: Vec<(u64, u64, &str)> = lines
        .iter()
        .map(|v| {
            (
                v["line"].as_u64().unwrap(),
                v["index"].as_u64().unwrap(),
                v["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        fates,
        [
            (2, 0, "solved"),
            (4, 1, "wrong-expected"),
            (5, 2, "invalid"),
            (6, 3, "unsolvable"),
            (7, 4, "invalid"),
        ]
    );
    // Solved lines carry the `solve --json` object: replay the moves, check the length
    // against breadth-first search.
    for (v, truth) in [(&lines[0], a), (&lines[1], b)] {
        let start: Vec<u32> = serde_json::from_value(v["start"].clone()).unwrap();
        let moves = common::letters(v["moves"].as_str().unwrap());
        assert_eq!(replay(&start, 3, &moves), standard_goal(9));
        assert_eq!(v["length"].as_u64(), Some(truth as u64));
        assert_eq!(v["optimal"], true);
        assert_eq!(v["solvable"], true);
    }
    assert_eq!(lines[0]["expected"].as_u64(), Some(a as u64));
    assert_eq!(lines[0]["matches_expected"], true);
    assert_eq!(lines[1]["expected"].as_u64(), Some(b as u64 + 2));
    assert_eq!(lines[1]["matches_expected"], false);
    assert!(lines[2]["error"]
        .as_str()
        .unwrap()
        .starts_with("line 5: invalid tile `x`"));
    assert_eq!(lines[3]["solvable"], false);
    assert!(lines[4]["error"].as_str().unwrap().starts_with("line 7: "));
}

#[test]
fn text_table_names_lines_and_sums_up() {
    let (text, _, b) = mixed_file();
    let out = npuzzle()
        .args(["batch", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = stdout.lines().collect();
    assert!(rows[0].contains("status") && rows[0].contains("expanded"));
    let status_of = |line: usize| {
        let row = rows
            .iter()
            .find(|r| r.split_whitespace().next() == Some(&line.to_string()))
            .unwrap_or_else(|| panic!("no row for line {line} in\n{stdout}"));
        row.split_whitespace().nth(1).unwrap().to_string()
    };
    assert_eq!(status_of(2), "solved");
    assert_eq!(status_of(4), "wrong-expected");
    assert_eq!(status_of(5), "invalid");
    assert_eq!(status_of(6), "unsolvable");
    assert_eq!(status_of(7), "invalid");
    assert!(stdout.contains(&format!("found {b} moves, the file says {}", b + 2)));
    assert!(stdout.contains(
        "5 instances: 1 solved, 1 wrong expected length, 1 unsolvable, 0 stopped by a limit, 2 invalid"
    ));
}

#[test]
fn csv_has_a_header_and_one_row_per_line() {
    let (text, a, _) = mixed_file();
    let out = npuzzle()
        .args(["batch", "-", "--format", "csv"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
    let header = reader.headers().unwrap().clone();
    for col in [
        "line", "status", "length", "expected", "expanded", "moves", "error",
    ] {
        assert!(header.iter().any(|h| h == col), "no column {col}");
    }
    let col = |name: &str| header.iter().position(|h| h == name).unwrap();
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), 5);
    assert_eq!(&rows[0][col("line")], "2");
    assert_eq!(&rows[0][col("length")], a.to_string());
    assert_eq!(&rows[1][col("status")], "wrong-expected");
    assert_eq!(&rows[3][col("status")], "unsolvable");
    // The error message with its commas stays in one quoted cell.
    assert!(rows[3][col("error")].contains("different parity"));
    assert_eq!(&rows[2][col("length")], "");
}

#[test]
fn aima_report_matches_the_assignment_layout() {
    // The assignment's example, blank-first goal, comma-separated input.
    let out = npuzzle()
        .args(["batch", "-", "--format", "aima", "--algorithm", "bfs"])
        .args(["--goal", "blank-first"])
        .write_stdin("1,2,5,3,4,0,6,7,8\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stdout = String::from_utf8(out.stdout).unwrap();
    let keys: Vec<&str> = stdout
        .lines()
        .map(|l| l.split_once(": ").unwrap().0)
        .collect();
    assert_eq!(
        keys,
        [
            "path_to_goal",
            "cost_of_path",
            "nodes_expanded",
            "fringe_size",
            "max_fringe_size",
            "search_depth",
            "max_search_depth",
            "running_time",
            "max_ram_usage"
        ]
    );
    let value = |k: &str| {
        stdout
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{k}: ")))
            .unwrap()
            .to_string()
    };
    assert_eq!(value("path_to_goal"), "['Up', 'Left', 'Left']");
    let moves = ["Up", "Left", "Left"];
    let start = [1, 2, 5, 3, 4, 0, 6, 7, 8];
    assert_eq!(replay(&start, 3, &moves), (0..9).collect::<Vec<u32>>());
    assert_eq!(value("cost_of_path"), "3");
    assert_eq!(value("search_depth"), "3");
    let fringe: u64 = value("fringe_size").parse().unwrap();
    let max_fringe: u64 = value("max_fringe_size").parse().unwrap();
    assert!(fringe <= max_fringe && max_fringe > 0);
    assert!(value("running_time").parse::<f64>().unwrap() >= 0.0);
    assert!(value("max_ram_usage").parse::<f64>().unwrap() > 0.0);
}

#[test]
fn aima_with_several_lines_labels_each_block() {
    let out = npuzzle()
        .args(["batch", "-", "--format", "aima", "--algorithm", "idastar"])
        .args(["--heuristic", "manhattan"])
        .write_stdin("1 2 3 4 5 6 7 0 8\n2 1 3 4 5 6 7 8 0\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("# line 1\npath_to_goal: ['Right']\n"));
    assert!(stdout.contains("\n# line 2\n# line 2: unsolvable"));
    // IDA* ends on its solution path: the "fringe" is that path.
    assert!(stdout.contains("fringe_size: 1\n"));
}

#[test]
fn exit_codes_say_what_went_wrong() {
    let boards = random_boards(5, 9);
    let good: String = boards.iter().map(|b| line_of(b) + "\n").collect();
    npuzzle()
        .args(["batch", "-"])
        .write_stdin(good.clone())
        .assert()
        .code(0);
    npuzzle()
        .args(["batch", "-"])
        .write_stdin(format!("{good}2 1 3 4 5 6 7 8 0\n"))
        .assert()
        .code(1);
    // A search stopped by a limit: 3, and it says which limit.
    let out = npuzzle()
        .args(["batch", "-", "--format", "json", "--algorithm", "astar"])
        .args(["--heuristic", "misplaced", "--max-nodes", "5"])
        .write_stdin("8 6 7 2 5 4 3 0 1\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["status"], "limit");
    assert_eq!(v["stopped_by"], "nodes");
    assert_eq!(v["length"], Value::Null);
    // Nothing to solve, or nothing to read: 2 with one line naming the problem.
    let out = npuzzle()
        .args(["batch", "-"])
        .write_stdin("# only a comment\n\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "error: standard input has no boards\n"
    );
    let out = npuzzle()
        .args(["batch", "/nonexistent/boards.txt"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .starts_with("error: cannot read /nonexistent/boards.txt"));
    npuzzle()
        .args(["batch", "-", "--jobs", "0"])
        .write_stdin(good)
        .assert()
        .code(2)
        .stderr("error: --jobs must be between 1 and 1024, got 0\n");
}

#[test]
fn many_lines_come_back_in_input_order_with_the_same_counts_on_any_number_of_threads() {
    let boards = random_boards(300, 21);
    let dist = distances(3, 3, &standard_goal(9));
    let text: String = boards.iter().map(|b| line_of(b) + "\n").collect();
    let run = |jobs: &str| {
        let out = npuzzle()
            .args(["batch", "-", "--format", "json", "--jobs", jobs])
            .args(["--algorithm", "idastar", "--heuristic", "manhattan"])
            .write_stdin(text.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str::<Value>(l).unwrap())
            .collect::<Vec<_>>()
    };
    let one = run("1");
    let three = run("3");
    assert_eq!(one.len(), 300);
    for (i, (a, b)) in one.iter().zip(&three).enumerate() {
        assert_eq!(a["index"].as_u64(), Some(i as u64));
        assert_eq!(a["line"].as_u64(), Some(i as u64 + 1));
        let start: Vec<u32> = serde_json::from_value(a["start"].clone()).unwrap();
        assert_eq!(start, boards[i]);
        assert_eq!(a["length"].as_u64(), Some(dist[&boards[i]] as u64));
        for key in ["index", "moves", "expanded", "generated", "max_open"] {
            assert_eq!(a[key], b[key], "{key} of line {}", i + 1);
        }
    }
}

#[test]
fn reads_the_classroom_format_from_a_file() {
    let dir = std::env::temp_dir().join(format!("npuzzle-batch-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("class.txt");
    std::fs::write(&path, "N=3\n1 2 3 4 5 6 7 0 8\n\n1 2 3 4 5 6 0 7 8\n").unwrap();
    let out = npuzzle()
        .args(["batch", path.to_str().unwrap(), "--format", "csv"])
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(out.status.code(), Some(0));
    let mut reader = csv::Reader::from_reader(out.stdout.as_slice());
    let rows: Vec<(String, String)> = reader
        .records()
        .map(|r| {
            let r = r.unwrap();
            (r[1].to_string(), r[5].to_string())
        })
        .collect();
    assert_eq!(rows, [("2".into(), "1".into()), ("4".into(), "2".into())]);
}

/// A byte that is not UTF-8 makes its line "invalid", named by its number, and the other
/// lines are still solved; before, the whole file was refused ("is not UTF-8 text: invalid
/// utf-8 sequence of 1 bytes from index 18"). Control characters in a bad line are shown
/// escaped: an ESC c went to the terminal as is, and reset it.
#[test]
fn a_line_that_is_not_text_is_named_and_the_others_are_read() {
    let mut file = b"8 6 7 2 5 4 3 0 1\n".to_vec();
    file.extend_from_slice(b"\xff\xfe 1 2\n1 2 3 4 5 6 7 0 8\n\x1bc\n");
    for format in ["text", "csv"] {
        let out = npuzzle()
            .args(["batch", "-", "--format", format])
            .write_stdin(file.clone())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let stdout = String::from_utf8(out.stdout).unwrap();
        assert!(!stdout.contains('\u{1b}'), "{stdout:?}");
        assert!(stdout.contains("invalid tile `\\u{1b}c`"), "{stdout}");
        assert!(stdout.contains("\u{fffd}"), "{stdout}");
        if format == "text" {
            assert!(
                stdout.contains("4 instances: 2 solved, 0 wrong expected length, 0 unsolvable, 0 stopped by a limit, 2 invalid"),
                "{stdout}"
            );
        }
    }
    // One board: "1 instance", not "1 instances".
    let out = npuzzle()
        .args(["batch", "-"])
        .write_stdin("1 2 3 4 5 6 7 0 8\n")
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("\n1 instance: 1 solved"), "{stdout}");
}
