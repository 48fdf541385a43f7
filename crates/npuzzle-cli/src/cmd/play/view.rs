//! Drawing a game of `npuzzle play`: the board, the counters, the status and the keys.

use std::time::{Duration, Instant};

use npuzzle::search::Progress;
use npuzzle::{Board, GoalSpec, Shape};
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph};
use ratatui::Frame;

use super::app::{clock_text, App, JobKind};

/// Lines above the board (the title) and below it (counters, status, keys).
const ABOVE: u16 = 1;
const BELOW: u16 = 3;

/// The keys, as the bottom line shows them.
pub const KEYS: &str =
    "arrows/WASD/mouse move · u undo · h hint · Enter solve · g goal · n new · q quit";
/// The keys while a solution plays.
pub const KEYS_PLAYING: &str = "+ faster · - slower · e to the end · Esc stop · q quit";
/// The keys on a narrow screen.
const KEYS_SHORT: &str = "arrows u h Enter g n q";
/// The keys on a narrow screen while a solution plays.
const KEYS_PLAYING_SHORT: &str = "+ - e Esc q";
/// Columns between the board and the goal beside it.
const GAP: u16 = 4;

/// The live line of a search under way (`what`: "Hint" or "Solving"), `elapsed` since the
/// key was pressed: the clock runs on through table loads and from phase to phase, where
/// a report's own time starts again with each search. When the anytime engine (or an
/// optimal search) reports its best length or proven lower bound, those are what the line
/// shows, as the page does; a search's own cost bound (weighted IDA*'s counts `W` times
/// the heuristic) would read as a bound on the answer, which it is not.
pub fn search_line(what: &str, progress: Option<&Progress>, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let number = |n: Option<u32>| n.map_or("-".into(), |n| n.to_string());
    match progress {
        None => format!("{what}: searching, {seconds:.1} s (Esc stops)"),
        Some(p) if p.best.is_some() => format!(
            "{what}: best {} · proven ≥ {}, {seconds:.1} s (Esc stops)",
            number(p.best),
            number(p.lower_bound)
        ),
        Some(p) if p.lower_bound.is_some() => format!(
            "{what}: {} nodes, proven ≥ {}, {seconds:.1} s (Esc stops)",
            p.generated,
            number(p.lower_bound)
        ),
        Some(p) => format!(
            "{what}: {} nodes, bound {}, {seconds:.1} s (Esc stops)",
            p.generated,
            number(p.bound)
        ),
    }
}

/// Where the cells are on the screen: the drawing and the mouse agree on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Geometry {
    /// Top-left corner of the board.
    pub x: u16,
    /// Top row of the board.
    pub y: u16,
    /// Width of one cell.
    pub cell_w: u16,
    /// Height of one cell: 3 for boxed tiles, 1 when the screen is small.
    pub cell_h: u16,
    rows: u16,
    cols: u16,
}

impl Geometry {
    /// Cells laid out in `area` for `shape`, boxed when they fit, else one line each;
    /// `None` when even that does not fit.
    pub fn new(area: Rect, shape: Shape) -> Option<Geometry> {
        let digits = (shape.cells() - 1).to_string().len() as u16;
        let (rows, cols) = (shape.rows() as u16, shape.cols() as u16);
        let room_h = area.height.saturating_sub(ABOVE + BELOW);
        [(digits + 4, 3), (digits + 1, 1)]
            .into_iter()
            .find(|&(w, h)| w * cols <= area.width && h * rows <= room_h)
            .map(|(cell_w, cell_h)| Geometry {
                x: area.x + (area.width - cell_w * cols) / 2,
                y: area.y + ABOVE + (room_h - cell_h * rows) / 2,
                cell_w,
                cell_h,
                rows,
                cols,
            })
    }

