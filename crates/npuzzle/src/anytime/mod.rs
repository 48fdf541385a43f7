//! The anytime engine: the best answer a time budget allows, with a proven lower bound.
//!
//! One run keeps an **incumbent** (the shortest path found so far) and a **lower bound**
//! (proven: no path is shorter), and improves both until they meet or the time runs out:
//!
//! 1. **First answer**: the constructive solver, the fastest method that always answers,
//!    then [`shorten`]ed.
//! 2. **Improve**: on boards of 65 cells and more, a staged answer: the rows and columns
//!    outside the last 25 cells filled by weighted A* over their own tiles, the rest solved
//!    by this engine (`staged.rs`, with a [`RegionSolver`] when the caller has tables for
//!    it). On boards of 26 cells and more, beam searches ranked by linear conflict (plus the
//!    pattern databases when [`BeamRanking::for_tables`] says so, and on 6×6 a second,
//!    shifted partition's that the caller passes to [`run_ranked`]), ever wider as the time
//!    allows ([`search::beam`]); weighted A* at the schedule's weights, if any;
//!    then long windows of the path re-solved ([`shorten_windows`]). Then weighted IDA* on
//!    the fast bounded kernel with weights falling from 2 to 1.01, restarted at each
//!    weight (as restarting weighted A* does, Richter, Thayer & Ruml 2010) and pruned by
//!    the incumbent: a child with `g + h ≥ best` is never visited.
//!    Each path found is shortened and becomes the incumbent. A weighted search that runs
//!    out of states below the incumbent has proved it optimal.
//! 3. **Prove**: IDA* under the incumbent from the lower bound up, with a lookahead before
//!    each iteration (see `search::idastar_with_lookahead`). Each completed threshold raises
//!    the bound; a path it finds is optimal; a threshold that reaches the incumbent's length
//!    proves the incumbent optimal.
//!
//! The improve phase gets a share of the time budget ([`Schedule::improve_share`]); without a budget
//! (boards the plan expects to solve optimally) it is skipped and IDA* runs at once, with the
//! first answer held in reserve for a limit the user sets.

mod beams;
mod shorten;
mod staged;

pub use beams::BeamRanking;
use beams::{beams, Ranks};
pub use shorten::{shorten, shorten_windows};

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;

use crate::board::Board;
use crate::constructive::{self, LineSearch};
use crate::heuristic::{Heuristic, IncrementalHeuristic, LinearConflict};
use crate::moves::Move;
use crate::puzzle::Puzzle;
use crate::search::{
    self, bounded, deepen, Ask, Bounds, Control, Deepening, Limits, Lookahead, Meter, Priority,
    Progress, SearchStats, StopReason,
};

