// npm run wasm: compiles src/core/pipeline/wasm/*.wat with wabt and embeds the bytes as base64 in a .ts module,
// so the library ships no binary file and needs no compiler at run time (test/unit/wasm.test.ts checks
// that the embedded bytes match the source).
import { readFileSync, writeFileSync } from 'node:fs';
import { wasmModuleSource } from './wasm-source.js';

for (const name of ['line-normalizer', 'json-rows']) {
  const wat = new URL(`../src/core/pipeline/wasm/${name}.wat`, import.meta.url);
  const out = new URL(`../src/core/pipeline/wasm/${name}-wasm.ts`, import.meta.url);
  writeFileSync(out, await wasmModuleSource(name, readFileSync(wat, 'utf8')));
}
