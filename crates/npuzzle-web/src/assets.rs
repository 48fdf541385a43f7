//! The page's files, built into the binary so `npuzzle serve` needs nothing installed beside it.

use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

use crate::error::AppError;

/// One embedded file: its path under `/assets/`, content type and bytes.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    bytes: &'static [u8],
}

macro_rules! asset {
    ($path:literal, $type:expr) => {
        Asset {
            path: $path,
            content_type: $type,
            bytes: include_bytes!(concat!("../assets/", $path)),
        }
    };
}

const JS: &str = "text/javascript; charset=utf-8";

static ASSETS: &[Asset] = &[
    asset!("index.html", "text/html; charset=utf-8"),
    asset!("style.css", "text/css; charset=utf-8"),
    asset!("favicon.svg", "image/svg+xml"),
    asset!("sample.svg", "image/svg+xml"),
    asset!("js/main.js", JS),
    asset!("js/api.js", JS),
    asset!("js/puzzle.js", JS),
    asset!("js/board-view.js", JS),
    asset!("js/editor.js", JS),
    asset!("js/player.js", JS),
    asset!("js/compare.js", JS),
    asset!("js/tree.js", JS),
    asset!("js/picture.js", JS),
    asset!("js/dom.js", JS),
    asset!("js/menus.js", JS),
    asset!("js/page-state.js", JS),
    asset!("js/tools.js", JS),
    asset!("js/search-steps.js", JS),
];

fn respond(asset: &Asset) -> Response {
    (
        [
            (header::CONTENT_TYPE, asset.content_type),
            // The files change with the binary; always revalidate.
            (header::CACHE_CONTROL, "no-cache"),
        ],
        asset.bytes,
    )
        .into_response()
}

/// `GET /`: the page.
pub async fn index() -> Response {
    respond(&ASSETS[0])
}

/// `GET /favicon.ico` (browsers ask for it by that name).
pub async fn favicon() -> Response {
    respond(&ASSETS[2])
}

/// `GET /assets/{path}`: an embedded file, or 404.
pub async fn file(Path(path): Path<String>) -> Result<Response, AppError> {
    ASSETS
        .iter()
        .find(|a| a.path == path)
        .map(respond)
        .ok_or(AppError::NotFound)
}

#[cfg(test)]
mod tests {
    use super::ASSETS;

    #[test]
    fn every_module_the_page_imports_is_embedded() {
        // A module missing here would 404 in the browser and break the page silently.
        for asset in ASSETS
            .iter()
            .filter(|a| a.path.ends_with(".js") || a.path.ends_with(".html"))
        {
            let text = std::str::from_utf8(asset.bytes).unwrap();
            for part in text.split(['"', '\'']) {
                let wanted = part
                    .strip_prefix("./")
                    .map(|p| {
                        if asset.path.starts_with("js/") {
                            format!("js/{p}")
                        } else {
                            p.to_string()
                        }
                    })
                    .or_else(|| part.strip_prefix("/assets/").map(str::to_string));
                if let Some(p) = wanted
                    .filter(|p| p.ends_with(".js") || p.ends_with(".css") || p.ends_with(".svg"))
                {
                    assert!(
                        ASSETS.iter().any(|a| a.path == p),
                        "{} refers to {p}, which is not embedded",
                        asset.path
                    );
                }
            }
        }
    }
}
