import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LineNormalizer } from '../../src/core/line-normalizer.js';
import { RECORD_SHAPES } from '../../src/core/record-shapes.js';

/** Feeds `input` split at every possible pair of cut points, so chunk boundaries fall everywhere. */
function normalizeInPieces(input: string, cuts: number[]): { text: string; lines: number } {
  const n = new LineNormalizer();
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

describe('LineNormalizer', () => {
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
        expect(normalizeInPieces(input, [i, j])).toEqual({ text: expected, lines });
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
      const n = new LineNormalizer();
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
