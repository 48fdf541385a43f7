//! `npuzzle serve`: starts, prints its URL, and answers `/api/solve` with the object
//! `npuzzle solve --json` prints.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

use assert_cmd::cargo::CommandCargoExt;
use serde_json::Value;

/// The server, killed when the test ends (even on failure).
struct Server(Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn start() -> (Server, String) {
    start_with_tables(None)
}

/// The server, reading and writing its tables in `tables` when given.
fn start_with_tables(tables: Option<&std::path::Path>) -> (Server, String) {
    let mut command = Command::cargo_bin("npuzzle").unwrap();
    if let Some(dir) = tables {
        command.env("NPUZZLE_PDB_DIR", dir);
    }
    let child = command
        .args(["serve", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut server = Server(child);
    let mut line = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    (server, url)
}

/// A minimal HTTP/1.1 POST; returns the status and the JSON body.
fn post(url: &str, path: &str, body: &str) -> (u16, Value) {
    let host = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = TcpStream::connect(host).unwrap();
    write!(
        stream,
        "POST {path} HTTP/1.1\r\nhost: {host}\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    let (head, body) = response.split_once("\r\n\r\n").unwrap();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, serde_json::from_str(body).unwrap())
}

fn without_time(mut v: Value) -> Value {
    v.as_object_mut().unwrap().remove("seconds");
    v
}

/// `v` without any field `seconds`, at any depth (the improvements have theirs).
fn without_times(v: Value) -> Value {
    match v {
        Value::Object(fields) => fields
            .into_iter()
            .filter(|(k, _)| k != "seconds")
            .map(|(k, v)| (k, without_times(v)))
            .collect(),
        Value::Array(items) => items.into_iter().map(without_times).collect(),
        other => other,
    }
}

/// A request that sets no time limit gets the command line's answer with none: the
/// server's own limits stop a search but are no budget. They were one:
/// - on a 15-puzzle `auto` spent the server's 10 s as `--time-limit 10` does, on weighted
///   searches before its proof, so the counts and improvements differed, and with
///   `max_nodes` so did the answer (42 moves, bound 34, stopped by nodes, where the command
///   line proves 42 in 5,372 nodes);
/// - above 16 cells the server's first 5 ms attempt planned by its 5 ms: a 3×6 board with
///   `max_nodes` 16000 answered 78 moves where the command line answers 90, and a 5×5 board
///   40 moves from the goal was proved in 36,000 to 82,000 nodes, a different count each
///   time, where the command line's proof takes 311,116.
#[test]
fn a_request_without_a_time_limit_gets_the_answer_solve_gives_without_one() {
    let tables = tempfile::tempdir().unwrap();
    let cli = |board: &str, more: &[&str]| {
        let out = Command::cargo_bin("npuzzle")
            .unwrap()
            .env("NPUZZLE_PDB_DIR", tables.path())
            .args(["solve", "--json", board])
            .args(more)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let fifteen = "3 5 4 7/2 10 1 8/0 6 11 15/14 12 9 13";
    // `npuzzle random --size 3x6 --seed 3` and `random --size 5x5 --seed 5 --moves 40`.
    let three_by_six = "17 12 1 11 13 6 4 2 3 5 10 8 14 15 16 0 9 7";
    let near = "1 2 3 4 5 17 13 22 12 9 7 11 0 8 10 6 21 18 14 20 16 19 23 15 24";
    let cases = [
        (fifteen, "", vec![]),
        (
            fifteen,
            r#", "max_nodes": 10000"#,
            vec!["--max-nodes", "10000"],
        ),
        (
            three_by_six,
            r#", "size": "3x6", "max_nodes": 16000"#,
            vec!["--size", "3x6", "--max-nodes", "16000"],
        ),
        (near, "", vec![]),
    ];
    // The command line first: it builds auto's tables into the cache the server reads.
    let expected: Vec<Value> = cases.iter().map(|(b, _, more)| cli(b, more)).collect();
    assert_eq!(
        (
            expected[0]["optimal"].clone(),
            expected[0]["length"].clone()
        ),
        (true.into(), 42.into())
    );
    assert_eq!(expected[1]["optimal"], true, "{}", expected[1]);
    let (_server, url) = start_with_tables(Some(tables.path()));
    for ((board, extra, _), expected) in cases.iter().zip(expected) {
        // Twice: the first request loads the tables, the second finds them in memory.
        for _ in 0..2 {
            let body = format!(r#"{{"board": "{board}"{extra}}}"#);
            let (status, web) = post(&url, "/api/solve", &body);
            assert_eq!(status, 200, "{web}");
            assert_eq!(
                without_times(web),
                without_times(expected.clone()),
                "{body}"
            );
        }
    }
}

#[test]
fn serve_answers_like_solve_json() {
    let (_server, url) = start();
    for (board, extra, cli_args) in [
        ("7 2 6/8 1 4/3 5 0", "", vec![]),
        (
            "8 6 7/2 5 4/3 0 1",
            r#", "heuristic": "manhattan", "algorithm": "astar""#,
            vec!["--heuristic", "manhattan", "--algorithm", "astar"],
        ),
        ("1 2 3/4 5 6/8 7 0", "", vec![]),
        (
            "0 1 2/3 4 5",
            r#", "goal": "spiral", "size": "2x3""#,
            vec!["--goal", "spiral", "--size", "2x3"],
        ),
    ] {
        let (status, web) = post(
            &url,
            "/api/solve",
            &format!(r#"{{"board": "{board}"{extra}}}"#),
        );
        let cli = Command::cargo_bin("npuzzle")
            .unwrap()
            .args(["solve", "--json", board])
            .args(&cli_args)
            .output()
            .unwrap();
        let cli: Value = serde_json::from_slice(&cli.stdout).unwrap();
        assert_eq!(without_time(web), without_time(cli.clone()), "{board}");
        let expected = if cli["solvable"] == true { 200 } else { 422 };
        assert_eq!(status, expected);
    }
    let (status, answer) = post(&url, "/api/solve", r#"{"board": "#);
    assert_eq!(status, 400);
    assert!(answer["error"]
        .as_str()
        .unwrap()
        .starts_with("malformed JSON"));
}

#[test]
fn serve_refuses_bad_options_with_exit_code_2() {
    for args in [
        vec!["serve", "--host", "not a host"],
        vec!["serve", "--time-limit", "0"],
        vec!["serve", "--max-concurrent", "0"],
        vec!["serve", "--threads", "0"],
        vec!["serve", "--threads", "100000"],
    ] {
        let out = Command::cargo_bin("npuzzle")
            .unwrap()
            .args(&args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    // Negative numbers reach the checks (they were "unexpected argument '-0' found").
    for (args, words) in [
        (
            ["serve", "--time-limit", "-0.5"],
            "error: --time-limit must be a number of seconds above 0, got -0.5",
        ),
        (
            ["serve", "--request-timeout", "-1"],
            "error: --request-timeout must be between 0.01 and 3600 seconds, got -1",
        ),
    ] {
        let out = Command::cargo_bin("npuzzle")
            .unwrap()
            .args(args)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert_eq!(String::from_utf8_lossy(&out.stderr).trim(), words);
    }
}

/// The CLI's `error:` line for `args`, with the flags spelled as JSON fields.
fn cli_error_as_json(args: &[&str]) -> String {
    let out = Command::cargo_bin("npuzzle")
        .unwrap()
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    let line = err
        .trim()
        .strip_prefix("error: ")
        .unwrap_or(&err)
        .to_string();
    [
        ("--time-limit", "time_limit"),
        ("--max-nodes", "max_nodes"),
        ("--weight", "weight"),
    ]
    .iter()
    .fold(line, |l, (flag, field)| l.replace(flag, field))
}

/// One contract: the same bad weight or limit gets the same words from `npuzzle solve` and
/// from the server (which words its errors apart from the command line until both asked
/// the core: "time_limit must be above 0 and at most 10 seconds on this server").
#[test]
fn a_bad_limit_gets_the_same_words_from_solve_and_serve() {
    let (_server, url) = start();
    let board = "7 2 6/8 1 4/3 5 0";
    for (field, value, flag) in [
        ("time_limit", "-1", "--time-limit"),
        ("time_limit", "0", "--time-limit"),
        ("max_nodes", "0", "--max-nodes"),
        ("weight", "0.5", "--weight"),
        ("weight", "1000001", "--weight"),
    ] {
        let (status, web) = post(
            &url,
            "/api/solve",
            &format!(
                r#"{{"board": "{board}", "algorithm": "weighted-astar", "{field}": {value}}}"#
            ),
        );
        assert_eq!(status, 400, "{field} {value}");
        let cli = cli_error_as_json(&["solve", board, "-a", "weighted-astar", flag, value]);
        assert_eq!(web["error"].as_str().unwrap(), cli, "{field} {value}");
    }
    // Above the ceiling: the same words, each naming its own ceiling (the server's is
    // its --time-limit, 10 seconds by default).
    let (status, web) = post(
        &url,
        "/api/solve",
        &format!(r#"{{"board": "{board}", "time_limit": 1e9}}"#),
    );
    assert_eq!(status, 400);
    assert_eq!(
        web["error"],
        "time_limit must be at most 10 seconds, got 1000000000"
    );
    assert_eq!(
        cli_error_as_json(&["solve", board, "--time-limit", "1e9"]),
        "time_limit must be at most 10000000 seconds, got 1000000000"
    );
    // `serve --time-limit` itself is checked by the same rule, against an hour.
    assert_eq!(
        cli_error_as_json(&["serve", "--time-limit", "4000"]),
        "time_limit must be at most 3600 seconds, got 4000"
    );
}
