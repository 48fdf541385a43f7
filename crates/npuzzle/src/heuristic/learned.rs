//! A learned correction to a beam's ranking: a small network that estimates how far the
//! sum of lower bounds (linear conflict plus the pattern databases) falls short of the
//! distance, from where every tile is.
//!
//! Lower bounds added up rank a beam's states by what each bound sees; where the path
//! crosses the middle of a 6×6 board's distance their errors decide which states the beam
//! keeps, and every reweighting of them measured left the answers where they were
//! (docs/performance.md). The network sees the tiles themselves: its input is one-hot (tile,
//! cell) plus the sum, one hidden layer of rectified units (each network its own number, at
//! most [`MAX_HIDDEN`]), and its output is
//! added to the sum. The network for `5-5-5-5-5-5-5` (256 units) was fitted by approximate
//! value iteration, as the learned solver DeepCubeA fits its own: each scrambled state to
//! one move plus the least value of its children; the fresh machine's (32 units) by
//! bootstrap learning (Jabbari Arfaee, Zilles & Holte 2011), to the remaining lengths of
//! beam paths on scrambled boards, each round's beams ranked by the last round's network
//! (`examples/train_ranking.rs` makes the weights; the commands are in
//! docs/performance.md).
//!
//! The first layer's sum over the tiles is kept up to date move by move (a move changes two
//! of its inputs), so a child costs the inner ranking's update and about five operations a
//! hidden unit. The sums are kept in 16-bit steps (see `quantize`): a beam's states and the
//! rows it reads take half the bytes of floats.

use std::sync::OnceLock;

use super::IncrementalHeuristic;
use crate::goal::GoalSpec;
use crate::moves::Move;
use crate::puzzle::Puzzle;
use crate::shape::Shape;

/// The most hidden units a network may have (a [`Corrected`] ranking keeps its first
/// layer's sums in an array this long, so that cloning one allocates nothing).
pub const MAX_HIDDEN: usize = 512;

/// Hidden units come in multiples of this, computed side by side.
const LANES: usize = 8;

/// The ranking's fixed-point scale: values are the estimate in moves times this, so that
/// corrections of less than a move still order states.
const SCALE: f32 = 64.0;

/// The header of a weights file.
const MAGIC: &[u8; 8] = b"npzrank1";

/// What a network's correction is added to: linear conflict plus tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Inner {
    /// Plus the run's tables (6×6: `5-5-5-5-5-5-5`, once cached).
    Tables,
    /// Plus the run's tables and the shifted partition's (6×6: `auto`'s
    /// `4-4-4-4-4-4-4-4-3`, what a fresh machine builds).
    ShiftedTables,
}

/// A network shipped with the crate: what it corrects, with which tables, its weights.
struct Fitted {
    /// The board it was fitted on, with the standard goal.
    shape: &'static str,
    inner: Inner,
    /// The run's partition (as [`PartitionSpec`](super::pdb::PartitionSpec) lays it out).
    partition: &'static str,
    bytes: &'static [u8],
}

/// The networks, all for 6×6's standard goal (blank last).
static FITTED: [Fitted; 2] = [
    Fitted {
        shape: "6x6",
        inner: Inner::Tables,
        partition: "5-5-5-5-5-5-5",
        bytes: include_bytes!("learned/6x6-5-5-5-5-5-5-5.bin"),
    },
    Fitted {
        shape: "6x6",
        inner: Inner::ShiftedTables,
        partition: "4-4-4-4-4-4-4-4-3",
        bytes: include_bytes!("learned/6x6-4-4-4-4-4-4-4-4-3-shifted.bin"),
    },
];

/// The weights of a ranking network for one board shape and goal.
#[derive(Clone, Debug, PartialEq)]
pub struct RankingNet {
    cells: usize,
    /// `w[(tile × cells + cell) × hidden + k]`: tile `tile` on cell `cell`, to unit `k`.
    w: Vec<f32>,
    /// `w` in 16-bit steps of `step[k]` each, what the ranking adds up (see [`quantize`]).
    wq: Vec<i16>,
    /// Each unit's step.
    step: Vec<f32>,
    /// The biases, the weights from the inner ranking's value (in hundreds of moves) and the
    /// output weights: one each a hidden unit.
    b1: Vec<f32>,
    wd: Vec<f32>,
    w2: Vec<f32>,
}