    /// The board, and the goal beside it when both fit in `area` (boxed cells if they can
    /// be, else one line each); `None` when not even the board fits.
    fn pair(area: Rect, shape: Shape) -> Option<(Geometry, Geometry)> {
        let board = Geometry::new(area, shape)?;
        let (rows, cols) = (shape.rows() as u16, shape.cols() as u16);
        let room_h = area.height.saturating_sub(ABOVE + BELOW);
        let digits = (shape.cells() - 1).to_string().len() as u16;
        [(digits + 4, 3), (digits + 1, 1)]
            .into_iter()
            .find(|&(w, h)| 2 * w * cols + GAP <= area.width && h * rows <= room_h)
            // Never trade the board's boxes for room beside it.
            .filter(|&(_, h)| h >= board.cell_h)
            .map(|(cell_w, cell_h)| {
                let x = area.x + (area.width - (2 * cell_w * cols + GAP)) / 2;
                let y = area.y + ABOVE + (room_h - cell_h * rows) / 2;
                let g = Geometry {
                    x,
                    y,
                    cell_w,
                    cell_h,
                    rows,
                    cols,
                };
                (
                    g,
                    Geometry {
                        x: x + cell_w * cols + GAP,
                        ..g
                    },
                )
            })
    }

    /// The smallest screen that shows a board of `shape` (one line per cell).
    pub fn needed(shape: Shape) -> (u16, u16) {
        let digits = (shape.cells() - 1).to_string().len() as u16;
        (
            (digits + 1) * shape.cols() as u16,
            shape.rows() as u16 + ABOVE + BELOW,
        )
    }

    /// The rectangle of a cell.
    pub fn cell(&self, cell: usize) -> Rect {
        let (r, c) = (cell as u16 / self.cols, cell as u16 % self.cols);
        Rect::new(
            self.x + c * self.cell_w,
            self.y + r * self.cell_h,
            self.cell_w,
            self.cell_h,
        )
    }

    /// The cell under a screen position, if any.
    pub fn cell_at(&self, x: u16, y: u16) -> Option<usize> {
        let (w, h) = (self.cell_w * self.cols, self.cell_h * self.rows);
        if x < self.x || y < self.y || x >= self.x + w || y >= self.y + h {
            return None;
        }
        let (r, c) = ((y - self.y) / self.cell_h, (x - self.x) / self.cell_w);
        Some(usize::from(r * self.cols + c))
    }
}

/// Where the board (and the goal beside it, if shown there) is drawn on a screen of `area`:
/// the drawing and the mouse agree on it. `None` when the screen is too small for the board.
pub struct Layout {
    /// The board's cells (the goal's, while `g` shows the goal instead).
    pub board: Geometry,
    /// The goal's cells beside the board.
    pub goal: Option<Geometry>,
}

impl Layout {
    /// The layout of `app` on a screen of `area`. A goal other than the standard one is
    /// drawn beside the board when both fit (`g` shows any goal in the board's place).
    pub fn new(area: Rect, app: &App) -> Option<Layout> {
        let shape = app.board.shape();
        let standard = GoalSpec::Standard.board(shape).ok().as_ref() == Some(&app.goal);
        if !standard && !app.showing_goal {
            if let Some((board, goal)) = Geometry::pair(area, shape) {
                return Some(Layout {
                    board,
                    goal: Some(goal),
                });
            }
        }
        Geometry::new(area, shape).map(|board| Layout { board, goal: None })
    }
}

