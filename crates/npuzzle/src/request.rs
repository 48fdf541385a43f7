//! The choices and limits of one solve as a front end read them, checked once, here.
//!
//! The command line, the Python module and the web server each read a weight, a beam width,
//! a time limit, a node budget and a memory limit in their own way; they hand the raw numbers to
//! [`Request::check`] with the most they allow ([`Ceilings`]) and get [`SolveOptions`] and
//! [`Limits`] back, or a [`RequestError`] whose words are made here. A front end only chooses
//! how a [`Field`] is spelled (`--time-limit` on the command line, `time_limit` in Python and
//! JSON), so the same bad value gets the same message everywhere.
//!
//! A limit whose ceiling depends on the caller (a server allows less than the command line)
//! is refused naming the bound it breaks: a value too small gets the same words whatever
//! the ceiling, a value too large gets the caller's ceiling. The weight's range is the same
//! for everyone, so its message gives the whole range.
//!
//! ```
//! use std::time::Duration;
//! use npuzzle::{Ceilings, Field, Request};
//!
//! let request = Request { time_limit: Some(0.5), max_nodes: Some(1000), ..Request::default() };
//! let (_options, limits) = request.check(&Ceilings::DEFAULT).unwrap();
//! assert_eq!(limits.time, Some(Duration::from_millis(500)));
//! assert_eq!(limits.nodes, Some(1000));
//!
//! let bad = Request { time_limit: Some(-1.0), ..Request::default() };
//! let e = bad.check(&Ceilings::DEFAULT).unwrap_err();
//! assert_eq!(e.field(), Field::TimeLimit);
//! assert_eq!(
//!     e.message(Field::cli_name),
//!     "--time-limit must be a number of seconds above 0, got -1"
//! );
//! assert_eq!(e.to_string(), "time_limit must be a number of seconds above 0, got -1");
//! ```

use std::fmt;
use std::time::Duration;

use crate::plan::SolveOptions;
use crate::search::Limits;

/// The memory limit when the caller gives none, in megabytes (`--memory-limit`'s default).
pub const DEFAULT_MEMORY_MB: u64 = 4096;

/// The weight of the weighted algorithms when the caller gives none.
pub const DEFAULT_WEIGHT: f64 = 2.0;

/// The largest weight anyone may ask for (the smallest is 1).
pub const MAX_WEIGHT: f64 = 1e6;

/// The widest beam anyone may ask for (the narrowest is 1). The memory limit still applies:
/// a beam this wide needs some gigabytes a hundred moves.
pub const MAX_BEAM_WIDTH: usize = 100_000_000;

/// The most a caller may ask for: the command line's [`Ceilings::DEFAULT`], or a server's
/// own lower ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ceilings {
    /// The longest time limit.
    pub time: Duration,
    /// The largest node budget.
    pub nodes: u64,
    /// The largest memory limit, in megabytes.
    pub memory_mb: u64,
}

impl Ceilings {
    /// The command line's and the Python module's: 10,000,000 seconds (some four months),
    /// any node count, 2^30 megabytes (a petabyte).
    pub const DEFAULT: Ceilings = Ceilings {
        time: Duration::from_secs(10_000_000),
        nodes: u64::MAX,
        memory_mb: 1 << 30,
    };
}

impl Default for Ceilings {
    fn default() -> Self {
        Ceilings::DEFAULT
    }
}

/// The algorithm, heuristic, weight and limits of one solve, as a front end read them and
/// before any check.
///
/// Counts are `i128`, wide enough for every integer a front end reads (`u64` from the
/// command line and JSON, `i64` from Python), so that a negative count reaches
/// [`check`](Request::check) and its message rather than being clipped on the way.
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// Algorithm, heuristic, weight and `optimal`; the weight is checked.
    pub options: SolveOptions,
    /// Seconds; `None` for no time limit.
    pub time_limit: Option<f64>,
    /// Generated nodes; `None` for no node limit.
    pub max_nodes: Option<i128>,
    /// Megabytes; `None` for no memory limit (front ends give [`DEFAULT_MEMORY_MB`]).
    pub memory_limit: Option<i128>,
    /// States a beam keeps a depth; `None` leaves `options.width` (by default
    /// [`DEFAULT_BEAM_WIDTH`](crate::plan::DEFAULT_BEAM_WIDTH)). It replaces
    /// `options.width` once checked.
    pub width: Option<i128>,
}

