import type { Config } from '../model/config.js';
import { DEFAULTS } from '../model/defaults.js';
import type { ExtraParams } from '../model/options.js';
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
import { formatServiceDate, startOfDay, type WallTime } from '../time/dates.js';
import type { SeriesWindow } from './series.js';

export type { ExtraParams } from '../model/options.js';

/** Parameters of each request builder, derived from its table in params.ts (one declaration, no drift). */
export type TicksParams = ParamsOf<typeof ticksParams>;
export type MinutesParams = ParamsOf<typeof minutesParams>;
export type EodParams = ParamsOf<typeof eodParams>;
export type EventsParams = ParamsOf<typeof eventsParams>;
export type FuturesOptionsParams = ParamsOf<typeof futuresOptionsParams>;

/** The ten historical pages (docs/service.md#endpoints). */
const PAGES = {
  ticks: 'queryticks.ashx',
  minutes: 'queryminutes.ashx',
  nearbyMinutes: 'querynearbyminutes.ashx',
  formTMinutes: 'queryformtminutes.ashx',
  eod: 'queryeod.ashx',
  events: 'queryevents.ashx',
  minuteDateRange: 'queryminutedaterange.ashx',
  eodDateRange: 'queryeoddaterange.ashx',
  futuresOptions: 'futuresoptions',
  futuresOptionsJson: 'futuresoptions/json',
} as const;
export type Page = (typeof PAGES)[keyof typeof PAGES];

/**
 * Percent-encodes a query value; also `*!'()`, which encodeURIComponent leaves raw
 * (docs/service.md#requests).
 */
