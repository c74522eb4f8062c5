import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { JsonValueSplitter } from '../../../src/core/reference/json-splitter.js';
import { type JsonValuesMode, streamJsonObjects } from '../../../src/core/reference/json-values.js';
import { parseLossless, RawNumber, stringifyLossless } from '../../../src/core/reference/lossless-json.js';
import { collect } from './helpers.js';

/** A body cut into pieces of `size` bytes, so that every token straddles some boundary. */
const inPieces = (text: string, size: number): Readable => {
  const bytes = Buffer.from(text);
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return Readable.from(pieces);
};

const objects = (text: string, size = 1 << 20, mode: JsonValuesMode = 'array-elements') =>
  collect(streamJsonObjects(inPieces(text, size), mode, 'test'));

/** A deterministic pseudo-random source (xorshift), so a failure can be replayed. */
function randomSource(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
}

const NUMBERS = [
  '0',
  '-1',
  '42',
  '0.25',
  '0.0099999998',
  '123456789012345',
  '9007199254740992',
  '9007199254740993',
  '-9223372036854775808',
  '4917813436427451121',
  '1.0',
  '-0',
  '1E-3',
  '2e+21',
  '-0.5e-7',
];
const SAFE_NUMBERS = NUMBERS.filter((text) => String(Number(text)) === text);
const STRINGS = ['', 'ES', 'a"b', 'back\\slash', '{[,]}:', 'é€😀', '\u0001\n\t', 'ends with \\'];

/** Canonical JSON text (what stringifyLossless writes) of a random value, numbers written as in NUMBERS. */
function randomJson(random: () => number, depth: number, numbers: readonly string[] = NUMBERS): string {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const roll = random();
  if (depth > 0 && roll < 0.3) {
    const keys = new Set<string>();
    const count = Math.floor(random() * 5);
    for (let i = 0; i < count; i++) keys.add(pick(['marketId', 'symbol', 'a"b', 'é', '__proto__', 'k']));
    return `{${[...keys].map((key) => `${JSON.stringify(key)}:${randomJson(random, depth - 1, numbers)}`).join(',')}}`;
  }
  if (depth > 0 && roll < 0.45) {
    const count = Math.floor(random() * 4);
    return `[${Array.from({ length: count }, () => randomJson(random, depth - 1, numbers)).join(',')}]`;
  }
  if (roll < 0.7) return pick(numbers);
  if (roll < 0.9) return JSON.stringify(pick(STRINGS));
  return pick(['true', 'false', 'null']);
}

