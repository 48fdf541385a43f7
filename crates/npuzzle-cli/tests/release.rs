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

/// `npuzzle pdb build --size SIZE --partition PARTITION --pdb-dir DIR`, which must succeed.
fn build_tables(size: &str, partition: &str, dir: &str) {
    let build = [
        "pdb",
        "build",
        "--size",
        size,
        "--partition",
        partition,
        "--pdb-dir",
        dir,
    ];
    let (code, _, stderr) = run(&build, None);
    assert_eq!(code, 0, "{stderr}");
}

/// Names of the files in `dir` (none when it does not exist).
fn files_in(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

/// Runs `npuzzle ARGS --pdb-dir CACHE`, sends it Ctrl-C (SIGINT) after 1.5 s, and returns
/// its output and how long it took to stop after the signal.
fn ctrl_c_after_1500_ms(
    args: &[&str],
    cache: &std::path::Path,
) -> (std::process::Output, std::time::Duration) {
    let child = StdCommand::new(assert_cmd::cargo::cargo_bin("npuzzle"))
        .args(args)
        .arg("--pdb-dir")
        .arg(cache)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(1500));
    let killed = StdCommand::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let started = std::time::Instant::now();
    let out = child.wait_with_output().unwrap();
    (out, started.elapsed())
}

/// E6: Ctrl-C during `pdb build` killed it silently (exit 130; the docs say 2), and one
/// during a save left a temporary file behind.
#[test]
fn ctrl_c_during_pdb_build_exits_2_with_one_line_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    // 7-8 takes half a minute and more: Ctrl-C comes in the middle of the first build.
    let build = ["pdb", "build", "--size", "4x4", "--partition", "7-8"];
    let (out, stopping) = ctrl_c_after_1500_ms(&build, &cache);
    assert!(stopping < std::time::Duration::from_secs(10));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.starts_with("error: interrupted"), "{stderr}");
    assert!(
        files_in(&cache).is_empty(),
        "left behind: {:?}",
        files_in(&cache)
    );
}

/// Ctrl-C while `bench` or `compare` built their tables: `bench` exited 2 with "a pattern
/// table build was stopped before it finished" and no rows; `compare` exited 3 with runs
/// that named no limit ("stopped by a limit ()", `stopped_by: null`). Now both say every
/// board was stopped by Ctrl-C, and exit 3, as cli.md's "Stopping with Ctrl-C" says.
#[test]
fn ctrl_c_while_bench_or_compare_build_tables_stops_every_board_saying_so() {
    let (_, boards, _) = run(
        &["random", "--size", "4x4", "--count", "3", "--seed", "7"],
        None,
    );
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("boards.txt");
    std::fs::write(&file, boards).unwrap();
    let file = file.to_str().unwrap();
    for command in [
        &["bench", file, "--json"][..],
        &[
            "compare",
            "--file",
            file,
            "-c",
            "idastar:manhattan",
            "--format",
            "json",
        ],
    ] {
        // An empty cache: the 8-tile table takes 20 s and more to build.
        let cache = dir.path().join(format!("pdb-{}", command[0]));
        let (out, _) = ctrl_c_after_1500_ms(command, &cache);
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(3), "{command:?}: {stdout}{stderr}");
        if command[0] == "bench" {
            let summary: serde_json::Value =
                serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
            assert_eq!(summary["summary"]["interrupted"], true, "{stdout}");
            assert_eq!(summary["summary"]["ran"], 0, "{stdout}");
            assert_eq!(summary["summary"]["tables_given_up"], 1, "{stdout}");
        } else {
            let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            let runs = report["configs"][0]["runs"].as_array().unwrap();
            assert_eq!(runs.len(), 3, "{report}");
            for run in runs {
                assert_eq!(run["stopped_by"], "interrupted", "{run}");
            }
            assert!(stderr.contains("stopped by Ctrl-C"), "{stderr}");
        }
    }
}

