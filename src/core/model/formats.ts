/** Output formats of the download commands: csv (the default), the service's bytes, JSON records, or Parquet. */
export type OutputFormat = 'csv' | 'raw' | 'ndjson' | 'json' | 'parquet';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['csv', 'raw', 'ndjson', 'json', 'parquet'];

/**
 * The format a file name asks for by its extension, when no format is given (`day.parquet`); a
 * `.parquet.gz` too, so that the rules refuse it rather than write gzipped csv under that name.
 */
export const formatOfName = (path: string): 'parquet' | undefined =>
  /\.parquet(\.gz)?$/i.test(path) ? 'parquet' : undefined;

/** How Parquet pages are compressed (docs/parquet.md). */
export type ParquetCompression = 'zstd' | 'snappy' | 'gzip' | 'none';
export const PARQUET_COMPRESSIONS: readonly ParquetCompression[] = ['zstd', 'snappy', 'gzip', 'none'];
/** zstd: the smallest files at about the speed of snappy here (docs/parquet.md). */
export const DEFAULT_PARQUET_COMPRESSION: ParquetCompression = 'zstd';
