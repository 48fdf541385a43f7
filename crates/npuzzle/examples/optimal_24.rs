//! Optimal 24-puzzle search with a chosen partition and duplicate pruning, on Korf &
//! Felner's instances: nodes and seconds against their published 6-6-6-6 counts.
//!
//! ```sh
//! NPUZZLE_PDB_DIR=~/.cache/npuzzle/pdb cargo run --release -p npuzzle --example optimal_24 -- \
//!     PARTITION PRUNE THREADS INSTANCE...
//! ```
//!
//! `PARTITION` as `pdb:` takes it (`6-6-6-6`, `7-7-5-5`) or drawn for the blank in the
//! top-left corner (`".AABB AABBB AACBD CCCDD CCDDD"`, see `Partition::drawn`), and `A+B`
//! takes the larger of two per node, each with its reflection; `PRUNE` the longest
//! duplicate the search prunes (`2`: only the move back, as the published counts); instances are numbered
//! from 1 in `data/korf50-24puzzle.txt`, `easy` for the ten with the fewest published nodes.
//! Tables are built into `NPUZZLE_PDB_DIR` when missing. `--lookahead` anywhere runs IDA*
//! with the lookahead of `--optimal` (`search::idastar_with_lookahead`). Every path is
//! replayed and its length checked against the published one.

use std::time::Instant;

use npuzzle::heuristic::pdb::{Partition, PartitionSpec, PatternDatabase};
use npuzzle::heuristic::IncrementalHeuristic;
use npuzzle::moves::Move;
use npuzzle::search::{idastar, idastar_with_lookahead, Control};
use npuzzle::{Board, GoalSpec, Puzzle, Shape, TablePolicy, Tables};

/// Korf & Felner's ten instances with the fewest nodes (issue 22).
const EASY: [usize; 10] = [38, 40, 25, 32, 44, 37, 30, 13, 1, 28];

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let lookahead = args.iter().any(|a| a == "--lookahead");
    args.retain(|a| a != "--lookahead");
    let specs: Vec<String> = args
        .first()
        .map_or("6-6-6-6", String::as_str)
        .split('+')
        .map(str::to_owned)
        .collect();
    let prune: usize = args.get(1).map_or(2, |s| s.parse().expect("PRUNE"));
    let threads: usize = args.get(2).map_or(1, |s| s.parse().expect("THREADS"));
    let picked: Vec<usize> = match args.get(3).map(String::as_str) {
        None | Some("easy") => EASY.to_vec(),
        Some(_) => args[3..].iter().map(|s| s.parse().unwrap()).collect(),
    };
    let shape: Shape = "5x5".parse().unwrap();
    let goal = GoalSpec::BlankFirst.board(shape).unwrap();
    let t = Instant::now();
    let puzzle = Puzzle::new(&goal)
        .unwrap()
        .with_duplicates_pruned((prune > 2).then_some(prune));
    eprintln!(
        "pruning: duplicates up to {} moves, {} states ({:.1} MB), {} found, in {:.2} s",
        puzzle.pruning.depth(),
        puzzle.pruning.states(),
        puzzle.pruning.bytes() as f64 / 1e6,
        puzzle.pruning.duplicates_found(),
        t.elapsed().as_secs_f64()
    );
    let dir = std::env::var_os("NPUZZLE_PDB_DIR").map(Into::into);
    let tables = Tables::new(dir, TablePolicy::default());
    let t = Instant::now();
    let dbs: Vec<PatternDatabase> = specs
        .iter()
        .map(|spec| {
            let partition: Partition = if spec.contains('.') {
                Partition::drawn(shape, 0, spec).unwrap()
            } else {
                let sizes: PartitionSpec = spec.parse().unwrap();
                sizes.partition(&puzzle).unwrap()
            };
            PatternDatabase::from_tables(&puzzle, &partition, &tables).unwrap()
        })
        .collect();
    eprintln!("tables: {:.1} s", t.elapsed().as_secs_f64());

    let text = include_str!("../../../data/korf50-24puzzle.txt");
    let nodes = include_str!("../../../data/korf50-24puzzle-nodes.txt");
    let published: Vec<u64> = nodes
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    let (mut all_nodes, mut all_published, mut all_seconds) = (0u64, 0u64, 0f64);
    println!("instance\tlength\tnodes\tpublished_6666\tratio\tseconds");
    for &i in &picked {
        let line = text.lines().nth(i - 1).unwrap();
        let n: Vec<u32> = line
            .split_whitespace()
            .map(|t| t.parse().unwrap())
            .collect();
        let board = Board::new(shape, n[..25].to_vec()).unwrap();
        let tiles = puzzle.encode(&board);
        let control = Control {
            threads,
            ..Control::default()
        };
        let t = Instant::now();
        let out = match &dbs[..] {
            [a] if lookahead => idastar_with_lookahead(&puzzle, &tiles, a.search(), control),
            [a] => idastar(&puzzle, &tiles, a.search(), control),
            [a, b] if lookahead => {
                idastar_with_lookahead(&puzzle, &tiles, Max2(a.search(), b.search()), control)
            }
            [a, b] => idastar(&puzzle, &tiles, Max2(a.search(), b.search()), control),
            _ => panic!("one or two partitions"),
        };
        let seconds = t.elapsed().as_secs_f64();
        let path = out.moves.expect("a path");
        assert_eq!(board.replay(&path).unwrap(), goal, "#{i} replays");
        assert_eq!(path.len() as u32, n[25], "#{i} optimal");
        let nodes = out.stats.generated;
        println!(
            "{i}\t{}\t{nodes}\t{}\t{:.3}\t{seconds:.2}",
            path.len(),
            published[i - 1],
            nodes as f64 / published[i - 1] as f64
        );
        all_nodes += nodes;
        all_published += published[i - 1];
        all_seconds += seconds;
    }
    println!(
        "total\t\t{all_nodes}\t{all_published}\t{:.3}\t{all_seconds:.1}",
        all_nodes as f64 / all_published as f64
    );
}

