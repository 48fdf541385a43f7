//! The anytime engine against independent references: every answer replays, its lower bound
//! never exceeds the optimal length and its length never falls below it, and `optimal` is
//! claimed only for paths of the optimal length (exact distances from a breadth-first
//! search on 3×3 and 12-cell boards, published lengths on Korf's 100 and Korf & Felner's 50).

mod common;

use std::time::Duration;

use common::{assert_replays, instances, korf_goal};
use npuzzle::anytime;
use npuzzle::heuristic::pdb::{Partition, PatternDatabase};
use npuzzle::heuristic::{LinearConflict, Manhattan};
use npuzzle::plan::PhaseKind;
use npuzzle::search::Control;
use npuzzle::{generate, solve, Board, GoalSpec, Limits, Puzzle, Shape, SolveOptions};

fn within(time: Option<Duration>, nodes: Option<u64>) -> Control<'static> {
    Control {
        limits: Limits {
            time,
            nodes,
            ..Limits::default()
        },
        ..Control::default()
    }
}

/// Checks one anytime answer against the optimal length.
fn check(start: &Board, goal: &Board, out: &anytime::AnytimeOutcome, optimal: u64, what: &str) {
    let moves = out.moves.as_ref().expect("the engine always answers");
    assert_replays(start, moves, goal);
    let len = moves.len() as u64;
    assert!(
        out.lower_bound <= optimal,
        "{what}: bound {} > optimal {optimal}",
        out.lower_bound
    );
    assert!(
        len >= optimal,
        "{what}: {len} moves beat the optimum {optimal}"
    );
    if out.optimal {
        assert_eq!(len, optimal, "{what}: called optimal");
        assert_eq!(
            out.lower_bound, len,
            "{what}: proved, so the bound meets it"
        );
    } else {
        assert!(
            out.stopped_by.is_some(),
            "{what}: not proved, so a limit stopped it"
        );
    }
    // The improvements only ever shorten the path and raise the bound.
    for pair in out.improvements.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        assert!(
            b.length <= a.length && b.lower_bound >= a.lower_bound,
            "{what}"
        );
        assert!(b.seconds >= a.seconds, "{what}");
    }
    let last = out.improvements.last().expect("at least the first answer");
    assert_eq!(last.length, Some(len), "{what}");
}

/// 3×3: thousands of random boards, each under a node limit small enough to stop most runs
/// before the proof (so the unproved answers are checked too) and without one.
#[test]
fn on_random_8_puzzles_the_bounds_hold_and_unlimited_runs_are_optimal() {
    let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
    let dist = common::bfs_distances(&goal);
    let puzzle = Puzzle::new(&goal).unwrap();
    let mut rng = generate::rng(21);
    let mut unproved = 0;
    for i in 0..3000 {
        let start = generate::random_solvable(&goal, &mut rng);
        let optimal = u64::from(dist[start.tiles()]);
        let limited = anytime::run(
            &puzzle,
            &start,
            LinearConflict::new(&puzzle),
            within(None, Some(1 + i % 200)),
        );
        check(
            &start,
            &goal,
            &limited,
            optimal,
            &format!("{start} limited"),
        );
        unproved += usize::from(!limited.optimal);
        if i % 10 == 0 {
            let full = anytime::run(&puzzle, &start, Manhattan::new(&puzzle), Control::default());
            check(&start, &goal, &full, optimal, &format!("{start}"));
            assert!(full.optimal, "{start}: no limit, so proved");
        }
    }
    assert!(
        unproved > 100,
        "the node limits stopped only {unproved} runs"
    );
}

