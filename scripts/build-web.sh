#!/usr/bin/env bash
# Builds Jungle for the browser into a folder (default target/web): a static site
# that any web server can serve (nothing runs on the server). jungle.wasm is the
# engine with its network and the board's controller (wasm32-unknown-unknown);
# engine.mjs loads it, worker.js runs it in a Web Worker, backend.js connects the
# page (the same index.html, app.js and app.css as `jungle gui`) to the worker; sw.js
# keeps the site for offline play, manifest.webmanifest and icon.svg make it
# installable. Uses a rustup-installed wasm32-unknown-unknown target when there is one
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
cp page/index.html "$out/"
# app.js and app.css: the files page/manifest.txt lists for each, joined in its order,
# the script without its comment lines, blank lines and indentation (as build.rs joins
# them for `jungle gui`; src/gui/http.rs says why one file).
for bundle in app.js app.css; do
    while read -r name file; do
        if [ "$name" = "$bundle" ]; then cat "page/$file"; fi
    done < page/manifest.txt > "$out/$bundle"
done
sed -i -e 's/^[ \t]*//' -e '/^\/\//d' -e '/^$/d' "$out/app.js"
cp crates/web/js/engine.mjs crates/web/js/worker.js crates/web/js/backend.js "$out/"
cp crates/web/site/manifest.webmanifest crates/web/site/icon.svg "$out/"
rm -f "$out/sw.js"
# The service worker's cache is named after the files it keeps.
version=$(cat "$out"/index.html "$out"/*.js "$out"/*.mjs "$out"/*.css "$out"/jungle.wasm \
    "$out"/manifest.webmanifest "$out"/icon.svg | sha256sum | cut -c1-16)
sed "s/@VERSION@/$version/" crates/web/site/sw.js > "$out/sw.js"
ls -l "$out"
