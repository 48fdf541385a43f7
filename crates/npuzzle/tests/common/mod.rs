//! Helpers shared by the integration tests: instance files and an independent BFS.
#![allow(dead_code)]

use std::collections::{HashMap, VecDeque};

use npuzzle::{Board, GoalSpec, Move, Shape, Tables};

/// A benchmark instance: tiles, published optimal length, line number (1-based).
pub struct Instance {
    pub index: usize,
    pub board: Board,
    pub optimal: usize,
}

/// Reads `data/NAME` (tiles then optimal length per line).
pub fn instances(name: &str, shape: &str) -> Vec<Instance> {
    let path = format!("{}/../../data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let shape: Shape = shape.parse().unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .enumerate()
        .map(|(i, line)| {
            let nums: Vec<u32> = line
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            let (tiles, len) = nums.split_at(shape.cells());
            Instance {
                index: i + 1,
                board: Board::new(shape, tiles.to_vec()).unwrap(),
                optimal: len[0] as usize,
            }
        })
        .collect()
}

/// Korf's 15-puzzle instances use the blank-first goal.
pub fn korf_goal() -> Board {
    GoalSpec::BlankFirst.board("4x4".parse().unwrap()).unwrap()
}

/// Distances of every state that reaches `goal`, by an independent breadth-first search
/// over plain tile vectors (it shares nothing with the library but `Board`'s shape).
pub fn bfs_distances(goal: &Board) -> HashMap<Vec<u32>, u32> {
    let shape = goal.shape();
    let (rows, cols) = (shape.rows() as isize, shape.cols() as isize);
    let mut dist = HashMap::new();
    dist.insert(goal.tiles().to_vec(), 0u32);
    let mut queue = VecDeque::from([goal.tiles().to_vec()]);
    while let Some(state) = queue.pop_front() {
        let d = dist[&state];
        let b = state.iter().position(|&t| t == 0).unwrap() as isize;
        let (r, c) = (b / cols, b % cols);
        for (dr, dc) in [(-1, 0), (1, 0), (0, -1), (0, 1)] {
            let (nr, nc) = (r + dr, c + dc);
            if nr < 0 || nc < 0 || nr >= rows || nc >= cols {
                continue;
            }
            let mut next = state.clone();
            next.swap(b as usize, (nr * cols + nc) as usize);
            if !dist.contains_key(&next) {
                dist.insert(next.clone(), d + 1);
                queue.push_back(next);
            }
        }
    }
    dist
}

/// Every permutation of `0..n` as tile vectors.
pub fn all_states(n: usize) -> Vec<Vec<u32>> {
    let mut out = Vec::new();
    let mut cur: Vec<u32> = (0..n as u32).collect();
    permute(&mut cur, 0, &mut out);
    out
}

fn permute(cur: &mut Vec<u32>, k: usize, out: &mut Vec<Vec<u32>>) {
    if k == cur.len() {
        out.push(cur.clone());
        return;
    }
    for i in k..cur.len() {
        cur.swap(k, i);
        permute(cur, k + 1, out);
        cur.swap(k, i);
    }
}

/// Replays `moves` from `start` and asserts it reaches `goal`.
pub fn assert_replays(start: &Board, moves: &[Move], goal: &Board) {
    match start.replay(moves) {
        Ok(end) => assert_eq!(&end, goal, "path from {start} ends at {end}, not the goal"),
        Err(i) => panic!(
            "move {i} of {} leaves the board from {start}",
            Move::to_letters(moves)
        ),
    }
}

/// Reads the measured IDA* node counts: (index, optimal, md_h0, md_nodes, lc_h0, lc_nodes).
pub fn ida_nodes() -> Vec<[u64; 6]> {
    let path = format!(
        "{}/../../data/korf100-15puzzle-ida-nodes.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let v: Vec<u64> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            [v[0], v[1], v[2], v[3], v[4], v[5]]
        })
        .collect()
}

/// The tables of this test binary: one value, shared by its tests as a program would share
/// its own (memory only, never the user's cache directory).
pub fn tables() -> &'static Tables {
    static TABLES: std::sync::OnceLock<Tables> = std::sync::OnceLock::new();
    TABLES.get_or_init(Tables::default)
}
