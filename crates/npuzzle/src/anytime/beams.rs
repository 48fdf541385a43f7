//! The improve phase's beam searches: what they rank states by, and beams ever wider as
//! the time allows, the one the time cuts off finished from its best state.

use std::time::{Duration, Instant};

use super::{state_after, Run, Schedule};
use crate::heuristic::learned::{Corrected, Inner, RankingNet};
use crate::heuristic::{IncrementalHeuristic, LinearConflict, RankingSum};
use crate::moves::Move;
use crate::puzzle::Puzzle;
use crate::search;
use crate::shape::Shape;

/// What the beam searches of the improve phase rank states by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BeamRanking {
    /// Linear conflict.
    LinearConflict,
    /// Linear conflict plus the run's heuristic, pattern databases ([`RankingSum`]).
    WithTables,
    /// Linear conflict plus the run's tables plus a second partition's
    /// ([`Partition::shifted`](crate::heuristic::pdb::Partition::shifted)), when the
    /// caller passes them ([`run_ranked`](super::run_ranked)); without them, as `WithTables`.
    WithShiftedTables,
    /// `WithTables` (`Inner::Tables`) or `WithShiftedTables` (`Inner::ShiftedTables`),
    /// corrected by the network fitted for it ([`RankingNet::for_ranking`]: 6×6's standard
    /// goal); without one, as the ranking it corrects. The network learned its corrections
    /// against particular tables ([`RankingNet::fits`] says which), as the plan checks.
    Learned(Inner),
}

impl std::fmt::Display for BeamRanking {
    /// `linear-conflict`, `linear-conflict+tables`, `linear-conflict+tables+shifted`, and
    /// either of the last two with `+learned`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BeamRanking::LinearConflict => "linear-conflict",
            BeamRanking::WithTables => "linear-conflict+tables",
            BeamRanking::WithShiftedTables => "linear-conflict+tables+shifted",
            BeamRanking::Learned(Inner::Tables) => "linear-conflict+tables+learned",
            BeamRanking::Learned(Inner::ShiftedTables) => "linear-conflict+tables+shifted+learned",
        })
    }
}

impl BeamRanking {
    /// Whether the beams rank with the shifted partition's tables (which the caller passes
    /// to [`run_ranked`](super::run_ranked)).
    pub fn uses_shifted(self) -> bool {
        matches!(
            self,
            BeamRanking::WithShiftedTables | BeamRanking::Learned(Inner::ShiftedTables)
        )
    }

    /// The ranking for a run on a board of `shape` whose pattern databases' largest
    /// pattern has `tiles` tiles.
    ///
    /// Measured with `examples/beam_probe` and through the engine (docs/performance.md):
    /// with 6×6's 5-tile tables the sum gives answers 2 % to 4 % shorter than linear
    /// conflict alone in the same time. With 4-tile tables it pays on boards at least six
    /// cells each way (6×6 193.6 against 197.5 on forty uniform boards at 15 s, 7×7 340.7
    /// against 343.0 on twenty at 30 s; 8×8 even, 572.9 against 570.9 on twelve), not on
    /// narrower ones (5×6 149.3 against 149.9, 4×7 141.9 against 140.0, 4×8 188.5 against
    /// 186.9, twenty boards each). 3-tile tables were not measured, and keep linear
    /// conflict. With 4-tile tables on a shape that has a
    /// [`shifted`](crate::heuristic::pdb::Partition::shifted) partition (6×6), that one's
    /// tables join the sum: with them 4-tile tables rank about as well as 5-tile ones.
    pub fn for_tables(tiles: usize, shape: Shape) -> BeamRanking {
        let shifted = || crate::heuristic::pdb::Partition::shifted(shape, 0).is_some();
        if tiles == 4 && shifted() {
            BeamRanking::WithShiftedTables
        } else if tiles >= 5 || (tiles == 4 && shape.rows().min(shape.cols()) >= 6) {
            BeamRanking::WithTables
        } else {
            BeamRanking::LinearConflict
        }
    }
}

/// What the beams may rank by beside linear conflict: the run's tables, and a second
/// partition's when the caller has them.
pub(super) struct Ranks<'r, H, S> {
    pub tables: &'r H,
    pub shifted: Option<&'r S>,
}

