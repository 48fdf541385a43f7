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
//! **Lookahead.** With a [`lookahead`](super::lookahead) and no node limit, the threads
//! claim the lookaheads before an iteration (several when a window is open: see
//! [`deepening`](super::deepening)) in order, then the iteration's units. A lookahead that
//! finds a path sends the units to the iteration just below that path, which the serial
//! order runs next; work the serial order would not have done is dropped uncounted. So the
//! outcome and counts are those of the serial order (lookaheads first, then the iteration).

use std::sync::atomic::Ordering;
use std::time::Instant;

use super::deepening::{After, Before, Deepening};
use super::frontier::{self, WorkUnit};
use super::iteration::{iterate, remaining, Beside, Iteration};
use super::tally::Tally;
use super::{Control, Meter, Progress, SearchOutcome, SearchStats, StopReason};
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
/// thresholds of `how`, looking ahead before each iteration if it says so. It has no node
/// limit: a node-limited search runs serially, to stop where the serial one stops (see
/// `dispatch::deepening`).
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
    debug_assert!(control.limits.nodes.is_none(), "a node limit runs serially");
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
    // Progress counts the whole search's work, whichever part reports it.
    let tally = Tally::new(control.progress, started);
    let whole = |p: &Progress| tally.relay(p);
    // The proven bound when the search ended (every shorter length ruled out), and the
    // path a limit stopped it from proving, if it held one.
    let finish = |mut outcome: SearchOutcome, mut stats: SearchStats, how: &mut Deepening| {
        outcome.lower_bound = Some(how.proven());
        if outcome.stopped_by.is_some() && outcome.moves.is_none() {
            outcome.moves = how.unproved();
        }
        stats.final_open = outcome.moves.as_ref().map_or(0, |m| m.len() as u64);
        stats.max_depth = stats.max_open;
        stats.seconds = started.elapsed().as_secs_f64();
        outcome.stats = stats;
        outcome
    };
    if !how.start(h0) {
        return finish(outcome, stats, &mut how);
    }
    // Serial iterations while they are small: a thread pool, a frontier and a heuristic set
    // up per unit cost more than such an iteration, and most instances end there.
    let root = frontier::split(puzzle, start, heuristic.clone(), 0);
    let mut h = heuristic.clone();
    loop {
        let (looked, next) = how.before(&stats, false, Some(&whole));
        stats.absorb(&looked);
        let bound = match next {
            Before::Iterate { bound, .. } => bound,
            Before::Over { moves, stopped_by } => {
                (outcome.moves, outcome.stopped_by) = (moves, stopped_by);
                return finish(outcome, stats, &mut how);
            }
        };
        // The iteration counts from zero; its progress counts the search's.
        let before = stats;
        let relay = |p: &Progress| {
            tally.relay(&Progress {
                expanded: before.expanded + p.expanded,
                generated: before.generated + p.generated,
                ..*p
            });
        };
        let meter = Meter::new(Control {
            progress: control
                .progress
                .map(|_| &relay as &(dyn Fn(&Progress) + Sync)),
            ..remaining(&control, deadline)
        });
        let out = frontier::run(puzzle, &root[0], &mut h, bound, meter, None);
        stats.absorb(&out.counts());
        if let Some(moves) = out.moves {
            match how.found(moves) {
                Some(moves) => outcome.moves = Some(moves),
                None => continue,
            }
            return finish(outcome, stats, &mut how);
        }
        if out.stopped_by.is_some() {
            outcome.stopped_by = out.stopped_by;
            return finish(outcome, stats, &mut how);
        }
        if let After::Over(moves) = how.completed(bound, out.generated, out.next_bound) {
            outcome.moves = moves;
            return finish(outcome, stats, &mut how);
        }
        if out.generated >= parallel_from {
            break;
        }
    }
    let units = frontier_for(puzzle, start, &heuristic, threads);
    loop {
        // The lookahead at an iteration's threshold runs beside it (see `iterate`).
        let (looked, next) = how.before(&stats, true, Some(&whole));
        stats.absorb(&looked);
        let (bound, look_beside) = match next {
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
            used: stats,
            tally: &tally,
        };
        let beside = match how.lookahead {
            Some(look) if look_beside => Some(Beside::new(look, how.asks(), how.proven())),
            _ => None,
        };
        let (looked, searched) = iterate(&iteration, &heuristic, beside);
        if let Some(looked) = looked {
            stats.absorb(&looked.stats);
            if looked.stopped_by.is_some() {
                outcome.stopped_by = looked.stopped_by;
                break;
            }
            if let Some(moves) = looked.moves {
                if let Some(moves) = how.found(moves) {
                    outcome.moves = Some(moves);
                    break;
                }
                // Kept: the iteration below it, which the serial order runs next, is the
                // one the threads went on to (see `iterate`).
                let (none, next) = how.before(&stats, false, Some(&whole));
                assert_eq!(none.generated, 0, "no lookahead below a kept path");
                let Before::Iterate { bound: below, .. } = next else {
                    unreachable!("a kept path leaves the iteration below it to run");
                };
                assert_eq!(
                    searched.as_ref().map(|s| s.bound),
                    Some(below),
                    "the serial order"
                );
            }
        }
        let Some(searched) = searched else {
            unreachable!("a lookahead that ends the search is handled above");
        };
        let bound = searched.bound;
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
            outcome.stopped_by = Some(why_halted(&control, deadline));
            break;
        }
        let nodes = stats.generated - before;
        if let After::Over(moves) = how.completed(bound, nodes, next_bound) {
            outcome.moves = moves;
            break;
        }
        tally.raise(&stats);
        tally.report(Some(how.proven()), 0, true);
    }
    finish(outcome, stats, &mut how)
}

