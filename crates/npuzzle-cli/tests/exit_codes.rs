//! One contract for every command: the exit-code table of `docs/cli.md` checked against the
//! binary (each row, each command that can end with it), one judgement of a file's expected
//! lengths with the same words from `solve --file`, `batch`, `bench` and `compare`, and one
//! precedence (solvability, then the plan) for `solve` and `batch`.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use tempfile::TempDir;

/// The exit codes of the table under "Limits and exit codes" in `docs/cli.md`.
fn documented_codes() -> Vec<i32> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/cli.md"))
            .unwrap();
    let section = doc
        .split("\n## Limits and exit codes")
        .nth(1)
        .expect("docs/cli.md has a section on exit codes");
    let section = section.split("\n## ").next().unwrap();
    let table: Vec<&str> = section
        .lines()
        .skip_while(|l| !l.starts_with("| exit |"))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .collect();
    assert!(!table.is_empty(), "no exit-code table in docs/cli.md");
    table
        .iter()
        .map(|row| {
            let cell = row.split('|').nth(1).unwrap().trim();
            cell.parse()
                .unwrap_or_else(|_| panic!("not an exit code: {row}"))
        })
        .collect()
}

/// The instance files the commands read, in a directory that also serves as an empty
/// table cache (nothing here builds large tables).
struct Files {
    dir: TempDir,
}

impl Files {
    fn new() -> Files {
        let dir = TempDir::new().unwrap();
        let write = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
        write("ok.txt", "1 2 3 4 5 6 0 7 8 2\n");
        // A solvable board and an unsolvable one: compare needs one it can run.
        write("unsolvable.txt", "1 2 3 4 5 6 0 7 8\n1 2 3 4 5 6 8 7 0\n");
        write("wrong.txt", "1 2 3 4 5 6 0 7 8 4\n1 2 3 4 5 6 8 7 0 5\n");
        write("invalid.txt", "1 2 3 4 5 6 7 7 0\n");
        write("hard.txt", "8 6 7 2 5 4 3 0 1\n");
        Files { dir }
    }

    fn path(&self, name: &str) -> String {
        self.dir.path().join(name).display().to_string()
    }

    /// Runs `npuzzle` with the table cache in the temporary directory.
    fn run(&self, args: &[String]) -> (i32, String) {
        let out = common::npuzzle()
            .args(args)
            .env("NPUZZLE_PDB_DIR", self.dir.path().join("pdb"))
            .output()
            .unwrap();
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code().unwrap_or(-1), text)
    }
}

/// For each exit code, a command line of every command that can end with it.
fn triggers(f: &Files) -> BTreeMap<i32, Vec<Vec<String>>> {
    let line = |s: &str| -> Vec<String> {
        s.split(' ')
            .map(|w| match w.strip_prefix('@') {
                Some(name) => f.path(name),
                None => w.replace('~', " "),
            })
            .collect()
    };
    let lines = |v: &[&str]| v.iter().map(|s| line(s)).collect::<Vec<_>>();
    // Quick limits that stop a search before it finds a path (the board needs 31 moves).
    let stop = "-a idastar -H manhattan --max-nodes 10";
    BTreeMap::from([
        (
            0,
            lines(&[
                "solve 1~2~3/4~5~6/7~0~8",
                "solve --file @ok.txt",
                "check 1~2~3/4~5~6/7~0~8",
                "random --size 3x3 --seed 1",
                "batch @ok.txt",
                "bench @ok.txt",
                "compare --file @ok.txt",
                "pdb list",
                "completions bash",
                "manpage",
            ]),
        ),
        (
            1,
            lines(&[
                "solve 1~2~3/4~5~6/8~7~0",
                "solve --file @unsolvable.txt",
                "check 1~2~3/4~5~6/8~7~0",
                "batch @unsolvable.txt",
                "bench @unsolvable.txt",
                "compare --file @unsolvable.txt",
            ]),
        ),
        (
            2,
            lines(&[
                "solve 1~2~3/4~5~6/7~7~0",
                "solve --file @invalid.txt",
                "solve --file @wrong.txt",
                "check 1~2~3/4~5~6/7~7~0",
                "random --size 3x3 --count 0",
                "batch @invalid.txt",
                "batch @wrong.txt",
                "bench @invalid.txt",
                "bench @wrong.txt",
                "compare --file @invalid.txt",
                "compare --file @wrong.txt",
                "pdb build --size 3x3 --partition 9-9",
                "completions cmd",
                "frobnicate",
            ]),
        ),
        (
            3,
            vec![
                line(&format!("solve 8~6~7/2~5~4/3~0~1 {stop}")),
                line(&format!("solve --file @hard.txt {stop}")),
                line(&format!("batch @hard.txt {stop}")),
                line(&format!("bench @hard.txt {stop}")),
                line("compare --file @hard.txt --config idastar:manhattan --reference none --max-nodes 10"),
            ],
        ),
    ])
}

