import type { WallTime } from './wall-time.js';

/**
 * Every query parameter mdget models, declared once as data. These rows yield the commander options, their
 * validation, --help, the flag tables of docs/cli.md, the query string and the parameter types of the request
 * builders, so none of them can drift.
 */
export type ParamKind = 'date' | 'int' | 'flag' | 'choice' | 'string';

export interface ParamSpec {
  /** Long flag without dashes, e.g. 'maxrecords' → --maxrecords. */
  readonly flag: string;
  /** Service query parameter it sets; '' when the flag selects an endpoint instead. */
  readonly query: string;
  readonly kind: ParamKind;
  readonly help: string;
  readonly choices?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** Value sent for a flag that is set (e.g. trend=y, backadjust=true). */
  readonly sent?: string;
  /** Accepted form shown in errors for 'string' kinds, with its check. */
  readonly pattern?: RegExp;
  readonly form?: string;
  /** Value metavariable shown in --help. */
  readonly metavar?: string;
}

const start = {
  flag: 'start',
  query: 'start',
  kind: 'date',
  help: 'start of the range, inclusive (market time)',
} as const;
const end = {
  flag: 'end',
  query: 'end',
  kind: 'date',
  help: 'end of the range, exclusive (market time)',
} as const;
const maxRecords = {
  flag: 'maxrecords',
  query: 'maxrecords',
  kind: 'int',
  min: 1,
  help: 'most records per request (asc keeps the first, desc the last)',
} as const;
const order = {
  flag: 'order',
  query: 'order',
  kind: 'choice',
  choices: ['asc', 'desc'],
  help: 'record order (always sent; default asc)',
} as const;
const trend = {
  flag: 'trend',
  query: 'trend',
  kind: 'flag',
  sent: 'y',
  help: 'support/resistance rows',
} as const;

export const ticksParams = [
  start,
  end,
  maxRecords,
  order,
  {
    flag: 'session-filter',
    query: 'sessionfilter',
    kind: 'string',
    pattern: /^[!+-]?[A-Za-z0-9@*]{1,32}$/,
    form: 'session codes such as EFK, !EFK, +T or -EF',
    metavar: 'codes',
    help: 'sale-condition/session codes to keep (EFK only, !EFK all but, +T add, -EF remove)',
  },
  trend,
] as const satisfies readonly ParamSpec[];

export const minutesParams = [
  start,
  end,
  { flag: 'interval', query: 'interval', kind: 'int', min: 1, help: 'minutes per bar (default 1)' },
  maxRecords,
  order,
  trend,
  { flag: 'nearby', query: '', kind: 'flag', help: 'continuous front-contract bars (querynearbyminutes)' },
  { flag: 'form-t', query: '', kind: 'flag', help: 'extended-hours Form-T bars (queryformtminutes)' },
] as const satisfies readonly ParamSpec[];

const EOD_PERIODS = ['daily', 'weekly', 'monthly', 'quarterly', 'yearly'] as const;

