//! Korf's 100 15-puzzle instances: optimal lengths and exact IDA* node counts.

mod common;

use common::{assert_replays, ida_nodes, instances, korf_goal};
use npuzzle::heuristic::{LinearConflict, Manhattan};
use npuzzle::search::{idastar, Control};
use npuzzle::Puzzle;

/// Instances whose IDA* + linear conflict search is small enough for the default test run.
const EASY_LC_NODES: u64 = 3_000_000;

fn check_lc(filter: impl Fn(u64) -> bool) -> usize {
    let goal = korf_goal();
    let puzzle = Puzzle::new(&goal).unwrap();
    let counts = ida_nodes();
    let mut checked = 0;
    for inst in instances("korf100-15puzzle.txt", "4x4") {
        let row = counts[inst.index - 1];
        if !filter(row[5]) {
            continue;
        }
        let tiles = puzzle.encode(&inst.board);
        let out = idastar(
            &puzzle,
            &tiles,
            LinearConflict::new(&puzzle),
            Control::default(),
        );
        let moves = out.moves.expect("no limits");
        assert_eq!(moves.len(), inst.optimal, "instance {}", inst.index);
        assert_replays(&inst.board, &moves, &goal);
        assert_eq!(
            out.stats.generated, row[5],
            "LC generated nodes, instance {}",
            inst.index
        );
        checked += 1;
    }
    checked
}

#[test]
fn easy_instances_with_linear_conflict_are_optimal_with_exact_node_counts() {
    let checked = check_lc(|nodes| nodes <= EASY_LC_NODES);
    assert!(checked >= 20, "only {checked} easy instances");
}

#[test]
fn manhattan_node_counts_match_on_small_instances() {
    let goal = korf_goal();
    let puzzle = Puzzle::new(&goal).unwrap();
    let counts = ida_nodes();
    let mut checked = 0;
    for inst in instances("korf100-15puzzle.txt", "4x4") {
        let row = counts[inst.index - 1];
        if row[3] > 20_000_000 {
            continue;
        }
        let tiles = puzzle.encode(&inst.board);
        let mut h = Manhattan::new(&puzzle);
        assert_eq!(
            u64::from(npuzzle::heuristic::IncrementalHeuristic::init(
                &mut h, &tiles
            )),
            row[2]
        );
        let out = idastar(&puzzle, &tiles, h, Control::default());
        let moves = out.moves.expect("no limits");
        assert_eq!(moves.len(), inst.optimal, "instance {}", inst.index);
        assert_replays(&inst.board, &moves, &goal);
        assert_eq!(
            out.stats.generated, row[3],
            "MD generated nodes, instance {}",
            inst.index
        );
        checked += 1;
    }
    assert!(checked >= 5);
}

#[test]
#[ignore = "slow: all 100 instances with IDA* + linear conflict (about 4 billion nodes)"]
fn all_100_with_linear_conflict() {
    assert_eq!(check_lc(|_| true), 100);
}
