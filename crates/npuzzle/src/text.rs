//! Small helpers for messages that quote what the user typed.

/// How many characters of user text a message quotes.
pub const CLIP: usize = 24;

/// `s` cut to its first [`CLIP`] characters (on a character boundary), with `…` when cut,
/// so an error never echoes a huge input.
///
/// ```
/// assert_eq!(npuzzle::text::clip("boards.txt"), "boards.txt");
/// assert_eq!(npuzzle::text::clip(&"x".repeat(50_000)), format!("{}…", "x".repeat(24)));
/// ```
pub fn clip(s: &str) -> String {
    if s.chars().count() <= CLIP {
        s.to_string()
    } else {
        let head: String = s.chars().take(CLIP).collect();
        format!("{head}…")
    }
}
