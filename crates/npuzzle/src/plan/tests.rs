use super::*;
use crate::goal::GoalSpec;
use crate::heuristic::learned::Inner;
use crate::heuristic::pdb::PartitionSpec;
use crate::heuristic::TablePolicy;
use std::time::Duration;

fn goal(shape: &str) -> Board {
    GoalSpec::Standard.board(shape.parse().unwrap()).unwrap()
}

/// Limits of `seconds` of time and nothing else.
fn seconds(seconds: f64) -> Limits {
    Limits {
        time: Some(std::time::Duration::from_secs_f64(seconds)),
        ..Limits::default()
    }
}

fn auto(shape: &str, tables: &Tables) -> Plan {
    plan(&goal(shape), &SolveOptions::default(), tables).unwrap()
}

#[test]
fn small_boards_use_the_exact_table_and_are_optimal() {
    let p = auto("3x3", &Tables::default());
    assert_eq!(p.phases.len(), 1);
    assert_eq!(p.heuristic(), Some(&HeuristicSpec::Perfect));
    assert!(p.optimal);
    assert_eq!(p.tables[0].source, TableSourceKind::Build);
}

#[test]
fn every_shape_of_11_to_30_cells_gets_one_anytime_phase_with_a_pattern_database() {
    for shape in [
        "3x4", "4x3", "2x6", "6x2", "2x7", "7x2", "2x8", "3x5", "5x3", "4x5", "5x4", "3x6", "6x3",
        "5x5", "4x4",
    ] {
        let p = auto(shape, &Tables::default());
        assert_eq!(p.phases.len(), 1, "{shape}");
        let first = &p.phases[0];
        assert_eq!(first.kind, PhaseKind::Anytime, "{shape}");
        assert!(
            matches!(
                first.heuristic,
                Some(HeuristicSpec::Pdb(PartitionSpec::Sizes(_)))
            ),
            "{shape}: {:?}",
            first.heuristic
        );
        let built: u64 = p.tables.iter().map(|t| t.entries).sum();
        assert!(built <= AUTO_BUILD_ENTRIES, "{shape}: {built} entries");
        // Up to 16 cells: no default budget, so the answer is proved optimal; above, the
        // documented budget.
        let cells = goal(shape).shape().cells();
        if cells <= AUTO_UNBUDGETED_CELLS {
            assert_eq!(first.budget, None, "{shape}");
            assert!(p.optimal, "{shape}");
        } else {
            assert_eq!(first.budget, Some(AUTO_BUDGET_SECONDS), "{shape}");
            assert!(!p.optimal, "{shape}");
        }
    }
}

/// The anytime engine's depth-first searches on 17 to 25 cells prune duplicate move
/// sequences as `--optimal`'s do (their budget goes twice as far); smaller boards, whose
/// optimal searches take less time than the automaton, do not.
#[test]
fn the_anytime_phase_prunes_duplicates_from_17_cells() {
    for (shape, pruning) in [
        ("4x4", None),
        ("3x5", None),
        ("3x6", Some(12)),
        ("4x5", Some(12)),
        ("3x7", Some(12)),
        ("5x5", Some(12)),
        ("6x6", None),
    ] {
        let p = auto(shape, &Tables::default());
        assert_eq!(p.phases[0].pruning, pruning, "{shape}");
    }
}

/// The bug: auto gave a named heuristic a node budget, then swapped in weighted A*
/// (`-H misplaced` on an 8-puzzle answered 33 moves).
#[test]
fn a_named_heuristic_runs_alone_with_no_budget() {
    for (shape, h) in [
        ("3x3", "misplaced"),
        ("3x3", "euclidean"),
        ("4x4", "linear-conflict"),
        ("5x5", "manhattan"),
    ] {
        let options = SolveOptions {
            heuristic: Some(h.parse().unwrap()),
            ..SolveOptions::default()
        };
        let p = plan(&goal(shape), &options, &Tables::default()).unwrap();
        assert_eq!(p.phases.len(), 1);
        let phase = &p.phases[0];
        assert_eq!(phase.kind, PhaseKind::Search);
        assert_eq!(phase.algorithm, Algorithm::IdaStar);
        assert_eq!(phase.heuristic.as_ref().unwrap().to_string(), h);
        assert_eq!(phase.budget, None);
        assert!(p.optimal);
    }
}

