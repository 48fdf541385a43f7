//! `play` on ratatui's `TestBackend`: moving, undo, hint, solve and resize.

use std::time::{Duration, Instant};

use npuzzle::{Board, GoalSpec, Move, Tables};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

use super::app::{Action, App, Flow};
use super::view::{self, Geometry};
use super::{action, game, PlayArgs};

fn app(board: &str) -> App {
    let start = Board::parse(board, None).unwrap();
    let goal = GoalSpec::Standard.board(start.shape()).unwrap();
    App::new(start, goal, 7, false, Tables::default())
}

/// The screen as text, one string per row.
fn screen(terminal: &Terminal<TestBackend>) -> Vec<String> {
    let buffer = terminal.backend().buffer();
    (0..buffer.area.height)
        .map(|y| {
            (0..buffer.area.width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

fn draw(terminal: &mut Terminal<TestBackend>, app: &App) -> Vec<String> {
    terminal
        .draw(|f| view::draw(f, app, Instant::now()))
        .unwrap();
    screen(terminal)
}

/// Ticks until the background search has answered (a 3x3 board takes milliseconds).
fn wait_for_search(app: &mut App) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while app.job.is_some() {
        assert!(Instant::now() < deadline, "search did not answer");
        std::thread::sleep(Duration::from_millis(5));
        app.tick(Instant::now());
    }
}

/// The row of the screen holding these tiles in this order, with anything between them.
fn has_row(screen: &[String], tiles: &[&str]) -> bool {
    screen.iter().any(|line| {
        let words: Vec<&str> = line
            .split(|c: char| !c.is_ascii_digit())
            .filter(|w| !w.is_empty())
            .collect();
        words.windows(tiles.len()).any(|w| w == tiles)
    })
}

#[test]
fn keys_move_tiles_into_the_gap_and_the_screen_follows() {
    let mut app = app("1 2 3/4 5 6/7 0 8");
    let mut terminal = Terminal::new(TestBackend::new(60, 20)).unwrap();
    let before = draw(&mut terminal, &app);
    assert!(has_row(&before, &["7", "8"]), "{before:#?}");
    // Left arrow: the tile right of the gap (8) slides left, and the board is solved.
    let a = action(KeyEvent::new(KeyCode::Left, KeyModifiers::NONE)).unwrap();
    assert_eq!(a, Action::Blank(Move::Right));
    app.handle(a, Instant::now());
    assert_eq!(app.board.to_string(), "1 2 3/4 5 6/7 8 0");
    assert_eq!(app.moves(), 1);
    let after = draw(&mut terminal, &app);
    assert!(
        after.iter().any(|l| l.contains("Solved in 1 move")),
        "{after:#?}"
    );
    assert!(after.iter().any(|l| l.contains("Moves: 1")));
    // A move off the board is refused and not counted.
    app.handle(Action::Blank(Move::Right), Instant::now());
    assert_eq!(app.moves(), 1);
    // WASD: `w` slides the tile below the gap up (the blank goes down), here impossible.
    assert_eq!(
        action(KeyEvent::new(KeyCode::Char('w'), KeyModifiers::NONE)),
        Some(Action::Blank(Move::Down))
    );
    assert_eq!(
        action(KeyEvent::new(KeyCode::Char('q'), KeyModifiers::NONE)),
        Some(Action::Quit)
    );
    assert_eq!(app.handle(Action::Quit, Instant::now()), Flow::Quit);
}

#[test]
fn a_click_slides_the_tiles_between_it_and_the_gap() {
    let mut app = app("0 1 2/3 4 5/6 7 8");
    let terminal = Terminal::new(TestBackend::new(60, 20)).unwrap();
    let area = terminal.backend().buffer().area;
    let g = Geometry::new(area, app.board.shape()).unwrap();
    let corner = g.cell(2);
    let cell = g.cell_at(corner.x + 1, corner.y + 1).unwrap();
    assert_eq!(cell, 2);
    app.handle(Action::Click(cell), Instant::now());
    assert_eq!(app.board.to_string(), "1 2 0/3 4 5/6 7 8");
    assert_eq!(app.moves(), 2);
    // Off the gap's row and column: nothing moves.
    app.handle(Action::Click(3), Instant::now());
    assert_eq!(app.moves(), 2);
}

#[test]
fn undo_takes_back_moves_one_at_a_time() {
    let mut app = app("1 2 3/4 5 6/7 8 0");
    let now = Instant::now();
    for m in [Move::Up, Move::Left, Move::Down] {
        app.handle(Action::Blank(m), now);
    }
    assert_eq!(app.moves(), 3);
    let mut terminal = Terminal::new(TestBackend::new(60, 20)).unwrap();
    for left in [2, 1, 0] {
        app.handle(Action::Undo, now);
        assert_eq!(app.moves(), left);
        let s = draw(&mut terminal, &app);
        assert!(
            s.iter().any(|l| l.contains(&format!("Moves: {left}"))),
            "{s:#?}"
        );
    }
    assert_eq!(app.board.to_string(), "1 2 3/4 5 6/7 8 0");
    app.handle(Action::Undo, now);
    assert_eq!(app.status, "Nothing to undo.");

    // Undo after solving, then solve again: announced again.
    let mut app = self::app("1 2 3/4 5 6/7 0 8");
    app.handle(Action::Blank(Move::Right), now);
    assert!(app.status.starts_with("Solved in 1 move"), "{}", app.status);
    app.handle(Action::Undo, now);
    app.handle(Action::Blank(Move::Right), now);
    assert!(app.status.starts_with("Solved in 1 move"), "{}", app.status);
}

#[test]
fn a_hint_is_the_first_move_of_an_optimal_solution() {
    // Every hinted move must bring the board one move closer to the goal (the distances
    // from the exact table, itself checked against breadth-first search in the core).
    let mut app = app("7 2 6/8 1 4/3 5 0");
    let mut terminal = Terminal::new(TestBackend::new(60, 20)).unwrap();
    let goal = app.goal.clone();
    let distance = |b: &Board| {
        let s = npuzzle::solve(
            b,
            &goal,
            &Default::default(),
            &Tables::default(),
            Default::default(),
        )
        .unwrap();
        assert!(s.optimal);
        s.length().unwrap()
    };
    for _ in 0..3 {
        let before = distance(&app.board);
        app.handle(Action::Hint, Instant::now());
        wait_for_search(&mut app);
        let m = app.hint.expect("a hint");
        let shown = draw(&mut terminal, &app);
        assert!(
            shown.iter().any(|l| l.contains("Hint: move tile")),
            "{shown:#?}"
        );
        assert!(shown
            .iter()
            .any(|l| l.contains(&format!("{before} moves to go"))));
        app.handle(Action::Blank(m), Instant::now());
        assert_eq!(distance(&app.board), before - 1);
        assert_eq!(app.hint, None, "a hint is for the board it was given for");
    }
}

#[test]
fn solve_plays_an_optimal_solution_to_the_goal() {
    let mut app = app("8 1 3/4 0 2/7 6 5");
    let mut terminal = Terminal::new(TestBackend::new(60, 20)).unwrap();
    app.handle(Action::Solve, Instant::now());
    wait_for_search(&mut app);
    assert!(app.animating(), "{}", app.status);
    let optimal = npuzzle::solve(
        &Board::parse("8 1 3/4 0 2/7 6 5", None).unwrap(),
        &app.goal,
        &Default::default(),
        &Tables::default(),
        Default::default(),
    )
    .unwrap()
    .length()
    .unwrap();
    // Keys are ignored while it plays; ticks play one move each step.
    app.handle(Action::Blank(Move::Up), Instant::now());
    let mut t = Instant::now();
    while app.animating() {
        t += super::app::STEP_EVERY;
        app.tick(t);
    }
    assert!(app.solved());
    assert_eq!(app.moves(), optimal);
    let s = draw(&mut terminal, &app);
    assert!(s.iter().any(|l| l.contains("SOLVED")), "{s:#?}");
    assert!(s
        .iter()
        .any(|l| l.contains(&format!("Solved in {optimal} moves"))));
}

#[test]
fn the_board_is_laid_out_again_when_the_terminal_is_resized() {
    let mut app = app("1 2 3/4 5 6/7 0 8");
    let mut terminal = Terminal::new(TestBackend::new(60, 20)).unwrap();
    let big = draw(&mut terminal, &app);
    assert!(
        big.iter().any(|l| l.contains('┌')),
        "boxed tiles when there is room"
    );
    terminal.backend_mut().resize(24, 8);
    let small = draw(&mut terminal, &app);
    assert!(!small.iter().any(|l| l.contains('┌')), "{small:#?}");
    assert!(has_row(&small, &["1", "2", "3"]), "{small:#?}");
    assert!(has_row(&small, &["7", "8"]));
    terminal.backend_mut().resize(10, 3);
    let tiny = draw(&mut terminal, &app).join("");
    assert!(tiny.contains("Terminal"), "{tiny}");
    // A 10x10 board fits a standard 80x24 terminal one line per cell.
    app = App::new(
        GoalSpec::Standard.board("10x10".parse().unwrap()).unwrap(),
        GoalSpec::Standard.board("10x10".parse().unwrap()).unwrap(),
        1,
        true,
        Tables::default(),
    );
    terminal.backend_mut().resize(80, 24);
    let ten = draw(&mut terminal, &app);
    assert!(has_row(
        &ten,
        &["91", "92", "93", "94", "95", "96", "97", "98", "99"]
    ));
}

#[test]
fn new_boards_are_random_solvable_and_sizes_outside_3_to_10_are_refused() {
    let args = |board: Option<&str>, size: Option<&str>| PlayArgs {
        board: board.map(String::from),
        size: size.map(|s| s.parse().unwrap()),
        goal: GoalSpec::Standard,
        seed: Some(3),
    };
    let mut a = game(&args(None, Some("4x4")), 3, &Tables::default()).unwrap();
    let first = a.board.clone();
    a.handle(Action::New, Instant::now());
    assert_ne!(a.board, first);
    assert!(
        npuzzle::solvability::check(&a.board, &a.goal)
            .unwrap()
            .solvable
    );
    let e = game(&args(None, Some("2x2")), 3, &Tables::default())
        .err()
        .unwrap()
        .to_string();
    assert!(e.contains("3x3 to 10x10"), "{e}");
    let e = game(
        &args(Some("1 2 3/4 5 6/8 7 0"), None),
        3,
        &Tables::default(),
    )
    .err()
    .unwrap();
    assert!(e.to_string().contains("cannot reach the goal"), "{e}");
}
