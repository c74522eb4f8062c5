import { describe, expect, it } from 'vitest';
import { usePlainFallbacks } from '../../src/core/model/fallbacks.js';
import {
  type LineNormalizer,
  newLineNormalizer,
  WasmLineNormalizer,
} from '../../src/core/pipeline/line-normalizer.js';
import { PlainLineNormalizer } from '../../src/core/pipeline/line-normalizer-plain.js';
import { random, randomBody, randomPieces } from '../helpers/random-body.js';

/**
 * The WebAssembly line normalizer (the fast path) against its plain fallback: the same bytes from push,
 * pushView and end, the same line counts and pending bytes after every call, the same countLineEnds.
 * DIFF_ITERATIONS=n and DIFF_SEED=n run more, or others (the default keeps the suite quick).
 */
const ITERATIONS = Number(process.env.DIFF_ITERATIONS ?? 250);
const SEED = Number(process.env.DIFF_SEED ?? 1);

const PREFIXES = ['', '', 'ESM25,', 'S,', '\t', ' ', 'ÄÖ,', 'P'.repeat(200), 'Q'.repeat(256)];

/** Pushes `pieces` through both, comparing after every call; `view` picks pushView or push per call. */
function compare(pieces: readonly Buffer[], prefix: string, next: () => number, label: string): void {
  const plain = new PlainLineNormalizer(prefix);
  const wasm = new WasmLineNormalizer(prefix);
  for (const piece of pieces) {
    if (next() < 0.02) {
      const other = PREFIXES[Math.floor(next() * PREFIXES.length)]!;
      plain.setPrefix(other);
      wasm.setPrefix(other);
    }
    // each side's view is copied before the other side's next call: both may hand out scratch memory;
    // each gets its own copy of the piece, as each would get its own chunk
    const view = next() < 0.5;
    const mine = Buffer.from(view ? plain.pushView(Buffer.from(piece)) : plain.push(Buffer.from(piece)));
    const theirs = Buffer.from(view ? wasm.pushView(Buffer.from(piece)) : wasm.push(Buffer.from(piece)));
    // expect() only on a difference: it costs more than the rest of a round
    if (!mine.equals(theirs) || plain.lines !== wasm.lines || plain.pendingBytes !== wasm.pendingBytes) {
      expect(mine.toString('latin1'), label).toBe(theirs.toString('latin1'));
      expect(plain.lines, label).toBe(wasm.lines);
      expect(plain.pendingBytes, label).toBe(wasm.pendingBytes);
    }
  }
  expect(plain.end().toString('latin1'), label).toBe(wasm.end().toString('latin1'));
  expect(plain.lines, label).toBe(wasm.lines);
  expect([plain.pendingBytes, wasm.pendingBytes], label).toEqual([0, 0]);
  for (const piece of pieces) expect(plain.countLineEnds(piece), label).toBe(wasm.countLineEnds(piece));
  const whole = Buffer.concat(pieces);
  expect(plain.countLineEnds(whole), label).toBe(wasm.countLineEnds(whole));
}

describe('the line normalizer: WebAssembly against the plain fallback', () => {
  it.each([
    ['CR LF split across chunks', 'a,1\r\nb,2\r\n\r\nc,3\r\n'],
    ['lone CR', 'a,1\rb,2\r\rc'],
    ['stray LF among CR LF', 'a,1\r\n\nb,2\r\n\r\r\nc,3'],
    ['empty and blank lines', '\r\n\r\n \t \r\na\r\n\t\n  \r'],
    ['a BOM', '\ufeffsymbol,time\r\nESM25,2025-03-13\r\n'],
    ['Error lines', 'Error: unknown symbol\r\nError\r\nError: Invalid username or password'],
    ['near-blank bytes', '\u000b\r\n\f\r\n\u0000\r\n\u00a0\r\nx\r\n'],
    ['no line end at all', 'ESM25,2025-03-13 17:00:00.021,14,G,5612.75,7'],
  ])('%s, cut at every pair of points, with no prefix, a short one and the longest', (_name, text) => {
    const input = Buffer.from(text);
    const next = random(3);
    for (const prefix of ['', 'ESM25,', 'Q'.repeat(256)]) {
      for (let i = 0; i <= input.length; i++) {
        for (let j = i; j <= input.length; j++) {
          const pieces = [input.subarray(0, i), input.subarray(i, j), input.subarray(j)];
          compare(pieces, prefix, next, `${JSON.stringify(text)} cut at ${i}, ${j}`);
        }
      }
    }
  });

  it('long lines: across many chunks, and longer than the room of one call', () => {
    const next = random(5);
    const long = Buffer.from(`${'9,'.repeat(100_000)}\r\n`.repeat(3));
    compare(randomPieces(long, next, [1000, 70_000]), 'P'.repeat(200), next, 'long lines');
    compare([long], '', next, 'long lines whole');
    const short = Buffer.from('a\r\n'.repeat(100_000));
    compare([short], 'P'.repeat(256), next, 'many short lines, a long prefix');
  });

  it(`gives the same bytes, lines and pending bytes on ${ITERATIONS} random bodies in random chunks`, {
    timeout: Math.max(60_000, ITERATIONS * 100),
  }, () => {
    const next = random(SEED);
    for (let round = 0; round < ITERATIONS; round++) {
      const body = randomBody(next);
      // a piece a byte or three long only for the smaller bodies: the rounds stay quick
      const means = body.length < 5000 ? [1, 3, 16, 64, 1000, 70_000] : [16, 64, 1000, 70_000];
      const prefix = PREFIXES[Math.floor(next() * PREFIXES.length)]!;
      compare(randomPieces(body, next, means), prefix, next, `seed ${SEED} round ${round}`);
    }
  });

  it('both refuse a prefix longer than 256 bytes', () => {
    for (const make of [() => new PlainLineNormalizer(), () => new WasmLineNormalizer()]) {
      expect(() => make().setPrefix('x'.repeat(257))).toThrow(RangeError);
    }
  });
});

describe('newLineNormalizer: the one place the normalizer is chosen', () => {
  it('WebAssembly by default, the plain one when the switch asks for it', () => {
    const made = (): LineNormalizer => newLineNormalizer('S,');
    expect(made()).toBeInstanceOf(WasmLineNormalizer);
    usePlainFallbacks(true);
    try {
      expect(made()).toBeInstanceOf(PlainLineNormalizer);
    } finally {
      usePlainFallbacks(false);
    }
  });
});
