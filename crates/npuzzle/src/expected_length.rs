//! The one judgement of an optimal length written in a file of boards (see
//! [`board_file`](crate::board_file)) against what a search found, which every front end
//! (`solve --file`, `batch`, `bench`, `compare`) makes the same way.
//!
//! A length is judged by what the path proves: an optimal path of the same length confirms
//! it; an optimal path of another length, a shorter path from any algorithm, or an
//! unsolvable board make it wrong; a path from a search that does not prove its answer
//! shortest (greedy, weighted A*, a proof a limit stopped) that is not shorter proves
//! nothing.
//!
//! ```
//! use npuzzle::expected_length::{judge_path, LineStatus};
//! assert_eq!(judge_path(Some(20), true, Some(20)), (LineStatus::Solved, Some(true)));
//! assert_eq!(judge_path(Some(22), true, Some(20)), (LineStatus::WrongExpected, Some(false)));
//! // A greedy path longer than expected proves nothing.
//! assert_eq!(judge_path(Some(30), false, Some(20)), (LineStatus::Solved, None));
//! ```

use crate::error::SolveError;
use crate::solve::Solution;

/// What became of one line of a file of boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LineStatus {
    /// Solved, and the expected length (if any) agrees.
    Solved,
    /// Solved or proved unsolvable, and the expected length written in the file is wrong.
    WrongExpected,
    /// The board cannot reach the goal.
    Unsolvable,
    /// A limit stopped the search.
    Limit,
    /// Not a board, or not one the search accepts.
    Invalid,
}

impl LineStatus {
    /// The name every output format uses (`wrong-expected`).
    pub fn as_str(self) -> &'static str {
        match self {
            LineStatus::Solved => "solved",
            LineStatus::WrongExpected => "wrong-expected",
            LineStatus::Unsolvable => "unsolvable",
            LineStatus::Limit => "limit",
            LineStatus::Invalid => "invalid",
        }
    }
}

/// The status of a solve and whether it agrees with the expected length (`Some(true)`
/// agrees, `Some(false)` disproved, `None` nothing to compare or nothing proved).
///
/// An unsolvable board disproves any expected length; an error other than unsolvability
/// makes the line [`LineStatus::Invalid`].
pub fn judge(
    result: &Result<Solution, SolveError>,
    expected: Option<usize>,
) -> (LineStatus, Option<bool>) {
    match result {
        Err(SolveError::Unsolvable(_)) => match expected {
            Some(_) => (LineStatus::WrongExpected, Some(false)),
            None => (LineStatus::Unsolvable, None),
        },
        Err(_) => (LineStatus::Invalid, None),
        Ok(s) => judge_path(s.length(), s.optimal, expected),
    }
}

/// [`judge`] for a search that ended without an error: `length` is `None` when a limit
/// stopped it, `optimal` whether the path is guaranteed shortest.
pub fn judge_path(
    length: Option<usize>,
    optimal: bool,
    expected: Option<usize>,
) -> (LineStatus, Option<bool>) {
    match (length, expected) {
        (None, _) => (LineStatus::Limit, None),
        (Some(_), None) => (LineStatus::Solved, None),
        // Only a path proved shortest confirms a length; one that is not, as long as the
        // file says, proves only that the optimum is no longer.
        (Some(len), Some(e)) if len == e && optimal => (LineStatus::Solved, Some(true)),
        (Some(len), Some(e)) if (optimal && len != e) || len < e => {
            (LineStatus::WrongExpected, Some(false))
        }
        (Some(_), Some(_)) => (LineStatus::Solved, None),
    }
}

/// The words for a length the file got wrong: `found` is the length of the path that
/// disproves it, `None` for an unsolvable board.
///
/// ```
/// use npuzzle::expected_length::wrong_expected;
/// assert_eq!(wrong_expected(Some(20), 22), "wrong expected length: found 20 moves, the file says 22");
/// ```
pub fn wrong_expected(found: Option<usize>, expected: usize) -> String {
    match found {
        Some(len) => format!("wrong expected length: found {len} moves, the file says {expected}"),
        None => format!("wrong expected length: unsolvable, the file says {expected} moves"),
    }
}

/// [`wrong_expected`] for a solve [`judge`] found wrong.
pub fn wrong_expected_of(result: &Result<Solution, SolveError>, expected: usize) -> String {
    wrong_expected(result.as_ref().ok().and_then(Solution::length), expected)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::SearchStats;
    use crate::{Algorithm, Board, Verdict};

    fn solution(length: Option<usize>, optimal: bool) -> Result<Solution, SolveError> {
        let start = Board::parse("1 2 3/4 5 6/7 8 0", None).unwrap();
        let verdict = crate::solvability::check(&start, &start).unwrap();
        Ok(Solution {
            verdict,
            moves: length.map(|n| vec![crate::Move::Up; n]),
            optimal,
            stats: SearchStats::default(),
            stopped_by: None,
            algorithm: Algorithm::IdaStar,
            heuristic: Some(crate::HeuristicSpec::Manhattan),
            phase: crate::plan::PhaseKind::Search,
            admissible: true,
            trace: Vec::new(),
            lower_bound: None,
            bound_factor: None,
            improvements: Vec::new(),
        })
    }

    #[test]
    fn expected_lengths_are_judged_by_what_the_path_proves() {
        use LineStatus::*;
        assert_eq!(
            judge(&solution(Some(20), true), Some(20)),
            (Solved, Some(true))
        );
        assert_eq!(
            judge(&solution(Some(22), true), Some(20)),
            (WrongExpected, Some(false))
        );
        // A greedy path longer than expected proves nothing; a shorter one does.
        assert_eq!(judge(&solution(Some(30), false), Some(20)), (Solved, None));
        // So does one as long as expected that is not proved shortest (a limit stopped the
        // proof, or the search proves nothing): it used to be called a match.
        assert_eq!(judge(&solution(Some(20), false), Some(20)), (Solved, None));
        assert_eq!(
            judge(&solution(Some(18), false), Some(20)),
            (WrongExpected, Some(false))
        );
        assert_eq!(judge(&solution(None, false), Some(20)), (Limit, None));
        assert_eq!(judge(&solution(None, true), None), (Limit, None));
        assert_eq!(judge(&solution(Some(5), true), None), (Solved, None));
        let unsolvable: Verdict = {
            let a = Board::parse("1 2 3/4 5 6/8 7 0", None).unwrap();
            let g = Board::parse("1 2 3/4 5 6/7 8 0", None).unwrap();
            crate::solvability::check(&a, &g).unwrap()
        };
        let err = Err(SolveError::Unsolvable(unsolvable));
        assert_eq!(judge(&err, None), (Unsolvable, None));
        assert_eq!(judge(&err, Some(3)), (WrongExpected, Some(false)));
        let refused = Err(SolveError::InvalidWeight(0.5));
        assert_eq!(judge(&refused, Some(3)), (Invalid, None));
    }

    #[test]
    fn the_words_for_a_wrong_length() {
        assert_eq!(
            wrong_expected_of(&solution(Some(20), true), 22),
            "wrong expected length: found 20 moves, the file says 22"
        );
        assert_eq!(
            wrong_expected(None, 3),
            "wrong expected length: unsolvable, the file says 3 moves"
        );
        assert_eq!(LineStatus::WrongExpected.as_str(), "wrong-expected");
    }
}
