//! The HTTP side of a board (axum, as `jungle serve`): the page's files, the JSON API
//! and the event stream of one board app (`Board`), for `jungle gui` and for the
//! visitors' own games under `jungle serve`.
//!
//! Guards: on loopback only the loopback names are accepted as `Host` (so that a web
//! page elsewhere cannot reach the server through DNS rebinding); actions are `POST`
//! with a JSON body (which a page of another origin cannot send without the server's
//! consent); bodies are size-limited; a few event streams at most. A refused request
//! changes nothing. A refusal of the app's (an illegal move, nothing to undo) is the
//! answer to a good request, not a failure of HTTP: it comes with status 200 and the
//! header `Jungle-Refusal: <status>` (its status as an error would have it), so that a
//! browser does not log it as a failed load; the page's back end reads the header.

use super::Msg;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use jungle_app::api::{self, Answer, Refusal};
use jungle_app::page;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::Sender;
use std::sync::Arc;
use std::time::Duration;

/// Largest body of an action; a record file to load may be larger.
pub const MAX_BODY: usize = 16 * 1024;
pub const MAX_RECORD_BODY: usize = 2 * 1024 * 1024;
/// Event streams open at once on one board.
const MAX_STREAMS: usize = 8;
/// An event stream says something at least this often (so dead pages are noticed).
const KEEPALIVE: Duration = Duration::from_secs(15);
/// How long a request waits for the board's answer.
const ANSWER_WAIT: Duration = Duration::from_secs(10);
/// The header of a refusal sent with status 200.
pub const REFUSAL_HEADER: &str = "jungle-refusal";

/// One board app behind the API: its controller thread's inbox.
pub struct Board {
    controller: Sender<Msg>,
    streams: AtomicUsize,
}

impl Board {
    pub fn new(controller: Sender<Msg>) -> Arc<Board> {
        Arc::new(Board {
            controller,
            streams: AtomicUsize::new(0),
        })
    }

    /// Asks the controller; its answer, or why there is none.
    pub async fn ask(&self, request: api::Request) -> Result<Answer, Refusal> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        if self.controller.send(Msg::Api(request, tx)).is_err() {
            return Err(Refusal::new(503, "the board has stopped").coded("stopped", &[]));
        }
        match tokio::time::timeout(ANSWER_WAIT, rx).await {
            Ok(Ok(answer)) => answer,
            Ok(Err(_)) => Err(Refusal::new(503, "the board has stopped").coded("stopped", &[])),
            Err(_) => {
                Err(Refusal::new(503, "the board did not answer in time").coded("noAnswer", &[]))
            }
        }
    }
}

impl Drop for Board {
    /// The last handle gone (no page, no request): the board closes, its engines too.
    fn drop(&mut self) {
        let _ = self.controller.send(Msg::Stop);
    }
}

/// The headers every answer carries.
fn common_headers() -> [(HeaderName, HeaderValue); 5] {
    [
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("no-referrer"),
        ),
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(
                "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
            ),
        ),
        (header::CACHE_CONTROL, HeaderValue::from_static("no-store")),
    ]
}

/// A body with its type and the common headers.
pub fn answer(status: StatusCode, content_type: &'static str, body: impl Into<String>) -> Response {
    let mut r = (status, body.into()).into_response();
    let h = r.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    for (name, value) in common_headers() {
        h.insert(name, value);
    }
    r
}

/// An error of HTTP (a bad request, a server that cannot answer): its status.
fn error(status: u16, code: &'static str, message: &str) -> Response {
    failed(&Refusal::new(status, message).coded(code, &[]))
}

pub fn failed(r: &Refusal) -> Response {
    answer(
        StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR),
        "application/json",
        r.body(),
    )
}

/// A refusal of the app's: status 200 and `Jungle-Refusal` (module comment); an error
/// of the board itself (5xx) stays one.
fn refused(r: &Refusal) -> Response {
    if r.status >= 500 {
        return failed(r);
    }
    let mut resp = answer(StatusCode::OK, "application/json", r.body());
    resp.headers_mut().insert(
        HeaderName::from_static(REFUSAL_HEADER),
        HeaderValue::from(r.status),
    );
    resp
}

/// The board's answer as HTTP.
fn reply(answer_or_refusal: Result<Answer, Refusal>) -> Response {
    match answer_or_refusal {
        Ok(Answer::State(v)) => answer(
            StatusCode::OK,
            "application/json",
            serde_json::to_string(&v).unwrap_or_default(),
        ),
        Ok(Answer::Json(v)) => answer(StatusCode::OK, "application/json", v.to_string()),
        Ok(Answer::Text(t)) => {
            let mut r = answer(StatusCode::OK, "text/plain; charset=utf-8", t);
            r.headers_mut().insert(
                header::CONTENT_DISPOSITION,
                HeaderValue::from_static("attachment; filename=\"jungle-game.txt\""),
            );
            r
        }
        Err(r) => refused(&r),
    }
}

/// The page's files and the HTTP back end as `backend.js`: `jungle gui`'s page.
pub fn page_routes() -> Router {
    Router::new()
        .route("/", get(|| async { page_file("index.html") }))
        .route(
            "/backend.js",
            get(|| async {
                answer(
                    StatusCode::OK,
                    "text/javascript; charset=utf-8",
                    page::HTTP_BACKEND,
                )
            }),
        )
        .route(
            "/{*path}",
            get(|Path(p): Path<String>| async move { page_file(&p) }),
        )
}