/// Beam searches of growing width (`schedule.beam_*`), ranked as `schedule.beam_ranking`
/// says (with `ranks`' tables in the sum), on the boards the schedule gives them.
pub(super) fn beams<H, S>(
    run: &mut Run<'_>,
    puzzle: &Puzzle,
    tiles: &[u8],
    ranks: Ranks<'_, H, S>,
    schedule: &Schedule,
    until: Duration,
) where
    H: IncrementalHeuristic + Clone,
    S: IncrementalHeuristic + Clone,
{
    // No `Puzzle` has more than `MAX_SEARCH_CELLS` (255) cells, so no beam runs past
    // them, where a state is a kilobyte or more and a narrow beam's depth outlasts any budget.
    if puzzle.cells() < schedule.beam_from_cells || schedule.beam_share <= 0.0 {
        return;
    }
    let lc = LinearConflict::new(puzzle);
    let with_tables = || RankingSum::new(lc.clone(), ranks.tables.clone());
    if schedule.beam_ranking == BeamRanking::LinearConflict {
        return widening_beams(run, puzzle, tiles, &lc, schedule, until);
    }
    let shifted = ranks
        .shifted
        .filter(|_| schedule.beam_ranking.uses_shifted());
    // The learned correction, when the schedule asks for it and one fits this goal.
    let net = match schedule.beam_ranking {
        BeamRanking::Learned(inner) => RankingNet::for_ranking(puzzle, inner),
        _ => None,
    };
    match (shifted, net) {
        (Some(shifted), Some(net)) => {
            let rank = Corrected::new(net, RankingSum::new(with_tables(), shifted.clone()));
            widening_beams(run, puzzle, tiles, &rank, schedule, until)
        }
        (Some(shifted), None) => {
            let rank = RankingSum::new(with_tables(), shifted.clone());
            widening_beams(run, puzzle, tiles, &rank, schedule, until)
        }
        // A network fitted with the shifted tables corrects no sum without them.
        (None, Some(net)) if !schedule.beam_ranking.uses_shifted() => {
            let rank = Corrected::new(net, with_tables());
            widening_beams(run, puzzle, tiles, &rank, schedule, until)
        }
        _ => widening_beams(run, puzzle, tiles, &with_tables(), schedule, until),
    }
}

/// Beam searches ranked by `rank`, each path offered and shortened, for at most
/// `schedule.beam_share` of the time left before `until`. A search's time grows about
/// linearly with its width, so each next width is what the time left allows
/// ([`next_width`]); wide beams take a little longer than that, and the one the time cuts
/// off is finished from its best state (`finish_beam`).
fn widening_beams<R: IncrementalHeuristic + Clone>(
    run: &mut Run<'_>,
    puzzle: &Puzzle,
    tiles: &[u8],
    rank: &R,
    schedule: &Schedule,
    until: Duration,
) {
    let began = run.watch.began;
    let end = began.elapsed()
        + until
            .saturating_sub(began.elapsed())
            .mul_f64(schedule.beam_share);
    let mut width = schedule.beam_first_width;
    // The widest beam that finished, and how long it took.
    let mut finished: Option<(usize, Duration)> = None;
    loop {
        let left = end.saturating_sub(began.elapsed());
        if run.done() || left.is_zero() {
            return;
        }
        let below = run.moves.as_ref().map_or(u32::MAX, |m| m.len() as u32);
        let started = Instant::now();
        let control = run.sub(Some(left));
        let (out, prefix) =
            search::beam_with_prefix(puzzle, tiles, rank.clone(), width, below, control);
        let took = started.elapsed();
        run.add(&out.stats);
        match out.moves {
            Some(moves) => {
                run.offer(moves, &format!("beam width={width}"));
                run.shorten(puzzle, tiles);
            }
            None if run.user_stop(out.stopped_by) => return,
            None => {}
        }
        if out.stopped_by.is_some() {
            // Cut off by its share of the time: its best state so far, finished by the
            // widest beam that finished, from there.
            if let (Some(prefix), Some((narrower, time))) = (prefix, finished) {
                let cut = Cut { width, prefix };
                finish_beam(run, puzzle, tiles, rank, cut, narrower, time, until);
            }
            return;
        }
        finished = Some((width, took));
        match next_width(width, took, end.saturating_sub(began.elapsed())) {
            Some(next) => width = next,
            None => return,
        }
    }
}

