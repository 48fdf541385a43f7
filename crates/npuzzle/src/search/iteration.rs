//! One IDA* iteration on several threads, with the lookaheads before it: the threads claim
//! the lookaheads in the serial order, then the iteration's units (the subtrees below the
//! frontier, `frontier::split`), and a lookahead that finds a path moves the units to the
//! iteration just below it. Used by `search::parallel`, which runs the iterations one after
//! the other and adds up their counts in the serial order.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use super::frontier::{self, Above, UnitOutcome, WorkUnit};
use super::kernel::Abort;
use super::lookahead::{Ask, LookFn, Looked};
use super::tally::{Seen, Tally};
use super::{Control, Limits, Meter, Progress, SearchStats};
use crate::heuristic::IncrementalHeuristic;
use crate::puzzle::Puzzle;

/// One iteration's fixed inputs.
pub(super) struct Iteration<'a, 'c> {
    pub(super) puzzle: &'a Puzzle,
    pub(super) units: &'a [WorkUnit],
    /// The threshold it starts at (the lookaheads beside it may lower it: see [`iterate`]).
    pub(super) bound: u32,
    pub(super) control: Control<'c>,
    pub(super) deadline: Option<Instant>,
    /// The search's counters when it began.
    pub(super) used: SearchStats,
    /// What the search reports as its progress.
    pub(super) tally: &'a Tally<'c>,
}

/// The units of an iteration at one bound, and what the threads found in them. A lookahead
/// beside the iteration may lower its bound while it runs (see [`iterate`]): a new round
/// then takes this one's place, and this one's work is dropped.
struct Round {
    bound: u32,
    /// What lies above the frontier, per unit.
    aboves: Vec<Above>,
    /// The units the iteration reaches, by index into `units`.
    reached: Vec<usize>,
    /// The next index into `reached` to claim.
    next: AtomicUsize,
    /// The smallest claimed index whose unit found a goal.
    found: AtomicUsize,
    /// A limit stopped the search, or the round was replaced.
    halt: AtomicBool,
    /// Each searched unit's outcome, by claimed index.
    results: Mutex<Vec<(usize, UnitOutcome)>>,
}

impl Round {
    /// A round of the iteration at `bound` over `units`.
    fn new(units: &[WorkUnit], bound: u32) -> Round {
        let aboves: Vec<Above> = units.iter().map(|u| u.above(bound)).collect();
        let reached = (0..units.len()).filter(|&i| aboves[i].reached).collect();
        Round {
            bound,
            aboves,
            reached,
            next: AtomicUsize::new(0),
            found: AtomicUsize::new(usize::MAX),
            halt: AtomicBool::new(false),
            results: Mutex::new(Vec::new()),
        }
    }

    /// What the threads found, the units' outcomes in serial order.
    fn searched(self) -> Searched {
        let mut results = self.results.into_inner().unwrap_or_else(|e| e.into_inner());
        results.sort_unstable_by_key(|(k, _)| *k);
        Searched {
            bound: self.bound,
            aboves: self.aboves,
            results,
            found: self.found.into_inner(),
            halted: self.halt.into_inner(),
            reached: self.reached,
        }
    }
}

/// What the threads of one iteration found, before it is added up in serial order.
pub(super) struct Searched {
    /// The bound the iteration ran at.
    pub(super) bound: u32,
    /// What lies above the frontier, per unit.
    pub(super) aboves: Vec<Above>,
    /// Each searched unit's outcome, by index into `reached`, in that order.
    pub(super) results: Vec<(usize, UnitOutcome)>,
    /// The smallest index into `reached` whose unit found a goal (`usize::MAX`: none).
    pub(super) found: usize,
    /// A limit stopped the search.
    pub(super) halted: bool,
    /// The units the iteration reaches, by index into `units`.
    pub(super) reached: Vec<usize>,
}

/// The round the threads work on, and which lookahead decided it.
struct Turn {
    /// The lowest lookahead (by index) that ended the search: found a path or was stopped
    /// by a limit (`usize::MAX`: none yet).
    by: usize,
    /// The round to work on; none when a lookahead ended the proof.
    round: Option<Arc<Round>>,
}

/// The lookaheads run beside an iteration (`Deepening::look_ahead`'s, in its order).
pub(super) struct Beside<'a> {
    look: &'a LookFn<'a>,
    asks: Vec<Ask<'static>>,
    /// The search's proven bound: a path no longer than it ends the proof.
    proven: u32,
    /// The next lookahead to claim.
    next: AtomicUsize,
    /// Lookaheads neither finished nor skipped: until none is left, the round may change.
    pending: AtomicUsize,
    /// Per lookahead: stop it, one before it having ended the search.
    dropped: Vec<AtomicBool>,
    /// Each lookahead's outcome.
    looked: Mutex<Vec<Option<Looked>>>,
}

