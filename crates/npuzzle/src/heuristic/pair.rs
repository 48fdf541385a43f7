//! Two heuristics kept up to date move by move, their values combined: summed, a ranking
//! for a search that keeps the best few (a beam) and proves nothing, so it need not be a
//! lower bound; or the larger taken, a lower bound when both parts are.

use super::IncrementalHeuristic;
use crate::moves::Move;

/// Two heuristics, both kept up to date move by move, whose values are added (`LARGER`
/// false, [`RankingSum`]) or whose larger value is taken ([`Larger`]). The choice is a
/// constant, so the beam's inner loop pays no call through a pointer for it.
#[derive(Clone)]
pub struct Pair<A, B, const LARGER: bool> {
    a: A,
    b: B,
    /// The parts' values for the state the heuristic is at.
    values: (u32, u32),
}

/// `a + b`: a ranking, not a bound (it can be twice the distance).
///
/// Two lower bounds whose errors are partly independent rank states better summed than
/// either does alone. On 6×6 a beam ranked by linear conflict plus the `5-5-5-5-5-5-5`
/// tables finds paths 3 % to 4 % shorter than one ranked by linear conflict in the same
/// time, and the anytime engine's 15-second answers are 2 % to 3.5 % shorter
/// (`docs/performance.md`).
pub type RankingSum<A, B> = Pair<A, B, false>;

/// `max(a, b)`: a lower bound when both parts are; the move-by-move form of
/// [`Max`](super::Max), which evaluates whole states. Ranked together with linear conflict on
/// 6×6, two partitions of 4-tile tables (their larger value, or both summed) rank about as
/// well as the 5-tile tables (`examples/beam_probe`, `docs/performance.md`).
///
/// A pair updates both parts with `apply` and prefetches nothing: the pattern databases'
/// `apply_cut` (which skips lookups that cannot matter) and `prefetch` are not passed on,
/// so IDA* over a pair of tables would run slower than their values alone explain.
pub type Larger<A, B> = Pair<A, B, true>;

impl<A, B, const LARGER: bool> Pair<A, B, LARGER> {
    /// `a` and `b`, combined.
    pub fn new(a: A, b: B) -> Pair<A, B, LARGER> {
        Pair {
            a,
            b,
            values: (0, 0),
        }
    }

    /// The combined value of the parts' values.
    #[inline]
    fn combined((a, b): (u32, u32)) -> u32 {
        if LARGER {
            a.max(b)
        } else {
            a + b
        }
    }
}

/// Bytes of the parts' values at the end of the saved state.
const VALUES_BYTES: usize = 8;

