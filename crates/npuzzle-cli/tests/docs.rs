//! The docs are tested: every command block of `README.md` and `docs/*.md` marked for it
//! runs against the binary, with the exit code and the output lines the docs show.
//!
//! The markers (the fence's info string, which Markdown renderers ignore after the
//! language):
//! - ```` ```sh test ````: the block runs as one bash script (`set -e`), in a scratch
//!   directory holding a link to `data/`, with `npuzzle` on the `PATH`, `HOME` and the
//!   table cache in scratch directories. It must exit 0, except that a line whose comment
//!   says `exit N` must exit N (`npuzzle check "…"   # unsolvable (exit 1)`). When a
//!   ```` ```text ```` block follows it, each of that block's lines must appear in the
//!   output, in order.
//! - ```` ```text test ````: a transcript: each `$ COMMAND` line runs (exit 0, or the N of
//!   an `# exit N` comment) and the lines after it, up to the next `$`, must appear in its
//!   output, in order.
//!
//! Output lines compare after trimming, with every decimal number (`0.000007`, a time)
//! standing for any other; a shown line `...` stands for lines left out, and a line ending
//! in `...` shows only the beginning of one. Blocks that cannot run quickly in CI stay unmarked, with the
//! reason in an HTML comment above them. `docs/cli.md`'s table of what `auto` runs is
//! checked against `--explain` below.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

/// A block a test runs.
struct Block {
    /// `README.md:17`, for messages.
    place: String,
    /// `sh` or `text`.
    language: String,
    /// Whether the info string says `test`.
    marked: bool,
    lines: Vec<String>,
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The documents whose blocks are tested: the README and every page of `docs/`.
fn documents() -> Vec<PathBuf> {
    let mut docs: Vec<PathBuf> = std::fs::read_dir(repo().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    docs.insert(0, repo().join("README.md"));
    docs
}

/// The fenced blocks of a Markdown text, in order.
fn blocks(name: &str, text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((n, line)) = lines.next() {
        let Some(info) = line.strip_prefix("```") else {
            continue;
        };
        let mut words = info.split_whitespace();
        let language = words.next().unwrap_or("").to_string();
        let marked = words.any(|w| w == "test");
        let body = lines
            .by_ref()
            .map(|(_, l)| l)
            .take_while(|l| !l.starts_with("```"))
            .map(str::to_string)
            .collect();
        out.push(Block {
            place: format!("{name}:{}", n + 1),
            language,
            marked,
            lines: body,
        });
    }
    out
}

/// Whether a block directly follows another: only blank lines between them. Blocks are
/// adjacent in the list; this checks the text between them.
fn follows(text: &str, first: &Block, second: &Block) -> bool {
    let line = |b: &Block| -> usize { b.place.rsplit(':').next().unwrap().parse().unwrap() };
    let end = line(first) + first.lines.len() + 1; // the closing fence, 1-based
    text.lines()
        .skip(end)
        .take(line(second) - end - 1)
        .all(|l| l.trim().is_empty())
}

/// A line with every decimal number (`12.5`, a time) replaced by `#`.
fn normalised(line: &str) -> String {
    let chars: Vec<char> = line.trim().chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i].is_ascii_digit() {
            let mut j = i;
            while j < chars.len() && chars[j].is_ascii_digit() {
                j += 1;
            }
            if j + 1 < chars.len() && chars[j] == '.' && chars[j + 1].is_ascii_digit() {
                j += 1;
                while j < chars.len() && chars[j].is_ascii_digit() {
                    j += 1;
                }
                out.push('#');
            } else {
                out.extend(&chars[i..j]);
            }
            i = j;
        } else {
            out.push(chars[i]);
            i += 1;
        }
    }
    out
}

