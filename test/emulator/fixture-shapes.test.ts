import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../../src/emulator/index.js';
import { withEmulator } from '../helpers/with-emulator.js';
import { get, withCredentials } from './http.js';

const TICK_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/;
const MINUTE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_OF_MONTH = /^([1-9]|[12]\d|3[01])$/;
const CODE = /^[^,\s]?$/;
const PRICE = /^-?\d+(\.\d+)?$/;
const INT = /^\d+$/;
const OPTIONAL_INT = /^\d*$/;
const CONTRACT = /^[A-Z0-9]+[FGHJKMNQUVXZ]\d{2}$/;
const SYMBOL = /^[A-Z0-9.^$*]+$/;
const BAR = [PRICE, PRICE, PRICE, PRICE];

/** The emulator clock the fixtures were taken with. */
const NOW = new Date('2025-03-21T23:00:00Z');

interface Sample {
  file: string;
  base: 'historical' | 'futuresOptions';
  page: string;
  query: Record<string, string>;
  shape: RegExp[];
  options?: Partial<EmulatorOptions>;
}

const SAMPLES: Sample[] = [
  {
    file: 'ticks.csv',
    base: 'historical',
    page: 'queryticks.ashx',
    query: { symbol: 'ESM25', start: '20250313170000', end: '20250314', maxrecords: '12' },
    shape: [TICK_TIME, DAY_OF_MONTH, CODE, PRICE, OPTIONAL_INT],
  },
  {
    file: 'ticks-lf.csv',
    base: 'historical',
    page: 'queryticks.ashx',
    query: { symbol: 'AAPL', start: '20250314093000', end: '20250315', maxrecords: '12' },
    shape: [TICK_TIME, DAY_OF_MONTH, CODE, PRICE, OPTIONAL_INT],
    options: { lineEnding: 'lf' },
  },
  {
    file: 'ticks-trend.csv',
    base: 'historical',
    page: 'queryticks.ashx',
    query: { symbol: 'ESM25', start: '202503140800', end: '202503141200', trend: 'y' },
    shape: [TICK_TIME, DAY_OF_MONTH, CODE, PRICE, PRICE],
  },
  {
    file: 'minutes.csv',
    base: 'historical',
    page: 'queryminutes.ashx',
    query: { symbol: 'ESM25', start: '202503131700', end: '202503131712' },
    shape: [MINUTE, DAY_OF_MONTH, ...BAR, OPTIONAL_INT],
  },
  {
    file: 'minutes-nearby-shortcut.csv',
    base: 'historical',
    page: 'queryminutes.ashx',
    query: { symbol: 'ES*1', start: '202503130900', end: '202503130910' },
    shape: [CONTRACT, MINUTE, DAY_OF_MONTH, ...BAR, INT],
  },
  {
    file: 'minutes-nearby.csv',
    base: 'historical',
    page: 'querynearbyminutes.ashx',
    query: { symbol: 'ES', start: '202503201552', end: '202503201706' },
    shape: [CONTRACT, MINUTE, DAY_OF_MONTH, ...BAR, INT],
  },
  {
    file: 'minutes-formt.csv',
    base: 'historical',
    page: 'queryformtminutes.ashx',
    query: { symbol: 'AAPL', start: '202503140400', end: '202503140410' },
    shape: [MINUTE, DAY_OF_MONTH, ...BAR, INT],
  },
  {
    file: 'eod-equity.csv',
    base: 'historical',
    page: 'queryeod.ashx',
    query: { symbol: 'AAPL', start: '20250303', end: '20250315' },
    shape: [SYMBOL, DATE, ...BAR, OPTIONAL_INT],
  },
  {
    file: 'eod-futures.csv',
    base: 'historical',
    page: 'queryeod.ashx',
    query: { symbol: 'ZCN25', start: '20250303', end: '20250315' },
    shape: [CONTRACT, DATE, ...BAR, INT, INT],
  },
  {
    file: 'events.csv',
    base: 'historical',
    page: 'queryevents.ashx',
    query: { symbols: 'AAPL,MSFT', start: '20200701', end: '20201101' },
    shape: [SYMBOL, DATE, /^(Split|Dividend|Earnings)$/, /^[\d.:/-]+$/],
  },
  {
    file: 'daterange-eod.csv',
    base: 'historical',
    page: 'queryeoddaterange.ashx',
    query: { symbols: 'AAPL,ZCN25,ES*1' },
    shape: [SYMBOL, DATE, DATE],
  },
  {
    file: 'daterange-minutes.csv',
    base: 'historical',
    page: 'queryminutedaterange.ashx',
    query: { symbols: 'AAPL,ZCN25,ES*1' },
    shape: [SYMBOL, MINUTE, MINUTE],
  },
  {
    file: 'futopts.csv',
    base: 'futuresOptions',
    page: 'futuresoptions',
    query: { root: 'ZC', date: '20250313' },
    shape: [/^ZC[A-Z]\d+[CP]$/, CONTRACT, /^(Call|Put)$/, PRICE, DATE, DATE, ...BAR, INT, INT],
  },
];

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url));

