/**
 * The flag mappers of the download commands: parsed flags in, the library's options out. Pure, and they
 * check nothing the library would not: every rule is core's (plan/rules.ts), named in flags by
 * flag-names.ts. What only flags can get wrong (two flags for one option) is refused here.
 */
import { usageError } from '../../core/model/errors.js';
import type {
  DownloadName,
  DownloadOptions,
  ExtraParams,
  OutputOptions,
  RunOptions,
  SymbolsQuery,
} from '../../core/model/options.js';
import {
  eodParams,
  eventsParams,
  futuresOptionsParams,
  minutesParams,
  optionKey,
  type ParamSpec,
  ticksParams,
} from '../../core/model/params.js';
import { timeZoneOptionOf } from '../../core/time/time-zones.js';
import type { FlagsOf, ParamFlags } from '../flags.js';

/** What a mapper gets besides the flags: the symbols (arguments and --symbols-file). */
export interface MapperInput {
  symbols: string[];
  /** `daterange`'s first argument. */
  database?: string;
}

/** The flags every download command takes (ticks shows them all; the others accept the rest). */
export type CommonFlags = Omit<FlagsOf<'ticks'>, keyof ParamFlags<typeof ticksParams>>;

/** The output and run options from the shared flags; `-` (stdout) is the library's absent output. */
function downloadOptionsFrom(
  flags: CommonFlags,
  input: MapperInput,
): SymbolsQuery & OutputOptions & RunOptions {
  if (flags.utc && flags.tz !== undefined) throw usageError('--utc and --tz exclude each other: pick one');
  const extra = extraParamsFrom(flags.param);
  return withoutUndefined({
    symbols: input.symbols,
    output: flags.output === '-' ? undefined : flags.output,
    format: flags.format,
    compression: flags.compression,
    header: flags.header,
    force: flags.force,
    skipExisting: flags.skipExisting,
    concurrency: flags.concurrency,
    retries: flags.retries,
    timeoutMs: flags.timeout,
    rate: flags.rate,
    fsync: flags.fsync,
    tempDir: flags.tempDir,
    update: flags.update,
    timeZone: timeZoneOptionOf({ utc: flags.utc, zone: flags.tz }),
    sourceTimeZone: flags.sourceTz,
    columns: flags.columns,
    gzip: flags.gzip,
    windowMs: flags.window,
    shard: flags.shard,
    extra: extra.length > 0 ? extra : undefined,
  });
}

/** --param key=value pairs as given; what they may set is core's rule. */
function extraParamsFrom(pairs: readonly string[] | undefined): ExtraParams {
  return (pairs ?? []).map((pair) => {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw usageError(`--param '${pair}': expected key=value`);
    return [pair.slice(0, eq), pair.slice(eq + 1)] as const;
  });
}

/** The service parameters of a table from its flags, as given (dates as text: core reads them per symbol). */
function paramsFrom(specs: readonly ParamSpec[], flags: object): Record<string, unknown> {
  const values = flags as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    const key = optionKey(spec.flag);
    if (spec.query !== '' && values[key] !== undefined) out[key] = values[key];
  }
  return out;
}

/** The library's options of each download command from its flags. */
export const DOWNLOAD_MAPPERS = {
  ticks: (flags: FlagsOf<'ticks'>, input: MapperInput): DownloadOptions<'ticks'> => ({
    ...downloadOptionsFrom(flags, input),
    ...paramsFrom(ticksParams, flags),
  }),
  minutes: (flags: FlagsOf<'minutes'>, input: MapperInput): DownloadOptions<'minutes'> => {
    if (flags.nearby && flags.formT) throw usageError('--nearby and --form-t exclude each other');
    const variant = flags.nearby ? 'nearby' : flags.formT ? 'form-t' : undefined;
    return {
      ...downloadOptionsFrom(flags, input),
      ...paramsFrom(minutesParams, flags),
      ...(variant ? { variant } : {}),
    };
  },
  eod: (flags: FlagsOf<'eod'>, input: MapperInput): DownloadOptions<'eod'> => ({
    ...downloadOptionsFrom(flags, input),
    ...paramsFrom(eodParams, flags),
  }),
  events: (flags: FlagsOf<'events'>, input: MapperInput): DownloadOptions<'events'> => ({
    ...downloadOptionsFrom(flags, input),
    ...paramsFrom(eventsParams, flags),
  }),
  daterange: (flags: FlagsOf<'daterange'>, input: MapperInput): DownloadOptions<'daterange'> => ({
    ...downloadOptionsFrom(flags, input),
    database: input.database === 'eod' ? 'eod' : 'minutes',
  }),
  futopts: (flags: FlagsOf<'futopts'>, input: MapperInput): DownloadOptions<'futopts'> => ({
    ...downloadOptionsFrom(flags, input),
    ...paramsFrom(futuresOptionsParams, flags),
    ...(flags.json ? { json: true } : {}),
  }),
} as const satisfies { [N in DownloadName]: (flags: never, input: MapperInput) => DownloadOptions<N> };

function withoutUndefined<T extends object>(values: T): T {
  for (const key of Object.keys(values) as (keyof T)[]) if (values[key] === undefined) delete values[key];
  return values;
}
