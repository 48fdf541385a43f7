//! Small helpers for messages that quote what the user typed.

/// How many characters of user text a message quotes.
pub const CLIP: usize = 24;

/// `s` cut to its first [`CLIP`] characters (on a character boundary), with `…` when cut,
/// so an error never echoes a huge input, and its control characters escaped (`\u{1b}`), so
/// an error never sends the terminal a command (ESC c resets it).
///
/// ```
/// assert_eq!(npuzzle::text::clip("boards.txt"), "boards.txt");
/// assert_eq!(npuzzle::text::clip(&"x".repeat(50_000)), format!("{}…", "x".repeat(24)));
/// assert_eq!(npuzzle::text::clip("\u{1b}c"), "\\u{1b}c");
/// ```
pub fn clip(s: &str) -> String {
    let mut shown = String::new();
    for c in s.chars().take(CLIP) {
        if c.is_control() {
            shown.extend(c.escape_default());
        } else {
            shown.push(c);
        }
    }
    if s.chars().nth(CLIP).is_some() {
        shown.push('…');
    }
    shown
}