/// The larger of two heuristics; the second is skipped when the first reaches the cut.
#[derive(Clone)]
struct Max2<A, B>(A, B);

impl<A: IncrementalHeuristic, B: IncrementalHeuristic> IncrementalHeuristic for Max2<A, B> {
    type Undo = (A::Undo, Option<B::Undo>);
    const READS_TILES: bool = A::READS_TILES || B::READS_TILES;
    fn init(&mut self, tiles: &[u8]) -> u32 {
        self.0.init(tiles).max(self.1.init(tiles))
    }
    fn apply(
        &mut self,
        t: &[u8],
        h: u32,
        tile: u8,
        f: usize,
        to: usize,
        m: Move,
    ) -> (u32, Self::Undo) {
        self.apply_cut(t, h, tile, f, to, m, u32::MAX)
    }
    #[allow(clippy::too_many_arguments)]
    fn apply_cut(
        &mut self,
        t: &[u8],
        h: u32,
        tile: u8,
        f: usize,
        to: usize,
        m: Move,
        cut: u32,
    ) -> (u32, Self::Undo) {
        let (a, ua) = self.0.apply_cut(t, h, tile, f, to, m, cut);
        if a >= cut {
            return (a, (ua, None));
        }
        let (b, ub) = self.1.apply_cut(t, h, tile, f, to, m, cut);
        (a.max(b), (ua, Some(ub)))
    }
    fn undo(&mut self, (ua, ub): Self::Undo) {
        self.0.undo(ua);
        if let Some(ub) = ub {
            self.1.undo(ub);
        }
    }
    fn prefetch(&self, tile: u8, from: usize, to: usize) {
        self.0.prefetch(tile, from, to);
        self.1.prefetch(tile, from, to);
    }
    fn prefetches(&self) -> bool {
        self.0.prefetches() || self.1.prefetches()
    }
}