/// How a run spends its budget. [`Schedule::default`] is what `auto` uses; the others are
/// there to be measured against it (`examples/anytime_schedules.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// The weights of the improve phase, in turn. Each run is cut short by the time budget;
    /// the large weights answer in milliseconds, the small ones are where the budget goes.
    pub weights: Vec<f64>,
    /// The share of a time budget the improve phase may use; the prove phase gets the rest.
    pub improve_share: f64,
    /// On boards of at least `best_first_from_cells` cells the improve phase runs weighted
    /// A* (best first, with linear conflict) at these weights after the beam searches, each
    /// for at most half the improve phase's time left: on 6×6 and up weighted IDA* goes down
    /// long blind alleys at any weight (`W` = 5 found nothing in 9 s on 6×6), while
    /// weighted A* answers in a second or two; the beams answer better still.
    pub best_first_weights: Vec<f64>,
    /// See `best_first_weights`.
    pub best_first_from_cells: usize,
    /// On boards of at least `staged_from_cells` cells, before the best-first searches:
    /// the rows and columns outside the last 25 cells filled one by one with this search,
    /// the rest solved by the engine (see `staged.rs`); `None`: no stages.
    pub staged: Option<LineSearch>,
    /// See `staged`.
    pub staged_from_cells: usize,
    /// On boards of at least `beam_from_cells` cells, after the stages: beam search ranked
    /// as `beam_ranking` says (alone, the 5-tile tables of 6×6 rank 1 % to 2 % better than
    /// linear conflict in the same time, but the 4-tile ones `auto` builds rank worse, and
    /// on 7×7 they let a beam wander for thousands of moves; see [`BeamRanking::for_tables`]
    /// for their sum with linear conflict), `beam_first_width` states a depth first, then
    /// wider as the time allows, for at most `beam_share` of the improve phase's time left
    /// (see [`search::beam`]).
    pub beam_from_cells: usize,
    /// See `beam_from_cells`.
    pub beam_first_width: usize,
    /// See `beam_from_cells`; 0: no beam searches.
    pub beam_share: f64,
    /// What the beams rank states by.
    pub beam_ranking: BeamRanking,
    /// The share of the improve phase's time left that the staged answer's last region
    /// may use.
    pub staged_share: f64,
    /// After the best-first searches, the incumbent's windows of these lengths are re-solved
    /// in turn (see [`shorten_windows`]), each window's search stopped after
    /// `long_window_nodes` nodes; empty: none.
    pub long_windows: Vec<usize>,
    /// See `long_windows`.
    pub long_window_nodes: u64,
    /// After each path a weighted search finds, the tail of the path is re-solved with
    /// IDA* (`Run::improve_tail`) for at most this share of the improve phase's time left
    /// per search; `None`: no tail searches.
    pub tail_share: Option<f64>,
}

impl Default for Schedule {
    fn default() -> Schedule {
        Schedule {
            // Steps of 0.1 from 1.6 to 1.4 and 0.05 from 1.4 to 1.2: each weight runs until
            // it answers, and on a hard board a step too far (1.6 to 1.4) found nothing in
            // the whole budget where 1.5 answered. On Korf & Felner's 50 at 10 s: 1.0135 ×
            // optimal with 6-6-6-6 and 1.0210 with 5-5-5-5-4, against 1.0171 and 1.0254
            // with 2, 1.6, 1.4, 1.3, 1.2, …, and 1.0159 and 1.0238 with steps finer still
            // (docs/performance.md).
            weights: vec![
                2.0, 1.6, 1.5, 1.4, 1.35, 1.3, 1.25, 1.2, 1.15, 1.1, 1.07, 1.05, 1.03, 1.02, 1.01,
            ],
            // None by default: the beam searches answer better in the same time (204.1
            // against 207.5 with both, first ten 6×6 boards at 15 s). 5, 3 and 2 were the
            // weights before the beams.
            best_first_weights: Vec::new(),
            best_first_from_cells: 26,
            // Measured on 7×7 and 8×8 (docs/performance.md): smaller first weights give
            // up within the budget on most lines, and a budget of a million states lost
            // 10 % on some boards.
            staged: Some(LineSearch {
                weight: 3.0,
                states: 3_000_000,
            }),
            // 0.15 measured the same on 7×7 (409.9 against 409.7, ten boards).
            staged_share: 0.3,
            // Before the beams the stages gained 16 % on 7×7 and 19 % on 8×8, nothing on 6×6;
            // with the beams they lose 2 % on 7×7 and 1 % on 8×8, and gain 7 % on 10×10
            // (docs/performance.md).
            staged_from_cells: 65,
            beam_from_cells: 26,
            beam_first_width: 1000,
            // Measured on the first ten 6×6 boards at 15 s (docs/performance.md): 0.5
            // 206.5, 0.8 204.1, 0.95 203.7, against 218.5 without beams.
            beam_share: 0.8,
            // The run's heuristic may be linear conflict itself; a caller with tables says so.
            beam_ranking: BeamRanking::LinearConflict,
            long_windows: vec![36, 48, 60, 72],
            long_window_nodes: 2_000_000,
            // Measured with examples/anytime_schedules.rs (Korf & Felner's first ten, 5 s,
            // interleaved): 1.036 × optimal, against 1.040 with no tail searches, 1.043 with
            // 0.9 and none, 1.056 with 0.75 and 1/8.
            improve_share: 0.9,
            tail_share: Some(1.0 / 32.0),
        }
    }
}

