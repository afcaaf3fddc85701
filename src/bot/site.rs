//! The site as the bot reaches it: JSON requests over plain HTTP/1.1 with the
//! account's API token (`Authorization: Bearer`), one connection a request. Only
//! `http://` (no TLS): a bot runs beside the server, or reaches it through a tunnel.

use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// How long a request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(20);
/// The largest answer read (the lobby of a busy site is the biggest).
const MAX_ANSWER: u64 = 4 << 20;

/// A site and the token the bot's account is known by there.
pub struct Site {
    /// `host:port`.
    pub addr: String,
    token: String,
}

impl Site {
    /// `url` is `http://host[:port][/]`; the token is 32 hex digits.
    pub fn new(url: &str, token: &str) -> Result<Site, String> {
        let shown = crate::text::quote(url);
        let rest = url.strip_prefix("http://").ok_or_else(|| {
            if url.starts_with("https://") {
                format!("'{shown}': the bot speaks plain http only; give the server's http address (its --host and --port)")
            } else {
                format!("'{shown}' is not a site's address: give it as http://HOST:PORT")
            }
        })?;
        let host = rest.trim_end_matches('/');
        if host.is_empty() || host.contains(['/', '?', '#', '@']) {
            return Err(format!(
                "'{shown}' is not a site's address: give it as http://HOST:PORT"
            ));
        }
        let addr = if host
            .rsplit_once(':')
            .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
        {
            host.to_string()
        } else {
            format!("{host}:80")
        };
        if !jungle_online::token_ok(token) {
            return Err(
                "the API token must be 32 lowercase hex digits (POST /api/account/token makes one)"
                    .into(),
            );
        }
        Ok(Site {
            addr,
            token: token.to_string(),
        })
    }

    /// The websocket address of a game.
    pub fn ws_url(&self, game: &str) -> String {
        format!("ws://{}/api/games/{game}/ws", self.addr)
    }

    pub fn get(&self, path: &str) -> Result<(u16, Value), String> {
        self.request("GET", path, "")
    }

    pub fn post(&self, path: &str, body: &str) -> Result<(u16, Value), String> {
        self.request("POST", path, body)
    }

    /// One request: the answer's status and its JSON body (null if it has none).
    fn request(&self, method: &str, path: &str, body: &str) -> Result<(u16, Value), String> {
        let fail = |e: std::io::Error| format!("{method} {path} at {}: {e}", self.addr);
        let mut stream = TcpStream::connect(&self.addr).map_err(fail)?;
        stream
            .set_read_timeout(Some(REQUEST_TIMEOUT))
            .map_err(fail)?;
        stream
            .set_write_timeout(Some(REQUEST_TIMEOUT))
            .map_err(fail)?;
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.addr,
            self.token,
            body.len()
        );
        stream.write_all(head.as_bytes()).map_err(fail)?;
        stream.write_all(body.as_bytes()).map_err(fail)?;
        let mut answer = Vec::new();
        stream
            .take(MAX_ANSWER)
            .read_to_end(&mut answer)
            .map_err(fail)?;
        read_answer(&answer).map_err(|e| format!("{method} {path} at {}: {e}", self.addr))
    }
}

/// An HTTP/1.1 answer read to its end: the status and the JSON body.
fn read_answer(bytes: &[u8]) -> Result<(u16, Value), String> {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .ok_or("the answer has no end of its head")?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .ok_or_else(|| format!("no status in '{}'", crate::text::quote(head)))?;
    if head
        .lines()
        .any(|l| l.to_ascii_lowercase().starts_with("transfer-encoding:"))
    {
        return Err("a chunked answer (the site is no jungle serve?)".into());
    }
    let json = if body.trim().is_empty() {
        Value::Null
    } else {
        serde_json::from_str(body).map_err(|e| format!("the answer is not JSON: {e}"))?
    };
    Ok((status, json))
}

/// The refusal's `code` and `reason` of an answer, for an error.
pub fn refusal(status: u16, body: &Value) -> String {
    format!(
        "{status} {}: {}",
        body["code"].as_str().unwrap_or("?"),
        body["reason"].as_str().unwrap_or("no reason given")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn reads_the_address() {
        assert_eq!(
            Site::new("http://127.0.0.1:8018/", TOKEN).unwrap().addr,
            "127.0.0.1:8018"
        );
        assert_eq!(
            Site::new("http://example.org", TOKEN).unwrap().addr,
            "example.org:80"
        );
        for bad in [
            "https://example.org",
            "example.org",
            "http://",
            "http://a/b",
            "ftp://x",
        ] {
            assert!(Site::new(bad, TOKEN).is_err(), "{bad}");
        }
        assert!(Site::new("http://a:1", "XYZ").is_err());
    }

    #[test]
    fn reads_answers() {
        let ok = b"HTTP/1.1 200 OK\r\ncontent-length: 8\r\n\r\n{\"a\":1}\n";
        assert_eq!(read_answer(ok).unwrap(), (200, serde_json::json!({"a": 1})));
        let empty = b"HTTP/1.1 204 No Content\r\n\r\n";
        assert_eq!(read_answer(empty).unwrap(), (204, Value::Null));
        assert!(read_answer(b"garbage").is_err());
        assert!(read_answer(b"HTTP/1.1 200 OK\r\n\r\nnot json").is_err());
        assert!(
            read_answer(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n").is_err()
        );
    }
}
