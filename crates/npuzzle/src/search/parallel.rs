//! IDA* on several threads: each iteration's tree is cut at a frontier depth
//! ([`frontier::split`](super::frontier::split)) and the units are searched by a pool of
//! threads.
//!
//! **Scheduling.** Threads claim units from a shared counter in the serial search's order,
//! one at a time, rather than splitting the list in halves as a work-stealing pool would.
//! Thousands of small units balance the load just as well, and claiming in order keeps
//! every thread near the front of the serial order: in the last iteration, once a unit finds
//! the goal, only units *before* it must still finish (the serial search would have searched
//! them) and every unit after it is stopped at its next look at the meter, so little work is
//! thrown away.
//!
//! **Counts.** For every completed iteration the counts are the serial search's exactly
//! (the units and what lies above them partition the iteration's tree). In the last
//! iteration they are the serial search's too: the counts of the units up to the first one
//! (in serial order) whose subtree holds a goal, and of the nodes above the frontier before
//! it, which is where the serial search stops; so they do not depend on the number of
//! threads or on timing. The path is the first one in serial order, hence the serial path.
//! Only a search stopped by a limit reports whatever its threads had counted.
//!
//! **Lookahead.** With a [`lookahead`](super::lookahead) and no node limit, the calling
//! thread looks ahead while the others start the iteration, and joins them when it finds
//! nothing; if it ends the search, the iteration's work is dropped uncounted. Either way the
//! outcome and counts are those of the serial order (lookahead first, then the iteration).

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::deepening::{After, Before, Deepening};
use super::frontier::{self, Above, UnitOutcome, WorkUnit};
use super::kernel::Abort;
use super::lookahead::Looked;
use super::{Control, Limits, Meter, Progress, SearchOutcome, SearchStats, StopReason};
use crate::heuristic::IncrementalHeuristic;
use crate::puzzle::Puzzle;

/// Units per thread the frontier aims at: enough for the load to even out when subtrees
/// differ a thousandfold in size, few enough that the per-unit costs (a heuristic set up
/// from scratch, a claim on the shared counter) stay far below the search's.
const UNITS_PER_THREAD: usize = 500;

/// Generated nodes of an iteration after which the next ones run in parallel (the next
/// iteration is several times larger: 5 to 6 times with Manhattan distance, about 7 with
/// the 24-puzzle's tables). Low, so that an iteration of a few million nodes already runs
/// on every thread: from 2 million (the value before), the iteration that crossed the
/// line, up to 25 million nodes of a 24-puzzle proof, ran on one thread, and proofs of a
/// second or less took about 1.6 times as long (`docs/performance.md`). Smaller values
/// were not measured.
const PARALLEL_FROM: u64 = 1 << 17;

/// The deepest frontier tried, for boards whose tree hardly branches.
const MAX_SPLIT_DEPTH: u32 = 40;

/// Parallel IDA* on `control.threads` threads (see the module docs), from and below the
/// thresholds of `how`, looking ahead before each iteration if it says so.
pub(crate) fn idastar<H: IncrementalHeuristic + Clone + Send>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: H,
    control: Control<'_>,
    how: Deepening<'_>,
) -> SearchOutcome {
    idastar_from(puzzle, start, heuristic, control, how, PARALLEL_FROM)
}

