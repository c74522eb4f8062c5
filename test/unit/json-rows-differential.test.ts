import { describe, expect, it } from 'vitest';
import { usePlainFallbacks } from '../../src/core/model/fallbacks.js';
import { outputColumns, RECORD_SHAPES, type RecordKind } from '../../src/core/model/record-shapes.js';
import { type JsonFraming, jsonRowsFor, WasmJsonRows } from '../../src/core/pipeline/json-rows.js';
import { PlainJsonRows } from '../../src/core/pipeline/json-rows-plain.js';
import { PlainLineNormalizer } from '../../src/core/pipeline/line-normalizer-plain.js';
import { recordToJson } from '../../src/core/pipeline/output-state.js';
import { random, randomBody } from '../helpers/random-body.js';

/**
 * The WebAssembly JSON converter (the fast path) against its plain fallback: the same bytes and record
 * counts for normalized random bodies, in runs of whole lines cut at random, for every framing and for
 * column lists that fit the lines, that fit only some of them, and none.
 */
const ITERATIONS = Number(process.env.DIFF_ITERATIONS ?? 250);
const SEED = Number(process.env.DIFF_SEED ?? 1);

const KINDS: [RecordKind, readonly string[] | undefined][] = [
  ['ticks', outputColumns('ticks', { trend: false, contract: false })],
  ['ticks', outputColumns('ticks', { trend: true, contract: false })],
  ['minutes', outputColumns('minutes', { trend: false, contract: false })],
  ['ticks', ['time', 'trading_day', 'session_code', 'price', 'size']],
  ['ticks', []],
  ['ticks', undefined],
];

/** `lines` cut after random line ends into runs of whole lines. */
function runsOf(lines: Buffer, next: () => number): Buffer[] {
  const runs: Buffer[] = [];
  let from = 0;
  for (let at = lines.indexOf(10); at !== -1; at = lines.indexOf(10, at + 1)) {
    if (next() < 0.1) {
      runs.push(lines.subarray(from, at + 1));
      from = at + 1;
    }
  }
  runs.push(lines.subarray(from));
  return runs;
}

function compare(lines: Buffer, kind: RecordKind, columns: readonly string[] | undefined, label: string) {
  const fallback = (line: string) => recordToJson(line, columns, RECORD_SHAPES[kind]);
  for (const framing of ['ndjson', 'json'] as JsonFraming[]) {
    const wasm = new WasmJsonRows(columns).convert(lines, framing, fallback);
    // a copy: the converter's output is a chunk of the pool
    const theirs = { bytes: Buffer.from(wasm.bytes), records: wasm.records };
    const mine = new PlainJsonRows(columns).convert(lines, framing, fallback);
    if (!mine.bytes.equals(theirs.bytes) || mine.records !== theirs.records)
      expect({ text: mine.bytes.toString(), records: mine.records }, `${label} ${framing}`).toEqual({
        text: theirs.bytes.toString(),
        records: theirs.records,
      });
  }
}

describe('the JSON converter: WebAssembly against the plain fallback', () => {
  it.each([
    ['a tick', 'ESM25,2025-03-13 17:00:00.021,14,G,5612.75,7\n'],
    ['empty fields', 'AAPL,2025-03-14 09:30:00.000,14,,213.49,\n,,,,,\n'],
    ['numbers at the edges', 'S,t,-0,G,01,1.\nS,t,-1.5,G,1e5,0.0\nS,t,+1,G,.5,-\n'],
    ['bytes to escape', 'S,"q",\\,\t,\u0001,x\nS,ä,é,ß,😀,\u007f\n'],
    ['other field counts', 'Error: unknown symbol\nS,t\nS,t,1,G,2,3,4\n'],
  ])('%s', (_name, text) => {
    for (const [kind, columns] of KINDS) compare(Buffer.from(text), kind, columns, text);
  });

  it(`gives the same bytes and records on ${ITERATIONS} random bodies, normalized, in runs of lines`, () => {
    const next = random(SEED);
    for (let round = 0; round < ITERATIONS; round++) {
      const normalizer = new PlainLineNormalizer(next() < 0.5 ? 'ESM25,' : '');
      const lines = Buffer.concat([normalizer.push(randomBody(next)), normalizer.end()]);
      const [kind, columns] = KINDS[Math.floor(next() * KINDS.length)]!;
      for (const run of runsOf(lines, next)) compare(run, kind, columns, `seed ${SEED} round ${round}`);
    }
  });
});

describe('jsonRowsFor: the one place the converter is chosen', () => {
  it('WebAssembly by default, the plain one when the switch asks for it', () => {
    const columns = KINDS[0]![1];
    expect(jsonRowsFor(columns)).toBeInstanceOf(WasmJsonRows);
    usePlainFallbacks(true);
    try {
      expect(jsonRowsFor(columns)).toBeInstanceOf(PlainJsonRows);
      expect(jsonRowsFor(undefined)).toBeInstanceOf(PlainJsonRows);
    } finally {
      usePlainFallbacks(false);
    }
  });
});