/// A second Ctrl-C while `pdb build` saved a table exited 130 at once, with its temporary
/// file left in the cache directory. Now: exit 2, one line, nothing half written.
#[test]
fn a_second_ctrl_c_during_a_save_exits_2_and_leaves_nothing() {
    // Sent directly: spawning `kill` takes longer than some saves.
    let interrupt = |pid: u32| {
        let pid = rustix::process::Pid::from_raw(pid as i32).unwrap();
        rustix::process::kill_process(pid, rustix::process::Signal::INT).unwrap();
    };
    // A save lasts some tens of milliseconds: try until both Ctrl-Cs land inside one.
    let mut met_a_save = false;
    for _ in 0..3 {
        let dir = tempfile::tempdir().unwrap();
        let cache = dir.path().join("pdb");
        // The first 6-tile table of 5x5 (64 MB) takes some seconds to build, then is
        // saved (a smaller one is saved in a few milliseconds, too short to hit).
        let child = StdCommand::new(assert_cmd::cargo::cargo_bin("npuzzle"))
            .args([
                "pdb",
                "build",
                "--size",
                "5x5",
                "--partition",
                "6-6-6-6",
                "--pdb-dir",
            ])
            .arg(&cache)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let saving = || files_in(&cache).iter().any(|f| f.ends_with(".tmp"));
        let started = std::time::Instant::now();
        while !saving() && started.elapsed() < std::time::Duration::from_secs(60) {
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
        assert!(saving(), "no save seen");
        interrupt(child.id());
        // Apart, so the two signals are not merged into one.
        std::thread::sleep(std::time::Duration::from_millis(1));
        let still_saving = saving();
        interrupt(child.id());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("error: interrupted"), "{stderr}");
        let left = files_in(&cache);
        assert!(
            !left.iter().any(|f| f.ends_with(".tmp")),
            "left behind: {left:?}"
        );
        // Whatever was saved is whole.
        let (code, stdout, _) = run(
            &[
                "pdb",
                "list",
                "--verify",
                "--pdb-dir",
                cache.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(code, 0, "{stdout}");
        if still_saving {
            met_a_save = true;
            break;
        }
    }
    assert!(met_a_save, "no try met a save in progress");
}

/// E9: `pdb build` exited 0 when only some of a partition's tables were saved.
#[test]
fn a_partial_save_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first");
    build_tables("4x4", "5-5-5", first.to_str().unwrap());
    let names = files_in(&first);
    assert_eq!(names.len(), 3, "{names:?}");
    // A directory where one table's file goes: that table cannot be saved.
    let second = dir.path().join("second");
    std::fs::create_dir_all(second.join(&names[0])).unwrap();
    let (code, _, stderr) = run(
        &[
            "pdb",
            "build",
            "--size",
            "4x4",
            "--partition",
            "5-5-5",
            "--pdb-dir",
            second.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("only 2 of 3 tables"), "{stderr}");
    assert!(!files_in(&second).iter().any(|f| f.ends_with(".tmp")));
}

/// E7: `--memory-limit 50` with `-H pdb:1-7-7` built 58 MB of tables (peak 97 to 128 MB)
/// before the search said "memory". The tables, and building them, count.
#[test]
fn a_memory_limit_counts_the_tables_a_search_builds() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let board = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15";
    let started = std::time::Instant::now();
    let (code, stdout, stderr) = run(
        &[
            "solve",
            board,
            "-a",
            "idastar",
            "-H",
            "pdb:1-7-7",
            "--memory-limit",
            "50",
            "--json",
            "--pdb-dir",
            cache.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 3, "{stdout}{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["stopped_by"], "memory", "{report}");
    assert_eq!(report["length"], serde_json::Value::Null);
    // Nothing was built (a build of these tables takes seconds and saves them).
    assert!(files_in(&cache).is_empty(), "{:?}", files_in(&cache));
    assert!(started.elapsed() < std::time::Duration::from_secs(3));
    // Tables that fit are built and used.
    let (code, stdout, stderr) = run(
        &[
            "solve",
            board,
            "-a",
            "idastar",
            "-H",
            "pdb:5-5-5",
            "--memory-limit",
            "50",
            "--json",
            "--pdb-dir",
            cache.to_str().unwrap(),
        ],
        None,
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["length"], 1);
}

/// The memory a build takes is the core's own estimate of it (`pdb::build_size`, which
/// `tests/pdb_peak.rs` checks against the process's memory), not a rough 1.75 bytes an
/// entry: on 6x6 the seven 5-tile tables take 158 MB and building one 113 MB more, where the
/// rough count said 79 MB and let `--memory-limit 245` (MiB) start building them all.
#[test]
fn a_memory_limit_counts_what_building_a_table_takes() {
    let board = "1 2 3 4 5 6/7 8 9 10 11 12/13 14 15 16 17 18/19 20 21 22 23 24/25 26 27 28 29 30/31 32 33 34 0 35";
    for command in ["solve", "batch"] {
        stops_for_memory(command, board, "pdb:5-5-5-5-5-5-5", "245");
    }
}

/// With no heuristic named, the plan takes the strongest tables that fit the memory limit,
/// down to linear conflict: plain `solve` on 5x5 with `--memory-limit 100` and `6-6-6-6`
/// cached stopped with "memory" and no answer. `--explain` shows the plan `solve` runs.
#[test]
fn a_memory_limit_makes_auto_choose_tables_that_fit() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let board = "5 1 2 3/0 6 7 4/9 10 11 8/13 14 15 12";
    let cache = cache.to_str().unwrap();
    let mut lengths = Vec::new();
    for (mb, heuristic) in [("1", "linear-conflict"), ("4096", "pdb:6-6-3")] {
        let args = [
            "solve",
            board,
            "--json",
            "--memory-limit",
            mb,
            "--pdb-dir",
            cache,
        ];
        let (code, stdout, stderr) = run(&args, None);
        assert_eq!(code, 0, "{stdout}{stderr}");
        let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(report["heuristic"], heuristic, "{report}");
        // Both proved optimal, so of one length.
        assert_eq!(report["optimal"], true);
        lengths.push(report["length"].as_u64().unwrap());
        let (_, explained, _) = run(&[&args[..], &["--explain"]].concat(), None);
        let plan: serde_json::Value = serde_json::from_str(&explained).unwrap();
        assert_eq!(plan["phases"][0]["heuristic"], heuristic, "{plan}");
    }
    assert_eq!(lengths[0], lengths[1]);
}

/// Past 16 cells, where a time budget ends the run, the plan takes no tables it cannot
/// expect to have within three quarters of it: `solve` on a 5x5 board with `--time-limit
/// 0.5` and an empty cache spent the half second building `5-5-5-5-4` and printed the
/// constructive path, 180 moves where linear conflict alone finds 132. Now it builds nothing
/// and runs the anytime engine with linear conflict, as `--explain` says; with tables
/// cached that load in no time, or a budget that leaves time to build them, it takes them.
#[test]
fn a_short_budget_makes_auto_choose_tables_it_can_have_in_time() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let cache = cache.to_str().unwrap();
    let (_, board, _) = run(&["random", "--size", "5x5", "--seed", "1"], None);
    let board = board.trim();
    // `solve` on the board with the test's cache and `flags`.
    let solve = |flags: &[&str]| {
        let args = [&["solve", board, "--pdb-dir", cache][..], flags].concat();
        let (code, stdout, stderr) = run(&args, None);
        assert_eq!(code, 0, "{stdout}{stderr}");
        stdout
    };
    let explained = |time: &str| {
        let stdout = solve(&["--explain", "--json", "--time-limit", time]);
        let plan: serde_json::Value = serde_json::from_str(&stdout).unwrap();
        (
            plan["phases"][0]["heuristic"].clone(),
            plan["tables"].clone(),
        )
    };
    let (heuristic, tables) = explained("0.5");
    assert_eq!(heuristic, "linear-conflict");
    assert_eq!(tables, serde_json::json!([]));
    // The plan says what it passed over, and why.
    let text = solve(&["--explain", "--time-limit", "0.5"]);
    assert!(
        text.contains("Not pdb:5-5-5-5-4: its tables take about"),
        "{text}"
    );
    // Ten seconds (the default budget) leave time to build the tables.
    assert_eq!(explained("10").0, "pdb:5-5-5-5-4");
    let stdout = solve(&["--json", "--time-limit", "0.5"]);
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["heuristic"], "linear-conflict", "{report}");
    assert_eq!(report["stopped_by"], "time", "{report}");
    common::assert_replays_to_standard(board, 5, &report);
    let files = files_in(std::path::Path::new(cache));
    assert!(files.is_empty(), "{files:?}");
    // Cached, the small tables load in a moment: half a second takes them.
    build_tables("5x5", "5-5-5-5-4", cache);
    assert_eq!(explained("0.5").0, "pdb:5-5-5-5-4");
}