/// The prove phase searches the same tree on one thread and on two: from the proven bound,
/// under the incumbent, with the same lookaheads (on two threads it used to start from the
/// heuristic's value and search past the incumbent's length).
#[test]
fn the_prove_phase_counts_the_same_on_one_and_two_threads() {
    let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
    let dist = common::bfs_distances(&goal);
    let puzzle = Puzzle::new(&goal).unwrap();
    let mut rng = generate::rng(23);
    for _ in 0..300 {
        let start = generate::random_solvable(&goal, &mut rng);
        let runs: Vec<_> = [1, 2]
            .into_iter()
            .map(|threads| {
                let control = Control {
                    threads,
                    ..Control::default()
                };
                anytime::run(&puzzle, &start, Manhattan::new(&puzzle), control)
            })
            .collect();
        let optimal = u64::from(dist[start.tiles()]);
        for out in &runs {
            check(&start, &goal, out, optimal, &format!("{start}"));
            assert!(out.optimal, "{start}: no limit, so proved");
        }
        let steps = |out: &anytime::AnytimeOutcome| -> Vec<(Option<u64>, u64, String)> {
            out.improvements
                .iter()
                .map(|i| (i.length, i.lower_bound, i.by.clone()))
                .collect()
        };
        assert_eq!(steps(&runs[0]), steps(&runs[1]), "{start}");
        assert_eq!(runs[0].stats.generated, runs[1].stats.generated, "{start}");
    }
}

/// Every 12-cell shape's boards of `data/twelve-cells.txt` (distances from an exhaustive
/// breadth-first search), with and without a node limit, through `solve` (auto's pattern
/// databases: linear conflict alone takes minutes on the farthest 2×6 boards).
#[test]
fn on_12_cell_boards_the_bounds_hold() {
    let path = format!("{}/../../data/twelve-cells.txt", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).unwrap();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let mut fields = line.split_whitespace();
        let shape: Shape = fields.next().unwrap().parse().unwrap();
        let nums: Vec<u32> = fields.map(|t| t.parse().unwrap()).collect();
        let start = Board::new(shape, nums[..12].to_vec()).unwrap();
        let optimal = u64::from(nums[12]);
        let goal = GoalSpec::Standard.board(shape).unwrap();
        for limit in [Some(200), None] {
            let s = solve(
                &start,
                &goal,
                &SolveOptions::default(),
                common::tables(),
                within(None, limit),
            )
            .unwrap();
            assert_eq!(s.phase, PhaseKind::Anytime);
            let out = anytime::AnytimeOutcome {
                moves: s.moves,
                optimal: s.optimal,
                lower_bound: s.lower_bound.unwrap(),
                improvements: s.improvements,
                stats: s.stats,
                stopped_by: s.stopped_by,
            };
            check(&start, &goal, &out, optimal, line);
            if limit.is_none() {
                assert!(out.optimal, "{line}");
            }
        }
    }
}

/// Korf's 100 with auto's 6-6-3 tables and 100,000 nodes each: many are proved (46), and
/// every answer is bounded correctly. A node budget, not a time budget, so the count does
/// not depend on the machine's load (20 ms each proved 28 to 50, by load).
#[test]
fn on_korfs_100_the_bounds_hold_under_a_short_budget() {
    let goal = korf_goal();
    let puzzle = Puzzle::new(&goal).unwrap();
    let partition = Partition::new(goal.shape(), goal.blank(), &[6, 6, 3]).unwrap();
    let db = PatternDatabase::from_tables(&puzzle, &partition, common::tables()).unwrap();
    let mut proved = 0;
    for inst in instances("korf100-15puzzle.txt", "4x4") {
        let out = anytime::run(
            &puzzle,
            &inst.board,
            db.search(),
            within(None, Some(100_000)),
        );
        let what = format!("Korf #{}", inst.index);
        check(&inst.board, &goal, &out, inst.optimal as u64, &what);
        proved += usize::from(out.optimal);
    }
    assert!(
        proved >= 40,
        "only {proved} of Korf's 100 proved in 100,000 nodes each"
    );
}

/// Korf & Felner's 50 24-puzzles with linear conflict and 50 ms each: far from proved,
/// but never below the published optimum, and never a bound above it.
#[test]
fn on_korf_and_felners_50_the_bounds_hold_under_a_short_budget() {
    let goal = GoalSpec::BlankFirst.board("5x5".parse().unwrap()).unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    for inst in instances("korf50-24puzzle.txt", "5x5") {
        let out = anytime::run(
            &puzzle,
            &inst.board,
            LinearConflict::new(&puzzle),
            within(Some(Duration::from_millis(50)), None),
        );
        let what = format!("K&F #{}", inst.index);
        check(&inst.board, &goal, &out, inst.optimal as u64, &what);
    }
}

