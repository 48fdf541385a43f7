//! Measures anytime schedules against each other on Korf & Felner's 24-puzzles, interleaved
//! board by board so that a busy machine slows every schedule alike.
//!
//! ```sh
//! NPUZZLE_PDB_DIR=~/.cache/npuzzle/pdb \
//!   cargo run --release -p npuzzle --example anytime_schedules -- SECONDS FIRST [BOARDS]
//! ```
//!
//! Uses the 6-6-6-6 tables (built into `NPUZZLE_PDB_DIR`, about 20 s, if missing), one thread,
//! `SECONDS` a board (default 2) on the first `FIRST` instances (default 10), and prints each
//! schedule's mean length and proven bound, and its mean length over the published optimal
//! lengths. With `BOARDS`, a file of 5×5 boards one a line (standard goal, optima unknown),
//! it compares other schedules on those (no ratio). Every path is replayed.

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
    // Korf & Felner's boards (blank-first goal, optima published), or a file's (standard
    // goal, optima unknown): the one place the two differ, but for the schedules below.
    let (goal, text) = match args.get(3) {
        Some(path) => (
            GoalSpec::Standard,
            std::fs::read_to_string(path).expect("the boards file"),
        ),
        None => (
            GoalSpec::BlankFirst,
            include_str!("../../../data/korf50-24puzzle.txt").to_owned(),
        ),
    };
    let goal = goal.board(shape).unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    let dir = std::env::var_os("NPUZZLE_PDB_DIR").map(Into::into);
    let tables = Tables::new(dir, TablePolicy::default());
    let partition = Partition::new(shape, goal.blank(), &[6, 6, 6, 6]).unwrap();
    let db = PatternDatabase::from_tables(&puzzle, &partition, &tables).unwrap();

    // A board and its optimal length, when the line gives it.
    let instances: Vec<(Board, Option<u64>)> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .take(first)
        .map(|l| {
            let n: Vec<u32> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            (
                Board::new(shape, n[..25].to_vec()).unwrap(),
                n.get(25).map(|&o| u64::from(o)),
            )
        })
        .collect();

    let base = Schedule::default();
    let on_file = [
        ("default", base.clone()),
        (
            "coarse low weights",
            Schedule {
                weights: vec![2.0, 1.6, 1.5, 1.4, 1.35, 1.3, 1.2, 1.1, 1.05, 1.02],
                ..base.clone()
            },
        ),
        (
            "improve 0.6",
            Schedule {
                improve_share: 0.6,
                ..base.clone()
            },
        ),
    ];
    let on_korf = [
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
    let known = instances.iter().all(|(_, optimal)| optimal.is_some());
    let schedules: &[(&str, Schedule)] = if known { &on_korf } else { &on_file };
    let control = Control {
        limits: Limits {
            time: Some(Duration::from_secs_f64(seconds)),
            ..Limits::default()
        },
        threads: 1,
        ..Control::default()
    };
    let mut lengths = vec![0.0f64; schedules.len()];
    let mut ratios = vec![0.0f64; schedules.len()];
    let mut bounds = vec![0.0f64; schedules.len()];
    for (i, (start, optimal)) in instances.iter().enumerate() {
        let mut line = format!("#{:<3}", i + 1);
        if let Some(optimal) = optimal {
            line += &format!(" {optimal:>4}");
        }
        for (k, (_, schedule)) in schedules.iter().enumerate() {
            let out = anytime::run_with(&puzzle, start, db.search(), control, schedule);
            let moves = out.moves.expect("an answer");
            let length = moves.len() as u64;
            assert_eq!(start.replay(&moves).unwrap(), goal, "the path replays");
            assert!(length >= out.lower_bound);
            if let Some(optimal) = *optimal {
                assert!(length >= optimal && out.lower_bound <= optimal);
                ratios[k] += length as f64 / optimal as f64;
            }
            lengths[k] += length as f64;
            bounds[k] += out.lower_bound as f64;
            line += &format!(" {length:>4}");
        }
        println!("{line}");
    }
    let n = instances.len() as f64;
    for (k, (name, _)) in schedules.iter().enumerate() {
        let mut line = format!(
            "{name:<20} mean length {:.2}, mean bound {:.2}",
            lengths[k] / n,
            bounds[k] / n
        );
        if known {
            line += &format!(", mean length / optimal {:.4}", ratios[k] / n);
        }
        println!("{line}");
    }
}
