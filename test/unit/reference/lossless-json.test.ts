import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { streamJsonObjects } from '../../../src/core/reference/json-values.js';
import { jsonNumber, RawNumber, stringifyLossless } from '../../../src/core/reference/lossless-json.js';
import { collect } from './helpers.js';

describe('jsonNumber', () => {
  it.each([
    ['0.25', 0.25],
    ['50', 50],
    ['-1', -1],
    ['0.0099999998', 0.0099999998],
    ['9007199254740992', 9007199254740992],
  ])('%s stays a plain number', (text, value) => expect(jsonNumber(text)).toBe(value));

  it.each(['9007199254740993', '9223372036854775807', '1.0', '1E-3', '-0', '4917813436427451121'])(
    '%s keeps its text in a RawNumber',
    (text) => {
      const value = jsonNumber(text);
      expect(value).toBeInstanceOf(RawNumber);
      expect(String(value)).toBe(text);
    },
  );
});

describe('stringifyLossless', () => {
  it('writes back the exact source text of any JSON document', async () => {
    const source =
      '{"a":9223372036854775807,"b":[1.0,-0,1E-3,0.0099999998,"x\\u0001\\"y"],"c":{"d":null,"e":true,"f":false},"g":[]}';
    const [value] = await collect(streamJsonObjects(Readable.from([source]), 'top-level-values', 'test'));
    expect(stringifyLossless(value!)).toBe(source);
  });

  it('keeps a __proto__ key as data', async () => {
    const source = '{"__proto__":{"polluted":1}}';
    const [value] = await collect(streamJsonObjects(Readable.from([source]), 'top-level-values', 'test'));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(stringifyLossless(value!)).toBe(source);
  });
});
