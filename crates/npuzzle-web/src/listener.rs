//! The accept loop: HTTP/1 connections with timeouts that `axum::serve` does not offer.
//!
//! `axum::serve` sets no timer, so a client that sends half a request head (slowloris) or
//! nothing at all holds its connection for good. Here each connection is served by hyper
//! with a timer and a header read timeout (which also closes kept-alive connections left
//! idle), at most [`Config::max_connections`] at once; request bodies have their own
//! timeout (a layer in [`crate::app`]).

use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;

use crate::state::{AppState, Config};

/// How long Ctrl-C waits for requests in flight before the server stops anyway.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(15);

/// Serves [`crate::app`] on a bound listener until `shutdown` completes, then finishes the
/// requests in flight. Tables come from `cache_dir` (see [`AppState::new`]).
///
/// # Errors
/// An I/O error from the listener's address.
pub async fn serve_until(
    listener: TcpListener,
    mut config: Config,
    cache_dir: Option<std::path::PathBuf>,
    shutdown: impl std::future::Future<Output = ()>,
) -> std::io::Result<()> {
    config.local_addr = Some(listener.local_addr()?);
    let header_timeout = config.header_timeout;
    let connections = Arc::new(Semaphore::new(config.max_connections.clamp(1, 1 << 20)));
    let router = crate::app(AppState::new(config, cache_dir));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_headers(64);
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    // Out of file descriptors and the like: wait a little rather than
                    // spin or stop serving.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Ok(permit) = connections.clone().try_acquire_owned() else {
            continue; // too many connections: this one is closed at once
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(router.clone());
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            let _ = connection.await;
            drop(permit);
        });
    }
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, graceful.shutdown()).await;
    Ok(())
}
