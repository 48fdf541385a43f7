//! Unit tests of pattern databases on small boards, against exhaustive search.

use super::*;
use crate::board::Board;
use crate::goal::GoalSpec;
use crate::heuristic::{Heuristic, IncrementalHeuristic, Tables};
use crate::moves::Move;
use crate::puzzle::Puzzle;

fn puzzle(goal: &GoalSpec, shape: &str) -> Puzzle {
    Puzzle::new(&goal.board(shape.parse().unwrap()).unwrap()).unwrap()
}

/// Every state of a small board: the PDB never exceeds the exact distance (from the
/// perfect table), is at least Manhattan, and equals it when one pattern holds every tile.
fn check_admissible(shape: &str, goal: &GoalSpec, sizes: &[usize]) -> (u64, u64) {
    let p = puzzle(goal, shape);
    let partition = Partition::new(p.shape, usize::from(p.goal_cell[0]), sizes).unwrap();
    let db = PatternDatabase::from_tables(&p, &partition, &Tables::default()).unwrap();
    let exact = Tables::default().perfect(&p).unwrap();
    let md = crate::heuristic::Manhattan::new(&p);
    let n = p.cells();
    let mut tiles: Vec<u8> = (0..n as u8).collect();
    let (mut sum_h, mut sum_d) = (0u64, 0u64);
    permutations(&mut tiles, 0, &mut |t| {
        if let Some(d) = exact.distance(t) {
            let h = db.value(t);
            assert!(
                h <= d,
                "{shape} {goal} {sizes:?}: h {h} > distance {d} at {t:?}"
            );
            assert!(h >= md.total(t));
            if sizes.len() == 1 {
                assert_eq!(h, d, "a single pattern of every tile is exact");
            }
            sum_h += u64::from(h);
            sum_d += u64::from(d);
        }
    });
    (sum_h, sum_d)
}

fn permutations(v: &mut Vec<u8>, k: usize, f: &mut dyn FnMut(&[u8])) {
    if k == v.len() {
        f(v);
        return;
    }
    for i in k..v.len() {
        v.swap(k, i);
        permutations(v, k + 1, f);
        v.swap(k, i);
    }
}

#[test]
fn never_overestimates_on_3x3_and_2x4() {
    for goal in GoalSpec::NAMED {
        for sizes in [&[4, 4][..], &[3, 3, 2], &[2, 2, 2, 2], &[5, 3], &[8]] {
            check_admissible("3x3", &goal, sizes);
        }
        for sizes in [&[4, 3][..], &[3, 2, 2], &[1, 6], &[7]] {
            check_admissible("2x4", &goal, sizes);
        }
    }
}

#[test]
fn larger_patterns_are_stronger() {
    let g = GoalSpec::Standard;
    let (small, _) = check_admissible("3x3", &g, &[2, 2, 2, 2]);
    let (mid, _) = check_admissible("3x3", &g, &[4, 4]);
    let (exact, total) = check_admissible("3x3", &g, &[8]);
    assert!(small < mid && mid < exact && exact == total);
}

#[test]
fn incremental_values_match_fresh_ones_along_random_walks() {
    use rand::Rng;
    let mut rng = crate::generate::rng(7);
    for (shape, goal, sizes) in [
        ("4x4", GoalSpec::BlankFirst, vec![6, 6, 3]),
        ("4x4", GoalSpec::Standard, vec![5, 5, 5]),
        ("4x4", GoalSpec::Spiral, vec![6, 6, 3]),
        ("3x4", GoalSpec::Standard, vec![6, 5]),
        ("4x3", GoalSpec::Spiral, vec![4, 4, 3]),
        ("6x6", GoalSpec::Standard, [vec![4; 8], vec![3]].concat()),
        ("7x5", GoalSpec::BlankFirst, [vec![3; 11], vec![1]].concat()),
        ("8x8", GoalSpec::BlankFirst, vec![3; 21]),
    ] {
        let p = puzzle(&goal, shape);
        let partition = Partition::new(p.shape, usize::from(p.goal_cell[0]), &sizes).unwrap();
        let db = PatternDatabase::from_tables(&p, &partition, &Tables::default()).unwrap();
        let start = crate::generate::random_solvable(&p.goal_board(), &mut rng);
        let mut tiles = p.encode(&start);
        let mut search = db.search();
        let mut h = search.init(&tiles);
        let mut undo_stack = Vec::new();
        for step in 0..2000 {
            let blank = tiles.iter().position(|&t| t == 0).unwrap();
            let m = Move::ALL[rng.random_range(0..4)];
            let to = p.neighbours[blank][m.index()];
            if to == crate::puzzle::NO_CELL {
                continue;
            }
            let to = usize::from(to);
            let tile = tiles[to];
            tiles.swap(blank, to);
            let (h2, undo) = search.apply(&tiles, h, tile, to, blank, m);
            assert_eq!(h2, db.value(&tiles), "{shape} step {step}");
            assert_eq!(f64::from(h2), db.estimate(&tiles));
            undo_stack.push((h, undo, blank, to));
            h = h2;
            if step % 7 == 6 {
                // Back out a few moves and check the restored value.
                for _ in 0..3 {
                    let (h_before, undo, blank, to) = undo_stack.pop().unwrap();
                    search.undo(undo);
                    tiles.swap(blank, to);
                    h = h_before;
                    assert_eq!(h, db.value(&tiles));
                }
                // The walk goes on from the restored state, so later steps check the undo.
            }
        }
    }
}

