use std::fmt;
use std::str::FromStr;

use super::pdb::{PartitionSpec, PdbError};

/// Why a heuristic name or expression was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HeuristicError {
    /// An unknown name.
    #[error("unknown heuristic `{0}` (expected misplaced, manhattan, euclidean, linear-conflict, perfect, pdb, pdb:7-8, a weighted sum like 0.5*manhattan+0.5*misplaced, or max(a,b))")]
    Unknown(String),
    /// A malformed expression.
    #[error("invalid heuristic expression `{expr}`: {problem}")]
    Syntax {
        /// The expression.
        expr: String,
        /// What is wrong.
        problem: String,
    },
    /// The heuristic cannot serve a board this large.
    #[error("heuristic {heuristic} supports boards of at most {max} cells, this one has {cells}")]
    TooLarge {
        /// The heuristic.
        heuristic: String,
        /// Cells of the board.
        cells: usize,
        /// The most it supports.
        max: usize,
    },
    /// A pattern database that cannot serve the board.
    #[error(transparent)]
    Pdb(#[from] PdbError),
    /// Tables that would have to be built, larger than the holder of the tables allows.
    #[error(
        "this heuristic needs tables of {entries} entries built first; here at most {max} may be built (choose another heuristic, or build them with `npuzzle pdb build`)"
    )]
    TablesNotAllowed {
        /// Entries to build.
        entries: u64,
        /// The most allowed.
        max: u64,
    },
}

/// A heuristic as named on the command line: a base heuristic or a combination.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum HeuristicSpec {
    /// Tiles not on their goal cell (blank excluded). Admissible.
    Misplaced,
    /// Sum of Manhattan distances (blank excluded). Admissible.
    Manhattan,
    /// Sum of straight-line distances. Admissible, weaker than Manhattan.
    Euclidean,
    /// Manhattan plus linear conflicts. Admissible.
    LinearConflict,
    /// Exact distances from a table of all states (small boards). Admissible.
    Perfect,
    /// Additive disjoint pattern databases (`pdb`, `pdb:7-8`), with the reflected lookup
    /// where the board allows it. Admissible.
    Pdb(PartitionSpec),
    /// `Σ wᵢ·hᵢ`.
    Sum(Vec<(f64, HeuristicSpec)>),
    /// `max(h₁, …)`.
    Max(Vec<HeuristicSpec>),
}

impl HeuristicSpec {
    /// Whether the heuristic never overestimates, so optimal algorithms stay optimal with it.
    pub fn admissible(&self) -> bool {
        self.bound(&|_| 1.0) <= 1.0 + 1e-9
    }

    /// Whether a move changes the value by at most 1 (then A* never re-opens a state).
    /// Weighted sums and maxima of consistent heuristics with weights ≤ 1 stay consistent.
    pub fn consistent(&self) -> bool {
        // All base heuristics are consistent but pattern databases. For linear conflict: a
        // tile changes one line's membership only when that line is its goal line, and then
        // Manhattan moves by 1 in the opposite sense to the conflict change (0 or 2), so the
        // total moves by exactly 1. A pattern database's minimum over blank regions, its cap
        // at 15 and the maximum with the reflection need not be consistent.
        let step = |h: &HeuristicSpec| match h {
            HeuristicSpec::Pdb(_) => f64::INFINITY,
            _ => 1.0,
        };
        self.admissible() && self.bound(&step) <= 1.0 + 1e-9
    }

    /// The most this heuristic's value can be, as a multiple of what each base heuristic's
    /// `base` is a multiple of: of the true distance (1 for every base heuristic, which never
    /// overestimates) for admissibility, of a move for consistency. A weighted sum's is the
    /// weighted sum of its parts' (nested sums too: `0.5*(manhattan+misplaced)` is 1), a
    /// maximum's the largest of its parts'.
    fn bound(&self, base: &dyn Fn(&HeuristicSpec) -> f64) -> f64 {
        match self {
            HeuristicSpec::Sum(terms) => terms
                .iter()
                .map(|&(w, ref h)| {
                    if w < 0.0 {
                        f64::INFINITY
                    } else if w == 0.0 {
                        // A part weighted 0 adds nothing, however large it may be.
                        0.0
                    } else {
                        w * h.bound(base)
                    }
                })
                .sum(),
            HeuristicSpec::Max(parts) => parts.iter().map(|h| h.bound(base)).fold(0.0, f64::max),
            h => base(h),
        }
    }

    /// The base heuristics' names, for help text and menus.
    ///
    /// `pdb` is not listed: its tables may take time and memory to build, so menus and the
    /// web page's comparison offer it only where they choose to.
    pub const NAMES: [&'static str; 5] = [
        "misplaced",
        "manhattan",
        "euclidean",
        "linear-conflict",
        "perfect",
    ];

