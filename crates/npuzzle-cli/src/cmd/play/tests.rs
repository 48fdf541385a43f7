//! `play` on ratatui's `TestBackend`: moving, undo, hint, solve and resize.

use std::time::{Duration, Instant};

use npuzzle::{Board, GoalSpec, Move, Tables};
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::Terminal;

use super::app::{Action, App, Flow, Quality};
use super::view::{self, Geometry};
use super::{action, game, PlayArgs};
use crate::exit::Outcome;

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
    // On the gap itself: nothing moves, and the status says why (it said nothing).
    app.status.clear();
    let gap = app.board.blank();
    app.handle(Action::Click(gap), Instant::now());
    assert_eq!(app.moves(), 2);
    assert!(app.status.starts_with("That is the gap"), "{}", app.status);
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
    assert_eq!(app.speed(), 7);
    while app.animating() {
        t += Duration::from_secs(1) / app.speed();
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

/// A key event, as the terminal sends it.
fn key(code: KeyCode) -> ratatui::crossterm::event::Event {
    ratatui::crossterm::event::Event::Key(KeyEvent::new(code, KeyModifiers::NONE))
}

#[test]
fn no_key_or_click_moves_a_tile_while_the_terminal_is_too_small_for_the_board() {
    // Issue 24, play 1: the "Terminal too small" screen hid the board, and keys still moved it.
    let mut app = app("1 2 3/4 5 6/7 0 8");
    let mut terminal = Terminal::new(TestBackend::new(10, 3)).unwrap();
    let tiny = terminal.backend().buffer().area;
    assert!(draw(&mut terminal, &app).join("").contains("Terminal"));
    let now = Instant::now();
    for code in [
        KeyCode::Left,
        KeyCode::Up,
        KeyCode::Char('n'),
        KeyCode::Char('u'),
    ] {
        assert_eq!(
            super::handle_event(&mut app, &key(code), tiny, now),
            Flow::Continue
        );
    }
    let click = ratatui::crossterm::event::Event::Mouse(ratatui::crossterm::event::MouseEvent {
        kind: ratatui::crossterm::event::MouseEventKind::Down(
            ratatui::crossterm::event::MouseButton::Left,
        ),
        column: 1,
        row: 1,
        modifiers: KeyModifiers::NONE,
    });
    super::handle_event(&mut app, &click, tiny, now);
    assert_eq!(app.board.to_string(), "1 2 3/4 5 6/7 0 8");
    assert_eq!(app.moves(), 0);
    // q still leaves.
    assert_eq!(
        super::handle_event(&mut app, &key(KeyCode::Char('q')), tiny, now),
        Flow::Quit
    );
    // Once the board is on screen again, the same key moves it.
    let big = Rect::new(0, 0, 60, 20);
    super::handle_event(&mut app, &key(KeyCode::Left), big, now);
    assert_eq!(app.board.to_string(), "1 2 3/4 5 6/7 8 0");
}

#[test]
fn a_solution_pauses_while_the_board_is_hidden() {
    let mut app = app("8 1 3/4 0 2/7 6 5");
    app.handle(Action::Solve, Instant::now());
    wait_for_search(&mut app);
    let t = Instant::now();
    let before = app.moves();
    app.set_board_on_screen(false, t);
    app.tick(t + Duration::from_secs(60));
    assert_eq!(app.moves(), before, "moves played on a hidden board");
    app.set_board_on_screen(true, t + Duration::from_secs(60));
    app.tick(t + Duration::from_secs(61));
    assert_eq!(app.moves(), before + 7, "one second at 7 moves a second");
}

/// A 10x10 board `moves` random moves from the goal, and its game, solved and playing.
fn playing_ten_by_ten() -> App {
    let goal = GoalSpec::Standard.board("10x10".parse().unwrap()).unwrap();
    let mut rng = npuzzle::generate::rng(5);
    let start = npuzzle::generate::random_solvable(&goal, &mut rng);
    let mut app = App::new(start, goal, 1, true, Tables::default());
    app.handle(Action::Solve, Instant::now());
    wait_for_search(&mut app);
    assert!(app.animating(), "{}", app.status);
    app
}

#[test]
fn a_long_solution_can_be_sped_up_and_skipped_to_the_end() {
    // Issue 24, play 2: a 10x10 solution played at 7 moves a second for about 5 minutes,
    // with no way to hurry it.
    let mut app = playing_ten_by_ten();
    let (_, all) = app.animation_progress();
    assert!(all > 500, "a 10x10 solution of {all} moves");
    assert_eq!(
        action(KeyEvent::new(KeyCode::Char('+'), KeyModifiers::NONE)),
        Some(Action::Faster)
    );
    let t = Instant::now();
    for _ in 0..20 {
        app.handle(Action::Faster, t);
    }
    assert_eq!(app.speed(), *super::app::SPEEDS.last().unwrap());
    // One second at the top speed plays about 1,000 moves, not 7.
    app.tick(t + Duration::from_secs(1));
    let (played, _) = app.animation_progress();
    assert!(
        played >= 900.min(all),
        "{played} moves in a second at the top speed"
    );
    app.handle(Action::Slower, t);
    assert!(app.speed() < *super::app::SPEEDS.last().unwrap());
    // Skip to the end: the board is solved at once, with every move counted.
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let playing = draw(&mut terminal, &app);
    assert!(
        playing.iter().any(|l| l.contains("e to the end")),
        "{playing:#?}"
    );
    assert_eq!(
        action(KeyEvent::new(KeyCode::Char('e'), KeyModifiers::NONE)),
        Some(Action::SkipToEnd)
    );
    app.handle(Action::SkipToEnd, t);
    assert!(!app.animating());
    assert!(app.solved());
    assert_eq!(app.moves(), all);
    let s = draw(&mut terminal, &app);
    assert!(s.iter().any(|l| l.contains("SOLVED")), "{s:#?}");
}

#[test]
fn the_goal_is_shown_beside_the_board_or_with_g() {
    // Issue 24, play 3: `--goal spiral` never showed the goal.
    let start = Board::parse("1 2 3/8 4 0/7 6 5", None).unwrap();
    let goal = GoalSpec::Spiral.board(start.shape()).unwrap();
    let mut app = App::new(start, goal, 7, false, Tables::default());
    // Room for both: the spiral's middle row "8 _ 4" is beside the board's "8 4 _".
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let wide = draw(&mut terminal, &app);
    assert!(wide[0].contains("goal"), "{wide:#?}");
    let middle = wide
        .iter()
        .find(|l| has_row(&[l.to_string()], &["8", "4", "8", "4"]))
        .cloned();
    assert!(middle.is_some(), "board and goal side by side: {wide:#?}");
    // A click on the board's cell still hits the board (the layout moved it left).
    let layout = view::Layout::new(Rect::new(0, 0, 80, 24), &app).unwrap();
    assert!(layout.goal.is_some());
    let blank = layout.board.cell(5);
    super::handle_event(
        &mut app,
        &ratatui::crossterm::event::Event::Mouse(ratatui::crossterm::event::MouseEvent {
            kind: ratatui::crossterm::event::MouseEventKind::Down(
                ratatui::crossterm::event::MouseButton::Left,
            ),
            column: layout.board.cell(4).x + 1,
            row: blank.y + 1,
            modifiers: KeyModifiers::NONE,
        }),
        Rect::new(0, 0, 80, 24),
        Instant::now(),
    );
    assert_eq!(app.board.to_string(), "1 2 3/8 0 4/7 6 5");
    assert!(app.solved());
    // No room beside it: `g` shows the goal in the board's place, and again the board.
    let start = Board::parse("1 2 3/8 4 0/7 6 5", None).unwrap();
    let goal = GoalSpec::Spiral.board(start.shape()).unwrap();
    let mut app = App::new(start, goal, 7, false, Tables::default());
    let mut terminal = Terminal::new(TestBackend::new(15, 10)).unwrap();
    let narrow = draw(&mut terminal, &app);
    assert!(
        has_row(&narrow, &["8", "4"]) && !narrow[0].contains("goal"),
        "{narrow:#?}"
    );
    assert_eq!(
        action(KeyEvent::new(KeyCode::Char('g'), KeyModifiers::NONE)),
        Some(Action::ToggleGoal)
    );
    app.handle(Action::ToggleGoal, Instant::now());
    let shown = draw(&mut terminal, &app);
    assert!(shown[0].contains("goal"), "{shown:#?}");
    // The spiral's middle row, 8 blank 4, has 8 and 4 apart with nothing between.
    assert!(has_row(&shown, &["8", "4"]));
    // While the goal is shown, keys do not move the hidden board.
    app.handle(Action::Blank(Move::Left), Instant::now());
    assert_eq!(app.moves(), 0);
    app.handle(Action::ToggleGoal, Instant::now());
    app.handle(Action::Blank(Move::Left), Instant::now());
    assert_eq!(app.moves(), 1);
    // The standard goal is not drawn beside the board (everyone knows it); `g` still works.
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let std = draw(&mut terminal, &self::app("1 2 3/4 5 6/7 0 8"));
    assert!(!std[0].contains("goal"), "{std:#?}");
}

#[test]
fn the_search_line_shows_the_best_answer_and_proven_bound_on_a_clock_that_runs_on() {
    use npuzzle::search::Progress;
    let second = |s: f64| Duration::from_secs_f64(s);
    // A weighted search's report: its own bound counts W times the heuristic, so it is
    // not a bound on the answer; its time starts again with each phase.
    let weighted = Progress {
        generated: 6_042_390,
        bound: Some(108),
        elapsed: second(0.9),
        ..Progress::default()
    };
    let anytime = Progress {
        best: Some(95),
        lower_bound: Some(85),
        ..weighted
    };
    assert_eq!(
        view::search_line("Hint", Some(&anytime), second(3.0)),
        "Hint: best 95 · proven ≥ 85, 3.0 s (Esc stops)"
    );
    let proof = Progress {
        lower_bound: Some(44),
        ..weighted
    };
    assert_eq!(
        view::search_line("Solving", Some(&proof), second(2.5)),
        "Solving: 6042390 nodes, proven ≥ 44, 2.5 s (Esc stops)"
    );
    // A plain search's report: nodes and its own bound; the clock is the key's, not the
    // report's 0.9 s.
    let line = view::search_line("Hint", Some(&weighted), second(3.0));
    assert_eq!(line, "Hint: 6042390 nodes, bound 108, 3.0 s (Esc stops)");
    assert_eq!(
        view::search_line("Hint", None, second(1.0)),
        "Hint: searching, 1.0 s (Esc stops)"
    );
}

#[test]
fn a_hint_past_the_optimal_frontier_says_how_far_at_least() {
    // `npuzzle random --size 5x5 --seed 4`: about 95 moves, not proved within the hint's
    // budget; the hint names the proven lower bound, as the page's does.
    let mut app = app("23 13 10 7 2/1 17 3 9 11/16 12 24 19 18/14 6 8 21 5/4 0 15 22 20");
    app.handle(Action::Hint, Instant::now());
    wait_for_search(&mut app);
    assert!(app.hint.is_some(), "{}", app.status);
    let numbers: Vec<usize> = app
        .status
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|w| w.parse().ok())
        .collect();
    if app.status.contains("not proven optimal") {
        let [.., to_go, at_least] = numbers[..] else {
            panic!("{}", app.status)
        };
        assert!(
            app.status
                .ends_with(&format!("not proven optimal: at least {at_least}).")),
            "{}",
            app.status
        );
        assert!(at_least <= to_go && at_least > 0, "{}", app.status);
    } else {
        assert!(app.status.contains("optimal)."), "{}", app.status);
    }
}

