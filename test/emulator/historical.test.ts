import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { Emulator } from '../../src/emulator/index.js';
import { withEmulator } from '../helpers/with-emulator.js';
import { crlfLines, get, historical } from './http.js';

const TICKS = 'queryticks.ashx';
const MINUTES = 'queryminutes.ashx';
const EOD = 'queryeod.ashx';
const TICK_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/;

describe('emulator: credentials and in-band errors', () => {
  it('answers bad or missing credentials with the auth Error line, status per errorStatus', async () => {
    await withEmulator({}, async (emu) => {
      const bad = await get(`${emu.urls.historical}/${TICKS}?username=demo&password=nope&symbol=AAPL`);
      expect([bad.status, bad.body.toString()]).toEqual([200, 'Error: invalid username or password\r\n']);
      const none = await get(`${emu.urls.futuresOptions}/futuresoptions?root=ZC`);
      expect(none.body.toString()).toBe('Error: invalid username or password\r\n');
    });
    await withEmulator({ errorStatus: 401, username: 'u', password: 'p' }, async (emu) => {
      const bad = await get(`${emu.urls.historical}/${EOD}?username=u&password=x&symbol=AAPL`);
      expect([bad.status, bad.body.toString()]).toEqual([401, 'Error: invalid username or password\r\n']);
      const good = await historical(emu, EOD, { symbol: 'AAPL', start: '20250314', end: '20250315' });
      expect(good.status).toBe(200);
    });
  });

  it('unknown symbol: an Error line, or an empty body with unknownSymbol=empty', async () => {
    await withEmulator({}, async (emu) => {
      expect((await historical(emu, TICKS, { symbol: 'NOPE' })).body.toString()).toBe(
        'Error: unknown symbol NOPE\r\n',
      );
      expect((await historical(emu, EOD, { symbol: '$VIX' })).body.toString()).toBe(
        'Error: not entitled to $VIX\r\n',
      );
    });
    await withEmulator({ unknownSymbol: 'empty' }, async (emu) => {
      const empty = await historical(emu, MINUTES, { symbol: 'NOPE', start: '20250314' });
      expect([empty.status, empty.body.length]).toEqual([200, 0]);
    });
  });

  it.each([
    [TICKS, {}, 'Error: missing parameter symbol'],
    [TICKS, { symbol: 'AAPL', start: '2025031' }, 'Error: invalid date 2025031'],
    [TICKS, { symbol: 'AAPL', start: '20250230' }, 'Error: invalid date 20250230'],
    [TICKS, { symbol: 'AAPL', end: '2025031412' }, 'Error: invalid date 2025031412'],
    [MINUTES, { symbol: 'AAPL', start: '202503142461' }, 'Error: invalid date 202503142461'],
    [MINUTES, { symbol: 'AAPL', interval: '0' }, 'Error: invalid value 0 for parameter interval'],
    [TICKS, { symbol: 'AAPL', maxrecords: '-3' }, 'Error: invalid value -3 for parameter maxrecords'],
    [EOD, { symbol: 'AAPL', data: 'hourly' }, 'Error: invalid value hourly for parameter data'],
    [EOD, { symbol: 'ESM25', volume: 'most' }, 'Error: invalid value most for parameter volume'],
    [
      EOD,
      { symbol: 'ESM25', daystoexpiration: '61' },
      'Error: invalid value 61 for parameter daystoexpiration',
    ],
    [EOD, { symbol: 'AAPL', splits: 'maybe' }, 'Error: invalid value maybe for parameter splits'],
    ['querynearbyminutes.ashx', { symbol: 'AAPL' }, 'Error: invalid value AAPL for parameter symbol'],
    ['queryformtminutes.ashx', { symbol: 'ESM25' }, 'Error: invalid value ESM25 for parameter symbol'],
    ['queryevents.ashx', {}, 'Error: missing parameter symbols'],
    ['queryeoddaterange.ashx', {}, 'Error: missing parameter symbols'],
  ])('%s %o → %s', async (page, query, line) => {
    await withEmulator({}, async (emu) => {
      const response = await historical(emu, page, query);
      expect([response.status, response.body.toString()]).toEqual([200, `${line}\r\n`]);
    });
  });

  it('uses the configured error texts', async () => {
    await withEmulator(
      { errorTexts: { unknownSymbol: 'Error: no such symbol <sym>!' } as never },
      async (emu) => {
        expect((await historical(emu, TICKS, { symbol: 'NOPE' })).body.toString()).toBe(
          'Error: no such symbol NOPE!\r\n',
        );
        expect((await historical(emu, TICKS, {})).body.toString()).toBe(
          'Error: missing parameter symbol\r\n',
        );
      },
    );
  });
});

