import { csvLine } from './csv.js';
import type { Exchange } from './exchanges.js';

/** Output formats of the exchanges list; `xml` is the original body, written by the caller. */
export type ExchangesFormat = 'table' | 'csv' | 'json' | 'ndjson';

type Cell = (exchange: Exchange) => string | number | boolean | string[] | undefined;

// CSV columns carry the wire names (docs/service.md#exchanges-list), so a header reads like the XML it came
// from.
const CSV_COLUMNS: readonly [string, Cell][] = [
  ['id', (e) => e.id],
  ['feedcode', (e) => e.feedcode],
  ['delay', (e) => e.delay],
  ['description', (e) => e.description],
  ['data_frequency', (e) => e.dataFrequency],
  ['snapshot_frequency', (e) => e.snapshotFrequency],
  ['codes', (e) => e.codes],
  ['feewaiver', (e) => e.feeWaiver],
  ['freedelayed', (e) => e.freeDelayed],
  ['timezone_local', (e) => e.timezoneLocal],
  ['timezone_feed', (e) => e.timezoneFeed],
  ['eod_release_time', (e) => e.eodReleaseTime],
  ['eod_cutoff_time', (e) => e.eodCutoffTime],
];

// A terminal line has room for what picks an exchange; csv and json carry everything.
const TABLE_COLUMNS: readonly [string, Cell][] = [
  ['ID', (e) => e.id],
  ['DESCRIPTION', (e) => e.description],
  ['FEED', (e) => e.feedcode],
  ['DELAY', (e) => e.delay],
  ['CODES', (e) => e.codes],
  ['TIMEZONE', (e) => e.timezoneLocal],
];

function cellText(value: ReturnType<Cell>): string {
  if (value === undefined) return '';
  return Array.isArray(value) ? value.join(',') : String(value);
}

// Control characters from the document would move the cursor or break the alignment.
const printable = (text: string) => text.replace(/[\u0000-\u001f\u007f]/g, ' ');

function table(list: readonly Exchange[]): string {
  const rows = [
    TABLE_COLUMNS.map(([title]) => title),
    ...list.map((exchange) => TABLE_COLUMNS.map(([, cell]) => printable(cellText(cell(exchange))))),
  ];
  const widths = TABLE_COLUMNS.map((_, column) => Math.max(...rows.map((row) => row[column]?.length ?? 0)));
  return rows
    .map((row) =>
      row
        .map((text, column) => text.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')
    .concat('\n');
}

/** The exchanges list rendered as `format`, ending with a newline. */
export function exchangesTo(format: ExchangesFormat, list: readonly Exchange[]): string {
  switch (format) {
    case 'table':
      return table(list);
    case 'csv':
      return (
        csvLine(CSV_COLUMNS.map(([name]) => name)) +
        list.map((exchange) => csvLine(CSV_COLUMNS.map(([, cell]) => cellText(cell(exchange))))).join('')
      );
    case 'json':
      return JSON.stringify(list, null, 2) + '\n';
    case 'ndjson':
      return list.map((exchange) => JSON.stringify(exchange) + '\n').join('');
  }
}
