import { describe, expect, it } from 'vitest';
import {
  completeLinesEnd,
  fieldKey,
  lastLineBefore,
  lineEndAfter,
  trailingGroupStart,
} from '../../src/core/pipeline/line-regions.js';

const b = (text: string) => Buffer.from(text);

describe('line regions', () => {
  it.each([
    ['a\r\nb\r\nc', 6],
    ['a\nb', 2],
    ['a\rb\r', 4],
    ['abc', 0],
  ])('completeLinesEnd(%j) = %i', (text, end) => expect(completeLinesEnd(b(text))).toBe(end));

  it('lineEndAfter takes CR LF as one end', () => {
    expect([lineEndAfter(b('ab\r\ncd')), lineEndAfter(b('ab\ncd')), lineEndAfter(b('abcd'))]).toEqual([
      4, 3, -1,
    ]);
  });

  it('lastLineBefore takes as blank exactly what trim() removes, for every latin1 byte', () => {
    for (let byte = 0; byte < 256; byte++) {
      if (byte === 10 || byte === 13) continue;
      const bytes = Buffer.concat([b('a,1\n'), Buffer.from([32, byte, 32]), b('\r\n')]);
      const blank = String.fromCharCode(32, byte, 32).trim() === '';
      expect([byte, lastLineBefore(bytes, bytes.length)]).toEqual([
        byte,
        blank ? { start: 0, end: 3 } : { start: 4, end: 7 },
      ]);
    }
  });

  it('lastLineBefore skips blank lines and line ends', () => {
    const bytes = b('one\r\ntwo\r\n \r\n\r\n');
    const last = lastLineBefore(bytes, bytes.length);
    expect(last && bytes.toString('latin1', last.start, last.end)).toBe('two');
    expect(lastLineBefore(b('\r\n\r\n'), 4)).toBeUndefined();
  });

  it('fieldKey reads the first characters of a field', () => {
    const line = b('ES,ESH25,2025-03-14 09:00,14');
    expect(fieldKey(line, 0, line.length, 2, 16)).toBe('2025-03-14 09:00');
    expect(fieldKey(line, 0, line.length, 9, 16)).toBeUndefined();
  });

  it('trailingGroupStart finds where the rows of the last key begin', () => {
    const body = b(
      '2025-03-13 10:00:00.001,13,G,1,1\r\n2025-03-13 10:00:01.002,13,G,1,1\r\n2025-03-13 10:00:01.900,13,G,1,1\r\n',
    );
    const key = (s: number, e: number) => fieldKey(body, s, e, 0, 19);
    const start = trailingGroupStart(body, body.length, key);
    expect(body.toString('latin1', 0, start)).toBe('2025-03-13 10:00:00.001,13,G,1,1\r\n');
    const single = b('2025-03-13 10:00:01.002,13,G,1,1\r\n2025-03-13 10:00:01.900,13,G,1,1\r\n');
    expect(trailingGroupStart(single, single.length, (s, e) => fieldKey(single, s, e, 0, 19))).toBe(0);
  });
});