impl Schedule {
    /// Whether the improve phase on `puzzle` begins with weighted A* and long windows.
    fn begins_best_first(&self, puzzle: &Puzzle) -> bool {
        puzzle.cells() >= self.best_first_from_cells
    }
}

/// One improvement of the answer or of its lower bound.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Improvement {
    /// Seconds since the run began.
    pub seconds: f64,
    /// The incumbent's length after it (`None` before the first answer).
    pub length: Option<u64>,
    /// The proven lower bound after it.
    pub lower_bound: u64,
    /// What made it: `constructive`, `shortened`, `staged`, `beam width=4000`,
    /// `weighted astar W=3`, `long windows`, `weighted idastar W=1.3`, `idastar tail`,
    /// `idastar bound`, `proved`.
    pub by: String,
}

/// What an anytime run found.
#[derive(Clone, Debug, Default)]
pub struct AnytimeOutcome {
    /// The best path found, if any.
    pub moves: Option<Vec<Move>>,
    /// Whether it is proven shortest.
    pub optimal: bool,
    /// The proven lower bound on the optimal length.
    pub lower_bound: u64,
    /// How the answer and the bound improved, in order.
    pub improvements: Vec<Improvement>,
    /// Counters, added up over every search of the run.
    pub stats: SearchStats,
    /// The limit that ended the run before the answer was proved optimal.
    pub stopped_by: Option<StopReason>,
}

/// An anytime run from `start` to the puzzle's goal with an admissible incremental
/// heuristic, within `control`'s limits (its time limit is the budget; none: run until
/// the answer is proved optimal, skipping the improve phase).
///
/// `control.threads` above 1 runs the prove phase's IDA* on that many threads.
///
/// The beams rank by linear conflict here: the engine cannot see a heuristic's tables. A
/// caller with pattern databases passes [`run_with`] a schedule whose `beam_ranking` is
/// [`BeamRanking::for_tables`] (and [`run_ranked`] the shifted partition's tables), as
/// `solve` does with the plan's ranking (`Phase::beam_ranking`).
pub fn run<H: IncrementalHeuristic + Clone + Send>(
    puzzle: &Puzzle,
    start: &Board,
    heuristic: H,
    control: Control<'_>,
) -> AnytimeOutcome {
    run_with(puzzle, start, heuristic, control, &Schedule::default())
}

/// [`run`] with another [`Schedule`].
pub fn run_with<H: IncrementalHeuristic + Clone + Send>(
    puzzle: &Puzzle,
    start: &Board,
    heuristic: H,
    control: Control<'_>,
    schedule: &Schedule,
) -> AnytimeOutcome {
    run_with_region(puzzle, start, heuristic, control, schedule, None)
}

/// What solves the last region of a staged answer (see `schedule.staged`): an anytime
/// run on that region's own puzzle and board, within the control given.
pub type RegionSolver<'a> = dyn Fn(&Puzzle, &Board, Control<'_>) -> AnytimeOutcome + 'a;

/// [`run_with`], the last region of a staged answer solved by `region` (a caller that has
/// pattern databases for it) rather than with linear conflict.
pub fn run_with_region<H: IncrementalHeuristic + Clone + Send>(
    puzzle: &Puzzle,
    start: &Board,
    heuristic: H,
    control: Control<'_>,
    schedule: &Schedule,
    region: Option<&RegionSolver<'_>>,
) -> AnytimeOutcome {
    let no_shifted: Option<LinearConflict> = None;
    run_ranked(
        puzzle, start, heuristic, no_shifted, control, schedule, region,
    )
}

