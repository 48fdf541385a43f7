//! One module per subcommand.

pub mod check;
pub mod interactive;
pub mod random;
pub mod serve;
pub mod solve;
