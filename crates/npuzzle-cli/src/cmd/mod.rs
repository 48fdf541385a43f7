//! One module per subcommand.

pub mod batch;
pub mod bench;
pub mod check;
pub mod compare;
pub mod completions;
pub mod interactive;
pub mod manpage;
pub mod pdb;
pub mod play;
pub mod random;
pub mod serve;
pub mod solve;
