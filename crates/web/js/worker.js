// The static site's worker: the board's controller (crates/app) and the engine
// (crates/web/src/engine.rs) in WebAssembly. It answers the page's requests and posts
// the events the server would stream. A search runs in bounded slices
// (jungle_app_work, at most about 0.15 s each); between slices the worker reads its
// messages, so a move, undo or "stop" is taken within one slice.
import { loadEngine } from "./engine.mjs";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
let x = null;
let timer = null;
let queue = [];

function input(text) {
  const bytes = encoder.encode(text);
  const ptr = x.jungle_input(bytes.length);
  new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
}

function output() {
  return decoder.decode(new Uint8Array(x.memory.buffer, x.jungle_output_ptr(), x.jungle_output_len()));
}

function postEvents() {
  if (x.jungle_app_events() > 0) postMessage({ events: output() });
}

// One slice of engine work, then again at once while an engine searches; when idle,
// every 100 ms for the board's clock work (as the server's tick).
function step() {
  timer = null;
  try {
    const busy = x.jungle_app_work();
    postEvents();
    schedule(busy ? 0 : 100);
  } catch (e) {
    postMessage({ failed: String(e) });
  }
}

// Runs `step` in `ms` (a sooner call replaces a later one).
function schedule(ms) {
  if (timer !== null) {
    if (ms > 0) return;
    clearTimeout(timer);
  }
  timer = setTimeout(step, ms);
}

function handle(m) {
  try {
    if (m.hello) {
      postMessage({ ready: true });
      postEvents();
    } else if (m.bench !== undefined) {
      const start = performance.now();
      const nodes = Number(x.jungle_bench(m.bench));
      postMessage({ id: m.id, status: 200, text: JSON.stringify({ nodes, ms: performance.now() - start }) });
    } else {
      input(m.action + "\n" + m.body);
      const status = x.jungle_app_request();
      postMessage({ id: m.id, status, text: output() });
      postEvents();
      schedule(0);
    }
  } catch (e) {
    postMessage({ failed: String(e) });
  }
}

onmessage = (e) => {
  if (x) handle(e.data);
  else queue.push(e.data);
};

try {
  const response = await fetch("jungle.wasm");
  if (!response.ok) throw new Error("jungle.wasm: " + response.status);
  x = await loadEngine(await response.arrayBuffer());
  for (const m of queue) handle(m);
  queue = [];
  schedule(0);
} catch (e) {
  postMessage({ failed: "cannot load the engine: " + e });
}
