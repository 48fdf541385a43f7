use super::{Heuristic, IncrementalHeuristic, Manhattan};
use crate::moves::Move;
use crate::puzzle::Puzzle;

/// Manhattan distance plus linear conflicts (Hansson, Mayer & Yung 1992; Korf & Taylor 1996).
///
/// In each row, take the tiles whose goal is in that row. If their goal columns are not in
/// increasing order, some must leave the row and come back: at least
/// `k − LIS` of them, where `k` is their number and `LIS` the longest increasing run of goal
/// columns, each costing 2 moves beyond Manhattan. Likewise for columns. Counting 2 per
/// *pair* in conflict instead (a common classroom version) overestimates `3 2 1` and is
/// not admissible; the LIS form is.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    manhattan: Manhattan,
    rows: usize,
    cols: usize,
    /// Goal row and column of each tile; `u8::MAX` for the blank so it never counts.
    goal_row: Vec<u8>,
    goal_col: Vec<u8>,
    /// Current conflict cost of each line: rows first, then columns (IDA* state).
    lines: Vec<u16>,
}

impl LinearConflict {
    /// For a puzzle's goal.
    pub fn new(puzzle: &Puzzle) -> LinearConflict {
        let n = puzzle.cells();
        let shape = puzzle.shape;
        let mut goal_row = vec![u8::MAX; n];
        let mut goal_col = vec![u8::MAX; n];
        for t in 1..n {
            let (r, c) = shape.coords(puzzle.goal_cell[t] as usize);
            goal_row[t] = r as u8;
            goal_col[t] = c as u8;
        }
        LinearConflict {
            manhattan: Manhattan::new(puzzle),
            rows: shape.rows(),
            cols: shape.cols(),
            goal_row,
            goal_col,
            lines: vec![0; shape.rows() + shape.cols()],
        }
    }

    /// Extra moves forced by conflicts in row `r`.
    fn row_cost(&self, tiles: &[u8], r: usize) -> u16 {
        let row = &tiles[r * self.cols..(r + 1) * self.cols];
        let keys = row
            .iter()
            .filter(|&&t| self.goal_row[usize::from(t)] == r as u8)
            .map(|&t| self.goal_col[usize::from(t)]);
        if self.cols <= SHORT_LINE {
            conflict_cost::<SHORT_LINE>(keys)
        } else {
            conflict_cost::<256>(keys)
        }
    }

    /// Extra moves forced by conflicts in column `c`.
    fn col_cost(&self, tiles: &[u8], c: usize) -> u16 {
        let keys = (0..self.rows)
            .map(|r| usize::from(tiles[r * self.cols + c]))
            .filter(|&t| self.goal_col[t] == c as u8)
            .map(|t| self.goal_row[t]);
        if self.rows <= SHORT_LINE {
            conflict_cost::<SHORT_LINE>(keys)
        } else {
            conflict_cost::<256>(keys)
        }
    }

    fn line_cost(&self, tiles: &[u8], line: usize) -> u16 {
        if line < self.rows {
            self.row_cost(tiles, line)
        } else {
            self.col_cost(tiles, line - self.rows)
        }
    }

    /// Total of all conflict costs.
    fn conflicts(&self, tiles: &[u8]) -> u32 {
        (0..self.rows + self.cols)
            .map(|l| u32::from(self.line_cost(tiles, l)))
            .sum()
    }
}

/// Lines up to this long take a small buffer in [`conflict_cost`]: zeroing 256 bytes for
/// each line was most of the cost of a whole-board evaluation on 6×6 and 7×7.
const SHORT_LINE: usize = 16;

/// `2 × (k − LIS)` of a sequence of at most `CAP` goal positions (patience sorting,
/// O(k log k)).
fn conflict_cost<const CAP: usize>(keys: impl Iterator<Item = u8>) -> u16 {
    // Lines are at most 255 long; tails[i] is the smallest tail of an increasing run of i+1.
    let mut tails = [0u8; CAP];
    let mut len = 0usize;
    let mut k = 0u16;
    for key in keys {
        k += 1;
        let pos = tails[..len].partition_point(|&x| x < key);
        tails[pos] = key;
        if pos == len {
            len += 1;
        }
    }
    2 * (k - len as u16)
}

impl Heuristic for LinearConflict {
    fn estimate(&self, tiles: &[u8]) -> f64 {
        f64::from(self.manhattan.total(tiles) + self.conflicts(tiles))
    }
    fn heap_bytes(&self) -> u64 {
        self.manhattan.heap_bytes()
            + (self.goal_row.capacity() + self.goal_col.capacity() + self.lines.capacity() * 2)
                as u64
    }
}

