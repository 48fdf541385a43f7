//! Search algorithms, their statistics, limits and traces.
//!
//! One algorithm per file. All of them count the same way:
//!
//! * **generated**: successor states created; the move straight back to the parent is never
//!   generated (parent pruning), so a state has at most 3 successors after the root;
//! * **expanded**: states whose successors were generated;
//! * **max_open**: the peak size of the open list (A*, BFS, greedy) or the deepest path
//!   (IDA*, which keeps only the current path);
//! * **final_open**: the open list's size when the search ended (IDA*: the length of the
//!   path it was on, which is the solution length when it found one);
//! * **max_depth**: the largest `g` (moves from the start) of any generated state.

mod astar;
mod beam;
mod bfs;
mod bounded;
mod deepening;
mod dispatch;
pub mod frontier;
mod idastar;
mod iteration;
mod kernel;
mod keys;
mod lookahead;
mod meter;
mod parallel;
mod stack;
mod store;
mod tally;
mod weighted_idastar;

pub use astar::{astar, Priority};
pub use beam::{beam, beam_with_prefix};
pub use bfs::bfs;
pub(crate) use bounded::{bounded, Bounds, SCALE};
pub(crate) use deepening::Deepening;
pub(crate) use dispatch::deepening;
pub use dispatch::{idastar, idastar_with_lookahead};
pub(crate) use idastar::deepen;
pub(crate) use lookahead::{Ask, Lookahead};
pub(crate) use meter::Meter;
pub use stack::with_stack_for;
pub use weighted_idastar::{effective_weight, weighted_idastar};

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::moves::Move;

/// Limits on a search. `None` means unlimited.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Limits {
    /// Wall-clock time. Every search stops there; `auto`'s anytime engine also takes it as
    /// its budget, spending most of it on shorter answers before its proof, unless
    /// [`Limits::time_is_ceiling`].
    pub time: Option<Duration>,
    /// Generated nodes.
    pub nodes: Option<u64>,
    /// Memory for the search's own tables (open and closed lists), in bytes. A* stops
    /// before a table would grow past it.
    pub memory_bytes: Option<u64>,
    /// Whether `time` is only a ceiling: a limit the caller's own caller did not choose (a
    /// web server's, for a request that set none). It stops the search all the same, but a
    /// plan runs as if no time limit were set, its default budget (if any) held to the
    /// ceiling: an answer through a server is the command line's with no `--time-limit`.
    pub time_is_ceiling: bool,
}

impl Limits {
    /// The time the caller gave as a budget: `time`, unless it is only a ceiling.
    pub fn budget(&self) -> Option<Duration> {
        self.time.filter(|_| !self.time_is_ceiling)
    }

    /// These limits with `default` as the budget when the caller gave none: the time limit
    /// becomes the tighter of `default` and a ceiling, and is a budget. Unchanged when the
    /// caller gave a budget, or when `default` is `None` (a ceiling then stays a ceiling).
    pub fn with_default_budget(self, default: Option<Duration>) -> Limits {
        match (self.budget(), default) {
            (None, Some(default)) => Limits {
                time: tighter(self.time, Some(default)),
                time_is_ceiling: false,
                ..self
            },
            _ => self,
        }
    }
}

/// The time limit of work that must end at `deadline`: what is left of it, at least a
/// nanosecond (a zero limit would mean "stop at once" only if checked; one nanosecond is).
pub(crate) fn time_left(deadline: Instant) -> Duration {
    deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_nanos(1))
}

/// The tighter of two limits of one kind (`None`: unlimited).
pub(crate) fn tighter<T: Ord>(a: Option<T>, b: Option<T>) -> Option<T> {
    a.into_iter().chain(b).min()
}

/// Which limit stopped a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum StopReason {
    /// The time limit.
    Time,
    /// The node limit.
    Nodes,
    /// The memory limit.
    Memory,
    /// The caller cancelled (e.g. a web client went away).
    Cancelled,
    /// The user interrupted the program (Ctrl-C).
    Interrupted,
    /// A beam search lost its way: every state of a depth was a repeat, or the beam went
    /// past its longest useful depth. A wider beam may answer.
    Width,
}

impl StopReason {
    /// Every reason, in the order of the enum.
    pub const ALL: [StopReason; 6] = [
        StopReason::Time,
        StopReason::Nodes,
        StopReason::Memory,
        StopReason::Cancelled,
        StopReason::Interrupted,
        StopReason::Width,
    ];

    /// `time`, `nodes`, `memory`, `cancelled`, `interrupted` or `width`.
    pub fn as_str(self) -> &'static str {
        match self {
            StopReason::Time => "time",
            StopReason::Nodes => "nodes",
            StopReason::Memory => "memory",
            StopReason::Cancelled => "cancelled",
            StopReason::Interrupted => "interrupted",
            StopReason::Width => "width",
        }
    }

    /// What stopped the search, in words that follow "stopped by": "the time limit", "the
    /// node limit", "the memory limit", "a cancellation", "Ctrl-C" or "the width limit".
    pub fn cause(self) -> &'static str {
        match self {
            StopReason::Time => "the time limit",
            StopReason::Nodes => "the node limit",
            StopReason::Memory => "the memory limit",
            StopReason::Cancelled => "a cancellation",
            StopReason::Interrupted => "Ctrl-C",
            StopReason::Width => "the width limit",
        }
    }

    /// The reason [`as_str`](StopReason::as_str) names, if any (reading reports back).
    pub fn from_name(name: &str) -> Option<StopReason> {
        StopReason::ALL.into_iter().find(|r| r.as_str() == name)
    }
}

