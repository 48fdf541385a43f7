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
use crate::output::count;

/// Lines above the board (the title) and below it (counters, status, keys; they take any
/// more rows below the board when they need them on a narrow screen).
const ABOVE: u16 = 1;
const BELOW: u16 = 3;

/// The keys, as the bottom line shows them.
pub const KEYS: &str =
    "arrows/WASD/mouse move · u undo · h hint · Enter solve · g goal · n new · q quit";
/// The keys while a solution plays.
pub const KEYS_PLAYING: &str = "+ faster · - slower · e to the end · Esc stop · q quit";
/// The keys on a narrow screen.
pub const KEYS_SHORT: &str = "arrows u h Enter g n q";
/// The keys on a narrow screen while a solution plays.
pub const KEYS_PLAYING_SHORT: &str = "+ - e Esc q";
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
        let (rows, cols) = (shape.rows() as u16, shape.cols() as u16);
        cell_sizes(area, shape)
            .into_iter()
            .find(|&(w, h, room_h)| w * cols <= area.width && h * rows <= room_h)
            .map(|(cell_w, cell_h, room_h)| Geometry {
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
        cell_sizes(area, shape)
            .into_iter()
            .find(|&(w, h, room_h)| 2 * w * cols + GAP <= area.width && h * rows <= room_h)
            // Never trade the board's boxes for room beside it.
            .filter(|&(_, h, _)| h >= board.cell_h)
            .map(|(cell_w, cell_h, room_h)| {
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

    /// The row just below the cells.
    pub fn bottom(&self) -> u16 {
        self.y + self.cell_h * self.rows
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

/// The two ways to draw a cell on a screen of `area`, as (width, height, rows left for the
/// board): boxed, leaving below the board the rows the footer needs at this width, and one
/// line each, leaving the minimum's three. So a narrow screen that wraps the footer shows a
/// hint or a solution's mark whole, and the board does not jump as the status changes.
fn cell_sizes(area: Rect, shape: Shape) -> [(u16, u16, u16); 2] {
    let digits = (shape.cells() - 1).to_string().len() as u16;
    let room = |below: u16| area.height.saturating_sub(ABOVE + below);
    [
        (digits + 4, 3, room(footer_rows(area.width, shape))),
        (digits + 1, 1, room(BELOW)),
    ]
}

/// The rows the footer needs at `width` for the longest lines a game on `shape` shows
/// often: large counters, a solution's progress at the top speed with its mark, and the
/// short keys: three rows on a wide screen.
fn footer_rows(width: u16, shape: Shape) -> u16 {
    // The exact table's boards (up to 10 cells) are solved optimally in at most 31 moves.
    let status = if shape.cells() <= 10 {
        "Playing the solution: move 31 of 31 at 1000 moves/s (optimal)."
    } else {
        "Playing the solution: move 1234 of 1234 at 1000 moves/s \
         (not proven optimal: at least 999)."
    };
    let counters = ["Moves: 1234", "Time: 9:59", "Estimate: 999"].map(String::from);
    let parts = [
        counters_block(&counters),
        status_block(status),
        keys_block(false, width),
    ];
    let width = usize::from(width);
    parts
        .iter()
        .map(|p| p.lines(width, usize::MAX).len().max(1) as u16)
        .sum()
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
    // The footer fills the rows below the board from the bottom up: three lines on a
    // wide screen, more when a narrow one wraps them.
    let rows = area.bottom().saturating_sub(layout.board.bottom());
    let status = status_line(app, now);
    let [counters, status, keys] = footer(
        [
            counters_block(&counter_items(app, now)),
            status_block(&status),
            keys_block(app.animating(), area.width),
        ],
        usize::from(area.width),
        usize::from(rows),
    );
    let lines: Vec<(String, Style)> = counters
        .into_iter()
        .chain(status)
        .map(|l| (l, Style::default()))
        .chain(keys.into_iter().map(|l| (l, dim(app.plain))))
        .collect();
    let first = area.bottom().saturating_sub(lines.len() as u16);
    for (i, (text, style)) in lines.into_iter().enumerate() {
        frame.render_widget(
            Paragraph::new(Line::from(text))
                .alignment(Alignment::Center)
                .style(style),
            Rect::new(area.x, first + i as u16, area.width, 1),
        );
    }
}

/// The counters: moves, the clock, the estimate, and whether solved.
fn counter_items(app: &App, now: Instant) -> Vec<String> {
    let mut items = vec![
        format!("Moves: {}", app.moves()),
        format!("Time: {}", clock_text(app.clock(now))),
        format!("Estimate: {}", app.estimate()),
    ];
    if app.solved() {
        items.push("SOLVED".into());
    }
    items
}

/// The status line: a search's live line, a solution's progress (or, for a moment, why a
/// key was refused while it plays), else what just happened.
fn status_line(app: &App, now: Instant) -> String {
    match &app.job {
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
        None if app.animating() => app
            .notice(now)
            .map_or_else(|| playing_line(app), String::from),
        None => app.status.clone(),
    }
}

/// The status while a solution plays: how far, how fast, and how good the solution is
/// (optimal, or not proven so with the bound, as hints say); the speed comes early, so a
/// wrapped line keeps it whole on one line.
pub fn playing_line(app: &App) -> String {
    let (played, all) = app.animation_progress();
    if app.showing_goal {
        return format!(
            "The solution waits at move {played} of {all} while the goal is shown: \
             g goes back to the board."
        );
    }
    format!(
        "Playing the solution: move {played} of {all} at {}/s ({}).",
        count(app.speed() as usize, "move"),
        app.quality()
    )
}

/// Part of the footer: items joined by `sep`, `last` always at the end (the quit key), and
/// `cut` after them when some had to be left out.
struct Part<'a> {
    items: Vec<&'a str>,
    sep: &'a str,
    last: Option<&'a str>,
    cut: Option<&'a str>,
}

/// The counters: whole items, the last ones left out when there is no room.
fn counters_block(items: &[String]) -> Part<'_> {
    Part {
        items: items.iter().map(String::as_str).collect(),
        sep: "  ",
        last: None,
        cut: None,
    }
}

/// The status: whole words, ending in "…" when the last ones are left out.
fn status_block(status: &str) -> Part<'_> {
    Part {
        items: status.split_whitespace().collect(),
        sep: " ",
        last: None,
        cut: Some("…"),
    }
}

/// The keys: with their meanings when they fit on one line, else the short list; either
/// way `q` stays last, since it is the way out.
fn keys_block(playing: bool, width: u16) -> Part<'static> {
    let (long, short) = if playing {
        (KEYS_PLAYING, KEYS_PLAYING_SHORT)
    } else {
        (KEYS, KEYS_SHORT)
    };
    let (mut items, sep): (Vec<&str>, _) = if long.chars().count() <= usize::from(width) {
        (long.split(" · ").collect(), " · ")
    } else {
        (short.split(' ').collect(), " ")
    };
    let last = items.pop();
    Part {
        items,
        sep,
        last,
        cut: None,
    }
}

impl Part<'_> {
    /// The block in lines of `width` characters, at most `rows` of them: its items, the
    /// last ones dropped whole (then `cut` follows) until the rest fits.
    fn lines(&self, width: usize, rows: usize) -> Vec<String> {
        for keep in (0..=self.items.len()).rev() {
            let mut shown = self.items[..keep].to_vec();
            if keep < self.items.len() {
                shown.extend(self.cut);
            }
            shown.extend(self.last);
            let lines = wrap(&shown, self.sep, width);
            if lines.len() <= rows {
                return lines;
            }
        }
        // Only when `last` alone is wider than the rows allow.
        let last: Vec<&str> = self.last.into_iter().collect();
        wrap(&last, self.sep, width)
            .into_iter()
            .take(rows)
            .collect()
    }
}

