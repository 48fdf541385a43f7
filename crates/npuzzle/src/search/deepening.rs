//! Which thresholds an IDA* search iterates at, and when it is over: the part of the
//! search that every kernel (serial, general, parallel) shares.
//!
//! Plain IDA* iterates at every threshold from the start's heuristic value up, each
//! iteration proving that no shorter path exists, until one finds a path. A proof with a
//! [`lookahead`](super::lookahead) looks ahead before each iteration, and with a
//! **window** of `w` thresholds it may also skip iterations: it looks ahead at the proven
//! bound `B` and at `B + 2`, …, `B + 2(w - 1)` (each with the budget of the iteration
//! before it, estimated from the two last iterations' growth), and when none finds a path
//! it runs one iteration at the highest, which proves every threshold up to it at once:
//! an iteration's tree holds the trees of every lower threshold, so the iterations at
//! `B`, …, `B + 2(w - 2)` need not run. When a lookahead at `T` above the proven bound
//! finds a path of length `L`, that path is kept (it is not yet known to be shortest) and
//! the next iteration runs at `L - 1`: if it ends without a path, `L` is optimal; if it
//! finds one, that one is shorter and is kept in turn. A path is returned only once every
//! shorter length is ruled out, so the answer is optimal as plain IDA*'s is.
//!
//! Why: on the 24-puzzle each iteration is 7 to 11 times the one before, and the last one
//! a proof needs (below the optimum) is most of it; the iterations below that one are
//! about a tenth of a proof's nodes (Korf & Felner's ten easiest, `docs/performance.md`),
//! and a window of [`PROOF_WINDOW`] thresholds skips most of them. The cost: a search
//! stopped by a limit has proved less (its bound lags the threshold it was searching by up
//! to `2(w - 1)`), so only the proofs of `search::idastar_with_lookahead` open a window
//! (not the anytime engine's, whose bound is part of every answer), and only once an
//! iteration has generated [`SKIP_FROM`] nodes (below that, iterations cost less than the
//! lookaheads and their growth is too erratic to extrapolate).

use super::lookahead::{Ask, LookFn, Looked};
use super::{Report, SearchStats, StopReason};
use crate::moves::Move;

/// The window of a proof (`search::idastar_with_lookahead`): four thresholds, so at most
/// three iterations are skipped at a time and a search stopped by a limit has proved at
/// most 6 moves less than without skipping. On Korf & Felner's ten easiest 24-puzzles
/// (`6-6-6-6`, 14-move pruning) a window of 3 generates 0.925 of the nodes of none, 4
/// generates 0.897 (simulated from each iteration's and lookahead's nodes: 0.93, and 0.90
/// for 4 or more), one thread takes 0.93 of the time on #37 and #13, and two threads 0.85
/// to 0.94 on the ten (`docs/performance.md`).
pub(crate) const PROOF_WINDOW: u32 = 4;

/// Generated nodes of an iteration after which a window opens.
pub(crate) const SKIP_FROM: u64 = 1 << 17;

/// Where an IDA* search starts and stops, who hears of each threshold it proves, and how it
/// looks ahead.
pub(crate) struct Deepening<'c> {
    /// The first threshold, when a lower bound above the start's heuristic value is known.
    pub first: u32,
    /// Give up once the threshold reaches this: a path of this length is known.
    pub below: u32,
    /// Told each new threshold after an iteration ends without a path: a proven lower
    /// bound on the optimal length (with an admissible heuristic).
    pub on_bound: Option<&'c mut dyn FnMut(u32)>,
    /// Asked before an iteration, with a threshold, the nodes of the iteration below it
    /// (its budget) and the search's so far, for a path no longer than the threshold (see
    /// [`lookahead`](super::lookahead)).
    pub lookahead: Option<&'c LookFn<'c>>,
    /// Thresholds looked ahead at before an iteration, the proven bound included (see the
    /// module docs): 1 runs every iteration.
    pub window: u32,
    /// Generated nodes of an iteration after which the window opens ([`SKIP_FROM`]).
    pub skip_from: u64,
    /// What the search has found so far (starts empty).
    pub state: Proof,
}

impl Default for Deepening<'_> {
    fn default() -> Self {
        Deepening {
            first: 0,
            below: u32::MAX,
            on_bound: None,
            lookahead: None,
            window: 1,
            skip_from: SKIP_FROM,
            state: Proof::default(),
        }
    }
}

/// A search's progress towards a proof.
#[derive(Debug, Default)]
pub(crate) struct Proof {
    /// No path is shorter than this: every lower threshold has been searched in full.
    proven: u32,
    /// The last two completed iterations, (threshold, generated nodes), older first.
    sizes: [Option<(u32, u64)>; 2],
    /// A path not yet known to be shortest.
    incumbent: Option<Vec<Move>>,
}