#[test]
fn optimal_asks_for_the_strongest_admissible_tables_and_refuses_what_cannot_prove() {
    let prove = SolveOptions {
        optimal: true,
        ..SolveOptions::default()
    };
    let tables = Tables::default();
    for (shape, h) in [
        ("4x4", "pdb:7-8"),
        ("5x5", "pdb:6-6-6-6:regions"),
        ("3x3", "perfect"),
    ] {
        let p = plan(&goal(shape), &prove, &tables).unwrap();
        assert_eq!(p.heuristic().unwrap().to_string(), h, "{shape}");
        assert_eq!(p.algorithm(), Algorithm::IdaStar);
        assert!(p.optimal);
    }
    for (a, h) in [
        (Algorithm::Greedy, None),
        (Algorithm::IdaStar, Some("2*manhattan")),
    ] {
        let options = SolveOptions {
            algorithm: a,
            heuristic: h.map(|h| h.parse().unwrap()),
            optimal: true,
            ..SolveOptions::default()
        };
        let e = plan(&goal("3x3"), &options, &tables).unwrap_err();
        assert!(matches!(e, SolveError::CannotProve(_)), "{e}");
    }
}

#[test]
fn refusals_are_one_line_and_name_the_problem() {
    let tables = Tables::default();
    let refuse = |shape: &str, h: &str, a: Algorithm| {
        let options = SolveOptions {
            algorithm: a,
            heuristic: Some(h.parse().unwrap()),
            ..SolveOptions::default()
        };
        plan(&goal(shape), &options, &tables)
            .unwrap_err()
            .to_string()
    };
    let perfect = refuse("4x4", "perfect", Algorithm::IdaStar);
    assert!(perfect.contains("at most 10 cells"), "{perfect}");
    let pdb = refuse("4x4", "pdb:7-7", Algorithm::IdaStar);
    assert!(pdb.contains("covers 14 tiles"), "{pdb}");
    for e in [perfect, pdb] {
        assert!(!e.contains('\n'));
    }
    let weight = SolveOptions {
        weight: 0.5,
        ..SolveOptions::default()
    };
    assert!(plan(&goal("3x3"), &weight, &tables).is_err());
}

#[test]
fn a_policy_that_forbids_building_keeps_auto_cheap_and_refuses_explicit_tables() {
    let policy = TablePolicy {
        max_build_entries: 10_000,
        ..TablePolicy::default()
    };
    let tables = Tables::new(None, policy);
    // 2x7's tables of at least 4 tiles are all over 10,000 entries: auto falls back to
    // linear conflict.
    let p = auto("2x7", &tables);
    assert_eq!(p.heuristic(), Some(&HeuristicSpec::LinearConflict));
    let options = SolveOptions {
        heuristic: Some("pdb:7-6".parse().unwrap()),
        ..SolveOptions::default()
    };
    let e = plan(&goal("2x7"), &options, &tables).unwrap_err();
    assert!(e.to_string().contains("at most 10000 may be built"), "{e}");
}

#[test]
fn tables_in_memory_change_the_source_not_the_choice() {
    let tables = Tables::default();
    let before = auto("3x4", &tables);
    assert!(before.builds_tables());
    prepare(
        &before,
        &goal("3x4"),
        &tables,
        &mut crate::heuristic::pdb::keep_going,
    )
    .unwrap();
    let after = auto("3x4", &tables);
    assert_eq!(after.phases, before.phases);
    assert!(after
        .tables
        .iter()
        .all(|t| t.source == TableSourceKind::Memory));
}

#[test]
fn explicit_algorithms_are_one_phase_and_say_whether_they_are_optimal() {
    let tables = Tables::default();
    let run = |a: Algorithm, w: f64| {
        let options = SolveOptions {
            algorithm: a,
            heuristic: Some(HeuristicSpec::Manhattan),
            weight: w,
            optimal: false,
            ..SolveOptions::default()
        };
        plan(&goal("3x3"), &options, &tables).unwrap()
    };
    assert!(run(Algorithm::AStar, 2.0).optimal);
    assert!(!run(Algorithm::Greedy, 2.0).optimal);
    assert!(!run(Algorithm::WeightedAStar, 2.0).optimal);
    assert!(run(Algorithm::WeightedAStar, 1.0).optimal);
    let bfs = run(Algorithm::Bfs, 2.0);
    assert_eq!(bfs.heuristic(), None);
    assert!(bfs.optimal);
}

#[test]
fn the_plan_serialises_with_names() {
    let p = auto("4x4", &Tables::default());
    let v = serde_json::to_value(&p).unwrap();
    assert_eq!(v["shape"], "4x4");
    assert_eq!(v["phases"][0]["algorithm"], "idastar");
    assert_eq!(v["phases"][0]["heuristic"], "pdb:6-6-3");
    assert_eq!(v["phases"][0]["kind"], "anytime");
}