/// The lines under the board in `width` columns and `rows` rows: the counters, the status
/// and the keys, each wrapped between words so that no number or word is cut at the edge.
/// When they need more rows than there are, each keeps one, and the status gets the rest
/// first, then the counters, then the keys; what still does not fit is left out whole.
fn footer(parts: [Part; 3], width: usize, rows: usize) -> [Vec<String>; 3] {
    let wanted = parts
        .each_ref()
        .map(|b| b.lines(width, usize::MAX).len().max(1));
    let mut given = [1; 3];
    let mut spare = rows.saturating_sub(given.len());
    // The status says what just happened (a hint, how good a solution is): it comes first.
    for i in [1, 0, 2] {
        let more = (wanted[i] - 1).min(spare);
        given[i] += more;
        spare -= more;
    }
    [0, 1, 2].map(|i| parts[i].lines(width, given[i]))
}

/// `items` joined by `sep` in lines of at most `width` characters, broken between items. An
/// item wider than a line is broken between its words (joined by spaces), and a word wider
/// than a line (only on the narrowest screens) where the line ends.
fn wrap(items: &[&str], sep: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    let len = |s: &str| s.chars().count();
    let mut lines = Vec::new();
    let mut line = String::new();
    for item in items {
        for (i, piece) in pieces(item, width).into_iter().enumerate() {
            let joiner = if i == 0 { sep } else { " " };
            if !line.is_empty() && len(&line) + len(joiner) + len(&piece) <= width {
                line.push_str(joiner);
                line.push_str(&piece);
            } else {
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                line = piece;
            }
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// An item in pieces no wider than `width`: itself when it fits, else its words, each in
/// `width`-character pieces when it is wider still.
fn pieces(item: &str, width: usize) -> Vec<String> {
    if item.chars().count() <= width {
        return vec![item.to_string()];
    }
    item.split_whitespace()
        .flat_map(|word| {
            let chars: Vec<char> = word.chars().collect();
            chars
                .chunks(width)
                .map(|c| c.iter().collect::<String>())
                .collect::<Vec<_>>()
        })
        .collect()
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
