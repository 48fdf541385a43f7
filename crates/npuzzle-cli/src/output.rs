//! Printing a solve as text or JSON.

use std::fmt::Write as _;

use npuzzle::report::{path_boards, SolveReport};
use npuzzle::search::TraceStep;
use npuzzle::{Board, Move, Solution, SolveError};

use crate::exit::Outcome;

/// The exit outcome of one solve.
pub fn outcome(result: &Result<Solution, SolveError>) -> Outcome {
    match result {
        Ok(s) if s.moves.is_some() => Outcome::Success,
        Ok(_) => Outcome::Limit,
        Err(SolveError::Unsolvable(_)) => Outcome::Unsolvable,
        Err(_) => Outcome::Invalid,
    }
}

/// The JSON line of one solve: the [`SolveReport`] schema, plus `trace` when asked for.
/// Errors that are not about solvability become `{"error": …}`.
pub fn json(
    start: &Board,
    goal: &Board,
    result: &Result<Solution, SolveError>,
    path: bool,
) -> String {
    let value = match SolveReport::new(start, goal, result, path) {
        Some(report) => {
            let mut v = serde_json::to_value(report).expect("a report serialises");
            if let Ok(s) = result {
                if !s.trace.is_empty() {
                    v["trace"] = serde_json::to_value(&s.trace).expect("a trace serialises");
                }
            }
            v
        }
        None => serde_json::json!({ "error": result.as_ref().err().map(|e| e.to_string()) }),
    };
    value.to_string()
}

/// A human-readable account of one solve.
pub fn text(
    start: &Board,
    goal: &Board,
    result: &Result<Solution, SolveError>,
    path: bool,
) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Board ({}):\n{}",
        start.shape(),
        indent(&start.to_grid())
    );
    let _ = writeln!(out, "Goal:\n{}", indent(&goal.to_grid()));
    let s = match result {
        Err(SolveError::Unsolvable(v)) => {
            let _ = writeln!(out, "Unsolvable: {}.", v.explanation());
            return out;
        }
        Err(e) => {
            let _ = writeln!(out, "Error: {e}");
            return out;
        }
        Ok(s) => s,
    };
    let _ = writeln!(out, "Solvable: {}.", s.verdict.explanation());
    let how = format!(
        "{} with {} ({})",
        s.algorithm,
        s.heuristic,
        if s.admissible {
            "admissible"
        } else {
            "not admissible"
        }
    );
    match &s.moves {
        Some(moves) => {
            let quality = if s.optimal {
                "optimal"
            } else {
                "not guaranteed optimal"
            };
            let _ = writeln!(out, "Solution: {} moves, {quality}, by {how}.", moves.len());
            let _ = writeln!(out, "Moves (blank): {}", Move::to_letters(moves));
            if path {
                out.push_str(&path_text(start, moves));
            }
        }
        None => {
            let why = s.stopped_by.map(|r| r.as_str()).unwrap_or("a");
            let _ = writeln!(
                out,
                "Stopped by the {why} limit before finding a solution ({how})."
            );
        }
    }
    let st = &s.stats;
    let _ = writeln!(
        out,
        "Expanded {}, generated {}, max open {}, {:.6} s.",
        st.expanded, st.generated, st.max_open, st.seconds
    );
    if !s.trace.is_empty() {
        out.push_str(&trace_text(&s.trace));
    }
    out
}

/// Numbered boards along the path.
fn path_text(start: &Board, moves: &[Move]) -> String {
    let mut out = String::new();
    let boards = path_boards(start, moves);
    for (i, tiles) in boards.iter().enumerate() {
        let b = Board::new(start.shape(), tiles.clone()).expect("boards along a path are valid");
        let label = match i.checked_sub(1).map(|j| moves[j]) {
            Some(m) => format!("Step {i} ({m}):"),
            None => "Step 0 (start):".to_string(),
        };
        let _ = writeln!(out, "\n{label}\n{}", indent(&b.to_grid()));
    }
    out
}

fn trace_text(trace: &[TraceStep]) -> String {
    let mut out = format!("\nExpansion order (first {}):\n", trace.len());
    for (i, t) in trace.iter().enumerate() {
        let parent = t.parent.map_or("-".to_string(), |p| format!("#{}", p + 1));
        let step = t.step.map_or("-".to_string(), |m| m.to_string());
        let tiles: Vec<String> = t.tiles.iter().map(u8::to_string).collect();
        let _ = writeln!(
            out,
            "#{:<4} parent {parent:<5} move {step} g={} h={} f={}  {}",
            i + 1,
            t.g,
            t.h,
            t.f,
            tiles.join(" ")
        );
    }
    out
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
