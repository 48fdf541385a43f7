//! A plan made once ([`Planned`]) answers board after board as `solve` does, optimal
//! against an independent breadth-first search, holding its own tables: the shared store
//! can drop them and nothing is fetched or built again.

mod common;

use npuzzle::generate;
use npuzzle::search::Control;
use npuzzle::{solve, Board, GoalSpec, HeuristicSpec, Planned, SolveOptions, TablePolicy, Tables};

fn random_boards(size: &str, n: usize, seed: u64) -> Vec<Board> {
    let shape = size.parse().unwrap();
    let goal = GoalSpec::Standard.board(shape).unwrap();
    let mut rng = generate::rng(seed);
    (0..n)
        .map(|_| generate::random_solvable(&goal, &mut rng))
        .collect()
}

#[test]
fn planned_answers_as_solve_does_and_optimally() {
    let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
    let distances = common::bfs_distances(&goal);
    for options in [
        SolveOptions::default(),
        SolveOptions {
            heuristic: Some(HeuristicSpec::Perfect),
            ..SolveOptions::default()
        },
        SolveOptions {
            heuristic: Some("pdb:4-4".parse().unwrap()),
            algorithm: npuzzle::Algorithm::AStar,
            ..SolveOptions::default()
        },
    ] {
        let tables = Tables::new(None, TablePolicy::default());
        let planned = Planned::new(&goal, &options, &tables).unwrap();
        for start in random_boards("3x3", 200, 5) {
            let once = planned.execute(&start, Control::default()).unwrap();
            let each = solve(&start, &goal, &options, &tables, Control::default()).unwrap();
            let moves = once.moves.clone().unwrap();
            common::assert_replays(&start, &moves, &goal);
            let key = start.tiles().to_vec();
            assert_eq!(moves.len() as u32, distances[&key]);
            assert!(once.optimal);
            assert_eq!(once.length(), each.length());
            assert_eq!(once.stats.generated, each.stats.generated);
            assert_eq!(once.heuristic, each.heuristic);
        }
    }
}

#[test]
fn planned_holds_its_tables_and_fetches_nothing_more() {
    let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
    let tables = Tables::new(None, TablePolicy::default());
    let options = SolveOptions {
        heuristic: Some(HeuristicSpec::Perfect),
        ..SolveOptions::default()
    };
    let planned = Planned::new(&goal, &options, &tables).unwrap();
    assert!(tables.bytes_in_memory() > 0);
    tables.clear_memory();
    for start in random_boards("3x3", 50, 9) {
        let s = planned.execute(&start, Control::default()).unwrap();
        assert!(s.optimal);
    }
    // Solving board after board by `solve` would have fetched the table into the store
    // again (building it, with no cache directory).
    assert_eq!(tables.bytes_in_memory(), 0);
}

/// The library counts a plan's tables, and building them, against the memory limit before
/// it builds any: `solve` and a [`Planned`] alike stop at once, saying "memory", and the
/// store holds nothing afterwards. (Python's `solve` built `pdb:1-7-7`'s 58 MB under a
/// 50 MB limit, where the command line stopped.)
#[test]
fn tables_that_do_not_fit_the_memory_limit_are_not_built() {
    let goal = GoalSpec::Standard.board("4x4".parse().unwrap()).unwrap();
    let start = Board::parse("1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", None).unwrap();
    let options = SolveOptions {
        heuristic: Some("pdb:1-7-7".parse().unwrap()),
        algorithm: npuzzle::Algorithm::IdaStar,
        ..SolveOptions::default()
    };
    let tables = Tables::new(None, TablePolicy::default());
    let plan = npuzzle::plan(&goal, &options, &tables).unwrap();
    let held: u64 = plan.tables.iter().map(|t| t.bytes).sum();
    assert!(plan.table_bytes() > held, "building counts too");
    let limits = |mb: u64| npuzzle::Limits {
        memory_bytes: Some(mb << 20),
        ..npuzzle::Limits::default()
    };
    let tight = Control {
        limits: limits(50),
        ..Control::default()
    };
    let s = solve(&start, &goal, &options, &tables, tight).unwrap();
    assert_eq!(s.stopped_by, Some(npuzzle::StopReason::Memory));
    assert_eq!(s.moves, None);
    let planned = Planned::with_plan(plan.clone(), &goal, &tables, tight).unwrap();
    let s = planned.execute(&start, tight).unwrap();
    assert_eq!(s.stopped_by, Some(npuzzle::StopReason::Memory));
    assert!(plan.tables.iter().all(|t| {
        let key = t.key.as_ref().unwrap();
        !tables.pattern_in_memory(key)
    }));
    // Room for them: built, and the answer is the one move.
    let roomy = Control {
        limits: limits(plan.table_bytes().div_ceil(1 << 20)),
        ..Control::default()
    };
    let s = solve(&start, &goal, &options, &tables, roomy).unwrap();
    assert_eq!(s.moves.map(|m| m.len()), Some(1));
}

/// A budgeted plan (`batch` on boards past 16 cells) whose tables are not ready within the
/// share of the per-board budget they were chosen for gives them up once, for linear
/// conflict, rather than leaving each board to wait for them again: here a 2 s plan made to
/// take `6-6-6-6` with an empty store, whose tables take about ten seconds to build.
#[test]
fn a_budgeted_plan_whose_tables_are_late_goes_on_without_them() {
    let goal = GoalSpec::Standard.board("5x5".parse().unwrap()).unwrap();
    let tables = Tables::default();
    let control = Control {
        limits: npuzzle::Limits {
            time: Some(std::time::Duration::from_secs(2)),
            ..npuzzle::Limits::default()
        },
        ..Control::default()
    };
    let mut plan = npuzzle::plan(&goal, &SolveOptions::default(), &tables).unwrap();
    plan.phases[0].heuristic = Some("pdb:6-6-6-6".parse().unwrap());
    let planned = Planned::with_plan(plan.clone(), &goal, &tables, control).unwrap();
    assert_eq!(planned.plan(), &plan.without_tables());
    assert_eq!(
        planned.plan().heuristic(),
        Some(&HeuristicSpec::LinearConflict)
    );
    for start in random_boards("5x5", 2, 3) {
        let s = planned.execute(&start, control).unwrap();
        let moves = s.moves.as_ref().expect("an answer");
        common::assert_replays(&start, moves, &goal);
        assert_eq!(s.heuristic_name(), "linear-conflict");
        // Each board's search had its budget: a search found a shorter path than the
        // constructive one.
        assert!(
            s.improvements.iter().any(|i| i.by.starts_with("weighted")),
            "{:?}",
            s.improvements
        );
    }
}
