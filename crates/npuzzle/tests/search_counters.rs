//! The counters behind the AIMA-style report (`final_open`, `max_depth`) keep their
//! definitions on every algorithm.

use npuzzle::search::Control;
use npuzzle::{generate, solve, Algorithm, GoalSpec, SolveOptions, Tables};

#[test]
fn final_open_and_max_depth_keep_their_definitions() {
    let goal = GoalSpec::Standard.board("3x3".parse().unwrap()).unwrap();
    let mut rng = generate::rng(11);
    let tables = Tables::default();
    for _ in 0..20 {
        let start = generate::random_walk(&goal, 18, &mut rng);
        for algorithm in [Algorithm::Bfs, Algorithm::AStar, Algorithm::IdaStar] {
            let options = SolveOptions {
                algorithm,
                heuristic: Some("manhattan".parse().unwrap()),
                ..SolveOptions::default()
            };
            let s = solve(&start, &goal, &options, &tables, Control::default()).unwrap();
            let moves = s.moves.clone().unwrap();
            assert_eq!(start.replay(&moves).unwrap(), goal);
            let len = moves.len() as u64;
            let st = s.stats;
            assert!(st.final_open <= st.max_open, "{algorithm}: {st:?}");
            if len > 0 {
                assert!(st.max_depth >= len, "{algorithm}: {st:?} for length {len}");
            }
            match algorithm {
                // IDA* ends on the path to the goal; its deepest state is a child of the
                // deepest path.
                Algorithm::IdaStar => {
                    assert_eq!(st.final_open, len, "{st:?}");
                    assert_eq!(st.max_depth, st.max_open, "{st:?}");
                }
                // BFS stops when it generates the goal, the deepest state it ever makes.
                Algorithm::Bfs => assert_eq!(st.max_depth, len, "{st:?}"),
                _ => assert!(st.max_depth <= len + 1, "{st:?}"),
            }
        }
    }
}
