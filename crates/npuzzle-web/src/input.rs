//! Reading requests: the JSON body, boards given as text or arrays, goals, heuristics,
//! algorithms and limits, each checked with a one-line error that names the problem.

use std::fmt;

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use npuzzle::{
    Algorithm, Board, Ceilings, Field, GoalSpec, HeuristicSpec, Limits, RawBoard, Shape,
    SolveOptions,
};
use serde::de::{self, DeserializeOwned, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

use crate::error::AppError;
use crate::{AppState, Config};

/// A JSON request body. Unlike `axum::Json` it accepts any content type (so a bare
/// `curl -d` works) and words its errors for people: malformed JSON, a wrong type, an unknown
/// field, an empty or oversized body.
pub struct JsonBody<T>(pub T);

impl<T: DeserializeOwned> FromRequest<AppState> for JsonBody<T> {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, AppError> {
        let limit = state.config().max_body_bytes;
        // One deadline for the whole body: a timeout that each frame restarts let a body
        // dripping a byte every 2 s hold its connection for good (27 s measured).
        let deadline = state.config().body_timeout;
        let read = tokio::time::timeout(deadline, Bytes::from_request(req, state));
        let bytes = read
            .await
            .map_err(|_| AppError::BodyTimeout(deadline))?
            .map_err(|e| {
                if e.status() == axum::http::StatusCode::PAYLOAD_TOO_LARGE {
                    AppError::PayloadTooLarge(limit)
                } else {
                    AppError::bad("could not read the request body")
                }
            })?;
        // Serde reads a struct from an array too, taking the elements as the fields in
        // order: a request with two fields swapped would be read as other options.
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
            return Err(AppError::bad(
                "invalid request: invalid type: array, expected a JSON object",
            ));
        }
        parse_json(&bytes).map(JsonBody)
    }
}

/// Parses a JSON body with errors worded for the client.
///
/// # Errors
/// A 400 for an empty body, malformed JSON or data of the wrong shape.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, AppError> {
    if bytes.iter().all(u8::is_ascii_whitespace) {
        return Err(AppError::bad(
            r#"request body is empty: expected a JSON object such as {"board": "1 2/3 0"}"#,
        ));
    }
    serde_json::from_slice(bytes).map_err(|e| match e.classify() {
        // Data of the wrong shape: the problem in words, without the parser's position
        // (the field is named), which a syntax error keeps.
        serde_json::error::Category::Data => {
            let text = e.to_string();
            let position = format!(" at line {} column {}", e.line(), e.column());
            let text = text.strip_suffix(&position).unwrap_or(&text);
            AppError::bad(format!("invalid request: {}", plain_words(text)))
        }
        _ => AppError::bad(format!("malformed JSON: {e}")),
    })
}

/// A query string that does not fit its fields (`max_nodes=abc`), in the words of a body
/// that does not.
pub fn query_error(e: &axum::extract::rejection::QueryRejection) -> AppError {
    let text = e.body_text();
    let text = text
        .strip_prefix("Failed to deserialize query string: ")
        .unwrap_or(&text);
    AppError::bad(format!("invalid query: {}", plain_words(text)))
}

/// A count in a request body (`max_nodes`, `width`): any whole JSON number, read as wide
/// as the core's checks take it, so that a count past 64 bits gets their words (the
/// largest allowed) rather than serde's "floating point 1.8e19". serde_json gives such a
/// number as a float, so past 2^53 the value in the message is the float's (`1e20` for
/// `99999999999999999999`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Count(pub i128);

