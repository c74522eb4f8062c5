import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ColumnType } from '../../src/core/model/column-types.js';
import { plainFallbacks, usePlainFallbacks } from '../../src/core/model/fallbacks.js';
import type { Sink } from '../../src/core/sink/atomic-file.js';
import { openParquetWriter } from '../../src/core/sink/parquet/file-writer.js';
import { parquetSink } from '../../src/core/sink/parquet/parquet-sink.js';
import { readParquet } from '../helpers/parquet.js';
import { tempDir } from '../helpers/run-cli.js';

/** A sink that keeps its bytes in memory. */
function memorySink(): Sink & { bytes(): Buffer } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  return {
    stream,
    closed: false,
    commit: async () => {},
    abort: async () => {},
    bytes: () => Buffer.concat(chunks),
  };
}

const COLUMNS: { name: string; type: ColumnType }[] = [
  { name: 'symbol', type: 'string' },
  { name: 'time', type: 'timestamp' },
  { name: 'date', type: 'date' },
  { name: 'trading_day', type: 'int32' },
  { name: 'price', type: 'double' },
  { name: 'size', type: 'int64' },
];

/** Writes csv lines through a Parquet sink, in chunks cut anywhere, and reads the file back. */
async function roundTrip(
  lines: string[],
  options: { publicPath?: boolean; utc?: boolean; chunk?: number } = {},
) {
  const inner = memorySink();
  const sink = await parquetSink(inner, {
    columns: COLUMNS,
    utc: options.utc ?? false,
    compression: 'zstd',
    keyValues: [],
    createdBy: 'test',
    ...(options.publicPath ? { publicPath: true } : {}),
  });
  const text = Buffer.from(lines.map((line) => `${line}\n`).join(''));
  const size = options.chunk ?? 7;
  for (let at = 0; at < text.length; at += size) sink.stream.write(text.subarray(at, at + size));
  await sink.commit();
  const path = join(tempDir(), 'x.parquet');
  writeFileSync(path, inner.bytes());
  return readParquet(path);
}

const LINES = [
  'ESM25,2025-03-13 09:30:04.674,2025-03-13,13,5712.25,3',
  'ESM25,2025-03-13 09:30:04.7,2025-03-13,13,-0.000001,9007199254740991',
  ',2025-03-13 09:30:05,,,,',
  'ÉSM25 ünïcode,2025-03-13 09:31,1969-12-31,-1,1e-7,-42',
];

describe('the Parquet sink', () => {
  it('reads csv lines cut anywhere into typed, nullable columns; both writer paths agree', async () => {
    const fast = await roundTrip(LINES);
    const slow = await roundTrip(LINES, { publicPath: true, chunk: 3 });
    expect(fast.rows).toEqual(slow.rows);
    expect(fast.rows).toEqual([
      {
        symbol: 'ESM25',
        time: new Date('2025-03-13T09:30:04.674Z'),
        date: new Date('2025-03-13T00:00:00Z'),
        trading_day: 13,
        price: 5712.25,
        size: 3n,
      },
      {
        symbol: 'ESM25',
        time: new Date('2025-03-13T09:30:04.700Z'),
        date: new Date('2025-03-13T00:00:00Z'),
        trading_day: 13,
        price: -0.000001,
        size: 9007199254740991n,
      },
      {
        symbol: null,
        time: new Date('2025-03-13T09:30:05Z'),
        date: null,
        trading_day: null,
        price: null,
        size: null,
      },
      {
        symbol: 'ÉSM25 ünïcode',
        time: new Date('2025-03-13T09:31:00Z'),
        date: new Date('1969-12-31T00:00:00Z'),
        trading_day: -1,
        price: 1e-7,
        size: -42n,
      },
    ]);
  });

  it('MDGET_DEBUG_PLAIN=1 (the plain fallbacks) makes every Parquet output take the public writer', async () => {
    const kindOf = async () => {
      const writer = await openParquetWriter({
        columns: COLUMNS,
        utc: true,
        compression: 'none',
        keyValues: [],
        createdBy: 'test',
        send: async () => {},
      });
      return writer.constructor.name;
    };
    const before = plainFallbacks();
    try {
      usePlainFallbacks(false);
      expect(await kindOf()).toBe('FastParquetWriter');
      usePlainFallbacks(true);
      expect(await kindOf()).toBe('PublicParquetWriter');
    } finally {
      usePlainFallbacks(before);
    }
  });

  it('instants with offsets are stored in UTC', async () => {
    const file = await roundTrip(['A,2025-03-13T14:30:00.5+01:00,,,,', 'A,2025-03-13T13:30:01Z,,,,'], {
      utc: true,
    });
    expect(file.rows.map((row) => row.time)).toEqual([
      new Date('2025-03-13T13:30:00.500Z'),
      new Date('2025-03-13T13:30:01Z'),
    ]);
  });

  it('many row groups: the same rows, in order', async () => {
    const lines = Array.from({ length: 140_000 }, (_, i) => {
      const ms = 34_200_000 + i * 37;
      const time = new Date(Date.UTC(2025, 2, 13) + ms).toISOString().replace('T', ' ').slice(0, 23);
      return `S${i % 3},${time},2025-03-13,13,${(5000 + (i % 977) / 4).toFixed(2)},${i % 50}`;
    });
    const file = await roundTrip(lines, { chunk: 65_536 });
    expect(file.metadata.row_groups.length).toBe(2);
    expect(file.rows.length).toBe(lines.length);
    expect(file.rows[139_999]).toEqual({
      symbol: 'S1',
      time: new Date(Date.UTC(2025, 2, 13) + 34_200_000 + 139_999 * 37),
      date: new Date('2025-03-13T00:00:00Z'),
      trading_day: 13,
      price: 5000 + (139_999 % 977) / 4,
      size: BigInt(139_999 % 50),
    });
  });

  it.each([
    ['A,2025-03-13 09:30,2025-03-13,13,abc,1', /price.*'abc'/],
    ['A,2025-03-13 09:30,2025-03-13,13.5,1,1', /trading_day as a whole number.*'13\.5'/],
    ['A,13/03/2025,2025-03-13,13,1,1', /time as a time/],
    ['A,2025-03-13 09:30,2025-03-13,13,1', /does not fit the 6 columns/],
  ])('a value that does not fit its column fails the output: %s', async (line, message) => {
    await expect(roundTrip([line])).rejects.toThrow(message);
  });
});
