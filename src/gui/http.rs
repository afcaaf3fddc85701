//! The HTTP side of the GUI: the static page, the JSON API and the event stream.
//!
//! Guards: only the loopback names are accepted as `Host` when serving on loopback
//! (so a web page elsewhere cannot reach the server through DNS rebinding); actions
//! are `POST` with a JSON body (which a page of another origin cannot send without
//! the server's consent), bodies are size-limited, and at most a few requests and
//! event streams run at once. A refused request changes nothing.

use super::api::{self, Answer, Refusal};
use super::Msg;
use jungle_app::events::Event;
use std::io::{Read, Write};
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tiny_http::{Header, Method, Request, Response, Server, StatusCode};

const INDEX_HTML: &str = include_str!("../../page/index.html");
/// The page's script and its style sheet, each the files that page/manifest.txt lists
/// for it, joined by build.rs (`scripts/build-web.sh` joins them the same way). One
/// script, not a file a module: the page opens no more connections at once than the
/// server's pool takes without loss (tiny_http's pool can leave a burst of more than
/// about four new connections unserved until an older one closes).
const APP_JS: &str = include_str!(concat!(env!("OUT_DIR"), "/app.js"));
const BACKEND_JS: &str = include_str!("backend.js");
const APP_CSS: &str = include_str!(concat!(env!("OUT_DIR"), "/app.css"));

/// Largest body of an action; a record file to load may be larger.
pub const MAX_BODY: usize = 16 * 1024;
pub const MAX_RECORD_BODY: usize = 2 * 1024 * 1024;
/// Requests handled at once, and event streams open at once.
const MAX_REQUESTS: usize = 32;
const MAX_STREAMS: usize = 8;
/// An event stream says something at least this often (so dead pages are noticed).
const KEEPALIVE: Duration = Duration::from_secs(15);

struct Shared {
    controller: Sender<Msg>,
    /// `Host` header values accepted; empty: any (the server is not on loopback).
    hosts: Vec<String>,
    requests: AtomicUsize,
    streams: AtomicUsize,
}

/// Serves requests until the server fails.
pub fn serve(server: Server, addr: SocketAddr, host: &str, controller: Sender<Msg>) {
    let port = addr.port();
    let hosts = if addr.ip().is_loopback() {
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
    } else {
        Vec::new()
    };
    let shared = Arc::new(Shared {
        controller,
        hosts,
        requests: AtomicUsize::new(0),
        streams: AtomicUsize::new(0),
    });
    for request in server.incoming_requests() {
        if shared.requests.fetch_add(1, Ordering::SeqCst) >= MAX_REQUESTS {
            shared.requests.fetch_sub(1, Ordering::SeqCst);
            respond(request, error(503, "busy", "the server is busy; try again"));
            continue;
        }
        let shared = Arc::clone(&shared);
        let spawned = std::thread::Builder::new()
            .name("gui-http".into())
            .spawn(move || {
                handle(request, &shared);
                shared.requests.fetch_sub(1, Ordering::SeqCst);
            });
        if let Err(e) = spawned {
            log::error!("cannot start a request thread: {e}");
        }
    }
}

type Reply = Response<std::io::Cursor<Vec<u8>>>;

fn header(name: &str, value: &str) -> Header {
    // Both are ASCII constants of this file.
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .unwrap_or_else(|_| Header::from_bytes(&b"X-Invalid"[..], &b"1"[..]).expect("ascii"))
}

fn with_common_headers(r: Reply, content_type: &str) -> Reply {
    r.with_header(header("Content-Type", content_type))
        .with_header(header("X-Content-Type-Options", "nosniff"))
        .with_header(header("X-Frame-Options", "DENY"))
        .with_header(header("Referrer-Policy", "no-referrer"))
        .with_header(header(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
        ))
        .with_header(header("Cache-Control", "no-store"))
}

/// An error of the server: `message` in English, `code` as the page words it
/// (`refusal.<code>`).
fn error(status: u16, code: &'static str, message: &str) -> Reply {
    refused(&Refusal::new(status, message).coded(code, &[]))
}

/// A refused action: its sentence, and its code when it has one.
fn refused(r: &Refusal) -> Reply {
    with_common_headers(
        Response::from_string(r.body()).with_status_code(StatusCode(r.status)),
        "application/json",
    )
}

fn respond(request: Request, reply: Reply) {
    if let Err(e) = request.respond(reply) {
        log::debug!("cannot answer a request: {e}");
    }
}