impl IncrementalHeuristic for LinearConflict {
    /// Two lines and their old costs.
    type Undo = [(u16, u16); 2];

    fn init(&mut self, tiles: &[u8]) -> u32 {
        for l in 0..self.lines.len() {
            self.lines[l] = self.line_cost(tiles, l);
        }
        self.manhattan.total(tiles) + self.lines.iter().map(|&c| u32::from(c)).sum::<u32>()
    }

    #[inline]
    fn apply(
        &mut self,
        tiles: &[u8],
        h: u32,
        tile: u8,
        from: usize,
        to: usize,
        m: Move,
    ) -> (u32, Self::Undo) {
        let md = self.manhattan.delta(tile, from, m);
        // A vertical move changes the tile's row: only the two rows' conflicts change (the
        // columns keep their order). A horizontal move changes two columns.
        let (a, b) = match m {
            Move::Up | Move::Down => (from / self.cols, to / self.cols),
            Move::Left | Move::Right => (self.rows + from % self.cols, self.rows + to % self.cols),
        };
        let (old_a, old_b) = (self.lines[a], self.lines[b]);
        let (new_a, new_b) = (self.line_cost(tiles, a), self.line_cost(tiles, b));
        self.lines[a] = new_a;
        self.lines[b] = new_b;
        let h = i64::from(h) + i64::from(md) + i64::from(new_a) - i64::from(old_a)
            + i64::from(new_b)
            - i64::from(old_b);
        (h as u32, [(a as u16, old_a), (b as u16, old_b)])
    }

    #[inline]
    fn undo(&mut self, undo: Self::Undo) {
        for (line, cost) in undo.into_iter().rev() {
            self.lines[usize::from(line)] = cost;
        }
    }

    /// A byte a line: a line of `k` cells costs at most `2 × (k − 1)`, so lines of up to
    /// 128 cells fit.
    fn saved_bytes(&self) -> Option<usize> {
        (self.rows.max(self.cols) <= SAVED_LINE).then_some(self.lines.len())
    }

    fn save(&self, out: &mut [u8]) {
        for (o, &cost) in out.iter_mut().zip(&self.lines) {
            *o = cost as u8;
        }
    }

    fn restore(&mut self, saved: &[u8]) {
        for (cost, &s) in self.lines.iter_mut().zip(saved) {
            *cost = u16::from(s);
        }
    }
}

/// The longest line whose conflict cost a saved state keeps in a byte.
const SAVED_LINE: usize = 128;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{generate, GoalSpec, Puzzle};

    /// A state saved on one board and restored after evaluating another gives every child
    /// the value a whole-board evaluation gives it, on square and oblong boards and goals
    /// other than the standard one.
    #[test]
    fn a_restored_state_values_children_as_a_fresh_evaluation_does() {
        for (size, goal) in [("6x6", GoalSpec::Standard), ("4x7", GoalSpec::Spiral)] {
            let goal = goal.board(size.parse().unwrap()).unwrap();
            let puzzle = Puzzle::new(&goal).unwrap();
            let mut lc = LinearConflict::new(&puzzle);
            let bytes = lc.saved_bytes().expect("short lines are saved");
            assert_eq!(bytes, puzzle.shape.rows() + puzzle.shape.cols());
            let mut rng = generate::rng(5);
            for _ in 0..50 {
                let mut a = puzzle.encode(&generate::random_solvable(&goal, &mut rng));
                let b = puzzle.encode(&generate::random_solvable(&goal, &mut rng));
                let h = lc.init(&a);
                let mut saved = vec![0; bytes];
                lc.save(&mut saved);
                lc.init(&b);
                lc.restore(&saved);
                let blank = a.iter().position(|&t| t == 0).unwrap();
                for m in Move::ALL {
                    let to = puzzle.neighbours[blank][m.index()];
                    if to == crate::puzzle::NO_CELL {
                        continue;
                    }
                    let to = usize::from(to);
                    let tile = a[to];
                    a.swap(blank, to);
                    let (child, undo) = lc.apply(&a, h, tile, to, blank, m);
                    assert_eq!(f64::from(child), lc.estimate(&a), "{size} {m:?}");
                    lc.undo(undo);
                    a.swap(blank, to);
                }
            }
        }
    }
}