/// The expected lines missing from `output`, which must hold them in order.
fn missing(expected: &[String], output: &str) -> Vec<String> {
    let actual: Vec<String> = output.lines().map(normalised).collect();
    let mut at = 0;
    let mut missing = Vec::new();
    // `...` stands for lines left out.
    let shown = |l: &&String| !l.trim().is_empty() && !matches!(l.trim(), "..." | "…");
    for want in expected.iter().filter(shown) {
        // A line ending in `...` shows only its beginning.
        let (want_n, prefix) = match want.trim_end().strip_suffix("...") {
            Some(start) => (normalised(start), true),
            None => (normalised(want), false),
        };
        let found = |a: &String| {
            if prefix {
                a.starts_with(&want_n)
            } else {
                *a == want_n
            }
        };
        match actual[at..].iter().position(found) {
            Some(k) => at += k + 1,
            None => missing.push(want.clone()),
        }
    }
    missing
}

/// The exit code a command line's comment promises (`# … exit 1 …`), if any.
fn promised_exit(line: &str) -> Option<i32> {
    let comment = line.split(" # ").nth(1)?;
    let after = comment.split("exit ").nth(1)?;
    let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Lines joined where they end in `\`.
fn joined(lines: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for l in lines {
        if open {
            let last = out.last_mut().unwrap();
            last.pop();
            last.push_str(l.trim_start());
        } else {
            out.push(l.clone());
        }
        open = l.ends_with('\\');
    }
    out
}

/// The script of an `sh test` block: `set -e`, and each line that promises an exit code
/// checked for it.
fn script(lines: &[String]) -> String {
    let mut s = String::from("set -e\n");
    for line in joined(lines) {
        match promised_exit(&line) {
            Some(code) => {
                let command = line.split(" # ").next().unwrap();
                s.push_str(&format!(
                    "if {command}; then rc=0; else rc=$?; fi\n\
                     [ $rc -eq {code} ] || {{ echo \"exit $rc, not {code}: {}\" >&2; exit 99; }}\n",
                    command.replace('"', "'")
                ));
            }
            None => {
                s.push_str(&line);
                s.push('\n');
            }
        }
    }
    s
}

/// Where the blocks run: a scratch directory with `data/` linked in, its own `HOME` and
/// table cache (shared by the blocks, so a table is built once).
struct Scratch {
    dir: tempfile::TempDir,
}

impl Scratch {
    fn new() -> Scratch {
        let dir = tempfile::tempdir().unwrap();
        for sub in ["work", "home", "pdb"] {
            std::fs::create_dir(dir.path().join(sub)).unwrap();
        }
        std::os::unix::fs::symlink(repo().join("data"), dir.path().join("work/data")).unwrap();
        Scratch { dir }
    }

    /// Runs a bash script; (exit code, stdout and stderr).
    fn run(&self, script: &str) -> (i32, String) {
        let bin = Path::new(env!("CARGO_BIN_EXE_npuzzle")).parent().unwrap();
        let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
        // A block that hangs fails the test rather than the CI run.
        let out = Command::new("timeout")
            .args(["60", "bash", "-c", script])
            .current_dir(self.dir.path().join("work"))
            .env("PATH", path)
            .env("HOME", self.dir.path().join("home"))
            .env("NPUZZLE_PDB_DIR", self.dir.path().join("pdb"))
            .stdin(Stdio::null())
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

/// Runs every marked block; the failures, each with its place.
fn failures_of(scratch: &Scratch, name: &str, text: &str) -> (usize, Vec<String>) {
    let blocks = blocks(name, text);
    let mut failures = Vec::new();
    let mut ran = 0;
    for (i, block) in blocks.iter().enumerate() {
        if !block.marked {
            continue;
        }
        ran += 1;
        match block.language.as_str() {
            "sh" => {
                let (code, output) = scratch.run(&script(&block.lines));
                if code != 0 {
                    failures.push(format!("{}: exit {code}\n{output}", block.place));
                    continue;
                }
                let shown = blocks
                    .get(i + 1)
                    .filter(|next| next.language == "text" && !next.marked)
                    .filter(|next| follows(text, block, next));
                if let Some(shown) = shown {
                    let lost = missing(&shown.lines, &output);
                    if !lost.is_empty() {
                        failures.push(format!("{}: output lacks {lost:?}\n{output}", block.place));
                    }
                }
            }
            "text" => {
                for (command, expected) in transcript(&block.lines) {
                    let code = promised_exit(&command).unwrap_or(0);
                    let run = command.split(" # ").next().unwrap();
                    let (got, output) = scratch.run(run);
                    if got != code {
                        failures.push(format!(
                            "{}: `{run}` exit {got}, not {code}\n{output}",
                            block.place
                        ));
                    }
                    let lost = missing(&expected, &output);
                    if !lost.is_empty() {
                        failures.push(format!(
                            "{}: `{run}` output lacks {lost:?}\n{output}",
                            block.place
                        ));
                    }
                }
            }
            other => failures.push(format!("{}: cannot test a {other} block", block.place)),
        }
    }
    (ran, failures)
}

/// The commands of a transcript and the lines shown after each.
fn transcript(lines: &[String]) -> Vec<(String, Vec<String>)> {
    let mut out: Vec<(String, Vec<String>)> = Vec::new();
    for line in lines {
        match line.strip_prefix("$ ") {
            Some(command) => out.push((command.to_string(), Vec::new())),
            None => {
                if let Some((_, shown)) = out.last_mut() {
                    shown.push(line.clone());
                }
            }
        }
    }
    out
}

/// About 40 s: outside the default run; `.ci/run` runs it (`--ignored`).
#[test]
#[ignore = "about 40 s; .ci/run runs it"]
fn every_marked_command_in_the_docs_runs_as_shown() {
    let scratch = Scratch::new();
    let mut ran = 0;
    let mut failures = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        let name = doc
            .strip_prefix(repo())
            .unwrap_or(&doc)
            .display()
            .to_string();
        let name = name.trim_start_matches("../../").to_string();
        let (n, f) = failures_of(&scratch, &name, &text);
        ran += n;
        failures.extend(f);
    }
    assert!(ran >= 20, "only {ran} marked blocks: the markers were lost");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Blocks in text another engineer owns (the README's install and Python sections,
/// docs/security.md), which this test leaves alone: none of them runs quickly.
fn owned_elsewhere(doc: &Path, block: &Block) -> bool {
    doc.ends_with("docs/security.md")
        || block.lines.iter().any(|l| {
            l.starts_with("cargo run --release -- solve") || l.contains("python/build-wheel.sh")
        })
}

/// Every `sh` block is marked or says, in the HTML comment just above it, why not.
#[test]
fn every_unmarked_command_block_says_why() {
    let mut unexplained = Vec::new();
    for doc in documents() {
        let text = std::fs::read_to_string(&doc).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for block in blocks(&doc.display().to_string(), &text) {
            if block.marked || block.language != "sh" || owned_elsewhere(&doc, &block) {
                continue;
            }
            let n: usize = block.place.rsplit(':').next().unwrap().parse().unwrap();
            let above = lines[..n - 1]
                .iter()
                .rev()
                .find(|l| !l.trim().is_empty())
                .copied()
                .unwrap_or("");
            if !(above.starts_with("<!--") && above.contains("not tested")) {
                unexplained.push(block.place);
            }
        }
    }
    assert!(
        unexplained.is_empty(),
        "sh blocks neither marked `sh test` nor explained by `<!-- not tested: why -->`: {unexplained:#?}"
    );
}

/// The exit check of a `sh test` block catches a command that exits otherwise than its
/// comment says, and the output check a line that is not printed: the harness can fail.
#[test]
fn the_harness_catches_a_wrong_exit_code_and_a_missing_line() {
    let scratch = Scratch::new();
    let doc = "```sh test\nnpuzzle check \"1 2 3/4 5 6/7 8 0\"   # (exit 1)\n```\n\n\
               ```sh test\nnpuzzle check \"1 2 3/4 5 6/7 8 0\"\n```\n\n```text\nunsolvable\n```\n";
    let (ran, failures) = failures_of(&scratch, "sample.md", doc);
    assert_eq!(ran, 2);
    assert_eq!(failures.len(), 2, "{failures:#?}");
    assert!(failures[0].contains("exit 0, not 1"), "{}", failures[0]);
    assert!(
        failures[1].contains("lacks [\"unsolvable\"]"),
        "{}",
        failures[1]
    );
    assert_eq!(normalised("Expanded 3, 0.000007 s."), "Expanded 3, # s.");
}

