import type { Writable } from 'node:stream';
import type { AsyncBuffer, FileMetaData } from 'hyparquet';
import { MdgetError } from '../model/errors.js';
import { formatKey, type Resolution } from '../plan/series.js';
import { drained } from '../sink/atomic-file.js';
import { wallTimeOf } from '../time/time-zones.js';

/**
 * --update of a Parquet output. A Parquet file cannot be appended to (its footer is at the end), so the
 * update rewrites it: the rows before the resume key are read back with hyparquet, one row group at a
 * time, and written again ahead of the new rows into the temporary file that replaces it (atomic).
 */

interface OpenedFile {
  file: AsyncBuffer;
  metadata: FileMetaData;
  names: string[];
  /** The time column holds instants (TIMESTAMP adjusted to UTC), else wall-clock times. */
  utc: boolean;
}

async function openFile(path: string): Promise<OpenedFile> {
  const { asyncBufferFromFile, parquetMetadataAsync } = await import('hyparquet');
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const names = metadata.schema.slice(1).map((element) => element.name);
  const time = metadata.schema.find((element) => element.name === 'time');
  const utc = time?.logical_type?.type === 'TIMESTAMP' && time.logical_type.isAdjustedToUTC;
  return { file, metadata, names, utc };
}

async function readRows(
  opened: OpenedFile,
  rowStart: number,
  rowEnd: number,
  columns?: string[],
): Promise<Record<string, unknown>[]> {
  const [{ parquetReadObjects }, { decompressors }] = await Promise.all([
    import('hyparquet'),
    import('../sink/parquet/codecs.js'),
  ]);
  return parquetReadObjects({
    file: opened.file,
    metadata: opened.metadata,
    rowStart,
    rowEnd,
    compressors: await decompressors(),
    ...(columns ? { columns } : {}),
  });
}

/**
 * The resume point of a Parquet file: the wall-clock key of its last rows (instants are turned back into
 * `sourceZone`, where requests are made) and how many rows come before them; undefined when the file has
 * no row or no time column (it is rewritten whole). With `[rowStart, rowEnd)`, of those rows only (one
 * symbol's, in a file of several).
 */
export async function readParquetResumePoint(
  path: string,
  resolution: Resolution,
  sourceZone: string | undefined,
  rowStart = 0,
  rowEnd?: number,
): Promise<{ key: string; keepRows: number } | undefined> {
  const opened = await openFile(path);
  const column = opened.names.includes('time') ? 'time' : opened.names.includes('date') ? 'date' : undefined;
  if (column === undefined) return undefined;
  const keyOf = (value: unknown): string | undefined => {
    if (!(value instanceof Date)) return undefined;
    const wall = opened.utc && column === 'time' && sourceZone ? wallTimeOf(value, sourceZone) : value;
    return formatKey(wall, resolution);
  };
  let key: string | undefined;
  let end = Number(opened.metadata.num_rows);
  const last = Math.min(rowEnd ?? end, end);
  // row groups from the last: the last key's rows may begin in an earlier one
  for (const group of [...opened.metadata.row_groups].reverse()) {
    const start = end - Number(group.num_rows);
    const from = Math.max(start, rowStart);
    const to = Math.min(end, last);
    end = start;
    if (from >= to) continue;
    const rows = await readRows(opened, from, to, [column]);
    for (let i = rows.length - 1; i >= 0; i--) {
      const rowKey = keyOf(rows[i]?.[column]);
      if (rowKey === undefined) continue;
      if (key !== undefined && rowKey !== key) return { key, keepRows: from + i + 1 };
      key = rowKey;
    }
  }
  return key === undefined ? undefined : { key, keepRows: rowStart };
}

/**
 * Writes the rows [from, to) of a Parquet file into `into` as the csv lines the Parquet sink reads, with
 * the file's columns, which must be the output's (`columns`) and of the same time semantics (`utc`).
 */
export async function copyParquetRows(
  path: string,
  from: number,
  to: number,
  into: Writable,
  columns: readonly string[],
  utc: boolean,
): Promise<void> {
  const opened = await openFile(path);
  // dates alone carry no zone: only a time column can disagree on it
  const sameTimes = !opened.names.includes('time') || opened.utc === utc;
  if (opened.names.join(',') !== columns.join(',') || !sameTimes) {
    throw new MdgetError(
      'MDGET_IO',
      `${path} holds other columns or times (${opened.names.join(',')}${opened.utc ? ', instants' : ''}) than this download writes: add the same --columns, --utc or --tz, or start a new file`,
    );
  }
  let start = 0;
  for (const group of opened.metadata.row_groups) {
    const groupEnd = start + Number(group.num_rows);
    const [first, end] = [Math.max(start, from), Math.min(groupEnd, to)];
    start = groupEnd;
    if (first >= end) continue;
    const lines = (await readRows(opened, first, end)).map((row) =>
      opened.names.map((name) => fieldText(row[name], name)).join(','),
    );
    if (!into.write(`${lines.join('\n')}\n`)) await drained(into);
  }
}

/** A value read back as the csv text mdget would have written (times as the Parquet sink reads them). */
function fieldText(value: unknown, name: string): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) {
    const iso = value.toISOString();
    if (name !== 'time') return iso.slice(0, 10);
    return iso;
  }
  return String(value);
}