/// What to do next, as [`Deepening::before`] decides.
#[derive(Debug)]
pub(crate) enum Before {
    /// The search is over: a shortest path, or `stopped_by` a limit during a lookahead.
    Over {
        moves: Option<Vec<Move>>,
        stopped_by: Option<StopReason>,
    },
    /// Run the iteration at `bound`. With `look`, the caller first runs the lookaheads of
    /// [`Deepening::asks`] beside it, and a path one finds may lower it (see
    /// `search::parallel`).
    Iterate { bound: u32, look: bool },
}

/// What follows an iteration that ended without a path, as [`Deepening::completed`] says.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum After {
    /// Go on: [`Deepening::before`] says at which threshold.
    Continue,
    /// Over: the kept path, now proved shortest, or none (the threshold reached `below`,
    /// or no state is left).
    Over(Option<Vec<Move>>),
}

impl Deepening<'_> {
    /// Starts a search whose start has heuristic value `h0`: whether there is anything to
    /// search (the first threshold is below [`below`](Self::below)).
    pub(crate) fn start(&mut self, h0: u32) -> bool {
        self.state = Proof {
            proven: h0.max(self.first),
            ..Proof::default()
        };
        self.state.proven < self.below
    }

    /// The proven lower bound: every shorter length is ruled out.
    pub(crate) fn proven(&self) -> u32 {
        self.state.proven
    }

    /// The threshold of the next iteration, after the lookaheads before it: run here, or
    /// (with `beside`) left to the caller, who runs [`look_ahead`](Self::look_ahead) beside
    /// the iteration. `used`: the search's counters so far; `report`: where the lookaheads'
    /// progress goes (see [`Ask::report`]). The counters returned are those of the
    /// lookaheads run here.
    pub(crate) fn before(
        &mut self,
        used: &SearchStats,
        beside: bool,
        report: Option<Report<'_>>,
    ) -> (SearchStats, Before) {
        let mut stats = SearchStats::default();
        loop {
            if let Some(kept) = &self.state.incumbent {
                // Only the proof below the kept path is left.
                let bound = kept.len() as u32 - 1;
                return (stats, Before::Iterate { bound, look: false });
            }
            let bound = self.top();
            if self.lookahead.is_none() {
                return (stats, Before::Iterate { bound, look: false });
            }
            if beside {
                return (stats, Before::Iterate { bound, look: true });
            }
            let mut so_far = *used;
            so_far.absorb(&stats);
            let looked = self.look_ahead(&so_far, report);
            stats.absorb(&looked.stats);
            if let Some(stopped_by) = looked.stopped_by {
                let stopped_by = Some(stopped_by);
                return (
                    stats,
                    Before::Over {
                        moves: None,
                        stopped_by,
                    },
                );
            }
            match looked.moves.map(|moves| self.found(moves)) {
                Some(Some(moves)) => {
                    let over = Before::Over {
                        moves: Some(moves),
                        stopped_by: None,
                    };
                    return (stats, over);
                }
                Some(None) => continue, // kept: the proof below it is next
                None => return (stats, Before::Iterate { bound, look: false }),
            }
        }
    }

    /// The lookaheads before the next iteration, from the proven bound up to its threshold
    /// (one unless a window is open), until one finds a path or a limit stops it; `used`:
    /// the search's counters so far, `report` as [`Ask::report`]. Their counters together.
    pub(crate) fn look_ahead(&mut self, used: &SearchStats, report: Option<Report<'_>>) -> Looked {
        let mut all = Looked::default();
        let Some(look) = self.lookahead else {
            return all;
        };
        for ask in self.asks() {
            let mut ask = Ask {
                used: *used,
                report,
                ..ask
            };
            ask.used.absorb(&all.stats);
            all.then(look(ask));
            if all.ends_search() {
                break;
            }
        }
        all
    }

    /// The lookaheads [`look_ahead`](Self::look_ahead) runs, in its order (the
    /// thresholds from the proven bound up, two apart, each with its budget's basis); their
    /// `used` is left for the caller.
    pub(crate) fn asks(&self) -> Vec<Ask<'static>> {
        let top = self.top();
        let thresholds = (self.state.proven..=top).step_by(2);
        let mut asks: Vec<Ask<'static>> = thresholds
            .map(|threshold| Ask {
                threshold,
                previous: self.estimate(threshold),
                ..Ask::default()
            })
            .collect();
        if asks.last().is_some_and(|a| a.threshold != top) {
            // `top` is clamped below `below` and may not be an even step up.
            asks.push(Ask {
                threshold: top,
                previous: self.estimate(top),
                ..Ask::default()
            });
        }
        asks
    }

    /// A path of at most the threshold searched, found by an iteration or a lookahead:
    /// returned when it is proved shortest, else kept (`None`) for the iterations below it
    /// to prove or improve.
    pub(crate) fn found(&mut self, moves: Vec<Move>) -> Option<Vec<Move>> {
        if moves.len() as u32 <= self.state.proven {
            return Some(moves);
        }
        self.state.incumbent = Some(moves);
        None
    }

    /// The path kept for the iterations below it to prove, when a limit stops them first:
    /// the shortest found, not known to be shortest (the proven bound is below it).
    pub(crate) fn unproved(&mut self) -> Option<Vec<Move>> {
        self.state.incumbent.take()
    }

    /// An iteration at `bound` ended after `nodes` nodes without a path; `next_bound` is
    /// the smallest `f` above `bound` it saw, the new proven bound.
    pub(crate) fn completed(&mut self, bound: u32, nodes: u64, next_bound: u32) -> After {
        self.state.sizes = [self.state.sizes[1], Some((bound, nodes))];
        if next_bound == u32::MAX {
            return After::Over(None); // no more states (unsolvable input, which callers rule out)
        }
        if let Some(f) = self.on_bound.as_mut() {
            f(next_bound);
        }
        if let Some(kept) = self.state.incumbent.take() {
            // The iteration ran below the kept path (`before`), so it is now shortest.
            self.state.proven = kept.len() as u32;
            return After::Over(Some(kept));
        }
        if next_bound >= self.below {
            return After::Over(None);
        }
        self.state.proven = next_bound;
        After::Continue
    }

    /// The highest threshold to look ahead at: the proven bound unless a window is open.
    fn top(&self) -> u32 {
        let low = self.state.proven;
        let open = self.window > 1
            && self.state.sizes[0].is_some()
            && self.state.sizes[1].is_some_and(|(_, n)| n >= self.skip_from);
        if !open {
            return low;
        }
        let top = low.saturating_add(2 * (self.window - 1));
        top.min(self.below.saturating_sub(1)).max(low)
    }

    /// The budget basis of a lookahead at `threshold`: the nodes of the iteration two
    /// below it, measured if it ran, else extrapolated from the growth between the last
    /// two that ran (0 before any has).
    fn estimate(&self, threshold: u32) -> u64 {
        match self.state.sizes {
            [_, None] => 0,
            [None, Some((_, n))] => n,
            [Some((t1, n1)), Some((t2, n2))] => {
                let target = threshold.saturating_sub(2);
                if target <= t2 || t2 <= t1 || n1 == 0 {
                    return n2;
                }
                // Growth per two thresholds, compounded up to the target.
                let per_two = (n2 as f64 / n1 as f64).powf(2.0 / f64::from(t2 - t1));
                let steps = f64::from(target - t2) / 2.0;
                (n2 as f64 * per_two.max(1.0).powf(steps)).min(u64::MAX as f64 / 2.0) as u64
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sized(window: u32, sizes: &[(u32, u64)]) -> Deepening<'static> {
        let mut how = Deepening {
            window,
            skip_from: 100,
            ..Deepening::default()
        };
        assert!(how.start(40));
        for &(t, n) in sizes {
            assert_eq!(how.completed(t, n, t + 2), After::Continue);
        }
        how
    }

    #[test]
    fn estimates_follow_the_last_growth() {
        let how = sized(3, &[(40, 100), (42, 800)]);
        assert_eq!(how.proven(), 44);
        assert_eq!(how.estimate(44), 800, "the iteration below ran");
        assert_eq!(how.estimate(46), 6_400);
        assert_eq!(how.estimate(48), 51_200);
        assert_eq!(how.top(), 48, "a window of three thresholds");
        assert_eq!(sized(1, &[(40, 100), (42, 800)]).top(), 44);
        assert_eq!(
            sized(3, &[(40, 10), (42, 80)]).top(),
            44,
            "too small to skip"
        );
    }

    #[test]
    fn a_kept_path_is_proved_by_the_iteration_below_it() {
        let mut how = sized(3, &[(40, 100), (42, 800)]);
        let path = vec![Move::Up; 47];
        assert_eq!(how.found(path.clone()), None, "47 is above the proven 44");
        let (_, next) = how.before(&SearchStats::default(), false, None);
        assert!(
            matches!(
                next,
                Before::Iterate {
                    bound: 46,
                    look: false,
                    ..
                }
            ),
            "{next:?}"
        );
        assert_eq!(how.completed(46, 5_000, 48), After::Over(Some(path)));
        assert_eq!(how.proven(), 47);
    }

    #[test]
    fn a_path_no_longer_than_the_proven_bound_is_returned() {
        let mut how = sized(3, &[(40, 100), (42, 800)]);
        assert_eq!(how.found(vec![Move::Up; 44]).map(|m| m.len()), Some(44));
    }

    #[test]
    fn the_window_stays_below_a_known_path() {
        let mut how = sized(3, &[(40, 100), (42, 800)]);
        how.below = 47;
        assert_eq!(how.top(), 46);
    }
}
