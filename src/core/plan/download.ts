/**
 * What the download commands share (issue 11): the options of their outputs, the rules that tie options
 * together, and one path from options to plan to batch. The CLI's flag mappers build these options and
 * call the same functions, so a library caller gets every rule the CLI applies.
 */

import { type Config, maxRowsOf, type Requirement, requireConfig } from '../model/config.js';
import { usageError } from '../model/errors.js';
import type { OutputFormat } from '../pipeline/output-state.js';
import type { BatchOptions, BatchResult, RunDeps } from '../run/run-types.js';
import { marketZone, todayIn, type WallTime } from '../time/dates.js';
import { assertTimeZone } from '../time/time-zones.js';
import type { PlannedRequest } from './planned-request.js';
import type { PlanContext } from './requests.js';
import { checkOutputPath } from './templates.js';
import type { ExtraParams } from './urls.js';
import { shardOf } from './windows.js';

/**
 * How a download's outputs are written and its plan shaped; everything but the symbols has a default
 * (batchOptionsOf): the batch's own options, each optional, and what shapes the plan.
 */
export interface DownloadOptions extends Partial<BatchOptions> {
  symbols: readonly string[];
  /** Extra query parameters passed through unchanged. */
  extra?: ExtraParams;
  /** Length of the windows a long range is split into (time series). */
  windowMs?: number;
  /** Only the index-th (1-based) of count deterministic shares of the plan. */
  shard?: { index: number; count: number };
}

/** The parameters the shared rules read: the range and order of a time series. */
export interface RangeParams {
  start?: WallTime;
  end?: WallTime;
  order?: 'asc' | 'desc';
  maxrecords?: number;
}

/** What planning needs besides the options: the resolved configuration and the instant "now". */
export interface DownloadContext {
  config: Config;
  now: Date;
}

/** A download command: the settings it needs, its own rules and its planner. */
export interface DownloadCommand<O extends DownloadOptions> {
  readonly name: string;
  readonly needs: readonly Requirement[];
  /** True for ticks, minutes and eod: windows, --update and row caps apply. */
  readonly series: boolean;
  /** The range parameters of the options, for the shared rules. */
  range(options: O): RangeParams;
  /** The format when none is given. */
  defaultFormat(options: O): OutputFormat;
  /** Throws MDGET_USAGE for a combination of its own options that no request can honour. */
  check(options: O): void;
  plan(options: O, ctx: PlanContext): PlannedRequest[];
}

const COLUMN = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Throws MDGET_USAGE, naming the flags, for options that exclude each other or cannot apply (no request). */
export function checkDownload<O extends DownloadOptions>(command: DownloadCommand<O>, options: O): void {
  if (options.symbols.length === 0) throw usageError(`${command.name}: no symbols given`);
  if (options.skipExisting && options.force)
    throw usageError('--skip-existing and --force exclude each other');
  // the path alone (empty, a directory, an unknown placeholder): before the configuration is read
  if (options.output !== undefined) checkOutputPath(options.output);
  if (
    options.concurrency !== undefined &&
    !(Number.isInteger(options.concurrency) && options.concurrency >= 1)
  )
    throw usageError(`--concurrency ${options.concurrency}: expected a whole number ≥ 1`);
  if (options.shard) {
    const { index, count } = options.shard;
    if (!(Number.isInteger(index) && Number.isInteger(count) && index >= 1 && index <= count))
      throw usageError(`--shard '${index}/${count}': expected i/n with 1 ≤ i ≤ n, e.g. 2/4`);
  }
  if (!command.series && options.windowMs !== undefined)
    throw usageError('--window applies to ticks, minutes and eod (time series)');
  if (options.update) checkUpdate(command, options);
  checkRewrite(options, formatOf(command, options));
  command.check(options);
}

/** --update needs a file output of a time series it can append to, in ascending order. */
function checkUpdate<O extends DownloadOptions>(command: DownloadCommand<O>, options: O): void {
  if (!command.series) throw usageError('--update applies to ticks, minutes and eod (time series)');
  const range = command.range(options);
  if ((options.output ?? '-') === '-')
    throw usageError('--update needs -o <file> or a template: stdout cannot be resumed');
  if (formatOf(command, options) === 'json')
    throw usageError('--update cannot append to a JSON array: use --format csv, ndjson or raw');
  if (range.order === 'desc') throw usageError('--update resumes after the last row: it needs --order asc');
  if (range.maxrecords !== undefined) throw usageError('--update and --maxrecords exclude each other');
  if (range.start === undefined)
    throw usageError(
      '--update needs --start: the first day the file holds (rows it has are not fetched again)',
    );
  if (options.force || options.skipExisting)
    throw usageError('--update excludes --force and --skip-existing');
}