/// [`idastar`], going parallel after the first iteration of at least `parallel_from` nodes.
fn idastar_from<H: IncrementalHeuristic + Clone + Send>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: H,
    control: Control<'_>,
    mut how: Deepening<'_>,
    parallel_from: u64,
) -> SearchOutcome {
    let started = Instant::now();
    let threads = control.threads.max(1);
    let mut outcome = SearchOutcome::default();
    if start == puzzle.goal.as_slice() {
        outcome.moves = Some(Vec::new());
        return outcome;
    }
    let h0 = heuristic.clone().init(start);
    let deadline = control.limits.time.map(|t| started + t);
    let mut stats = SearchStats::default();
    // `bound`: the proven bound when the search ended, every shorter length ruled out.
    let finish = |mut outcome: SearchOutcome, mut stats: SearchStats, bound: u32| {
        outcome.lower_bound = Some(bound);
        stats.final_open = outcome.moves.as_ref().map_or(0, |m| m.len() as u64);
        stats.max_depth = stats.max_open;
        stats.seconds = started.elapsed().as_secs_f64();
        outcome.stats = stats;
        outcome
    };
    if !how.start(h0) {
        return finish(outcome, stats, how.proven());
    }
    // Serial iterations while they are small: a thread pool, a frontier and a heuristic set
    // up per unit cost more than such an iteration, and most instances end there.
    let root = frontier::split(puzzle, start, heuristic.clone(), 0);
    let mut h = heuristic.clone();
    loop {
        let (looked, next) = how.before(stats.generated, false);
        stats.absorb(&looked);
        let bound = match next {
            Before::Iterate { bound, .. } => bound,
            Before::Over { moves, stopped_by } => {
                (outcome.moves, outcome.stopped_by) = (moves, stopped_by);
                return finish(outcome, stats, how.proven());
            }
        };
        let meter = Meter::new(remaining(&control, deadline, stats.generated));
        let out = frontier::run(puzzle, &root[0], &mut h, bound, meter, None);
        stats.absorb(&out.counts());
        if let Some(moves) = out.moves {
            match how.found(moves) {
                Some(moves) => outcome.moves = Some(moves),
                None => continue,
            }
            return finish(outcome, stats, how.proven());
        }
        if out.stopped_by.is_some() {
            outcome.stopped_by = out.stopped_by;
            return finish(outcome, stats, how.proven());
        }
        if let After::Over(moves) = how.completed(bound, out.generated, out.next_bound) {
            outcome.moves = moves;
            return finish(outcome, stats, how.proven());
        }
        if out.generated >= parallel_from {
            break;
        }
    }
    let units = frontier_for(puzzle, start, &heuristic, threads);
    // Without a node limit the lookahead at an iteration's threshold runs beside it (see
    // `iterate`): a node limit counts the lookahead's nodes before the iteration's, as the
    // serial order does.
    let beside = how.lookahead.is_some() && control.limits.nodes.is_none();
    loop {
        let (looked, next) = how.before(stats.generated, beside);
        stats.absorb(&looked);
        let (bound, look) = match next {
            Before::Iterate { bound, look } => (bound, look),
            Before::Over { moves, stopped_by } => {
                (outcome.moves, outcome.stopped_by) = (moves, stopped_by);
                break;
            }
        };
        let iteration = Iteration {
            puzzle,
            units: &units,
            bound,
            control,
            deadline,
            started,
        };
        let lookahead = look.then_some(&mut how);
        let (looked, searched) = iterate(&iteration, &heuristic, lookahead, &stats);
        if let Some(looked) = looked {
            stats.absorb(&looked.stats);
            if looked.stopped_by.is_some() {
                outcome.stopped_by = looked.stopped_by;
                break;
            }
            if let Some(moves) = looked.moves {
                match how.found(moves) {
                    Some(moves) => outcome.moves = Some(moves),
                    None => continue,
                }
                break;
            }
        }
        let found = searched.found;
        // The iteration's own nodes (the next lookahead's budget) are counted from here.
        let before = stats.generated;
        // Units in serial order up to the one that found the goal (all of them otherwise).
        let last_unit = if found == usize::MAX {
            units.len()
        } else {
            searched.reached[found] + 1
        };
        let mut next_bound = u32::MAX;
        for a in &searched.aboves[..last_unit] {
            stats.absorb(&a.counts());
            next_bound = next_bound.min(a.next_bound);
        }
        for (k, r) in &searched.results {
            if *k > found {
                continue;
            }
            stats.absorb(&r.counts());
            next_bound = next_bound.min(r.next_bound);
        }
        if found != usize::MAX && !searched.halted {
            let moves = searched
                .results
                .into_iter()
                .find(|(k, _)| *k == found)
                .and_then(|(_, r)| r.moves);
            match moves.map(|m| how.found(m)) {
                Some(None) => continue,
                Some(moves) => outcome.moves = moves,
                None => {}
            }
            break;
        }
        if searched.halted {
            let generated = searched.generated_now;
            outcome.stopped_by = Some(why_halted(&control, generated, deadline));
            break;
        }
        let nodes = stats.generated - before;
        if let After::Over(moves) = how.completed(bound, nodes, next_bound) {
            outcome.moves = moves;
            break;
        }
        if let Some(user) = control.progress {
            user(&Progress {
                expanded: stats.expanded,
                generated: stats.generated,
                open: 0,
                bound: Some(how.proven()),
                elapsed: started.elapsed(),
                best: None,
                lower_bound: None,
            });
        }
    }
    finish(outcome, stats, how.proven())
}