impl RankingNet {
    /// The network fitted for `puzzle`'s goal to correct `inner`, if any (6×6's standard
    /// goal).
    pub fn for_ranking(puzzle: &Puzzle, inner: Inner) -> Option<&'static RankingNet> {
        // Each network with the goal it was fitted for.
        static NETS: OnceLock<Vec<(RankingNet, Puzzle)>> = OnceLock::new();
        let nets = NETS.get_or_init(|| {
            let read = |f: &Fitted| {
                let net = RankingNet::from_bytes(f.bytes)?;
                let shape: Shape = f.shape.parse().ok()?;
                let goal = GoalSpec::Standard.board(shape).ok()?;
                Some((net, Puzzle::new(&goal)?))
            };
            FITTED
                .iter()
                .map(|f| read(f).expect("a shipped network is well formed"))
                .collect()
        });
        let (net, fitted) = &nets[FITTED.iter().position(|f| f.inner == inner)?];
        (puzzle.shape == fitted.shape && puzzle.goal == fitted.goal).then_some(net)
    }

    /// Whether a network corrects `inner` on `puzzle` when the run's tables are
    /// `partition`'s: its corrections were learned against that sum's values, and
    /// another's would be off.
    pub fn fits(puzzle: &Puzzle, partition: &super::pdb::Partition, inner: Inner) -> bool {
        let fitted = || {
            let f = FITTED.iter().find(|f| f.inner == inner)?;
            let sizes: super::pdb::PartitionSpec = f.partition.parse().ok()?;
            sizes.partition(puzzle).ok()
        };
        Self::for_ranking(puzzle, inner).is_some() && fitted().as_ref() == Some(partition)
    }

    /// Reads a weights file: the bytes `npzrank1`, the number of cells and of hidden units
    /// `h` (`u32` little-endian; `h` a multiple of 8 up to [`MAX_HIDDEN`]), then `f32`s
    /// little-endian: the first layer (`cells² × h`), its biases, the inner value's weights
    /// and the output weights (`h` each). `None` when the bytes are not that.
    pub fn from_bytes(bytes: &[u8]) -> Option<RankingNet> {
        let rest = bytes.strip_prefix(MAGIC)?;
        let word = |at: usize| -> Option<u32> {
            Some(u32::from_le_bytes(rest.get(at..at + 4)?.try_into().ok()?))
        };
        let (cells, hidden) = (word(0)? as usize, word(4)? as usize);
        if !Self::allows(hidden) || cells > crate::puzzle::MAX_SEARCH_CELLS {
            return None;
        }
        let floats: Vec<f32> = rest[8..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let first = cells * cells * hidden;
        if floats.len() != first + 3 * hidden || floats.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let row = |i: usize| floats[first + i * hidden..first + (i + 1) * hidden].to_vec();
        Some(RankingNet::new(
            cells,
            floats[..first].to_vec(),
            row(0),
            row(1),
            row(2),
        ))
    }

    /// The bytes [`from_bytes`](Self::from_bytes) reads.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&(self.cells as u32).to_le_bytes());
        out.extend_from_slice(&(self.hidden() as u32).to_le_bytes());
        let floats = self
            .w
            .iter()
            .chain(&self.b1)
            .chain(&self.wd)
            .chain(&self.w2);
        out.extend(floats.flat_map(|x| x.to_le_bytes()));
        out
    }

    /// A network from its parts: `b1`, `wd` and `w2` one weight a hidden unit, `w`
    /// `cells² × hidden` (as the file lays them out).
    ///
    /// # Panics
    /// When the lengths disagree, or the hidden units are not a multiple of 8 up to
    /// [`MAX_HIDDEN`].
    pub fn new(cells: usize, w: Vec<f32>, b1: Vec<f32>, wd: Vec<f32>, w2: Vec<f32>) -> RankingNet {
        let hidden = b1.len();
        assert!(Self::allows(hidden), "{hidden} hidden units");
        assert!(
            wd.len() == hidden && w2.len() == hidden,
            "one weight a unit"
        );
        assert_eq!(w.len(), cells * cells * hidden, "one row a tile and cell");
        let (wq, step) = quantize(cells, hidden, &w);
        RankingNet {
            cells,
            w,
            wq,
            step,
            b1,
            wd,
            w2,
        }
    }

    /// Whether a network may have `hidden` units: a multiple of 8, up to [`MAX_HIDDEN`].
    pub fn allows(hidden: usize) -> bool {
        hidden > 0 && hidden <= MAX_HIDDEN && hidden.is_multiple_of(LANES)
    }

    /// Hidden units.
    pub fn hidden(&self) -> usize {
        self.b1.len()
    }

    /// The first layer's one-hot part for a whole board, in each unit's steps (its first
    /// [`hidden`](Self::hidden) sums; the rest zero).
    fn accumulate(&self, tiles: &[u8]) -> [i16; MAX_HIDDEN] {
        let mut acc = [0i16; MAX_HIDDEN];
        for (cell, &t) in tiles.iter().enumerate() {
            let row = self.row(usize::from(t), cell);
            for (a, &w) in acc.iter_mut().zip(row) {
                *a = a.wrapping_add(w);
            }
        }
        acc
    }

    #[inline]
    fn row(&self, tile: usize, cell: usize) -> &[i16] {
        let hidden = self.hidden();
        &self.wq[(tile * self.cells + cell) * hidden..][..hidden]
    }

    /// The correction, in moves, for a state whose one-hot part is `acc` (as
    /// [`accumulate`](Self::accumulate) lays it out) and whose inner ranking is `inner`.
    #[inline]
    fn correction(&self, acc: &[i16], inner: u32) -> f32 {
        let d = inner as f32 / 100.0;
        // Eight sums, one a lane, added up at the end: a single running sum would keep the
        // processor from computing eight units at once (the hidden units come in eights).
        let mut lanes = [0f32; LANES];
        let units = acc
            .chunks_exact(LANES)
            .zip(self.step.chunks_exact(LANES))
            .zip(self.b1.chunks_exact(LANES))
            .zip(self.wd.chunks_exact(LANES))
            .zip(self.w2.chunks_exact(LANES));
        for ((((a, step), b), wd), w2) in units {
            for j in 0..LANES {
                lanes[j] += Self::unit(a[j], step[j], b[j], wd[j], w2[j], d);
            }
        }
        lanes.iter().sum()
    }

    /// One hidden unit's share of the correction: its output weight times its rectified
    /// input (the one-hot sum `a` in steps of `step`, the bias, the inner value `d`'s
    /// weight).
    #[inline(always)]
    fn unit(a: i16, step: f32, b: f32, wd: f32, w2: f32, d: f32) -> f32 {
        let z = f32::from(a) * step + b + wd * d;
        w2 * if z > 0.0 { z } else { 0.0 }
    }

    /// The four rows a move changes: the tile's on the cell it left and on the one it came
    /// to, then the blank's (tile 0, which goes the other way).
    #[inline]
    fn moved_rows(&self, tile: u8, from: usize, to: usize) -> [&[i16]; 4] {
        let t = usize::from(tile);
        [
            self.row(t, from),
            self.row(t, to),
            self.row(0, to),
            self.row(0, from),
        ]
    }

    /// A one-hot sum `a` after a move, from the [`moved_rows`](Self::moved_rows). Wrapping:
    /// a board's true sums fit (see [`quantize`]), so a sum that wraps on the way is still
    /// exact at the end, whatever the order of the moves.
    #[inline(always)]
    fn moved(a: i16, left: i16, came: i16, blank_left: i16, blank_came: i16) -> i16 {
        a.wrapping_add(came)
            .wrapping_sub(left)
            .wrapping_add(blank_came)
            .wrapping_sub(blank_left)
    }

    /// [`correction`](Self::correction) of the child a move makes (`tile` from `from` to
    /// `to`, the blank back) from a parent whose one-hot sums are `acc`; the child's sums
    /// are written to `out` (as [`Corrected`] saves them), in the same pass. Each sum is
    /// the one [`Corrected`]'s `shift` computes, so the value is `apply`'s, bit for bit.
    #[inline]
    fn child_correction(
        &self,
        acc: &[i16],
        (tile, from, to): (u8, usize, usize),
        inner: u32,
        out: &mut [u8],
    ) -> f32 {
        let [left, came, blank_left, blank_came] = self.moved_rows(tile, from, to);
        let d = inner as f32 / 100.0;
        let mut lanes = [0f32; LANES];
        let units = acc
            .chunks_exact(LANES)
            .zip(out.chunks_exact_mut(2 * LANES))
            .zip(left.chunks_exact(LANES).zip(came.chunks_exact(LANES)))
            .zip(
                blank_left
                    .chunks_exact(LANES)
                    .zip(blank_came.chunks_exact(LANES)),
            )
            .zip(
                self.step
                    .chunks_exact(LANES)
                    .zip(self.b1.chunks_exact(LANES)),
            )
            .zip(self.wd.chunks_exact(LANES).zip(self.w2.chunks_exact(LANES)));
        for (((((a, out), (left, came)), (blank_left, blank_came)), (step, b)), (wd, w2)) in units {
            let mut sums = [0i16; LANES];
            for j in 0..LANES {
                sums[j] = Self::moved(a[j], left[j], came[j], blank_left[j], blank_came[j]);
                lanes[j] += Self::unit(sums[j], step[j], b[j], wd[j], w2[j], d);
            }
            for (bytes, x) in out.chunks_exact_mut(2).zip(sums) {
                bytes.copy_from_slice(&x.to_le_bytes());
            }
        }
        lanes.iter().sum()
    }

    /// The ranking's value of a whole board whose inner ranking is `inner`.
    pub fn value(&self, tiles: &[u8], inner: u32) -> u32 {
        Self::scaled(inner, self.correction(&self.accumulate(tiles), inner))
    }

    #[inline]
    fn scaled(inner: u32, correction: f32) -> u32 {
        ((inner as f32 + correction) * SCALE).max(0.0) as u32
    }
}

