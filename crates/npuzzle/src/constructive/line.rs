//! Filling a row or a column by search instead of by pushes.
//!
//! The search state is where the line's own tiles are, and the blank: every other tile of
//! the region is a "don't care", so a state stands for every board that agrees on those
//! cells, and each of its moves is a real move on the board. Weighted A* over these states
//! finds shorter fills than the staircase pushes of `place.rs` (`reduce`'s tests check it
//! board by board), and stays small: a line has at most [`MAX_LINE_TILES`] tiles.
//!
//! The guide is the sum of the line tiles' Manhattan distances plus the blank's distance to
//! the nearest misplaced one (less one). The blank term is not admissible (a blank move
//! that brings it closer may also move a line tile home), which a weighted search does
//! not need.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use super::grid::Grid;
use super::Until;
use crate::board::neighbour;
use crate::moves::Move;
use crate::shape::Shape;

/// Most tiles in a searched line: the key holds the blank and the tiles, a byte each.
pub(crate) const MAX_LINE_TILES: usize = 15;

/// Most cells of a board whose lines are searched: cells are bytes in the key, and
/// `u8::MAX` marks a missing neighbour.
pub(crate) const MAX_SEARCHED_CELLS: usize = 255;

/// Bytes a stored state of a line search may take at most: the node (32), its entry in
/// the hash map with the map's slack (up to 64) and in the open list (16), rounded up.
pub const LINE_STATE_BYTES: u64 = 128;

/// How a line is searched: the weight of weighted A* for the whole line (the halves are
/// searched at two thirds of it and at it; a search that gives up is tried again at twice
/// and four times its weight), and the most states each search may store before it gives
/// up (when every try has, the caller pushes the tiles home instead).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LineSearch {
    /// `f = g + weight × h`.
    pub weight: f64,
    /// States stored at most.
    pub states: usize,
}

/// A stored state: its key, how it was reached, and in how many moves.
struct Node {
    key: u128,
    parent: u32,
    g: u32,
    mv: Move,
}

/// Fills row `top` (when `row`) or column `left` of the region of rows `top..` and columns
/// `left..`, every tile outside the region being home and never moved. Returns whether a
/// search placed the line within its budget and before `until`; then the shortest fill
/// found is made on `g`, otherwise `g` is unchanged.
pub(super) fn fill(
    g: &mut Grid,
    top: usize,
    left: usize,
    row: bool,
    search: LineSearch,
    until: Until<'_>,
) -> bool {
    let cols = g.cols;
    let cells: Vec<usize> = if row {
        (left..g.cols).map(|c| top * cols + c).collect()
    } else {
        (top..g.rows).map(|r| r * cols + left).collect()
    };
    if cells.len() > MAX_LINE_TILES || g.tiles.len() > MAX_SEARCHED_CELLS {
        return false;
    }
    // A portfolio: the line in two halves (the first half's tiles, then all) at two
    // weights, and the whole line at the first weight; the shortest fill is kept. Which
    // wins varies from line to line by a quarter of the moves or more. The halves come
    // first: they take milliseconds, the whole line up to a second.
    let half = cells.len().div_ceil(2);
    let plans: [(&[usize], f64); 3] = [
        (&[half, cells.len()], search.weight * 2.0 / 3.0),
        (&[half, cells.len()], search.weight),
        (&[cells.len()], search.weight),
    ];
    let mut best: Option<Grid> = None;
    for (parts, weight) in plans {
        if parts.len() > 1 && half < 3 {
            continue;
        }
        let mut trial = g.clone();
        let placed = parts.iter().all(|&part| {
            let lines = Lines::new(&trial, top, left, &cells[..part]);
            // A weight too small for the budget gives up; twice the weight seldom does.
            let found = (0..WEIGHT_DOUBLINGS).find_map(|i| {
                let search = LineSearch {
                    weight: weight * f64::from(1 << i),
                    ..search
                };
                lines.search(search, until)
            });
            found
                .map(|moves| moves.into_iter().for_each(|m| trial.step(m)))
                .is_some()
        });
        if placed
            && best
                .as_ref()
                .is_none_or(|b| trial.moves.len() < b.moves.len())
        {
            best = Some(trial);
        }
    }
    match best {
        Some(best) => {
            *g = best;
            true
        }
        None => false,
    }
}

/// How many weights a line tries, each twice the one before.
const WEIGHT_DOUBLINGS: u32 = 3;

/// One line's search problem.
struct Lines {
    cols: usize,
    /// Goal cell of the line's `i`-th tile.
    home: Vec<u8>,
    /// The blank's neighbours inside the region, by move (`u8::MAX`: none).
    next: Vec<[u8; 4]>,
    start: u128,
}

impl Lines {
    fn new(g: &Grid, top: usize, left: usize, cells: &[usize]) -> Lines {
        let (rows, cols) = (g.rows, g.cols);
        let inside = |cell: usize| cell / cols >= top && cell % cols >= left;
        let shape = Shape::new(rows, cols).expect("the grid's own shape");
        let next = (0..g.tiles.len())
            .map(|b| {
                Move::ALL.map(|m| {
                    neighbour(shape, b, m)
                        .filter(|&t| inside(t))
                        .map_or(u8::MAX, |t| t as u8)
                })
            })
            .collect();
        let mut start = u128::from(g.blank() as u8);
        for (i, &cell) in cells.iter().enumerate() {
            let tile = g.goal_tile[cell] as usize;
            start |= u128::from(g.pos[tile] as u8) << (8 * (i + 1));
        }
        Lines {
            cols,
            home: cells.iter().map(|&c| c as u8).collect(),
            next,
            start,
        }
    }