/// Tables that turn out much slower than the plan expected are given up, and the run goes
/// on with linear conflict, saying so. Here each of `5-5-5-5-4`'s cached files has its last
/// byte flipped: header and length are whole, so the plan takes them for a read of a moment,
/// but the load finds the checksum wrong and the run must rebuild them (about a second)
/// within a budget of 0.4 s. (A file cut short is seen by the plan, whose read of the
/// header checks the file's length, and planned as a build.) Before, the rebuild ran to the limit and nothing said
/// why the answer came from linear conflict; now it is given up by nine tenths of the budget,
/// by `solve` and `batch` alike, with the same warning.
#[test]
fn tables_slower_than_planned_are_given_up_and_the_run_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let cache_arg = cache.to_str().unwrap();
    build_tables("5x5", "5-5-5-5-4", cache_arg);
    for name in files_in(&cache) {
        let path = cache.join(&name);
        let mut bytes = std::fs::read(&path).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0xFF;
        std::fs::write(&path, &bytes).unwrap();
    }
    let (_, board, _) = run(&["random", "--size", "5x5", "--seed", "1"], None);
    let board = board.trim();
    let solve = |flags: &[&str]| {
        let args = [&["solve", board, "--pdb-dir", cache_arg][..], flags].concat();
        run(&args, None)
    };
    let (_, plan, _) = solve(&["--explain", "--json", "--time-limit", "0.4"]);
    let plan: serde_json::Value = serde_json::from_str(&plan).unwrap();
    assert_eq!(plan["phases"][0]["heuristic"], "pdb:5-5-5-5-4", "{plan}");
    let began = std::time::Instant::now();
    let (code, stdout, stderr) = solve(&["--json", "--time-limit", "0.4"]);
    let took = began.elapsed();
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stderr.contains("warning: the tables of pdb:5-5-5-5-4 were not ready in time"),
        "{stderr}"
    );
    let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(report["heuristic"], "linear-conflict", "{report}");
    common::assert_replays_to_standard(board, 5, &report);
    // The budget, and the process's start and end.
    assert!(took < std::time::Duration::from_secs(3), "{took:?}");
    // `batch` gives them up by the same rule, for the one board it has, in the same words
    // (it said nothing before).
    let args = [
        "batch",
        "-",
        "--format",
        "json",
        "--time-limit",
        "0.4",
        "--pdb-dir",
        cache_arg,
    ];
    let (code, stdout, stderr) = run(&args, Some(format!("{board}\n").as_bytes()));
    assert_eq!(code, 0, "{stdout}{stderr}");
    let warning = stderr
        .lines()
        .find(|l| l.starts_with("warning: the tables of"));
    let words = |line: &str| line.split(" (").next().unwrap().to_string();
    assert_eq!(
        warning.map(words),
        Some("warning: the tables of pdb:5-5-5-5-4 were not ready in time".to_string()),
        "{stderr}"
    );
    let rest = |line: &str| line.rsplit(')').next().unwrap().to_string();
    assert_eq!(
        warning.map(rest).as_deref(),
        Some("; the search runs with linear-conflict")
    );
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(report["heuristic"], "linear-conflict", "{report}");
    common::assert_replays_to_standard(board, 5, &report);
}