#[test]
fn phase_names_are_the_json_names_and_read_back() {
    for kind in [
        PhaseKind::Search,
        PhaseKind::Optimal,
        PhaseKind::Anytime,
        PhaseKind::Constructive,
    ] {
        let json = serde_json::to_string(&kind).unwrap();
        assert_eq!(json, format!("\"{}\"", kind.name()));
        assert_eq!(PhaseKind::from_name(kind.name()), Some(kind));
    }
    assert_eq!(PhaseKind::from_name("Optimal"), None);
}

#[test]
fn a_6x6_plan_ranks_its_beams_with_the_shifted_tables_when_the_policy_lets_it_build_them() {
    let g = goal("6x6");
    let puzzle = Puzzle::new(&g).unwrap();
    let shifted = Partition::shifted(g.shape(), g.blank()).unwrap();
    let named = |p: &Plan, key: &crate::heuristic::pdb::TableKey| {
        let cells: Vec<String> = key.cells.iter().map(u8::to_string).collect();
        let name = format!("pattern 6x6 cells {}", cells.join(","));
        p.tables.iter().any(|t| t.name == name)
    };
    let p = auto("6x6", &Tables::default());
    let phase = &p.phases[0];
    let learned = BeamRanking::Learned(Inner::ShiftedTables);
    assert_eq!(phase.beam_ranking, Some(learned));
    assert_eq!(phase.ranking_partition(&puzzle), Some(shifted.clone()));
    assert!(shifted.keys().iter().all(|k| named(&p, k)));
    assert!(
        p.to_string()
            .contains("ranked by linear-conflict+tables+shifted+learned"),
        "{p}"
    );
    // 11.3 million entries for the bound's tables fit 15 million; 8.6 million more do not.
    let tight = Tables::new(
        None,
        TablePolicy {
            max_build_entries: 15_000_000,
            ..TablePolicy::default()
        },
    );
    let p = auto("6x6", &tight);
    assert_eq!(p.heuristic().unwrap().to_string(), "pdb:4-4-4-4-4-4-4-4-3");
    assert_eq!(p.phases[0].beam_ranking, Some(BeamRanking::WithTables));
    assert_eq!(p.phases[0].ranking_partition(&puzzle), None);
    assert!(!shifted.keys().iter().any(|k| named(&p, k)));
    // Other shapes: linear conflict, or no beams below 26 cells (the 5×5's plan named a
    // ranking, and --explain beams, that never ran); other phases: no beams.
    assert_eq!(auto("5x5", &Tables::default()).phases[0].beam_ranking, None);
    assert_eq!(auto("2x7", &Tables::default()).phases[0].beam_ranking, None);
    assert_eq!(
        auto("7x7", &Tables::default()).phases[0].beam_ranking,
        Some(BeamRanking::LinearConflict)
    );
    assert_eq!(auto("3x3", &Tables::default()).phases[0].beam_ranking, None);
    let named_heuristic = SolveOptions {
        heuristic: Some("pdb".parse().unwrap()),
        ..SolveOptions::default()
    };
    let p = plan(&g, &named_heuristic, &Tables::default()).unwrap();
    assert_eq!(p.phases[0].beam_ranking, None);
}

/// The learned corrections rank a 6×6 plan's beams only over the tables they were fitted
/// with, and only for the goal they were fitted for.
#[test]
fn a_6x6_plan_corrects_its_ranking_by_a_network_fitted_with_its_tables() {
    let ranking = |goal: &Board, spec: &str| {
        let puzzle = Puzzle::new(goal).unwrap();
        let spec = HeuristicSpec::Pdb(spec.parse().unwrap());
        super::heuristic::beam_ranking(&spec, &puzzle, &Tables::default())
    };
    let standard = goal("6x6");
    assert_eq!(
        ranking(&standard, "5-5-5-5-5-5-5"),
        BeamRanking::Learned(Inner::Tables)
    );
    assert_eq!(
        ranking(&standard, "4-4-4-4-4-4-4-4-3"),
        BeamRanking::Learned(Inner::ShiftedTables)
    );
    // Tables the networks were not fitted with: the sum as it was.
    assert_eq!(ranking(&standard, "6-6-6-6-6-5"), BeamRanking::WithTables);
    let blank_first = GoalSpec::BlankFirst.board("6x6".parse().unwrap()).unwrap();
    assert_eq!(
        ranking(&blank_first, "5-5-5-5-5-5-5"),
        BeamRanking::WithTables
    );
    assert_eq!(
        ranking(&blank_first, "4-4-4-4-4-4-4-4-3"),
        BeamRanking::WithShiftedTables
    );
    assert_eq!(ranking(&goal("5x5"), "5-5-5-5-4"), BeamRanking::WithTables);
}

