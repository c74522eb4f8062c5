/**
 * The flag mappers of the download commands: parsed flags in, the library's options out. Pure, and they
 * check nothing the library would not: every rule is core's (plan/rules.ts), named in flags by
 * flag-names.ts. What only flags can get wrong (two flags for one option) is refused here.
 */
import { usageError } from '../../core/model/errors.js';
import { OPTION_ROWS } from '../../core/model/option-schema.js';
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
import { type FlagKey, type FlagsOf, flagKeyOf, type ParamFlags } from '../flags.js';

/** What a mapper gets besides the flags: the symbols (arguments and --symbols-file). */
export interface MapperInput {
  symbols: string[];
  /** `daterange`'s first argument. */
  database?: string;
}

/** The flags every download command takes (ticks shows them all; the others accept the rest). */
export type CommonFlags = Omit<FlagsOf<'ticks'>, keyof ParamFlags<typeof ticksParams>>;

/**
 * The rows of download()'s settings that are not copied from their flag as parsed, each with why; every
 * other one is (COPIED_ROWS), so a new option needs no line here.
 */
const NOT_COPIED = {
  output: '`-` is stdout, which the library takes as no output',
  utc: 'with --tz, one timeZone (timeZoneOptionOf); the two exclude each other',
  tz: 'with --utc, one timeZone',
  'max-rows': 'a configuration value, flag over MDGET_MAX_ROWS (cli/config.ts:resolveConfig)',
  'metrics-file': 'with MDGET_METRICS_FILE, the metrics settings of the run (cli/metrics.ts)',
  'metrics-job': 'the job label of those metrics settings (cli/metrics.ts)',
} as const satisfies Partial<Record<SettingsRow['flag'], string>>;

type SettingsRow = Extract<(typeof OPTION_ROWS)[number], { library: { settings: string } }>;
type CopiedRow = Exclude<SettingsRow, { flag: keyof typeof NOT_COPIED }>;

const COPIED_ROWS = OPTION_ROWS.filter(
  (row): row is CopiedRow => 'settings' in row.library && !(row.flag in NOT_COPIED),
);

/** The library's options a download's flags give as they are, each typed as its flag is parsed. */
type CopiedOptions = {
  [R in CopiedRow as R['library']['settings']]?: CommonFlags[FlagKey<R['flag']>];
};

/** `options[libraryName(row)] = flags[flagKey(row.flag)]` for each copied row the command was given. */
function copiedOptions(flags: CommonFlags): CopiedOptions {
  const options: Record<string, unknown> = {};
  for (const row of COPIED_ROWS) options[row.library.settings] = flags[flagKeyOf(row.flag)];
  // the one cast: a loop over a union of rows cannot type each key with its own value; CopiedOptions does
  return options as CopiedOptions;
}

/** The transport's settings given by a command's flags (--concurrency, --retries, --timeout, --rate). */
export type TransportOptions = Pick<RunOptions, 'concurrency' | 'retries' | 'timeoutMs' | 'rate'>;

/**
 * The network rows' settings from the flags of a command that resolves no job (sync, exchanges,
 * instruments), copied as a download's are.
 */
export function transportOptionsFrom(flags: object): TransportOptions {
  const values = flags as Record<string, unknown>;
  const options: Record<string, unknown> = {};
  for (const row of COPIED_ROWS) {
    const value = values[flagKeyOf(row.flag)];
    if (row.group === 'network' && value !== undefined) options[row.library.settings] = value;
  }
  return options as TransportOptions;
}

/** The output and run options from the shared flags; what is not a plain copy is NOT_COPIED's. */
function downloadOptionsFrom(
  flags: CommonFlags,
  input: MapperInput,
): SymbolsQuery & OutputOptions & RunOptions {
  if (flags.utc && flags.tz !== undefined) throw usageError('--utc and --tz exclude each other: pick one');
  const extra = extraParamsFrom(flags.param);
  return withoutUndefined({
    symbols: input.symbols,
    ...copiedOptions(flags),
    output: flags.output === '-' ? undefined : flags.output,
    timeZone: timeZoneOptionOf({ utc: flags.utc, zone: flags.tz }),
    // --param is a query row (pairs in, `extra` out), not a setting
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
