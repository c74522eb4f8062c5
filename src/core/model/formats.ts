/** Output formats of the download commands: csv (the default), the service's bytes, JSON records, or Parquet. */
export type OutputFormat = 'csv' | 'raw' | 'ndjson' | 'json' | 'parquet';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['csv', 'raw', 'ndjson', 'json', 'parquet'];

/**
 * What each file extension names, the one table for every surface: `-o`, a template, a dataset's `path`
 * and the library's `download()` (docs/cli.md#outputs). `.txt` holds the service's bytes as they come.
 */
export const NAMED_FORMATS: Readonly<Record<string, OutputFormat>> = {
  csv: 'csv',
  ndjson: 'ndjson',
  jsonl: 'ndjson',
  json: 'json',
  txt: 'raw',
  parquet: 'parquet',
};

/** The format and compression a file name or template asks for. */
export interface NamedForm {
  /** Absent when the extension is none of NAMED_FORMATS (a template's `{ext}`, `.dat`, no extension). */
  format?: OutputFormat;
  /** The name ends in `.gz`. */
  gzip: boolean;
}

/** The form a name asks for, decided here for every surface: `day.csv.gz` is csv, compressed. */
export function formOfName(name: string): NamedForm {
  const gzip = /\.gz$/i.test(name);
  const ext = /\.([A-Za-z0-9]+)$/.exec(gzip ? name.slice(0, -3) : name)?.[1]?.toLowerCase() ?? '';
  const format = Object.hasOwn(NAMED_FORMATS, ext) ? NAMED_FORMATS[ext] : undefined;
  return format === undefined ? { gzip } : { format, gzip };
}

/**
 * Whether a format may be written under a name that asks for `named`: the same one, or raw under a text
 * name (the service's bytes are csv or JSON text).
 */
export const formatFitsName = (format: OutputFormat, named: OutputFormat): boolean =>
  format === named || (format === 'raw' && named !== 'parquet');

/**
 * The format a file name asks for by its extension, when no format is given (`day.parquet`); a
 * `.parquet.gz` too, so that the rules refuse it rather than write gzipped csv under that name.
 */
export const formatOfName = (path: string): 'parquet' | undefined =>
  formOfName(path).format === 'parquet' ? 'parquet' : undefined;

/** How Parquet pages are compressed (docs/parquet.md). */
export type ParquetCompression = 'zstd' | 'snappy' | 'gzip' | 'none';
export const PARQUET_COMPRESSIONS: readonly ParquetCompression[] = ['zstd', 'snappy', 'gzip', 'none'];
/** zstd: the smallest files at about the speed of snappy here (docs/parquet.md). */
export const DEFAULT_PARQUET_COMPRESSION: ParquetCompression = 'zstd';
