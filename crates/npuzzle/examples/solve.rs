//! The library in a few lines: plan, solve, replay.
//!
//! ```sh
//! cargo run --release -p npuzzle --example solve
//! ```

use npuzzle::search::Control;
use npuzzle::{plan, solve, Board, GoalSpec, SolveOptions, Tables};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The tables heuristics are built from: owned by the program, shared by its solves.
    let tables = Tables::default();
    let start = Board::parse("1 10 3 11 13 5 8/7 4 0 12 9 6 2", None)?;
    let goal = GoalSpec::Standard.board(start.shape())?;
    let options = SolveOptions::default(); // auto
                                           // What will run, decided once: algorithm, heuristic, tables and auto's phases.
    print!("{}", plan(&goal, &options, &tables)?);
    let solution = solve(&start, &goal, &options, &tables, Control::default())?;
    let moves = solution.moves.as_deref().expect("auto always answers");
    assert_eq!(start.replay(moves), Ok(goal));
    println!(
        "{} moves ({}), by {} with {} in phase {:?}: {}",
        moves.len(),
        if solution.optimal {
            "optimal"
        } else {
            "not proven optimal"
        },
        solution.algorithm,
        solution.heuristic_name(),
        solution.phase,
        npuzzle::Move::to_letters(moves)
    );
    Ok(())
}
