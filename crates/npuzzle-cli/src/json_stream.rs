//! The JSON of a solve, streamed through serde: the moves (and with `--path`, every board)
//! are written straight from the solver's move list, never copied into a string first, so a
//! 1000×1000 board's billions of moves live in memory once. The object is the same as
//! `output::json` builds. (Text output always streams: `output::write_text`.)

use std::io::{self, Write};

use npuzzle::report::SolveReport;
use npuzzle::{Board, Move, Solution, SolveError};
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde::Serialize;

/// `--path` over more tiles than this (boards × cells) gets a warning.
pub const WARN_PATH_TILES: u64 = 10_000_000;

fn path_tiles(start: &Board, len: usize) -> u64 {
    (len as u64 + 1) * start.shape().cells() as u64
}

/// Warns on standard error when `--path` will print a great many tiles.
pub fn warn_path(start: &Board, result: &Result<Solution, SolveError>) {
    if let Ok(Some(len)) = result.as_ref().map(Solution::length) {
        let tiles = path_tiles(start, len);
        if tiles > WARN_PATH_TILES {
            crate::errln!(
                "warning: --path prints {} boards of {} tiles (about {} MB); it is streamed, \
                 but consider leaving --path out",
                len + 1,
                start.shape().cells(),
                tiles * 4 / 1_000_000
            );
        }
    }
}

/// The `solve --json` line of a solve (the [`SolveReport`] schema, plus `trace` when
/// recorded, and `expected` with `matches_expected` when the input gave a length), written through serde. The moves
/// and (with `--path`) every board are serialised lazily from the solver's move list, so a
/// huge solution is never copied into a string or a JSON value.
pub fn json(
    out: &mut impl Write,
    start: &Board,
    goal: &Board,
    mut result: Result<Solution, SolveError>,
    path: bool,
    expected: Option<(usize, Option<bool>)>,
) -> io::Result<()> {
    let moves = result.as_mut().ok().and_then(|s| s.moves.take());
    let Some(report) = SolveReport::new(start, goal, &result, false) else {
        let error = result.as_ref().err().map(ToString::to_string);
        serde_json::to_writer(&mut *out, &serde_json::json!({ "error": error }))?;
        return out.write_all(b"\n");
    };
    let serde_json::Value::Object(mut fields) =
        serde_json::to_value(report).expect("a report serialises")
    else {
        unreachable!("a report is an object")
    };
    if let Some(m) = &moves {
        fields.insert("length".into(), m.len().into());
    }
    if let Ok(s) = &result {
        if !s.trace.is_empty() {
            fields.insert(
                "trace".into(),
                serde_json::to_value(&s.trace).expect("a trace serialises"),
            );
        }
    }
    if let Some((e, matches)) = expected {
        fields.insert("expected".into(), e.into());
        fields.insert("matches_expected".into(), matches.into());
    }
    if path && moves.is_some() {
        // A place for the lazy path, in the object's key order.
        fields.insert("path".into(), serde_json::Value::Null);
    }
    let line = Line {
        fields: &fields,
        start,
        moves: moves.as_deref(),
    };
    serde_json::to_writer(&mut *out, &line)?;
    out.write_all(b"\n")
}

/// A report's fields with `moves` and `path` written from the move list as they go.
struct Line<'a> {
    fields: &'a serde_json::Map<String, serde_json::Value>,
    start: &'a Board,
    moves: Option<&'a [Move]>,
}

impl Serialize for Line<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.fields.len()))?;
        for (key, value) in self.fields {
            match (key.as_str(), self.moves) {
                ("moves", Some(moves)) => map.serialize_entry(key, &Letters(moves))?,
                ("path", Some(moves)) => map.serialize_entry(
                    key,
                    &Path {
                        start: self.start,
                        moves,
                    },
                )?,
                _ => map.serialize_entry(key, value)?,
            }
        }
        map.end()
    }
}

/// Moves as a string of letters, written straight to the serialiser.
struct Letters<'a>(&'a [Move]);

impl Serialize for Letters<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl std::fmt::Display for Letters<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut buf = String::with_capacity(1 << 16);
        for chunk in self.0.chunks(1 << 16) {
            buf.clear();
            buf.extend(chunk.iter().map(|m| m.letter()));
            f.write_str(&buf)?;
        }
        Ok(())
    }
}

/// Every board along a path, one at a time.
struct Path<'a> {
    start: &'a Board,
    moves: &'a [Move],
}

impl Serialize for Path<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(self.moves.len() + 1))?;
        let mut board = self.start.clone();
        seq.serialize_element(board.tiles())?;
        for &m in self.moves {
            board.apply(m);
            seq.serialize_element(board.tiles())?;
        }
        seq.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use npuzzle::search::Control;
    use npuzzle::{solve, GoalSpec, SolveOptions};

    /// The JSON line of one solve: the [`SolveReport`] schema, plus `trace` when asked for.
    /// Errors that are not about solvability become `{"error": …}`.
    fn reference_json(
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

    /// The streamed JSON is the object `output::json` builds, with and without the path and
    /// an expected length, for solved and unsolvable boards, on one line.
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
                for expected in [None, Some((31, Some(false))), Some((22, None))] {
                    let report = reference_json(&start, &goal, &result, path);
                    let mut want: serde_json::Value = serde_json::from_str(&report).unwrap();
                    if let Some((e, matches)) = expected {
                        want["expected"] = e.into();
                        want["matches_expected"] = matches.into();
                    }
                    let mut got = Vec::new();
                    json(&mut got, &start, &goal, result.clone(), path, expected).unwrap();
                    let text = String::from_utf8(got).unwrap();
                    assert_eq!(text.lines().count(), 1);
                    assert!(text.ends_with('\n'));
                    let got: serde_json::Value = serde_json::from_str(&text).unwrap();
                    assert_eq!(got, want);
                }
            }
        }
    }
}