/// A shape named in a row of `docs/cli.md`'s table of what `auto` runs (`` `8-3` on 3×4 ``),
/// with the row's cell range.
struct Claim {
    shape: String,
    partition: String,
    budget: Option<f64>,
}

/// The claims of the `auto` table: each partition named for a shape, and the budget of its
/// row (`10 seconds`, or none: "No default time budget").
fn auto_table_claims() -> Vec<Claim> {
    let doc = std::fs::read_to_string(repo().join("docs/cli.md")).unwrap();
    let rows: Vec<&str> = doc
        .lines()
        .skip_while(|l| !l.starts_with("| board | what runs |"))
        .take_while(|l| l.starts_with('|'))
        .skip(2)
        .collect();
    assert!(rows.len() >= 4, "no auto table in docs/cli.md");
    let mut claims = Vec::new();
    for row in rows {
        let budget = if row.contains("No default time budget") {
            None
        } else if let Some(s) = row
            .split("**")
            .nth(1)
            .and_then(|b| b.strip_suffix(" seconds"))
        {
            Some(s.parse().unwrap())
        } else {
            continue;
        };
        // "`8-3` on 3×4", not "… on 5×5 once its tables are cached".
        for part in row.split('`').collect::<Vec<_>>().windows(2) {
            let (name, after) = (part[0], part[1]);
            let Some(rest) = after.strip_prefix(" on ") else {
                continue;
            };
            let shape: String = rest
                .chars()
                .take_while(|c| *c != ',' && *c != ')' && *c != ';')
                .collect();
            let shape = shape
                .split_whitespace()
                .next()
                .unwrap_or("")
                .replace('×', "x");
            if rest.contains("once") && rest.find("once") < rest.find([',', ';', ')']) {
                continue;
            }
            if name.chars().all(|c| c.is_ascii_digit() || c == '-') && !shape.is_empty() {
                claims.push(Claim {
                    shape,
                    partition: format!("pdb:{name}"),
                    budget,
                });
            }
        }
    }
    claims
}

