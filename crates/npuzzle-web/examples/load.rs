//! Load test for `npuzzle serve`: many concurrent clients, each on its own keep-alive
//! connection, solving random solvable 3×3 boards for a fixed time, with a share of malformed
//! requests mixed in. Reports latency percentiles and every unexpected status.
//!
//! ```text
//! npuzzle serve --port 8080 &
//! cargo run --release -p npuzzle-web --example load -- --url http://127.0.0.1:8080 \
//!     --clients 200 --seconds 10 --malformed 0.1
//! ```
//!
//! By default each client sends its next request as soon as the last is answered (a closed
//! loop, like `wrk`), so the latency includes the queue of all 200 clients waiting for the
//! CPU. `--rate R` paces each client at R requests a second instead (an open loop); latency is
//! then measured from when each request was due, so a stalled server is not hidden.
//!
//! Exits 1 if any request failed: a valid board not answered 200 with a path that replays to
//! the goal, a malformed request not answered 4xx, any 5xx, or a broken connection. Only
//! loopback addresses are accepted, and the run stops by itself after `--seconds`.
//!
//! `--attacks N` adds N attackers of each kind of issue 15 beside the clients, each sending
//! one request after another: wide heuristics (`max` of 64 parts on a 10×10 board, 1 s
//! limit), pattern databases of partitions never built before (`pdb:1-7-7`… on 4×4, 0.5 s
//! limit), cross-origin `text/plain` posts (must get 403), slowloris connections (half a
//! request head, trickled; must be closed by the server) and a 1 GB `Content-Length` with
//! `Expect: 100-continue` (must get 413 at once). Attackers' answers are tallied apart; a
//! 5xx from them counts as a failure too. `scripts/load-attack.sh` runs it all against a
//! fresh server and reports the server's peak memory.
//!
//! The kinds of issue 25 come too: an idle-connection hog (from 127.0.0.2, so it is
//! another client than the load's: up to 1,030 idle connections, reopened as the server
//! closes them), IDA* with `0*manhattan` on a hard 3×3 (4 s limit; must not hold the quick
//! pool), a body dripping a byte every 2 s (must be answered 408 within the 10 s deadline)
//! and a comparison whose tables together exceed a request's budget (must get 400).

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::Request;
use hyper_util::rt::TokioIo;
use npuzzle::{generate, Board, GoalSpec, Move, Shape};
use rand::Rng;

struct Options {
    addr: SocketAddr,
    clients: usize,
    seconds: f64,
    malformed: f64,
    /// Requests per second per client; 0 for as fast as answers come.
    rate: f64,
    /// Attackers of each kind.
    attacks: usize,
    /// Which kinds (by the first word of their names; all by default).
    kinds: Vec<Attack>,
}

