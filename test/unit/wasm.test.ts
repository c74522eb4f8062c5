import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { wasmModuleSource } from '../../scripts/wasm-source.js';

describe('embedded WebAssembly', () => {
  it.each(['line-normalizer', 'json-rows'])(
    '%s matches its WAT source (run `npm run wasm` after editing the .wat)',
    async (name) => {
      const wat = readFileSync(new URL(`../../src/core/pipeline/wasm/${name}.wat`, import.meta.url), 'utf8');
      const embedded = readFileSync(
        new URL(`../../src/core/pipeline/wasm/${name}-wasm.ts`, import.meta.url),
        'utf8',
      );
      expect(embedded).toBe(await wasmModuleSource(name, wat));
    },
  );
});