/// On boards too large for a breadth-first search, a table's value never exceeds the length
/// of a path known to reach the goal: the random walk from the goal that made the state.
#[test]
fn big_board_values_never_exceed_a_known_path() {
    let mut rng = crate::generate::rng(11);
    for (shape, sizes) in [
        ("6x6", [vec![4; 8], vec![3]].concat()),
        ("8x8", [vec![4; 15], vec![3]].concat()),
    ] {
        let p = puzzle(&GoalSpec::Standard, shape);
        let partition = Partition::new(p.shape, usize::from(p.goal_cell[0]), &sizes).unwrap();
        let db = PatternDatabase::from_tables(&p, &partition, &Tables::default()).unwrap();
        let goal = p.goal_board();
        let mut positive = 0;
        for walk in 0..300 {
            let moves = 1 + walk % 80;
            let start = crate::generate::random_walk(&goal, moves, &mut rng);
            let h = db.value(&p.encode(&start));
            assert!(h as usize <= moves, "{shape}: {h} > {moves} for {start}");
            positive += usize::from(h > 0);
        }
        assert!(positive > 250, "{shape}: only {positive} nonzero values");
    }
}

#[test]
fn reflection_is_used_where_the_goal_allows_it() {
    let p = puzzle(&GoalSpec::BlankFirst, "4x4");
    let partition = Partition::new(p.shape, 0, &[6, 6, 3]).unwrap();
    let db = PatternDatabase::from_tables(&p, &partition, &Tables::default()).unwrap();
    assert!(db.reflected());
    let p = puzzle(&GoalSpec::Spiral, "4x4");
    let partition = Partition::new(p.shape, usize::from(p.goal_cell[0]), &[6, 6, 3]).unwrap();
    let db = PatternDatabase::from_tables(&p, &partition, &Tables::default()).unwrap();
    assert!(
        !db.reflected(),
        "the spiral goal's blank is off the diagonal"
    );
}

#[test]
fn goal_state_is_zero() {
    for goal in GoalSpec::NAMED {
        let p = puzzle(&goal, "4x4");
        let partition = PartitionSpec::Sizes(vec![6, 6, 3]).partition(&p).unwrap();
        let db = PatternDatabase::from_tables(&p, &partition, &Tables::default()).unwrap();
        assert_eq!(db.value(&p.goal), 0);
        let b = Board::new(p.shape, p.goal.iter().map(|&t| u32::from(t)).collect()).unwrap();
        assert_eq!(db.value(&p.encode(&b)), 0);
    }
}

/// The Manhattan distance of pattern tiles on cells `pos` from their goal cells `cells`.
fn manhattan(shape: crate::shape::Shape, pos: &[u8], cells: &[u8]) -> u32 {
    pos.iter()
        .zip(cells)
        .map(|(&c, &g)| {
            let (r, col) = shape.coords(usize::from(c));
            let (gr, gc) = shape.coords(usize::from(g));
            (r.abs_diff(gr) + col.abs_diff(gc)) as u32
        })
        .sum()
}

/// The table index of the placement with pattern tile `q` on cell `pos[q]` (the first
/// half of a table that keeps the blank's region).
fn placement_index(combos: &index::Combinations, pos: &[u8]) -> usize {
    let mask = pos.iter().fold(0u64, |m, &c| m | 1 << c);
    let mut by_cell: Vec<(u8, u8)> = pos.iter().enumerate().map(|(q, &c)| (c, q as u8)).collect();
    by_cell.sort_unstable();
    let arr: Vec<u8> = by_cell.iter().map(|e| e.1).collect();
    index::entry_index(combos.rank(mask), index::rank(&arr), combos.count())
}

