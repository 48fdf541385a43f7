//! Weighted IDA* (linear conflict) against the constructive solver on random boards.
//!
//! `cargo run --release --example bounded_stats -- 6x6 5 2.0` solves 5 random 6×6 boards
//! (seeds 1..=5) with W = 2 and prints both lengths, the linear-conflict lower bound and the
//! search effort, each path replayed to the goal.

use std::time::{Duration, Instant};

use npuzzle::heuristic::{Heuristic, LinearConflict};
use npuzzle::search::{weighted_idastar, Control, Limits};
use npuzzle::{constructive, generate, GoalSpec, Puzzle, Shape};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let shape: Shape = args
        .get(1)
        .map_or("5x5", String::as_str)
        .parse()
        .expect("a size");
    let count: u64 = args.get(2).map_or(Ok(3), |s| s.parse()).expect("a count");
    let weight: f64 = args
        .get(3)
        .map_or(Ok(2.0), |s| s.parse())
        .expect("a weight");
    let seconds: f64 = args
        .get(4)
        .map_or(Ok(10.0), |s| s.parse())
        .expect("seconds");
    let goal = GoalSpec::Standard.board(shape).expect("a goal");
    let puzzle = Puzzle::new(&goal).expect("at most 255 cells");
    for seed in 1..=count {
        let start = generate::random_solvable(&goal, &mut generate::rng(seed));
        let tiles = puzzle.encode(&start);
        let lb = LinearConflict::new(&puzzle).estimate(&tiles);
        let built = constructive::construct(&start, &goal).expect("solvable");
        let t = Instant::now();
        let control = Control {
            limits: Limits {
                time: Some(Duration::from_secs_f64(seconds)),
                ..Limits::default()
            },
            ..Control::default()
        };
        let out = weighted_idastar(
            &puzzle,
            &tiles,
            LinearConflict::new(&puzzle),
            weight,
            control,
        );
        let s = t.elapsed().as_secs_f64();
        let len = out.moves.as_ref().map(|m| {
            assert_eq!(start.replay(m).unwrap(), goal);
            m.len()
        });
        println!(
            "{shape} seed {seed}: lower bound {lb}, constructive {}, weighted-idastar W={weight}: {} ({} generated, {s:.2} s)",
            built.len(),
            len.map_or("stopped".to_string(), |l| l.to_string()),
            out.stats.generated
        );
    }
}