impl Default for Request {
    /// Auto with no limits.
    fn default() -> Self {
        Request {
            options: SolveOptions::default(),
            time_limit: None,
            max_nodes: None,
            memory_limit: None,
            width: None,
        }
    }
}

impl Request {
    /// The options and limits, each number checked against `ceilings` (the weight against
    /// 1..=[`MAX_WEIGHT`], the width against 1..=[`MAX_BEAM_WIDTH`]) in one order: time
    /// limit, node budget, memory limit, weight, width. A limit not given stays `None`;
    /// filling it (a server's own value) is the caller's.
    ///
    /// # Errors
    /// The first number out of range, as a [`RequestError`].
    pub fn check(self, ceilings: &Ceilings) -> Result<(SolveOptions, Limits), RequestError> {
        let limits = Limits {
            time: self.time_limit.map(|t| time(t, ceilings)).transpose()?,
            nodes: self.max_nodes.map(|n| nodes(n, ceilings)).transpose()?,
            memory_bytes: self
                .memory_limit
                .map(|m| memory_bytes(m, ceilings))
                .transpose()?,
            // The caller asked for this time: a budget, not a ceiling.
            time_is_ceiling: false,
        };
        let weight = self.options.weight;
        if !(weight.is_finite() && (1.0..=MAX_WEIGHT).contains(&weight)) {
            return Err(RequestError::Weight { given: weight });
        }
        let mut options = self.options;
        if let Some(width) = self.width {
            options.width = usize::try_from(width)
                .ok()
                .filter(|w| (1..=MAX_BEAM_WIDTH).contains(w))
                .ok_or(RequestError::Width { given: width })?;
        }
        Ok((options, limits))
    }
}

fn time(seconds: f64, ceilings: &Ceilings) -> Result<Duration, RequestError> {
    // `!(t > 0)` also catches NaN; infinity is above every ceiling.
    if seconds > 0.0 && seconds <= ceilings.time.as_secs_f64() {
        Ok(Duration::from_secs_f64(seconds))
    } else {
        Err(RequestError::TimeLimit {
            given: seconds,
            max: ceilings.time,
        })
    }
}

fn nodes(n: i128, ceilings: &Ceilings) -> Result<u64, RequestError> {
    match u64::try_from(n) {
        Ok(n) if (1..=ceilings.nodes).contains(&n) => Ok(n),
        _ => Err(RequestError::MaxNodes {
            given: n,
            max: ceilings.nodes,
        }),
    }
}

fn memory_bytes(mb: i128, ceilings: &Ceilings) -> Result<u64, RequestError> {
    // The ceiling is capped at 2^44 MB so that the bytes fit in a u64.
    let max = ceilings.memory_mb.min(1 << 44);
    match u64::try_from(mb) {
        Ok(mb) if (1..=max).contains(&mb) => Ok(mb << 20),
        _ => Err(RequestError::MemoryLimit { given: mb, max }),
    }
}

/// A number of a [`Request`], named apart from its spelling in any one front end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Field {
    /// The time limit, in seconds.
    TimeLimit,
    /// The node budget.
    MaxNodes,
    /// The memory limit, in megabytes.
    MemoryLimit,
    /// The weight of the weighted algorithms.
    Weight,
    /// The width of beam search.
    Width,
}

impl Field {
    /// The command line's flag: `--time-limit`, `--max-nodes`, `--memory-limit`, `--weight`,
    /// `--width`.
    pub fn cli_name(self) -> &'static str {
        match self {
            Field::TimeLimit => "--time-limit",
            Field::MaxNodes => "--max-nodes",
            Field::MemoryLimit => "--memory-limit",
            Field::Weight => "--weight",
            Field::Width => "--width",
        }
    }

    /// The name in Python keywords and JSON: `time_limit`, `max_nodes`, `memory_limit`,
    /// `weight`, `width`.
    pub fn api_name(self) -> &'static str {
        match self {
            Field::TimeLimit => "time_limit",
            Field::MaxNodes => "max_nodes",
            Field::MemoryLimit => "memory_limit",
            Field::Weight => "weight",
            Field::Width => "width",
        }
    }
}