/// The largest a unit's sum may reach in steps: below `i16::MAX` by more than the rounding
/// of the rows a board adds up (half a step each, one row a cell, at most
/// [`MAX_SEARCH_CELLS`](crate::puzzle::MAX_SEARCH_CELLS) cells).
const MAX_STEPS: f32 = 32_000.0;

/// The first layer `w` (`cells² × hidden`) in 16-bit steps, one step a unit: the largest
/// sum any board can make, each cell's largest weight in absolute value added up, is
/// [`MAX_STEPS`] steps, so a board's sums always fit. Why: the sums are what a beam keeps
/// for every state and reads for every child; half their bytes, and half the rows' (the
/// 256-unit network's rows are then 660 KB, within the processor's second-level cache),
/// make its pass faster, for corrections within a few hundredths of a move of the floats'
/// (`learned::tests`).
fn quantize(cells: usize, hidden: usize, w: &[f32]) -> (Vec<i16>, Vec<f32>) {
    let step: Vec<f32> = (0..hidden)
        .map(|k| {
            let reach: f32 = (0..cells)
                .map(|cell| {
                    (0..cells)
                        .map(|tile| w[(tile * cells + cell) * hidden + k].abs())
                        .fold(0.0, f32::max)
                })
                .sum();
            if reach > 0.0 {
                reach / MAX_STEPS
            } else {
                1.0
            }
        })
        .collect();
    let wq = w
        .iter()
        .enumerate()
        .map(|(i, &x)| (x / step[i % hidden]).round() as i16)
        .collect();
    (wq, step)
}

