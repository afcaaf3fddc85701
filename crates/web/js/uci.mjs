// The browser's engine (crates/web/src/engine.rs) as a program speaking the engine
// protocol on stdin and stdout under Node, as `jungle` does natively:
//
//   node crates/web/js/uci.mjs target/web/jungle.wasm
//
// Lines are answered in order; a search runs in slices (jungle_engine_work) between
// which the next input lines are read, so `stop` ends it within one slice.
import { readFile } from "node:fs/promises";
import { createInterface } from "node:readline";
import { loadEngine } from "./engine.mjs";

if (process.argv.length < 3) {
  console.error("usage: uci.mjs MODULE.wasm");
  process.exit(2);
}
const x = await loadEngine(await readFile(process.argv[2]));
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function output() {
  return decoder.decode(new Uint8Array(x.memory.buffer, x.jungle_output_ptr(), x.jungle_output_len()));
}

function print() {
  const text = output();
  if (text.length > 0) process.stdout.write(text + "\n");
}

let searching = false;
function work() {
  searching = x.jungle_engine_work() === 1;
  print();
  if (searching) setImmediate(work);
}

const lines = createInterface({ input: process.stdin, terminal: false });
lines.on("line", (line) => {
  if (/^\s*(quit|exit)\s*$/.test(line)) {
    process.exit(0);
  }
  const bytes = encoder.encode(line);
  const ptr = x.jungle_input(bytes.length);
  new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
  const busy = x.jungle_engine_command() === 1;
  print();
  if (busy && !searching) {
    searching = true;
    setImmediate(work);
  }
});
lines.on("close", () => {
  // Like the native engine at the end of input: the search stops with its answer.
  const bytes = encoder.encode("stop");
  const ptr = x.jungle_input(bytes.length);
  new Uint8Array(x.memory.buffer, ptr, bytes.length).set(bytes);
  x.jungle_engine_command();
  print();
  process.exit(0);
});
