//! A node limit stops a search where the serial search stops, whatever the threads: the
//! same request gets the same answer from the command line (every core) as from the server
//! and Python (one thread). On two threads, whose counts include work past the goal that
//! the serial search does not do, a 4×4 proof of 409,257 nodes was "stopped by nodes" at
//! `--max-nodes 409257`, and one run in two at 418,000, reporting 409,257 nodes.

use npuzzle::search::Control;
use npuzzle::{generate, solve, Algorithm, GoalSpec, Limits, SolveOptions, Tables};

#[test]
fn a_node_limit_stops_a_search_on_threads_where_the_serial_search_stops() {
    let goal = GoalSpec::Standard.board("4x4".parse().unwrap()).unwrap();
    let tables = Tables::default();
    let mut rng = generate::rng(101);
    let options = SolveOptions {
        algorithm: Algorithm::IdaStar,
        heuristic: Some("manhattan".parse().unwrap()),
        ..SolveOptions::default()
    };
    let run = |start: &npuzzle::Board, threads: usize, nodes: Option<u64>| {
        let control = Control {
            threads,
            limits: Limits {
                nodes,
                ..Limits::default()
            },
            ..Control::default()
        };
        solve(start, &goal, &options, &tables, control).unwrap()
    };
    let mut checked = 0;
    while checked < 4 {
        let start = generate::random_walk(&goal, 60, &mut rng);
        let serial = run(&start, 1, None);
        let needed = serial.stats.generated;
        // Big enough that the search would go parallel (after its first iteration of
        // 131,072 nodes or more) and that the threads share several iterations.
        if needed < 2_000_000 {
            continue;
        }
        checked += 1;
        for limit in [needed, needed + 5_000, needed - 1, needed / 2] {
            let alone = run(&start, 1, Some(limit));
            let two = run(&start, 2, Some(limit));
            let what = format!("limit {limit} of {needed}");
            assert_eq!(two.moves, alone.moves, "{what}");
            assert_eq!(two.stopped_by, alone.stopped_by, "{what}");
            assert_eq!(
                (two.stats.generated, two.stats.expanded),
                (alone.stats.generated, alone.stats.expanded),
                "{what}"
            );
            // (Just below the count the serial search may still find the goal: it looks
            // at the limit as it takes up a state, and the goal is the last one generated.)
            if limit >= needed {
                assert!(two.moves.is_some(), "{what}");
            }
            if limit == needed / 2 {
                assert!(two.moves.is_none(), "{what}");
            }
            if let Some(moves) = &two.moves {
                assert_eq!(start.replay(moves).unwrap(), goal);
                assert_eq!(moves.len(), serial.moves.as_ref().unwrap().len());
            }
        }
    }
}
