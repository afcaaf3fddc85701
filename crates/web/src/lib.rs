//! The engine as a WebAssembly module, with a small hand-written interface: plain
//! exported functions over numbers, no binding generator. The module imports one
//! function, `env.jungle_now_ms` (the clock, `performance.now()`); see
//! `crates/web/glue.mjs` for the JavaScript side.
//!
//! It builds for the native target too, so that `cargo test` checks these functions
//! against the engine itself.

use jungle_core::board::Position;
use jungle_core::tools::{bench, perft};

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
