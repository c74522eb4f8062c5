/**
 * A series planned: the download command's own resolve (every rule, default, zone and window decided
 * there) gives the requests, which are then grouped into the files the ledger keeps one row for.
 */
import { relative, sep } from 'node:path';
import type { Config } from '../model/config.js';
import { isMdgetError, MdgetError } from '../model/errors.js';
import type { DownloadOptions } from '../model/options.js';
import type { Job } from '../plan/job.js';
import type { NameOf } from '../plan/names.js';
import { type PlannedRequest, windowOf } from '../plan/planned-request.js';
import { resolve } from '../plan/resolve.js';
import { planDayWindows } from '../plan/windows.js';
import { serviceZone } from '../plan/zones.js';
import { isoDay, parseDateInput, wallClockIn } from '../time/dates.js';
import type { Series } from './dataset.js';

/** One file of a dataset: what the ledger keeps a row for. */
export interface DatasetOutput {
  series: Series;
  /** Absolute path. */
  path: string;
  /** The path under root with `/` separators: the ledger's key. */
  key: string;
  symbol: string;
  /** The window its requests cover, in the market's wall clock (`zone`), end exclusive. */
  window: { start?: string; end?: string };
  zone: string;
  /** Its window reaches past the data cut-off: a later sync fetches it again. */
  provisional: boolean;
  requests: PlannedRequest[];
}

/** A series' job (every request, for one file or many) and its files. */
export interface SeriesPlan {
  series: Series;
  job: Job;
  outputs: DatasetOutput[];
}

/**
 * What planning needs: the configuration (only its row cap: no URL is built, no credential needed), the
 * instant now, the dataset's root.
 */
export interface PlanningContext {
  config: Config;
  now: Date;
  root: string;
}

/** Plans a series; a mistake is MDGET_USAGE at the dataset file's line of the key it names. */
export function planSeries(series: Series, ctx: PlanningContext): SeriesPlan {
  const named: string[] = [];
  const names: NameOf = (option, value) => {
    named.push(option);
    return series.names(option, value);
  };
  let jobs: Job[];
  try {
    jobs = queriesOf(series, ctx.now).map((options) =>
      resolve(series.command, options, { config: ctx.config, now: ctx.now, names }),
    );
  } catch (error) {
    if (!isMdgetError(error) || error.code !== 'MDGET_USAGE') throw error;
    // the line of the key the error is about: every rule says which option (MdgetError.option)
    const key = error.option ?? named[0];
    if (key === undefined) throw error;
    // every key is named with its series (`series "a": end`): the message names the series once
    const label = `series "${series.name}": `;
    const message = label + error.message.replaceAll(label, '');
    throw new MdgetError(error.code, `${series.where(key)}: ${message}`, { cause: error, option: key });
  }
  const requests = jobs.flatMap((job) => job.requests);
  const job: Job = { ...(jobs[0] as Job), requests, warnings: [] };
  return { series, job, outputs: outputsOf(series, requests, ctx) };
}

/**
 * The download options a series is resolved with. Events go one symbol at a time (the service takes a
 * list in one request, which would write one file for all), futures options one trading day at a time.
 */
function queriesOf(series: Series, now: Date): DownloadOptions[] {
  const { options } = series;
  const symbols = typeof options.symbols === 'string' ? [options.symbols] : [...options.symbols];
  if (series.kind === 'events' && symbols.length > 1)
    return symbols.map((symbol) => ({ ...options, symbols: [symbol] }));
  if (series.kind !== 'futopts') return [options];
  const { start, end, ...rest } = options as DownloadOptions<'futopts'> & { start: string; end: string };
  const zone = serviceZone(symbols[0] ?? '', { nearby: false });
  const first = parseDateInput(String(start), series.names('start'), zone, now, 'start');
  const last = parseDateInput(String(end), series.names('end'), zone, now, 'end');
  // the range cut into days as every download's windows are (plan/windows.ts); the weekends have no chains
  const days = planDayWindows({ start: first, end: last })
    .map((window) => window.start)
    .filter((day) => day.getUTCDay() !== 0 && day.getUTCDay() !== 6)
    .map((day) => ({ ...rest, date: isoDay(day) }) as DownloadOptions);
  return days.length > 0 ? days : [{ ...rest, date: isoDay(first) } as DownloadOptions];
}

/** The requests grouped by file, in plan order. Two symbols folding into one file are refused. */
function outputsOf(
  series: Series,
  requests: readonly PlannedRequest[],
  ctx: PlanningContext,
): DatasetOutput[] {
  const byPath = new Map<string, DatasetOutput>();
  for (const request of requests) {
    if (request.output.kind !== 'file') continue;
    const { path } = request.output;
    let output = byPath.get(path);
    if (!output) {
      output = {
        series,
        path,
        key: relative(ctx.root, path).split(sep).join('/'),
        symbol: request.symbol,
        window: {},
        zone: request.zone,
        provisional: false,
        requests: [],
      };
      byPath.set(path, output);
    } else if (output.symbol !== request.symbol) {
      throw new MdgetError(
        'MDGET_USAGE',
        `${series.where('output')}: ${series.names('output')} writes ${output.symbol} and ${request.symbol} into one file, ${output.key}: put {symbol} in it`,
      );
    }
    output.requests.push(request);
    const window = windowOf(request);
    if (window.start && (!output.window.start || window.start < output.window.start))
      output.window.start = window.start;
    if (!window.end) output.window.end = undefined;
    else if (output.requests.length === 1 || (output.window.end && window.end > output.window.end))
      output.window.end = window.end;
    if (isProvisional(request, ctx.now)) output.provisional = true;
  }
  for (const output of byPath.values()) if (output.window.end === undefined) delete output.window.end;
  return [...byPath.values()];
}

/** A request whose window reaches past the data cut-off (now, on its market's wall clock). */
function isProvisional(request: PlannedRequest, now: Date): boolean {
  if (request.series) return request.series.provisional;
  const end = request.range?.end;
  return !end || end.getTime() > wallClockIn(request.zone, now).getTime();
}

/**
 * Plans every series of a dataset before anything is sent: a mistake in any is found first. Two series
 * (or two reference files) writing one path are refused.
 */
export function planDataset(
  series: readonly Series[],
  ctx: PlanningContext,
  reference: readonly { path: string; where: string }[] = [],
): SeriesPlan[] {
  const plans = series.map((s) => planSeries(s, ctx));
  const owners = new Map<string, string>();
  const claim = (path: string, who: string, where: string) => {
    const other = owners.get(path);
    if (other !== undefined)
      throw new MdgetError(
        'MDGET_USAGE',
        `${where}: ${who} writes ${relative(ctx.root, path)}, which ${other} writes too: give them different paths`,
      );
    owners.set(path, who);
  };
  for (const plan of plans)
    for (const output of plan.outputs)
      claim(output.path, `series ${plan.series.name}`, plan.series.where('output'));
  for (const file of reference) claim(file.path, 'the reference file', file.where);
  return plans;
}
