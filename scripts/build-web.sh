#!/usr/bin/env bash
# Builds the engine for the browser (wasm32-unknown-unknown) into a folder (default
# target/web): jungle.wasm, the engine with its network, and engine.mjs, the glue that
# loads it. Uses a rustup-installed wasm32-unknown-unknown target when there is one
# (`rustup target add wasm32-unknown-unknown`); otherwise Debian's toolchain for it:
#   apt-get install rustc-web cargo-web rust-web-src lld-16
# (Rust with its standard library's sources, built here with -Zbuild-std, and wasm-ld).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-target/web}
# A module has no unwinding and needs no debug info.
export CARGO_PROFILE_RELEASE_PANIC=abort CARGO_PROFILE_RELEASE_DEBUG=0
# SIMD128 (every current browser and Node have it): the network's sums twice as fast.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="${CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS:--C target-feature=+simd128}"
target=wasm32-unknown-unknown
if command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx "$target"; then
    cargo build --release -p jungle-web --target "$target" --target-dir target/wasm
else
    wasm_ld=$(command -v wasm-ld || command -v wasm-ld-16 || echo /usr/lib/llvm-16/bin/wasm-ld)
    if [ ! -x /usr/bin/rustc ] || [ ! -d /usr/lib/rustlib/src/rust/library ] || [ ! -x "$wasm_ld" ]; then
        echo "build-web: no wasm32 toolchain: rustup target add $target," \
            "or apt-get install rustc-web cargo-web rust-web-src lld-16" >&2
        exit 2
    fi
    # Debian's rustc, not rustup's proxy; its cargo for -Zbuild-std (RUSTC_BOOTSTRAP
    # allows the unstable flag on a stable compiler).
    RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$wasm_ld" \
        /usr/bin/cargo build --release -p jungle-web --target "$target" \
        -Zbuild-std=std,panic_abort --target-dir target/wasm
fi
mkdir -p "$out"
cp "target/wasm/$target/release/jungle_web.wasm" "$out/jungle.wasm"
cp crates/web/js/engine.mjs "$out/"
ls -l "$out"
