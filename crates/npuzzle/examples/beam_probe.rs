//! Probe: beam search lengths and seconds at several widths on boards read from stdin, one
//! core, every path replayed.
//!
//! `npuzzle random --size 6x6 --count 5 --seed 1 | cargo run --release -p npuzzle --example
//! beam_probe -- 6x6 [RANKING] 1000 10000 100000`
//!
//! States are ranked by linear conflict, or by `RANKING`:
//! - `pdb:SPEC`: that partition's tables;
//! - `lc+pdb:SPEC`: their sum with linear conflict (`RankingSum`, what the anytime engine's
//!   beams use with tables of 5 tiles or more, or of 4 tiles on boards at least six cells
//!   each way);
//! - `lc+pdb:SPEC+pdb:SPEC2`: linear conflict plus both partitions' tables;
//! - `lc+max:SPEC,SPEC2`: linear conflict plus the larger of the two partitions' values
//!   (`Larger`).
//!
//! `SPEC` is sizes (`5-5-5-5-5-5-5`) or a layout drawn for the blank in the top-left corner
//! (`".HHEEB JHHEEB JGGDDB IGGDDA IFFCCA IFFCCA"`, see `Partition::drawn`). Tables are read
//! from the directory `NPUZZLE_PDB_DIR` names, and built and saved there when missing (which
//! can take long); without it they are built in memory on every run.

use std::io::BufRead;
use std::time::Instant;

use npuzzle::heuristic::pdb::{Partition, PartitionSpec, PatternDatabase};
use npuzzle::heuristic::{IncrementalHeuristic, Larger, LinearConflict, RankingSum};
use npuzzle::search::{beam, Control, SearchOutcome};
use npuzzle::{Board, GoalSpec, Puzzle, Shape, TablePolicy, Tables};

/// How states are ranked.
enum Ranking {
    LinearConflict,
    Tables(PatternDatabase),
    Sum(PatternDatabase),
    SumOfBoth(PatternDatabase, PatternDatabase),
    LargerOf(PatternDatabase, PatternDatabase),
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shape: Shape = args[0].parse().expect("a size");
    let goal = GoalSpec::Standard.board(shape).unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    let dir = std::env::var_os("NPUZZLE_PDB_DIR").map(std::path::PathBuf::from);
    let tables = Tables::new(dir, TablePolicy::default());
    let db = |spec: &str| {
        let partition = if spec.contains('.') {
            Partition::drawn(shape, goal.blank(), spec).expect("a layout")
        } else {
            let sizes: PartitionSpec = spec.parse().expect("pattern sizes");
            sizes.partition(&puzzle).expect("a partition")
        };
        PatternDatabase::from_tables(&puzzle, &partition, &tables).expect("tables")
    };
    let arg = args[1].as_str();
    let ranking = if let Some(specs) = arg.strip_prefix("lc+max:") {
        let (a, b) = specs.split_once(',').expect("two partitions");
        Ranking::LargerOf(db(a), db(b))
    } else if let Some(specs) = arg.strip_prefix("lc+pdb:") {
        match specs.split_once("+pdb:") {
            Some((a, b)) => Ranking::SumOfBoth(db(a), db(b)),
            None => Ranking::Sum(db(specs)),
        }
    } else if let Some(spec) = arg.strip_prefix("pdb:") {
        Ranking::Tables(db(spec))
    } else {
        Ranking::LinearConflict
    };
    let skip = if matches!(ranking, Ranking::LinearConflict) {
        1
    } else {
        2
    };
    let widths: Vec<usize> = args[skip..].iter().map(|s| s.parse().unwrap()).collect();
    let lc = LinearConflict::new(&puzzle);
    for line in std::io::stdin().lock().lines() {
        let line = line.unwrap();
        if line.trim().is_empty() {
            continue;
        }
        let board: Board = Board::parse(&line, Some(shape)).unwrap();
        let tiles = puzzle.encode(&board);
        let mut row = Vec::new();
        for &w in &widths {
            let t = Instant::now();
            let out = match &ranking {
                Ranking::LinearConflict => run(&puzzle, &tiles, lc.clone(), w),
                Ranking::Tables(a) => run(&puzzle, &tiles, a.search(), w),
                Ranking::Sum(a) => run(&puzzle, &tiles, RankingSum::new(lc.clone(), a.search()), w),
                Ranking::SumOfBoth(a, b) => {
                    let sum = RankingSum::new(lc.clone(), a.search());
                    run(&puzzle, &tiles, RankingSum::new(sum, b.search()), w)
                }
                Ranking::LargerOf(a, b) => {
                    let larger = Larger::new(a.search(), b.search());
                    run(&puzzle, &tiles, RankingSum::new(lc.clone(), larger), w)
                }
            };
            let s = t.elapsed().as_secs_f64();
            match out.moves {
                Some(p) => {
                    assert_eq!(board.replay(&p).unwrap(), goal);
                    row.push(format!("{}:{:.1}s", p.len(), s));
                }
                None => row.push(format!("-:{s:.1}s")),
            }
        }
        println!("{}", row.join("\t"));
    }
}

/// One beam of `width` states, ranked by `rank`, with no limits.
fn run<H: IncrementalHeuristic>(
    puzzle: &Puzzle,
    tiles: &[u8],
    rank: H,
    width: usize,
) -> SearchOutcome {
    beam(puzzle, tiles, rank, width, 100_000, Control::default())
}
