// Cargo runner for wasm32-wasip1 test binaries: runs the module under Node.js's WASI
// (`node:wasi`, preview1) with the command-line arguments and the environment passed through,
// and exits with the module's exit code. The workspace root is preopened at its own path, so a
// test reads its vector files by the absolute path it was built with (CARGO_MANIFEST_DIR).
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { WASI } from "node:wasi";
import process from "node:process";

const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error("usage: node wasi-run.mjs MODULE.wasm [ARGS...]");
  process.exit(2);
}
const root = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const wasi = new WASI({
  version: "preview1",
  args: [file, ...args],
  env: process.env,
  preopens: { [root]: root },
  returnOnExit: true,
});
const module = await WebAssembly.compile(await readFile(file));
const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
process.exit(wasi.start(instance));
