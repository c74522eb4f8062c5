import { DEFAULTS } from '../model/defaults.js';
import type { MinutesVariant } from '../model/options.js';
import { addDays, isoDay, startOfDay, todayIn, type WallTime, wallClockIn } from '../time/dates.js';
import type { RequestPlan } from './planned-request.js';
import type { SeriesRequest, SeriesWindow } from './series.js';
import {
  type DateSlot,
  type EodParams,
  type EventsParams,
  type ExtraParams,
  encodeQueryValue,
  eodDateRangeRequest,
  eodRequest,
  eventsRequest,
  formTMinutesRequest,
  futuresOptionsJsonRequest,
  futuresOptionsRequest,
  type MinutesParams,
  minuteDateRangeRequest,
  minutesRequest,
  nearbyMinutesRequest,
  requestTarget,
  type ServiceRequest,
  type TicksParams,
  ticksRequest,
} from './urls.js';
import { eodRowsPerDay, sessionMinutes, windowMs } from './window-size.js';
import { planDayWindows, planWindows, resolveDayRange, splitByLength, type Window } from './windows.js';

/** What every plan needs besides its own parameters: no configuration, no credentials. */
export interface PlanContext {
  /** The instant "today" and the data cut-off are taken from, in each symbol's zone. */
  now: Date;
  extra?: ExtraParams;
  /** --window: the length of the windows a long range is split into, overriding the sizing from rows. */
  windowMs?: number;
  /** --max-rows: the server's cap as the user states it; windows are sized to stay under it. */
  maxRows?: number;
  /** The zone the service uses for a symbol (plan/zones.ts). */
  zoneOf(symbol: string): string;
  /**
   * The query's dates for a symbol, read in its zone (relative dates and offsets need it); with --update
   * and no end, the range runs to the end of today.
   */
  datesOf(symbol: string): QueryDates;
}

/** The dates of a query in wall-clock time, each may be open. */
export interface QueryDates {
  start?: WallTime;
  end?: WallTime;
  /** futopts' trading date. */
  date?: WallTime;
}

/** A query's parameters without its dates, which the plan reads per symbol (PlanContext.datesOf). */
type Undated<P> = Omit<P, 'start' | 'end' | 'date'>;

/** Query budget per request (docs/service.md#requests). */
const MAX_QUERY_BYTES = 2000;

/**
 * Room kept in that budget for what is added when the request is sent: the credentials and the base URL's
 * path, which a plan does not know (urls.ts requestUrl).
 */
const SENT_ROOM = 300;

/** A time series' dates: those of the window each request is sent for. */
const WINDOW: { start: DateSlot; end: DateSlot } = { start: { slot: 'start' }, end: { slot: 'end' } };

const DAY_MS = 86_400_000;
const ANY_ZONE_BEHIND_MS = 12 * 3_600_000;
const label = (time: WallTime) => isoDay(time);

/** The YYYY-MM-DD labels of a window for templates: a window ending at a midnight is labelled by its last day. */
export function windowLabels(window: Partial<Window>): { start?: string; end?: string } {
  // end is exclusive: a window ending at a midnight is labelled by its last day
  const { start, end } = window;
  const lastDay = end && start && end.getTime() > start.getTime() ? new Date(end.getTime() - 1) : end;
  return { ...(start ? { start: label(start) } : {}), ...(lastDay ? { end: label(lastDay) } : {}) };
}

/**
 * True when a window reaches past the data cut-off: now on the market's wall clock
 * (docs/completeness.md#provisional-windows).
 */
function isProvisional(window: SeriesWindow, zone: string, ctx: PlanContext): boolean {
  if (!window.end) return true;
  // No zone's clock is more than 12 h behind UTC (offsets run from -12:00 to +14:00): an end older than
  // that is past everywhere, and the zone's formatter, whose first use costs ~100 ms of ICU loading
  // (bench/README.md#start-up), is not needed.
  if (window.end.getTime() <= ctx.now.getTime() - ANY_ZONE_BEHIND_MS) return false;
  return window.end.getTime() > wallClockIn(zone, ctx.now).getTime();
}