/// [`run_with_region`], the beams ranked with `shifted` too when the schedule says
/// [`BeamRanking::WithShiftedTables`]: a second partition's tables, which only rank
/// (the run's bound is `heuristic` alone).
pub fn run_ranked<H, S>(
    puzzle: &Puzzle,
    start: &Board,
    heuristic: H,
    shifted: Option<S>,
    control: Control<'_>,
    schedule: &Schedule,
    region: Option<&RegionSolver<'_>>,
) -> AnytimeOutcome
where
    H: IncrementalHeuristic + Clone + Send,
    S: IncrementalHeuristic + Clone,
{
    let began = Instant::now();
    let tiles = puzzle.encode(start);
    let goal = puzzle.goal_board();
    let lc = LinearConflict::new(puzzle).estimate(&tiles);
    let h0 = heuristic.clone().init(&tiles);
    let watch = Watch {
        began,
        user: control.progress,
        best: AtomicU32::new(u32::MAX),
        bound: AtomicU32::new(h0.max(crate::heuristic::whole_moves(lc))),
        proving: AtomicBool::new(false),
        done: [AtomicU64::new(0), AtomicU64::new(0)],
        shown: [AtomicU64::new(0), AtomicU64::new(0)],
    };
    let report = |p: &Progress| watch.report(p);
    let mut run = Run {
        control,
        watch: &watch,
        report: &report,
        moves: None,
        improvements: Vec::new(),
        stats: SearchStats::default(),
        stopped_by: None,
        optimal: false,
    };

    // 1. The first answer. The constructive solver takes at most a millisecond or two on
    // boards searched tile by tile (up to 255 cells), so nothing stops it: even a budget
    // that tables used up, or a Ctrl-C while they loaded, ends with an answer.
    let unstopped = Control {
        limits: Limits::default(),
        cancel: None,
        ..run.sub(None)
    };
    let first = constructive::construct_plain(start, &goal, unstopped);
    // Its statistics are not added: they count rows filled and moves, not the states
    // expanded and generated the engine's counters count (a 1-move 4×4 said "expanded 2,
    // generated 1").
    if let Some(moves) = first.moves {
        run.offer(moves, "constructive");
        run.shorten(puzzle, &tiles);
    } else {
        run.stopped_by = first.stopped_by;
    }

    // 2. Improve, within a share of the budget. A time limit that is only a ceiling is no
    // budget: the proof runs at once, as with no time limit, and the ceiling stops it.
    if let Some(budget) = control.limits.budget() {
        let until = budget.mul_f64(schedule.improve_share);
        if let Some(line) = schedule
            .staged
            .filter(|_| puzzle.cells() >= schedule.staged_from_cells)
        {
            let solve = |p: &Puzzle, b: &Board, c: Control<'_>| match region {
                Some(region) => region(p, b, c),
                None => run_with(p, b, LinearConflict::new(p), c, &Schedule::default()),
            };
            staged::staged(
                &mut run, puzzle, start, &tiles, line, &solve, schedule, until,
            );
        }
        let ranks = Ranks {
            tables: &heuristic,
            shifted: shifted.as_ref(),
        };
        beams(&mut run, puzzle, &tiles, ranks, schedule, until);
        let answered = best_first(&mut run, puzzle, &tiles, schedule, until);
        long_windows(&mut run, puzzle, &tiles, schedule, until);
        weighted(
            &mut run, puzzle, &tiles, &heuristic, schedule, answered, until,
        );
    }

    // 3. Prove: IDA* under the incumbent, from the lower bound up.
    if !run.done() {
        prove(&mut run, puzzle, &tiles, heuristic);
    }
    run.finish()
}

/// Weighted A* with linear conflict at `schedule.best_first_weights` on boards of at least
/// `schedule.best_first_from_cells` cells, each for at most half the time left before
/// `until` (measured from the run's start). Returns the smallest weight whose path became
/// the incumbent.
fn best_first(
    run: &mut Run<'_>,
    puzzle: &Puzzle,
    tiles: &[u8],
    schedule: &Schedule,
    until: Duration,
) -> Option<f64> {
    if !schedule.begins_best_first(puzzle) {
        return None;
    }
    let lc = LinearConflict::new(puzzle);
    let mut answered = None;
    for &w in &schedule.best_first_weights {
        let left = until.saturating_sub(run.watch.began.elapsed());
        if run.done() || left.is_zero() {
            break;
        }
        let sub = run.sub(Some(left / 2));
        let out = search::astar(puzzle, tiles, &lc, true, Priority::Weighted(w), sub);
        run.add(&out.stats);
        match out.moves {
            Some(moves) => {
                if run.offer(moves, &format!("weighted astar W={w}")) {
                    answered = Some(w);
                }
                run.shorten(puzzle, tiles);
            }
            None if run.user_stop(out.stopped_by) => break,
            None => {}
        }
    }
    answered
}