impl<A: IncrementalHeuristic, B: IncrementalHeuristic, const LARGER: bool> IncrementalHeuristic
    for Pair<A, B, LARGER>
{
    /// The parts' undos and their values before the move.
    type Undo = (A::Undo, B::Undo, (u32, u32));
    const READS_TILES: bool = A::READS_TILES || B::READS_TILES;

    fn init(&mut self, tiles: &[u8]) -> u32 {
        self.values = (self.a.init(tiles), self.b.init(tiles));
        Self::combined(self.values)
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
        let before = self.values;
        let (a, undo_a) = self.a.apply(tiles, before.0, tile, from, to, m);
        let (b, undo_b) = self.b.apply(tiles, before.1, tile, from, to, m);
        self.values = (a, b);
        (Self::combined(self.values), (undo_a, undo_b, before))
    }

    #[inline]
    fn undo(&mut self, (undo_a, undo_b, before): Self::Undo) {
        self.b.undo(undo_b);
        self.a.undo(undo_a);
        self.values = before;
    }

    fn saved_bytes(&self) -> Option<usize> {
        Some(self.a.saved_bytes()? + self.b.saved_bytes()? + VALUES_BYTES)
    }

    fn save(&self, out: &mut [u8]) {
        let (a, rest) = out.split_at_mut(self.a.saved_bytes().unwrap_or(0));
        let (b, values) = rest.split_at_mut(self.b.saved_bytes().unwrap_or(0));
        self.a.save(a);
        self.b.save(b);
        values[..4].copy_from_slice(&self.values.0.to_le_bytes());
        values[4..VALUES_BYTES].copy_from_slice(&self.values.1.to_le_bytes());
    }

    fn restore(&mut self, saved: &[u8]) {
        let (a, rest) = saved.split_at(self.a.saved_bytes().unwrap_or(0));
        let (b, values) = rest.split_at(self.b.saved_bytes().unwrap_or(0));
        self.a.restore(a);
        self.b.restore(b);
        let word =
            |i: usize| u32::from_le_bytes([values[i], values[i + 1], values[i + 2], values[i + 3]]);
        self.values = (word(0), word(4));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate;
    use crate::heuristic::pdb::{PartitionSpec, PatternDatabase};
    use crate::heuristic::{LinearConflict, Manhattan};
    use crate::puzzle::Puzzle;
    use crate::{GoalSpec, Tables};

    /// Along a random walk, applied move by move, saved and restored, undone: the pair's
    /// value is always `combine` of the two parts' values on the whole board.
    fn follows_its_parts<const LARGER: bool>(combine: fn(u32, u32) -> u32) {
        let goal = GoalSpec::Standard.board("4x4".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let partition: PartitionSpec = "5-5-5".parse().unwrap();
        let partition = partition.partition(&puzzle).unwrap();
        let db = PatternDatabase::from_tables(&puzzle, &partition, &Tables::default()).unwrap();
        let exact = |tiles: &[u8]| {
            combine(
                LinearConflict::new(&puzzle).init(tiles),
                db.search().init(tiles),
            )
        };
        let mut pair = Pair::<_, _, LARGER>::new(LinearConflict::new(&puzzle), db.search());
        let mut rng = generate::rng(5);
        let start = generate::random_solvable(&goal, &mut rng);
        let mut tiles = puzzle.encode(&start);
        let mut h = pair.init(&tiles);
        assert_eq!(h, exact(&tiles));
        let mut saved = vec![0u8; pair.saved_bytes().unwrap()];
        let mut blank = tiles.iter().position(|&t| t == 0).unwrap();
        for step in 0..400u32 {
            let moves: Vec<Move> = Move::ALL
                .into_iter()
                .filter(|m| puzzle.neighbours[blank][m.index()] != crate::puzzle::NO_CELL)
                .collect();
            let m = moves[step as usize * 7 % moves.len()];
            let to = usize::from(puzzle.neighbours[blank][m.index()]);
            let tile = tiles[to];
            tiles.swap(blank, to);
            let (next, undo) = pair.apply(&tiles, h, tile, to, blank, m);
            assert_eq!(next, exact(&tiles), "after move {step}");
            if step % 3 == 0 {
                // Back out, and check the state is as it was.
                pair.undo(undo);
                tiles.swap(blank, to);
                pair.save(&mut saved);
                let mut copy = Pair::<_, _, LARGER>::new(LinearConflict::new(&puzzle), db.search());
                copy.init(&puzzle.encode(&goal));
                copy.restore(&saved);
                tiles.swap(blank, to);
                let (again, _) = copy.apply(&tiles, h, tile, to, blank, m);
                assert_eq!(again, next, "restored, move {step}");
                tiles.swap(blank, to);
                continue;
            }
            h = next;
            blank = to;
        }
    }

    #[test]
    fn the_sum_follows_its_parts_through_moves_saves_and_undos() {
        follows_its_parts::<false>(|a, b| a + b);
        // A part's own value is its own: the sum of Manhattan with itself doubles it.
        let goal = GoalSpec::Standard.board("4x4".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let tiles = puzzle.encode(&generate::random_solvable(&goal, &mut generate::rng(5)));
        let mut double = RankingSum::new(Manhattan::new(&puzzle), Manhattan::new(&puzzle));
        assert_eq!(
            double.init(&tiles),
            2 * Manhattan::new(&puzzle).init(&tiles)
        );
    }

    #[test]
    fn the_larger_follows_its_parts_through_moves_saves_and_undos() {
        follows_its_parts::<true>(u32::max);
    }
}