/// What the threads of one iteration share.
struct Shared {
    /// The next index into `reached` to claim.
    next: AtomicUsize,
    /// The smallest claimed index whose unit found a goal.
    found: AtomicUsize,
    /// A limit stopped the search, or the lookahead beside it ended it.
    halt: AtomicBool,
    /// The lookahead beside the iteration is still running (progress is its own meanwhile).
    looking: AtomicBool,
    /// Generated nodes so far, for the node limit and progress.
    generated: AtomicU64,
    /// Each searched unit's outcome, by claimed index.
    results: Mutex<Vec<(usize, UnitOutcome)>>,
}

/// One iteration's fixed inputs.
struct Iteration<'a, 'c> {
    puzzle: &'a Puzzle,
    units: &'a [WorkUnit],
    bound: u32,
    control: Control<'c>,
    deadline: Option<Instant>,
    started: Instant,
}

/// What the threads of one iteration found, before it is added up in serial order.
struct Searched {
    /// What lies above the frontier, per unit.
    aboves: Vec<Above>,
    /// Each searched unit's outcome, by index into `reached`, in that order.
    results: Vec<(usize, UnitOutcome)>,
    /// The smallest index into `reached` whose unit found a goal (`usize::MAX`: none).
    found: usize,
    /// A limit stopped the search.
    halted: bool,
    /// Generated nodes when the threads stopped (for which limit stopped them).
    generated_now: u64,
    /// The units the iteration reaches, by index into `units`.
    reached: Vec<usize>,
}

/// One iteration on `control.threads` threads. With `lookahead`, the calling thread first
/// looks ahead ([`Deepening::look_ahead`]: at every threshold up to the iteration's) while
/// the others start on the units, then joins them if it found nothing. A lookahead that
/// ends the search (a path, or the user's limit) stops the units, and its outcome is what
/// the serial order would have given, the lookahead coming first there: the units' work is
/// dropped uncounted. Otherwise the iteration's counts are the serial ones as before, so
/// counts and paths do not depend on the threads or timing. Why beside: lookaheads that find
/// nothing are about a tenth of a proof's time (15 s of 130 s on Korf & Felner's ten easiest
/// 24-puzzles), which the other threads would spend waiting.
fn iterate<H: IncrementalHeuristic + Clone + Send>(
    it: &Iteration<'_, '_>,
    heuristic: &H,
    lookahead: Option<&mut Deepening<'_>>,
    stats: &SearchStats,
) -> (Option<Looked>, Searched) {
    let (bound, control) = (it.bound, it.control);
    let aboves: Vec<Above> = it.units.iter().map(|u| u.above(bound)).collect();
    let reached: Vec<usize> = (0..it.units.len()).filter(|&i| aboves[i].reached).collect();
    let (before, expanded_before) = (stats.generated, stats.expanded);
    let shared = Shared {
        next: AtomicUsize::new(0),
        found: AtomicUsize::new(usize::MAX),
        halt: AtomicBool::new(false),
        looking: AtomicBool::new(lookahead.is_some()),
        generated: AtomicU64::new(before + aboves.iter().map(|a| a.generated).sum::<u64>()),
        results: Mutex::new(Vec::new()),
    };
    let report = |p: &Progress| {
        // While the lookahead runs, its progress is the search's (it comes first in the
        // serial order); the units' counts join once its nodes are added.
        if shared.looking.load(Ordering::Relaxed) {
            return;
        }
        if let Some(user) = control.progress {
            user(&Progress {
                expanded: expanded_before,
                generated: shared.generated.load(Ordering::Relaxed),
                open: p.open,
                bound: Some(bound),
                elapsed: it.started.elapsed(),
                best: None,
                lower_bound: None,
            });
        }
    };
    let threads = control.threads.max(1);
    let mut looked = None;
    std::thread::scope(|s| {
        let (units, reached, report, shared) = (it.units, &reached, &report, &shared);
        let (puzzle, deadline) = (it.puzzle, it.deadline);
        let helpers = if lookahead.is_some() {
            threads - 1
        } else {
            threads
        };
        for _ in 0..helpers {
            let mut h = heuristic.clone();
            s.spawn(move || {
                work(
                    puzzle, units, reached, &mut h, bound, control, deadline, report, shared,
                )
            });
        }
        if let Some(how) = lookahead {
            let l = how.look_ahead(before);
            shared
                .generated
                .fetch_add(l.stats.generated, Ordering::Relaxed);
            shared.looking.store(false, Ordering::Relaxed);
            let ends = l.ends_search();
            looked = Some(l);
            if ends {
                shared.halt.store(true, Ordering::Relaxed);
                return;
            }
            let mut h = heuristic.clone();
            work(
                puzzle, units, reached, &mut h, bound, control, deadline, report, shared,
            );
        }
    });
    let generated_now = shared.generated.load(Ordering::Relaxed);
    let found = shared.found.load(Ordering::Relaxed);
    let halted = shared.halt.load(Ordering::Relaxed);
    let mut results = shared
        .results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner());
    results.sort_unstable_by_key(|(k, _)| *k);
    let searched = Searched {
        aboves,
        results,
        found,
        halted,
        generated_now,
        reached,
    };
    (looked, searched)
}

