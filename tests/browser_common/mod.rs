//! Headless Chromium driven over WebDriver (chromedriver), for the browser tests of
//! `jungle gui` (tests/gui_browser.rs) and of the static site (tests/web_site.rs).
//!
//! Needs Debian's `chromium` and `chromium-driver` (`.ci/run` installs them). Without
//! them a test says so and passes, except under CI (`CI` set), where it fails.
//! `CHROMIUM` and `CHROMEDRIVER` name other binaries. Screenshots go to
//! `target/tmp/gui-screenshots/` (outside git).

#![allow(dead_code)]

use fantoccini::{elements::Element, Client, ClientBuilder, Locator};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// The flags that work on this project's machines (see the README).
const CHROMIUM_FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--window-size=1200,900",
];

struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub fn binary(var: &str, default: &str) -> Option<String> {
    let path = std::env::var(var).unwrap_or_else(|_| default.to_string());
    std::path::Path::new(&path).exists().then_some(path)
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

pub fn shots_dir() -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("gui-screenshots");
    std::fs::create_dir_all(&dir).expect("screenshot directory");
    dir
}

pub async fn shot(client: &Client, name: &str) {
    let png = client.screenshot().await.expect("screenshot");
    let path = shots_dir().join(format!("{name}.png"));
    std::fs::write(&path, png).expect("writes the screenshot");
    eprintln!("screenshot: {}", path.display());
}

pub async fn css(client: &Client, selector: &str) -> Element {
    client
        .wait()
        .at_most(Duration::from_secs(20))
        .for_element(Locator::Css(selector))
        .await
        .unwrap_or_else(|e| panic!("no element {selector}: {e}"))
}

/// Waits until the page's JavaScript expression is true.
pub async fn until(client: &Client, what: &str, js: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let v = client
            .execute(&format!("return !!({js});"), vec![])
            .await
            .expect("script runs");
        if v == serde_json::Value::Bool(true) {
            return;
        }
        if Instant::now() > deadline {
            let status = client
                .execute("return document.getElementById('status').textContent + ' | ' + document.getElementById('notice').textContent;", vec![])
                .await
                .unwrap_or_default();
            panic!("timed out waiting for {what} ({js}); page says {status}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

pub async fn text(client: &Client, selector: &str) -> String {
    css(client, selector).await.text().await.expect("text")
}

/// Waits for the engine's reply: `plies` moves in the list, the person to move.
pub async fn engine_replied(client: &Client, plies: usize) {
    until(
        client,
        "the engine's reply",
        &format!("document.querySelectorAll('#moves span[data-ply]').length === {plies}"),
    )
    .await;
    until(
        client,
        "the person's turn",
        "document.getElementById('status').textContent.startsWith('Your move')",
    )
    .await;
}

/// Waits for a new board: the start position drawn, the back end connected, the
/// levels known, the person (Red) to move.
pub async fn board_ready(client: &Client) {
    css(client, "#board .cell[data-sq=\"g3\"][data-piece=\"R\"]").await;
    until(
        client,
        "the back end",
        "document.getElementById('connection').className === 'online'",
    )
    .await;
    until(
        client,
        "the levels",
        "!document.getElementById('level').disabled",
    )
    .await;
    assert_eq!(text(client, "#status").await, "Your move (Red)");
}

/// A headless Chromium under chromedriver, with a profile of its own.
pub struct Browser {
    pub client: Client,
    profile: std::path::PathBuf,
    _driver: Driver,
}

impl Browser {
    /// Starts the browser; `None` (after saying so) when it is not installed.
    pub async fn open() -> Option<Browser> {
        let (Some(chromium), Some(chromedriver)) = (
            binary("CHROMIUM", "/usr/bin/chromium"),
            binary("CHROMEDRIVER", "/usr/bin/chromedriver"),
        ) else {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must have chromium and chromium-driver (.ci/run installs them)"
            );
            eprintln!("SKIPPED: no /usr/bin/chromium or /usr/bin/chromedriver (apt-get install chromium chromium-driver)");
            return None;
        };
        let port = free_port();
        let driver = Driver(
            Command::new(&chromedriver)
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("chromedriver starts"),
        );
        static OPENED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let profile = std::env::temp_dir().join(format!(
            "jungle-chromium-{}-{}",
            std::process::id(),
            OPENED.fetch_add(1, std::sync::atomic::Ordering::SeqCst)
        ));
        let mut args: Vec<String> = CHROMIUM_FLAGS.iter().map(|s| s.to_string()).collect();
        args.push(format!("--user-data-dir={}", profile.display()));
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({ "binary": chromium, "args": args }),
        );
        let url = format!("http://127.0.0.1:{port}");
        let mut client = None;
        for _ in 0..100 {
            match ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
                .capabilities(caps.clone())
                .connect(&url)
                .await
            {
                Ok(c) => {
                    client = Some(c);
                    break;
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        }
        Some(Browser {
            client: client.expect("chromedriver answers"),
            profile,
            _driver: driver,
        })
    }

    pub async fn close(self) {
        self.client.close().await.expect("closes");
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
