//! Printing a solve as text or JSON.

use std::io::{self, Write};

use npuzzle::plan::PhaseKind;
use npuzzle::{Algorithm, Board, Move, Solution, SolveError, StopReason};

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

/// A human-readable account of one solve.
pub fn text(
    start: &Board,
    goal: &Board,
    result: &Result<Solution, SolveError>,
    path: bool,
) -> String {
    let mut out = Vec::new();
    write_text(&mut out, start, goal, result, path).expect("writing to memory cannot fail");
    String::from_utf8(out).expect("the text is UTF-8")
}

/// [`text`], written as it goes: the moves and the boards of `--path` are streamed, never
/// held in a string, so a huge board's solution is in memory only once.
pub fn write_text(
    out: &mut impl Write,
    start: &Board,
    goal: &Board,
    result: &Result<Solution, SolveError>,
    path: bool,
) -> io::Result<()> {
    writeln!(
        out,
        "Board ({}):\n{}",
        start.shape(),
        indent(&start.to_grid())
    )?;
    writeln!(out, "Goal:\n{}", indent(&goal.to_grid()))?;
    let s = match result {
        Err(SolveError::Unsolvable(v)) => {
            return writeln!(out, "Unsolvable: {}.", v.explanation());
        }
        Err(e) => {
            return writeln!(out, "Error: {e}");
        }
        Ok(s) => s,
    };
    writeln!(out, "Solvable: {}.", s.verdict.explanation())?;
    let how = if s.algorithm == Algorithm::Constructive {
        "constructive (rows and columns, then a search on the last corner)".to_string()
    } else {
        format!(
            "{} with {} ({})",
            s.algorithm,
            s.heuristic_name(),
            if s.admissible {
                "admissible"
            } else {
                "not admissible"
            }
        )
    };
    match &s.moves {
        Some(moves) => {
            let quality = if s.optimal {
                "optimal"
            } else {
                "not guaranteed optimal"
            };
            let count = moves.len();
            let noun = if count == 1 { "move" } else { "moves" };
            writeln!(out, "Solution: {count} {noun}, {quality}, by {how}.")?;
            if let (false, Some(lower)) = (s.optimal, s.lower_bound) {
                let kind = if s.phase == PhaseKind::Anytime {
                    format!("proven by {} and IDA*", s.heuristic_name())
                } else if s.stopped_by.is_some() {
                    // A proof a limit stopped while it held a path: IDA*'s last threshold.
                    "proven so far".to_string()
                } else if start.shape().cells() > npuzzle::puzzle::MAX_SEARCH_CELLS {
                    "Manhattan distance".to_string()
                } else {
                    "linear conflict".to_string()
                };
                match s.bound_factor {
                    Some(f) => writeln!(
                        out,
                        "Lower bound: {lower} moves ({kind}); this path is at most {f:.3} x optimal."
                    )?,
                    None => writeln!(out, "Lower bound: {lower} moves ({kind}).")?,
                }
            }
            write_improvements(out, s)?;
            if let (false, true, Some(why)) = (s.optimal, s.improvements.is_empty(), s.stopped_by) {
                writeln!(
                    out,
                    "Stopped by {} before proving it shortest.",
                    why.cause()
                )?;
            }
            out.write_all(b"Moves (blank): ")?;
            write_moves(out, moves)?;
            out.write_all(b"\n")?;
            if path {
                write_path_text(out, start, moves)?;
            }
        }
        None if s.stopped_by == Some(npuzzle::StopReason::Interrupted) => {
            writeln!(
                out,
                "Interrupted (Ctrl-C) before finding a solution ({how}); statistics so far:"
            )?;
        }
        None if s.stopped_by == Some(npuzzle::StopReason::Width) => {
            writeln!(
                out,
                "Stopped by the width limit: the beam lost its way before finding a solution \
                 ({how}); a wider beam (--width) may find one."
            )?;
        }
        None => {
            let why = s.stopped_by.map_or("a limit", StopReason::cause);
            writeln!(out, "Stopped by {why} before finding a solution ({how}).")?;
            if let Some(lower) = s.lower_bound {
                writeln!(out, "Lower bound: {lower} moves (proven so far).")?;
            }
        }
    }
    let st = &s.stats;
    writeln!(
        out,
        "Expanded {}, generated {}, max open {}, {:.6} s.",
        st.expanded, st.generated, st.max_open, st.seconds
    )?;
    if !s.trace.is_empty() {
        out.write_all(crate::trace::text(&s.trace, start.shape(), st.expanded).as_bytes())?;
    }
    Ok(())
}

/// The anytime engine's improvements in one line, and what ended its run when the answer
/// is not proved optimal.
fn write_improvements(out: &mut impl Write, s: &Solution) -> io::Result<()> {
    if s.improvements.is_empty() {
        return Ok(());
    }
    let steps: Vec<String> = s
        .improvements
        .iter()
        .map(|i| {
            let len = i.length.map_or("-".to_string(), |l| l.to_string());
            format!("{len} ≥ {} ({}, {:.2} s)", i.lower_bound, i.by, i.seconds)
        })
        .collect();
    writeln!(out, "Improvements (length ≥ bound): {}.", steps.join(", "))?;
    if !s.optimal {
        if let Some(why) = s.stopped_by {
            // The budget's option is named only when the budget stopped it.
            let budget = match why {
                StopReason::Time => " (--time-limit sets the budget)",
                _ => "",
            };
            writeln!(
                out,
                "Stopped by {} before the bound met the length{budget}.",
                why.cause()
            )?;
        }
    }
    Ok(())
}

/// Moves as letters, written in blocks.
pub fn write_moves(out: &mut impl Write, moves: &[Move]) -> io::Result<()> {
    let mut buf = Vec::with_capacity(1 << 16);
    for chunk in moves.chunks(1 << 16) {
        buf.clear();
        buf.extend(chunk.iter().map(|m| m.letter() as u8));
        out.write_all(&buf)?;
    }
    Ok(())
}

/// Numbered boards along the path, one at a time.
fn write_path_text(out: &mut impl Write, start: &Board, moves: &[Move]) -> io::Result<()> {
    let mut board = start.clone();
    for i in 0..=moves.len() {
        let label = match i.checked_sub(1).map(|j| moves[j]) {
            Some(m) => {
                board.apply(m);
                format!("Step {i} ({m}):")
            }
            None => "Step 0 (start):".to_string(),
        };
        writeln!(out, "\n{label}\n{}", indent(&board.to_grid()))?;
    }
    Ok(())
}

fn indent(s: &str) -> String {
    s.lines()
        .map(|l| format!("  {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// "s" unless `n` is 1: the plural ending of a noun counted `n` times.
pub fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// "1 move", "2 moves": `n` and the noun `what`, plural unless `n` is 1.
pub fn count(n: usize, what: &str) -> String {
    format!("{n} {what}{}", plural(n))
}
