//! The accept loop: HTTP/1 connections with timeouts that `axum::serve` does not offer, and
//! a fair share of connections for every client.
//!
//! `axum::serve` sets no timer, so a client that sends half a request head (slowloris) or
//! nothing at all holds its connection for good. Here each connection is served by hyper
//! with a timer and a header read timeout (which also closes kept-alive connections left
//! idle), at most [`Config::max_connections`] at once; request bodies have their own
//! deadline (see `JsonBody`).
//!
//! A limit on connections alone lets one client take them all: about 1,030 idle
//! connections from one address locked everyone else out for as long as the client kept
//! reopening them. So connections are counted per client ([`client_key`]: the IPv4
//! address, or the /64 network of an IPv6 address, which one machine usually holds whole),
//! and a connection that arrives when its client or the server is at its limit takes the
//! place of an *idle* one (no request in flight), the least recently active of whichever
//! client holds the most, rather than being refused. Only when every connection of that
//! client is busy is the newcomer refused. So a client holding a thousand idle connections
//! loses one to every newcomer, and a client at its share recycles its own.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{watch, Notify};

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
    let registry = Arc::new(Registry::new(
        config.max_connections,
        config.max_connections_per_client,
    ));
    let router = crate::app(AppState::new(config, cache_dir));
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(header_timeout)
        .max_headers(64);
    let (stop, stopped) = watch::channel(false);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(_) => {
                    // Out of file descriptors and the like: wait a little rather than
                    // spin or stop serving.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let Some(entry) = registry.admit(client_key(peer.ip())) else {
            continue; // every connection of the largest client is busy: this one is closed
        };
        let _ = stream.set_nodelay(true);
        let inner = TowerToHyperService::new(router.clone());
        let tracked = entry.clone();
        let service = hyper::service::service_fn(move |request| {
            let busy = Busy::start(&tracked);
            let answer = hyper::service::Service::call(&inner, request);
            async move {
                let response = answer.await;
                drop(busy);
                response
            }
        });
        let connection = http.serve_connection(TokioIo::new(stream), service);
        let registry = registry.clone();
        let mut stopped = stopped.clone();
        tokio::spawn(async move {
            let mut connection = std::pin::pin!(connection);
            let mut closing = false;
            loop {
                tokio::select! {
                    _ = connection.as_mut() => break,
                    () = entry.evict.notified(), if !closing => {
                        closing = true;
                        connection.as_mut().graceful_shutdown();
                    }
                    _ = stopped.changed(), if !closing => {
                        closing = true;
                        connection.as_mut().graceful_shutdown();
                    }
                }
            }
            registry.remove(&entry);
        });
    }
    let _ = stop.send(true);
    let _ = tokio::time::timeout(SHUTDOWN_GRACE, registry.emptied()).await;
    Ok(())
}

/// Whom a connection is counted against: an IPv4 address (an IPv4 address mapped into
/// IPv6 counts as itself), or the /64 network of an IPv6 address.
pub(crate) fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => IpAddr::V4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        },
    }
}

/// One open connection as the registry sees it.
#[derive(Debug)]
pub(crate) struct Connection {
    id: u64,
    client: IpAddr,
    /// Requests in flight on it (0: idle, so it may be closed for a newcomer).
    busy: AtomicUsize,
    /// When the registry started.
    epoch: Instant,
    /// Milliseconds since `epoch` when a request last began or ended.
    last_active: AtomicU64,
    /// Told to close (gracefully: a request in flight still gets its answer).
    evict: Notify,
}

impl Connection {
    fn touch(&self) {
        let now = self.epoch.elapsed().as_millis() as u64;
        self.last_active.store(now, Ordering::SeqCst);
    }
}

/// Counts a request in flight on a connection until dropped.
struct Busy(Arc<Connection>);

impl Busy {
    fn start(connection: &Arc<Connection>) -> Busy {
        connection.busy.fetch_add(1, Ordering::SeqCst);
        connection.touch();
        Busy(connection.clone())
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.touch();
        self.0.busy.fetch_sub(1, Ordering::SeqCst);
    }
}

/// The open connections, by client.
#[derive(Debug)]
pub(crate) struct Registry {
    max_total: usize,
    max_per_client: usize,
    started: Instant,
    inner: Mutex<Open>,
    empty: Notify,
}

#[derive(Debug, Default)]
struct Open {
    next_id: u64,
    total: usize,
    by_client: HashMap<IpAddr, Vec<Arc<Connection>>>,
}

impl Registry {
    /// A registry for at most `max_total` connections, `max_per_client` of any one client
    /// (both at least 1).
    pub(crate) fn new(max_total: usize, max_per_client: usize) -> Registry {
        Registry {
            max_total: max_total.max(1),
            max_per_client: max_per_client.clamp(1, max_total.max(1)),
            started: Instant::now(),
            inner: Mutex::new(Open::default()),
            empty: Notify::new(),
        }
    }