/// `batch` fetches a goal's tables once for all its boards, so they may take a share of all
/// those boards' time, not of one board's: twenty 5x5 boards at 0.3 s each with an empty
/// cache ran linear conflict on every board (the plan, made for one board's 0.3 s, passed
/// over `5-5-5-5-4`, about a second to build); now the batch builds them once and every
/// board searches with them. A batch of one board is planned as `solve` plans it.
#[test]
fn a_batch_plans_its_tables_for_the_time_of_all_its_boards() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let cache = cache.to_str().unwrap();
    let (_, boards, _) = run(
        &["random", "--size", "5x5", "--count", "20", "--seed", "1"],
        None,
    );
    let batch = |boards: &str| {
        let args = [
            "batch",
            "-",
            "--format",
            "json",
            "--time-limit",
            "0.3",
            "--jobs",
            "1",
            "--pdb-dir",
            cache,
        ];
        let (code, stdout, stderr) = run(&args, Some(boards.as_bytes()));
        assert_eq!(code, 0, "{stdout}{stderr}");
        let reports: Vec<serde_json::Value> = stdout
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(reports.len(), boards.lines().count(), "{stdout}");
        for (report, board) in reports.iter().zip(boards.lines()) {
            common::assert_replays_to_standard(board, 5, report);
        }
        reports
    };
    let first = boards.lines().next().unwrap();
    let [alone] = &batch(&format!("{first}\n"))[..] else {
        panic!("one board, one line")
    };
    assert_eq!(alone["heuristic"], "linear-conflict", "{alone}");
    assert!(files_in(std::path::Path::new(cache)).is_empty());
    for report in batch(&boards) {
        assert_eq!(report["heuristic"], "pdb:5-5-5-5-4", "{report}");
    }
}

