//! Starting `jungle gui` for a test, and a plain HTTP/1.1 client written on the socket
//! (the tests need to send malformed and oversized requests, which a client library
//! would refuse to send).

#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub fn jungle() -> &'static str {
    env!("CARGO_BIN_EXE_jungle")
}

/// Runs `jungle ARGS…` to its end; returns (success, stdout, stderr).
pub fn run_jungle(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(jungle())
        .args(args)
        .output()
        .expect("jungle runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

pub fn fake(name: &str) -> String {
    format!(
        "cmd=bash arg={}/tests/fake_engines/{name}.sh name={name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Starts a server command whose first stdout line names its URL
/// (`… http://ADDR/ …`); returns the process and ADDR.
pub fn spawn_with_url(cmd: &mut Command) -> (Child, String) {
    let mut child = cmd
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the server starts");
    let stdout = child.stdout.take().expect("stdout");
    let mut line = String::new();
    BufReader::new(stdout)
        .read_line(&mut line)
        .expect("the URL line");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no URL in {line:?}"))
        .to_string();
    (child, addr)
}

/// A GET of `path` from the server at `addr`: (status, body).
pub fn get(addr: &str, path: &str) -> (u16, String) {
    let req = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n");
    let (status, _, body) = raw(addr, req.as_bytes());
    (status, body)
}

/// Sends raw bytes to `addr`, returns (status, headers, body).
pub fn raw(addr: &str, request: &[u8]) -> (u16, String, String) {
    let mut s = TcpStream::connect(addr).expect("connects");
    s.set_read_timeout(Some(Duration::from_secs(20))).ok();
    s.write_all(request).expect("sends");
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    let text = String::from_utf8_lossy(&buf).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    (status, head.to_string(), body.to_string())
}

/// The status a refusal of the board's carries in its `Jungle-Refusal` header.
pub fn refusal_status(head: &str) -> Option<u16> {
    head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("jungle-refusal")
            .then(|| value.trim().parse().ok())?
    })
}

/// A running `jungle gui`; killed when dropped.
pub struct Gui {
    child: Child,
    pub addr: String,
}

impl Gui {
    /// Starts `jungle gui --port 0 <args>` and waits for its URL.
    pub fn start(args: &[&str]) -> Gui {
        let mut cmd = Command::new(jungle());
        cmd.args(["gui", "--port", "0"]).args(args);
        let (child, addr) = spawn_with_url(&mut cmd);
        Gui { child, addr }
    }

    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// Sends raw bytes, returns (status, headers, body).
    pub fn raw(&self, request: &[u8]) -> (u16, String, String) {
        raw(&self.addr, request)
    }

    pub fn get(&self, path: &str) -> (u16, String) {
        get(&self.addr, path)
    }

    pub fn post(&self, action: &str, body: &str) -> (u16, serde_json::Value) {
        let req = format!(
            "POST /api/{action} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        let (status, head, text) = self.raw(req.as_bytes());
        // A refusal of the board's comes with status 200 and its own in a header.
        let status = refusal_status(&head).unwrap_or(status);
        let json = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{action}: not JSON ({e}): {text:?}"));
        (status, json)
    }

    pub fn state(&self) -> serde_json::Value {
        let (status, body) = self.get("/api/state");
        assert_eq!(status, 200, "{body}");
        serde_json::from_str(&body).expect("JSON state")
    }

    /// Polls the state until `done` holds (or panics after `secs`).
    pub fn wait_for(
        &self,
        secs: u64,
        what: &str,
        done: impl Fn(&serde_json::Value) -> bool,
    ) -> serde_json::Value {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let s = self.state();
            if done(&s) {
                return s;
            }
            assert!(
                Instant::now() < deadline,
                "timed out waiting for {what}; state: {s}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Gui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn moves(state: &serde_json::Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .map(|m| m.as_str().expect("text").to_string())
        .collect()
}

pub fn notices(state: &serde_json::Value) -> String {
    state["notices"]
        .as_array()
        .expect("notices")
        .iter()
        .map(|n| n["text"].as_str().unwrap_or("").to_string())
        .collect::<Vec<_>>()
        .join("\n")
}
