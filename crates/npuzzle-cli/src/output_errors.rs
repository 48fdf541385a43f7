//! Output errors, handled here once for every command.
//!
//! A reader of standard output that goes away (`| head`) is not an error worth a message:
//! the process ends quietly with exit 0. Any other write error (a full disk, `> /dev/full`)
//! is: one line on standard error and exit 2, never a panic, never exit 0 with the output
//! lost. `println!` panics on a write error, so the panic hook sorts those out; commands
//! that write through their own buffers return the error, which `main` sorts the same way.
//!
//! Standard error may fail too (`2> /dev/full`). `eprintln!` panics then, which made an
//! error message exit 101, and a panic inside the panic hook aborted `serve`: so every line
//! to standard error goes through [`crate::errln!`], which drops what cannot be written and
//! leaves the exit code as it was.

use std::io::Write;
use std::process::ExitCode;

use crate::exit::Outcome;

/// Writes a line to standard error (as `eprintln!`), dropping it if standard error cannot
/// be written: a message that cannot be shown must not change how the process ends.
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::output_errors::write_stderr(format_args!($($arg)*))
    };
}

/// What [`crate::errln!`] does: one line to standard error, errors ignored.
pub fn write_stderr(line: std::fmt::Arguments<'_>) {
    let mut err = std::io::stderr().lock();
    let _ = err.write_fmt(line);
    let _ = err.write_all(b"\n");
    let _ = err.flush();
}

/// The message `println!` panics with when standard output fails.
const PRINT_FAILED: &str = "failed printing to stdout";
/// The same for standard error (a library's `eprintln!`, say).
const PRINT_FAILED_STDERR: &str = "failed printing to stderr";

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
        if message.starts_with(PRINT_FAILED_STDERR) {
            // Nothing can be said; end as a failed write ends.
            std::process::exit(Outcome::Invalid as i32);
        }
        if let Some(why) = message.strip_prefix(PRINT_FAILED) {
            let why = why.trim_start_matches(':').trim();
            errln!("error: cannot write the output: {why}");
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
            errln!("error: cannot write the output: {e}");
            Outcome::Invalid.into()
        }
        _ => code,
    }
}
