//! Fuzzing the HTTP request decoder (issue 15): random methods, paths, headers and bodies
//! (random bytes, and JSON objects with the API's fields holding values of random types)
//! through the whole router in-process, and random bytes through a real socket to the
//! server's accept loop. No request may get a 500, panic, or hang.
//!
//! Quick pass in the default run; for a long one:
//! `NPUZZLE_FUZZ_SECS=600 cargo test --release -p npuzzle-web --test fuzz -- --ignored --nocapture`

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use npuzzle_web::{app, serve_until, AppState, Config};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::TestRunner;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tower::ServiceExt;

fn config() -> Config {
    Config {
        time_limit: Duration::from_millis(50),
        max_side: 6,
        ..Config::default()
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        "[0-9 /_,]{0,30}".prop_map(Value::from),
        prop::sample::select(vec![
            "manhattan",
            "lc",
            "pdb",
            "pdb:3-3",
            "max(lc,md)",
            "perfect",
            "astar",
            "bfs",
            "idastar",
            "greedy",
            "weighted-astar",
            "standard",
            "spiral",
            "blank-first",
            "3x3",
            "2x4",
            "0.5*md+0.5*lc",
            "1 2 3/4 5 6/7 0 8",
            "8 6 7/2 5 4/3 0 1",
        ])
        .prop_map(Value::from),
        any::<String>().prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..10).prop_map(Value::from),
            prop::collection::vec(0u32..12, 0..12).prop_map(|v| json!(v)),
        ]
    })
}

fn api_body() -> impl Strategy<Value = Vec<u8>> {
    let fields = prop::sample::subsequence(
        vec![
            "board",
            "size",
            "goal",
            "heuristic",
            "algorithm",
            "weight",
            "time_limit",
            "max_nodes",
            "trace",
            "path",
            "heuristics",
            "count",
            "seed",
            "moves",
            "unknown",
        ],
        0..8,
    );
    prop_oneof![
        1 => (fields, prop::collection::vec(json_value(), 8)).prop_map(|(names, values)| {
            let mut object = serde_json::Map::new();
            for (n, v) in names.into_iter().zip(values) {
                object.insert(n.to_string(), v);
            }
            Value::Object(object).to_string().into_bytes()
        }),
        1 => prop::collection::vec(any::<u8>(), 0..200),
        1 => "[{}\\[\\]\":, a-z0-9]{0,100}".prop_map(String::into_bytes),
        // A sound request with one field of any value: reaches the searches.
        4 => (
            prop::sample::select(vec![
                "1 2 3/4 5 6/7 0 8",
                "8 6 7/2 5 4/3 0 1",
                "1 0 3 5/7 6 4 2",
                "2 1 3 4 5 6 7 8 9 10 11 12 13 14 15 0",
            ]),
            prop::sample::select(vec![
                "goal",
                "heuristic",
                "algorithm",
                "weight",
                "time_limit",
                "max_nodes",
                "trace",
                "path",
                "size",
            ]),
            json_value(),
            any::<bool>(),
        )
            .prop_map(|(board, field, value, keep)| {
                let mut o = json!({ "board": board });
                if keep {
                    o[field] = value;
                }
                o.to_string().into_bytes()
            }),
    ]
}

fn request() -> impl Strategy<Value = (String, String, Vec<(String, String)>, Vec<u8>)> {
    let method = prop_oneof![
        4 => Just("POST"),
        1 => prop::sample::select(vec!["GET", "PUT", "DELETE", "OPTIONS"]),
    ];
    let path = prop_oneof![
        3 => prop::sample::select(vec!["/api/solve", "/api/check", "/api/hint"])
            .prop_map(String::from),
        1 => prop::sample::select(vec![
            "/api/solve", "/api/solve/stream", "/api/solve/stop", "/api/check", "/api/random", "/api/hint",
            "/api/compare", "/api/info", "/", "/assets/app.js", "/assets/../Cargo.toml",
            "/favicon.ico",
        ])
        .prop_map(String::from),
        1 => "/[a-z/.%0-9]{0,30}",
    ];
    let header = prop_oneof![(
        prop::sample::select(vec![
            "host",
            "origin",
            "content-type",
            "content-length",
            "expect"
        ])
        .prop_map(String::from),
        prop_oneof![
            "[ -~]{0,40}",
            Just("127.0.0.1:8080".to_string()),
            Just("http://127.0.0.1:8080".to_string()),
            Just("application/json".to_string()),
            Just("text/plain".to_string()),
            (0u64..1 << 40).prop_map(|n| n.to_string()),
        ]
    ),];
    (
        method.prop_map(String::from),
        path,
        prop_oneof![Just(Vec::new()), prop::collection::vec(header, 0..4)],
        api_body(),
    )
}