/// Where the plan chooses the heuristic, a memory limit its tables do not fit makes it
/// choose a weaker one, down to linear conflict, rather than stop: plain `solve` on a 5x5
/// board with `--memory-limit 100` and `6-6-6-6` cached said "memory" and answered nothing.
/// A heuristic the user named, or a proof, keeps its tables and stops instead.
#[test]
fn a_memory_limit_makes_the_plan_choose_tables_that_fit() {
    let tables = Tables::default();
    let g = goal("4x4");
    let mb = |n: u64| Limits {
        memory_bytes: Some(n << 20),
        ..Limits::default()
    };
    let roomy = plan_within(&g, &SolveOptions::default(), &tables, &mb(4096)).unwrap();
    assert_eq!(roomy, plan(&g, &SolveOptions::default(), &tables).unwrap());
    let Some(HeuristicSpec::Pdb(_)) = roomy.heuristic() else {
        panic!("{roomy}")
    };
    assert!(roomy.table_bytes() > 1 << 20);
    for options in [
        SolveOptions::default(),
        SolveOptions {
            algorithm: Algorithm::AStar,
            ..SolveOptions::default()
        },
    ] {
        let tight = plan_within(&g, &options, &tables, &mb(1)).unwrap();
        assert_eq!(tight.heuristic(), Some(&HeuristicSpec::LinearConflict));
        assert!(tight.tables.is_empty() && tight.fits(&mb(1)));
    }
    // Between the two: the strongest that fits.
    let limit = roomy.table_bytes().div_ceil(1 << 20);
    let just = plan_within(&g, &SolveOptions::default(), &tables, &mb(limit)).unwrap();
    assert_eq!(just.heuristic(), roomy.heuristic());
    for asked in [
        SolveOptions {
            heuristic: Some("pdb:6-6-3".parse().unwrap()),
            ..SolveOptions::default()
        },
        SolveOptions {
            optimal: true,
            ..SolveOptions::default()
        },
    ] {
        let kept = plan_within(&g, &asked, &tables, &mb(1)).unwrap();
        assert_eq!(kept, plan(&g, &asked, &tables).unwrap());
        assert!(!kept.fits(&mb(1)));
    }
}

/// With both kinds of table at hand, `pdb` and `auto` take the kind the shape prefers: the
/// classic tables on 2×4 (as on 6×6, whose ranking network was fitted to them), and with
/// only the tables that keep the blank's region at hand, those.
#[test]
fn at_hand_takes_the_kind_of_table_the_shape_prefers() {
    let tables = Tables::default();
    let puzzle = Puzzle::new(&goal("2x4")).unwrap();
    let sizes = crate::heuristic::pdb::candidates(puzzle.shape).remove(0);
    let blank = usize::from(puzzle.goal_cell[0]);
    let hold = |regions: bool| {
        let partition = Partition::new(puzzle.shape, blank, &sizes)
            .unwrap()
            .with_regions(regions)
            .unwrap();
        for key in partition.keys() {
            tables
                .pattern(&key, &mut crate::heuristic::pdb::keep_going)
                .unwrap();
        }
    };
    assert_eq!(at_hand(&puzzle, &tables), None);
    hold(true);
    assert_eq!(
        at_hand(&puzzle, &tables),
        Some(PartitionSpec::Regions(sizes.clone()))
    );
    hold(false);
    assert_eq!(
        at_hand(&puzzle, &tables),
        Some(PartitionSpec::Sizes(sizes.clone()))
    );
}