/// A file of the page, or 404.
pub fn page_file(path: &str) -> Response {
    match page::file(path) {
        Some(f) => answer(StatusCode::OK, f.content_type(), f.body),
        None => error(404, "badRequest", "not found"),
    }
}

/// The API of one board: `GET api/state`, `GET api/record`, `GET api/events`,
/// `POST api/<action>`.
pub fn api_routes(board: Arc<Board>) -> Router {
    Router::new()
        .route(
            "/api/{name}",
            get(
                |State(b): State<Arc<Board>>, Path(name): Path<String>| async move {
                    read(&b, &name).await
                },
            )
            .post(
                |State(b): State<Arc<Board>>,
                 Path(name): Path<String>,
                 headers: HeaderMap,
                 body: Bytes| async move { action(&b, &name, &headers, &body).await },
            ),
        )
        .with_state(board)
}

/// `GET api/<name>`: the state, the record or the event stream.
pub async fn read(board: &Arc<Board>, name: &str) -> Response {
    match name {
        "state" => reply(board.ask(api::Request::State).await),
        "record" => reply(board.ask(api::Request::Record).await),
        "events" => events(board.clone()).await,
        _ => error(405, "badRequest", "actions take POST"),
    }
}

/// `POST api/<action>`: the body checked, then the board asked.
pub async fn action(board: &Board, name: &str, headers: &HeaderMap, body: &[u8]) -> Response {
    if matches!(name, "state" | "record" | "events") {
        return error(405, "badRequest", "method not allowed");
    }
    match read_action(name, headers, body) {
        Ok(request) => reply(board.ask(request).await),
        Err(r) => failed(&r),
    }
}

/// Reads and checks the body of an action.
fn read_action(name: &str, headers: &HeaderMap, body: &[u8]) -> Result<api::Request, Refusal> {
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().starts_with("application/json"));
    if !json {
        return Err(Refusal::new(
            415,
            "actions take a JSON body (Content-Type: application/json)",
        )
        .coded("badRequest", &[]));
    }
    let limit = if name == "load" {
        MAX_RECORD_BODY
    } else {
        MAX_BODY
    };
    if body.len() > limit {
        return Err(Refusal::new(
            413,
            format!("the request body is larger than {limit} bytes"),
        )
        .coded("tooLarge", &[("bytes", &limit.to_string())]));
    }
    let text = std::str::from_utf8(body)
        .map_err(|_| Refusal::bad("the body is not UTF-8").coded("badRequest", &[]))?;
    api::parse(name, text)
}

/// `GET api/events`: Server-Sent Events until the page goes away.
async fn events(board: Arc<Board>) -> Response {
    if board.streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
        board.streams.fetch_sub(1, Ordering::SeqCst);
        return error(503, "busy", "too many open pages");
    }
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel::<jungle_app::events::Event>();
    if board.controller.send(Msg::Subscribe(tx)).is_err() {
        board.streams.fetch_sub(1, Ordering::SeqCst);
        return error(503, "stopped", "the board has stopped");
    }
    // The count goes down when the stream (and this guard in it) is dropped.
    struct Open(Arc<Board>);
    impl Drop for Open {
        fn drop(&mut self) {
            self.0.streams.fetch_sub(1, Ordering::SeqCst);
        }
    }
    let open = Open(board);
    let stream = futures_util::stream::unfold((rx, open), |(mut rx, open)| async move {
        let e = rx.recv().await?;
        let sse = SseEvent::default().event(e.name()).data(e.data());
        Some((Ok::<_, std::convert::Infallible>(sse), (rx, open)))
    });
    let mut r = Sse::new(stream)
        .keep_alive(KeepAlive::new().interval(KEEPALIVE))
        .into_response();
    for (name, value) in common_headers() {
        r.headers_mut().insert(name, value);
    }
    r
}

/// Refuses requests whose `Host` is not one of `hosts` (none: any host).
pub async fn check_host(
    hosts: Arc<Vec<String>>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if !hosts.is_empty() {
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok());
        if !host.is_some_and(|h| hosts.iter().any(|a| a.eq_ignore_ascii_case(h))) {
            return error(403, "badRequest", "unexpected Host header");
        }
    }
    if request.method() != Method::GET
        && request.method() != Method::HEAD
        && request.method() != Method::POST
    {
        return error(405, "badRequest", "method not allowed");
    }
    next.run(request).await
}

/// The `Host` values a server on `addr` accepts: on loopback its loopback names (and
/// `--host`'s), elsewhere any.
pub fn accepted_hosts(addr: std::net::SocketAddr, host: &str) -> Vec<String> {
    if !addr.ip().is_loopback() {
        return Vec::new();
    }
    let port = addr.port();
    let mut h = vec![
        format!("127.0.0.1:{port}"),
        format!("localhost:{port}"),
        format!("[::1]:{port}"),
        format!("{addr}"),
    ];
    if !host.is_empty() {
        h.push(format!("{host}:{port}"));
    }
    h
}
