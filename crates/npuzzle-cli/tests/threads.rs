//! `--threads` on `solve` and `bench`: one search on several threads reports the serial
//! search's path and node counts; bad counts are refused.

mod common;

use common::run;
use serde_json::Value;

/// Korf's #2 (55 moves): 15,300,441 nodes with Manhattan distance, enough for the parallel
/// search to start its threads (it goes parallel after an iteration of 131,072 nodes).
const KORF_2: &str = "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6";

fn solve_json(threads: &str) -> Value {
    let (code, out, err) = run(
        &[
            "solve",
            KORF_2,
            "--goal",
            "blank-first",
            "-a",
            "idastar",
            "-H",
            "manhattan",
            "--json",
            "--threads",
            threads,
        ],
        None,
    );
    assert_eq!(code, 0, "{err}");
    serde_json::from_str(out.trim()).unwrap_or_else(|e| panic!("{e}: {out}"))
}

#[test]
fn two_threads_find_the_serial_path_with_the_serial_node_counts() {
    let one = solve_json("1");
    let two = solve_json("2");
    assert_eq!(one["length"], 55);
    assert_eq!(
        one["generated"], 15_300_441,
        "data/korf100-15puzzle-ida-nodes.txt"
    );
    for field in ["length", "moves", "generated", "expanded", "max_open"] {
        assert_eq!(one[field], two[field], "{field}");
    }
}

#[test]
fn thread_counts_out_of_range_are_refused() {
    for bad in ["0", "1025"] {
        let (code, out, err) = run(&["solve", "1 2 3/4 5 6/7 0 8", "--threads", bad], None);
        assert_eq!(code, 2, "{out}");
        assert!(
            err.contains(&format!("--threads must be between 1 and 1024, got {bad}")),
            "{err}"
        );
    }
    let (code, _, err) = run(&["solve", "1 2 3/4 5 6/7 0 8", "--threads", "two"], None);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn bench_reports_its_threads_per_search() {
    let dir = std::env::temp_dir().join(format!("npuzzle-threads-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("boards.txt");
    std::fs::write(&file, "1 2 3/4 5 6/7 0 8\n8 6 7/2 5 4/3 0 1\n").unwrap();
    let file = file.to_str().unwrap();
    for (args, threads) in [
        (vec!["--threads", "3"], 3),
        (vec!["--jobs", "2"], 1),
        (vec!["--jobs", "2", "--threads", "2"], 2),
    ] {
        let mut all = vec!["bench", file, "--json"];
        all.extend(args.iter().copied());
        let (code, out, err) = run(&all, None);
        assert_eq!(code, 0, "{err}");
        let summary: Value = serde_json::from_str(out.lines().last().unwrap()).unwrap();
        assert_eq!(summary["summary"]["threads"], threads, "{args:?}");
        assert_eq!(summary["summary"]["solved"], 2);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