    /// A heuristic as a user names it, in every front end: `auto` (the planner's choice,
    /// the heuristic's default, as `auto` is the algorithm's) gives `None`, anything else
    /// is parsed as a heuristic. An empty name is refused as any unknown one is.
    ///
    /// ```
    /// use npuzzle::HeuristicSpec;
    /// assert_eq!(HeuristicSpec::parse_choice("auto").unwrap(), None);
    /// assert_eq!(HeuristicSpec::parse_choice("md").unwrap(), Some(HeuristicSpec::Manhattan));
    /// assert!(HeuristicSpec::parse_choice("").is_err());
    /// ```
    ///
    /// # Errors
    /// As [`from_str`](HeuristicSpec::from_str).
    pub fn parse_choice(name: &str) -> Result<Option<HeuristicSpec>, HeuristicError> {
        match name.trim() {
            "auto" => Ok(None),
            text => text.parse().map(Some),
        }
    }
}

impl fmt::Display for HeuristicSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeuristicSpec::Misplaced => f.write_str("misplaced"),
            HeuristicSpec::Manhattan => f.write_str("manhattan"),
            HeuristicSpec::Euclidean => f.write_str("euclidean"),
            HeuristicSpec::LinearConflict => f.write_str("linear-conflict"),
            HeuristicSpec::Perfect => f.write_str("perfect"),
            HeuristicSpec::Pdb(p) => write!(f, "{p}"),
            HeuristicSpec::Sum(terms) => {
                for (i, (w, h)) in terms.iter().enumerate() {
                    if i > 0 {
                        f.write_str("+")?;
                    }
                    if *w != 1.0 {
                        // Very large or small weights in exponent form, as they may be
                        // written: `1e300` written out is 301 digits.
                        if w.abs() >= 1e16 || w.abs() < 1e-5 && *w != 0.0 {
                            write!(f, "{w:e}*")?;
                        } else {
                            write!(f, "{w}*")?;
                        }
                    }
                    // A sum within a sum keeps its parentheses: `0.5*(manhattan+misplaced)`
                    // is not `0.5*manhattan+misplaced`.
                    match h {
                        HeuristicSpec::Sum(_) => write!(f, "({h})")?,
                        _ => write!(f, "{h}")?,
                    }
                }
                Ok(())
            }
            HeuristicSpec::Max(parts) => {
                f.write_str("max(")?;
                for (i, h) in parts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, "{h}")?;
                }
                f.write_str(")")
            }
        }
    }
}

impl FromStr for HeuristicSpec {
    type Err = HeuristicError;

    /// Parses a name (`manhattan`, aliases `md`, `hamming`, `lc`…), a weighted sum
    /// (`0.6*manhattan+0.4*misplaced`) or a maximum (`max(manhattan,linear-conflict)`);
    /// these nest.
    ///
    /// ```
    /// use npuzzle::HeuristicSpec;
    /// let h: HeuristicSpec = "0.6*manhattan+0.1*misplaced+0.3*euclidean".parse().unwrap();
    /// assert!(h.admissible());
    /// let h: HeuristicSpec = "2*manhattan".parse().unwrap();
    /// assert!(!h.admissible());
    /// ```
    fn from_str(s: &str) -> Result<HeuristicSpec, HeuristicError> {
        let chars = s.chars().count();
        if chars > MAX_EXPRESSION_CHARS {
            return Err(HeuristicError::Syntax {
                expr: crate::text::clip(s),
                problem: format!(
                    "expression is {chars} characters long, at most {MAX_EXPRESSION_CHARS} allowed"
                ),
            });
        }
        let text: String = s.chars().filter(|c| !c.is_whitespace()).collect();
        let mut p = Parser {
            src: &text,
            pos: 0,
            original: s,
            depth: 0,
            parts: 0,
        };
        let spec = p.sum()?;
        if p.pos != text.len() {
            return Err(p.error(format!("unexpected `{}`", &text[p.pos..])));
        }
        Ok(spec)
    }
}

/// Longest expression accepted, in characters: far more than any useful combination needs,
/// and short enough that echoing or parsing it costs nothing.
pub const MAX_EXPRESSION_CHARS: usize = 1000;
/// Most heuristics one expression may combine. Each part is built and evaluated at every
/// node, so width multiplies a search's cost and memory: nesting alone was capped before,
/// and `max(lc,lc,…)` with a thousand parts made each node a thousand times dearer.
pub const MAX_EXPRESSION_PARTS: usize = 64;

/// Recursive-descent parser for heuristic expressions.
struct Parser<'a> {
    src: &'a str,
    pos: usize,
    original: &'a str,
    depth: usize,
    /// Base heuristics named so far.
    parts: usize,
}

