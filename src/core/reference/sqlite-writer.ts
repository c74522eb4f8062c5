import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { isMdgetError, MdgetError } from '../model/errors.js';
import type { InstrumentEntry } from './instrument-stream.js';
import type { JsonNumber } from './lossless-json.js';
import { toProfileRows } from './profile-rows.js';
import {
  type Column,
  type ColumnKind,
  instrumentColumns,
  spreadLegColumns,
  symbolColumns,
} from './profile-tables.js';
import { isPrimaryKeyConflict, openSqlite, type SqliteDatabase, type SqliteValue } from './sqlite-backend.js';

/** Options of `writeSqlite`: rows per transaction, and a listener for repeated marketIds (last wins). */
export interface SqliteOptions {
  batchSize?: number;
  onWarning?: (message: string) => void;
}

/** Rows written to each table of the database. */
export interface SqliteCounts {
  instruments: number;
  symbols: number;
  spreadLegs: number;
}

// keyof never is every key, so this accepts the columns of any row type.
type AnyColumn = Column<never>;

const SQL_TYPES: Record<ColumnKind, string> = {
  text: 'TEXT',
  integer: 'INTEGER',
  real: 'REAL',
  json: 'TEXT',
};
const INT64 = /^-?\d{1,19}$/;
const DEFAULT_BATCH = 10_000;

// Ids are TEXT columns, so they come back as the exact strings they went in as, whatever the reader.
const SCHEMA = [
  `CREATE TABLE instruments (${instrumentColumns
    .map((c) => `${c.name} ${SQL_TYPES[c.kind]}${c.name === 'market_id' ? ' NOT NULL PRIMARY KEY' : ''}`)
    .join(', ')})`,
  `CREATE TABLE symbols (${symbolColumns
    .map((c) => `${c.name} ${SQL_TYPES[c.kind]}${c.name === 'long_symbol' ? '' : ' NOT NULL'}`)
    .join(', ')}, PRIMARY KEY (market_id, vendor, symbol))`,
  `CREATE TABLE spread_legs (${spreadLegColumns
    .map(
      (c) =>
        `${c.name} ${SQL_TYPES[c.kind]}${c.name === 'market_id' || c.name === 'leg_index' ? ' NOT NULL' : ''}`,
    )
    .join(', ')}, PRIMARY KEY (market_id, leg_index))`,
];

// Built after the bulk load: one sort per index is cheaper than keeping them ordered row by row.
const INDEXES = [
  'CREATE INDEX instruments_symbol ON instruments (symbol)',
  'CREATE INDEX instruments_exchange_code ON instruments (exchange_code)',
  'CREATE INDEX symbols_symbol ON symbols (symbol)',
  'CREATE INDEX spread_legs_leg_market_id ON spread_legs (leg_market_id)',
];

function insertSql(table: string, columns: readonly AnyColumn[], verb = 'INSERT'): string {
  return `${verb} INTO ${table} (${columns.map((c) => c.name).join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`;
}

function bindable(value: string | JsonNumber | null, kind: ColumnKind): SqliteValue {
  if (value === null || typeof value === 'string') return value;
  if (typeof value === 'number') return value;
  // A raw number an int64 can hold goes in exactly; anything else is a double, the best REAL can do.
  if (kind === 'integer' && INT64.test(value.text)) {
    const big = BigInt(value.text);
    if (big >= -(2n ** 63n) && big < 2n ** 63n) return big;
  }
  return Number(value);
}

function valuesOf(row: object, columns: readonly AnyColumn[]): SqliteValue[] {
  const record = row as Record<string, string | JsonNumber | null>;
  const values = new Array<SqliteValue>(columns.length);
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i] as AnyColumn;
    values[i] = bindable(record[column.key] ?? null, column.kind);
  }
  return values;
}

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

// Built in `.<name>.<random>.part` beside the target, synced, then renamed: the target is the old file or
// the whole new one. Any error removes the temp file; errors of `entries` pass through, SQLite and file
// errors become MDGET_IO. A repeated marketId replaces the earlier instrument, symbols and legs included.
/** Writes the profile tables to a new SQLite file at `targetPath` atomically; returns the row counts. */
export async function writeSqlite(
  entries: AsyncIterable<InstrumentEntry>,
  targetPath: string,
  options: SqliteOptions = {},
): Promise<SqliteCounts> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  // Global Web Crypto rather than node:crypto, as in atomic-file.ts (start-up).
  const temp = join(dirname(targetPath), `.${basename(targetPath)}.${crypto.randomUUID().slice(0, 8)}.part`);
  let db: SqliteDatabase | undefined;
  let reading = false;
  try {
    db = openSqlite(temp);
    // The file is private until the rename and deleted on failure: no journal, no sync per commit.
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF');
    // 4 MiB of page cache: rows arrive in batches and indexes are built at the end, so a larger cache buys
    // memory, not speed (bench/README.md#instruments).
    db.exec('PRAGMA locking_mode = EXCLUSIVE; PRAGMA cache_size = -4096');
    for (const statement of SCHEMA) db.exec(statement);
    const insertInstrument = db.prepare(insertSql('instruments', instrumentColumns));
    const replaceInstrument = db.prepare(insertSql('instruments', instrumentColumns, 'INSERT OR REPLACE'));
    const insertSymbol = db.prepare(insertSql('symbols', symbolColumns, 'INSERT OR REPLACE'));
    const insertLeg = db.prepare(insertSql('spread_legs', spreadLegColumns, 'INSERT OR REPLACE'));
    const dropSymbols = db.prepare('DELETE FROM symbols WHERE market_id = ?');
    const dropLegs = db.prepare('DELETE FROM spread_legs WHERE market_id = ?');

    let inBatch = 0;
    db.exec('BEGIN');
    reading = true;
    for await (const entry of entries) {
      reading = false;
      const rows = toProfileRows(entry);
      const values = valuesOf(rows.instrument, instrumentColumns);
      try {
        insertInstrument.run(...values);
      } catch (error) {
        if (!isPrimaryKeyConflict(error)) throw error;
        options.onWarning?.(
          `instruments: marketId ${rows.instrument.marketId} appears more than once; the last definition wins`,
        );
        dropSymbols.run(rows.instrument.marketId);
        dropLegs.run(rows.instrument.marketId);
        replaceInstrument.run(...values);
      }
      for (const symbol of rows.symbols) insertSymbol.run(...valuesOf(symbol, symbolColumns));
      for (const leg of rows.spreadLegs) insertLeg.run(...valuesOf(leg, spreadLegColumns));
      inBatch += 1;
      if (inBatch >= batchSize) {
        db.exec('COMMIT; BEGIN');
        inBatch = 0;
      }
      reading = true;
    }
    reading = false;
    db.exec('COMMIT');
    for (const statement of INDEXES) db.exec(statement);
    const count = (table: string) => Number(db?.prepare(`SELECT count(*) AS n FROM ${table}`).get()?.n);
    const counts = {
      instruments: count('instruments'),
      symbols: count('symbols'),
      spreadLegs: count('spread_legs'),
    };
    db.exec('PRAGMA user_version = 1');
    db.close();
    db = undefined;
    await syncFile(temp);
    await rename(temp, targetPath);
    return counts;
  } catch (error) {
    try {
      db?.close();
    } catch {
      // The temp file goes away below; a failed close cannot make things worse.
    }
    await rm(temp, { force: true });
    await rm(`${temp}-journal`, { force: true });
    if (reading || isMdgetError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new MdgetError('MDGET_IO', `sqlite: cannot write ${targetPath}: ${message}`, { cause: error });
  }
}