/// A number of a [`Request`] out of its range: which one, what was given, and the most
/// allowed (the least is fixed: above 0 seconds, 1 node, 1 megabyte, a weight of 1, a
/// width of 1).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum RequestError {
    /// A time limit that is not a number of seconds above 0 and at most `max`.
    TimeLimit {
        /// The seconds given.
        given: f64,
        /// The longest allowed.
        max: Duration,
    },
    /// A node budget below 1 or above `max`.
    MaxNodes {
        /// The count given.
        given: i128,
        /// The largest allowed.
        max: u64,
    },
    /// A memory limit below 1 or above `max` megabytes.
    MemoryLimit {
        /// The megabytes given.
        given: i128,
        /// The largest allowed, in megabytes.
        max: u64,
    },
    /// A weight that is not a number from 1 to [`MAX_WEIGHT`].
    Weight {
        /// The weight given.
        given: f64,
    },
    /// A beam width that is not a whole number from 1 to [`MAX_BEAM_WIDTH`].
    Width {
        /// The width given.
        given: i128,
    },
}

impl RequestError {
    /// The number that is out of range.
    pub fn field(&self) -> Field {
        match self {
            RequestError::TimeLimit { .. } => Field::TimeLimit,
            RequestError::MaxNodes { .. } => Field::MaxNodes,
            RequestError::MemoryLimit { .. } => Field::MemoryLimit,
            RequestError::Weight { .. } => Field::Weight,
            RequestError::Width { .. } => Field::Width,
        }
    }

    /// The one-line message, with the field spelled by `name` (for instance
    /// [`Field::cli_name`]). Every front end's words for these errors are made here.
    pub fn message(&self, name: impl FnOnce(Field) -> &'static str) -> String {
        let field = name(self.field());
        match *self {
            RequestError::TimeLimit { given, max } if given > 0.0 => format!(
                "{field} must be at most {} seconds, got {}",
                max.as_secs_f64(),
                short(given)
            ),
            RequestError::TimeLimit { given, .. } => format!(
                "{field} must be a number of seconds above 0, got {}",
                short(given)
            ),
            RequestError::MaxNodes { given, max } if given > 0 => {
                format!("{field} must be at most {max}, got {given}")
            }
            RequestError::MaxNodes { given, .. } => {
                format!("{field} must be at least 1, got {given}")
            }
            RequestError::MemoryLimit { given, max } if given > 0 => {
                format!("{field} must be at most {max} megabytes, got {given}")
            }
            RequestError::MemoryLimit { given, .. } => {
                format!("{field} must be at least 1 megabyte, got {given}")
            }
            RequestError::Weight { given } => format!(
                "{field} must be a number from 1 to {MAX_WEIGHT}, got {}",
                short(given)
            ),
            RequestError::Width { given } => {
                format!("{field} must be a whole number from 1 to {MAX_BEAM_WIDTH}, got {given}")
            }
        }
    }
}

/// `x` as given, but in exponent notation when written out it would be long (`1e300`, not
/// 301 digits; `1000000000` stays).
fn short(x: f64) -> String {
    let plain = x.to_string();
    if plain.len() > 24 {
        format!("{x:e}")
    } else {
        plain
    }
}

impl fmt::Display for RequestError {
    /// The message with the field as Python and JSON spell it ([`Field::api_name`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Field::api_name))
    }
}

impl std::error::Error for RequestError {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::DEFAULT_BEAM_WIDTH;

    fn limits(request: Request) -> Result<Limits, String> {
        request
            .check(&Ceilings::DEFAULT)
            .map(|(_, l)| l)
            .map_err(|e| e.message(Field::cli_name))
    }

    fn time(t: f64) -> Result<Limits, String> {
        limits(Request {
            time_limit: Some(t),
            ..Request::default()
        })
    }

    fn nodes(n: i128) -> Result<Limits, String> {
        limits(Request {
            max_nodes: Some(n),
            ..Request::default()
        })
    }

    fn memory(mb: i128) -> Result<Limits, String> {
        limits(Request {
            memory_limit: Some(mb),
            ..Request::default()
        })
    }

