//! The state of a game of `npuzzle play`, apart from any terminal, so tests drive it with
//! actions and read it back (the drawing is in `view`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, TryRecvError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use npuzzle::heuristic::{Heuristic, LinearConflict};
use npuzzle::puzzle::Puzzle;
use npuzzle::search::{Control, Progress};
use npuzzle::{generate, solve, Board, Limits, Move, Solution};
use npuzzle::{SolveError, SolveOptions, Tables};

/// How long a hint may search optimally before it settles for a good path.
const HINT_TIME: Duration = Duration::from_secs(5);
/// How long "solve" may search optimally before it settles for a good path.
const SOLVE_TIME: Duration = Duration::from_secs(20);
/// Speeds of the solution's animation, in moves a second (`+` and `-` step through them): a
/// 10x10 solution of some 2,000 moves takes 5 minutes at the first default, 2 s at the top.
pub const SPEEDS: [u32; 10] = [1, 2, 4, 7, 15, 30, 60, 125, 250, 1000];
/// The speed a solution plays at first: 7 moves a second, slow enough to follow.
const DEFAULT_SPEED: usize = 3;

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
        match action {
            Action::Quit => return Flow::Quit,
            // Nothing changes a board the player cannot see.
            _ if !self.board_on_screen => {}
            Action::Stop => self.stop(),
            Action::Faster | Action::Slower => {
                self.speed = match action {
                    Action::Faster => (self.speed + 1).min(SPEEDS.len() - 1),
                    _ => self.speed.saturating_sub(1),
                };
                // The next move is due one new interval from now.
                self.last_step = now;
                self.status = format!("Speed: {} moves a second.", self.speed());
            }
            Action::SkipToEnd if self.animating() => {
                let rest: Vec<Move> = self.animation[self.played..].to_vec();
                for m in rest {
                    self.step(m, now);
                }
                self.played = self.animation.len();
                self.status = "Skipped to the end of the solution.".into();
                self.check_solved(now);
            }
            Action::SkipToEnd => self.status = "No solution is playing (Enter plays one).".into(),
            Action::ToggleGoal => {
                self.showing_goal = !self.showing_goal;
                self.status = if self.showing_goal {
                    "The goal. g shows the board again.".into()
                } else {
                    "The board.".into()
                };
            }
            // While a solution plays, only its speed, skipping or stopping it (or leaving)
            // is heard.
            _ if self.animating() => {}
            // While the goal is shown, no tile moves where the player cannot see it.
            Action::Blank(_) | Action::Click(_) | Action::Undo | Action::New
                if self.showing_goal =>
            {
                self.status = "The goal is shown: g goes back to the board.".into();
            }
            Action::Blank(m) => {
                let what = tile_move(&self.board, m);
                if self.step(m, now) {
                    self.status = format!("Moved {what}.");
                    self.after_move(now);
                }
            }
            Action::Click(cell) => self.click(cell, now),
            Action::Undo => match self.history.pop() {
                Some(m) => {
                    self.board.apply(m.opposite());
                    self.stopped = None;
                    self.hint = None;
                    self.job = None;
                    self.status = format!("Undone; {} moves.", self.moves());
                }
                None => self.status = "Nothing to undo.".into(),
            },
            Action::Hint if self.solved() => self.status = "Already solved.".into(),
            Action::Solve if self.solved() => self.status = "Already solved.".into(),
            Action::Hint => self.search(JobKind::Hint),
            Action::Solve => self.search(JobKind::Solve),
            Action::New => {
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
        }
        Flow::Continue
    }

    /// Moves the blank once; `false` when it would leave the board.
    fn step(&mut self, m: Move, now: Instant) -> bool {
        if !self.board.can_move(m) {
            self.status = "That tile cannot move: it is not next to the gap.".into();
            return false;
        }
        // Playing on after solving starts the clock again (and the next solve is announced).
        self.stopped = None;
        self.board.apply(m);
        self.history.push(m);
        self.started.get_or_insert(now);
        true
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
                "Solved in {} move{}, {}!",
                self.moves(),
                if self.moves() == 1 { "" } else { "s" },
                clock_text(clock)
            );
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
            (true, true) => return,
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
        self.status = format!("Slid {n} tile{}.", if n == 1 { "" } else { "s" });
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
        if !self.animating() || !self.board_on_screen {
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
            self.check_solved(now);
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
        let Some(moves) = s.moves.filter(|m| !m.is_empty()) else {
            self.status = "No solution found in time.".into();
            return;
        };
        // Past the optimal frontier, how far off the answer may be: the proven bound.
        let quality = match (s.optimal, s.lower_bound) {
            (true, _) => "optimal".to_string(),
            (false, Some(bound)) => format!("not proven optimal: at least {bound}"),
            (false, None) => "not proven optimal".to_string(),
        };
        match kind {
            JobKind::Hint => {
                self.hint = Some(moves[0]);
                self.status = format!(
                    "Hint: move {} ({} move{} to go, {quality}).",
                    tile_move(&self.board, moves[0]),
                    moves.len(),
                    if moves.len() == 1 { "" } else { "s" }
                );
            }
            JobKind::Solve => {
                self.status = format!(
                    "Playing a {}-move solution ({quality}): + faster, - slower, e to the end, Esc stops.",
                    moves.len()
                );
                self.hint = None;
                self.showing_goal = false;
                self.animation = moves;
                self.played = 0;
                // The first move at once.
                let every = Duration::from_secs(1) / self.speed();
                self.last_step = now.checked_sub(every).unwrap_or(now);
            }
        }
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