export function encodeQueryValue(value: string): string {
  return encodeURIComponent(value).replace(
    /[*!'()]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** A query value; a list goes out as encoded items joined by raw commas (the service takes both forms). */
export type QueryValue = string | readonly string[] | undefined;

/**
 * base + '/' (only if the base lacks one) + page + '?' + query (docs/service.md#hosts). Unset values are
 * omitted.
 */
function buildUrl(base: string, page: string, query: readonly (readonly [string, QueryValue])[]): URL {
  const pairs = query
    .filter(([, value]) => value !== undefined && value !== '' && value.length > 0)
    .map(([name, value]) => {
      const text =
        typeof value === 'string' ? encodeQueryValue(value) : value!.map(encodeQueryValue).join(',');
      return `${encodeQueryValue(name)}=${text}`;
    });
  const joined = base.endsWith('/') ? base + page : `${base}/${page}`;
  return new URL(pairs.length > 0 ? `${joined}?${pairs.join('&')}` : joined);
}

/**
 * A date of a time-series query taken from the window the request is sent for (series.ts): its start, its
 * end, or the last day before its end (EOD periods longer than a day: docs/completeness.md#eods-inclusive-end).
 */
export interface DateSlot {
  slot: 'start' | 'end' | 'lastDayBefore';
}

const isSlot = (value: unknown): value is DateSlot =>
  typeof value === 'object' && value !== null && 'slot' in value;

/** A date a builder takes: fixed, or a slot the request's window fills when it is sent. */
export type DateValue = WallTime | DateSlot;

/** A query value of a planned request: a time series' dates stay slots until it is sent. */
export type QueryPart = readonly [string, QueryValue | DateSlot];

/**
 * What a request asks the service, without the base URL or the credentials: a plan holds this, and the
 * URL is built and signed only when the request is sent (requestUrl). `base` names the configured base
 * URL it goes to.
 */
export interface ServiceRequest {
  base: 'historical' | 'futuresOptions';
  page: Page;
  query: readonly QueryPart[];
}

/** Builder parameters whose dates may be slots. */
type Dated<P> = Omit<P, 'start' | 'end' | 'date'> & { start?: DateValue; end?: DateValue; date?: WallTime };

/** Query pairs from a parameter table and typed values: dates in service form, flags as their sent value. */
function queryFromSpecs(
  specs: readonly ParamSpec[],
  values: object,
): [string, string | DateSlot | undefined][] {
  const record = values as Record<string, unknown>;
  const out: [string, string | DateSlot | undefined][] = [];
  for (const spec of specs) {
    if (spec.query === '' || spec.query === 'data') continue; // endpoint selectors; data is composed by eod
    const value = record[optionKey(spec.flag)];
    if (value === undefined || value === false) continue;
    if (spec.kind === 'date')
      out.push([spec.query, isSlot(value) ? value : formatServiceDate(value as WallTime)]);
    else if (spec.kind === 'flag') out.push([spec.query, spec.sent ?? 'true']);
    else out.push([spec.query, String(value)]);
  }
  return out;
}

function historical(
  page: Page,
  head: QueryPart[],
  specs: readonly ParamSpec[],
  values: object,
  extra: ExtraParams,
): ServiceRequest {
  return { base: 'historical', page, query: [...head, ...queryFromSpecs(specs, values), ...extra] };
}

/** Ticks always send `order` (default asc): unset, the service does not guarantee an order. */
export function ticksRequest(
  symbol: string,
  params: Dated<TicksParams>,
  extra: ExtraParams = [],
): ServiceRequest {
  const values = { ...params, order: params.order ?? DEFAULTS.order };
  return historical(PAGES.ticks, [['symbol', symbol]], ticksParams, values, extra);
}

function minutesLike(page: Page) {
  return (symbol: string, params: Dated<MinutesParams>, extra: ExtraParams = []): ServiceRequest => {
    const values = { ...params, order: params.order ?? DEFAULTS.order };
    return historical(page, [['symbol', symbol]], minutesParams, values, extra);
  };
}
/** queryminutes.ashx */
export const minutesRequest = minutesLike(PAGES.minutes);
/** querynearbyminutes.ashx: only the symbol's root counts (docs/service.md#nearby-minute-bars). */
export const nearbyMinutesRequest = minutesLike(PAGES.nearbyMinutes);
/** queryformtminutes.ashx */
export const formTMinutesRequest = minutesLike(PAGES.formTMinutes);

/** The `data` value: period plus an optional nearest/continue suffix; unset when all are defaults. */
function eodDataValue(params: Pick<EodParams, 'period' | 'nearest' | 'continue'>): string | undefined {
  const suffix = params.nearest ? 'nearest' : params.continue ? 'continue' : '';
  if (!params.period && !suffix) return undefined;
  return (params.period ?? 'daily') + suffix;
}

/** queryeod.ashx */
export function eodRequest(
  symbol: string,
  params: Dated<EodParams>,
  extra: ExtraParams = [],
): ServiceRequest {
  const values = { ...params, order: params.order ?? DEFAULTS.order };
  return historical(
    PAGES.eod,
    [
      ['symbol', symbol],
      ['data', eodDataValue(params)],
    ],
    eodParams,
    values,
    extra,
  );
}

/** queryevents.ashx: `symbols` is plural, a comma list (docs/service.md#events). */
export function eventsRequest(
  symbols: readonly string[],
  params: Dated<EventsParams>,
  extra: ExtraParams = [],
): ServiceRequest {
  return historical(PAGES.events, [['symbols', symbols]], eventsParams, params, extra);
}

/** queryminutedaterange.ashx */
export function minuteDateRangeRequest(symbols: readonly string[], extra: ExtraParams = []): ServiceRequest {
  return historical(PAGES.minuteDateRange, [['symbols', symbols]], dateRangeParams, {}, extra);
}

/** queryeoddaterange.ashx */
export function eodDateRangeRequest(symbols: readonly string[], extra: ExtraParams = []): ServiceRequest {
  return historical(PAGES.eodDateRange, [['symbols', symbols]], dateRangeParams, {}, extra);
}

function futuresOptions(page: Page) {
  return (root: string, params: FuturesOptionsParams, extra: ExtraParams = []): ServiceRequest => ({
    base: 'futuresOptions',
    page,
    query: [['root', root], ...queryFromSpecs(futuresOptionsParams, params), ...extra],
  });
}
/** futuresoptions (CSV) on the futures-options base. */
export const futuresOptionsRequest = futuresOptions(PAGES.futuresOptions);
/** futuresoptions/json on the futures-options base. */
export const futuresOptionsJsonRequest = futuresOptions(PAGES.futuresOptionsJson);

/** The query of `request` with its date slots filled from `window` (an open side leaves the date out). */
function filled(request: ServiceRequest, window: SeriesWindow | undefined): [string, QueryValue][] {
  const date = (slot: DateSlot): string | undefined => {
    const end = window?.end;
    if (slot.slot === 'start') return window?.start && formatServiceDate(window.start);
    if (!end) return undefined;
    return formatServiceDate(slot.slot === 'end' ? end : startOfDay(new Date(end.getTime() - 1)));
  };
  return request.query.map(([name, value]) => [name, isSlot(value) ? date(value) : value]);
}

/** The page and query of `request` for `window`, without base or credentials: `queryeod.ashx?symbol=…`. */
export function requestTarget(request: ServiceRequest, window?: SeriesWindow): string {
  return buildUrl('http://target.invalid/', request.page, filled(request, window)).href.slice(
    'http://target.invalid/'.length,
  );
}

/**
 * The URL of `request` for `window` on the configured base, signed with the credentials first (the
 * service reads them from the query: docs/service.md#requests) unless `sign` is false or they are unset.
 * The base must be set: requireConfig checked it before the run.
 */
export function requestUrl(request: ServiceRequest, config: Config, window?: SeriesWindow, sign = true): URL {
  const base = (request.base === 'historical' ? config.historicalUrl : config.futuresOptionsUrl) ?? '';
  const credentials: [string, QueryValue][] = sign
    ? [
        ['username', config.username],
        ['password', config.password],
      ]
    : [];
  return buildUrl(base, request.page, [...credentials, ...filled(request, window)]);
}

/** {extras}/<name>.php: no credentials are sent to this host (docs/service.md#exchanges-list). */
export function buildExchangesUrl(config: Config): URL {
  return buildUrl(config.extrasUrl ?? '', `${encodeQueryValue(config.exchangesPath ?? '')}.php`, []);
}

/** {instruments}/<id>-instruments.json, the id percent-encoded (docs/service.md#instruments-files). */
export function buildInstrumentsUrl(config: Config, exchangeId: string): URL {
  return buildUrl(config.instrumentsUrl ?? '', `${encodeQueryValue(exchangeId)}-instruments.json`, []);
}
