// Checks the WebAssembly engine under Node against the native engine's figures and
// measures its speed: perft of the start position, and the bench (its node count is
// the engine's signature, so it must equal the native one).
//
//   node crates/web/js/check.mjs target/web/jungle.wasm --perft 6 <expected leaves> \
//        --bench 13 <expected nodes>
//
// Prints one line per check with the time and speed; exits 1 on a mismatch.
import { readFile } from "node:fs/promises";
import { loadEngine } from "./engine.mjs";

const args = process.argv.slice(2);
if (args.length < 1) {
  console.error("usage: check.mjs MODULE.wasm [--perft DEPTH EXPECTED] [--bench DEPTH EXPECTED]");
  process.exit(2);
}
const engine = await loadEngine(await readFile(args[0]));
let failed = false;
for (let i = 1; i < args.length; i += 3) {
  const [what, depth, expected] = [args[i], Number(args[i + 1]), BigInt(args[i + 2])];
  const run = what === "--perft" ? engine.jungle_perft : what === "--bench" ? engine.jungle_bench : null;
  if (!run || !Number.isInteger(depth)) {
    console.error("bad check: " + args.slice(i, i + 3).join(" "));
    process.exit(2);
  }
  const start = performance.now();
  const got = run(depth);
  const seconds = (performance.now() - start) / 1000;
  const speed = Math.round(Number(got) / Math.max(seconds, 1e-6));
  const ok = got === expected;
  failed ||= !ok;
  console.log(`${what.slice(2)} ${depth}: ${got} (expected ${expected}) ${ok ? "ok" : "MISMATCH"}, ` +
    `${seconds.toFixed(2)} s, ${speed} ${what === "--perft" ? "leaves" : "nodes"}/s`);
}
process.exit(failed ? 1 : 0);
