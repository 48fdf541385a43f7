//! Placing tiles one at a time without disturbing the ones already placed.
//!
//! All geometry here is in view coordinates (see [`View`]): the code fills the top row of
//! the working region, and filling a column is the same code on the transposed view. Cells
//! are locked when they are outside the region (rows above `top`, columns left of `left`)
//! or already filled in the row being built, plus at most one extra cell during the
//! two-tile manoeuvre that closes a two-cell gap in the row.
//!
//! A tile travels by pushes: the blank steps onto a cell next to the tile, then swaps with
//! it. After a push the blank sits behind the tile, so a push at a right angle costs 2 more
//! moves and a push straight on costs 4 (round the tile): staircase paths (3 moves a cell)
//! beat straight lines (5 a cell), and the tile picks its next push by that cost.

use super::grid::{Grid, View};
use crate::moves::Move;

/// View coordinates, signed so neighbours of edge cells can be formed and tested.
type Rc = (isize, isize);

/// The step of a move in view coordinates.
#[inline]
fn delta(m: Move) -> Rc {
    match m {
        Move::Up => (-1, 0),
        Move::Down => (1, 0),
        Move::Left => (0, -1),
        Move::Right => (0, 1),
    }
}

/// The move of a unit step.
#[inline]
fn direction(d: Rc) -> Move {
    match d {
        (-1, 0) => Move::Up,
        (1, 0) => Move::Down,
        (0, -1) => Move::Left,
        _ => Move::Right,
    }
}

#[inline]
fn add(a: Rc, b: Rc) -> Rc {
    (a.0 + b.0, a.1 + b.1)
}

#[inline]
fn sub(a: Rc, b: Rc) -> Rc {
    (a.0 - b.0, a.1 - b.1)
}

#[inline]
fn neg(a: Rc) -> Rc {
    (-a.0, -a.1)
}

#[inline]
fn manhattan(a: Rc, b: Rc) -> isize {
    (a.0 - b.0).abs() + (a.1 - b.1).abs()
}

/// Whether `p` lies strictly between `a` and `b` on one row or column.
#[inline]
fn between(a: Rc, p: Rc, b: Rc) -> bool {
    (a.0 == p.0 && p.0 == b.0 && (a.1 < p.1) == (p.1 < b.1) && a.1 != p.1 && p.1 != b.1)
        || (a.1 == p.1 && p.1 == b.1 && (a.0 < p.0) == (p.0 < b.0) && a.0 != p.0 && p.0 != b.0)
}

/// What splitting a gap in a row costs when choosing the next cell to fill, in moves: the
/// extra two-tile manoeuvre it brings, about what fetching a tile a few cells further off
/// costs.
const SPLIT_COST: isize = 8;

/// A rectangle of view cells, bounds included.
#[derive(Clone, Copy)]
struct Window {
    r0: isize,
    r1: isize,
    c0: isize,
    c1: isize,
}

impl Window {
    fn contains(self, (r, c): Rc) -> bool {
        r >= self.r0 && r <= self.r1 && c >= self.c0 && c <= self.c1
    }
}

/// Places tiles on a [`Grid`] inside a shrinking region, recording the moves in the grid.
pub(super) struct Placer<'a> {
    /// The board.
    pub g: &'a mut Grid,
    v: View,
    top: isize,
    left: isize,
    /// Which cells of row `top` (by view column) are already filled, and so locked.
    locked: Vec<bool>,
    /// One more locked cell, for the end-of-row manoeuvre.
    extra: Option<Rc>,
    /// Breadth-first search scratch, reused: stamps mark cells seen in the current search.
    stamp: Vec<u32>,
    from: Vec<u8>,
    queue: Vec<u32>,
    epoch: u32,
}

/// Asked after each tile a [`Placer`] places, with the moves so far: `true` stops the fill
/// (a limit reached, on a board so large that one row takes long).
pub type Stop<'a> = dyn FnMut(&Vec<Move>) -> bool + 'a;

/// A [`Stop`] that never stops.
pub fn never(_: &Vec<Move>) -> bool {
    false
}

