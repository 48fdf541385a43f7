//! `npuzzle pdb`, `npuzzle bench` and pattern databases through `npuzzle solve`.

use assert_cmd::Command;
use predicates::prelude::*;
use tempfile::TempDir;

fn npuzzle(dir: &TempDir) -> Command {
    let mut cmd = Command::cargo_bin("npuzzle").unwrap();
    cmd.env("NPUZZLE_PDB_DIR", dir.path());
    cmd
}

#[test]
fn build_list_and_detect_a_corrupt_file() {
    let dir = TempDir::new().unwrap();
    npuzzle(&dir)
        .args(["pdb", "build", "--size", "3x3", "--partition", "4-4"])
        .assert()
        .success()
        .stdout(predicate::str::contains("pdb:4-4 for 3x3"))
        .stdout(predicate::str::contains("built in"));
    // Built once, then loaded.
    npuzzle(&dir)
        .args(["pdb", "build", "--size", "3x3", "--partition", "4-4"])
        .assert()
        .success()
        .stdout(predicate::str::contains("loaded from"));
    npuzzle(&dir)
        .args(["pdb", "list", "--verify"])
        .assert()
        .success()
        .stdout(predicate::str::contains("3x3-00f-b8.pdb.bin"))
        .stdout(predicate::str::contains("3x3-0f0-b8.pdb.bin"))
        .stdout(
            predicate::str::contains("ok (checksums, digest and a sample of entries verified)")
                .count(2),
        );

    let file = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".pdb.bin"))
        .unwrap();
    let mut bytes = std::fs::read(&file).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0xFF;
    std::fs::write(&file, &bytes).unwrap();
    // A BAD row fails the listing (issue 15, item 13).
    npuzzle(&dir)
        .args(["pdb", "list", "--verify"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("BAD: data checksum mismatch"));
    // A solve reports the bad file, rebuilds it and still answers.
    npuzzle(&dir)
        .args(["solve", "8 6 7/2 5 4/3 0 1", "--heuristic", "pdb:4-4"])
        .assert()
        .success()
        .stdout(predicate::str::contains("31 moves, optimal"))
        .stdout(predicate::str::contains("pdb:4-4"))
        .stderr(predicate::str::contains("data checksum mismatch"));
    npuzzle(&dir)
        .args(["pdb", "list", "--verify"])
        .assert()
        .success()
        .stdout(predicate::str::contains("BAD").not());
}

/// A table file cut short is BAD in a plain `pdb list` (it was "ok", at its header's size),
/// and a goal whose table is BAD is not "Ready" (`--verify` marked a table BAD and still
/// called its partition ready); the next solve rebuilt the table either way.
#[test]
fn list_calls_no_partition_ready_whose_table_is_bad() {
    let dir = TempDir::new().unwrap();
    let ready = "Ready for 3x4 goal blank-first: pdb:8-3";
    npuzzle(&dir)
        .args(["pdb", "build", "--size", "3x4", "--goal", "blank-first"])
        .assert()
        .success();
    npuzzle(&dir)
        .args(["pdb", "list"])
        .assert()
        .success()
        .stdout(predicate::str::contains(ready));
    let largest = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".pdb.bin"))
        .max_by_key(|p| std::fs::metadata(p).unwrap().len())
        .unwrap();
    let bytes = std::fs::read(&largest).unwrap();

    std::fs::write(&largest, &bytes[..bytes.len() - 1000]).unwrap();
    npuzzle(&dir)
        .args(["pdb", "list"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("(truncated or padded)"))
        .stdout(predicate::str::contains(ready).not());

    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0xFF;
    std::fs::write(&largest, &flipped).unwrap();
    npuzzle(&dir)
        .args(["pdb", "list", "--verify"])
        .assert()
        .code(2)
        .stdout(predicate::str::contains("BAD: data checksum mismatch"))
        .stdout(predicate::str::contains(ready).not());
}

#[test]
fn auto_on_4x4_says_it_used_a_pdb() {
    let dir = TempDir::new().unwrap();
    npuzzle(&dir)
        .args(["solve", "--goal", "blank-first", "--json"])
        .arg("14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3")
        .assert()
        .success()
        .stdout(predicate::str::contains("\"heuristic\":\"pdb:6-6-3\""))
        .stdout(predicate::str::contains("\"length\":57"));
    // The tables were cached for the next run.
    npuzzle(&dir)
        .args(["pdb", "list"])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Ready for 4x4 goal blank-first: pdb:6-6-3",
        ));
}

