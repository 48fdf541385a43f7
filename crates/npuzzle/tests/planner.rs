//! Plain `solve` (auto) on every 12-cell shape answers optimally and fast, checked against
//! an exhaustive breadth-first search of each shape written here; and auto always ends on
//! larger small boards.
//!
//! The default run checks a stored sample (`data/twelve-cells.txt`: random boards and the
//! hardest boards of each shape, with their distances from the search below). The slow test
//! `twelve_cell_shapes_exhaustively` runs the search itself (about 480 MB and a minute or
//! two per shape) and checks the sample and more; with `NPUZZLE_WRITE_SAMPLE=FILE` it also
//! writes the sample file anew.

mod common;

use std::time::{Duration, Instant};

use npuzzle::plan::PhaseKind;
use npuzzle::search::Control;
use npuzzle::{generate, solve, Board, GoalSpec, Shape, SolveOptions};

const SHAPES: [&str; 4] = ["3x4", "4x3", "2x6", "6x2"];

/// Lehmer rank of a permutation of `0..n` (n ≤ 12): its index among all n! permutations.
fn rank(tiles: &[u8]) -> usize {
    let n = tiles.len();
    let mut r = 0usize;
    let mut used = 0u16;
    for (i, &t) in tiles.iter().enumerate() {
        let below = (1u16 << t) - 1;
        let smaller_unused = (below & !used).count_ones() as usize;
        r = r * (n - i) + smaller_unused;
        used |= 1 << t;
    }
    r
}

fn unrank(mut r: usize, n: usize, out: &mut [u8]) {
    let mut digits = [0usize; 16];
    for i in (0..n).rev() {
        let base = n - i;
        digits[i] = r % base;
        r /= base;
    }
    let mut free: u16 = (1 << n) - 1;
    for i in 0..n {
        // The digits[i]-th unused value.
        let mut f = free;
        for _ in 0..digits[i] {
            f &= f - 1;
        }
        let t = f.trailing_zeros() as u8;
        out[i] = t;
        free &= !(1 << t);
    }
}

/// Distance of every state to `goal` by breadth-first search over permutation ranks
/// (`u8::MAX`: the other parity class).
fn exhaustive(goal: &Board) -> Vec<u8> {
    let shape = goal.shape();
    let (rows, cols) = (shape.rows(), shape.cols());
    let n = shape.cells();
    let total: usize = (1..=n).product();
    let mut dist = vec![u8::MAX; total];
    let g: Vec<u8> = goal.tiles().iter().map(|&t| t as u8).collect();
    dist[rank(&g)] = 0;
    let mut frontier = vec![rank(&g) as u32];
    let mut tiles = vec![0u8; n];
    let mut depth = 0u8;
    while !frontier.is_empty() {
        depth += 1;
        let mut next = Vec::new();
        for &r in &frontier {
            unrank(r as usize, n, &mut tiles);
            let b = tiles.iter().position(|&t| t == 0).unwrap();
            let (br, bc) = (b / cols, b % cols);
            let mut step = |to: usize, tiles: &mut Vec<u8>| {
                tiles.swap(b, to);
                let s = rank(tiles);
                if dist[s] == u8::MAX {
                    dist[s] = depth;
                    next.push(s as u32);
                }
                tiles.swap(b, to);
            };
            if br > 0 {
                step(b - cols, &mut tiles);
            }
            if br + 1 < rows {
                step(b + cols, &mut tiles);
            }
            if bc > 0 {
                step(b - 1, &mut tiles);
            }
            if bc + 1 < cols {
                step(b + 1, &mut tiles);
            }
        }
        frontier = next;
    }
    dist
}

/// One stored board: shape, tiles and its distance to the standard goal.
struct Sample {
    shape: Shape,
    board: Board,
    distance: usize,
}

fn stored_sample() -> Vec<Sample> {
    let path = format!("{}/../../data/twelve-cells.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|line| {
            let mut words = line.split_whitespace();
            let shape: Shape = words.next().unwrap().parse().unwrap();
            let nums: Vec<u32> = words.map(|w| w.parse().unwrap()).collect();
            let (tiles, d) = nums.split_at(shape.cells());
            Sample {
                shape,
                board: Board::new(shape, tiles.to_vec()).unwrap(),
                distance: d[0] as usize,
            }
        })
        .collect()
}

