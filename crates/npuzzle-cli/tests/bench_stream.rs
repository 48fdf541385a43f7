//! `npuzzle bench` streams: each row is printed as its instance ends, and an interrupted
//! run's summary says how many were solved without claiming that the lengths of the
//! instances it never finished matched.

mod common;

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// A 1-move board, then two random 15-puzzles that IDA* with misplaced tiles takes
/// minutes over on one thread, each with a length the file claims.
const INSTANCES: &str = "1 2 3 4 5 6 7 8 9 10 11 12 13 14 0 15 1\n\
                         6 1 10 2 7 11 4 14 5 0 9 15 8 12 13 3 52\n\
                         12 8 9 6 5 1 2 15 11 7 10 14 0 3 4 13 55\n";

#[test]
fn bench_prints_each_row_as_it_ends_and_an_interrupt_tells_the_truth() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("instances.txt");
    std::fs::write(&file, INSTANCES).unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_npuzzle"))
        .args([
            "bench",
            "-a",
            "idastar",
            "-H",
            "misplaced",
            "--threads",
            "1",
        ])
        .arg(&file)
        .env("NPUZZLE_PDB_DIR", dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap();
            let _ = tx.send(line);
        }
    });
    // The first instance's row comes while the second is still being searched.
    let mut seen = Vec::new();
    let first_row = loop {
        match rx.recv_timeout(Duration::from_secs(10)) {
            Ok(line) if line.trim_start().starts_with("1 ") => break Some(line),
            Ok(line) => seen.push(line),
            Err(_) => break None,
        }
    };
    let still_running = child.try_wait().unwrap().is_none();
    // Ctrl-C, as a terminal sends it.
    let pid = child.id().to_string();
    Command::new("kill").args(["-INT", &pid]).status().unwrap();
    let status = child.wait().unwrap();
    reader.join().unwrap();
    let rest: Vec<String> = rx.try_iter().collect();
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let all = format!("{}\n{}", seen.join("\n"), rest.join("\n"));
    let first_row = first_row.unwrap_or_else(|| panic!("no row within 10 s:\n{all}\n{stderr}"));
    assert!(still_running, "the row came only at the end:\n{all}");
    assert!(first_row.contains("    1 "), "{first_row}");

    assert_eq!(status.code(), Some(3), "{all}\n{stderr}");
    let summary = rest
        .iter()
        .find(|l| l.contains("Solved") || l.contains("Interrupted"))
        .unwrap_or_else(|| panic!("no summary:\n{all}"));
    assert!(
        summary.starts_with("Interrupted (Ctrl-C): solved 1 of 3"),
        "{summary}"
    );
    assert!(!all.contains("every length matches"), "{all}");
    assert!(
        summary.contains("1 of 3 expected lengths checked"),
        "{summary}"
    );
}

/// On a terminal (`script` gives the child one) a progress line counts the instances done
/// from the start; piped, standard error stays silent.
#[test]
fn bench_shows_progress_on_a_terminal_and_is_silent_when_piped() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("instances.txt");
    std::fs::write(&file, INSTANCES).unwrap();
    let bin = env!("CARGO_BIN_EXE_npuzzle");
    let args = "bench -a idastar -H misplaced --threads 1 --max-nodes 100000";
    let command = format!("{bin} {args} {}", file.display());
    let out = Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("NPUZZLE_PDB_DIR", dir.path())
        .stdin(Stdio::null())
        .output()
        .expect("script(1), from util-linux");
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(screen.contains("0/3 done"), "{screen}");
    assert!(screen.contains("Solved 1 of 3"), "{screen}");

    let out = Command::new(bin)
        .args(args.split(' '))
        .arg(&file)
        .env("NPUZZLE_PDB_DIR", dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("Solved 1 of 3; 1 of 3 expected lengths checked, all matching."),
        "{stdout}"
    );
}
