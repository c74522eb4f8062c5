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
const TEXT_COLUMNS = [
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

/**
 * Columns a record always has a value in: the symbol mdget adds, and what names a record (its time, day,
 * contract, kind, strike). The service may leave any other field empty (docs/formats.md#json-typing).
 */
type KeyColumn =
  | 'symbol'
  | 'contract'
  | 'time'
  | 'trading_day'
  | 'date'
  | 'event_type'
  | 'first'
  | 'last'
  | 'underlying'
  | 'type'
  | 'strike'
  | 'expiration';

/** One record of a shape: text columns as strings, the others as numbers; an empty field is null. */
export type RecordWith<C extends readonly string[]> = {
  [K in C[number]]: (K extends TextColumn ? string : number) | (K extends KeyColumn ? never : null);
};

export type TickRecord = RecordWith<typeof COLUMNS.ticks>;
export type TickTrendRecord = RecordWith<typeof COLUMNS.ticksTrend>;
export type MinuteRecord = RecordWith<typeof COLUMNS.minutes>;
export type NearbyMinuteRecord = RecordWith<typeof COLUMNS.minutesContract>;
export type MinuteTrendRecord = RecordWith<typeof COLUMNS.minutesTrend>;
export type EodRecord = RecordWith<typeof COLUMNS.eod>;
export type EodTrendRecord = RecordWith<typeof COLUMNS.eodTrend>;
export type EventRecord = RecordWith<typeof COLUMNS.events>;
export type DateRangeRecord = RecordWith<typeof COLUMNS.dateRange>;
export type FuturesOptionRecord = RecordWith<typeof COLUMNS.futuresOptions>;

/** Every record type each download command can yield, whatever its query. */
export interface Records {
  ticks: TickRecord | TickTrendRecord;
  minutes: MinuteRecord | NearbyMinuteRecord | MinuteTrendRecord;
  eod: EodRecord | EodTrendRecord;
  events: EventRecord;
  /** Lines of another shape pass through with keys field1, field2, … */
  daterange: DateRangeRecord | Record<string, string | number | null>;
  /** With `json`, the service's own objects. */
  futopts: FuturesOptionRecord | Record<string, unknown>;
}

/** The record type of download command `N`, for any query. */
export type RecordOf<N extends DownloadName> = Records[N];

// Keys are looked up rather than matched against `{ trend?: false }`: a query without the key would fail
// that match, since TypeScript finds no property in common with a type whose properties are all optional.

/** `Plain` for a query without the flag `F`, `Flagged` with it, either when the query's type cannot tell. */
type WithFlag<Q, F extends string, Plain, Flagged> = F extends keyof Q
  ? Q[F] extends true
    ? Flagged
    : Q[F] extends false | undefined
      ? Plain
      : Plain | Flagged
  : Plain;

/** The minute bars of a variant: the nearby endpoint adds the contract column. */
type MinutesOf<Q> = 'variant' extends keyof Q
  ? Q['variant' & keyof Q] extends 'nearby'
    ? NearbyMinuteRecord
    : Q['variant' & keyof Q] extends 'minutes' | 'form-t' | undefined
      ? MinuteRecord
      : MinuteRecord | NearbyMinuteRecord
  : MinuteRecord;

/** The rows of command `N` for query `Q`, before any choice of columns. */
type RowsOf<N extends DownloadName, Q> = {
  ticks: WithFlag<Q, 'trend', TickRecord, TickTrendRecord>;
  minutes: WithFlag<Q, 'trend', MinutesOf<Q>, MinuteTrendRecord>;
  eod: WithFlag<Q, 'trend', EodRecord, EodTrendRecord>;
  events: EventRecord;
  daterange: Records['daterange'];
  futopts: WithFlag<Q, 'json', FuturesOptionRecord, Record<string, unknown>>;
}[N];

/** Each record type of `R` cut to the columns `K`; all of them, each perhaps absent, when `K` is any string. */
type PickedOf<R, K> = R extends unknown
  ? string extends K
    ? Partial<R>
    : Pick<R, Extract<K, keyof R>>
  : never;

/**
 * The records a query yields: trend rows only when it asks for `trend`, the contract column only from
 * the nearby endpoint, and only the `columns` it picks.
 */
export type RecordFor<N extends DownloadName, Q> = 'columns' extends keyof Q
  ? PickedOf<RowsOf<N, Q>, Q['columns' & keyof Q] extends readonly (infer K)[] | undefined ? K : string>
  : RowsOf<N, Q>;