/// 6×6 boards under a 2 s budget, with a schedule whose improve phase runs weighted A*
/// (the default runs beams instead): every answer replays and stays above the lower bound,
/// and weighted IDA* never runs at a weight at which weighted A* already improved the
/// answer (under that incumbent it seldom finds a shorter path, and its time is what the
/// smaller weights need).
#[test]
fn on_6x6_boards_weighted_idastar_starts_below_the_weight_that_answered() {
    let goal = GoalSpec::Standard.board("6x6".parse().unwrap()).unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    let schedule = anytime::Schedule {
        best_first_weights: vec![5.0, 3.0, 2.0],
        beam_share: 0.0,
        ..anytime::Schedule::default()
    };
    let mut rng = generate::rng(5);
    let mut checked = 0;
    for i in 0..3 {
        let start = generate::random_solvable(&goal, &mut rng);
        let out = anytime::run_with(
            &puzzle,
            &start,
            LinearConflict::new(&puzzle),
            within(Some(Duration::from_secs(2)), None),
            &schedule,
        );
        let what = format!("6x6 board {i}");
        let moves = out.moves.as_ref().expect("the engine always answers");
        assert_replays(&start, moves, &goal);
        assert!(out.lower_bound <= moves.len() as u64, "{what}");
        let weight = |by: &str, prefix: &str| -> Option<f64> {
            by.strip_prefix(prefix).map(|w| w.parse().unwrap())
        };
        let answered = out
            .improvements
            .iter()
            .filter_map(|i| weight(&i.by, "weighted astar W="))
            .reduce(f64::min);
        let Some(answered) = answered else { continue };
        assert!(schedule.best_first_weights.contains(&answered), "{what}");
        for i in &out.improvements {
            if let Some(w) = weight(&i.by, "weighted idastar W=") {
                assert!(
                    w < answered,
                    "{what}: weighted IDA* at {w} after A* at {answered}"
                );
            }
        }
        checked += 1;
    }
    assert!(
        checked > 0,
        "weighted A* improved none of three 6x6 answers in 2 s"
    );
}

/// Beams ranked by linear conflict plus the tables (what 6×6 gets with its 5-tile tables
/// cached), and by those plus a second partition's (what a fresh 6×6 gets: `auto`'s 4-tile
/// tables and the shifted ones), on Korf's first 15-puzzles with 5-5-5 tables and 6-6-3 as
/// the second, a schedule that starts its beams at 16 cells and leaves no time to prove: a
/// beam answers each, its path replays, and neither it nor the bound passes the published
/// optimum.
#[test]
fn beams_ranked_with_the_tables_answer_within_the_bounds() {
    let goal = korf_goal();
    let puzzle = Puzzle::new(&goal).unwrap();
    let db = |sizes: &[usize]| {
        let partition = Partition::new(goal.shape(), goal.blank(), sizes).unwrap();
        PatternDatabase::from_tables(&puzzle, &partition, common::tables()).unwrap()
    };
    let (tables, second) = (db(&[5, 5, 5]), db(&[6, 6, 3]));
    let with_tables = anytime::BeamRanking::for_tables(5, goal.shape());
    assert_eq!(with_tables, anytime::BeamRanking::WithTables);
    for (ranking, shifted) in [
        (with_tables, None),
        (
            anytime::BeamRanking::WithShiftedTables,
            Some(second.search()),
        ),
    ] {
        let schedule = anytime::Schedule {
            beam_from_cells: 16,
            beam_ranking: ranking,
            improve_share: 1.0,
            ..anytime::Schedule::default()
        };
        for inst in instances("korf100-15puzzle.txt", "4x4").iter().take(10) {
            let out = anytime::run_ranked(
                &puzzle,
                &inst.board,
                tables.search(),
                shifted.clone(),
                within(Some(Duration::from_millis(300)), None),
                &schedule,
                None,
            );
            let what = format!("Korf #{}, {ranking}", inst.index);
            check(&inst.board, &goal, &out, inst.optimal as u64, &what);
            assert!(
                out.improvements.iter().any(|i| i.by.starts_with("beam")),
                "{what}: no beam answered: {:?}",
                out.improvements
            );
        }
    }
}

