import { usageError } from '../model/errors.js';
import type { WallTime } from '../model/wall-time.js';
import { formatterFor, offsetsOf, wallSpan } from './zone-offsets.js';

/**
 * Time zones through Intl (zone-offsets.ts). Two rules hold everywhere:
 * - A wall time in a spring-forward gap is read as if the clock had not yet moved forward: with the
 *   offset in force before the transition (America/New_York 2025-03-09 02:30 is read as 02:30 EST,
 *   07:30Z, shown as 03:30 EDT). It is the rule of java.time and of Temporal's 'compatible'.
 * - A wall time in an autumn fold has two instants; the caller says which (the converter by row order).
 */

/** True when Intl knows `name` as a time zone (IANA names and their aliases, in any case). */
export function isValidTimeZone(name: string): boolean {
  // Newer Intl (ECMA-402 2024) also takes offsets such as '+01:00' as zones: keep Node 20 and 24 alike.
  if (typeof name !== 'string' || !/^[A-Za-z]/.test(name)) return false;
  try {
    formatterFor(name);
    return true;
  } catch {
    return false;
  }
}

/**
 * Returns quietly for a valid zone; otherwise throws a usage error naming the option as the caller does
 * (`label`), and carrying `option`, the option it is about.
 */
export function assertTimeZone(name: string, label: string, option?: string): void {
  if (!isValidTimeZone(name)) {
    throw usageError(`${label} '${name}': not an IANA time zone such as America/New_York or UTC`, option);
  }
}

/** The `timeZone` option's value for instants in UTC, written with `Z` (a zone is written with its offset). */
export const UTC_FORM = 'utc';

/**
 * The time form timestamps are written in, decided here for every surface: UTC (`--utc`, or a dataset's
 * `tz = "UTC"` in any case, its one way to say it), an IANA zone (`--tz`, `tz`), or, when neither is
 * asked for, the market's wall clock as served (undefined).
 */
export function timeZoneOptionOf(ask: {
  utc?: boolean;
  zone?: string;
  utcByName?: boolean;
}): string | undefined {
  if (ask.utc) return UTC_FORM;
  if (ask.zone !== undefined && ask.utcByName && ask.zone.toUpperCase() === 'UTC') return UTC_FORM;
  return ask.zone;
}

/** The IANA name of a `timeZone` option's zone, as metadata names it: `UTC` for the UTC form. */
export const zoneNameOf = (timeZone: string): string => (timeZone === UTC_FORM ? 'UTC' : timeZone);

/** The instant `zone`'s clocks show as `wall`: `which` picks a fold's pass; a gap takes the offset before. */
export function utcOfWallTime(wall: WallTime, zone: string, which: 'earlier' | 'later'): Date {
  const time = wall.getTime();
  const span = wallSpan(offsetsOf(zone), time);
  const isFold = span.before > span.after;
  return new Date(time - (isFold && which === 'later' ? span.after : span.before));
}

/** The wall clock of `zone` at `instant`, as a WallTime (UTC fields = that wall clock). */
export function wallTimeOf(instant: Date, zone: string): WallTime {
  const time = instant.getTime();
  return new Date(time + offsetsOf(zone).segment(time).offset);
}
