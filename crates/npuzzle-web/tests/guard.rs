//! Regression tests for issue 15 ("Hardening") on the server: cross-origin requests,
//! slow clients, oversized bodies, wide heuristics and tiny boards behind long searches.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use npuzzle_web::{app, serve_until, AppState, Config};
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tower::ServiceExt;

const HARD_5X5: &str = "24 23 22 21 20/19 18 17 16 15/14 13 12 11 10/9 8 7 6 5/4 3 2 1 0";

async fn send(config: Config, request: Request<Body>) -> (StatusCode, Value) {
    let response = app(AppState::new(config, None))
        .oneshot(request)
        .await
        .unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (
        status,
        serde_json::from_slice(&bytes).unwrap_or(Value::Null),
    )
}

fn solve_request(host: &str, origin: Option<&str>, content_type: &str) -> Request<Body> {
    let mut b = Request::builder()
        .method("POST")
        .uri("/api/solve")
        .header(header::HOST, host)
        .header(header::CONTENT_TYPE, content_type);
    if let Some(o) = origin {
        b = b.header(header::ORIGIN, o);
    }
    b.body(Body::from(
        json!({ "board": "1 2 3/4 5 6/7 0 8" }).to_string(),
    ))
    .unwrap()
}

fn local() -> Config {
    Config {
        local_addr: Some("127.0.0.1:8080".parse().unwrap()),
        ..Config::default()
    }
}

