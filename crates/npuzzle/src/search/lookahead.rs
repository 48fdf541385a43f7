//! A lookahead for IDA* proofs: before each iteration, a short weighted search for a path
//! exactly as long as the threshold.
//!
//! Once IDA* has completed every iteration below threshold `T`, `T` is a proven lower
//! bound: *any* path of length `T` is a shortest one. IDA*'s iteration at `T` finds one
//! only when its depth-first order happens upon it, and on the 24-puzzle that last
//! iteration is close to half of a proof's nodes (2.5 of 5.4 billion on Korf & Felner's
//! ten easiest, 6-6-6-6 with duplicate pruning: 7 to 943 million each). Weighted IDA* on the
//! bounded kernel at `W` = [`WEIGHT`], pruned at `g + h > T`, dives for such a path and
//! finds it in far fewer (0.3 to 78 million on the same ten), since it does not have to
//! visit the iteration's low-`h` states first.
//!
//! So before the iteration at `T` the search looks ahead with a node budget: the nodes of
//! the iteration before (at least [`MIN_BUDGET`]). When no path of length `T` exists the
//! lookahead costs at most that, a fraction of the iteration it precedes (each is several
//! times the one before). A lookahead runs on one thread with a node budget, so node
//! counts stay exact and the same on any number of threads; on several, the lookaheads of a
//! window run side by side and the other threads start the iteration meanwhile
//! (`search::iteration`).

use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::Instant;

use super::bounded::{bounded, Bounds, SCALE};
use super::{Control, Limits, Meter, Progress, Report, SearchStats, StopReason};
use crate::heuristic::IncrementalHeuristic;
use crate::moves::Move;
use crate::puzzle::Puzzle;

/// `W` of the lookahead. Measured on Korf & Felner's ten easiest 24-puzzles (6-6-6-6,
/// nodes to a path as long as the optimum once the threshold is there): 1.2 found every
/// one within the budget; 1.25 and 1.3 were faster on most but took 6 to 10 times as many
/// nodes on one each, and 1.1 or 1.5 were slower on most.
pub(crate) const WEIGHT: f64 = 1.2;

/// The node budget is the previous iteration's nodes over this. Measured on Korf & Felner's
/// ten easiest (nodes a lookahead took to find a path at the last threshold, against the
/// iteration before): 0.003 to 0.08 on eight, 0.38 and 0.57 on two. A larger budget is
/// wasted on every threshold below the last, a smaller one lets a last iteration run whole.
pub(crate) const BUDGET_DIVISOR: u64 = 2;

/// The smallest node budget: the first iteration has no iteration before it. Small, so that
/// the first thresholds of a small search (hundreds of nodes each) do not pay for more.
pub(crate) const MIN_BUDGET: u64 = 1 << 10;

/// What one lookahead found.
#[derive(Debug, Default)]
pub(crate) struct Looked {
    /// A path no longer than the threshold: a shortest path, the threshold being a proven
    /// lower bound.
    pub moves: Option<Vec<Move>>,
    /// Its counters.
    pub stats: SearchStats,
    /// A limit of the caller's that stopped it (its own budget running out is not one).
    pub stopped_by: Option<StopReason>,
}

impl Looked {
    /// Whether it ends the search it serves: it found a path, or the caller's limit stopped it.
    pub fn ends_search(&self) -> bool {
        self.moves.is_some() || self.stopped_by.is_some()
    }

    /// These lookaheads followed by `next`: the counters of both, `next`'s outcome (the
    /// caller runs `next` only if these did not end the search).
    pub fn then(&mut self, next: Looked) {
        self.stats.absorb(&next.stats);
        (self.moves, self.stopped_by) = (next.moves, next.stopped_by);
    }
}

/// One lookahead to run.
#[derive(Clone, Copy, Default)]
pub(crate) struct Ask<'s> {
    /// Look for a path no longer than this.
    pub threshold: u32,
    /// The nodes of the iteration before (the budget's basis).
    pub previous: u64,
    /// The search's counters so far: its node limit counts the generated nodes, and its
    /// progress adds the lookahead's counters to these.
    pub used: SearchStats,
    /// Set when the search no longer needs this lookahead: it then stops at once, its
    /// outcome to be dropped (see `search::parallel`).
    pub dropped: Option<&'s AtomicBool>,
    /// Where its progress goes, if not to the progress of the search's `Control` (a
    /// parallel search adds up its threads' work: see `search::iteration`).
    pub report: Option<Report<'s>>,
}

/// A lookahead as a search calls it: shared by the threads of a parallel search.
pub(crate) type LookFn<'c> = dyn Fn(Ask<'_>) -> Looked + Sync + 'c;

/// Lookaheads from one start, within the limits of the search they serve.
pub(crate) struct Lookahead<'a, H> {
    puzzle: &'a Puzzle,
    start: &'a [u8],
    /// Cloned for each lookahead; behind a lock so that the threads of a parallel search
    /// can share the lookaheads (a heuristic need not be `Sync`).
    heuristic: Mutex<H>,
    control: Control<'a>,
    began: Instant,
}

impl<'a, H: IncrementalHeuristic + Clone> Lookahead<'a, H> {
    /// Lookaheads for a search from `start` that began now under `control`.
    pub fn new(puzzle: &'a Puzzle, start: &'a [u8], heuristic: H, control: Control<'a>) -> Self {
        Lookahead {
            puzzle,
            start,
            heuristic: Mutex::new(heuristic),
            control,
            began: Instant::now(),
        }
    }

    /// Weighted IDA* for a path of at most `ask.threshold` moves, within half of `previous`
    /// nodes (the iteration before; at least [`MIN_BUDGET`]) and what the search's limits
    /// leave once it has generated `used` nodes.
    pub fn at(&self, ask: Ask<'_>) -> Looked {
        let Ask {
            threshold,
            previous,
            used,
            dropped,
            report,
        } = ask;
        let budget = (previous / BUDGET_DIVISOR).max(MIN_BUDGET);
        let user_left = self
            .control
            .limits
            .nodes
            .map(|n| n.saturating_sub(used.generated));
        let nodes = user_left.map_or(budget, |left| left.min(budget)).max(1);
        let time = self
            .control
            .limits
            .time
            .map(|t| t.saturating_sub(self.began.elapsed()));
        // Progress as IDA*'s: the threshold is a proven bound, the counts and the time the
        // search's.
        let (report, began) = (report.or(self.control.progress), self.began);
        let relay = |p: &Progress| {
            if let Some(report) = report {
                report(&Progress {
                    generated: used.generated + p.generated,
                    expanded: used.expanded + p.expanded,
                    bound: Some(threshold),
                    elapsed: began.elapsed(),
                    ..*p
                });
            }
        };
        let control = Control {
            limits: Limits {
                time,
                nodes: Some(nodes),
                ..Limits::default()
            },
            progress: Some(&relay),
            trace: 0,
            threads: 1,
            ..self.control
        };
        let bounds = Bounds {
            weight: WEIGHT,
            below: threshold.saturating_add(1),
            step: SCALE,
        };
        let heuristic = self
            .heuristic
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let out = bounded(
            self.puzzle,
            self.start,
            heuristic,
            bounds,
            Meter::new(control).dropped_by(dropped),
        );
        let own_budget =
            out.stopped_by == Some(StopReason::Nodes) && user_left.is_none_or(|left| left > budget);
        Looked {
            moves: out.moves,
            stats: out.stats,
            stopped_by: out.stopped_by.filter(|_| !own_budget),
        }
    }
}
