//! The board's page as its hosts serve it: the files of `page/`, built into the binary,
//! served as they are (ES modules; no joining, no build step), and the back end that
//! talks to this app over HTTP (`js/backend.js`). `jungle gui` serves them with that
//! back end as `backend.js`; `jungle serve` with its online back end as `backend.js`
//! and this one as `local/backend.js` (the visitor's own games on the server's engine)
//! when the browser's engine is not built; `scripts/build-web.sh` copies the same
//! files into the static site.

/// One file of the page.
#[derive(Clone, Copy, Debug)]
pub struct File {
    /// Its path below the page's root (`main.js`, `i18n/en.js`).
    pub path: &'static str,
    pub body: &'static str,
}

impl File {
    /// The `Content-Type` to serve it with.
    pub fn content_type(&self) -> &'static str {
        content_type(self.path)
    }
}

/// The `Content-Type` of a site's file by its name.
pub fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("json" | "webmanifest") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("wasm") => "application/wasm",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

macro_rules! page_files {
    ($($path:literal),* $(,)?) => {
        &[$(File { path: $path, body: include_str!(concat!("../../../page/", $path)) }),*]
    };
}

/// Every file of `page/` (tests/page_modules.rs checks that none is missing).
pub const FILES: &[File] = page_files![
    "index.html",
    "app.css",
    "puzzles.css",
    "online.css",
    "main.js",
    "errors.js",
    "base.js",
    "words.js",
    "link.js",
    "board.js",
    "game.js",
    "aside.js",
    "panels.js",
    "effects.js",
    "welcome.js",
    "online.js",
    "players.js",
    "learn.js",
    "lessons.js",
    "puzzles.js",
    "places.js",
    "controls.js",
    "i18n/en.js",
    "i18n/de.js",
    "i18n/zh.js",
    "i18n/zh-Hant.js",
];

/// The back end that talks to this app over HTTP and Server-Sent Events, at `api/`
/// beside it.
pub const HTTP_BACKEND: &str = include_str!("../js/backend.js");

/// The page's file at `path` (`/` and `/index.html` are the page itself).
pub fn file(path: &str) -> Option<&'static File> {
    let path = path.trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    FILES.iter().find(|f| f.path == path)
}
