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
import { formatServiceDate, type WallTime } from '../time/dates.js';

export type { ExtraParams } from '../model/options.js';

/** Parameters of each request builder, derived from its table in params.ts (one declaration, no drift). */
export type TicksParams = ParamsOf<typeof ticksParams>;
export type MinutesParams = ParamsOf<typeof minutesParams>;
export type EodParams = ParamsOf<typeof eodParams>;
export type EventsParams = ParamsOf<typeof eventsParams>;
export type FuturesOptionsParams = ParamsOf<typeof futuresOptionsParams>;

/** The ten historical pages (docs/service.md#endpoints). */
export const PAGES = {
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
export function buildUrl(base: string, page: string, query: readonly (readonly [string, QueryValue])[]): URL {
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

/** Query pairs from a parameter table and typed values: dates in service form, flags as their sent value. */
export function queryFromSpecs(specs: readonly ParamSpec[], values: object): [string, string | undefined][] {
  const record = values as Record<string, unknown>;
  const out: [string, string | undefined][] = [];
  for (const spec of specs) {
    if (spec.query === '' || spec.query === 'data') continue; // endpoint selectors; data is composed by eod
    const value = record[optionKey(spec.flag)];
    if (value === undefined || value === false) continue;
    if (spec.kind === 'date') out.push([spec.query, formatServiceDate(value as WallTime)]);
    else if (spec.kind === 'flag') out.push([spec.query, spec.sent ?? 'true']);
    else out.push([spec.query, String(value)]);
  }
  return out;
}

function historical(config: Config): string {
  return config.historicalUrl ?? '';
}

function credentials(config: Config): [string, string | undefined][] {
  return [
    ['username', config.username],
    ['password', config.password],
  ];
}

function build(
  base: string,
  page: Page,
  config: Config,
  head: [string, QueryValue][],
  specs: readonly ParamSpec[],
  values: object,
  extra: ExtraParams,
): URL {
  return buildUrl(base, page, [...credentials(config), ...head, ...queryFromSpecs(specs, values), ...extra]);
}

/** Ticks always send `order` (default asc): unset, the service does not guarantee an order. */
export function buildTicksUrl(
  config: Config,
  symbol: string,
  params: TicksParams,
  extra: ExtraParams = [],
): URL {
  const values = { ...params, order: params.order ?? DEFAULTS.order };
  return build(historical(config), PAGES.ticks, config, [['symbol', symbol]], ticksParams, values, extra);
}

function minutesLike(page: Page) {
  return (config: Config, symbol: string, params: MinutesParams, extra: ExtraParams = []): URL => {
    const values = { ...params, order: params.order ?? DEFAULTS.order };
    return build(historical(config), page, config, [['symbol', symbol]], minutesParams, values, extra);
  };
}
/** queryminutes.ashx */
export const buildMinutesUrl = minutesLike(PAGES.minutes);
/** querynearbyminutes.ashx: only the symbol's root counts (docs/service.md#nearby-minute-bars). */
export const buildNearbyMinutesUrl = minutesLike(PAGES.nearbyMinutes);
/** queryformtminutes.ashx */
export const buildFormTMinutesUrl = minutesLike(PAGES.formTMinutes);

/** The `data` value: period plus an optional nearest/continue suffix; unset when all are defaults. */
export function eodDataValue(params: EodParams): string | undefined {
  const suffix = params.nearest ? 'nearest' : params.continue ? 'continue' : '';
  if (!params.period && !suffix) return undefined;
  return (params.period ?? 'daily') + suffix;
}

/** queryeod.ashx */
export function buildEodUrl(config: Config, symbol: string, params: EodParams, extra: ExtraParams = []): URL {
  const values = { ...params, order: params.order ?? DEFAULTS.order };
  const head: [string, QueryValue][] = [
    ['symbol', symbol],
    ['data', eodDataValue(params)],
  ];
  return build(historical(config), PAGES.eod, config, head, eodParams, values, extra);
}

function buildListUrl(
  config: Config,
  page: Page,
  symbols: readonly string[],
  specs: readonly ParamSpec[],
  params: object,
  extra: ExtraParams,
): URL {
  return build(historical(config), page, config, [['symbols', symbols]], specs, params, extra);
}

/** queryevents.ashx: `symbols` is plural, a comma list (docs/service.md#events). */
export function buildEventsUrl(
  config: Config,
  symbols: readonly string[],
  params: EventsParams,
  extra: ExtraParams = [],
): URL {
  return buildListUrl(config, PAGES.events, symbols, eventsParams, params, extra);
}

/** queryminutedaterange.ashx */
export function buildMinuteDateRangeUrl(
  config: Config,
  symbols: readonly string[],
  extra: ExtraParams = [],
): URL {
  return buildListUrl(config, PAGES.minuteDateRange, symbols, dateRangeParams, {}, extra);
}

/** queryeoddaterange.ashx */
export function buildEodDateRangeUrl(
  config: Config,
  symbols: readonly string[],
  extra: ExtraParams = [],
): URL {
  return buildListUrl(config, PAGES.eodDateRange, symbols, dateRangeParams, {}, extra);
}

function futuresOptions(page: Page) {
  return (config: Config, root: string, params: FuturesOptionsParams, extra: ExtraParams = []): URL =>
    build(
      config.futuresOptionsUrl ?? '',
      page,
      config,
      [['root', root]],
      futuresOptionsParams,
      params,
      extra,
    );
}
/** futuresoptions (CSV) on the futures-options base. */
export const buildFuturesOptionsUrl = futuresOptions(PAGES.futuresOptions);
/** futuresoptions/json on the futures-options base. */
export const buildFuturesOptionsJsonUrl = futuresOptions(PAGES.futuresOptionsJson);

/** {extras}/<name>.php: no credentials are sent to this host (docs/service.md#exchanges-list). */
export function buildExchangesUrl(config: Config): URL {
  return buildUrl(config.extrasUrl ?? '', `${encodeQueryValue(config.exchangesPath ?? '')}.php`, []);
}

/** {instruments}/<id>-instruments.json, the id percent-encoded (docs/service.md#instruments-files). */
export function buildInstrumentsUrl(config: Config, exchangeId: string): URL {
  return buildUrl(config.instrumentsUrl ?? '', `${encodeQueryValue(exchangeId)}-instruments.json`, []);
}
