import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { createGunzip } from 'node:zlib';
import type { Config } from '../model/config.js';
import { outputColumns, type RecordKind } from '../model/record-shapes.js';
import { redactUrl } from '../model/redact.js';
import { fieldKey, lastLineBefore } from '../pipeline/line-regions.js';
import type { OutputFormat } from '../pipeline/output-state.js';
import { type PlannedRequest, urlOf } from '../plan/planned-request.js';
import { formatKey, keyLength, keyTime, type Resolution, timeFieldIndex } from '../plan/series.js';
import { drained } from '../sink/atomic-file.js';
import { wallTimeOf } from '../time/time-zones.js';
import type { RequestResult } from './run-types.js';

/**
 * --update (docs/cli.md#outputs): an existing output is resumed at the time key of its last rows. Those rows
 * may be incomplete (a provisional day, a cut response), so they are fetched again: the file keeps the bytes
 * before them and the new rows follow, written to a temporary copy and renamed over it (atomic).
 */
export interface ResumePoint {
  /** The time key of the file's last rows. */
  key: string;
  /** Bytes of the file before those rows (its header included); absent for Parquet. */
  keepBytes?: number;
  /** Rows of a Parquet file before those rows (it is rewritten: update-parquet.ts). */
  keepRows?: number;
}

/** What a resume point is read with: the output's format and the record kind of its requests. */
export interface ResumeShape {
  format: OutputFormat;
  /** The file is gzip: read as a stream (it cannot be read from the end). */
  gzip?: boolean;
  kind: RecordKind;
  resolution: Resolution;
  trend: boolean;
  contract: boolean;
  /** The columns written, in order, when --columns picked them. */
  columns?: readonly string[];
  /**
   * The zone the service's times are in: a file written with --utc or --tz holds instants with an offset,
   * and its key is turned back into that wall clock, which requests are made in.
   */
  sourceZone?: string;
}

const BLOCK = 64 * 1024;

/** The resume point of an existing output, or undefined when it holds no row (it is rewritten whole). */
export async function readResumePoint(path: string, shape: ResumeShape): Promise<ResumePoint | undefined> {
  if (shape.format === 'parquet') {
    const { readParquetResumePoint } = await import('./update-parquet.js');
    return readParquetResumePoint(path, shape.resolution, shape.sourceZone);
  }
  const found = await (shape.gzip ? readGzipResumePoint(path, shape) : readPlainResumePoint(path, shape));
  return found && { ...found, key: wallKey(found.key, keyLength(shape.resolution), shape.sourceZone) };
}

async function readPlainResumePoint(path: string, shape: ResumeShape): Promise<ResumePoint | undefined> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    for (let length = Math.min(size, BLOCK); ; length = Math.min(size, length * 4)) {
      const from = size - length;
      const bytes = Buffer.alloc(length);
      await handle.read(bytes, 0, length, from);
      const found = lastGroup(bytes, from === 0, shape);
      if (found === 'more' && length < size) continue;
      return found === 'more' || found === undefined
        ? undefined
        : { key: found.key, keepBytes: from + found.start };
    }
  } finally {
    await handle.close();
  }
}

/** The key of the last rows of `bytes` and where they start; 'more' when they may begin before it. */
function lastGroup(
  bytes: Buffer,
  whole: boolean,
  shape: ResumeShape,
): { key: string; start: number } | 'more' | undefined {
  const keyOf = keyReader(shape);
  let key: string | undefined;
  let start = bytes.length;
  for (let line = lastLineBefore(bytes, bytes.length); line; line = lastLineBefore(bytes, line.start)) {
    if (line.start === 0 && !whole) return 'more'; // the first line read may be cut: read further back
    const lineKey = keyOf(bytes, line.start, line.end);
    if (lineKey === undefined || (key !== undefined && lineKey !== key)) break;
    key = lineKey;
    start = line.start;
  }
  if (key === undefined) return whole ? undefined : 'more';
  return { key, start };
}