/// Item 4: a `text/plain` POST from any web page ran on a user's local server.
#[tokio::test]
async fn cross_origin_posts_are_refused() {
    let (status, answer) = send(
        local(),
        solve_request("127.0.0.1:8080", Some("http://evil.example"), "text/plain"),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN, "{answer}");
    assert!(answer["error"].as_str().unwrap().contains("--allow-origin"));
    // The server's own page, and clients that are not browsers, are served.
    let (status, _) = send(
        local(),
        solve_request(
            "127.0.0.1:8080",
            Some("http://127.0.0.1:8080"),
            "text/plain",
        ),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let (status, _) = send(
        local(),
        solve_request("127.0.0.1:8080", None, "application/json"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    // An origin the operator allowed.
    let config = Config {
        allowed_origins: vec!["http://evil.example".into()],
        ..local()
    };
    let (status, _) = send(
        config,
        solve_request("127.0.0.1:8080", Some("http://evil.example"), "text/plain"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

/// Item 4: DNS rebinding (a foreign name pointed at 127.0.0.1) is refused by `Host`.
#[tokio::test]
async fn foreign_host_names_are_refused() {
    let (status, _) = send(
        local(),
        solve_request(
            "evil.example:8080",
            Some("http://evil.example:8080"),
            "text/plain",
        ),
    )
    .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let config = Config {
        allowed_hosts: vec!["evil.example".into()],
        ..local()
    };
    let (status, _) = send(
        config,
        solve_request("evil.example:8080", None, "text/plain"),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

/// Starts a server with `config` on a free port; returns its address.
async fn start(config: Config) -> SocketAddr {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_until(listener, config, None, std::future::pending()));
    addr
}

/// Reads until the server closes the connection (or `within` passes); returns what was
/// read and whether it closed.
async fn read_until_closed(socket: &mut TcpStream, within: Duration) -> (String, bool) {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = Instant::now() + within;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match tokio::time::timeout(left, socket.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&out).into(), true),
            Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
            Err(_) => return (String::from_utf8_lossy(&out).into(), false),
        }
    }
}

fn quick_timeouts() -> Config {
    Config {
        header_timeout: Duration::from_millis(300),
        body_timeout: Duration::from_millis(300),
        ..Config::default()
    }
}

/// Item 5: slowloris connections (half a request head) stayed open for good.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_sent_head_is_closed() {
    let addr = start(quick_timeouts()).await;
    let mut socket = TcpStream::connect(addr).await.unwrap();
    socket
        .write_all(b"POST /api/solve HTTP/1.1\r\nhost: 127.0.0.1\r\nx-slow: ")
        .await
        .unwrap();
    let started = Instant::now();
    let (_, closed) = read_until_closed(&mut socket, Duration::from_secs(5)).await;
    assert!(closed, "still open after 5 s");
    assert!(started.elapsed() < Duration::from_secs(3));
    // An idle connection is closed too.
    let mut idle = TcpStream::connect(addr).await.unwrap();
    let (_, closed) = read_until_closed(&mut idle, Duration::from_secs(5)).await;
    assert!(closed);
}

/// Item 5: a half-sent body waited forever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_half_sent_body_gets_an_answer_and_the_connection_closes() {
    let addr = start(quick_timeouts()).await;
    let mut socket = TcpStream::connect(addr).await.unwrap();
    socket
        .write_all(b"POST /api/solve HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 100\r\n\r\n{\"board\":")
        .await
        .unwrap();
    let started = Instant::now();
    let (answer, closed) = read_until_closed(&mut socket, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 4"), "{answer}");
    assert!(closed, "{answer}");
    assert!(started.elapsed() < Duration::from_secs(3));
}

/// Item 5 and a small one: a claimed 1 GB body got no 413 up front (and
/// `Expect: 100-continue` got `100 Continue`); after a 413 the connection was closed
/// without `Connection: close`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_content_length_gets_413_at_once_and_close() {
    let addr = start(Config::default()).await;
    let mut socket = TcpStream::connect(addr).await.unwrap();
    socket
        .write_all(
            b"POST /api/solve HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n\
              content-length: 1000000000\r\nexpect: 100-continue\r\n\r\n",
        )
        .await
        .unwrap();
    let (answer, closed) = read_until_closed(&mut socket, Duration::from_secs(5)).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(!answer.contains("100 Continue"), "{answer}");
    assert!(
        answer.to_ascii_lowercase().contains("connection: close"),
        "{answer}"
    );
    assert!(closed);
}

async fn post_json(addr: SocketAddr, body: Value) -> (StatusCode, Value, Duration) {
    let started = Instant::now();
    let mut socket = TcpStream::connect(addr).await.unwrap();
    let body = body.to_string();
    let request = format!(
        "POST /api/solve HTTP/1.1\r\nhost: {addr}\r\ncontent-type: application/json\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    socket.write_all(request.as_bytes()).await.unwrap();
    let (answer, _) = read_until_closed(&mut socket, Duration::from_secs(30)).await;
    let status: u16 = answer[9..12].parse().unwrap();
    let json = answer.split("\r\n\r\n").nth(1).unwrap_or("");
    (
        StatusCode::from_u16(status).unwrap(),
        serde_json::from_str(json).unwrap_or(Value::Null),
        started.elapsed(),
    )
}

/// Item 1 over HTTP: `time_limit: 1` with a wide heuristic ran 10.2 s.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_wide_heuristic_honours_the_time_limit() {
    let addr = start(Config::default()).await;
    let board = "1 2 3 4 5 6 7 8 9 10/11 12 13 14 15 16 17 18 19 20/21 22 23 24 25 26 27 28 29 30/\
                 31 32 33 34 35 36 37 38 39 40/41 42 43 44 45 46 47 48 49 50/\
                 51 52 53 54 55 56 57 58 59 60/61 62 63 64 65 66 67 68 69 70/\
                 71 72 73 74 75 76 77 78 79 80/81 82 83 84 85 86 87 88 89 0/91 92 93 94 95 96 97 98 99 90";
    let h = format!("max({})", vec!["lc"; 64].join(","));
    let (status, report, took) = post_json(
        addr,
        json!({ "board": board, "heuristic": h, "algorithm": "idastar", "time_limit": 0.5 }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert!(took < Duration::from_secs(3), "{took:?}");
    // Wider is refused.
    let h = format!("max({})", vec!["lc"; 1000].join(","));
    let (status, _, _) = post_json(addr, json!({ "board": board, "heuristic": h })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
}

/// Item 12: a tiny board of a kind not run before waited behind long searches (and got
/// 503 after 10 s); only warm kinds ran inline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tiny_boards_never_wait_behind_long_searches() {
    let addr = start(Config {
        max_concurrent_solves: 1,
        ..Config::default()
    })
    .await;
    let long = tokio::spawn(post_json(
        addr,
        json!({ "board": HARD_5X5, "algorithm": "idastar", "heuristic": "misplaced", "time_limit": 4 }),
    ));
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Cold kinds: goals and shapes not searched before.
    for (board, goal) in [
        ("1 2 3/4 5 6/7 8 0", "blank-first"),
        ("1 2 3/8 4 0/7 6 5", "spiral"),
        ("1 0 3 5/7 6 4 2", "standard"),
    ] {
        let (status, report, took) = post_json(addr, json!({ "board": board, "goal": goal })).await;
        assert_eq!(status, StatusCode::OK, "{report}");
        assert!(took < Duration::from_secs(2), "{board}: {took:?}");
        assert_eq!(report["optimal"], true);
    }
    let (status, _, _) = long.await.unwrap();
    assert_eq!(status, StatusCode::OK);
}
