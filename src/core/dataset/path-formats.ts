import type { MdgetError } from '../model/errors.js';
import { formOfName, NAMED_FORMATS, type OutputFormat } from '../model/formats.js';

const extensionOf = (path: string): string => /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? '';

/**
 * A series path's format and compression, from its name as every output's (model/formats.ts); a path
 * must name one, since a series has no format of its own.
 */
export function formatOfPath(
  path: string,
  fail: (message: string) => MdgetError,
): { format: OutputFormat; gzip: boolean } {
  const { format, gzip } = formOfName(path);
  if (!format)
    throw fail(
      `path ${path}: its extension sets the format: end it in ${Object.keys(NAMED_FORMATS)
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
