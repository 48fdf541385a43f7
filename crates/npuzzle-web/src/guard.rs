//! Checks every request passes before it reaches a handler: who may call the server, and
//! how large a body it may announce.
//!
//! * **Origin.** A page on another site can make a browser send a `POST` to this server
//!   (a `text/plain` form post needs no CORS preflight), so any site could start searches
//!   on a user's local server. Browsers name the calling page in `Origin` on every such
//!   request: a request whose `Origin` is neither this server's own (`http://` + its
//!   `Host`) nor one the operator allowed (`serve --allow-origin`) gets 403. Requests
//!   without `Origin` (curl, scripts, same-origin navigations) are not browsers acting for
//!   another site, and pass.
//! * **Host.** A site can also point a name it controls at 127.0.0.1 (DNS rebinding): its
//!   pages are then "same-origin" with this server. Such requests carry the attacker's
//!   name in `Host`, so `Host` must be `localhost`, a loopback address, the address the
//!   server listens on, any address when it listens on all of them, or a name the
//!   operator allowed (`serve --allow-host`); else 403.
//! * **Size.** A `Content-Length` over the body limit gets 413 at once, before any body is
//!   read (so `Expect: 100-continue` gets no `100 Continue`), and every 413 closes the
//!   connection (`Connection: close`): the rest of the body is never read.

use std::net::IpAddr;

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::AppError;
use crate::state::{AppState, Config};

/// The middleware: refuses foreign origins and hosts, and oversized bodies up front.
pub(crate) async fn check(State(state): State<AppState>, req: Request, next: Next) -> Response {
    let config = state.config();
    if let Err(e) = allowed(req.headers(), config) {
        return e.into_response();
    }
    if let Some(len) = content_length(req.headers()) {
        if len > config.max_body_bytes as u64 {
            return close(AppError::PayloadTooLarge(config.max_body_bytes).into_response());
        }
    }
    let response = next.run(req).await;
    // The rest of such a body is never read, so the connection cannot carry another request.
    if matches!(
        response.status(),
        StatusCode::PAYLOAD_TOO_LARGE | StatusCode::REQUEST_TIMEOUT
    ) {
        return close(response);
    }
    response
}

/// Marks a response as the last on its connection.
fn close(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CONNECTION, HeaderValue::from_static("close"));
    response
}

fn content_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)?
        .to_str()
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// Whether a request's `Host` and `Origin` are acceptable.
///
/// # Errors
/// [`AppError::Forbidden`] naming what was refused and the flag that allows it.
pub(crate) fn allowed(headers: &HeaderMap, config: &Config) -> Result<(), AppError> {
    let host = match headers.get(header::HOST) {
        None => None,
        Some(h) => Some(
            h.to_str()
                .map_err(|_| AppError::forbidden("unreadable Host header"))?,
        ),
    };
    if let Some(host) = host {
        if !host_allowed(host, config) {
            return Err(AppError::forbidden(format!(
                "requests for host {} are refused (start the server with --allow-host NAME \
                 to serve a name other than localhost)",
                crate::error::one_line(host)
            )));
        }
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("null");
        let own = host.is_some_and(|h| origin.eq_ignore_ascii_case(&format!("http://{h}")));
        let listed = config
            .allowed_origins
            .iter()
            .any(|o| o == "*" || o.trim_end_matches('/').eq_ignore_ascii_case(origin));
        if !own && !listed {
            return Err(AppError::forbidden(format!(
                "cross-origin requests are refused (origin {}; start the server with \
                 --allow-origin ORIGIN to allow a page elsewhere to call it)",
                crate::error::one_line(origin)
            )));
        }
    }
    Ok(())
}

/// Whether `Host` (name or address, with or without a port) names this server.
fn host_allowed(host: &str, config: &Config) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        // [v6]:port
        rest.split(']').next().unwrap_or("")
    } else {
        match host.rsplit_once(':') {
            Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => name,
            _ => host,
        }
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    if name == "localhost" || name.ends_with(".localhost") {
        return true;
    }
    if config
        .allowed_hosts
        .iter()
        .any(|h| h.eq_ignore_ascii_case(&name))
    {
        return true;
    }
    let Ok(ip) = name.parse::<IpAddr>() else {
        return false;
    };
    if ip.is_loopback() {
        return true;
    }
    // Listening on every address (a classroom): any address of this machine may be typed,
    // and an address cannot be rebound as a name can.
    config
        .local_addr
        .is_some_and(|a| a.ip() == ip || a.ip().is_unspecified())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.insert(k.clone(), HeaderValue::from_str(v).unwrap());
        }
        h
    }

    fn config(local: &str) -> Config {
        Config {
            local_addr: Some(local.parse().unwrap()),
            ..Config::default()
        }
    }

    #[test]
    fn own_origin_and_local_hosts_pass() {
        let c = config("127.0.0.1:8080");
        for (host, origin) in [
            ("127.0.0.1:8080", Some("http://127.0.0.1:8080")),
            ("localhost:8080", Some("http://localhost:8080")),
            ("[::1]:8080", None),
            ("localhost", None),
        ] {
            let mut h = headers(&[(header::HOST, host)]);
            if let Some(o) = origin {
                h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
            }
            assert!(allowed(&h, &c).is_ok(), "{host} {origin:?}");
        }
        assert!(allowed(&HeaderMap::new(), &c).is_ok());
    }

    #[test]
    fn foreign_origins_and_rebound_names_are_refused() {
        let c = config("127.0.0.1:8080");
        let h = headers(&[
            (header::HOST, "127.0.0.1:8080"),
            (header::ORIGIN, "http://evil.example"),
        ]);
        assert_eq!(allowed(&h, &c).unwrap_err().status(), StatusCode::FORBIDDEN);
        let h = headers(&[(header::HOST, "127.0.0.1:8080"), (header::ORIGIN, "null")]);
        assert!(allowed(&h, &c).is_err());
        // DNS rebinding: same-origin, but for a foreign name.
        let h = headers(&[
            (header::HOST, "evil.example:8080"),
            (header::ORIGIN, "http://evil.example:8080"),
        ]);
        assert!(allowed(&h, &c).is_err());
        let h = headers(&[(header::HOST, "10.0.0.7:8080")]);
        assert!(allowed(&h, &c).is_err());
    }

    #[test]
    fn the_operator_may_allow_more() {
        let c = Config {
            allowed_origins: vec!["http://tools.example".into()],
            allowed_hosts: vec!["classroom.local".into()],
            ..config("0.0.0.0:8080")
        };
        let h = headers(&[
            (header::HOST, "classroom.local:8080"),
            (header::ORIGIN, "http://tools.example"),
        ]);
        assert!(allowed(&h, &c).is_ok());
        // Listening on every address: any address of the machine.
        let h = headers(&[
            (header::HOST, "192.168.1.5:8080"),
            (header::ORIGIN, "http://192.168.1.5:8080"),
        ]);
        assert!(allowed(&h, &c).is_ok());
    }
}