/// Which limit stopped the search.
fn why_halted(control: &Control<'_>, deadline: Option<Instant>) -> StopReason {
    if control.cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
        StopReason::Cancelled
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
    use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize};
    use std::sync::Mutex;

    use super::*;
    use crate::generate::{random_solvable, rng};
    use crate::goal::GoalSpec;
    use crate::heuristic::pdb::{Partition, PatternDatabase};
    use crate::heuristic::{LinearConflict, Manhattan};
    use crate::search::idastar;
    use crate::search::lookahead::{Ask, Looked};
    use crate::Board;

    /// `how` on `control.threads` threads (parallel from the first iteration on), or the
    /// serial loop on one.
    fn deepening_on<H: IncrementalHeuristic + Clone + Send>(
        puzzle: &Puzzle,
        tiles: &[u8],
        h: H,
        control: Control<'_>,
        how: Deepening<'_>,
    ) -> SearchOutcome {
        if control.threads > 1 {
            idastar_from(puzzle, tiles, h, control, how, 0)
        } else {
            crate::search::deepen(puzzle, tiles, h, control, how)
        }
    }

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
        use crate::search::Lookahead;
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
                    let run = |threads: usize| {
                        let control = Control {
                            threads,
                            ..Control::default()
                        };
                        let lookahead = Lookahead::new(&puzzle, &tiles, h.clone(), control);
                        let look = |ask: Ask<'_>| {
                            if blind {
                                Looked::default()
                            } else {
                                lookahead.at(ask)
                            }
                        };
                        let mut heard = Vec::new();
                        let mut hear = |b| heard.push(b);
                        let how = Deepening {
                            first,
                            below,
                            on_bound: Some(&mut hear),
                            lookahead: Some(&look),
                            window,
                            skip_from: 0,
                            ..Deepening::default()
                        };
                        let out = deepening_on(&puzzle, &tiles, h.clone(), control, how);
                        let proven = out.lower_bound;
                        (
                            out.moves,
                            out.stats.generated,
                            out.stats.expanded,
                            heard,
                            proven,
                        )
                    };
                    let serial = run(1);
                    let case = format!("{start:?} below {below} window {window} blind {blind}");
                    for threads in [2, 3] {
                        assert_eq!(serial, run(threads), "{case}, {threads} threads");
                    }
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

    /// On two threads the lookaheads of a window run side by side, and once one finds a
    /// path the threads go on to the iteration below it while the lookaheads before it
    /// finish. Here the lookahead just below the one that finds the path waits until that
    /// one has returned and the units have moved since; looking ahead on one thread, in
    /// the serial order, it would wait for ever (here, until its patience runs out). The
    /// outcome and counts stay the serial search's.
    #[test]
    fn a_found_path_sends_the_threads_to_the_iteration_below_it() {
        use crate::search::Lookahead;
        use std::time::Duration;
        let goal = GoalSpec::Standard.board("3x4".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let applies = std::sync::Arc::new(AtomicU64::new(0));
        let mut r = rng(37);
        let mut tried = 0;
        loop {
            tried += 1;
            assert!(
                tried < 50,
                "no board whose path is found above a window's first threshold"
            );
            let start = random_solvable(&goal, &mut r);
            let tiles = puzzle.encode(&start);
            let h = Counting {
                inner: Manhattan::new(&puzzle),
                applies: applies.clone(),
            };
            // `events`: each lookahead's threshold and the length of the path it found (0:
            // none), and each bound proved (`None`); `wait_at`: the threshold whose lookahead waits for the
            // path, `patience` how long.
            let run = |threads: usize, wait_at: Option<u32>, patience: Duration| {
                let control = Control {
                    threads,
                    ..Control::default()
                };
                let lookahead = Lookahead::new(&puzzle, &tiles, h.clone(), control);
                let events = Mutex::new(Vec::new());
                // Moves made when the path-finding lookahead returned (0: not yet).
                let found_at = AtomicU64::new(0);
                let saw = AtomicBool::new(false);
                let look = |ask: Ask<'_>| {
                    if Some(ask.threshold) == wait_at {
                        let waited = Instant::now();
                        while waited.elapsed() < patience {
                            let at = found_at.load(Ordering::SeqCst);
                            if at > 0 && applies.load(Ordering::SeqCst) > at {
                                saw.store(true, Ordering::SeqCst);
                                break;
                            }
                            std::thread::yield_now();
                        }
                    }
                    let looked = lookahead.at(ask);
                    if wait_at == Some(ask.threshold.wrapping_sub(2)) && looked.moves.is_some() {
                        found_at.store(applies.load(Ordering::SeqCst), Ordering::SeqCst);
                    }
                    let found = looked.moves.as_ref().map_or(0, |m| m.len() as u32);
                    events.lock().unwrap().push((ask.threshold, Some(found)));
                    looked
                };
                let mut hear = |b| events.lock().unwrap().push((b, None));
                let how = Deepening {
                    lookahead: Some(&look),
                    on_bound: Some(&mut hear),
                    window: 3,
                    skip_from: 0,
                    ..Deepening::default()
                };
                let out = deepening_on(&puzzle, &tiles, h.clone(), control, how);
                let events = events.into_inner().unwrap();
                let counts = (out.moves, out.stats.generated, out.stats.expanded);
                (counts, events, saw.into_inner())
            };
            let (serial, events, _) = run(1, None, Duration::ZERO);
            // The first lookahead to find a path, if the one before it is in its window
            // (two below it, no bound proved between them) and the path is longer than
            // that one's threshold (so not yet proved shortest: an iteration must follow).
            let Some(f) = events.iter().position(|&(_, e)| e.is_some_and(|l| l > 0)) else {
                continue;
            };
            let (below, length) = (events[f].0 - 2, events[f].1.unwrap_or(0));
            if f < 1 || events[f - 1] != (below, Some(0)) || length <= below {
                continue;
            }
            let (parallel, _, saw) = run(2, Some(below), Duration::from_secs(5));
            assert_eq!(serial, parallel, "{start:?}");
            let moves = serial.0.as_ref().expect("no limits");
            assert_eq!(start.replay(moves).unwrap(), goal);
            assert!(
                saw,
                "{start:?}: the units below the path ran beside the lookahead at {below}"
            );
            return;
        }
    }

    /// On two threads the iteration starts while the lookahead before it runs: a lookahead
    /// that waits for the units' moves before looking sees them, where the serial order
    /// would keep it waiting for ever (here, until its patience runs out, 5 s). The outcome
    /// and counts stay the serial search's.
    #[test]
    fn the_iteration_runs_beside_the_lookahead() {
        use crate::search::Lookahead;
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
            let (calls, saw_units) = (AtomicUsize::new(0), AtomicUsize::new(0));
            let look = |ask: Ask<'_>| {
                // The first iteration is serial (`parallel_from` counts its nodes).
                let calls = calls.fetch_add(1, Ordering::SeqCst) + 1;
                let before = applies.load(Ordering::Relaxed);
                let waited = Instant::now();
                while calls > 1
                    && applies.load(Ordering::Relaxed) == before
                    && waited.elapsed() < patience
                {
                    std::thread::yield_now();
                }
                if applies.load(Ordering::Relaxed) > before {
                    saw_units.fetch_add(1, Ordering::SeqCst);
                }
                lookahead.at(ask)
            };
            let how = Deepening {
                lookahead: Some(&look),
                ..Deepening::default()
            };
            let out = deepening_on(&puzzle, &tiles, h.clone(), control, how);
            (
                out.moves,
                out.stats.generated,
                out.stats.expanded,
                saw_units.into_inner(),
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

    /// What a proof reports as it goes counts all its work so far: on one thread and on
    /// several, serial iterations first or parallel from the first, with lookaheads before
    /// and beside the iterations, neither count ever goes back, and the expanded count
    /// keeps up with the search (it stood still for a whole parallel iteration, and the
    /// counts fell back whenever another part of the proof took the report over).
    #[test]
    fn progress_counts_all_the_work_and_never_goes_back() {
        use crate::search::Lookahead;
        use crate::search::Progress;
        let goal = GoalSpec::Standard.board("4x4".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let mut r = rng(5);
        for walk in [80, 90] {
            let start = crate::generate::random_walk(&goal, walk, &mut r);
            let tiles = puzzle.encode(&start);
            let h = Manhattan::new(&puzzle);
            for (threads, parallel_from, window) in [
                (1, PARALLEL_FROM, 1),
                (2, PARALLEL_FROM, 1),
                (2, 0, 1),
                (3, 0, 3),
            ] {
                let heard: Mutex<Vec<(u64, u64)>> = Mutex::new(Vec::new());
                let report = |p: &Progress| {
                    heard.lock().unwrap().push((p.expanded, p.generated));
                };
                let control = Control {
                    threads,
                    progress: Some(&report),
                    ..Control::default()
                };
                let lookahead = Lookahead::new(&puzzle, &tiles, h.clone(), control);
                let look = |ask: Ask<'_>| lookahead.at(ask);
                let how = Deepening {
                    lookahead: Some(&look),
                    window,
                    skip_from: 0,
                    ..Deepening::default()
                };
                let out = if threads > 1 {
                    idastar_from(&puzzle, &tiles, h.clone(), control, how, parallel_from)
                } else {
                    crate::search::deepen(&puzzle, &tiles, h.clone(), control, how)
                };
                assert!(out.moves.is_some());
                let heard = heard.into_inner().unwrap();
                let case = format!("walk {walk}, {threads} threads from {parallel_from}");
                assert!(heard.len() >= 10, "{case}: {} reports", heard.len());
                for (a, b) in heard.iter().zip(&heard[1..]) {
                    assert!(b.0 >= a.0 && b.1 >= a.1, "{case}: {a:?} then {b:?}");
                }
                // The reports cover all but the search's last few moments.
                let last = heard.last().unwrap();
                assert!(
                    2 * last.0 >= out.stats.expanded && 2 * last.1 >= out.stats.generated,
                    "{case}: last heard {last:?}, the search {:?}",
                    out.stats
                );
            }
        }
    }

    /// A proof stopped by a limit while it holds a path longer than its proven bound (a
    /// lookahead above the bound found it, and the iterations below it were proving it)
    /// returns that path, stopped, as the best it has; it used to say it had found none.
    /// Here the lookahead hands over a shortest path once asked at or above its length, and
    /// cancels the search.
    #[test]
    fn a_proof_stopped_while_holding_a_path_returns_it() {
        let goal = GoalSpec::Standard.board("3x4".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let mut r = rng(41);
        let mut kept = 0;
        for _ in 0..12 {
            let start = random_solvable(&goal, &mut r);
            let tiles = puzzle.encode(&start);
            let h = Manhattan::new(&puzzle);
            let shortest = idastar(&puzzle, &tiles, h.clone(), Control::default())
                .moves
                .expect("solvable");
            for threads in [1, 2, 3] {
                let cancel = AtomicBool::new(false);
                let control = Control {
                    threads,
                    cancel: Some(&cancel),
                    ..Control::default()
                };
                let look = |ask: Ask<'_>| {
                    if ask.threshold as usize >= shortest.len() {
                        cancel.store(true, Ordering::SeqCst);
                        return Looked {
                            moves: Some(shortest.clone()),
                            ..Looked::default()
                        };
                    }
                    Looked::default()
                };
                let how = Deepening {
                    lookahead: Some(&look),
                    window: 3,
                    skip_from: 0,
                    ..Deepening::default()
                };
                let out = deepening_on(&puzzle, &tiles, h.clone(), control, how);
                let case = format!("{start:?} on {threads} threads");
                let moves = out.moves.as_ref().expect("a path in hand");
                assert_eq!(start.replay(moves).unwrap(), goal, "{case}");
                let bound = out.lower_bound.expect("a proven bound");
                if out.stopped_by.is_some() {
                    assert_eq!(out.stopped_by, Some(StopReason::Cancelled), "{case}");
                    assert!(
                        (bound as usize) < moves.len(),
                        "{case}: stopped, so not proved"
                    );
                    kept += 1;
                } else {
                    assert_eq!(bound as usize, moves.len(), "{case}: proved");
                }
            }
        }
        assert!(
            kept >= 6,
            "only {kept} searches were stopped holding a path"
        );
    }

    #[test]
    fn parallel_search_stops_when_cancelled() {
        let goal = GoalSpec::BlankFirst.board("4x4".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        // Korf's #1: 276 million nodes with Manhattan distance.
        let start = Board::parse("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3", None).unwrap();
        let tiles = puzzle.encode(&start);
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