/// Each partition and budget the `auto` table of `docs/cli.md` names for a shape is the
/// one `solve --explain` prints for a board of that shape, with an empty table cache.
#[test]
fn the_auto_table_in_cli_md_is_what_explain_says() {
    let claims = auto_table_claims();
    assert!(claims.len() >= 6, "too few claims read from the table");
    let bin = env!("CARGO_BIN_EXE_npuzzle");
    for claim in claims {
        let pdb = tempfile::tempdir().unwrap();
        let board = Command::new(bin)
            .args(["random", "--size", &claim.shape, "--seed", "1"])
            .output()
            .unwrap();
        let board = String::from_utf8(board.stdout).unwrap();
        let out = Command::new(bin)
            .args([
                "solve",
                board.trim(),
                "--size",
                &claim.shape,
                "--explain",
                "--json",
            ])
            .env("NPUZZLE_PDB_DIR", pdb.path())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let plan: Value = serde_json::from_slice(&out.stdout).unwrap();
        let phase = &plan["phases"][0];
        assert_eq!(phase["kind"], "anytime", "{}: {plan}", claim.shape);
        assert_eq!(
            phase["heuristic"],
            claim.partition.as_str(),
            "{}: {plan}",
            claim.shape
        );
        assert_eq!(
            phase["budget"].as_f64(),
            claim.budget,
            "{}: {plan}",
            claim.shape
        );
    }
}