/// Where a time budget ends the run, the plan takes no tables it cannot expect to have
/// within [`TABLE_TIME_SHARE`] of it: plain `solve` on a 5x5 board with `--time-limit 0.5`
/// and an empty cache spent the half second building `5-5-5-5-4` and answered with the
/// constructive path, 180 moves where linear conflict alone finds 132. Tables in memory
/// cost nothing and are kept; a named heuristic, a proof, and a run that no budget ends
/// (16 cells and fewer) keep theirs whatever the time.
#[test]
fn a_short_budget_makes_the_plan_choose_tables_it_can_have_in_time() {
    let tables = Tables::default();
    let g = goal("4x5");
    // (The plans compared here differ in the time limit they were chosen for, and that
    // is all.)
    let untimed = |p: Plan| Plan {
        limits: Limits::default(),
        ..p
    };
    let within = |options: &SolveOptions, time: f64| {
        untimed(plan_within(&g, options, &tables, &seconds(time)).unwrap())
    };
    let roomy = plan(&g, &SolveOptions::default(), &tables).unwrap();
    assert!(roomy.builds_tables(), "{roomy}");
    let Some(HeuristicSpec::Pdb(_)) = roomy.heuristic() else {
        panic!("{roomy}")
    };
    let needs = roomy.table_seconds();
    assert!(needs > 0.0);
    // The default budget leaves them time.
    let unlimited = plan_within(&g, &SolveOptions::default(), &tables, &Limits::default());
    assert_eq!(unlimited.unwrap(), roomy);
    assert_eq!(
        within(&SolveOptions::default(), needs / TABLE_TIME_SHARE),
        roomy
    );
    let short = within(&SolveOptions::default(), 0.9 * needs / TABLE_TIME_SHARE);
    assert_eq!(
        short.heuristic(),
        Some(&HeuristicSpec::LinearConflict),
        "{short}"
    );
    assert!(short.tables.is_empty() && short.phases[0].budget.is_some());
    for asked in [
        SolveOptions {
            heuristic: roomy.heuristic().cloned(),
            ..SolveOptions::default()
        },
        SolveOptions {
            optimal: true,
            ..SolveOptions::default()
        },
    ] {
        let kept = within(&asked, 0.001);
        assert_eq!(kept, plan(&g, &asked, &tables).unwrap());
        assert!(!kept.tables.is_empty(), "{kept}");
    }
    let fifteen = goal("4x4");
    let proof =
        untimed(plan_within(&fifteen, &SolveOptions::default(), &tables, &seconds(0.001)).unwrap());
    assert_eq!(
        proof,
        plan(&fifteen, &SolveOptions::default(), &tables).unwrap()
    );
    assert!(proof.builds_tables(), "{proof}");
    // Built once, in memory, the tables cost no time and are taken at any budget.
    prepare(&roomy, &g, &tables, &mut crate::heuristic::pdb::keep_going).unwrap();
    let held = within(&SolveOptions::default(), 0.001);
    assert_eq!(held.heuristic(), roomy.heuristic(), "{held}");
    assert!(held
        .tables
        .iter()
        .all(|t| t.source == TableSourceKind::Memory));
}

/// A plan that passed over stronger tables for the caller's limits says which, and why, in
/// `--explain`'s text and JSON; one that did not says nothing.
#[test]
fn the_plan_names_the_tables_it_passed_over_and_why() {
    let tables = Tables::default();
    let g = goal("4x5");
    let roomy = plan(&g, &SolveOptions::default(), &tables).unwrap();
    assert!(roomy.passed_over.is_empty());
    assert!(!serde_json::to_value(&roomy)
        .unwrap()
        .as_object()
        .unwrap()
        .contains_key("passed_over"));
    let strongest = roomy.heuristic().unwrap().clone();
    let short = plan_within(&g, &SolveOptions::default(), &tables, &seconds(0.001)).unwrap();
    let [passed] = &short.passed_over[..] else {
        panic!("{short}")
    };
    assert_eq!(passed.heuristic, strongest);
    assert!(
        passed.why.ends_with("of the 0.001 s budget"),
        "{}",
        passed.why
    );
    assert!(short
        .to_string()
        .contains(&format!("Not {strongest}: {}.", passed.why)));
    let memory = Limits {
        memory_bytes: Some(1 << 20),
        ..Limits::default()
    };
    let tight = plan_within(&g, &SolveOptions::default(), &tables, &memory).unwrap();
    assert_eq!(tight.passed_over[0].heuristic, strongest);
    assert!(
        tight.passed_over[0]
            .why
            .ends_with("the memory limit of 1 MB"),
        "{tight:?}"
    );
    let json = serde_json::to_value(&tight).unwrap();
    assert_eq!(json["passed_over"][0]["heuristic"], strongest.to_string());
}

