//! # npuzzle-web
//!
//! The web page and JSON API of `npuzzle serve`: an [axum] server whose page (HTML, CSS,
//! JavaScript modules, SVG) is built into the binary. [`app`] makes the router, so tests
//! drive it in-process; [`serve`] runs it on a listener until Ctrl-C.
//!
//! ```
//! use npuzzle_web::{app, AppState, Config};
//! let router = app(AppState::new(Config::default(), None));
//! # let _ = router;
//! ```
//!
//! The endpoints, their fields and status codes are documented in the README ("Web page").

mod api;
mod assets;
mod error;
mod guard;
mod input;
mod job;
mod listener;
mod state;
mod stop;

use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue};
use axum::routing::{get, post};
use axum::Router;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::set_header::SetResponseHeaderLayer;

pub use error::AppError;
pub use listener::serve_until;
pub use state::{AppState, Config};

/// Scripts and styles come only from this server; images may also be pictures the user
/// uploads (`blob:`) or draws (`data:`).
const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; img-src 'self' blob: data:; \
     style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; \
     frame-ancestors 'none'; base-uri 'none'";

/// The router: the page under `/`, the API under `/api`.
pub fn app(state: AppState) -> Router {
    let body_limit = state.config().max_body_bytes;
    Router::new()
        .route("/", get(assets::index))
        .route("/favicon.ico", get(assets::favicon))
        .route("/assets/{*path}", get(assets::file))
        .route("/api/info", get(api::info))
        .route("/api/plan", get(api::plan))
        .route("/api/check", post(api::check))
        .route("/api/random", post(api::random))
        .route("/api/solve", post(api::solve_board))
        .route("/api/solve/stream", post(api::solve_stream))
        .route("/api/solve/stop", post(api::solve_stop))
        .route("/api/hint", post(api::hint))
        .route("/api/compare", post(api::compare))
        .layer(axum::Extension(stop::Stops::default()))
        .fallback(|| async { AppError::NotFound })
        .method_not_allowed_fallback(|| async { AppError::MethodNotAllowed })
        .layer(DefaultBodyLimit::max(body_limit))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            guard::check,
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ))
        .layer(SetResponseHeaderLayer::if_not_present(
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ))
        .layer(CatchPanicLayer::custom(|_| {
            // A bug must not take the server down or tell the client anything about it.
            axum::response::IntoResponse::into_response(AppError::Internal)
        }))
        .with_state(state)
}

/// Serves [`app`] on a bound listener until Ctrl-C, then finishes the requests in flight
/// (see [`serve_until`] for the connection limits and timeouts). Tables come from
/// `cache_dir` (and are saved there only if the configuration says so).
///
/// # Errors
/// An I/O error from the listener.
pub async fn serve(
    listener: tokio::net::TcpListener,
    config: Config,
    cache_dir: Option<std::path::PathBuf>,
) -> std::io::Result<()> {
    serve_until(listener, config, cache_dir, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}
