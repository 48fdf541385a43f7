//! JSON of huge solutions, streamed: the moves (and with `--path`, every board) are written
//! straight from the solver's move list, never copied into a string first, so a 1000×1000
//! board's billions of moves live in memory once. The JSON written is the same as
//! `output::json` would build. (Text output always streams: `output::write_text`.)

use std::io::{self, Write};

use npuzzle::report::SolveReport;
use npuzzle::{Board, Move, Solution, SolveError};

/// Solutions with more moves than this are streamed.
pub const STREAM_MOVES: usize = 1 << 16;

/// `--path` over more tiles than this (boards × cells) gets a warning.
pub const WARN_PATH_TILES: u64 = 10_000_000;

/// Whether a result is large enough to stream: many moves, or (with `--path`) many tiles.
pub fn is_huge(start: &Board, result: &Result<Solution, SolveError>, path: bool) -> bool {
    let Ok(Some(len)) = result.as_ref().map(Solution::length) else {
        return false;
    };
    len > STREAM_MOVES || (path && path_tiles(start, len) > WARN_PATH_TILES)
}

fn path_tiles(start: &Board, len: usize) -> u64 {
    (len as u64 + 1) * start.shape().cells() as u64
}

/// Warns on standard error when `--path` will print a great many tiles.
pub fn warn_path(start: &Board, result: &Result<Solution, SolveError>) {
    if let Ok(Some(len)) = result.as_ref().map(Solution::length) {
        let tiles = path_tiles(start, len);
        if tiles > WARN_PATH_TILES {
            eprintln!(
                "warning: --path prints {} boards of {} tiles (about {} MB); it is streamed, \
                 but consider leaving --path out",
                len + 1,
                start.shape().cells(),
                tiles * 4 / 1_000_000
            );
        }
    }
}

/// The JSON line of a huge solve (the [`SolveReport`] schema, with `expected` appended
/// when given), streamed.
pub fn json(
    out: &mut impl Write,
    start: &Board,
    goal: &Board,
    mut result: Result<Solution, SolveError>,
    path: bool,
    expected: Option<usize>,
) -> io::Result<()> {
    let moves = result.as_mut().ok().and_then(|s| s.moves.take());
    let mut report =
        SolveReport::new(start, goal, &result, false).expect("only solvability results stream");
    const MOVES: &str = "\u{1}npuzzle-moves\u{1}";
    const PATH: &str = "\u{1}npuzzle-path\u{1}";
    if let Some(m) = &moves {
        report.length = Some(m.len());
        report.moves = Some(MOVES.to_string());
    }
    let mut v = serde_json::to_value(report).expect("a report serialises");
    if path && moves.is_some() {
        v["path"] = serde_json::Value::String(PATH.to_string());
    }
    if let Ok(s) = &result {
        if !s.trace.is_empty() {
            v["trace"] = serde_json::to_value(&s.trace).expect("a trace serialises");
        }
    }
    let mut text = v.to_string();
    if let Some(e) = expected {
        text.pop();
        text.push_str(&format!(",\"expected\":{e}}}"));
    }
    let quoted = |s: &str| serde_json::to_string(s).expect("a string serialises");
    let (moves_mark, path_mark) = (quoted(MOVES), quoted(PATH));
    // Write the text, replacing each placeholder (in whichever order they appear).
    let mut rest = text.as_str();
    loop {
        let next = [(&moves_mark, true), (&path_mark, false)]
            .into_iter()
            .filter_map(|(mark, is_moves)| rest.find(mark.as_str()).map(|i| (i, mark, is_moves)))
            .min_by_key(|&(i, _, _)| i);
        let Some((i, mark, is_moves)) = next else {
            break;
        };
        out.write_all(&rest.as_bytes()[..i])?;
        let moves = moves.as_deref().unwrap_or(&[]);
        if is_moves {
            out.write_all(b"\"")?;
            crate::output::write_moves(out, moves)?;
            out.write_all(b"\"")?;
        } else {
            write_path_json(out, start, moves)?;
        }
        rest = &rest[i + mark.len()..];
    }
    out.write_all(rest.as_bytes())?;
    out.write_all(b"\n")
}

/// `[[tiles…],[tiles…],…]`, one board a step, like `serde_json` writes `Vec<Vec<u32>>`.
fn write_path_json(out: &mut impl Write, start: &Board, moves: &[Move]) -> io::Result<()> {
    let mut board = start.clone();
    out.write_all(b"[")?;
    let mut line = String::new();
    for i in 0..=moves.len() {
        if i > 0 {
            board.apply(moves[i - 1]);
            out.write_all(b",")?;
        }
        line.clear();
        line.push('[');
        for (j, t) in board.tiles().iter().enumerate() {
            if j > 0 {
                line.push(',');
            }
            line.push_str(&t.to_string());
        }
        line.push(']');
        out.write_all(line.as_bytes())?;
    }
    out.write_all(b"]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::search::Control;
    use npuzzle::{solve, GoalSpec, SolveOptions};

    /// The streamed JSON is byte for byte what `output::json` builds, with and without the
    /// path and an expected length, for solved and unsolvable boards.
    #[test]
    fn streamed_json_matches_the_report() {
        for (board, algorithm) in [
            ("7 2 6/8 1 4/3 5 0", "auto"),
            ("8 6 7/2 5 4/3 0 1", "constructive"),
            ("1 2 3/4 5 6/8 7 0", "auto"),
        ] {
            let start = Board::parse(board, None).unwrap();
            let goal = GoalSpec::Standard.board(start.shape()).unwrap();
            let options = SolveOptions {
                algorithm: algorithm.parse().unwrap(),
                ..SolveOptions::default()
            };
            let result = solve(
                &start,
                &goal,
                &options,
                &npuzzle::Tables::default(),
                Control::default(),
            )
            .map(|mut s| {
                s.stats.seconds = 0.25;
                s
            });
            for path in [false, true] {
                for expected in [None, Some(31)] {
                    let mut want = crate::output::json(&start, &goal, &result, path);
                    if let Some(e) = expected {
                        want.pop();
                        want.push_str(&format!(",\"expected\":{e}}}"));
                    }
                    want.push('\n');
                    let mut got = Vec::new();
                    json(&mut got, &start, &goal, result.clone(), path, expected).unwrap();
                    assert_eq!(String::from_utf8(got).unwrap(), want);
                }
            }
        }
    }
}