/// The incumbent's long windows re-solved (`schedule.long_windows`), on the boards the
/// best-first searches run on, for at most a quarter of the time left before `until`.
fn long_windows(
    run: &mut Run<'_>,
    puzzle: &Puzzle,
    tiles: &[u8],
    schedule: &Schedule,
    until: Duration,
) {
    if !schedule.begins_best_first(puzzle) || run.done() {
        return;
    }
    let Some(moves) = run.moves.clone() else {
        return;
    };
    let left = until.saturating_sub(run.watch.began.elapsed());
    let control = run.sub(Some(left / 4));
    let shorter = shorten_windows(
        puzzle.shape,
        tiles,
        &moves,
        &schedule.long_windows,
        Some(schedule.long_window_nodes),
        control,
    );
    if shorter.len() < moves.len() {
        run.offer(shorter, "long windows");
    }
}

/// Weighted IDA* at `schedule.weights` in turn, pruned by the incumbent, until `until`;
/// each path found is shortened and its tail re-solved. Weights at or above `answered` (the
/// smallest with which weighted A* improved the incumbent) are skipped: under an incumbent
/// that good they rarely find a shorter path, and their time is what the smaller weights
/// need.
fn weighted<H: IncrementalHeuristic + Clone>(
    run: &mut Run<'_>,
    puzzle: &Puzzle,
    tiles: &[u8],
    heuristic: &H,
    schedule: &Schedule,
    answered: Option<f64>,
    until: Duration,
) {
    let weights = schedule.weights.iter();
    for &w in weights.filter(|&&w| answered.is_none_or(|a| w < a)) {
        let left = until.saturating_sub(run.watch.began.elapsed());
        if run.done() || left.is_zero() {
            break;
        }
        let below = run.watch.best.load(Ordering::Relaxed);
        let bounds = Bounds {
            weight: w,
            below,
            step: search::SCALE,
        };
        let meter = Meter::new(run.sub(Some(left)));
        let out = bounded(puzzle, tiles, heuristic.clone(), bounds, meter);
        run.add(&out.stats);
        if let Some(moves) = out.moves {
            run.offer(moves, &format!("weighted idastar W={w}"));
            run.shorten(puzzle, tiles);
            if let Some(share) = schedule.tail_share {
                let left = until.saturating_sub(run.watch.began.elapsed());
                run.improve_tail(puzzle, tiles, heuristic, left.mul_f64(share));
            }
        } else if out.exhausted {
            run.prove_best("proved");
        } else if run.user_stop(out.stopped_by) {
            break;
        }
    }
}

/// IDA* under the incumbent from the lower bound up, looking ahead before each iteration
/// for a path as long as its threshold (on `control.threads` threads when more than one).
fn prove<H: IncrementalHeuristic + Clone + Send>(
    run: &mut Run<'_>,
    puzzle: &Puzzle,
    tiles: &[u8],
    heuristic: H,
) {
    let watch = run.watch;
    watch.proving.store(true, Ordering::Relaxed);
    let below = watch.best.load(Ordering::Relaxed);
    let sub = run.sub(None);
    let mut raise = |b: u32| {
        watch.bound.fetch_max(b, Ordering::Relaxed);
    };
    let lookahead = Lookahead::new(puzzle, tiles, heuristic.clone(), sub);
    let look = |ask: Ask<'_>| lookahead.at(ask);
    let how = Deepening {
        first: watch.bound.load(Ordering::Relaxed),
        below,
        on_bound: Some(&mut raise),
        lookahead: Some(&look),
        ..Deepening::default()
    };
    let out = search::deepening(puzzle, tiles, heuristic, sub, how);
    watch.proving.store(false, Ordering::Relaxed);
    run.add(&out.stats);
    match (out.moves, out.stopped_by) {
        (Some(moves), None) => {
            run.offer(moves, "idastar");
            run.prove_best("idastar");
        }
        (None, None) => run.prove_best("proved"),
        (moves, Some(why)) => {
            // A path a limit stopped it from proving (a search with a window; this one has
            // none) is still the best there may be.
            if let Some(moves) = moves {
                run.offer(moves, "idastar");
            }
            run.stopped_by = Some(why);
            let b = watch.bound.load(Ordering::Relaxed);
            run.note(&format!("idastar bound {b}"));
        }
    }
}

