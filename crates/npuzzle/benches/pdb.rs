//! Pattern databases: table builds and solving Korf's 15-puzzles (lengths asserted).
//!
//! `cargo bench -p npuzzle --bench pdb`. The 7-8 figures come from `npuzzle pdb build`
//! and `npuzzle bench` (see the README): a 7-8 build takes half a minute, too long to
//! repeat here.
// criterion_group! generates an undocumented public function.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use npuzzle::heuristic::pdb::{build::build, Partition, PatternDatabase, TableKey};
use npuzzle::search::{idastar, Control};
use npuzzle::Tables;
use npuzzle::{Board, GoalSpec, Puzzle, Shape};

/// Korf's instances (tiles, optimal length), from the repository's data directory.
fn korf100() -> Vec<(Board, usize)> {
    let path = format!(
        "{}/../../data/korf100-15puzzle.txt",
        env!("CARGO_MANIFEST_DIR")
    );
    let shape = Shape::square(4).unwrap();
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let v: Vec<u32> = l.split_whitespace().map(|t| t.parse().unwrap()).collect();
            (Board::new(shape, v[..16].to_vec()).unwrap(), v[16] as usize)
        })
        .collect()
}

fn builds(c: &mut Criterion) {
    let mut g = c.benchmark_group("pdb build");
    g.sample_size(10);
    let shape = Shape::square(4).unwrap();
    for (name, cells) in [
        ("4x4 5 tiles", vec![1u8, 2, 4, 5, 6]),
        ("4x4 6 tiles", vec![1u8, 2, 3, 4, 5, 6]),
    ] {
        let key = TableKey {
            shape,
            cells,
            blank: 0,
            regions: false,
        };
        g.bench_function(name, |b| {
            b.iter(|| build(&key, &mut npuzzle::heuristic::pdb::keep_going).unwrap())
        });
    }
    g.finish();
}

fn solves(c: &mut Criterion) {
    let goal = GoalSpec::BlankFirst
        .board(Shape::square(4).unwrap())
        .unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    let instances = korf100();
    let tables = Tables::default();
    let mut g = c.benchmark_group("korf100 first 20");
    g.sample_size(10);
    for sizes in [[6, 6, 3], [5, 5, 5]] {
        let partition = Partition::new(puzzle.shape, 0, &sizes).unwrap();
        let db = PatternDatabase::from_tables(&puzzle, &partition, &tables).unwrap();
        g.bench_function(format!("pdb:{}", partition.name()), |b| {
            b.iter(|| {
                for (board, optimal) in &instances[..20] {
                    let out = idastar(
                        &puzzle,
                        &puzzle.encode(board),
                        db.search(),
                        Control::default(),
                    );
                    assert_eq!(out.moves.map(|m| m.len()), Some(*optimal));
                }
            })
        });
    }
    g.finish();
}

criterion_group!(benches, builds, solves);
criterion_main!(benches);
