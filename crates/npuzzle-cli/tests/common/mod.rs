//! Helpers for the CLI tests: an independent breadth-first search and path replay.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};

use assert_cmd::Command;

/// The `npuzzle` binary.
pub fn npuzzle() -> Command {
    Command::cargo_bin("npuzzle").unwrap()
}

/// Runs and returns (exit code, stdout, stderr).
pub fn run(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    let mut cmd = npuzzle();
    cmd.args(args);
    if let Some(input) = stdin {
        cmd.write_stdin(input.to_vec());
    }
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The distance of every state of a `rows x cols` board to `goal`, by breadth-first search
/// backwards from the goal. Written apart from the library on purpose.
pub fn distances(rows: usize, cols: usize, goal: &[u32]) -> HashMap<Vec<u32>, usize> {
    let mut dist = HashMap::from([(goal.to_vec(), 0)]);
    let mut queue = VecDeque::from([goal.to_vec()]);
    while let Some(state) = queue.pop_front() {
        let d = dist[&state];
        let blank = state.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (blank / cols, blank % cols);
        let mut next = Vec::new();
        if r > 0 {
            next.push(blank - cols);
        }
        if r + 1 < rows {
            next.push(blank + cols);
        }
        if c > 0 {
            next.push(blank - 1);
        }
        if c + 1 < cols {
            next.push(blank + 1);
        }
        for n in next {
            let mut s = state.clone();
            s.swap(blank, n);
            if !dist.contains_key(&s) {
                dist.insert(s.clone(), d + 1);
                queue.push_back(s);
            }
        }
    }
    dist
}

/// Plays moves of the blank (`U`, `D`, `L`, `R`, or the words `Up` ... `Right`) on a
/// `rows x cols` board; panics on an illegal move.
pub fn replay(start: &[u32], cols: usize, moves: &[&str]) -> Vec<u32> {
    let mut tiles = start.to_vec();
    let rows = tiles.len() / cols;
    for m in moves {
        let blank = tiles.iter().position(|&t| t == 0).unwrap();
        let (r, c) = (blank / cols, blank % cols);
        let to = match *m {
            "U" | "Up" if r > 0 => blank - cols,
            "D" | "Down" if r + 1 < rows => blank + cols,
            "L" | "Left" if c > 0 => blank - 1,
            "R" | "Right" if c + 1 < cols => blank + 1,
            _ => panic!("illegal move {m} from {tiles:?}"),
        };
        tiles.swap(blank, to);
    }
    tiles
}

/// The moves of a report's `moves` string (`"RDLU"`), one letter each, for [`replay`].
pub fn letters(moves: &str) -> Vec<&str> {
    (0..moves.len()).map(|i| &moves[i..=i]).collect()
}

/// `1 2 ... n-1 0`.
pub fn standard_goal(cells: usize) -> Vec<u32> {
    (1..cells as u32).chain([0]).collect()
}

/// Asserts that the moves of `report` (`solve --json` or a `batch` line) take `board`
/// (tiles in row order, `cols` a row) to the standard goal.
pub fn assert_replays_to_standard(board: &str, cols: usize, report: &serde_json::Value) {
    let start: Vec<u32> = board
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let moves = letters(report["moves"].as_str().unwrap());
    assert_eq!(replay(&start, cols, &moves), standard_goal(start.len()));
}
