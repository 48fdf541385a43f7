//! `npuzzle random`: random solvable boards, reproducible by seed.

use std::io::Write;

use anyhow::{bail, Context, Result};
use clap::Args;
use npuzzle::{generate, GoalSpec, Shape};

use crate::exit::Outcome;

/// Print random solvable boards, one per line (row-major, 0 for the blank).
#[derive(Args, Debug)]
pub struct RandomArgs {
    /// Board shape, RxC.
    #[arg(long, short = 's')]
    pub size: Shape,
    /// How many boards.
    #[arg(long, short = 'n', default_value_t = 1, allow_negative_numbers = true)]
    pub count: u64,
    /// Seed; the same seed gives the same boards. Default: drawn from the clock.
    #[arg(long, allow_negative_numbers = true)]
    pub seed: Option<u64>,
    /// Instead of a uniform draw, walk this many random moves from the goal.
    #[arg(long, short = 'm', allow_negative_numbers = true)]
    pub moves: Option<usize>,
    /// The goal the boards must reach.
    #[arg(long, short = 'g', default_value = "standard")]
    pub goal: GoalSpec,
    /// Print start/goal pairs, `START | GOAL`, drawn uniformly from all solvable pairs (each
    /// with its own random goal); `solve --file`, `batch`, `bench` and `compare` read them.
    #[arg(long, conflicts_with = "goal")]
    pub pairs: bool,
}

pub fn run(args: RandomArgs) -> Result<Outcome> {
    if args.count == 0 || args.count > 100_000_000 {
        bail!(
            "--count must be between 1 and 100000000, got {}",
            args.count
        );
    }
    if args.moves.is_some_and(|m| m > 1_000_000_000) {
        bail!("--moves must be at most 1000000000");
    }
    if (args.count as u128) * (args.size.cells() as u128) > 4_000_000_000 {
        bail!(
            "{} boards of {} would print more than 4 billion tiles",
            args.count,
            args.size
        );
    }
    let goal = args.goal.board(args.size)?;
    let seed = crate::options::seed_or_clock(args.seed);
    let mut rng = generate::rng(seed);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let line = |b: &npuzzle::Board| {
        let tiles: Vec<String> = b.tiles().iter().map(u32::to_string).collect();
        tiles.join(" ")
    };
    for _ in 0..args.count {
        let (board, goal) = match (args.pairs, args.moves) {
            (true, Some(m)) => {
                let goal = generate::random_board(args.size, &mut rng);
                (generate::random_walk(&goal, m, &mut rng), Some(goal))
            }
            (true, None) => {
                let (start, goal) = generate::random_pair(args.size, &mut rng);
                (start, Some(goal))
            }
            (false, Some(m)) => (generate::random_walk(&goal, m, &mut rng), None),
            (false, None) => (generate::random_solvable(&goal, &mut rng), None),
        };
        // A write error ends the run; `main` tells a reader that went away (`| head`, a
        // quiet exit) from a full disk (exit 2).
        match goal {
            Some(g) => writeln!(out, "{} | {}", line(&board), line(&g)),
            None => writeln!(out, "{}", line(&board)),
        }
        .context("cannot write the output")?;
    }
    out.flush().context("cannot write the output")?;
    Ok(Outcome::Success)
}