/// Which beams rank with a second partition: 6×6's 4-tile tables, the only ones with a
/// shifted partition, and no others.
#[test]
fn only_four_tile_tables_on_6x6_rank_with_the_shifted_partition() {
    use anytime::BeamRanking::{LinearConflict as Lc, WithShiftedTables, WithTables};
    let rule = |tiles, size: &str| anytime::BeamRanking::for_tables(tiles, size.parse().unwrap());
    assert_eq!(rule(4, "6x6"), WithShiftedTables);
    assert_eq!(rule(5, "6x6"), WithTables);
    assert_eq!(rule(4, "7x7"), WithTables);
    assert_eq!(rule(3, "6x6"), Lc);
    assert_eq!(rule(4, "5x6"), Lc);
}

/// A plain `solve` of a 6×6 board with an empty table store builds the default 4-tile
/// tables and the shifted partition's for its beams; the answer replays, its bound holds,
/// and it names the bound's tables only. The node limit ends the run early.
#[test]
fn a_fresh_6x6_solve_ranks_its_beams_with_the_shifted_tables() {
    let goal = GoalSpec::Standard.board("6x6".parse().unwrap()).unwrap();
    let start = generate::random_solvable(&goal, &mut generate::rng(6));
    let tables = npuzzle::Tables::default();
    let s = solve(
        &start,
        &goal,
        &SolveOptions::default(),
        &tables,
        within(Some(Duration::from_secs(30)), Some(3_000_000)),
    )
    .unwrap();
    let moves = s.moves.as_ref().expect("an answer");
    assert_replays(&start, moves, &goal);
    assert!(s.lower_bound.unwrap() <= moves.len() as u64);
    assert_eq!(
        s.heuristic.as_ref().map(ToString::to_string).as_deref(),
        Some("pdb:4-4-4-4-4-4-4-4-3")
    );
    let shifted = Partition::shifted(goal.shape(), goal.blank()).unwrap();
    for key in shifted.keys() {
        assert!(tables.pattern_in_memory(&key), "{:?} not built", key.cells);
    }
}

/// Tables that take far longer than the plan expected (a slow or cold disk, a busy machine)
/// are given up at the plan's share of the budget, so linear conflict has the rest. Before,
/// the fetch ran to the end of the budget and the answer was the constructive path: here a
/// plan for 2 s made to take `6-6-6-6`, whose tables take about ten seconds to build, as if
/// its estimate had been five times too low.
#[test]
fn tables_slower_than_expected_leave_the_search_the_rest_of_the_budget() {
    let goal = GoalSpec::Standard.board("5x5".parse().unwrap()).unwrap();
    let start = generate::random_solvable(&goal, &mut generate::rng(1));
    let tables = npuzzle::Tables::default();
    let budget = Duration::from_secs(2);
    let control = within(Some(budget), None);
    let mut plan =
        npuzzle::plan::plan_within(&goal, &SolveOptions::default(), &tables, &control.limits)
            .unwrap();
    assert_eq!(plan.phases[0].kind, PhaseKind::Anytime);
    plan.phases[0].heuristic = Some("pdb:6-6-6-6".parse().unwrap());
    let began = std::time::Instant::now();
    let s = npuzzle::execute(&plan, &start, &goal, &tables, control).unwrap();
    let moves = s.moves.as_ref().expect("an answer");
    assert_replays(&start, moves, &goal);
    assert_eq!(s.heuristic_name(), "linear-conflict");
    assert_eq!(s.stopped_by, Some(npuzzle::search::StopReason::Time));
    let first = &s.improvements[0];
    assert_eq!(first.by, "constructive");
    // A search had time to run, and found a shorter path than the first answer.
    let searched = s
        .improvements
        .iter()
        .find(|i| !["constructive", "shortened"].contains(&i.by.as_str()));
    assert!(searched.is_some(), "{:?}", s.improvements);
    assert!((moves.len() as u64) < first.length.expect("a path"));
    // Within the budget and the engine's closing tail.
    assert!(began.elapsed() < budget + Duration::from_secs(1));
}

