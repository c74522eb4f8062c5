import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { describe, expect, it } from 'vitest';
import { runMain, tempDir } from '../helpers/run-cli.js';
import { withEmulator } from '../helpers/with-emulator.js';

// DuckDB is the independent reader here: another Parquet decoder than the one mdget writes with, and the
// Hive-partition reader users query mdget's folders with (docs/parquet.md).

/** Runs one query in a fresh in-memory DuckDB and returns its rows as JSON-safe objects. */
async function query(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const quote = (path: string): string => `'${path.replaceAll("'", "''")}'`;

/**
 * The rows of a Parquet file that the csv of the same download does not hold, and the reverse, with the
 * csv read as the Parquet file's column types: both empty when the two hold the same values.
 */
async function differences(parquet: string, csv: string) {
  const columns = await query(`DESCRIBE SELECT * FROM read_parquet(${quote(parquet)})`);
  const types = columns.map(
    ({ column_name, column_type }) => `${quote(String(column_name))}: '${column_type}'`,
  );
  const fromCsv = `SELECT * FROM read_csv(${quote(csv)}, header = true, auto_detect = false, columns = {${types.join(', ')}})`;
  const fromParquet = `SELECT * FROM read_parquet(${quote(parquet)})`;
  const [counts] = await query(
    `SELECT (SELECT count(*) FROM (${fromParquet})) AS parquet, (SELECT count(*) FROM (${fromCsv})) AS csv,
       (SELECT count(*) FROM (${fromParquet} EXCEPT ALL ${fromCsv})) AS only_parquet,
       (SELECT count(*) FROM (${fromCsv} EXCEPT ALL ${fromParquet})) AS only_csv`,
  );
  return counts;
}

describe('DuckDB reads every command Parquet file as the csv of the same download', () => {
  it.each([
    ['ticks', ['ticks', 'AAPL', '--start', '2025-03-13T09:30', '--end', '2025-03-13T10:00']],
    ['minutes', ['minutes', 'AAPL', 'MSFT', '--start', '2025-03-10']],
    ['minutes --nearby', ['minutes', 'ES', '--nearby', '--start', '2025-03-10']],
    ['eod', ['eod', 'AAPL', '--start', '2025-01-01', '--end', '2025-03-01']],
    ['events', ['events', 'AAPL', '--start', '2024-01-01', '--end', '2025-03-01']],
    ['futopts', ['futopts', 'ES', '--date', '2025-03-10']],
    ['daterange', ['daterange', 'minutes', 'AAPL', 'MSFT']],
    ['instruments', ['instruments', 'CME', '--table', 'symbols']],
  ])('%s', async (_name, args) => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const runs = await Promise.all([
        runMain([...args, '--format', 'csv', '-o', join(dir, 'out.csv'), '-q'], { env: emu.env, cwd: dir }),
        runMain([...args, '-o', join(dir, 'out.parquet'), '-q'], { env: emu.env, cwd: dir }),
      ]);
      expect(runs.map((r) => [r.code, r.stderr])).toEqual([
        [0, ''],
        [0, ''],
      ]);
      const counts = await differences(join(dir, 'out.parquet'), join(dir, 'out.csv'));
      expect(counts?.only_parquet).toBe('0');
      expect(counts?.only_csv).toBe('0');
      expect(counts?.parquet).toBe(counts?.csv);
      expect(Number(counts?.parquet)).toBeGreaterThan(0);
    });
  });
});

describe('a Hive-partitioned folder, as DuckDB reads it', () => {
  it('holds each symbol and day as folder values that decode to the symbol itself (ES*1, not ES_1)', async () => {
    await withEmulator({}, async (emu) => {
      const dir = tempDir();
      const args = [
        'minutes',
        'AAPL',
        'ES*1',
        '--start',
        '2025-03-10',
        '--end',
        '2025-03-12',
        '--window',
        '1d',
        '-q',
      ];
      const lake = join(dir, 'lake/symbol={symbol}/date={date}/part.parquet');
      const runs = await Promise.all([
        runMain([...args, '-o', lake], { env: emu.env, cwd: dir }),
        runMain([...args, '-o', join(dir, 'all.csv')], { env: emu.env, cwd: dir }),
      ]);
      expect(runs.map((r) => [r.code, r.stderr])).toEqual([
        [0, ''],
        [0, ''],
      ]);
      // the folders as Hive names them: `*` is %2A, and each day a folder of its own
      expect(readdirSync(join(dir, 'lake')).sort()).toEqual(['symbol=AAPL', 'symbol=ES%2A1']);
      expect(readdirSync(join(dir, 'lake/symbol=ES%2A1')).sort()).toEqual([
        'date=2025-03-10',
        'date=2025-03-11',
      ]);
      expect(existsSync(join(dir, 'lake/symbol=ES%2A1/date=2025-03-10/part.parquet'))).toBe(true);
      const files = `read_parquet(${quote(join(dir, 'lake/**/*.parquet'))}, hive_partitioning = true)`;
      const csv = `read_csv(${quote(join(dir, 'all.csv'))}, header = true)`;
      const perPartition = await query(
        `SELECT symbol, CAST(date AS VARCHAR) AS date, count(*) AS rows FROM ${files} GROUP BY ALL ORDER BY ALL`,
      );
      const perCsvDay = await query(
        `SELECT symbol, CAST(CAST(time AS DATE) AS VARCHAR) AS date, count(*) AS rows FROM ${csv} GROUP BY ALL ORDER BY ALL`,
      );
      expect(perPartition.map((row) => row.symbol)).toEqual(['AAPL', 'AAPL', 'ES*1', 'ES*1']);
      expect(perPartition).toEqual(perCsvDay);
      const [found] = await query(`SELECT count(*) AS rows FROM ${files} WHERE symbol = 'ES*1'`);
      expect(Number(found?.rows)).toBeGreaterThan(0);
    });
  });
});