    fn distance(&self, a: u8, b: u8) -> u32 {
        let (a, b) = (usize::from(a), usize::from(b));
        ((a / self.cols).abs_diff(b / self.cols) + (a % self.cols).abs_diff(b % self.cols)) as u32
    }

    /// The guide: the tiles' Manhattan distances and the blank's way to the nearest
    /// misplaced tile. Zero exactly when every tile is home.
    fn guide(&self, key: u128) -> u32 {
        let blank = key as u8;
        let mut sum = 0;
        let mut nearest = u32::MAX;
        for (i, &home) in self.home.iter().enumerate() {
            let at = (key >> (8 * (i + 1))) as u8;
            if at != home {
                sum += self.distance(at, home);
                nearest = nearest.min(self.distance(blank, at));
            }
        }
        if nearest == u32::MAX {
            0
        } else {
            sum + nearest - 1
        }
    }

    /// The state after the blank moves to `to`: a line tile there moves to the blank's cell.
    fn after(&self, key: u128, to: u8) -> u128 {
        let blank = key as u8;
        let mut out = (key & !0xFF) | u128::from(to);
        for i in 1..=self.home.len() {
            if (key >> (8 * i)) as u8 == to {
                out = (out & !(0xFF << (8 * i))) | u128::from(blank) << (8 * i);
                break;
            }
        }
        out
    }

    /// The moves that bring every line tile home, or `None` when the search stores
    /// `search.states` states first or `until` passes.
    fn search(&self, search: LineSearch, until: Until<'_>) -> Option<Vec<Move>> {
        let scale = (search.weight * 16.0).round() as u64;
        let priority = |g: u32, h: u32| 16 * u64::from(g) + scale * u64::from(h);
        let mut nodes = vec![Node {
            key: self.start,
            parent: u32::MAX,
            g: 0,
            mv: Move::Up,
        }];
        if self.guide(self.start) == 0 {
            return Some(Vec::new());
        }
        let mut best: FxHashMap<u128, u32> = FxHashMap::default();
        best.insert(self.start, 0);
        // Smallest priority first, then the deepest.
        let mut open = BinaryHeap::new();
        open.push((Reverse(priority(0, self.guide(self.start))), 0u32, 0u32));
        let mut pops = 0u32;
        while let Some((_, g, index)) = open.pop() {
            pops = pops.wrapping_add(1);
            if pops.is_multiple_of(4096) && until.passed() {
                return None;
            }
            let key = nodes[index as usize].key;
            if best.get(&key).is_some_and(|&b| b < g) {
                continue;
            }
            for (m, &to) in Move::ALL.iter().zip(&self.next[(key as u8) as usize]) {
                if to == u8::MAX {
                    continue;
                }
                let child = self.after(key, to);
                if best.get(&child).is_some_and(|&b| b <= g + 1) {
                    continue;
                }
                best.insert(child, g + 1);
                nodes.push(Node {
                    key: child,
                    parent: index,
                    g: g + 1,
                    mv: *m,
                });
                let h = self.guide(child);
                let at = (nodes.len() - 1) as u32;
                if h == 0 {
                    return Some(path(&nodes, at));
                }
                if nodes.len() >= search.states {
                    return None;
                }
                open.push((Reverse(priority(g + 1, h)), g + 1, at));
            }
        }
        None
    }
}

/// The moves from the first node to node `at`.
fn path(nodes: &[Node], mut at: u32) -> Vec<Move> {
    let mut moves = Vec::with_capacity(nodes[at as usize].g as usize);
    while nodes[at as usize].parent != u32::MAX {
        moves.push(nodes[at as usize].mv);
        at = nodes[at as usize].parent;
    }
    moves.reverse();
    moves
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;
    use crate::goal::GoalSpec;
    use crate::shape::Shape;

    /// Row 0, then column 0 below it, of random 6×7 boards: each fill puts its tiles home
    /// without moving a tile outside its region (row 0 stays home while column 0 is
    /// filled), and a budget of one state gives up leaving the board as it was.
    #[test]
    fn fills_keep_the_placed_tiles_and_a_tiny_budget_changes_nothing() {
        let goal = GoalSpec::Standard.board(Shape::new(6, 7).unwrap()).unwrap();
        let mut rng = generate::rng(11);
        let search = LineSearch {
            weight: 3.0,
            states: 3_000_000,
        };
        for _ in 0..5 {
            let start = generate::random_solvable(&goal, &mut rng);
            let mut g = Grid::new(&start, goal.tiles().to_vec());
            let home =
                |g: &Grid, cells: &[usize]| cells.iter().all(|&c| g.tiles[c] == g.goal_tile[c]);
            let row0: Vec<usize> = (0..7).collect();
            let col0: Vec<usize> = (1..6).map(|r| r * 7).collect();
            let tiny = LineSearch {
                states: 1,
                ..search
            };
            let before = g.tiles.clone();
            if !fill(&mut g, 0, 0, true, tiny, Until::default()) {
                assert_eq!(g.tiles, before, "a search that gave up moved tiles");
            }
            assert!(fill(&mut g, 0, 0, true, search, Until::default()));
            assert!(home(&g, &row0));
            assert!(fill(&mut g, 1, 0, false, search, Until::default()));
            assert!(home(&g, &row0), "row 0 was disturbed");
            assert!(home(&g, &col0));
            // The moves recorded replay to the board the grid holds.
            let after = start.replay(&g.moves).unwrap();
            assert_eq!(after.tiles(), &g.tiles[..]);
        }
    }
}
