import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RECORD_SHAPES } from '../../src/core/model/record-shapes.js';
import { type LineNormalizer, WasmLineNormalizer } from '../../src/core/pipeline/line-normalizer.js';
import { PlainLineNormalizer } from '../../src/core/pipeline/line-normalizer-plain.js';

const IMPLEMENTATIONS: [string, (prefix?: string) => LineNormalizer][] = [
  ['WebAssembly', (prefix) => new WasmLineNormalizer(prefix)],
  ['plain', (prefix) => new PlainLineNormalizer(prefix)],
];

/** Feeds `input` split at every possible pair of cut points, so chunk boundaries fall everywhere. */
function normalizeInPieces(
  make: () => LineNormalizer,
  input: string,
  cuts: number[],
): { text: string; lines: number } {
  const n = make();
  const bytes = Buffer.from(input);
  const parts: Buffer[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    parts.push(n.push(bytes.subarray(from, cut)));
    from = cut;
  }
  parts.push(n.end());
  return { text: Buffer.concat(parts).toString(), lines: n.lines };
}

describe.each(IMPLEMENTATIONS)('LineNormalizer, %s', (_name, make) => {
  it.each([
    ['a\r\nb\r\n', 'a\nb\n', 2],
    ['a\nb\n', 'a\nb\n', 2],
    ['a\rb\r', 'a\nb\n', 2],
    ['a\r\n\r\n  \r\nb', 'a\nb\n', 2],
    ['\r\n\n a\r\n', ' a\n', 1],
    ['', '', 0],
    ['\r\n \r\n', '', 0],
  ])('%j → %j at every chunk boundary', (input, expected, lines) => {
    const length = Buffer.byteLength(input);
    for (let i = 0; i <= length; i++) {
      for (let j = i; j <= length; j++) {
        expect(normalizeInPieces(make, input, [i, j])).toEqual({ text: expected, lines });
      }
    }
  });

  it('turns every fixture into LF lines that match their endpoint shape', () => {
    const cases = [
      ['ticks.csv', 'ticks'],
      ['ticks-lf.csv', 'ticks'],
      ['minutes.csv', 'minutes'],
      ['minutes-nearby-shortcut.csv', 'minutes'],
      ['minutes-nearby.csv', 'nearbyMinutes'],
      ['minutes-formt.csv', 'minutes'],
      ['eod-equity.csv', 'eod'],
      ['eod-futures.csv', 'eod'],
      ['events.csv', 'events'],
    ] as const;
    for (const [file, kind] of cases) {
      const n = make();
      const text = Buffer.concat([
        n.push(readFileSync(new URL(`../../fixtures/${file}`, import.meta.url))),
        n.end(),
      ]).toString();
      expect(text, file).not.toContain('\r');
      const lines = text.trimEnd().split('\n');
      expect(lines.length, file).toBeGreaterThan(0);
      for (const line of lines) expect(RECORD_SHAPES[kind].matches(line), `${file}: ${line}`).toBe(true);
    }
  });
});

describe('the SIMD paths against plain JavaScript, on random bytes', () => {
  const alphabet = ['a', 'b', '1', ',', '.', ' ', '\t', '\r', '\n', '\r\n'];
  const random = (seed: number) => () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    return seed / 2 ** 31;
  };

  it('countLineEnds counts LF, CR and CR LF once, a CR LF across 16-byte blocks too', () => {
    const next = random(7);
    const n = new WasmLineNormalizer();
    for (let round = 0; round < 300; round++) {
      const text = Array.from(
        { length: Math.floor(next() * 120) },
        () => alphabet[Math.floor(next() * 10)],
      ).join('');
      const expected = (text.match(/\r\n|\r|\n/g) ?? []).length;
      expect(n.countLineEnds(Buffer.from(text)), JSON.stringify(text)).toBe(expected);
    }
  });

  it('normalize equals the JavaScript rule: LF ends, blank lines dropped, a prefix on every line', () => {
    const next = random(11);
    for (let round = 0; round < 300; round++) {
      const text = Array.from(
        { length: Math.floor(next() * 150) },
        () => alphabet[Math.floor(next() * 10)],
      ).join('');
      const n = new WasmLineNormalizer('P,');
      const out = Buffer.concat([n.push(Buffer.from(text)), n.end()]).toString();
      const lines = text.split(/\r\n|\r|\n/).filter((line) => line.trim() !== '');
      expect(out, JSON.stringify(text)).toBe(lines.map((line) => `P,${line}\n`).join(''));
      expect(n.lines).toBe(lines.length);
    }
  });

  it('pushView gives the bytes push gives, as a view of the WebAssembly memory when they come in one piece', () => {
    const next = random(13);
    const viewed = new WasmLineNormalizer('S,');
    const copied = new WasmLineNormalizer('S,');
    let views = 0;
    for (let round = 0; round < 300; round++) {
      const text = Array.from(
        { length: Math.floor(next() * 150) },
        () => alphabet[Math.floor(next() * 10)],
      ).join('');
      const view = viewed.pushView(Buffer.from(text));
      const bytes = Buffer.from(view); // read at once, before the next call
      if (view.length > 0 && view.buffer.byteLength >= 65_536) views++; // not Buffer's 8 KiB pool
      expect(bytes.toString(), JSON.stringify(text)).toBe(copied.push(Buffer.from(text)).toString());
      expect(viewed.lines).toBe(copied.lines);
    }
    expect(views).toBeGreaterThan(100);
    // output longer than the room of one call (a long prefix on many short lines): the pieces joined, the
    // earlier ones copied before the next call wrote over them
    const prefix = 'P'.repeat(200);
    const many = new WasmLineNormalizer(prefix).pushView(Buffer.from('a\r\n'.repeat(1000)));
    expect(many.toString()).toBe(`${prefix}a\n`.repeat(1000));
  });
});
