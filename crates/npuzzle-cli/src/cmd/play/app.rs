//! The state of a game of `npuzzle play`, apart from any terminal, so tests drive it with
//! actions and read it back (the drawing is in `view`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use npuzzle::heuristic::{Heuristic, LinearConflict};
use npuzzle::hint::HINT_TIME;
use npuzzle::puzzle::Puzzle;
use npuzzle::search::{Control, Progress};
use npuzzle::{generate, solve, Board, Limits, Move, Solution};
use npuzzle::{SolveError, SolveOptions, Tables};

use crate::output::count;

/// How long "solve" may search optimally before it settles for a good path.
const SOLVE_TIME: Duration = Duration::from_secs(20);
/// Speeds of the solution's animation, in moves a second (`+` and `-` step through them): a
/// 10x10 solution of some 2,000 moves takes 5 minutes at the first default, 2 s at the top.
pub const SPEEDS: [u32; 10] = [1, 2, 4, 7, 15, 30, 60, 125, 250, 1000];
/// The speed a solution plays at first: 7 moves a second, slow enough to follow.
const DEFAULT_SPEED: usize = 3;
/// How long the answer to a key refused while a solution plays stays on the status line
/// (then the line shows the solution's progress again).
const NOTICE_TIME: Duration = Duration::from_secs(3);
/// The answer to a key that would act on the board while the goal is shown.
pub const GOAL_SHOWN: &str = "The goal is shown: g goes back to the board.";
/// The answer to a key that would act on the board while a solution plays.
pub const SOLUTION_PLAYING: &str = "A solution is playing: Esc stops it.";

/// What the player asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Move the blank this way (the tile beside it slides the other way).
    Blank(Move),
    /// Slide the tiles between the blank and this cell (a mouse click).
    Click(usize),
    /// Take back the last move.
    Undo,
    /// Search for the next optimal move.
    Hint,
    /// Search for the whole solution, then play it.
    Solve,
    /// A new random board.
    New,
    /// Stop a search or an animation.
    Stop,
    /// Play the solution faster.
    Faster,
    /// Play the solution slower.
    Slower,
    /// Play the rest of the solution at once.
    SkipToEnd,
    /// Show the goal instead of the board, or the board again.
    ToggleGoal,
    /// Leave.
    Quit,
}

/// How good a found path is, as hints and the solution played are marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quality {
    /// Proved shortest.
    Optimal,
    /// Not proved shortest; the shortest is at least this long.
    AtLeast(u64),
    /// Not proved shortest, with no bound known.
    Unproven,
}

impl Quality {
    /// The quality of a search's answer.
    fn of(s: &Solution) -> Quality {
        match (s.optimal, s.lower_bound) {
            (true, _) => Quality::Optimal,
            (false, Some(bound)) => Quality::AtLeast(bound),
            (false, None) => Quality::Unproven,
        }
    }
}

impl std::fmt::Display for Quality {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Past the optimal frontier, how far off the answer may be: the proven bound.
        match self {
            Quality::Optimal => f.write_str("optimal"),
            Quality::AtLeast(bound) => write!(f, "not proven optimal: at least {bound}"),
            Quality::Unproven => f.write_str("not proven optimal"),
        }
    }
}

/// Whether the game goes on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Keep playing.
    Continue,
    /// The player left.
    Quit,
}

/// What a background search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// The next move only.
    Hint,
    /// The whole solution, to animate.
    Solve,
}

/// A search running on its own thread, so the screen stays live.
pub struct Job {
    /// Hint or solve.
    pub kind: JobKind,
    /// The board it searches from; a result for another board is stale.
    board: Board,
    cancel: Arc<AtomicBool>,
    progress: Arc<Mutex<Option<Progress>>>,
    result: Receiver<Result<Solution, SolveError>>,
    /// When it began.
    pub started: Instant,
}