/// A budgeted `auto` plan whose cache lacks the tables a proof uses on its shape names
/// them, with the command that caches them (`--goal` when the goal's blank is not on the
/// last cell); nothing when no cache keeps what is built, when the run has no budget (16
/// cells and fewer), when a heuristic is named, or when the tables would not fit the
/// memory limit. (That the command's tables then end the note is `npuzzle-cli`'s `tests/planner.rs`.)
#[test]
fn a_budgeted_plan_names_the_stronger_tables_it_would_take_once_cached() {
    let dir = tempfile::tempdir().unwrap();
    let cached = Tables::new(Some(dir.path().to_path_buf()), TablePolicy::default());
    let p = auto("6x6", &cached);
    let s = p.stronger_tables.clone().expect("6x6 has stronger tables");
    assert_eq!(s.heuristic.to_string(), "pdb:5-5-5-5-5-5-5");
    assert_ne!(p.heuristic(), Some(&s.heuristic));
    assert_eq!(s.tables, 7);
    assert_eq!(s.bytes, 7 * (36 * 35 * 34 * 33 * 32_u64).div_ceil(2));
    assert_eq!(s.command, "npuzzle pdb build --size 6x6 --optimal");
    assert!(
        p.to_string().contains(&format!(
            "Stronger once cached: pdb:5-5-5-5-5-5-5 (7 tables, 158.3 MB, about {:.0} s to \
             build on one core); `npuzzle pdb build --size 6x6 --optimal` caches them.",
            s.seconds
        )),
        "{p}"
    );
    let json = serde_json::to_value(&p).unwrap();
    assert_eq!(json["stronger_tables"]["command"], s.command);
    assert_eq!(json["stronger_tables"]["heuristic"], "pdb:5-5-5-5-5-5-5");

    let five = "5x5".parse().unwrap();
    let first = GoalSpec::BlankFirst.board(five).unwrap();
    let p = plan(&first, &SolveOptions::default(), &cached).unwrap();
    let s = p.stronger_tables.expect("5x5 has stronger tables");
    assert_eq!(s.heuristic.to_string(), "pdb:6-6-6-6:regions");
    assert_eq!(
        s.command,
        "npuzzle pdb build --size 5x5 --goal blank-first --optimal"
    );
    // A goal with its blank where no named goal has it is spelt out.
    let mut tiles = first.tiles().to_vec();
    tiles.swap(0, 1);
    let odd = Board::new(five, tiles).unwrap();
    let p = plan(&odd, &SolveOptions::default(), &cached).unwrap();
    assert_eq!(
        p.stronger_tables.unwrap().command,
        format!("npuzzle pdb build --size 5x5 --goal \"{odd}\" --optimal")
    );

    assert_eq!(auto("6x6", &Tables::default()).stronger_tables, None);
    let unsaved = TablePolicy {
        save: false,
        ..TablePolicy::default()
    };
    let unsaved = Tables::new(Some(dir.path().to_path_buf()), unsaved);
    assert_eq!(auto("6x6", &unsaved).stronger_tables, None);
    assert_eq!(auto("4x4", &cached).stronger_tables, None);
    let named = SolveOptions {
        heuristic: Some(HeuristicSpec::LinearConflict),
        ..SolveOptions::default()
    };
    assert_eq!(
        plan(&goal("6x6"), &named, &cached).unwrap().stronger_tables,
        None
    );
    let memory = |mb: u64| Limits {
        memory_bytes: Some(mb << 20),
        ..Limits::default()
    };
    let within = |mb| plan_within(&goal("6x6"), &SolveOptions::default(), &cached, &memory(mb));
    assert_eq!(within(100).unwrap().stronger_tables, None);
    assert!(within(1000).unwrap().stronger_tables.is_some());
}

/// A budgeted run gives a late table up from the share of the budget the plan chose them
/// for (of the caller's limit, else the default budget); any other run at its limit. The
/// run then goes on with linear conflict, the plan of the weakest choice, naming
/// what it gave up.
#[test]
fn a_budgeted_run_gives_its_tables_a_share_of_the_budget_and_then_goes_on_without_them() {
    let tables = Tables::default();
    let g = goal("5x5");
    let budgeted = plan(&g, &SolveOptions::default(), &tables).unwrap();
    let phase = &budgeted.phases[0];
    let times = |clock: Option<TableClock>| clock.map(|c| (c.share, c.end));
    let share = |s: f64| {
        let budget = Duration::from_secs_f64(s);
        Some((
            budget.mul_f64(TABLE_TIME_SHARE),
            budget.mul_f64(TABLE_TIME_END),
        ))
    };
    assert_eq!(times(phase.table_clock(seconds(2.0).time)), share(2.0));
    assert_eq!(times(phase.table_clock(None)), share(AUTO_BUDGET_SECONDS));
    let given_up = budgeted.without_tables();
    let weakest = plan_within(&g, &SolveOptions::default(), &tables, &seconds(0.001)).unwrap();
    assert_eq!(given_up.phases, weakest.phases);
    assert!(given_up.tables.is_empty());
    let [passed] = &given_up.passed_over[..] else {
        panic!("{given_up}")
    };
    assert_eq!(Some(&passed.heuristic), budgeted.heuristic());
    assert!(given_up
        .to_string()
        .contains("its tables were not ready within 75% of the budget"));
    // A run no budget ends (16 cells, a named heuristic, a proof) waits for its tables.
    let named = SolveOptions {
        heuristic: budgeted.heuristic().cloned(),
        ..SolveOptions::default()
    };
    for p in [
        plan(&goal("4x4"), &SolveOptions::default(), &tables).unwrap(),
        plan(&g, &named, &tables).unwrap(),
    ] {
        let two = Duration::from_secs(2);
        assert_eq!(times(p.phases[0].table_clock(Some(two))), Some((two, two)));
        assert!(p.phases[0].table_clock(None).is_none());
        assert_eq!(p.without_tables(), p);
    }
}

