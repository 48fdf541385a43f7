//! The order in which a search expanded its states (`--trace N`), as the classroom's console
//! program prints it: small boards side by side, each with its `g`, `h` and `f`, and for
//! IDA* a heading wherever it starts again from the start at a higher bound.

use std::fmt::Write as _;

use clap::ValueEnum;
use npuzzle::search::TraceStep;
use npuzzle::Shape;

/// How `--trace` prints the expansions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum TraceFormat {
    /// Boards side by side with g, h, f (and IDA*'s iteration and bound).
    #[default]
    Text,
    /// One JSON object per expansion, one per line.
    Json,
}

/// What `--trace` prints when the anytime engine answered: it runs many searches, one
/// after another and some at once, and records none of their expansions.
pub const NOT_RECORDED: &str = "Expansion order: not recorded. The anytime engine (plain solve \
on 11 cells or more) runs many searches; name one to trace it (-a idastar, -a astar, …).";

/// The widest a row of boards gets, in characters.
const WIDTH: usize = 100;
/// Spaces between two boards.
const GAP: usize = 3;

/// The trace as text: a heading, then rows of boards.
pub fn text(trace: &[TraceStep], shape: Shape, expanded: u64) -> String {
    let mut out = String::new();
    let of = if (trace.len() as u64) < expanded {
        format!("first {} of {expanded}", trace.len())
    } else {
        format!("all {}", trace.len())
    };
    let _ = writeln!(out, "\nExpansion order ({of}):\n");
    // Runs of expansions that share an IDA* iteration (the whole trace for other searches).
    let mut start = 0;
    while start < trace.len() {
        let iteration = trace[start].iteration;
        let end = trace[start..]
            .iter()
            .position(|t| t.iteration != iteration)
            .map_or(trace.len(), |k| start + k);
        if let (Some(i), Some(b)) = (iteration, trace[start].bound) {
            let again = if i > 1 { ", from the start again" } else { "" };
            let _ = writeln!(out, "Iteration {i}, bound {b}{again}:");
        }
        rows(&mut out, &trace[start..end], start, shape);
        start = end;
    }
    out
}

/// Boards side by side, as many to a row as fit in [`WIDTH`]; `first` is the index of the
/// first one in the whole trace (the numbering is 1-based).
fn rows(out: &mut String, steps: &[TraceStep], first: usize, shape: Shape) {
    let digits = (shape.cells() - 1).to_string().len();
    let cols = shape.cols();
    let blocks: Vec<Vec<String>> = steps
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let mut lines = Vec::with_capacity(shape.rows() + 2);
            let from = match (t.parent, t.step) {
                (Some(p), Some(m)) => format!(" <#{} {}", p + 1, m.letter()),
                _ => String::new(),
            };
            lines.push(format!("#{}{from}", first + k + 1));
            for row in t.tiles.chunks(cols) {
                let cells: Vec<String> = row
                    .iter()
                    .map(|&v| match v {
                        0 => format!("{:>digits$}", "_"),
                        v => format!("{v:>digits$}"),
                    })
                    .collect();
                lines.push(cells.join(" "));
            }
            lines.push(format!("g{} h{} f{}", t.g, number(t.h), number(t.f)));
            lines
        })
        .collect();
    let width = blocks
        .iter()
        .flatten()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0);
    let per_row = ((WIDTH + GAP) / (width + GAP)).max(1);
    for chunk in blocks.chunks(per_row) {
        for line in 0..chunk[0].len() {
            let cells: Vec<String> = chunk
                .iter()
                .map(|b| format!("{:<width$}", b[line]))
                .collect();
            let _ = writeln!(out, "{}", cells.join(&" ".repeat(GAP)).trim_end());
        }
        out.push('\n');
    }
}

/// The trace as JSON lines: each step's fields and its index, counted from 0 as `parent`
/// is (the text's `#1` is index 0).
pub fn json_lines(trace: &[TraceStep]) -> String {
    let mut out = String::new();
    for (i, t) in trace.iter().enumerate() {
        let mut v = serde_json::to_value(t).expect("a trace step serialises");
        v["index"] = i.into();
        let _ = writeln!(out, "{v}");
    }
    out
}

/// A whole number without decimals, anything else with one.
fn number(x: f64) -> String {
    if x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::search::Control;
    use npuzzle::{solve, Algorithm, Board, GoalSpec, SolveOptions};

    fn traced(board: &str, algorithm: Algorithm, n: usize) -> (npuzzle::Solution, Shape) {
        let start = Board::parse(board, None).unwrap();
        let goal = GoalSpec::Standard.board(start.shape()).unwrap();
        let options = SolveOptions {
            algorithm,
            heuristic: Some("manhattan".parse().unwrap()),
            ..SolveOptions::default()
        };
        let control = Control {
            trace: n,
            ..Control::default()
        };
        (
            solve(&start, &goal, &options, &Default::default(), control).unwrap(),
            start.shape(),
        )
    }

    #[test]
    fn boards_side_by_side_with_g_h_f() {
        let (s, shape) = traced("0 1 3/4 2 5/7 8 6", Algorithm::AStar, 3);
        assert!(s.stats.expanded > 3);
        let text = text(&s.trace, shape, s.stats.expanded);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[1],
            format!("Expansion order (first 3 of {}):", s.stats.expanded)
        );
        // Three boards on one row: three labels, three first rows, three g/h/f lines.
        let labels = lines.iter().find(|l| l.starts_with("#1")).unwrap();
        assert_eq!(labels.matches('#').count(), 3 + 2, "{text}"); // #1, #2 <#1, #3 <#2 or <#1
        let first_rows = lines.iter().find(|l| l.starts_with("_ 1 3")).unwrap();
        assert_eq!(
            first_rows.split("   ").filter(|c| !c.is_empty()).count(),
            3,
            "{text}"
        );
        assert!(text.contains("#2 <#1 "), "{text}");
        assert!(text.contains("g0 h4 f4"), "{text}");
        assert!(!text.contains("Iteration"), "A* does not restart");
    }

    #[test]
    fn idastar_restarts_get_a_heading_with_the_new_bound() {
        let (s, shape) = traced("7 2 6/8 1 4/3 5 0", Algorithm::IdaStar, 2000);
        let text = text(&s.trace, shape, s.stats.expanded);
        let headings: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("Iteration"))
            .collect();
        assert!(headings.len() >= 2, "{text}");
        assert!(headings[1].ends_with("from the start again:"));
        let bounds: Vec<u32> = headings
            .iter()
            .map(|h| {
                h.split("bound ")
                    .nth(1)
                    .unwrap()
                    .split(|c: char| !c.is_ascii_digit())
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            })
            .collect();
        assert!(bounds.windows(2).all(|w| w[0] < w[1]), "{bounds:?}");
        let json = json_lines(&s.trace);
        let first: serde_json::Value = serde_json::from_str(json.lines().next().unwrap()).unwrap();
        assert_eq!(first["iteration"], 1);
        assert_eq!(first["bound"], u64::from(bounds[0]));
        assert_eq!(first["index"], 0);
    }
}