impl Job {
    /// The latest progress report, if any came yet.
    pub fn progress(&self) -> Option<Progress> {
        *self.progress.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        // A dropped job's thread stops at its next check instead of running on.
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// A game: the board, its goal, the moves made, and any search or animation under way.
pub struct App {
    /// The board as it stands.
    pub board: Board,
    /// The goal.
    pub goal: Board,
    puzzle: Puzzle,
    heuristic: LinearConflict,
    /// Blank moves made, for undo; its length is the move counter.
    history: Vec<Move>,
    /// When the first move was made (the timer starts then).
    started: Option<Instant>,
    /// The time on the clock when the board was solved (the timer stops then).
    stopped: Option<Duration>,
    /// One line telling what just happened.
    pub status: String,
    /// The blank move a hint suggests, while the board is the one it was given for.
    pub hint: Option<Move>,
    /// A search under way.
    pub job: Option<Job>,
    /// A found solution being played: its moves, how many are played, and when the last
    /// one was.
    animation: Vec<Move>,
    played: usize,
    last_step: Instant,
    /// How good the solution being played is.
    quality: Quality,
    /// When a key was refused while a solution plays: the status says why for a while.
    refused_at: Option<Instant>,
    /// Index into [`SPEEDS`].
    speed: usize,
    /// The goal is shown instead of the board (`g`).
    pub showing_goal: bool,
    /// The screen shows the board: false while it is too small to (then no key moves a
    /// tile, nor does a solution play on where nobody sees it).
    board_on_screen: bool,
    /// Seed of the next random board.
    seed: u64,
    /// Draw without colour (`NO_COLOR`).
    pub plain: bool,
    /// The tables searches use (the exact table of small boards).
    tables: Tables,
}

impl App {
    /// A game from `board` to `goal` (same shape, at most 255 cells).
    ///
    /// # Panics
    /// If the board is too large for the search tables (the command checks the size first).
    pub fn new(board: Board, goal: Board, seed: u64, plain: bool, tables: Tables) -> App {
        let puzzle = Puzzle::new(&goal).expect("play boards are at most 10x10");
        let heuristic = LinearConflict::new(&puzzle);
        App {
            board,
            goal,
            puzzle,
            heuristic,
            history: Vec::new(),
            started: None,
            stopped: None,
            status: "Arrow keys, WASD or the mouse move a tile into the gap.".into(),
            hint: None,
            job: None,
            animation: Vec::new(),
            played: 0,
            last_step: Instant::now(),
            quality: Quality::Optimal,
            refused_at: None,
            speed: DEFAULT_SPEED,
            showing_goal: false,
            board_on_screen: true,
            seed,
            plain,
            tables,
        }
    }

    /// Moves made so far (undo takes one back).
    pub fn moves(&self) -> usize {
        self.history.len()
    }

    /// Whether the board is the goal.
    pub fn solved(&self) -> bool {
        self.board == self.goal
    }

    /// Whether a found solution is being played.
    pub fn animating(&self) -> bool {
        self.played < self.animation.len()
    }

    /// Moves of the solution being played: `(played, all)`.
    pub fn animation_progress(&self) -> (usize, usize) {
        (self.played, self.animation.len())
    }

    /// How good the solution being played (or last played) is.
    pub fn quality(&self) -> Quality {
        self.quality
    }

    /// Why the last key was refused while a solution plays, for [`NOTICE_TIME`] after it.
    pub fn notice(&self, now: Instant) -> Option<&'static str> {
        self.refused_at
            .filter(|&at| now.saturating_duration_since(at) < NOTICE_TIME)
            .map(|_| SOLUTION_PLAYING)
    }

    /// The speed a solution plays at, in moves a second.
    pub fn speed(&self) -> u32 {
        SPEEDS[self.speed]
    }

    /// Tells the game whether the screen shows the board (the terminal may be too small).
    pub fn set_board_on_screen(&mut self, shown: bool, now: Instant) {
        if shown && !self.board_on_screen {
            // A solution resumes where it paused, not with the moves "due" meanwhile.
            self.last_step = now;
        }
        self.board_on_screen = shown;
    }

    /// The linear-conflict estimate of the moves left (Manhattan distance plus two per
    /// conflicting pair; a lower bound).
    pub fn estimate(&self) -> u32 {
        self.heuristic.estimate(&self.puzzle.encode(&self.board)) as u32
    }

    /// The time on the clock: from the first move until solved.
    pub fn clock(&self, now: Instant) -> Duration {
        match (self.stopped, self.started) {
            (Some(d), _) => d,
            (None, Some(t)) => now.saturating_duration_since(t),
            (None, None) => Duration::ZERO,
        }
    }

    /// The tile a hint says to slide.
    pub fn hint_tile(&self) -> Option<usize> {
        self.hint.and_then(|m| self.board.target(m))
    }

    /// Does what the player asked.
    pub fn handle(&mut self, action: Action, now: Instant) -> Flow {
        // A notice answers the key refused, not the next one.
        self.refused_at = None;
        match action {
            Action::Quit => return Flow::Quit,
            // Nothing changes a board the player cannot see.
            _ if !self.board_on_screen => {}
            Action::Stop => self.stop(),
            Action::Faster | Action::Slower => self.change_speed(action, now),
            Action::ToggleGoal => self.toggle_goal(now),
            // Every other key acts on the board (moves it, or asks about it): not while the
            // goal is in its place, as the arrows have always been refused.
            _ if self.showing_goal => self.status = GOAL_SHOWN.into(),
            Action::SkipToEnd => self.skip_to_end(now),
            // While a solution plays, only its speed, skipping or stopping it (or leaving)
            // is heard; the status says so, or the key would seem lost.
            _ if self.animating() => {
                self.status = SOLUTION_PLAYING.into();
                self.refused_at = Some(now);
            }
            Action::Blank(m) => self.slide(m, now),
            Action::Click(cell) => self.click(cell, now),
            Action::Undo => self.undo(now),
            Action::Hint | Action::Solve if self.solved() => {
                self.status = "Already solved.".into();
            }
            Action::Hint => self.search(JobKind::Hint),
            Action::Solve => self.search(JobKind::Solve),
            Action::New => self.new_board(),
        }
        Flow::Continue
    }

    /// `+` or `-`: the solution plays faster or slower.
    fn change_speed(&mut self, action: Action, now: Instant) {
        self.speed = match action {
            Action::Faster => (self.speed + 1).min(SPEEDS.len() - 1),
            _ => self.speed.saturating_sub(1),
        };
        // The next move is due one new interval from now.
        self.last_step = now;
        self.status = format!("Speed: {} a second.", count(self.speed() as usize, "move"));
    }

    /// `g`: the goal in the board's place, or the board again.
    fn toggle_goal(&mut self, now: Instant) {
        self.showing_goal = !self.showing_goal;
        self.status = if self.showing_goal {
            "The goal. g shows the board again.".into()
        } else {
            // A solution resumes where it paused, not with the moves "due" meanwhile.
            self.last_step = now;
            "The board.".into()
        };
    }

    /// `e`: the rest of the solution at once.
    fn skip_to_end(&mut self, now: Instant) {
        if !self.animating() {
            self.status = "No solution is playing (Enter plays one).".into();
            return;
        }
        let rest: Vec<Move> = self.animation[self.played..].to_vec();
        for m in rest {
            self.step(m, now);
        }
        self.played = self.animation.len();
        self.status = "Skipped to the end of the solution.".into();
        self.solution_played(now);
    }

    /// An arrow key: the blank moves `m` (the tile on that side slides into the gap).
    fn slide(&mut self, m: Move, now: Instant) {
        let what = tile_move(&self.board, m);
        if self.step(m, now) {
            self.status = format!("Moved {what}.");
            self.after_move(now);
        } else {
            let side = match m {
                Move::Up => "above",
                Move::Down => "below",
                Move::Left => "to the left of",
                Move::Right => "to the right of",
            };
            self.status = format!("There is no tile {side} the gap.");
        }
    }

    /// `u`: takes back the last move.
    fn undo(&mut self, now: Instant) {
        let Some(m) = self.history.pop() else {
            self.status = "Nothing to undo.".into();
            return;
        };
        self.board.apply(m.opposite());
        self.resume_clock(now);
        self.hint = None;
        self.job = None;
        self.status = format!("Undone; {}.", count(self.moves(), "move"));
    }

    /// `n`: a new random board, on a clock not started.
    fn new_board(&mut self) {
        let mut rng = generate::rng(self.seed);
        self.seed = self.seed.wrapping_add(1);
        self.board = generate::random_solvable(&self.goal, &mut rng);
        self.history.clear();
        self.started = None;
        self.stopped = None;
        self.hint = None;
        self.job = None;
        self.status = "A new random board.".into();
    }

    /// Moves the blank once; `false` when it would leave the board.
    fn step(&mut self, m: Move, now: Instant) -> bool {
        if !self.board.can_move(m) {
            return false;
        }
        // Playing on after solving starts the clock again (and the next solve is announced).
        self.resume_clock(now);
        self.board.apply(m);
        self.history.push(m);
        self.started.get_or_insert(now);
        true
    }

    /// Leaving the solved board: the clock goes on from the time it stopped at, so the
    /// time spent looking at the solved board is not counted.
    fn resume_clock(&mut self, now: Instant) {
        if let Some(on_clock) = self.stopped.take() {
            self.started = Some(now.checked_sub(on_clock).unwrap_or(now));
        }
    }

    /// After the player's move: a hint or search for the old board no longer applies.
    fn after_move(&mut self, now: Instant) {
        self.hint = None;
        self.job = None;
        self.check_solved(now);
    }

    fn check_solved(&mut self, now: Instant) {
        if self.solved() && self.stopped.is_none() && self.moves() > 0 {
            let clock = self.clock(now);
            self.stopped = Some(clock);
            self.status = format!(
                "Solved in {}, {}!",
                count(self.moves(), "move"),
                clock_text(clock)
            );
        }
    }

    /// The last move of a solution played: "solved", marked as hints are with how good the
    /// solution was (past the optimal frontier, not the shortest).
    fn solution_played(&mut self, now: Instant) {
        self.check_solved(now);
        if self.solved() {
            self.status = format!("{} The solution played is {}.", self.status, self.quality);
        }
    }

    /// A click on a cell in the blank's row or column slides every tile between them.
    fn click(&mut self, cell: usize, now: Instant) {
        let shape = self.board.shape();
        let (br, bc) = (
            self.board.blank() / shape.cols(),
            self.board.blank() % shape.cols(),
        );
        let (r, c) = (cell / shape.cols(), cell % shape.cols());
        let (m, n) = match (r == br, c == bc) {
            (true, true) => {
                self.status = "That is the gap: click a tile in its row or column.".into();
                return;
            }
            (true, false) if c > bc => (Move::Right, c - bc),
            (true, false) => (Move::Left, bc - c),
            (false, true) if r > br => (Move::Down, r - br),
            (false, true) => (Move::Up, br - r),
            (false, false) => {
                self.status = "Click a tile in the gap's row or column.".into();
                return;
            }
        };
        for _ in 0..n {
            self.step(m, now);
        }
        self.status = format!("Slid {}.", count(n, "tile"));
        self.after_move(now);
    }

    fn stop(&mut self) {
        if self.job.take().is_some() {
            self.status = "Search stopped.".into();
        } else if self.animating() {
            self.animation.clear();
            self.played = 0;
            self.status = "Stopped.".into();
        }
    }

    /// Starts a search on its own thread; `tick` collects the result.
    fn search(&mut self, kind: JobKind) {
        let (tx, rx) = mpsc::channel();
        let cancel = Arc::new(AtomicBool::new(false));
        let progress = Arc::new(Mutex::new(None));
        let (start, goal) = (self.board.clone(), self.goal.clone());
        let (flag, latest) = (Arc::clone(&cancel), Arc::clone(&progress));
        let tables = self.tables.clone();
        let time = match kind {
            JobKind::Hint => HINT_TIME,
            JobKind::Solve => SOLVE_TIME,
        };
        std::thread::spawn(move || {
            let report =
                |p: &Progress| *latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(*p);
            let _ = tx.send(search_in_time(&start, &goal, &tables, time, &flag, &report));
        });
        self.status = match kind {
            JobKind::Hint => "Looking for the best move…".into(),
            JobKind::Solve => "Searching for the shortest solution…".into(),
        };
        self.job = Some(Job {
            kind,
            board: self.board.clone(),
            cancel,
            progress,
            result: rx,
            started: Instant::now(),
        });
    }

    /// Collects a finished search and plays the next move of an animation when it is due.
    pub fn tick(&mut self, now: Instant) {
        if let Some(job) = &self.job {
            match job.result.try_recv() {
                Err(TryRecvError::Empty) => {}
                Err(TryRecvError::Disconnected) => {
                    self.job = None;
                    self.status = "The search failed.".into();
                }
                Ok(result) => {
                    let job = self.job.take().expect("a job");
                    if job.board == self.board {
                        self.finish(job.kind, result, now);
                    }
                }
            }
        }
        // Nor does a solution play on where nobody sees it: on a screen too small for the
        // board, or behind the goal.
        if !self.animating() || !self.board_on_screen || self.showing_goal {
            return;
        }
        // Every move due since the last one: several a tick at the fast speeds.
        let every = Duration::from_secs(1) / self.speed();
        while self.animating() && now.saturating_duration_since(self.last_step) >= every {
            let m = self.animation[self.played];
            self.played += 1;
            self.step(m, now);
            self.last_step += every;
        }
        if !self.animating() {
            self.solution_played(now);
        }
    }

    fn finish(&mut self, kind: JobKind, result: Result<Solution, SolveError>, now: Instant) {
        let s = match result {
            Ok(s) => s,
            Err(e) => {
                self.status = format!("Cannot solve: {e}");
                return;
            }
        };
        let quality = Quality::of(&s);
        let Some(moves) = s.moves.filter(|m| !m.is_empty()) else {
            self.status = "No solution found in time.".into();
            return;
        };
        match kind {
            JobKind::Hint => {
                self.hint = Some(moves[0]);
                self.status = format!(
                    "Hint: move {} ({} to go, {quality}).",
                    tile_move(&self.board, moves[0]),
                    count(moves.len(), "move")
                );
            }
            JobKind::Solve => self.play_solution(moves, quality, now),
        }
    }

    /// Plays `moves` (a solution of this `quality` from the board as it stands), the first
    /// at once. A solution found while the goal is shown waits for `g`: it stays shown.
    pub fn play_solution(&mut self, moves: Vec<Move>, quality: Quality, now: Instant) {
        self.status = format!(
            "Playing a {}-move solution ({quality}): + faster, - slower, e to the end, Esc stops.",
            moves.len()
        );
        self.hint = None;
        self.quality = quality;
        self.refused_at = None;
        self.animation = moves;
        self.played = 0;
        // The first move at once.
        let every = Duration::from_secs(1) / self.speed();
        self.last_step = now.checked_sub(every).unwrap_or(now);
    }
}

/// Auto's answer within the hint budget `time`: the anytime engine, optimal when it proves
/// it in time, else its best path (marked not optimal), so a hint always comes back.
fn search_in_time(
    start: &Board,
    goal: &Board,
    tables: &Tables,
    time: Duration,
    cancel: &AtomicBool,
    report: &(dyn Fn(&Progress) + Sync),
) -> Result<Solution, SolveError> {
    let control = Control {
        limits: Limits {
            time: Some(time),
            nodes: None,
            memory_bytes: Some(1 << 30),
            // The hint's budget, not a ceiling: auto improves within it.
            time_is_ceiling: false,
        },
        cancel: Some(cancel),
        progress: Some(report),
        trace: 0,
        // One thread: the game's screen keeps a core, and hints come back fast anyway.
        threads: 1,
        ..Control::default()
    };
    solve(start, goal, &SolveOptions::default(), tables, control)
}

/// "tile 5 left": what the player sees when the blank makes move `m` on `board` (before
/// the move: the tile stands where the blank is going).
fn tile_move(board: &Board, m: Move) -> String {
    let tile = board.target(m).map_or(0, |cell| board.tiles()[cell]);
    let way = match m {
        Move::Up => "down",
        Move::Down => "up",
        Move::Left => "right",
        Move::Right => "left",
    };
    format!("tile {tile} {way}")
}

/// `m:ss`.
pub fn clock_text(d: Duration) -> String {
    let s = d.as_secs();
    format!("{}:{:02}", s / 60, s % 60)
}
