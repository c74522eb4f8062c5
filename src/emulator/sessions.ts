/**
 * Trading days and hours. Equities: weekdays but NYSE holidays, 04:00-20:00 ET with the regular session
 * 09:30-16:00. Futures: Sunday 17:00 to Friday 16:00 CT with a daily 16:00-17:00 break; the evening belongs
 * to the next trading day (docs/service.md#dates-times-and-time-zones). Forex: Sunday 16:00 to Friday 16:00
 * CT. `^BTCUSD` trades every minute of every day, so its wall clock repeats the autumn DST hour.
 */
import type { Market } from './catalogue.js';
import { dayOf, MINUTES_PER_DAY, nthWeekday, usDaylightDays, weekdayOf, ymdOf } from './dates.js';

/** Wall-clock minutes [from, to) of one stretch of trading; `repeat` marks the second pass of DST. */
export interface Segment {
  from: number;
  to: number;
  weight: number;
  repeat: boolean;
}

/** Which hours a request covers: ticks see extended hours, plain minutes the regular session only. */
export type Hours = 'ticks' | 'minutes' | { formT: [number, number] };

function easterSunday(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return dayOf(year, month, day);
}

function observed(day: number): number {
  const weekday = weekdayOf(day);
  return weekday === 6 ? day - 1 : weekday === 0 ? day + 1 : day;
}

const holidayCache = new Map<number, Set<number>>();

/** NYSE full-day holidays of a year. */
function equityHolidays(year: number): Set<number> {
  const cached = holidayCache.get(year);
  if (cached) return cached;
  const newYear = dayOf(year, 1, 1);
  const days = [
    weekdayOf(newYear) === 0 ? newYear + 1 : newYear, // a Saturday New Year is not observed on Friday
    nthWeekday(year, 1, 1, 3),
    nthWeekday(year, 2, 1, 3),
    easterSunday(year) - 2,
    nthWeekday(year, 5, 1, -1),
    observed(dayOf(year, 7, 4)),
    nthWeekday(year, 9, 1, 1),
    nthWeekday(year, 11, 4, 4),
    observed(dayOf(year, 12, 25)),
  ];
  if (year >= 2022) days.push(observed(dayOf(year, 6, 19)));
  const set = new Set(days);
  holidayCache.set(year, set);
  return set;
}

/** True when the market has a session for trading day `day`. */
export function isTradingDay(market: Market, day: number): boolean {
  if (market.schedule === 'crypto') return true;
  const weekday = weekdayOf(day);
  if (weekday === 0 || weekday === 6) return false;
  const { year, month, day: dom } = ymdOf(day);
  if (market.schedule === 'equity' || market.schedule === 'index') return !equityHolidays(year).has(day);
  return !((month === 1 && dom === 1) || (month === 12 && dom === 25));
}

/** The trading day a wall-clock minute belongs to (futures evenings count for the next day). */
export function tradingDayOf(market: Market, minute: number): number {
  const day = Math.floor(minute / MINUTES_PER_DAY);
  const minuteOfDay = minute - day * MINUTES_PER_DAY;
  if (market.schedule === 'future') return minuteOfDay >= 17 * 60 ? day + 1 : day;
  if (market.schedule === 'forex') return minuteOfDay >= 16 * 60 ? day + 1 : day;
  return day;
}

/** The session window of a trading day for `tickDay=session`: futures from 17:00 the evening before. */
export function sessionWindow(market: Market, day: number): [number, number] {
  const midnight = day * MINUTES_PER_DAY;
  if (market.schedule === 'future') return [midnight - 7 * 60, midnight + 17 * 60];
  if (market.schedule === 'forex') return [midnight - 8 * 60, midnight + 16 * 60];
  return [midnight, midnight + MINUTES_PER_DAY];
}

const segment = (from: number, to: number, weight: number, repeat = false): Segment => ({
  from,
  to,
  weight,
  repeat,
});

