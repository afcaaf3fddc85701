//! The engine and the board app as a WebAssembly module, with a small hand-written
//! interface: plain exported functions over numbers and one byte buffer each way, no
//! binding generator. The module imports one function, `env.jungle_now_ms` (the
//! clock, `performance.now()`); `js/engine.mjs` is the JavaScript side.
//!
//! - `engine`: the core's search in bounded slices, behind the controller's requests,
//!   or as a program speaking the protocol (`jungle_engine_command`, `_work`;
//!   `js/uci.mjs` runs it on stdin and stdout under Node).
//! - `host`: the board app (`jungle_app`, the one `jungle gui` runs) hosted by the worker.
//!
//! Text goes in through `jungle_input(len)` (a buffer the caller fills with UTF-8)
//! and comes out through `jungle_output_ptr()` / `jungle_output_len()`.
//!
//! It builds for the native target too, so that `cargo test` checks these functions
//! against the engine itself.

pub mod engine;
pub mod host;

use engine::WebEngine;
use host::WebApp;
use jungle_core::board::Position;
use jungle_core::tools::{bench, perft};
use std::cell::RefCell;

thread_local! {
    static APP: RefCell<Option<WebApp>> = const { RefCell::new(None) };
    static ENGINE: RefCell<Option<WebEngine>> = const { RefCell::new(None) };
    static INPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    static OUTPUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// A buffer of `len` bytes for the caller to fill with the text of the next call.
#[no_mangle]
pub extern "C" fn jungle_input(len: usize) -> *mut u8 {
    INPUT.with_borrow_mut(|b| {
        b.clear();
        b.resize(len, 0);
        b.as_mut_ptr()
    })
}

/// Where the text of the last answer is.
#[no_mangle]
pub extern "C" fn jungle_output_ptr() -> *const u8 {
    OUTPUT.with_borrow(|b| b.as_ptr())
}

/// How long the text of the last answer is (bytes).
#[no_mangle]
pub extern "C" fn jungle_output_len() -> usize {
    OUTPUT.with_borrow(Vec::len)
}

fn set_output(text: String) {
    OUTPUT.with_borrow_mut(|b| *b = text.into_bytes());
}

fn with_app<T>(f: impl FnOnce(&mut WebApp) -> T) -> T {
    APP.with_borrow_mut(|b| f(b.get_or_insert_with(WebApp::new)))
}

/// A request of the page: the input holds the action, a newline, and the JSON body.
/// Returns the HTTP status the server would give; the output holds the answer.
#[no_mangle]
pub extern "C" fn jungle_app_request() -> u32 {
    let input = INPUT.with_borrow_mut(std::mem::take);
    let reply = match String::from_utf8(input) {
        Ok(text) => {
            let (action, body) = text.split_once('\n').unwrap_or((text.as_str(), ""));
            with_app(|b| b.request(action.trim(), body))
        }
        Err(_) => host::Reply {
            status: 400,
            body: r#"{"error":"the request is not UTF-8"}"#.into(),
        },
    };
    set_output(reply.body);
    u32::from(reply.status)
}

/// One slice of engine work (at most `engine::SLICE_NODES` nodes); 1 while there is
/// more to do, 0 when the engines are idle.
#[no_mangle]
pub extern "C" fn jungle_app_work() -> u32 {
    u32::from(with_app(WebApp::work))
}

/// The events for the page since the last call, into the output (a JSON array of
/// `{"event", "data"}`, or nothing); returns their length.
#[no_mangle]
pub extern "C" fn jungle_app_events() -> usize {
    let events = with_app(WebApp::take_events);
    let len = events.len();
    set_output(events);
    len
}

fn with_engine<T>(f: impl FnOnce(&mut WebEngine) -> T) -> T {
    ENGINE.with_borrow_mut(|e| f(e.get_or_insert_with(|| WebEngine::new(0))))
}

/// The engine as a program speaking the protocol: the input holds protocol lines
/// (one or more, as on stdin); the output holds what it answered, one line each.
/// Returns 1 while a search wants `jungle_engine_work`.
#[no_mangle]
pub extern "C" fn jungle_engine_command() -> u32 {
    let input = INPUT.with_borrow_mut(std::mem::take);
    let text = String::from_utf8_lossy(&input).into_owned();
    let (lines, busy) = with_engine(|e| {
        let mut events = Vec::new();
        for line in text.lines() {
            e.command(line, &mut events);
        }
        (WebEngine::lines(&events), e.busy())
    });
    set_output(lines.join("\n"));
    u32::from(busy)
}

/// One slice of the protocol engine's search; the output holds its lines (reports,
/// `bestmove`). Returns 1 while there is more to do.
#[no_mangle]
pub extern "C" fn jungle_engine_work() -> u32 {
    let (lines, busy) = with_engine(|e| {
        let mut events = Vec::new();
        e.work(&mut events);
        (WebEngine::lines(&events), e.busy())
    });
    set_output(lines.join("\n"));
    u32::from(busy)
}

/// Leaves of the move tree from the start position, `depth` plies deep (perft), on
/// this thread.
#[no_mangle]
pub extern "C" fn jungle_perft(depth: u32) -> u64 {
    perft::perft(&Position::startpos(), depth.min(12))
}

/// The bench (the fixed positions searched to `depth`, one thread, a fresh 16 MB
/// table each): its total node count, the engine's signature (`Bench:`). 0 when the
/// table cannot be allocated.
#[no_mangle]
pub extern "C" fn jungle_bench(depth: u32) -> u64 {
    let settings = bench::Settings {
        depth: depth.clamp(1, 64) as i32,
        ..bench::Settings::default()
    };
    bench::run(&settings, &mut std::io::sink()).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perft_counts_the_start_position() {
        assert_eq!(jungle_perft(1), 24);
        assert_eq!(jungle_perft(2), 576);
    }

    #[test]
    fn the_bench_is_the_engines_bench() {
        let native = bench::run(
            &bench::Settings {
                depth: 5,
                ..bench::Settings::default()
            },
            &mut std::io::sink(),
        )
        .expect("the bench runs");
        assert_eq!(jungle_bench(5), native);
        assert!(native > 0);
    }
}