/** How a row's time key is read in each output format; the csv header and blank lines have none. */
export function keyReader(
  shape: ResumeShape,
): (bytes: Buffer, start: number, end: number) => string | undefined {
  const length = keyLength(shape.resolution);
  if (shape.format === 'ndjson') {
    return (bytes, start, end) => {
      try {
        const record = JSON.parse(bytes.toString('utf8', start, end)) as Record<string, unknown>;
        const time = record.time ?? record.date;
        return typeof time === 'string' ? rowKey(time, length) : undefined;
      } catch {
        return undefined;
      }
    };
  }
  if (shape.format === 'raw') {
    return (bytes, start, end) => {
      const fields = bytes.toString('latin1', start, end).split(',').length;
      return validKey(fieldKey(bytes, start, end, timeFieldIndex(shape.kind, fields), length));
    };
  }
  const columns =
    shape.columns ?? outputColumns(shape.kind, { trend: shape.trend, contract: shape.contract }) ?? [];
  const index = Math.max(columns.indexOf('time'), columns.indexOf('date'));
  if (index < 0) return () => undefined; // --columns left the time out: the file is rewritten whole
  return (bytes, start, end) => {
    const key = validKey(fieldKey(bytes, start, end, index, length));
    // `T` at 10: an instant written by --utc/--tz, whose offset is at the end of the field
    if (key === undefined || key.charCodeAt(10) !== 84) return key;
    return rowKey(bytes.toString('latin1', start, end).split(',')[index] ?? '', length);
  };
}

/**
 * A row's time as a key of `length`: `2025-03-11 09:59` as written, or, for an instant written with an
 * offset (`2025-03-11T13:59:00Z`), its first `length` characters with the offset kept (`2025-03-11T13:59Z`):
 * rows of one key stay together (offsets are whole minutes) and wallKey can still place it.
 */
function rowKey(time: string, length: number): string | undefined {
  if (time.length < length || !/^\d{4}-\d{2}-\d{2}/.test(time)) return undefined;
  const offset = time.charCodeAt(10) === 84 ? /(?:Z|[+-]\d{2}:\d{2})$/.exec(time)?.[0] : undefined;
  return time.slice(0, length) + (offset ?? '');
}

/** The service's wall-clock key of a row key: an instant's in `zone`; a wall-clock key as it is. */
export function wallKey(key: string, length: number, zone: string | undefined): string {
  if (key.length === length || zone === undefined) return key.slice(0, length);
  const seconds = length === 16 ? ':00' : '';
  const instant = new Date(`${key.slice(0, length)}${seconds}${key.slice(length)}`);
  return formatKey(wallTimeOf(instant, zone), length === 16 ? 'minute' : 'second');
}

/** A key must look like a date (the header's `time` does not). */
const validKey = (key: string | undefined) =>
  key !== undefined && /^\d{4}-\d{2}-\d{2}/.test(key) ? key : undefined;

/**
 * The requests of one output from a resume point on: windows that end before it are dropped, the one it
 * falls in starts at it (the URL its report names on `config` rebuilt). Ascending order only; the CLI
 * refuses --update with desc.
 */
export function resumeItems<T extends { plan: PlannedRequest; result: RequestResult }>(
  items: readonly T[],
  resume: ResumePoint,
  config: Config,
): T[] {
  const kept: T[] = [];
  for (const item of items) {
    const series = item.plan.series;
    if (!series) continue;
    const at = keyTime(resume.key, series.resolution);
    if (series.window.end && series.window.end.getTime() <= at.getTime()) continue;
    if (kept.length === 0 && (!series.window.start || series.window.start.getTime() < at.getTime())) {
      const window = { start: at, ...(series.window.end ? { end: series.window.end } : {}) };
      const plan = { ...item.plan, series: { ...series, window } };
      kept.push({ ...item, plan, result: { ...item.result, url: redactUrl(urlOf(plan, config)) } });
      continue;
    }
    kept.push(item);
  }
  return kept;
}

/**
 * The resume point of a gzip file, in decompressed bytes: the file is read once as a stream, noting where
 * each run of one key begins; the last run is what the update fetches again.
 */
async function readGzipResumePoint(path: string, shape: ResumeShape): Promise<ResumePoint | undefined> {
  const keyOf = keyReader(shape);
  let offset = 0;
  let carry: Buffer = Buffer.alloc(0);
  let found: ResumePoint | undefined;
  for await (const chunk of createReadStream(path).pipe(createGunzip()) as AsyncIterable<Buffer>) {
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(10); end >= 0; end = bytes.indexOf(10, start)) {
      const key = keyOf(bytes, start, end);
      if (key !== undefined && key !== found?.key) found = { key, keepBytes: offset + start };
      start = end + 1;
    }
    offset += start;
    carry = Buffer.from(bytes.subarray(start));
  }
  return found;
}

/** Writes the first `bytes` decompressed bytes of a gzip file into `into` (an update's kept rows). */
export async function copyGzipPrefix(path: string, bytes: number, into: Writable): Promise<void> {
  let left = bytes;
  for await (const chunk of createReadStream(path).pipe(createGunzip()) as AsyncIterable<Buffer>) {
    if (left <= 0) break;
    const piece = chunk.length > left ? chunk.subarray(0, left) : chunk;
    left -= piece.length;
    if (!into.write(piece)) await drained(into);
  }
}
