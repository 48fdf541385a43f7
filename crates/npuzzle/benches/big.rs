#![allow(missing_docs)] // criterion_group! generates undocumented functions
//! Benchmarks of issue 6 (big boards), each asserting its results:
//!
//! * `constructive/RxC`: the constructive solver on a random board (100×100 target: under
//!   a second on one core), every path replayed to the goal before timing;
//! * before timing, the mean `length ÷ Manhattan lower bound` over five random boards of
//!   10×10, 30×30 and 100×100 is printed (and checked to stay under 4).
//!
//! The 1000×1000 board and the bounded-suboptimal comparison take minutes, so they are
//! commands (see the README, "Big boards"):
//! `/usr/bin/time -v cargo run --release --example constructive_stats -- 1000x1000 1` and
//! `cargo run --release --example bounded_stats -- 6x6 5 2 10`.
//!
//! Run: `cargo bench -p npuzzle --bench big`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use npuzzle::{constructive, generate, GoalSpec, Shape};

fn ratios() {
    for size in ["10x10", "30x30", "100x100"] {
        let shape: Shape = size.parse().unwrap();
        let goal = GoalSpec::Standard.board(shape).unwrap();
        let (mut len, mut lb) = (0u64, 0u64);
        for seed in 1..=5 {
            let start = generate::random_solvable(&goal, &mut generate::rng(seed));
            let moves = constructive::construct(&start, &goal).unwrap();
            assert_eq!(start.replay(&moves).unwrap(), goal);
            len += moves.len() as u64;
            lb += constructive::manhattan_bound(&start, &goal);
        }
        let ratio = len as f64 / lb as f64;
        println!(
            "{size}: mean length {} / Manhattan {} = {ratio:.3}",
            len / 5,
            lb / 5
        );
        assert!(ratio < 4.0, "{size} ratio {ratio}");
    }
}

fn bench(c: &mut Criterion) {
    ratios();
    let mut group = c.benchmark_group("constructive");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    for size in ["10x10", "30x30", "100x100"] {
        let shape: Shape = size.parse().unwrap();
        let goal = GoalSpec::Standard.board(shape).unwrap();
        let start = generate::random_solvable(&goal, &mut generate::rng(1));
        let moves = constructive::construct(&start, &goal).unwrap();
        assert_eq!(start.replay(&moves).unwrap(), goal);
        group.bench_function(size, |b| {
            b.iter(|| constructive::construct(&start, &goal).unwrap().len())
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
