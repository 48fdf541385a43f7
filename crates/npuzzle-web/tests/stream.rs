//! The streaming endpoint under load (issue 11, problem 4): a small solve through
//! `/api/solve/stream` takes the same fast path as `/api/solve` and never waits behind big
//! searches, and a request that must wait for a slot says so in the stream.

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use axum::Router;
use http_body_util::BodyExt;
use npuzzle_web::{app, AppState, Config};
use serde_json::{json, Value};
use tower::ServiceExt;

/// A 15-puzzle that IDA* with misplaced tiles cannot finish within its time limit.
const SLOW_4X4: &str = "15 14 13 12/11 10 9 8/7 6 5 4/3 1 2 0";

fn slow_request() -> Value {
    json!({ "board": SLOW_4X4, "algorithm": "idastar", "heuristic": "misplaced", "time_limit": 4 })
}

/// A server with two search slots, whose slow searches end by the time limit: under the
/// default node cap (200 million) a fast machine ends them by nodes a little before 4 s.
fn two_slots() -> Config {
    Config {
        max_concurrent_solves: 2,
        max_nodes: 20_000_000_000,
        ..Config::default()
    }
}

fn stream_request(body: &Value) -> Request<Body> {
    Request::post("/api/solve/stream")
        .body(Body::from(body.to_string()))
        .unwrap()
}

/// Every JSON line of a whole streamed answer.
async fn lines(router: &Router, body: &Value) -> (StatusCode, Vec<Value>) {
    let response = router.clone().oneshot(stream_request(body)).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    let lines = std::str::from_utf8(&bytes)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    (status, lines)
}

async fn wait_for(state: &AppState, searches: usize) {
    for _ in 0..300 {
        if state.active_searches() == searches {
            return;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    panic!(
        "expected {searches} searches, have {}",
        state.active_searches()
    );
}

/// Starts two slow streamed solves that hold both slots; their tasks read to the end.
///
/// Returns once both have said `started`, that is, once both run on the search pool: a slow
/// request first makes a short attempt on the quick pool, which counts as an active search
/// too, so two active searches alone may be one slow solve on the pool and the other's
/// quick attempt (CI once saw the count drop to 1 as that attempt ended).
async fn fill_both_slots(state: &AppState, router: &Router) -> Vec<tokio::task::JoinHandle<()>> {
    let started = std::sync::Arc::new(tokio::sync::Semaphore::new(0));
    let slow: Vec<_> = (0..2)
        .map(|_| {
            let r = router.clone();
            let started = started.clone();
            tokio::spawn(async move {
                let response = r.oneshot(stream_request(&slow_request())).await.unwrap();
                assert_eq!(response.status(), StatusCode::OK);
                let mut body = response.into_body();
                let mut text = String::new();
                while let Some(frame) = body.frame().await {
                    let Ok(data) = frame.unwrap().into_data() else {
                        continue;
                    };
                    let chunk = std::str::from_utf8(&data).unwrap();
                    if chunk.contains("\"started\"") {
                        started.add_permits(1);
                    }
                    text.push_str(chunk);
                }
                let last: Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
                assert_eq!(last["result"]["stopped_by"], "time");
            })
        })
        .collect();
    let both = tokio::time::timeout(Duration::from_secs(3), started.acquire_many(2)).await;
    both.expect("both slow solves start on the pool")
        .unwrap()
        .forget();
    wait_for(state, 2).await;
    slow
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_stream_solve_answers_at_once_beside_two_slow_ones() {
    let state = AppState::new(two_slots(), None);
    let r = app(state.clone());
    // The first 8-puzzle solve of its kind runs on the pool (and builds what it needs).
    let (status, warm) = lines(&r, &json!({ "board": "8 1 3/4 0 2/7 6 5" })).await;
    assert_eq!(status, StatusCode::OK);
    assert!(warm.last().unwrap()["result"]["length"].is_u64());
    let slow = fill_both_slots(&state, &r).await;

    let started = Instant::now();
    let (status, answer) = lines(&r, &json!({ "board": "8 6 7/2 5 4/3 0 1" })).await;
    let took = started.elapsed();
    assert_eq!(status, StatusCode::OK);
    let result = &answer.last().unwrap()["result"];
    assert_eq!(result["length"], 31, "{answer:?}");
    assert_eq!(result["optimal"], true);
    assert!(
        took < Duration::from_millis(100),
        "the 8-puzzle took {took:?} beside two slow solves"
    );
    assert_eq!(state.active_searches(), 2, "the slow solves still run");
    for s in slow {
        s.await.unwrap();
    }
}

// One runtime thread, so nothing the handler spawned has run when its response arrives: the
// request must already count as waiting then (it once joined the line only after sending
// its waiting line, and a quick reader saw `waiting() == 0`).
#[tokio::test(flavor = "current_thread")]
async fn a_stream_that_must_wait_for_a_slot_says_so() {
    let state = AppState::new(two_slots(), None);
    let r = app(state.clone());
    let slow = fill_both_slots(&state, &r).await;
    // A third slow search (never warm) must wait: its first line says so, long before the
    // slots free up.
    let response = r
        .clone()
        .oneshot(stream_request(&slow_request()))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(state.waiting(), 1, "in line before it says so");
    let mut body = response.into_body();
    let first = tokio::time::timeout(Duration::from_millis(500), body.frame())
        .await
        .expect("a line at once, not after the slow solves")
        .unwrap()
        .unwrap()
        .into_data()
        .unwrap();
    let line: Value = serde_json::from_slice(&first).unwrap();
    assert!(
        line["waiting"]
            .as_str()
            .unwrap()
            .contains("waiting for a free slot"),
        "{line}"
    );
    assert_eq!(state.waiting(), 1);
    // Hanging up while waiting leaves the queue.
    drop(body);
    for _ in 0..100 {
        if state.waiting() == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(state.waiting(), 0);
    for s in slow {
        s.await.unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_gets_503_at_once_when_the_queue_is_full() {
    let state = AppState::new(
        Config {
            max_queued: 0,
            ..two_slots()
        },
        None,
    );
    let r = app(state.clone());
    let slow = fill_both_slots(&state, &r).await;
    let started = Instant::now();
    let (status, answer) = lines(&r, &slow_request()).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE, "{answer:?}");
    assert!(answer[0]["error"].as_str().unwrap().contains("busy"));
    assert!(started.elapsed() < Duration::from_secs(1));
    for s in slow {
        s.await.unwrap();
    }
}
