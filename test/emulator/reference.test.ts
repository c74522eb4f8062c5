import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { generateCapture } from '../../src/emulator/index.js';
import { withEmulator } from '../helpers/with-emulator.js';
import { crlfLines, get } from './http.js';

describe('emulator: futures options', () => {
  it('serves CSV records of 12 fields and the same records as a JSON array', async () => {
    await withEmulator({}, async (emu) => {
      const base = `${emu.urls.futuresOptions}/futuresoptions`;
      const csv = crlfLines((await get(`${base}?username=demo&password=demo&root=ZC&date=20250313`)).body);
      expect(csv.length).toBeGreaterThan(10);
      for (const line of csv) {
        expect(line).toMatch(
          /^ZC[KN]\d+[CP],ZC[KN]25,(Call|Put),\d+,\d{4}-\d\d-\d\d,2025-03-13,([\d.]+,){4}\d+,\d+$/,
        );
      }
      const json = await get(`${base}/json?username=demo&password=demo&root=ZC&date=20250313`);
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      const records = JSON.parse(json.body.toString()) as Record<string, unknown>[];
      expect(records).toHaveLength(csv.length);
      const [
        symbol,
        underlying,
        type,
        strike,
        expiration,
        date,
        open,
        high,
        low,
        close,
        volume,
        openInterest,
      ] = (csv[0] ?? '').split(',');
      expect(records[0]).toEqual({
        symbol,
        underlying,
        type,
        strike: Number(strike),
        expiration,
        date,
        open: Number(open),
        high: Number(high),
        low: Number(low),
        close: Number(close),
        volume: Number(volume),
        openInterest: Number(openInterest),
      });
      const weekend = await get(`${base}/json?username=demo&password=demo&root=ZC&date=20250315`);
      expect(weekend.body.toString()).toBe('[]\n');
      const unknown = await get(`${base}/json?username=demo&password=demo&root=NOPE`);
      expect(unknown.body.toString()).toBe('Error: unknown symbol NOPE\r\n');
      const missing = await get(`${base}?username=demo&password=demo&date=20250313`);
      expect(missing.body.toString()).toBe('Error: missing parameter root\r\n');
    });
  });

  it('adds a column with futuresOptionsShape=extended, defaults the date to the last closed session', async () => {
    await withEmulator(
      { futuresOptionsShape: 'extended', now: new Date('2025-03-14T23:00:00Z') },
      async (emu) => {
        const csv = crlfLines(
          (await get(`${emu.urls.futuresOptions}/futuresoptions?username=demo&password=demo&root=ES`)).body,
        );
        expect(
          csv.every((line) => line.split(',').length === 13 && line.split(',')[5] === '2025-03-14'),
        ).toBe(true);
      },
    );
  });
});

