//! Lengths and times of the constructive solver on random boards.
//!
//! `cargo run --release --example constructive_stats -- 100x100 5 [goal]` solves 5 random
//! 100×100 boards (seeds 1..=5) and prints length, Manhattan lower bound, their ratio and
//! the time, each path replayed to the goal.

use std::time::Instant;

use npuzzle::{constructive, generate, GoalSpec, Shape};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let shape: Shape = args
        .get(1)
        .map_or("100x100", String::as_str)
        .parse()
        .expect("a size");
    let count: u64 = args.get(2).map_or(Ok(3), |s| s.parse()).expect("a count");
    let spec: GoalSpec = args
        .get(3)
        .map_or("standard", String::as_str)
        .parse()
        .unwrap();
    let goal = spec.board(shape).expect("a goal");
    let (mut sum_len, mut sum_lb, mut sum_s) = (0u64, 0u64, 0f64);
    for seed in 1..=count {
        let start = generate::random_solvable(&goal, &mut generate::rng(seed));
        let t = Instant::now();
        let moves = constructive::construct(&start, &goal).expect("solvable");
        let s = t.elapsed().as_secs_f64();
        let lb = constructive::manhattan_bound(&start, &goal);
        assert_eq!(
            start.replay(&moves).expect("legal moves"),
            goal,
            "replays to the goal"
        );
        println!(
            "{shape} seed {seed}: {} moves, manhattan {lb}, ratio {:.3}, {s:.3} s",
            moves.len(),
            moves.len() as f64 / lb as f64
        );
        sum_len += moves.len() as u64;
        sum_lb += lb;
        sum_s += s;
    }
    println!(
        "{shape} mean: {:.0} moves, ratio {:.3}, {:.3} s",
        sum_len as f64 / count as f64,
        sum_len as f64 / sum_lb as f64,
        sum_s / count as f64
    );
}