export const eodParams = [
  start,
  end,
  { ...maxRecords, help: 'most records (ignored by the service when --start is given)' },
  order,
  { flag: 'period', query: 'data', kind: 'choice', choices: EOD_PERIODS, help: 'bar period (default daily)' },
  {
    flag: 'nearest',
    query: 'data',
    kind: 'flag',
    help: 'futures, with a ROOT*n symbol such as ZC*1: the nearest-expiry contract each day (data=<period>nearest)',
  },
  {
    flag: 'continue',
    query: 'data',
    kind: 'flag',
    help: 'futures, with a ROOT*n symbol such as ZC*1: the same month chained across years (data=<period>continue)',
  },
  {
    flag: 'volume',
    query: 'volume',
    kind: 'choice',
    choices: ['contract', 'total', 'sum', 'sumcontract', 'sumtotal'],
    help: 'futures volume: own contract, all contracts, or sums for long periods',
  },
  {
    flag: 'backadjust',
    query: 'backadjust',
    kind: 'flag',
    sent: 'true',
    help: 'shift older contracts by the roll gap',
  },
  {
    flag: 'days-to-expiration',
    query: 'daystoexpiration',
    kind: 'int',
    min: 0,
    max: 60,
    help: 'roll this many calendar days before expiry (0-60)',
  },
  {
    flag: 'contract-roll',
    query: 'contractroll',
    kind: 'choice',
    choices: ['expiration', 'combined'],
    help: 'roll rule for --nearest: by expiry, or by volume and open interest',
  },
  {
    flag: 'nth',
    query: 'nearby',
    kind: 'int',
    min: 1,
    help: 'n-th nearest contract for --nearest (default 1)',
  },
  {
    flag: 'adjust-splits',
    query: 'splits',
    kind: 'choice',
    choices: ['true', 'false'],
    help: 'equities: adjust prices for splits (service default true)',
  },
  {
    flag: 'adjust-dividends',
    query: 'dividends',
    kind: 'choice',
    choices: ['true', 'false'],
    help: 'equities: adjust prices for dividends (service default true)',
  },
  { ...trend, help: 'support/resistance rows (SYMBOL,DATE,SUPPORT,RESISTANCE)' },
] as const satisfies readonly ParamSpec[];

export const eventsParams = [
  { ...start, help: 'first event date, inclusive (default: all data)' },
  { ...end, help: 'last event date, exclusive (default: all data)' },
  {
    flag: 'splits',
    query: 'splits',
    kind: 'flag',
    sent: 'true',
    help: 'splits (none of the three = all types)',
  },
  { flag: 'dividends', query: 'dividends', kind: 'flag', sent: 'true', help: 'dividends' },
  { flag: 'earnings', query: 'earnings', kind: 'flag', sent: 'true', help: 'earnings' },
] as const satisfies readonly ParamSpec[];

export const dateRangeParams = [] as const satisfies readonly ParamSpec[];

export const futuresOptionsParams = [
  { flag: 'date', query: 'date', kind: 'date', help: 'trading date (default: the latest)' },
  {
    flag: 'json',
    query: '',
    kind: 'flag',
    help: 'JSON form (futuresoptions/json), streamed through unchanged',
  },
] as const satisfies readonly ParamSpec[];

/** The parameter table of each download command, for the CLI and the README. */
export const COMMAND_PARAMS = {
  ticks: ticksParams,
  minutes: minutesParams,
  eod: eodParams,
  events: eventsParams,
  daterange: dateRangeParams,
  futopts: futuresOptionsParams,
} as const;

/** 'days-to-expiration' → 'daysToExpiration': the options key of a flag, as a type. */
export type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;

/**
 * The typed value of a row: dates as wall-clock times (or `D`: the CLI's flags hold them as text until the
 * zone is known), ints as numbers, flags as booleans, choices as unions.
 */
export type ParamValue<S extends ParamSpec, D = WallTime> = S extends { kind: 'date' }
  ? D
  : S extends { kind: 'int' }
    ? number
    : S extends { kind: 'flag' }
      ? boolean
      : S extends { choices: readonly (infer C)[] }
        ? C
        : string;

/**
 * The query parameters of a table, keyed as options: every row that sets a query parameter, all optional;
 * dates as `D` (wall-clock times once resolved; DateInput as callers give them).
 */
export type ParamsOf<T extends readonly ParamSpec[], D = WallTime> = {
  [S in Exclude<T[number], { query: '' }> as CamelCase<S['flag']>]?: ParamValue<S, D>;
};

/** The endpoint selectors of a table (rows with no query parameter), keyed as options. */
export type SelectorsOf<T extends readonly ParamSpec[]> = {
  [S in Extract<T[number], { query: '' }> as CamelCase<S['flag']>]?: boolean;
};

/** Flag name to options key: 'days-to-expiration' → 'daysToExpiration', 'adjust-splits' → 'adjustSplits'. */
export const optionKey = (flag: string): string =>
  flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