/** The attributes of every `<exchange/>` element, XML entities left as they are. */
function exchangeElements(xml: string): Record<string, string | undefined>[] {
  return [...xml.matchAll(/<exchange ([^>]*)\/>/g)].map((element) =>
    Object.fromEntries([...(element[1] ?? '').matchAll(/([\w$]+)="([^"]*)"/g)].map((a) => [a[1], a[2]])),
  );
}

describe('emulator: exchanges list', () => {
  it('serves the XML under the configured name, with ambiguous descriptions and the BIG exchange', async () => {
    await withEmulator({ exchangesPath: 'lists/exchanges' }, async (emu) => {
      const response = await get(`${emu.urls.extras}/lists/exchanges.php`);
      expect(response.headers['content-type']).toBe('text/xml; charset=utf-8');
      const xml = response.body.toString('utf8');
      expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<exchanges>')).toBe(true);
      const ids = [...xml.matchAll(/<exchange id="([^"]+)"/g)].map((match) => match[1]);
      expect(ids).toEqual([
        'CME',
        'CBOT',
        'CBOTM',
        'NYMEX',
        'COMEX',
        'NYSE',
        'NASDAQ',
        'CBOE',
        'ICEUS',
        'ICEEU',
        'EUREX',
        'FOREX',
        'OTC PINK',
        'BIG',
      ]);
      expect(xml).toContain(
        '<exchange id="CME" description="CME Globex" feedcode="M" delay="10" data_frequency="1" codes="CME,XCME" feewaiver="no" freedelayed="no" snapshot_frequency="5" timezone_local="America/Chicago" timezone_feed="America/Chicago" eod_release_time="17:30:00" eod_cutoff_time="16:00:00"/>',
      );
      expect([...xml.matchAll(/description="[^"]*Futures[^"]*"/g)]).toHaveLength(2);
      expect(xml).toContain('description="Eurex Deutschland &amp; Zürich"');
      expect((await get(`${emu.urls.extras}/exchanges.php`)).status).toBe(404);
    });
  });

  it('serves the legacy shape of the 2012/2013 lists with exchangesShape=legacy', async () => {
    const documentedIds = await withEmulator({}, async (emu) =>
      exchangeElements((await get(`${emu.urls.extras}/exchanges.php`)).body.toString()).map((e) => e.id),
    );
    await withEmulator({ exchangesShape: 'legacy' }, async (emu) => {
      const xml = (await get(`${emu.urls.extras}/exchanges.php`)).body.toString();
      expect(xml.startsWith('<?xml version="1.0"?>\n<exchanges>\n')).toBe(true);
      expect(xml.endsWith('</exchanges>\n')).toBe(true);
      expect(xml).not.toContain('encoding=');
      const elements = exchangeElements(xml);
      const ids = elements.map((element) => element.id ?? '');
      expect(ids).toEqual(expect.arrayContaining(documentedIds));
      expect(ids.some((id) => id.includes('-'))).toBe(true);
      expect(ids.some((id) => id.includes('_'))).toBe(true);
      const order = [
        'id',
        'abccode',
        'delay',
        'description',
        'codes',
        'feewaiver',
        'data_frequency',
        'freedelayed',
      ];
      for (const element of elements) {
        const names = Object.keys(element);
        expect(names, element.id).toEqual(order.filter((name) => names.includes(name)));
        expect(Number(element.delay ?? 0)).toBeGreaterThanOrEqual(0);
        expect(Number(element.delay ?? 0)).toBeLessThanOrEqual(1440);
        expect(['yes', 'no', undefined]).toContain(element.feewaiver);
        expect(['yes', 'no', 'eod', undefined]).toContain(element.freedelayed);
      }
      expect(elements).toContainEqual({ id: 'TEST_EX-1' });
      expect(elements.map((element) => element.delay)).toContain('1440');
      expect(elements.map((element) => element.freedelayed)).toContain('eod');
      expect(elements.filter((element) => element.feewaiver === undefined).length).toBeGreaterThan(1);
      const codes = elements.map((element) => element.abccode);
      expect(codes.filter((code) => code === undefined).length).toBeGreaterThan(1);
      expect(codes.filter((code) => code === 'B')).toHaveLength(2);
      expect(codes).toEqual(expect.arrayContaining(['$', 'e1']));
      expect(elements.find((element) => element.id === 'CBOTM')?.codes).toBe('CBOT MINI,XCBT');
      expect(xml).toContain('description="Eurex Deutschland &amp; Zürich"');
      expect(xml).not.toMatch(/timezone|snapshot|eod_|feedcode/);
    });
    await withEmulator({ exchangesShape: 'legacy', exchangesCodePrefix: 'xyz' }, async (emu) => {
      const xml = (await get(`${emu.urls.extras}/exchanges.php`)).body.toString();
      expect(xml).toContain('<exchange id="CME" xyzcode="M" delay="10" description="CME Globex"');
      expect(xml).not.toContain('abccode');
    });
  });

  it.each(['documented', 'legacy'] as const)(
    '%s shape: "cbot" finds CBOT and CBOTM; every listed id has an instruments file',
    async (exchangesShape) => {
      await withEmulator({ exchangesShape, instrumentsBigCount: 10 }, async (emu) => {
        const elements = exchangeElements((await get(`${emu.urls.extras}/exchanges.php`)).body.toString());
        const cbot = elements.filter((element) =>
          `${element.id} ${element.description ?? ''}`.toLowerCase().includes('cbot'),
        );
        expect(cbot.map((element) => element.id)).toEqual(['CBOT', 'CBOTM']);
        for (const { id } of elements) {
          const file = await get(`${emu.urls.instruments}/${encodeURIComponent(id ?? '')}-instruments.json`);
          expect([id, file.status]).toEqual([id, 200]);
          expect(Array.isArray(JSON.parse(file.body.toString()))).toBe(true);
        }
      });
    },
  );

  it('encodes ISO-8859-1 when asked, and needs credentials with extrasAuth=query', async () => {
    await withEmulator({ exchangesEncoding: 'iso-8859-1', extrasAuth: 'query' }, async (emu) => {
      expect((await get(`${emu.urls.extras}/exchanges.php`)).status).toBe(401);
      const response = await get(`${emu.urls.extras}/exchanges.php?username=demo&password=demo`);
      expect(response.status).toBe(200);
      expect(response.body.toString('latin1')).toContain('encoding="ISO-8859-1"');
      expect(response.body.includes(Buffer.from('Zürich', 'latin1'))).toBe(true);
    });
  });
});

describe('emulator: instruments files', () => {
  it('serves JSON with string ids, omitted defaults, prefixed keys and unknown keys', async () => {
    await withEmulator({ vendorPrefix: 'acme' }, async (emu) => {
      const response = await get(`${emu.urls.instruments}/CME-instruments.json`);
      expect(response.headers['content-type']).toBe('application/json');
      const text = response.body.toString();
      expect(text).toContain('"marketId":"9007199254740993"');
      const entries = JSON.parse(text) as Record<string, unknown>[];
      const es = entries.find((entry) => entry.symbol === 'ESM5');
      expect(es).toMatchObject({
        marketId: '4917813436427451121',
        instrumentType: 'FUTURE',
        acmeExchangeCode: 'M',
        acmeBaseCode: 'A',
        acmeExchange: 'CME',
      });
      expect(es?.symbolExpiration).toEqual({ year: 2025, month: 6, day: 20 });
      expect(entries.some((entry) => 'schedule' in entry)).toBe(true);
      const spread = entries.find((entry) => entry.instrumentType === 'SPREAD') as {
        spreadLeg: { ratio: number }[];
      };
      expect(spread.spreadLeg.map((leg) => leg.ratio)).toEqual([1, -1]);
      const option = entries.find((entry) => entry.optionType === 'CALL');
      expect(option).toMatchObject({ optionStrike: '560000', optionStrikeDenominator: 100 });
      for (const entry of entries) {
        expect(
          Object.values(entry).filter((value) => value === 0 || value === '' || value === false),
        ).toEqual([]);
        expect(typeof entry.marketId).toBe('string');
      }
      const empty = await get(`${emu.urls.instruments}/ICEEU-instruments.json`);
      expect(empty.body.toString().trim()).toBe('[]');
      const spaced = await get(`${emu.urls.instruments}/OTC%20PINK-instruments.json`);
      expect(spaced.status).toBe(200);
    });
  });

  it('answers If-None-Match with 304, unknown ids with 404', async () => {
    await withEmulator({}, async (emu) => {
      const url = `${emu.urls.instruments}/CBOT-instruments.json`;
      const first = await get(url);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[0-9a-f]+"$/);
      const again = await get(url, { 'if-none-match': etag });
      expect([again.status, again.body.length]).toEqual([304, 0]);
      expect((await get(url, { 'if-none-match': '"other"' })).status).toBe(200);
      expect((await get(`${emu.urls.instruments}/NOPE-instruments.json`)).status).toBe(404);
      expect((await get(`${emu.urls.instruments}/cbot-instruments.json`)).status).toBe(404);
      const zipped = await get(url, { 'accept-encoding': 'gzip' });
      expect(gunzipSync(zipped.body).equals(first.body)).toBe(true);
    });
  });

  it('streams the BIG file: instrumentsBigCount entries, flat memory', async () => {
    await withEmulator({ instrumentsBigCount: 30_000 }, async (emu) => {
      const { entries, bytes, chunks } = await new Promise<{
        entries: number;
        bytes: number;
        chunks: number;
      }>((resolve, reject) => {
        request(`${emu.urls.instruments}/BIG-instruments.json`, (res) => {
          let entries = 0;
          let bytes = 0;
          let chunks = 0;
          let tail = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            chunks++;
            bytes += chunk.length;
            const text = tail + chunk;
            // one entry per line; a match never fits in the 2-character tail, so none is counted twice
            entries += text.split('\n{"').length - 1;
            tail = text.slice(-2);
          });
          res.on('end', () => resolve({ entries, bytes, chunks }));
          res.on('error', reject);
        }).end();
      });
      expect(entries).toBe(30_000);
      expect(bytes).toBeGreaterThan(3_000_000);
      expect(chunks).toBeGreaterThan(10);
    });
  });
});