    fn weight(w: f64) -> Result<Limits, String> {
        limits(Request {
            options: SolveOptions {
                weight: w,
                ..SolveOptions::default()
            },
            ..Request::default()
        })
    }

    #[test]
    fn nothing_given_is_no_limit_and_the_default_weight() {
        let (options, limits) = Request::default().check(&Ceilings::DEFAULT).unwrap();
        assert_eq!(limits, Limits::default());
        assert_eq!(options.weight, DEFAULT_WEIGHT);
    }

    /// Regression: `1e300` was echoed as 301 digits.
    #[test]
    fn huge_and_tiny_numbers_are_echoed_short() {
        let e = time(1e300).unwrap_err();
        assert!(e.ends_with("got 1e300"), "{e}");
        assert!(weight(-1e-300).unwrap_err().ends_with("got -1e-300"));
        assert!(time(-2.5).unwrap_err().ends_with("got -2.5"));
        assert!(weight(1000001.0).unwrap_err().ends_with("got 1000001"));
        assert!(time(1e9).unwrap_err().ends_with("got 1000000000"));
    }

    #[test]
    fn time_limit_boundaries() {
        let above_0 = "--time-limit must be a number of seconds above 0";
        for bad in [0.0, -0.0, -1.0, f64::NAN, f64::NEG_INFINITY] {
            let e = time(bad).unwrap_err();
            assert!(e.starts_with(above_0), "{bad}: {e}");
        }
        assert_eq!(
            time(-1.0).unwrap_err(),
            "--time-limit must be a number of seconds above 0, got -1"
        );
        assert_eq!(
            time(f64::NAN).unwrap_err(),
            "--time-limit must be a number of seconds above 0, got NaN"
        );
        assert_eq!(
            time(f64::INFINITY).unwrap_err(),
            "--time-limit must be at most 10000000 seconds, got inf"
        );
        assert_eq!(
            time(1e7 + 1.0).unwrap_err(),
            "--time-limit must be at most 10000000 seconds, got 10000001"
        );
        assert_eq!(
            time(1e7).unwrap().time,
            Some(Duration::from_secs(10_000_000))
        );
        assert_eq!(time(0.5).unwrap().time, Some(Duration::from_millis(500)));
        assert!(time(1e-9).is_ok(), "any positive time is allowed");
    }

    #[test]
    fn max_nodes_boundaries() {
        assert_eq!(
            nodes(0).unwrap_err(),
            "--max-nodes must be at least 1, got 0"
        );
        assert_eq!(
            nodes(-5).unwrap_err(),
            "--max-nodes must be at least 1, got -5"
        );
        assert_eq!(nodes(1).unwrap().nodes, Some(1));
        assert_eq!(
            nodes(u64::MAX.into()).unwrap().nodes,
            Some(u64::MAX),
            "the default ceiling is every count"
        );
        assert_eq!(
            nodes(i128::from(u64::MAX) + 1).unwrap_err(),
            format!(
                "--max-nodes must be at most {}, got {}",
                u64::MAX,
                i128::from(u64::MAX) + 1
            )
        );
    }

    #[test]
    fn memory_limit_boundaries() {
        assert_eq!(
            memory(0).unwrap_err(),
            "--memory-limit must be at least 1 megabyte, got 0"
        );
        assert_eq!(
            memory(-1).unwrap_err(),
            "--memory-limit must be at least 1 megabyte, got -1"
        );
        assert_eq!(memory(1).unwrap().memory_bytes, Some(1 << 20));
        assert_eq!(memory(1 << 30).unwrap().memory_bytes, Some(1 << 50));
        assert_eq!(
            memory((1 << 30) + 1).unwrap_err(),
            "--memory-limit must be at most 1073741824 megabytes, got 1073741825"
        );
    }

    #[test]
    fn weight_boundaries() {
        for bad in [0.0, 0.5, -1.0, f64::NAN, f64::INFINITY, 1e6 + 1.0] {
            let e = weight(bad).unwrap_err();
            assert!(
                e.starts_with("--weight must be a number from 1 to 1000000, got "),
                "{bad}: {e}"
            );
        }
        assert_eq!(
            weight(0.5).unwrap_err(),
            "--weight must be a number from 1 to 1000000, got 0.5"
        );
        assert!(weight(1.0).is_ok());
        assert!(weight(1e6).is_ok());
    }

