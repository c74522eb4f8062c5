import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readCapture } from '../../../src/core/reference/capture.js';
import { parseInstrumentArray } from '../../../src/core/reference/instrument-stream.js';
import type { JsonObject } from '../../../src/core/reference/lossless-json.js';
import { writeSqlite } from '../../../src/core/reference/sqlite-writer.js';
import { openDb } from '../../helpers/sqlite.js';
import { fixtureStream } from './helpers.js';

let dir = '';
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'mdget-sqlite-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const fixtureEntries = () => parseInstrumentArray(fixtureStream('instruments.json'));

describe('writeSqlite', () => {
  it('writes the three tables with exact TEXT ids', async () => {
    const target = join(dir, 'cme.sqlite');
    expect(await writeSqlite(fixtureEntries(), target)).toEqual({
      instruments: 5,
      symbols: 4,
      spreadLegs: 2,
    });
    const db = openDb(target);
    try {
      const ids = db
        .prepare('SELECT market_id, typeof(market_id) AS type FROM instruments ORDER BY rowid')
        .all();
      expect(ids).toEqual(
        [
          '4917813436427451121',
          '5764607523034234881',
          '4917813436427470003',
          '9007199254740993',
          '9223372036854775807',
        ].map((id) => ({ market_id: id, type: 'text' })),
      );
      const big = db
        .prepare('SELECT * FROM instruments WHERE market_id = ?')
        .safeIntegers(true)
        .get('9223372036854775807') as Record<string, unknown>;
      expect(big).toMatchObject({
        underlying_market_id: '9007199254740993',
        option_strike: '-472.5',
        expiration: '2025-07-03',
      });
      const equity = db
        .prepare(
          'SELECT tick_size, point_value, price_denominator, exchange_id FROM instruments WHERE symbol = ?',
        )
        .get('ACME');
      expect(equity).toEqual({
        tick_size: 0.0099999998,
        point_value: 1,
        price_denominator: 10000,
        exchange_id: 12,
      });
      expect(db.prepare('SELECT * FROM spread_legs ORDER BY leg_index').all()).toEqual([
        {
          market_id: '4917813436427470003',
          leg_index: 0,
          leg_market_id: '4917813436427451121',
          ratio: 1,
          symbol: 'ESM5',
        },
        {
          market_id: '4917813436427470003',
          leg_index: 1,
          leg_market_id: '4917813436427451122',
          ratio: -1,
          symbol: 'ESU5',
        },
      ]);
      const extra = db.prepare(
        "SELECT extra ->> '$.listingHistory.listedOn' FROM instruments WHERE symbol = 'ACME'",
      );
      expect(extra.pluck().get()).toBe('2001-05-17');
      expect(readdirSync(dir)).toEqual(['cme.sqlite']);
    } finally {
      db.close();
    }
  });

  it('declares primary keys and indexes on symbol and exchange', async () => {
    const target = join(dir, 'cme.sqlite');
    await writeSqlite(fixtureEntries(), target);
    const db = openDb(target);
    try {
      const pk = (table: string) =>
        (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string; pk: number }[])
          .filter((column) => column.pk > 0)
          .sort((a, b) => a.pk - b.pk)
          .map((column) => column.name);
      expect(pk('instruments')).toEqual(['market_id']);
      expect(pk('symbols')).toEqual(['market_id', 'vendor', 'symbol']);
      expect(pk('spread_legs')).toEqual(['market_id', 'leg_index']);
      const indexes = db
        .prepare(
          "SELECT name, tbl_name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name",
        )
        .all();
      expect(indexes).toEqual([
        { name: 'instruments_exchange_code', tbl_name: 'instruments' },
        { name: 'instruments_symbol', tbl_name: 'instruments' },
        { name: 'spread_legs_leg_market_id', tbl_name: 'spread_legs' },
        { name: 'symbols_symbol', tbl_name: 'symbols' },
      ]);
      const plan = db
        .prepare("EXPLAIN QUERY PLAN SELECT * FROM instruments WHERE exchange_code = 'XCME'")
        .all();
      expect(JSON.stringify(plan)).toContain('instruments_exchange_code');
    } finally {
      db.close();
    }
  });

  it('commits in batches and lets the last of a repeated marketId win, with a warning', async () => {
    async function* entries(): AsyncGenerator<JsonObject> {
      yield { marketId: '1', symbol: 'OLD', symbols: [{ vendor: 'V', symbol: 'OLD' }] };
      yield { marketId: '2', symbol: 'TWO' };
      yield { marketId: '1', symbol: 'NEW', symbols: [{ vendor: 'V', symbol: 'NEW' }] };
    }
    const warnings: string[] = [];
    const target = join(dir, 'dup.sqlite');
    const counts = await writeSqlite(entries(), target, { batchSize: 1, onWarning: (m) => warnings.push(m) });
    expect(counts).toEqual({ instruments: 2, symbols: 1, spreadLegs: 0 });
    expect(warnings).toEqual(['instruments: marketId 1 appears more than once; the last definition wins']);
    const db = openDb(target);
    try {
      expect(db.prepare('SELECT market_id, symbol FROM instruments ORDER BY market_id').all()).toEqual([
        { market_id: '1', symbol: 'NEW' },
        { market_id: '2', symbol: 'TWO' },
      ]);
      expect(db.prepare('SELECT symbol FROM symbols').pluck().all()).toEqual(['NEW']);
    } finally {
      db.close();
    }
  });

  it('removes the temp file and leaves the old target untouched when the source fails', async () => {
    const target = join(dir, 'cme.sqlite');
    writeFileSync(target, 'previous database');
    const failure = new Error('connection reset');
    async function* failing(): AsyncGenerator<JsonObject> {
      yield { marketId: '1' };
      throw failure;
    }
    await expect(writeSqlite(failing(), target)).rejects.toBe(failure);
    expect(readdirSync(dir)).toEqual(['cme.sqlite']);
  });

  it('writes nothing from a capture whose counts do not match', async () => {
    const target = join(dir, 'capture.sqlite');
    const entries = readCapture(() => fixtureStream('capture-mismatch.ndjson'));
    await expect(writeSqlite(entries, target)).rejects.toMatchObject({
      code: 'MDGET_SERVICE',
      message: 'capture: exchange CME announced 3 definitions, got 2',
    });
    expect(readdirSync(dir)).toEqual([]);
  });

  it('turns an unwritable target into MDGET_IO', async () => {
    const target = join(dir, 'missing', 'cme.sqlite');
    await expect(writeSqlite(fixtureEntries(), target)).rejects.toMatchObject({ code: 'MDGET_IO' });
    expect(existsSync(join(dir, 'missing'))).toBe(false);
  });
});