/// Answers by status class (2xx, 3xx, 4xx, 5xx), for the run's summary.
type Classes = [u64; 6];

async fn one(
    router: &axum::Router,
    input: &(String, String, Vec<(String, String)>, Vec<u8>),
    classes: &mut Classes,
) {
    let (method, path, headers, body) = input;
    let mut b = Request::builder()
        .method(method.as_str())
        .uri(path.as_str());
    for (k, v) in headers {
        b = b.header(k.as_str(), v.as_str());
    }
    let Ok(request) = b.body(Body::from(body.clone())) else {
        return; // not a request at all (e.g. a header value with a newline)
    };
    let response = tokio::time::timeout(Duration::from_secs(20), router.clone().oneshot(request))
        .await
        .unwrap_or_else(|_| panic!("no answer within 20 s for {input:?}"))
        .unwrap();
    let status = response.status();
    classes[usize::from(status.as_u16() / 100).min(5)] += 1;
    assert!(
        status != StatusCode::INTERNAL_SERVER_ERROR,
        "500 for {input:?}"
    );
    let bytes = tokio::time::timeout(Duration::from_secs(20), response.into_body().collect())
        .await
        .unwrap_or_else(|_| panic!("no body within 20 s for {input:?}"))
        .unwrap()
        .to_bytes();
    if path.starts_with("/api/")
        && status.is_client_error()
        && status != StatusCode::UNPROCESSABLE_ENTITY
    {
        let v: Value = serde_json::from_slice(&bytes).expect("errors are JSON");
        assert!(v["error"].is_string(), "{v}");
    }
}

async fn raw(addr: std::net::SocketAddr, bytes: &[u8]) {
    let mut socket = tokio::net::TcpStream::connect(addr).await.unwrap();
    let _ = socket.write_all(bytes).await;
    let _ = socket.shutdown().await;
    let mut out = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(20), socket.read_to_end(&mut out)).await;
    assert!(read.is_ok(), "no answer or close within 20 s for {bytes:?}");
    let text = String::from_utf8_lossy(&out);
    assert!(!text.starts_with("HTTP/1.1 500"), "{text}");
}

fn raw_request() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>(), 0..300),
        (request(), any::<bool>()).prop_map(|((m, p, h, body), chunked)| {
            let mut head = format!("{m} {p} HTTP/1.1\r\nhost: 127.0.0.1\r\n");
            for (k, v) in h {
                head.push_str(&format!("{k}: {v}\r\n"));
            }
            if chunked {
                head.push_str("transfer-encoding: chunked\r\n\r\n");
                let mut bytes = head.into_bytes();
                bytes.extend_from_slice(format!("{:x}\r\n", body.len()).as_bytes());
                bytes.extend_from_slice(&body);
                bytes.extend_from_slice(b"\r\n0\r\n\r\n");
                bytes
            } else {
                head.push_str(&format!("content-length: {}\r\n\r\n", body.len()));
                let mut bytes = head.into_bytes();
                bytes.extend_from_slice(&body);
                bytes
            }
        }),
    ]
}

async fn run(duration: Option<Duration>, cases: u64) {
    let router = app(AppState::new(config(), None));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(serve_until(
        listener,
        config(),
        None,
        std::future::pending(),
    ));
    let requests = request();
    let raws = raw_request();
    let mut runner = TestRunner::deterministic();
    let started = Instant::now();
    let (mut runs, mut socket_runs) = (0u64, 0u64);
    let mut classes: Classes = [0; 6];
    while duration.map_or(runs < cases, |d| started.elapsed() < d) {
        let input = requests.new_tree(&mut runner).unwrap().current();
        one(&router, &input, &mut classes).await;
        runs += 1;
        if runs % 8 == 0 {
            let bytes = raws.new_tree(&mut runner).unwrap().current();
            raw(addr, &bytes).await;
            socket_runs += 1;
        }
    }
    eprintln!(
        "http decoder: {runs} requests in-process ({} 2xx, {} 4xx, {} 5xx) and {socket_runs} \
         over a socket in {:.1} s, no failure",
        classes[2],
        classes[4],
        classes[5],
        started.elapsed().as_secs_f64()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn http_decoder_quick() {
    run(None, 400).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "long fuzz run"]
async fn http_decoder_long() {
    let secs = std::env::var("NPUZZLE_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .unwrap_or(60.0);
    run(Some(Duration::from_secs_f64(secs)), 0).await;
}