describe('emulator: capture generator', () => {
  it('writes an instrumentResponse, then the definitions, with noise and mismatches on request', () => {
    const lines = generateCapture({ exchange: 'CME', count: 4 });
    const messages = lines.map((line) => JSON.parse(line) as Record<string, Record<string, unknown>>);
    expect(messages[0]).toEqual({
      instrumentResponse: {
        correlationId: '7',
        status: { result: 'SUCCESS' },
        numberOfDefinitions: 4,
        exchange: 'CME',
      },
    });
    expect(messages.slice(1).map((message) => Object.keys(message))).toEqual([
      ['instrumentDefinition'],
      ['instrumentDefinition'],
      ['instrumentDefinition'],
      ['instrumentDefinition'],
    ]);
    expect(messages[1]?.instrumentDefinition?.marketId).toBe('4917813436427451121');

    const noisy = generateCapture({ exchange: 'BIG', count: 7, declared: 9, extraKinds: ['heartBeat'] }).map(
      (line) => JSON.parse(line),
    );
    expect(noisy[0].instrumentResponse.numberOfDefinitions).toBe(9);
    expect(noisy.filter((message) => 'instrumentDefinition' in message)).toHaveLength(7);
    expect(noisy.filter((message) => 'heartBeat' in message)).toHaveLength(2);

    const failed = generateCapture({
      exchange: 'XX',
      count: 0,
      status: 'INVALID_EXCHANGE',
      message: 'unknown exchange XX',
    });
    expect(failed).toEqual([
      '{"instrumentResponse":{"correlationId":"7","status":{"result":"INVALID_EXCHANGE","message":"unknown exchange XX"},"exchange":"XX"}}',
    ]);
  });
});