/// Counters of a search (see the module docs for their definitions).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SearchStats {
    /// States whose successors were generated.
    pub expanded: u64,
    /// Successor states created.
    pub generated: u64,
    /// Peak open-list size (IDA*: deepest path).
    pub max_open: u64,
    /// Open-list size when the search ended (IDA*: the current path's length).
    pub final_open: u64,
    /// Largest depth (moves from the start) of any generated state.
    pub max_depth: u64,
    /// Wall-clock seconds.
    pub seconds: f64,
}

impl SearchStats {
    /// Adds the counters of a search run on this one's behalf (a lookahead, a unit, an
    /// earlier phase): its nodes count as this search's, its deepest path may be the deepest.
    pub fn absorb(&mut self, other: &SearchStats) {
        self.generated += other.generated;
        self.expanded += other.expanded;
        self.max_open = self.max_open.max(other.max_open);
        self.max_depth = self.max_depth.max(other.max_depth);
    }
}

/// A snapshot passed to a progress callback.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// Expanded so far: by every thread and every part of the search (a lookahead, work a
    /// path found meanwhile made needless), so that it never goes back; the outcome's
    /// [`SearchStats`] count the serial order's work only.
    pub expanded: u64,
    /// Generated so far, counted as `expanded` is.
    pub generated: u64,
    /// Current open-list size (A*) or depth bound (IDA*).
    pub open: u64,
    /// IDA*'s current cost bound, A*'s current f.
    pub bound: Option<u32>,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The anytime engine's best length so far (`None` in a single search, or before its
    /// first answer).
    pub best: Option<u32>,
    /// The proven lower bound on the optimal length so far: the anytime engine's, or a
    /// single optimal search's as `solve` passes it on (IDA*'s threshold, A*'s smallest
    /// `f`, breadth-first search's depth, with an admissible heuristic); `None` from the
    /// searches themselves.
    pub lower_bound: Option<u32>,
}

/// Where a part of a search sends its progress.
pub(crate) type Report<'s> = &'s (dyn Fn(&Progress) + Sync);

/// How a caller steers a search: limits, cancellation, progress and tracing.
#[derive(Default, Clone, Copy)]
pub struct Control<'a> {
    /// Time, node and memory limits.
    pub limits: Limits,
    /// Set to `true` to stop the search.
    pub cancel: Option<&'a AtomicBool>,
    /// Called about ten times a second.
    pub progress: Option<&'a (dyn Fn(&Progress) + Sync)>,
    /// Record the first this-many expansions.
    pub trace: usize,
    /// Threads for one IDA* search (0 or 1: serial). A parallel search finds a path of the
    /// same length and reports the serial search's node counts; tracing makes it serial.
    pub threads: usize,
    /// The deepest a depth-first search (IDA*, weighted IDA*) goes, in moves from the
    /// start: states that deep are not expanded; `None`, no cap. Each move deeper is a
    /// frame of the recursion, so a search whose depth nothing else keeps down (weighted
    /// IDA* with a large `W`, or an inadmissible heuristic, dive as deep as their threshold
    /// lets them) would overflow the stack. The solver sets it to the length of a path it
    /// already has (the constructive solver's): a search with the cap still finds a path,
    /// of at most that length, and an admissible IDA* never reaches it.
    pub depth_cap: Option<u32>,
}

/// One expansion, in the order the search made it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceStep {
    /// Index of the expansion that generated this state (`None` for the root).
    pub parent: Option<usize>,
    /// The move from the parent.
    pub step: Option<Move>,
    /// Tiles, row-major.
    pub tiles: Vec<u8>,
    /// Moves from the start.
    pub g: u32,
    /// Heuristic value.
    pub h: f64,
    /// The search's priority (`g + h` for A* and IDA*, `h` for greedy, `g + w·h` weighted).
    pub f: f64,
    /// IDA*'s iteration (1 for the first depth-first search, 2 after the first restart at a
    /// higher bound, …); `None` for searches that do not restart.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub iteration: Option<u32>,
    /// IDA*'s cost bound in that iteration (weighted IDA*: `g + W·h` rounded down);
    /// `None` for searches without one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bound: Option<u32>,
}

/// What a search returns.
#[derive(Clone, Debug, Default)]
pub struct SearchOutcome {
    /// The moves found, or `None` if a limit stopped the search first. A proof stopped by a
    /// limit while it held a path longer than its proven bound (`lower_bound`) returns that
    /// path, with `stopped_by` set: not known to be shortest.
    pub moves: Option<Vec<Move>>,
    /// Counters.
    pub stats: SearchStats,
    /// The limit that stopped the search, if any.
    pub stopped_by: Option<StopReason>,
    /// A lower bound on the optimal length that the search proved, valid when its
    /// heuristic is admissible: IDA*'s threshold when it ended (every smaller one was
    /// searched in full), A*'s smallest `f` on the open list. What a search stopped by a
    /// limit has learnt; `None` from searches that prove none (weighted, greedy).
    pub lower_bound: Option<u32>,
    /// The first expansions, if asked for.
    pub trace: Vec<TraceStep>,
}

#[cfg(test)]
mod tests {
    use super::StopReason;

    #[test]
    fn stop_reasons_are_the_json_names_and_read_back() {
        for r in StopReason::ALL {
            assert_eq!(
                serde_json::to_string(&r).unwrap(),
                format!("\"{}\"", r.as_str())
            );
            assert_eq!(StopReason::from_name(r.as_str()), Some(r));
        }
        assert_eq!(StopReason::from_name("timeout"), None);
    }
}