/// 7×7 and 9×9 boards through `solve` with a 4 s budget: a beam's answer on 7×7, and the
/// staged answer on 9×9 (rows and columns filled by search, the last 5×5 solved by the
/// engine) become the incumbent, far shorter than the constructive first answer; every
/// answer replays, stays above its lower bound, and the budget holds.
#[test]
fn on_7x7_and_9x9_boards_beams_and_stages_beat_the_constructive_answer() {
    // The largest share of the constructive length each may take (9×9 measured 0.83).
    let cases = [("7x7", "beam", 0.8), ("9x9", "staged", 0.9)];
    for (i, (size, by, share)) in cases.into_iter().enumerate() {
        let goal = GoalSpec::Standard.board(size.parse().unwrap()).unwrap();
        let start = generate::random_solvable(&goal, &mut generate::rng(70 + i as u64));
        let limit = Duration::from_secs(4);
        let began = std::time::Instant::now();
        let s = solve(
            &start,
            &goal,
            &SolveOptions::default(),
            common::tables(),
            within(Some(limit), None),
        )
        .unwrap();
        let took = began.elapsed();
        assert!(
            took < limit + Duration::from_millis(700),
            "{size}: {took:?}"
        );
        let moves = s.moves.as_ref().expect("an answer");
        assert_replays(&start, moves, &goal);
        assert!(s.lower_bound.unwrap() <= moves.len() as u64, "{size}");
        let length_by = |by: &str| {
            s.improvements
                .iter()
                .find(|i| i.by.starts_with(by))
                .and_then(|i| i.length)
                .unwrap_or_else(|| panic!("{size}: no `{by}` answer in {:?}", s.improvements))
        };
        let (constructive, searched) = (length_by("constructive"), length_by(by));
        assert!(
            (searched as f64) < constructive as f64 * share,
            "{size}: {by} {searched} against constructive {constructive}"
        );
    }
}

/// The learned correction of a fresh machine's 6×6 ranking (linear conflict plus `auto`'s
/// 4-tile tables plus the shifted partition's) makes beams of the same width shorter: on
/// eight 400-move walks, 2,000 states wide, fewer moves in all than the sum alone, and every
/// path replays. (Measured on forty boards scrambled as the learned solver scrambles them,
/// 16,000 wide: 131.8 moves against 137.1, docs/performance.md.)
#[test]
fn a_learned_correction_shortens_6x6_beams() {
    use npuzzle::heuristic::learned::{Corrected, Inner, RankingNet};
    use npuzzle::heuristic::pdb::PartitionSpec;
    use npuzzle::heuristic::RankingSum;
    let goal = GoalSpec::Standard.board("6x6".parse().unwrap()).unwrap();
    let puzzle = Puzzle::new(&goal).unwrap();
    let sizes: PartitionSpec = "4-4-4-4-4-4-4-4-3".parse().unwrap();
    let db = |p: &Partition| PatternDatabase::from_tables(&puzzle, p, common::tables()).unwrap();
    let tables = db(&sizes.partition(&puzzle).unwrap());
    let shifted = db(&Partition::shifted(goal.shape(), goal.blank()).unwrap());
    let sum = RankingSum::new(
        RankingSum::new(LinearConflict::new(&puzzle), tables.search()),
        shifted.search(),
    );
    let net = RankingNet::for_ranking(&puzzle, Inner::ShiftedTables).expect("a network");
    let mut rng = generate::rng(400);
    let (mut plain, mut learned) = (0, 0);
    for _ in 0..8 {
        let start = generate::random_walk(&goal, 400, &mut rng);
        plain += beam_length(&puzzle, &start, sum.clone());
        learned += beam_length(&puzzle, &start, Corrected::new(net, sum.clone()));
    }
    assert!(
        learned < plain,
        "learned {learned} moves in all, the sum alone {plain}"
    );
}

/// The length of a 2,000-wide beam's path from `start`, ranked by `rank`, replayed.
fn beam_length<R: npuzzle::heuristic::IncrementalHeuristic>(
    puzzle: &Puzzle,
    start: &Board,
    rank: R,
) -> usize {
    let tiles = puzzle.encode(start);
    let out = npuzzle::search::beam(puzzle, &tiles, rank, 2000, u32::MAX, Control::default());
    let moves = out.moves.expect("a path");
    assert_replays(start, &moves, &puzzle.goal_board());
    moves.len()
}

