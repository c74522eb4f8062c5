/**
 * The type each csv column gets in a typed output (Parquet), decided here once by the column's name
 * (records.ts COLUMNS): the time an instant or a wall-clock time, dates calendar days, prices doubles,
 * sizes, volumes and trading days integers, the rest (symbols, codes, event values) text.
 */
export type ColumnType = 'string' | 'timestamp' | 'date' | 'int32' | 'int64' | 'double';

const TYPES: Readonly<Record<string, ColumnType>> = {
  time: 'timestamp',
  // A trading day or an expiry names a calendar day, not an instant: no zone applies to it.
  date: 'date',
  expiration: 'date',
  trading_day: 'int32',
  size: 'int64',
  volume: 'int64',
  open_interest: 'int64',
  price: 'double',
  open: 'double',
  high: 'double',
  low: 'double',
  close: 'double',
  support: 'double',
  resistance: 'double',
  strike: 'double',
};

/** The typed-output type of a download's csv column. */
export const columnTypeOf = (name: string): ColumnType => TYPES[name] ?? 'string';
