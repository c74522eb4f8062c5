/**
 * The flag mappers of the download commands: parsed flags in, the core options of the command out
 * (STYLE §3: an options type, a flag mapper, a run function). Pure: the symbols file is read before,
 * the configuration after; dates are read in the first symbol's market zone. The rules that tie options
 * together live in core (core/commands/*.ts), so library callers get them too.
 */

import { usageError } from '../../core/model/errors.js';
import {
  eodParams,
  eventsParams,
  futuresOptionsParams,
  minutesParams,
  optionKey,
  type ParamSpec,
  type ParamsOf,
  ticksParams,
} from '../../core/model/params.js';
import type { DateRangeOptions } from '../../core/plan/commands/date-range.js';
import type { EodOptions } from '../../core/plan/commands/eod.js';
import type { EventsOptions } from '../../core/plan/commands/events.js';
import type { FuturesOptionsOptions } from '../../core/plan/commands/futures-options.js';
import type { MinutesOptions } from '../../core/plan/commands/minutes.js';
import type { TicksOptions } from '../../core/plan/commands/ticks.js';
import type { DownloadOptions } from '../../core/plan/download.js';
import type { ExtraParams } from '../../core/plan/urls.js';
import { CENTRAL, marketZone, parseDateInput } from '../../core/time/dates.js';
import { assertTimeZone } from '../../core/time/time-zones.js';
import type { DownloadName } from '../command-table.js';
import type { FlagsOf, ParamFlags } from '../flags.js';

/** What a mapper gets besides the flags: the symbols (arguments and --symbols-file) and the clock. */
export interface MapperInput {
  symbols: string[];
  now: Date;
  /** `daterange`'s first argument. */
  database?: string;
}

/** The flags every download command takes (ticks shows them all; the others accept the rest). */
export type CommonFlags = Omit<FlagsOf<'ticks'>, keyof ParamFlags<typeof ticksParams>>;

/** The shared download options from the shared flags; the utc/tz pair is a flag-level rule. */
export function downloadOptionsFrom(flags: CommonFlags, input: MapperInput): DownloadOptions {
  if (flags.utc && flags.tz !== undefined) throw usageError('--utc and --tz exclude each other: pick one');
  const options: DownloadOptions = {
    symbols: input.symbols,
    output: flags.output,
    format: flags.format,
    header: flags.header,
    force: flags.force,
    skipExisting: flags.skipExisting,
    concurrency: flags.concurrency,
    fsync: flags.fsync,
    tempDir: flags.tempDir,
    update: flags.update,
    timeZone: flags.utc ? 'utc' : flags.tz,
    sourceTimeZone: flags.sourceTz,
    columns: flags.columns,
    gzip: flags.gzip,
    windowMs: flags.window,
    shard: flags.shard,
  };
  return withoutUndefined(options);
}

/** --param key=value pairs; credentials, modelled parameters and the positional ones are refused. */
export function extraParamsFrom(
  pairs: readonly string[] | undefined,
  specs: readonly ParamSpec[],
  positional: string,
): ExtraParams {
  return (pairs ?? []).map((pair) => {
    const eq = pair.indexOf('=');
    const key = eq > 0 ? pair.slice(0, eq) : '';
    if (!/^[A-Za-z][A-Za-z0-9_.-]*$/.test(key)) throw usageError(`--param '${pair}': expected key=value`);
    const lower = key.toLowerCase();
    if (lower === 'username' || lower === 'password') {
      throw usageError(`--param ${key}: credentials come from MDGET_USERNAME / MDGET_PASSWORD`);
    }
    if (lower === positional)
      throw usageError(`--param ${key}: give ${positional === 'root' ? 'roots' : 'symbols'} as arguments`);
    const modelled = specs.find((s) => s.query === lower && s.query !== 'data');
    if (modelled) throw usageError(`--param ${key}: use --${modelled.flag} instead`);
    return [key, pair.slice(eq + 1)] as const;
  });
}

/** The typed parameters of a table from its flags: dates read in `zone` (cli.md Dates). */
export function paramsFrom<T extends readonly ParamSpec[]>(
  specs: T,
  flags: ParamFlags<T>,
  zone: string,
  now: Date,
): ParamsOf<T> {
  const values = flags as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    const key = optionKey(spec.flag);
    const value = values[key];
    if (value === undefined || spec.query === '') continue;
    out[key] = spec.kind === 'date' ? parseDateInput(String(value), `--${spec.flag}`, zone, now) : value;
  }
  return out as ParamsOf<T>;
}

/**
 * The zone dates are read in: the service's (--source-tz, which it also reads requests in, spec §1.2), else
 * the first symbol's market zone. An offset date becomes this zone's wall clock; `today` is its date.
 */
function zoneOf(
  flags: { sourceTz?: string | undefined; nearby?: boolean | undefined },
  input: MapperInput,
): string {
  // nearby minutes take futures roots (ES), which the symbol rule would read as equities
  if (flags.sourceTz === undefined) return flags.nearby ? CENTRAL : marketZone(input.symbols[0] ?? '');
  assertTimeZone(flags.sourceTz, '--source-tz'); // before a date is read in it (else Intl's RangeError)
  return flags.sourceTz;
}

/** The core options of each download command from its flags. */
export const DOWNLOAD_MAPPERS = {
  ticks: (flags: FlagsOf<'ticks'>, input: MapperInput): TicksOptions => ({
    ...downloadOptionsFrom(flags, input),
    params: paramsFrom(ticksParams, flags, zoneOf(flags, input), input.now),
  }),
  minutes: (flags: FlagsOf<'minutes'>, input: MapperInput): MinutesOptions => ({
    ...downloadOptionsFrom(flags, input),
    params: paramsFrom(minutesParams, flags, zoneOf(flags, input), input.now),
    ...withoutUndefined({ nearby: flags.nearby, formT: flags.formT }),
  }),
  eod: (flags: FlagsOf<'eod'>, input: MapperInput): EodOptions => ({
    ...downloadOptionsFrom(flags, input),
    params: paramsFrom(eodParams, flags, zoneOf(flags, input), input.now),
  }),
  events: (flags: FlagsOf<'events'>, input: MapperInput): EventsOptions => ({
    ...downloadOptionsFrom(flags, input),
    params: paramsFrom(eventsParams, flags, zoneOf(flags, input), input.now),
  }),
  daterange: (flags: FlagsOf<'daterange'>, input: MapperInput): DateRangeOptions => ({
    ...downloadOptionsFrom(flags, input),
    database: input.database === 'eod' ? 'eod' : 'minutes',
  }),
  futopts: (flags: FlagsOf<'futopts'>, input: MapperInput): FuturesOptionsOptions => ({
    ...downloadOptionsFrom(flags, input),
    params: paramsFrom(futuresOptionsParams, flags, zoneOf(flags, input), input.now),
    ...withoutUndefined({ json: flags.json }),
  }),
} as const satisfies Record<DownloadName, (flags: never, input: MapperInput) => DownloadOptions>;

function withoutUndefined<T extends object>(values: T): T {
  for (const key of Object.keys(values) as (keyof T)[]) if (values[key] === undefined) delete values[key];
  return values;
}
