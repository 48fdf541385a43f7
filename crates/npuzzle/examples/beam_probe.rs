//! Probe: beam search lengths and seconds at several widths on boards read from stdin, one
//! core, every path replayed.
//!
//! `npuzzle random --size 6x6 --count 5 --seed 1 | cargo run --release -p npuzzle --example
//! beam_probe -- 6x6 [pdb:5-5-5-5-5-5-5 | lc+pdb:5-5-5-5-5-5-5] 1000 10000 100000`
//!
//! States are ranked by linear conflict, with `pdb:SPEC` by that partition's tables from
//! the user's cache directory (built there first when missing, which can take long), with
//! `lc+pdb:SPEC` by the sum of the two (`RankingSum`, what the anytime engine's beams use
//! with tables of 5 tiles or more, or of 4 tiles on boards at least six cells each way).

use std::io::BufRead;
use std::time::Instant;

use npuzzle::heuristic::pdb::{PartitionSpec, PatternDatabase};
use npuzzle::heuristic::{LinearConflict, RankingSum};
use npuzzle::search::{beam, Control};
use npuzzle::{Board, GoalSpec, Puzzle, Shape, TablePolicy, Tables};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shape: Shape = args[0].parse().unwrap();
    let sum = args[1].starts_with("lc+pdb:");
    let pdb = args[1]
        .strip_prefix("pdb:")
        .or_else(|| args[1].strip_prefix("lc+pdb:"))
        .map(str::to_owned);
    let skip = if pdb.is_some() { 2 } else { 1 };
    let widths: Vec<usize> = args[skip..].iter().map(|s| s.parse().unwrap()).collect();
    let goal = GoalSpec::Standard.board(shape).unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    let lc = LinearConflict::new(&puzzle);
    let db = pdb.map(|spec| {
        let tables = Tables::new(None, TablePolicy::default());
        let sizes: PartitionSpec = spec.parse().unwrap();
        let partition = sizes.partition(&puzzle).unwrap();
        PatternDatabase::from_tables(&puzzle, &partition, &tables).unwrap()
    });
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
            let out = match &db {
                Some(db) if sum => {
                    let rank = RankingSum::new(lc.clone(), db.search());
                    beam(&puzzle, &tiles, rank, w, 100_000, Control::default())
                }
                Some(db) => beam(&puzzle, &tiles, db.search(), w, 100_000, Control::default()),
                None => beam(&puzzle, &tiles, lc.clone(), w, 100_000, Control::default()),
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