impl<'a> Beside<'a> {
    /// The lookaheads `asks` (see `Deepening::asks`), run by `look`, in a search whose
    /// proven bound is `proven`.
    pub(super) fn new(look: &'a LookFn<'a>, asks: Vec<Ask<'static>>, proven: u32) -> Self {
        Beside {
            look,
            proven,
            next: AtomicUsize::new(0),
            pending: AtomicUsize::new(asks.len()),
            dropped: asks.iter().map(|_| AtomicBool::new(false)).collect(),
            looked: Mutex::new(asks.iter().map(|_| None).collect()),
            asks,
        }
    }

    /// Claims the next lookahead and runs it, unless one before it has ended the search;
    /// `false` when none is left to claim. One that ends the search sets the round: the
    /// iteration just below its path (which the serial order runs next: the path is kept
    /// until that iteration proves it), or none.
    fn run_next(&self, it: &Iteration<'_, '_>, turn: &Mutex<Turn>) -> bool {
        let i = self.next.fetch_add(1, Ordering::SeqCst);
        if i >= self.asks.len() {
            return false;
        }
        if lock(turn).by > i {
            // Its progress counts the search's work before the iteration and its own.
            let (used, seen) = (it.used, Seen::default());
            let relay = |p: &Progress| {
                let own = |all: u64, before: u64| all.saturating_sub(before);
                seen.tell(
                    it.tally,
                    own(p.expanded, used.expanded),
                    own(p.generated, used.generated),
                );
                let bound = lock(turn).round.as_ref().map_or(p.bound, |r| Some(r.bound));
                it.tally.report(bound, p.open, false);
            };
            let ask = Ask {
                used,
                dropped: Some(&self.dropped[i]),
                report: Some(&relay),
                ..self.asks[i]
            };
            let looked = (self.look)(ask);
            seen.tell(it.tally, looked.stats.expanded, looked.stats.generated);
            if looked.ends_search() {
                let mut turn = lock(turn);
                if i < turn.by {
                    turn.by = i;
                    for d in &self.dropped[i + 1..] {
                        d.store(true, Ordering::SeqCst);
                    }
                    if let Some(old) = turn.round.take() {
                        old.halt.store(true, Ordering::SeqCst);
                    }
                    let below = match (&looked.moves, looked.stopped_by) {
                        (Some(m), None) if m.len() as u32 > self.proven => Some(m.len() as u32 - 1),
                        _ => None,
                    };
                    turn.round = below.map(|bound| Arc::new(Round::new(it.units, bound)));
                }
            }
            lock(&self.looked)[i] = Some(looked);
        }
        self.pending.fetch_sub(1, Ordering::SeqCst);
        true
    }

    /// Whether the round can no longer change.
    fn settled(&self) -> bool {
        self.pending.load(Ordering::SeqCst) == 0
    }

    /// The lookaheads' outcome in the serial order: each one's counters up to the first
    /// that ended the search, and that one's path or limit.
    fn outcome(self) -> Looked {
        let mut all = Looked::default();
        let looked = self.looked.into_inner().unwrap_or_else(|e| e.into_inner());
        for l in looked {
            all.then(l.expect("every lookahead before the one that ended the search ran"));
            if all.ends_search() {
                break;
            }
        }
        all
    }
}

/// Locks `m`, whatever a panicking thread left in it.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// One iteration on `control.threads` threads, with the lookaheads of `beside` first.
///
/// Threads claim work in the serial order: each lookahead (several when a window is open,
/// from the proven bound up), then the iteration's units. A lookahead that finds a path
/// lowers the iteration the units work on to the one just below that path, the one the
/// serial order runs next, and drops the lookaheads after it and the work done at the old
/// bound; one stopped by a limit stops everything. So, whenever a lookahead finds the
/// path, the threads go on to the iteration that must prove it instead of waiting. Only
/// the lookaheads before the first (in serial order) that ended the search count, and the
/// units of the iteration the serial order would run next, so counts and paths do not
/// depend on the threads or timing. Returns the lookaheads' outcome, and the iteration the
/// units ran (none when a lookahead ended the search).
///
/// Why: lookaheads that find nothing are about a tenth of a proof's time (15 s of 130 s on
/// Korf & Felner's ten easiest 24-puzzles), which the other threads would spend waiting;
/// and in a proof's last window, a thread searching the highest iteration's units while
/// another looked ahead threw that work away once the path was found (no gain on two
/// threads from skipping iterations, against 0.93 of the time on one).
pub(super) fn iterate<H: IncrementalHeuristic + Clone + Send>(
    it: &Iteration<'_, '_>,
    heuristic: &H,
    beside: Option<Beside<'_>>,
) -> (Option<Looked>, Option<Searched>) {
    let turn = Mutex::new(Turn {
        by: usize::MAX,
        round: Some(Arc::new(Round::new(it.units, it.bound))),
    });
    let threads = it.control.threads.max(1);
    std::thread::scope(|s| {
        let (turn, beside) = (&turn, beside.as_ref());
        for _ in 1..threads {
            let h = heuristic.clone();
            s.spawn(move || thread(it, h, beside, turn));
        }
        thread(it, heuristic.clone(), beside, turn);
    });
    let looked = beside.map(Beside::outcome);
    let turn = turn.into_inner().unwrap_or_else(|e| e.into_inner());
    let searched = turn.round.map(|r| {
        Arc::try_unwrap(r)
            .ok()
            .expect("the threads have ended")
            .searched()
    });
    (looked, searched)
}