#[test]
fn an_unsolvable_board_exits_1_as_from_every_command() {
    // `play "1 2 3/4 5 6/8 7 0"` exited 2 (invalid input); docs/cli.md's table, for every
    // command, says 1 for an unsolvable board.
    let args = |board: &str, goal: &str| PlayArgs {
        board: Some(board.into()),
        size: None,
        goal: goal.parse().unwrap(),
        seed: Some(3),
    };
    for a in [
        args("1 2 3/4 5 6/8 7 0", "standard"),
        args("123456708", "1 2 3/4 5 6/8 7 0"),
    ] {
        let e = game(&a, 3, &Tables::default()).err().unwrap();
        assert!(e.to_string().contains("cannot reach the goal"), "{e}");
        assert_eq!(super::refusal(e).unwrap(), Outcome::Unsolvable);
    }
    // Any other refusal is still invalid input (exit 2, from the error).
    let e = game(
        &args("1 2 3/4 5 6/7 8 8", "standard"),
        3,
        &Tables::default(),
    )
    .err()
    .unwrap();
    assert!(super::refusal(e).is_err());
}

#[test]
fn a_solution_is_marked_with_its_quality_while_it_plays_and_when_it_ends() {
    // A 10x10 solution played as "move 1 of 1233", and "Solved in 1233 moves", with no word
    // that it was not proven optimal (the hints say so).
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    for (quality, mark) in [
        (Quality::AtLeast(2), "not proven optimal: at least 2"),
        (Quality::Unproven, "not proven optimal"),
        (Quality::Optimal, "optimal"),
    ] {
        let mut app = app("1 2 3/4 0 6/7 5 8");
        let t = Instant::now();
        app.play_solution(vec![Move::Down, Move::Right], quality, t);
        let playing = draw(&mut terminal, &app);
        assert!(
            playing
                .iter()
                .any(|l| l.contains("Playing the solution") && l.contains(&format!("({mark})"))),
            "{playing:#?}"
        );
        app.tick(t + Duration::from_secs(1));
        assert!(app.solved());
        let solved = draw(&mut terminal, &app);
        let text = solved.join(" ");
        assert!(text.contains("Solved in 2 moves"), "{solved:#?}");
        assert!(
            text.contains(&format!("The solution played is {mark}.")),
            "{solved:#?}"
        );
    }
}

