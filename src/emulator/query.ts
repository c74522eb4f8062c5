/**
 * Reading and validating query parameters. Names are case-insensitive and `name=` means absent
 * (docs/service.md#requests); a bad value becomes an in-band `Error:` line through ServiceError.
 */
import { type Instrument, lookupSymbol } from './catalogue.js';
import { MS_PER_DAY, parseServiceDate, wallClockOf, type Zone } from './dates.js';
import type { EmulatorOptions, ErrorTexts } from './options.js';
import type { Selection } from './records.js';

/** An in-band error: the response is this one line. `symbol` errors may become an empty body instead. */
export class ServiceError extends Error {
  constructor(
    readonly line: string,
    readonly isSymbolError = false,
  ) {
    super(line);
  }
}

/** One request as the handlers see it. */
export interface Context {
  /** Lower-case names; the first occurrence wins; empty values left out. */
  params: Map<string, string>;
  options: EmulatorOptions;
  now: Date;
}

/** Parses a raw query string: names lower-cased, `+` read as a space as ASP.NET does. */
export function parseQuery(rawQuery: string): { all: Record<string, string>; params: Map<string, string> } {
  const all: Record<string, string> = {};
  const params = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(rawQuery)) {
    const key = name.toLowerCase();
    if (!(key in all)) all[key] = value;
    if (value !== '' && !params.has(key)) params.set(key, value);
  }
  return { all, params };
}

/** Fills an error text template. */
export function errorLine(texts: ErrorTexts, key: keyof ErrorTexts, values: Record<string, string>): string {
  return texts[key].replace(/<(name|value|sym)>/g, (_, field: string) => values[field] ?? '');
}

/** Throws the in-band error `key` of the configured texts. */
export function fail(ctx: Context, key: keyof ErrorTexts, values: Record<string, string>): never {
  throw new ServiceError(
    errorLine(ctx.options.errorTexts, key, values),
    key === 'unknownSymbol' || key === 'notEntitled',
  );
}

/** A required parameter's value. */
export function requireParam(ctx: Context, name: string): string {
  const value = ctx.params.get(name);
  if (value === undefined) fail(ctx, 'missingParameter', { name });
  return value;
}

/** A `yyyymmdd[hhmm[ss]]` parameter as wall-clock ms, or undefined when absent. */
export function dateParam(ctx: Context, name: string): number | undefined {
  const value = ctx.params.get(name);
  if (value === undefined) return undefined;
  const parsed = parseServiceDate(value);
  if (parsed === undefined) fail(ctx, 'invalidDate', { value, name });
  return parsed;
}

/** A date parameter reduced to its day number (EOD, events: the time is ignored). */
export function dayParam(ctx: Context, name: string): number | undefined {
  const ms = dateParam(ctx, name);
  return ms === undefined ? undefined : Math.floor(ms / MS_PER_DAY);
}

/** An integer parameter within [min, max], or undefined when absent. */
export function intParam(
  ctx: Context,
  name: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number | undefined {
  const value = ctx.params.get(name);
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!/^\d+$/.test(value) || number < min || number > max) fail(ctx, 'invalidValue', { name, value });
  return number;
}

/** An enumerated parameter (case-insensitive), its default when absent. */
export function choiceParam<T extends string>(
  ctx: Context,
  name: string,
  choices: readonly T[],
  fallback: T,
): T {
  const value = ctx.params.get(name);
  if (value === undefined) return fallback;
  const found = choices.find((choice) => choice === value.toLowerCase());
  if (found === undefined) fail(ctx, 'invalidValue', { name, value });
  return found;
}

/** A `true`/`false` parameter. */
export function boolParam(ctx: Context, name: string, fallback: boolean): boolean {
  return choiceParam(ctx, name, ['true', 'false'], fallback ? 'true' : 'false') === 'true';
}

/** True when `trend=y`; anything else leaves trend lines off. */
export function trendParam(ctx: Context): boolean {
  return ctx.params.get('trend')?.toLowerCase() === 'y';
}

/** The instrument a symbol names, or the unknown-symbol / not-entitled error. */
export function resolveSymbol(ctx: Context, symbol: string): Instrument {
  const lookup = lookupSymbol(symbol);
  if (lookup.status === 'ok') return lookup.instrument;
  fail(ctx, lookup.status === 'unknown' ? 'unknownSymbol' : 'notEntitled', { sym: symbol });
}

/** `maxrecords` and `order` (docs/service.md#maxrecords-and-order): unset or unknown order is ascending. */
export function selectionOf(
  ctx: Context,
  hasStart: boolean,
  hasEnd: boolean,
  ignoreMaxRecords = false,
): Selection {
  const maxRecords = intParam(ctx, 'maxrecords', 1);
  const rowCap = ctx.options.rowCap;
  const limit = ignoreMaxRecords ? undefined : maxRecords;
  return {
    maxRecords: rowCap === undefined ? limit : Math.min(limit ?? rowCap, rowCap),
    descending: ctx.params.get('order')?.toLowerCase() === 'desc',
    tail: !hasStart && hasEnd && limit !== undefined,
  };
}

/** The emulator's "now" on the market's wall clock, in ms. */
export function nowWall(ctx: Context, zone: Zone): number {
  return wallClockOf(ctx.now, zone);
}
