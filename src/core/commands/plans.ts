import {
  checkRange,
  planDayWindows,
  planWindows,
  resolveDayRange,
  splitByLength,
  type Window,
} from '../chunks.js';
import type { Config } from '../config.js';
import { isoDay, marketZone, todayIn, type WallTime } from '../dates.js';
import type { PlannedRequest } from '../download.js';
import {
  buildEodDateRangeUrl,
  buildEodUrl,
  buildEventsUrl,
  buildFormTMinutesUrl,
  buildFuturesOptionsJsonUrl,
  buildFuturesOptionsUrl,
  buildMinuteDateRangeUrl,
  buildMinutesUrl,
  buildNearbyMinutesUrl,
  buildTicksUrl,
  type EodParams,
  type EventsParams,
  type ExtraParams,
  encodeQueryValue,
  type FuturesOptionsParams,
  type MinutesParams,
  type TicksParams,
} from '../request-builders.js';

/** What every plan needs besides its own parameters. */
export interface PlanContext {
  config: Config;
  /** The instant "today" is taken from, in each symbol's market zone. */
  now: Date;
  extra?: ExtraParams;
}

/** Days per minutes request when a long range is split (the service's row cap is unknown, spec §1.6). */
export const MINUTE_WINDOW_DAYS = 31;
/** Query budget per request (spec §1.1). */
export const MAX_QUERY_BYTES = 2000;

const label = (time: WallTime) => isoDay(time);

function windowLabels(window: Window): { start: string; end: string } {
  // end is exclusive: a window ending at a midnight is labelled by its last day
  const lastDay =
    window.end.getTime() > window.start.getTime() ? new Date(window.end.getTime() - 1) : window.end;
  return { start: label(window.start), end: label(lastDay) };
}

/** One ticks request per symbol and calendar day, days newest first under --order desc (spec §2.1). */
export function planTicks(
  symbols: readonly string[],
  params: TicksParams,
  ctx: PlanContext,
): PlannedRequest[] {
  checkRange(params.start, params.end);
  return symbols.flatMap((symbol) => {
    const range = resolveDayRange(params.start, params.end, () => todayIn(marketZone(symbol), ctx.now));
    const windows = planDayWindows(range);
    if (params.order === 'desc') windows.reverse();
    return windows.map((window) => ({
      url: buildTicksUrl(ctx.config, symbol, { ...params, ...window }, ctx.extra),
      kind: 'ticks' as const,
      command: 'ticks',
      symbol,
      ...windowLabels(window),
      trend: params.trend ?? false,
    }));
  });
}

export type MinutesVariant = 'minutes' | 'nearby' | 'form-t';

/**
 * Minutes requests per symbol; a range with both ends and no maxrecords is split into windows of
 * MINUTE_WINDOW_DAYS (cli.md: long ranges are split), newest first under --order desc.
 */
export function planMinutes(
  symbols: readonly string[],
  params: MinutesParams,
  variant: MinutesVariant,
  ctx: PlanContext,
): PlannedRequest[] {
  checkRange(params.start, params.end);
  const build =
    variant === 'nearby'
      ? buildNearbyMinutesUrl
      : variant === 'form-t'
        ? buildFormTMinutesUrl
        : buildMinutesUrl;
  const kind = variant === 'nearby' ? ('nearbyMinutes' as const) : ('minutes' as const);
  return symbols.flatMap((symbol) => {
    const windows: (Partial<Window> & { labels?: { start: string; end: string } })[] = [];
    if (params.start && params.end && params.maxrecords === undefined) {
      const list = planWindows({ start: params.start, end: params.end }, MINUTE_WINDOW_DAYS);
      if (params.order === 'desc') list.reverse();
      windows.push(...list.map((w) => ({ ...w, labels: windowLabels(w) })));
    } else {
      const range =
        (params.start ?? params.end) ? resolveDayRange(params.start, params.end, () => ctx.now) : undefined;
      windows.push({
        ...(params.start ? { start: params.start } : {}),
        ...(params.end ? { end: params.end } : {}),
        ...(range && params.start ? { labels: windowLabels(range) } : {}),
      });
    }
    return windows.map(({ labels, ...window }) => ({
      url: build(ctx.config, symbol, { ...params, ...window }, ctx.extra),
      kind,
      command: 'minutes',
      symbol,
      ...(labels ?? {}),
      trend: params.trend ?? false,
    }));
  });
}

/** One EOD request per symbol. */
export function planEod(symbols: readonly string[], params: EodParams, ctx: PlanContext): PlannedRequest[] {
  checkRange(params.start, params.end);
  return symbols.map((symbol) => ({
    url: buildEodUrl(ctx.config, symbol, params, ctx.extra),
    kind: 'eod' as const,
    command: 'eod',
    symbol,
    ...(params.start ? { start: label(params.start) } : {}),
    ...(params.end ? { end: label(new Date(params.end.getTime() - 1)) } : {}),
    trend: params.trend ?? false,
  }));
}

function symbolLists(symbols: readonly string[], base: (list: string[]) => URL): string[][] {
  const fixed = base([]).href.length;
  return splitByLength(symbols, (s) => encodeQueryValue(s).length + 1, MAX_QUERY_BYTES - fixed);
}

/** Events: one request with all symbols, split only past the query budget (spec §2.6). */
export function planEvents(
  symbols: readonly string[],
  params: EventsParams,
  ctx: PlanContext,
): PlannedRequest[] {
  checkRange(params.start, params.end);
  const build = (list: readonly string[]) => buildEventsUrl(ctx.config, list, params, ctx.extra);
  return symbolLists(symbols, build).map((list) => ({
    url: build(list),
    kind: 'events' as const,
    command: 'events',
    symbol: list.join(','),
    ...(params.start ? { start: label(params.start) } : {}),
    ...(params.end ? { end: label(params.end) } : {}),
    trend: false,
  }));
}

/** Date ranges of the minute or EOD database for a symbol list (spec §2.7). */
export function planDateRange(
  database: 'minutes' | 'eod',
  symbols: readonly string[],
  ctx: PlanContext,
): PlannedRequest[] {
  const build = (list: readonly string[]) =>
    database === 'minutes'
      ? buildMinuteDateRangeUrl(ctx.config, list, ctx.extra)
      : buildEodDateRangeUrl(ctx.config, list, ctx.extra);
  return symbolLists(symbols, build).map((list) => ({
    url: build(list),
    kind: 'dateRange' as const,
    command: 'daterange',
    symbol: list.join(','),
    trend: false,
  }));
}

/** Futures options: one request per root, CSV or JSON (spec §2.8). */
export function planFuturesOptions(
  roots: readonly string[],
  params: FuturesOptionsParams,
  json: boolean,
  ctx: PlanContext,
): PlannedRequest[] {
  const build = json ? buildFuturesOptionsJsonUrl : buildFuturesOptionsUrl;
  return roots.map((root) => ({
    url: build(ctx.config, root, params, ctx.extra),
    kind: json ? ('opaque' as const) : ('futuresOptions' as const),
    command: 'futopts',
    symbol: root,
    ...(params.date ? { start: label(params.date), end: label(params.date) } : {}),
    trend: false,
    jsonBody: json,
  }));
}