/// The words a footer may show: the counters', the status's and the keys'; a word cut at
/// the screen's edge ("Estimate: 1" for 13) is none of them.
fn footer_words(app: &App) -> Vec<String> {
    let counters = format!(
        "Moves: {} Time: 0:00 Estimate: {} SOLVED …",
        app.moves(),
        app.estimate()
    );
    [
        counters.as_str(),
        &app.status,
        view::KEYS,
        view::KEYS_PLAYING,
        "arrows u h Enter g n q + - e Esc",
    ]
    .iter()
    .flat_map(|t| t.split_whitespace())
    .map(String::from)
    .collect()
}

#[test]
fn no_word_or_number_is_cut_at_the_edge_of_a_narrow_terminal() {
    // At 33 columns the counters read "Estimate: 1" (13), at 25 the hint "(2" (21 moves).
    let mut app = app("3 1 2/0 4 5/6 7 8");
    app.handle(Action::Hint, Instant::now());
    wait_for_search(&mut app);
    assert!(app.status.contains("(21 moves to go"), "{}", app.status);
    let words = footer_words(&app);
    for height in [8, 14, 24] {
        for width in 10..=80 {
            let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
            let s = draw(&mut terminal, &app);
            // The last three rows are always the footer's (it has at least three).
            for line in &s[s.len() - 3..] {
                for word in line.split_whitespace() {
                    assert!(
                        words.iter().any(|w| w == word),
                        "{width}x{height}: {word:?} is cut: {s:#?}"
                    );
                }
            }
        }
    }
    // Where the rows below the board allow, nothing is left out.
    let mut terminal = Terminal::new(TestBackend::new(25, 14)).unwrap();
    let text = draw(&mut terminal, &app).join(" ");
    for part in ["Estimate: 13", "(21", "optimal)."] {
        assert!(text.contains(part), "{part}: {text}");
    }
}

