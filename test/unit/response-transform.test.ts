import { readFileSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { outputColumns, RECORD_SHAPES, type RecordKind } from '../../src/core/model/record-shapes.js';
import {
  closingBytes,
  newOutputState,
  type OutputFormat,
  ResponseTransform,
  recordToJson,
} from '../../src/core/pipeline/response-transform.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url));
const URL_ = new URL('http://h.test/queryticks.ashx?username=u&password=Secret1&symbol=AAPL');

async function run(
  body: Buffer,
  format: OutputFormat = 'csv',
  kind: RecordKind = 'ticks',
  chunkSize = 7,
  jsonBody = false,
) {
  const state = newOutputState(format, true, outputColumns(kind, { trend: false, contract: false }));
  const transform = new ResponseTransform({
    kind,
    state,
    url: URL_,
    symbol: 'AAPL',
    trend: false,
    jsonBody,
    secrets: ['Secret1'],
  });
  const chunks: Buffer[] = [];
  for (let i = 0; i < body.length; i += chunkSize) chunks.push(body.subarray(i, i + chunkSize));
  const out: Buffer[] = [];
  await pipeline(
    Readable.from(chunks),
    transform,
    new Writable({
      write(c, _e, cb) {
        out.push(Buffer.from(c));
        cb();
      },
    }),
  );
  return {
    text: Buffer.concat(out).toString() + closingBytes(state),
    rows: transform.rows,
    empty: transform.empty,
  };
}

describe('ResponseTransform on wire fixtures', () => {
  it('csv: header once, LF, rows counted; raw: bytes unchanged', async () => {
    const body = fixture('ticks.csv');
    const csv = await run(body);
    const records = body
      .toString()
      .split('\r\n')
      .filter((l) => l.trim() !== '');
    const prefixed = records.map((r) => `AAPL,${r}`);
    expect(csv.text).toBe(`symbol,time,trading_day,session_code,price,size\n${prefixed.join('\n')}\n`);
    expect(csv.rows).toBe(records.length);
    const raw = await run(body, 'raw');
    expect([raw.text, raw.rows]).toEqual([body.toString(), records.length]);
  });

  it('ndjson and json: recordToJson of each csv row, whatever the chunks; json is one array', async () => {
    const csv = (await run(fixture('ticks.csv'))).text.trimEnd().split('\n');
    const columns = csv[0]!.split(',');
    const objects = csv.slice(1).map((line) => recordToJson(line, columns, RECORD_SHAPES.ticks));
    for (const size of [7, 64, 4096]) {
      expect((await run(fixture('ticks.csv'), 'ndjson', 'ticks', size)).text).toBe(
        objects.map((o) => `${o}\n`).join(''),
      );
      expect((await run(fixture('ticks.csv'), 'json', 'ticks', size)).text).toBe(
        `[\n${objects.join(',\n')}\n]\n`,
      );
    }
    expect((await run(fixture('empty.txt'), 'json')).text).toBe('[]\n');
  });

  it('gzip fixture is the CRLF fixture compressed (decoding is zlib, upstream of the transform)', async () => {
    const { gunzipSync } = await import('node:zlib');
    expect(gunzipSync(fixture('ticks.csv.gz')).equals(fixture('ticks.csv'))).toBe(true);
  });

  it.each(['empty.txt', 'blank-lines.txt'])(
    '%s: zero records, not an error; csv is its header',
    async (name) => {
      const result = await run(fixture(name));
      expect(result).toEqual({
        text: 'symbol,time,trading_day,session_code,price,size\n',
        rows: 0,
        empty: true,
      });
      expect(await run(fixture(name), 'raw')).toEqual({ text: '', rows: 0, empty: true });
    },
  );

  it('an in-band error line is MDGET_SERVICE with the message, and nothing is written', async () => {
    for (const format of ['csv', 'raw'] as const) {
      await expect(run(fixture('error-inband.txt'), format)).rejects.toMatchObject({
        code: 'MDGET_SERVICE',
        message: expect.stringMatching(
          /^service error: Error: invalid username or password \(.*password=\*\*\*/,
        ),
      });
    }
    await expect(run(Buffer.from('\r\n  \r\nerror: lower case too\r\n'))).rejects.toMatchObject({
      code: 'MDGET_SERVICE',
    });
  });

  it('an error after data, an HTML page and a cut last line are failures', async () => {
    const good = fixture('ticks.csv').toString();
    await expect(run(Buffer.from(`${good}Error: later\r\n`))).rejects.toMatchObject({
      code: 'MDGET_SERVICE',
    });
    await expect(run(Buffer.from('<html><body>maintenance</body></html>\r\n'))).rejects.toMatchObject({
      code: 'MDGET_HTTP',
    });
    await expect(run(Buffer.from(good.slice(0, good.length - 6)), 'raw')).rejects.toMatchObject({
      code: 'MDGET_NETWORK',
      message: expect.stringMatching(/^truncated body/),
    });
    const noFinalNewline = await run(Buffer.from(good.trimEnd()));
    expect(noFinalNewline.text.endsWith('\n')).toBe(true);
  });

  it('finds an error line in any case, also when a chunk boundary splits it, in every format', async () => {
    const good = fixture('ticks.csv').toString();
    for (const bad of ['Error: boom', 'ErRoR: boom', 'service ERROR']) {
      const body = Buffer.from(`${good}${bad}\r\n${good}`);
      for (const format of ['raw', 'csv', 'ndjson'] as const) {
        for (const size of [3, 7, 64, 4096]) {
          await expect(run(body, format, 'ticks', size), `${bad} ${format} ${size}`).rejects.toMatchObject({
            code: 'MDGET_SERVICE',
          });
        }
      }
    }
  });

  it('a line with no end for over 1 MiB (or 64 KiB at the start) is not data', async () => {
    const good = fixture('ticks.csv').toString();
    await expect(run(Buffer.alloc(70_000, 'A'), 'csv', 'ticks', 65536)).rejects.toMatchObject({
      code: 'MDGET_HTTP',
    });
    for (const format of ['raw', 'csv'] as const) {
      const body = Buffer.concat([Buffer.from(good), Buffer.alloc(2_200_000, 'A'), Buffer.from('\r\n')]);
      await expect(run(body, format, 'ticks', 65536)).rejects.toMatchObject({ code: 'MDGET_HTTP' });
    }
  });

  it('every record kind: fixture lines pass, JSON bodies pass through', async () => {
    for (const [name, kind] of [
      ['minutes.csv', 'minutes'],
      ['minutes-nearby.csv', 'nearbyMinutes'],
      ['eod-equity.csv', 'eod'],
      ['eod-futures.csv', 'eod'],
      ['events.csv', 'events'],
      ['daterange-eod.csv', 'dateRange'],
      ['daterange-minutes.csv', 'dateRange'],
      ['futopts.csv', 'futuresOptions'],
      ['ticks-trend.csv', 'ticks'],
    ] as const) {
      const result = await run(fixture(name), 'ndjson', kind);
      for (const line of result.text.trim().split('\n')) expect(() => JSON.parse(line), name).not.toThrow();
    }
    const json = fixture('futopts.json');
    expect((await run(json, 'csv', 'opaque', 5, true)).text).toBe(json.toString());
    // written on one line, as a JSON body may well be: whole, not dropped for want of a line end
    const oneLine = Buffer.from(JSON.stringify(JSON.parse(json.toString())));
    expect(oneLine.includes('\n')).toBe(false);
    for (const size of [5, 1 << 20])
      expect((await run(oneLine, 'csv', 'opaque', size, true)).text).toBe(oneLine.toString());
  });
});