function cryptoSegments(day: number): Segment[] {
  const midnight = day * MINUTES_PER_DAY;
  const { start, end } = usDaylightDays(ymdOf(day).year);
  if (day === start)
    return [segment(midnight, midnight + 120, 1), segment(midnight + 180, midnight + 1440, 1)];
  if (day === end) {
    return [
      segment(midnight, midnight + 120, 1),
      segment(midnight + 60, midnight + 120, 1, true),
      segment(midnight + 120, midnight + 1440, 1),
    ];
  }
  return [segment(midnight, midnight + 1440, 1)];
}

/** The minutes of trading day `day`, in real-time order; empty when the market does not trade. */
export function sessionSegments(market: Market, day: number, hours: Hours): Segment[] {
  if (!isTradingDay(market, day)) return [];
  const midnight = day * MINUTES_PER_DAY;
  const at = (minuteOfDay: number) => midnight + minuteOfDay;
  switch (market.schedule) {
    case 'equity':
      if (hours === 'minutes') return [segment(at(570), at(960), 1)];
      if (hours === 'ticks')
        return [
          segment(at(240), at(570), 0.05),
          segment(at(570), at(960), 1),
          segment(at(960), at(1200), 0.05),
        ];
      return [segment(at(hours.formT[0]), at(hours.formT[1]), 1)];
    case 'index':
      return [segment(at(510), at(900), 1)];
    case 'future':
      return [
        segment(at(-420), at(0), 0.25),
        segment(at(0), at(510), 0.25),
        segment(at(510), at(915), 1),
        segment(at(915), at(960), 0.3),
      ];
    case 'forex':
      return [segment(at(-480), at(120), 0.4), segment(at(120), at(660), 1), segment(at(660), at(960), 0.4)];
    case 'crypto':
      return cryptoSegments(day);
  }
}

/** Sum of minutes × weight of a session: spreads a day's tick count over its minutes. */
function sessionWeight(segments: readonly Segment[]): number {
  let total = 0;
  for (const { from, to, weight } of segments) total += (to - from) * weight;
  return total;
}

/** Trading days in [firstDay, lastDay], in ascending order. */
function* tradingDays(market: Market, firstDay: number, lastDay: number): Generator<number> {
  for (let day = firstDay; day <= lastDay; day++) if (isTradingDay(market, day)) yield day;
}

/** Trading days in [firstDay, lastDay], newest first. */
function* tradingDaysBackward(market: Market, firstDay: number, lastDay: number): Generator<number> {
  for (let day = lastDay; day >= firstDay; day--) if (isTradingDay(market, day)) yield day;
}

/** One trading minute: where it sits, how busy it is, and the session it belongs to. */
export interface Slot {
  minute: number;
  day: number;
  weight: number;
  repeat: boolean;
  /** Weight of the whole session: the minute's share of the day's activity is weight / dayWeight. */
  dayWeight: number;
  /** First minute of the session (for `barAlign=session`). */
  sessionOpen: number;
}

/**
 * The trading minutes of trading days firstDay..lastDay that fall in [fromMinute, toMinute), grouped
 * per trading day, in real-time order or newest day first (each day's slots stay chronological).
 */
export function* daySlots(
  market: Market,
  firstDay: number,
  lastDay: number,
  hours: Hours,
  fromMinute: number,
  toMinute: number,
  backward: boolean,
): Generator<Slot[]> {
  const days = backward
    ? tradingDaysBackward(market, firstDay, lastDay)
    : tradingDays(market, firstDay, lastDay);
  for (const day of days) {
    const segments = sessionSegments(market, day, hours);
    const dayWeight = sessionWeight(segments);
    const sessionOpen = segments[0]?.from ?? day * MINUTES_PER_DAY;
    const slots: Slot[] = [];
    for (const { from, to, weight, repeat } of segments) {
      const last = Math.min(to, toMinute);
      for (let minute = Math.max(from, fromMinute); minute < last; minute++) {
        slots.push({ minute, day, weight, repeat, dayWeight, sessionOpen });
      }
    }
    if (slots.length) yield slots;
  }
}