/** A planned time-series request of one window; `userLimit` is the user's own --maxrecords. */
function seriesPlan(
  base: Omit<RequestPlan, 'request' | 'series'>,
  window: SeriesWindow,
  series: Omit<SeriesRequest, 'window' | 'provisional'>,
  request: ServiceRequest,
  ctx: PlanContext,
): RequestPlan {
  return {
    ...base,
    ...windowLabels(window),
    request,
    series: { ...series, window, provisional: isProvisional(window, base.zone, ctx) },
  };
}

/**
 * One ticks request per symbol and calendar day (the service serves one day), or per shorter window with
 * --window; newest first under --order desc.
 */
export function planTicks(
  symbols: readonly string[],
  params: Undated<TicksParams>,
  ctx: PlanContext,
): RequestPlan[] {
  const order = params.order ?? DEFAULTS.order;
  return symbols.flatMap((symbol) => {
    const zone = ctx.zoneOf(symbol);
    const { start, end } = ctx.datesOf(symbol);
    const range = resolveDayRange(start, end, () => todayIn(zone, ctx.now));
    const windows = ctx.windowMs === undefined ? planDayWindows(range) : planWindows(range, ctx.windowMs);
    if (order === 'desc') windows.reverse();
    const request = ticksRequest(symbol, { ...params, ...WINDOW }, ctx.extra);
    return windows.map((window) =>
      seriesPlan(
        { kind: 'ticks', command: 'ticks', symbol, zone, trend: params.trend ?? false },
        window,
        { order, resolution: 'second', filterEnd: true, ...limitOf(params.maxrecords) },
        request,
        ctx,
      ),
    );
  });
}

/**
 * Minutes requests per symbol, a range split into windows sized from the bars a day holds, newest first
 * under --order desc. With the user's --maxrecords the request goes as asked, unsplit.
 */
export function planMinutes(
  symbols: readonly string[],
  params: Undated<MinutesParams>,
  variant: MinutesVariant,
  ctx: PlanContext,
): RequestPlan[] {
  const builder =
    variant === 'nearby' ? nearbyMinutesRequest : variant === 'form-t' ? formTMinutesRequest : minutesRequest;
  const kind = variant === 'nearby' ? ('nearbyMinutes' as const) : ('minutes' as const);
  const order = params.order ?? DEFAULTS.order;
  return symbols.flatMap((symbol) => {
    const zone = ctx.zoneOf(symbol);
    const { start, end } = ctx.datesOf(symbol);
    const request = builder(symbol, { ...params, ...WINDOW }, ctx.extra);
    const base = { kind, command: 'minutes', symbol, zone, trend: params.trend ?? false };
    const series = { order, resolution: 'minute' as const, filterEnd: true, ...limitOf(params.maxrecords) };
    if (params.maxrecords !== undefined) {
      // As asked: maxrecords picks the first (or last) N of the range the service resolves.
      return [
        seriesPlan(base, { ...(start ? { start } : {}), ...(end ? { end } : {}) }, series, request, ctx),
      ];
    }
    const range = resolveDayRange(start, end, () => todayIn(zone, ctx.now));
    const rowsPerDay = sessionMinutes(symbol, variant) / (params.interval ?? 1);
    const windows = planWindows(range, ctx.windowMs ?? windowMs(rowsPerDay, ctx.maxRows));
    if (order === 'desc') windows.reverse();
    return windows.map((window) => seriesPlan(base, window, series, request, ctx));
  });
}

/**
 * EOD requests per symbol. A daily range with a start is split into windows sized from the trading days
 * they hold; longer periods, and a range without a start, go as one window completed by continuations.
 */
