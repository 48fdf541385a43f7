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

/// `npuzzle completions SHELL` prints a script that knows the commands and their flags.
#[test]
fn completions_for_every_shell_know_the_commands_and_flags() {
    for shell in ["bash", "zsh", "fish", "powershell", "elvish"] {
        let (code, script, stderr) = run(&["completions", shell], None);
        assert_eq!(code, 0, "{shell}: {stderr}");
        for word in ["npuzzle", "solve", "pdb", "heuristic", "completions"] {
            assert!(script.contains(word), "{shell} script lacks {word}");
        }
    }
    let (code, _, stderr) = run(&["completions", "tcsh"], None);
    assert_eq!(code, 2);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    // bash accepts the script and registers it.
    let (_, script, _) = run(&["completions", "bash"], None);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("npuzzle.bash");
    std::fs::write(&path, script).unwrap();
    let out = StdCommand::new("bash")
        .arg("-c")
        .arg(format!("source {} && complete -p npuzzle", path.display()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("_npuzzle"));
}

/// `npuzzle manpage` prints the roff page; `--dir` writes one page per command.
#[test]
fn the_manual_page_covers_every_command() {
    let (code, page, _) = run(&["manpage"], None);
    assert_eq!(code, 0);
    assert!(page.contains(".TH npuzzle 1"), "{page}");
    assert!(page.contains(".SH NAME") && page.contains(".SH SUBCOMMANDS"));
    let dir = tempfile::tempdir().unwrap();
    let man1 = dir.path().join("man").join("man1");
    let (code, _, stderr) = run(&["manpage", "--dir", man1.to_str().unwrap()], None);
    assert_eq!(code, 0, "{stderr}");
    for name in [
        "npuzzle.1",
        "npuzzle-solve.1",
        "npuzzle-pdb-build.1",
        "npuzzle-serve.1",
    ] {
        let text = std::fs::read_to_string(man1.join(name)).unwrap();
        assert!(text.starts_with(".ie"), "{name}");
    }
    let solve = std::fs::read_to_string(man1.join("npuzzle-solve.1")).unwrap();
    assert!(solve.contains("heuristic"));
    // To a full disk: one line, exit 2.
    let (code, stderr) = with_full(&["manpage"], true, false);
    assert_eq!(code, 2, "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}
