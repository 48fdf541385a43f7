//! Regression tests for issue 25 ("Release-ready and hardened") on the command line: output
//! errors (E10), shell completions and the man page. Each test names what it pins.

mod common;

use std::fs::OpenOptions;
use std::process::{Command as StdCommand, Stdio};

use common::run;

/// Exit code and standard error of a run with standard output, standard error or both on
/// `/dev/full` (a disk that is always full).
fn with_full(args: &[&str], stdout_full: bool, stderr_full: bool) -> (i32, String) {
    let full = || OpenOptions::new().write(true).open("/dev/full").unwrap();
    let mut cmd = StdCommand::new(assert_cmd::cargo::cargo_bin("npuzzle"));
    cmd.args(args)
        .env(
            "NPUZZLE_PDB_DIR",
            std::env::temp_dir().join("npuzzle-release-tests"),
        )
        .stdin(Stdio::null());
    cmd.stdout(if stdout_full {
        Stdio::from(full())
    } else {
        Stdio::null()
    });
    cmd.stderr(if stderr_full {
        Stdio::from(full())
    } else {
        Stdio::piped()
    });
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// E10: `--help` or `--version` to a full disk exited 0, the output lost.
#[test]
fn help_and_version_to_a_full_disk_exit_2_with_one_line() {
    for args in [
        &["--help"][..],
        &["--version"],
        &["solve", "--help"],
        &["help", "pdb"],
    ] {
        let (code, stderr) = with_full(args, true, false);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("error: cannot write the output:"),
            "{args:?}: {stderr}"
        );
    }
}

/// E10: with standard error full, an error message made `eprintln!` panic: exit 101 (and
/// `serve`, panicking inside the panic hook, aborted). The exit code is now what it would
/// have been.
#[test]
fn a_full_standard_error_keeps_the_exit_code() {
    for (args, stdout_full, expected) in [
        (&["check", "1 2 3"][..], false, 2),
        (&["--no-such-flag"], false, 2),
        (&["serve", "--host", "999.1.1.1"], false, 2),
        (&["serve", "--port", "0"], true, 2),
        (&["solve", "1 2 3/4 5 6/7 0 8"], true, 2),
        (&["solve", "1 2 3/4 5 6/7 0 8"], false, 0),
        (&["check", "1 2 3/4 5 6/8 7 0"], false, 1),
        (&["--help"], true, 2),
    ] {
        let (code, _) = with_full(args, stdout_full, true);
        assert_eq!(code, expected, "{args:?} (stdout full: {stdout_full})");
    }
}

/// E10: every kind of output to a full disk is one line and exit 2.
#[test]
fn every_command_s_output_to_a_full_disk_exits_2() {
    for args in [
        &["random", "--size", "3x3", "--count", "5"][..],
        &["check", "1 2 3/4 5 6/7 0 8"],
        &["solve", "1 2 3/4 5 6/7 0 8", "--json"],
        &["pdb", "list"],
    ] {
        let (code, stderr) = with_full(args, true, false);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    }
    // A reader that goes away is still not an error.
    let (code, _, _) = run(&["--version"], None);
    assert_eq!(code, 0);
}
