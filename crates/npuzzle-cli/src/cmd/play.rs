//! `npuzzle play`: the puzzle in the terminal, full screen (ratatui on crossterm).
//!
//! The game's state is in `app` and its drawing in `view`, so tests play it on ratatui's
//! `TestBackend`; this file only wires the real terminal's events to them.

mod app;
mod view;

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::Args;
use npuzzle::{Board, GoalSpec, Move, Shape, Tables};
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyCode, KeyEvent, KeyEventKind,
    KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::crossterm::execute;

use crate::exit::Outcome;
use app::{Action, App, Flow};
use ratatui::layout::Rect;
use view::Layout;

/// Play a board in the terminal: move tiles, undo, ask for a hint or the solution.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The board (as for `solve`, or a digit string such as 312045678); default: a random
    /// solvable board of --size.
    pub board: Option<String>,
    /// Board shape, RxC, from 3x3 to 10x10 (default 3x3, or the board's).
    #[arg(long, short = 's')]
    pub size: Option<Shape>,
    /// The goal: standard, blank-first, spiral, or an explicit board.
    #[arg(long, short = 'g', default_value = "standard")]
    pub goal: GoalSpec,
    /// Seed of the random boards (`n` draws the next); default: from the clock.
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<u64>,
}

/// Reads the board and goal, refusing shapes outside 3x3..10x10 and unsolvable boards.
fn game(args: &PlayArgs, seed: u64, tables: &Tables) -> Result<App> {
    let board = match &args.board {
        Some(text) => Some(Board::parse(text, args.size)?),
        None => None,
    };
    let shape = board
        .as_ref()
        .map(Board::shape)
        .or(args.size)
        .unwrap_or(Shape::square(3)?);
    if !(3..=10).contains(&shape.rows()) || !(3..=10).contains(&shape.cols()) {
        bail!("play takes boards from 3x3 to 10x10, got {shape}");
    }
    let goal = args.goal.board(shape)?;
    let plain = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    let mut app = App::new(goal.clone(), goal, seed, plain, tables.clone());
    match board {
        Some(b) => {
            let verdict = npuzzle::solvability::check(&b, &app.goal)?;
            if !verdict.solvable {
                return Err(Unsolvable(verdict.explanation()).into());
            }
            app.board = b;
        }
        None => {
            app.handle(Action::New, Instant::now());
            app.status = "Arrow keys, WASD or the mouse move a tile into the gap.".into();
        }
    }
    Ok(app)
}

/// A board that cannot reach its goal, with the reason.
#[derive(Debug)]
struct Unsolvable(String);

impl std::fmt::Display for Unsolvable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "this board cannot reach the goal: {}", self.0)
    }
}

impl std::error::Error for Unsolvable {}

/// How `run` ends when `game` refuses the board: an unsolvable one is reported here and
/// exits 1, as from every command (docs/cli.md); any other refusal is invalid input, the
/// error `main` prints and exits 2 with.
fn refusal(e: anyhow::Error) -> Result<Outcome> {
    if e.downcast_ref::<Unsolvable>().is_none() {
        return Err(e);
    }
    crate::errln!("{e}");
    Ok(Outcome::Unsolvable)
}

/// The action for a key; arrows and WASD name the way the tile slides.
fn action(key: KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        return Some(Action::Quit);
    }
    // `s` is a WASD move, so solving is on Enter or the space bar.
    Some(match key.code {
        KeyCode::Up | KeyCode::Char('w' | 'W') => Action::Blank(Move::Down),
        KeyCode::Down | KeyCode::Char('s' | 'S') => Action::Blank(Move::Up),
        KeyCode::Left | KeyCode::Char('a' | 'A') => Action::Blank(Move::Right),
        KeyCode::Right | KeyCode::Char('d' | 'D') => Action::Blank(Move::Left),
        KeyCode::Char('u' | 'U' | 'z') | KeyCode::Backspace => Action::Undo,
        KeyCode::Char('h' | 'H' | '?') => Action::Hint,
        KeyCode::Enter | KeyCode::Char(' ') => Action::Solve,
        KeyCode::Char('n' | 'N') => Action::New,
        KeyCode::Char('+' | '=') => Action::Faster,
        KeyCode::Char('-' | '_') => Action::Slower,
        KeyCode::Char('e' | 'E') | KeyCode::End => Action::SkipToEnd,
        KeyCode::Char('g' | 'G') => Action::ToggleGoal,
        KeyCode::Esc => Action::Stop,
        KeyCode::Char('q' | 'Q') => Action::Quit,
        _ => return None,
    })
}

pub fn run(args: PlayArgs, tables: &Tables) -> Result<Outcome> {
    let seed = crate::options::seed_or_clock(args.seed);
    let mut app = match game(&args, seed, tables) {
        Ok(app) => app,
        Err(e) => return refusal(e),
    };
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        bail!(
            "play needs a terminal (standard input and output are not both one); \
             to solve a board in a script, use `npuzzle solve`"
        );
    }
    let mut terminal = ratatui::try_init().context("cannot set up the terminal")?;
    let _ = execute!(std::io::stdout(), EnableMouseCapture);
    let result = play(&mut terminal, &mut app);
    let _ = execute!(std::io::stdout(), DisableMouseCapture);
    ratatui::restore();
    result?;
    Ok(Outcome::Success)
}

fn play(terminal: &mut ratatui::DefaultTerminal, app: &mut App) -> Result<()> {
    loop {
        let now = Instant::now();
        let size = terminal.size()?;
        let area = Rect::new(0, 0, size.width, size.height);
        app.set_board_on_screen(Layout::new(area, app).is_some(), now);
        app.tick(now);
        terminal.draw(|f| view::draw(f, app, now))?;
        // A short poll keeps the clock, the search's progress and the animation moving.
        if !event::poll(Duration::from_millis(50))? {
            continue;
        }
        let event = event::read()?;
        // A resize lays the board out again, and may hide or show it.
        let area = match event {
            Event::Resize(w, h) => Rect::new(0, 0, w, h),
            _ => area,
        };
        if handle_event(app, &event, area, Instant::now()) == Flow::Quit {
            return Ok(());
        }
    }
}

/// Does what a terminal event asks on a screen of `area`. While the screen is too small
/// for the board ("Terminal too small"), no key or click touches the board: only `q` and
/// Ctrl-C are heard.
fn handle_event(app: &mut App, event: &Event, area: Rect, now: Instant) -> Flow {
    let layout = Layout::new(area, app);
    app.set_board_on_screen(layout.is_some(), now);
    let action = match event {
        Event::Key(key) if key.kind == KeyEventKind::Press => action(*key),
        Event::Mouse(m) if m.kind == MouseEventKind::Down(MouseButton::Left) => layout
            .and_then(|l| l.board.cell_at(m.column, m.row))
            .map(Action::Click),
        _ => None,
    };
    match action {
        Some(a) => app.handle(a, now),
        None => Flow::Continue,
    }
}

#[cfg(test)]
mod tests;