/** Zones and columns rewrite records: they need valid names, and a format that is not the service's bytes. */
function checkRewrite(options: DownloadOptions, format: OutputFormat): void {
  if (options.timeZone !== undefined && options.timeZone !== 'utc') assertTimeZone(options.timeZone, '--tz');
  if (options.sourceTimeZone !== undefined) assertTimeZone(options.sourceTimeZone, '--source-tz');
  if (options.columns !== undefined) {
    const bad = options.columns.find((name) => !COLUMN.test(name));
    if (options.columns.length === 0 || bad !== undefined)
      throw usageError(`--columns '${options.columns.join(',')}': expected a comma list of csv header names`);
    const twice = options.columns.find((name, i) => options.columns?.indexOf(name) !== i);
    if (twice !== undefined) throw usageError(`--columns: ${twice} is named twice`);
  }
  const rewrites = [
    options.timeZone === undefined ? undefined : options.timeZone === 'utc' ? '--utc' : '--tz',
    options.sourceTimeZone === undefined ? undefined : '--source-tz',
    options.columns === undefined ? undefined : '--columns',
  ].filter((flag) => flag !== undefined);
  if (format === 'raw' && rewrites.length > 0)
    throw usageError(`${rewrites.join(', ')}: --format raw passes the service bytes through unchanged`);
}

const formatOf = <O extends DownloadOptions>(command: DownloadCommand<O>, options: O): OutputFormat =>
  options.format ?? command.defaultFormat(options);

/** The batch options of a download, every default applied. */
export function batchOptionsOf<O extends DownloadOptions>(
  command: DownloadCommand<O>,
  options: O,
  config: Config,
): BatchOptions {
  const maxRows = options.maxRows ?? maxRowsOf(config);
  const optional = {
    tempDir: options.tempDir,
    maxRows,
    timeZone: options.timeZone,
    sourceTimeZone: options.sourceTimeZone,
    columns: options.columns,
    gzip: options.gzip,
  };
  return {
    output: options.output ?? '-',
    format: formatOf(command, options),
    header: options.header ?? true,
    force: options.force ?? false,
    skipExisting: options.skipExisting ?? false,
    concurrency: options.concurrency ?? 4,
    fsync: options.fsync ?? true,
    update: options.update ?? false,
    ...definedOnly(optional),
  };
}

/**
 * The requests of a download, in order: rules checked, configuration required, plan made, shard kept.
 * Sends nothing; the CLI's --dry-run prints these.
 */
export function planDownload<O extends DownloadOptions>(
  command: DownloadCommand<O>,
  options: O,
  ctx: DownloadContext,
): PlannedRequest[] {
  checkDownload(command, options);
  requireConfig(ctx.config, command.needs);
  const maxRows = options.maxRows ?? maxRowsOf(ctx.config);
  const planContext: PlanContext = {
    config: ctx.config,
    now: ctx.now,
    ...definedOnly({ extra: options.extra, windowMs: options.windowMs, maxRows }),
  };
  const plans = command.plan(options, planContext);
  return options.shard ? shardOf(plans, options.shard.index, options.shard.count) : plans;
}

/** Plans and downloads: the library's one call for a download command (the CLI's, too). */
export async function runDownload<O extends DownloadOptions>(
  command: DownloadCommand<O>,
  options: O,
  ctx: DownloadContext,
  deps: RunDeps,
): Promise<BatchResult> {
  const plans = planDownload(command, options, ctx);
  // Loaded here: it pulls in undici and the writers, which planning and --dry-run do not need.
  const { runBatch } = await import('../run/run-job.js');
  return runBatch(plans, batchOptionsOf(command, options, ctx.config), deps);
}

/** The range of a time series as planned: with --update and no end, it runs to the end of today. */
export function seriesRange<P extends RangeParams>(params: P, options: DownloadOptions, now: Date): P {
  if (!options.update || params.end !== undefined || options.symbols.length === 0) return params;
  const today = todayIn(marketZone(options.symbols[0] ?? ''), now);
  return { ...params, end: new Date(today.getTime() + 86_400_000) };
}

function definedOnly<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined)) as Partial<T>;
}