/// A ranking (`inner`, e.g. linear conflict plus the tables) plus a [`RankingNet`]'s
/// correction, kept up to date move by move. Not a bound; its values are moves × 64.
#[derive(Clone)]
pub struct Corrected<'n, R> {
    net: &'n RankingNet,
    inner: R,
    inner_value: u32,
    /// The first layer's one-hot sums in steps, the network's first `hidden` of them.
    acc: [i16; MAX_HIDDEN],
}

impl<'n, R> Corrected<'n, R> {
    /// `inner`, corrected by `net`.
    pub fn new(net: &'n RankingNet, inner: R) -> Corrected<'n, R> {
        Corrected {
            net,
            inner,
            inner_value: 0,
            acc: [0; MAX_HIDDEN],
        }
    }

    /// `tile` went from cell `from` to `to`, the blank from `to` to `from`.
    #[inline]
    fn shift(&mut self, tile: u8, from: usize, to: usize) {
        // The tile leaves `from` for `to`; the blank (tile 0) leaves `to` for `from`.
        let [left, came, blank_left, blank_came] = self.net.moved_rows(tile, from, to);
        let rows = left.iter().zip(came).zip(blank_left).zip(blank_came);
        for (a, (((&left, &came), &blank_left), &blank_came)) in self.acc.iter_mut().zip(rows) {
            *a = RankingNet::moved(*a, left, came, blank_left, blank_came);
        }
    }

    /// Bytes of the saved state beyond the inner ranking's: the one-hot part and the inner
    /// value.
    fn own_bytes(&self) -> usize {
        2 * self.net.hidden() + 4
    }

    #[inline]
    fn value(&self) -> u32 {
        RankingNet::scaled(
            self.inner_value,
            self.net.correction(&self.acc, self.inner_value),
        )
    }
}

impl<R: IncrementalHeuristic> IncrementalHeuristic for Corrected<'_, R> {
    /// The inner undo, its value before the move, and the move (to shift back).
    type Undo = (R::Undo, u32, (u8, usize, usize));

