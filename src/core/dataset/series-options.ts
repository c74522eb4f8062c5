/**
 * A series' `options` table: the long flag names of the download command it runs, mapped to the library's
 * options. Only the mapping lives here; every value is checked by the download commands' own rules
 * (plan/rules.ts) when the series is planned, named by the key of the dataset file.
 */
import { parseDuration } from '../model/durations.js';
import { usageError } from '../model/errors.js';
import type { DownloadName } from '../model/options.js';
import {
  eodParams,
  eventsParams,
  futuresOptionsParams,
  minutesParams,
  optionKey,
  type ParamSpec,
  ticksParams,
} from '../model/params.js';

/** The query parameters each kind takes as options (dates come from the series' own `start` and `end`). */
const PARAMS: Record<string, readonly ParamSpec[]> = {
  ticks: ticksParams,
  minutes: minutesParams,
  eod: eodParams,
  events: eventsParams,
  futopts: futuresOptionsParams,
};

/** Options every kind takes, beside its parameters: flag name → how its value becomes an option. */
const SHARED: Record<string, (value: unknown, key: string) => [string, unknown]> = {
  'source-tz': (value) => ['sourceTimeZone', value],
  columns: (value, key) => ['columns', listOf(value, key)],
  window: (value, key) => ['windowMs', durationOf(value, key)],
  'max-rows': (value) => ['maxRows', value],
  'no-header': (value, key) => ['header', !flagOf(value, key)],
  param: (value, key) => ['extra', pairsOf(value, key)],
};

/** Options a series may not set, and what sets them instead. */
const SET_ELSEWHERE: Record<string, string> = {
  start: 'the series key start',
  end: 'the series key end',
  date: 'the series keys start and end',
  output: 'the series key path',
  format: 'the extension of path',
  gzip: 'a .gz extension of path',
  tz: 'the series key tz',
  utc: 'the series key tz = "UTC"',
  'symbols-file': 'the series key symbols_file',
  force: 'mdget sync, which replaces what it fetches again',
  'skip-existing': 'mdget sync, which fetches only what is missing',
  update: 'mdget sync, which appends to growing files',
  concurrency: 'the command line (mdget sync --concurrency)',
  rate: 'the command line (mdget sync --rate)',
  retries: 'the command line (mdget sync --retries)',
  timeout: 'the command line (mdget sync --timeout)',
  shard: 'the command line (mdget sync --shard)',
  report: 'the command line (mdget sync --report)',
  // a proxy URL may hold a password, which a dataset file never does
  proxy: 'the command line (mdget sync --proxy) or HTTPS_PROXY and NO_PROXY in the environment or .env',
};

/** The download options of a series' `options` table; MDGET_USAGE naming `key(flag)` for one it cannot take. */
export function seriesOptions(
  kind: DownloadName,
  table: Readonly<Record<string, unknown>>,
  key: (flag: string) => string,
): Record<string, unknown> {
  const params = PARAMS[kind] ?? [];
  const out: Record<string, unknown> = {};
  for (const [flag, value] of Object.entries(table)) {
    const spec = params.find((p) => p.flag === flag && p.kind !== 'date');
    if (spec) {
      if (spec.query === '') selectEndpoint(out, flag, flagOf(value, key(flag)));
      else out[optionKey(spec.flag)] = spec.kind === 'flag' ? flagOf(value, key(flag)) : value;
      continue;
    }
    const shared = SHARED[flag];
    if (shared) {
      const [option, converted] = shared(value, key(flag));
      out[option] = converted;
      continue;
    }
    const elsewhere = SET_ELSEWHERE[flag];
    if (elsewhere) throw usageError(`${key(flag)}: set by ${elsewhere}, not in options`);
    const known = [...params.filter((p) => p.kind !== 'date').map((p) => p.flag), ...Object.keys(SHARED)];
    throw usageError(`${key(flag)}: not an option of ${kind}; it takes ${known.join(', ')}`);
  }
  return out;
}

/** The option a flag that picks an endpoint sets: minutes' `nearby` and `form-t`, futopts' `json`. */
function selectEndpoint(out: Record<string, unknown>, flag: string, on: boolean): void {
  if (!on) return;
  if (flag === 'json') out['json'] = true;
  else {
    if (out['variant'] !== undefined) throw usageError('options nearby and form-t exclude each other');
    out['variant'] = flag;
  }
}

function flagOf(value: unknown, key: string): boolean {
  if (typeof value !== 'boolean') throw usageError(`${key} takes true or false, not ${show(value)}`);
  return value;
}

function listOf(value: unknown, key: string): string[] {
  if (typeof value === 'string') return value.split(',').map((item) => item.trim());
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw usageError(`${key} takes a list of names, as ["time", "price"] or "time,price"`);
}

function durationOf(value: unknown, key: string): number {
  if (typeof value === 'number' && value > 0) return value * 1000;
  if (typeof value === 'string') return parseDuration(value, key);
  throw usageError(`${key} takes a duration such as "2h" or a number of seconds, not ${show(value)}`);
}

function pairsOf(value: unknown, key: string): (readonly [string, string])[] {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw usageError(`${key} takes a table of query parameters, as { name = "value" }`);
  return Object.entries(value).map(([name, v]) => {
    if (typeof v !== 'string' && typeof v !== 'number')
      throw usageError(`${key}.${name} takes a string or a number, not ${show(v)}`);
    return [name, String(v)] as const;
  });
}

/** A TOML value as a message shows it. */
export const show = (value: unknown): string =>
  typeof value === 'string'
    ? `"${value}"`
    : value instanceof Date
      ? value.toISOString()
      : JSON.stringify(value);