describe('emulator: bytes on the wire', () => {
  const query = { symbol: 'AAPL', start: '202503141000', end: '202503141005' };

  it('writes CRLF lines, no header, last line terminated; LF and no final newline by option', async () => {
    let crlf = '';
    await withEmulator({}, async (emu) => {
      const response = await historical(emu, MINUTES, query);
      crlf = response.body.toString();
      expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(crlf).toMatch(/^2025-03-14 10:00,14,[^\r\n]*\r\n(2025-03-14 10:0[1-4],[^\r\n]*\r\n){4}$/);
    });
    await withEmulator({ lineEnding: 'lf', finalNewline: false, contentType: 'text/csv' }, async (emu) => {
      const response = await historical(emu, MINUTES, query);
      expect(response.headers['content-type']).toBe('text/csv');
      expect(response.body.toString()).toBe(crlf.replace(/\r\n/g, '\n').replace(/\n$/, ''));
    });
  });

  it('appends one stray CRLF after CSV data bodies with strayLineEnd', async () => {
    let plain = '';
    await withEmulator({}, async (emu) => {
      plain = (await historical(emu, MINUTES, query)).body.toString();
    });
    await withEmulator({ strayLineEnd: true }, async (emu) => {
      expect((await historical(emu, MINUTES, query)).body.toString()).toBe(`${plain}\r\n`);
      const ticks = (await historical(emu, TICKS, { ...query, maxrecords: '2' })).body.toString();
      expect(ticks).toMatch(/^[^\r\n]+\r\n[^\r\n]+\r\n\r\n$/);
      const zipped = await historical(emu, MINUTES, query, { 'accept-encoding': 'gzip' });
      expect(zipped.body.toString()).toBe(`${plain}\r\n`);
      expect((await historical(emu, TICKS, { symbol: 'AAPL', start: '20250315' })).body.toString()).toBe(
        '\r\n',
      );
      const options = await get(
        `${emu.urls.futuresOptions}/futuresoptions?username=demo&password=demo&root=ZC&date=20250313`,
      );
      expect(options.body.toString().endsWith('\r\n\r\n')).toBe(true);
      const json = await get(
        `${emu.urls.futuresOptions}/futuresoptions/json?username=demo&password=demo&root=ZC&date=20250315`,
      );
      expect(json.body.toString()).toBe('[]\n');
      expect((await historical(emu, TICKS, { symbol: 'NOPE' })).body.toString()).toBe(
        'Error: unknown symbol NOPE\r\n',
      );
    });
    await withEmulator({ strayLineEnd: true, lineEnding: 'lf' }, async (emu) => {
      expect((await historical(emu, MINUTES, query)).body.toString()).toBe(
        `${plain.replace(/\r\n/g, '\n')}\r\n`,
      );
    });
  });

  it('gzips only when Accept-Encoding asks and gzip=auto', async () => {
    await withEmulator({}, async (emu) => {
      const url = `${emu.urls.historical}/${MINUTES}?username=demo&password=demo&symbol=AAPL&start=20250314`;
      const plain = await get(url);
      const zipped = await get(url, { 'accept-encoding': 'br, gzip;q=0.8' });
      const refused = await get(url, { 'accept-encoding': 'gzip;q=0, deflate' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
      expect(refused.headers['content-encoding']).toBeUndefined();
    });
    await withEmulator({ gzip: 'never' }, async (emu) => {
      const response = await get(
        `${emu.urls.historical}/${MINUTES}?username=demo&password=demo&symbol=AAPL`,
        {
          'accept-encoding': 'gzip',
        },
      );
      expect(response.headers['content-encoding']).toBeUndefined();
    });
  });

  it('sends chunked bodies by default and Content-Length with transfer=length (gzip too)', async () => {
    await withEmulator({}, async (emu) => {
      const response = await historical(emu, TICKS, { symbol: 'AAPL', start: '20250314' });
      expect([response.headers['transfer-encoding'], response.headers['content-length']]).toEqual([
        'chunked',
        undefined,
      ]);
    });
    await withEmulator({ transfer: 'length' }, async (emu) => {
      const url = `${emu.urls.historical}/${TICKS}?username=demo&password=demo&symbol=AAPL&start=20250314`;
      const plain = await get(url);
      expect(plain.headers['content-length']).toBe(String(plain.body.length));
      const zipped = await get(url, { 'accept-encoding': 'gzip' });
      expect(zipped.headers['content-length']).toBe(String(zipped.body.length));
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    });
  });

  it('gives the same bytes for the same request, and a window is a slice of the day', async () => {
    await withEmulator({}, async (emu) => {
      const day = crlfLines((await historical(emu, TICKS, { symbol: 'ESM25', start: '20250314' })).body);
      const again = crlfLines(
        (await historical(emu, TICKS, { symbol: 'ESM25', start: '20250314', end: '20250315' })).body,
      );
      expect(again).toEqual(day);
      const window = crlfLines(
        (await historical(emu, TICKS, { symbol: 'ESM25', start: '202503141000', end: '20250314100500' }))
          .body,
      );
      expect(window.length).toBeGreaterThan(0);
      expect(window).toEqual(day.filter((line) => line >= '2025-03-14 10:00' && line < '2025-03-14 10:05'));
    });
  });

  it('records every request in order, names lower-cased, and reads names case-insensitively', async () => {
    await withEmulator({}, async (emu) => {
      const response = await get(
        `${emu.urls.historical}/QueryEOD.ashx?UserName=demo&PASSWORD=demo&Symbol=AAPL&Start=20250314&End=20250315&maxrecords=&format=csv`,
        { 'x-test': 'yes' },
      );
      expect(crlfLines(response.body)).toHaveLength(1);
      await get(`${emu.url}/nowhere`);
      expect(emu.requests).toHaveLength(2);
      const [first, second] = emu.requests;
      expect(first).toMatchObject({
        method: 'GET',
        path: '/historical/QueryEOD.ashx',
        query: {
          username: 'demo',
          password: 'demo',
          symbol: 'AAPL',
          start: '20250314',
          end: '20250315',
          maxrecords: '',
          format: 'csv',
        },
      });
      expect(first?.rawQuery).toContain('UserName=demo');
      expect(first?.headers['x-test']).toBe('yes');
      expect(second?.path).toBe('/nowhere');
    });
  });

  it('answers 404 for unknown paths, 405 for other methods, 414 for long queries, 429 above the rate', async () => {
    await withEmulator({ rateLimit: 3, retryAfter: 7, maxQueryLength: 100 }, async (emu) => {
      expect((await get(`${emu.urls.historical}/querystuff.ashx`)).status).toBe(404);
      expect((await get(`${emu.urls.historical}/constructor`)).status).toBe(404);
      const long = await get(`${emu.urls.historical}/${TICKS}?symbol=${'A'.repeat(120)}`);
      expect(long.status).toBe(414);
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await get(`${emu.urls.historical}/${TICKS}`)).status);
      const limited = await get(`${emu.urls.historical}/${TICKS}`);
      expect([limited.status, limited.headers['retry-after']]).toEqual([429, '7']);
    });
    await withEmulator({}, async (emu) => {
      const response = await fetch(`${emu.urls.historical}/${TICKS}`, { method: 'POST' });
      expect(response.status).toBe(405);
      await response.arrayBuffer();
    });
  });

  it('replays a cached body with Content-Length (cacheBodies), credentials ignored in the key', async () => {
    await withEmulator({ cacheBodies: true }, async (emu) => {
      const query = { symbol: 'ESM25', start: '20250314' };
      const first = await historical(emu, TICKS, query);
      const second = await historical(emu, TICKS, query);
      expect(first.headers['content-length']).toBeUndefined();
      expect(second.headers['content-length']).toBe(String(first.body.length));
      expect(second.body.equals(first.body)).toBe(true);
    });
  });

  it('caps rows silently with rowCap', async () => {
    await withEmulator({ rowCap: 7, tickLimit: 'exact' }, async (emu) => {
      expect(
        crlfLines((await historical(emu, TICKS, { symbol: 'AAPL', start: '20250314' })).body),
      ).toHaveLength(7);
      expect(
        crlfLines(
          (await historical(emu, TICKS, { symbol: 'AAPL', start: '20250314', maxrecords: '3' })).body,
        ),
      ).toHaveLength(3);
    });
    await withEmulator({ rowCap: 7 }, async (emu) => {
      const minutes = crlfLines(
        (await historical(emu, MINUTES, { symbol: 'AAPL', start: '20250314', maxrecords: '9' })).body,
      );
      expect(minutes).toHaveLength(7);
    });
  });
});

