//! Measures anytime schedules against each other on Korf & Felner's 24-puzzles, interleaved
//! board by board so that a busy machine slows every schedule alike.
//!
//! ```sh
//! NPUZZLE_PDB_DIR=~/.cache/npuzzle/pdb \
//!   cargo run --release -p npuzzle --example anytime_schedules -- SECONDS FIRST
//! ```
//!
//! Uses the 6-6-6-6 tables (built into `NPUZZLE_PDB_DIR`, about 20 s, if missing), one thread,
//! `SECONDS` a board (default 2) on the first `FIRST` instances (default 10), and prints each
//! schedule's mean length over the published optimal lengths. Every path is replayed.

use std::time::Duration;

use npuzzle::anytime::{self, Schedule};
use npuzzle::heuristic::pdb::{Partition, PatternDatabase};
use npuzzle::search::Control;
use npuzzle::{Board, GoalSpec, Limits, Puzzle, Shape, TablePolicy, Tables};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: f64 = args.get(1).map_or(2.0, |s| s.parse().expect("SECONDS"));
    let first: usize = args.get(2).map_or(10, |s| s.parse().expect("FIRST"));
    let shape: Shape = "5x5".parse().unwrap();
    let goal = GoalSpec::BlankFirst.board(shape).unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    let dir = std::env::var_os("NPUZZLE_PDB_DIR").map(Into::into);
    let tables = Tables::new(dir, TablePolicy::default());
    let partition = Partition::new(shape, goal.blank(), &[6, 6, 6, 6]).unwrap();
    let db = PatternDatabase::from_tables(&puzzle, &partition, &tables).unwrap();

    let text = include_str!("../../../data/korf50-24puzzle.txt");
    let instances: Vec<(Board, u64)> = text
        .lines()
        .take(first)
        .map(|l| {
            let n: Vec<u32> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            (
                Board::new(shape, n[..25].to_vec()).unwrap(),
                u64::from(n[25]),
            )
        })
        .collect();

    let base = Schedule::default();
    let schedules = [
        ("default", base.clone()),
        (
            "no tail",
            Schedule {
                tail_share: None,
                ..base.clone()
            },
        ),
        (
            "0.9, tail/32",
            Schedule {
                improve_share: 0.9,
                tail_share: Some(1.0 / 32.0),
                ..base.clone()
            },
        ),
        (
            "0.9, no tail",
            Schedule {
                improve_share: 0.9,
                tail_share: None,
                ..base.clone()
            },
        ),
    ];
    let control = Control {
        limits: Limits {
            time: Some(Duration::from_secs_f64(seconds)),
            ..Limits::default()
        },
        threads: 1,
        ..Control::default()
    };
    let mut sums = vec![0.0f64; schedules.len()];
    for (i, (start, optimal)) in instances.iter().enumerate() {
        let mut line = format!("#{:<3} {optimal:>4}", i + 1);
        for (k, (_, schedule)) in schedules.iter().enumerate() {
            let out = anytime::run_with(&puzzle, start, db.search(), control, schedule);
            let moves = out.moves.expect("an answer");
            assert_eq!(start.replay(&moves).unwrap(), goal, "the path replays");
            assert!(moves.len() as u64 >= *optimal && out.lower_bound <= *optimal);
            sums[k] += moves.len() as f64 / *optimal as f64;
            line += &format!(" {:>4}", moves.len());
        }
        println!("{line}");
    }
    for (k, (name, _)) in schedules.iter().enumerate() {
        println!(
            "{name:<12} mean length / optimal {:.4}",
            sums[k] / instances.len() as f64
        );
    }
}
