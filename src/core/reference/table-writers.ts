import type { Writable } from 'node:stream';
import { releaseChunk, releaseChunks, takeChunk, trimChunk } from '../buffers/chunk-pool.js';
import { MdgetError } from '../model/errors.js';
import { csvField, csvLine } from './csv.js';
import type { InstrumentEntry } from './instrument-stream.js';
import { type JsonNumber, numberText, stringifyLossless } from './lossless-json.js';
import { toProfileRows } from './profile-rows.js';
import {
  type Column,
  instrumentColumns,
  type ProfileRows,
  type ProfileTable,
  spreadLegColumns,
  symbolColumns,
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

// Rows are encoded straight into a buffer of this size: no string of the batch is ever built, and each
// write hands the stream one buffer. Two buffers at most are alive here, so memory stays flat.
const BATCH_BYTES = 256 * 1024;
const NO_BATCH = Buffer.alloc(0);
// A UTF-16 code unit takes at most three UTF-8 bytes (a surrogate pair, two units, takes four).
const MAX_BYTES_PER_UNIT = 3;

/** Encodes text into batches of BATCH_BYTES for `out`, waiting for 'drain' whenever `out` asks for it. */
class BatchedWriter {
  private buffer = takeChunk(BATCH_BYTES);
  private used = 0;
  private full: Buffer | undefined;
  constructor(private readonly out: Writable) {}

  /** Appends `text`; true when a batch is full and `flush()` should be awaited before more text. */
  add(text: string): boolean {
    if (text.length * MAX_BYTES_PER_UNIT > this.buffer.length - this.used) this.seal(text);
    else this.used += this.buffer.write(text, this.used);
    return this.full !== undefined;
  }

  /** Appends `text` and a line feed; true when `flush()` should be awaited. */
  addLine(text: string): boolean {
    if ((text.length + 1) * MAX_BYTES_PER_UNIT > this.buffer.length - this.used) return this.add(`${text}\n`);
    this.used += this.buffer.write(text, this.used);
    this.buffer[this.used++] = 0x0a;
    return this.full !== undefined;
  }

  /** Sends the full batch, or with `all` whatever is buffered. */
  async flush(all = false): Promise<void> {
    const full = this.full;
    this.full = undefined;
    if (full !== undefined) await this.send(full);
    if (all) {
      const rest = this.cut(false);
      if (rest) await this.send(rest);
    }
  }

  private seal(text: string): void {
    const pending = this.full === undefined ? [] : [this.full];
    const gathered = this.cut(true);
    if (gathered) pending.push(gathered);
    if (text.length * MAX_BYTES_PER_UNIT > BATCH_BYTES) pending.push(Buffer.from(text));
    else this.used = this.buffer.write(text);
    this.full = pending.length === 1 ? pending[0] : Buffer.concat(pending);
    if (pending.length > 1) releaseChunks(pending); // copied
  }

  /**
   * The bytes gathered so far, and a new batch to gather into when `more` is to come (after the last
   * flush, none: a later add seals the empty one and takes a batch). A batch is a pooled chunk
   * (chunk-pool.ts): the stream may keep a written buffer after its callback (coalescing file writes
   * do), so a batch is reused only once the writer gives it back.
   */
  private cut(more: boolean): Buffer | undefined {
    const gathered = this.used > 0 ? trimChunk(this.buffer, this.used) : undefined;
    if (!gathered) releaseChunk(this.buffer);
    this.buffer = more ? takeChunk(BATCH_BYTES) : NO_BATCH;
    this.used = 0;
    return gathered;
  }

  private async send(chunk: Buffer): Promise<void> {
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

/** One CSV record of `row` without its line end, fields per csv.ts. */
function csvRow(row: AnyRow, columns: readonly AnyColumn[]): string {
  const record = row as Record<string, Cell | undefined>;
  let line = '';
  for (let i = 0; i < columns.length; i++) {
    if (i > 0) line += ',';
    const value = record[(columns[i] as AnyColumn).key];
    // A number's text (plain or raw) never holds a comma, a quote or a line break.
    if (typeof value === 'string') line += csvField(value);
    else if (value !== null && value !== undefined) line += numberText(value);
  }
  return line;
}

/** The `"name":` prefixes of a table's JSON rows, built once. */
const jsonKeys = (columns: readonly AnyColumn[]) =>
  columns.map((column) => `${JSON.stringify(column.name)}:`);

function jsonCell(value: Cell | undefined, column: AnyColumn): string {
  if (value === null || value === undefined) return 'null';
  if (column.kind === 'json') return String(value);
  return column.kind === 'text' ? JSON.stringify(String(value)) : (numberText(value) ?? 'null');
}

/** The JSON object of `row` without its closing brace: columns in order, per their kind. */
function jsonRowOpen(row: AnyRow, columns: readonly AnyColumn[], keys: readonly string[]): string {
  const record = row as Record<string, Cell | undefined>;
  let text = '{';
  for (let i = 0; i < columns.length; i++) {
    const column = columns[i] as AnyColumn;
    text += (i > 0 ? ',' : '') + keys[i] + jsonCell(record[column.key], column);
  }
  return text;
}

const tables: Record<ProfileTable, [readonly AnyColumn[], (rows: ProfileRows) => readonly AnyRow[]]> = {
  instruments: [instrumentColumns, (rows) => [rows.instrument]],
  symbols: [symbolColumns, (rows) => rows.symbols],
  spread_legs: [spreadLegColumns, (rows) => rows.spreadLegs],
};

const nested = (columns: readonly AnyColumn[]) => columns.filter((column) => column.name !== 'market_id');
const INSTRUMENT_KEYS = jsonKeys(instrumentColumns);
const NESTED_SYMBOLS = nested(symbolColumns);
const NESTED_SYMBOL_KEYS = jsonKeys(NESTED_SYMBOLS);
const NESTED_LEGS = nested(spreadLegColumns);
const NESTED_LEG_KEYS = jsonKeys(NESTED_LEGS);

function jsonRows(rows: readonly AnyRow[], columns: readonly AnyColumn[], keys: readonly string[]): string {
  let text = '';
  for (let i = 0; i < rows.length; i++)
    text += (i > 0 ? ',' : '') + jsonRowOpen(rows[i] as AnyRow, columns, keys) + '}';
  return text;
}

/** Every entry as one line of lossless JSON, exactly as read (ids and numbers byte for byte); returns the count. */
export async function writeNdjson(entries: AsyncIterable<InstrumentEntry>, out: Writable): Promise<number> {
  const writer = new BatchedWriter(out);
  let count = 0;
  for await (const entry of entries) {
    if (writer.addLine(stringifyLossless(entry))) await writer.flush();
    count += 1;
  }
  await writer.flush(true);
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
  writer.add(csvLine(columns.map((column) => column.name)));
  let count = 0;
  for await (const entry of entries) {
    for (const row of pick(toProfileRows(entry))) {
      if (writer.addLine(csvRow(row, columns))) await writer.flush();
    }
    count += 1;
  }
  await writer.flush(true);
  return count;
}

// Nested rather than three top-level arrays so it streams in one pass; nested rows omit the parent's market_id.
/** A JSON array, one instrument row per line with its `symbols` and `spread_legs` nested; returns the count. */
export async function writeJson(entries: AsyncIterable<InstrumentEntry>, out: Writable): Promise<number> {
  const writer = new BatchedWriter(out);
  let count = 0;
  for await (const entry of entries) {
    const rows = toProfileRows(entry);
    const head = jsonRowOpen(rows.instrument, instrumentColumns, INSTRUMENT_KEYS);
    const symbols = jsonRows(rows.symbols, NESTED_SYMBOLS, NESTED_SYMBOL_KEYS);
    const legs = jsonRows(rows.spreadLegs, NESTED_LEGS, NESTED_LEG_KEYS);
    const full = writer.add(
      `${count === 0 ? '[\n' : ',\n'}${head},"symbols":[${symbols}],"spread_legs":[${legs}]}`,
    );
    if (full) await writer.flush();
    count += 1;
  }
  writer.add(count === 0 ? '[]\n' : '\n]\n');
  await writer.flush(true);
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