function recordsOf(body: Buffer, eol: string): string[] {
  const text = body.toString('utf8');
  expect(text.endsWith(eol), 'last line terminated').toBe(true);
  if (eol === '\n') expect(text).not.toContain('\r');
  return text.slice(0, -eol.length).split(eol);
}

function expectShape(lines: string[], shape: RegExp[], where: string): void {
  expect(lines.length, where).toBeGreaterThan(0);
  for (const line of lines) {
    const fields = line.split(',');
    expect(fields, `${where}: ${line}`).toHaveLength(shape.length);
    fields.forEach((field, i) => {
      expect(field, `${where}: field ${i + 1} of ${line}`).toMatch(shape[i] as RegExp);
    });
  }
}

describe('fixtures have the shape the emulator serves', () => {
  it.each(SAMPLES)('$file', async ({ file, base, page, query, shape, options }) => {
    const eol = options?.lineEnding === 'lf' ? '\n' : '\r\n';
    expectShape(recordsOf(fixture(file), eol), shape, file);
    await withEmulator({ now: NOW, ...options }, async (emu) => {
      const served = await get(`${emu.urls[base]}/${page}?${withCredentials(emu, query)}`);
      expect(served.status).toBe(200);
      expectShape(recordsOf(served.body, eol), shape, `served for ${file}`);
    });
  });

  it('ticks.csv.gz is the gzip of ticks.csv', () => {
    expect(gunzipSync(fixture('ticks.csv.gz')).equals(fixture('ticks.csv'))).toBe(true);
  });

  it('futopts.json has the keys and value types of the served JSON', async () => {
    const typesOf = (records: Record<string, unknown>[]) =>
      records.map((record) =>
        Object.entries(record)
          .map(([key, value]) => `${key}:${typeof value}`)
          .join(','),
      );
    const fromFixture = JSON.parse(fixture('futopts.json').toString()) as Record<string, unknown>[];
    await withEmulator({ now: NOW }, async (emu) => {
      const served = await get(
        `${emu.urls.futuresOptions}/futuresoptions/json?${withCredentials(emu, { root: 'ZC', date: '20250313' })}`,
      );
      const records = JSON.parse(served.body.toString()) as Record<string, unknown>[];
      expect(new Set(typesOf(fromFixture))).toEqual(new Set(typesOf(records)));
      expect(fromFixture.length).toBeGreaterThan(0);
    });
  });

  it('error-inband.txt, empty.txt and blank-lines.txt are what the service sends', async () => {
    expect(fixture('error-inband.txt').toString()).toBe('Error: invalid username or password\r\n');
    expect(fixture('empty.txt').length).toBe(0);
    const blank = fixture('blank-lines.txt').toString();
    expect(blank.length).toBeGreaterThan(0);
    expect(blank.split('\n').every((line) => line.replace(/[\r ]/g, '') === '')).toBe(true);
    await withEmulator({}, async (emu) => {
      const refused = await get(
        `${emu.urls.historical}/queryticks.ashx?username=demo&password=wrong&symbol=AAPL`,
      );
      expect(refused.body.equals(fixture('error-inband.txt'))).toBe(true);
      const weekend = await get(
        `${emu.urls.historical}/queryticks.ashx?${withCredentials(emu, { symbol: 'AAPL', start: '20250315' })}`,
      );
      expect(weekend.body.equals(fixture('empty.txt'))).toBe(true);
    });
  });
});
