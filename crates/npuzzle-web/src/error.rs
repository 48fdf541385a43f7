//! Errors as HTTP answers: a status and `{"error": "one line"}`, never internals.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;

/// Longest error message sent to a client; user text quoted in serde's messages is cut here.
const MAX_MESSAGE: usize = 300;

/// Why a request was refused. Every variant is the client's problem except [`AppError::Internal`],
/// whose details are logged nowhere and never sent.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum AppError {
    /// 400: malformed JSON, wrong types, an invalid board, goal, heuristic or limit.
    BadRequest(String),
    /// 403: a request from another site's page, or for a host name this server does not
    /// serve (see `guard`).
    Forbidden(String),
    /// 404: no such page or endpoint.
    NotFound,
    /// 405: the endpoint exists but not with this method.
    MethodNotAllowed,
    /// 413: the request body is larger than the server accepts.
    PayloadTooLarge(usize),
    /// 408: the request body did not arrive in full within this long of the request's
    /// start (a total deadline, not one that each byte restarts).
    BodyTimeout(std::time::Duration),
    /// 503: every solve slot is busy and the queue is full or the wait too long.
    Busy,
    /// 422: the board cannot reach the goal; the body is the report `npuzzle solve --json`
    /// prints for it (`solvable: false` and the reason). Checked before the choices are
    /// planned, as every command orders them.
    Unsolvable(String),
    /// 500: a bug. The client learns nothing more than that.
    Internal,
}

impl AppError {
    /// A 400 with a message, cut to one line of reasonable length.
    pub fn bad(message: impl std::fmt::Display) -> AppError {
        AppError::BadRequest(one_line(&message.to_string()))
    }

    /// A 403 with a message, cut to one line of reasonable length.
    pub fn forbidden(message: impl std::fmt::Display) -> AppError {
        AppError::Forbidden(one_line(&message.to_string()))
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::NotFound => StatusCode::NOT_FOUND,
            AppError::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            AppError::PayloadTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::BodyTimeout(_) => StatusCode::REQUEST_TIMEOUT,
            AppError::Busy => StatusCode::SERVICE_UNAVAILABLE,
            AppError::Unsolvable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Internal => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// The one-line message the client sees.
    pub fn message(&self) -> String {
        match self {
            AppError::BadRequest(m) | AppError::Forbidden(m) => m.clone(),
            AppError::NotFound => "not found (the API is under /api; see the README)".into(),
            AppError::MethodNotAllowed => {
                "method not allowed (API calls are POST with a JSON body; /api/info and /api/plan \
                 are GET)"
                    .into()
            }
            AppError::PayloadTooLarge(max) => {
                format!("request body is larger than {max} bytes")
            }
            AppError::BodyTimeout(limit) => {
                format!(
                    "request body did not arrive within {} s",
                    limit.as_secs_f64()
                )
            }
            AppError::Busy => "server is busy solving other boards; try again shortly".into(),
            AppError::Unsolvable(_) => "the board cannot reach the goal".into(),
            AppError::Internal => "internal error".into(),
        }
    }
}

impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message())
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if let AppError::Unsolvable(report) = self {
            return (
                StatusCode::UNPROCESSABLE_ENTITY,
                [(header::CONTENT_TYPE, "application/json")],
                report,
            )
                .into_response();
        }
        let mut response = (
            self.status(),
            Json(serde_json::json!({ "error": self.message() })),
        )
            .into_response();
        if self == AppError::Busy {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}

/// Joins lines and cuts long text so every message is one line a person can read.
pub(crate) fn one_line(text: &str) -> String {
    let joined = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.chars().count() <= MAX_MESSAGE {
        joined
    } else {
        let head: String = joined.chars().take(MAX_MESSAGE).collect();
        format!("{head}…")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_one_short_line() {
        let long = format!("first line\nsecond {}", "x".repeat(1000));
        let m = AppError::bad(long).message();
        assert!(!m.contains('\n'));
        assert!(m.starts_with("first line second x"));
        assert!(m.chars().count() <= MAX_MESSAGE + 1);
    }

    #[test]
    fn internal_errors_say_nothing_more() {
        assert_eq!(AppError::Internal.message(), "internal error");
        assert_eq!(AppError::Internal.status(), 500);
    }
}
