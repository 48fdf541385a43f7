//! Beam search as a user names it (`-a beam --width N`): it runs with the heuristic and
//! width asked, its paths replay, a beam wider than the puzzle is breadth-first search
//! (checked against an exhaustive one), and a beam that loses its way says so.

mod common;

use npuzzle::search::{Control, Limits};
use npuzzle::{
    generate, plan, solve, Algorithm, GoalSpec, HeuristicSpec, SolveOptions, StopReason, Tables,
};

fn beam(width: usize, heuristic: Option<&str>) -> SolveOptions {
    SolveOptions {
        algorithm: Algorithm::Beam,
        heuristic: heuristic.map(|h| h.parse().unwrap()),
        width,
        ..SolveOptions::default()
    }
}

/// On 3×3 a beam of 200,000 states drops none (the puzzle has 181,440 a parity), so it
/// finds a shortest path whatever ranks it: each heuristic asked for runs, is named in the
/// answer, and gives the breadth-first distance. The answer never claims to be optimal.
#[test]
fn a_beam_wider_than_the_puzzle_is_breadth_first() {
    let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
    let distance = common::bfs_distances(&goal);
    let tables = Tables::default();
    let mut rng = generate::rng(5);
    for h in [
        "misplaced",
        "manhattan",
        "linear-conflict",
        "euclidean",
        "pdb:4-4",
    ] {
        let start = generate::random_solvable(&goal, &mut rng);
        let s = solve(
            &start,
            &goal,
            &beam(200_000, Some(h)),
            &tables,
            Control::default(),
        )
        .unwrap();
        let moves = s.moves.expect("a path");
        common::assert_replays(&start, &moves, &goal);
        assert_eq!(moves.len() as u32, distance[start.tiles()], "{h}: {start}");
        assert_eq!(s.algorithm, Algorithm::Beam);
        assert_eq!(s.heuristic, Some(h.parse().unwrap()), "{h}");
        assert!(!s.optimal, "{h}: a beam proves nothing");
    }
}

/// The width asked for bounds every depth, and paths of narrow beams replay; with no
/// heuristic named a beam ranks by linear conflict.
#[test]
fn the_width_asked_for_bounds_every_depth() {
    let tables = Tables::default();
    for (size, width) in [("4x4", 10), ("4x4", 300), ("6x6", 2_000), ("3x5", 50)] {
        let goal = GoalSpec::Spiral.board(size.parse().unwrap()).unwrap();
        let start = generate::random_solvable(&goal, &mut generate::rng(8));
        let s = solve(
            &start,
            &goal,
            &beam(width, None),
            &tables,
            Control::default(),
        )
        .unwrap();
        let moves = s.moves.expect("a path");
        common::assert_replays(&start, &moves, &goal);
        assert!(s.stats.max_open <= width as u64, "{size} width {width}");
        assert_eq!(s.heuristic, Some(HeuristicSpec::LinearConflict));
        assert!(s.stopped_by.is_none());
        // Its lower bound is proven all the same.
        assert!(s.lower_bound.unwrap() <= moves.len() as u64);
    }
}

/// A beam one state wide on a 6×6 board soon keeps only repeats: it stops, says that its
/// width stopped it, and gives no path. A node budget stops a wide one first, and says so.
#[test]
fn a_beam_that_loses_its_way_says_its_width_stopped_it() {
    let tables = Tables::default();
    let goal = GoalSpec::Standard.board("6x6".parse().unwrap()).unwrap();
    let start = generate::random_solvable(&goal, &mut generate::rng(1));
    let s = solve(&start, &goal, &beam(1, None), &tables, Control::default()).unwrap();
    assert!(s.moves.is_none());
    assert_eq!(s.stopped_by, Some(StopReason::Width));
    let budget = Control {
        limits: Limits {
            nodes: Some(5_000),
            ..Limits::default()
        },
        ..Control::default()
    };
    let s = solve(&start, &goal, &beam(10_000, None), &tables, budget).unwrap();
    assert!(s.moves.is_none());
    assert_eq!(s.stopped_by, Some(StopReason::Nodes));
}

/// The plan says what runs: beam, the heuristic, and the width; a width of 0 is refused.
#[test]
fn the_plan_names_the_width() {
    let goal = GoalSpec::Standard.board("5x5".parse().unwrap()).unwrap();
    let p = plan(&goal, &beam(123, Some("manhattan")), &Tables::default()).unwrap();
    assert_eq!(p.phases[0].algorithm, Algorithm::Beam);
    assert_eq!(p.phases[0].width, Some(123));
    assert!(!p.optimal);
    assert!(
        p.to_string()
            .contains("search: beam with manhattan, 123 states a depth (not optimal)"),
        "{p}"
    );
    let refused = plan(&goal, &beam(0, None), &Tables::default()).unwrap_err();
    assert_eq!(refused.to_string(), "width must be at least 1, got 0");
    // Other algorithms carry no width.
    let ida = SolveOptions {
        algorithm: Algorithm::IdaStar,
        ..beam(123, None)
    };
    assert_eq!(
        plan(&goal, &ida, &Tables::default()).unwrap().phases[0].width,
        None
    );
}