/// One thread's share of an iteration: claims units in order until none is left, a goal
/// was found before the next one, or a limit stops the search.
#[allow(clippy::too_many_arguments)]
fn work<H: IncrementalHeuristic>(
    puzzle: &Puzzle,
    units: &[WorkUnit],
    reached: &[usize],
    heuristic: &mut H,
    bound: u32,
    control: Control<'_>,
    deadline: Option<Instant>,
    report: &(dyn Fn(&Progress) + Sync),
    shared: &Shared,
) {
    let mut mine = Vec::new();
    loop {
        let k = shared.next.fetch_add(1, Ordering::Relaxed);
        if k >= reached.len()
            || shared.found.load(Ordering::Relaxed) < k
            || shared.halt.load(Ordering::Relaxed)
        {
            break;
        }
        // Most units end before their meter first looks at the limits: look here too.
        let over_nodes = control
            .limits
            .nodes
            .is_some_and(|max| shared.generated.load(Ordering::Relaxed) >= max);
        if over_nodes
            || control.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
            || deadline.is_some_and(|d| Instant::now() >= d)
        {
            shared.halt.store(true, Ordering::Relaxed);
            break;
        }
        let unit_control = Control {
            limits: Limits {
                // The node limit is the whole search's, watched by `Abort`.
                nodes: None,
                ..remaining(&control, deadline, 0).limits
            },
            progress: control.progress.map(|_| report),
            ..remaining(&control, deadline, 0)
        };
        let abort = Abort {
            found: &shared.found,
            index: k,
            halt: &shared.halt,
            generated: &shared.generated,
            node_limit: control.limits.nodes,
        };
        let out = frontier::run(
            puzzle,
            &units[reached[k]],
            &mut *heuristic,
            bound,
            Meter::new(unit_control),
            Some(abort),
        );
        if out.moves.is_some() {
            shared.found.fetch_min(k, Ordering::Relaxed);
        } else if out.stopped_by.is_some() && shared.found.load(Ordering::Relaxed) >= k {
            // A limit (not a goal found earlier) stopped this unit: stop them all.
            shared.halt.store(true, Ordering::Relaxed);
        }
        mine.push((k, out));
    }
    shared
        .results
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .extend(mine);
}

