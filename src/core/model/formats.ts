/** Output formats of the download commands: csv (the default), the service's bytes, or JSON records. */
export type OutputFormat = 'csv' | 'raw' | 'ndjson' | 'json';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['csv', 'raw', 'ndjson', 'json'];