/// Draws the whole screen.
pub fn draw(frame: &mut Frame, app: &App, now: Instant) {
    let area = frame.area();
    let shape = app.board.shape();
    let Some(layout) = Layout::new(area, app) else {
        let (w, h) = Geometry::needed(shape);
        let text = format!(
            "Terminal too small for a {shape} board: {}x{}, need {w}x{h}. q quits.",
            area.width, area.height
        );
        frame.render_widget(
            Paragraph::new(text).wrap(ratatui::widgets::Wrap { trim: true }),
            area,
        );
        return;
    };
    let title = if app.showing_goal {
        // Short enough for the narrowest screen that shows a 3x3 board.
        "goal (g: board)".to_string()
    } else if let Some(goal) = &layout.goal {
        // "board" over the board and "goal" over the goal, the rest of the line the title.
        let board_mid = layout.board.x + layout.board.cell_w * layout.board.cols / 2;
        let goal_mid = goal.x + goal.cell_w * goal.cols / 2;
        let mut line = vec![' '; usize::from(area.width)];
        let mut put = |mid: u16, text: &str| {
            let start = usize::from(mid.saturating_sub(area.x)).saturating_sub(text.len() / 2);
            for (i, c) in text.chars().enumerate() {
                if let Some(cell) = line.get_mut(start + i) {
                    *cell = c;
                }
            }
        };
        put(board_mid, &format!("npuzzle play · {shape}"));
        put(goal_mid, "goal");
        line.into_iter().collect::<String>()
    } else {
        format!("npuzzle play · {shape}")
    };
    frame.render_widget(
        Paragraph::new(title)
            .alignment(if layout.goal.is_some() {
                Alignment::Left
            } else {
                Alignment::Center
            })
            .style(Style::default().add_modifier(Modifier::BOLD)),
        Rect::new(area.x, area.y, area.width, 1),
    );
    if app.showing_goal {
        draw_tiles(frame, app, &app.goal, &layout.board, false);
    } else {
        draw_tiles(frame, app, &app.board, &layout.board, true);
    }
    if let Some(goal) = &layout.goal {
        draw_tiles(frame, app, &app.goal, goal, false);
    }
    let bottom = area.y + area.height - BELOW;
    let counters = format!(
        "Moves: {}  Time: {}  Estimate: {}{}",
        app.moves(),
        clock_text(app.clock(now)),
        app.estimate(),
        if app.solved() { "  SOLVED" } else { "" }
    );
    let status = match &app.job {
        Some(job) => {
            let what = match job.kind {
                JobKind::Hint => "Hint",
                JobKind::Solve => "Solving",
            };
            search_line(
                what,
                job.progress().as_ref(),
                now.saturating_duration_since(job.started),
            )
        }
        None if app.animating() => {
            let (played, all) = app.animation_progress();
            format!(
                "Playing the solution: move {played} of {all} at {} moves/s.",
                app.speed()
            )
        }
        None => app.status.clone(),
    };
    let (keys, short) = if app.animating() {
        (KEYS_PLAYING, KEYS_PLAYING_SHORT)
    } else {
        (KEYS, KEYS_SHORT)
    };
    let keys = if keys.chars().count() <= usize::from(area.width) {
        keys
    } else {
        short
    };
    let lines = [counters, status, keys.to_string()];
    for (i, text) in lines.into_iter().enumerate() {
        let style = if i == 2 {
            dim(app.plain)
        } else {
            Style::default()
        };
        frame.render_widget(
            Paragraph::new(Line::from(text))
                .alignment(Alignment::Center)
                .style(style),
            Rect::new(area.x, bottom + i as u16, area.width, 1),
        );
    }
}

/// Draws `board`'s tiles at `g`: the board played (`marks`: tiles at home in green, the
/// hinted one highlighted) or the goal (plain).
fn draw_tiles(frame: &mut Frame, app: &App, board: &Board, g: &Geometry, marks: bool) {
    let hint = app.hint_tile().filter(|_| marks);
    for (cell, &tile) in board.tiles().iter().enumerate() {
        if tile == 0 {
            continue;
        }
        let home = marks && app.goal.tiles()[cell] == tile;
        let mut style = Style::default();
        if Some(cell) == hint {
            style = if app.plain {
                style.add_modifier(Modifier::REVERSED)
            } else {
                style.fg(Color::Black).bg(Color::Yellow)
            };
        } else if home && !app.plain {
            style = style.fg(Color::Green);
        }
        if home {
            style = style.add_modifier(Modifier::BOLD);
        }
        let rect = g.cell(cell);
        let text = Paragraph::new(tile.to_string())
            .alignment(Alignment::Center)
            .style(style);
        if g.cell_h == 3 {
            frame.render_widget(text.block(Block::bordered().border_style(style)), rect);
        } else {
            frame.render_widget(text, Rect::new(rect.x, rect.y, rect.width - 1, 1));
        }
    }
}

fn dim(plain: bool) -> Style {
    if plain {
        Style::default()
    } else {
        Style::default().fg(Color::DarkGray)
    }
}