#[test]
fn a_big_boards_hint_keeps_its_mark_on_a_narrow_terminal() {
    let goal = GoalSpec::Standard.board("10x10".parse().unwrap()).unwrap();
    let mut app = App::new(goal.clone(), goal, 1, true, Tables::default());
    app.status =
        "Hint: move tile 12 left (95 moves to go, not proven optimal: at least 85).".into();
    let mut terminal = Terminal::new(TestBackend::new(40, 24)).unwrap();
    let s = draw(&mut terminal, &app);
    let text = s.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
    assert!(text.contains("not proven optimal: at least 85)."), "{s:#?}");
}

#[test]
fn the_keys_keep_q_on_every_width() {
    // At 20 columns the short keys "arrows u h Enter g n q" lost their `q`.
    let mut app = app("1 2 3/4 0 6/7 5 8");
    let (minimum, _) = Geometry::needed(app.board.shape());
    for playing in [false, true] {
        if playing {
            app.play_solution(
                vec![Move::Down, Move::Right],
                Quality::Optimal,
                Instant::now(),
            );
        }
        for width in minimum..=90 {
            let mut terminal = Terminal::new(TestBackend::new(width, 8)).unwrap();
            let s = draw(&mut terminal, &app);
            let keys = s.last().unwrap();
            assert!(
                keys.split_whitespace().any(|w| w == "q"),
                "{width} columns, playing {playing}: {s:#?}"
            );
        }
    }
}