#[test]
fn every_documented_exit_code_is_what_each_command_exits_with() {
    let f = Files::new();
    let triggers = triggers(&f);
    let documented = documented_codes();
    assert_eq!(
        documented,
        triggers.keys().copied().collect::<Vec<_>>(),
        "the codes of docs/cli.md's table and those this test triggers differ"
    );
    let mut wrong = Vec::new();
    for (code, commands) in &triggers {
        for args in commands {
            let (got, output) = f.run(args);
            if got != *code {
                wrong.push(format!(
                    "npuzzle {args:?}: exit {got}, documented {code}\n{output}"
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A file whose expected lengths are wrong (one disproved by the optimal path, one given
/// for an unsolvable board) gets the same exit code and the same words from every command
/// that reads files of boards. Before: 0 from `solve --file` and `compare` (which called
/// the optimal solver "a bug"), 2 from `batch`, 4 from `bench`.
#[test]
fn a_wrong_expected_length_is_judged_alike_by_every_command() {
    let f = Files::new();
    let wrong = f.path("wrong.txt");
    for command in [
        vec!["solve", "--file", &wrong],
        vec!["batch", &wrong],
        vec!["bench", &wrong],
        vec!["compare", "--file", &wrong],
    ] {
        let args: Vec<String> = command.iter().map(ToString::to_string).collect();
        let (code, output) = f.run(&args);
        assert_eq!(code, 2, "{command:?}:\n{output}");
        for words in [
            "wrong expected length: found 2 moves, the file says 4",
            "wrong expected length: unsolvable, the file says 5 moves",
        ] {
            assert!(
                output.contains(words),
                "{command:?} lacks {words:?}:\n{output}"
            );
        }
        assert!(!output.contains("a bug"), "{command:?}:\n{output}");
    }
}

/// A file without a board (empty, comments only, or a classroom header alone) gets one
/// line, "FILE has no boards", and exit 2 from every command that reads boards. Before, a
/// header alone gave `solve` and `check` exit 0 and no output, `batch` and `bench` an
/// empty table and exit 0, and `bench` counted an empty file as "1 error".
#[test]
fn a_file_without_boards_is_refused_alike_by_every_command() {
    let f = Files::new();
    for (name, text) in [
        ("empty.txt", ""),
        ("comments.txt", "# nothing yet\n\n"),
        ("header.txt", "N=3\n"),
        ("order.txt", "# the 8-puzzle\n3\n"),
    ] {
        std::fs::write(f.dir.path().join(name), text).unwrap();
        let file = f.path(name);
        for command in [
            vec!["solve", "--file", &file],
            vec!["solve", &file],
            vec!["check", "--file", &file],
            vec!["batch", &file],
            vec!["bench", &file],
            vec!["compare", "--file", &file],
        ] {
            let args: Vec<String> = command.iter().map(ToString::to_string).collect();
            let (code, output) = f.run(&args);
            assert_eq!(code, 2, "{command:?}:\n{output}");
            assert_eq!(
                output,
                format!("error: {file} has no boards\n"),
                "{command:?}"
            );
        }
        for command in ["solve", "check", "batch -"] {
            let args: Vec<&str> = command.split(' ').collect();
            let (code, _, err) = common::run(&args, Some(text.as_bytes()));
            assert_eq!(code, 2, "{command} < {name}");
            assert_eq!(err, "error: standard input has no boards\n", "{command}");
        }
    }
}

/// An unsolvable 4x4 board with a heuristic refused on 4x4 (`perfect`): solvability is
/// decided first by every command, so each says unsolvable (exit 1). Before, `solve`
/// refused the heuristic first (exit 2) while `batch` said unsolvable (exit 1).
#[test]
fn solvability_comes_before_the_plan_in_every_command() {
    let f = Files::new();
    let board = "1 2 3 4 5 6 7 8 9 10 11 12 13 15 14 0";
    std::fs::write(f.dir.path().join("refused.txt"), format!("{board}\n")).unwrap();
    let file = f.path("refused.txt");
    for command in [
        vec!["solve", board, "-H", "perfect"],
        vec!["solve", "--file", &file, "-H", "perfect"],
        vec!["batch", &file, "-H", "perfect"],
        vec!["bench", &file, "-H", "perfect"],
    ] {
        let args: Vec<String> = command.iter().map(ToString::to_string).collect();
        let (code, output) = f.run(&args);
        assert_eq!(code, 1, "{command:?}:\n{output}");
    }
}
