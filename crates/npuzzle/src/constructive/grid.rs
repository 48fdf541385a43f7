//! The constructive solver's board: tiles and their positions, both kept up to date move by
//! move, and the moves made so far with inverse pairs cancelled as they are recorded.

use crate::board::Board;
use crate::moves::Move;

/// A board that scales: `O(1)` work a move, no copies (a line search may clone a small one). `tiles[cell]` and `pos[tile]` are
/// inverse permutations; the blank is tile 0.
#[derive(Clone)]
pub(super) struct Grid {
    /// Rows of the real board.
    pub rows: usize,
    /// Columns of the real board.
    pub cols: usize,
    /// Tile on each cell.
    pub tiles: Vec<u32>,
    /// Cell of each tile.
    pub pos: Vec<u32>,
    /// Tile that belongs on each cell (the goal being solved towards).
    pub goal_tile: Vec<u32>,
    /// Cell each tile belongs on.
    pub goal_cell: Vec<u32>,
    /// The moves of the blank so far, with every move that undoes the previous one removed
    /// together with it (the state after the sequence is unchanged, so this is always safe).
    pub moves: Vec<Move>,
}

impl Grid {
    /// A grid at `start`, to be solved towards `goal_tiles` (row-major, same shape).
    pub fn new(start: &Board, goal_tiles: Vec<u32>) -> Grid {
        let shape = start.shape();
        let n = shape.cells();
        let tiles = start.tiles().to_vec();
        let mut pos = vec![0u32; n];
        for (cell, &t) in tiles.iter().enumerate() {
            pos[t as usize] = cell as u32;
        }
        let mut goal_cell = vec![0u32; n];
        for (cell, &t) in goal_tiles.iter().enumerate() {
            goal_cell[t as usize] = cell as u32;
        }
        Grid {
            rows: shape.rows(),
            cols: shape.cols(),
            tiles,
            pos,
            goal_tile: goal_tiles,
            goal_cell,
            moves: Vec::new(),
        }
    }

    /// The blank's cell.
    #[inline]
    pub fn blank(&self) -> usize {
        self.pos[0] as usize
    }

    /// Moves the blank one cell (real directions). The caller guarantees the move stays on
    /// the board.
    #[inline]
    pub fn step(&mut self, m: Move) {
        let b = self.blank();
        let to = match m {
            Move::Up => b - self.cols,
            Move::Down => b + self.cols,
            Move::Left => b - 1,
            Move::Right => b + 1,
        };
        debug_assert!(to < self.tiles.len());
        debug_assert!(
            matches!(m, Move::Up | Move::Down) || to / self.cols == b / self.cols,
            "move {m} leaves the board"
        );
        let t = self.tiles[to];
        self.tiles[b] = t;
        self.pos[t as usize] = b as u32;
        self.tiles[to] = 0;
        self.pos[0] = to as u32;
        if self.moves.last() == Some(&m.opposite()) {
            self.moves.pop();
        } else {
            self.moves.push(m);
        }
    }
}

/// The real board seen as it is or transposed, so that the code that fills a row also
/// fills a column. View coordinates are `(row, col)` of the seen board.
#[derive(Clone, Copy, Debug)]
pub(super) struct View {
    /// Whether the view is the transpose of the real board.
    pub transposed: bool,
    /// Rows as seen.
    pub rows: usize,
    /// Columns as seen.
    pub cols: usize,
    /// Columns of the real board (the row-major stride).
    stride: usize,
}

impl View {
    /// The real board (`rows` × `cols`), possibly transposed.
    pub fn new(rows: usize, cols: usize, transposed: bool) -> View {
        let (vr, vc) = if transposed {
            (cols, rows)
        } else {
            (rows, cols)
        };
        View {
            transposed,
            rows: vr,
            cols: vc,
            stride: cols,
        }
    }

    /// The real cell at view coordinates.
    #[inline]
    pub fn cell(&self, r: usize, c: usize) -> usize {
        if self.transposed {
            c * self.stride + r
        } else {
            r * self.stride + c
        }
    }

    /// View coordinates of a real cell.
    #[inline]
    pub fn rc(&self, cell: usize) -> (usize, usize) {
        let (r, c) = (cell / self.stride, cell % self.stride);
        if self.transposed {
            (c, r)
        } else {
            (r, c)
        }
    }

    /// The real move for a move seen in the view.
    #[inline]
    pub fn real(&self, m: Move) -> Move {
        if self.transposed {
            m.transposed()
        } else {
            m
        }
    }
}