impl Parser<'_> {
    fn error(&self, problem: String) -> HeuristicError {
        HeuristicError::Syntax {
            expr: crate::text::clip(self.original),
            problem,
        }
    }

    fn rest(&self) -> &str {
        &self.src[self.pos..]
    }

    fn eat(&mut self, c: char) -> bool {
        if self.rest().starts_with(c) {
            self.pos += c.len_utf8();
            true
        } else {
            false
        }
    }

    fn sum(&mut self) -> Result<HeuristicSpec, HeuristicError> {
        self.depth += 1;
        if self.depth > 32 {
            return Err(self.error("nested too deeply".into()));
        }
        let mut terms = vec![self.term()?];
        while self.eat('+') {
            terms.push(self.term()?);
        }
        self.depth -= 1;
        Ok(if terms.len() == 1 && terms[0].0 == 1.0 {
            terms.pop().expect("one term").1
        } else {
            HeuristicSpec::Sum(terms)
        })
    }

    /// `[number *] atom [* number]`
    fn term(&mut self) -> Result<(f64, HeuristicSpec), HeuristicError> {
        let mut weight = 1.0;
        if let Some(w) = self.number() {
            weight = w?;
            if !self.eat('*') {
                return Err(self.error("expected `*` after a weight".into()));
            }
            // A second number would be read as a name (`0.5*0.5*manhattan` said "unknown
            // heuristic `0`"): one weight a term.
            if self
                .rest()
                .starts_with(|c: char| c.is_ascii_digit() || c == '.')
            {
                return Err(
                    self.error("expected a heuristic name after `*`, not a second weight".into())
                );
            }
        }
        let atom = self.atom()?;
        if self.eat('*') {
            match self.number() {
                Some(w) => weight *= w?,
                None => return Err(self.error("expected a weight after `*`".into())),
            }
        }
        Ok((weight, atom))
    }

    /// A weight: digits and a point, with an exponent (`1e2`, `2.5E-1`) when digits follow
    /// the `e` (`2e` before a name is no exponent).
    fn number(&mut self) -> Option<Result<f64, HeuristicError>> {
        let rest = self.rest();
        let digits = |s: &str, point: bool| {
            s.find(|c: char| !(c.is_ascii_digit() || point && c == '.'))
                .unwrap_or(s.len())
        };
        let mut len = digits(rest, true);
        if len == 0 {
            return None;
        }
        let exponent = rest[len..]
            .strip_prefix(['e', 'E'])
            .map(|r| r.strip_prefix(['+', '-']).unwrap_or(r));
        if let Some(e) = exponent {
            let n = digits(e, false);
            if n > 0 {
                len = rest.len() - e.len() + n;
            }
        }
        let text = self.rest()[..len].to_string();
        self.pos += len;
        Some(match text.parse::<f64>() {
            Ok(w) if w.is_finite() => Ok(w),
            _ => Err(self.error(format!("`{text}` is not a weight"))),
        })
    }

    fn atom(&mut self) -> Result<HeuristicSpec, HeuristicError> {
        if self.eat('(') {
            let inner = self.sum()?;
            if !self.eat(')') {
                return Err(self.error("missing `)`".into()));
            }
            return Ok(inner);
        }
        // Any letter belongs to the name (not only ASCII ones), so `manhättan` is reported
        // whole rather than cut at the first non-ASCII letter.
        let len = self
            .rest()
            .find(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_' || c == ':'))
            .unwrap_or(self.rest().len());
        let name = self.rest()[..len].to_lowercase().replace('_', "-");
        self.pos += len;
        if name != "max" {
            self.parts += 1;
            if self.parts > MAX_EXPRESSION_PARTS {
                return Err(self.error(format!(
                    "more than {MAX_EXPRESSION_PARTS} heuristics in one expression"
                )));
            }
        }
        if name == "max" {
            if !self.eat('(') {
                return Err(self.error("expected `(` after max".into()));
            }
            let mut parts = vec![self.sum()?];
            while self.eat(',') {
                parts.push(self.sum()?);
            }
            if !self.eat(')') {
                return Err(self.error("missing `)` after max(…".into()));
            }
            return Ok(HeuristicSpec::Max(parts));
        }
        match name.as_str() {
            "misplaced" | "hamming" | "misplaced-tiles" => Ok(HeuristicSpec::Misplaced),
            "manhattan" | "md" => Ok(HeuristicSpec::Manhattan),
            "euclidean" | "euclid" => Ok(HeuristicSpec::Euclidean),
            "linear-conflict" | "linear-conflicts" | "lc" | "linearconflict" => {
                Ok(HeuristicSpec::LinearConflict)
            }
            "perfect" | "exact" | "table" => Ok(HeuristicSpec::Perfect),
            n if n == "pdb" || n.starts_with("pdb:") => Ok(HeuristicSpec::Pdb(n.parse()?)),
            "" => Err(self.error("expected a heuristic name".into())),
            other => Err(HeuristicError::Unknown(crate::text::clip(other))),
        }
    }
}