/// `control` for a part of the search that starts now, `generated` nodes in: what is left of
/// the time and node limits, no trace, serial.
fn remaining<'a>(control: &Control<'a>, deadline: Option<Instant>, generated: u64) -> Control<'a> {
    Control {
        limits: Limits {
            time: deadline.map(super::time_left),
            nodes: control
                .limits
                .nodes
                .map(|n| n.saturating_sub(generated).max(1)),
            memory_bytes: None,
        },
        cancel: control.cancel,
        progress: control.progress,
        trace: 0,
        threads: 0,
    }
}

/// Which limit stopped the search.
fn why_halted(control: &Control<'_>, generated: u64, deadline: Option<Instant>) -> StopReason {
    if control.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
        StopReason::Cancelled
    } else if control.limits.nodes.is_some_and(|max| generated >= max) {
        StopReason::Nodes
    } else if deadline.is_some_and(|d| Instant::now() >= d) {
        StopReason::Time
    } else {
        StopReason::Cancelled
    }
}

/// The shallowest frontier with at least [`UNITS_PER_THREAD`] units per thread.
fn frontier_for<H: IncrementalHeuristic + Clone>(
    puzzle: &Puzzle,
    start: &[u8],
    heuristic: &H,
    threads: usize,
) -> Vec<WorkUnit> {
    let want = UNITS_PER_THREAD * threads;
    let mut depth = 1;
    loop {
        let units = frontier::split(puzzle, start, heuristic.clone(), depth);
        if units.len() >= want || depth >= MAX_SPLIT_DEPTH {
            return units;
        }
        depth += 1;
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicU64};

    use super::*;
    use crate::generate::{random_solvable, rng};
    use crate::goal::GoalSpec;
    use crate::heuristic::pdb::{Partition, PatternDatabase};
    use crate::heuristic::{LinearConflict, Manhattan};
    use crate::search::idastar;
    use crate::Board;

    /// Serial and parallel (from the first iteration on) agree on everything but time.
    fn agree<H: IncrementalHeuristic + Clone + Send>(goal: &Board, start: &Board, h: H) {
        let puzzle = Puzzle::new(goal).unwrap();
        let tiles = puzzle.encode(start);
        let serial = idastar(&puzzle, &tiles, h.clone(), Control::default());
        for threads in [1, 2, 3] {
            let control = Control {
                threads,
                ..Control::default()
            };
            let par = idastar_from(&puzzle, &tiles, h.clone(), control, Deepening::default(), 0);
            let moves = par.moves.as_ref().expect("no limits");
            assert_eq!(start.replay(moves).unwrap(), *goal, "{start:?}");
            assert_eq!(par.moves, serial.moves, "the serial path, {start:?}");
            let (a, b) = (par.stats, serial.stats);
            assert_eq!(
                (
                    a.generated,
                    a.expanded,
                    a.max_open,
                    a.final_open,
                    a.max_depth
                ),
                (
                    b.generated,
                    b.expanded,
                    b.max_open,
                    b.final_open,
                    b.max_depth
                ),
                "{threads} threads, {start:?}"
            );
        }
    }

    #[test]
    fn parallel_counts_and_paths_are_the_serial_ones() {
        let mut r = rng(13);
        for (shape, boards) in [("3x3", 30), ("2x4", 10), ("3x4", 6), ("2x2", 5)] {
            let goal = GoalSpec::Standard.board(shape.parse().unwrap()).unwrap();
            let puzzle = Puzzle::new(&goal).unwrap();
            for _ in 0..boards {
                let start = random_solvable(&goal, &mut r);
                agree(&goal, &start, Manhattan::new(&puzzle));
                agree(&goal, &start, LinearConflict::new(&puzzle));
            }
            // The goal itself, and boards a few moves away (goals above the frontier).
            agree(&goal, &goal, Manhattan::new(&puzzle));
            for moves in 1..4 {
                let start = crate::generate::random_walk(&goal, moves, &mut r);
                agree(&goal, &start, Manhattan::new(&puzzle));
            }
        }
    }

    /// With a lookahead before each iteration, a first threshold and a bound below which to
    /// look (as the anytime engine's prove phase asks), serial and parallel (from the first
    /// iteration on) agree on the path and the counts; below the optimal length there is no
    /// path, and each completed threshold is heard of in the same order. So with a window
    /// of three thresholds open from the start (iterations skipped), and with a lookahead
    /// that never finds a path (so that skipped-to iterations find paths not yet known to be
    /// shortest, which the iterations below them must prove or improve).
    #[test]
    fn parallel_deepening_with_a_lookahead_is_the_serial_one() {
        use crate::search::{deepen, Lookahead};
        let mut r = rng(29);
        for (shape, boards) in [("3x3", 20), ("3x4", 6)] {
            let goal = GoalSpec::Standard.board(shape.parse().unwrap()).unwrap();
            let puzzle = Puzzle::new(&goal).unwrap();
            for _ in 0..boards {
                let start = random_solvable(&goal, &mut r);
                let tiles = puzzle.encode(&start);
                let h = Manhattan::new(&puzzle);
                // Breadth-first search on 3×3; plain IDA* on 3×4, too large for it here.
                let optimal = if shape == "3x3" {
                    crate::search::bfs(&puzzle, &tiles, Control::default())
                } else {
                    idastar(&puzzle, &tiles, h.clone(), Control::default())
                };
                let optimal = optimal.moves.expect("solvable").len() as u32;
                // A proven lower bound above the heuristic's, as the prove phase has.
                let first = (h.clone().init(&tiles) + 2).min(optimal);
                for (below, window, blind) in [
                    (optimal, 1, false),
                    (u32::MAX, 1, false),
                    (u32::MAX, 3, false),
                    (u32::MAX, 3, true),
                    (optimal, 3, true),
                ] {
                    let run = |parallel: bool| {
                        let control = Control {
                            threads: if parallel { 2 } else { 1 },
                            ..Control::default()
                        };
                        let lookahead = Lookahead::new(&puzzle, &tiles, h.clone(), control);
                        let mut look = |t, p, u| {
                            if blind {
                                Looked::default()
                            } else {
                                lookahead.at(t, p, u)
                            }
                        };
                        let mut heard = Vec::new();
                        let mut hear = |b| heard.push(b);
                        let how = Deepening {
                            first,
                            below,
                            on_bound: Some(&mut hear),
                            lookahead: Some(&mut look),
                            window,
                            skip_from: 0,
                            ..Deepening::default()
                        };
                        let out = if parallel {
                            idastar_from(&puzzle, &tiles, h.clone(), control, how, 0)
                        } else {
                            deepen(&puzzle, &tiles, h.clone(), control, how)
                        };
                        let proven = out.lower_bound;
                        (
                            out.moves,
                            out.stats.generated,
                            out.stats.expanded,
                            heard,
                            proven,
                        )
                    };
                    let (serial, parallel) = (run(false), run(true));
                    let case = format!("{start:?} below {below} window {window} blind {blind}");
                    assert_eq!(serial, parallel, "{case}");
                    match &serial.0 {
                        Some(moves) => {
                            assert_eq!(moves.len() as u32, optimal, "{case}");
                            assert_eq!(start.replay(moves).unwrap(), goal);
                            assert_eq!(serial.4, Some(optimal), "{case}: proven");
                        }
                        None => assert_eq!(below, optimal, "{case}: a path exists"),
                    }
                    assert!(
                        serial.3.iter().all(|&b| b <= optimal),
                        "{case}: heard {:?}",
                        serial.3
                    );
                }
            }
        }
    }

    /// A heuristic that counts its moves, to see which searches are running.
    #[derive(Clone)]
    struct Counting<H> {
        inner: H,
        applies: std::sync::Arc<AtomicU64>,
    }

    impl<H: IncrementalHeuristic> IncrementalHeuristic for Counting<H> {
        type Undo = H::Undo;
        fn init(&mut self, tiles: &[u8]) -> u32 {
            self.inner.init(tiles)
        }
        fn apply(
            &mut self,
            tiles: &[u8],
            h: u32,
            tile: u8,
            from: usize,
            to: usize,
            m: crate::moves::Move,
        ) -> (u32, H::Undo) {
            self.applies.fetch_add(1, Ordering::Relaxed);
            self.inner.apply(tiles, h, tile, from, to, m)
        }
        fn undo(&mut self, undo: H::Undo) {
            self.inner.undo(undo)
        }
    }

    /// On two threads the iteration starts while the lookahead before it runs: a lookahead
    /// that waits for the units' moves before looking sees them, where the serial order
    /// would keep it waiting for ever (here, until its patience runs out, 5 s). The outcome
    /// and counts stay the serial search's.
    #[test]
    fn the_iteration_runs_beside_the_lookahead() {
        use crate::search::{deepen, Lookahead};
        use std::time::Duration;
        let goal = GoalSpec::Standard.board("3x4".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let start = random_solvable(&goal, &mut rng(31));
        let tiles = puzzle.encode(&start);
        let applies = std::sync::Arc::new(AtomicU64::new(0));
        let h = Counting {
            inner: Manhattan::new(&puzzle),
            applies: applies.clone(),
        };
        let run = |threads: usize, patience: Duration| {
            let control = Control {
                threads,
                ..Control::default()
            };
            let lookahead = Lookahead::new(&puzzle, &tiles, h.clone(), control);
            let (mut calls, mut saw_units) = (0, 0);
            let mut look = |t, p, u| {
                // The first iteration is serial (`parallel_from` counts its nodes).
                calls += 1;
                let before = applies.load(Ordering::Relaxed);
                let waited = Instant::now();
                while calls > 1
                    && applies.load(Ordering::Relaxed) == before
                    && waited.elapsed() < patience
                {
                    std::thread::yield_now();
                }
                if applies.load(Ordering::Relaxed) > before {
                    saw_units += 1;
                }
                lookahead.at(t, p, u)
            };
            let how = Deepening {
                lookahead: Some(&mut look),
                ..Deepening::default()
            };
            let out = if threads > 1 {
                idastar_from(&puzzle, &tiles, h.clone(), control, how, 0)
            } else {
                deepen(&puzzle, &tiles, h.clone(), control, how)
            };
            (
                out.moves,
                out.stats.generated,
                out.stats.expanded,
                saw_units,
            )
        };
        let serial = run(1, Duration::ZERO);
        assert_eq!(serial.3, 0, "nothing else runs in the serial search");
        let parallel = run(2, Duration::from_secs(5));
        assert_eq!(serial.0, parallel.0);
        assert_eq!((serial.1, serial.2), (parallel.1, parallel.2));
        assert!(parallel.3 >= 1, "the units waited for the lookahead");
    }

    #[test]
    fn parallel_pattern_database_search_is_the_serial_one() {
        let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let partition = Partition::new(puzzle.shape, 8, &[4, 4]).unwrap();
        let tables = crate::Tables::default();
        let db = PatternDatabase::from_tables(&puzzle, &partition, &tables).unwrap();
        let mut r = rng(7);
        for _ in 0..20 {
            let start = random_solvable(&goal, &mut r);
            agree(&goal, &start, db.search());
        }
    }

    #[test]
    fn parallel_search_stops_at_its_node_limit_and_when_cancelled() {
        let goal = GoalSpec::BlankFirst.board("4x4".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        // Korf's #1: 276 million nodes with Manhattan distance.
        let start = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
        let tiles = puzzle.encode(&start);
        let control = Control {
            threads: 2,
            limits: Limits {
                nodes: Some(3_000_000),
                ..Limits::default()
            },
            ..Control::default()
        };
        let out = idastar_from(
            &puzzle,
            &tiles,
            Manhattan::new(&puzzle),
            control,
            Deepening::default(),
            0,
        );
        assert_eq!(out.stopped_by, Some(StopReason::Nodes));
        assert!(out.moves.is_none());
        assert!(out.stats.generated >= 3_000_000 && out.stats.generated < 4_000_000);

        let cancel = AtomicBool::new(true);
        let control = Control {
            threads: 2,
            cancel: Some(&cancel),
            ..Control::default()
        };
        let out = idastar_from(
            &puzzle,
            &tiles,
            Manhattan::new(&puzzle),
            control,
            Deepening::default(),
            0,
        );
        assert_eq!(out.stopped_by, Some(StopReason::Cancelled));
        assert!(out.moves.is_none());
    }
}
