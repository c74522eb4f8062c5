/**
 * Wall-clock arithmetic. The service speaks market-local wall time with no offset (docs/time-zones.md),
 * so every time here is "milliseconds (or minutes) since 1970-01-01 00:00 of the wall clock, as if it
 * were UTC": plain integer arithmetic, no time-zone library.
 */

export const MS_PER_MINUTE = 60_000;
export const MINUTES_PER_DAY = 1440;
export const MS_PER_DAY = 86_400_000;

/** The market zones of the catalogue; both follow the US daylight-saving rule since 2007. */
export type Zone = 'America/New_York' | 'America/Chicago';

const STANDARD_OFFSET_HOURS: Record<Zone, number> = { 'America/New_York': -5, 'America/Chicago': -6 };

/** Day number (days since 1970-01-01) of a calendar date. */
export function dayOf(year: number, month: number, day: number): number {
  return Math.floor(Date.UTC(year, month - 1, day) / MS_PER_DAY);
}

/** Year, month (1-12) and day of a day number. */
export function ymdOf(dayNumber: number): { year: number; month: number; day: number } {
  const date = new Date(dayNumber * MS_PER_DAY);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** Day of the week of a day number: 0 Sunday .. 6 Saturday. */
export function weekdayOf(dayNumber: number): number {
  return (((dayNumber + 4) % 7) + 7) % 7;
}

/** True on Saturday and Sunday. */
export function isWeekend(dayNumber: number): boolean {
  const weekday = weekdayOf(dayNumber);
  return weekday === 0 || weekday === 6;
}

/** Day number of the n-th (1-based) given weekday of a month; n = -1 for the last one. */
export function nthWeekday(year: number, month: number, weekday: number, n: number): number {
  if (n > 0) {
    const first = dayOf(year, month, 1);
    return first + ((weekday - weekdayOf(first) + 7) % 7) + (n - 1) * 7;
  }
  const last = dayOf(year, month + 1, 1) - 1;
  return last - ((weekdayOf(last) - weekday + 7) % 7);
}

/**
 * Parses the service's `yyyymmdd[hhmm[ss]]` into wall-clock ms; undefined for any other length or an
 * impossible date or time (the emulator answers those with an in-band error).
 */
export function parseServiceDate(text: string): number | undefined {
  if (!/^\d{8}(\d{4}(\d{2})?)?$/.test(text)) return undefined;
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(4, 6));
  const day = Number(text.slice(6, 8));
  const hour = text.length > 8 ? Number(text.slice(8, 10)) : 0;
  const minute = text.length > 8 ? Number(text.slice(10, 12)) : 0;
  const second = text.length > 12 ? Number(text.slice(12, 14)) : 0;
  if (year < 1900 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const dayNumber = dayOf(year, month, day);
  if (ymdOf(dayNumber).day !== day) return undefined;
  return dayNumber * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000;
}

const pad2 = (n: number): string => (n < 10 ? '0' : '') + n;

/** `YYYY-MM-DD` of a day number. */
export function formatDay(dayNumber: number): string {
  const { year, month, day } = ymdOf(dayNumber);
  return `${year}-${pad2(month)}-${pad2(day)}`;
}

/** `YYYY-MM-DD HH:MM` of a wall-clock minute number. */
export function formatMinute(minuteNumber: number): string {
  const dayNumber = Math.floor(minuteNumber / MINUTES_PER_DAY);
  const minuteOfDay = minuteNumber - dayNumber * MINUTES_PER_DAY;
  return `${formatDay(dayNumber)} ${pad2(Math.floor(minuteOfDay / 60))}:${pad2(minuteOfDay % 60)}`;
}

let secondsTable: string[] | undefined;

/** `SS.fff` for each millisecond of a minute (60,000 strings, built once): ticks format fast. */
export function secondsAndMillis(): string[] {
  if (secondsTable) return secondsTable;
  const table: string[] = new Array(60_000);
  for (let ms = 0; ms < 60_000; ms++) {
    const millis = ms % 1000;
    table[ms] = `${pad2(Math.floor(ms / 1000))}.${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}`;
  }
  secondsTable = table;
  return table;
}

/** Start (2nd Sunday of March) and end (1st Sunday of November) days of US daylight time. */
export function usDaylightDays(year: number): { start: number; end: number } {
  return { start: nthWeekday(year, 3, 0, 2), end: nthWeekday(year, 11, 0, 1) };
}

/** True when the wall-clock instant is in daylight time (US rule; the changes happen at 02:00 local). */
function isDaylightUtc(utcMs: number, zone: Zone): boolean {
  const { year } = ymdOf(Math.floor(utcMs / MS_PER_DAY));
  const { start, end } = usDaylightDays(year);
  const standard = STANDARD_OFFSET_HOURS[zone] * 3_600_000;
  const startUtc = start * MS_PER_DAY + 2 * 3_600_000 - standard;
  const endUtc = end * MS_PER_DAY + 2 * 3_600_000 - (standard + 3_600_000);
  return utcMs >= startUtc && utcMs < endUtc;
}

/** Wall-clock ms in `zone` of a real instant. */
export function wallClockOf(instant: Date, zone: Zone): number {
  const utcMs = instant.getTime();
  const offsetHours = STANDARD_OFFSET_HOURS[zone] + (isDaylightUtc(utcMs, zone) ? 1 : 0);
  return utcMs + offsetHours * 3_600_000;
}
