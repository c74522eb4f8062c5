/**
 * resolve(): a download's options in, a job out. It checks every rule once, applies every default once,
 * decides each request's zone, window and output, and sends nothing: the CLI's --dry-run prints the job,
 * run/run-job.ts executes it. The CLI and the library both come through here.
 */
import { type Config, maxRowsOf } from '../model/config.js';
import { DEFAULT_PARQUET_COMPRESSION, formOfName } from '../model/formats.js';
import type { DateInput, DownloadName, DownloadOptions } from '../model/options.js';
import { addDays, parseDateInput, todayIn, type WallTime } from '../time/dates.js';
import { DOWNLOAD_COMMANDS, type DownloadCommand } from './commands.js';
import type { Job, RunSettings } from './job.js';
import type { NameOf } from './names.js';
import { assignOutputs, outputKey, outputTargetOf } from './outputs.js';
import type { PlannedRequest } from './planned-request.js';
import type { PlanContext, QueryDates } from './requests.js';
import { checkColumns, checkOptions, checkRange, checkTypedOutputs } from './rules.js';
import { transportSettingsOf } from './transport-settings.js';
import { shardOf } from './windows.js';
import { serviceZone } from './zones.js';

/**
 * What resolving needs besides the options: the configuration (only its row cap: URLs are built and signed
 * when sent, so no credentials or base URLs), the instant "now", and option names.
 */
export interface ResolveContext {
  config: Config;
  now: Date;
  names: NameOf;
}

/**
 * The job of download `name` with `options`; MDGET_USAGE (or MDGET_CONFIG for a bad row cap) before
 * anything is sent. The configuration the run needs is the job's `needs`, checked by runJob.
 */
export function resolve<N extends DownloadName>(
  name: N,
  options: DownloadOptions<N>,
  ctx: ResolveContext,
): Job {
  const command = DOWNLOAD_COMMANDS[name] as DownloadCommand<N>;
  const { names, config, now } = ctx;
  // the name decides when no format is given; one that contradicts a given format is refused in the rules
  const format =
    options.format ??
    (options.output === undefined ? undefined : formOfName(options.output).format) ??
    command.defaultFormat(options);
  checkOptions(options, { command: name, series: command.series, params: command.params, format, names });
  command.check(options, names);
  const maxRows = options.maxRows ?? maxRowsOf(config);
  const symbols = typeof options.symbols === 'string' ? [options.symbols] : [...options.symbols];
  const nearby = command.nearby(options);
  const zoneOf = (symbol: string) =>
    serviceZone(symbol, {
      nearby,
      ...(options.sourceTimeZone ? { sourceTimeZone: options.sourceTimeZone } : {}),
    });
  const planContext: PlanContext = {
    now,
    zoneOf,
    datesOf: (symbol) =>
      datesOf(options as DatedOptions, zoneOf(symbol), Boolean(options.update), now, names),
    ...(options.extra ? { extra: options.extra } : {}),
    ...(options.windowMs === undefined ? {} : { windowMs: options.windowMs }),
    ...(maxRows === undefined ? {} : { maxRows }),
  };
  const target = outputTargetOf(options.output, options.gzip ?? false);
  const all = assignOutputs(command.plan(options, symbols, planContext), target, format, names);
  if (options.columns) checkColumns(all, options.columns, names);
  if (format === 'parquet') checkTypedOutputs(all, names);
  const warnings: string[] = [];
  let requests: PlannedRequest[] = all;
  if (options.shard) {
    const { index, count } = options.shard;
    requests = shardOf(all, index, count);
    const shared = sharedOutput(all, count);
    if (shared !== undefined)
      warnings.push(
        `${names('shard')} ${index}/${count}: ${shared} gets rows of other shares too, which their runs write under the same name; use a template with {symbol} and {date} so each share writes files of its own`,
      );
  }
  const transport = transportSettingsOf(options);
  const settings: RunSettings = {
    format,
    ...(format === 'parquet' ? { compression: options.compression ?? DEFAULT_PARQUET_COMPRESSION } : {}),
    header: options.header ?? true,
    force: options.force ?? false,
    skipExisting: options.skipExisting ?? false,
    update: options.update ?? false,
    gzip: target.gzip,
    concurrency: transport.concurrency,
    transport,
    fsync: options.fsync ?? true,
    ...(options.tempDir === undefined ? {} : { tempDir: options.tempDir }),
    ...(maxRows === undefined ? {} : { maxRows }),
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    ...(options.columns === undefined ? {} : { columns: options.columns }),
  };
  return { command: name, requests, settings, needs: command.needs, warnings };
}

/** The dates a query may hold. */
type DatedOptions = { start?: DateInput; end?: DateInput; date?: DateInput };

/** A query's dates for one symbol, read in its zone; with --update and no end, to the end of today. */
function datesOf(options: DatedOptions, zone: string, update: boolean, now: Date, names: NameOf): QueryDates {
  const read = (value: DateInput | undefined, option: string): WallTime | undefined =>
    value === undefined
      ? undefined
      : typeof value === 'string'
        ? parseDateInput(value, names(option), zone, now, option)
        : value;
  const start = read(options.start, 'start');
  let end = read(options.end, 'end');
  const date = read(options.date, 'date');
  checkRange(start, end, names);
  if (update && end === undefined) end = addDays(todayIn(zone, now), 1);
  return { ...(start ? { start } : {}), ...(end ? { end } : {}), ...(date ? { date } : {}) };
}

/** The name of an output that requests of more than one of `count` shares write to, if any. */
function sharedOutput(requests: readonly PlannedRequest[], count: number): string | undefined {
  if (count < 2) return undefined;
  const shareOf = new Map<string, number>();
  for (const [position, request] of requests.entries()) {
    const key = outputKey(request.output);
    const share = position % count;
    const seen = shareOf.get(key);
    if (seen === undefined) shareOf.set(key, share);
    else if (seen !== share)
      return request.output.kind === 'stream' ? 'standard output' : request.output.path;
  }
  return undefined;
}