fn handle(mut request: Request, shared: &Shared) {
    if !shared.hosts.is_empty() {
        let host = request
            .headers()
            .iter()
            .find(|h| h.field.equiv("Host"))
            .map(|h| h.value.as_str().to_string());
        if !host.is_some_and(|h| shared.hosts.iter().any(|a| a.eq_ignore_ascii_case(&h))) {
            respond(request, error(403, "badRequest", "unexpected Host header"));
            return;
        }
    }
    let url = request.url().to_string();
    let path = url.split('?').next().unwrap_or("");
    let method = request.method().clone();
    let reply = match (&method, path) {
        (Method::Get | Method::Head, "/" | "/index.html") => with_common_headers(
            Response::from_string(INDEX_HTML),
            "text/html; charset=utf-8",
        ),
        (Method::Get | Method::Head, "/app.js") => with_common_headers(
            Response::from_string(APP_JS),
            "text/javascript; charset=utf-8",
        ),
        (Method::Get | Method::Head, "/backend.js") => with_common_headers(
            Response::from_string(BACKEND_JS),
            "text/javascript; charset=utf-8",
        ),
        (Method::Get | Method::Head, "/app.css") => {
            with_common_headers(Response::from_string(APP_CSS), "text/css; charset=utf-8")
        }
        (Method::Get, "/api/events") => {
            stream_events(request, shared);
            return;
        }
        (Method::Get, "/api/state") => ask(shared, api::Request::State),
        (Method::Get, "/api/record") => ask(shared, api::Request::Record),
        (Method::Post, p) if p.starts_with("/api/") => {
            let name = &p["/api/".len()..];
            match read_action(&mut request, name) {
                Ok(action) => ask(shared, action),
                Err(r) => refused(&r),
            }
        }
        (
            _,
            "/" | "/index.html" | "/app.js" | "/backend.js" | "/app.css" | "/api/state"
            | "/api/record" | "/api/events",
        ) => error(405, "badRequest", "method not allowed"),
        (_, p) if p.starts_with("/api/") => error(405, "badRequest", "actions take POST"),
        _ => error(404, "badRequest", "not found"),
    };
    respond(request, reply);
}

/// Reads and checks the body of an action.
fn read_action(request: &mut Request, name: &str) -> Result<api::Request, Refusal> {
    let json = request.headers().iter().any(|h| {
        h.field.equiv("Content-Type")
            && h.value
                .as_str()
                .to_ascii_lowercase()
                .starts_with("application/json")
    });
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
    let too_large = || {
        Refusal::new(
            413,
            format!("the request body is larger than {limit} bytes"),
        )
        .coded("tooLarge", &[("bytes", &limit.to_string())])
    };
    if request.body_length().is_some_and(|n| n > limit) {
        return Err(too_large());
    }
    let mut body = Vec::new();
    request
        .as_reader()
        .take(limit as u64 + 1)
        .read_to_end(&mut body)
        .map_err(|e| {
            Refusal::bad(format!("cannot read the request body: {e}")).coded("badRequest", &[])
        })?;
    if body.len() > limit {
        return Err(too_large());
    }
    let text = String::from_utf8(body)
        .map_err(|_| Refusal::bad("the body is not UTF-8").coded("badRequest", &[]))?;
    api::parse(name, &text)
}

/// Asks the controller and turns its answer into a reply.
fn ask(shared: &Shared, request: api::Request) -> Reply {
    let (tx, rx) = mpsc::channel();
    if shared.controller.send(Msg::Api(request, tx)).is_err() {
        return error(503, "stopped", "the GUI has stopped");
    }
    match rx.recv_timeout(Duration::from_secs(10)) {
        Ok(Ok(Answer::State(v))) => with_common_headers(
            Response::from_string(serde_json::to_string(&v).unwrap_or_default()),
            "application/json",
        ),
        Ok(Ok(Answer::Json(v))) => {
            with_common_headers(Response::from_string(v.to_string()), "application/json")
        }
        Ok(Ok(Answer::Text(t))) => {
            with_common_headers(Response::from_string(t), "text/plain; charset=utf-8").with_header(
                header(
                    "Content-Disposition",
                    "attachment; filename=\"jungle-game.txt\"",
                ),
            )
        }
        Ok(Err(r)) => refused(&r),
        Err(_) => error(503, "noAnswer", "the GUI did not answer in time"),
    }
}

/// An event as the event stream writes it: `event: <name>`, `data: <json>`, a blank line.
pub fn event_stream_text(event: &Event) -> String {
    format!("event: {}\ndata: {}\n\n", event.name(), event.data())
}

/// `GET /api/events`: Server-Sent Events until the page goes away.
fn stream_events(request: Request, shared: &Shared) {
    if shared.streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
        shared.streams.fetch_sub(1, Ordering::SeqCst);
        respond(request, error(503, "busy", "too many open pages"));
        return;
    }
    let (tx, rx) = mpsc::channel::<String>();
    if shared.controller.send(Msg::Subscribe(tx)).is_ok() {
        // tiny_http would buffer a streamed body; the raw writer sends each event now.
        let mut out = request.into_writer();
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\
                    Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
                    Connection: close\r\n\r\nretry: 1000\n\n";
        let mut last_write = Instant::now();
        let mut ok = out
            .write_all(head.as_bytes())
            .and_then(|_| out.flush())
            .is_ok();
        while ok {
            let Ok(event) = rx.recv() else {
                break;
            };
            if event.is_empty() {
                // A tick: only a keep-alive comment now and then.
                if last_write.elapsed() < KEEPALIVE {
                    continue;
                }
                ok = out
                    .write_all(b": keep-alive\n\n")
                    .and_then(|_| out.flush())
                    .is_ok();
            } else {
                ok = out
                    .write_all(event.as_bytes())
                    .and_then(|_| out.flush())
                    .is_ok();
            }
            last_write = Instant::now();
        }
    }
    shared.streams.fetch_sub(1, Ordering::SeqCst);
}