/// A budgeted run's pruning automaton may take half its time; any other run's, all of it.
#[test]
fn a_budgeted_run_gives_its_pruning_automaton_half_its_time() {
    let tables = Tables::default();
    let two = Duration::from_secs(2);
    let budgeted = plan(&goal("5x5"), &SolveOptions::default(), &tables).unwrap();
    assert!(budgeted.phases[0].pruning.is_some());
    assert_eq!(
        budgeted.phases[0].pruning_time(Some(two)),
        Some(two.mul_f64(PRUNING_TIME_SHARE))
    );
    let proof = SolveOptions {
        optimal: true,
        ..SolveOptions::default()
    };
    let proof = plan(&goal("5x5"), &proof, &tables).unwrap();
    assert!(proof.phases[0].pruning.is_some());
    assert_eq!(proof.phases[0].pruning_time(Some(two)), Some(two));
    assert_eq!(proof.phases[0].pruning_time(None), None);
}

/// Tables fetched once for many runs (a batch's boards of one goal, a thread's share of
/// them) may take the share of all those runs' time: `npuzzle batch --time-limit 1` on
/// forty 5x5 boards with an empty cache planned for one board's second, passed over
/// `5-5-5-5-4` (about 1.3 s to build, once for all forty) and ran linear conflict on
/// every board. Their clock runs over all the runs too.
#[test]
fn tables_shared_by_many_runs_may_take_a_share_of_all_their_time() {
    let tables = Tables::default();
    let g = goal("4x5");
    let roomy = plan(&g, &SolveOptions::default(), &tables).unwrap();
    assert!(roomy.builds_tables(), "{roomy}");
    let time = 0.6 * roomy.table_seconds() / TABLE_TIME_SHARE;
    let limits = seconds(time);
    let runs = |n: usize| plan_for_runs(&g, &SolveOptions::default(), &tables, &limits, n);
    let alone = runs(1).unwrap();
    assert_eq!(
        alone,
        plan_within(&g, &SolveOptions::default(), &tables, &limits).unwrap()
    );
    assert_eq!(alone.heuristic(), Some(&HeuristicSpec::LinearConflict));
    let [passed] = &alone.passed_over[..] else {
        panic!("{alone}")
    };
    assert!(
        passed.why.ends_with(&format!("of the {time} s budget")),
        "{}",
        passed.why
    );
    // Two runs give the tables twice the time: just enough.
    let shared = runs(2).unwrap();
    assert_eq!(shared.heuristic(), roomy.heuristic(), "{shared}");
    assert_eq!(
        (shared.tables.clone(), shared.runs),
        (roomy.tables.clone(), 2)
    );
    let share = |s: f64| {
        let all = Duration::from_secs_f64(s);
        Some((all.mul_f64(TABLE_TIME_SHARE), all.mul_f64(TABLE_TIME_END)))
    };
    let times = |clock: Option<TableClock>| clock.map(|c| (c.share, c.end));
    assert_eq!(times(shared.table_clock(&limits)), share(2.0 * time));
    assert_eq!(
        times(shared.table_clock(&Limits::default())),
        share(2.0 * AUTO_BUDGET_SECONDS)
    );
    assert_eq!(
        times(alone.table_clock(&Limits::default())),
        share(AUTO_BUDGET_SECONDS)
    );
    // Too little even for three, and the words say whose budget it was.
    let few = plan_for_runs(
        &g,
        &SolveOptions::default(),
        &tables,
        &seconds(time / 4.0),
        3,
    );
    let few = few.unwrap();
    assert_eq!(few.heuristic(), Some(&HeuristicSpec::LinearConflict));
    assert!(
        few.passed_over[0]
            .why
            .ends_with("budget of the 3 runs they would serve"),
        "{}",
        few.passed_over[0].why
    );
    // A run no budget ends has a limit, not a budget: its tables' clock is the limit of
    // all the runs they serve.
    let fifteen = goal("4x4");
    let unbudgeted = plan_for_runs(&fifteen, &SolveOptions::default(), &tables, &limits, 4);
    let unbudgeted = unbudgeted.unwrap();
    let two = Duration::from_secs(2);
    assert_eq!(
        times(unbudgeted.table_clock(&seconds(2.0))),
        Some((4 * two, 4 * two))
    );
    assert!(unbudgeted.table_clock(&Limits::default()).is_none());
}

