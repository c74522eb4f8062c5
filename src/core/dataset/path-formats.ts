import type { MdgetError } from '../model/errors.js';
import type { OutputFormat } from '../model/formats.js';

/** What each file extension of a series path writes. */
const SERIES_EXTENSIONS: Record<string, OutputFormat> = {
  csv: 'csv',
  ndjson: 'ndjson',
  jsonl: 'ndjson',
  json: 'json',
  txt: 'raw',
  parquet: 'parquet',
};

const extensionOf = (path: string): string => /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';

/** A series path's format and compression, from its extension (`.csv.gz`: csv, compressed). */
export function formatOfPath(
  path: string,
  fail: (message: string) => MdgetError,
): { format: OutputFormat; gzip: boolean } {
  const gzip = /\.gz$/i.test(path);
  const ext = extensionOf(gzip ? path.slice(0, -3) : path);
  const format = SERIES_EXTENSIONS[ext];
  if (!format)
    throw fail(
      `path ${path}: its extension sets the format: end it in ${Object.keys(SERIES_EXTENSIONS)
        .map((e) => `.${e}`)
        .join(', ')} (each optionally .gz)`,
    );
  return { format, gzip };
}

/** The formats of reference files, by extension: the exchanges list and the instruments tables. */
export const REFERENCE_FORMATS = {
  exchanges: pick({ xml: 'xml', csv: 'csv', json: 'json', ndjson: 'ndjson' }),
  instruments: pick({
    sqlite: 'sqlite',
    db: 'sqlite',
    ndjson: 'ndjson',
    json: 'json',
    csv: 'csv',
    parquet: 'parquet',
  }),
};

function pick(table: Record<string, string>) {
  return (path: string, fail: (message: string) => MdgetError): string => {
    const format = table[extensionOf(path)];
    if (!format)
      throw fail(
        `${path}: its extension sets the format: end it in ${Object.keys(table)
          .map((e) => `.${e}`)
          .join(', ')}`,
      );
    return format;
  };
}