/// `solve --explain --json` of a random board of `shape` (seed 1) with `extra` options and an
/// empty table cache: the plan as JSON.
fn explain_random(shape: &str, extra: &[&str]) -> Value {
    let bin = env!("CARGO_BIN_EXE_npuzzle");
    let board = Command::new(bin)
        .args(["random", "--size", shape, "--seed", "1"])
        .output()
        .unwrap();
    let board = String::from_utf8(board.stdout).unwrap();
    let pdb = tempfile::tempdir().unwrap();
    let out = Command::new(bin)
        .args([
            "solve",
            board.trim(),
            "--size",
            shape,
            "--explain",
            "--json",
        ])
        .args(extra)
        .env("NPUZZLE_PDB_DIR", pdb.path())
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The rows without a partition: the exact table up to 10 cells, linear conflict on 7×7 with
/// no tables cached and above 64 cells, the constructive solver above 255; 6×6 (and 4×9)
/// builds its 4-tile tables.
#[test]
fn the_auto_table_ends_are_what_explain_says() {
    let doc = std::fs::read_to_string(repo().join("docs/cli.md")).unwrap();
    for words in [
        "| at most 10 cells | IDA* with the exact table (`perfect`): optimal |",
        "linear conflict above 64 cells",
        "`4-4-4-4-4-4-4-4-3` on 6×6",
        "| 17 to 255 cells |",
        "| larger | the constructive solver |",
    ] {
        assert!(doc.contains(words), "docs/cli.md no longer says {words:?}");
    }
    for (shape, kind, heuristic) in [
        ("2x5", "optimal", Some("perfect")),
        ("3x3", "optimal", Some("perfect")),
        ("4x9", "anytime", Some("pdb:4-4-4-4-4-4-4-4-3")),
        ("6x6", "anytime", Some("pdb:4-4-4-4-4-4-4-4-3")),
        ("7x7", "anytime", Some("linear-conflict")),
        ("9x9", "anytime", Some("linear-conflict")),
        ("15x17", "anytime", Some("linear-conflict")),
        ("16x16", "constructive", None),
    ] {
        let plan = explain_random(shape, &[]);
        assert_eq!(plan["phases"][0]["kind"], kind, "{shape}: {plan}");
        assert_eq!(
            plan["phases"][0]["heuristic"].as_str(),
            heuristic,
            "{shape}: {plan}"
        );
    }
}

/// `docs/pattern-databases.md` says auto builds its tables above 16 cells too (it once said
/// it never did): with an empty cache, the plan for a 4x5 board builds `5-5-5-4`.
#[test]
fn auto_builds_tables_above_16_cells_as_pattern_databases_md_says() {
    let doc = std::fs::read_to_string(repo().join("docs/pattern-databases.md")).unwrap();
    assert!(
        doc.contains("on boards above 16 cells too"),
        "the claim moved"
    );
    let bin = env!("CARGO_BIN_EXE_npuzzle");
    let pdb = tempfile::tempdir().unwrap();
    let out = Command::new(bin)
        .args(["solve", "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 0 19"])
        .args(["--size", "4x5", "--explain", "--json"])
        .env("NPUZZLE_PDB_DIR", pdb.path())
        .output()
        .unwrap();
    let plan: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(plan["phases"][0]["heuristic"], "pdb:5-5-5-4", "{plan}");
    let tables = plan["tables"].as_array().unwrap();
    assert_eq!(tables.len(), 4, "{plan}");
    assert!(tables.iter().all(|t| t["source"] == "build"), "{plan}");
}

/// `docs/cli.md` names the partitions `--optimal` uses beside 4×4 and 5×5 (`8-3` on 3×4,
/// `6-6-2` on 3×5, the shape's one default partition): they are what `--explain` says.
#[test]
fn the_partitions_of_optimal_in_cli_md_are_what_explain_says() {
    let doc = std::fs::read_to_string(repo().join("docs/cli.md")).unwrap();
    for (shape, partition) in [("3x4", "8-3"), ("3x5", "6-6-2"), ("6x6", "5-5-5-5-5-5-5")] {
        let claim = format!("`{partition}` on {}", shape.replace('x', "×"));
        assert!(doc.contains(&claim), "docs/cli.md no longer says {claim}");
        let plan = explain_random(shape, &["--optimal"]);
        let want = format!("pdb:{partition}");
        assert_eq!(
            plan["phases"][0]["heuristic"],
            want.as_str(),
            "{shape}: {plan}"
        );
    }
}
