//! The engine compiled to WebAssembly (`scripts/build-web.sh`, into `target/web/`)
//! under Node: perft of the start position to depth 6 and the bench's node count
//! equal the native engine's, computed here in the same run. The module's and the
//! native speeds are printed (`--nocapture`).
//!
//! Needs the built module and `node`; `.ci/run` builds the module first. Without
//! them the test says so and passes, except under CI (`CI` set), where it fails.

use jungle::board::Position;
use jungle::tools::{bench, perft};
use std::path::Path;
use std::process::Command;
use std::time::Instant;

#[test]
fn the_module_counts_and_searches_as_the_native_engine() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let module = root.join("target/web/jungle.wasm");
    let node_ok = Command::new("node").arg("--version").output().is_ok();
    if !module.exists() || !node_ok {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must build the module (scripts/build-web.sh) and have node"
        );
        eprintln!("SKIPPED: no target/web/jungle.wasm (scripts/build-web.sh) or no node");
        return;
    }
    let leaves = perft::perft(&Position::startpos(), 6);
    let start = Instant::now();
    let nodes = bench::run(&bench::Settings::default(), &mut std::io::sink()).expect("bench");
    let native_nps = nodes as f64 / start.elapsed().as_secs_f64();
    let out = Command::new("node")
        .arg(root.join("crates/web/js/check.mjs"))
        .arg(&module)
        .args(["--perft", "6", &leaves.to_string()])
        .args([
            "--bench",
            &bench::DEFAULT_DEPTH.to_string(),
            &nodes.to_string(),
        ])
        .output()
        .expect("node runs");
    let text = String::from_utf8_lossy(&out.stdout);
    eprintln!("{text}native bench: {nodes} nodes, {native_nps:.0} nodes/s");
    assert!(
        out.status.success(),
        "the module disagrees with the native engine:\n{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(text.matches(" ok,").count(), 2, "{text}");
}
