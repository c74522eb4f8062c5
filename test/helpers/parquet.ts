import { asyncBufferFromFile, type FileMetaData, parquetMetadataAsync, parquetReadObjects } from 'hyparquet';
import { decompressors } from '../../src/core/sink/parquet/codecs.js';

/** A Parquet file as an independent reader (hyparquet) sees it: footer, and rows as objects. */
export interface ReadBack {
  metadata: FileMetaData;
  names: string[];
  rows: Record<string, unknown>[];
  /** The key/value metadata as a record. */
  keyValues: Record<string, string | undefined>;
}

// zstd as mdget loads it: its wasm fallback (Node 20) must be initialised once per process, and the
// library tests of the same process write with it
let codecs: ReturnType<typeof decompressors> | undefined;

/** Reads a whole (small) Parquet file back. */
export async function readParquet(path: string): Promise<ReadBack> {
  codecs ??= decompressors();
  const file = await asyncBufferFromFile(path);
  const metadata = await parquetMetadataAsync(file);
  const rows = await parquetReadObjects({
    file,
    metadata,
    compressors: await codecs,
  });
  const keyValues = Object.fromEntries(
    (metadata.key_value_metadata ?? []).map(({ key, value }) => [key, value]),
  );
  return { metadata, names: metadata.schema.slice(1).map(({ name }) => name), rows, keyValues };
}

/** Rows of a csv text (RFC 4180 quoting), header first. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else if (ch !== '\r') field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** The Parquet type a column was written with, as one word: STRING, DOUBLE, INT64, INT32, DATE, TIMESTAMP(UTC|wall). */
export function typeOf(metadata: FileMetaData, name: string): string {
  const element = metadata.schema.find((e) => e.name === name);
  const logical = element?.logical_type;
  if (logical?.type === 'TIMESTAMP')
    return `TIMESTAMP(${logical.isAdjustedToUTC ? 'UTC' : 'wall'},${logical.unit})`;
  if (logical?.type === 'DATE' || logical?.type === 'STRING') return logical.type;
  return element?.type ?? 'missing';
}

/**
 * Whether a value read back equals the csv field it was written from: empty is null; numbers, dates and
 * times parsed from the text (a wall-clock time as if it were UTC, as the file stores it).
 */
export function sameValue(value: unknown, text: string, type: string): boolean {
  if (text === '') return value === null || value === undefined;
  switch (type) {
    case 'STRING':
    case 'BYTE_ARRAY':
      return value === text;
    case 'DOUBLE':
      return value === Number(text);
    case 'INT64':
      return value === BigInt(text);
    case 'INT32':
      return value === Number(text);
    case 'DATE':
      return value instanceof Date && value.toISOString().slice(0, 10) === text;
    case 'TIMESTAMP(UTC,MILLIS)':
      return value instanceof Date && value.getTime() === Date.parse(text);
    case 'TIMESTAMP(wall,MILLIS)':
      return value instanceof Date && value.getTime() === Date.parse(`${text.replace(' ', 'T')}Z`);
    default:
      return false;
  }
}