/// What progress reports of a run's searches read and raise.
struct Watch<'a> {
    began: Instant,
    user: Option<&'a (dyn Fn(&Progress) + Sync)>,
    /// The incumbent's length (`u32::MAX`: none yet).
    best: AtomicU32,
    /// The proven lower bound.
    bound: AtomicU32,
    /// Whether IDA*'s thresholds are being reported (they are lower bounds only then).
    proving: AtomicBool,
    /// The counters of the run's searches that have ended ([`Run::add`]): a search counts
    /// its own work, from zero, and its reports are passed on with these added.
    done: [AtomicU64; 2],
    /// The counters last reported: no report goes below them (a search whose counters
    /// are not added up may come before another).
    shown: [AtomicU64; 2],
}

impl Watch<'_> {
    /// A search's progress, passed on with the incumbent and the bound. In the prove phase
    /// the threshold IDA* is working on is a proven bound: every lower one was completed.
    fn report(&self, p: &Progress) {
        if self.proving.load(Ordering::Relaxed) {
            if let Some(b) = p.bound {
                self.bound.fetch_max(b, Ordering::Relaxed);
            }
        }
        if let Some(user) = self.user {
            let best = self.best.load(Ordering::Relaxed);
            let own = [p.expanded, p.generated];
            let [expanded, generated]: [u64; 2] = std::array::from_fn(|i| {
                let all = self.done[i].load(Ordering::Relaxed) + own[i];
                self.shown[i].fetch_max(all, Ordering::Relaxed).max(all)
            });
            user(&Progress {
                expanded,
                generated,
                elapsed: self.began.elapsed(),
                best: (best != u32::MAX).then_some(best),
                lower_bound: Some(self.bound.load(Ordering::Relaxed)),
                ..*p
            });
        }
    }
}

/// The state of one anytime run.
struct Run<'r> {
    control: Control<'r>,
    watch: &'r Watch<'r>,
    report: &'r (dyn Fn(&Progress) + Sync),
    moves: Option<Vec<Move>>,
    improvements: Vec<Improvement>,
    stats: SearchStats,
    stopped_by: Option<StopReason>,
    optimal: bool,
}

