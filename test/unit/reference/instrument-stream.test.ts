import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parseInstrumentArray } from '../../../src/core/reference/instrument-stream.js';
import { numberText, RawNumber, stringifyLossless } from '../../../src/core/reference/lossless-json.js';
import { collect, fixtureStream } from './helpers.js';

const parse = (text: string) => collect(parseInstrumentArray(Readable.from([Buffer.from(text)])));

describe('parseInstrumentArray', () => {
  it('yields each entry of the fixture with ids exact, across 64-byte chunks', async () => {
    const entries = await collect(parseInstrumentArray(fixtureStream('instruments.json')));
    expect(entries.map((entry) => numberText(entry['marketId']))).toEqual([
      '4917813436427451121',
      '5764607523034234881',
      '4917813436427470003',
      '9007199254740993',
      '9223372036854775807',
    ]);
    expect(entries[4]?.['marketId']).toBeInstanceOf(RawNumber);
    expect(entries[3]?.['minimumPriceIncrement']).toBe(0.0099999998);
    expect(stringifyLossless(entries[3]?.['contractPointValue'] ?? null)).toBe('1.0');
  });

  it('yields nothing for an empty array', async () => {
    expect(await parse(' [ ] ')).toEqual([]);
  });

  it.each([
    ['an object body', '{"error":"nope"}', 'instruments: the body is not a JSON array'],
    ['an in-band error line', 'Error: not entitled', /^instruments: malformed JSON/],
    ['a truncated body', '[{"marketId":"1"},{"marketId"', /^instruments: malformed JSON/],
    ['an empty body', '', /^instruments: malformed JSON|^instruments: empty body/],
    ['a non-object element', '[{"marketId":"1"},42]', 'instruments: value 2 is a number, not a JSON object'],
    ['a big-number element', '[9223372036854775807]', 'instruments: value 1 is a number, not a JSON object'],
    ['trailing garbage', '[] []', /^instruments: malformed JSON/],
  ])('rejects %s as MDGET_SERVICE', async (_name, body, message) => {
    await expect(parse(body)).rejects.toMatchObject({ code: 'MDGET_SERVICE', message });
  });

  it('passes errors of the body through untouched', async () => {
    const failure = Object.assign(new Error('socket hang up'), { code: 'UND_ERR_SOCKET' });
    const body = new Readable({
      read() {
        this.push('[{"marketId":"1"},');
        this.destroy(failure);
      },
    });
    await expect(collect(parseInstrumentArray(body))).rejects.toBe(failure);
  });

  it('destroys the body when the consumer stops early', async () => {
    const body = Readable.from(['[', '{"marketId":"1"},', '{"marketId":"2"},', '{"marketId":"3"}', ']']);
    for await (const entry of parseInstrumentArray(body)) {
      expect(entry['marketId']).toBe('1');
      break;
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(body.destroyed).toBe(true);
  });
});

describe('parseInstrumentArray memory', () => {
  it('keeps the live heap flat while parsing a generated 50 MB array', { timeout: 120_000 }, async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const targetBytes = 50 * 1024 * 1024;
    let producedBytes = 0;
    const entry = (i: number) =>
      `{"marketId":"${4917813436427451121n + BigInt(i)}","instrumentType":"FUTURE","symbol":"ES${i}",` +
      `"description":"${'generated entry '.repeat(8)}","minimumPriceIncrement":0.0099999998,` +
      `"calendar":{"events":[{"type":"LAST_TRADE_DATE","date":"1750377600000"}]},` +
      `"symbols":[{"vendor":"VENDOR","symbol":"ES${i}","longSymbol":"ES${i}X"}],"bookDepth":${i % 10}}`;
    async function* body() {
      yield '[';
      let i = 0;
      while (producedBytes < targetBytes) {
        let chunk = '';
        for (let n = 0; n < 200; n++) chunk += (i === 0 ? '' : ',') + entry(i++);
        producedBytes += chunk.length;
        yield chunk;
      }
      yield ']';
    }

    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = 0;
    let count = 0;
    let last = '';
    for await (const parsed of parseInstrumentArray(Readable.from(body()))) {
      count += 1;
      last = parsed['marketId'] as string;
      if (count % 20_000 === 0) {
        gc();
        peak = Math.max(peak, process.memoryUsage().heapUsed - baseline);
      }
    }
    expect(producedBytes).toBeGreaterThanOrEqual(targetBytes);
    expect(last).toBe(String(4917813436427451121n + BigInt(count - 1)));
    expect(count).toBeGreaterThan(100_000);
    // A parser that buffered the array would hold several times the 50 MB here.
    expect(peak).toBeLessThan(60 * 1024 * 1024);
  });
});