    fn init(&mut self, tiles: &[u8]) -> u32 {
        self.inner_value = self.inner.init(tiles);
        self.acc = self.net.accumulate(tiles);
        self.value()
    }

    #[inline]
    fn apply(
        &mut self,
        tiles: &[u8],
        _: u32,
        tile: u8,
        from: usize,
        to: usize,
        m: Move,
    ) -> (u32, Self::Undo) {
        let before = self.inner_value;
        let (inner, undo) = self.inner.apply(tiles, before, tile, from, to, m);
        self.inner_value = inner;
        self.shift(tile, from, to);
        (self.value(), (undo, before, (tile, from, to)))
    }

    #[inline]
    fn undo(&mut self, (undo, before, (tile, from, to)): Self::Undo) {
        self.inner.undo(undo);
        self.inner_value = before;
        self.shift(tile, to, from);
    }

    fn saved_bytes(&self) -> Option<usize> {
        Some(self.inner.saved_bytes()? + self.own_bytes())
    }

    /// The child's one-hot sums go straight into `out`, computed with its correction in one
    /// pass: no shift there and back, no copy (in a beam these were about a third of the
    /// time with 256 units).
    #[inline]
    fn apply_saved(
        &mut self,
        tiles: &[u8],
        _: u32,
        tile: u8,
        from: usize,
        to: usize,
        m: Move,
        out: &mut [u8],
    ) -> u32 {
        let (inner_out, own) = out.split_at_mut(self.inner.saved_bytes().unwrap_or(0));
        let inner = self
            .inner
            .apply_saved(tiles, self.inner_value, tile, from, to, m, inner_out);
        let hidden = self.net.hidden();
        let (sums, value) = own.split_at_mut(2 * hidden);
        let correction =
            self.net
                .child_correction(&self.acc[..hidden], (tile, from, to), inner, sums);
        value[..4].copy_from_slice(&inner.to_le_bytes());
        RankingNet::scaled(inner, correction)
    }