/// Solves with plain auto and checks: optimal, the stored length, replays, in time.
fn check_auto(sample: &Sample) {
    let goal = GoalSpec::Standard.board(sample.shape).unwrap();
    let began = Instant::now();
    let s = solve(
        &sample.board,
        &goal,
        &SolveOptions::default(),
        common::tables(),
        Control::default(),
    )
    .unwrap();
    let took = began.elapsed();
    let moves = s.moves.as_ref().expect("auto always ends");
    assert!(s.optimal, "{} {}: not optimal", sample.shape, sample.board);
    assert_eq!(s.phase, PhaseKind::Anytime);
    assert_eq!(
        moves.len(),
        sample.distance,
        "{} {}",
        sample.shape,
        sample.board
    );
    common::assert_replays(&sample.board, moves, &goal);
    // Generous for a shared machine: the figure asked for is 2 s, tables included.
    assert!(took < Duration::from_secs(10), "{}: {took:?}", sample.shape);
}

#[test]
fn twelve_cell_shapes_answer_optimally_on_the_stored_sample() {
    let sample = stored_sample();
    for shape in SHAPES {
        let shape: Shape = shape.parse().unwrap();
        assert!(
            sample.iter().filter(|s| s.shape == shape).count() >= 10,
            "{shape}: sample too small"
        );
    }
    for s in &sample {
        check_auto(s);
    }
}

#[test]
fn auto_ends_on_every_small_shape_and_what_it_calls_optimal_is() {
    // Optimal lengths from IDA* with linear conflict (an independent admissible search) on
    // boards a short walk from the goal, where it is quick.
    for shape in ["2x7", "7x2", "2x8", "3x5", "5x3", "4x5", "5x4", "3x6"] {
        let shape: Shape = shape.parse().unwrap();
        let goal = GoalSpec::Standard.board(shape).unwrap();
        let mut rng = generate::rng(3);
        let start = generate::random_walk(&goal, 40, &mut rng);
        let s = solve(
            &start,
            &goal,
            &SolveOptions::default(),
            common::tables(),
            Control::default(),
        )
        .unwrap();
        let moves = s.moves.as_ref().expect("auto always ends");
        common::assert_replays(&start, moves, &goal);
        let reference = npuzzle::solve(
            &start,
            &goal,
            &SolveOptions {
                algorithm: npuzzle::Algorithm::IdaStar,
                heuristic: Some(npuzzle::HeuristicSpec::LinearConflict),
                ..SolveOptions::default()
            },
            common::tables(),
            Control::default(),
        )
        .unwrap();
        assert!(
            s.optimal,
            "{shape}: a 40-move walk is within the optimal phase"
        );
        assert_eq!(Some(moves.len()), reference.length(), "{shape}");
    }
}

#[test]
#[ignore = "slow: an exhaustive search of each 12-cell shape (about 480 MB, minutes each)"]
fn twelve_cell_shapes_exhaustively() {
    let mut out = String::from(
        "# Boards of each 12-cell shape with their distance to the standard goal, from an\n\
         # exhaustive breadth-first search (crates/npuzzle/tests/planner.rs): 8 random\n\
         # boards and the 4 farthest from the goal per shape. shape, tiles, distance.\n",
    );
    for name in SHAPES {
        let shape: Shape = name.parse().unwrap();
        let goal = GoalSpec::Standard.board(shape).unwrap();
        let dist = exhaustive(&goal);
        let n = shape.cells();
        let far = *dist.iter().filter(|&&d| d != u8::MAX).max().unwrap();
        let mut tiles = vec![0u8; n];
        let board = |tiles: &[u8]| {
            Board::new(shape, tiles.iter().map(|&t| u32::from(t)).collect()).unwrap()
        };
        let mut picked: Vec<(Board, usize)> = Vec::new();
        for (r, &d) in dist.iter().enumerate() {
            if d == far && picked.len() < 4 {
                unrank(r, n, &mut tiles);
                picked.push((board(&tiles), d as usize));
            }
        }
        let mut rng = generate::rng(12);
        for _ in 0..8 {
            let b = generate::random_solvable(&goal, &mut rng);
            let t: Vec<u8> = b.tiles().iter().map(|&t| t as u8).collect();
            picked.push((b, dist[rank(&t)] as usize));
        }
        for (b, d) in picked {
            let line: Vec<String> = b.tiles().iter().map(u32::to_string).collect();
            out += &format!("{name} {} {d}\n", line.join(" "));
            check_auto(&Sample {
                shape,
                board: b,
                distance: d,
            });
        }
        // The stored sample agrees with this search (when there is one to check).
        let stored = std::env::var("NPUZZLE_WRITE_SAMPLE")
            .is_err()
            .then(stored_sample)
            .unwrap_or_default();
        for s in stored.iter().filter(|s| s.shape == shape) {
            let t: Vec<u8> = s.board.tiles().iter().map(|&t| t as u8).collect();
            assert_eq!(dist[rank(&t)] as usize, s.distance, "{shape} {}", s.board);
        }
    }
    if let Ok(path) = std::env::var("NPUZZLE_WRITE_SAMPLE") {
        std::fs::write(path, out).unwrap();
    }
}
