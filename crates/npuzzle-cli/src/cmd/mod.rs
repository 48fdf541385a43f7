//! One module per subcommand.

pub mod batch;
pub mod check;
pub mod compare;
pub mod interactive;
pub mod random;
pub mod serve;
pub mod solve;