    fn save(&self, out: &mut [u8]) {
        let (inner, own) = out.split_at_mut(self.inner.saved_bytes().unwrap_or(0));
        self.inner.save(inner);
        let hidden = self.net.hidden();
        for (chunk, x) in own.chunks_exact_mut(2).zip(&self.acc[..hidden]) {
            chunk.copy_from_slice(&x.to_le_bytes());
        }
        own[2 * hidden..2 * hidden + 4].copy_from_slice(&self.inner_value.to_le_bytes());
    }

    fn restore(&mut self, saved: &[u8]) {
        let (inner, own) = saved.split_at(self.inner.saved_bytes().unwrap_or(0));
        self.inner.restore(inner);
        let hidden = self.net.hidden();
        let (acc, value) = own.split_at(2 * hidden);
        for (x, c) in self.acc[..hidden].iter_mut().zip(acc.chunks_exact(2)) {
            *x = i16::from_le_bytes([c[0], c[1]]);
        }
        self.inner_value = u32::from_le_bytes([value[0], value[1], value[2], value[3]]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;
    use crate::heuristic::LinearConflict;
    use crate::puzzle::NO_CELL;

    fn six() -> Puzzle {
        Puzzle::new(&GoalSpec::Standard.board("6x6".parse().unwrap()).unwrap()).unwrap()
    }

    #[test]
    fn the_shipped_networks_read_back_to_their_own_bytes_and_serve_only_their_goal() {
        for f in &FITTED {
            let net = RankingNet::for_ranking(&six(), f.inner).expect("a network for 6x6");
            assert_eq!(RankingNet::from_bytes(&net.to_bytes()).as_ref(), Some(net));
            assert_eq!(net.to_bytes(), f.bytes);
            let blank_first = GoalSpec::BlankFirst.board("6x6".parse().unwrap()).unwrap();
            let blank_first = Puzzle::new(&blank_first).unwrap();
            assert!(RankingNet::for_ranking(&blank_first, f.inner).is_none());
            let five = GoalSpec::Standard.board("5x5".parse().unwrap()).unwrap();
            assert!(RankingNet::for_ranking(&Puzzle::new(&five).unwrap(), f.inner).is_none());
            // 36 cells in the same order, another board: not the one it was fitted on.
            let four_by_nine = GoalSpec::Standard.board("4x9".parse().unwrap()).unwrap();
            let four_by_nine = Puzzle::new(&four_by_nine).unwrap();
            assert!(RankingNet::for_ranking(&four_by_nine, f.inner).is_none());
        }
        let [tables, shifted] = [Inner::Tables, Inner::ShiftedTables]
            .map(|inner| RankingNet::for_ranking(&six(), inner).unwrap());
        assert_ne!(tables, shifted);
    }

    /// Each network fits the partition it was fitted with, and no other.
    #[test]
    fn a_network_fits_only_its_own_tables() {
        use crate::heuristic::pdb::{Partition, PartitionSpec};
        let puzzle = six();
        let by_sizes = |s: &str| {
            s.parse::<PartitionSpec>()
                .unwrap()
                .partition(&puzzle)
                .unwrap()
        };
        let five = by_sizes("5-5-5-5-5-5-5");
        let four = by_sizes("4-4-4-4-4-4-4-4-3");
        assert!(RankingNet::fits(&puzzle, &five, Inner::Tables));
        assert!(RankingNet::fits(&puzzle, &four, Inner::ShiftedTables));
        assert!(!RankingNet::fits(&puzzle, &four, Inner::Tables));
        assert!(!RankingNet::fits(&puzzle, &five, Inner::ShiftedTables));
        assert!(!RankingNet::fits(
            &puzzle,
            &by_sizes("6-6-6-6-6-5"),
            Inner::Tables
        ));
        let shifted = Partition::shifted(puzzle.shape, 35).unwrap();
        assert!(!RankingNet::fits(&puzzle, &shifted, Inner::ShiftedTables));
    }

    #[test]
    fn malformed_weights_are_refused() {
        let good = RankingNet::for_ranking(&six(), Inner::Tables)
            .unwrap()
            .to_bytes();
        assert!(RankingNet::from_bytes(&good[..good.len() - 1]).is_none());
        assert!(RankingNet::from_bytes(&good[1..]).is_none());
        let mut nan = good.clone();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(RankingNet::from_bytes(&nan).is_none());
        let mut hidden = good;
        hidden[12..16].copy_from_slice(&7u32.to_le_bytes());
        assert!(RankingNet::from_bytes(&hidden).is_none());
    }

    /// A network of `hidden` units with random weights, of the shipped ones' size.
    fn random_net(hidden: usize, seed: u64) -> RankingNet {
        let mut rng = generate::rng(seed);
        let mut draw = |n: usize| -> Vec<f32> {
            (0..n)
                .map(|_| rand::Rng::random_range(&mut rng, -0.3f32..0.3))
                .collect()
        };
        RankingNet::new(
            36,
            draw(36 * 36 * hidden),
            draw(hidden),
            draw(hidden),
            draw(hidden),
        )
    }

    /// Networks of other sizes than the shipped ones' read back to their own bytes; sizes
    /// the ranking cannot hold are refused.
    #[test]
    fn networks_of_every_allowed_size_round_trip() {
        for hidden in [8, 64, MAX_HIDDEN] {
            let net = random_net(hidden, hidden as u64);
            assert_eq!(net.hidden(), hidden);
            assert_eq!(RankingNet::from_bytes(&net.to_bytes()), Some(net));
        }
        let mut bytes = random_net(MAX_HIDDEN, 1).to_bytes();
        // One unit more than allowed (with the floats it would need, so only the count is wrong).
        bytes[12..16].copy_from_slice(&((MAX_HIDDEN + LANES) as u32).to_le_bytes());
        bytes.extend(std::iter::repeat_n(0u8, 4 * (36 * 36 + 3) * LANES));
        assert!(RankingNet::from_bytes(&bytes).is_none());
    }

    /// Every board's sums fit their 16 bits: per unit, each cell's largest weight in steps
    /// (in absolute value) added up stays within `i16::MAX`; for the shipped networks and
    /// for random ones with weights up to 100 times the shipped ones' largest.
    #[test]
    fn no_board_can_overflow_a_units_sum() {
        let mut nets: Vec<RankingNet> = [Inner::Tables, Inner::ShiftedTables]
            .map(|inner| RankingNet::for_ranking(&six(), inner).unwrap().clone())
            .into();
        let mut rng = generate::rng(9);
        for hidden in [8, 64] {
            let w = (0..36 * 36 * hidden)
                .map(|_| rand::Rng::random_range(&mut rng, -750f32..750.0))
                .collect();
            let zeros = vec![0.0; hidden];
            nets.push(RankingNet::new(36, w, zeros.clone(), zeros.clone(), zeros));
        }
        for net in &nets {
            let (cells, hidden) = (net.cells, net.hidden());
            for k in 0..hidden {
                let reach: i32 = (0..cells)
                    .map(|cell| {
                        (0..cells)
                            .map(|t| i32::from(net.wq[(t * cells + cell) * hidden + k]).abs())
                            .max()
                            .unwrap()
                    })
                    .sum();
                assert!(reach <= i32::from(i16::MAX), "unit {k}: {reach}");
            }
        }
    }

    /// The 16-bit sums move the shipped network's correction by less than a twentieth of a
    /// move (about 0.02 at worst here, a ranking step being 1/64) from the floats it was
    /// fitted as, on random boards and near the goal.
    #[test]
    fn the_quantized_correction_is_the_float_ones_within_a_twentieth_of_a_move() {
        let puzzle = six();
        let net = RankingNet::for_ranking(&puzzle, Inner::Tables).unwrap();
        let lc = LinearConflict::new(&puzzle);
        let hidden = net.hidden();
        let float = |tiles: &[u8], inner: u32| -> f32 {
            let d = inner as f32 / 100.0;
            (0..hidden)
                .map(|k| {
                    let a: f32 = tiles
                        .iter()
                        .enumerate()
                        .map(|(cell, &t)| net.w[(usize::from(t) * 36 + cell) * hidden + k])
                        .sum();
                    let z = a + net.b1[k] + net.wd[k] * d;
                    net.w2[k] * z.max(0.0)
                })
                .sum()
        };
        let mut rng = generate::rng(11);
        let mut worst = 0f32;
        for i in 0..200 {
            let board = if i % 2 == 0 {
                generate::random_solvable(&puzzle.goal_board(), &mut rng)
            } else {
                generate::random_walk(&puzzle.goal_board(), 20 + i, &mut rng)
            };
            let tiles = puzzle.encode(&board);
            let inner = lc.clone().init(&tiles);
            let quantized = net.correction(&net.accumulate(&tiles), inner);
            worst = worst.max((quantized - float(&tiles, inner)).abs());
        }
        assert!(worst < 0.05, "{worst} moves");
        assert!(worst > 0.0, "the sums are quantized");
    }

    /// Along a random walk, moved, undone, saved and restored: the corrected ranking is
    /// always the network's value of the whole board with linear conflict inside; with the
    /// shipped network and with one of the most units allowed.
    #[test]
    fn the_correction_follows_the_board_through_moves_undos_and_restores() {
        let shipped = RankingNet::for_ranking(&six(), Inner::Tables).unwrap();
        follow_a_walk(shipped);
        follow_a_walk(&random_net(MAX_HIDDEN, 5));
    }

    fn follow_a_walk(net: &RankingNet) {
        let puzzle = six();
        let lc = LinearConflict::new(&puzzle);
        let exact = |tiles: &[u8]| net.value(tiles, lc.clone().init(tiles));
        let start = generate::random_solvable(&puzzle.goal_board(), &mut generate::rng(3));
        let mut tiles = puzzle.encode(&start);
        let mut rank = Corrected::new(net, lc.clone());
        let mut h = rank.init(&tiles);
        assert_eq!(h, exact(&tiles));
        let mut saved = vec![0u8; rank.saved_bytes().unwrap()];
        let mut blank = tiles.iter().position(|&t| t == 0).unwrap();
        let mut distinct = std::collections::HashSet::new();
        let mut rng = generate::rng(4);
        for step in 0..300usize {
            let moves: Vec<Move> = Move::ALL
                .into_iter()
                .filter(|m| puzzle.neighbours[blank][m.index()] != NO_CELL)
                .collect();
            let m = moves[rand::Rng::random_range(&mut rng, 0..moves.len())];
            let to = usize::from(puzzle.neighbours[blank][m.index()]);
            let tile = tiles[to];
            tiles.swap(blank, to);
            // The child's value and state written straight out, the ranking left as it was.
            let mut written = vec![0u8; saved.len()];
            let before = rank.clone();
            let value = rank.apply_saved(&tiles, h, tile, to, blank, m, &mut written);
            assert!(rank.acc == before.acc && rank.inner_value == before.inner_value);
            let (next, undo) = rank.apply(&tiles, h, tile, to, blank, m);
            assert_eq!(value, next, "after move {step}");
            rank.save(&mut saved);
            assert_eq!(written, saved, "after move {step}");
            // The sums are integers: in any order of moves, the whole board's exactly.
            assert_eq!(next, exact(&tiles), "after move {step}");
            distinct.insert(next);
            if step % 3 == 0 {
                rank.undo(undo);
                tiles.swap(blank, to);
                rank.save(&mut saved);
                let mut copy = Corrected::new(net, lc.clone());
                copy.init(&puzzle.goal);
                copy.restore(&saved);
                tiles.swap(blank, to);
                assert_eq!(copy.apply(&tiles, h, tile, to, blank, m).0, next);
                tiles.swap(blank, to);
                continue;
            }
            h = next;
            blank = to;
        }
        // The values move with the board (a constant would pass the checks above).
        assert!(distinct.len() > 50);
    }
}