describe('emulator: ticks', () => {
  it('has the tick shape, ties included, and the futures evening belongs to the next day', async () => {
    await withEmulator({}, async (emu) => {
      const lines = crlfLines(
        (await historical(emu, TICKS, { symbol: 'ESM25', start: '202503131700', end: '202503131800' })).body,
      );
      expect(lines.length).toBeGreaterThan(10);
      for (const line of lines) {
        const [time, day, code, price, size, ...rest] = line.split(',');
        expect(rest).toEqual([]);
        expect(time).toMatch(TICK_TIME);
        expect([day, code]).toEqual(['14', 'G']);
        expect(price).toMatch(/^\d+(\.(25|5|75))?$/);
        expect(size).toMatch(/^[1-9]\d*$/);
      }
      const times = lines.map((line) => line.split(',')[0]);
      expect(new Set(times).size).toBeLessThan(times.length);
      expect([...times].sort()).toEqual(times);
    });
  });

  it('returns only the first day of a multi-day request (calendar, or session with tickDay=session)', async () => {
    const query = { symbol: 'ESM25', start: '202503131800', end: '20250316' };
    await withEmulator({}, async (emu) => {
      const lines = crlfLines((await historical(emu, TICKS, query)).body);
      expect(lines[0]?.startsWith('2025-03-13 18:0')).toBe(true);
      expect(lines.every((line) => line.startsWith('2025-03-13 '))).toBe(true);
      const noStart = crlfLines(
        (await historical(emu, TICKS, { symbol: 'ESM25', end: '202503141200' })).body,
      );
      expect(noStart[0]?.startsWith('2025-03-14 00:0')).toBe(true);
      expect(noStart.every((line) => line >= '2025-03-14 00:00' && line < '2025-03-14 12:00')).toBe(true);
    });
    await withEmulator({ tickDay: 'session' }, async (emu) => {
      const lines = crlfLines((await historical(emu, TICKS, query)).body);
      expect(lines.at(-1)?.startsWith('2025-03-14 15:')).toBe(true);
      expect(lines.every((line) => line.split(',')[1] === '14')).toBe(true);
    });
  });

  it('keeps start inclusive and end exclusive', async () => {
    await withEmulator({}, async (emu) => {
      const minute = (start: string, end: string) =>
        historical(emu, TICKS, { symbol: 'AAPL', start, end }).then((r) => crlfLines(r.body));
      const first = await minute('202503141000', '202503141001');
      const second = await minute('202503141001', '202503141002');
      const both = await minute('202503141000', '202503141002');
      expect(first.every((line) => line.startsWith('2025-03-14 10:00:'))).toBe(true);
      expect(second.every((line) => line.startsWith('2025-03-14 10:01:'))).toBe(true);
      expect(both).toEqual([...first, ...second]);
    });
  });

  it('applies maxrecords and order as documented, the byte path equal to the line path', async () => {
    await withEmulator({}, async (emu) => {
      const ticks = (query: Record<string, string>) =>
        historical(emu, TICKS, { symbol: 'AAPL', ...query }).then((r) => crlfLines(r.body));
      const day = await ticks({ start: '20250314' });
      expect(day.length).toBeGreaterThan(500);
      expect(await ticks({ start: '20250314', maxrecords: '5' })).toEqual(day.slice(0, 5));
      expect(await ticks({ start: '20250314', maxrecords: '5', order: 'DESC' })).toEqual(
        day.slice(-5).reverse(),
      );
      expect(await ticks({ start: '20250314', order: 'desc' })).toEqual([...day].reverse());
      expect(await ticks({ start: '20250314', order: 'sideways' })).toEqual(day);
      const beforeNoon = day.filter((line) => line < '2025-03-14 12:00');
      expect(await ticks({ end: '202503141200', maxrecords: '4' })).toEqual(beforeNoon.slice(-4));
      expect(await ticks({ end: '202503141200', maxrecords: '4', order: 'desc' })).toEqual(
        beforeNoon.slice(-4).reverse(),
      );
    });
  });

  describe('a limit completes the last second (tickLimit=second)', () => {
    // about 24 ticks a second: a cut at 10 rows falls inside a second
    const dense = { ticksPerDay: 2_000_000 };
    const window = { symbol: 'ESM25', start: '202503141000', end: '202503141001' };
    const secondOf = (line: string) => line.slice(0, 19);
    /** The first `n` lines, then the rest of the last one's second. */
    const completed = (lines: string[], n: number) => {
      const last = secondOf(lines[n - 1] ?? '');
      return lines.filter((line, i) => i < n || secondOf(line) === last);
    };
    const ticks = (emu: Emulator, query: Record<string, string>) =>
      historical(emu, TICKS, query).then((r) => crlfLines(r.body));

    it('asc (the byte path), desc and end-only walks return every tick of the cut second', async () => {
      await withEmulator(dense, async (emu) => {
        const all = await ticks(emu, window);
        expect(all.length).toBeGreaterThan(600);
        const asc = await ticks(emu, { ...window, maxrecords: '10' });
        expect(asc.length).toBeGreaterThan(10);
        expect(asc).toEqual(completed(all, 10));
        expect(secondOf(all[asc.length] ?? '')).not.toBe(secondOf(asc.at(-1) ?? ''));

        const newestFirst = [...all].reverse();
        const desc = await ticks(emu, { ...window, maxrecords: '10', order: 'desc' });
        expect(desc.length).toBeGreaterThan(10);
        expect(desc).toEqual(completed(newestFirst, 10));

        const back = await ticks(emu, { symbol: 'ESM25', end: window.end, maxrecords: '10' });
        expect(back).toEqual([...completed(newestFirst, 10)].reverse());
      });
    });

    it('applies to rowCap too, and tickLimit=exact cuts at exactly N rows', async () => {
      const all = await withEmulator(dense, (emu) => ticks(emu, window));
      const newestFirst = [...all].reverse();
      await withEmulator({ ...dense, rowCap: 10 }, async (emu) => {
        expect(await ticks(emu, window)).toEqual(completed(all, 10));
        expect(await ticks(emu, { ...window, order: 'desc' })).toEqual(completed(newestFirst, 10));
      });
      await withEmulator({ ...dense, tickLimit: 'exact' }, async (emu) => {
        expect(await ticks(emu, { ...window, maxrecords: '10' })).toEqual(all.slice(0, 10));
        expect(await ticks(emu, { ...window, maxrecords: '10', order: 'desc' })).toEqual(
          newestFirst.slice(0, 10),
        );
        expect(await ticks(emu, { symbol: 'ESM25', end: window.end, maxrecords: '10' })).toEqual(
          all.slice(-10),
        );
      });
    });
  });

  it('filters sale conditions per sessionfilter', async () => {
    await withEmulator({}, async (emu) => {
      const codes = async (symbol: string, start: string, end: string, sessionfilter?: string) => {
        const query: Record<string, string> = {
          symbol,
          start,
          end,
          ...(sessionfilter ? { sessionfilter } : {}),
        };
        return new Set(
          crlfLines((await historical(emu, TICKS, query)).body).map((line) => line.split(',')[2]),
        );
      };
      expect(await codes('ESM25', '202503141500', '202503141501')).toEqual(new Set(['G']));
      expect(await codes('ESM25', '202503141500', '202503141501', '+*')).toEqual(new Set(['G', '*']));
      expect(await codes('ESM25', '202503141500', '202503141501', '!G')).toEqual(new Set(['*']));
      expect(await codes('AAPL', '202503140400', '202503140930')).toEqual(new Set());
      expect(await codes('AAPL', '202503140400', '202503140930', '+T')).toEqual(new Set(['T']));
      const regular = await codes('AAPL', '202503140930', '202503141100');
      expect([...regular].every((code) => code && '@ABDEFKOSXY156'.includes(code))).toBe(true);
      expect(await codes('AAPL', '202503140930', '202503141100', 'F')).toEqual(new Set(['F']));
      expect((await codes('AAPL', '202503140930', '202503141100', '-@')).has('@')).toBe(false);
    });
  });

  it('sends support/resistance rows with trend=y', async () => {
    await withEmulator({}, async (emu) => {
      const lines = crlfLines(
        (
          await historical(emu, TICKS, {
            symbol: 'ESM25',
            start: '20250314',
            end: '202503140300',
            trend: 'y',
          })
        ).body,
      );
      expect(lines.map((line) => line.split(',')[0])).toEqual(
        ['00:00', '00:30', '01:00', '01:30', '02:00', '02:30'].map((time) => `2025-03-14 ${time}:00.000`),
      );
      for (const line of lines) {
        const [, day, code, support, resistance] = line.split(',');
        expect([day, code]).toEqual(['14', 'G']);
        expect(Number(support)).toBeLessThan(Number(resistance));
      }
    });
  });

  it('writes blank session codes for forex and empty sizes for indices; no weekend data', async () => {
    await withEmulator({}, async (emu) => {
      const fx = crlfLines(
        (await historical(emu, TICKS, { symbol: '^EURUSD', start: '20250314', maxrecords: '3' })).body,
      );
      expect(fx.every((line) => /^[^,]+,14,,1\.\d+,\d+$/.test(line))).toBe(true);
      const index = crlfLines(
        (await historical(emu, TICKS, { symbol: '$SPX', start: '20250314', maxrecords: '3' })).body,
      );
      expect(index.every((line) => /^2025-03-14 08:3\d:[\d.]+,14,,\d+(\.\d+)?,$/.test(line))).toBe(true);
      expect((await historical(emu, TICKS, { symbol: 'AAPL', start: '20250315' })).body.length).toBe(0);
      expect((await historical(emu, TICKS, { symbol: 'ESM25', start: '20250315' })).body.length).toBe(0);
    });
  });

  it('repeats the autumn DST hour for a round-the-clock market', async () => {
    await withEmulator({}, async (emu) => {
      const query = { symbol: '^BTCUSD', start: '202511020100', end: '202511020200', interval: '30' };
      const bars = crlfLines((await historical(emu, MINUTES, query)).body).map((line) => line.split(',')[0]);
      expect(bars).toEqual(['2025-11-02 01:00', '2025-11-02 01:30', '2025-11-02 01:00', '2025-11-02 01:30']);
      const spring = crlfLines(
        (await historical(emu, MINUTES, { symbol: '^BTCUSD', start: '202503090200', end: '202503090300' }))
          .body,
      );
      expect(spring).toEqual([]);
    });
  });

  it('sends nothing after the emulator clock (now)', async () => {
    await withEmulator({ now: new Date('2025-03-14T15:00:00Z') }, async (emu) => {
      const lines = crlfLines((await historical(emu, TICKS, { symbol: 'AAPL' })).body);
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.every((line) => line < '2025-03-14 11:00')).toBe(true);
      expect(lines.at(-1)?.startsWith('2025-03-14 10:59')).toBe(true);
    });
  });
});