describe('parseLossless', () => {
  it('builds what JSON.parse builds when every number survives a double', () => {
    const random = randomSource(7);
    for (let i = 0; i < 500; i++) {
      const text = randomJson(random, 4, SAFE_NUMBERS);
      expect(parseLossless(text)).toEqual(JSON.parse(text));
    }
  });

  it('writes back every canonical document byte for byte', () => {
    const random = randomSource(11);
    for (let i = 0; i < 500; i++) {
      const text = randomJson(random, 4);
      expect(stringifyLossless(parseLossless(text))).toBe(text);
    }
  });

  it('keeps ids above 2^53 exact and everything else as JSON.parse has it', () => {
    const value = parseLossless(' {"id" : 9223372036854775807, "x":[1.0, 0.25, -0],"__proto__":{"p":1}} ');
    expect(value).toEqual({
      id: new RawNumber('9223372036854775807'),
      x: [new RawNumber('1.0'), 0.25, new RawNumber('-0')],
      ['__proto__']: { p: 1 },
    });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it.each([
    '{"a":1,}',
    '[1,]',
    '{"a" 1}',
    '{"a":01}',
    '{"a":"\u0001"}',
    '{"a":"\\x"}',
    '{"a":tru}',
    '{"a":1}}',
    '"open',
    '',
    '-',
    '1.',
  ])('rejects %j as JSON.parse does', (text) => {
    expect(() => JSON.parse(text)).toThrow(SyntaxError);
    expect(() => parseLossless(text)).toThrow(SyntaxError);
  });
});

describe('streamJsonObjects', () => {
  it('yields the same objects whatever the chunk boundaries, numbers exact', async () => {
    const random = randomSource(3);
    const entries = Array.from(
      { length: 60 },
      (_, i) => `{"i":${i},"v":${randomJson(random, 3)},"s":"x\\"]}\\\\"}`,
    );
    const text = ` [\n${entries.join(' ,\r\n\t')} ] \n`;
    const expected = entries.map((entry) => stringifyLossless(parseLossless(entry)));
    for (const size of [1, 2, 3, 7, 64, 1 << 20]) {
      const got = await objects(text, size);
      expect(got.map((object) => stringifyLossless(object))).toEqual(expected);
    }
  });

  it.each([1, 5, 1 << 20])('marks a number cut by a chunk boundary exact (%i-byte chunks)', async (size) => {
    const got = await objects('[{"a":9007199254740993,"b":[12345678901234567890],"c":0.1}]', size);
    expect(stringifyLossless(got[0] ?? null)).toBe(
      '{"a":9007199254740993,"b":[12345678901234567890],"c":0.1}',
    );
    expect(got[0]?.['c']).toBe(0.1);
  });

  it('sends exactly the numbers String() would not give back to the exact parser', () => {
    const random = randomSource(5);
    const digits = (count: number) =>
      Array.from({ length: count }, () => String(Math.floor(random() * 10))).join('');
    const texts = ['0', '-0', '0.0', '-0.0', '0.000001', '0.0000001', '-0.000001', '1E-3', '2e+21', '1e2'];
    for (let i = 0; i < 20_000; i++) {
      const whole = random() < 0.4 ? '0' : String(1 + Math.floor(random() * 9)) + digits(random() * 17);
      const fraction = random() < 0.3 ? '' : `.${digits(1 + random() * 17)}`;
      const exponent = random() < 0.9 ? '' : `e${random() < 0.5 ? '-' : ''}${1 + Math.floor(random() * 30)}`;
      texts.push(`${random() < 0.3 ? '-' : ''}${whole}${fraction}${exponent}`);
    }
    for (const text of texts) {
      const splitter = new JsonValueSplitter('top-level-values');
      splitter.feed(Buffer.from(`[${text}]`));
      expect(splitter.next()).toBe(`[${text}]`);
      const roundTrips = String(Number(text)) === text;
      // Sound always; precise up to 15 significant digits (longer ones may round-trip, and are sent anyway).
      const significant = text.replace(/^-|[eE].*$|\./g, '').replace(/^0+/, '').length;
      if (significant <= 15) expect([text, splitter.exact]).toEqual([text, !roundTrips]);
      else if (!roundTrips) expect([text, splitter.exact]).toEqual([text, true]);
    }
  });

  it('reads values one after another, with or without whitespace between them', async () => {
    const got = await objects('{"a":1}{"b":2}\n\n {"c":[]}\n', 3, 'top-level-values');
    expect(got).toEqual([{ a: 1 }, { b: 2 }, { c: [] }]);
  });

  it('skips a byte order mark before the array, and reads nothing but whitespace as an empty body', async () => {
    expect(await objects('\uFEFF[{"a":1}]', 1)).toEqual([{ a: 1 }]);
    const halfMark = Buffer.concat([Buffer.from([0xef, 0xbb]), Buffer.from('[{"a":1}]')]);
    await expect(
      collect(streamJsonObjects(Readable.from([halfMark]), 'array-elements', 'test')),
    ).rejects.toThrow('test: malformed JSON: Unexpected "[" at byte 2');
    await expect(objects(' \n ')).rejects.toThrow('test: empty body, expected a JSON array');
  });

  it.each([
    ['a trailing comma', '[{"a":1},]', /^test: malformed JSON: Unexpected "\]" at byte 9$/],
    ['a missing comma', '[{"a":1} {"b":2}]', /^test: malformed JSON: Unexpected "\{" at byte 9$/],
    ['a malformed element', '[{"a":1},{"a":01}]', /^test: malformed JSON: value 2: /],
    ['an exact element that is malformed', '[{"a":1.0,}]', /^test: malformed JSON: value 1: /],
    ['a control character in a string', '[{"a":"\u0001"}]', /^test: malformed JSON: value 1: /],
    ['a truncated element', '[{"a":"b', /^test: malformed JSON: Unexpected end of JSON input$/],
    ['a truncated array', '[{"a":1}', /^test: malformed JSON: Unexpected end of JSON input$/],
    ['text after the array', '[]x', /^test: malformed JSON: Unexpected "x" at byte 2$/],
    ['a string body', '"x"', 'test: the body is not a JSON array'],
    ['a nested non-object', '[[{"a":1}]]', 'test: value 1 is an array, not a JSON object'],
    ['a string element', '[{},"x"]', 'test: value 2 is a string, not a JSON object'],
    ['a null element', '[null]', 'test: value 1 is null, not a JSON object'],
    ['a boolean element', '[true]', 'test: value 1 is a boolean, not a JSON object'],
  ])('rejects %s as MDGET_SERVICE', async (_name, text, message) => {
    for (const size of [1, 1 << 20]) {
      await expect(objects(text, size)).rejects.toMatchObject({ code: 'MDGET_SERVICE', message });
    }
  });

  it('fails the source with the reason when the body is malformed, so its stages see no premature close', async () => {
    const source = Readable.from([Buffer.from('[{"a":1},x')]);
    const seen: unknown[] = [];
    source.on('error', (error) => seen.push(error));
    await expect(collect(streamJsonObjects(source, 'array-elements', 'test'))).rejects.toMatchObject({
      code: 'MDGET_SERVICE',
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toMatchObject([{ code: 'MDGET_SERVICE', message: /^test: malformed JSON/ }]);
  });
});