/// Pattern distances by a plain 0-1 breadth-first search over (tile cells, blank cell),
/// sharing nothing with the builder: blank moves into empty cells cost 0, moves of a
/// pattern tile cost 1. Returns the minimum over blank cells for each placement.
fn naive_distances(key: &TableKey) -> std::collections::HashMap<Vec<u8>, u32> {
    let mut best: std::collections::HashMap<Vec<u8>, u32> = Default::default();
    for ((pos, _), d) in naive_state_distances(key) {
        let e = best.entry(pos).or_insert(d);
        *e = (*e).min(d);
    }
    best
}

/// The distance of every (tile cells, blank cell) state, as [`naive_distances`] searches.
fn naive_state_distances(key: &TableKey) -> std::collections::HashMap<(Vec<u8>, u8), u32> {
    use std::collections::{HashMap, VecDeque};
    let (shape, cells) = (key.shape, &key.cells);
    let mut dist: HashMap<(Vec<u8>, u8), u32> = HashMap::new();
    dist.insert((cells.to_vec(), key.blank), 0);
    let mut queue = VecDeque::from([(cells.to_vec(), key.blank)]);
    while let Some((pos, blank)) = queue.pop_front() {
        let d = dist[&(pos.clone(), blank)];
        for m in Move::ALL {
            let Some(to) = crate::board::neighbour(shape, usize::from(blank), m) else {
                continue;
            };
            let mut next = pos.clone();
            let cost = match next.iter().position(|&c| usize::from(c) == to) {
                Some(q) => {
                    next[q] = blank;
                    1
                }
                None => 0,
            };
            let key = (next, to as u8);
            if dist.get(&key).is_none_or(|&old| old > d + cost) {
                dist.insert(key.clone(), d + cost);
                if cost == 0 {
                    queue.push_front(key);
                } else {
                    queue.push_back(key);
                }
            }
        }
    }
    dist
}

/// A table that keeps the blank's region holds, for every placement, the least distance
/// with the blank in a pocket and the least with it elsewhere: against the plain search
/// above, on shapes with corners and edges walled off, up to five regions at once (3×3
/// with the four edge cells taken), and cells past 31.
#[test]
fn region_tables_hold_the_distance_from_the_blanks_region() {
    use super::pockets::{Cells, POCKET_CELLS};
    let mut raised = 0;
    for (shape, cells, blank) in [
        ("3x3", vec![1u8, 2, 5, 8], 0),
        ("3x3", vec![1u8, 3, 5, 7], 0),
        ("3x3", vec![1u8, 3, 5, 7], 8),
        ("4x4", vec![1u8, 4, 5], 0),
        ("2x4", vec![1u8, 2, 5, 6], 0),
        ("3x4", vec![1u8, 4, 6, 9], 0),
        ("6x6", vec![33u8, 34], 0),
    ] {
        let shape: crate::shape::Shape = shape.parse().unwrap();
        let key = TableKey {
            shape,
            cells: cells.clone(),
            blank,
            regions: true,
        };
        let table = build::build(&key, &mut super::keep_going).unwrap();
        assert_eq!(table.entries(), key.entries());
        let naive = naive_state_distances(&key);
        let (n, k) = (shape.cells(), cells.len());
        let combos = index::Combinations::new(n, k);
        let board = Cells::new(shape);
        let placements = combos.count() * index::factorial(k);
        let mut by_pos: std::collections::HashMap<&[u8], Vec<(u8, u32)>> = Default::default();
        for ((pos, b), &d) in &naive {
            by_pos.entry(pos).or_default().push((*b, d));
        }
        let mut pockets = 0;
        for (pos, b) in naive.keys() {
            let mask = pos.iter().fold(0u64, |m, &c| m | 1 << c);
            // The blank's region, grown by hand: a pocket has at most POCKET_CELLS cells.
            let mut region = 1u64 << b;
            loop {
                let grown = (0..n)
                    .filter(|&c| mask >> c & 1 == 0 && region >> c & 1 == 0)
                    .filter(|&c| {
                        Move::ALL.iter().any(|&m| {
                            crate::board::neighbour(shape, c, m)
                                .is_some_and(|d| region >> d & 1 == 1)
                        })
                    })
                    .fold(region, |r, c| r | 1 << c);
                if grown == region {
                    break;
                }
                region = grown;
            }
            let in_pocket = region.count_ones() <= POCKET_CELLS;
            assert_eq!(
                board.in_pocket(mask, usize::from(*b)),
                in_pocket,
                "{shape} {pos:?} {b}"
            );
            pockets += usize::from(in_pocket);
            let i = placement_index(&combos, pos) + usize::from(in_pocket) * placements;
            let here = &by_pos[&pos[..]];
            let d = here
                .iter()
                .filter(|&&(c, _)| board.in_pocket(mask, usize::from(c)) == in_pocket)
                .map(|&(_, d)| d)
                .min()
                .unwrap();
            let least = here.iter().map(|&(_, d)| d).min().unwrap();
            let md = manhattan(shape, pos, &cells);
            assert_eq!(
                md + 2 * table.entry(i),
                d.min(md + 30),
                "{shape} {cells:?} at {pos:?}, blank {b}"
            );
            raised += usize::from(d > least);
        }
        assert!(pockets > 0 || n > 30, "{shape} {cells:?}: no pocket");
    }
    assert!(raised > 100, "{raised} states raised");
}