#[test]
fn bad_partitions_are_invalid_input() {
    let dir = TempDir::new().unwrap();
    npuzzle(&dir)
        .args(["pdb", "build", "--size", "4x4", "--partition", "7-7"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "partition 7-7 covers 14 tiles but a 4x4 board has 15",
        ));
    npuzzle(&dir)
        .args(["solve", "1 2 3 4 5 6 7 0 8", "--heuristic", "pdb:x"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid pattern database `pdb:x`"));
    npuzzle(&dir)
        .args(["solve", "1 2 3 4 5 6 7 0 8", "--heuristic", "pdb:7-8"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "covers 15 tiles but a 3x3 board has 8",
        ));
}

fn bench_file(dir: &TempDir, lines: &str) -> std::path::PathBuf {
    let path = dir.path().join("instances.txt");
    std::fs::write(&path, lines).unwrap();
    path
}

#[test]
fn bench_checks_lengths_and_reports() {
    let dir = TempDir::new().unwrap();
    let file = bench_file(
        &dir,
        "# 8-puzzles with their optimal lengths\n8 6 7 2 5 4 3 0 1 31\n1 2 3 4 5 6 7 0 8 1\n1 2 3 4 5 6 0 7 8 2\n",
    );
    npuzzle(&dir)
        .args(["bench", "--heuristic", "pdb:4-4"])
        .arg(&file)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "Solved 3 of 3; every length matches",
        ))
        .stdout(predicate::str::contains("Pattern databases: 2 tables"));

    let out = npuzzle(&dir)
        .args(["bench", "--json", "--jobs", "2"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    for (i, v) in lines[..3].iter().enumerate() {
        assert_eq!(v["index"], i, "0-based, as batch and compare number");
        assert_eq!(v["line"], i + 2, "the file's line, after its comment");
        assert_eq!(v["length"], v["expected"]);
        assert_eq!(v["optimal"], true);
        assert!(v["generated"].is_u64() && v["moves"].is_string() && v["size"] == "3x3");
    }
    let summary = &lines[3]["summary"];
    assert_eq!(summary["instances"], 3);
    assert_eq!(summary["solved"], 3);
    assert_eq!(summary["jobs"], 2);

    // A wrong expected length: exit 2, as from every command that reads files of boards.
    let file = bench_file(&dir, "8 6 7 2 5 4 3 0 1 29\n");
    npuzzle(&dir)
        .arg("bench")
        .arg(&file)
        .assert()
        .code(2)
        .stdout(predicate::str::contains(
            "wrong expected length: found 31 moves, the file says 29",
        ));
}

/// On a 5x5 board `solve`'s `auto` is the anytime engine, which answers with its best path
/// when its 10 s budget ends, but `bench` checks optimal lengths, so it asks the core for a
/// proof (`--optimal`: IDA* with 6-6-6-6 keeping the blank's region, built here in the
/// test's own cache) and runs it to
/// the end.
#[test]
fn bench_proves_optimality_where_auto_would_stop_at_its_budget() {
    let dir = TempDir::new().unwrap();
    let board = "1 3 7 8 0 13 9 5 16 4 2 22 6 12 10 17 18 19 24 14 11 21 23 20 15";
    let file = bench_file(&dir, &format!("{board} 56\n"));
    let out = npuzzle(&dir)
        .args(["bench", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let first: serde_json::Value = serde_json::from_str(
        String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["length"], 56);
    assert_eq!(first["optimal"], true);
    assert_eq!(first["algorithm"], "idastar");
    assert_eq!(first["heuristic"], "pdb:6-6-6-6:regions");
}

#[test]
fn bench_refuses_bad_arguments() {
    let dir = TempDir::new().unwrap();
    let file = bench_file(&dir, "1 2 3 4 5 6 7 0 8\n");
    npuzzle(&dir)
        .args(["bench", "--jobs", "0"])
        .arg(&file)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--jobs must be between 1 and 1024",
        ));
    npuzzle(&dir)
        .args(["bench", "no-such-file.txt"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot read no-such-file.txt"));
    let file = bench_file(&dir, "1 2 3 4 5 6 7 0 8\n1 2 3 x\n");
    npuzzle(&dir)
        .arg("bench")
        .arg(&file)
        .assert()
        .code(2)
        .stdout(predicate::str::contains("error: line 2"));
}

/// `pdb build --optimal` builds exactly the tables `solve --optimal` then loads (issue 22),
/// several at once, saying the peak memory first.
#[test]
fn build_optimal_makes_what_solve_optimal_uses() {
    let dir = TempDir::new().unwrap();
    let board = "4 1 2 3/0 5 6 7/8 9 10 11";
    npuzzle(&dir)
        .args([
            "pdb",
            "build",
            "--size",
            "3x4",
            "--optimal",
            "--threads",
            "2",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains("2 at a time: peak memory about"))
        .stdout(predicate::str::contains("built in").count(2));
    let explain = npuzzle(&dir)
        .args(["solve", board, "--optimal", "--explain"])
        .output()
        .unwrap();
    let text = String::from_utf8(explain.stdout).unwrap();
    assert!(text.contains("load from the cache"), "{text}");
    assert!(!text.contains(": build,"), "{text}");
    // Asking for a partition as well is refused.
    npuzzle(&dir)
        .args(["pdb", "build", "--size", "3x4", "--optimal", "-p", "6-5"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("cannot be used with"));
}

/// Tables that keep the blank's region are asked for by name, built and cached under
/// names of their own, loaded by the solve that names them, and give the same optimal
/// length with fewer nodes than Korf & Felner's kind.
#[test]
fn region_tables_are_built_cached_and_used_by_name() {
    let dir = TempDir::new().unwrap();
    npuzzle(&dir)
        .args(["pdb", "build", "--size", "3x4", "-p", "4-4-3:regions"])
        .assert()
        .success()
        .stdout(predicate::str::contains("pdb:4-4-3:regions"));
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".pdb.bin"))
        .collect();
    assert_eq!(names.len(), 3, "{names:?}");
    assert!(names.iter().all(|n| n.ends_with("-r.pdb.bin")), "{names:?}");
    let board = "9 0 1 11/7 6 4 2/3 5 10 8";
    let explain = npuzzle(&dir)
        .args(["solve", board, "-H", "pdb:4-4-3:regions", "--explain"])
        .output()
        .unwrap();
    let text = String::from_utf8(explain.stdout).unwrap();
    assert!(text.contains("load from the cache"), "{text}");
    assert!(!text.contains(": build,"), "{text}");
    let solve = |h: &str| {
        let out = npuzzle(&dir)
            .args(["solve", board, "-H", h, "--json"])
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (
            v["length"].as_u64().unwrap(),
            v["generated"].as_u64().unwrap(),
            v["optimal"].as_bool(),
        )
    };
    let (regions, classic) = (solve("pdb:4-4-3:regions"), solve("pdb:4-4-3"));
    assert_eq!(regions.0, classic.0);
    assert_eq!((regions.2, classic.2), (Some(true), Some(true)));
    assert!(regions.1 < classic.1, "{regions:?} {classic:?}");
}

#[test]
fn list_keeps_its_columns_for_long_file_names() {
    // 3x3 names are 18 characters, 5x5 ones 23, 6x6 ones 25: every row's columns start
    // where the header's do.
    let dir = TempDir::new().unwrap();
    for (size, partition) in [
        ("3x3", "4-4"),
        ("5x5", "3-3-3-3-3-3-3-3"),
        ("6x6", "3-3-3-3-3-3-3-3-3-3-3-2"),
    ] {
        npuzzle(&dir)
            .args(["pdb", "build", "--size", size, "--partition", partition])
            .assert()
            .success();
    }
    let out = npuzzle(&dir).args(["pdb", "list"]).output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let header = text.lines().find(|l| l.starts_with("file")).unwrap();
    let column = |line: &str, word: &str| line.find(word).unwrap();
    let (shape_at, cells_at, status_at) = (
        column(header, "shape") + "shape".len(),
        column(header, "goal cells"),
        column(header, "status"),
    );
    let rows: Vec<&str> = text.lines().filter(|l| l.contains(".pdb.bin")).collect();
    assert_eq!(rows.len(), 2 + 8 + 12, "{text}");
    // And what they hold on disk in all, to the megabyte's tenth.
    let bytes: u64 = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".pdb.bin"))
        .map(|e| e.metadata().unwrap().len())
        .sum();
    assert!(
        text.contains(&format!("22 files, {:.1} MB on disk", bytes as f64 / 1e6)),
        "{text}"
    );
    for row in rows {
        let shape = ["3x3", "5x5", "6x6"]
            .iter()
            .find(|s| row.contains(&format!(" {s} ")))
            .unwrap();
        assert_eq!(
            column(row, &format!(" {shape} ")) + 1 + shape.len(),
            shape_at,
            "{text}"
        );
        assert!(
            row[cells_at..].starts_with(|c: char| c.is_ascii_digit()),
            "{text}"
        );
        assert_eq!(&row[status_at..], "ok", "{text}");
    }
}

/// A solve that builds tables says first, on the terminal its bar is drawn on, what they
/// take and the peak memory, in `pdb build`'s words (issue 22: peak memory stated before
/// the build starts); piped, it says nothing. The terminal is `script`'s (util-linux).
#[test]
fn a_solve_that_builds_states_the_peak_memory_first() {
    let dir = TempDir::new().unwrap();
    let bin = assert_cmd::cargo::cargo_bin("npuzzle");
    let board = "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15";
    let command = format!(
        "'{}' solve '{board}' -a idastar -H pdb:5-5-5",
        bin.display()
    );
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("NPUZZLE_PDB_DIR", dir.path())
        .output()
        .expect("script (util-linux) runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let said = text.find("Building 3 tables (0.8 MB), 1 at a time: peak memory about ");
    let solved = text.find("Board (4x4):");
    assert!(said.is_some() && said < solved, "{text}");
    // Loaded from the cache: nothing to state.
    let out = std::process::Command::new("script")
        .args(["-qec", &command, "/dev/null"])
        .env("NPUZZLE_PDB_DIR", dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("Building"), "{text}");
    // Piped: the answer only.
    let other = TempDir::new().unwrap();
    let out = npuzzle(&other)
        .args(["solve", board, "-a", "idastar", "-H", "pdb:5-5-5"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!String::from_utf8_lossy(&out.stdout).contains("Building"));
}
