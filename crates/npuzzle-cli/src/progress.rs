//! Live progress on standard error, only when it is a terminal.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use npuzzle::search::Progress;

/// A spinner for one search, or nothing when standard error is not a terminal.
pub struct SearchSpinner(Option<ProgressBar>);

impl SearchSpinner {
    /// Starts a spinner if standard error is a terminal.
    pub fn new() -> SearchSpinner {
        if !std::io::stderr().is_terminal() {
            return SearchSpinner(None);
        }
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                .expect("a valid template"),
        );
        bar.enable_steady_tick(Duration::from_millis(120));
        SearchSpinner(Some(bar))
    }

    /// Shows a progress snapshot: the anytime engine's best length and proven bound when
    /// it has them, the search's counters and threshold.
    pub fn update(&self, p: &Progress) {
        if let Some(bar) = &self.0 {
            bar.set_message(message(p));
        }
    }

    /// Removes the spinner.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}

/// The progress line: `best 99, bound 91 · searching: … expanded, … generated, bound 93`.
fn message(p: &Progress) -> String {
    let anytime = match (p.best, p.lower_bound) {
        (Some(best), Some(lower)) => format!("best {best}, proven ≥ {lower} · "),
        (None, Some(lower)) => format!("proven ≥ {lower} · "),
        _ => String::new(),
    };
    let bound = p
        .bound
        .map(|b| format!(", threshold {b}"))
        .unwrap_or_default();
    format!(
        "{anytime}searching: {} expanded, {} generated{bound}",
        p.expanded, p.generated
    )
}

/// One JSON line of progress (`solve --json --progress`), written to standard output when
/// the anytime engine's best length or bound has changed since the last line.
pub struct JsonProgress {
    last: std::sync::Mutex<(Option<u32>, Option<u32>)>,
}

impl JsonProgress {
    /// Nothing written yet.
    pub fn new() -> JsonProgress {
        JsonProgress {
            last: std::sync::Mutex::new((None, None)),
        }
    }

    /// Writes a line if the best length or the bound changed.
    pub fn update(&self, p: &Progress) {
        let now = (p.best, p.lower_bound);
        let mut last = self.last.lock().unwrap_or_else(|e| e.into_inner());
        if now == *last || now == (None, None) {
            return;
        }
        *last = now;
        let line = serde_json::json!({
            "progress": {
                "seconds": p.elapsed.as_secs_f64(),
                "length": p.best,
                "lower_bound": p.lower_bound,
                "expanded": p.expanded,
                "generated": p.generated,
            }
        });
        use std::io::Write as _;
        let mut out = std::io::stdout().lock();
        // A reader that went away is noticed when the result is written.
        let _ = writeln!(out, "{line}").and_then(|()| out.flush());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_line_shows_the_best_length_and_the_proven_bound() {
        let p = Progress {
            expanded: 5,
            generated: 9,
            open: 0,
            bound: Some(93),
            elapsed: Duration::from_secs(1),
            best: Some(99),
            lower_bound: Some(91),
        };
        let m = message(&p);
        assert!(m.starts_with("best 99, proven ≥ 91"), "{m}");
        assert!(m.contains("threshold 93"), "{m}");
        let plain = message(&Progress {
            best: None,
            lower_bound: None,
            ..p
        });
        assert!(!plain.contains("best"), "{plain}");
    }
}