    /// Registers a new connection from `client`, closing an idle one to make room when the
    /// client or the server is at its limit; `None` when no room can be made (the
    /// connection is then to be closed).
    pub(crate) fn admit(&self, client: IpAddr) -> Option<Arc<Connection>> {
        let mut open = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        let own = open.by_client.get(&client).map_or(0, Vec::len);
        if own >= self.max_per_client {
            // The client recycles its own connections.
            self.evict_idle(&mut open, client)?;
        } else if open.total >= self.max_total {
            // The client holding the most gives one up (ties: any of them).
            let largest = open
                .by_client
                .iter()
                .filter(|(_, c)| c.iter().any(|c| c.busy.load(Ordering::SeqCst) == 0))
                .max_by_key(|(_, c)| c.len())
                .map(|(k, _)| *k)?;
            let largest_len = open.by_client.get(&largest).map_or(0, Vec::len);
            if largest_len <= own {
                // Nobody holds more than the newcomer already does: it waits its turn.
                return None;
            }
            self.evict_idle(&mut open, largest)?;
        }
        let now = self.started.elapsed().as_millis() as u64;
        open.next_id += 1;
        let connection = Arc::new(Connection {
            id: open.next_id,
            client,
            busy: AtomicUsize::new(0),
            epoch: self.started,
            last_active: AtomicU64::new(now),
            evict: Notify::new(),
        });
        open.total += 1;
        open.by_client
            .entry(client)
            .or_default()
            .push(connection.clone());
        Some(connection)
    }

    /// Closes `client`'s least recently active idle connection; `None` if all are busy.
    fn evict_idle(&self, open: &mut Open, client: IpAddr) -> Option<()> {
        let list = open.by_client.get_mut(&client)?;
        let (at, _) = list
            .iter()
            .enumerate()
            .filter(|(_, c)| c.busy.load(Ordering::SeqCst) == 0)
            .min_by_key(|(_, c)| c.last_active.load(Ordering::SeqCst))?;
        let victim = list.swap_remove(at);
        if list.is_empty() {
            open.by_client.remove(&client);
        }
        open.total -= 1;
        victim.evict.notify_one();
        Some(())
    }

    /// Forgets a connection that has closed (a no-op for one already evicted).
    pub(crate) fn remove(&self, connection: &Connection) {
        let mut open = self.inner.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(list) = open.by_client.get_mut(&connection.client) {
            if let Some(at) = list.iter().position(|c| c.id == connection.id) {
                list.swap_remove(at);
                if list.is_empty() {
                    open.by_client.remove(&connection.client);
                }
                open.total -= 1;
            }
        }
        if open.total == 0 {
            self.empty.notify_waiters();
        }
    }

    /// Connections registered now.
    #[cfg(test)]
    fn total(&self) -> usize {
        self.inner.lock().unwrap().total
    }

    /// Waits until no connection is registered.
    async fn emptied(&self) {
        loop {
            let notified = self.empty.notified();
            if self.inner.lock().unwrap_or_else(|e| e.into_inner()).total == 0 {
                return;
            }
            notified.await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    #[test]
    fn a_client_at_its_share_recycles_its_own_idle_connections() {
        let r = Registry::new(10, 3);
        let a: Vec<_> = (0..3).map(|_| r.admit(ip("10.0.0.1")).unwrap()).collect();
        a[1].busy.store(1, Ordering::SeqCst);
        a[2].busy.store(1, Ordering::SeqCst);
        // The fourth takes the idle first's place.
        assert!(r.admit(ip("10.0.0.1")).is_some());
        assert_eq!(r.total(), 3);
        // With all three busy, the next is refused; another client is not.
        a[0].busy.store(1, Ordering::SeqCst);
        let open = r.inner.lock().unwrap().by_client[&ip("10.0.0.1")].clone();
        for c in &open {
            c.busy.store(1, Ordering::SeqCst);
        }
        assert!(r.admit(ip("10.0.0.1")).is_none());
        assert!(r.admit(ip("10.0.0.2")).is_some());
    }

    #[test]
    fn a_full_server_takes_an_idle_connection_from_the_largest_client() {
        let r = Registry::new(4, 4);
        let hog: Vec<_> = (0..3).map(|_| r.admit(ip("10.0.0.1")).unwrap()).collect();
        let other = r.admit(ip("10.0.0.2")).unwrap();
        let newcomer = r.admit(ip("10.0.0.3")).unwrap();
        assert_eq!(r.total(), 4);
        assert_eq!(r.inner.lock().unwrap().by_client[&ip("10.0.0.1")].len(), 2);
        r.remove(&newcomer);
        r.remove(&other);
        drop(hog);
    }

    #[test]
    fn ipv6_clients_count_by_network() {
        assert_eq!(
            client_key(ip("2001:db8::1")),
            client_key(ip("2001:db8::ffff:1"))
        );
        assert_ne!(
            client_key(ip("2001:db8::1")),
            client_key(ip("2001:db8:0:1::1"))
        );
        assert_eq!(client_key(ip("::ffff:10.0.0.1")), ip("10.0.0.1"));
    }
}