export function planEod(
  symbols: readonly string[],
  params: Undated<EodParams>,
  ctx: PlanContext,
): RequestPlan[] {
  const order = params.order ?? DEFAULTS.order;
  const daily = (params.period ?? 'daily') === 'daily';
  return symbols.flatMap((symbol) => {
    const zone = ctx.zoneOf(symbol);
    const { start, end } = ctx.datesOf(symbol);
    // The service ignores maxrecords when a start is given: then it limits nothing.
    const userLimit = start ? undefined : params.maxrecords;
    // The service's EOD end is inclusive and it aggregates a longer period from the days it selects, so
    // a weekly bar would take in the --end day; filtering rows cannot undo that, so such a request
    // ends at the last day before --end (docs/completeness.md#eods-inclusive-end).
    const request = eodRequest(
      symbol,
      { ...params, start: WINDOW.start, end: daily ? WINDOW.end : { slot: 'lastDayBefore' } },
      ctx.extra,
    );
    const base = { kind: 'eod' as const, command: 'eod', symbol, zone, trend: params.trend ?? false };
    const series = { order, resolution: 'day' as const, filterEnd: daily, ...limitOf(userLimit) };
    let windows: SeriesWindow[] = [{ ...(start ? { start } : {}), ...(end ? { end } : {}) }];
    if (daily && start && userLimit === undefined) {
      const split = planWindows(
        { start, end: end ?? new Date(todayIn(zone, ctx.now).getTime() + DAY_MS) },
        ctx.windowMs ?? windowMs(eodRowsPerDay(params.period), ctx.maxRows),
      );
      // Without an end the last window stays open: the service decides where its data ends.
      windows = split.map((w, i) => (i === split.length - 1 && !end ? { start: w.start } : w));
      if (order === 'desc') windows.reverse();
    }
    return windows.map((window) => seriesPlan(base, window, series, request, ctx));
  });
}

function limitOf(maxrecords: number | undefined): { userLimit?: number } {
  return maxrecords === undefined ? {} : { userLimit: maxrecords };
}

function symbolLists(symbols: readonly string[], request: (list: string[]) => ServiceRequest): string[][] {
  const fixed = requestTarget(request([])).length + SENT_ROOM;
  return splitByLength(symbols, (s) => encodeQueryValue(s).length + 1, MAX_QUERY_BYTES - fixed);
}

/**
 * Events: one request with all symbols, split only past the query budget. Its dates are read in the first
 * symbol's zone: a list request has one range.
 */
export function planEvents(
  symbols: readonly string[],
  params: Undated<EventsParams>,
  ctx: PlanContext,
): RequestPlan[] {
  const first = symbols[0] ?? '';
  const { start, end } = ctx.datesOf(first);
  const dated = { ...params, ...(start ? { start } : {}), ...(end ? { end } : {}) };
  const build = (list: readonly string[]) => eventsRequest(list, dated, ctx.extra);
  return symbolLists(symbols, build).map((list) => ({
    request: build(list),
    kind: 'events' as const,
    command: 'events',
    symbol: list.join(','),
    zone: ctx.zoneOf(first),
    ...(start ? { start: label(start) } : {}),
    ...(end ? { end: label(end) } : {}),
    range: { ...(start ? { start } : {}), ...(end ? { end } : {}) },
    trend: false,
  }));
}

/** Date ranges of the minute or EOD database for a symbol list. */
export function planDateRange(
  database: 'minutes' | 'eod',
  symbols: readonly string[],
  ctx: PlanContext,
): RequestPlan[] {
  const build = (list: readonly string[]) =>
    database === 'minutes' ? minuteDateRangeRequest(list, ctx.extra) : eodDateRangeRequest(list, ctx.extra);
  return symbolLists(symbols, build).map((list) => ({
    request: build(list),
    kind: 'dateRange' as const,
    command: 'daterange',
    symbol: list.join(','),
    zone: ctx.zoneOf(symbols[0] ?? ''),
    trend: false,
  }));
}

/** Futures options: one request per root, CSV or JSON, for a trading date (a whole day). */
export function planFuturesOptions(roots: readonly string[], json: boolean, ctx: PlanContext): RequestPlan[] {
  const build = json ? futuresOptionsJsonRequest : futuresOptionsRequest;
  return roots.map((root) => {
    const { date } = ctx.datesOf(root);
    const day = date && startOfDay(date);
    return {
      request: build(root, day ? { date: day } : {}, ctx.extra),
      kind: json ? ('opaque' as const) : ('futuresOptions' as const),
      command: 'futopts',
      symbol: root,
      zone: ctx.zoneOf(root),
      ...(day ? { start: label(day), end: label(day), range: { start: day, end: addDays(day, 1) } } : {}),
      trend: false,
      jsonBody: json,
    };
  });
}