    #[test]
    fn a_servers_ceilings_are_named_when_exceeded() {
        let server = Ceilings {
            time: Duration::from_secs(10),
            nodes: 1000,
            memory_mb: 512,
        };
        let check = |r: Request| r.check(&server).map(|(_, l)| l).map_err(|e| e.to_string());
        let time = |t| Request {
            time_limit: Some(t),
            ..Request::default()
        };
        assert_eq!(
            check(time(10.0)).unwrap().time,
            Some(Duration::from_secs(10))
        );
        assert_eq!(
            check(time(10.5)).unwrap_err(),
            "time_limit must be at most 10 seconds, got 10.5"
        );
        // Too small is the same words whatever the ceiling.
        assert_eq!(
            check(time(0.0)).unwrap_err(),
            "time_limit must be a number of seconds above 0, got 0"
        );
        let nodes = |n| Request {
            max_nodes: Some(n),
            ..Request::default()
        };
        assert_eq!(check(nodes(1000)).unwrap().nodes, Some(1000));
        assert_eq!(
            check(nodes(1001)).unwrap_err(),
            "max_nodes must be at most 1000, got 1001"
        );
        assert_eq!(
            check(nodes(0)).unwrap_err(),
            "max_nodes must be at least 1, got 0"
        );
        let memory = |m| Request {
            memory_limit: Some(m),
            ..Request::default()
        };
        assert_eq!(check(memory(512)).unwrap().memory_bytes, Some(512 << 20));
        assert_eq!(
            check(memory(513)).unwrap_err(),
            "memory_limit must be at most 512 megabytes, got 513"
        );
    }

    #[test]
    fn one_order_time_nodes_memory_weight() {
        let all_bad = Request {
            options: SolveOptions {
                weight: 0.0,
                ..SolveOptions::default()
            },
            time_limit: Some(0.0),
            max_nodes: Some(0),
            memory_limit: Some(0),
            width: Some(0),
        };
        let field = |r: &Request| r.clone().check(&Ceilings::DEFAULT).unwrap_err().field();
        assert_eq!(field(&all_bad), Field::TimeLimit);
        let r = Request {
            time_limit: None,
            ..all_bad
        };
        assert_eq!(field(&r), Field::MaxNodes);
        let r = Request {
            max_nodes: None,
            ..r
        };
        assert_eq!(field(&r), Field::MemoryLimit);
        let r = Request {
            memory_limit: None,
            ..r
        };
        assert_eq!(field(&r), Field::Weight);
        let r = Request {
            options: SolveOptions::default(),
            ..r
        };
        assert_eq!(field(&r), Field::Width);
    }

    #[test]
    fn width_boundaries_and_default() {
        let width = |w: Option<i128>| {
            Request {
                width: w,
                ..Request::default()
            }
            .check(&Ceilings::DEFAULT)
            .map(|(o, _)| o.width)
            .map_err(|e| e.message(Field::cli_name))
        };
        assert_eq!(width(None), Ok(DEFAULT_BEAM_WIDTH));
        assert_eq!(width(Some(1)), Ok(1));
        assert_eq!(width(Some(MAX_BEAM_WIDTH as i128)), Ok(MAX_BEAM_WIDTH));
        for bad in [0, -3, MAX_BEAM_WIDTH as i128 + 1, i128::from(u64::MAX) + 1] {
            assert_eq!(
                width(Some(bad)),
                Err(format!(
                    "--width must be a whole number from 1 to 100000000, got {bad}"
                ))
            );
        }
    }

    #[test]
    fn fields_spelled_per_front_end() {
        let e = RequestError::MaxNodes { given: 0, max: 9 };
        assert_eq!(
            e.message(Field::cli_name),
            "--max-nodes must be at least 1, got 0"
        );
        assert_eq!(
            e.message(Field::api_name),
            "max_nodes must be at least 1, got 0"
        );
        assert_eq!(e.to_string(), e.message(Field::api_name));
    }
}