#[test]
fn tables_hold_exact_pattern_distances() {
    for (shape, cells, blank) in [
        ("3x3", vec![1u8, 2, 5, 8], 0),
        ("3x3", vec![1u8, 3, 4, 5], 0),
        ("4x4", vec![0u8, 5, 10], 15),
        ("4x4", vec![1u8, 4, 5], 0),
        ("4x4", vec![4u8, 5, 8, 9], 0),
        ("2x4", vec![0u8, 1, 2, 3, 4], 7),
        ("2x4", vec![1u8, 4, 5], 0),
        ("3x4", vec![3u8, 7, 11], 0),
        // Cells past 31: occupancy masks are u64.
        ("6x6", vec![33u8, 34], 0),
        ("8x8", vec![31u8, 62, 63], 0),
    ] {
        let shape: crate::shape::Shape = shape.parse().unwrap();
        let key = TableKey {
            shape,
            cells: cells.clone(),
            blank,
            regions: false,
        };
        let table = build::build(&key, &mut super::keep_going).unwrap();
        let naive = naive_distances(&key);
        let n = shape.cells();
        let k = cells.len();
        let combos = index::Combinations::new(n, k);
        assert_eq!(naive.len() as u64, table.entries());
        let mut checked = 0;
        for (pos, &d) in &naive {
            let i = placement_index(&combos, pos);
            let md = manhattan(shape, pos, &cells);
            assert_eq!(
                md + 2 * table.entry(i),
                d.min(md + 30),
                "{shape} {cells:?} at {pos:?}"
            );
            checked += 1;
        }
        assert!(checked > 100);
    }
}