impl<'r> Run<'r> {
    /// The control of one search of the run: the user's limits less what has been used,
    /// at most `time`, progress reported with the incumbent and the bound.
    fn sub(&self, time: Option<Duration>) -> Control<'r> {
        let user = self.control.limits;
        let left = user
            .time
            .map(|t| t.saturating_sub(self.watch.began.elapsed()));
        let time = search::tighter(left, time);
        let nodes = user
            .nodes
            .map(|n| n.saturating_sub(self.stats.generated).max(1));
        Control {
            limits: Limits {
                time,
                nodes,
                ..user
            },
            progress: Some(self.report),
            trace: 0,
            ..self.control
        }
    }

    /// Whether the run is over: the answer is proved optimal, or the user's limits (or a
    /// cancellation) stopped it.
    fn done(&self) -> bool {
        self.optimal || self.stopped_by.is_some()
    }

    /// Whether a search's stop is the user's (time, nodes, memory, cancel) rather than a
    /// phase's own share of the time; records it if so.
    fn user_stop(&mut self, why: Option<StopReason>) -> bool {
        let user = self.control.limits;
        let stop = match why {
            None => false,
            Some(StopReason::Time) => user.time.is_some_and(|t| self.watch.began.elapsed() >= t),
            Some(StopReason::Nodes) => user.nodes.is_some_and(|n| self.stats.generated >= n),
            Some(_) => true,
        };
        if stop {
            self.stopped_by = why;
        }
        stop
    }

    fn add(&mut self, more: &SearchStats) {
        self.stats.absorb(more);
        self.stats.final_open = more.final_open;
        let done = &self.watch.done;
        done[0].store(self.stats.expanded, Ordering::Relaxed);
        done[1].store(self.stats.generated, Ordering::Relaxed);
    }

    /// Takes `moves` as the incumbent if shorter; says whether it did.
    fn offer(&mut self, moves: Vec<Move>, by: &str) -> bool {
        let len = moves.len() as u32;
        let shorter = len < self.watch.best.load(Ordering::Relaxed);
        if shorter {
            self.watch.best.store(len, Ordering::Relaxed);
            self.moves = Some(moves);
            self.note(by);
        }
        shorter
    }

    /// The incumbent is proved shortest: the bound rises to it.
    fn prove_best(&mut self, by: &str) {
        let best = self.watch.best.load(Ordering::Relaxed);
        if best != u32::MAX {
            self.watch.bound.fetch_max(best, Ordering::Relaxed);
            self.optimal = true;
            self.note(by);
        }
    }

    /// Re-solves the incumbent's last moves optimally with the run's own heuristic (a
    /// pattern database, towards the goal, so far stronger than the windows of [`shorten`]):
    /// from states ever further back along the path, IDA* for a path to the goal shorter
    /// than the rest of the incumbent. Each search gets at most `slice`; the first that
    /// does not finish in it ends the walk back.
    fn improve_tail<H: IncrementalHeuristic + Clone>(
        &mut self,
        puzzle: &Puzzle,
        tiles: &[u8],
        heuristic: &H,
        slice: Duration,
    ) {
        const STEP: usize = 4;
        let mut back = STEP;
        while let Some(moves) = self.moves.clone() {
            if back > moves.len() || slice.is_zero() {
                return;
            }
            let i = moves.len() - back;
            let state = state_after(puzzle, tiles, &moves[..i]);
            let how = Deepening {
                below: back as u32,
                ..Deepening::default()
            };
            let control = Control {
                threads: 1,
                ..self.sub(Some(slice))
            };
            let out = deepen(puzzle, &state, heuristic.clone(), control, how);
            self.add(&out.stats);
            match out.moves {
                Some(tail) => {
                    let mut better = moves[..i].to_vec();
                    better.extend(tail);
                    self.offer(better, "idastar tail");
                }
                None if out.stopped_by.is_some() => return,
                None => {}
            }
            back += STEP;
        }
    }

    /// Shortens the incumbent (see [`shorten`]) within the user's limits.
    fn shorten(&mut self, puzzle: &Puzzle, tiles: &[u8]) {
        let Some(moves) = &self.moves else { return };
        let control = self.sub(None);
        let shorter = shorten(puzzle.shape, tiles, moves, control);
        if shorter.len() < moves.len() {
            self.offer(shorter, "shortened");
        }
    }

    /// Records the incumbent and bound as they are now, and tells the progress callback.
    fn note(&mut self, by: &str) {
        let best = self.watch.best.load(Ordering::Relaxed);
        let improvement = Improvement {
            seconds: self.watch.began.elapsed().as_secs_f64(),
            length: (best != u32::MAX).then_some(u64::from(best)),
            lower_bound: u64::from(self.watch.bound.load(Ordering::Relaxed)),
            by: by.to_string(),
        };
        if self.improvements.last().is_some_and(|last| {
            last.length == improvement.length && last.lower_bound == improvement.lower_bound
        }) {
            return;
        }
        self.improvements.push(improvement);
        // No search is running: the run's counters are those added up.
        (self.report)(&Progress {
            expanded: 0,
            generated: 0,
            open: 0,
            bound: None,
            elapsed: Duration::ZERO,
            best: None,
            lower_bound: None,
        });
    }

    fn finish(mut self) -> AnytimeOutcome {
        let best = self.watch.best.load(Ordering::Relaxed);
        let mut bound = self.watch.bound.load(Ordering::Relaxed);
        if best != u32::MAX && bound >= best {
            // A path no longer than a lower bound is a shortest one.
            bound = best;
            self.optimal = true;
        }
        if self.optimal {
            self.stopped_by = None;
        } else if self.stopped_by.is_none() && self.moves.is_some() {
            // The budget (the user's or the documented default) ended the improvements.
            self.stopped_by = Some(StopReason::Time);
        }
        self.stats.seconds = self.watch.began.elapsed().as_secs_f64();
        AnytimeOutcome {
            moves: self.moves,
            optimal: self.optimal,
            lower_bound: u64::from(bound),
            improvements: self.improvements,
            stats: self.stats,
            stopped_by: self.stopped_by,
        }
    }
}

