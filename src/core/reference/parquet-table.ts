import type { Writable } from 'node:stream';
import type { ColumnType } from '../model/column-types.js';
import { MdgetError } from '../model/errors.js';
import { DEFAULT_PARQUET_COMPRESSION, type ParquetCompression } from '../model/formats.js';
import { writeTo } from '../sink/atomic-file.js';
import type { InstrumentEntry } from './instrument-stream.js';
import { type JsonNumber, numberText } from './lossless-json.js';
import { toProfileRows } from './profile-rows.js';
import {
  type Column,
  type ColumnKind,
  instrumentColumns,
  type ProfileRows,
  type ProfileTable,
  spreadLegColumns,
  symbolColumns,
} from './profile-tables.js';

type AnyColumn = Column<never>;

/** Parquet types of the profile tables' column kinds: integers int64, reals double, JSON as its text. */
const TYPES: Record<ColumnKind, ColumnType> = {
  text: 'string',
  integer: 'int64',
  real: 'double',
  json: 'string',
};

const TABLES: Record<ProfileTable, [readonly AnyColumn[], (rows: ProfileRows) => readonly object[]]> = {
  instruments: [instrumentColumns, (rows) => [rows.instrument]],
  symbols: [symbolColumns, (rows) => rows.symbols],
  spread_legs: [spreadLegColumns, (rows) => rows.spreadLegs],
};

/** Bytes of text a row group of a profile table holds at most: descriptions make wide rows. */
const ROW_GROUP_BYTES = 32 * 1024 * 1024;

/**
 * One profile table as Parquet (columns as in csv, typed as SQLite types them), row groups written as the
 * entries stream in; returns the entry count. The writer is loaded here, only for this format.
 */
export async function writeParquetTable(
  entries: AsyncIterable<InstrumentEntry>,
  out: Writable,
  table: ProfileTable = 'instruments',
  compression: ParquetCompression = DEFAULT_PARQUET_COMPRESSION,
): Promise<number> {
  const [{ ColumnBatch }, { openParquetWriter }, { ROW_GROUP_ROWS }] = await Promise.all([
    import('../sink/parquet/column-batch.js'),
    import('../sink/parquet/file-writer.js'),
    import('../sink/parquet/parquet-sink.js'),
  ]);
  const [columns, pick] = TABLES[table];
  const schema = columns.map((column) => ({ name: column.name, type: TYPES[column.kind] }));
  const writer = await openParquetWriter({
    columns: schema,
    utc: true,
    compression,
    keyValues: [{ key: 'mdget.table', value: table }],
    createdBy: 'mdget',
    send: (bytes) => writeTo(out, bytes),
  });
  const batch = new ColumnBatch(schema);
  let count = 0;
  for await (const entry of entries) {
    for (const row of pick(toProfileRows(entry))) {
      const record = row as Record<string, string | JsonNumber | null | undefined>;
      batch.reserve();
      const at = batch.rows;
      columns.forEach((column, c) => {
        const value = record[column.key];
        if (value === null || value === undefined) batch.setNull(c, at);
        else if (column.kind === 'text' || column.kind === 'json') {
          const text = String(value);
          batch.setString(c, at, text);
          batch.bytes += text.length;
        } else batch.setNumber(c, at, numberOf(value, column));
      });
      batch.rows = at + 1;
      if (batch.rows >= ROW_GROUP_ROWS || batch.bytes >= ROW_GROUP_BYTES) {
        await writer.writeRowGroup(batch);
        batch.clear();
      }
    }
    count += 1;
  }
  await writer.writeRowGroup(batch);
  await writer.finish();
  return count;
}

function numberOf(value: string | JsonNumber, column: AnyColumn): number {
  const number = Number(numberText(value));
  if (Number.isNaN(number) || (column.kind === 'integer' && !Number.isSafeInteger(number)))
    throw new MdgetError(
      'MDGET_SERVICE',
      `${column.name} '${numberText(value)}' does not fit a Parquet ${TYPES[column.kind] === 'int64' ? 'int64' : 'double'}: write csv or sqlite instead`,
    );
  return number;
}
