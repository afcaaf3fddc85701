// The Jungle engine's WebAssembly module, loaded in Node or in a browser's worker.
// The module imports one function, the clock; everything else is its exports
// (crates/web/src/lib.rs): jungle_perft(depth) and jungle_bench(depth), which return
// BigInts (u64), and the board's controller (jungle_app_request, _work, _events),
// which worker.js drives.

/** Instantiates the module from its bytes; returns its exports. */
export async function loadEngine(bytes) {
  const imports = { env: { jungle_now_ms: () => performance.now() } };
  const { instance } = await WebAssembly.instantiate(bytes, imports);
  return instance.exports;
}