#[test]
fn keys_that_act_on_the_board_are_refused_while_the_goal_is_shown() {
    // `g` then Enter went back to the board and played; `g` then `h` gave a hint.
    const REFUSED: &str = "The goal is shown: g goes back to the board.";
    let mut app = app("1 2 3/4 5 6/7 0 8");
    let t = Instant::now();
    app.handle(Action::Blank(Move::Up), t);
    let board = app.board.clone();
    app.handle(Action::ToggleGoal, t);
    for a in [
        Action::Solve,
        Action::Hint,
        Action::Undo,
        Action::SkipToEnd,
        Action::New,
        Action::Blank(Move::Down),
        Action::Click(7),
    ] {
        app.handle(a, t);
        app.tick(t);
        assert_eq!(app.status, REFUSED, "{a:?}");
        assert!(app.job.is_none() && app.showing_goal, "{a:?}");
        assert_eq!((&app.board, app.moves()), (&board, 1), "{a:?}");
    }
    // A solution playing waits while the goal is shown, and goes on after `g`.
    let mut app = self::app("1 2 3/4 0 6/7 5 8");
    app.play_solution(vec![Move::Down, Move::Right], Quality::Optimal, t);
    app.handle(Action::ToggleGoal, t);
    app.handle(Action::SkipToEnd, t);
    assert_eq!(app.status, REFUSED);
    app.tick(t + Duration::from_secs(10));
    assert_eq!(app.moves(), 0, "moves played behind the goal");
    app.handle(Action::ToggleGoal, t + Duration::from_secs(10));
    app.tick(t + Duration::from_secs(11));
    assert!(app.solved());
    // A solution found while the goal is shown waits too, with the goal on screen.
    let mut app = self::app("1 2 3/4 0 6/7 5 8");
    app.handle(Action::Solve, Instant::now());
    app.handle(Action::ToggleGoal, Instant::now());
    wait_for_search(&mut app);
    assert!(app.showing_goal);
    app.tick(Instant::now() + Duration::from_secs(10));
    assert_eq!(app.moves(), 0, "moves played behind the goal");
}

#[test]
fn messages_count_one_move_and_name_the_missing_tile() {
    let mut app = app("1 2 3/4 5 6/7 8 0");
    let t = Instant::now();
    app.handle(Action::Blank(Move::Up), t);
    app.handle(Action::Blank(Move::Left), t);
    app.handle(Action::Undo, t);
    assert_eq!(app.status, "Undone; 1 move.");
    app.handle(Action::Undo, t);
    // `w`: no tile below the gap in the bottom-right corner to slide up.
    app.handle(Action::Blank(Move::Down), t);
    assert_eq!(app.status, "There is no tile below the gap.");
    app.handle(Action::Blank(Move::Right), t);
    assert_eq!(app.status, "There is no tile to the right of the gap.");
    assert_eq!(app.moves(), 0);
    for _ in 0..super::app::SPEEDS.len() {
        app.handle(Action::Slower, t);
    }
    assert_eq!(app.status, "Speed: 1 move a second.");
    app.handle(Action::Blank(Move::Up), t);
    app.play_solution(vec![Move::Down], Quality::Optimal, t);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    let s = draw(&mut terminal, &app);
    assert!(s.iter().any(|l| l.contains("at 1 move/s")), "{s:#?}");
}

#[test]
fn keys_ignored_while_a_solution_plays_say_that_esc_stops_it() {
    let mut app = app("1 2 3/4 0 6/7 5 8");
    let t = Instant::now();
    app.play_solution(vec![Move::Down, Move::Right], Quality::Optimal, t);
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    for a in [
        Action::Undo,
        Action::New,
        Action::Blank(Move::Up),
        Action::Hint,
        Action::Solve,
        Action::Click(0),
    ] {
        app.handle(a, Instant::now());
        let s = draw(&mut terminal, &app);
        assert!(
            s.iter()
                .any(|l| l.contains("A solution is playing: Esc stops it.")),
            "{a:?}: {s:#?}"
        );
        assert_eq!(app.board.to_string(), "1 2 3/4 0 6/7 5 8", "{a:?}");
    }
    // The notice answers that key only: the next one heard shows the solution's line again.
    app.handle(Action::Faster, Instant::now());
    let s = draw(&mut terminal, &app);
    assert!(
        s.iter()
            .any(|l| l.contains("Playing the solution") && l.contains("at 15 moves/s")),
        "{s:#?}"
    );
}

#[test]
fn the_clock_does_not_count_the_time_spent_solved() {
    let mut app = app("1 2 3/4 5 6/7 8 0");
    let t = Instant::now();
    let at = |s: u64| t + Duration::from_secs(s);
    app.handle(Action::Blank(Move::Up), at(0));
    app.handle(Action::Blank(Move::Down), at(10));
    assert!(app.solved());
    assert_eq!(app.clock(at(60)), Duration::from_secs(10));
    // Undone 90 s later: the clock goes on from 0:10.
    app.handle(Action::Undo, at(100));
    assert_eq!(app.clock(at(101)), Duration::from_secs(11));
    app.handle(Action::Blank(Move::Down), at(105));
    assert_eq!(app.clock(at(200)), Duration::from_secs(15));
    // Playing on after solving, likewise.
    app.handle(Action::Blank(Move::Up), at(300));
    assert_eq!(app.clock(at(301)), Duration::from_secs(16));
}