impl<'a> Placer<'a> {
    /// A placer over the whole board.
    pub fn new(g: &'a mut Grid) -> Placer<'a> {
        let v = View::new(g.rows, g.cols, false);
        Placer {
            g,
            v,
            top: 0,
            left: 0,
            locked: Vec::new(),
            extra: None,
            stamp: Vec::new(),
            from: Vec::new(),
            queue: Vec::new(),
            epoch: 0,
        }
    }

    /// Fills the top row of the region whose top-left real cell is (`top`, `left`) and that
    /// reaches the bottom-right corner. Needs at least 3 rows and 2 columns. `stop` is asked
    /// after each tile placed, with the moves so far; when it says stop, the row is left
    /// part filled.
    pub fn fill_row(&mut self, top: usize, left: usize, stop: &mut Stop<'_>) {
        self.v = View::new(self.g.rows, self.g.cols, false);
        self.fill(top, left, stop)
    }

    /// Fills the left column of the region, by filling the top row of its transpose.
    /// Needs at least 2 rows and 3 columns. `stop` as for [`Placer::fill_row`].
    pub fn fill_col(&mut self, top: usize, left: usize, stop: &mut Stop<'_>) {
        self.v = View::new(self.g.rows, self.g.cols, true);
        self.fill(left, top, stop)
    }

    /// Fills view row `top` from column `left` to the right edge.
    ///
    /// The cells are filled in no fixed order: each time, the cell whose tile is nearest
    /// the blank among those that may be filled now, so the blank seldom crosses the board
    /// to fetch a tile. A cell may be filled unless that would leave an empty cell between
    /// two filled ones (or a filled one and the edge): the blank could then enter it only
    /// from below, where its tile must be. Filling a cell inside a gap splits the gap in
    /// two, and every gap ends with two cells filled by the two-tile manoeuvre, a few moves
    /// dearer than two single tiles, so a split costs [`SPLIT_COST`] in the choice.
    fn fill(&mut self, top: usize, left: usize, stop: &mut Stop<'_>) {
        debug_assert!(self.v.rows - top >= 3 && self.v.cols - left >= 2);
        self.top = top as isize;
        self.left = left as isize;
        self.extra = None;
        let cols = self.v.cols;
        self.locked.clear();
        self.locked.resize(cols, false);
        while let Some(c) = self.next_single() {
            let t = self.goal_tile((top, c));
            self.move_tile(t, (top as isize, c as isize));
            self.locked[c] = true;
            if stop(&self.g.moves) {
                return;
            }
        }
        // Every gap left is two cells wide.
        while let Some(c) = (left..cols - 1).find(|&c| !self.locked[c]) {
            self.fill_pair(top, c);
            if stop(&self.g.moves) {
                return;
            }
        }
    }

    /// The cell of the row being filled to fill next with a single tile, if any may be.
    fn next_single(&self) -> Option<usize> {
        let (top, left, cols) = (self.top as usize, self.left as usize, self.v.cols);
        // Whether column `c` is filled or off the region: a wall for a gap.
        let wall = |c: isize| c < self.left || c >= cols as isize || self.locked[c as usize];
        let blank = self.blank();
        let mut best: Option<(isize, usize)> = None;
        for c in left..cols {
            if self.locked[c] {
                continue;
            }
            let ci = c as isize;
            let (left_open, right_open) = (!wall(ci - 1), !wall(ci + 1));
            if (left_open && wall(ci - 2)) || (right_open && wall(ci + 2)) {
                continue; // it would leave a one-cell gap
            }
            let t = self.goal_tile((top, c));
            let p = self.pos_of(t);
            // A tile already home costs nothing to fill; any other, the blank's way to it.
            let mut cost = if p == (top as isize, ci) {
                0
            } else {
                manhattan(blank, p)
            };
            if left_open && right_open {
                cost += SPLIT_COST;
            }
            if best.is_none_or(|(b, _)| cost < b) {
                best = Some((cost, c));
            }
        }
        best.map(|(_, c)| c)
    }

    /// Fills the two-cell gap at columns `c` (`A`) and `c + 1` (`B`) of row `top`: put A's
    /// tile on `B`, B's tile below it, then the blank on `A`, and two moves slide both home.
    /// One position traps this manoeuvre: the blank on `A` (its only way out is down) with
    /// B's tile just below it, which is where pushing B's tile out of `A` leaves them. So
    /// the end is left to [`Placer::finish_pair`], an exact search over the two tiles and
    /// the blank in the 3-row window around the gap, which also handles the trap.
    fn fill_pair(&mut self, top: usize, c: usize) {
        debug_assert!(!self.locked[c + 1] && (c + 2 == self.v.cols || self.locked[c + 2]));
        let a_cell = (top as isize, c as isize);
        let b_cell = (top as isize, c as isize + 1);
        let a = self.goal_tile((top, c));
        let b = self.goal_tile((top, c + 1));
        if self.pos_of(a) != a_cell || self.pos_of(b) != b_cell {
            self.move_tile(a, b_cell);
            self.extra = Some(b_cell);
            // B's tile is brought below `B` unless it is already in the window (pushing
            // it out of `A` would leave the blank trapped on `A`).
            if !self.pair_window(b_cell).contains(self.pos_of(b)) {
                self.move_tile(b, (top as isize + 1, c as isize + 1));
            }
            self.finish_pair(a, b, a_cell, b_cell);
            self.extra = None;
        }
        self.locked[c] = true;
        self.locked[c + 1] = true;
        debug_assert_eq!(self.pos_of(a), a_cell);
        debug_assert_eq!(self.pos_of(b), b_cell);
    }

    /// The window in which [`Placer::finish_pair`] searches for the gap whose right cell
    /// is `b_cell`: three rows from the gap's, and a column either side where the board
    /// has one.
    fn pair_window(&self, b_cell: Rc) -> Window {
        Window {
            r0: b_cell.0,
            r1: b_cell.0 + 2,
            c0: (b_cell.1 - 2).max(self.left),
            c1: (b_cell.1 + 1).min(self.v.cols as isize - 1),
        }
    }

    /// Brings the blank into the window of rows `top..top + 3` and the last three columns,
    /// then finds the shortest way to put tiles `a` and `b` on `a_cell` and `b_cell` by
    /// breadth-first search over the positions of the two tiles and the blank (the other
    /// tiles in the window may be shuffled: they are not placed yet, and with at least three
    /// of them every arrangement of `a`, `b` and the blank is reachable).
    fn finish_pair(&mut self, a: u32, b: u32, a_cell: Rc, b_cell: Rc) {
        let window = self.pair_window(b_cell);
        let Window { r0, c0, c1, .. } = window;
        let w = c1 - c0 + 1;
        let inside = |c: Rc| window.contains(c);
        if !inside(self.blank()) {
            let (pa, pb) = (self.pos_of(a), self.pos_of(b));
            let (ca, cb) = (a_cell.1, b_cell.1);
            let entry = [(r0 + 1, ca), (r0 + 2, ca), (r0 + 2, cb), (r0 + 1, cb)]
                .into_iter()
                .find(|&c| c != pa && c != pb)
                .expect("four cells, two tiles");
            let ok = self.route(entry, pb);
            assert!(ok, "the blank reaches the end of the row");
        }
        self.extra = None;
        let index = |c: Rc| ((c.0 - r0) * w + (c.1 - c0)) as usize;
        let cell = |i: usize| (r0 + i as isize / w, c0 + i as isize % w);
        let n = (3 * w) as usize;
        let key = |a: usize, b: usize, z: usize| (a * n + b) * n + z;
        let start = key(
            index(self.pos_of(a)),
            index(self.pos_of(b)),
            index(self.blank()),
        );
        let mut prev: Vec<Option<(usize, Move)>> = vec![None; n * n * n];
        let mut queue = std::collections::VecDeque::from([start]);
        let goal_ab = (index(a_cell), index(b_cell));
        let mut end = None;
        while let Some(s) = queue.pop_front() {
            let (pa, pb, z) = (s / (n * n), s / n % n, s % n);
            if (pa, pb) == goal_ab {
                end = Some(s);
                break;
            }
            for m in Move::ALL {
                let to = add(cell(z), delta(m));
                if !inside(to) || !self.free(to) {
                    continue;
                }
                let t = index(to);
                let na = if t == pa { z } else { pa };
                let nb = if t == pb { z } else { pb };
                let next = key(na, nb, t);
                if next != start && prev[next].is_none() {
                    prev[next] = Some((s, m));
                    queue.push_back(next);
                }
            }
        }
        let mut s = end.expect("every arrangement of two tiles and the blank is reachable");
        let mut path = Vec::new();
        while s != start {
            let (before, m) = prev[s].expect("a recorded step");
            path.push(m);
            s = before;
        }
        path.into_iter().rev().for_each(|m| self.go(m));
    }

    // ---- the board in view coordinates ----

    fn goal_tile(&self, (r, c): (usize, usize)) -> u32 {
        self.g.goal_tile[self.v.cell(r, c)]
    }

    #[inline]
    fn pos_of(&self, t: u32) -> Rc {
        let (r, c) = self.v.rc(self.g.pos[t as usize] as usize);
        (r as isize, c as isize)
    }

    #[inline]
    fn blank(&self) -> Rc {
        self.pos_of(0)
    }

    /// Whether the blank may enter a cell: on the board, in the region, not locked.
    #[inline]
    fn free(&self, (r, c): Rc) -> bool {
        r >= self.top
            && c >= self.left
            && r < self.v.rows as isize
            && c < self.v.cols as isize
            && !(r == self.top && self.locked[c as usize])
            && self.extra != Some((r, c))
    }

    /// Moves the blank (view direction).
    #[inline]
    fn go(&mut self, m: Move) {
        debug_assert!(self.free(add(self.blank(), delta(m))));
        let real = self.v.real(m);
        self.g.step(real);
    }

    /// How much closer to its goal the tile next to the blank gets if the blank moves `m`
    /// (it travels the other way): breaks ties between equally short routes in favour of
    /// routes that leave the unplaced tiles nearer home.
    fn gain(&self, m: Move) -> isize {
        let b = self.blank();
        let from = add(b, delta(m));
        let t = self.g.tiles[self.v.cell(from.0 as usize, from.1 as usize)];
        let (gr, gc) = self.v.rc(self.g.goal_cell[t as usize] as usize);
        let goal = (gr as isize, gc as isize);
        manhattan(from, goal) - manhattan(b, goal)
    }

    /// Gain of moving the tile at `cell` by `d` (for planning without moving).
    fn gain_at(&self, cell: Rc, d: Rc) -> isize {
        let t = self.g.tiles[self.v.cell(cell.0 as usize, cell.1 as usize)];
        if t == 0 {
            return 0;
        }
        let (gr, gc) = self.v.rc(self.g.goal_cell[t as usize] as usize);
        let goal = (gr as isize, gc as isize);
        manhattan(cell, goal) - manhattan(add(cell, d), goal)
    }

    // ---- moving one tile ----

    /// Moves tile `t` to `target` by pushes, never through locked cells.
    fn move_tile(&mut self, t: u32, target: Rc) {
        loop {
            let p = self.pos_of(t);
            if p == target {
                return;
            }
            if p.0 == self.top && !self.same_gap(p, target) {
                // Out of a gap of the row being filled that is not the target's: down first
                // (along the row it would meet a filled cell).
                if self.route((p.0 + 1, p.1), p) {
                    self.go(Move::Up);
                    continue;
                }
                self.move_tile_by_search(t, target);
                return;
            }
            let (dr, dc) = sub(target, p);
            // Candidate pushes that bring the tile closer, cheapest first; among equals,
            // along the axis with more left to go (that keeps turns available).
            let mut cands: [(isize, isize, Move); 2] = [(0, 0, Move::Up); 2];
            let mut n = 0;
            for m in Move::ALL {
                let d = delta(m);
                if d.0 * dr <= 0 && d.1 * dc <= 0 {
                    continue;
                }
                let to = add(p, d);
                if !self.free(to) || (to.0 == self.top && !self.same_gap(to, target)) {
                    continue;
                }
                let rest = if d.0 != 0 { dr.abs() } else { dc.abs() };
                cands[n] = (self.approach_cost(p, to), -rest, m);
                n += 1;
            }
            let cands = &mut cands[..n];
            cands.sort_unstable_by_key(|&(cost, rest, _)| (cost, rest));
            let mut pushed = false;
            for &(_, _, m) in cands.iter() {
                let to = add(p, delta(m));
                if self.route(to, p) {
                    self.go(m.opposite());
                    pushed = true;
                    break;
                }
            }
            if !pushed {
                self.move_tile_by_search(t, target);
                return;
            }
        }
    }

    /// Whether `a` and `b` both lie in row `top` with no filled cell between them, so a
    /// tile may travel from one to the other along the row.
    fn same_gap(&self, a: Rc, b: Rc) -> bool {
        a.0 == self.top
            && b.0 == self.top
            && (a.1.min(b.1)..=a.1.max(b.1)).all(|c| !self.locked[c as usize])
    }

    /// Estimated moves for the blank to reach `to`, next to the tile on `p`.
    fn approach_cost(&self, p: Rc, to: Rc) -> isize {
        let b = self.blank();
        let m = manhattan(b, to);
        if between(b, p, to) {
            return m + 2;
        }
        if manhattan(b, p) == 1 && m == 2 && !self.free(add(b, sub(to, p))) {
            // A right-angle push whose short way round is locked: the long way.
            return m + 4;
        }
        m
    }

    // ---- moving the blank ----

    /// Moves the blank to `target` without entering `avoid` or a locked cell. Returns
    /// `false` if it cannot (the blank may have moved).
    fn route(&mut self, target: Rc, avoid: Rc) -> bool {
        // A detour (a step sideways) is allowed only once the distance has dropped two
        // below where the last one was taken, so routes always end.
        let mut detour_below = isize::MAX;
        loop {
            let b = self.blank();
            if b == target {
                return true;
            }
            if manhattan(b, avoid) == 1 && manhattan(target, avoid) == 1 {
                return self.around(avoid, target) || self.search_route(target, avoid);
            }
            if manhattan(b, target) <= 2 {
                return self.search_route(target, avoid);
            }
            // Greedy: a step that shortens the way; the longer axis first, so the route
            // stays diagonal and ends beside the tile rather than behind it; then the step
            // whose displaced tile gains most.
            let (dr, dc) = sub(target, b);
            let mut best: Option<(isize, isize, Move)> = None;
            for m in Move::ALL {
                let d = delta(m);
                if d.0 * dr <= 0 && d.1 * dc <= 0 {
                    continue;
                }
                let to = add(b, d);
                if to == avoid || !self.free(to) {
                    continue;
                }
                let rest = if d.0 != 0 { dr.abs() } else { dc.abs() };
                let key = (self.gain(m), rest, m);
                if best.is_none_or(|(g, r, _)| (key.0, key.1) > (g, r)) {
                    best = Some(key);
                }
            }
            // When every way on moves a tile away from home, a step aside that moves
            // one nearer is worth its two extra moves: each cell a tile is nearer home saves
            // about three moves when it is placed.
            let dist = manhattan(b, target);
            if dist >= 4 && dist < detour_below && best.is_some_and(|(g, _, _)| g < 0) {
                let side = Move::ALL.into_iter().find(|&m| {
                    let d = delta(m);
                    let to = add(b, d);
                    d.0 * dr <= 0
                        && d.1 * dc <= 0
                        && to != avoid
                        && self.free(to)
                        && self.gain(m) > 0
                });
                if let Some(m) = side {
                    detour_below = dist - 1;
                    self.go(m);
                    continue;
                }
            }
            match best {
                Some((_, _, m)) => self.go(m),
                None => return self.search_route(target, avoid),
            }
        }
    }

    /// The blank is beside the tile on `p` and must reach `to`, also beside it: a right
    /// angle is 2 moves, straight across is 4 round either side (the side that moves the
    /// displaced tiles nearer home). Returns `false` when the short ways are locked.
    fn around(&mut self, p: Rc, to: Rc) -> bool {
        let b = self.blank();
        let bd = sub(b, p);
        let pd = sub(to, p);
        if bd == neg(pd) {
            let side = (pd.1, pd.0);
            let mut best: Option<(isize, Rc)> = None;
            for s in [side, neg(side)] {
                let cells = [add(b, s), add(p, s), add(to, s)];
                if cells.iter().all(|&c| self.free(c)) {
                    let gain = self.gain_at(cells[0], neg(s))
                        + self.gain_at(cells[1], neg(pd))
                        + self.gain_at(cells[2], neg(pd))
                        + self.gain_at(to, s);
                    if best.is_none_or(|(g, _)| gain > g) {
                        best = Some((gain, s));
                    }
                }
            }
            let Some((_, s)) = best else {
                return false;
            };
            let (sm, pm) = (direction(s), direction(pd));
            self.go(sm);
            self.go(pm);
            self.go(pm);
            self.go(sm.opposite());
            true
        } else {
            if !self.free(add(b, pd)) {
                return false;
            }
            self.go(direction(pd));
            self.go(direction(neg(bd)));
            true
        }
    }

    /// Shortest route for the blank by breadth-first search, first in a window around the
    /// blank and the target, then (if the window is too tight) in the whole region.
    fn search_route(&mut self, target: Rc, avoid: Rc) -> bool {
        let b = self.blank();
        let window = (
            b.0.min(target.0) - 2,
            b.0.max(target.0) + 2,
            b.1.min(target.1) - 2,
            b.1.max(target.1) + 2,
        );
        if let Some(path) = self.bfs(target, avoid, window) {
            path.into_iter().for_each(|m| self.go(m));
            return true;
        }
        let whole = (self.top, isize::MAX, self.left, isize::MAX);
        match self.bfs(target, avoid, whole) {
            Some(path) => {
                path.into_iter().for_each(|m| self.go(m));
                true
            }
            None => false,
        }
    }

    /// Breadth-first search for the blank in a window (clipped to the region).
    fn bfs(
        &mut self,
        target: Rc,
        avoid: Rc,
        window: (isize, isize, isize, isize),
    ) -> Option<Vec<Move>> {
        let r0 = window.0.max(self.top);
        let r1 = window.1.min(self.v.rows as isize - 1);
        let c0 = window.2.max(self.left);
        let c1 = window.3.min(self.v.cols as isize - 1);
        let w = c1 - c0 + 1;
        let size = ((r1 - r0 + 1) * w) as usize;
        if self.stamp.len() < size {
            self.stamp.resize(size, 0);
            self.from.resize(size, 0);
        }
        self.epoch = self.epoch.wrapping_add(1);
        if self.epoch == 0 {
            self.stamp.iter_mut().for_each(|s| *s = 0);
            self.epoch = 1;
        }
        let inside = |c: Rc| c.0 >= r0 && c.0 <= r1 && c.1 >= c0 && c.1 <= c1;
        let index = |c: Rc| ((c.0 - r0) * w + (c.1 - c0)) as usize;
        let start = self.blank();
        if !inside(start) || !inside(target) {
            return None;
        }
        self.queue.clear();
        self.queue.push(index(start) as u32);
        self.stamp[index(start)] = self.epoch;
        let goal = index(target);
        let mut head = 0;
        let mut found = false;
        while head < self.queue.len() {
            let i = self.queue[head] as isize;
            head += 1;
            if i as usize == goal {
                found = true;
                break;
            }
            let cur = (r0 + i / w, c0 + i % w);
            for m in Move::ALL {
                let next = add(cur, delta(m));
                if !inside(next) || next == avoid || !self.free(next) {
                    continue;
                }
                let j = index(next);
                if self.stamp[j] != self.epoch {
                    self.stamp[j] = self.epoch;
                    self.from[j] = m.index() as u8;
                    self.queue.push(j as u32);
                }
            }
        }
        if !found {
            return None;
        }
        let mut path = Vec::new();
        let mut cur = target;
        while cur != start {
            let m = Move::ALL[usize::from(self.from[index(cur)])];
            path.push(m);
            cur = sub(cur, delta(m));
        }
        path.reverse();
        Some(path)
    }

    /// Moves tile `t` to `target` by a breadth-first search over (tile, blank) positions in
    /// the region: slow, but complete. The greedy pushes never need it on a region of at
    /// least 3 rows and 2 columns; it is a safety net.
    fn move_tile_by_search(&mut self, t: u32, target: Rc) {
        use std::collections::{HashMap, VecDeque};
        let start = (self.pos_of(t), self.blank());
        let mut prev: HashMap<(Rc, Rc), ((Rc, Rc), Move)> = HashMap::new();
        let mut queue = VecDeque::from([start]);
        let mut end = None;
        while let Some((tile, blank)) = queue.pop_front() {
            if tile == target {
                end = Some((tile, blank));
                break;
            }
            for m in Move::ALL {
                let next = add(blank, delta(m));
                if !self.free(next) {
                    continue;
                }
                let state = if next == tile {
                    (blank, next)
                } else {
                    (tile, next)
                };
                if state != start && !prev.contains_key(&state) {
                    prev.insert(state, ((tile, blank), m));
                    queue.push_back(state);
                }
            }
        }
        let Some(mut state) = end else {
            panic!(
                "tile {t} cannot reach {target:?} from {:?}; blank {:?}, top {} left {} locked {:?} extra {:?} view {:?}, tiles {:?}",
                self.pos_of(t), self.blank(), self.top, self.left, self.locked, self.extra, self.v, self.g.tiles
            );
        };
        let mut path = Vec::new();
        while state != start {
            let (before, m) = prev[&state];
            path.push(m);
            state = before;
        }
        path.into_iter().rev().for_each(|m| self.go(m));
    }
}
