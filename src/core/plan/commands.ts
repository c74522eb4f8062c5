/**
 * The download commands as one table: what each needs from the configuration, whether it is a time
 * series, its service parameters, its own rules, its format when none is asked, and its planner.
 */
import type { Requirement } from '../model/config.js';
import { DEFAULTS } from '../model/defaults.js';
import { usageError } from '../model/errors.js';
import type { OutputFormat } from '../model/formats.js';
import type { DownloadName, DownloadOptions } from '../model/options.js';
import {
  dateRangeParams,
  eodParams,
  eventsParams,
  futuresOptionsParams,
  minutesParams,
  optionKey,
  type ParamSpec,
  type ParamsOf,
  ticksParams,
} from '../model/params.js';
import { UTC_FORM } from '../time/time-zones.js';
import type { NameOf } from './names.js';
import type { RequestPlan } from './planned-request.js';
import {
  type PlanContext,
  planDateRange,
  planEod,
  planEvents,
  planFuturesOptions,
  planMinutes,
  planTicks,
} from './requests.js';
import { isTemplate } from './templates.js';

/** One download command of the table. */
export interface DownloadCommand<N extends DownloadName> {
  readonly needs: readonly Requirement[];
  /** Ticks, minutes and eod: windows, --update and row caps apply. */
  readonly series: boolean;
  readonly params: readonly ParamSpec[];
  /** The format when none is given. */
  defaultFormat(options: DownloadOptions<N>): OutputFormat;
  /** Its own rules (MDGET_USAGE), beyond the shared ones of rules.ts. */
  check(options: DownloadOptions<N>, names: NameOf): void;
  /** Whether its symbols are nearby roots, which the service reads in Central time (zones.ts). */
  nearby(options: DownloadOptions<N>): boolean;
  plan(options: DownloadOptions<N>, symbols: readonly string[], ctx: PlanContext): RequestPlan[];
}

const HISTORICAL: readonly Requirement[] = ['credentials', 'historical'];
const csv = (): OutputFormat => DEFAULTS.format;
const noRules = () => {};
const never = () => false;

/** Every download command. */
export const DOWNLOAD_COMMANDS: { [N in DownloadName]: DownloadCommand<N> } = {
  ticks: {
    needs: HISTORICAL,
    series: true,
    params: ticksParams,
    defaultFormat: csv,
    check: noRules,
    nearby: never,
    plan: (options, symbols, ctx) => planTicks(symbols, paramsOf(options, ticksParams), ctx),
  },
  minutes: {
    needs: HISTORICAL,
    series: true,
    params: minutesParams,
    defaultFormat: csv,
    check: noRules,
    nearby: (options) => options.variant === 'nearby',
    plan: (options, symbols, ctx) =>
      planMinutes(symbols, paramsOf(options, minutesParams), options.variant ?? 'minutes', ctx),
  },
  eod: {
    needs: HISTORICAL,
    series: true,
    params: eodParams,
    defaultFormat: csv,
    // data=<period>nearest or data=<period>continue: one suffix, never both.
    check: (options, n) => {
      if (options.nearest && options.continue)
        throw usageError(`${n('nearest')} and ${n('continue')} exclude each other`, 'nearest');
    },
    nearby: never,
    plan: (options, symbols, ctx) => planEod(symbols, paramsOf(options, eodParams), ctx),
  },
  events: {
    needs: HISTORICAL,
    series: false,
    params: eventsParams,
    defaultFormat: csv,
    check: noRules,
    nearby: never,
    plan: (options, symbols, ctx) => planEvents(symbols, paramsOf(options, eventsParams), ctx),
  },
  daterange: {
    needs: HISTORICAL,
    series: false,
    params: dateRangeParams,
    defaultFormat: csv,
    check: (options, n) => {
      if (options.database !== 'minutes' && options.database !== 'eod')
        throw usageError(`${n('database')} '${String(options.database)}': use minutes or eod`, 'database');
    },
    nearby: never,
    plan: (options, symbols, ctx) => planDateRange(options.database, symbols, ctx),
  },
  futopts: {
    needs: ['credentials', 'futuresOptions'],
    series: false,
    params: futuresOptionsParams,
    // The JSON document goes through unchanged: json is the format that says so.
    defaultFormat: (options) => (options.json ? 'json' : DEFAULTS.format),
    check: (options, n) => {
      if (!options.json) return;
      const format = options.format ?? 'json';
      const json = n('json');
      if (format !== 'raw' && format !== 'json')
        throw usageError(
          `${json} streams the service JSON through unchanged: use ${n('format')} raw or json with it, not ${format}`,
          'json',
        );
      if (
        options.timeZone !== undefined ||
        options.sourceTimeZone !== undefined ||
        options.columns !== undefined
      ) {
        const rewrites = [
          ...new Set([n('timeZone', UTC_FORM), n('timeZone'), n('sourceTimeZone'), n('columns')]),
        ];
        throw usageError(
          `${json} streams the service JSON through unchanged: ${rewrites.slice(0, -1).join(', ')} and ${rewrites.at(-1)} do not apply`,
          'json',
        );
      }
      const roots = typeof options.symbols === 'string' ? 1 : options.symbols.length;
      if (roots > 1 && !isTemplate(options.output ?? ''))
        throw usageError(
          `${json} with several roots needs an output template such as ${n('output')} "fo-{symbol}.json"`,
          'json',
        );
    },
    nearby: never,
    plan: (options, symbols, ctx) => planFuturesOptions(symbols, Boolean(options.json), ctx),
  },
};

/** The service parameters of `specs` among `options`, but the dates, which the plan reads per symbol. */
function paramsOf<T extends readonly ParamSpec[]>(
  options: object,
  specs: T,
): Omit<ParamsOf<T>, 'start' | 'end' | 'date'> {
  const keys = new Set(
    specs.filter((s) => s.kind !== 'date' && s.query !== '').map((s) => optionKey(s.flag)),
  );
  return Object.fromEntries(
    Object.entries(options).filter(([key, value]) => keys.has(key) && value !== undefined),
  ) as Omit<ParamsOf<T>, 'start' | 'end' | 'date'>;
}