fn options() -> Result<Options, String> {
    let mut o = Options {
        addr: "127.0.0.1:8080".parse().unwrap(),
        clients: 200,
        seconds: 10.0,
        malformed: 0.1,
        rate: 0.0,
        attacks: 0,
        kinds: Attack::ALL.to_vec(),
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    for pair in args.chunks(2) {
        let value = pair.get(1).ok_or(format!("{} needs a value", pair[0]))?;
        let bad = || format!("invalid value for {}: {value}", pair[0]);
        match pair[0].as_str() {
            "--url" => {
                let hostport = value
                    .trim_start_matches("http://")
                    .trim_end_matches('/')
                    .replace("localhost", "127.0.0.1");
                o.addr = hostport
                    .parse()
                    .map_err(|_| format!("invalid --url {value}"))?;
            }
            "--clients" => o.clients = value.parse().map_err(|_| bad())?,
            "--seconds" => o.seconds = value.parse().map_err(|_| bad())?,
            "--malformed" => o.malformed = value.parse().map_err(|_| bad())?,
            "--rate" => o.rate = value.parse().map_err(|_| bad())?,
            "--attacks" => o.attacks = value.parse().map_err(|_| bad())?,
            "--attack-kinds" => {
                o.kinds = value
                    .split(',')
                    .map(|w| {
                        Attack::ALL
                            .into_iter()
                            .find(|k| k.name().starts_with(w.trim()))
                            .ok_or_else(bad)
                    })
                    .collect::<Result<_, _>>()?;
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if !o.addr.ip().is_loopback() {
        return Err("the load test only targets loopback addresses".into());
    }
    if !(o.seconds > 0.0 && o.seconds <= 120.0) || o.clients == 0 || o.clients > 2000 {
        return Err("--seconds must be in (0, 120] and --clients in 1..=2000".into());
    }
    if o.attacks > 50 {
        return Err("--attacks must be at most 50".into());
    }
    if !(0.0..=10_000.0).contains(&o.rate) || !(0.0..=1.0).contains(&o.malformed) {
        return Err("--rate must be in [0, 10000] and --malformed in [0, 1]".into());
    }
    Ok(o)
}

/// Bodies a careless or hostile client might send; each must get a 4xx.
const MALFORMED: &[&str] = &[
    r#"{"board": "1 2 3"#,
    r#"{"board": true}"#,
    r#"{"board": [1, 2, "x"]}"#,
    r#"{"board": "1 1 2/3 4 5/6 7 0"}"#,
    r#"{"board": "1 2 3/4 5 6/7 8 0", "heuristic": "psychic"}"#,
    r#"{"board": "1 2 3/4 5 6/7 8 0", "algorithm": 7}"#,
    r#"{"bored": "1 2 3/4 5 6/7 8 0"}"#,
    r#"not json at all"#,
    r#""#,
    r#"{"board": "1 2 3/4 5 6/7 8 0", "size": "99999x99999"}"#,
    r#"{"board": "1 2 3/4 5 6/7 8 0", "time_limit": -1}"#,
];

#[derive(Default)]
struct Tally {
    /// Microseconds per valid solve.
    latencies: Vec<u32>,
    malformed_latencies: Vec<u32>,
    ok: u64,
    malformed_4xx: u64,
    failures: Vec<String>,
    server_errors: u64,
}

async fn client(addr: SocketAddr, until: Instant, malformed: f64, rate: f64, seed: u64) -> Tally {
    let mut tally = Tally::default();
    let goal = GoalSpec::Standard.board(Shape::square(3).unwrap()).unwrap();
    let mut rng = generate::rng(seed);
    let mut sender = None;
    let period = (rate > 0.0).then(|| Duration::from_secs_f64(1.0 / rate));
    // Clients start out of phase so paced requests do not arrive in bursts.
    let mut due = Instant::now() + period.map_or(Duration::ZERO, |p| p.mul_f64(rng.random()));
    while Instant::now() < until {
        if let Some(p) = period {
            tokio::time::sleep_until(due.into()).await;
            due += p;
        }
        if sender.is_none() {
            match connect(addr).await {
                Ok(s) => sender = Some(s),
                Err(e) => {
                    tally.failures.push(format!("connect: {e}"));
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            }
        }
        let s = sender.as_mut().unwrap();
        let bad = rng.random_bool(malformed);
        let (body, board) = if bad {
            let body = MALFORMED[rng.random_range(0..MALFORMED.len())];
            (body.to_string(), None)
        } else {
            let b = generate::random_solvable(&goal, &mut rng);
            (format!(r#"{{"board": "{b}"}}"#), Some(b))
        };
        let request = Request::post("/api/solve")
            .header("host", addr.to_string())
            .header("content-type", "application/json")
            .body(Full::new(Bytes::from(body)))
            .unwrap();
        // Paced: latency counts from when the request was due, not when it got sent.
        let sent = match period {
            Some(p) => due - p,
            None => Instant::now(),
        };
        let response = match s.send_request(request).await {
            Ok(r) => r,
            Err(e) => {
                tally.failures.push(format!("request: {e}"));
                sender = None;
                continue;
            }
        };
        let status = response.status();
        let bytes = match response.into_body().collect().await {
            Ok(b) => b.to_bytes(),
            Err(e) => {
                tally.failures.push(format!("body: {e}"));
                sender = None;
                continue;
            }
        };
        let micros = sent.elapsed().as_micros().min(u32::MAX as u128) as u32;
        if status.is_server_error() {
            tally.server_errors += 1;
        }
        match board {
            None => {
                tally.malformed_latencies.push(micros);
                if status.is_client_error() {
                    tally.malformed_4xx += 1;
                } else {
                    tally
                        .failures
                        .push(format!("malformed request answered {status}"));
                }
            }
            Some(b) => {
                tally.latencies.push(micros);
                match check_solution(&b, &goal, status.as_u16(), &bytes) {
                    Ok(()) => tally.ok += 1,
                    Err(e) => tally.failures.push(e),
                }
            }
        }
    }
    tally
}

/// A valid board must come back 200 with an optimal path that replays to the goal.
fn check_solution(start: &Board, goal: &Board, status: u16, body: &[u8]) -> Result<(), String> {
    if status != 200 {
        return Err(format!("valid board {start} answered {status}"));
    }
    let v: serde_json::Value =
        serde_json::from_slice(body).map_err(|e| format!("unreadable answer: {e}"))?;
    let moves = v["moves"].as_str().ok_or("answer without moves")?;
    let moves = Move::parse_letters(moves).map_err(|c| format!("bad move {c}"))?;
    if start.replay(&moves).as_ref() != Ok(goal) || v["optimal"] != true {
        return Err(format!(
            "path for {start} does not reach the goal optimally"
        ));
    }
    Ok(())
}

type Sender = hyper::client::conn::http1::SendRequest<Full<Bytes>>;

async fn connect(addr: SocketAddr) -> Result<Sender, Box<dyn std::error::Error + Send + Sync>> {
    let stream = tokio::net::TcpStream::connect(addr).await?;
    stream.set_nodelay(true)?;
    let (sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream)).await?;
    tokio::spawn(conn);
    Ok(sender)
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    f64::from(sorted[i]) / 1000.0
}

// One thread: the load generator takes one core at most and leaves the rest to the server
// (on a 2-core machine a multi-threaded client steals the server's CPU and inflates its tail).
#[tokio::main(flavor = "current_thread")]
async fn main() {
    let o = match options() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let pace = if o.rate > 0.0 {
        format!("{} requests/s each", o.rate)
    } else {
        "closed loop".to_string()
    };
    println!(
        "load: {} clients ({pace}), {} s, {:.0}% malformed, against http://{}/api/solve",
        o.clients,
        o.seconds,
        o.malformed * 100.0,
        o.addr
    );
    let started = Instant::now();
    let until = started + Duration::from_secs_f64(o.seconds);
    let tasks: Vec<_> = (0..o.clients)
        .map(|i| tokio::spawn(client(o.addr, until, o.malformed, o.rate, 1000 + i as u64)))
        .collect();
    let attackers: Vec<_> = (0..o.attacks)
        .flat_map(|i| o.kinds.iter().map(move |&kind| (i, kind)))
        .map(|(i, kind)| tokio::spawn(attack(o.addr, until, kind, i)))
        .collect();
    let mut all = Tally::default();
    for t in tasks {
        let t = t.await.expect("a client task panicked");
        all.latencies.extend(t.latencies);
        all.malformed_latencies.extend(t.malformed_latencies);
        all.ok += t.ok;
        all.malformed_4xx += t.malformed_4xx;
        all.server_errors += t.server_errors;
        all.failures.extend(t.failures);
    }
    let elapsed = started.elapsed().as_secs_f64();
    all.latencies.sort_unstable();
    all.malformed_latencies.sort_unstable();
    let total = all.latencies.len() + all.malformed_latencies.len();
    println!(
        "requests: {total} in {elapsed:.1} s ({:.0}/s); valid solved 200: {}/{}; malformed 4xx: {}/{}; 5xx: {}",
        total as f64 / elapsed,
        all.ok,
        all.latencies.len(),
        all.malformed_4xx,
        all.malformed_latencies.len(),
        all.server_errors
    );
    let l = &all.latencies;
    println!(
        "solve latency ms: p50 {:.2}  p90 {:.2}  p99 {:.2}  p99.9 {:.2}  max {:.2}",
        percentile(l, 0.5),
        percentile(l, 0.9),
        percentile(l, 0.99),
        percentile(l, 0.999),
        percentile(l, 1.0)
    );
    let m = &all.malformed_latencies;
    println!(
        "malformed latency ms: p50 {:.2}  p99 {:.2}",
        percentile(m, 0.5),
        percentile(m, 0.99)
    );
    let mut attack_failures = Vec::new();
    if !attackers.is_empty() {
        let mut by_kind: Vec<(Attack, Vec<u16>)> =
            Attack::ALL.iter().map(|&k| (k, vec![])).collect();
        for t in attackers {
            let (kind, statuses, failures) = t.await.expect("an attacker panicked");
            by_kind
                .iter_mut()
                .find(|(k, _)| *k == kind)
                .expect("a kind")
                .1
                .extend(statuses);
            attack_failures.extend(failures);
        }
        for (kind, statuses) in by_kind {
            let mut counts: Vec<(u16, usize)> = Vec::new();
            for s in statuses {
                match counts.iter_mut().find(|(c, _)| *c == s) {
                    Some(c) => c.1 += 1,
                    None => counts.push((s, 1)),
                }
            }
            counts.sort_unstable();
            let counts: Vec<String> = counts
                .iter()
                .map(|(s, n)| {
                    if *s == 0 {
                        format!("closed by the server: {n}")
                    } else {
                        format!("{s}: {n}")
                    }
                })
                .collect();
            println!("attack {}: {}", kind.name(), counts.join(", "));
        }
    }
    all.failures.extend(attack_failures);
    if !all.failures.is_empty() {
        println!("failures: {}", all.failures.len());
        for f in all.failures.iter().take(10) {
            println!("  {f}");
        }
        std::process::exit(1);
    }
    println!("no failures");
}

/// The attacks of issue 15 that `--attacks` mixes in.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Attack {
    WideHeuristic,
    NewPdb,
    CrossOrigin,
    Slowloris,
    HugeBody,
    IdleHog,
    ZeroHeuristic,
    DrippingBody,
    WideCompare,
}

impl Attack {
    const ALL: [Attack; 9] = [
        Attack::WideHeuristic,
        Attack::NewPdb,
        Attack::CrossOrigin,
        Attack::Slowloris,
        Attack::HugeBody,
        Attack::IdleHog,
        Attack::ZeroHeuristic,
        Attack::DrippingBody,
        Attack::WideCompare,
    ];

    fn name(self) -> &'static str {
        match self {
            Attack::WideHeuristic => "wide heuristic (max of 64, 10x10)",
            Attack::NewPdb => "new pdb partitions (4x4)",
            Attack::CrossOrigin => "cross-origin text/plain",
            Attack::Slowloris => "slowloris",
            Attack::HugeBody => "1 GB Content-Length",
            Attack::IdleHog => "idle hog (1,030 idle connections from 127.0.0.2)",
            Attack::ZeroHeuristic => "zero heuristic (IDA* 0*manhattan, 3x3)",
            Attack::DrippingBody => "dripping body (a byte every 2 s)",
            Attack::WideCompare => "wide compare (tables over the budget)",
        }
    }
}

/// One attacker: the same attack again and again until `until`. Returns the statuses seen
/// (0: the server closed the connection) and what went wrong.
async fn attack(
    addr: SocketAddr,
    until: Instant,
    kind: Attack,
    i: usize,
) -> (Attack, Vec<u16>, Vec<String>) {
    let mut statuses = Vec::new();
    let mut failures = Vec::new();
    let partitions = [
        "1-7-7", "2-7-6", "3-6-6", "4-6-5", "5-5-5", "2-6-7", "7-7-1",
    ];
    let mut round = 0usize;
    // The cheap attacks are paced (20 a second each): a flood of them would measure this
    // tool's one thread, not the server.
    let pace = matches!(
        kind,
        Attack::CrossOrigin | Attack::HugeBody | Attack::WideCompare
    );
    if kind == Attack::IdleHog {
        return (kind, idle_hog(addr, until).await, Vec::new());
    }
    while Instant::now() < until {
        round += 1;
        if pace {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        let result = match kind {
            Attack::WideHeuristic => {
                let board: Vec<String> = (1..100).chain([0]).map(|t: u32| t.to_string()).collect();
                let h = vec!["lc"; 64].join(",");
                let body = format!(
                    r#"{{"board": "{}", "heuristic": "max({h})", "algorithm": "idastar", "time_limit": 1}}"#,
                    shuffled_10x10(&board, i * 1000 + round)
                );
                raw_request(
                    addr,
                    "POST /api/solve",
                    &[("content-type", "application/json")],
                    &body,
                    until,
                )
                .await
            }
            Attack::NewPdb => {
                let p = partitions[(i + round) % partitions.len()];
                let body = format!(
                    r#"{{"board": "15 14 13 12 11 10 9 8 7 6 5 4 3 1 2 0", "heuristic": "pdb:{p}", "time_limit": 0.5}}"#
                );
                raw_request(
                    addr,
                    "POST /api/solve",
                    &[("content-type", "application/json")],
                    &body,
                    until,
                )
                .await
            }
            Attack::CrossOrigin => {
                let body = r#"{"board": "8 6 7/2 5 4/3 0 1"}"#;
                let r = raw_request(
                    addr,
                    "POST /api/solve",
                    &[
                        ("content-type", "text/plain"),
                        ("origin", "http://evil.example"),
                    ],
                    body,
                    until,
                )
                .await;
                if let Ok(s) = r {
                    if s != 403 {
                        failures.push(format!("cross-origin post answered {s}"));
                    }
                }
                r
            }
            Attack::Slowloris => slowloris(addr).await,
            Attack::IdleHog => unreachable!("handled above"),
            Attack::ZeroHeuristic => {
                let body = r#"{"board": "8 6 7/2 5 4/3 0 1", "algorithm": "idastar", "heuristic": "0*manhattan", "time_limit": 4}"#;
                raw_request(
                    addr,
                    "POST /api/solve",
                    &[("content-type", "application/json")],
                    body,
                    until,
                )
                .await
            }
            Attack::DrippingBody => {
                let r = dripping_body(addr).await;
                if let Ok(s) = r {
                    if s != 408 {
                        failures.push(format!("a dripping body answered {s}"));
                    }
                }
                r
            }
            Attack::WideCompare => {
                let body = r#"{"board": "1 2 3 4/5 6 7 8/9 10 11 12/13 14 0 15", "algorithm": "idastar", "heuristics": ["pdb:6-6-3", "pdb:1-6-6-2", "pdb:2-6-6-1"]}"#;
                let r = raw_request(
                    addr,
                    "POST /api/compare",
                    &[("content-type", "application/json")],
                    body,
                    until,
                )
                .await;
                // 400, or 200 when other requests have left some of its tables in memory
                // (those cost nothing); a 5xx is counted below.
                if let Ok(s) = r {
                    if s != 400 && s != 200 {
                        failures.push(format!("a compare over the table budget answered {s}"));
                    }
                }
                r
            }
            Attack::HugeBody => {
                let r = raw_request(
                    addr,
                    "POST /api/solve",
                    &[("content-length", "1000000000"), ("expect", "100-continue")],
                    "",
                    until,
                )
                .await;
                if let Ok(s) = r {
                    if s != 413 {
                        failures.push(format!("1 GB body answered {s}"));
                    }
                }
                r
            }
        };
        match result {
            Ok(s) => {
                if s >= 500 {
                    failures.push(format!("attack {} answered {s}", kind.name()));
                }
                statuses.push(s);
            }
            Err(e) => failures.push(format!("attack {}: {e}", kind.name())),
        }
    }
    (kind, statuses, failures)
}

/// A 10x10 board shuffled by a random walk from the goal (so it is solvable).
fn shuffled_10x10(_tiles: &[String], seed: usize) -> String {
    let goal = GoalSpec::Standard
        .board(Shape::square(10).unwrap())
        .unwrap();
    let b = generate::random_walk(&goal, 200, &mut generate::rng(seed as u64));
    b.to_string()
}

/// Sends one request on a fresh connection (with `Content-Length` unless given) and reads
/// the status line; 0 when the server closed the connection without answering.
async fn raw_request(
    addr: SocketAddr,
    line: &str,
    headers: &[(&str, &str)],
    body: &str,
    until: Instant,
) -> Result<u16, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut socket = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| e.to_string())?;
    let mut head = format!("{line} HTTP/1.1\r\nhost: {addr}\r\nconnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !headers.iter().any(|(k, _)| *k == "content-length") {
        head.push_str(&format!("content-length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    head.push_str(body);
    socket
        .write_all(head.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    let wait = until.saturating_duration_since(Instant::now()) + Duration::from_secs(30);
    let _ = tokio::time::timeout(wait, socket.read_to_end(&mut out)).await;
    let text = String::from_utf8_lossy(&out);
    Ok(text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0))
}

/// Half a request head, a byte a second, until the server closes the connection (0) or
/// 30 s pass (an error: the server held it).
async fn slowloris(addr: SocketAddr) -> Result<u16, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut socket = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| e.to_string())?;
    let started = Instant::now();
    let _ = socket
        .write_all(b"POST /api/solve HTTP/1.1\r\nhost: 127.0.0.1\r\nx-a: ")
        .await;
    let mut buf = [0u8; 256];
    while started.elapsed() < Duration::from_secs(30) {
        if socket.write_all(b"a").await.is_err() {
            return Ok(0);
        }
        match tokio::time::timeout(Duration::from_secs(1), socket.read(&mut buf)).await {
            Ok(Ok(0)) | Ok(Err(_)) => return Ok(0),
            Ok(Ok(n)) => {
                let text = String::from_utf8_lossy(&buf[..n]);
                return Ok(text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0));
            }
            Err(_) => {}
        }
    }
    Err("a slowloris connection was still open after 30 s".into())
}

/// Holds up to 1,030 idle connections from 127.0.0.2 until `until`, reopening those the
/// server closes; one status 0 per connection the server closed.
async fn idle_hog(addr: SocketAddr, until: Instant) -> Vec<u16> {
    const HOLD: usize = 1030;
    let mut closed = Vec::new();
    let mut open: Vec<tokio::net::TcpStream> = Vec::new();
    while Instant::now() < until {
        // Drop the connections the server has closed.
        let mut kept = Vec::with_capacity(open.len());
        for socket in open {
            let mut buf = [0u8; 64];
            match socket.try_read(&mut buf) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => kept.push(socket),
                _ => closed.push(0),
            }
        }
        open = kept;
        while open.len() < HOLD {
            let Ok(socket) = tokio::net::TcpSocket::new_v4() else {
                break;
            };
            if socket.bind("127.0.0.2:0".parse().unwrap()).is_err() {
                break;
            }
            match socket.connect(addr).await {
                Ok(s) => open.push(s),
                Err(_) => break,
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    closed
}

/// A request whose body comes a byte every 2 s: its status (408 expected within the
/// server's 10 s body deadline), or an error if the server held it for 30 s.
async fn dripping_body(addr: SocketAddr) -> Result<u16, String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpStream::connect(addr)
        .await
        .map_err(|e| e.to_string())?;
    let (mut read, mut write) = socket.into_split();
    let head = format!(
        "POST /api/solve HTTP/1.1\r\nhost: {addr}\r\ncontent-length: 100\r\n\r\n{{\"board\":"
    );
    write
        .write_all(head.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let drip = tokio::spawn(async move {
        for _ in 0..20 {
            tokio::time::sleep(Duration::from_secs(2)).await;
            if write.write_all(b" ").await.is_err() {
                return;
            }
        }
    });
    let mut out = Vec::new();
    let answered = tokio::time::timeout(Duration::from_secs(30), read.read_to_end(&mut out)).await;
    drip.abort();
    if answered.is_err() && out.is_empty() {
        return Err("a dripping body was still open after 30 s".into());
    }
    let text = String::from_utf8_lossy(&out);
    Ok(text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0))
}
