//! Printing a comparison: text tables, CSV, JSON and the chart.

use std::fmt::Write as _;

use anyhow::Result;
use serde::Serialize;

use super::args::CompareArgs;
use super::results::{Comparison, Instance, Summary};
use crate::chart::{Chart, Series};

impl Comparison {
    /// The summary of configuration `c` over the instances `keep` selects.
    pub(super) fn summary(&self, c: usize, keep: impl Fn(&Instance) -> bool) -> Summary {
        Summary::of(
            self.instances
                .iter()
                .filter(|i| keep(i))
                .map(|i| (&self.runs[c][i.index], i.reference_length)),
        )
    }

    /// The walk lengths, in the order given.
    pub(super) fn bins(&self) -> Vec<usize> {
        let mut bins: Vec<usize> = Vec::new();
        for b in self.instances.iter().filter_map(|i| i.bin) {
            if !bins.contains(&b) {
                bins.push(b);
            }
        }
        bins
    }

    pub(super) fn text(&self, args: &CompareArgs) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} instances ({}), goal {}; optimal lengths: {}.",
            self.instances.len(),
            self.source,
            goal_name(&self.instances, args),
            if self.instances.iter().any(|i| i.expected.is_some()) {
                "from the file".to_string()
            } else {
                self.reference.clone()
            }
        );
        let _ = writeln!(out, "\n{}", self.table(|_| true));
        for bin in self.bins() {
            let _ = writeln!(out, "Random walks of {bin} moves:");
            let _ = writeln!(out, "{}", self.table(|i| i.bin == Some(bin)));
        }
        let notes = self.notes();
        if !notes.is_empty() {
            let _ = writeln!(out, "{notes}");
        }
        let _ = writeln!(
            out,
            "Means are over solved instances; b* solves N + 1 = 1 + b + ... + b^d (N \
             generated, d the length), averaged over instances. Times are measured with other \
             searches running on the other cores."
        );
        out
    }

    /// One row per configuration.
    pub(super) fn table(&self, keep: impl Fn(&Instance) -> bool + Copy) -> String {
        let mut rows: Vec<Vec<String>> = vec![
            [
                "",
                "",
                "length",
                "",
                "expanded",
                "",
                "generated",
                "",
                "peak open",
                "",
                "time ms",
                "",
                "",
                "",
            ]
            .map(String::from)
            .to_vec(),
            [
                "configuration",
                "solved",
                "mean",
                "max",
                "mean",
                "max",
                "mean",
                "max",
                "mean",
                "max",
                "mean",
                "max",
                "b*",
                "optimal",
            ]
            .map(String::from)
            .to_vec(),
        ];
        for (c, (name, _)) in self.configs.iter().enumerate() {
            let s = self.summary(c, keep);
            let mean =
                |v: Option<f64>, digits: usize| v.map_or("-".into(), |v| format!("{v:.digits$}"));
            let max = |v: Option<u64>| v.map_or("-".into(), |v| v.to_string());
            rows.push(vec![
                name.clone(),
                format!("{}/{}", s.solved, s.instances),
                mean(s.length_mean, 2),
                max(s.length_max.map(|v| v as u64)),
                mean(s.expanded_mean, 1),
                max(s.expanded_max),
                mean(s.generated_mean, 1),
                max(s.generated_max),
                mean(s.max_open_mean, 1),
                max(s.max_open_max),
                mean(s.seconds_mean.map(|v| v * 1e3), 3),
                mean(s.seconds_max.map(|v| v * 1e3), 3),
                mean(s.ebf_mean, 3),
                s.optimal_text(),
            ]);
        }
        render_table(&rows)
    }

    /// Sentences about non-optimal paths, wrong references, limits and errors.
    pub(super) fn notes(&self) -> String {
        let mut out = String::new();
        for (c, (name, _)) in self.configs.iter().enumerate() {
            let s = self.summary(c, |_| true);
            let first = |pred: &dyn Fn(usize, usize) -> bool| {
                self.instances.iter().find_map(|i| {
                    let len = self.runs[c][i.index].length?;
                    let r = i.reference_length?;
                    pred(len, r).then(|| format!("{}: {len} moves, optimal {r}", i.label))
                })
            };
            if s.longer > 0 {
                // A bug when the solver called a longer path optimal (its own claim, so
                // `auto` past its optimal range is not accused).
                let claimed = self.instances.iter().any(|i| {
                    let run = &self.runs[c][i.index];
                    run.optimal
                        && run
                            .length
                            .zip(i.reference_length)
                            .is_some_and(|(l, r)| l > r)
                });
                let claim = if claimed {
                    " although it should be optimal: a bug"
                } else {
                    ""
                };
                let _ = writeln!(
                    out,
                    "{name}: longer than optimal on {} of {} instances{claim} (e.g. {}).",
                    s.longer,
                    s.checked,
                    first(&|l, r| l > r).unwrap_or_default()
                );
            }
            if s.shorter > 0 {
                let _ = writeln!(
                    out,
                    "{name}: SHORTER than the optimal reference on {} instances (e.g. {}): the \
                     reference is wrong.",
                    s.shorter,
                    first(&|l, r| l < r).unwrap_or_default()
                );
            }
            if s.stopped > 0 {
                let mut reasons: Vec<&str> =
                    self.runs[c].iter().filter_map(|r| r.stopped_by).collect();
                reasons.sort_unstable();
                reasons.dedup();
                let _ = writeln!(
                    out,
                    "{name}: {} stopped by a limit ({}).",
                    s.stopped,
                    reasons.join(", ")
                );
            }
            if s.errors > 0 {
                let e = self.runs[c].iter().find_map(|r| r.error.clone());
                let _ = writeln!(
                    out,
                    "{name}: failed on {}: {}.",
                    s.errors,
                    e.unwrap_or_default()
                );
            }
        }
        out
    }

    pub(super) fn json(&self, args: &CompareArgs) -> serde_json::Value {
        let configs: Vec<serde_json::Value> = self
            .configs
            .iter()
            .enumerate()
            .map(|(c, (name, config))| {
                let bins: Vec<serde_json::Value> = self
                    .bins()
                    .into_iter()
                    .map(|b| {
                        serde_json::json!({
                            "bin": b,
                            "summary": self.summary(c, |i| i.bin == Some(b)),
                        })
                    })
                    .collect();
                let runs: Vec<serde_json::Value> = self.runs[c]
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let mut v = serde_json::to_value(r).expect("serialises");
                        v["index"] = i.into();
                        v
                    })
                    .collect();
                serde_json::json!({
                    "name": name,
                    "algorithm": config.algorithm.name(),
                    "heuristic": config.heuristic.as_ref().map(ToString::to_string),
                    "summary": self.summary(c, |_| true),
                    "bins": bins,
                    "runs": runs,
                })
            })
            .collect();
        serde_json::json!({
            "source": self.source,
            "seed": self.seed,
            "goal": goal_name(&self.instances, args),
            "weight": args.weight,
            "reference": self.reference,
            "instances": self.instances,
            "configs": configs,
        })
    }

    pub(super) fn csv(&self) -> Result<Vec<u8>> {
        #[derive(Serialize)]
        struct Row<'a> {
            config: &'a str,
            algorithm: &'a str,
            heuristic: Option<String>,
            index: usize,
            instance: &'a str,
            bin: Option<usize>,
            size: &'a str,
            start: String,
            optimal_length: Option<usize>,
            length: Option<usize>,
            longer_than_optimal: Option<bool>,
            expanded: u64,
            generated: u64,
            max_open: u64,
            seconds: f64,
            ebf: Option<f64>,
            stopped_by: Option<&'a str>,
            error: Option<&'a str>,
        }
        let mut w = csv::Writer::from_writer(Vec::new());
        for (c, (name, config)) in self.configs.iter().enumerate() {
            for inst in &self.instances {
                let r = &self.runs[c][inst.index];
                let tiles: Vec<String> = inst.start.iter().map(u32::to_string).collect();
                w.serialize(Row {
                    config: name,
                    algorithm: config.algorithm.name(),
                    // The one the run used, as its JSON names it (`pdb:8` for `pdb`, the
                    // planner's choice for `auto`); the configuration's own spelling is in
                    // `config`, and stands here only for a run that never started.
                    heuristic: r
                        .heuristic
                        .clone()
                        .or_else(|| config.heuristic.as_ref().map(ToString::to_string)),
                    index: inst.index,
                    instance: &inst.label,
                    bin: inst.bin,
                    size: &inst.size,
                    start: tiles.join(" "),
                    optimal_length: inst.reference_length,
                    length: r.length,
                    longer_than_optimal: r.length.zip(inst.reference_length).map(|(l, o)| l > o),
                    expanded: r.expanded,
                    generated: r.generated,
                    max_open: r.max_open,
                    seconds: r.seconds,
                    ebf: r.ebf,
                    stopped_by: r.stopped_by,
                    error: r.error.as_deref(),
                })?;
            }
        }
        w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))
    }

    /// Mean nodes expanded by optimal length (by the run's own length where no optimal
    /// length is known), one series per configuration.
    pub(super) fn chart(&self) -> Chart {
        let any_reference = self.instances.iter().any(|i| i.reference_length.is_some());
        let series = self
            .configs
            .iter()
            .enumerate()
            .map(|(c, (name, _))| {
                let mut by_length: std::collections::BTreeMap<usize, (f64, usize)> =
                    Default::default();
                for inst in &self.instances {
                    let r = &self.runs[c][inst.index];
                    let Some(len) = r.length else { continue };
                    let x = if any_reference {
                        match inst.reference_length {
                            Some(x) => x,
                            None => continue,
                        }
                    } else {
                        len
                    };
                    let e = by_length.entry(x).or_default();
                    e.0 += r.expanded as f64;
                    e.1 += 1;
                }
                Series {
                    name: name.clone(),
                    points: by_length
                        .into_iter()
                        .map(|(x, (sum, n))| (x as f64, sum / n as f64))
                        .collect(),
                }
            })
            .collect();
        Chart {
            title: if any_reference {
                "Nodes expanded by optimal solution length".into()
            } else {
                "Nodes expanded by solution length".into()
            },
            subtitle: format!("{} instances: {}", self.instances.len(), self.source),
            x_label: if any_reference {
                "optimal solution length (moves)".into()
            } else {
                "solution length found (moves)".into()
            },
            y_label: "nodes expanded (mean, log scale)".into(),
            series,
        }
    }
}

/// Aligns a table: the first column to the left, the others to the right.
pub(super) fn render_table(rows: &[Vec<String>]) -> String {
    let columns = rows.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..columns)
        .map(|c| {
            rows.iter()
                .map(|r| r.get(c).map_or(0, |s| s.chars().count()))
                .max()
                .unwrap_or(0)
        })
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, s)| {
                let w = widths[c];
                if c == 0 {
                    format!("{s:<w$}")
                } else {
                    format!("{s:>w$}")
                }
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join("  ").trim_end());
    }
    out
}

/// The goal's name, or `per line` when lines of the file (`START | GOAL`) gave their own.
fn goal_name(instances: &[Instance], args: &CompareArgs) -> String {
    let own = |i: &Instance| args.goal.board(i.board.shape()).ok().as_ref() != Some(&i.goal);
    if instances.iter().any(own) {
        "per line".to_string()
    } else {
        args.goal.name()
    }
}