/// `build_size` knows before a build what its progress will count, and its memory estimate
/// covers the table it makes.
#[test]
fn build_size_is_known_before_the_build() {
    for (shape, cells, blank) in [
        ("4x4", vec![1u8, 2, 3, 4, 5, 6], 0),
        ("3x4", vec![2u8, 3, 7, 11], 0),
        ("5x5", vec![1u8, 2, 5], 0),
    ] {
        let key = TableKey {
            shape: shape.parse().unwrap(),
            cells,
            blank,
            regions: false,
        };
        let size = build::build_size(&key);
        let (mut total, mut last) = (None, 0);
        let table = build::build(&key, &mut |p| {
            // The work done only grows, and never past the total.
            assert!(last <= p.expanded && p.expanded <= p.total, "{shape}");
            (total, last) = (Some(p.total), p.expanded);
            std::ops::ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(Some(size.work), total, "{shape}");
        assert_eq!(size.entries, table.entries(), "{shape}");
        assert!(size.peak_bytes > size.entries + table.bytes() as u64);
    }
}

/// A build reports (and may be stopped) while it sets its search up, before the search:
/// on 4×4's 8-tile table the fill of its distances alone is a quarter of a second, and on
/// 5×5's 6-tile tables the regions and moves a tenth, which a shorter time limit overran.
/// Here a 7-tile table, 57.7 MB of distances.
#[test]
fn a_build_can_be_stopped_while_it_fills_its_distances() {
    let key = TableKey {
        shape: "4x4".parse().unwrap(),
        cells: vec![1, 2, 3, 4, 5, 6, 7],
        blank: 0,
        regions: false,
    };
    let distance_bytes = build::build_size(&key).entries;
    let mut before_search = 0u64;
    let stopped = build::build(&key, &mut |p| {
        if p.expanded > 0 {
            return std::ops::ControlFlow::Break(());
        }
        before_search += 1;
        std::ops::ControlFlow::Continue(())
    });
    assert!(stopped.is_err());
    // One after each of the three steps that set the search up (and more while it finds
    // the regions), then one a chunk of the fill.
    assert!(
        before_search >= 3 + distance_bytes.div_ceil(1 << 24),
        "{before_search} reports before the search, for {distance_bytes} bytes"
    );
    // And one that stops at the first report stops there.
    let mut reports = 0;
    let stopped = build::build(&key, &mut |_| {
        reports += 1;
        std::ops::ControlFlow::Break(())
    });
    assert!(stopped.is_err());
    assert_eq!(reports, 1);
}

/// The 24-puzzle's tables (Korf & Felner's 6-6-6-6, and the 7-tile and 5-tile tables of
/// 7-7-5-5), each checked on a million random entries against its neighbours (an entry
/// differs from a neighbour's by at most one move, and is one more than some neighbour's).
/// Builds about 2.7 GB of tables (a few minutes):
/// `cargo test --release -p npuzzle --lib large_5x5 -- --ignored`.
#[test]
#[ignore]
fn large_5x5_tables_are_consistent_on_a_million_samples() {
    let shape: crate::shape::Shape = "5x5".parse().unwrap();
    for sizes in [&[6usize, 6, 6, 6][..], &[7, 7, 5, 5]] {
        let partition = Partition::new(shape, 0, sizes).unwrap();
        for key in partition.keys() {
            let table = build::build(&key, &mut super::keep_going).unwrap();
            verify::sample(&table, 1_000_000, 2026).unwrap_or_else(|e| panic!("{key:?}: {e}"));
            verify::near_goal(&table, verify::NEAR_GOAL).unwrap();
        }
    }
}

/// `--optimal`'s tables on 5×5, `6-6-6-6` keeping the blank's region, each checked on a
/// million random entries against the states one move away (an entry is at most one move
/// above any of theirs, and one more than some), and near the goal. Builds 510 MB of tables
/// (about a minute): `cargo test --release -p npuzzle --lib region_5x5 -- --ignored`.
#[test]
#[ignore]
fn region_5x5_tables_are_consistent_on_a_million_samples() {
    let shape: crate::shape::Shape = "5x5".parse().unwrap();
    let partition = Partition::new(shape, 0, &[6, 6, 6, 6])
        .and_then(|p| p.with_regions(true))
        .unwrap();
    for key in partition.keys() {
        assert!(key.regions);
        let table = build::build(&key, &mut super::keep_going).unwrap();
        verify::sample(&table, 1_000_000, 2026).unwrap_or_else(|e| panic!("{key:?}: {e}"));
        verify::near_goal(&table, verify::NEAR_GOAL).unwrap();
    }
}

/// Tables of boards over 32 cells, each checked against its neighbours on random entries
/// and near the goal: `auto`'s 4-tile tables of 6×6 (a hundred thousand entries each, in
/// the default run).
#[test]
fn big_board_tables_are_consistent() {
    let shape: crate::shape::Shape = "6x6".parse().unwrap();
    let partition = Partition::new(shape, 35, &[[4; 8].as_slice(), &[3]].concat()).unwrap();
    for key in partition.keys() {
        let table = build::build(&key, &mut super::keep_going).unwrap();
        verify::sample(&table, 100_000, 2026).unwrap_or_else(|e| panic!("{key:?}: {e}"));
        verify::near_goal(&table, verify::NEAR_GOAL).unwrap();
    }
}

/// The cached tables of 6×6 (`5-5-5-5-5-5-5`) and 7×7 (twelve 4-tile patterns), a million
/// random entries each (about a minute):
/// `cargo test --release -p npuzzle --lib big_board_cached -- --ignored`.
#[test]
#[ignore]
fn big_board_cached_tables_are_consistent_on_a_million_samples() {
    for (shape, sizes) in [("6x6", vec![5; 7]), ("7x7", vec![4; 12])] {
        let shape: crate::shape::Shape = shape.parse().unwrap();
        let partition = Partition::new(shape, shape.cells() - 1, &sizes).unwrap();
        for key in partition.keys() {
            let table = build::build(&key, &mut super::keep_going).unwrap();
            verify::sample(&table, 1_000_000, 2026).unwrap_or_else(|e| panic!("{key:?}: {e}"));
            verify::near_goal(&table, verify::NEAR_GOAL).unwrap();
        }
    }
}
