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

    /// Shows a progress snapshot.
    pub fn update(&self, p: &Progress) {
        if let Some(bar) = &self.0 {
            let bound = p.bound.map(|b| format!(", bound {b}")).unwrap_or_default();
            bar.set_message(format!(
                "searching: {} expanded, {} generated{bound}",
                p.expanded, p.generated
            ));
        }
    }

    /// Removes the spinner.
    pub fn finish(&self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
