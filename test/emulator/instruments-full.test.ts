import { request } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { withEmulator } from '../helpers/with-emulator.js';
import { get } from './http.js';

/** Every field of docs/service.md#instrument-fields (the vendor-named three with the default prefix). */
const SCHEMA_FIELDS = [
  'marketId',
  'instrumentType',
  'symbol',
  'symbols',
  'vendorId',
  'description',
  'cfiCode',
  'currencyCode',
  'isin',
  'exchangeCode',
  'vendorExchange',
  'vendorExchangeCode',
  'vendorBaseCode',
  'exchangeId',
  'minimumPriceIncrement',
  'contractPointValue',
  'priceFormat',
  'priceDenominator',
  'quantityDenominator',
  'timeZoneName',
  'instrumentGroup',
  'channel',
  'state',
  'calendar',
  'symbolExpiration',
  'contractMaturity',
  'underlying',
  'underlyingMarketId',
  'underlyingOpenfeedMarketId',
  'optionStrike',
  'optionStrikeDenominator',
  'optionType',
  'optionStyle',
  'optionStrikePriceFormat',
  'spreadCode',
  'spreadLeg',
  'contractSize',
  'contractSizeDescription',
  'recordCreateTime',
  'recordUpdateTime',
  'supportBookTypes',
  'bookDepth',
  'exchangeSendsVolume',
  'exchangeSendsHigh',
  'exchangeSendsLow',
  'exchangeSendsOpen',
  'consolidatedFeedInstrument',
  'exchangeMetadata',
  'schedule',
];

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type Entry = Record<string, Json>;

/** Paths of values at their protobuf default (0, "", false, []), which the JSON mapping omits. */
function defaultsIn(value: Json, path = ''): string[] {
  if (Array.isArray(value))
    return value.length ? value.flatMap((item, i) => defaultsIn(item, `${path}[${i}]`)) : [path];
  if (value !== null && typeof value === 'object')
    return Object.entries(value).flatMap(([key, field]) => defaultsIn(field, `${path}.${key}`));
  return value === 0 || value === '' || value === false ? [path] : [];
}

const bigUrl = (emu: { urls: { instruments: string } }) => `${emu.urls.instruments}/BIG-instruments.json`;

