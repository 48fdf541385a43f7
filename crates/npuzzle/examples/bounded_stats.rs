//! Bounded-suboptimal search against the constructive solver on random boards.
//!
//! `cargo run --release --example bounded_stats -- 6x6 5 2.0 10` solves 5 random 6×6 boards
//! (seeds 1..=5) with weighted A* and weighted IDA* (linear conflict, W = 2, at most 10 s
//! each) and with the constructive solver (plain rows and columns, and as `solve` runs it,
//! with its weighted-A* finish), and prints the lengths beside the linear-conflict lower
//! bound; every path is replayed to the goal.

use std::time::Duration;

use npuzzle::search::{Control, Limits};
use npuzzle::{generate, solve, Algorithm, GoalSpec, Shape, SolveOptions, Tables};

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
    let tables = Tables::default();
    let control = Control {
        limits: Limits {
            time: Some(Duration::from_secs_f64(seconds)),
            memory_bytes: Some(8 << 30),
            ..Limits::default()
        },
        ..Control::default()
    };
    let (mut sums, mut solved) = ([0usize; 3], [0usize; 3]);
    let mut rows_only = 0;
    for seed in 1..=count {
        let start = generate::random_solvable(&goal, &mut generate::rng(seed));
        let plain = npuzzle::constructive::construct_with(&start, &goal, false).expect("solvable");
        assert_eq!(start.replay(&plain).unwrap(), goal);
        rows_only += plain.len();
        let mut line = format!("{shape} seed {seed}: rows and columns only {}", plain.len());
        for (i, algorithm) in [
            Algorithm::Constructive,
            Algorithm::WeightedAStar,
            Algorithm::WeightedIdaStar,
        ]
        .into_iter()
        .enumerate()
        {
            let options = SolveOptions {
                algorithm,
                weight,
                ..SolveOptions::default()
            };
            let s = solve(&start, &goal, &options, &tables, control).expect("solvable");
            if i == 0 {
                line += &format!(", lower bound {}", s.lower_bound.unwrap());
            }
            match &s.moves {
                Some(m) => {
                    assert_eq!(start.replay(m).unwrap(), goal);
                    sums[i] += m.len();
                    solved[i] += 1;
                    line += &format!(
                        ", {algorithm} {} (x{:.2}, {:.2} s)",
                        m.len(),
                        s.bound_factor.unwrap(),
                        s.stats.seconds
                    );
                }
                None => line += &format!(", {algorithm} stopped ({:.0} s)", s.stats.seconds),
            }
        }
        println!("{line}");
    }
    println!(
        "{shape} W={weight}: rows and columns only (mean {:.0}), constructive {}/{count} (mean {:.0}), weighted-astar {}/{count} (mean {:.0}), weighted-idastar {}/{count} (mean {:.0})",
        rows_only as f64 / count as f64,
        solved[0],
        sums[0] as f64 / solved[0].max(1) as f64,
        solved[1],
        sums[1] as f64 / solved[1].max(1) as f64,
        solved[2],
        sums[2] as f64 / solved[2].max(1) as f64,
    );
}
