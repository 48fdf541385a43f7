//! `npuzzle check`: the solvability verdict and the numbers behind it.

use anyhow::{bail, Result};
use clap::Args;
use npuzzle::solvability;

use crate::exit::Outcome;
use crate::input::boards;
use crate::options::BoardArgs;

/// Decide whether a board can reach the goal, and explain why.
#[derive(Args, Debug)]
pub struct CheckArgs {
    #[command(flatten)]
    pub input: BoardArgs,
    /// Print the verdict as JSON.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: CheckArgs) -> Result<Outcome> {
    let entries = boards(&args.input)?;
    // With several boards, each verdict names its line, and a bad line does not stop the rest.
    let single = entries.len() == 1;
    let mut worst = Outcome::Success;
    for entry in entries {
        let checked = entry.board.and_then(|start| {
            let goal = match entry.goal {
                Some(g) => g,
                None => args
                    .input
                    .goal
                    .board(start.shape())
                    .map_err(|e| e.to_string())?,
            };
            let v = solvability::check(&start, &goal).map_err(|e| e.to_string())?;
            Ok((start, v))
        });
        let (start, v) = match checked {
            Ok(c) => c,
            Err(e) if single => bail!(e),
            Err(e) => {
                let e = if e.starts_with("line ") {
                    e
                } else {
                    format!("line {}: {e}", entry.line)
                };
                if args.json {
                    println!("{}", serde_json::json!({ "line": entry.line, "error": e }));
                } else {
                    crate::errln!("error: {e}");
                }
                worst = worst.worst(Outcome::Invalid);
                continue;
            }
        };
        let verdict = if v.solvable { "solvable" } else { "unsolvable" };
        if args.json {
            let mut value = serde_json::to_value(&v)?;
            value["reason"] = v.explanation().into();
            value["size"] = start.shape().to_string().into();
            if !single {
                value["line"] = entry.line.into();
            }
            println!("{value}");
        } else {
            if single {
                println!("{verdict}");
            } else {
                println!("line {}: {verdict} ({start})", entry.line);
            }
            println!(
                "  width {} ({}), rule: {}",
                v.width,
                if v.width % 2 == 0 { "even" } else { "odd" },
                rule_text(&v)
            );
            println!(
                "  start: {}, blank on row {}",
                inversions(v.start_inversions),
                v.start_blank_row
            );
            println!(
                "  goal:  {}, blank on row {}",
                inversions(v.goal_inversions),
                v.goal_blank_row
            );
            println!("  {}", v.explanation());
        }
        worst = worst.worst(if v.solvable {
            Outcome::Success
        } else {
            Outcome::Unsolvable
        });
    }
    Ok(worst)
}

fn rule_text(v: &npuzzle::Verdict) -> &'static str {
    match v.rule {
        solvability::Rule::OddWidthInversions => "inversion parity must match the goal's",
        solvability::Rule::EvenWidthInversionsPlusBlankRow => {
            "parity of inversions + blank row must match the goal's"
        }
    }
}

fn inversions(n: u64) -> String {
    format!("{n} inversion{}", if n == 1 { "" } else { "s" })
}