/// The tiles after `moves` from `tiles` (moves of the blank).
fn state_after(puzzle: &Puzzle, tiles: &[u8], moves: &[Move]) -> Vec<u8> {
    let mut state = tiles.to_vec();
    let mut blank = state.iter().position(|&t| t == 0).expect("a blank");
    for &m in moves {
        let to = usize::from(puzzle.neighbours[blank][m.index()]);
        state.swap(blank, to);
        blank = to;
    }
    state
}

#[cfg(test)]
mod tests {
    use std::sync::Mutex;
    use std::time::Duration;

    use super::*;
    use crate::generate;
    use crate::goal::GoalSpec;
    use crate::search::Limits;

    /// A board the first answer proves optimal (its length meets the lower bound) expanded
    /// and generated nothing: the constructive solver's rows filled and moves were counted
    /// as states (a 1-move 4×4 said "expanded 2, generated 1"; a solved one "expanded 2").
    #[test]
    fn an_answer_proved_at_once_counts_no_states() {
        let goal = GoalSpec::Standard.board("4x4".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let mut one_move = goal.clone();
        assert!(one_move.apply(crate::Move::Left));
        for start in [goal.clone(), one_move] {
            let out = run(
                &puzzle,
                &start,
                LinearConflict::new(&puzzle),
                Control::default(),
            );
            assert!(out.optimal);
            assert_eq!((out.stats.expanded, out.stats.generated), (0, 0), "{start}");
        }
    }

    /// What a run reports as it goes counts the whole run's work so far: its searches
    /// follow one another (weighted ones, then the proof), each counting from zero, and the
    /// counts used to fall back as each began.
    #[test]
    fn progress_counts_the_whole_run_and_never_goes_back() {
        let goal = GoalSpec::Standard.board("4x5".parse().unwrap()).unwrap();
        let puzzle = Puzzle::new(&goal).unwrap();
        let mut rng = generate::rng(3);
        for threads in [1, 2] {
            let start = generate::random_solvable(&goal, &mut rng);
            let heard: Mutex<Vec<(u64, u64)>> = Mutex::new(Vec::new());
            let report = |p: &Progress| heard.lock().unwrap().push((p.expanded, p.generated));
            let control = Control {
                limits: Limits {
                    time: Some(Duration::from_millis(300)),
                    ..Limits::default()
                },
                progress: Some(&report),
                threads,
                ..Control::default()
            };
            let out = run(&puzzle, &start, LinearConflict::new(&puzzle), control);
            assert!(out.improvements.len() >= 3, "{:?}", out.improvements);
            let heard = heard.into_inner().unwrap();
            assert!(heard.len() >= 10, "{} reports", heard.len());
            for (a, b) in heard.iter().zip(&heard[1..]) {
                assert!(
                    b.0 >= a.0 && b.1 >= a.1,
                    "{threads} threads: {a:?} then {b:?}"
                );
            }
            // The reports cover all but the run's last few moments. (The counters are
            // the searches': at least as many generated as expanded, less the root.)
            assert!(
                out.stats.generated + 1 >= out.stats.expanded,
                "{:?}",
                out.stats
            );
            let last = heard.last().unwrap();
            assert!(
                2 * last.0 >= out.stats.expanded && 2 * last.1 >= out.stats.generated,
                "{threads} threads: last heard {last:?}, the run {:?}",
                out.stats
            );
        }
    }
}