/// The width of the beam after one `width` states wide that took `took`, with `left` of
/// the beams' time to go; `None` when no wider one fits.
///
/// A beam's time grows about linearly with its width (a little faster), and the widest
/// beam gives the answer, so most of the time should go to the last one. Each beam is
/// four times as wide as the one before while the time left would then still hold a
/// wider one; otherwise the next beam is the last, as wide as the time allows. (With
/// four times at most every step, the last beam on a 6×6 board at 15 s was 16,000 wide
/// and left a third of the beams' time unused; jumping straight to a last beam fifteen to
/// twenty times as wide, 7×7 boards at 30 s lost it to the time.)
fn next_width(width: usize, took: Duration, left: Duration) -> Option<usize> {
    let took = took.as_secs_f64().max(1e-3);
    // How many beams as wide as this one fit in `time`, leaving a fifth for the spread
    // between runs.
    let room = |time: f64| time / took * 0.8;
    let left = left.as_secs_f64();
    // What a beam four times as wide would leave, in its own widths.
    let after_four = room(left - 4.0 * took) / 4.0;
    let factor = if after_four > 1.0 { 4.0 } else { room(left) };
    let next = (width as f64 * factor) as usize;
    (next > width).then_some(next)
}

/// A beam that its time cut off: its width, and the moves to the state it ranked best.
struct Cut {
    width: usize,
    prefix: Vec<Move>,
}

/// Finishes the path of a beam that its time cut off with a beam `narrower` states wide
/// from the state it ranked best (the narrower beam took `time` for a whole path from the
/// start), within half the time left before `until` and twice `time`. The whole path is
/// offered (and shortened) when it is shorter than the incumbent.
///
/// A beam sized by the time the last one took sometimes runs out of time (a beam's time
/// grows a little faster than its width, and the machine's speed varies), and all it did
/// was lost; its best state is deeper and better placed than the narrower beam's states
/// were at that depth.
#[allow(clippy::too_many_arguments)]
fn finish_beam<R: IncrementalHeuristic + Clone>(
    run: &mut Run<'_>,
    puzzle: &Puzzle,
    tiles: &[u8],
    rank: &R,
    Cut { width, prefix }: Cut,
    narrower: usize,
    time: Duration,
    until: Duration,
) {
    let below = run.moves.as_ref().map_or(u32::MAX, |m| m.len() as u32);
    let Some(room) = below.checked_sub(prefix.len() as u32).filter(|&r| r > 0) else {
        return;
    };
    let left = until.saturating_sub(run.watch.began.elapsed()) / 2;
    let middle = state_after(puzzle, tiles, &prefix);
    let control = run.sub(Some(left.min(time * 2)));
    let out = search::beam(puzzle, &middle, rank.clone(), narrower, room, control);
    run.add(&out.stats);
    match out.moves {
        Some(rest) => {
            let mut moves = prefix;
            moves.extend(rest);
            let by = format!("beam width={narrower} after width={width} ran out of time");
            run.offer(moves, &by);
            run.shorten(puzzle, tiles);
        }
        None => {
            run.user_stop(out.stopped_by);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: f64) -> Duration {
        Duration::from_secs_f64(s)
    }

    /// Beams widen fourfold while the time left would then hold a wider one still, then
    /// the last one takes what is left (less a fifth), and none starts that would be no
    /// wider.
    #[test]
    fn the_last_beam_takes_the_time_left() {
        // 4 s for a beam four times as wide leaves 6 s, room for one 1.2 times wider.
        assert_eq!(next_width(1_000, secs(1.0), secs(10.0)), Some(4_000));
        assert_eq!(next_width(1_000, secs(0.25), secs(10.0)), Some(4_000));
        // 4 s would leave 4 s, room for none wider: the last beam, as wide as 8 s allow
        // less a fifth.
        assert_eq!(next_width(1_000, secs(1.0), secs(8.0)), Some(6_400));
        // A 6x6 board at 15 s: 4,000 wide in 1.3 s with 9.25 s left, where the cap of
        // four times used to stop at 16,000.
        let next = next_width(4_000, secs(1.3), secs(9.25)).unwrap();
        assert!((22_000..23_000).contains(&next), "{next}");
        // No room for a wider beam, or none at all.
        assert_eq!(next_width(4_000, secs(1.0), secs(1.2)), None);
        assert_eq!(next_width(4_000, secs(1.0), Duration::ZERO), None);
        assert_eq!(next_width(4_000, Duration::ZERO, Duration::ZERO), None);
    }
}
