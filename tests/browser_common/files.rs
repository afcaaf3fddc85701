//! A static file server for the static site's browser tests: it runs no code, as a
//! plain web host would not.

use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The static site that `scripts/build-web.sh` builds into `target/web/`; `None`
/// (after saying so) when it is not built, which fails under CI.
pub fn built_site() -> Option<PathBuf> {
    let site = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/web");
    if site.join("index.html").exists() && site.join("jungle.wasm").exists() {
        return Some(site);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must build the site (scripts/build-web.sh)"
    );
    eprintln!("SKIPPED: no target/web/ (scripts/build-web.sh)");
    None
}

/// A static file server for `dir` on a free port, on its own thread, until `down`.
pub struct FileServer {
    port: u16,
    down: Arc<AtomicBool>,
}

impl FileServer {
    pub fn start(dir: PathBuf) -> FileServer {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let port = listener.local_addr().expect("address").port();
        let down = Arc::new(AtomicBool::new(false));
        let flag = down.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                if flag.load(Ordering::SeqCst) {
                    // Gone: the connection closes unanswered, as a server that is off.
                    continue;
                }
                let dir = dir.clone();
                std::thread::spawn(move || serve_file(stream, &dir));
            }
        });
        FileServer { port, down }
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/", self.port)
    }

    pub fn stop(&self) {
        self.down.store(true, Ordering::SeqCst);
    }
}

fn serve_file(mut stream: TcpStream, dir: &Path) {
    let mut line = String::new();
    let mut reader = BufReader::new(&stream);
    if reader.read_line(&mut line).is_err() {
        return;
    }
    // The headers are not needed; read them so that the browser is not cut off.
    let mut header = String::new();
    while reader.read_line(&mut header).is_ok_and(|n| n > 2) {
        header.clear();
    }
    let path = line.split_whitespace().nth(1).unwrap_or("/");
    let path = path
        .split('?')
        .next()
        .unwrap_or("/")
        .trim_start_matches('/');
    let name = if path.is_empty() { "index.html" } else { path };
    let kind = match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("wasm") => "application/wasm",
        Some("svg") => "image/svg+xml",
        Some("webmanifest") => "application/manifest+json",
        _ => "application/octet-stream",
    };
    let file = (!name.contains("..")).then(|| std::fs::read(dir.join(name)).ok());
    let head = match file.flatten() {
        Some(body) => {
            let head = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            );
            let _ = stream.write_all(head.as_bytes());
            let _ = stream.write_all(&body);
            return;
        }
        None => "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
    };
    let _ = stream.write_all(head.as_bytes());
}