impl<'de> Deserialize<'de> for Count {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Count, D::Error> {
        struct CountVisitor;
        impl Visitor<'_> for CountVisitor {
            type Value = Count;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a whole number")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Count, E> {
                Ok(Count(v.into()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Count, E> {
                Ok(Count(v.into()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Count, E> {
                // serde_json gives a whole number within 64 bits as an integer, so only one
                // past them is taken here: `5.0` is refused, as the command line refuses it.
                // Every float in that range is whole, and the cast is exact.
                const PAST_64_BITS: f64 = 9_223_372_036_854_775_808.0; // 2^63
                const PAST_128_BITS: f64 = 1.7e38;
                if v.fract() == 0.0 && (PAST_64_BITS..PAST_128_BITS).contains(&v.abs()) {
                    Ok(Count(v as i128))
                } else {
                    Err(E::invalid_type(de::Unexpected::Float(v), &self))
                }
            }
        }
        d.deserialize_any(CountVisitor)
    }
}

/// A [`Count`] in a query string (`max_nodes=18446744073709551616`), read from its text:
/// the query parser reads no 128-bit numbers.
pub fn query_count<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Count>, D::Error> {
    let Some(text) = Option::<String>::deserialize(d)? else {
        return Ok(None);
    };
    text.parse().map(|n| Some(Count(n))).map_err(|_| {
        de::Error::invalid_value(
            de::Unexpected::Str(&npuzzle::text::clip(&text)),
            &"a whole number",
        )
    })
}

/// Serde's message with the server's Rust types (`expected u64`, `expected struct
/// SolveRequest`) in a client's words: the server tells a client nothing about its
/// internals.
fn plain_words(message: &str) -> String {
    const WORDS: [(&str, &str); 5] = [
        ("expected u64", "expected a whole number, at least 0"),
        ("expected usize", "expected a whole number, at least 0"),
        ("expected i64", "expected a whole number"),
        ("expected f64", "expected a number"),
        ("expected a boolean", "expected true or false"),
    ];
    let mut out = message.to_string();
    for (rust, client) in WORDS {
        out = out.replace(rust, client);
    }
    // `expected struct SolveRequest`: the type's name goes.
    const STRUCT: &str = "expected struct ";
    if let Some(at) = out.find(STRUCT) {
        let rest = &out[at + STRUCT.len()..];
        let name = rest
            .find(|c: char| !c.is_alphanumeric())
            .unwrap_or(rest.len());
        let tail = rest[name..].to_string();
        out.replace_range(at.., &format!("expected a JSON object{tail}"));
    }
    out
}

/// A board as the client wrote it: text (`"7 2 6/8 1 4/3 5 0"`), a flat array of tile
/// numbers, or an array of rows.
#[derive(Clone, Debug, PartialEq)]
pub enum BoardInput {
    /// Text in any form `npuzzle` reads.
    Text(String),
    /// Tiles, with row lengths when rows were given as nested arrays.
    Tiles(RawBoard),
}

impl<'de> Deserialize<'de> for BoardInput {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<BoardInput, D::Error> {
        d.deserialize_any(BoardVisitor)
    }
}

struct BoardVisitor;

/// One element of a board array: a tile, or a row of tiles.
enum Cell {
    Tile(u64),
    Row(Vec<u64>),
}

/// A JSON number past `u64` arrives as a float: a whole one is a tile too large for any
/// board, in the words the text form of the same board gets; any other float is refused as
/// not a tile number.
fn float_tile<E: de::Error>(v: f64, expected: &dyn de::Expected) -> E {
    if v.fract() == 0.0 && v >= u64::MAX as f64 {
        E::custom(npuzzle::ParseBoardError::TileTooLarge(format!("{v:e}")))
    } else {
        E::invalid_type(de::Unexpected::Float(v), expected)
    }
}

/// A negative tile in a board array, in the words the text form of the same board gets.
fn negative_tile<E: de::Error>(v: i64) -> E {
    E::custom(npuzzle::ParseBoardError::InvalidToken(v.to_string()))
}

/// A tile number in a row of a board array.
struct TileNumber(u64);

impl<'de> Deserialize<'de> for TileNumber {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<TileNumber, D::Error> {
        struct TileVisitor;
        impl Visitor<'_> for TileVisitor {
            type Value = TileNumber;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a tile number (0 for the blank)")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<TileNumber, E> {
                Ok(TileNumber(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<TileNumber, E> {
                u64::try_from(v)
                    .map(TileNumber)
                    .map_err(|_| negative_tile(v))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<TileNumber, E> {
                Err(float_tile(v, &self))
            }
        }
        d.deserialize_any(TileVisitor)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Cell, D::Error> {
        struct CellVisitor;
        impl<'de> Visitor<'de> for CellVisitor {
            type Value = Cell;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a tile number (0 for the blank) or a row of tile numbers")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Cell, E> {
                Ok(Cell::Tile(v))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Cell, E> {
                u64::try_from(v)
                    .map(Cell::Tile)
                    .map_err(|_| negative_tile(v))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Cell, E> {
                Err(float_tile(v, &self))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Cell, A::Error> {
                let mut row = Vec::new();
                while let Some(TileNumber(t)) = seq.next_element()? {
                    row.push(t);
                }
                Ok(Cell::Row(row))
            }
        }
        d.deserialize_any(CellVisitor)
    }
}

impl<'de> Visitor<'de> for BoardVisitor {
    type Value = BoardInput;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str(r#"a board as text ("7 2 6/8 1 4/3 5 0") or an array of tile numbers"#)
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<BoardInput, E> {
        Ok(BoardInput::Text(v.to_string()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<BoardInput, A::Error> {
        let mut tiles = Vec::new();
        let mut rows = Vec::new();
        let mut flat = false;
        while let Some(cell) = seq.next_element::<Cell>()? {
            match cell {
                Cell::Tile(t) => {
                    flat = true;
                    tiles.push(t);
                }
                Cell::Row(r) => {
                    rows.push(r.len());
                    tiles.extend(r);
                }
            }
            if flat && !rows.is_empty() {
                return Err(de::Error::custom(
                    "a board array holds either tile numbers or rows, not both",
                ));
            }
        }
        Ok(BoardInput::Tiles(RawBoard { tiles, rows }))
    }
}

impl BoardInput {
    /// First parsing stage, as for text on the command line.
    fn raw(&self) -> Result<RawBoard, AppError> {
        match self {
            BoardInput::Text(t) => RawBoard::parse(t).map_err(AppError::bad),
            BoardInput::Tiles(raw) if raw.tiles.is_empty() => {
                Err(AppError::bad(npuzzle::ParseBoardError::Empty))
            }
            BoardInput::Tiles(raw) => Ok(raw.clone()),
        }
    }
}

/// A goal: a name (`standard`, `blank-first`, `spiral`) or a board, as text or array. It is
/// kept as any JSON value and read after the body ([`goal_spec`]), so that a bad one is
/// named `goal: …` as on the command line and in Python, not worded as a body of the wrong
/// shape.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(transparent)]
pub struct GoalInput(serde_json::Value);

impl GoalInput {
    /// A goal given as text (a query string's `goal=`), read as a body's would be.
    #[must_use]
    pub fn text(goal: String) -> GoalInput {
        GoalInput(serde_json::Value::String(goal))
    }
}

/// The goal a request names, the standard one when it names none.
///
/// # Errors
/// A 400 saying `goal: …` for a goal that is neither a name nor a board: the core's words
/// for text, the board array's for anything else.
pub fn goal_spec(goal: Option<&GoalInput>) -> Result<GoalSpec, AppError> {
    let Some(GoalInput(value)) = goal else {
        return Ok(GoalSpec::default());
    };
    match BoardInput::deserialize(value) {
        Ok(BoardInput::Text(t)) => t.parse().map_err(AppError::bad),
        // Arrays are a board already parsed: kept as tiles, never turned into text.
        Ok(BoardInput::Tiles(raw)) => Ok(GoalSpec::Explicit(raw)),
        Err(e) => Err(AppError::bad(format!(
            "goal: {}",
            plain_words(&e.to_string())
        ))),
    }
}

/// A start board resolved against its goal.
#[derive(Clone, Debug)]
pub struct Instance {
    /// The start.
    pub start: Board,
    /// The goal, same shape.
    pub goal: Board,
}

/// Parses `size` (`"3x3"`, `"4"`).
///
/// # Errors
/// A 400 naming the problem.
pub fn shape(size: Option<&str>) -> Result<Option<Shape>, AppError> {
    size.map(|s| s.parse::<Shape>().map_err(AppError::bad))
        .transpose()
}

/// Checks a shape against the server's largest board.
///
/// # Errors
/// A 400 when a side is longer than [`Config::max_side`].
pub fn check_shape(shape: Shape, config: &Config) -> Result<(), AppError> {
    if shape.rows() > config.max_side || shape.cols() > config.max_side {
        return Err(AppError::bad(format!(
            "board {shape} is larger than this server allows (at most {max}x{max})",
            max = config.max_side
        )));
    }
    Ok(())
}

/// The goal board for a shape; whether it is a custom one (none of the named goals).
///
/// # Errors
/// A 400 when an explicit goal is not a board of this shape.
pub fn goal(spec: &GoalSpec, shape: Shape) -> Result<(Board, bool), AppError> {
    let goal = spec.board(shape).map_err(AppError::bad)?;
    let custom = match spec {
        GoalSpec::Explicit(_) => !GoalSpec::NAMED
            .iter()
            .any(|named| named.board(shape).as_ref() == Ok(&goal)),
        _ => false,
    };
    Ok((goal, custom))
}

/// Parses the start board and resolves the goal.
///
/// # Errors
/// A 400 for a board or goal that is invalid or too large.
pub fn instance(
    board: &BoardInput,
    size: Option<&str>,
    goal_spec: Option<&GoalInput>,
    config: &Config,
) -> Result<Instance, AppError> {
    // The goal first, as the command line reads `--goal` before the board.
    let spec = self::goal_spec(goal_spec)?;
    let shape = shape(size)?;
    if let Some(s) = shape {
        check_shape(s, config)?;
    }
    let start = Board::from_raw(&board.raw()?, shape).map_err(AppError::bad)?;
    check_shape(start.shape(), config)?;
    let (goal, _) = goal(&spec, start.shape())?;
    Ok(Instance { start, goal })
}

/// Parses a heuristic name as every front end does ([`HeuristicSpec::parse_choice`]):
/// absent or `auto` mean the planner's choice.
///
/// # Errors
/// A 400 for an unknown name (an empty one too) or a malformed expression.
pub fn heuristic(name: Option<&str>) -> Result<Option<HeuristicSpec>, AppError> {
    name.map_or(Ok(None), |h| {
        HeuristicSpec::parse_choice(h).map_err(AppError::bad)
    })
}

/// Parses an algorithm name (`auto` when absent).
///
/// # Errors
/// A 400 for an unknown name.
pub fn algorithm(name: Option<&str>) -> Result<Algorithm, AppError> {
    name.map_or(Ok(Algorithm::Auto), |a| a.parse().map_err(AppError::bad))
}

/// The weight, beam width and limits of one request, checked by the core's
/// [`npuzzle::Request::check`] against the server's ceilings; a limit not given is the
/// server's own.
///
/// # Errors
/// A 400 with the core's message (the field spelled as in JSON) for a weight outside
/// 1..=1000000, a width outside 1..=100000000, or a limit that is not positive or is above
/// the server's.
pub fn request(
    config: &Config,
    options: SolveOptions,
    width: Option<Count>,
    time_limit: Option<f64>,
    max_nodes: Option<Count>,
) -> Result<(SolveOptions, Limits), AppError> {
    // The core's request (not axum's).
    let request = npuzzle::Request {
        options,
        time_limit,
        max_nodes: max_nodes.map(|n| n.0),
        // Clients do not choose the memory: the server's is the limit.
        memory_limit: None,
        width: width.map(|w| w.0),
    };
    let ceilings = Ceilings {
        time: config.time_limit,
        nodes: config.max_nodes,
        memory_mb: Ceilings::DEFAULT.memory_mb,
    };
    let (options, limits) = request
        .check(&ceilings)
        .map_err(|e| AppError::bad(e.message(Field::api_name)))?;
    // A time limit the request did not set is the server's ceiling, not a budget: `auto`
    // answers as the command line does with no `--time-limit` (its default budget, if any,
    // held to the ceiling), and the ceiling stops it. A node limit it did not set is none:
    // the time ceiling bounds the work, and the server's own node limit, a hard stop that
    // no plan knows of, ended 5x5 searches in 5 s, before their proof raised the bound.
    let limits = Limits {
        time: Some(limits.time.unwrap_or(config.time_limit)),
        nodes: limits.nodes,
        memory_bytes: Some(config.memory_bytes),
        time_is_ceiling: limits.time.is_none(),
    };
    Ok((options, limits))
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    fn board(json: &str) -> Result<BoardInput, AppError> {
        parse_json(json.as_bytes())
    }

    #[test]
    fn boards_as_text_flat_array_or_rows() {
        assert_eq!(
            board(r#""1 2/3 0""#).unwrap(),
            BoardInput::Text("1 2/3 0".into())
        );
        let flat = board("[1, 2, 3, 0]").unwrap();
        assert_eq!(
            flat,
            BoardInput::Tiles(RawBoard {
                tiles: vec![1, 2, 3, 0],
                rows: vec![]
            })
        );
        let rows = board("[[1, 2, 3], [4, 5, 0]]").unwrap();
        assert_eq!(rows.raw().unwrap().to_string(), "1 2 3/4 5 0");
        let config = Config::default();
        let i = instance(&rows, None, None, &config).unwrap();
        assert_eq!(i.start.shape().to_string(), "2x3");
    }

    #[test]
    fn wrong_types_are_named() {
        let e = board("true").unwrap_err().message();
        assert!(e.contains("a board as text"), "{e}");
        let e = board(r#"[1, "x"]"#).unwrap_err().message();
        assert!(e.contains("tile number"), "{e}");
        let e = board("[[1, 2], 3]").unwrap_err().message();
        assert!(e.contains("not both"), "{e}");
        let e = board("[-1, 0]").unwrap_err().message();
        assert!(e.starts_with("invalid request"), "{e}");
        let e = board("[1, 2").unwrap_err().message();
        assert!(e.starts_with("malformed JSON"), "{e}");
    }

    #[test]
    fn named_goals_written_out_are_not_custom() {
        let shape = Shape::square(3).unwrap();
        let spec: GoalSpec = "1 2 3/8 0 4/7 6 5".parse().unwrap();
        assert!(!goal(&spec, shape).unwrap().1);
        let spec: GoalSpec = "2 1 3/8 0 4/7 6 5".parse().unwrap();
        assert!(goal(&spec, shape).unwrap().1);
    }

    #[test]
    fn limits_stay_within_the_server() {
        let config = Config::default();
        let limits = |t, n: Option<i128>| {
            request(&config, SolveOptions::default(), None, t, n.map(Count)).map(|(_, l)| l)
        };
        let l = limits(Some(0.5), Some(10)).unwrap();
        assert_eq!(l.time, Some(Duration::from_millis(500)));
        assert_eq!(l.nodes, Some(10));
        let l = limits(None, None).unwrap();
        assert_eq!(
            l.time,
            Some(config.time_limit),
            "none given is the server's"
        );
        assert_eq!(l.nodes, None, "no node limit unless asked for");
        assert!(l.time_is_ceiling, "the server's time is no budget");
        assert!(!limits(Some(0.5), None).unwrap().time_is_ceiling);
        assert_eq!(l.memory_bytes, Some(config.memory_bytes));
        assert!(limits(Some(0.0), None).is_err());
        assert!(limits(Some(f64::NAN), None).is_err());
        let e = limits(Some(1e9), None).unwrap_err().message();
        let max = config.time_limit.as_secs_f64();
        assert_eq!(
            e,
            format!("time_limit must be at most {max} seconds, got 1000000000"),
            "the server's ceiling is named"
        );
        assert!(limits(None, Some(0)).is_err());
        let e = limits(None, Some(i64::MAX.into())).unwrap_err().message();
        assert!(e.contains(&config.max_nodes.to_string()), "{e}");
        // Negative counts reach the core's check and its words (they were serde's
        // "invalid value: integer `-5`, expected u64").
        let e = limits(None, Some(-5)).unwrap_err().message();
        assert_eq!(e, "max_nodes must be at least 1, got -5");
    }

    /// Serde's messages without the server's Rust types.
    #[test]
    fn wrong_types_are_named_in_a_clients_words() {
        let refusal = |body: &[u8]| match parse_json::<crate::job::SolveRequest>(body) {
            Ok(_) => panic!("accepted {}", String::from_utf8_lossy(body)),
            Err(e) => e.message(),
        };
        let e = refusal(b"null");
        assert!(
            e.starts_with("invalid request: invalid type: null, expected a JSON object"),
            "{e}"
        );
        let e = refusal(br#"{"board": "1 2/3 0", "time_limit": "x"}"#);
        assert!(e.contains("expected a number"), "{e}");
        let e = refusal(br#"{"board": "1 2/3 0", "trace": 1.5}"#);
        assert!(e.contains("expected a whole number"), "{e}");
        for rust in ["u64", "i64", "f64", "usize", "struct", "Request"] {
            assert!(!e.contains(rust), "{e}");
        }
    }
}
