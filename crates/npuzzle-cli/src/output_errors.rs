//! Output errors, handled here once for every command.
//!
//! A reader of standard output that goes away (`| head`) is not an error worth a message:
//! the process ends quietly with exit 0. Any other write error (a full disk, `> /dev/full`)
//! is: one line on standard error and exit 2, never a panic, never exit 0 with the output
//! lost. `println!` panics on a write error, so the panic hook sorts those out; commands
//! that write through their own buffers return the error, which `main` sorts the same way.

use std::io::Write;
use std::process::ExitCode;

use crate::exit::Outcome;

/// The message `println!` panics with when standard output fails.
const PRINT_FAILED: &str = "failed printing to stdout";

pub fn install_hook() {
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.contains("Broken pipe") {
            std::process::exit(0);
        }
        if let Some(why) = message.strip_prefix(PRINT_FAILED) {
            let why = why.trim_start_matches(':').trim();
            eprintln!("error: cannot write the output: {why}");
            std::process::exit(Outcome::Invalid as i32);
        }
        default_hook(info);
    }));
}

/// Flushes standard output at the end of a run: what is still buffered (a `print!`
/// without a newline) would otherwise be lost silently at exit.
pub fn flush(code: ExitCode) -> ExitCode {
    match std::io::stdout().flush() {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            eprintln!("error: cannot write the output: {e}");
            Outcome::Invalid.into()
        }
        _ => code,
    }
}