describe('emulator: BIG instruments in the full schema (instrumentsSchema=full)', () => {
  it('has every documented field, ids as strings, no defaults, about 1.2 KB an entry', async () => {
    await withEmulator({ instrumentsSchema: 'full', instrumentsBigCount: 400 }, async (emu) => {
      const response = await get(bigUrl(emu));
      expect([response.status, response.headers['transfer-encoding']]).toEqual([200, 'chunked']);
      const text = response.body.toString();
      const entries = JSON.parse(text) as Entry[];
      expect(entries).toHaveLength(400);
      expect(text.length / 400).toBeGreaterThan(1100);
      expect(text.length / 400).toBeLessThan(1300);
      const keys = new Set(entries.flatMap((entry) => Object.keys(entry)));
      expect([...SCHEMA_FIELDS].filter((field) => !keys.has(field))).toEqual([]);
      expect(new Set(entries.map((entry) => entry.instrumentType))).toEqual(
        new Set(['FUTURE', 'OPTION', 'SPREAD', 'EQUITY']),
      );
      expect(entries.flatMap((entry) => defaultsIn(entry))).toEqual([]);
      for (const entry of entries) {
        expect(entry.marketId).toMatch(/^\d+$/);
        expect(BigInt(entry.marketId as string)).toBeGreaterThan(2n ** 53n);
        expect(entry.recordCreateTime).toMatch(/^\d{19}$/);
        expect(entry.recordUpdateTime).toMatch(/^\d{19}$/);
        const events = (entry.calendar as { events: { type: string; date: string }[] }).events;
        expect(events.length).toBeGreaterThan(0);
        for (const { type, date } of events) {
          expect(type).toMatch(/^[A-Z_]+_DATE$/);
          expect(date).toMatch(/^\d{13}$/);
          expect(Number(date) % 86_400_000).toBe(0);
        }
        const symbols = entry.symbols as { vendor: string; symbol: string }[];
        expect(symbols.length).toBeGreaterThan(0);
        expect(symbols.every((alias) => alias.vendor !== '' && alias.symbol !== '')).toBe(true);
      }
      const future = entries.find((entry) => entry.instrumentType === 'FUTURE');
      expect(future).toMatchObject({
        priceFormat: { denominator: 100, subDenominator: 1 },
        contractMaturity: { year: expect.any(Number), month: expect.any(Number) },
        exchangeMetadata: { securityId: expect.stringMatching(/^\d+$/), sbeId: 1 },
        vendorExchange: 'BIG',
      });
      const option = entries.find((entry) => entry.instrumentType === 'OPTION');
      expect(option).toMatchObject({
        optionStrike: expect.stringMatching(/^\d+$/),
        optionStrikeDenominator: 100,
        optionType: expect.stringMatching(/^(CALL|PUT)$/),
        underlyingMarketId: expect.stringMatching(/^\d+$/),
      });
      const spread = entries.find((entry) => entry.instrumentType === 'SPREAD') as {
        spreadLeg: { marketId: string; ratio: number }[];
      };
      expect(spread.spreadLeg.map((leg) => leg.ratio)).toEqual([1, -1]);
      expect(spread.spreadLeg.every((leg) => /^\d+$/.test(leg.marketId))).toBe(true);
    });
    await withEmulator(
      { instrumentsSchema: 'full', instrumentsBigCount: 4, vendorPrefix: 'acme' },
      async (emu) => {
        const entries = JSON.parse((await get(bigUrl(emu))).body.toString()) as Entry[];
        expect(entries[0]).toMatchObject({ acmeExchangeCode: 'Z', acmeBaseCode: 'A', acmeExchange: 'BIG' });
        expect(entries[0]).not.toHaveProperty('vendorExchange');
      },
    );
  });

  /** Streams the BIG file, counting bytes and entries; the peak growth of heap plus Buffers, in MiB. */
  async function streamBig(
    url: string,
  ): Promise<{ bytes: number; entries: number; length: string; peakMiB: number }> {
    // Buffers live outside the JavaScript heap: count both
    const used = () => process.memoryUsage().heapUsed + process.memoryUsage().external;
    const before = used();
    let peak = before;
    return new Promise((resolve, reject) => {
      request(url, (res) => {
        let bytes = 0;
        let entries = 0;
        let tail = '';
        res.setEncoding('latin1');
        res.on('data', (chunk: string) => {
          bytes += chunk.length;
          const text = tail + chunk;
          entries += text.split('\n{"').length - 1;
          tail = text.slice(-2);
          peak = Math.max(peak, used());
        });
        res.on('end', () =>
          resolve({
            bytes,
            entries,
            length: String(res.headers['content-length']),
            peakMiB: (peak - before) / 2 ** 20,
          }),
        );
        res.on('error', reject);
      }).end();
    });
  }

  it('makes about 230 MiB of 200,000 entries, streamed without holding the file', async () => {
    await withEmulator({ instrumentsSchema: 'full', instrumentsBigCount: 200_000 }, async (emu) => {
      const { bytes, entries, peakMiB } = await streamBig(bigUrl(emu));
      expect(entries).toBe(200_000);
      expect(bytes / 2 ** 20).toBeGreaterThan(220);
      expect(bytes / 2 ** 20).toBeLessThan(240);
      // garbage not yet collected counts too, so the bound is loose; holding the file would pass 220
      expect(peakMiB).toBeLessThan(150);
    });
  });

  it('measures a Content-Length body in a first pass instead of holding it (transfer=length)', async () => {
    const options = { instrumentsSchema: 'full', instrumentsBigCount: 200_000, transfer: 'length' } as const;
    await withEmulator(options, async (emu) => {
      const { bytes, entries, length, peakMiB } = await streamBig(bigUrl(emu));
      expect([entries, length]).toEqual([200_000, String(bytes)]);
      // as above: garbage not yet collected counts, so only a file four times the bound tells holding apart
      expect(peakMiB).toBeLessThan(150);
    });
  });

  it('gzips when asked; with transfer=length, Content-Length is exact, plain or gzip', async () => {
    const compactEtag = await withEmulator(
      { instrumentsBigCount: 3000 },
      async (emu) => (await get(bigUrl(emu))).headers.etag,
    );
    await withEmulator({ instrumentsSchema: 'full', instrumentsBigCount: 3000 }, async (emu) => {
      const plain = await get(bigUrl(emu));
      const zipped = await get(bigUrl(emu), { 'accept-encoding': 'gzip' });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
      expect(plain.headers.etag).not.toBe(compactEtag);
    });
    await withEmulator(
      { instrumentsSchema: 'full', instrumentsBigCount: 3000, transfer: 'length' },
      async (emu) => {
        const plain = await get(bigUrl(emu));
        expect(plain.headers['content-length']).toBe(String(plain.body.length));
        expect(plain.body.length).toBeGreaterThan(3_000_000);
        const zipped = await get(bigUrl(emu), { 'accept-encoding': 'gzip' });
        expect([zipped.headers['content-encoding'], zipped.headers['content-length']]).toEqual([
          'gzip',
          String(zipped.body.length),
        ]);
        expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
        expect((JSON.parse(plain.body.toString()) as unknown[]).length).toBe(3000);
      },
    );
  });
});
