//! Exit codes. Every error a command returns ends it with [`Outcome::Invalid`] (exit 2):
//! the commands' errors are all about their input.

use std::process::ExitCode;

/// How a command ended. The numbers are part of the CLI contract: the table in docs/cli.md,
/// which `tests/exit_codes.rs` checks against every command.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// 0: solved (or, for `check`, solvable).
    Success = 0,
    /// 1: unsolvable.
    Unsolvable = 1,
    /// 3: a time, node or memory limit stopped a search.
    Limit = 3,
    /// 2: invalid input, or a file's expected length that the solve disproves (the file's
    /// claim is false). Ranked worst when several boards are solved.
    Invalid = 2,
}

impl Outcome {
    /// The worse of two outcomes, for runs over several boards: invalid input (or a wrong
    /// expected length), then a limit, then unsolvable.
    pub fn worst(self, other: Outcome) -> Outcome {
        let rank = |o: Outcome| match o {
            Outcome::Success => 0,
            Outcome::Unsolvable => 1,
            Outcome::Limit => 2,
            Outcome::Invalid => 3,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

impl From<Outcome> for ExitCode {
    fn from(o: Outcome) -> ExitCode {
        ExitCode::from(o as u8)
    }
}
