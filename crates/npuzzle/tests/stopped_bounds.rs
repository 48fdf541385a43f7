//! A search that a limit stops reports the lower bound it proved: IDA*'s threshold (every
//! smaller one was searched in full), A*'s smallest `f`; never less than linear conflict's
//! value of the start, never more than the published optimal length.
//!
//! Before, a stopped IDA* or A* reported linear conflict's value alone: `solve --optimal
//! --time-limit 30` on a 24-puzzle whose IDA* had completed threshold 80 said 58.

mod common;

use npuzzle::heuristic::{Heuristic, LinearConflict};
use npuzzle::search::{Control, Limits, StopReason};
use npuzzle::{solve, Algorithm, HeuristicSpec, Puzzle, SolveOptions};

/// Linear conflict's whole-move value of a Korf instance.
fn linear_conflict(board: &npuzzle::Board) -> u64 {
    let puzzle = Puzzle::new(&common::korf_goal()).unwrap();
    let h = LinearConflict::new(&puzzle).estimate(&puzzle.encode(board));
    u64::from(npuzzle::heuristic::whole_moves(h))
}

#[test]
fn searches_stopped_by_a_limit_report_the_bound_they_proved() {
    let goal = common::korf_goal();
    let korf = common::instances("korf100-15puzzle.txt", "4x4");
    let runs = [
        (Algorithm::IdaStar, HeuristicSpec::Manhattan, 1, 3_000_000),
        (Algorithm::IdaStar, HeuristicSpec::Manhattan, 2, 3_000_000),
        (Algorithm::AStar, HeuristicSpec::Manhattan, 1, 200_000),
    ];
    for (algorithm, heuristic, threads, nodes) in runs {
        let mut above_linear_conflict = 0;
        for instance in &korf[..10] {
            let options = SolveOptions {
                algorithm,
                heuristic: Some(heuristic.clone()),
                ..SolveOptions::default()
            };
            let control = Control {
                limits: Limits {
                    nodes: Some(nodes),
                    ..Limits::default()
                },
                threads,
                ..Control::default()
            };
            let s = solve(&instance.board, &goal, &options, common::tables(), control).unwrap();
            let what = format!("{algorithm} on {threads} threads, Korf #{}", instance.index);
            if let Some(moves) = &s.moves {
                // Solved within the limit: then it is optimal, and its own bound.
                common::assert_replays(&instance.board, moves, &goal);
                assert_eq!(moves.len(), instance.optimal, "{what}");
                continue;
            }
            assert_eq!(s.stopped_by, Some(StopReason::Nodes), "{what}");
            let bound = s.lower_bound.expect("a stopped search has a bound");
            let lc = linear_conflict(&instance.board);
            assert!(bound >= lc, "{what}: {bound} below linear conflict's {lc}");
            assert!(
                bound <= instance.optimal as u64,
                "{what}: {bound} above the optimal {}",
                instance.optimal
            );
            // Moves come in pairs on a 4×4 board: a proved bound has the optimum's parity.
            assert_eq!(bound % 2, instance.optimal as u64 % 2, "{what}");
            if bound > lc {
                above_linear_conflict += 1;
            }
        }
        // What the search learnt shows: most of these instances need more than 3 million
        // Manhattan nodes, by which IDA* has passed linear conflict's value.
        assert!(
            above_linear_conflict >= 5,
            "{algorithm} on {threads} threads: only {above_linear_conflict} of 10 above linear conflict"
        );
    }
}
