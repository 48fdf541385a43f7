//! What a comparison produced: instances, runs and their summaries.

use npuzzle::Board;
use serde::Serialize;

use super::config::Config;

/// One board to solve.
#[derive(Serialize)]
pub(super) struct Instance {
    pub(super) index: usize,
    /// `line N`, `random #K` or `walk D #K`.
    pub(super) label: String,
    /// The walk length of its bin, with --walks.
    pub(super) bin: Option<usize>,
    pub(super) size: String,
    pub(super) start: Vec<u32>,
    /// The optimal length written in the file.
    pub(super) expected: Option<usize>,
    /// The optimal length used to judge the configurations.
    pub(super) reference_length: Option<usize>,
    #[serde(skip)]
    pub(super) board: Board,
    #[serde(skip)]
    pub(super) goal: Board,
}

/// One configuration on one instance.
#[derive(Clone, Debug, Default, Serialize)]
pub(super) struct Run {
    /// The heuristic the run used: the configuration's, or the planner's choice when the
    /// configuration leaves it to the planner (`-H auto`).
    pub(super) heuristic: Option<String>,
    pub(super) length: Option<usize>,
    /// Whether the solver guarantees the path is shortest.
    pub(super) optimal: bool,
    pub(super) expanded: u64,
    pub(super) generated: u64,
    pub(super) max_open: u64,
    pub(super) seconds: f64,
    /// `N + 1 = 1 + b + … + b^d` for this run.
    pub(super) ebf: Option<f64>,
    pub(super) stopped_by: Option<&'static str>,
    pub(super) error: Option<String>,
}

/// The runs of one configuration over a set of instances, summed up.
#[derive(Debug, Default, Serialize)]
pub(super) struct Summary {
    pub(super) instances: usize,
    pub(super) solved: usize,
    pub(super) length_mean: Option<f64>,
    pub(super) length_max: Option<usize>,
    pub(super) expanded_mean: Option<f64>,
    pub(super) expanded_max: Option<u64>,
    pub(super) generated_mean: Option<f64>,
    pub(super) generated_max: Option<u64>,
    pub(super) max_open_mean: Option<f64>,
    pub(super) max_open_max: Option<u64>,
    pub(super) seconds_mean: Option<f64>,
    pub(super) seconds_max: Option<f64>,
    /// Mean over solved instances of each run's effective branching factor.
    pub(super) ebf_mean: Option<f64>,
    /// Solved instances with a known optimal length.
    pub(super) checked: usize,
    /// ... where this configuration's path was longer.
    pub(super) longer: usize,
    /// ... where it was shorter: the reference is wrong.
    pub(super) shorter: usize,
    pub(super) stopped: usize,
    pub(super) errors: usize,
}

impl Summary {
    pub(super) fn of<'a>(runs: impl Iterator<Item = (&'a Run, Option<usize>)>) -> Summary {
        let mut s = Summary::default();
        let (mut len_sum, mut exp_sum, mut gen_sum, mut open_sum, mut sec_sum) =
            (0.0, 0.0, 0.0, 0.0, 0.0);
        let (mut ebf_sum, mut ebf_n) = (0.0, 0usize);
        for (run, reference) in runs {
            s.instances += 1;
            if run.error.is_some() {
                s.errors += 1;
                continue;
            }
            let Some(len) = run.length else {
                s.stopped += 1;
                continue;
            };
            s.solved += 1;
            len_sum += len as f64;
            exp_sum += run.expanded as f64;
            gen_sum += run.generated as f64;
            open_sum += run.max_open as f64;
            sec_sum += run.seconds;
            s.length_max = s.length_max.max(Some(len));
            s.expanded_max = s.expanded_max.max(Some(run.expanded));
            s.generated_max = s.generated_max.max(Some(run.generated));
            s.max_open_max = s.max_open_max.max(Some(run.max_open));
            s.seconds_max = Some(s.seconds_max.map_or(run.seconds, |m| m.max(run.seconds)));
            if let Some(b) = run.ebf {
                ebf_sum += b;
                ebf_n += 1;
            }
            if let Some(r) = reference {
                s.checked += 1;
                s.longer += usize::from(len > r);
                s.shorter += usize::from(len < r);
            }
        }
        if s.solved > 0 {
            let n = s.solved as f64;
            s.length_mean = Some(len_sum / n);
            s.expanded_mean = Some(exp_sum / n);
            s.generated_mean = Some(gen_sum / n);
            s.max_open_mean = Some(open_sum / n);
            s.seconds_mean = Some(sec_sum / n);
        }
        if ebf_n > 0 {
            s.ebf_mean = Some(ebf_sum / ebf_n as f64);
        }
        s
    }

    /// The optimality verdict for the table.
    pub(super) fn optimal_text(&self) -> String {
        if self.shorter > 0 {
            format!("REFERENCE WRONG on {}", self.shorter)
        } else if self.longer > 0 {
            format!("NO: longer on {}/{}", self.longer, self.checked)
        } else if self.checked == 0 {
            "?".to_string()
        } else if self.checked < self.solved {
            format!("yes ({} checked)", self.checked)
        } else {
            "yes".to_string()
        }
    }
}

/// Everything a comparison produced.
pub(super) struct Comparison {
    pub(super) source: String,
    pub(super) seed: Option<u64>,
    pub(super) instances: Vec<Instance>,
    pub(super) configs: Vec<(String, Config)>,
    /// `runs[config][instance]`.
    pub(super) runs: Vec<Vec<Run>>,
    pub(super) reference: String,
}