/// One thread of an iteration: lookaheads while any is left to claim, then units of the
/// current round until none is left and no lookahead can change the round.
fn thread<H: IncrementalHeuristic>(
    it: &Iteration<'_, '_>,
    mut h: H,
    beside: Option<&Beside<'_>>,
    turn: &Mutex<Turn>,
) {
    let settled = || beside.is_none_or(Beside::settled);
    loop {
        if beside.is_some_and(|b| b.run_next(it, turn)) {
            continue;
        }
        let Some(round) = lock(turn).round.clone() else {
            if settled() {
                return;
            }
            std::thread::sleep(WAIT);
            continue;
        };
        work(it, &round, &mut h);
        let current = lock(turn)
            .round
            .as_ref()
            .is_some_and(|r| Arc::ptr_eq(r, &round));
        if !current {
            continue; // replaced by a lookahead: work on the new round
        }
        if settled() || round.halt.load(Ordering::SeqCst) {
            return;
        }
        // Its units are all claimed, but a lookahead still running may replace it.
        std::thread::sleep(WAIT);
    }
}

/// How long a thread with nothing to do sleeps before it looks again (only while a
/// lookahead runs that may give it work).
const WAIT: std::time::Duration = std::time::Duration::from_micros(200);

/// One thread's share of a round: claims units in order until none is left, a goal was
/// found before the next one, or the round is halted.
fn work<H: IncrementalHeuristic>(it: &Iteration<'_, '_>, round: &Round, heuristic: &mut H) {
    let (control, deadline) = (it.control, it.deadline);
    let mut mine = Vec::new();
    loop {
        let k = round.next.fetch_add(1, Ordering::Relaxed);
        if k >= round.reached.len()
            || round.found.load(Ordering::Relaxed) < k
            || round.halt.load(Ordering::Relaxed)
        {
            break;
        }
        // Most units end before their meter first looks at the limits: look here too.
        if control.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
            || deadline.is_some_and(|d| Instant::now() >= d)
        {
            round.halt.store(true, Ordering::Relaxed);
            break;
        }
        let seen = Seen::default();
        let report = |p: &Progress| {
            seen.tell(it.tally, p.expanded, p.generated);
            it.tally.report(Some(round.bound), p.open, false);
        };
        let unit_control = Control {
            progress: control
                .progress
                .map(|_| &report as &(dyn Fn(&Progress) + Sync)),
            ..remaining(&control, deadline)
        };
        let abort = Abort {
            found: &round.found,
            index: k,
            halt: &round.halt,
        };
        let out = frontier::run(
            it.puzzle,
            &it.units[round.reached[k]],
            &mut *heuristic,
            round.bound,
            Meter::new(unit_control),
            Some(abort),
        );
        // Units are small (hundreds a thread), and most end before their meter reports.
        seen.tell(it.tally, out.expanded, out.generated);
        it.tally.report(Some(round.bound), 0, false);
        if out.moves.is_some() {
            round.found.fetch_min(k, Ordering::Relaxed);
        } else if out.stopped_by.is_some() && round.found.load(Ordering::Relaxed) >= k {
            // A limit (not a goal found earlier) stopped this unit: stop them all.
            round.halt.store(true, Ordering::Relaxed);
        }
        mine.push((k, out));
    }
    lock(&round.results).extend(mine);
}

/// `control` for a part of the search that starts now: what is left of the time limit, no
/// trace, serial, the same depth cap (units search from their own depth, so the cap stays
/// one from the start). The parallel search has no node limit (see `parallel::idastar`).
pub(super) fn remaining<'a>(control: &Control<'a>, deadline: Option<Instant>) -> Control<'a> {
    Control {
        limits: Limits {
            time: deadline.map(super::time_left),
            memory_bytes: None,
            ..control.limits
        },
        cancel: control.cancel,
        progress: control.progress,
        trace: 0,
        threads: 0,
        depth_cap: control.depth_cap,
    }
}
