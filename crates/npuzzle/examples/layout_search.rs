//! A hill climb over 6-6-6-6 layouts of the 24-puzzle, scored by the mean heuristic value
//! (the larger of the direct and the reflected lookup) over random states: a cheap stand-in
//! for the node counts of IDA*, which fall about sixfold for every two moves of value.
//!
//! ```sh
//! NPUZZLE_PDB_DIR=/tmp/layouts cargo run --release -p npuzzle --example layout_search -- \
//!     STEPS [LAYOUT]
//! ```
//!
//! Starts from `LAYOUT` (drawn for the blank in the top-left corner, see
//! `Partition::drawn`; Korf & Felner's by default) and tries `STEPS` swaps of two cells of
//! different patterns, each next to the other's pattern, keeping a swap when it raises the
//! mean over 2,000 random states (seed 1) of the blank-first goal. Tables are built into
//! `NPUZZLE_PDB_DIR` (64 MB each); those of rejected layouts are deleted.

use std::collections::HashSet;
use std::path::PathBuf;
use std::time::Instant;

use npuzzle::heuristic::pdb::{store, Partition, PatternDatabase};
use npuzzle::{generate, Board, GoalSpec, Puzzle, Shape, TablePolicy, Tables};
use rand::Rng;

const KORF_FELNER: &str = ".AABB AAABB CCABB CCDDD CCDDD";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let steps: usize = args.first().map_or(20, |s| s.parse().expect("STEPS"));
    let start_layout = args.get(1).map_or(KORF_FELNER, String::as_str);
    let dir: PathBuf = std::env::var_os("NPUZZLE_PDB_DIR")
        .expect("NPUZZLE_PDB_DIR")
        .into();
    let shape: Shape = "5x5".parse().unwrap();
    let goal = GoalSpec::BlankFirst.board(shape).unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    let mut rng = generate::rng(1);
    let sample: Vec<Vec<u8>> = (0..2000)
        .map(|_| puzzle.encode(&generate::random_solvable(&goal, &mut rng)))
        .collect();
    let korf: Vec<Vec<u8>> = include_str!("../../../data/korf50-24puzzle.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let n: Vec<u32> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            puzzle.encode(&Board::new(shape, n[..25].to_vec()).unwrap())
        })
        .collect();

    let mut best: Vec<u8> = start_layout
        .bytes()
        .filter(|c| !c.is_ascii_whitespace())
        .collect();
    let (mut best_score, best_korf) = score(&puzzle, shape, &dir, &best, &sample, &korf);
    println!(
        "start {}: mean {best_score:.4} on the sample, {best_korf:.3} on Korf & Felner's 50",
        text(&best)
    );
    let mut step_rng = generate::rng(2);
    for step in 0..steps {
        let candidate = loop {
            let a = step_rng.random_range(1..25);
            let b = step_rng.random_range(1..25);
            if best[a] != best[b] && next_to(&best, a, best[b]) && next_to(&best, b, best[a]) {
                let mut c = best.clone();
                c.swap(a, b);
                break c;
            }
        };
        let t = Instant::now();
        let (s, k) = score(&puzzle, shape, &dir, &candidate, &sample, &korf);
        let kept = s > best_score;
        println!(
            "step {step}: {} mean {s:.4} ({k:.3} on K&F) in {:.1} s{}",
            text(&candidate),
            t.elapsed().as_secs_f64(),
            if kept { "  KEPT" } else { "" }
        );
        let dropped = if kept {
            let old = std::mem::replace(&mut best, candidate);
            best_score = s;
            old
        } else {
            candidate
        };
        forget_tables(&dir, shape, &dropped, &best);
    }
    println!("best {}: mean {best_score:.4}", text(&best));
}

/// Mean value over the sample and over Korf & Felner's instances.
fn score(
    puzzle: &Puzzle,
    shape: Shape,
    dir: &std::path::Path,
    layout: &[u8],
    sample: &[Vec<u8>],
    korf: &[Vec<u8>],
) -> (f64, f64) {
    let partition = Partition::drawn(shape, 0, &text(layout)).unwrap();
    let tables = Tables::new(Some(dir.to_path_buf()), TablePolicy::default());
    let db = PatternDatabase::from_tables(puzzle, &partition, &tables).unwrap();
    let mean = |states: &[Vec<u8>]| {
        states.iter().map(|t| f64::from(db.value(t))).sum::<f64>() / states.len() as f64
    };
    (mean(sample), mean(korf))
}

/// Whether cell `c` (row-major index) touches a cell of pattern `p`.
fn next_to(layout: &[u8], c: usize, p: u8) -> bool {
    let (r, col) = (c / 5, c % 5);
    [(0, 1), (2, 1), (1, 0), (1, 2)].iter().any(|&(dr, dc)| {
        let (nr, nc) = (r + dr, col + dc);
        (1..=5).contains(&nr) && (1..=5).contains(&nc) && layout[(nr - 1) * 5 + nc - 1] == p
    })
}

/// The table files of `dropped`'s patterns that `kept` does not use.
fn forget_tables(dir: &std::path::Path, shape: Shape, dropped: &[u8], kept: &[u8]) {
    let keys = |layout: &[u8]| {
        Partition::drawn(shape, 0, &text(layout))
            .unwrap()
            .keys()
            .into_iter()
            .map(|k| store::file_name(&k))
            .collect::<HashSet<String>>()
    };
    let keep = keys(kept);
    for name in keys(dropped).difference(&keep) {
        let _ = std::fs::remove_file(dir.join(name));
    }
}

fn text(layout: &[u8]) -> String {
    layout
        .chunks(5)
        .map(|row| String::from_utf8(row.to_vec()).unwrap())
        .collect::<Vec<_>>()
        .join(" ")
}
