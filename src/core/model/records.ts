/**
 * The columns of every record an output can hold, declared once as constants: the csv headers come from
 * them (record-shapes.ts), and so do the record types library callers get (`bar.close` is a number).
 */
import type { DownloadName } from './options.js';

const OHLCV = ['open', 'high', 'low', 'close', 'volume'] as const;

/** The columns of each output shape (docs/formats.md). */
export const COLUMNS = {
  ticks: ['symbol', 'time', 'trading_day', 'session_code', 'price', 'size'],
  ticksTrend: ['symbol', 'time', 'trading_day', 'session_code', 'support', 'resistance'],
  minutes: ['symbol', 'time', 'trading_day', ...OHLCV],
  minutesContract: ['symbol', 'contract', 'time', 'trading_day', ...OHLCV],
  minutesTrend: ['symbol', 'time', 'support', 'resistance'],
  eod: ['symbol', 'date', ...OHLCV, 'open_interest'],
  eodTrend: ['symbol', 'date', 'support', 'resistance'],
  events: ['symbol', 'date', 'event_type', 'value'],
  dateRange: ['symbol', 'first', 'last'],
  futuresOptions: [
    'symbol',
    'underlying',
    'type',
    'strike',
    'expiration',
    'date',
    'open',
    'high',
    'low',
    'close',
    'volume',
    'open_interest',
  ],
} as const;

/** Columns that hold codes, names or times, written as strings in JSON even when they look numeric. */
export const TEXT_COLUMNS = [
  'symbol',
  'contract',
  'session_code',
  'value',
  'underlying',
  'time',
  'date',
  'event_type',
  'first',
  'last',
  'type',
  'expiration',
] as const;

/** Whether a column holds text (a code, a name, a time) rather than a number. */
export const isTextColumn = (name: string): boolean => (TEXT_COLUMNS as readonly string[]).includes(name);

type TextColumn = (typeof TEXT_COLUMNS)[number];

/** One record of a shape: text columns as strings, the others as numbers; an empty field is null. */
export type RecordWith<C extends readonly string[]> = {
  [K in C[number]]: (K extends TextColumn ? string : number) | null;
};

/** The records each download command yields, one type per shape its responses can take. */
export interface Records {
  ticks: RecordWith<typeof COLUMNS.ticks> | RecordWith<typeof COLUMNS.ticksTrend>;
  minutes:
    | RecordWith<typeof COLUMNS.minutes>
    | RecordWith<typeof COLUMNS.minutesContract>
    | RecordWith<typeof COLUMNS.minutesTrend>;
  eod: RecordWith<typeof COLUMNS.eod> | RecordWith<typeof COLUMNS.eodTrend>;
  events: RecordWith<typeof COLUMNS.events>;
  /** Lines of another shape pass through with keys field1, field2, … */
  daterange: RecordWith<typeof COLUMNS.dateRange> | Record<string, string | number | null>;
  /** With `json`, the service's own objects. */
  futopts: RecordWith<typeof COLUMNS.futuresOptions> | Record<string, unknown>;
}

/** The record type of download command `N`. */
export type RecordOf<N extends DownloadName> = Records[N];
