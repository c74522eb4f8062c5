import { usageError } from '../model/errors.js';
import type { WallTime } from '../model/wall-time.js';
import { marketWallTime, parseZonedInput } from './zoned-input.js';

// Nothing here shifts a time between zones; only "today" needs the zone.
export type { WallTime } from '../model/wall-time.js';

const DAY_MS = 86_400_000;
export const EASTERN = 'America/New_York';
export const CENTRAL = 'America/Chicago';

/** The zone the service uses for a symbol: Eastern for equities, Central for futures, forex, indices. */
export function marketZone(symbol: string): string {
  return isEquitySymbol(symbol) ? EASTERN : CENTRAL;
}

/** True for plain equity tickers (AAPL, BRK.B), false for futures (ESM25, ES*1), forex (^EURUSD), indices ($SPX). */
export function isEquitySymbol(symbol: string): boolean {
  const s = symbol.toUpperCase();
  if (/[*^$]/.test(s)) return false;
  if (/^[A-Z0-9]{1,3}[FGHJKMNQUVXZ]\d{1,2}$/.test(s) && /\d$/.test(s)) return false;
  return true;
}

/** The calendar date in `zone` at instant `now`, as a wall-clock midnight. */
export function todayIn(zone: string, now: Date): WallTime {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return new Date(Date.UTC(get('year'), get('month') - 1, get('day')));
}

const clocks = new Map<string, Intl.DateTimeFormat>();

/**
 * The wall clock in `zone` at instant `now`, to the second: the service's data cut-off
 * (docs/completeness.md#provisional-windows).
 */
export function wallClockIn(zone: string, now: Date): WallTime {
  // One formatter per zone: building one costs ~0.4 ms, and every planned window asks.
  let clock = clocks.get(zone);
  if (!clock) {
    clock = new Intl.DateTimeFormat('en-CA', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    clocks.set(zone, clock);
  }
  const parts = clock.formatToParts(now);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return new Date(
    Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')),
  );
}

/**
 * Parses a --start/--end value: YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (or a space), YYYYMMDD[HHMM[SS]],
 * today, yesterday, tomorrow (an end that takes in all of today), <n>d. Throws a usage error naming the flag
 * and the accepted forms, carrying `option`.
 */
export function parseDateInput(
  text: string,
  flag: string,
  zone: string,
  now: Date,
  option?: string,
): WallTime {
  const value = text.trim();
  // A time with an offset or Z names an instant: sent as the market's wall clock then (docs/time-zones.md).
  const instant = parseZonedInput(value, flag, option);
  if (instant) return marketWallTime(instant, zone);
  const lower = value.toLowerCase();
  if (lower === 'today') return todayIn(zone, now);
  if (lower === 'yesterday') return addDays(todayIn(zone, now), -1);
  if (lower === 'tomorrow') return addDays(todayIn(zone, now), 1);
  const ago = /^(\d{1,5})d$/.exec(lower);
  if (ago) return addDays(todayIn(zone, now), -Number(ago[1]));
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(value) ??
    /^(\d{4})(\d{2})(\d{2})(?:(\d{2})(\d{2})(\d{2})?)?$/.exec(value);
  if (m) {
    const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x)));
    const date = new Date(Date.UTC(y!, mo! - 1, d!, h, mi, s));
    const valid =
      date.getUTCFullYear() === y &&
      date.getUTCMonth() === mo! - 1 &&
      date.getUTCDate() === d &&
      h < 24 &&
      mi < 60 &&
      s < 60;
    if (valid) return date;
  }
  throw usageError(
    `invalid ${flag} '${text}': use YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (market time, or with Z or ±HH:MM), YYYYMMDD[HHMM[SS]], today, yesterday, tomorrow or <n>d`,
    option,
  );
}

/**
 * The service's form (docs/service.md#dates-times-and-time-zones): 8 digits at midnight, else 14
 * (yyyymmddhhmmss).
 */
export function formatServiceDate(time: WallTime): string {
  const iso = time.toISOString();
  const day = iso.slice(0, 10).replaceAll('-', '');
  const clock = iso.slice(11, 19).replaceAll(':', '');
  return clock === '000000' ? day : day + clock;
}

/** YYYY-MM-DD of a wall-clock time (for file names and labels). */
export const isoDay = (time: WallTime): string => time.toISOString().slice(0, 10);

/** Midnight of the same wall-clock day. */
export const startOfDay = (time: WallTime): WallTime =>
  new Date(Math.floor(time.getTime() / DAY_MS) * DAY_MS);

/** The wall-clock time `days` calendar days later (DST does not exist in wall-clock arithmetic). */
export const addDays = (time: WallTime, days: number): WallTime => new Date(time.getTime() + days * DAY_MS);