/// Tables a batch could not have ready in the time of all its boards are not built again
/// for each board, and `bench` holds its fetch to that time too: `batch --optimal --time-limit 0.3` on five 4x4 boards with no 8-tile
/// table cached gave up the build after the five boards' time, then spent each board's 0.3
/// s building it again (and overran each by the fill of its distances), 2.1 to 2.4 s in
/// all. Now each board stops at once, saying `time`.
#[test]
fn a_batch_does_not_build_again_for_each_board_tables_it_had_no_time_for() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let (_, boards, _) = run(
        &["random", "--size", "4x4", "--count", "3", "--seed", "7"],
        None,
    );
    let args = [
        "batch",
        "-",
        "--format",
        "json",
        "--optimal",
        "--time-limit",
        "1",
        "--jobs",
        "1",
        "--pdb-dir",
        cache.to_str().unwrap(),
    ];
    let (code, stdout, stderr) = run(&args, Some(boards.as_bytes()));
    assert_eq!(code, 3, "{stdout}{stderr}");
    let reports: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(reports.len(), 3, "{stdout}");
    for report in reports {
        assert_eq!(report["stopped_by"], "time", "{report}");
        assert_eq!(report["generated"], 0, "{report}");
        // The board's own second went unspent (it spent all of it, and more, before).
        let seconds = report["seconds"].as_f64().unwrap();
        assert!(seconds < 0.5, "{report}");
    }
    // `bench` fetched its tables with no clock at all: 22 s for the 8-tile table at
    // `--time-limit 0.3`, then every board solved.
    let file = dir.path().join("boards.txt");
    std::fs::write(&file, &boards).unwrap();
    let mut args = vec!["bench", file.to_str().unwrap(), "--json"];
    args.extend(["--time-limit", "1", "--jobs", "1", "--pdb-dir"]);
    args.push(cache.to_str().unwrap());
    let (code, stdout, stderr) = run(&args, None);
    assert_eq!(code, 3, "{stdout}{stderr}");
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let (summary, rows) = lines.split_last().unwrap();
    assert_eq!(rows.len(), 3, "{stdout}");
    for row in rows {
        assert_eq!(row["stopped_by"], "time", "{row}");
    }
    let summary = &summary["summary"];
    assert_eq!(summary["tables_given_up"], 1, "{summary}");
    // Given up at the three boards' time: well before the build's end.
    assert!(
        summary["table_seconds"].as_f64().unwrap() < 6.0,
        "{summary}"
    );
}

