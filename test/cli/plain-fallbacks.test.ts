import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { outputColumns, RECORD_SHAPES } from '../../src/core/model/record-shapes.js';
import { jsonRowsFor } from '../../src/core/pipeline/json-rows.js';
import { newLineNormalizer } from '../../src/core/pipeline/line-normalizer.js';
import { recordToJson } from '../../src/core/pipeline/output-state.js';
import { runCli, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// The pipeline's fast paths (WebAssembly line normaliser and JSON converter, the pooled gzip decoder)
// against the plain fallbacks MDGET_DEBUG_PLAIN=1 selects: the built CLI writes the same bytes either way.

const FAST = { MDGET_DEBUG_PLAIN: '0' };
const PLAIN = { MDGET_DEBUG_PLAIN: '1' };
const execFileAsync = promisify(execFile);

describe('MDGET_DEBUG_PLAIN=1: the plain fallbacks write the same bytes as the fast paths', () => {
  it.each([
    ['gzip, chunked, CRLF', {}],
    ['uncompressed, LF, an unterminated last line', { gzip: 'never', lineEnding: 'lf', finalNewline: false }],
  ] as const)('%s: raw, csv, ndjson and json', { timeout: 120_000 }, async (_name, options) => {
    await withEmulator({ ticksPerDay: 20_000, ...options }, async (emu) => {
      const dir = tempDir();
      for (const format of ['raw', 'csv', 'ndjson', 'json']) {
        const outputs = await Promise.all(
          (
            [
              ['fast', FAST],
              ['plain', PLAIN],
            ] as const
          ).map(async ([name, env]) => {
            const file = join(dir, `${format}.${name}`);
            const args = ['ticks', 'ESM25', '--start', '2025-03-13', '--format', format, '-o', file, '-q'];
            const run = await runCli(args, { env: { ...emu.env, ...env }, timeoutMs: 60_000 });
            expect([run.code, run.stderr], `${format} ${name}`).toEqual([0, '']);
            return readFileSync(file);
          }),
        );
        expect(outputs[0]!.length, format).toBeGreaterThan(500_000);
        expect(outputs[1]!.equals(outputs[0]!), format).toBe(true);
      }
    });
  });

  it('an in-band Error line fails both the same way: exit 4, the same message, no file', async () => {
    await withEmulator({}, async (emu) => {
      const runs = [];
      for (const env of [FAST, PLAIN]) {
        const file = join(tempDir(), 'out.csv');
        const run = await runCli(['ticks', 'NOSUCH', '--start', '2025-03-13', '-o', file], {
          env: { ...emu.env, ...env },
        });
        runs.push([run.code, run.stderr.replace(/127\.0\.0\.1:\d+/g, 'emulator')]);
      }
      expect(runs[0]![0]).toBe(4);
      expect(runs[1]).toEqual(runs[0]);
    });
  });
});

describe('without WebAssembly (node --jitless), the pipeline takes its plain fallbacks by itself', () => {
  // undici's HTTP parser is WebAssembly too, so a download cannot run under --jitless: the pipeline's
  // modules are run there on their own, on a fixture, against the fast paths in this process.
  it('the line normaliser and the JSON converter give the bytes WebAssembly gives', async () => {
    const fixture = new URL('../../fixtures/ticks.csv', import.meta.url);
    const probe = `
      const { newLineNormalizer } = await import(${JSON.stringify(new URL('../../dist/core/pipeline/line-normalizer.js', import.meta.url).href)});
      const { jsonRowsFor } = await import(${JSON.stringify(new URL('../../dist/core/pipeline/json-rows.js', import.meta.url).href)});
      const { outputColumns, RECORD_SHAPES } = await import(${JSON.stringify(new URL('../../dist/core/model/record-shapes.js', import.meta.url).href)});
      const { recordToJson } = await import(${JSON.stringify(new URL('../../dist/core/pipeline/output-state.js', import.meta.url).href)});
      const { readFileSync } = await import('node:fs');
      const columns = outputColumns('ticks', { trend: false, contract: false });
      const normalizer = newLineNormalizer('ESM25,');
      const body = readFileSync(new URL(${JSON.stringify(fixture.href)}));
      const lines = Buffer.concat([normalizer.push(body), normalizer.end()]);
      const rows = jsonRowsFor(columns);
      const json = rows.convert(lines, 'ndjson', (line) => recordToJson(line, columns, RECORD_SHAPES.ticks));
      console.log(JSON.stringify([typeof WebAssembly, normalizer.constructor.name, rows.constructor.name,
        lines.toString('base64'), Buffer.from(json.bytes).toString('base64')]));`;
    const { stdout } = await execFileAsync(process.execPath, [
      '--jitless',
      '--input-type=module',
      '-e',
      probe,
    ]);
    const [wasm, normalizerKind, rowsKind, lines, json] = JSON.parse(stdout) as string[];
    expect([wasm, normalizerKind, rowsKind]).toEqual(['undefined', 'PlainLineNormalizer', 'PlainJsonRows']);

    const columns = outputColumns('ticks', { trend: false, contract: false });
    const normalizer = newLineNormalizer('ESM25,');
    const body = readFileSync(fixture);
    const expected = Buffer.concat([normalizer.push(body), normalizer.end()]);
    const rows = jsonRowsFor(columns);
    expect(rows.constructor.name).toBe(
      process.env.MDGET_DEBUG_PLAIN === '1' ? 'PlainJsonRows' : 'WasmJsonRows',
    );
    const expectedJson = rows.convert(expected, 'ndjson', (line) =>
      recordToJson(line, columns, RECORD_SHAPES.ticks),
    );
    expect(expected.length).toBeGreaterThan(100);
    expect(Buffer.from(lines!, 'base64').equals(expected)).toBe(true);
    expect(Buffer.from(json!, 'base64').equals(Buffer.from(expectedJson.bytes))).toBe(true);
  });
});
