import type { Writable } from 'node:stream';
import { MdgetError } from '../errors.js';
import { csvLine } from './csv.js';
import type { InstrumentEntry } from './instrument-stream.js';
import { type JsonNumber, numberText, stringifyLossless } from './lossless-json.js';
import {
  type Column,
  instrumentColumns,
  type ProfileRows,
  type ProfileTable,
  spreadLegColumns,
  symbolColumns,
  toProfileRows,
} from './profile-tables.js';

/** Stream formats of the profile tables; `sqlite` has its own writer (sqlite-writer.ts). */
export type TableStreamFormat = 'ndjson' | 'csv' | 'json';

/** Options of the stream writers: `table` picks the table that `csv` writes (default `instruments`). */
export interface TableWriteOptions {
  table?: ProfileTable;
}

type Cell = string | JsonNumber | null;
// Rows are plain records whose columns are declared once in profile-tables.ts.
type AnyRow = object;
// keyof never is every key, so this accepts the columns of any row type.
type AnyColumn = Column<never>;

// Batching turns many small lines into few writes; the batch is bounded, so memory stays flat.
const BATCH_CHARS = 64 * 1024;

/** Writes text to `out` in batches, waiting for 'drain' whenever `out` asks for it. */
class BatchedWriter {
  private pending = '';
  constructor(private readonly out: Writable) {}

  async write(text: string): Promise<void> {
    this.pending += text;
    if (this.pending.length >= BATCH_CHARS) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pending === '') return;
    const chunk = this.pending;
    this.pending = '';
    if (this.out.destroyed || this.out.writableEnded) {
      throw new MdgetError('MDGET_IO', 'output: the destination closed before all data was written');
    }
    if (!this.out.write(chunk)) await drained(this.out);
  }
}

function drained(out: Writable): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = (error?: unknown) => {
      out.off('drain', onDrain).off('error', onError).off('close', onClose);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onDrain = () => done();
    const onError = (error: unknown) => done(error);
    const onClose = () =>
      done(new MdgetError('MDGET_IO', 'output: the destination closed before all data was written'));
    out.on('drain', onDrain).on('error', onError).on('close', onClose);
  });
}

function cellOf(row: AnyRow, column: AnyColumn): Cell {
  return (row as Record<string, Cell>)[column.key] ?? null;
}

function csvCell(value: Cell): string {
  return value === null ? '' : (numberText(value) ?? '');
}

function jsonCell(value: Cell, column: AnyColumn): string {
  if (value === null) return 'null';
  if (column.kind === 'json') return String(value);
  return column.kind === 'text' ? JSON.stringify(String(value)) : (numberText(value) ?? 'null');
}

function jsonRow(row: AnyRow, columns: readonly AnyColumn[]): string {
  return `{${columns.map((column) => `${JSON.stringify(column.name)}:${jsonCell(cellOf(row, column), column)}`).join(',')}}`;
}

const tables: Record<ProfileTable, [readonly AnyColumn[], (rows: ProfileRows) => readonly AnyRow[]]> = {
  instruments: [instrumentColumns, (rows) => [rows.instrument]],
  symbols: [symbolColumns, (rows) => rows.symbols],
  spread_legs: [spreadLegColumns, (rows) => rows.spreadLegs],
};

const nested = (columns: readonly AnyColumn[]) => columns.filter((column) => column.name !== 'market_id');
const NESTED_SYMBOLS = nested(symbolColumns);
const NESTED_LEGS = nested(spreadLegColumns);

/** Every entry as one line of lossless JSON, exactly as read (ids and numbers byte for byte); returns the count. */
export async function writeNdjson(entries: AsyncIterable<InstrumentEntry>, out: Writable): Promise<number> {
  const writer = new BatchedWriter(out);
  let count = 0;
  for await (const entry of entries) {
    await writer.write(stringifyLossless(entry) + '\n');
    count += 1;
  }
  await writer.flush();
  return count;
}

/** One profile table as CSV with a header line (columns of profile-tables.ts); returns the entry count. */
export async function writeCsv(
  entries: AsyncIterable<InstrumentEntry>,
  out: Writable,
  table: ProfileTable = 'instruments',
): Promise<number> {
  const [columns, pick] = tables[table];
  const writer = new BatchedWriter(out);
  await writer.write(csvLine(columns.map((column) => column.name)));
  let count = 0;
  for await (const entry of entries) {
    for (const row of pick(toProfileRows(entry))) {
      await writer.write(csvLine(columns.map((column) => csvCell(cellOf(row, column)))));
    }
    count += 1;
  }
  await writer.flush();
  return count;
}

// Nested rather than three top-level arrays so it streams in one pass; nested rows omit the parent's market_id.
/** A JSON array, one instrument row per line with its `symbols` and `spread_legs` nested; returns the count. */
export async function writeJson(entries: AsyncIterable<InstrumentEntry>, out: Writable): Promise<number> {
  const writer = new BatchedWriter(out);
  let count = 0;
  for await (const entry of entries) {
    const rows = toProfileRows(entry);
    const head = jsonRow(rows.instrument, instrumentColumns);
    const symbols = rows.symbols.map((row) => jsonRow(row, NESTED_SYMBOLS)).join(',');
    const legs = rows.spreadLegs.map((row) => jsonRow(row, NESTED_LEGS)).join(',');
    await writer.write(
      `${count === 0 ? '[\n' : ',\n'}${head.slice(0, -1)},"symbols":[${symbols}],"spread_legs":[${legs}]}`,
    );
    count += 1;
  }
  await writer.write(count === 0 ? '[]\n' : '\n]\n');
  await writer.flush();
  return count;
}

/** Writes `entries` to `out` as `format` (see each writer); `out` is left open for the caller to finish. */
export function writeTables(
  format: TableStreamFormat,
  entries: AsyncIterable<InstrumentEntry>,
  out: Writable,
  options: TableWriteOptions = {},
): Promise<number> {
  switch (format) {
    case 'ndjson':
      return writeNdjson(entries, out);
    case 'csv':
      return writeCsv(entries, out, options.table);
    case 'json':
      return writeJson(entries, out);
  }
}