/// `--explain` names the anytime steps that run on the board and the budget the run gets.
/// Before, every board's plan listed the staged answer (from 65 cells), the beams and the
/// windows (from 26), and "10 s unless --time-limit says otherwise" under a time limit.
#[test]
fn the_anytime_plan_names_the_steps_that_run_and_the_budget() {
    let words = |shape: &str, limits: &Limits| {
        plan_within(
            &goal(shape),
            &SolveOptions::default(),
            &Tables::default(),
            limits,
        )
        .unwrap()
        .to_string()
    };
    let steps = ["staged answer", "beam searches", "long windows"];
    let has = |text: &str| steps.map(|s| text.contains(s));
    let small = words("2x7", &Limits::default());
    assert_eq!(has(&small), [false, false, false], "{small}");
    assert!(small.contains("until proved optimal"), "{small}");
    let timed = words("5x5", &seconds(0.5));
    assert_eq!(has(&timed), [false, false, false], "{timed}");
    assert!(timed.contains("; for 0.5 s (the time limit)"), "{timed}");
    let middle = words("6x6", &Limits::default());
    assert_eq!(has(&middle), [false, true, true], "{middle}");
    assert!(middle.contains("; for 10 s (the default"), "{middle}");
    let large = words("9x9", &seconds(30.0));
    assert_eq!(has(&large), [true, true, true], "{large}");
    assert!(large.contains("; for 30 s (the time limit)"), "{large}");
}

/// A time limit that is only a ceiling (a server's, for a request that set none) is no
/// budget: a budgeted run gets its default budget held to the ceiling (its tables' clock
/// and its words with it), and a run no budget ends proves at once, stopped by the ceiling.
#[test]
fn a_ceiling_holds_the_default_budget_and_is_not_one() {
    let tables = Tables::default();
    let ceiling = |s: f64| Limits {
        time_is_ceiling: true,
        ..seconds(s)
    };
    // Auto's plan for `shape` under `limits`.
    let auto_within = |shape: &str, limits: &Limits| {
        plan_within(&goal(shape), &SolveOptions::default(), &tables, limits).unwrap()
    };
    let budgeted = auto_within("5x5", &ceiling(60.0));
    let phase = &budgeted.phases[0];
    let default = Duration::from_secs_f64(AUTO_BUDGET_SECONDS);
    for (s, time) in [(60.0, default), (2.0, Duration::from_secs(2))] {
        let run = phase.run_limits(ceiling(s));
        assert_eq!((run.time, run.budget()), (Some(time), Some(time)), "{s}");
        assert_eq!(
            budgeted.table_clock(&ceiling(s)).map(|c| c.end),
            Some(time.mul_f64(TABLE_TIME_END))
        );
    }
    assert!(
        budgeted.to_string().contains("; for 10 s (the default"),
        "{budgeted}"
    );
    let held = auto_within("5x5", &ceiling(2.0)).to_string();
    assert!(
        held.contains("; for 2 s (the time limit; the default is 10 s)"),
        "{held}"
    );
    // A caller's budget stays the caller's, under a ceiling or not.
    assert_eq!(
        phase.run_limits(seconds(60.0)).time,
        Some(Duration::from_secs(60))
    );
    // Up to 16 cells no default budget: the ceiling stays a ceiling, and the words say
    // where the proof stops.
    let fifteen = auto_within("4x4", &ceiling(3.0));
    let run = fifteen.phases[0].run_limits(ceiling(3.0));
    assert_eq!(
        (run.time, run.budget()),
        (Some(Duration::from_secs(3)), None)
    );
    assert!(
        fifteen
            .to_string()
            .contains("until proved optimal or 3 s pass"),
        "{fifteen}"
    );
}

/// The anytime engine's proof looks ahead before each iteration, and the plan says so (its
/// JSON said `"lookahead": false` while cli.md, rightly, said it looks ahead); the exact
/// table walks straight down and needs none.
#[test]
fn the_anytime_plan_says_its_proof_looks_ahead() {
    let tables = Tables::default();
    for shape in ["3x4", "4x4", "5x5", "6x6"] {
        let p = plan(&goal(shape), &SolveOptions::default(), &tables).unwrap();
        assert_eq!(p.phases[0].kind, PhaseKind::Anytime, "{shape}");
        assert!(p.phases[0].lookahead, "{shape}");
    }
    let exact = plan(&goal("3x3"), &SolveOptions::default(), &tables).unwrap();
    assert!(!exact.phases[0].lookahead, "{exact}");
}