/// E7 in `batch`: `--memory-limit 50` with `-H pdb:1-7-7` built both 58 MB tables (and
/// saved them) before the search said "memory"; `solve` counted them, `batch` did not.
#[test]
fn a_memory_limit_counts_the_tables_a_batch_builds() {
    let board = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15";
    stops_for_memory("batch", board, "pdb:1-7-7", "50");
}

/// Runs `command` (`solve` or `batch`) on `board` with IDA*, `heuristic` and `--memory-limit
/// mb`, and checks that it stopped at once, saying "memory", having built nothing.
fn stops_for_memory(command: &str, board: &str, heuristic: &str, mb: &str) {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let started = std::time::Instant::now();
    let mut args = vec![command];
    args.extend(if command == "solve" {
        [board, "--json"]
    } else {
        ["-", "--format=json"]
    });
    let limits = ["-a", "idastar", "-H", heuristic, "--memory-limit", mb];
    args.extend(limits);
    args.extend(["--pdb-dir", cache.to_str().unwrap()]);
    let out = common::npuzzle()
        .args(&args)
        .write_stdin(format!("{board}\n"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{command}: {stdout}");
    let report: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap();
    assert_eq!(report["stopped_by"], "memory", "{command}: {report}");
    // No path, so nothing is guaranteed shortest; the start's own bound is still known (it
    // said `optimal: true`, with no `lower_bound`).
    assert_eq!(report["optimal"], false, "{command}: {report}");
    assert!(
        report["lower_bound"].as_u64().is_some(),
        "{command}: {report}"
    );
    let files = files_in(&cache);
    assert!(files.is_empty(), "{command}: {files:?}");
    assert!(started.elapsed() < std::time::Duration::from_secs(3));
}

/// Rewrites a table file's data with `change` and recomputes both CRC-32s, as whoever can
/// rewrite the file can (layout in store.rs: the data is the file's last `data bytes`).
fn tamper(path: &std::path::Path, change: impl FnOnce(&mut [u8])) {
    let mut bytes = std::fs::read(path).unwrap();
    let data_bytes = u64::from_le_bytes(bytes[56..64].try_into().unwrap()) as usize;
    let at = bytes.len() - data_bytes;
    change(&mut bytes[at..]);
    let data = crc32fast::hash(&bytes[at..]);
    bytes[76..80].copy_from_slice(&data.to_le_bytes());
    let header = crc32fast::hash(&bytes[..80]);
    bytes[80..84].copy_from_slice(&header.to_le_bytes());
    std::fs::write(path, &bytes).unwrap();
}

/// `npuzzle` with its table key at `key` (not the user's).
fn run_keyed(key: &std::path::Path, args: &[&str]) -> (i32, String, String) {
    let out = common::npuzzle()
        .env("NPUZZLE_TABLE_KEY", key)
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// E5, the rest: a table whose entries were raised away from the goal (here one entry in
/// the middle of the 6-tile table, by one: two moves), checksums recomputed, passed
/// `pdb list --verify` about 19 times in 20 and every load (the sample rarely meets it).
/// The keyed digest written at build catches it every time; and a table written under
/// another key (another user's, a copy from elsewhere) is not trusted either: it is
/// rebuilt.
#[test]
fn a_table_raised_away_from_the_goal_fails_its_digest() {
    let dir = tempfile::tempdir().unwrap();
    let key = dir.path().join("config").join("table-key");
    let cache = dir.path().join("pdb");
    let pdb_dir = cache.to_str().unwrap();
    let build = ["pdb", "build", "--size", "4x4", "--partition", "6-6-3"];
    let (code, _, stderr) = run_keyed(&key, &[&build[..], &["--pdb-dir", pdb_dir]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert!(key.is_file(), "the key is made on first use");
    let (code, stdout, _) = run_keyed(&key, &["pdb", "list", "--verify", "--pdb-dir", pdb_dir]);
    assert_eq!(code, 0, "{stdout}");
    let mut names = files_in(&cache);
    names.sort_by_key(|n| std::fs::metadata(cache.join(n)).unwrap().len());
    let largest = cache.join(names.last().unwrap());
    tamper(&largest, |data| {
        let i = (data.len() / 2..data.len())
            .find(|&i| data[i] & 0xF < 14)
            .unwrap();
        data[i] += 1;
    });
    let (code, stdout, _) = run_keyed(&key, &["pdb", "list", "--verify", "--pdb-dir", pdb_dir]);
    assert_eq!(code, 2, "{stdout}");
    assert_eq!(stdout.matches("BAD: ").count(), 1, "{stdout}");
    assert!(stdout.contains("digest does not verify"), "{stdout}");
    // A solve does not use it: it rebuilds it, and the answer is optimal.
    let solve = [
        "solve",
        "5 1 2 3/9 6 7 4/13 10 11 8/0 14 15 12",
        "-a",
        "idastar",
        "-H",
        "pdb:6-6-3",
        "--pdb-dir",
        pdb_dir,
    ];
    let (code, stdout, stderr) = run_keyed(&key, &solve);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("9 moves, optimal"), "{stdout}");
    assert!(
        stderr.contains("not used") && stderr.contains("digest"),
        "{stderr}"
    );
    let (code, stdout, _) = run_keyed(&key, &["pdb", "list", "--verify", "--pdb-dir", pdb_dir]);
    assert_eq!(code, 0, "rebuilt and saved again: {stdout}");

    // Under another key every file is untrusted, and `pdb build` replaces them.
    let other = dir.path().join("other-key");
    let (code, stdout, _) = run_keyed(&other, &["pdb", "list", "--verify", "--pdb-dir", pdb_dir]);
    assert_eq!(code, 2, "{stdout}");
    assert_eq!(
        stdout.matches("digest does not verify").count(),
        3,
        "{stdout}"
    );
    let (code, _, stderr) = run_keyed(&other, &[&build[..], &["--pdb-dir", pdb_dir]].concat());
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(stderr.matches("not used").count(), 3, "{stderr}");
    let (code, stdout, _) = run_keyed(&other, &["pdb", "list", "--verify", "--pdb-dir", pdb_dir]);
    assert_eq!(code, 0, "{stdout}");
}

/// E5: a table with every entry raised to the 4-bit maximum and its checksums recomputed
/// passed verification (a search then ran to its limit): capped entries escape the
/// sampled check, which met the goal's entry about once in 22 tries on a 6-tile table.
#[test]
fn a_table_raised_to_the_cap_fails_verification() {
    let dir = tempfile::tempdir().unwrap();
    let cache = dir.path().join("pdb");
    let pdb_dir = cache.to_str().unwrap();
    build_tables("4x4", "6-6-3", pdb_dir);
    let names = files_in(&cache);
    assert_eq!(names.len(), 3, "{names:?}");
    for name in &names {
        let path = cache.join(name);
        // Every entry 15; both CRC-32s recomputed (layout in store.rs).
        tamper(&path, |data| data.fill(0xFF));
    }
    let (code, stdout, _) = run(&["pdb", "list", "--verify", "--pdb-dir", pdb_dir], None);
    assert_eq!(code, 2, "{stdout}");
    assert_eq!(stdout.matches("BAD: ").count(), 3, "{stdout}");
    // A solve does not trust them: it rebuilds, and the answer is optimal.
    let (code, stdout, stderr) = run(
        &[
            "solve",
            "5 1 2 3/9 6 7 4/13 10 11 8/0 14 15 12",
            "-a",
            "idastar",
            "-H",
            "pdb:6-6-3",
            "--pdb-dir",
            pdb_dir,
            "--time-limit",
            "20",
        ],
        None,
    );
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(stdout.contains("9 moves, optimal"), "{stdout}");
    assert!(stderr.contains("not used"), "{stderr}");
}
