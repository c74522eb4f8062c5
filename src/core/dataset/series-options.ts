/**
 * A series' `options` table: the long flag names of the download command it runs, mapped to the library's
 * options as the option table says (model/option-schema.ts). Only the mapping lives here; every value is
 * checked by the download commands' own rules (plan/rules.ts) when the series is planned, named by the
 * key of the dataset file.
 */
import { parseDuration } from '../model/durations.js';
import { usageError } from '../model/errors.js';
import { libraryName, OPTION_ROWS, type OptionRow, type TomlReader } from '../model/option-schema.js';
import type { DownloadName } from '../model/options.js';
import { COMMAND_PARAMS, optionKey, type ParamSpec } from '../model/params.js';

/** How each kind of TOML value becomes an option's value. */
const READERS: Record<TomlReader, (value: unknown, key: string) => unknown> = {
  'as-is': (value) => value,
  list: (value, key) => listOf(value, key),
  duration: (value, key) => durationOf(value, key),
  negated: (value, key) => !flagOf(value, key),
  pairs: (value, key) => pairsOf(value, key),
};

const ROWS = OPTION_ROWS as readonly OptionRow[];

/** The download options of a series' `options` table; MDGET_USAGE naming `key(flag)` for one it cannot take. */
export function seriesOptions(
  kind: DownloadName,
  table: Readonly<Record<string, unknown>>,
  key: (flag: string) => string,
): Record<string, unknown> {
  const params = ((COMMAND_PARAMS as Record<string, readonly ParamSpec[]>)[kind] ?? []).filter(
    (p) => p.kind !== 'date',
  );
  const out: Record<string, unknown> = {};
  for (const [flag, value] of Object.entries(table)) {
    const spec = params.find((p) => p.flag === flag);
    if (spec) {
      if (spec.query === '') selectEndpoint(out, flag, flagOf(value, key(flag)));
      else out[optionKey(spec.flag)] = spec.kind === 'flag' ? flagOf(value, key(flag)) : value;
      continue;
    }
    const row = ROWS.find((r) => r.flag === flag);
    const option = row && libraryName(row);
    if (row && 'options' in row.toml && option !== undefined) {
      out[option] = READERS[row.toml.options](value, key(flag));
      continue;
    }
    if (row && !('options' in row.toml)) {
      const by = 'setBy' in row.toml ? row.toml.setBy : row.toml.elsewhere;
      throw usageError(`${key(flag)}: set by ${by}, not in options`);
    }
    const known = [
      ...params.map((p) => p.flag),
      ...ROWS.filter((r) => 'options' in r.toml).map((r) => r.flag),
    ];
    throw usageError(`${key(flag)}: not an option of ${kind}; it takes ${known.join(', ')}`);
  }
  return out;
}

/**
 * The key of the dataset file an option comes from, by the option table: a series key (`tz`, `path`),
 * `options.<flag>`, or a service parameter's `options.<flag>`.
 */
export function keyPathOf(option: string): string[] {
  if (option === 'start' || option === 'end' || option === 'symbols') return [option];
  if (option === 'date') return ['start'];
  if (option === 'variant') return ['options'];
  const row = ROWS.find((r) => libraryName(r) === option);
  if (row && 'key' in row.toml) return [...row.toml.key];
  return ['options', row?.flag ?? option.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)];
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