/// A cancellation that comes before the engine starts (a Ctrl-C while its tables load)
/// still gets the first answer: the constructive path, which takes a millisecond or two
/// on any board the engine runs on, and nothing else. Before, the constructive solver saw
/// the cancellation too, and the answer had no path.
#[test]
fn a_cancellation_before_the_engine_starts_still_gets_its_first_answer() {
    let cancel = std::sync::atomic::AtomicBool::new(true);
    let cancelled = || Control {
        cancel: Some(&cancel),
        ..within(Some(Duration::from_secs(10)), None)
    };
    for size in ["5x5", "7x7", "15x17"] {
        let goal = GoalSpec::Standard.board(size.parse().unwrap()).unwrap();
        let start = generate::random_solvable(&goal, &mut generate::rng(3));
        let puzzle = Puzzle::new(&goal).unwrap();
        let out = anytime::run(&puzzle, &start, LinearConflict::new(&puzzle), cancelled());
        let moves = out.moves.as_ref().expect(size);
        assert_replays(&start, moves, &goal);
        assert_eq!(
            out.stopped_by,
            Some(npuzzle::StopReason::Cancelled),
            "{size}"
        );
        assert!(!out.optimal, "{size}");
        assert!(out.lower_bound < moves.len() as u64, "{size}");
        // Nothing after it ran. Before, on 15×17 the staged answer's line searches ignored
        // the cancellation and ran for 4 s.
        let by: Vec<&str> = out.improvements.iter().map(|i| i.by.as_str()).collect();
        assert_eq!(by, ["constructive"], "{size}");
    }
    // Through `solve`, with the 5×5 tables not yet built: their build sees the
    // cancellation, and the answer is still a path.
    let goal = GoalSpec::Standard.board("5x5".parse().unwrap()).unwrap();
    let start = generate::random_solvable(&goal, &mut generate::rng(3));
    let tables = npuzzle::Tables::default();
    let s = solve(
        &start,
        &goal,
        &SolveOptions::default(),
        &tables,
        cancelled(),
    )
    .unwrap();
    assert_eq!(s.phase, PhaseKind::Anytime);
    assert_replays(&start, s.moves.as_ref().expect("a path"), &goal);
    assert_eq!(s.stopped_by, Some(npuzzle::StopReason::Cancelled));
}

/// While the engine's tables load or build (a second or more on 5×5), its first answer is
/// reported at once: the page's "best … · proven ≥ …" stayed empty until the tables were in
/// (an outside check: 1.7 s of a 2 s budget on a fresh server). The answer reported is the
/// one the engine starts from, so the reported best never goes up.
#[test]
fn the_first_answer_is_reported_before_the_tables_load() {
    use std::sync::Mutex;
    use std::time::Instant;
    let goal = GoalSpec::Standard.board("5x5".parse().unwrap()).unwrap();
    let start = generate::random_solvable(&goal, &mut generate::rng(1));
    let tables = npuzzle::Tables::default();
    let began = Instant::now();
    let seen: Mutex<Vec<(f64, u32, Option<u32>)>> = Mutex::new(Vec::new());
    let report = |p: &npuzzle::search::Progress| {
        if let Some(best) = p.best {
            let at = began.elapsed().as_secs_f64();
            seen.lock().unwrap().push((at, best, p.lower_bound));
        }
    };
    let control = Control {
        progress: Some(&report),
        ..within(Some(Duration::from_secs(3)), None)
    };
    let mut plan =
        npuzzle::plan::plan_within(&goal, &SolveOptions::default(), &tables, &control.limits)
            .unwrap();
    // Tables built in memory, which take a while, so that the wait is plain.
    plan.phases[0].heuristic = Some("pdb:5-5-5-5-4".parse().unwrap());
    let s = npuzzle::execute(&plan, &start, &goal, &tables, control).unwrap();
    assert_eq!(s.heuristic_name(), "pdb:5-5-5-5-4", "the tables were used");
    let seen = seen.into_inner().unwrap();
    let (first_at, first_best, first_bound) = seen[0];
    // The engine's own reports come once the tables are in.
    let (engine_at, _, _) = seen[1];
    assert!(
        first_at < 0.5 && engine_at > first_at + 0.3,
        "first answer at {first_at} s, the engine's at {engine_at} s"
    );
    assert_eq!(
        Some(u64::from(first_best)),
        s.improvements[0].length,
        "{:?}",
        s.improvements
    );
    assert!(first_bound.unwrap() <= s.moves.as_ref().unwrap().len() as u32);
    assert!(seen.windows(2).all(|w| w[1].1 <= w[0].1), "{seen:?}");
}
