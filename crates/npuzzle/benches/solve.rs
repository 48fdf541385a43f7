#![allow(missing_docs)] // criterion_group! generates undocumented functions
//! Benchmarks of issue 2, each asserting its results:
//!
//! * `all_3x3`: every one of the 181,440 solvable 3×3 states solved optimally through the
//!   public API (`solve` with `Algorithm::Auto`), one core;
//! * `idastar_manhattan_15`: IDA* + Manhattan on Korf's 15-puzzles, reported as generated
//!   nodes per second, with the node counts checked against the measured reference.
//!
//! Run: `cargo bench -p npuzzle --bench solve`.

use std::collections::{HashMap, VecDeque};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use npuzzle::heuristic::Manhattan;
use npuzzle::search::{idastar, Control};
use npuzzle::{solve, Board, GoalSpec, Puzzle, Shape, SolveOptions, Tables};

fn data(name: &str) -> String {
    let path = format!("{}/../../data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// All solvable 3×3 boards for the standard goal, by walking every permutation.
fn all_3x3() -> Vec<Board> {
    let shape = Shape::square(3).unwrap();
    let goal = GoalSpec::Standard.board(shape).unwrap();
    let mut tiles: Vec<u32> = (0..9).collect();
    let mut out = Vec::new();
    heap_permutations(&mut tiles, 9, &mut |t| {
        let b = Board::new(shape, t.to_vec()).unwrap();
        if npuzzle::solvability::check(&b, &goal).unwrap().solvable {
            out.push(b);
        }
    });
    out
}

fn heap_permutations(t: &mut [u32], k: usize, f: &mut impl FnMut(&[u32])) {
    if k == 1 {
        f(t);
        return;
    }
    for i in 0..k {
        heap_permutations(t, k - 1, f);
        let j = if k.is_multiple_of(2) { i } else { 0 };
        t.swap(j, k - 1);
    }
}

/// Distances from the goal by a plain breadth-first search, independent of the solver.
fn bfs_distances(goal: &Board) -> HashMap<Vec<u32>, usize> {
    let shape = goal.shape();
    let mut dist = HashMap::from([(goal.tiles().to_vec(), 0)]);
    let mut queue = VecDeque::from([goal.clone()]);
    while let Some(b) = queue.pop_front() {
        let d = dist[b.tiles()];
        for m in npuzzle::Move::ALL {
            let mut next = b.clone();
            if next.apply(m) && !dist.contains_key(next.tiles()) {
                dist.insert(next.tiles().to_vec(), d + 1);
                queue.push_back(next);
            }
        }
    }
    assert_eq!(shape.cells(), 9);
    dist
}

fn bench_all_3x3(c: &mut Criterion) {
    let boards = all_3x3();
    assert_eq!(boards.len(), 181_440);
    let goal = GoalSpec::Standard.board(Shape::square(3).unwrap()).unwrap();
    let reference = bfs_distances(&goal);
    let expected: Vec<usize> = boards.iter().map(|b| reference[b.tiles()]).collect();
    let options = SolveOptions::default();
    let tables = Tables::default();
    let mut group = c.benchmark_group("all_3x3");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Elements(boards.len() as u64));
    group.bench_function("auto", |b| {
        b.iter(|| {
            for (board, &length) in boards.iter().zip(&expected) {
                let s = solve(board, &goal, &options, &tables, Control::default()).unwrap();
                assert!(s.optimal);
                assert_eq!(s.moves.unwrap().len(), length);
            }
        })
    });
    group.finish();
}

fn bench_idastar_manhattan(c: &mut Criterion) {
    let goal = GoalSpec::BlankFirst
        .board(Shape::square(4).unwrap())
        .unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    let nodes: Vec<Vec<u64>> = data("korf100-15puzzle-ida-nodes.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split_whitespace().map(|t| t.parse().unwrap()).collect())
        .collect();
    // Instances 2, 5 and 6: 58.5 M nodes in all, long enough to measure, short enough to repeat.
    let picked = [2usize, 5, 6];
    let lines: Vec<String> = data("korf100-15puzzle.txt")
        .lines()
        .map(String::from)
        .collect();
    let instances: Vec<(Vec<u8>, usize, u64)> = picked
        .iter()
        .map(|&i| {
            let nums: Vec<u8> = lines[i - 1]
                .split_whitespace()
                .map(|t| t.parse().unwrap())
                .collect();
            (nums[..16].to_vec(), usize::from(nums[16]), nodes[i - 1][3])
        })
        .collect();
    let total: u64 = instances.iter().map(|i| i.2).sum();
    let mut group = c.benchmark_group("idastar_manhattan_15");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(15));
    group.throughput(Throughput::Elements(total));
    group.bench_function("korf_2_5_6", |b| {
        b.iter(|| {
            for (tiles, length, expected_nodes) in &instances {
                let out = idastar(&puzzle, tiles, Manhattan::new(&puzzle), Control::default());
                assert_eq!(out.moves.unwrap().len(), *length);
                assert_eq!(out.stats.generated, *expected_nodes);
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench_idastar_manhattan, bench_all_3x3);
criterion_main!(benches);
