#!/usr/bin/env bash
# Builds Jungle for the browser into a folder (default target/web): a static site
# that any web server can serve (nothing runs on the server). jungle.wasm is the
# engine with its network and the board's controller (wasm32-unknown-unknown);
# engine.mjs loads it, worker.js runs it in a Web Worker, worker-backend.js connects
# the page (the same files as `jungle gui`'s, page/, as they are) to the worker and
# backend.js is it for the static site; sw.js keeps the site for offline play,
# manifest.webmanifest and icon.svg make it installable. `jungle serve` finds the
# engine here (target/web, or --site) and lets the visitors' browsers run it. Uses a rustup-installed wasm32-unknown-unknown target when there is one
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
mkdir -p "$out/i18n"
# The site's own files from an earlier build go first (the folder is the site's).
rm -f "$out"/*.js "$out"/*.mjs "$out"/*.css "$out"/i18n/*.js "$out/sw.js"
# Binaryen's optimiser, where it is installed (apt-get install binaryen), makes the
# module a fifth smaller (2.24 MB to 1.75 MB, 731 KB to 668 KB gzipped) with the same
# search (tests/web_module.rs checks the bench's node count); without it the module
# is cargo's as it is.
if command -v wasm-opt >/dev/null; then
    wasm-opt -O3 --enable-simd --enable-bulk-memory --enable-sign-ext --enable-mutable-globals \
        --enable-nontrapping-float-to-int \
        "target/wasm/$target/release/jungle_web.wasm" -o "$out/jungle.wasm"
else
    echo "build-web: no wasm-opt (apt-get install binaryen): the module is not optimised further" >&2
    cp "target/wasm/$target/release/jungle_web.wasm" "$out/jungle.wasm"
fi
# The page's files as they are (ES modules: no joining), as jungle gui serves them.
cp page/index.html page/*.js page/*.css "$out/"
cp page/i18n/*.js "$out/i18n/"
cp crates/web/js/engine.mjs crates/web/js/worker.js crates/web/js/worker-backend.js \
    crates/web/js/backend.js "$out/"
cp crates/web/site/manifest.webmanifest crates/web/site/icon.svg "$out/"
# The service worker keeps every file of the site; its cache is named after them.
files=$(cd "$out" && find . -type f ! -name sw.js | sed 's|^\./||' | LC_ALL=C sort)
version=$(cd "$out" && cat $files | sha256sum | cut -c1-16)
while IFS= read -r line; do
    case "$line" in
    *@FILES@*) for f in $files; do printf '  "%s",\n' "$f"; done ;;
    *) printf '%s\n' "${line//@VERSION@/$version}" ;;
    esac
done < crates/web/site/sw.js > "$out/sw.js"
ls -l "$out"
